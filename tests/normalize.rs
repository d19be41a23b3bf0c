//! Normalization: every rule of RFC 3986 6.2.2 and 6.2.3 as the module
//! documents them, the profiles, and the guarantees (valid output that
//! parses back to itself; equivalent inputs, one output).

use proptest::prelude::*;
use uriscan::{normalize, parse, Mode, Normalizer, Profile};

fn norm(s: &str) -> String {
    with(&Normalizer::new(Profile::Rfc3986), s)
}

fn with(n: &Normalizer, s: &str) -> String {
    let uri = parse(s.as_bytes(), Mode::Reference).unwrap_or_else(|e| panic!("{s}: {e}"));
    let mut out = Vec::new();
    n.normalize(&uri, &mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn rfc3986_rules() {
    for (input, expected) in [
        ("HTTP://Example.COM/", "http://example.com/"),
        (
            "http://example.com/%7euser/%41%2f%3f%25",
            "http://example.com/~user/A%2F%3F%25",
        ),
        (
            "http://example.com/a%2fb?q=%2a#%7e",
            "http://example.com/a%2Fb?q=%2A#~",
        ),
        ("HTTP://H%c3%A9/", "http://h%C3%A9/"),
        ("http://%4A%4b.com/", "http://jk.com/"),
        ("http://User@Example.com/", "http://User@example.com/"),
        ("http://example.com/a/./b/../c", "http://example.com/a/c"),
        (
            "http://example.com/%2E%2E/a/%2e/b",
            "http://example.com/a/b",
        ),
        ("http://example.com:80/", "http://example.com/"),
        ("http://example.com:080/", "http://example.com/"),
        ("http://example.com:/", "http://example.com/"),
        ("http://example.com:8080/", "http://example.com:8080/"),
        ("https://example.com:443", "https://example.com/"),
        ("https://example.com:80/", "https://example.com:80/"),
        ("ws://example.com:80", "ws://example.com/"),
        ("wss://example.com:443/x", "wss://example.com/x"),
        ("ftp://example.com:21", "ftp://example.com/"),
        ("http://example.com", "http://example.com/"),
        ("http://example.com/?", "http://example.com/?"),
        ("http://example.com/#", "http://example.com/#"),
        ("foo://example.com:80", "foo://example.com:80"),
        ("foo://example.com", "foo://example.com"),
        ("http://[2001:DB8::0001]/", "http://[2001:db8::0001]/"),
        ("foo:a/../b", "foo:b"),
        ("foo:a/./b/", "foo:a/b/"),
        ("foo:/a/..//x", "foo:/.//x"),
        ("foo:/.//x", "foo:/.//x"),
        // Rootless stays rootless when its first segment comes out empty.
        ("s:.//a", "s:.//a"),
        ("s:././/a", "s:.//a"),
        ("s:a/..//b", "s:.//b"),
        ("s:.//./a/../b", "s:.//b"),
        ("./a/../b", "./a/../b"),
        ("../%7e", "../~"),
        ("mailto:Someone@Example.COM", "mailto:Someone@Example.COM"),
        ("urn:ISBN:0451450523", "urn:ISBN:0451450523"),
        ("", ""),
    ] {
        assert_eq!(norm(input), expected, "{input}");
        assert_eq!(norm(expected), expected, "idempotent on {expected}");
    }
}

#[test]
fn section_6_equivalents() {
    let a = norm("example://a/b/c/%7Bfoo%7D");
    assert_eq!(a, norm("eXAMPLE://a/./b/../b/%63/%7bfoo%7d"));
    assert_eq!(a, "example://a/b/c/%7Bfoo%7D");
    assert_eq!(norm("http://example.com"), norm("http://example.com/"));
    assert_eq!(norm("http://example.com/"), norm("http://example.com:/"));
    assert_eq!(norm("http://example.com/"), norm("http://example.com:80/"));
    assert_eq!(
        norm("http://example.com/~smith/"),
        norm("http://example.com/%7Esmith/")
    );
}

#[test]
fn web_profile_and_switches() {
    // w3lib's canonicalize_url: the host's dot and the default port stay,
    // the query is a sorted form (each key with its `=`).
    let web = Normalizer::new(Profile::Web);
    assert_eq!(
        with(&web, "HTTP://Example.com.:80/a?b=2&a=1&a=0#top"),
        "http://example.com.:80/a?a=0&a=1&b=2"
    );
    assert_eq!(with(&web, "http://example.com/?"), "http://example.com/");
    assert_eq!(
        with(&web, "http://example.com/?b&a=&a"),
        "http://example.com/?a=&a=&b="
    );
    let mut n = Normalizer::new(Profile::Rfc3986);
    n.drop_params(["utm_*", "fbclid"]);
    assert_eq!(
        with(&n, "http://e.com/?utm_source=a&x=1&fbclid=2&utm=3"),
        "http://e.com/?x=1&utm=3"
    );
    assert_eq!(with(&n, "http://e.com/?utm_source=a"), "http://e.com/?");
    n.strip_fragment = true;
    n.strip_www = true;
    assert_eq!(with(&n, "http://www.e.com/#x"), "http://e.com/");
    assert_eq!(with(&n, "http://www.com/"), "http://www.com/");
}

#[test]
fn surt_profile() {
    let surt = Normalizer::new(Profile::Surt);
    for (input, expected) in [
        (
            "http://www.archive.org/goo/?a=2&b&a=1",
            "org,archive)/goo?a=1&a=2&b",
        ),
        ("http://archive.org/", "org,archive)/"),
        ("http://archive.org", "org,archive)/"),
        (
            "https://Sub.Example.com:8443/A/B.html?Q=1#frag",
            "com,example,sub:8443)/a/b.html?q=1",
        ),
        ("http://user:pw@example.com:80/x/", "com,example)/x"),
        // As the Python surt library does: IPv4 addresses are reversed too.
        ("http://192.168.1.1/x", "1,1,168,192)/x"),
        ("http://127.1/", "1,0,0,127)/"),
        // Session ids go, the `&` before them stays.
        (
            "http://a.com/?b=1&jsessionid=0123456789abcdef0123456789ABCDEF",
            "com,a)/?&b=1",
        ),
        ("mailto:Someone@Example.COM", "mailto:someone@example.com"),
    ] {
        assert_eq!(with(&surt, input), expected, "{input}");
    }
    // `drop_params` applies to the key's query (lowercased by then), and a
    // `?` decoded into the path is no query.
    let mut drop = Normalizer::new(Profile::Surt);
    drop.drop_params(["utm_*"]);
    assert_eq!(
        with(&drop, "http://a.com/x%3Fy?UTM_A=1&b=2"),
        "com,a)/x?y?b=2"
    );
    assert_eq!(
        with(&drop, "http://a.com/x%3Futm_a=1?utm_a=1"),
        "com,a)/x?utm_a=1"
    );
}

/// Valid URIs built from pieces that exercise every step.
fn uri() -> impl Strategy<Value = String> {
    let scheme = prop::sample::select(vec!["http", "HTTPS", "ftp", "foo", "WS", ""]);
    let auth = prop::sample::select(vec![
        "",
        "//",
        "//Example.COM",
        "//u%41@h:80",
        "//h:",
        "//h:0443",
        "//[::A]:21",
        "//%7E.x.",
    ]);
    let seg = prop::sample::select(vec![
        "", ".", "..", "a", "%2E", "%2e%2E", "%7e", "%2f", "B", ":", "@x",
    ]);
    let path = prop::collection::vec(seg, 0..6).prop_map(|v| v.join("/"));
    let lead = prop::sample::select(vec!["", "/"]);
    let query = prop::sample::select(vec!["", "?", "?a=%41&b", "?%2F/?"]);
    let frag = prop::sample::select(vec!["", "#", "#%7E%7e", "#/./"]);
    (scheme, auth, lead, path, query, frag).prop_map(|(s, a, l, p, q, f)| {
        let mut out = String::new();
        if !s.is_empty() {
            out.push_str(s);
            out.push(':');
        }
        out.push_str(a);
        if !a.is_empty() && !p.is_empty() {
            out.push('/');
        } else if !s.is_empty() {
            out.push_str(l);
        } else {
            out.push('/');
        }
        out.push_str(&p);
        out.push_str(q);
        out.push_str(f);
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::cases(5000)))]
    #[test]
    fn idempotent_and_valid(s in uri()) {
        prop_assume!(parse(s.as_bytes(), Mode::Reference).is_ok());
        for profile in [Profile::Rfc3986, Profile::Web] {
            let n = Normalizer::new(profile);
            let once = with(&n, &s);
            let reparsed = parse(once.as_bytes(), Mode::Reference);
            prop_assert!(reparsed.is_ok(), "{} -> {} invalid", s, once);
            let (a, b) = (uriscan::split(s.as_bytes()), uriscan::split(once.as_bytes()));
            prop_assert_eq!(a.scheme().is_some(), b.scheme().is_some());
            prop_assert_eq!(a.authority().is_some(), b.authority().is_some());
            let orig_path = &s[a.path()];
            if a.scheme().is_some() && a.authority().is_none() && !orig_path.starts_with('/') {
                // Rootless stays rootless, a first segment that comes out
                // empty behind `./` (`s:.//a`).
                let p = &once[b.path()];
                prop_assert!(!p.starts_with('/'), "rootless stays rootless: {} -> {}", s, once);
            }
            let twice = with(&n, &once);
            prop_assert_eq!(&twice, &once, "{:?} {}", profile, s);
        }
        let mut out = Vec::new();
        normalize(&parse(s.as_bytes(), Mode::Reference).unwrap(), &mut out);
        let out = String::from_utf8(out).unwrap();
        if let Err(why) = rfc3986_normal(&out) {
            prop_assert!(false, "{} -> {}: {}", s, out, why);
        }
        // Section 6 changes no component's presence: a scheme (a `:`
        // before any `/ ? #`), the lowercased scheme itself, a query, a
        // fragment (no step writes or removes a `?` or `#`).
        let scheme = |u: &str| {
            let end = u.find(['/', '?', '#']).unwrap_or(u.len());
            u[..end].find(':').map(|i| u[..i].to_ascii_lowercase())
        };
        prop_assert_eq!(scheme(&out), scheme(&s), "{} -> {}", s, out);
        prop_assert_eq!(out.contains('?'), s.contains('?'), "{} -> {}", s, out);
        prop_assert_eq!(out.contains('#'), s.contains('#'), "{} -> {}", s, out);
    }
}

/// The properties that `normalize`'s output has by RFC 3986 6.2.2 and 6.2.3,
/// checked from the output alone (not by normalizing again): each a rule of
/// the module documentation, written out here from the RFC's sets.
fn rfc3986_normal(out: &str) -> Result<(), String> {
    let unreserved = |b: u8| b.is_ascii_alphanumeric() || b"-._~".contains(&b);
    let upper_hex = |b: u8| b.is_ascii_digit() || (b'A'..=b'F').contains(&b);
    // 6.2.2.1 and 6.2.2.2: `%HH` with uppercase hex, never an unreserved byte.
    let bytes = out.as_bytes();
    for (i, _) in out.match_indices('%') {
        let (h, l) = match (bytes.get(i + 1), bytes.get(i + 2)) {
            (Some(&h), Some(&l)) if upper_hex(h) && upper_hex(l) => (h, l),
            _ => return Err(format!("percent-encoding at {i} not %HH uppercase")),
        };
        let v = u8::from_str_radix(std::str::from_utf8(&[h, l]).unwrap(), 16).unwrap();
        if unreserved(v) {
            return Err(format!(
                "%{}{} encodes an unreserved byte",
                h as char, l as char
            ));
        }
    }
    let uri = parse(bytes, Mode::Reference).map_err(|e| format!("invalid: {e}"))?;
    // 6.2.2.1: scheme and host lowercase (outside percent-encodings).
    let no_upper_outside_pct = |s: &str| {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'%' {
                i += 3;
                continue;
            }
            if b[i].is_ascii_uppercase() {
                return false;
            }
            i += 1;
        }
        true
    };
    if let Some(scheme) = uri.scheme() {
        if !no_upper_outside_pct(scheme) {
            return Err("uppercase in the scheme".into());
        }
    }
    if let Some(host) = uri.host() {
        if !no_upper_outside_pct(host) {
            return Err("uppercase in the host".into());
        }
    }
    // 6.2.2.3: with a scheme, no `.` or `..` segment, but for the documented
    // shapes `/.//` (no authority) and `.//` (rootless) at the start.
    let path = uri.path();
    if uri.scheme().is_some() {
        let rest = match (path.strip_prefix("/."), path.strip_prefix('.')) {
            (Some(r), _) if uri.authority().is_none() && r.starts_with("//") => r,
            (_, Some(r)) if r.starts_with("//") => r,
            _ => path,
        };
        if rest.split('/').any(|seg| seg == "." || seg == "..") {
            return Err("a dot segment is left".into());
        }
    }
    // 6.2.3: for these schemes, no empty or default port, no empty path
    // after an authority.
    let default = match uri.scheme() {
        Some("http" | "ws") => Some(80),
        Some("https" | "wss") => Some(443),
        Some("ftp") => Some(21),
        _ => None,
    };
    if let (Some(default), Some(_)) = (default, uri.authority()) {
        match uri.port() {
            Some("") => return Err("empty port".into()),
            Some(p) if p.parse::<u32>().ok() == Some(default) => return Err("default port".into()),
            _ => {}
        }
        if path.is_empty() {
            return Err("empty path after an authority".into());
        }
    }
    Ok(())
}

/// The property check above is no tautology: it rejects what the rules
/// rewrite.
#[test]
fn rfc3986_normal_rejects_unnormalized() {
    for s in [
        "http://example.com/%7e",
        "http://example.com/%2f",
        "http://example.com/%41",
        "HTTP://example.com/",
        "http://Example.com/",
        "http://example.com/a/./b",
        "foo:a/../b",
        "http://example.com:80/",
        "http://example.com:/",
        "https://example.com:0443/",
        "http://example.com",
    ] {
        assert!(rfc3986_normal(s).is_err(), "{s}");
        assert!(rfc3986_normal(&norm(s)).is_ok(), "{s} -> {}", norm(s));
    }
    for s in [
        "foo:/.//x",
        "s:.//a",
        "./a/../b",
        "http://h%C3%A9/",
        "foo://h:80",
    ] {
        assert!(rfc3986_normal(s).is_ok(), "{s}");
    }
}

/// Cases from other normalizers' test suites (Apache Nutch's basic URL
/// normalizer, fluent-uri), as far as they are RFC 3986 section 6.
#[test]
fn conformance_cases() {
    for (input, expected) in [
        ("http://foo.com/%66oo.html", "http://foo.com/foo.html"),
        ("http://foo.com/%66oo.htm%6c", "http://foo.com/foo.html"),
        ("http://foo.com/%66oo.ht%6dl", "http://foo.com/foo.html"),
        ("http://foo.com/%66oo.ht%6d%6c", "http://foo.com/foo.html"),
        ("http://foo.com/%66oo.htm%C0", "http://foo.com/foo.htm%C0"),
        ("http://foo.com/%66oo.htm%1A", "http://foo.com/foo.htm%1A"),
        ("http://foo.com/%66oo.htm%c0", "http://foo.com/foo.htm%C0"),
        ("http://foo.com/aa/./foo.html", "http://foo.com/aa/foo.html"),
        ("http://foo.com/aa/../foo.html", "http://foo.com/foo.html"),
        (
            "http://foo.com/aa/bb/../foo.html",
            "http://foo.com/aa/foo.html",
        ),
        ("http://foo.com/aa/..", "http://foo.com/"),
        (
            "http://foo.com/aa/bb/cc/../../foo.html",
            "http://foo.com/aa/foo.html",
        ),
        ("http://foo.com/../foo.html", "http://foo.com/foo.html"),
        ("http://foo.com/../../foo.html", "http://foo.com/foo.html"),
        ("http://foo.com/./../foo.html", "http://foo.com/foo.html"),
        (
            "http://foo.com/aa/bb/../../../foo.html",
            "http://foo.com/foo.html",
        ),
        ("%3a", "%3A"),
        ("HTTP://www.EXAMPLE.com/", "http://www.example.com/"),
        ("http://example.com/%7Ea%2Db", "http://example.com/~a-b"),
    ] {
        assert_eq!(norm(input), expected, "{input}");
    }
}
