//! A window's masks: stage 1 writes a window's blocks (64 KiB) into one
//! bit array per class ([`Bitmaps`], a [`Sink`]), with the `PATHBAD` class
//! that stage 2 reads most; a line's bits are then one unaligned 16-byte
//! load per class at any offset. When noting for normalization, the `.`
//! and `A-Z` classes go beside them ([`NormalBitmaps`]).

use super::lanes::{Bits, Lane, LineMasks, Words};
use super::{
    pathbad, Notes, Sel, COLON, HASH, LF, PATHBAD, QUESTION, SLASH, SPECIAL, WINDOW_BLOCKS,
};
use crate::classes::mask;
use crate::classes::pct_is_normal;
#[cfg(target_arch = "x86_64")]
use crate::simd::Group;
use crate::simd::{Masks, NormalMarks, Sink};

/// The bytes of one class's bit array: a window's masks and the zero
/// padding.
pub(super) const STRIDE: usize = 8 * WINDOW_BLOCKS + 64;

/// One class's bit array, aligned so that 8 blocks' words (`store_group`)
/// are one aligned 64-byte store.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct ClassBits([u8; STRIDE]);

/// `N` bit arrays of a window, one per class (bit `i` of a class,
/// little-endian, describes byte `i` of the window), each followed by 16
/// zero bytes: a line's bits are then one unaligned 16-byte load per class
/// at any bit offset, with no funnel shifts across words.
#[derive(Clone, Debug)]
pub(super) struct BitArrays<const N: usize> {
    /// A fixed size, so that storing a block's word needs no bounds check.
    pub(super) bytes: Box<[ClassBits; N]>,
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
    pub(super) fn lane(&self, c: usize, g: usize) -> u128 {
        // No shift to bring bit `g` down: a variable 128-bit shift costs
        // more than the offset that every query then adds.
        let at = g / 8;
        u128::from_le_bytes(self.bytes[c].0[at..at + 16].try_into().expect("16 bytes"))
    }

    /// Word `k` of class `c`.
    #[inline(always)]
    pub(super) fn word(&self, c: usize, k: usize) -> u64 {
        u64::from_le_bytes(
            self.bytes[c].0[8 * k..8 * k + 8]
                .try_into()
                .expect("8 bytes"),
        )
    }

    /// Stores word `i` of class `c`.
    #[inline(always)]
    pub(super) fn store(&mut self, c: usize, i: usize, w: u64) {
        // `i` is below `WINDOW_BLOCKS` (see `Sink`); saying so spares a
        // bounds check per class.
        let at = 8 * i.min(WINDOW_BLOCKS - 1);
        self.bytes[c].0[at..at + 8].copy_from_slice(&w.to_le_bytes());
    }

    /// Stores words `i..i + 8` of class `c` (`i` a multiple of 8).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn store_group(&mut self, c: usize, i: usize, w: &[u64; 8]) {
        let at = 64 * (i / 8).min(WINDOW_BLOCKS / 8 - 1);
        for (to, w) in self.bytes[c].0[at..at + 64].chunks_exact_mut(8).zip(w) {
            to.copy_from_slice(&w.to_le_bytes());
        }
    }

    /// Clears the words from `blocks` on (the padding after a window of
    /// `blocks` blocks): nothing of an earlier window may show past this
    /// one's end.
    pub(super) fn clear_from(&mut self, blocks: usize) {
        for class in self.bytes.iter_mut() {
            class.0[8 * blocks..8 * blocks + 16].fill(0);
        }
    }
}

/// A window's masks, one bit array per class in the order of
/// [`Bitmaps::CLASSES`].
#[derive(Clone, Debug, Default)]
pub(super) struct Bitmaps {
    pub(super) bits: BitArrays<7>,
    /// The special, `%` and hex masks of the last block put, whose
    /// `PATHBAD` waits for the next block's hex digits.
    pub(super) pending: [u64; 3],
    /// Whether the window's lines go straight to [`decide`], skipping
    /// [`decide_plain`]: when few of its blocks hold a `://`, its lines are
    /// mostly relative references (a web server's request targets, say),
    /// which `decide` decides in fewer instructions, its branches going
    /// mostly the same way (`decide_plain` measured 35-45% slower on such
    /// lists). Seen on a sample of the window's blocks once it is
    /// classified: a count per line cost 5% on the other corpora, a count
    /// per block 2%.
    pub(super) branchy: bool,
}

impl Bitmaps {
    /// The classes, in order: stage 1's but `%` and hex digits, which
    /// only `PATHBAD` needs, and `PATHBAD` in their place.
    pub(super) const CLASSES: [Sel; 7] = [LF, COLON, SLASH, QUESTION, HASH, SPECIAL, PATHBAD];

    /// The index of class `sel` (one class) in `bits`: its index in
    /// [`mask`], `PATHBAD`'s after the others.
    #[inline(always)]
    pub(super) fn index(sel: Sel) -> usize {
        match sel.trailing_zeros() as usize {
            mask::PATHBAD => 6,
            c => c,
        }
    }

    /// The 128 bits of class `sel` (one class) from the byte holding bit
    /// `g`: bit `g` is bit `g % 8` of the result.
    #[inline(always)]
    pub(super) fn lane(&self, sel: Sel, g: usize) -> u128 {
        self.bits.lane(Self::index(sel), g)
    }

    /// Stores word `i` of class `sel` (one class).
    #[inline(always)]
    pub(super) fn store(&mut self, sel: Sel, i: usize, w: u64) {
        self.bits.store(Self::index(sel), i, w);
    }

    /// Stores the `PATHBAD` word of block `i`, the last put, whose next
    /// block's hex digits are `next_hex`.
    #[inline(always)]
    pub(super) fn finish(&mut self, i: usize, next_hex: u64) {
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
pub(super) struct NormalBitmaps {
    pub(super) bits: BitArrays<2>,
}

impl NormalBitmaps {
    /// The classes' indexes in `bits`.
    pub(super) const DOT: usize = 0;
    pub(super) const UPPER: usize = 1;

    /// The notes on the valid `line` at bit `g` of the window, whose masks
    /// are `lane` and whose path starts at `path_start`: [`Notes::PLAIN`] when
    /// it has no uppercase letter before its path, no `/` followed by `.`
    /// and only normal percent-encodings, [`Notes::BAD_PCT`] when it has none
    /// of the first two but a percent-encoding that is not normal, else
    /// none.
    #[inline(always)]
    pub(super) fn notes(
        &self,
        lane: &Lane<u128>,
        line: &[u8],
        g: usize,
        path_start: usize,
    ) -> Notes {
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
            return Notes::NONE;
        }
        // The special bytes are few; a valid line's `%` has two hex digits
        // after it.
        let pct_normal = lane.all_on(SPECIAL, 0, line.len(), |p| {
            line[p] != b'%' || pct_is_normal(line[p + 1], line[p + 2])
        });
        if pct_normal {
            Notes::PLAIN
        } else {
            Notes::BAD_PCT
        }
    }
}

/// A window's sink when the scanner is noting: the masks into the
/// [`Bitmaps`], the `.` and `A-Z` masks into the [`NormalBitmaps`].
pub(super) struct Noting<'s> {
    pub(super) bits: &'s mut Bitmaps,
    pub(super) normal: &'s mut NormalBitmaps,
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
    fn word(self, k: usize, sel: Sel) -> u64 {
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
        // Stage 1's classes but `%` and hex digits, at the same indexes.
        for c in [LF, COLON, SLASH, QUESTION, HASH, SPECIAL] {
            let at = Self::index(c);
            self.bits.store_group(at, i, &g.classes[at]);
        }
        let (special, pct, hex) = (
            &g.classes[mask::SPECIAL],
            &g.classes[mask::PCT],
            &g.classes[mask::HEX],
        );
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
