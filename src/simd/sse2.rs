//! x86-64 SSE2: four 16-byte vectors per block. SSE2 has no byte shuffle, so
//! the special class is ranges and compares.

use core::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8,
    _mm_or_si128, _mm_set1_epi8,
};

use super::{Classify, Masks, NormalMarks};

/// SSE2 is part of x86-64: every x86-64 CPU runs this.
pub(super) struct Sse2;

impl Classify for Sse2 {
    #[inline(always)]
    fn classify(&self, block: &[u8; 64]) -> Masks {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe { classify(block) }
    }

    #[inline(always)]
    fn normal_marks(&self, block: &[u8; 64]) -> NormalMarks {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe { normal_marks(block) }
    }
}

#[target_feature(enable = "sse2")]
#[inline]
fn normal_marks(block: &[u8; 64]) -> NormalMarks {
    let mut m = NormalMarks::default();
    for i in 0..4 {
        // SAFETY: 16 * i + 16 <= 64 bytes of `block` are readable; the load
        // is unaligned.
        let v = unsafe { _mm_loadu_si128(block.as_ptr().add(16 * i).cast()) };
        let s = 16 * i;
        m.pct |= eq(v, b'%') << s;
        m.slash |= eq(v, b'/') << s;
        m.dot |= eq(v, b'.') << s;
        m.upper |= mask(in_range(v, b'A', b'Z')) << s;
    }
    m
}

#[target_feature(enable = "sse2")]
#[inline]
fn classify(block: &[u8; 64]) -> Masks {
    {
        let mut m = Masks::default();
        for i in 0..4 {
            // SAFETY: 16 * i + 16 <= 64 bytes of `block` are readable; the
            // load is unaligned.
            let v = unsafe { _mm_loadu_si128(block.as_ptr().add(16 * i).cast()) };
            let s = 16 * i;
            m.lf |= eq(v, b'\n') << s;
            m.colon |= eq(v, b':') << s;
            m.slash |= eq(v, b'/') << s;
            m.question |= eq(v, b'?') << s;
            m.hash |= eq(v, b'#') << s;
            // Special: outside 0x21..=0x7e, or one of `"` `%` `<` `>` `@`,
            // `[` through `^`, `` ` `` and `{` through `}`.
            let printable = in_range(v, 0x21, 0x7e);
            let marked = _mm_or_si128(
                _mm_or_si128(
                    _mm_or_si128(eqv(v, b'"'), eqv(v, b'%')),
                    _mm_or_si128(eqv(v, b'<'), eqv(v, b'>')),
                ),
                _mm_or_si128(
                    _mm_or_si128(eqv(v, b'@'), in_range(v, b'[', b'^')),
                    _mm_or_si128(eqv(v, b'`'), in_range(v, b'{', b'}')),
                ),
            );
            m.special |= (!mask(_mm_andnot_si128(marked, printable)) & 0xffff) << s;
            m.pct |= eq(v, b'%') << s;
            // `| 0x20` takes `A-F` to `a-f` and nothing else there.
            let hex = _mm_or_si128(
                in_range(v, b'0', b'9'),
                in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), b'a', b'f'),
            );
            m.hex |= mask(hex) << s;
        }
        m
    }
}

#[target_feature(enable = "sse2")]
#[inline]
fn eqv(v: __m128i, c: u8) -> __m128i {
    _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))
}

#[target_feature(enable = "sse2")]
#[inline]
fn mask(v: __m128i) -> u64 {
    let m: u32;
    // SAFETY: `pmovmskb` reads one SSE register and writes one general
    // register; it touches no memory. Written as assembly so that LLVM cannot
    // fuse four masks into a `<64 x i1>` value, which it lowers bit by bit.
    unsafe {
        core::arch::asm!(
            "pmovmskb {m:e}, {v}",
            m = out(reg) m,
            v = in(xmm_reg) v,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    u64::from(m)
}

#[target_feature(enable = "sse2")]
#[inline]
fn eq(v: __m128i, c: u8) -> u64 {
    mask(eqv(v, c))
}

/// 0xff in the bytes of `v` within `lo..=hi` (unsigned): `v - lo <= hi - lo`.
#[target_feature(enable = "sse2")]
#[inline]
fn in_range(v: __m128i, lo: u8, hi: u8) -> __m128i {
    let x = _mm_add_epi8(v, _mm_set1_epi8(lo.wrapping_neg() as i8));
    let limit = _mm_set1_epi8((hi - lo) as i8);
    _mm_cmpeq_epi8(_mm_min_epu8(x, limit), x)
}
