//! A line's masks and the queries stage 2 makes of them: a line of up to
//! 128 bytes in integers ([`Lane`]: a few register operations a query), a
//! longer one through a view of words ([`View`]), both behind
//! [`LineMasks`], against which [`super::decide`] is written once.

use super::window::Bitmaps;
use super::{pathbad, pick, Sel, COLON, HASH, PATHBAD, QUESTION, SLASH, SPECIAL};
use crate::simd::Masks;

/// A line's masks, queried by line offset: in registers for a short line
/// ([`Lane`]), in the window for a long one ([`View`]). Stage 2's rules are
/// written once against this.
pub(super) trait LineMasks: Copy {
    /// The first offset in `from..to` in one of the classes `sel`, or `to`.
    fn first(self, sel: Sel, from: usize, to: usize) -> usize;

    /// The first offset from `from` to the end of the line (`n`) in one of
    /// the classes `sel`, or `n`.
    fn first_on(self, sel: Sel, from: usize, n: usize) -> usize;

    /// Whether `ok` holds for every offset from `from` to the end of the
    /// line (`n`) in one of the classes `sel` (stops at the first that
    /// fails).
    fn all_on(self, sel: Sel, from: usize, n: usize, ok: impl FnMut(usize) -> bool) -> bool;
}

/// Where a [`View`] reads the union of some classes for one 64-bit word:
/// a slice of [`Masks`], or a window's [`Bitmaps`].
pub(super) trait Words: Copy {
    /// The union of the classes `sel` of word `k`.
    fn word(self, k: usize, sel: Sel) -> u64;
}

impl Words for &[Masks] {
    #[inline(always)]
    fn word(self, k: usize, sel: Sel) -> u64 {
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
pub(super) struct View<W> {
    pub(super) m: W,
    pub(super) base: usize,
}

impl<W: Words> LineMasks for View<W> {
    #[inline(always)]
    fn first_on(self, sel: Sel, from: usize, n: usize) -> usize {
        self.first(sel, from, n)
    }

    #[inline(always)]
    fn first(self, sel: Sel, from: usize, to: usize) -> usize {
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
    fn all_on(self, sel: Sel, from: usize, n: usize, mut ok: impl FnMut(usize) -> bool) -> bool {
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

/// An integer holding one bit per byte of a line: `u64` for lines of up to
/// 64 bytes, `u128` for up to 128.
pub(super) trait Bits:
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
pub(super) struct Lane<T> {
    /// The bit of the line's first byte: byte `i` is bit `o + i`.
    pub(super) o: usize,
    pub(super) colon: T,
    pub(super) slash: T,
    pub(super) question: T,
    pub(super) hash: T,
    pub(super) special: T,
    pub(super) pathbad: T,
}

impl<T: Bits> Lane<T> {
    /// The masks of a line of `n` bytes (at most as many as `T` has bits)
    /// from the masks `m` of its blocks.
    #[inline(always)]
    pub(super) fn new(m: &[Masks], n: usize) -> Lane<T> {
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
    pub(super) fn pick(self, sel: Sel) -> T {
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
    pub(super) fn of_window(b: &Bitmaps, g: usize, n: usize) -> Lane<u128> {
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
    fn first_on(self, sel: Sel, from: usize, n: usize) -> usize {
        // The masks are clear from `n` on.
        let w = self.pick(sel) & T::from_bit(from + self.o);
        if w == T::ZERO {
            n
        } else {
            w.trailing_zeros() - self.o
        }
    }

    #[inline(always)]
    fn first(self, sel: Sel, from: usize, to: usize) -> usize {
        let w = self.pick(sel) & T::from_bit(from + self.o) & T::below(to + self.o);
        if w == T::ZERO {
            to
        } else {
            w.trailing_zeros() - self.o
        }
    }

    #[inline(always)]
    fn all_on(self, sel: Sel, from: usize, _n: usize, mut ok: impl FnMut(usize) -> bool) -> bool {
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
