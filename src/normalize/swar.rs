//! Eight bytes at a time in a `u64` (SWAR): the byte tests of the
//! profiles' passes over components, which are short, so that a call of
//! `memchr` or a loop over bytes (with its mispredicted exit) would cost
//! more than the bytes.

/// Ones in the low bit of each byte of a `u64`.
pub(crate) const LO: u64 = 0x0101_0101_0101_0101;
/// Ones in the high bit of each byte of a `u64`.
pub(crate) const HI: u64 = LO * 0x80;

/// The high bit of each byte of `w` that is `b`, exactly (no false
/// positive after a match, unlike the test for any such byte).
#[inline(always)]
pub(crate) fn bytes_eq(w: u64, b: u8) -> u64 {
    let v = w ^ (LO * u64::from(b));
    !((v & !HI).wrapping_add(!HI) | v) & HI
}

/// The eight bytes of `w` with ASCII letters lowercased.
#[inline(always)]
pub(crate) fn lowercase(w: u64) -> u64 {
    // The high bit of each ASCII byte from `A` to `Z` (the sums carry into
    // no other byte), moved to 0x20.
    let h = w & !HI;
    let upper = (h.wrapping_add(LO * u64::from(0x80 - b'A'))
        ^ h.wrapping_add(LO * u64::from(0x7f - b'Z')))
        & !w
        & HI;
    w | upper >> 2
}

/// The bit of each byte of `m` whose high bit is set, gathered into the
/// low byte (byte `i` to bit `i`).
#[inline(always)]
pub(crate) fn byte_bits(m: u64) -> u64 {
    (m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The first eight bytes of `s`, which has at least eight, as a word.
#[inline(always)]
pub(crate) fn load(s: &[u8]) -> u64 {
    u64::from_le_bytes(*s.first_chunk::<8>().expect("eight bytes"))
}

/// The first eight bytes of `s` as a word (zeros past its end).
#[inline(always)]
pub(crate) fn word(s: &[u8]) -> u64 {
    // (A loop, not a copy of a variable length, which is a call of `memcpy`.)
    s.iter()
        .take(8)
        .enumerate()
        .fold(0, |w, (i, &b)| w | u64::from(b) << (8 * i))
}

/// The bytes of `s` after its whole words (`s.len() % 8` of them) as a
/// word, zeros past them.
#[inline(always)]
pub(crate) fn tail(s: &[u8]) -> u64 {
    match s.last_chunk::<8>() {
        // The last eight bytes, those of the last whole word shifted out
        // (all of them when there is no rest).
        Some(last) => u64::from_le_bytes(*last)
            .checked_shr(64 - 8 * (s.len() % 8) as u32)
            .unwrap_or(0),
        None => word(s),
    }
}

/// Whether `s` has a byte `b` right after a byte `a` (neither zero).
#[inline(always)]
pub(crate) fn follows(s: &[u8], a: u8, b: u8) -> bool {
    debug_assert!(a != 0 && b != 0, "the padding would match");
    let (mut found, mut carry) = (0, 0);
    let mut pair = |w: u64| {
        let after = bytes_eq(w, a);
        found |= (after << 8 | carry) & bytes_eq(w, b);
        carry = after >> 56;
    };
    let mut words = s.chunks_exact(8);
    for w in &mut words {
        pair(load(w));
    }
    // (The zeros past the rest are neither byte.)
    pair(tail(s));
    found != 0
}

/// Whether `s` holds the byte `b`.
#[inline(always)]
pub(crate) fn contains(s: &[u8], b: u8) -> bool {
    let n = s.len();
    if n < 8 {
        return s.contains(&b);
    }
    let mut words = s.chunks_exact(8);
    let mut any = 0;
    for w in &mut words {
        any |= bytes_eq(load(w), b);
    }
    // The rest within the last eight bytes, read again.
    (any | bytes_eq(load(&s[n - 8..]), b)) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word tests say what a byte-by-byte look says, for every byte at
    /// every offset of slices of every length up to three words.
    #[test]
    fn words_agree_with_bytes() {
        for len in 0..24 {
            for at in 0..len.max(1) {
                for b in 0..=255u8 {
                    let mut s = vec![b'x'; len];
                    if at < len {
                        s[at] = b;
                    }
                    for probe in [b, b';', 0, b'x', 0x80] {
                        assert_eq!(contains(&s, probe), s.contains(&probe), "{s:?} {probe}");
                    }
                    if b != 0 {
                        for (x, y) in [(b'x', b), (b, b'x'), (b, b)] {
                            let pair = s.windows(2).any(|p| p == [x, y]);
                            assert_eq!(follows(&s, x, y), pair, "{s:?} {x} {y}");
                        }
                    }
                    let w = word(&s);
                    let rest = &s[len - len % 8..];
                    assert_eq!(tail(&s), word(rest), "{s:?}");
                    let bytes = w.to_le_bytes();
                    assert_eq!(bytes[..len.min(8)], s[..len.min(8)]);
                    assert!(bytes[len.min(8)..].iter().all(|&z| z == 0));
                    let lower = lowercase(w).to_le_bytes();
                    assert_eq!(lower, bytes.map(|c| c.to_ascii_lowercase()), "{s:?}");
                    let eq = bytes_eq(w, b).to_le_bytes();
                    assert_eq!(
                        eq,
                        bytes.map(|c| if c == b { 0x80 } else { 0 }),
                        "{s:?} {b}"
                    );
                    let mask = bytes
                        .iter()
                        .enumerate()
                        .fold(0, |m, (i, &c)| m | (u64::from(c == b) << i));
                    assert_eq!(byte_bits(bytes_eq(w, b)), mask, "{s:?} {b}");
                }
            }
        }
    }
}
