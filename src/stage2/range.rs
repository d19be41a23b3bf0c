//! Stage 2 of a range of bytes whose blocks someone else has classified:
//! free-text extraction (`crate::extract`) finds a URI from the masks of the
//! blocks around it, and validating it from those masks saves classifying
//! its bytes a second time (through a zeroed copy of its tail). Most of
//! validation's cost, though, was [`decide`]'s steps, written for any
//! line: the usual URI of text is decided first with few branches
//! ([`decide_usual`]), as [`super::plain::decide_plain`] decides the usual
//! line of a window.
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
use super::plain::is_short_scheme;
use super::{pathbad, Notes, Outcome, Verdict};
use crate::grammar::authority::Authority;
use crate::grammar::split::{Span, Split};
use crate::grammar::Mode;
use crate::simd::Masks;

/// Stage 2 of `line`, whose byte `i` is bit `o + i` (`o < 64`) of the
/// consecutive blocks `m` as stage 1 classified them, with the reference's
/// error for an invalid line; [`Verdict::Undecided`] when `line` is over
/// 128 bytes or runs past the blocks given. Blocks of `m` past the line's
/// last may hold anything (the bits past its end are cleared); three of
/// them save a copy. (What [`decide_range_then`] decides, as its tests see
/// it.)
#[cfg(test)]
pub(crate) fn decide_range(m: &[Masks], o: usize, line: &[u8], mode: Mode) -> Verdict {
    decide_range_then(m, o, line, mode, |o| Verdict::Valid(*o), |v| v)
}

/// Stage 2 of `line` from the blocks `m` as `decide_range` (the tests')
/// takes them: the outcome of a valid line given to `valid` where it is
/// decided, any other verdict to `other`. The caller builds its result in
/// place, where going through a [`Verdict`] on the stack, its copy stalled
/// on the stores that had just written it (11% of the samples of
/// `Extract::parse`, `perf annotate`).
#[inline]
pub(crate) fn decide_range_then<R>(
    m: &[Masks],
    o: usize,
    line: &[u8],
    mode: Mode,
    valid: impl FnOnce(&Outcome) -> R,
    other: impl FnOnce(Verdict) -> R,
) -> R {
    let Some(lane) = range_lane(m, o, line) else {
        return other(Verdict::Undecided);
    };
    if let Some(o) = decide_usual(&lane, line, mode) {
        return valid(&o);
    }
    match decide::<true>(lane, line, mode) {
        Verdict::Valid(o) => valid(&o),
        verdict => other(verdict),
    }
}

/// The masks of `line` (see [`decide_range_then`]), `None` when it is over 128
/// bytes or runs past the blocks `m`.
#[inline(always)]
fn range_lane(m: &[Masks], o: usize, line: &[u8]) -> Option<Lane<u128>> {
    let n = line.len();
    if n > 128 || o >= 64 || o + n > 64 * m.len() {
        return None;
    }
    let live = <u128 as Bits>::below(n);
    let padded;
    let b = match m.first_chunk::<3>() {
        Some(b) => b,
        None => {
            let block = |k: usize| m.get(k).copied().unwrap_or_default();
            padded = [block(0), block(1), block(2)];
            &padded
        }
    };
    // (Fields named: picked by class index, `Masks::class`, they cost 10%
    // more instructions here.)
    macro_rules! words {
        ($class:ident) => {
            shifted([b[0].$class, b[1].$class, b[2].$class], o) & live
        };
    }
    let (special, pct, hex) = (words!(special), words!(pct), words!(hex));
    // `pathbad` of the range alone: its hex digits past the end cleared.
    let half = |w: u128, k: u32| (w >> (64 * k)) as u64;
    let bad = |k: u32| {
        let next_hex = if k == 0 { half(hex, 1) } else { 0 };
        pathbad(half(special, k), half(pct, k), half(hex, k), next_hex)
    };
    Some(Lane {
        o: 0,
        colon: words!(colon),
        slash: words!(slash),
        question: words!(question),
        hash: words!(hash),
        special,
        pathbad: <u128 as Bits>::from_words(bad(0), bad(1)) & live,
    })
}

/// The usual URI of text, decided on its masks `l` with few branches: a
/// scheme of 1 to 8 bytes, `//`, an authority without special bytes (a
/// `reg-name` or IPv4 host and perhaps a port of digits), no special byte
/// after it but good percent-encodings, and at most one `#` (none for
/// `absolute-URI`). `None`: any other line (an opaque URI, userinfo, an IP
/// literal, an `@` in the path, an invalid one...), for [`decide`], whose
/// steps are written for any line's masks and cost several times this on
/// the URIs of text. What this accepts, [`decide`] accepts with the same
/// outcome (the steps are the same, as [`super::plain::decide_plain`]
/// takes them on a window).
#[inline(always)]
fn decide_usual(l: &Lane<u128>, line: &[u8], mode: Mode) -> Option<Outcome> {
    let n = line.len();
    let head = u64::from_le_bytes(*line.first_chunk::<8>()?);
    let tz = |w: u128| (w.trailing_zeros() as usize).min(n);
    // 1. The scheme ends at the first of `: / ? #`, a `:`, then `//`.
    let d = tz(l.colon | l.slash | l.question | l.hash);
    if d > 8 {
        return None;
    }
    if !(is_short_scheme(head, d) & (l.colon >> d & 1 == 1) & (l.slash >> (d + 1) & 3 == 3)) {
        return None;
    }
    // 2. The authority, to the first of `/ ? #`, with no special byte.
    let start = d + 3;
    let end = tz((l.slash | l.question | l.hash) & <u128 as Bits>::from_bit(start));
    let inside = <u128 as Bits>::from_bit(start) & <u128 as Bits>::below(end);
    let colon = tz(l.colon & inside).min(end);
    // 3. Path, query and fragment: no `PATHBAD` byte, one `#` at most.
    let rest = <u128 as Bits>::from_bit(end);
    let hashes = l.hash & rest;
    let second = hashes & hashes.wrapping_sub(1);
    let fragments_ok = if mode == Mode::Absolute {
        hashes == 0
    } else {
        second == 0
    };
    if !((l.special & inside == 0) & (l.pathbad & rest == 0) & fragments_ok) {
        return None;
    }
    if colon < end && !line[colon + 1..end].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let h = tz(hashes);
    let q = tz(l.question & rest).min(h);
    Some(Outcome {
        valid: true,
        split: Split::new(
            Some(Span::new(0, d)),
            Some(Span::new(start, end)),
            Span::new(end, q),
            (q < h).then(|| Span::new(q + 1, h)),
            (h < n).then(|| Span::new(h + 1, n)),
            n,
        ),
        authority: Authority::new(start, [start, colon], end, None, colon < end),
        notes: Notes::NONE,
    })
}

/// Bits `o..o + 128` of a class whose words in three blocks are `w`, as two
/// words (`<< 1 << 63 - o`: no shift by 64 when `o` is 0).
#[inline(always)]
fn shifted(w: [u64; 3], o: usize) -> u128 {
    let [w0, w1, w2] = w;
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
    /// every offset into its blocks, with the text around it of any bytes;
    /// with `garbage`, the blocks after the range's last hold all ones
    /// (as stale blocks may), and three or more are given.
    fn agrees(
        text: &[u8],
        start: usize,
        len: usize,
        mode: Mode,
        garbage: bool,
    ) -> Result<(), TestCaseError> {
        let end = (start + len).min(text.len());
        let line = &text[start..end];
        let expected = crate::uri::parse_reference(line, mode).map(|u| u.raw_parts());
        for backend in Backend::available() {
            let mut m = [Masks::default(); 7];
            backend.classify_blocks(text, &mut m[..text.len().div_ceil(64)]);
            let first = start / 64;
            let blocks = if garbage {
                let ones = Masks {
                    lf: !0,
                    colon: !0,
                    slash: !0,
                    question: !0,
                    hash: !0,
                    special: !0,
                    pct: !0,
                    hex: !0,
                };
                let last = (start + line.len()).max(start + 1).div_ceil(64);
                m[last..].fill(ones);
                &m[first..]
            } else {
                &m[first..(first + 3).min(text.len().div_ceil(64))]
            };
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

    /// The usual URIs of text take [`decide_usual`]'s short way (the
    /// reason it exists), the others go on to [`decide`]; each decides as
    /// the reference does, alone, in text and with stale blocks after it.
    #[test]
    fn usual_uris_take_the_short_way() {
        let usual = [
            "http://example.com/a/b?q=1#f",
            "https://a.b.c:8080/",
            "abcdefgh://host/x",
            "s://1234/",
            "s://1234:80",
            "http://1.2.3.4/p%20q?%41#",
            "ftp://h/",
            "x-y.z+1://h?",
        ];
        let other = [
            "abc///host",
            "abc//host",
            "mailto:x@y",
            "s:/a",
            "http://[::1]/",
            "http://u@h/",
            "http://h:8a/",
            "http://h/a#b#c",
            "abcdefghi://h/",
            "1a://h/",
            "http://h/%zz",
            // Under 8 bytes: no word of the scheme to read.
            "ftp://h",
        ];
        let shortcut = |line: &[u8], mode| {
            let mut m = [Masks::default(); 3];
            Backend::current().classify_blocks(line, &mut m[..line.len().div_ceil(64)]);
            decide_usual(&range_lane(&m, 0, line).expect("short"), line, mode).is_some()
        };
        for (lines, taken) in [(&usual[..], true), (&other[..], false)] {
            for line in lines {
                for mode in [Mode::Uri, Mode::Reference, Mode::Absolute] {
                    let fragment = line.contains('#') && mode == Mode::Absolute;
                    assert_eq!(
                        shortcut(line.as_bytes(), mode),
                        taken && !fragment,
                        "{line} {mode:?}"
                    );
                    let text = format!("see {line} here");
                    for garbage in [false, true] {
                        agrees(line.as_bytes(), 0, line.len(), mode, garbage).unwrap();
                        agrees(text.as_bytes(), 4, line.len(), mode, garbage).unwrap();
                    }
                }
            }
        }
    }

    /// A `%` whose hex digits straddle the range's 64th byte reads them
    /// from its second word, at every offset into the blocks.
    #[test]
    fn escapes_across_the_lanes_halves() {
        for at in 58..68 {
            let line = format!("http://h/{}%41b", "a".repeat(at - 9));
            let bad = format!("http://h/{}%4zb", "a".repeat(at - 9));
            for pad in 0..64 {
                for mode in [Mode::Uri, Mode::Reference] {
                    for l in [&line, &bad] {
                        let text = format!("{}{l} ", " ".repeat(pad));
                        agrees(text.as_bytes(), pad, l.len(), mode, false).unwrap();
                    }
                }
            }
        }
    }

    /// A range that runs past the blocks given is left undecided, whatever
    /// lies past them.
    #[test]
    fn a_range_past_its_blocks_is_undecided() {
        let line = format!("http://h/{}", "a".repeat(70));
        let text = format!("{line} x");
        let mut m = [Masks::default(); 2];
        Backend::current().classify_blocks(text.as_bytes(), &mut m);
        assert!(matches!(
            decide_range(&m[..1], 0, line.as_bytes(), Mode::Uri),
            Verdict::Undecided
        ));
        assert!(matches!(
            decide_range(&m, 0, line.as_bytes(), Mode::Uri),
            Verdict::Valid(_)
        ));
        // With the space past the first block in the range: not valid
        // either way, and undecided with one block.
        let spaced = &text.as_bytes()[..line.len() + 2];
        assert!(matches!(
            decide_range(&m[..1], 0, spaced, Mode::Uri),
            Verdict::Undecided
        ));
        assert!(matches!(
            decide_range(&m, 0, spaced, Mode::Uri),
            Verdict::Invalid(_)
        ));
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
            head in prop::sample::select(vec![
                &b""[..], b"http://", b"http://[::1]", b"a:", b"//u@h:8", b"ab///", b"s://12",
            ]),
            mode in prop::sample::select(vec![Mode::Uri, Mode::Reference, Mode::Absolute]),
            garbage: bool,
        ) {
            let start = start % text.len();
            let mut text = text;
            let at = start.min(text.len());
            text.splice(at..at, head.iter().copied());
            text.truncate(300);
            let start = start.min(text.len() - 1);
            agrees(&text, start, len, mode, garbage)?;
        }
    }
}
