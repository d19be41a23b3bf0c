//! The portable classifiers: a table loop (the oracle of every other backend)
//! and SWAR on `u64` words.

use super::{Classify, Masks, NormalMarks};
use crate::classes::{HEX, SPECIAL};

/// One byte at a time, straight from [`crate::classes`].
pub(crate) struct Table;

impl Classify for Table {
    #[inline(always)]
    fn classify(&self, block: &[u8; 64]) -> Masks {
        let mut m = Masks::default();
        for (i, &b) in block.iter().enumerate() {
            let bit = 1u64 << i;
            let set = |field: &mut u64, yes: bool| *field |= if yes { bit } else { 0 };
            set(&mut m.lf, b == b'\n');
            set(&mut m.colon, b == b':');
            set(&mut m.slash, b == b'/');
            set(&mut m.question, b == b'?');
            set(&mut m.hash, b == b'#');
            set(&mut m.special, SPECIAL[b as usize]);
            set(&mut m.pct, b == b'%');
            set(&mut m.hex, HEX[b as usize]);
        }
        m
    }
}

/// SIMD within a register: equality classes with exact zero-byte detection on
/// `u64` words, the special and hex classes by table.
pub(crate) struct Swar;

const LO7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const ONES: u64 = 0x0101_0101_0101_0101;

/// 0x80 in every byte of `w` equal to `c`, 0 elsewhere (exact: no borrow
/// crosses bytes).
#[inline(always)]
fn eq(w: u64, c: u8) -> u64 {
    let v = w ^ (ONES * u64::from(c));
    !(((v & LO7) + LO7) | v | LO7)
}

/// 0x80 in every byte of `w` in `A..=Z`, 0 elsewhere: on the low seven bits,
/// adding 0x3f reaches the top bit from `A` on and adding 0x25 from `[` on
/// (no carry crosses bytes); bytes >= 0x80 are out.
#[inline(always)]
fn upper(w: u64) -> u64 {
    let x = w & LO7;
    (x + ONES * 0x3f) & !(x + ONES * 0x25) & !w & !LO7
}

/// Gathers the top bit of each byte into 8 bits, byte `i` to bit `i`.
#[inline(always)]
fn movemask(t: u64) -> u64 {
    ((t >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// Bit 0: special; bit 1: hex digit. One load per byte for both classes.
static SPECIAL_HEX: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = SPECIAL[i] as u8 | (HEX[i] as u8) << 1;
        i += 1;
    }
    t
};

impl Classify for Swar {
    #[inline(always)]
    fn classify(&self, block: &[u8; 64]) -> Masks {
        let words: &[[u8; 8]; 8] = bytemuck::cast_ref(block);
        let mut m = Masks::default();
        for (i, bytes) in words.iter().enumerate() {
            let w = u64::from_le_bytes(*bytes);
            let s = 8 * i;
            m.lf |= movemask(eq(w, b'\n')) << s;
            m.colon |= movemask(eq(w, b':')) << s;
            m.slash |= movemask(eq(w, b'/')) << s;
            m.question |= movemask(eq(w, b'?')) << s;
            m.hash |= movemask(eq(w, b'#')) << s;
            m.pct |= movemask(eq(w, b'%')) << s;
            let (mut special, mut hex) = (0u64, 0u64);
            for (j, &b) in bytes.iter().enumerate() {
                let c = SPECIAL_HEX[b as usize];
                special |= u64::from(c & 1) << j;
                hex |= u64::from(c >> 1) << j;
            }
            m.special |= special << s;
            m.hex |= hex << s;
        }
        m
    }

    #[inline(always)]
    fn normal_marks(&self, block: &[u8; 64]) -> NormalMarks {
        let words: &[[u8; 8]; 8] = bytemuck::cast_ref(block);
        let mut m = NormalMarks::default();
        for (i, bytes) in words.iter().enumerate() {
            let w = u64::from_le_bytes(*bytes);
            let s = 8 * i;
            m.pct |= movemask(eq(w, b'%')) << s;
            m.slash |= movemask(eq(w, b'/')) << s;
            m.dot |= movemask(eq(w, b'.')) << s;
            m.upper |= movemask(upper(w)) << s;
        }
        m
    }
}
