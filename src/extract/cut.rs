//! Where a URI found in text ends (rule 3 of the module documentation:
//! closers, quotes, trailing punctuation, Markdown emphasis, HTML
//! references), once its run of URI bytes is known.

use super::escape::{
    before_colour_code, positional_reference_start, reference_end, reference_start,
};
use super::iri;
use super::scan::Scan;

/// Whether `b` is punctuation or an opener that does not end a URI when a
/// trailing one (rule C2, and C3's openers).
pub(super) fn is_trailing(b: u8) -> bool {
    matches!(
        b,
        b'.' | b',' | b':' | b';' | b'!' | b'?' | b'\'' | b'*' | b'(' | b'['
    )
}

/// Where the URI that starts at `start` ends (rule 3), its run of URI
/// bytes ending at `run_end` and its body (after the scheme's `:`, or the
/// host) at `body`: at the next quote not followed by a letter or digit
/// when the URI follows a quote, at the first `)` or `]` that closes no
/// opener of the URI (`[a](http://x/b)`, `(http://a/)(http://b/)`), and
/// before trailing punctuation and openers.
///
/// Quotes and brackets are looked for in one pass, which stops where the
/// URI ends: each byte of the text is looked at by one candidate at most.
/// (Looking for each in a pass of its own over the run, a run that one
/// of them cuts short would be scanned again by each candidate inside it:
/// `'http://a/)` repeated, or `'http://a/'.` repeated.)
pub(super) fn cut(
    scan: &mut Scan,
    text: &[u8],
    start: usize,
    body: usize,
    run_end: usize,
) -> usize {
    // After a colour code (rule C1b: only then does a URI follow an `m`,
    // a scheme and host character the URI would otherwise have taken in),
    // the run ends at a closing code that lost its ESC. It ends the run,
    // so that the searches below stop there too and no byte is looked at
    // by two candidates (`[1mhttp://a` repeated).
    let run_end = if start > 0 && text[start - 1] == b'm' {
        colour_code_end(scan, text, body, run_end)
    } else {
        run_end
    };
    // `${` opens a placeholder (JavaScript's template literals, shells):
    // its `$` is not the URI's (`{` ends a run, rule C1).
    let run_end = if text.get(run_end) == Some(&b'{') && run_end > body && text[run_end - 1] == b'$'
    {
        run_end - 1
    } else {
        run_end
    };
    let quoted = start > 0 && text[start - 1] == b'\'';
    let rest = &text[body..run_end];
    // Most URIs have neither: one search, which stops at the first of them,
    // where the pass below starts looking.
    // (And an HTML reference that ends a URI ends with a `;`, rare in URIs:
    // the search for brackets looks for it too, but after a quote.)
    let first = if quoted {
        memchr::memchr3(b')', b']', b'\'', rest)
    } else {
        memchr::memchr3(b')', b']', b';', rest)
    };
    let end = match first {
        None if !quoted => run_end,
        Some(i) if rest[i] == b';' => match reference_start(text, body, body + i) {
            Some(amp) => amp,
            None => reference_end(text, body, first_end(text, body, run_end, quoted)),
        },
        // Else at the first closer of no opener, and then at an HTML
        // reference that ends it, looked for up to that end only (so
        // within the URI's own bytes).
        _ => {
            let end = match first {
                // A closer with no opener before it (`(http://a/b)`,
                // `[a](http://a/b)`): it closes none, so it ends the URI.
                // (No `'` is before it either: the search looked for one
                // after a quote.) One vector search instead of the pass.
                Some(i)
                    if matches!(rest[i], b')' | b']')
                        && memchr::memchr2(b'(', b'[', &rest[..i]).is_none() =>
                {
                    body + i
                }
                Some(_) => first_end(text, body, run_end, quoted),
                None => run_end,
            };
            reference_end(text, body, end)
        }
    };
    scan.work(end - body);
    let cut_end = end;
    let mut end = trim(scan, text, start, end);
    // An HTML reference to trailing punctuation trails as it does (C6b).
    if end < cut_end && text[end] == b';' {
        end = before_trailing_references(scan, text, start, body, end);
    }
    // Markdown emphasis around the URI: the closer of `_x_`, `__x__` or
    // `~~x~~` goes with the opener before it (rule C2b).
    if start > 0 && matches!(text[start - 1], b'_' | b'~') {
        return emphasis_end(scan, text, start, end);
    }
    end
}

/// `run_end`, or the start of the first colour code without ESC in
/// `text[body..run_end]`. Rare: out of line.
#[inline(never)]
fn colour_code_end(scan: &mut Scan, text: &[u8], body: usize, run_end: usize) -> usize {
    let end = before_colour_code(text, body, run_end).unwrap_or(run_end);
    scan.work(end - body);
    end
}

/// Where the URI `text[start..end]`, which follows a Markdown emphasis
/// opener (`_`, `__`, `~~`...), ends: before the same closer when it ends
/// with one, and then before trailing punctuation (rule C2b). Rare: out of
/// line.
#[inline(never)]
fn emphasis_end(scan: &mut Scan, text: &[u8], start: usize, end: usize) -> usize {
    let e = text[start - 1];
    let k = text[..start]
        .iter()
        .rev()
        .take(3)
        .take_while(|&&b| b == e)
        .count();
    if !text[start..end].ends_with(&[e; 3][..k]) {
        return end;
    }
    trim(scan, text, start, end - k)
}

/// `end` less the trailing punctuation and openers of the URI
/// `text[start..end]` (rules C2 and C8b).
#[inline(always)]
fn trim(scan: &mut Scan, text: &[u8], start: usize, end: usize) -> usize {
    let mut kept = end;
    loop {
        kept -= text[start..kept]
            .iter()
            .rev()
            .take_while(|&&b| is_trailing(b))
            .count();
        // (Rare: a non-ASCII last byte is looked at only then.)
        match text[..kept].last() {
            Some(&b) if b >= 0x80 && kept > start => match iri::trailing_len(&text[start..kept]) {
                Some(n) => kept -= n,
                None => break,
            },
            _ => break,
        }
    }
    scan.work(end - kept);
    kept
}

/// Where the URI `text[start..end]` ends when HTML references to trailing
/// punctuation (`&#39;`, `&apos;`) end it, each with what trails before
/// it: `text[end]` is the `;` of the first of them, already trimmed. Rare:
/// out of line.
#[inline(never)]
fn before_trailing_references(
    scan: &mut Scan,
    text: &[u8],
    start: usize,
    body: usize,
    mut end: usize,
) -> usize {
    while text[end] == b';' {
        let Some(amp) = positional_reference_start(text, body, end) else {
            break;
        };
        scan.work(end - amp);
        end = trim(scan, text, start, amp);
    }
    end
}

/// The first byte of `text[body..run_end]` that ends a URI by rule 3: a
/// `)` or `]` that closes no opener after `body`, a BBCode closing tag
/// ([`is_closing_tag`]: never in a valid URI), or, when the URI follows
/// a quote (`quoted`), a `'` not followed by a letter or digit; else
/// `run_end`. Eight bytes at a time: a word with none of these bytes is
/// passed over with a few word operations (a URI holds a few in its tens
/// of bytes; a byte loop on every byte was 14% of `extract`'s instructions
/// on generated text).
pub(super) fn first_end(text: &[u8], body: usize, run_end: usize, quoted: bool) -> usize {
    let mut depth = [0usize; 2];
    let mut at = body;
    while at < run_end {
        let next = (at + 8).min(run_end);
        if next == at + 8 {
            let word = u64::from_le_bytes(text[at..next].try_into().expect("8 bytes"));
            if !(has_bracket(word) || quoted && has_byte(word, b'\'')) {
                at = next;
                continue;
            }
        }
        for (i, &b) in text[at..next].iter().enumerate() {
            let k = match b {
                b'(' | b')' => 0,
                // A BBCode closing tag, `[url]http://a/[/url]` (rule C4).
                b'[' if is_closing_tag(&text[at + i..run_end]) => return at + i,
                b'[' | b']' => 1,
                b'\'' if quoted => {
                    // The closing quote: not one inside a word (`it's`).
                    if !text.get(at + i + 1).is_some_and(u8::is_ascii_alphanumeric) {
                        return at + i;
                    }
                    continue;
                }
                _ => continue,
            };
            if b == b'(' || b == b'[' {
                depth[k] += 1;
            } else if depth[k] == 0 {
                return at + i;
            } else {
                depth[k] -= 1;
            }
        }
        at = next;
    }
    run_end
}

/// Whether `bytes` starts with a BBCode closing tag: `[/`, one to ten
/// letters, `]` (`[/url]`, `[/img]`).
fn is_closing_tag(bytes: &[u8]) -> bool {
    let Some(rest) = bytes.strip_prefix(b"[/") else {
        return false;
    };
    let name = rest
        .iter()
        .take(11)
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    (1..=10).contains(&name) && rest.get(name) == Some(&b']')
}

/// SWAR: eight ones bytes.
const ONES: u64 = 0x0101_0101_0101_0101;

/// Whether `v` has a zero byte: `(v - 0x01..) & !v & 0x80..` is non-zero
/// exactly then.
fn zero_byte(v: u64) -> u64 {
    v.wrapping_sub(ONES) & !v & (ONES << 7)
}

/// Whether one of the eight bytes of `word` is `b`.
fn has_byte(word: u64, b: u8) -> bool {
    zero_byte(word ^ (ONES * u64::from(b))) != 0
}

/// Whether one of the eight bytes of `word` is `(` `)` `[` or `]` (`| 0x01..`
/// makes `(` a `)`).
fn has_bracket(word: u64) -> bool {
    zero_byte((word | ONES) ^ (ONES * u64::from(b')')))
        | zero_byte(word ^ (ONES * u64::from(b'[')))
        | zero_byte(word ^ (ONES * u64::from(b']')))
        != 0
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::simd::Backend;

    /// The word tests that let `first_end` pass over eight bytes at once
    /// see every bracket and quote at every place in a word, whatever the
    /// other bytes: a word they pass over must hold none.
    #[test]
    fn word_tests_miss_no_byte() {
        for fill in 0..=255u8 {
            for b in 0..=255u8 {
                for k in 0..8 {
                    let mut bytes = [fill; 8];
                    bytes[k] = b;
                    let word = u64::from_le_bytes(bytes);
                    let bracket = bytes.iter().any(|b| b"()[]".contains(b));
                    assert_eq!(has_bracket(word), bracket, "{bytes:?}");
                    assert_eq!(has_byte(word, b'\''), bytes.contains(&b'\''), "{bytes:?}");
                }
            }
        }
    }

    /// A closing tag of another name than the drawn `[/a...]` ends the URI
    /// before an emphasis closer and a later tag (a case a random run of
    /// the property below drew, which its rule then read as `[/a...]` only).
    #[test]
    fn a_closing_tag_of_any_letters_ends_the_uri() {
        let text = b"_x://[/b]_[/aaaaaaaaaa]~a[/a],;)?/_~[:;?;.";
        let end = cut(&mut Scan::new(Backend::Scalar), text, 1, 3, text.len());
        assert_eq!(&text[1..end], b"x://");
        let text = b"_x://a[/Url]_b";
        let end = cut(&mut Scan::new(Backend::Scalar), text, 1, 3, text.len());
        assert_eq!(&text[1..end], b"x://a");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Cutting equals rule 3 as written: the URI ends at the first
        /// closer with more closers than openers before it, then loses its
        /// trailing punctuation and openers.
        #[test]
        fn cut_follows_the_rule(
            body in prop::collection::vec(prop::sample::select(vec![
                // `b` too: with only `a` about a bracket, a word test that
                // missed a word's last byte (`ONES >> 7`) still saw it.
                "a", "b", ".", ",", ":", ";", "!", "?", "'", "*", "(", ")", "[", "]", "_", "~", "/",
                "[/a]", "[/aaaaaaaaaa]", "[/aaaaaaaaaaa]",
            ]), 0..40),
            opener in prop::sample::select(vec!["", "'", "_", "__", "~~", "~~~~"]),
        ) {
            // After a quote or an emphasis opener, the URI starts after it.
            let quoted = opener == "'";
            let mut text = opener.as_bytes().to_vec();
            let start = text.len();
            text.extend_from_slice(b"x://");
            text.extend_from_slice(body.concat().as_bytes());
            let mut end = text.len();
            for i in start + 4..text.len() {
                let count = |b: u8| text[start..=i].iter().filter(|&&x| x == b).count();
                let closing_quote = quoted
                    && text[i] == b'\''
                    && !text.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
                // Of any letters, as rule C4 says (`[/b]` too, which the
                // bytes drawn can spell).
                let closing_tag = text[i..].strip_prefix(b"[/").is_some_and(|r| {
                    let name = r.iter().take_while(|b| b.is_ascii_alphabetic()).count();
                    (1..=10).contains(&name) && r.get(name) == Some(&b']')
                });
                if closing_quote
                    || closing_tag
                    || count(b')') > count(b'(')
                    || count(b']') > count(b'[')
                {
                    end = i;
                    break;
                }
            }
            let trim = |mut end: usize| {
                while end > start && b".,:;!?'*([".contains(&text[end - 1]) {
                    end -= 1;
                }
                end
            };
            end = trim(end);
            // An emphasis closer like the opener (three bytes at most) goes,
            // and the punctuation before it.
            let closer = if quoted { &[][..] } else { &opener.as_bytes()[..opener.len().min(3)] };
            if !closer.is_empty() && text[start..end].ends_with(closer) {
                end = trim(end - closer.len());
            }
            let cut = cut(&mut Scan::new(Backend::Scalar), &text, start, start + 2, text.len());
            prop_assert_eq!(cut, end);
        }
    }
}
