//! The web profile's behaviours, each key checked against w3lib 2.5.0's
//! `canonicalize_url`, and `is_normal` against the rewrite.

use super::super::*;
use crate::{parse, Mode};

fn web(input: &str) -> String {
    let mut out = Vec::new();
    Normalizer::new(Profile::Web)
        .normalize(&parse(input.as_bytes(), Mode::Reference).unwrap(), &mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn keys_of_w3lib() {
    for (input, key) in [
        (
            "HTTP://Example.COM:80/a/./b/../c?utm_source=x&b=2&a=1#top",
            "http://example.com:80/a/c?a=1&b=2&utm_source=x",
        ),
        (
            "http://www.archive.org/goo/?a=2&b&a=1",
            "http://www.archive.org/goo/?a=1&a=2&b=",
        ),
        ("http://a", "http://a/"),
        ("http://a?x=1", "http://a/?x=1"),
        ("http://a/?&&a=1&", "http://a/?a=1"),
        ("http://a/?&", "http://a/"),
        ("http://a/?=", "http://a/?="),
        ("http://a/?a=1&A=2&a=0&b&a", "http://a/?A=2&a=&a=0&a=1&b="),
        ("http://a/?a+b=c+d%20e", "http://a/?a+b=c+d+e"),
        // Keys alike in their first eight bytes, decoded keys among plain
        // ones, ties on the key ordered by value.
        (
            "http://a/?abcdefghZ=1&abcdefghA=2&abcdefgh=3",
            "http://a/?abcdefgh=3&abcdefghA=2&abcdefghZ=1",
        ),
        ("http://a/?%61b=1&aa=2&ab=0", "http://a/?aa=2&ab=0&ab=1"),
        ("http://a/?a+b=1&a=2&a%20a=3", "http://a/?a=2&a+a=3&a+b=1"),
        ("http://a/?k=b&k=%61&k=a+", "http://a/?k=a&k=a+&k=b"),
        ("http://a/?%7Ez=1&~y=2&z%2B=3", "http://a/?z%2B=3&~y=2&~z=1"),
        ("http://a/?x=1&&x&x=", "http://a/?x=&x=&x=1"),
        ("http://a/?ba=1&ab=2&b=3", "http://a/?ab=2&b=3&ba=1"),
        (
            "http://a/?a=%41%7e%2f%2F%3d%26%2b",
            "http://a/?a=A~%2F%2F%3D%26%2B",
        ),
        ("http://a/?a='x'&b=1;c=2", "http://a/?a=%27x%27&b=1%3Bc%3D2"),
        (
            "http://a/p%41th/%7e/%2f/%3b/%3f/%25/%252F/%23/%20/%3A/%40/%21",
            "http://a/pAth/~/%2F/%3B/%3F/%25/%252F/%23/%20/:/@/!",
        ),
        ("http://a/b;c/d;e%7e;f", "http://a/b;c/d;e%7e;f"),
        ("http://a/b/..;x", "http://a/;x"),
        ("http://a/b;", "http://a/b"),
        ("http://a:0080/", "http://a:80/"),
        ("http://a:/", "http://a/"),
        ("http://EX%4Dmple.com./", "http://ex%4dmple.com./"),
        ("http://[0:0:0:0:0:0:0:1]/", "http://[::1]/"),
        ("http://[2001:DB8::1]:80/", "http://[2001:db8::1]:80/"),
        ("http://[vF.X:Y]/", "http://[vf.x:y]/"),
        ("http://U%41:p%3a;x=y@a/", "http://UA:p%3A%3Bx%3Dy@a/"),
        ("http://u:p:q@a/", "http://u:p%3Aq@a/"),
        ("http://@a/", "http://@a/"),
        ("foo:a/../b", "foo:a/../b"),
        ("x:/a/./b", "x:/a/b"),
        ("foo://a", "foo://a/"),
        (
            "mailto:A@B.com?subject=x&body=y",
            "mailto:A@B.com?body=y&subject=x",
        ),
        ("/rel/../x?b=1&a=2", "/x?a=2&b=1"),
        ("../a/./b", "../a/./b"),
        ("//h?x", "//h/?x="),
        ("http://a//../x", "http://a/x"),
        ("ftp://a/%3B;type=a", "ftp://a/%3B;type=a"),
        // Step 2: userinfo escapes decoded, and written again as `%HH` in
        // uppercase where the byte is not kept.
        ("http://u%3b@a/", "http://u%3B@a/"),
        ("http://%41@a/", "http://A@a/"),
        ("http://u:%3d@a/", "http://u:%3D@a/"),
        ("http://ab%3B;@a/", "http://ab%3B%3B@a/"),
        // Step 4: leading zeros go, but zero stays `0`.
        ("http://a:000/", "http://a:0/"),
        ("http://a:0/", "http://a:0/"),
        // Step 6: an escape with one lowercase hex digit, in uppercase.
        ("http://a/?a=%2a", "http://a/?a=%2A"),
    ] {
        assert_eq!(web(input), key, "{input}");
    }
}

/// Where w3lib's output would not be an RFC 3986 reference of the same
/// kind (docs/WEB.md lists them with w3lib's output).
#[test]
fn differences_kept() {
    for (input, key) in [
        ("http://a/%7C%5B%5d", "http://a/%7C%5B%5D"),
        ("http://[v1.x]/", "http://[v1.x]/"),
        ("http://[V1.x]/", "http://[v1.x]/"),
        ("?b&a", "?a=&b="),
        ("#frag", ""),
        ("mailto:?to=x", "mailto:?to=x"),
        ("http:/a/../b", "http:/b"),
        ("a%3Ab/c%3Ad", "a%3Ab/c:d"),
        ("x:/a/..//b", "x:/.//b"),
        ("http://a:65536/", "http://a:65536/"),
        ("http://a:000099999/", "http://a:99999/"),
        ("http://[::FFFF:1.2.3.4]/", "http://[::ffff:1.2.3.4]/"),
    ] {
        assert_eq!(web(input), key, "{input}");
    }
}

#[test]
fn switches() {
    let with = |n: &Normalizer, input: &str| {
        let mut out = Vec::new();
        n.normalize(&parse(input.as_bytes(), Mode::Reference).unwrap(), &mut out);
        String::from_utf8(out).unwrap()
    };
    let mut n = Normalizer::new(Profile::Web);
    n.drop_params(["utm_*", "a+b"]);
    assert_eq!(with(&n, "http://a/?utm_x=1&z&a%20b=2"), "http://a/?z=");
    assert_eq!(with(&n, "http://a/?utm_x=1"), "http://a/");
    n.drop_empty_query = false;
    assert_eq!(with(&n, "http://a/?utm_x=1"), "http://a/?");
    assert_eq!(with(&n, "http://a/?"), "http://a/?");
    n.sort_query = false;
    n.strip_fragment = false;
    n.strip_www = true;
    n.strip_trailing_dot = true;
    assert_eq!(
        with(&n, "http://WWW.a.b./?b=%7e&a#F%7e"),
        "http://a.b/?b=~&a=#F%7e"
    );
    assert_eq!(with(&n, "http://a/#"), "http://a/");
    for input in [
        "http://a/?",
        "http://a/?b=~&a=#F%7e",
        "http://a.b/?b=~&a=#F%7e",
    ] {
        let u = parse(input.as_bytes(), Mode::Reference).unwrap();
        assert_eq!(n.is_normal(&u), with(&n, input) == input, "{input}");
    }
}

#[test]
fn is_normal_matches_the_rewrite() {
    let n = Normalizer::new(Profile::Web);
    for input in [
        "http://a/",
        "http://a",
        "HTTP://a/",
        "http://A/",
        "http://%C3.b/",
        "http://%c3.b/",
        "http://a:80/",
        "http://a:080/",
        "http://a:/",
        "http://a:0/",
        "http://[::1]/",
        "http://[::0:1]/",
        "http://u;@a/",
        "http://u%3B@a/",
        "http://u%3b@a/",
        "http://u:p:q@a/",
        "http://u:p%3Aq@a/",
        "http://a/%7e",
        "http://a/~",
        "http://a/%2f",
        "http://a/%2F",
        "http://a/%3A",
        "http://a/:",
        "http://a/%20",
        "http://a/a/../b",
        "http://a/b;%7e",
        "http://a/b;",
        "http://a/?",
        "http://a/?a",
        "http://a/?a=",
        "http://a/?b=&a=",
        "http://a/?a=&b=",
        "http://a/?a=%20",
        "http://a/?a=+",
        "http://a/?a=%2B",
        "http://a/?a=*",
        "http://a/?a=%2A",
        "http://a/?a=%2a",
        "http://a/?a=&&b=",
        "http://a/?a=b=c",
        "http://a/#",
        "http://a/#x",
        "a%3Ab",
        "a/%3A",
        "a/:",
        "?a=",
        "",
        "#",
        "foo:",
        "http://a/?a=%C3&a=+",
        "http://a/?a=+&a=%C3",
        "http://a/?+=&%21=",
        "http://a/?a=1&",
        "http://a/?&a=1",
        "http://a/?a%3D=1&b=%26",
        "http://a/?%41=1",
        "http://a/?a=1&b=2&c",
        "http://a/?ab=1&b=2&ba=3",
    ] {
        let u = parse(input.as_bytes(), Mode::Reference).unwrap();
        assert_eq!(
            n.is_normal(&u),
            web(input) == input,
            "{input} -> {}",
            web(input)
        );
    }
}

/// `strip_trailing_dot` removes the host's trailing dots but keeps at least
/// one byte (the switch's documentation in `Normalizer`, the same as in
/// `rfc3986`), and `is_normal` says whether it would.
#[test]
fn trailing_dots_strip_to_one_byte() {
    let mut n = Normalizer::new(Profile::Web);
    n.strip_trailing_dot = true;
    let mut rfc = Normalizer::new(Profile::Rfc3986);
    rfc.strip_trailing_dot = true;
    for (input, key) in [
        ("http://./", "http://./"),
        ("http://../", "http://./"),
        ("http://a./", "http://a/"),
        ("http://a../", "http://a/"),
        ("http://a.b./x", "http://a.b/x"),
        ("http://a.b/", "http://a.b/"),
    ] {
        let u = parse(input.as_bytes(), Mode::Reference).unwrap();
        let mut out = Vec::new();
        n.normalize(&u, &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), key, "{input}");
        let mut out = Vec::new();
        rfc.normalize(&u, &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), key, "rfc3986 {input}");
        assert_eq!(n.is_normal(&u), input == key, "{input}");
    }
}

/// `;params` are split off the last segment for the schemes of Python's
/// `uses_params` in any case (compared as words) and relative references,
/// not for others, nor for a longer name that starts like one.
#[test]
fn params_by_scheme() {
    use super::split_params;
    let path = b"/a;x/b;c;d";
    for scheme in [
        None,
        Some(&b"http"[..]),
        Some(b"HTTPS"),
        Some(b"Prospero"),
        Some(b"tel"),
        Some(b"sIp"),
    ] {
        assert_eq!(
            split_params(scheme, path),
            (&b"/a;x/b"[..], Some(&b"c;d"[..])),
            "{scheme:?}"
        );
    }
    for scheme in [
        &b"mailto"[..],
        b"prosperos",
        b"https2",
        b"htt",
        b"",
        b"file",
    ] {
        assert_eq!(
            split_params(Some(scheme), path),
            (&path[..], None),
            "{scheme:?}"
        );
    }
    // A `;` before the last segment only; an empty one at the end.
    assert_eq!(
        split_params(Some(b"http"), b"/a;x/b"),
        (&b"/a;x/b"[..], None)
    );
    assert_eq!(
        split_params(Some(b"http"), b"/a/b;"),
        (&b"/a/b"[..], Some(&b""[..]))
    );
}
