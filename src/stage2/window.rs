//! A window's masks: stage 1 writes a window's blocks (64 KiB) into one
//! bit array per class ([`Bitmaps`], a [`Sink`]), with the `PATHBAD` class
//! that stage 2 reads most; a line's bits are then one unaligned 16-byte
//! load per class at any offset. When noting for normalization, the
//! uppercase letters and what is suspect in a normal line (`%`, `/.`) go
//! beside them ([`NormalBitmaps`]).

use std::cell::RefCell;

use super::lanes::{Bits, Words};
use super::{
    pathbad, Notes, Outcome, Sel, COLON, DEFAULT_PORT_WORDS, HASH, LF, PATHBAD, QUESTION, SLASH,
    SPECIAL, WINDOW_BLOCKS,
};
use crate::classes::mask;
use crate::classes::{is, UNRESERVED};
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

/// How many sets of bit arrays a thread keeps for its next scanners.
const SPARES: usize = 4;

thread_local! {
    /// The bit arrays of this thread's finished scanners
    /// ([`BitArrays::recycle`]), for the next ones: a scanner per chunk,
    /// or per run of a few rows (the Python package stages 64 KiB at a
    /// time), would otherwise allocate and fill 58 KiB of arrays for each.
    /// What they hold from an earlier window is never read: a window
    /// clears what follows its last block (`clear_from`), and the padding
    /// after the last possible block is never written.
    static SPARE: RefCell<Vec<Box<[ClassBits]>>> = const { RefCell::new(Vec::new()) };
}

impl<const N: usize> Default for BitArrays<N> {
    fn default() -> BitArrays<N> {
        let spare = SPARE
            .try_with(|spare| {
                let mut spare = spare.try_borrow_mut().ok()?;
                let i = spare.iter().position(|b| b.len() == N)?;
                Some(spare.swap_remove(i))
            })
            .ok()
            .flatten()
            .and_then(|b| b.try_into().ok());
        BitArrays {
            bytes: spare.unwrap_or_else(|| {
                vec![ClassBits([0u8; STRIDE]); N]
                    .into_boxed_slice()
                    .try_into()
                    .expect("one array per class")
            }),
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

    /// Gives the arrays to the thread's next scanner (see [`SPARE`]).
    pub(super) fn recycle(self) {
        // (During the thread's exit, or with enough kept, they are freed.)
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut() {
                if spare.len() < SPARES {
                    spare.push(self.bytes);
                }
            }
        });
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

/// A window's bit arrays for normalization (laid out as [`Bitmaps`]'
/// classes), kept when a [`Scanner`] notes what normalization looks for
/// ([`Scanner::into_noting`]): its uppercase letters, and what is suspect in a
/// line that may be normal (a `%`, and a `.` after a `/`), so that a line
/// with neither, most lines, takes two loads and one branch.
#[derive(Clone, Debug, Default)]
pub(super) struct NormalBitmaps {
    pub(super) bits: BitArrays<2>,
    /// Whether the last byte of the block put last is a `/`.
    slash_carry: u64,
}

impl NormalBitmaps {
    /// The classes' indexes in `bits`.
    pub(super) const UPPER: usize = 0;
    pub(super) const SUSPECT: usize = 1;

    /// The notes on the valid `line` at bit `g` of the window, whose
    /// scheme, authority, port and path are `h`: [`Notes::PLAIN`] when
    /// it has no uppercase letter before its path, no `/` followed by `.`
    /// and only normal percent-encodings, [`Notes::NORMAL`] when its port
    /// and path are then in normal form too, [`Notes::BAD_PCT`] when it has
    /// none of the first two but a percent-encoding that is not normal,
    /// else none; with [`Notes::NO_PCT`] added to the first two when it has
    /// no `%`.
    #[inline(always)]
    pub(super) fn notes(&self, g: usize, line: &[u8], h: &Head) -> Notes {
        let o = g % 8;
        let live = <u128 as Bits>::below(o + line.len()) & <u128 as Bits>::from_bit(o);
        // Scheme and authority are short: their bits are in the low word
        // (a `u128` range for all costs 1% more instructions of a noted
        // `normalize`, callgrind).
        let head = o + h.path_start;
        let upper = self.bits.lane(Self::UPPER, g);
        let upper_head = if head <= 64 {
            upper as u64 & <u64 as Bits>::below(head) & !<u64 as Bits>::below(o) != 0
        } else {
            upper & <u128 as Bits>::below(head) & <u128 as Bits>::from_bit(o) != 0
        };
        if upper_head {
            return Notes::NONE;
        }
        // The `.` of a `/.` (a line's first byte is never one: the byte
        // before it is an LF or none), or a `%`, whose two hex digits
        // follow in a valid line.
        let (mut w, mut normal) = (self.bits.lane(Self::SUSPECT, g) & live, true);
        let no_pct = if w == 0 { Notes::NO_PCT } else { Notes::NONE };
        while w != 0 {
            let p = w.trailing_zeros() as usize - o;
            if line[p] == b'.' {
                return Notes::NONE;
            }
            normal &= valid_pct_is_normal(line[p + 1], line[p + 2]);
            w &= w - 1;
        }
        if !normal {
            Notes::BAD_PCT
        } else if port_and_path_are_normal(line, h) {
            Notes::NORMAL.with(no_pct)
        } else {
            Notes::PLAIN.with(no_pct)
        }
    }
}

/// What [`NormalBitmaps::notes`] reads of a valid line besides its masks:
/// where its scheme ends (0 for none) and its path starts and ends, and
/// whether it has an authority and a port. The fast path of stage 2 has
/// them at hand ([`decide_plain`](super::plain::decide_plain)'s shape);
/// [`Head::of`] takes them from any line's outcome.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Head {
    pub(super) scheme_end: usize,
    pub(super) authority: bool,
    pub(super) port: bool,
    pub(super) path_start: usize,
    pub(super) path_end: usize,
}

impl Head {
    /// The [`Head`] of a valid line that stage 2 decided with `outcome`.
    #[inline(always)]
    pub(super) fn of(outcome: &Outcome) -> Head {
        let split = &outcome.split;
        let path = split.path_span();
        Head {
            scheme_end: split.scheme_span().map_or(0, |s| s.end),
            authority: split.has_authority(),
            port: outcome.authority.port().is_some(),
            path_start: path.start,
            path_end: path.end,
        }
    }
}

/// Whether the port and path of the valid `line`, whose scheme, authority
/// and path are `h` and whose scheme has no uppercase letter, are in
/// section 6's normal form (`Normalizer::is_normal`'s test of a plain
/// URI): where the scheme has a default port and there is an authority, no
/// port (a port other than the default is left to the normalizer to judge)
/// and a path; after a scheme, no path that starts with `.`. Every test is
/// computed for every line and only their conjunction branched on: which
/// lines have a scheme, an authority or a port varies from line to line
/// (branching on the rare authority with a port or an empty path, to spare
/// the others the test of the scheme, took 3% fewer instructions but
/// mispredicted on 19% of the lines, callgrind).
#[inline(always)]
fn port_and_path_are_normal(line: &[u8], h: &Head) -> bool {
    // The scheme's bytes (its first 8 of a longer scheme, which is none of
    // the five: they have no zero byte); no scheme is the empty word, none
    // of the five either.
    let scheme = match line.first_chunk::<8>() {
        Some(first) => {
            u64::from_le_bytes(*first) & ((1u128 << (8 * h.scheme_end.min(8))) - 1) as u64
        }
        // A line shorter than 8 bytes (rare), noted as longer lines are:
        // `classes::name_word` of the scheme, as a fold (the const fn's
        // loop cost 0.6% more instructions of `normalize`, callgrind).
        None => line[..h.scheme_end]
            .iter()
            .rev()
            .fold(0, |w, &b| w << 8 | u64::from(b)),
    };
    let defaulted = DEFAULT_PORT_WORDS
        .iter()
        .fold(false, |d, &(w, _)| d | (scheme == w));
    let unusual = (h.authority & defaulted & ((h.path_start == h.path_end) | h.port))
        | ((h.scheme_end > 0) & (line.get(h.path_start) == Some(&b'.')));
    !unusual
}

/// [`pct_is_normal`](crate::classes::pct_is_normal) of two hex digits (those of a valid line's `%`),
/// with no branch: uppercase, and of a byte that is not `unreserved`.
#[inline(always)]
pub(super) fn valid_pct_is_normal(h: u8, l: u8) -> bool {
    // `a-f` are 0x61-0x66, the only hex digits with both bits 5 and 6 set.
    let lower = |d: u8| d & 0x60 == 0x60;
    // `0-9` are 0x30-0x39, `A-F` 0x41-0x46 and `a-f` 0x61-0x66: bit 6 set
    // for the letters, whose low nibble is then their value less 9.
    let value = |d: u8| (d & 0xf) + 9 * (d >> 6 & 1);
    !(lower(h) | lower(l)) & !is(value(h) << 4 | value(l), UNRESERVED)
}

/// A window's sink when the scanner is noting: the masks into the
/// [`Bitmaps`], the uppercase letters and the suspect bytes (`%`, the `.`
/// of `/.`) into the [`NormalBitmaps`].
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
        // The blocks come in order, the window's first at 0.
        let carry = if i == 0 { 0 } else { self.normal.slash_carry };
        let slash_dot = m.dot & (m.slash << 1 | carry);
        self.normal.bits.store(NormalBitmaps::UPPER, i, m.upper);
        self.normal
            .bits
            .store(NormalBitmaps::SUSPECT, i, m.pct | slash_dot);
        self.normal.slash_carry = m.slash >> 63;
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

#[cfg(test)]
mod tests {
    use super::super::scanner::Scanner;
    use super::{BitArrays, SPARE, SPARES};

    /// The number of bit arrays this thread keeps for its next scanners.
    fn spares() -> usize {
        SPARE.with(|spare| spare.borrow().len())
    }

    /// A finished scanner's bit arrays go to its thread's spares, no more
    /// than [`SPARES`] of them (the rest are freed: a thread's memory
    /// stays bounded however many scanners it runs), and the next
    /// scanners take them back.
    #[test]
    fn spare_arrays_are_kept_up_to_a_bound() {
        // A thread of its own, whose spares start empty.
        std::thread::spawn(|| {
            let arrays: Vec<BitArrays<7>> = (0..SPARES + 2).map(|_| BitArrays::default()).collect();
            let places: Vec<*const u8> = arrays.iter().map(|a| a.bytes[0].0.as_ptr()).collect();
            for (i, a) in arrays.into_iter().enumerate() {
                a.recycle();
                assert_eq!(spares(), (i + 1).min(SPARES));
            }
            // The next arrays with as many classes are kept ones; arrays
            // of another number of classes are not.
            let kept = &places[..SPARES];
            let next = BitArrays::<7>::default();
            assert!(kept.contains(&next.bytes[0].0.as_ptr()));
            assert_eq!(spares(), SPARES - 1);
            let other = BitArrays::<2>::default();
            assert!(!kept.contains(&other.bytes[0].0.as_ptr()));
            assert_eq!(spares(), SPARES - 1);
        })
        .join()
        .expect("the test's thread");
    }

    /// A scanner's bit arrays, and a noting scanner's second set, go to
    /// the spares when it is recycled (a scanner per chunk would otherwise
    /// allocate and fill 58 KiB for each), and turning a scanner into a
    /// noting one keeps its arrays.
    #[test]
    fn recycled_scanners_leave_their_arrays() {
        std::thread::spawn(|| {
            Scanner::default().recycle();
            assert_eq!(spares(), 1);
            let noting = Scanner::default().into_noting();
            assert_eq!(spares(), 0);
            noting.recycle();
            assert_eq!(spares(), 2);
        })
        .join()
        .expect("the test's thread");
    }

    /// `put_group` stores 8 blocks' masks as `put` stores them one by one
    /// (the `Sink` contract), on any x86-64 CPU: the AVX-512 backend, the
    /// only one that hands blocks over in groups, does not run on every
    /// CPU the tests run on. Every class's words are compared, `PATHBAD`'s
    /// across the groups' edges (whose `%` waits for the next group's hex
    /// digits) and the window's end included, for a whole window and for
    /// a shorter one.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn groups_of_blocks_are_put_as_their_blocks() {
        use super::super::{pathbad, WINDOW_BLOCKS};
        use super::{Bitmaps, Words};
        use crate::classes::mask;
        use crate::simd::{Group, Masks, Sink};

        // Random masks (xorshift), with hex digits dense enough that many
        // `%`s have two after them, within a block and across blocks.
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let masks: Vec<Masks> = (0..WINDOW_BLOCKS)
            .map(|_| Masks {
                lf: next(),
                colon: next(),
                slash: next(),
                question: next(),
                hash: next(),
                special: next(),
                pct: next(),
                hex: next() | next(),
            })
            .collect();
        for blocks in [8, 24, WINDOW_BLOCKS] {
            let (mut one, mut grouped) = (Bitmaps::default(), Bitmaps::default());
            for (i, &m) in masks[..blocks].iter().enumerate() {
                one.put(i, m);
            }
            one.end(blocks);
            for (j, eight) in masks[..blocks].chunks_exact(8).enumerate() {
                let mut g = Group {
                    classes: [[0; 8]; mask::COUNT],
                    pathbad: [0; 8],
                };
                for (b, m) in eight.iter().enumerate() {
                    for (c, class) in g.classes.iter_mut().enumerate() {
                        class[b] = m.class(c);
                    }
                    let next_hex = eight.get(b + 1).map_or(0, |n| n.hex);
                    g.pathbad[b] = pathbad(m.special, m.pct, m.hex, next_hex);
                }
                grouped.put_group(8 * j, &g);
            }
            grouped.end(blocks);
            for c in Bitmaps::CLASSES {
                for k in 0..blocks + 2 {
                    assert_eq!(
                        Words::word(&grouped, k, c),
                        Words::word(&one, k, c),
                        "class {c:#x}, word {k} of {blocks} blocks"
                    );
                }
            }
            assert_eq!(grouped.branchy, one.branchy, "{blocks} blocks");
        }
    }

    /// A window is branchy (its lines go straight to `decide`) when fewer
    /// than one in 8 of its sampled blocks (every 16th, from the first)
    /// holds a `://`; a `:` without `//` after it is no authority, and a
    /// window of no blocks is not branchy.
    #[test]
    fn few_authorities_make_a_window_branchy() {
        use super::Bitmaps;
        use crate::simd::{Masks, Sink};

        let authority = Masks {
            colon: 1 << 5,
            slash: 0b11 << 6,
            ..Masks::default()
        };
        let colon_alone = Masks {
            colon: 1 << 5,
            slash: 1 << 7,
            ..Masks::default()
        };
        let none = Masks::default();
        let branchy = |blocks: &[Masks]| {
            let mut b = Bitmaps::default();
            for (i, &m) in blocks.iter().enumerate() {
                b.put(i, m);
            }
            b.end(blocks.len());
            b.branchy
        };
        assert!(!branchy(&[]));
        // 128 blocks: 8 sampled.
        let mut w = vec![none; 128];
        assert!(branchy(&w));
        w[16] = authority;
        assert!(!branchy(&w), "one in 8");
        w[16] = colon_alone;
        assert!(branchy(&w), "a colon alone");
        w[16] = none;
        w[17] = authority;
        assert!(branchy(&w), "a block not sampled");
        // 129 blocks: 9 sampled, one authority is fewer than one in 8.
        let mut w = vec![none; 129];
        w[128] = authority;
        assert!(branchy(&w), "one in 9");
        w[0] = authority;
        assert!(!branchy(&w), "two in 9");
    }
}
