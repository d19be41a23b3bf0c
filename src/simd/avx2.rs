//! x86-64 AVX2: two 32-byte vectors per block; `vpcmpeqb` for single bytes,
//! nibble lookup tables (`vpshufb`) for the hex and alphabet classes.

use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
    _mm256_srli_epi16,
};

use super::Masks;
use crate::stage2::{self, Classify, NibbleTables, Outcome};
use crate::table;
use crate::validate::Mode;

/// Proof that the CPU has AVX2: built only inside this file's
/// `#[target_feature(enable = "avx2")]` functions, which are called only
/// after run-time detection.
struct Avx2(());

/// Stage 1 + stage 2 of one line (see [`super::scan_line`]).
///
/// # Safety
///
/// - The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn scan_line(
    buf: &[u8],
    start: usize,
    end: Option<usize>,
    mode: Mode,
) -> (usize, usize, Outcome) {
    stage2::scan_line(&Avx2(()), buf, start, end, mode)
}

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

const ALPHABET: NibbleTables = NibbleTables::new(table::URI_ALPHABET);
const HEX: NibbleTables = NibbleTables::new(table::HEXDIG);

/// Both 128-bit lanes hold the same 16-byte table.
#[target_feature(enable = "avx2")]
#[inline]
fn load_table(t: &[u8; 16]) -> __m256i {
    let mut both = [0u8; 32];
    both[..16].copy_from_slice(t);
    both[16..].copy_from_slice(t);
    // SAFETY: `both` is 32 readable bytes; the load is unaligned.
    unsafe { _mm256_loadu_si256(both.as_ptr().cast()) }
}

#[target_feature(enable = "avx2")]
#[inline]
fn eq(v: __m256i, c: u8) -> u32 {
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(c as i8))) as u32
}

/// Bit `i` set when byte `i` is in the set of `lo`/`hi` (see `NibbleTables`).
#[target_feature(enable = "avx2")]
#[inline]
fn member(v: __m256i, lo: __m256i, hi: __m256i) -> u32 {
    let nibble = _mm256_set1_epi8(0x0f);
    let l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble));
    let h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
    let hit = _mm256_and_si256(l, h);
    !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, _mm256_setzero_si256())) as u32)
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
    let (alpha_lo, alpha_hi) = (load_table(&ALPHABET.lo), load_table(&ALPHABET.hi));
    let (hex_lo, hex_hi) = (load_table(&HEX.lo), load_table(&HEX.hi));
    let join = |x: u32, y: u32| u64::from(x) | u64::from(y) << 32;
    let open = _mm256_set1_epi8(b'[' as i8);
    let close = _mm256_set1_epi8(b']' as i8);
    let brackets_a = _mm256_or_si256(_mm256_cmpeq_epi8(a, open), _mm256_cmpeq_epi8(a, close));
    let brackets_b = _mm256_or_si256(_mm256_cmpeq_epi8(b, open), _mm256_cmpeq_epi8(b, close));
    Masks {
        lf: join(eq(a, b'\n'), eq(b, b'\n')),
        colon: join(eq(a, b':'), eq(b, b':')),
        slash: join(eq(a, b'/'), eq(b, b'/')),
        question: join(eq(a, b'?'), eq(b, b'?')),
        hash: join(eq(a, b'#'), eq(b, b'#')),
        percent: join(eq(a, b'%'), eq(b, b'%')),
        at: join(eq(a, b'@'), eq(b, b'@')),
        brackets: join(
            _mm256_movemask_epi8(brackets_a) as u32,
            _mm256_movemask_epi8(brackets_b) as u32,
        ),
        hex: join(member(a, hex_lo, hex_hi), member(b, hex_lo, hex_hi)),
        bad: !join(member(a, alpha_lo, alpha_hi), member(b, alpha_lo, alpha_hi)),
    }
}
