//! uriscan's validator against other strict RFC 3986 parsers on random inputs.
//!
//! `iri-string` implements RFC 3986 to the letter and is the oracle for
//! validity in every mode (reference, URI, absolute URI), on random inputs and
//! on every line of the bundled corpus; `fluent-uri` is checked on URI
//! references: the same validity and, for valid ones, the same scheme,
//! authority parts, path, query and fragment. Nothing is filtered out: every
//! input must get exactly the oracles' verdict, so a departure of either
//! oracle from the RFC would show up here as a failure.

use proptest::prelude::*;
use uriscan::{parse, Mode};

/// Strings weighted toward URI structure: delimiters, hex digits, `%`, IPv6
/// pieces, and a few bytes outside the alphabet.
fn uri_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => prop::sample::select(vec![
            ":", "/", "?", "#", "[", "]", "@", "%", "//", "::", ".", "..", "%41", "%zz", "%4",
        ]),
        3 => prop::sample::select(vec![
            "a", "http", "s+v-1.x", "1", "12", "255", "256", "01", "ffff", "abcde", "v1", "V", "x",
            "1.2.3.4", "~", "!", "$&'()*+,;=", "-_",
        ]),
        1 => prop::sample::select(vec![" ", "\"", "<", "\\", "^", "{", "é", "\u{0}", "\t", "`", "|"]),
    ];
    prop::collection::vec(piece, 0..16).prop_map(|v| v.concat())
}

fn iri_string_ok(s: &str, mode: Mode) -> bool {
    use iri_string::types::{UriAbsoluteStr, UriReferenceStr, UriStr};
    match mode {
        Mode::Reference => UriReferenceStr::new(s).is_ok(),
        Mode::Uri => UriStr::new(s).is_ok(),
        Mode::Absolute => UriAbsoluteStr::new(s).is_ok(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::cases(30_000)))]
    #[test]
    fn agrees_with_iri_string(s in uri_text()) {
        for mode in [Mode::Reference, Mode::Uri, Mode::Absolute] {
            let ours = parse(s.as_bytes(), mode);
            prop_assert_eq!(ours.is_ok(), iri_string_ok(&s, mode), "{:?} {:?}: {:?}", s, mode, ours.err().map(|e| e.to_string()));
        }
    }

    #[test]
    fn agrees_with_fluent_uri(s in uri_text()) {
        let ours = parse(s.as_bytes(), Mode::Reference);
        let theirs = fluent_uri::UriRef::parse(s.as_str());
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{:?}: {:?}", s, ours.err().map(|e| e.to_string()));
        if let (Ok(a), Ok(b)) = (ours, theirs) {
            prop_assert_eq!(a.scheme(), b.scheme().map(|s| s.as_str()));
            prop_assert_eq!(a.path(), b.path().as_str());
            prop_assert_eq!(a.query(), b.query().map(|q| q.as_str()));
            prop_assert_eq!(a.fragment(), b.fragment().map(|f| f.as_str()));
            prop_assert_eq!(a.host(), b.authority().map(|x| x.host()));
            prop_assert_eq!(a.port(), b.authority().and_then(|x| x.port()).map(|p| p.as_str()));
            prop_assert_eq!(a.userinfo(), b.authority().and_then(|x| x.userinfo()).map(|u| u.as_str()));
        }
    }
}

/// The bundled corpus: every line gets the same verdict from iri-string.
#[test]
fn bundled_corpus_agrees_with_iri_string() {
    let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/sample.txt")).unwrap();
    let mut checked = 0;
    for line in data.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let ours = parse(line, Mode::Reference).is_ok();
        match std::str::from_utf8(line) {
            Ok(s) => assert_eq!(ours, iri_string_ok(s, Mode::Reference), "{s:?}"),
            Err(_) => assert!(!ours),
        }
        checked += 1;
    }
    assert_eq!(checked, 5000);
}
