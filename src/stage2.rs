//! Stage 2 of the fast path: decide a line's validity and split it from the
//! masks of [`crate::simd`], in safe scalar code.
//!
//! For a line of `n` bytes, with every mask cleared past `n`:
//!
//! 1. the first of `: / ? #` (a trailing-zero count) ends the scheme when it
//!    is a `:` at offset > 0; the scheme's few bytes are checked by the table;
//! 2. `//` then opens the authority, which the first of `/ ? #` ends; it is
//!    checked by the reference code ([`crate::validate::check_authority`]),
//!    being short and rich in rules;
//! 3. the rest, path + query + fragment, is valid exactly when it has no byte
//!    outside the URI alphabet, no `[` or `]`, no `#` after the first, and
//!    every `%` is followed by two hex digits: `?` `/` `:` `@` and the other
//!    reserved bytes are all allowed there. Each of these is a few ANDs per
//!    64-byte block, and the boundaries of query and fragment are two more
//!    trailing-zero counts.
//!
//! Stage 2 answers valid (with the split and the authority's parts, identical
//! to the reference) or invalid; the reference validator then says where and
//! why. Lines longer than [`MAX_BLOCKS`] blocks go to the reference too.

use crate::simd::Masks;
use crate::split::{Span, Split};
use crate::table::{self, TABLE};
use crate::validate::{check_authority, is_ipv4, Authority, HostKind, Mode};

/// Turns a 64-byte block into masks. Implemented once per backend.
pub(crate) trait Classify {
    fn classify(&self, block: &[u8; 64]) -> Masks;
}

/// The lines that stage 2 handles: up to `64 x MAX_BLOCKS` bytes.
pub(crate) const MAX_BLOCKS: usize = 4;

/// What stage 2 decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Valid: the split and the authority's parts.
    Valid(Split, Option<Authority>),
    /// Invalid, or too long for stage 2: ask the reference validator.
    Reference,
}

/// Lookup tables for a byte set, indexed by nibble: byte `b < 0x80` is in the
/// set when `lo[b & 15] & hi[b >> 4] != 0`; `hi` is 0 for bytes >= 0x80,
/// which no URI class holds.
pub(crate) struct NibbleTables {
    pub(crate) lo: [u8; 16],
    pub(crate) hi: [u8; 16],
}

impl NibbleTables {
    /// The tables of the bytes that are in any class of `mask`.
    pub(crate) const fn new(mask: u16) -> NibbleTables {
        let mut lo = [0u8; 16];
        let mut hi = [0u8; 16];
        let mut b = 0;
        while b < 128 {
            if TABLE[b] & mask != 0 {
                lo[b & 15] |= 1 << (b >> 4);
            }
            b += 1;
        }
        let mut h = 0;
        while h < 8 {
            hi[h] = 1 << h;
            h += 1;
        }
        NibbleTables { lo, hi }
    }

    /// The tables of the bytes below 0x80 that are in no class of `mask`.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) const fn complement(mask: u16) -> NibbleTables {
        let mut lo = [0u8; 16];
        let mut hi = [0u8; 16];
        let mut b = 0;
        while b < 128 {
            if TABLE[b] & mask == 0 {
                lo[b & 15] |= 1 << (b >> 4);
            }
            b += 1;
        }
        let mut h = 0;
        while h < 8 {
            hi[h] = 1 << h;
            h += 1;
        }
        NibbleTables { lo, hi }
    }
}

/// The bits of block `k` at line offsets `>= from`.
#[inline(always)]
fn from_bit(k: usize, from: usize) -> u64 {
    let first = 64 * k;
    if from <= first {
        !0
    } else if from - first >= 64 {
        0
    } else {
        !0 << (from - first)
    }
}

/// The offset of the first bit of `sel` at or after `from`, or `n`.
#[inline(always)]
fn first(m: &[Masks], sel: impl Fn(&Masks) -> u64, from: usize, n: usize) -> usize {
    let mut k = from / 64;
    while k < m.len() {
        let w = sel(&m[k]) & from_bit(k, from);
        if w != 0 {
            return 64 * k + w.trailing_zeros() as usize;
        }
        k += 1;
    }
    n
}

/// Classifies the 64 bytes of `buf` at `at`, zero bytes standing in past its
/// end.
#[inline(always)]
fn classify_at<C: Classify>(c: &C, buf: &[u8], at: usize) -> Masks {
    match buf.get(at..at + 64) {
        Some(b) => c.classify(b.try_into().expect("64 bytes")),
        None => {
            let mut tmp = [0u8; 64];
            let rest = &buf[at.min(buf.len())..];
            tmp[..rest.len()].copy_from_slice(rest);
            c.classify(&tmp)
        }
    }
}

/// The end of a line's content (one CR before a found LF dropped) and the
/// offset of the next line, given the offset `raw_end` of its LF or end.
#[inline(always)]
pub(crate) fn ends(buf: &[u8], start: usize, raw_end: usize, find_lf: bool) -> (usize, usize) {
    if !find_lf {
        return (raw_end, raw_end);
    }
    let next = if raw_end < buf.len() {
        raw_end + 1
    } else {
        raw_end
    };
    let content_end = if raw_end > start && buf[raw_end - 1] == b'\r' {
        raw_end - 1
    } else {
        raw_end
    };
    (content_end, next)
}

/// Finds the line at `start` of `buf` (ending at `end`, or else at the next
/// LF, one CR before it dropped), classifies it with `c` and decides it.
/// Returns the end of the line's content, the offset after its terminator
/// and the outcome.
#[inline(always)]
pub(crate) fn scan_line<C: Classify>(
    c: &C,
    buf: &[u8],
    start: usize,
    end: Option<usize>,
    mode: Mode,
) -> (usize, usize, Outcome) {
    // The common case: the line ends within its first two blocks, and its
    // masks fit in `u128`s.
    let m0 = classify_at(c, buf, start);
    let mut m1 = Masks::default();
    let raw_end = match end {
        Some(e) if e - start <= 64 => Some(e),
        Some(e) => {
            m1 = classify_at(c, buf, start + 64);
            (e - start <= 128).then_some(e)
        }
        None if m0.lf != 0 => Some(start + m0.lf.trailing_zeros() as usize),
        None if start + 64 >= buf.len() => Some(buf.len()),
        None => {
            m1 = classify_at(c, buf, start + 64);
            if m1.lf != 0 {
                Some(start + 64 + m1.lf.trailing_zeros() as usize)
            } else if start + 128 >= buf.len() {
                Some(buf.len())
            } else {
                None
            }
        }
    };
    match raw_end {
        Some(raw_end) => {
            let (content_end, next) = ends(buf, start, raw_end, end.is_none());
            let line = &buf[start..content_end];
            let outcome = if line.len() <= 64 {
                decide_wide(&Wide::<u64>::new(m0, m1, line.len()), line, mode)
            } else {
                decide_wide(&Wide::<u128>::new(m0, m1, line.len()), line, mode)
            };
            (content_end, next, outcome)
        }
        None => scan_long_line(c, buf, start, end, mode, [m0, m1]),
    }
}

/// [`scan_line`] for a line longer than two blocks.
#[inline(never)]
fn scan_long_line<C: Classify>(
    c: &C,
    buf: &[u8],
    start: usize,
    end: Option<usize>,
    mode: Mode,
    first_two: [Masks; 2],
) -> (usize, usize, Outcome) {
    let mut m = [Masks::default(); MAX_BLOCKS];
    m[..2].copy_from_slice(&first_two);
    let mut blocks = 2;
    // INVARIANT: `raw_end` is the offset of the LF (or the end) once found.
    let mut raw_end = None;
    while blocks < MAX_BLOCKS {
        let at = start + 64 * blocks;
        m[blocks] = classify_at(c, buf, at);
        blocks += 1;
        match end {
            Some(e) if at + 64 >= e => {
                raw_end = Some(e);
                break;
            }
            Some(_) => {}
            None if m[blocks - 1].lf != 0 => {
                raw_end = Some(at + m[blocks - 1].lf.trailing_zeros() as usize);
                break;
            }
            None if at + 64 >= buf.len() => {
                raw_end = Some(buf.len());
                break;
            }
            None => {}
        }
    }
    let found = raw_end.is_some();
    let raw_end = raw_end.unwrap_or_else(|| match end {
        Some(e) => e,
        None => memchr::memchr(b'\n', &buf[start..]).map_or(buf.len(), |i| start + i),
    });
    let (content_end, next) = ends(buf, start, raw_end, end.is_none());
    if !found {
        return (content_end, next, Outcome::Reference);
    }
    let n = content_end - start;
    let line = &buf[start..content_end];
    let m = &mut m[..blocks];
    for (k, masks) in m.iter_mut().enumerate() {
        *masks = masks.and(!from_bit(k, n));
    }
    (content_end, next, decide(m, line, mode))
}

/// An integer used as a bitmask of line offsets: `u64` for lines of up to 64
/// bytes, `u128` for up to 128.
trait Bits:
    Copy
    + Eq
    + core::ops::BitAnd<Output = Self>
    + core::ops::BitOr<Output = Self>
    + core::ops::Not<Output = Self>
    + core::ops::Shr<usize, Output = Self>
{
    const ZERO: Self;
    fn from_masks(m0: u64, m1: u64) -> Self;
    fn trailing_zeros(self) -> u32;
    fn count_ones(self) -> u32;
    fn one(self) -> bool;
    /// The bits below `k`.
    fn below(k: usize) -> Self;
}

impl Bits for u64 {
    const ZERO: u64 = 0;
    #[inline(always)]
    fn from_masks(m0: u64, _: u64) -> u64 {
        m0
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        u64::trailing_zeros(self)
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        u64::count_ones(self)
    }
    #[inline(always)]
    fn one(self) -> bool {
        self & 1 != 0
    }
    #[inline(always)]
    fn below(k: usize) -> u64 {
        if k >= 64 {
            !0
        } else {
            (1u64 << k) - 1
        }
    }
}

impl Bits for u128 {
    const ZERO: u128 = 0;
    #[inline(always)]
    fn from_masks(m0: u64, m1: u64) -> u128 {
        u128::from(m0) | u128::from(m1) << 64
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        u128::trailing_zeros(self)
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        u128::count_ones(self)
    }
    #[inline(always)]
    fn one(self) -> bool {
        self & 1 != 0
    }
    #[inline(always)]
    fn below(k: usize) -> u128 {
        if k >= 128 {
            !0
        } else {
            (1u128 << k) - 1
        }
    }
}

/// The masks of a line of at most 64 (`u64`) or 128 (`u128`) bytes, cleared
/// past its end.
struct Wide<T> {
    colon: T,
    slash: T,
    question: T,
    hash: T,
    percent: T,
    at: T,
    brackets: T,
    hex: T,
    bad: T,
}

/// The offset of the lowest bit of `w`, or `none`.
#[inline(always)]
fn lowest<T: Bits>(w: T, none: usize) -> usize {
    if w == T::ZERO {
        none
    } else {
        w.trailing_zeros() as usize
    }
}

impl<T: Bits> Wide<T> {
    #[inline(always)]
    fn new(m0: Masks, m1: Masks, n: usize) -> Wide<T> {
        let live = T::below(n);
        let join = |a: u64, b: u64| T::from_masks(a, b) & live;
        Wide {
            colon: join(m0.colon, m1.colon),
            slash: join(m0.slash, m1.slash),
            question: join(m0.question, m1.question),
            hash: join(m0.hash, m1.hash),
            percent: join(m0.percent, m1.percent),
            at: join(m0.at, m1.at),
            brackets: join(m0.brackets, m1.brackets),
            hex: join(m0.hex, m1.hex),
            bad: join(m0.bad, m1.bad),
        }
    }
}

/// [`decide`] for a line of at most 128 bytes: the same steps, straight-line.
#[inline(always)]
fn decide_wide<T: Bits>(w: &Wide<T>, line: &[u8], mode: Mode) -> Outcome {
    let n = line.len();
    // 1. Scheme: up to the first of `: / ? #` when that is a `:` at > 0.
    let d = lowest(w.colon | w.slash | w.question | w.hash, n);
    let mut pos = 0;
    let scheme = if d < n && d > 0 && (w.colon >> d).one() {
        if !table::is(line[0], table::ALPHA)
            || !line[1..d].iter().all(|&b| table::is(b, table::SCHEME))
        {
            return Outcome::Reference;
        }
        pos = d + 1;
        Some(Span::new(0, d))
    } else {
        if mode != Mode::Reference || w.colon.one() {
            return Outcome::Reference;
        }
        None
    };
    // 2. Authority: `//` up to the first of `/ ? #`.
    let mut authority = None;
    let mut parts = None;
    if line[pos..].starts_with(b"//") {
        let start = pos + 2;
        let end = lowest((w.slash | w.question | w.hash) & !T::below(start), n);
        let a = Span::new(start, end);
        let here = T::below(end) & !T::below(start);
        let colons = w.colon & here;
        let plain = (w.at | w.brackets | w.percent | w.bad) & here == T::ZERO
            && colons.count_ones() <= 1
            && line[lowest(colons, end)..end]
                .iter()
                .skip(1)
                .all(u8::is_ascii_digit);
        if plain {
            let host_end = lowest(colons, end);
            let host = &line[start..host_end];
            let kind = if host.first().is_some_and(u8::is_ascii_digit) && is_ipv4(host) {
                HostKind::Ipv4
            } else {
                HostKind::RegName
            };
            parts = Some(Authority::plain(
                start,
                host_end,
                end,
                kind,
                colons != T::ZERO,
            ));
        } else {
            match check_authority(line, a) {
                Ok(p) => parts = Some(p),
                Err(_) => return Outcome::Reference,
            }
        }
        authority = Some(a);
        pos = end;
    }
    // 3. Path, query and fragment.
    let tail = !T::below(pos);
    let h = lowest(w.hash & tail, n);
    if h < n && mode == Mode::Absolute {
        return Outcome::Reference;
    }
    let wrong = ((w.bad | w.brackets | (w.percent & !((w.hex >> 1) & (w.hex >> 2)))) & tail)
        | (w.hash & !T::below(h + 1));
    if wrong != T::ZERO {
        return Outcome::Reference;
    }
    let q = lowest(w.question & tail & T::below(h), h);
    Outcome::Valid(
        Split::new(
            scheme,
            authority,
            Span::new(pos, q),
            (q < h).then(|| Span::new(q + 1, h)),
            (h < n).then(|| Span::new(h + 1, n)),
            n,
        ),
        parts,
    )
}

/// The common authority, from the masks: a `reg-name` or `IPv4address` host
/// with no userinfo, and perhaps a port. Such an authority holds no `@`, `[`,
/// `]`, `%` or byte outside the alphabet, and at most one `:`; all its other
/// bytes are `unreserved` or `sub-delims`, which is what `reg-name` allows.
/// `None` when the authority is not of that form (it may still be valid).
#[inline(always)]
fn plain_authority(m: &[Masks], line: &[u8], a: Span) -> Option<Authority> {
    let mut special = 0;
    let mut colons = 0;
    for (k, x) in m.iter().enumerate().skip(a.start / 64) {
        let here = from_bit(k, a.start) & !from_bit(k, a.end);
        special |= (x.at | x.brackets | x.percent | x.bad) & here;
        colons += (x.colon & here).count_ones();
    }
    if special != 0 || colons > 1 {
        return None;
    }
    let host_end = if colons == 1 {
        let colon = first(m, |x| x.colon, a.start, a.end);
        if !line[colon + 1..a.end].iter().all(u8::is_ascii_digit) {
            return None;
        }
        colon
    } else {
        a.end
    };
    let host = &line[a.start..host_end];
    let kind = if host.first().is_some_and(u8::is_ascii_digit) && is_ipv4(host) {
        HostKind::Ipv4
    } else {
        HostKind::RegName
    };
    Some(Authority::plain(
        a.start,
        host_end,
        a.end,
        kind,
        colons == 1,
    ))
}

/// Stage 2 proper, on a line whose masks are cleared past its end.
#[inline(always)]
fn decide(m: &[Masks], line: &[u8], mode: Mode) -> Outcome {
    let n = line.len();
    // 1. Scheme: up to the first of `: / ? #` when that is a `:` at > 0.
    let d = first(m, |x| x.colon | x.slash | x.question | x.hash, 0, n);
    let mut pos = 0;
    let scheme = if d < n && d > 0 && line[d] == b':' {
        if !table::is(line[0], table::ALPHA)
            || !line[1..d].iter().all(|&b| table::is(b, table::SCHEME))
        {
            return Outcome::Reference;
        }
        pos = d + 1;
        Some(Span::new(0, d))
    } else {
        // A relative reference: not a URI, and not starting with `:`.
        if mode != Mode::Reference || (n > 0 && line[0] == b':') {
            return Outcome::Reference;
        }
        None
    };
    // 2. Authority: `//` up to the first of `/ ? #`.
    let mut authority = None;
    let mut parts = None;
    if line[pos..].starts_with(b"//") {
        let a = Span::new(
            pos + 2,
            first(m, |x| x.slash | x.question | x.hash, pos + 2, n),
        );
        match plain_authority(m, line, a) {
            Some(p) => parts = Some(p),
            None => match check_authority(line, a) {
                Ok(p) => parts = Some(p),
                Err(_) => return Outcome::Reference,
            },
        }
        authority = Some(a);
        pos = a.end;
    }
    // 3. Path, query and fragment, a block at a time.
    let h = first(m, |x| x.hash, pos, n);
    if h < n && mode == Mode::Absolute {
        return Outcome::Reference;
    }
    let mut wrong = 0;
    for k in pos / 64..m.len() {
        let x = &m[k];
        let (next_hex, next_len) = match m.get(k + 1) {
            Some(y) => (y.hex, true),
            None => (0, false),
        };
        let hex1 = x.hex >> 1 | if next_len { next_hex << 63 } else { 0 };
        let hex2 = x.hex >> 2 | if next_len { next_hex << 62 } else { 0 };
        let here = from_bit(k, pos);
        wrong |= (x.bad | x.brackets | (x.percent & !(hex1 & hex2))) & here;
        wrong |= x.hash & from_bit(k, h + 1);
    }
    if wrong != 0 {
        return Outcome::Reference;
    }
    let q = first(m, |x| x.question, pos, h);
    let split = Split::new(
        scheme,
        authority,
        Span::new(pos, q.min(h)),
        (q < h).then(|| Span::new(q + 1, h)),
        (h < n).then(|| Span::new(h + 1, n)),
        n,
    );
    Outcome::Valid(split, parts)
}
