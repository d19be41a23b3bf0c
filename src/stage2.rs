//! Stage 2 of the fast path: decide a line's validity and split it from the
//! masks of [`crate::simd`], in safe scalar code.
//!
//! A line is a run of bits at any offset of a slice of [`Masks`] (a window of
//! a chunk, classified once for all its lines). For a line of `n` bytes:
//!
//! 1. the first of `: / ? #` (a trailing-zero count) ends the scheme when it
//!    is a `:` at offset > 0; the scheme's few bytes are checked by the table;
//! 2. `//` then opens the authority, which the first of `/ ? #` ends. With no
//!    special byte in it (no userinfo, IP literal or percent-encoding), it is
//!    a `reg-name` or `IPv4address` and perhaps a port after its one `:`;
//!    any other is checked by the reference code
//!    ([`crate::validate::check_authority`]), being short and rich in rules;
//! 3. the rest, path + query + fragment, is valid exactly when it has no `#`
//!    after the first and each of its special bytes is an `@` or a `%`
//!    followed by two hex digits: `?` `/` `:`, `unreserved` and `sub-delims`
//!    are all allowed there. Most lines have no special byte at all; the
//!    boundaries of query and fragment are two more trailing-zero counts.
//!
//! Stage 2 answers valid (with the split and the authority's parts, identical
//! to the reference) or invalid; the reference validator then says where and
//! why. Lines longer than a window go to the reference too.

use crate::simd::{Backend, Masks};
use crate::split::{Span, Split};
use crate::table;
use crate::validate::{check_authority, is_ipv4, Authority, HostKind, Mode};

/// Turns a 64-byte block into masks. Implemented once per backend.
pub(crate) trait Classify {
    fn classify(&self, block: &[u8; 64]) -> Masks;

    /// The masks of `tail` (fewer than 64 bytes) padded with zero bytes.
    /// Through a zeroed copy, unless a backend loads the bytes in place.
    #[inline(always)]
    fn classify_tail(&self, tail: &[u8]) -> Masks {
        self.classify(&padded(tail))
    }
}

/// `tail` (at most 64 bytes) followed by zero bytes, as a block.
#[inline(always)]
pub(crate) fn padded(tail: &[u8]) -> [u8; 64] {
    let mut block = [0u8; 64];
    block[..tail.len()].copy_from_slice(tail);
    block
}

/// The bytes of a chunk classified at once: 1024 blocks, 64 KiB, whose masks
/// (48 KiB) stay in the L2 cache while stage 2 reads them. A longer line goes
/// to the reference validator.
const WINDOW_BLOCKS: usize = 1024;

/// The longest single input [`decide_line`] classifies (on the stack).
const LINE_BLOCKS: usize = 8;

/// What stage 2 decided: valid, with the split and the authority's parts
/// (identical to the reference's), or not known to be valid (ask the
/// reference validator). A plain struct, not an enum, so that the hot loop
/// keeps it in registers instead of copying it through the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub(crate) valid: bool,
    pub(crate) split: Split,
    pub(crate) authority: Authority,
}

impl Outcome {
    /// Not known to be valid.
    const REFERENCE: Outcome = Outcome {
        valid: false,
        split: Split::EMPTY,
        authority: Authority::NONE,
    };
}

/// Lookup tables for a byte set, indexed by nibble: byte `b < 0x80` is in the
/// set when `lo[b & 15] & hi[b >> 4] != 0`; `hi` is 0 for bytes >= 0x80,
/// which no URI class holds.
pub(crate) struct NibbleTables {
    pub(crate) lo: [u8; 16],
    pub(crate) hi: [u8; 16],
}

impl NibbleTables {
    /// The tables of the bytes `b < 0x80` with `set[b] == want`.
    pub(crate) const fn of(set: &[bool; 256], want: bool) -> NibbleTables {
        let mut lo = [0u8; 16];
        let mut hi = [0u8; 16];
        let mut b = 0;
        while b < 128 {
            if set[b] == want {
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

/// The end of a line's content (one CR before its LF dropped) and the offset
/// of the next line, given the offset `raw_end` of its LF or of the end of
/// `buf`.
#[inline(always)]
pub(crate) fn ends(buf: &[u8], start: usize, raw_end: usize) -> (usize, usize) {
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

/// Classes to query, as a set: a constant at every call, so that picking
/// the masks folds away.
const COLON: u8 = 1;
const SLASH: u8 = 2;
const QUESTION: u8 = 4;
const HASH: u8 = 8;
const SPECIAL: u8 = 16;

/// The union of the classes `sel` in `m`.
#[inline(always)]
fn pick(m: &Masks, sel: u8) -> u64 {
    let mut w = 0;
    if sel & COLON != 0 {
        w |= m.colon;
    }
    if sel & SLASH != 0 {
        w |= m.slash;
    }
    if sel & QUESTION != 0 {
        w |= m.question;
    }
    if sel & HASH != 0 {
        w |= m.hash;
    }
    if sel & SPECIAL != 0 {
        w |= m.special;
    }
    w
}

/// A line's masks, queried by line offset: in registers for a short line
/// ([`Lane`]), in the window for a long one ([`View`]). Stage 2's rules are
/// written once against this.
trait LineMasks: Copy {
    /// The first offset in `from..to` in one of the classes `sel`, or `to`.
    fn first(self, sel: u8, from: usize, to: usize) -> usize;

    /// The first offset from `from` to the end of the line (`n`) in one of
    /// the classes `sel`, or `n`.
    fn first_on(self, sel: u8, from: usize, n: usize) -> usize;

    /// Whether `ok` holds for every offset from `from` to the end of the
    /// line (`n`) in one of the classes `sel` (stops at the first that
    /// fails).
    fn all_on(self, sel: u8, from: usize, n: usize, ok: impl FnMut(usize) -> bool) -> bool;
}

/// A line's bits in a slice of masks: bit `base + i` (counting from bit 0 of
/// `m[0]`) describes byte `i` of the line. The masks cover the whole line;
/// bits past its end may be set, so every query takes an end.
#[derive(Clone, Copy)]
struct View<'m> {
    m: &'m [Masks],
    base: usize,
}

impl LineMasks for View<'_> {
    #[inline(always)]
    fn first_on(self, sel: u8, from: usize, n: usize) -> usize {
        self.first(sel, from, n)
    }

    #[inline(always)]
    fn first(self, sel: u8, from: usize, to: usize) -> usize {
        if from >= to {
            return to;
        }
        let (start, end) = (self.base + from, self.base + to);
        let mut k = start / 64;
        let mut w = pick(&self.m[k], sel) & (!0u64 << (start % 64));
        loop {
            if w != 0 {
                return (64 * k + w.trailing_zeros() as usize).min(end) - self.base;
            }
            k += 1;
            if 64 * k >= end {
                return to;
            }
            w = pick(&self.m[k], sel);
        }
    }

    #[inline(always)]
    fn all_on(self, sel: u8, from: usize, n: usize, mut ok: impl FnMut(usize) -> bool) -> bool {
        if from >= n {
            return true;
        }
        let (start, end) = (self.base + from, self.base + n);
        let mut k = start / 64;
        let mut w = pick(&self.m[k], sel) & (!0u64 << (start % 64));
        loop {
            while w != 0 {
                let at = 64 * k + w.trailing_zeros() as usize;
                if at >= end {
                    return true;
                }
                if !ok(at - self.base) {
                    return false;
                }
                w &= w - 1;
            }
            k += 1;
            if 64 * k >= end {
                return true;
            }
            w = pick(&self.m[k], sel);
        }
    }
}

/// An integer holding one bit per byte of a line: `u64` for lines of up to
/// 64 bytes, `u128` for up to 128.
trait Bits:
    Copy
    + Eq
    + core::ops::BitAnd<Output = Self>
    + core::ops::BitOr<Output = Self>
    + core::ops::Not<Output = Self>
{
    const ZERO: Self;
    /// The bits of `m` from bit `g` on (counting from bit 0 of `m[0]`),
    /// as many as `Self` holds; `m` holds enough words past `g`.
    fn load(m: &[u64], g: usize) -> Self;
    /// The bits below `k`.
    fn below(k: usize) -> Self;
    fn trailing_zeros(self) -> usize;
    /// `self` less its lowest bit.
    fn clear_lowest(self) -> Self;
}

impl Bits for u64 {
    const ZERO: u64 = 0;
    #[inline(always)]
    fn load(m: &[u64], g: usize) -> u64 {
        let (k, s) = (g / 64, g % 64);
        // `<< (63 - s) << 1` is `<< (64 - s)`, and 0 when `s` is 0.
        m[k] >> s | m[k + 1] << (63 - s) << 1
    }
    #[inline(always)]
    fn below(k: usize) -> u64 {
        if k >= 64 {
            !0
        } else {
            (1 << k) - 1
        }
    }
    #[inline(always)]
    fn trailing_zeros(self) -> usize {
        u64::trailing_zeros(self) as usize
    }
    #[inline(always)]
    fn clear_lowest(self) -> u64 {
        self & self.wrapping_sub(1)
    }
}

impl Bits for u128 {
    const ZERO: u128 = 0;
    #[inline(always)]
    fn load(m: &[u64], g: usize) -> u128 {
        let (k, s) = (g / 64, g % 64);
        // Two `u64` funnel shifts (see `u64::load`).
        let low = m[k] >> s | m[k + 1] << (63 - s) << 1;
        let high = m[k + 1] >> s | m[k + 2] << (63 - s) << 1;
        u128::from(low) | u128::from(high) << 64
    }
    #[inline(always)]
    fn below(k: usize) -> u128 {
        // A table (2 KiB, in L1) beats a variable `u128` shift.
        static BELOW: [u128; 129] = {
            let mut t = [0u128; 129];
            let mut k = 1;
            while k <= 128 {
                t[k] = t[k - 1] << 1 | 1;
                k += 1;
            }
            t
        };
        BELOW[k.min(128)]
    }
    #[inline(always)]
    fn trailing_zeros(self) -> usize {
        u128::trailing_zeros(self) as usize
    }
    #[inline(always)]
    fn clear_lowest(self) -> u128 {
        self & self.wrapping_sub(1)
    }
}

/// The masks of a line of at most 64 (`u64`) or 128 (`u128`) bytes, cleared
/// past its end: every query is a few register operations.
#[derive(Clone, Copy)]
struct Lane<T> {
    colon: T,
    slash: T,
    question: T,
    hash: T,
    special: T,
}

impl<T: Bits> Lane<T> {
    /// The masks of the `n` bytes from bit `g` of `m`, which holds two
    /// blocks past the line's last (their contents do not matter).
    #[inline(always)]
    fn new(m: &[Masks], g: usize, n: usize) -> Lane<T> {
        let k = g / 64;
        let live = T::below(n);
        let words = |f: fn(&Masks) -> u64| {
            let w = [f(&m[k]), f(&m[k + 1]), f(&m[k + 2])];
            T::load(&w, g % 64) & live
        };
        Lane {
            colon: words(|x| x.colon),
            slash: words(|x| x.slash),
            question: words(|x| x.question),
            hash: words(|x| x.hash),
            special: words(|x| x.special),
        }
    }

    #[inline(always)]
    fn pick(self, sel: u8) -> T {
        let mut w = T::ZERO;
        if sel & COLON != 0 {
            w = w | self.colon;
        }
        if sel & SLASH != 0 {
            w = w | self.slash;
        }
        if sel & QUESTION != 0 {
            w = w | self.question;
        }
        if sel & HASH != 0 {
            w = w | self.hash;
        }
        if sel & SPECIAL != 0 {
            w = w | self.special;
        }
        w
    }
}

impl<T: Bits> LineMasks for Lane<T> {
    #[inline(always)]
    fn first_on(self, sel: u8, from: usize, n: usize) -> usize {
        // The masks are clear from `n` on.
        let w = self.pick(sel) & !T::below(from);
        if w == T::ZERO {
            n
        } else {
            w.trailing_zeros()
        }
    }

    #[inline(always)]
    fn first(self, sel: u8, from: usize, to: usize) -> usize {
        let w = self.pick(sel) & !T::below(from) & T::below(to);
        if w == T::ZERO {
            to
        } else {
            w.trailing_zeros()
        }
    }

    #[inline(always)]
    fn all_on(self, sel: u8, from: usize, _n: usize, mut ok: impl FnMut(usize) -> bool) -> bool {
        // The masks are clear from `n` on.
        let mut w = self.pick(sel) & !T::below(from);
        while w != T::ZERO {
            if !ok(w.trailing_zeros()) {
                return false;
            }
            w = w.clear_lowest();
        }
        true
    }
}

/// Decides the line of `n` bytes at bit `g` of `m` (which holds two blocks
/// past the line's last): in registers when it is short.
#[inline(always)]
fn decide_at(m: &[Masks], g: usize, line: &[u8], mode: Mode) -> Outcome {
    let n = line.len();
    if n <= 64 {
        decide(Lane::<u64>::new(m, g, n), line, mode)
    } else if n <= 128 {
        decide(Lane::<u128>::new(m, g, n), line, mode)
    } else {
        decide(View { m, base: g }, line, mode)
    }
}

/// Stage 2 proper: decides `line` from its masks `v`.
#[inline(always)]
fn decide(v: impl LineMasks, line: &[u8], mode: Mode) -> Outcome {
    let n = line.len();
    // 1. Scheme: up to the first of `: / ? #` when that is a `:` at > 0.
    let d = v.first_on(COLON | SLASH | QUESTION | HASH, 0, n);
    let mut pos = 0;
    let scheme = if d < n && d > 0 && line[d] == b':' {
        if !table::is(line[0], table::ALPHA)
            || !line[1..d].iter().all(|&b| table::is(b, table::SCHEME))
        {
            return Outcome::REFERENCE;
        }
        pos = d + 1;
        Some(Span::new(0, d))
    } else {
        // A relative reference: not a URI, and not starting with `:`
        // (`path-noscheme`; any later `:` of its first segment would have
        // made a scheme).
        if mode != Mode::Reference || line.first() == Some(&b':') {
            return Outcome::REFERENCE;
        }
        None
    };
    // 2. Authority: `//` up to the first of `/ ? #`.
    let mut authority = None;
    let mut parts = Authority::NONE;
    if line[pos..].starts_with(b"//") {
        let start = pos + 2;
        let end = v.first_on(SLASH | QUESTION | HASH, start, n);
        let a = Span::new(start, end);
        // The common authority: no special byte, so only `unreserved`,
        // `sub-delims` and `:`: a host, then a port of digits after the first
        // `:`. Any other goes to the reference code.
        let colon = v.first(COLON, start, end);
        let port = &line[(colon + 1).min(end)..end];
        if v.first(SPECIAL, start, end) == end && port.iter().all(u8::is_ascii_digit) {
            let host = &line[start..colon];
            let kind = if host.first().is_some_and(u8::is_ascii_digit) && is_ipv4(host) {
                HostKind::Ipv4
            } else {
                HostKind::RegName
            };
            parts = Authority::plain(start, colon, end, kind, colon < end);
        } else {
            match check_authority(line, a) {
                Ok(p) => parts = p,
                Err(_) => return Outcome::REFERENCE,
            }
        }
        authority = Some(a);
        pos = end;
    }
    // 3. Path, query and fragment.
    let h = v.first_on(HASH, pos, n);
    if h < n && (mode == Mode::Absolute || v.first_on(HASH, h + 1, n) < n) {
        return Outcome::REFERENCE;
    }
    let hex = |b: u8| table::is(b, table::HEXDIG);
    let ok = v.all_on(SPECIAL, pos, n, |p| match line[p] {
        b'@' => true,
        b'%' => p + 2 < n && hex(line[p + 1]) && hex(line[p + 2]),
        _ => false,
    });
    if !ok {
        return Outcome::REFERENCE;
    }
    let q = v.first(QUESTION, pos, h);
    Outcome {
        valid: true,
        split: Split::new(
            scheme,
            authority,
            Span::new(pos, q),
            (q < h).then(|| Span::new(q + 1, h)),
            (h < n).then(|| Span::new(h + 1, n)),
            n,
        ),
        authority: parts,
    }
}

/// Stage 1 + stage 2 of a single input, its masks on the stack: inputs
/// longer than that go to the reference.
#[inline]
pub(crate) fn decide_line(backend: Backend, line: &[u8], mode: Mode) -> Outcome {
    if line.len() > 64 * LINE_BLOCKS {
        return Outcome::REFERENCE;
    }
    // Two more blocks than the line needs, for `Lane::new`; no more than
    // that to zero for the usual short line.
    if line.len() <= 128 {
        let mut m = [Masks::default(); 4];
        backend.classify_blocks(line, &mut m[..line.len().div_ceil(64)]);
        return decide_at(&m, 0, line, mode);
    }
    let mut m = [Masks::default(); LINE_BLOCKS + 2];
    backend.classify_blocks(line, &mut m[..line.len().div_ceil(64)]);
    decide_at(&m, 0, line, mode)
}

/// The lines of a chunk, decided a window at a time: stage 1 classifies a
/// window starting at a line, stage 2 decides each line that ends in it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scanner {
    /// The window's masks, and two blocks more for `Lane::new`.
    masks: Vec<Masks>,
    /// The offset in the chunk of bit 0 of `masks[0]`.
    base: usize,
    /// How many bytes from `base` the masks describe.
    covered: usize,
}

impl Scanner {
    /// Decides the line at `start` of `data` (ending at the next LF or at
    /// the end of `data`, one CR before the LF dropped). Returns the end of
    /// its content, the offset of the next line and the outcome.
    #[inline(always)]
    pub(crate) fn line(
        &mut self,
        backend: Backend,
        data: &[u8],
        start: usize,
        mode: Mode,
    ) -> (usize, usize, Outcome) {
        let mut filled = false;
        let raw_end = loop {
            if start >= self.base && start < self.base + self.covered {
                if let Some(lf) = self.lf(start - self.base) {
                    break self.base + lf;
                }
                if self.base + self.covered == data.len() {
                    break data.len();
                }
            }
            if filled {
                // Longer than a window: no masks for it.
                let raw_end =
                    memchr::memchr(b'\n', &data[start..]).map_or(data.len(), |i| start + i);
                let (content_end, next) = ends(data, start, raw_end);
                return (content_end, next, Outcome::REFERENCE);
            }
            self.fill(backend, data, start);
            filled = true;
        };
        let (content_end, next) = ends(data, start, raw_end);
        let line = &data[start..content_end];
        (
            content_end,
            next,
            decide_at(&self.masks, start - self.base, line, mode),
        )
    }

    /// The offset from `base` of the first LF at or after `from`, if the
    /// window holds one.
    #[inline(always)]
    fn lf(&self, from: usize) -> Option<usize> {
        let mut k = from / 64;
        let mut w = self.masks[k].lf & (!0u64 << (from % 64));
        loop {
            if w != 0 {
                let at = 64 * k + w.trailing_zeros() as usize;
                return (at < self.covered).then_some(at);
            }
            k += 1;
            if 64 * k >= self.covered {
                return None;
            }
            w = self.masks[k].lf;
        }
    }

    /// Classifies the window of `data` that starts at `start`.
    #[inline(never)]
    fn fill(&mut self, backend: Backend, data: &[u8], start: usize) {
        let len = (64 * WINDOW_BLOCKS).min(data.len() - start);
        let blocks = len.div_ceil(64);
        if self.masks.len() < blocks + 2 {
            self.masks.resize(blocks + 2, Masks::default());
        }
        backend.classify_blocks(&data[start..start + len], &mut self.masks[..blocks]);
        self.base = start;
        self.covered = len;
    }
}
