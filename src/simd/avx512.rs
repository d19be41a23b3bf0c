//! x86-64 AVX-512 (F and BW): one 64-byte block per vector. A compare
//! writes a class's 64-bit mask straight into a mask register, a nibble
//! lookup (`vpshufb`) gives the special and hex classes, and a masked load
//! reads a tail in place, zeros after it, with no copy and no fault past
//! its end. With VBMI, one 128-entry lookup (`vpermi2b`) gives each byte
//! all its classes, a bit each, and a test per class takes them out: fewer
//! instructions on the vector port that compares, lookups and tests all
//! share (5 on Intel), which is what bounds the block loop. With GFNI too,
//! a window is classified 8 blocks at a time: each 8 bytes' class bits are
//! an 8x8 bit matrix that `vgf2p8affineqb` transposes, a byte shuffle
//! (`vpermb`) gathers each class's bits of a block into a qword, three
//! rounds of qword shuffles (`vpermt2q`) bring each class's qwords of the
//! 8 blocks into one vector, and that vector is one store: about 6 vector
//! instructions per block where the tests took 10, and one store per class
//! for 8 blocks. (Byte shuffles of two vectors, `vpermt2b`, for the three
//! rounds instead: 2% slower overall.)

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_alignr_epi64, _mm512_and_si512, _mm512_andnot_si512,
    _mm512_cmpeq_epi8_mask, _mm512_cmplt_epu8_mask, _mm512_gf2p8affine_epi64_epi8,
    _mm512_loadu_si512, _mm512_mask_add_epi8, _mm512_maskz_loadu_epi8, _mm512_min_epu8,
    _mm512_movepi8_mask, _mm512_or_si512, _mm512_permutex2var_epi64, _mm512_permutex2var_epi8,
    _mm512_permutexvar_epi8, _mm512_reduce_add_epi64, _mm512_sad_epu8, _mm512_set1_epi64,
    _mm512_set1_epi8, _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_sllv_epi64,
    _mm512_srli_epi16, _mm512_srlv_epi64, _mm512_sub_epi8, _mm512_test_epi8_mask,
};

use super::{Classify, Group, Masks, NibbleTables, NormalMarks, Sink};
use crate::classes::mask;

/// Proof that the CPU has AVX-512 F and BW: built only inside this file's
/// `#[target_feature(enable = "avx512f,avx512bw")]` functions, which are
/// called only after run-time detection.
struct Avx512(());

/// Classifies every block of `data` (see [`super::Backend::classify_blocks`]).
///
/// # Safety
///
/// - The CPU must support AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn classify_blocks<S: Sink + ?Sized>(data: &[u8], out: &mut S) {
    super::classify_blocks_with(&Avx512(()), data, out);
}

/// [`super::Backend::count_byte`] with AVX-512 BW.
///
/// # Safety
///
/// - The CPU must support AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn count_byte(data: &[u8], byte: u8) -> u64 {
    let needle = _mm512_set1_epi8(byte as i8);
    let (zero, one) = (_mm512_setzero_si512(), _mm512_set1_epi8(1));
    let mut sums = zero;
    let mut vectors = data.chunks_exact(64);
    loop {
        // Each byte lane adds one per match, for at most 255 vectors; then
        // `vpsadbw` adds its lanes into `sums`. (A population count of
        // each compare's mask needs POPCNT, which `is_available` does not
        // test.)
        let mut lanes = zero;
        for v in vectors.by_ref().take(255) {
            // SAFETY: `v` holds 64 bytes; the load is unaligned.
            let v = unsafe { _mm512_loadu_si512(v.as_ptr().cast()) };
            lanes = _mm512_mask_add_epi8(lanes, _mm512_cmpeq_epi8_mask(v, needle), lanes, one);
        }
        sums = _mm512_add_epi64(sums, _mm512_sad_epu8(lanes, zero));
        if vectors.len() == 0 {
            break;
        }
    }
    _mm512_reduce_add_epi64(sums) as u64
        + vectors.remainder().iter().filter(|&&b| b == byte).count() as u64
}

/// Proof that the CPU has AVX-512 F, BW, VBMI and GFNI: built only inside
/// [`classify_blocks_vbmi`], which is called only after run-time detection.
struct Avx512Vbmi(());

/// [`classify_blocks`] with VBMI's lookup, a group of 8 blocks at a time
/// ([`Sink::put_group`]) while whole groups fit.
///
/// # Safety
///
/// - The CPU must support AVX-512 F, BW, VBMI and GFNI.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub(super) unsafe fn classify_blocks_vbmi<S: Sink + ?Sized>(data: &[u8], out: &mut S) {
    let c = Avx512Vbmi(());
    // Whole groups of 8 blocks, then the rest block by block. (A sink
    // that stores each block's `Masks` together, such as a slice, would
    // read the group's words back out of the vectors' stores one by one,
    // which costs more than the per-block tests: 55% slower.)
    let groups = if S::GROUPS {
        (data.len() / 512).min(out.blocks() / 8)
    } else {
        0
    };
    let (select, reverse) = (load(&SELECT), _mm512_set1_epi64(REVERSE as i64));
    let gather = load(&GATHER);
    let tables = TRANSPOSE.map(|[low, high]| (load(&low), load(&high)));
    for k in 0..groups {
        let group: &[u8; 512] = data[512 * k..512 * k + 512].try_into().expect("512 bytes");
        // The masks of 8 blocks at once: each block's class bytes from
        // `CLASS_BYTES` as in `classes_vbmi`, whose bits are then moved to
        // their places by two `vgf2p8affineqb`, a byte shuffle and three
        // rounds of qword shuffles, in vectors all along: fewer vector
        // instructions than a test per class and block, and one store per
        // class for the 8 blocks.
        let mut x = [_mm512_set1_epi8(0); 8];
        for (v, block) in x.iter_mut().zip(group.chunks_exact(64)) {
            let bits = class_bytes(load(block.try_into().expect("64 bytes")));
            // Each qword of `bits` is an 8x8 bit matrix, 8 bytes by their
            // class bits; transposed (`bits` as the matrix), byte `i` of the
            // qword holds the bits of class `FIELDS[i]` of its 8 bytes, for
            // byte `7 - m` at bit `m`, then (the bits of each byte
            // reversed) at bit `m`.
            let t = _mm512_gf2p8affine_epi64_epi8(
                _mm512_gf2p8affine_epi64_epi8(select, bits, 0),
                reverse,
                0,
            );
            // Byte `i` of qword `q` to byte `q` of qword `i`: qword `i` is
            // then class `FIELDS[i]` of the block.
            *v = _mm512_permutexvar_epi8(gather, t);
        }
        // Qword `i` of block `v` to qword `v` of vector `i`: vector `i` is
        // then class `FIELDS[i]` of the 8 blocks.
        for (s, (low, high)) in tables.iter().enumerate() {
            let b = 2 - s;
            let mut y = x;
            for w in (0..8).filter(|w| w & (1 << b) == 0) {
                let u = w | 1 << b;
                y[w] = _mm512_permutex2var_epi64(x[w], *low, x[u]);
                y[u] = _mm512_permutex2var_epi64(x[w], *high, x[u]);
            }
            x = y;
        }
        // `special` but each `%` followed by two hex digits, the 8 blocks'
        // hex digits shifted down by 1 and 2 bits as one 512-bit string
        // (nothing after the last block).
        let hex = x[mask::HEX];
        let next = _mm512_alignr_epi64(_mm512_setzero_si512(), hex, 1);
        let down = |k: u32| {
            _mm512_or_si512(
                _mm512_srlv_epi64(hex, _mm512_set1_epi64(i64::from(k))),
                _mm512_sllv_epi64(next, _mm512_set1_epi64(i64::from(64 - k))),
            )
        };
        let encoded = _mm512_and_si512(x[mask::PCT], _mm512_and_si512(down(1), down(2)));
        let pathbad = _mm512_andnot_si512(encoded, x[mask::SPECIAL]);
        let g = Group {
            classes: bytemuck::cast(x),
            pathbad: bytemuck::cast(pathbad),
        };
        out.put_group(8 * k, &g);
        if S::MARKS {
            for (j, block) in group.chunks_exact(64).enumerate() {
                let block = block.try_into().expect("64 bytes");
                out.put_marks(8 * k + j, c.normal_marks(block));
            }
        }
    }
    super::classify_blocks_from(&c, data, 8 * groups, out);
}

/// [`super::Backend::normal_marks`] with AVX-512.
///
/// # Safety
///
/// - The CPU must support AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn normal_marks(data: &[u8], out: &mut [NormalMarks]) {
    super::normal_marks_with(&Avx512(()), data, out);
}

impl Classify for Avx512 {
    #[inline(always)]
    fn classify(&self, block: &[u8; 64]) -> Masks {
        // SAFETY: an `Avx512` exists only once AVX-512 F and BW were
        // detected.
        unsafe { classes(load(block)) }
    }

    #[inline(always)]
    fn classify_tail(&self, tail: &[u8]) -> Masks {
        // SAFETY: as in `classify`; `load_tail` takes any tail shorter than
        // a block.
        unsafe { classes(load_tail(tail)) }
    }

    #[inline(always)]
    fn normal_marks(&self, block: &[u8; 64]) -> NormalMarks {
        // SAFETY: as in `classify`.
        unsafe { normal(load(block)) }
    }

    #[inline(always)]
    fn normal_marks_tail(&self, tail: &[u8]) -> NormalMarks {
        // SAFETY: as in `classify_tail`.
        unsafe { normal(load_tail(tail)) }
    }
}

impl Classify for Avx512Vbmi {
    #[inline(always)]
    fn classify(&self, block: &[u8; 64]) -> Masks {
        // SAFETY: an `Avx512Vbmi` exists only once AVX-512 F, BW, VBMI and
        // GFNI were detected.
        unsafe { classes_vbmi(load(block)) }
    }

    #[inline(always)]
    fn classify_tail(&self, tail: &[u8]) -> Masks {
        // SAFETY: as in `classify`; `load_tail` takes any tail shorter than
        // a block.
        unsafe { classes_vbmi(load_tail(tail)) }
    }

    // What normalization looks for: AVX-512's kernel (VBMI's proof is
    // AVX-512 F and BW's too).
    #[inline(always)]
    fn normal_marks(&self, block: &[u8; 64]) -> NormalMarks {
        Avx512(()).normal_marks(block)
    }

    #[inline(always)]
    fn normal_marks_tail(&self, tail: &[u8]) -> NormalMarks {
        Avx512(()).normal_marks_tail(tail)
    }
}

static TABLES: [[u8; 64]; 4] = NibbleTables::lanes();

/// The classes of each byte below 0x80, a bit each: 7 special, 6 hex digit,
/// 5 `%`, 4 LF, 3 `:`, 2 `/`, 1 `?`, 0 `#`. Entry 0x7f (DEL, special and
/// nothing else) stands for every byte >= 0x80 too.
static CLASS_BYTES: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = (crate::classes::SPECIAL[b] as u8) << 7 | (crate::classes::HEX[b] as u8) << 6;
        b += 1;
    }
    let singles = [b'%', b'\n', b':', b'/', b'?', b'#'];
    let mut i = 0;
    while i < singles.len() {
        t[singles[i] as usize] |= 1 << (5 - i);
        i += 1;
    }
    t
};

/// The [`Masks`] fields in order, as their bits in [`CLASS_BYTES`].
const FIELDS: [u8; 8] = [4, 3, 2, 1, 0, 7, 5, 6];

/// Byte `i` of each qword: the bit of class `FIELDS[i]`, a row of the bit
/// matrix that `vgf2p8affineqb` multiplies.
static SELECT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = 1 << FIELDS[i % 8];
        i += 1;
    }
    t
};

/// The bit matrix that reverses the bits of a byte.
const REVERSE: u64 = 0x8040_2010_0804_0201;

/// Byte `8 * i + q` from byte `8 * q + i`: each block's 8x8 byte transpose.
static GATHER: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = ((i % 8) * 8 + i / 8) as u8;
        i += 1;
    }
    t
};

/// The three rounds of the 8x8 qword transpose of 8 vectors, element `(v,
/// l)` (vector `v`, qword `l`) to `(l, v)`. Round `s` swaps bit `b = 2 -
/// s` of `v` and of `l`: output vector `w`, qword `l` takes qword `l` with
/// bit `b` set to `w`'s from the vector `w` with bit `b` set to `l`'s. Its
/// two tables: for the output vector with bit `b` clear, and set; bit 3 of
/// an index picks the second input vector. (Qword indexes as bytes: the
/// low byte of each qword, the others zero.)
static TRANSPOSE: [[[u8; 64]; 2]; 3] = {
    let mut t = [[[0u8; 64]; 2]; 3];
    let mut s = 0;
    while s < 3 {
        let b = 2 - s;
        let mut c = 0;
        while c < 2 {
            let mut l = 0;
            while l < 8 {
                let d = (l >> b) & 1;
                t[s][c][8 * l] = (8 * d + ((l & !(1 << b)) | (c << b))) as u8;
                l += 1;
            }
            c += 1;
        }
        s += 1;
    }
    t
};

#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn load(block: &[u8; 64]) -> __m512i {
    // SAFETY: `block` is 64 readable bytes; the load is unaligned.
    unsafe { _mm512_loadu_si512(block.as_ptr().cast()) }
}

/// `tail` (fewer than 64 bytes) followed by zero bytes, as a vector.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn load_tail(tail: &[u8]) -> __m512i {
    assert!(tail.len() < 64, "a tail is shorter than a block");
    let live = (1u64 << tail.len()) - 1;
    // SAFETY: the masked load reads only the bytes whose mask bit is set,
    // the `tail.len()` bytes of `tail`; the others are neither read nor
    // faulted on, and come out as zeros.
    unsafe { _mm512_maskz_loadu_epi8(live, tail.as_ptr().cast()) }
}

#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn eq(v: __m512i, c: u8) -> u64 {
    _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(c as i8))
}

/// The bytes of `v` below 0x80 in the set of `lo`/`hi` (see `NibbleTables`:
/// `hi` holds one bit per high nibble below 8, so the bit test is 0 for
/// bytes >= 0x80).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn member(v: __m512i, lo: &[u8; 64], hi: &[u8; 64]) -> u64 {
    let nibble = _mm512_set1_epi8(0x0f);
    let (lo, hi) = (load(lo), load(hi));
    let l = _mm512_shuffle_epi8(lo, _mm512_and_si512(v, nibble));
    let h = _mm512_shuffle_epi8(hi, _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble));
    _mm512_test_epi8_mask(l, h)
}

/// The classes of the 64 bytes of `v`.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn classes(v: __m512i) -> Masks {
    Masks {
        lf: eq(v, b'\n'),
        colon: eq(v, b':'),
        slash: eq(v, b'/'),
        question: eq(v, b'?'),
        hash: eq(v, b'#'),
        // Every byte >= 0x80 (its top bit) is special too.
        special: member(v, &TABLES[0], &TABLES[1]) | _mm512_movepi8_mask(v),
        pct: eq(v, b'%'),
        hex: member(v, &TABLES[2], &TABLES[3]),
    }
}

/// Each byte of `v` as its classes' bits, from [`CLASS_BYTES`].
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn class_bytes(v: __m512i) -> __m512i {
    let (lo, hi) = (&CLASS_BYTES[..64], &CLASS_BYTES[64..]);
    let (lo, hi) = (
        load(lo.try_into().expect("64")),
        load(hi.try_into().expect("64")),
    );
    // `vpermi2b` reads the low 7 bits of each index: bytes >= 0x80 look up
    // DEL's entry instead of their low half's.
    _mm512_permutex2var_epi8(lo, _mm512_min_epu8(v, _mm512_set1_epi8(0x7f)), hi)
}

/// The classes of the 64 bytes of `v`, a test per class of
/// [`class_bytes`].
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn classes_vbmi(v: __m512i) -> Masks {
    let c = class_bytes(v);
    let bit = |k: u8| _mm512_test_epi8_mask(c, _mm512_set1_epi8(1 << k));
    Masks {
        lf: bit(4),
        colon: bit(3),
        slash: bit(2),
        question: bit(1),
        hash: bit(0),
        special: _mm512_movepi8_mask(c),
        pct: bit(5),
        hex: bit(6),
    }
}

/// `%`, `/`, `.` and `A-Z` of the 64 bytes of `v`.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn normal(v: __m512i) -> NormalMarks {
    // `A-Z` as one unsigned range: `b - 'A' < 26` (bytes below `A` wrap
    // around to large values).
    let from_a = _mm512_sub_epi8(v, _mm512_set1_epi8(b'A' as i8));
    NormalMarks {
        pct: eq(v, b'%'),
        slash: eq(v, b'/'),
        dot: eq(v, b'.'),
        upper: _mm512_cmplt_epu8_mask(from_a, _mm512_set1_epi8(26)),
    }
}
