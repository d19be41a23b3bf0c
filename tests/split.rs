//! `split` against the Appendix B regular expression itself, on random bytes
//! weighted toward the bytes that matter.

use proptest::prelude::*;
use regex::bytes::Regex;
use std::ops::Range;

pub fn appendix_b() -> Regex {
    // `(?s-u)`: `.` matches any byte, newlines included, as in the RFC.
    Regex::new(r"(?s-u)^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?").unwrap()
}

/// Scheme, authority, path, query and fragment by the regular expression.
pub fn by_regex(re: &Regex, input: &[u8]) -> [Option<Range<usize>>; 5] {
    let c = re.captures(input).expect("Appendix B matches every string");
    let g = |i| c.get(i).map(|m| m.range());
    [g(2), g(4), g(5), g(7), g(9)]
}

fn by_split(input: &[u8]) -> [Option<Range<usize>>; 5] {
    let s = uriscan::split(input);
    [
        s.scheme(),
        s.authority(),
        Some(s.path()),
        s.query(),
        s.fragment(),
    ]
}

/// Bytes weighted toward the delimiters and `[ ] @ %`.
fn uri_bytes() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        6 => prop::sample::select(b":/?#[]@%".to_vec()),
        3 => prop::sample::select(b"ab1.-+vF".to_vec()),
        1 => any::<u8>(),
    ];
    prop::collection::vec(byte, 0..40)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::cases(20_000)))]
    #[test]
    fn split_equals_appendix_b(input in uri_bytes()) {
        let re = appendix_b();
        prop_assert_eq!(by_split(&input), by_regex(&re, &input));
    }

    /// Section 5.3: recomposing the five components gives back the input.
    #[test]
    fn recompose_is_identity(input in uri_bytes()) {
        let s = uriscan::split(&input);
        let mut out = Vec::new();
        if let Some(r) = s.scheme() { out.extend_from_slice(&input[r]); out.push(b':'); }
        if let Some(r) = s.authority() { out.extend_from_slice(b"//"); out.extend_from_slice(&input[r]); }
        out.extend_from_slice(&input[s.path()]);
        if let Some(r) = s.query() { out.push(b'?'); out.extend_from_slice(&input[r]); }
        if let Some(r) = s.fragment() { out.push(b'#'); out.extend_from_slice(&input[r]); }
        prop_assert_eq!(out, input);
    }
}

#[test]
fn split_fixed_cases() {
    let re = appendix_b();
    for input in [
        &b""[..],
        b":",
        b"::",
        b"a:",
        b":a",
        b"//",
        b"///",
        b"?",
        b"#",
        b"a:b:c",
        b"/a:b",
        b"?a:b",
        b"#a:b",
        b"a//b",
        b"a://",
        b"\n:\n",
        b"s:?#",
        b"http://x?y#z?#",
    ] {
        assert_eq!(by_split(input), by_regex(&re, input), "{input:?}");
    }
    let s = uriscan::split(b"http://www.ics.uci.edu/pub/ietf/uri/#Related");
    assert_eq!(s.scheme(), Some(0..4));
    assert_eq!(s.authority(), Some(7..22));
    assert_eq!(s.path(), 22..36);
    assert_eq!(s.query(), None);
    assert_eq!(s.fragment(), Some(37..44));
}
