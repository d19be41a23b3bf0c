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
//!    checked by the reference code ([`crate::validate::check_authority`]),
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

use crate::error::{Component, Error, ErrorKind};
use crate::normalize::pct_is_normal;
#[cfg(target_arch = "x86_64")]
use crate::simd::Group;
use crate::simd::{prefetch, Backend, Masks, NormalMarks, Sink};
use crate::split::{Span, Split};
use crate::table;
use crate::validate::{
    check_authority, check_ip_literal, check_port, check_rest, check_scheme,
    colon_in_first_segment, is_pct_encoded, missing_scheme, Authority, Mode, NOTE_BAD_PCT,
    NOTE_PLAIN,
};

/// The bytes of a chunk classified at once: 1024 blocks, 64 KiB, whose masks
/// (56 KiB, 16 more when noting for normalization) stay in the L2 cache
/// while stage 2 reads them. A longer line goes to the reference validator.
const WINDOW_BLOCKS: usize = 1024;

/// How far ahead of a line [`Scanner::line`] prefetches: one window, so
/// that the bytes of the next window are in the cache when it is classified
/// (half a window measured slower; two the same).
const PREFETCH_AHEAD: usize = 64 * WINDOW_BLOCKS;

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
const LF: u8 = 32;
/// The special bytes but the `%`s followed by two hex digits: none in a
/// path, query and fragment means they are valid (`@` is allowed there,
/// but rare, and left to a closer look).
const PATHBAD: u8 = 64;

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
    if sel & LF != 0 {
        w |= m.lf;
    }
    w
}

/// The `PATHBAD` word of a block from its special, `%` and hex masks and
/// the next block's hex digits.
#[inline(always)]
fn pathbad(special: u64, pct: u64, hex: u64, next_hex: u64) -> u64 {
    let hex1 = hex >> 1 | next_hex << 63;
    let hex2 = hex >> 2 | next_hex << 62;
    special & !(pct & hex1 & hex2)
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

/// Where a [`View`] reads the union of some classes for one 64-bit word:
/// a slice of [`Masks`], or a window's [`Bitmaps`].
trait Words: Copy {
    /// The union of the classes `sel` of word `k`.
    fn word(self, k: usize, sel: u8) -> u64;
}

impl Words for &[Masks] {
    #[inline(always)]
    fn word(self, k: usize, sel: u8) -> u64 {
        let (b, w) = (&self[k], pick(&self[k], sel));
        if sel & PATHBAD != 0 {
            // `self` holds the block after the input's last.
            w | pathbad(b.special, b.pct, b.hex, self[k + 1].hex)
        } else {
            w
        }
    }
}

/// A line's bits among words of masks: bit `base + i` (counting from bit 0
/// of word 0) describes byte `i` of the line. The words cover the whole
/// line; bits past its end may be set, so every query takes an end.
#[derive(Clone, Copy)]
struct View<W> {
    m: W,
    base: usize,
}

impl<W: Words> LineMasks for View<W> {
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
        let mut w = self.m.word(k, sel) & (!0u64 << (start % 64));
        loop {
            if w != 0 {
                return (64 * k + w.trailing_zeros() as usize).min(end) - self.base;
            }
            k += 1;
            if 64 * k >= end {
                return to;
            }
            w = self.m.word(k, sel);
        }
    }

    #[inline(always)]
    fn all_on(self, sel: u8, from: usize, n: usize, mut ok: impl FnMut(usize) -> bool) -> bool {
        if from >= n {
            return true;
        }
        let (start, end) = (self.base + from, self.base + n);
        let mut k = start / 64;
        let mut w = self.m.word(k, sel) & (!0u64 << (start % 64));
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
            w = self.m.word(k, sel);
        }
    }
}

/// The bytes of one class's bit array: a window's masks and the zero
/// padding.
const STRIDE: usize = 8 * WINDOW_BLOCKS + 64;

/// One class's bit array, aligned so that 8 blocks' words (`store_group`)
/// are one aligned 64-byte store.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct ClassBits([u8; STRIDE]);

/// `N` bit arrays of a window, one per class (bit `i` of a class,
/// little-endian, describes byte `i` of the window), each followed by 16
/// zero bytes: a line's bits are then one unaligned 16-byte load per class
/// at any bit offset, with no funnel shifts across words.
#[derive(Clone, Debug)]
struct BitArrays<const N: usize> {
    /// A fixed size, so that storing a block's word needs no bounds check.
    bytes: Box<[ClassBits; N]>,
}

impl<const N: usize> Default for BitArrays<N> {
    fn default() -> BitArrays<N> {
        BitArrays {
            bytes: vec![ClassBits([0u8; STRIDE]); N]
                .into_boxed_slice()
                .try_into()
                .expect("one array per class"),
        }
    }
}

impl<const N: usize> BitArrays<N> {
    /// The 128 bits of class `c` from the byte holding bit `g`: bit `g` is
    /// bit `g % 8` of the result.
    #[inline(always)]
    fn lane(&self, c: usize, g: usize) -> u128 {
        // No shift to bring bit `g` down: a variable 128-bit shift costs
        // more than the offset that every query then adds.
        let at = g / 8;
        u128::from_le_bytes(self.bytes[c].0[at..at + 16].try_into().expect("16 bytes"))
    }

    /// Word `k` of class `c`.
    #[inline(always)]
    fn word(&self, c: usize, k: usize) -> u64 {
        u64::from_le_bytes(
            self.bytes[c].0[8 * k..8 * k + 8]
                .try_into()
                .expect("8 bytes"),
        )
    }

    /// Stores word `i` of class `c`.
    #[inline(always)]
    fn store(&mut self, c: usize, i: usize, w: u64) {
        // `i` is below `WINDOW_BLOCKS` (see `Sink`); saying so spares a
        // bounds check per class.
        let at = 8 * i.min(WINDOW_BLOCKS - 1);
        self.bytes[c].0[at..at + 8].copy_from_slice(&w.to_le_bytes());
    }

    /// Stores words `i..i + 8` of class `c` (`i` a multiple of 8).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn store_group(&mut self, c: usize, i: usize, w: &[u64; 8]) {
        let at = 64 * (i / 8).min(WINDOW_BLOCKS / 8 - 1);
        for (to, w) in self.bytes[c].0[at..at + 64].chunks_exact_mut(8).zip(w) {
            to.copy_from_slice(&w.to_le_bytes());
        }
    }

    /// Clears the words from `blocks` on (the padding after a window of
    /// `blocks` blocks): nothing of an earlier window may show past this
    /// one's end.
    fn clear_from(&mut self, blocks: usize) {
        for class in self.bytes.iter_mut() {
            class.0[8 * blocks..8 * blocks + 16].fill(0);
        }
    }
}

/// A window's masks, one bit array per class in the order of
/// [`Bitmaps::CLASSES`].
#[derive(Clone, Debug, Default)]
struct Bitmaps {
    bits: BitArrays<7>,
    /// The special, `%` and hex masks of the last block put, whose
    /// `PATHBAD` waits for the next block's hex digits.
    pending: [u64; 3],
    /// Whether the window's lines go straight to [`decide`], skipping
    /// [`decide_plain`]: when few of its blocks hold a `://`, its lines are
    /// mostly relative references (a web server's request targets, say),
    /// which `decide` decides in fewer instructions, its branches going
    /// mostly the same way (`decide_plain` measured 35-45% slower on such
    /// lists). Seen on a sample of the window's blocks once it is
    /// classified: a count per line cost 5% on the other corpora, a count
    /// per block 2%.
    branchy: bool,
}

impl Bitmaps {
    /// The classes, in order.
    const CLASSES: [u8; 7] = [COLON, SLASH, QUESTION, HASH, SPECIAL, LF, PATHBAD];

    /// The index of class `sel` (one class) in `bits`: the classes' order
    /// is that of their bits.
    #[inline(always)]
    fn index(sel: u8) -> usize {
        sel.trailing_zeros() as usize
    }

    /// The 128 bits of class `sel` (one class) from the byte holding bit
    /// `g`: bit `g` is bit `g % 8` of the result.
    #[inline(always)]
    fn lane(&self, sel: u8, g: usize) -> u128 {
        self.bits.lane(Self::index(sel), g)
    }

    /// Stores word `i` of class `sel` (one class).
    #[inline(always)]
    fn store(&mut self, sel: u8, i: usize, w: u64) {
        self.bits.store(Self::index(sel), i, w);
    }

    /// Stores the `PATHBAD` word of block `i`, the last put, whose next
    /// block's hex digits are `next_hex`.
    #[inline(always)]
    fn finish(&mut self, i: usize, next_hex: u64) {
        let [special, pct, hex] = self.pending;
        self.store(PATHBAD, i, pathbad(special, pct, hex, next_hex));
    }
}

#[cfg(test)]
thread_local! {
    /// Tests set it to run every window through [`decide`] (`true`) or
    /// [`decide_plain`] first (`false`), whatever its lines.
    pub(crate) static FORCE_BRANCHY: core::cell::Cell<Option<bool>> = const { core::cell::Cell::new(None) };
}

/// A window's `.` and `A-Z` bit arrays (laid out as [`Bitmaps`]' classes),
/// kept when a [`Scanner`] notes what normalization looks for
/// ([`Scanner::noting`]).
#[derive(Clone, Debug, Default)]
struct NormalBitmaps {
    bits: BitArrays<2>,
}

impl NormalBitmaps {
    /// The classes' indexes in `bits`.
    const DOT: usize = 0;
    const UPPER: usize = 1;

    /// The notes on the valid `line` at bit `g` of the window, whose masks
    /// are `lane` and whose path starts at `path_start`: `NOTE_PLAIN` when
    /// it has no uppercase letter before its path, no `/` followed by `.`
    /// and only normal percent-encodings, `NOTE_BAD_PCT` when it has none
    /// of the first two but a percent-encoding that is not normal, else
    /// none.
    #[inline(always)]
    fn notes(&self, lane: &Lane<u128>, line: &[u8], g: usize, path_start: usize) -> usize {
        // The byte after the line is its CR or LF, or padding: never a `.`.
        let dot = self.bits.lane(Self::DOT, g);
        let upper = self.bits.lane(Self::UPPER, g);
        // Scheme and authority are short: their bits are in the low word
        // (a `u128` range for all costs 1% more instructions of a noted
        // `normalize`, callgrind).
        let head = lane.o + path_start;
        let upper_head = if head <= 64 {
            upper as u64 & <u64 as Bits>::below(head) & !<u64 as Bits>::below(lane.o) != 0
        } else {
            upper & <u128 as Bits>::below(head) & <u128 as Bits>::from_bit(lane.o) != 0
        };
        if upper_head || lane.slash & dot >> 1 != 0 {
            return 0;
        }
        // The special bytes are few; a valid line's `%` has two hex digits
        // after it.
        let pct_normal = lane.all_on(SPECIAL, 0, line.len(), |p| {
            line[p] != b'%' || pct_is_normal(line[p + 1], line[p + 2])
        });
        if pct_normal {
            NOTE_PLAIN
        } else {
            NOTE_BAD_PCT
        }
    }
}

/// A window's sink when the scanner is noting: the masks into the
/// [`Bitmaps`], the `.` and `A-Z` masks into the [`NormalBitmaps`].
struct Noting<'s> {
    bits: &'s mut Bitmaps,
    normal: &'s mut NormalBitmaps,
}

impl Sink for Noting<'_> {
    const MARKS: bool = true;
    #[cfg(target_arch = "x86_64")]
    const GROUPS: bool = true;

    #[inline(always)]
    fn blocks(&self) -> usize {
        WINDOW_BLOCKS
    }

    #[inline(always)]
    fn put(&mut self, i: usize, m: Masks) {
        self.bits.put(i, m);
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn put_group(&mut self, i: usize, g: &Group) {
        self.bits.put_group(i, g);
    }

    #[inline(always)]
    fn put_marks(&mut self, i: usize, m: NormalMarks) {
        self.normal.bits.store(NormalBitmaps::DOT, i, m.dot);
        self.normal.bits.store(NormalBitmaps::UPPER, i, m.upper);
    }

    fn end(&mut self, blocks: usize) {
        self.bits.end(blocks);
        self.normal.bits.clear_from(blocks);
    }
}

impl Words for &Bitmaps {
    #[inline(always)]
    fn word(self, k: usize, sel: u8) -> u64 {
        let mut w = 0;
        for c in Bitmaps::CLASSES {
            if sel & c != 0 {
                w |= self.bits.word(Bitmaps::index(c), k);
            }
        }
        w
    }
}

impl Sink for Bitmaps {
    #[cfg(target_arch = "x86_64")]
    const GROUPS: bool = true;

    #[inline(always)]
    fn blocks(&self) -> usize {
        WINDOW_BLOCKS
    }

    #[inline(always)]
    fn put(&mut self, i: usize, m: Masks) {
        self.store(COLON, i, m.colon);
        self.store(SLASH, i, m.slash);
        self.store(QUESTION, i, m.question);
        self.store(HASH, i, m.hash);
        self.store(SPECIAL, i, m.special);
        self.store(LF, i, m.lf);
        if i > 0 {
            self.finish(i - 1, m.hex);
        }
        self.pending = [m.special, m.pct, m.hex];
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn put_group(&mut self, i: usize, g: &Group) {
        // `g`'s classes in the order of `Masks`' fields.
        let [lf, colon, slash, question, hash, special, pct, hex] = &g.classes;
        for (sel, w) in [
            (LF, lf),
            (COLON, colon),
            (SLASH, slash),
            (QUESTION, question),
            (HASH, hash),
            (SPECIAL, special),
        ] {
            self.bits.store_group(Self::index(sel), i, w);
        }
        if i > 0 {
            self.finish(i - 1, hex[0]);
        }
        // `g.pathbad` is `pathbad` of each block; the last block's waits
        // for the next block, as in `put`.
        self.bits.store_group(Self::index(PATHBAD), i, &g.pathbad);
        self.pending = [special[7], pct[7], hex[7]];
    }

    fn end(&mut self, blocks: usize) {
        // The window's end is followed by no hex digit as far as its masks
        // tell: a `%` there is looked at (and is in a line cut by the
        // window's end, which the next window decides).
        if blocks > 0 {
            self.finish(blocks - 1, 0);
        }
        self.bits.clear_from(blocks);
        // Every 16th block: one in 8 of them with a `://` (within the
        // block) takes `decide_plain`.
        let (mut sampled, mut authorities) = (0, 0);
        for k in (0..blocks).step_by(16) {
            let (colon, slash) = (Words::word(&*self, k, COLON), Words::word(&*self, k, SLASH));
            sampled += 1;
            authorities += usize::from(colon & slash >> 1 & slash >> 2 != 0);
        }
        self.branchy = authorities * 8 < sampled;
        #[cfg(test)]
        if let Some(branchy) = FORCE_BRANCHY.get() {
            self.branchy = branchy;
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
    /// The bits of two words, `lo` first, as many as `Self` holds.
    fn from_words(lo: u64, hi: u64) -> Self;
    /// The bits below `k`.
    fn below(k: usize) -> Self;
    /// The bits from `k` on: `!below(k)`.
    #[inline(always)]
    fn from_bit(k: usize) -> Self {
        !Self::below(k)
    }
    fn trailing_zeros(self) -> usize;
    /// `self` less its lowest bit.
    fn clear_lowest(self) -> Self;
}

impl Bits for u64 {
    const ZERO: u64 = 0;
    #[inline(always)]
    fn from_words(lo: u64, _hi: u64) -> u64 {
        lo
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
    fn from_words(lo: u64, hi: u64) -> u128 {
        u128::from(lo) | u128::from(hi) << 64
    }
    #[inline(always)]
    fn below(k: usize) -> u128 {
        // Two `u64` halves from one shift: a variable `u128` shift costs
        // more, and so does a table (measured: the load is on the critical
        // path).
        let part = (1u64 << (k % 64)).wrapping_sub(1);
        let (lo, hi) = match k {
            0..64 => (part, 0),
            64..128 => (!0, part),
            _ => (!0, !0),
        };
        u128::from(lo) | u128::from(hi) << 64
    }
    #[inline(always)]
    fn from_bit(k: usize) -> u128 {
        let part = !0u64 << (k % 64);
        let (lo, hi) = match k {
            0..64 => (part, !0),
            64..128 => (0, part),
            _ => (0, 0),
        };
        u128::from(lo) | u128::from(hi) << 64
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
    /// The bit of the line's first byte: byte `i` is bit `o + i`.
    o: usize,
    colon: T,
    slash: T,
    question: T,
    hash: T,
    special: T,
    pathbad: T,
}

impl<T: Bits> Lane<T> {
    /// The masks of a line of `n` bytes (at most as many as `T` has bits)
    /// from the masks `m` of its blocks.
    #[inline(always)]
    fn new(m: &[Masks], n: usize) -> Lane<T> {
        let live = T::below(n);
        let words = |f: fn(&Masks) -> u64| T::from_words(f(&m[0]), m.get(1).map_or(0, f)) & live;
        // The blocks are the input's own, padded with zero bytes (no hex
        // digit), and nothing follows the last.
        let next_hex = |k: usize| m.get(k + 1).map_or(0, |b| b.hex);
        let block_pathbad = |k: usize| {
            m.get(k)
                .map_or(0, |b| pathbad(b.special, b.pct, b.hex, next_hex(k)))
        };
        Lane {
            o: 0,
            colon: words(|x| x.colon),
            slash: words(|x| x.slash),
            question: words(|x| x.question),
            hash: words(|x| x.hash),
            special: words(|x| x.special),
            pathbad: T::from_words(block_pathbad(0), block_pathbad(1)) & live,
        }
    }

    #[inline(always)]
    fn pick(self, sel: u8) -> T {
        let mut w = T::ZERO;
        if sel & PATHBAD != 0 {
            w = w | self.pathbad;
        }
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

impl Lane<u128> {
    /// The masks of the `n` bytes from bit `g` of a window, where
    /// `g % 8 + n` is at most 128.
    #[inline(always)]
    fn of_window(b: &Bitmaps, g: usize, n: usize) -> Lane<u128> {
        let o = g % 8;
        let live = <u128 as Bits>::below(o + n) & <u128 as Bits>::from_bit(o);
        Lane {
            o,
            colon: b.lane(COLON, g) & live,
            slash: b.lane(SLASH, g) & live,
            question: b.lane(QUESTION, g) & live,
            hash: b.lane(HASH, g) & live,
            special: b.lane(SPECIAL, g) & live,
            pathbad: b.lane(PATHBAD, g) & live,
        }
    }
}

impl<T: Bits> LineMasks for Lane<T> {
    #[inline(always)]
    fn first_on(self, sel: u8, from: usize, n: usize) -> usize {
        // The masks are clear from `n` on.
        let w = self.pick(sel) & T::from_bit(from + self.o);
        if w == T::ZERO {
            n
        } else {
            w.trailing_zeros() - self.o
        }
    }

    #[inline(always)]
    fn first(self, sel: u8, from: usize, to: usize) -> usize {
        let w = self.pick(sel) & T::from_bit(from + self.o) & T::below(to + self.o);
        if w == T::ZERO {
            to
        } else {
            w.trailing_zeros() - self.o
        }
    }

    #[inline(always)]
    fn all_on(self, sel: u8, from: usize, _n: usize, mut ok: impl FnMut(usize) -> bool) -> bool {
        // The masks are clear from `n` on.
        let mut w = self.pick(sel) & T::from_bit(from + self.o);
        while w != T::ZERO {
            if !ok(w.trailing_zeros() - self.o) {
                return false;
            }
            w = w.clear_lowest();
        }
        true
    }
}

/// Whether `line[..d]` is a `scheme`: `ALPHA *( ALPHA / DIGIT / "+" / "-" /
/// "." )`. A scheme of up to 8 bytes (almost all) is checked on one word,
/// with no branch on its length ([`head_scheme_misfits`]).
#[inline(always)]
fn is_scheme(line: &[u8], d: usize) -> bool {
    if let (Some(head), 1..=8) = (line.first_chunk::<8>(), d) {
        return is_short_scheme(u64::from_le_bytes(*head), d);
    }
    table::is(line[0], table::ALPHA) && line[1..d].iter().all(|&b| table::is(b, table::SCHEME))
}

/// Whether the first `d` bytes of `head` (a line's first 8, little-endian)
/// are a `scheme`, with `d` in `1..=8` (false for any other `d`): with no
/// branch, whatever `d`.
#[inline(always)]
fn is_short_scheme(head: u64, d: usize) -> bool {
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
fn head_scheme_misfits(word: u64) -> u64 {
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
/// [`decide`] accepts with the same outcome.
#[inline(always)]
fn decide_plain(b: &Bitmaps, g: usize, line: &[u8], mode: Mode) -> Option<Outcome> {
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
    Some(Outcome {
        valid: true,
        split: Split::new(
            s.scheme.then(|| Span::new(0, s.d)),
            authority.then(|| Span::new(s.start, end)),
            Span::new(s.path, q),
            (q < h).then(|| Span::new(q + 1, h)),
            (h < n).then(|| Span::new(h + 1, n)),
            n,
        ),
        authority: Authority::plain(
            s.start & keep,
            colon & keep,
            end & keep,
            authority & (colon < end),
        ),
    })
}

/// The masks of a line for [`decide_plain`]: from bit `g` of a window's
/// `b`, cleared outside the line's `n` bytes.
struct PlainMasks<'b> {
    b: &'b Bitmaps,
    g: usize,
    n: usize,
    live: u128,
}

/// What [`decide_plain`] finds of a line before deciding: whether its
/// start is known (a scheme of 1-8 bytes, `line[..d]`, or none where a
/// relative reference may stand), its authority (if `//` is there:
/// `start..end`, the first `:` at `colon` or `end`), where its path,
/// query (its `?`) and fragment (its `#`) start (the line's length for
/// none), and whether its `#`s are few enough.
struct Shape {
    known: bool,
    scheme: bool,
    d: usize,
    authority: bool,
    start: usize,
    end: usize,
    colon: usize,
    path: usize,
    query: usize,
    fragment: usize,
    hashes: bool,
}

impl PlainMasks<'_> {
    #[inline(always)]
    fn new(b: &Bitmaps, g: usize, n: usize) -> PlainMasks<'_> {
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
    fn class(&self, sel: u8) -> u128 {
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
    fn shape(&self, head: u64, mode: Mode) -> Shape {
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
fn plain_fault(b: &Bitmaps, g: usize, line: &[u8], mode: Mode) -> Option<Error> {
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

/// What [`decide`] says of a line: `Ok` valid, with its split and the
/// authority's parts; `Err` invalid, with the reference's error when asked
/// why (`WHY`; `None` otherwise).
type Verdict = Result<Outcome, Option<Error>>;

/// An invalid line's verdict: its error `e()` only when asked why, so that
/// the hot loop's instance (`WHY` false) computes nothing on that path.
#[inline(always)]
fn invalid<const WHY: bool>(e: impl FnOnce() -> Option<Error>) -> Verdict {
    Err(if WHY { e() } else { None })
}

/// Stage 2 proper: decides `line` from its masks `v`, with the reference's
/// error for an invalid line when `WHY`.
#[inline(always)]
fn decide<const WHY: bool>(v: impl LineMasks, line: &[u8], mode: Mode) -> Verdict {
    let n = line.len();
    // 1. Scheme: up to the first of `: / ? #` when that is a `:` at > 0.
    let d = v.first_on(COLON | SLASH | QUESTION | HASH, 0, n);
    let mut pos = 0;
    let scheme = if d < n && d > 0 && line[d] == b':' {
        if !is_scheme(line, d) {
            return invalid::<WHY>(|| check_scheme(line, Span::new(0, d)).err());
        }
        pos = d + 1;
        Some(Span::new(0, d))
    } else {
        // A relative reference: not a URI, and not starting with `:`
        // (`path-noscheme`; any later `:` of its first segment would have
        // made a scheme).
        if mode != Mode::Reference {
            return invalid::<WHY>(|| Some(missing_scheme()));
        }
        if line.first() == Some(&b':') {
            return invalid::<WHY>(|| Some(colon_in_first_segment()));
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
        match authority_parts(v, line, a) {
            Ok(p) => parts = p,
            Err(e) => return invalid::<WHY>(|| Some(e)),
        }
        authority = Some(a);
        pos = end;
    }
    // 3. Path, query and fragment.
    let h = v.first_on(HASH, pos, n);
    if h < n && (mode == Mode::Absolute || v.first_on(HASH, h + 1, n) < n) {
        return invalid::<WHY>(|| rest_error(v, line, pos, h, mode));
    }
    // (A `PATHBAD` byte of the line is an `@` or one not allowed there.)
    let ok = v.all_on(PATHBAD, pos, n, |p| line[p] == b'@');
    if !ok {
        return invalid::<WHY>(|| rest_error(v, line, pos, h, mode));
    }
    let q = v.first(QUESTION, pos, h);
    Ok(Outcome {
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
    })
}

/// The parts of the authority `line[start..end]`, found from its masks
/// `v`: its special bytes (few or none) are looked at one by one. The
/// first `@` ends a userinfo, a `[` that starts the host opens an
/// IP literal up to the next special byte, which must be its `]` and the
/// authority's last; any other special byte must start a percent-encoding.
/// Then a port of digits after the host's first `:` (or after the `]`).
/// The reference's result
/// ([`check_authority`], which decides an authority not of this shape):
/// the same parts, or the same error.
///
/// Out of line: it serves the few lines that [`decide_plain`] leaves, and
/// inlined into the hot loop it cost the usual line 0.5 ns.
#[inline(never)]
fn authority_parts(v: impl LineMasks, line: &[u8], a: Span) -> Result<Authority, Error> {
    authority_of_shape(v, line, a.start, a.end)
        .or_else(|e| e.map_or_else(|| check_authority(line, a), Err))
}

/// [`authority_parts`] of an authority of its shape; `Err(None)` for any
/// other.
#[inline(always)]
fn authority_of_shape(
    v: impl LineMasks,
    line: &[u8],
    start: usize,
    end: usize,
) -> Result<Authority, Option<Error>> {
    // A port from `from` (to `end`).
    let port = |from: usize| check_port(line, Span::new(from.min(end), end)).map_err(Some);
    let mut host = start;
    let mut p = v.first(SPECIAL, start, end);
    while p < end {
        match line[p] {
            b'%' if is_pct_encoded(line, p, end) => {}
            b'@' if host == start => host = p + 1,
            b'[' if p == host => {
                // The next special byte is the literal's `]` (the first,
                // as the reference finds it), and none follows (no `@`
                // after it, which would have made all before it a
                // userinfo).
                let close = v.first(SPECIAL, p + 1, end);
                if close == end || line[close] != b']' || v.first(SPECIAL, close + 1, end) < end {
                    return Err(None);
                }
                let kind = check_ip_literal(line, p + 1, close).map_err(Some)?;
                let after = close + 1;
                if after < end && line[after] != b':' {
                    let e = Error::new(after, Component::Authority, ErrorKind::AfterIpLiteral);
                    return Err(Some(e));
                }
                port(after + 1)?;
                return Ok(Authority::new(
                    start,
                    [host, after],
                    end,
                    Some(kind),
                    after < end,
                ));
            }
            _ => return Err(None),
        }
        p = v.first(SPECIAL, p + 1, end);
    }
    // Only `unreserved`, `sub-delims`, `:` and percent-encodings from
    // `host` on: a `reg-name` or `IPv4address`, then a port.
    let colon = v.first(COLON, host, end);
    port(colon + 1)?;
    Ok(Authority::new(start, [host, colon], end, None, colon < end))
}

/// The reference's error for a line whose scheme and authority are valid
/// and whose path, query or fragment is not (from `pos`; the first `#` at
/// `h`, or none at the line's end). A byte there is wrong exactly when it
/// is a `PATHBAD` byte other than an `@` (a special byte that does not start
/// a good percent-encoding), or a second `#`: the first such byte is found
/// on the masks, and the reference's own checks ([`check_rest`]) start
/// there, so that they give its error at once.
#[cold]
fn rest_error(v: impl LineMasks, line: &[u8], pos: usize, h: usize, mode: Mode) -> Option<Error> {
    let n = line.len();
    let mut from = n;
    v.all_on(PATHBAD, pos, n, |p| {
        let ok = line[p] == b'@';
        if !ok {
            from = p;
        }
        ok
    });
    if h < n {
        from = from.min(v.first_on(HASH, h + 1, n));
    }
    let q = v.first(QUESTION, pos, h);
    check_rest(
        line,
        Span::new(pos, q),
        (q < h).then(|| Span::new(q + 1, h)),
        (h < n).then(|| Span::new(h + 1, n)),
        mode,
        from,
    )
    .err()
}

/// Stage 1 + stage 2 of a single input, its masks on the stack, with the
/// error of an invalid one; `Err(None)` for an input longer than that (the
/// reference's to decide).
#[inline]
pub(crate) fn decide_line(backend: Backend, line: &[u8], mode: Mode) -> Verdict {
    if line.len() > 64 * LINE_BLOCKS {
        return Err(None);
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

/// The lines of a chunk, decided a window at a time: stage 1 classifies a
/// window starting at a line, stage 2 decides each line that ends in it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scanner {
    /// The window's masks.
    bits: Bitmaps,
    /// The offset in the chunk of the window's first byte.
    base: usize,
    /// How many bytes from `base` the masks describe.
    covered: usize,
    /// The window's `.` and `A-Z` masks, when valid lines are to be noted
    /// ([`Scanner::noting`]).
    normal: Option<NormalBitmaps>,
    /// The error of the last line that [`Scanner::line`] found invalid,
    /// with the line's offset in the chunk: the hot loop's stage 2 computes
    /// it where it finds the line invalid, and [`Scanner::why`] hands it
    /// over instead of deciding the line a second time.
    error: Option<(usize, Error)>,
}

impl Scanner {
    /// A scanner that also notes on each valid line of a window what
    /// [`crate::Normalizer::is_normal`] would look for
    /// ([`NormalBitmaps::notes`]).
    pub(crate) fn noting() -> Scanner {
        Scanner {
            normal: Some(NormalBitmaps::default()),
            ..Scanner::default()
        }
    }

    /// Decides the line at `start` of `data` (ending at the next LF or at
    /// the end of `data`, one CR before the LF dropped). Returns the end of
    /// its content, the offset of the next line and the outcome, with the
    /// notes of a noting scanner when `NOTE` (`false` compiles them out).
    #[inline(always)]
    pub(crate) fn line<const NOTE: bool>(
        &mut self,
        backend: Backend,
        data: &[u8],
        start: usize,
        mode: Mode,
    ) -> (usize, usize, Outcome) {
        // The usual line on its own path: sharing the lane-or-view choice
        // below costs 4% more instructions per line (callgrind).
        prefetch(data, start + PREFETCH_AHEAD);
        if let Some(raw_end) = self.lf_near(start) {
            let (content_end, next) = ends(data, start, raw_end);
            let line = &data[start..content_end];
            let outcome = self.decide_in_window::<NOTE>(start - self.base, line, mode);
            return (content_end, next, outcome);
        }
        let raw_end = match self.lf_far(backend, data, start) {
            Ok(lf) => lf,
            Err(long) => return long,
        };
        let (content_end, next) = ends(data, start, raw_end);
        let line = &data[start..content_end];
        let g = start - self.base;
        let outcome = if g % 8 + line.len() <= 128 {
            self.decide_in_window::<NOTE>(g, line, mode)
        } else {
            decide::<false>(
                View {
                    m: &self.bits,
                    base: g,
                },
                line,
                mode,
            )
            .unwrap_or(Outcome::REFERENCE)
        };
        (content_end, next, outcome)
    }

    /// Whether the scanner notes what normalization looks for
    /// ([`Scanner::noting`]): then `line::<true>` adds the notes.
    #[inline(always)]
    pub(crate) fn is_noting(&self) -> bool {
        self.normal.is_some()
    }

    /// The error that [`Scanner::line`] kept for the line at `start` of
    /// the chunk, if it kept one.
    #[inline(always)]
    pub(crate) fn kept(&self, start: usize) -> Option<Error> {
        self.error.filter(|&(at, _)| at == start).map(|(_, e)| e)
    }

    /// The reference's error for the line at `start` of the chunk, `line`,
    /// that [`Scanner::line`] has just found invalid: the one it kept, else
    /// from the window's masks; `None` when the window has none for it (a
    /// line longer than a window).
    #[cold]
    #[inline(never)]
    pub(crate) fn why(&self, start: usize, line: &[u8], mode: Mode) -> Option<Error> {
        if let Some(e) = self.kept(start) {
            return Some(e);
        }
        if start < self.base || start + line.len() > self.base + self.covered {
            return None;
        }
        let g = start - self.base;
        let verdict = if g % 8 + line.len() <= 128 {
            decide::<true>(Lane::of_window(&self.bits, g, line.len()), line, mode)
        } else {
            decide::<true>(
                View {
                    m: &self.bits,
                    base: g,
                },
                line,
                mode,
            )
        };
        verdict.err().flatten()
    }

    /// Stage 2 of `line`, at bit `g` of the window with `g % 8 + line.len()`
    /// at most 128 (its masks one lane), with the notes of a noting scanner
    /// when `NOTE`.
    #[inline(always)]
    fn decide_in_window<const NOTE: bool>(&mut self, g: usize, line: &[u8], mode: Mode) -> Outcome {
        let lane = || Lane::of_window(&self.bits, g, line.len());
        let mut outcome = match decide_plain(&self.bits, g, line, mode) {
            Some(outcome) => outcome,
            // A window of relative references: most lines come here, and
            // computing the error of invalid ones here too costs them 10%
            // (`why` computes it when asked).
            None if self.bits.branchy => {
                decide::<false>(lane(), line, mode).unwrap_or(Outcome::REFERENCE)
            }
            None => {
                // Most invalid lines: their error without `decide`, when
                // their first special byte (not a good `%`) is neither `@`
                // nor `[` (userinfo, IP literal).
                let at = (self.bits.lane(PATHBAD, g) >> (g % 8)).trailing_zeros() as usize;
                let fault = match line.get(at) {
                    Some(b'@' | b'[') | None => None,
                    Some(_) => plain_fault(&self.bits, g, line, mode),
                };
                let verdict = match fault {
                    Some(e) => Err(Some(e)),
                    None => decide::<true>(lane(), line, mode),
                };
                verdict.unwrap_or_else(|error| {
                    self.error = error.map(|e| (self.base + g, e));
                    Outcome::REFERENCE
                })
            }
        };
        if let (true, Some(n), true) = (NOTE, &self.normal, outcome.valid) {
            let notes = n.notes(&lane(), line, g, outcome.split.path_span().start);
            outcome.authority.add_notes(notes);
        }
        outcome
    }

    /// The usual line's end: in the window, its LF within 120 bytes, found
    /// in the same load at the same offset as its masks will be.
    #[inline(always)]
    fn lf_near(&self, start: usize) -> Option<usize> {
        if start < self.base || start >= self.base + self.covered {
            return None;
        }
        let g = start - self.base;
        let lf = self.bits.lane(LF, g) & <u128 as Bits>::from_bit(g % 8);
        (lf != 0).then(|| start + lf.trailing_zeros() as usize - g % 8)
    }

    /// The end of a line that `lf_near` did not find (its LF further on, or
    /// past the window, which is then refilled from the line's start), or
    /// `Err` with the line's result when it is longer than a window.
    #[cold]
    #[inline(never)]
    fn lf_far(
        &mut self,
        backend: Backend,
        data: &[u8],
        start: usize,
    ) -> Result<usize, (usize, usize, Outcome)> {
        let mut filled = false;
        loop {
            if start >= self.base && start < self.base + self.covered {
                if let Some(lf) = self.lf(start - self.base) {
                    return Ok(self.base + lf);
                }
                if self.base + self.covered == data.len() {
                    return Ok(data.len());
                }
            }
            if filled {
                // Longer than a window: no masks for it.
                let raw_end =
                    memchr::memchr(b'\n', &data[start..]).map_or(data.len(), |i| start + i);
                let (content_end, next) = ends(data, start, raw_end);
                return Err((content_end, next, Outcome::REFERENCE));
            }
            self.fill(backend, data, start);
            filled = true;
        }
    }

    /// The offset from `base` of the first LF at or after `from`, if the
    /// window holds one.
    #[inline(always)]
    fn lf(&self, from: usize) -> Option<usize> {
        let at = View {
            m: &self.bits,
            base: 0,
        }
        .first(LF, from, self.covered);
        (at < self.covered).then_some(at)
    }

    /// Classifies the window of `data` that starts at `start`.
    #[inline(never)]
    fn fill(&mut self, backend: Backend, data: &[u8], start: usize) {
        let len = (64 * WINDOW_BLOCKS).min(data.len() - start);
        let window = &data[start..start + len];
        match &mut self.normal {
            Some(normal) => backend.classify_into(
                window,
                &mut Noting {
                    bits: &mut self.bits,
                    normal,
                },
            ),
            None => backend.classify_into(window, &mut self.bits),
        }
        self.base = start;
        self.covered = len;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn bit_ranges() {
        for k in 0..=200usize {
            let below = if k >= 128 { !0u128 } else { (1u128 << k) - 1 };
            assert_eq!(<u128 as Bits>::below(k), below, "{k}");
            assert_eq!(<u128 as Bits>::from_bit(k), !below, "{k}");
            let below = if k >= 64 { !0u64 } else { (1u64 << k) - 1 };
            assert_eq!(<u64 as Bits>::below(k), below, "{k}");
            assert_eq!(<u64 as Bits>::from_bit(k), !below, "{k}");
        }
    }

    /// A window of request targets goes straight to `decide`; one of
    /// absolute URIs, or of a mix, through `decide_plain` first.
    #[test]
    fn relative_windows_skip_the_fast_path() {
        let window = |line: &str, every: usize, other: &str| -> bool {
            let data: String = (0..2000)
                .map(|i| {
                    if every > 0 && i % every == 0 {
                        other
                    } else {
                        line
                    }
                })
                .collect();
            let mut s = Scanner::default();
            s.fill(Backend::current(), data.as_bytes(), 0);
            s.bits.branchy
        };
        assert!(window("/a/b.png?x=1\n", 0, ""));
        assert!(window("a/b.png\n", 0, ""));
        assert!(!window("http://a/b.png\n", 0, ""));
        assert!(!window("/a/b.png\n", 3, "https://example.com/\n"));
    }

    /// Whether `head_scheme_misfits` of `word` says of each byte what the
    /// table says.
    fn misfits_agree(word: [u8; 8]) -> Result<(), String> {
        let misfits = head_scheme_misfits(u64::from_le_bytes(word));
        for (i, &c) in word.iter().enumerate() {
            let class = if i == 0 { table::ALPHA } else { table::SCHEME };
            if (misfits >> (8 * i + 7) & 1 == 0) != table::is(c, class)
                || misfits >> (8 * i) & 0x7f != 0
            {
                return Err(format!(
                    "{word:?}: byte {i} ({c:#04x}), misfits {misfits:#018x}"
                ));
            }
        }
        Ok(())
    }

    #[test]
    fn scheme_word_matches_the_table() {
        // Every byte value at every position, among scheme bytes and among
        // bytes that are not (`0xff` and `0x7f`, whose neighbours a carry
        // would reach).
        for filler in [*b"abcdefgh", *b"z9+-.Z0a", [0xff; 8], [0x7f; 8], [0; 8]] {
            for pos in 0..8 {
                for b in 0..=255u8 {
                    let mut word = filler;
                    word[pos] = b;
                    misfits_agree(word).unwrap();
                }
            }
        }
    }

    proptest! {
        /// A window's classes are the blocks' masks, and `PATHBAD` is
        /// exactly the special bytes but the `%`s followed by two hex
        /// digits within the window.
        #[test]
        fn window_bitmaps_match_bytes(
            data in prop::collection::vec(prop::sample::select(b"%4aG@ /:?#\n\xc3".to_vec()), 0..400),
        ) {
            for backend in Backend::available() {
                let mut s = Scanner::default();
                if data.is_empty() {
                    continue;
                }
                s.fill(backend, &data, 0);
                let view = View { m: &s.bits, base: 0 };
                let hex = |i: usize| data.get(i).is_some_and(u8::is_ascii_hexdigit);
                for (i, &b) in data.iter().enumerate() {
                    let special = table::SPECIAL[b as usize];
                    let bad = special && !(b == b'%' && hex(i + 1) && hex(i + 2));
                    prop_assert_eq!(view.first(PATHBAD, i, i + 1) == i, bad, "{} at {}", backend.name(), i);
                    prop_assert_eq!(view.first(SPECIAL, i, i + 1) == i, special);
                    prop_assert_eq!(view.first(LF, i, i + 1) == i, b == b'\n');
                    prop_assert_eq!(view.first(COLON | SLASH, i, i + 1) == i, b == b':' || b == b'/');
                }
            }
        }

        #[test]
        fn scheme_word_matches_the_table_on_random_words(word in any::<[u8; 8]>()) {
            prop_assert_eq!(misfits_agree(word), Ok(()));
        }
    }
}
