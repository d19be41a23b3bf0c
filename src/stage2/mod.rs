//! Stage 2 of the fast path: decide a line's validity and split it from the
//! masks of [`crate::simd`], in safe scalar code.
//!
//! A line is a run of bits at any offset of a window of a chunk, classified
//! once for all its lines and kept as one bit array per class, so that a
//! line's masks are one unaligned 16-byte load per class (a single URI's
//! come from its own [`Masks`]). For a line of `n` bytes:
//!
//! 1. the first of `: / ? #` (a trailing-zero count) ends the scheme when it
//!    is a `:` at offset > 0; the scheme's few bytes are checked by the table,
//!    a fixed number of lookups for a scheme of up to 8 bytes;
//! 2. `//` then opens the authority, which the first of `/ ? #` ends. Its
//!    special bytes, few or none, are looked at one by one
//!    ([`authority_parts`]): the first `@` ends a userinfo, a `[` at the
//!    host's start opens an IP literal (checked by the reference's own
//!    code) up to the next, its `]`, and any other must start a good
//!    percent-encoding; then the host is a `reg-name` or `IPv4address` up to
//!    its first `:`, and a port of digits follows. Any other authority is
//!    checked by the reference code ([`crate::grammar::check::check_authority`]),
//!    which gives its error;
//! 3. the rest, path + query + fragment, is valid exactly when it has no `#`
//!    after the first and each of its special bytes is an `@` or a `%`
//!    followed by two hex digits: `?` `/` `:`, `unreserved` and `sub-delims`
//!    are all allowed there. The `%` and hex-digit masks give the special
//!    bytes that are not such a `%` (`PATHBAD`) with a few shifts, so most
//!    lines need no loop over their special bytes; only an `@` (or an
//!    invalid line) sends stage 2 through those `PATHBAD` bytes one by one
//!    (each must be an `@`). The boundaries of query and fragment are two
//!    more trailing-zero counts.
//!
//! The usual line, though, goes through none of these steps one after
//! another: [`decide_plain`] computes all of them from the masks without
//! branching on the line's shape, and branches once, on whether the line is
//! of the usual kind (a short scheme or none, no userinfo, IP literal or `@`,
//! no invalid byte); only another line takes the steps above. In a corpus
//! whose lines differ in shape (a query or not, `http` or `https`), each
//! step's branch would be mispredicted often. A window whose lines are
//! nearly all relative references (few of a sample of its blocks hold a
//! `://`) skips the fast path: there the steps above take fewer
//! instructions, and their branches go the same way line after line.
//!
//! Stage 2 answers valid (with the split and the authority's parts, identical
//! to the reference) or invalid, with the reference's error (the same
//! offset, component and kind): the first wrong byte of path, query or
//! fragment is the first special byte there that is neither an `@` nor a
//! good `%`, the scheme and the authority being checked by the reference's
//! own code. Most invalid lines of a corpus are of the usual kind but for
//! such a byte: [`plain_fault`] gives their error from what
//! [`decide_plain`] found, without the steps above. Lines longer than a
//! window go to the reference validator.
//!
//! The files, in the order a line meets them:
//!
//! - [`window`]: a window's masks stored as one bit array per class
//!   ([`window::Bitmaps`], the [`crate::simd::Sink`] stage 1 writes into);
//! - [`lanes`]: a line's masks as integers ([`lanes::Lane`]) or as a view
//!   of words ([`lanes::View`]), behind one query trait
//!   ([`lanes::LineMasks`]);
//! - [`plain`]: the usual line's fast path ([`plain::decide_plain`]) and
//!   its error ([`plain::plain_fault`]);
//! - [`decide`]: every other line, step by step ([`decide::decide`]);
//! - [`scanner`]: a chunk's lines, a window at a time ([`Scanner`]);
//! - [`range`]: a range of bytes that free-text extraction found, decided
//!   from the masks its search classified ([`range::decide_range_then`]).

mod decide;
mod lanes;
mod plain;
mod range;
mod scanner;
#[cfg(test)]
mod tests;
mod window;

use crate::classes::mask;
use crate::grammar::authority::Authority;
use crate::grammar::error::Error;
use crate::grammar::split::Split;
use crate::grammar::Mode;
use crate::simd::{Backend, Masks};
use decide::decide;
use lanes::{Lane, View};

pub(crate) use range::decide_range_then;
pub(crate) use scanner::Scanner;
#[cfg(test)]
pub(crate) use window::FORCE_BRANCHY;

/// The bytes of a chunk classified at once: 1024 blocks, 64 KiB, whose masks
/// (56 KiB, 16 more when noting for normalization) stay in the L2 cache
/// while stage 2 reads them. A longer line goes to the reference validator.
pub(super) const WINDOW_BLOCKS: usize = 1024;

/// How far ahead of a line [`Scanner::line`] prefetches: one window, so
/// that the bytes of the next window are in the cache when it is classified
/// (half a window measured slower; two the same).
pub(super) const PREFETCH_AHEAD: usize = 64 * WINDOW_BLOCKS;

/// The longest single input [`decide_line`] classifies (on the stack).
const LINE_BLOCKS: usize = 8;

/// What the hot loop takes from stage 2: valid, with the split, the
/// authority's parts (identical to the reference's) and the notes, or not
/// known to be valid (ask the reference validator). A plain struct, not an
/// enum, so that the hot loop keeps it in registers instead of copying it
/// through the stack; [`Verdict`] says more, where that costs nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub(crate) valid: bool,
    pub(crate) split: Split,
    pub(crate) authority: Authority,
    pub(crate) notes: Notes,
}

/// What stage 2 says of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Valid: its outcome (`valid` set), the reference's split and parts.
    Valid(Outcome),
    /// Invalid, with the reference's error when it was asked for (`None`:
    /// the hot loop did not ask; [`Scanner::why`] gives it later).
    Invalid(Option<Error>),
    /// Not decided here: longer than stage 2's masks of a single input; the
    /// reference grammar decides it.
    Undecided,
}

impl Verdict {
    /// The outcome of a valid line, else [`Outcome::REFERENCE`].
    #[inline(always)]
    pub(crate) fn outcome(self) -> Outcome {
        match self {
            Verdict::Valid(o) => o,
            _ => Outcome::REFERENCE,
        }
    }

    /// The error of an invalid line, when it was asked for.
    pub(crate) fn error(self) -> Option<Error> {
        match self {
            Verdict::Invalid(e) => e,
            _ => None,
        }
    }
}

/// The schemes of section 6.2.3 that uriscan knows, with their default
/// ports (normalization's, and the corpus pass's `NORMAL` note's).
pub(crate) const DEFAULT_PORTS: [(&[u8], u32); 5] = [
    (b"http", 80),
    (b"https", 443),
    (b"ws", 80),
    (b"wss", 443),
    (b"ftp", 21),
];

/// [`DEFAULT_PORTS`] with each scheme as one word (byte `i` at bits
/// `8 * i`), which a scheme of up to 8 bytes is compared with in one step.
pub(crate) const DEFAULT_PORT_WORDS: [(u64, u32); 5] = {
    let mut words = [(0, 0); 5];
    let mut k = 0;
    while k < 5 {
        let (s, port) = DEFAULT_PORTS[k];
        words[k] = (crate::classes::name_word(s), port);
        k += 1;
    }
    words
};

/// What the corpus pass saw of a valid line for normalization
/// ([`crate::Normalizer::is_normal`]), from the `%`, `/`, `.` and `A-Z`
/// masks that stage 1 computes beside the others when asked
/// ([`crate::simd::NormalMarks`]). A hint, no part of a URI's identity:
/// [`Notes::NONE`] says nothing, and a URI parsed on its own has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Notes(usize);

impl Notes {
    /// Nothing known.
    pub(crate) const NONE: Notes = Notes(0);
    /// No uppercase letter before the path, no `/.`, and every
    /// percent-encoding in normal form.
    pub(crate) const PLAIN: Notes = Notes(1);
    /// No uppercase letter before the path and no `/.`, but a
    /// percent-encoding not in normal form (so the URI is not normal).
    pub(crate) const BAD_PCT: Notes = Notes(2);
    /// [`Notes::PLAIN`], and in section 6's normal form: no port where the
    /// scheme has a default port and an authority, no empty path after
    /// such an authority, and no path starting with `.` after a scheme.
    pub(crate) const NORMAL: Notes = Notes(3);
    /// Added to [`Notes::PLAIN`] or [`Notes::NORMAL`]: no `%` at all.
    pub(crate) const NO_PCT: Notes = Notes(4);
    /// The bits that say which of [`Notes::NONE`], [`Notes::PLAIN`],
    /// [`Notes::BAD_PCT`] and [`Notes::NORMAL`] the notes are (the flags
    /// such as [`Notes::NO_PCT`] lie above them).
    const KIND: usize = 3;

    /// These notes with `other`'s flags too.
    #[inline(always)]
    pub(crate) fn with(self, other: Notes) -> Notes {
        Notes(self.0 | other.0)
    }

    /// Whether the notes are [`Notes::PLAIN`] or [`Notes::NORMAL`].
    #[inline(always)]
    pub(crate) fn is_plain(self) -> bool {
        self.0 & Notes::PLAIN.0 != 0
    }

    /// Whether the notes are [`Notes::NORMAL`].
    #[inline(always)]
    pub(crate) fn is_normal(self) -> bool {
        self.0 & Notes::KIND == Notes::NORMAL.0
    }

    /// Whether the notes are [`Notes::BAD_PCT`].
    #[inline(always)]
    pub(crate) fn has_bad_pct(self) -> bool {
        self.0 & Notes::KIND == Notes::BAD_PCT.0
    }

    /// Whether the line has no `%` ([`Notes::NO_PCT`]).
    #[inline(always)]
    pub(crate) fn has_no_pct(self) -> bool {
        self.0 & Notes::NO_PCT.0 != 0
    }
}

impl Outcome {
    /// Not known to be valid.
    pub(crate) const REFERENCE: Outcome = Outcome {
        valid: false,
        split: Split::EMPTY,
        authority: Authority::NONE,
        notes: Notes::NONE,
    };
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

/// The line at `start` of `buf`, found with `memchr`: the end of its content
/// and the offset of the next line (see [`ends`]). The one place a line is
/// cut without masks.
#[inline]
pub(crate) fn line_at(buf: &[u8], start: usize) -> (usize, usize) {
    let raw_end = memchr::memchr(b'\n', &buf[start..]).map_or(buf.len(), |i| start + i);
    ends(buf, start, raw_end)
}

/// A set of classes to query: bit `1 << c` for class `c` of
/// [`crate::classes::mask`]. A constant at every call, so that picking the
/// masks folds away.
pub(super) type Sel = u16;
pub(super) const COLON: Sel = 1 << mask::COLON;
pub(super) const SLASH: Sel = 1 << mask::SLASH;
pub(super) const QUESTION: Sel = 1 << mask::QUESTION;
pub(super) const HASH: Sel = 1 << mask::HASH;
pub(super) const SPECIAL: Sel = 1 << mask::SPECIAL;
pub(super) const LF: Sel = 1 << mask::LF;
/// The special bytes but the `%`s followed by two hex digits: none in a
/// path, query and fragment means they are valid (`@` is allowed there,
/// but rare, and left to a closer look).
pub(super) const PATHBAD: Sel = 1 << mask::PATHBAD;

/// The union of the classes `sel` in `m`.
#[inline(always)]
pub(super) fn pick(m: &Masks, sel: Sel) -> u64 {
    let mut w = 0;
    for c in 0..mask::COUNT {
        if sel & 1 << c != 0 {
            w |= m.class(c);
        }
    }
    w
}

/// The `PATHBAD` word of a block from its special, `%` and hex masks and
/// the next block's hex digits.
#[inline(always)]
pub(super) fn pathbad(special: u64, pct: u64, hex: u64, next_hex: u64) -> u64 {
    let hex1 = hex >> 1 | next_hex << 63;
    let hex2 = hex >> 2 | next_hex << 62;
    special & !(pct & hex1 & hex2)
}

/// Stage 1 + stage 2 of a single input, its masks on the stack, with the
/// error of an invalid one; [`Verdict::Undecided`] for an input longer than
/// that (the reference's to decide).
#[inline]
pub(crate) fn decide_line(backend: Backend, line: &[u8], mode: Mode) -> Verdict {
    if line.len() > 64 * LINE_BLOCKS {
        return Verdict::Undecided;
    }
    // The usual short input: its masks in registers, and no more blocks to
    // zero than it has (a larger buffer costs a call to `memset`).
    let n = line.len();
    if n <= 128 {
        let mut m = [Masks::default(); 2];
        let blocks = n.div_ceil(64).max(1);
        backend.classify_blocks(line, &mut m[..blocks]);
        return decide_from(&m[..blocks], line, mode);
    }
    // One more block than the input, for `PATHBAD`'s look at the next.
    let mut m = [Masks::default(); LINE_BLOCKS + 1];
    backend.classify_blocks(line, &mut m[..n.div_ceil(64)]);
    decide::<true>(View { m: &m[..], base: 0 }, line, mode)
}

/// Stage 2 of an input of at most 128 bytes whose blocks' masks `m` (one
/// or two) are at hand.
#[inline(always)]
fn decide_from(m: &[Masks], line: &[u8], mode: Mode) -> Verdict {
    let n = line.len();
    if n <= 64 {
        decide::<true>(Lane::<u64>::new(m, n), line, mode)
    } else {
        decide::<true>(Lane::<u128>::new(m, n), line, mode)
    }
}
