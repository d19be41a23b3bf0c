//! aarch64 NEON: four 16-byte vectors per block; `vceqq_u8` for single bytes,
//! `vqtbl1q_u8` nibble lookups for the special class, and a
//! pairwise-add movemask that packs 64 comparison bytes into one `u64`.

use core::arch::aarch64::{
    uint8x16_t, vandq_u8, vceqq_u8, vcleq_u8, vdupq_n_u8, vgetq_lane_u64, vld1q_u8, vmvnq_u8,
    vpaddq_u8, vqtbl1q_u8, vreinterpretq_u64_u8, vshrq_n_u8, vsubq_u8, vtstq_u8,
};

use super::{Classify, Masks, NibbleTables, NormalMarks};
use crate::classes;

/// NEON is part of aarch64: every aarch64 CPU runs this.
pub(super) struct Neon;

/// The bytes below 0x80 that are not special; every byte >= 0x80 is special.
const PLAIN: NibbleTables = NibbleTables::of(&classes::SPECIAL, false);
const BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

#[target_feature(enable = "neon")]
#[inline]
fn load(bytes: &[u8; 16]) -> uint8x16_t {
    // SAFETY: `bytes` is 16 readable bytes; NEON is baseline on aarch64.
    unsafe { vld1q_u8(bytes.as_ptr()) }
}

/// Bit `i` of the result is the top bit of byte `i` of `v[i / 16]`, for
/// vectors of 0x00/0xff bytes.
#[target_feature(enable = "neon")]
#[inline]
fn movemask(v: [uint8x16_t; 4]) -> u64 {
    let bits = load(&BITS);
    let t0 = vandq_u8(v[0], bits);
    let t1 = vandq_u8(v[1], bits);
    let t2 = vandq_u8(v[2], bits);
    let t3 = vandq_u8(v[3], bits);
    let s = vpaddq_u8(vpaddq_u8(t0, t1), vpaddq_u8(t2, t3));
    let s = vpaddq_u8(s, s);
    vgetq_lane_u64::<0>(vreinterpretq_u64_u8(s))
}

#[target_feature(enable = "neon")]
#[inline]
fn member(v: uint8x16_t, lo: uint8x16_t, hi: uint8x16_t) -> uint8x16_t {
    let l = vqtbl1q_u8(lo, vandq_u8(v, vdupq_n_u8(0x0f)));
    let h = vqtbl1q_u8(hi, vshrq_n_u8::<4>(v));
    vtstq_u8(l, h)
}

impl Classify for Neon {
    #[inline(always)]
    fn classify(&self, block: &[u8; 64]) -> Masks {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { classify(block) }
    }

    #[inline(always)]
    fn normal_marks(&self, block: &[u8; 64]) -> NormalMarks {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { normal_marks(block) }
    }
}

#[target_feature(enable = "neon")]
#[inline]
fn eq(v: &[uint8x16_t; 4], c: u8) -> u64 {
    let d = vdupq_n_u8(c);
    movemask([
        vceqq_u8(v[0], d),
        vceqq_u8(v[1], d),
        vceqq_u8(v[2], d),
        vceqq_u8(v[3], d),
    ])
}

#[target_feature(enable = "neon")]
#[inline]
fn vectors(block: &[u8; 64]) -> [uint8x16_t; 4] {
    let chunks: &[[u8; 16]; 4] = bytemuck::cast_ref(block);
    [
        load(&chunks[0]),
        load(&chunks[1]),
        load(&chunks[2]),
        load(&chunks[3]),
    ]
}

#[target_feature(enable = "neon")]
#[inline]
fn normal_marks(block: &[u8; 64]) -> NormalMarks {
    let v = vectors(block);
    // `A-Z`: `b - 'A' <= 25`, unsigned.
    let upper = |v: uint8x16_t| vcleq_u8(vsubq_u8(v, vdupq_n_u8(b'A')), vdupq_n_u8(25));
    NormalMarks {
        pct: eq(&v, b'%'),
        slash: eq(&v, b'/'),
        dot: eq(&v, b'.'),
        upper: movemask([upper(v[0]), upper(v[1]), upper(v[2]), upper(v[3])]),
    }
}

#[target_feature(enable = "neon")]
#[inline]
fn classify(block: &[u8; 64]) -> Masks {
    let v = vectors(block);
    let (lo, hi) = (load(&PLAIN.lo), load(&PLAIN.hi));
    let (hex_lo, hex_hi) = (load(&NibbleTables::HEX.lo), load(&NibbleTables::HEX.hi));
    Masks {
        lf: eq(&v, b'\n'),
        colon: eq(&v, b':'),
        slash: eq(&v, b'/'),
        question: eq(&v, b'?'),
        hash: eq(&v, b'#'),
        special: movemask([
            vmvnq_u8(member(v[0], lo, hi)),
            vmvnq_u8(member(v[1], lo, hi)),
            vmvnq_u8(member(v[2], lo, hi)),
            vmvnq_u8(member(v[3], lo, hi)),
        ]),
        pct: eq(&v, b'%'),
        hex: movemask([
            member(v[0], hex_lo, hex_hi),
            member(v[1], hex_lo, hex_hi),
            member(v[2], hex_lo, hex_hi),
            member(v[3], hex_lo, hex_hi),
        ]),
    }
}
