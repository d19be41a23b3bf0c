//! The usual line's fast path: a short scheme or none, an authority of a
//! `reg-name` or IPv4 host and a port, or none, and no special byte but good
//! percent-encodings, decided from the masks with one branch on its shape
//! ([`decide_plain`]); and the error of such a line but for one bad byte
//! ([`plain_fault`]).

use super::lanes::Bits;
use super::window::{Bitmaps, Head};
use super::{Notes, Outcome, Sel, COLON, HASH, PATHBAD, QUESTION, SLASH};
use crate::classes;
use crate::grammar::authority::Authority;
use crate::grammar::check::check_port;
use crate::grammar::error::{Component, Error, ErrorKind};
use crate::grammar::split::{Span, Split};
use crate::grammar::Mode;

/// Whether `line[..d]` is a `scheme`: `ALPHA *( ALPHA / DIGIT / "+" / "-" /
/// "." )`. A scheme of up to 8 bytes (almost all) is checked on one word,
/// with no branch on its length ([`head_scheme_misfits`]).
#[inline(always)]
pub(super) fn is_scheme(line: &[u8], d: usize) -> bool {
    if let (Some(head), 1..=8) = (line.first_chunk::<8>(), d) {
        return is_short_scheme(u64::from_le_bytes(*head), d);
    }
    classes::is(line[0], classes::ALPHA)
        && line[1..d].iter().all(|&b| classes::is(b, classes::SCHEME))
}

/// Whether the first `d` bytes of `head` (a line's first 8, little-endian)
/// are a `scheme`, with `d` in `1..=8` (false for any other `d`): with no
/// branch, whatever `d`.
#[inline(always)]
pub(super) fn is_short_scheme(head: u64, d: usize) -> bool {
    // The low `d` bytes of a word.
    let low_bytes = u64::MAX >> (64 - 8 * d.clamp(1, 8));
    (1..=8).contains(&d) & (head_scheme_misfits(head) & low_bytes == 0)
}

/// Bit 7 of byte `i` of `word` (the first 8 bytes of a line, little-endian)
/// set when that byte may not be byte `i` of a scheme: an `ALPHA` first,
/// then `ALPHA / DIGIT / "+" / "-" / "."`. All eight bytes at once, in a
/// few word operations (SWAR): a fixed cost where a lookup per byte cost
/// about 30 instructions per line (callgrind).
#[inline(always)]
pub(super) fn head_scheme_misfits(word: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = ONES * 0x80;
    // Bit 7 of each byte of `v` (bytes below 0x80) set when the byte is at
    // least `lo`: the sums stay below 0x100, so no byte carries into the next.
    let at_least = |v: u64, lo: u8| v + ONES * u64::from(0x80 - lo);
    let y = word & !HIGH;
    let lower = y | (ONES * 0x20);
    let alpha = at_least(lower, b'a') & !at_least(lower, b'z' + 1);
    let digit = at_least(y, b'0') & !at_least(y, b'9' + 1);
    // `+ , - .` but the `,`.
    let mark =
        at_least(y, b'+') & !at_least(y, b'.' + 1) & at_least(y ^ (ONES * u64::from(b',')), 1);
    (word | !(alpha | (digit | mark) & !0xff)) & HIGH
}

/// The usual line, decided with one branch on its shape: a scheme of at
/// most 8 bytes or none (`relative-ref`), an authority or none, and no
/// special byte but good percent-encodings anywhere (so no userinfo and no
/// IP literal: the authority is a `reg-name` or IPv4 host and perhaps a
/// port), with at most one `#` (none for `absolute-URI`).
///
/// Every test and every offset is computed from the line's masks (from bit
/// `g` of the window's `b`) whatever the line, and only their conjunction
/// is branched on (and the rare port or host that starts with a digit):
/// [`decide`], which branches on each part in turn, pays a misprediction
/// wherever consecutive lines differ in shape (a scheme or not, a query or
/// not). `None`: any other line (userinfo, IP literal, an `@` in the path, a
/// long scheme, an invalid line...), for [`decide`]. What this accepts,
/// [`decide`] accepts with the same outcome. With the outcome, the line's
/// [`Head`], for the notes of a noting scanner.
#[inline(always)]
pub(super) fn decide_plain(
    b: &Bitmaps,
    g: usize,
    line: &[u8],
    mode: Mode,
) -> Option<(Outcome, Head)> {
    // (One branch for both: a line shorter than 8 bytes, and a window of
    // relative references, `Bitmaps::branchy`.)
    let head = u64::from_le_bytes(*line.first_chunk::<8>().filter(|_| !b.branchy)?);
    let m = PlainMasks::new(b, g, line.len());
    let s = m.shape(head, mode);
    if !(s.known & (m.class(PATHBAD) == 0) & s.hashes) {
        return None;
    }
    // (The host's kind, `reg-name` or `IPv4address`, is not looked at:
    // see `Authority::host_kind`.)
    let (authority, colon, end) = (s.authority, s.colon, s.end);
    if authority && colon < end && !line[colon + 1..end].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let (n, q, h) = (line.len(), s.query, s.fragment);
    // An absent authority's parts are all zero (`Authority::NONE`).
    let keep = usize::from(authority).wrapping_neg();
    let port = authority & (colon < end);
    // What a noting scanner's notes read of the line, from its shape
    // (out of `Outcome`'s spans they cost 3% more of `normalize`).
    let parts = Head {
        scheme_end: if s.scheme { s.d } else { 0 },
        authority,
        port,
        path_start: s.path,
        path_end: q,
    };
    Some((
        Outcome {
            valid: true,
            split: Split::new(
                s.scheme.then(|| Span::new(0, s.d)),
                authority.then(|| Span::new(s.start, end)),
                Span::new(s.path, q),
                (q < h).then(|| Span::new(q + 1, h)),
                (h < n).then(|| Span::new(h + 1, n)),
                n,
            ),
            authority: Authority::plain(s.start & keep, colon & keep, end & keep, port),
            notes: Notes::NONE,
        },
        parts,
    ))
}

/// The masks of a line for [`decide_plain`]: from bit `g` of a window's
/// `b`, cleared outside the line's `n` bytes.
pub(super) struct PlainMasks<'b> {
    pub(super) b: &'b Bitmaps,
    pub(super) g: usize,
    pub(super) n: usize,
    pub(super) live: u128,
}

/// What [`decide_plain`] finds of a line before deciding: whether its
/// start is known (a scheme of 1-8 bytes, `line[..d]`, or none where a
/// relative reference may stand), its authority (if `//` is there:
/// `start..end`, the first `:` at `colon` or `end`), where its path,
/// query (its `?`) and fragment (its `#`) start (the line's length for
/// none), and whether its `#`s are few enough.
pub(super) struct Shape {
    pub(super) known: bool,
    pub(super) scheme: bool,
    pub(super) d: usize,
    pub(super) authority: bool,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) colon: usize,
    pub(super) path: usize,
    pub(super) query: usize,
    pub(super) fragment: usize,
    pub(super) hashes: bool,
}

impl PlainMasks<'_> {
    #[inline(always)]
    pub(super) fn new(b: &Bitmaps, g: usize, n: usize) -> PlainMasks<'_> {
        let o = g % 8;
        PlainMasks {
            b,
            g,
            n,
            live: <u128 as Bits>::below(o + n) & <u128 as Bits>::from_bit(o),
        }
    }

    /// The bits of the classes `sel`, loaded where used rather than all at
    /// once: fewer values live at a time, fewer spilled to the stack. (The
    /// union of classes, as `Words for &Bitmaps` gives words; a
    /// `Bitmaps::lane` taking a union measured 1-2 ns slower per line.)
    #[inline(always)]
    pub(super) fn class(&self, sel: Sel) -> u128 {
        let mut w = 0;
        for c in Bitmaps::CLASSES {
            if sel & c != 0 {
                w |= self.b.lane(c, self.g);
            }
        }
        w & self.live
    }

    /// The line's [`Shape`]; `head` is its first 8 bytes.
    #[inline(always)]
    pub(super) fn shape(&self, head: u64, mode: Mode) -> Shape {
        let (o, n) = (self.g % 8, self.n);
        let low = |x: u128| x as u64;
        // 1. The first of `: / ? #`, at bit `at`: a `:` there at 1..=8 ends a
        // scheme. It must be in the low word (`at` < 64; 64 when none there)
        // for the line to be known to have no scheme otherwise.
        let at = low(self.class(COLON | SLASH | QUESTION | HASH)).trailing_zeros() as usize;
        let d = at.wrapping_sub(o);
        let colon_first = (low(self.class(COLON)) >> (at & 63)) & 1 == 1;
        let scheme = colon_first & is_short_scheme(head, d);
        let known = (at < 64) & (colon_first == scheme) & (scheme | (mode == Mode::Reference));
        let pos = if scheme { d + 1 } else { 0 };
        // 2. `//` at `pos` (bit `o + pos` < 17) opens the authority, which the
        // first of `/ ? #` ends; its first `:` (if any) starts the port.
        let authority = (low(self.class(SLASH)) >> (o + pos)) & 3 == 3;
        let start = pos + 2;
        let from = !u128::from((1u64 << (o + start)) - 1);
        let end_bit = (self.class(SLASH | QUESTION | HASH) & from).trailing_zeros() as usize;
        let colon_bit = ((self.class(COLON) & from).trailing_zeros() as usize).min(end_bit);
        let (end, colon) = (end_bit.min(o + n) - o, colon_bit.min(o + n) - o);
        // 3. Not two `#` (none for `absolute-URI`).
        let hash = self.class(HASH);
        let hashes = if mode == Mode::Absolute {
            hash == 0
        } else {
            hash & hash.wrapping_sub(1) == 0
        };
        let fragment = (hash.trailing_zeros() as usize).min(o + n) - o;
        let query = ((self.class(QUESTION).trailing_zeros() as usize).min(o + n) - o).min(fragment);
        Shape {
            known,
            scheme,
            d,
            authority,
            start,
            end,
            colon,
            path: if authority { end } else { pos },
            query,
            fragment,
            hashes,
        }
    }
}

/// The reference's error for a line that [`decide_plain`] did not take
/// whose first fault is a byte of its path, query or fragment (most
/// invalid lines): its scheme known valid, its authority (if any) with no
/// special byte but good percent-encodings, and its first `PATHBAD` byte
/// after it not an `@`. That byte is the error (a `%` not followed by two
/// hex digits, or a byte not allowed there), unless the port has a byte
/// that is not a digit. `None` for any other line, for [`decide`]. Out of
/// line; such lines of `generated` take 43 instead of 60 ns each.
#[cold]
#[inline(never)]
pub(super) fn plain_fault(b: &Bitmaps, g: usize, line: &[u8], mode: Mode) -> Option<Error> {
    let (o, n) = (g % 8, line.len());
    let head = u64::from_le_bytes(*line.first_chunk::<8>()?);
    let m = PlainMasks::new(b, g, n);
    let s = m.shape(head, mode);
    let at = (m.class(PATHBAD).trailing_zeros() as usize).min(o + n) - o;
    if !(s.known & s.hashes & (at >= s.path) & (at < n)) || line[at] == b'@' {
        return None;
    }
    if s.authority {
        if let Err(e) = check_port(line, Span::new((s.colon + 1).min(s.end), s.end)) {
            return Some(e);
        }
    }
    let component = if at < s.query {
        Component::Path
    } else if at < s.fragment {
        Component::Query
    } else {
        Component::Fragment
    };
    // (A `%` is `PATHBAD` when its two hex digits are not both before the
    // next line feed, which is in the window: see `Bitmaps::end`.)
    let kind = match line[at] {
        b'%' => ErrorKind::BadPercentEncoding,
        b => ErrorKind::InvalidByte(b),
    };
    Some(Error::new(at, component, kind))
}
