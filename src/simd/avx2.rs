//! x86-64 AVX2: two 32-byte vectors per block; `vpcmpeqb` for single bytes,
//! a nibble lookup table (`vpshufb`) for the special class.

use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_or_si256,
    _mm256_set1_epi8, _mm256_shuffle_epi8, _mm256_srli_epi16,
};

use super::Masks;
use crate::stage2::{Classify, NibbleTables};
use crate::table;

/// Proof that the CPU has AVX2: built only inside this file's
/// `#[target_feature(enable = "avx2")]` functions, which are called only
/// after run-time detection.
struct Avx2(());

/// Classifies every block of `data` (see [`super::Backend::classify_blocks`]).
///
/// # Safety
///
/// - The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn classify_blocks(data: &[u8], out: &mut [Masks]) {
    super::classify_blocks_with(&Avx2(()), data, out);
}

impl Classify for Avx2 {
    #[inline(always)]
    fn classify(&self, block: &[u8; 64]) -> Masks {
        // SAFETY: an `Avx2` exists only once AVX2 was detected.
        unsafe { classify(block) }
    }
}

/// The special bytes below 0x80.
const SPECIAL: NibbleTables = NibbleTables::of(&table::SPECIAL, true);

/// A 16-byte table twice, one copy per 128-bit lane.
const fn twice(t: [u8; 16]) -> [u8; 32] {
    let mut both = [0u8; 32];
    let mut i = 0;
    while i < 16 {
        both[i] = t[i];
        both[16 + i] = t[i];
        i += 1;
    }
    both
}

static TABLES: [[u8; 32]; 2] = [twice(SPECIAL.lo), twice(SPECIAL.hi)];

#[target_feature(enable = "avx2")]
#[inline]
fn load_table(t: &[u8; 32]) -> __m256i {
    // SAFETY: `t` is 32 readable bytes; the load is unaligned.
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}

#[target_feature(enable = "avx2")]
#[inline]
fn eq(v: __m256i, c: u8) -> u32 {
    mask(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(c as i8)))
}

/// 0xff in the bytes of `v` that are in the set of `lo`/`hi` (see
/// `NibbleTables`), 0 elsewhere. `hi` holds one bit per high nibble below 8,
/// and 0 above, so `lo & hi == hi` tests the bit without a negation (which
/// would turn LLVM's movemask into a bit-by-bit loop); bytes >= 0x80 give
/// `0 == 0` and must be sorted out by the caller.
#[target_feature(enable = "avx2")]
#[inline]
fn member(v: __m256i, lo: __m256i, hi: __m256i) -> __m256i {
    let nibble = _mm256_set1_epi8(0x0f);
    let l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble));
    let h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
    _mm256_cmpeq_epi8(_mm256_and_si256(l, h), h)
}

/// `vpmovmskb`, written as assembly so that LLVM cannot fuse the masks of
/// two halves into a `<64 x i1>` value, which AVX2 lowers bit by bit.
#[target_feature(enable = "avx2")]
#[inline]
fn mask(v: __m256i) -> u32 {
    let m: u32;
    // SAFETY: `vpmovmskb` reads one AVX2 register and writes one general
    // register; it touches no memory and the CPU has AVX2.
    unsafe {
        core::arch::asm!(
            "vpmovmskb {m:e}, {v}",
            m = out(reg) m,
            v = in(ymm_reg) v,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    m
}

#[target_feature(enable = "avx2")]
#[inline]
fn classify(block: &[u8; 64]) -> Masks {
    // SAFETY: `block` is 64 readable bytes, the loads unaligned.
    let (a, b) = unsafe {
        (
            _mm256_loadu_si256(block.as_ptr().cast()),
            _mm256_loadu_si256(block.as_ptr().add(32).cast()),
        )
    };
    let (lo, hi) = (load_table(&TABLES[0]), load_table(&TABLES[1]));
    let join = |x: u32, y: u32| u64::from(x) | u64::from(y) << 32;
    Masks {
        lf: join(eq(a, b'\n'), eq(b, b'\n')),
        colon: join(eq(a, b':'), eq(b, b':')),
        slash: join(eq(a, b'/'), eq(b, b'/')),
        question: join(eq(a, b'?'), eq(b, b'?')),
        hash: join(eq(a, b'#'), eq(b, b'#')),
        // Bytes >= 0x80 match in `member`, and are special anyway: the `or`
        // with the byte sets the top bit that `vpmovmskb` reads.
        special: join(
            mask(_mm256_or_si256(a, member(a, lo, hi))),
            mask(_mm256_or_si256(b, member(b, lo, hi))),
        ),
    }
}
