//! Stage 2 of a range of bytes whose blocks someone else has classified:
//! free-text extraction (`crate::extract`) finds a URI from the masks of the
//! blocks around it, and validating it from those masks saves classifying
//! its bytes a second time (through a zeroed copy of its tail), which was
//! most of `parse`'s cost on the short URIs of text.
//!
//! The range's bits are taken from up to three consecutive blocks from a
//! bit offset into the first, shifted down to bit 0 of a
//! [`super::lanes::Lane`] of 128 bits; the masks past the range's end are
//! cleared, `hex` included, so that a `%` near the end reads as the range
//! alone would (padded with zero bytes). Only ranges of up to 128 bytes are
//! decided here: a longer one is [`Verdict::Undecided`], for the caller's
//! ordinary path.

use super::decide::decide;
use super::lanes::{Bits, Lane};
use super::{pathbad, Verdict};
use crate::grammar::Mode;
use crate::simd::Masks;

/// Stage 2 of `line`, whose byte `i` is bit `o + i` (`o < 64`) of the
/// consecutive blocks `m` as stage 1 classified them, with the reference's
/// error for an invalid line; [`Verdict::Undecided`] when `line` is over
/// 128 bytes or runs past the blocks given.
#[inline]
pub(crate) fn decide_range(m: &[Masks], o: usize, line: &[u8], mode: Mode) -> Verdict {
    let n = line.len();
    if n > 128 || o >= 64 || o + n > 64 * m.len() {
        return Verdict::Undecided;
    }
    let live = <u128 as Bits>::below(n);
    let block = |k: usize| m.get(k).copied().unwrap_or_default();
    let b = [block(0), block(1), block(2)];
    let words = |f: fn(&Masks) -> u64| shifted(&b, o, f) & live;
    let (special, pct, hex) = (words(|x| x.special), words(|x| x.pct), words(|x| x.hex));
    // `pathbad` of the range alone: its hex digits past the end cleared.
    let half = |w: u128, k: u32| (w >> (64 * k)) as u64;
    let bad = |k: u32| {
        let next_hex = if k == 0 { half(hex, 1) } else { 0 };
        pathbad(half(special, k), half(pct, k), half(hex, k), next_hex)
    };
    let lane = Lane {
        o: 0,
        colon: words(|x| x.colon),
        slash: words(|x| x.slash),
        question: words(|x| x.question),
        hash: words(|x| x.hash),
        special,
        pathbad: <u128 as Bits>::from_words(bad(0), bad(1)) & live,
    };
    decide::<true>(lane, line, mode)
}

/// Bits `o..o + 128` of the class `f` of the blocks `b`, as two words
/// (`<< 1 << 63 - o`: no shift by 64 when `o` is 0).
#[inline(always)]
fn shifted(b: &[Masks; 3], o: usize, f: impl Fn(&Masks) -> u64) -> u128 {
    let (w0, w1, w2) = (f(&b[0]), f(&b[1]), f(&b[2]));
    let lo = w0 >> o | w1 << 1 << (63 - o);
    let hi = w1 >> o | w2 << 1 << (63 - o);
    <u128 as Bits>::from_words(lo, hi)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::simd::Backend;

    /// Every range of a text decides as `parse` (the reference) does, at
    /// every offset into its blocks, with the text around it of any bytes.
    fn agrees(text: &[u8], start: usize, len: usize, mode: Mode) -> Result<(), TestCaseError> {
        let end = (start + len).min(text.len());
        let line = &text[start..end];
        let expected = crate::uri::parse_reference(line, mode).map(|u| u.raw_parts());
        for backend in Backend::available() {
            let mut m = [Masks::default(); 5];
            backend.classify_blocks(text, &mut m[..text.len().div_ceil(64)]);
            let first = start / 64;
            let blocks = &m[first..(first + 3).min(m.len())];
            let got = match decide_range(blocks, start % 64, line, mode) {
                Verdict::Valid(o) => Ok((o.split, o.authority)),
                Verdict::Invalid(Some(e)) => Err(e),
                Verdict::Invalid(None) => panic!("no error given"),
                Verdict::Undecided => {
                    prop_assert!(line.len() > 128);
                    continue;
                }
            };
            prop_assert_eq!(got, expected, "{} {:?}", backend.name(), line);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn ranges_decide_as_the_reference(
            text in prop::collection::vec(prop_oneof![
                6 => prop::sample::select(b"ab1F:/?#%@[]._-~!$&'()*+,;=".to_vec()),
                1 => prop::sample::select(b" \"<>\\^`{|}\x00\x7f\x80\xff".to_vec()),
                2 => Just(b'%'),
            ], 1..300),
            start in 0usize..256,
            len in 0usize..140,
            head in prop::sample::select(vec![&b""[..], b"http://", b"http://[::1]", b"a:", b"//u@h:8"]),
            mode in prop::sample::select(vec![Mode::Uri, Mode::Reference, Mode::Absolute]),
        ) {
            let start = start % text.len();
            let mut text = text;
            let at = start.min(text.len());
            text.splice(at..at, head.iter().copied());
            text.truncate(300);
            let start = start.min(text.len() - 1);
            agrees(&text, start, len, mode)?;
        }
    }
}
