//! x86-64 AVX-512 (F and BW): one 64-byte block per vector. A compare
//! writes a class's 64-bit mask straight into a mask register, a nibble
//! lookup (`vpshufb`) gives the special and hex classes, and a masked load
//! reads a tail in place, zeros after it, with no copy and no fault past
//! its end. With VBMI, one 128-entry lookup (`vpermi2b`) gives each byte
//! all its classes, a bit each, and a test per class takes them out: fewer
//! instructions on the vector port that compares, lookups and tests all
//! share (5 on Intel), which is what bounds the block loop.

use core::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_cmpeq_epi8_mask, _mm512_cmplt_epu8_mask, _mm512_loadu_si512,
    _mm512_maskz_loadu_epi8, _mm512_min_epu8, _mm512_movepi8_mask, _mm512_permutex2var_epi8,
    _mm512_set1_epi8, _mm512_shuffle_epi8, _mm512_srli_epi16, _mm512_sub_epi8,
    _mm512_test_epi8_mask,
};

use super::{Classify, Masks, NibbleTables, NormalMarks, Sink};

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

/// Proof that the CPU has AVX-512 F, BW and VBMI: built only inside
/// [`classify_blocks_vbmi`], which is called only after run-time detection.
struct Avx512Vbmi(());

/// [`classify_blocks`] with VBMI's lookup.
///
/// # Safety
///
/// - The CPU must support AVX-512 F, BW and VBMI.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn classify_blocks_vbmi<S: Sink + ?Sized>(data: &[u8], out: &mut S) {
    super::classify_blocks_with(&Avx512Vbmi(()), data, out);
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
        // SAFETY: an `Avx512Vbmi` exists only once AVX-512 F, BW and VBMI
        // were detected.
        unsafe { classes_vbmi(load(block)) }
    }

    #[inline(always)]
    fn classify_tail(&self, tail: &[u8]) -> Masks {
        // SAFETY: as in `classify`; `load_tail` takes any tail shorter than
        // a block.
        unsafe { classes_vbmi(load_tail(tail)) }
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

static TABLES: [[u8; 64]; 4] = NibbleTables::lanes();

/// The classes of each byte below 0x80, a bit each: 7 special, 6 hex digit,
/// 5 `%`, 4 LF, 3 `:`, 2 `/`, 1 `?`, 0 `#`. Entry 0x7f (DEL, special and
/// nothing else) stands for every byte >= 0x80 too.
static CLASS_BYTES: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = (crate::table::SPECIAL[b] as u8) << 7 | (crate::table::HEX[b] as u8) << 6;
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

/// The classes of the 64 bytes of `v`, from one lookup in [`CLASS_BYTES`].
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn classes_vbmi(v: __m512i) -> Masks {
    let (lo, hi) = (&CLASS_BYTES[..64], &CLASS_BYTES[64..]);
    let (lo, hi) = (
        load(lo.try_into().expect("64")),
        load(hi.try_into().expect("64")),
    );
    // `vpermi2b` reads the low 7 bits of each index: bytes >= 0x80 look up
    // DEL's entry instead of their low half's.
    let c = _mm512_permutex2var_epi8(lo, _mm512_min_epu8(v, _mm512_set1_epi8(0x7f)), hi);
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
