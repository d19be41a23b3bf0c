//! Reference resolution: every example of RFC 3986 section 5.4, the decisions
//! the module documents, and the fast implementation against the line-by-line
//! transcription of `refimpl`.

use proptest::prelude::*;
use uriscan::{parse, remove_dot_segments, resolve, Mode};

use crate::refimpl;

const BASE: &str = "http://a/b/c/d;p?q";

fn ours(base: &str, r: &str, strict: bool) -> String {
    let b = parse(base.as_bytes(), Mode::Uri).unwrap();
    let r = parse(r.as_bytes(), Mode::Reference).unwrap();
    let mut out = Vec::new();
    resolve(&b, &r, strict, &mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn section_5_4_1_normal_examples() {
    let cases = [
        ("g:h", "g:h"),
        ("g", "http://a/b/c/g"),
        ("./g", "http://a/b/c/g"),
        ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"),
        ("//g", "http://g"),
        ("?y", "http://a/b/c/d;p?y"),
        ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("g#s", "http://a/b/c/g#s"),
        ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"),
        ("g;x", "http://a/b/c/g;x"),
        ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"),
        (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"),
        ("..", "http://a/b/"),
        ("../", "http://a/b/"),
        ("../g", "http://a/b/g"),
        ("../..", "http://a/"),
        ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ];
    for (r, t) in cases {
        assert_eq!(ours(BASE, r, true), t, "{r}");
        assert_eq!(refimpl::resolve(BASE, r, true), t, "refimpl {r}");
    }
}

#[test]
fn section_5_4_2_abnormal_examples() {
    let cases = [
        ("../../../g", "http://a/g"),
        ("../../../../g", "http://a/g"),
        ("/./g", "http://a/g"),
        ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."),
        (".g", "http://a/b/c/.g"),
        ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"),
        ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http:g"),
    ];
    for (r, t) in cases {
        assert_eq!(ours(BASE, r, true), t, "{r}");
        assert_eq!(refimpl::resolve(BASE, r, true), t, "refimpl {r}");
    }
    // The backward-compatible rule.
    assert_eq!(ours(BASE, "http:g", false), "http://a/b/c/g");
    assert_eq!(refimpl::resolve(BASE, "http:g", false), "http://a/b/c/g");
}

/// The backward-compatible rule compares schemes case-insensitively (5.2.2
/// says "if (R.scheme == Base.scheme)", and 3.1 makes schemes
/// case-insensitive): `HTTP:g` is the base's scheme too. The target keeps
/// the base's scheme as written. (The property test uses only scheme `s`.)
#[test]
fn non_strict_scheme_match_ignores_case() {
    for r in ["HTTP:g", "Http:g", "hTtP:g"] {
        assert_eq!(ours(BASE, r, false), "http://a/b/c/g", "{r}");
        assert_eq!(refimpl::resolve(BASE, r, false), "http://a/b/c/g", "{r}");
        // Strict: the reference's own scheme, kept as written.
        assert_eq!(ours(BASE, r, true), r, "strict {r}");
    }
    assert_eq!(ours("HTTP://a/b/c", "http:g", false), "HTTP://a/b/g");
    // A different scheme is never the base's, whatever its case.
    assert_eq!(ours(BASE, "HTTPS:g", false), "HTTPS:g");
}

#[test]
fn documented_decisions() {
    // A rootless path stays rootless (the literal algorithm gives `g:/i`).
    assert_eq!(ours(BASE, "g:h/../i", true), "g:i");
    assert_eq!(refimpl::resolve(BASE, "g:h/../i", true), "g:/i");
    assert_eq!(ours("foo:a/b", "../../c", true), "foo:c");
    assert_eq!(ours("foo:a/b", "c", true), "foo:a/c");
    assert_eq!(ours("foo:", "c", true), "foo:c");
    // No `//` path without an authority (the literal algorithm gives `foo://x`).
    assert_eq!(ours("foo:/a/b", "..//x", true), "foo:/.//x");
    assert_eq!(refimpl::resolve("foo:/a/b", "..//x", true), "foo://x");
    // `%2E` is not a dot segment.
    assert_eq!(ours(BASE, "%2E%2E/g", true), "http://a/b/c/%2E%2E/g");
    // The base's fragment is ignored.
    assert_eq!(ours("http://a/b#frag", "c", true), "http://a/c");
    assert_eq!(ours("http://a", "b", true), "http://a/b");
}

#[test]
fn remove_dot_segments_examples() {
    for (input, expected) in [
        ("/a/b/c/./../../g", "/a/g"),
        ("mid/content=5/../6", "mid/6"),
        ("", ""),
        ("/", "/"),
        ("/..", "/"),
        ("../", ""),
        ("a/./b/../../c", "/c"),
        // Step D: an input that is only `.` or `..` goes, whatever came
        // before it (reached in a path of one segment, and after step A).
        (".", ""),
        ("..", ""),
        ("../..", ""),
        ("./.", ""),
        ("a/..", "/"),
    ] {
        let mut out = Vec::new();
        remove_dot_segments(input.as_bytes(), &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), expected, "{input}");
        assert_eq!(
            refimpl::remove_dot_segments(input),
            expected,
            "refimpl {input}"
        );
    }
}

fn piece() -> impl Strategy<Value = String> {
    let p = prop::sample::select(vec![
        "", "/", ".", "..", "./", "../", "/.", "/..", "a", "b/", "g;x", "?y", "#s", "//h", "s:",
        "%2E", ":", "@",
    ]);
    prop::collection::vec(p, 0..8).prop_map(|v| v.concat())
}

/// Whether `s` reparses to the same components: the shape the decisions keep.
fn reparses(s: &str) -> bool {
    parse(s.as_bytes(), Mode::Reference).is_ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::cases(5000)))]
    #[test]
    fn agrees_with_refimpl(base_path in piece(), r in piece(), strict in any::<bool>(), auth in any::<bool>()) {
        let base = if auth { format!("s://h{}", if base_path.starts_with('/') || base_path.is_empty() { base_path.clone() } else { format!("/{base_path}") }) } else { format!("s:{base_path}") };
        prop_assume!(parse(base.as_bytes(), Mode::Uri).is_ok() && parse(r.as_bytes(), Mode::Reference).is_ok());
        let fast = ours(&base, &r, strict);
        let slow = refimpl::resolve(&base, &r, strict);
        prop_assert!(reparses(&fast), "{} + {} = {}", base, r, fast);
        if fast != slow {
            // Only the documented departures, in the path: a rootless path
            // kept rootless (behind `./` when its first segment is empty,
            // where the literal algorithm writes it absolute, with its
            // empty first segment or, its rule A having taken the `./`,
            // without), or `/.` before a path that starts with `//`.
            let mut t = refimpl::transform(&refimpl::parts(&base), &refimpl::parts(&r), strict);
            let f = refimpl::parts(&fast);
            let tp = t.path.clone();
            let fp = f.path.clone();
            prop_assert!(
                (t.authority.is_none() && tp.starts_with("//") && fp == format!("/.{tp}"))
                    || (t.authority.is_none() && tp.starts_with('/') && format!("/{fp}") == tp)
                    || (t.authority.is_none() && tp.starts_with('/') && fp.starts_with(".//") && (fp[1..] == tp || fp[2..] == tp)),
                "{} + {}: {} vs refimpl {}", base, r, fast, slow
            );
            t.path = fp;
            prop_assert_eq!(refimpl::recompose(&t), fast);
        }
    }
}
