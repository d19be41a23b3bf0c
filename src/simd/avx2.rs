//! x86-64 AVX2: two 32-byte vectors per block; `vpcmpeqb` for single bytes,
//! a nibble lookup table (`vpshufb`) for the special class.

use core::arch::x86_64::{
    __m128i, __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256, _mm256_cmpeq_epi8,
    _mm256_cmpgt_epi8, _mm256_loadu2_m128i, _mm256_loadu_si256, _mm256_or_si256, _mm256_sad_epu8,
    _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16,
    _mm256_storeu_si256, _mm256_sub_epi8,
};

use super::{padded, Classify, Masks, NibbleTables, NormalMarks, Sink};

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
pub(super) unsafe fn classify_blocks<S: Sink + ?Sized>(data: &[u8], out: &mut S) {
    super::classify_blocks_with(&Avx2(()), data, out);
}

/// [`super::Backend::normal_marks`] with AVX2.
///
/// # Safety
///
/// - The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn normal_marks(data: &[u8], out: &mut [NormalMarks]) {
    super::normal_marks_with(&Avx2(()), data, out);
}

/// [`super::Backend::count_byte`] with AVX2.
///
/// # Safety
///
/// - The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn count_byte(data: &[u8], byte: u8) -> u64 {
    let needle = _mm256_set1_epi8(byte as i8);
    let zero = _mm256_setzero_si256();
    let mut sums = zero;
    let mut vectors = data.chunks_exact(32);
    loop {
        // Each byte lane adds one per match (a match compares to -1), for
        // at most 255 vectors; then `vpsadbw` adds its lanes into `sums`.
        let mut lanes = zero;
        for v in vectors.by_ref().take(255) {
            // SAFETY: `v` holds 32 bytes; the load is unaligned.
            let v = unsafe { _mm256_loadu_si256(v.as_ptr().cast::<__m256i>()) };
            lanes = _mm256_sub_epi8(lanes, _mm256_cmpeq_epi8(v, needle));
        }
        sums = _mm256_add_epi64(sums, _mm256_sad_epu8(lanes, zero));
        if vectors.len() == 0 {
            break;
        }
    }
    let mut four = [0u64; 4];
    // SAFETY: `four` holds 32 bytes; the store is unaligned.
    unsafe { _mm256_storeu_si256(four.as_mut_ptr().cast::<__m256i>(), sums) };
    four.iter().sum::<u64>() + vectors.remainder().iter().filter(|&&b| b == byte).count() as u64
}

impl Classify for Avx2 {
    #[inline(always)]
    fn classify(&self, block: &[u8; 64]) -> Masks {
        // SAFETY: an `Avx2` exists only once AVX2 was detected.
        unsafe { classify(block) }
    }

    #[inline(always)]
    fn classify_tail(&self, tail: &[u8]) -> Masks {
        if !(16..64).contains(&tail.len()) {
            return self.classify(&padded(tail));
        }
        // SAFETY: an `Avx2` exists only once AVX2 was detected, and
        // `classify_tail` asks for 16 to 63 bytes, checked just above.
        unsafe { classify_tail(tail) }
    }

    #[inline(always)]
    fn normal_marks(&self, block: &[u8; 64]) -> NormalMarks {
        // SAFETY: an `Avx2` exists only once AVX2 was detected.
        unsafe { normal_marks_block(block) }
    }

    #[inline(always)]
    fn normal_marks_tail(&self, tail: &[u8]) -> NormalMarks {
        if !(16..64).contains(&tail.len()) {
            return self.normal_marks(&padded(tail));
        }
        // SAFETY: as in `classify_tail`.
        unsafe { normal_marks_tail(tail) }
    }
}

static TABLES: [[u8; 32]; 4] = NibbleTables::lanes();

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

/// The eight masks of the 32 bytes of `v`, in `Masks` order.
#[target_feature(enable = "avx2")]
#[inline]
fn classes(v: __m256i) -> [u32; 8] {
    let (lo, hi) = (load_table(&TABLES[0]), load_table(&TABLES[1]));
    let (hex_lo, hex_hi) = (load_table(&TABLES[2]), load_table(&TABLES[3]));
    [
        eq(v, b'\n'),
        eq(v, b':'),
        eq(v, b'/'),
        eq(v, b'?'),
        eq(v, b'#'),
        // Bytes >= 0x80 match in `member`, and are special anyway: the `or`
        // with the byte sets the top bit that `vpmovmskb` reads.
        mask(_mm256_or_si256(v, member(v, lo, hi))),
        eq(v, b'%'),
        // Bytes >= 0x80 match in `member` too: their top bit clears the
        // match that `vpmovmskb` reads.
        mask(_mm256_andnot_si256(v, member(v, hex_lo, hex_hi))),
    ]
}

/// Masks from one `u64` per class, in `Masks` order.
#[inline(always)]
fn masks(m: [u64; 8]) -> Masks {
    Masks {
        lf: m[0],
        colon: m[1],
        slash: m[2],
        question: m[3],
        hash: m[4],
        special: m[5],
        pct: m[6],
        hex: m[7],
    }
}

/// The `N` masks `classes` gives for each 32-byte half of `block`.
#[target_feature(enable = "avx2")]
#[inline]
fn block_masks<const N: usize>(
    block: &[u8; 64],
    classes: impl Fn(__m256i) -> [u32; N],
) -> [u64; N] {
    // SAFETY: `block` is 64 readable bytes, the loads unaligned.
    let (a, b) = unsafe {
        (
            _mm256_loadu_si256(block.as_ptr().cast()),
            _mm256_loadu_si256(block.as_ptr().add(32).cast()),
        )
    };
    let (a, b) = (classes(a), classes(b));
    core::array::from_fn(|i| u64::from(a[i]) | u64::from(b[i]) << 32)
}

/// The `N` masks `classes` gives for `tail`, 16 to 63 bytes, as if padded
/// with zero bytes to 64 (bits past the tail are 0): two overlapping loads
/// of its own bytes, the second shifted into place. (A copy into a zeroed
/// block is slower: the wide loads that read it back wait for its narrow
/// stores to reach the cache.)
///
/// # Safety
///
/// - The CPU must support AVX2.
/// - `tail` must hold 16 to 63 bytes.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn tail_masks<const N: usize>(
    tail: &[u8],
    classes: impl Fn(__m256i) -> [u32; N],
) -> [u64; N] {
    let n = tail.len();
    debug_assert!((16..64).contains(&n));
    let p = tail.as_ptr();
    if n >= 32 {
        // SAFETY: bytes 0..32 and n-32..n of `tail` are in bounds (n >= 32);
        // the loads are unaligned.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(p.cast()),
                _mm256_loadu_si256(p.add(n - 32).cast()),
            )
        };
        let (a, b) = (classes(a), classes(b));
        // Where the loads overlap, both say the same.
        core::array::from_fn(|i| u64::from(a[i]) | u64::from(b[i]) << (n - 32))
    } else {
        // SAFETY: bytes 0..16 and n-16..n of `tail` are in bounds (n >= 16);
        // the loads are unaligned.
        let v =
            unsafe { _mm256_loadu2_m128i(p.add(n - 16).cast::<__m128i>(), p.cast::<__m128i>()) };
        let c = classes(v);
        core::array::from_fn(|i| u64::from(c[i] & 0xffff) | u64::from(c[i] >> 16) << (n - 16))
    }
}

#[target_feature(enable = "avx2")]
#[inline]
fn classify(block: &[u8; 64]) -> Masks {
    masks(block_masks(block, |v| classes(v)))
}

/// The masks of `tail`, 16 to 63 bytes, as if padded with zero bytes to 64.
///
/// # Safety
///
/// - The CPU must support AVX2.
/// - `tail` must hold 16 to 63 bytes.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn classify_tail(tail: &[u8]) -> Masks {
    // SAFETY: passed on from the caller.
    let mut m = unsafe { tail_masks(tail, |v| classes(v)) };
    // The padding's zero bytes are outside the URI alphabet.
    m[5] |= !0u64 << tail.len();
    masks(m)
}

/// `%`, `/`, `.` and `A-Z` of the 32 bytes of `v`, in `NormalMarks` order.
#[target_feature(enable = "avx2")]
#[inline]
fn normal_classes(v: __m256i) -> [u32; 4] {
    // Signed compares: bytes >= 0x80 are negative, so never above `@`.
    let upper = _mm256_and_si256(
        _mm256_cmpgt_epi8(v, _mm256_set1_epi8(b'A' as i8 - 1)),
        _mm256_cmpgt_epi8(_mm256_set1_epi8(b'Z' as i8 + 1), v),
    );
    [eq(v, b'%'), eq(v, b'/'), eq(v, b'.'), mask(upper)]
}

fn normal(m: [u64; 4]) -> NormalMarks {
    NormalMarks {
        pct: m[0],
        slash: m[1],
        dot: m[2],
        upper: m[3],
    }
}

#[target_feature(enable = "avx2")]
#[inline]
fn normal_marks_block(block: &[u8; 64]) -> NormalMarks {
    normal(block_masks(block, |v| normal_classes(v)))
}

/// # Safety
///
/// - The CPU must support AVX2.
/// - `tail` must hold 16 to 63 bytes.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn normal_marks_tail(tail: &[u8]) -> NormalMarks {
    // SAFETY: passed on from the caller.
    normal(unsafe { tail_masks(tail, |v| normal_classes(v)) })
}
