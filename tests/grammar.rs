//! The validator against RFC 3986 Appendix A, rule by rule, with the examples of
//! the specification and cases from other strict parsers' test suites.

use uriscan::batch::Chunk;
use uriscan::{parse, Component, ErrorKind, HostKind, Mode};

#[track_caller]
fn ok(input: &str) {
    if let Err(e) = parse(input.as_bytes(), Mode::Reference) {
        panic!("{input:?} should be valid, got {e} at {}", e.offset());
    }
}

#[track_caller]
fn err(input: &str, mode: Mode, offset: usize, component: Component, kind: ErrorKind) {
    match parse(input.as_bytes(), mode) {
        Ok(_) => panic!("{input:?} should be invalid"),
        Err(e) => assert_eq!(
            (e.offset(), e.component(), e.kind()),
            (offset, component, kind),
            "{input:?}: {e}"
        ),
    }
}

#[track_caller]
fn bad(input: &str, offset: usize, component: Component, kind: ErrorKind) {
    err(input, Mode::Reference, offset, component, kind);
}

/// The kind of `input`'s host, the same from `parse` and from a chunk
/// (the corpus path, whose fast path leaves `reg-name` or `IPv4address`
/// to be told when asked).
#[track_caller]
fn host_kind(input: &str) -> HostKind {
    let kind = parse(input.as_bytes(), Mode::Reference)
        .unwrap_or_else(|e| panic!("{input:?}: {e}"))
        .host_kind()
        .expect("a host");
    let data = format!("{input}\n{input}:1\n");
    let chunk = Chunk::new(data.as_bytes(), 1, 0);
    let kinds: Vec<_> = chunk
        .uris(Mode::Reference)
        .map(|(_, _, r)| r.ok().and_then(|u| u.host_kind()))
        .collect();
    assert_eq!(kinds[0], Some(kind), "{input:?} in a chunk");
    if let Some(k) = kinds[1] {
        assert_eq!(k, kind, "{input:?}:1 in a chunk");
    }
    kind
}

#[test]
fn section_1_1_2_examples() {
    for uri in [
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "http://www.ietf.org/rfc/rfc2396.txt",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "mailto:John.Doe@example.com",
        "news:comp.infosystems.www.servers.unix",
        "tel:+1-816-555-1212",
        "telnet://192.0.2.16:80/",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    ] {
        let u = parse(uri.as_bytes(), Mode::Absolute).unwrap_or_else(|e| panic!("{uri}: {e}"));
        assert!(!u.is_relative());
    }
    let u = parse(b"ldap://[2001:db8::7]/c=GB?objectClass?one", Mode::Uri).unwrap();
    assert_eq!(u.host(), Some("[2001:db8::7]"));
    assert_eq!(u.host_kind(), Some(HostKind::Ipv6));
    assert_eq!(u.path(), "/c=GB");
    assert_eq!(u.query(), Some("objectClass?one"));
    let u = parse(b"telnet://192.0.2.16:80/", Mode::Uri).unwrap();
    assert_eq!(u.host_kind(), Some(HostKind::Ipv4));
    assert_eq!(u.port_number(), Some(80));
}

#[test]
fn section_3_examples() {
    let u = parse(
        b"foo://example.com:8042/over/there?name=ferret#nose",
        Mode::Uri,
    )
    .unwrap();
    assert_eq!(u.scheme(), Some("foo"));
    assert_eq!(u.authority(), Some("example.com:8042"));
    assert_eq!(u.host(), Some("example.com"));
    assert_eq!(u.port(), Some("8042"));
    assert_eq!(u.path(), "/over/there");
    assert_eq!(u.query(), Some("name=ferret"));
    assert_eq!(u.fragment(), Some("nose"));
    let u = parse(b"urn:example:animal:ferret:nose", Mode::Uri).unwrap();
    assert_eq!(u.path(), "example:animal:ferret:nose");
    assert_eq!(u.authority(), None);
    for uri in [
        "file:///etc/hosts",
        "mailto:fred@example.com",
        "foo://info.example.com?fred",
        "http://www.example.com/",
        "http://[2001:db8::7]/",
        "http://[::ffff:192.0.2.128]/",
        "http://example.com:/",
        "http://example.com",
        "HTTP://www.EXAMPLE.com/",
        "http://www.example.com/%7Euser",
        "http://example.com/data",
        "ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm",
        "foo://example.com:8042/over/there?name=ferret#nose",
        "http://a/b/c/d;p?q",
        "example://a/b/c/%7Bfoo%7D",
        "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
        "http://[v7.fe80::a+en1]/",
        "http://[V1F.x]/",
    ] {
        ok(uri);
        assert!(parse(uri.as_bytes(), Mode::Uri).is_ok(), "{uri}");
    }
    let u = parse(b"file:///etc/hosts", Mode::Uri).unwrap();
    assert_eq!(u.host(), Some(""));
    assert_eq!(u.host_kind(), Some(HostKind::RegName));
    let u = parse(
        b"ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm",
        Mode::Uri,
    )
    .unwrap();
    assert_eq!(u.userinfo(), Some("cnn.example.com&story=breaking_news"));
    assert_eq!(u.host(), Some("10.0.0.1"));
    assert_eq!(u.host_kind(), Some(HostKind::Ipv4));
}

#[test]
fn section_5_4_references_are_valid() {
    for r in [
        "g:h",
        "g",
        "./g",
        "g/",
        "/g",
        "//g",
        "?y",
        "g?y",
        "#s",
        "g#s",
        "g?y#s",
        ";x",
        "g;x",
        "g;x?y#s",
        "",
        ".",
        "./",
        "..",
        "../",
        "../g",
        "../..",
        "../../",
        "../../g",
        "../../../g",
        "../../../../g",
        "/./g",
        "/../g",
        "g.",
        ".g",
        "g..",
        "..g",
        "./../g",
        "./g/.",
        "g/./h",
        "g/../h",
        "g;x=1/./y",
        "g;x=1/../y",
        "g?y/./x",
        "g?y/../x",
        "g#s/./x",
        "g#s/../x",
        "http:g",
    ] {
        ok(r);
    }
}

#[test]
fn relative_references() {
    for r in [
        "a",
        "/",
        "//",
        "///",
        "////",
        "?",
        "#",
        "?#",
        "#a?b/c",
        "?a/b?c",
        "./a:b",
        "a/b:c",
        "//h/a:b",
        "/a:b",
        "//@",
        "//u@",
        "//:",
        "//h:",
        "//[::1]",
        "%41",
        "a%2f%2F",
        "~",
        "/!$&'()*+,;=:@-._~",
        "?/?:@!$&'()*+,;=",
        "#/?:@",
    ] {
        ok(r);
    }
    let u = parse(b"//example.com", Mode::Reference).unwrap();
    assert!(u.is_relative());
    assert_eq!(u.path(), "");
    assert_eq!(u.host(), Some("example.com"));
}

#[test]
fn scheme_rule() {
    for u in ["a:", "a+b-c.d:x", "A1:/", "z9+.-:?"] {
        ok(u);
    }
    bad("1http://x", 0, Component::Scheme, ErrorKind::SchemeStart);
    bad("+a:x", 0, Component::Scheme, ErrorKind::SchemeStart);
    bad(".a:x", 0, Component::Scheme, ErrorKind::SchemeStart);
    bad(
        "ht tp://x",
        2,
        Component::Scheme,
        ErrorKind::InvalidByte(b' '),
    );
    bad("a_b:c", 1, Component::Scheme, ErrorKind::InvalidByte(b'_'));
    bad("%41:x", 0, Component::Scheme, ErrorKind::InvalidByte(b'%'));
    bad("é:x", 0, Component::Scheme, ErrorKind::InvalidByte(0xC3));
    // No scheme where a URI is required.
    for mode in [Mode::Uri, Mode::Absolute] {
        err(
            "//h/p",
            mode,
            0,
            Component::Scheme,
            ErrorKind::MissingScheme,
        );
        err("", mode, 0, Component::Scheme, ErrorKind::MissingScheme);
    }
    err(
        "a:b#c",
        Mode::Absolute,
        3,
        Component::Fragment,
        ErrorKind::FragmentNotAllowed,
    );
    err(
        "a:b#",
        Mode::Absolute,
        3,
        Component::Fragment,
        ErrorKind::FragmentNotAllowed,
    );
    assert!(parse(b"a:b?c", Mode::Absolute).is_ok());
    assert!(parse(b"a:b#c", Mode::Uri).is_ok());
}

#[test]
fn path_rules() {
    // path-noscheme: a relative path's first segment may not hold ':'.
    bad(":", 0, Component::Path, ErrorKind::ColonInFirstSegment);
    bad(":a/b", 0, Component::Path, ErrorKind::ColonInFirstSegment);
    bad("::", 0, Component::Path, ErrorKind::ColonInFirstSegment);
    // path-absolute, path-rootless, path-empty, path-abempty.
    for u in [
        "s:/a", "s:/a//b", "s:a/b", "s:", "s://h", "s://h/", "s:////x", "s:/",
    ] {
        ok(u);
    }
    let u = parse(b"s:////x", Mode::Uri).unwrap();
    assert_eq!(u.authority(), Some(""));
    assert_eq!(u.path(), "//x");
    bad("/a b", 2, Component::Path, ErrorKind::InvalidByte(b' '));
    bad("a\"b", 1, Component::Path, ErrorKind::InvalidByte(b'"'));
    bad("/[", 1, Component::Path, ErrorKind::InvalidByte(b'['));
    bad("a]", 1, Component::Path, ErrorKind::InvalidByte(b']'));
    bad("/\\", 1, Component::Path, ErrorKind::InvalidByte(b'\\'));
    bad("a\0", 1, Component::Path, ErrorKind::InvalidByte(0));
    bad("/a\x7f", 2, Component::Path, ErrorKind::InvalidByte(0x7f));
    bad(
        "/caf\u{e9}",
        4,
        Component::Path,
        ErrorKind::InvalidByte(0xC3),
    );
    for b in "<>`^{}|".bytes() {
        let s = format!("/x{}", b as char);
        bad(&s, 2, Component::Path, ErrorKind::InvalidByte(b));
    }
}

#[test]
fn pct_encoded_everywhere() {
    for u in [
        "%00",
        "/%fF",
        "?%AA",
        "#%aa",
        "s://%41@%42/%43?%44#%45",
        "s:%3a",
    ] {
        ok(u);
    }
    bad("%", 0, Component::Path, ErrorKind::BadPercentEncoding);
    bad("a%", 1, Component::Path, ErrorKind::BadPercentEncoding);
    bad("a%2", 1, Component::Path, ErrorKind::BadPercentEncoding);
    bad("a%2g", 1, Component::Path, ErrorKind::BadPercentEncoding);
    bad("a%g2", 1, Component::Path, ErrorKind::BadPercentEncoding);
    bad("/%2?", 1, Component::Path, ErrorKind::BadPercentEncoding);
    bad("?%", 1, Component::Query, ErrorKind::BadPercentEncoding);
    bad("?%a", 1, Component::Query, ErrorKind::BadPercentEncoding);
    bad("?%a#", 1, Component::Query, ErrorKind::BadPercentEncoding);
    bad("#%", 1, Component::Fragment, ErrorKind::BadPercentEncoding);
    bad("#%0", 1, Component::Fragment, ErrorKind::BadPercentEncoding);
    bad("//%/", 2, Component::Host, ErrorKind::BadPercentEncoding);
    bad(
        "//%4@h",
        2,
        Component::Userinfo,
        ErrorKind::BadPercentEncoding,
    );
    bad("//h%4", 3, Component::Host, ErrorKind::BadPercentEncoding);
}

#[test]
fn query_and_fragment() {
    ok("?a=1&b=2/c?d:@");
    ok("#a/b?c:@");
    bad(
        "a#b#c",
        3,
        Component::Fragment,
        ErrorKind::InvalidByte(b'#'),
    );
    bad("?a[b]", 2, Component::Query, ErrorKind::InvalidByte(b'['));
    bad("?a b", 2, Component::Query, ErrorKind::InvalidByte(b' '));
    bad("#a b", 2, Component::Fragment, ErrorKind::InvalidByte(b' '));
    let u = parse(b"a?#", Mode::Reference).unwrap();
    assert_eq!(u.query(), Some(""));
    assert_eq!(u.fragment(), Some(""));
}

#[test]
fn authority_userinfo_port() {
    let u = parse(b"http://u:p@h:8080/", Mode::Uri).unwrap();
    assert_eq!(u.userinfo(), Some("u:p"));
    assert_eq!(u.port(), Some("8080"));
    let u = parse(b"http://@h/", Mode::Uri).unwrap();
    assert_eq!(u.userinfo(), Some(""));
    let u = parse(b"http://h:/", Mode::Uri).unwrap();
    assert_eq!(u.port(), Some(""));
    assert_eq!(u.port_number(), None);
    let u = parse(b"http://h:99999999999999999999/", Mode::Uri).unwrap();
    assert_eq!(u.port(), Some("99999999999999999999"));
    assert_eq!(u.port_number(), None);
    let u = parse(b"http://h:65535", Mode::Uri).unwrap();
    assert_eq!(u.port_number(), Some(65535));
    let u = parse(b"http://h:65536", Mode::Uri).unwrap();
    assert_eq!(u.port_number(), None);
    let u = parse(b"http://h:0080", Mode::Uri).unwrap();
    assert_eq!(u.port_number(), Some(80));
    let u = parse(b"http://h", Mode::Uri).unwrap();
    assert_eq!(u.port(), None);
    assert_eq!(u.userinfo(), None);

    bad(
        "http://h:8a/",
        10,
        Component::Port,
        ErrorKind::PortNotNumber,
    );
    bad(
        "http://h:a:b/",
        9,
        Component::Port,
        ErrorKind::PortNotNumber,
    );
    bad("http://h:-1", 9, Component::Port, ErrorKind::PortNotNumber);
    bad(
        "http://u@v@h/",
        10,
        Component::Host,
        ErrorKind::InvalidByte(b'@'),
    );
    bad(
        "http://u[@h/",
        8,
        Component::Userinfo,
        ErrorKind::InvalidByte(b'['),
    );
    bad(
        "http://u p@h/",
        8,
        Component::Userinfo,
        ErrorKind::InvalidByte(b' '),
    );
    bad(
        "http://a b/",
        8,
        Component::Host,
        ErrorKind::InvalidByte(b' '),
    );
    bad(
        "http://a]/",
        8,
        Component::Host,
        ErrorKind::InvalidByte(b']'),
    );
    bad(
        "http://a[::1]/",
        8,
        Component::Host,
        ErrorKind::InvalidByte(b'['),
    );
    bad(
        "http://\u{e9}/",
        7,
        Component::Host,
        ErrorKind::InvalidByte(0xC3),
    );
    bad(
        "http://[::1]x/",
        12,
        Component::Authority,
        ErrorKind::AfterIpLiteral,
    );
    bad(
        "http://[::1]]/",
        12,
        Component::Authority,
        ErrorKind::AfterIpLiteral,
    );
    bad(
        "http://[::1/",
        7,
        Component::Host,
        ErrorKind::UnclosedIpLiteral,
    );
    bad(
        "http://[::1",
        7,
        Component::Host,
        ErrorKind::UnclosedIpLiteral,
    );
    bad("http://[", 7, Component::Host, ErrorKind::UnclosedIpLiteral);
    bad(
        "http://[::1]:8x",
        14,
        Component::Port,
        ErrorKind::PortNotNumber,
    );
    bad(
        "http://u@[::1]:p",
        15,
        Component::Port,
        ErrorKind::PortNotNumber,
    );
    let u = parse(b"http://u@[::1]:80", Mode::Uri).unwrap();
    assert_eq!(u.host(), Some("[::1]"));
    assert_eq!(u.host_range(), Some(9..14));
    assert_eq!(u.port_number(), Some(80));
}

#[test]
fn dec_octet_edges() {
    for o in [
        "0", "9", "10", "99", "100", "199", "200", "249", "250", "255",
    ] {
        let h = format!("//{o}.{o}.{o}.{o}/");
        assert_eq!(host_kind(&h), HostKind::Ipv4, "{h}");
        let h = format!("//1.2.3.{o}");
        assert_eq!(host_kind(&h), HostKind::Ipv4, "{h}");
    }
    for h in [
        "256.1.1.1",
        "1.1.1.256",
        "01.1.1.1",
        "1.1.1.00",
        "001.1.1.1",
        "1.2.3",
        "1.2.3.4.5",
        "1.2.3.",
        ".1.2.3",
        "1..2.3",
        "1.2.3.4a",
        "300.1.1.1",
        "260.1.1.1",
        "1.2.3.-1",
        "0x1.2.3.4",
        "",
        "localhost",
        "1.2.3.4.",
    ] {
        let s = format!("//{h}/");
        assert_eq!(host_kind(&s), HostKind::RegName, "{s}");
    }
}

/// Every alternative of the `IPv6address` rule, built from its ABNF: `before`
/// groups, `::`, then `after` units, the last two possibly an IPv4address.
#[test]
fn ipv6_every_form() {
    let group = |i: usize| ["1", "ab", "FFF", "abcd", "0", "fE80", "00", "9"][i % 8];
    let join = |n: usize, off: usize| (0..n).map(|i| group(i + off)).collect::<Vec<_>>().join(":");
    // Without `::`: exactly 8 units.
    for ls32_v4 in [false, true] {
        let lit = if ls32_v4 {
            format!("{}:192.0.2.33", join(6, 0))
        } else {
            join(8, 0)
        };
        let s = format!("//[{lit}]/");
        assert_eq!(host_kind(&s), HostKind::Ipv6, "{s}");
    }
    // With `::`: before + after <= 7.
    for before in 0..=7 {
        for after in 0..=7 - before {
            for v4 in [false, true] {
                if v4 && after < 2 {
                    continue;
                }
                let tail = if v4 {
                    let h = join(after - 2, 3);
                    if h.is_empty() {
                        "10.0.0.1".to_string()
                    } else {
                        format!("{h}:10.0.0.1")
                    }
                } else {
                    join(after, 3)
                };
                let lit = format!("{}::{tail}", join(before, 0));
                let s = format!("http://[{lit}]:1/");
                assert_eq!(host_kind(&s), HostKind::Ipv6, "{s}");
                // One more group is one too many.
                let more = if tail.is_empty() {
                    format!("{}::1", join(before, 0))
                } else if before == 0 {
                    format!("1{lit}")
                } else {
                    format!("1:{lit}")
                };
                if before + after + 1 > 7 {
                    let e = parse(format!("http://[{more}]/").as_bytes(), Mode::Uri).unwrap_err();
                    assert_eq!(e.kind(), ErrorKind::Ipv6TooManyGroups, "{more}");
                }
            }
        }
    }
}

#[test]
fn ipv6_errors() {
    use ErrorKind::*;
    let cases: &[(&str, usize, ErrorKind)] = &[
        ("1:2:3:4:5:6:7:8:9", 16, Ipv6TooManyGroups),
        ("1:2:3:4:5:6:7", 13, Ipv6TooFewGroups),
        ("1:2:3:4:5:6:1.2.3.4:1", 12, Ipv6Ipv4),
        ("1:2:3:4:5:6:7:1.2.3.4", 14, Ipv6TooManyGroups),
        ("1:2:3:4:5:1.2.3.4", 17, Ipv6TooFewGroups),
        ("1:2:3:4:5:6:7:8::", 15, Ipv6TooManyGroups),
        ("::1:2:3:4:5:6:7:8", 16, Ipv6TooManyGroups),
        ("1:2:3:4::5:6:7:8", 15, Ipv6TooManyGroups),
        ("1::2::3", 4, Ipv6DoubleColon),
        ("::1::", 3, Ipv6DoubleColon),
        (":1::", 0, Ipv6Colon),
        (":", 0, Ipv6Colon),
        ("1::2:", 4, Ipv6Colon),
        ("1:", 1, Ipv6Colon),
        (":::", 2, Ipv6Colon),
        ("1:::2", 3, Ipv6Colon),
        ("12345::", 4, Ipv6GroupTooLong),
        ("::00000", 6, Ipv6GroupTooLong),
        ("::1.2.3.256", 2, Ipv6Ipv4),
        ("::1.2.3", 2, Ipv6Ipv4),
        ("::01.2.3.4", 2, Ipv6Ipv4),
        ("1.2.3.4::", 0, Ipv6Ipv4),
        ("::1.2.3.4:5", 2, Ipv6Ipv4),
        ("::1.2.3.4.5", 2, Ipv6Ipv4),
        ("::1%25eth0", 3, Ipv6Zone),
        ("fe80::1%eth0", 7, Ipv6Zone),
        ("", 0, Ipv6TooFewGroups),
        ("::g", 2, InvalidByte(b'g')),
        ("1:2:3:4:5:6:7:8 ", 15, InvalidByte(b' ')),
        ("::1 ", 3, InvalidByte(b' ')),
        ("v1", 2, BadIpvFuture),
        ("v.x", 1, BadIpvFuture),
        ("vx.x", 1, BadIpvFuture),
        ("v1.", 3, BadIpvFuture),
        ("v1x.y", 2, BadIpvFuture),
        ("v1.a b", 4, InvalidByte(b' ')),
        ("v1.a%41", 4, InvalidByte(b'%')),
    ];
    for &(lit, at, kind) in cases {
        // Authority starts at 7 and the literal at 8.
        let input = format!("http://[{lit}]/");
        err(&input, Mode::Uri, 8 + at, Component::Host, kind);
    }
    for lit in [
        "::",
        "::1",
        "1::",
        "1::2",
        "::ffff:1.2.3.4",
        "1:2:3:4:5:6:1.2.3.4",
        "ABCD:ef01::",
        "0:0:0:0:0:0:0:0",
        "::0.0.0.0",
        "1::255.255.255.255",
        "v1.x",
        "V1.x",
        "vF.a:b",
        "v1a.!$&'()*+,;=-._~:",
        "vABCDEF0123456789.1",
    ] {
        ok(&format!("http://[{lit}]/"));
    }
    let kinds: Vec<HostKind> = ["//[v1.x]", "//[::]"]
        .iter()
        .map(|s| host_kind(s))
        .collect();
    assert_eq!(kinds, [HostKind::IpvFuture, HostKind::Ipv6]);
}

#[test]
fn errors_are_the_first_offending_byte() {
    // Several errors: the earliest wins, component by component.
    bad(
        "h t:/a b",
        1,
        Component::Scheme,
        ErrorKind::InvalidByte(b' '),
    );
    bad(
        "http://a b/c d?e f#g h",
        8,
        Component::Host,
        ErrorKind::InvalidByte(b' '),
    );
    bad(
        "/c d?e f#g h",
        2,
        Component::Path,
        ErrorKind::InvalidByte(b' '),
    );
    bad(
        "?e f#g h",
        2,
        Component::Query,
        ErrorKind::InvalidByte(b' '),
    );
}

#[test]
fn error_messages_read_well() {
    let msg = |s: &str| {
        parse(s.as_bytes(), Mode::Reference)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(msg("/a b"), "invalid character ' ' in path");
    assert_eq!(msg("/a%zz"), "'%' not followed by two hex digits in path");
    assert_eq!(
        msg("//[1:2:3:4:5:6:7:8:9]"),
        "IPv6 address has more than 8 groups"
    );
    assert_eq!(msg("//h:x"), "port is not a number");
    assert_eq!(msg("/\x01"), "invalid byte 0x01 in path");
    assert_eq!(msg("/\u{e9}"), "invalid byte 0xC3 in path");
}

/// Inputs that other strict RFC 3986 parsers' test suites (fluent-uri,
/// iri-string, rust-url's and uriparser's RFC sections) accept or reject.
#[test]
fn conformance_cases() {
    for s in [
        "http://example.com/%E2%82%AC",
        "http://user:pass@example.com:8080/p/a/t/h?query=string#hash",
        "foo:/bar",
        "foo://[::1]",
        "//example.com:80",
        "a:b:c",
        "s://-.~_!$&'()*+,;=:@-.~_!$&'()*+,;=/p?q#f",
        "http://127.0.0.1:8080",
        "http://[::127.0.0.1]",
        "file:",
        "file:/",
        "http:",
        "http:/",
        "http://",
        "http:///",
        "x:?",
        "x:#",
        "x:..",
        "x:/..",
        "%20",
        "?%20",
    ] {
        ok(s);
    }
    for s in [
        "http://[::1]:80a",
        "http://[fe80::1%25en0]/",
        "http://exa mple.com",
        "http://example.com/%",
        "http://example.com/%x1",
        "http://[1]",
        "http://[::1::]",
        "http://[:::]",
        "http://[v1]",
        "http://[vG.1]",
        "http://\"/",
        "http://example.com/<>",
        "http://example.com/{x}",
        "http://example.com/|",
        "http://example.com/\\",
        "http://example.com/^",
        "http://example.com/`",
        ":foo",
        "1a:b",
        "http://a@b@c",
        "http://[::1]extra",
        "http://example.com:port",
    ] {
        assert!(
            parse(s.as_bytes(), Mode::Reference).is_err(),
            "{s:?} should be invalid"
        );
    }
}

/// Every byte in four short contexts is valid exactly when the ABNF of RFC
/// 3986 says so. The character sets are written out here from the RFC
/// (2.2, 2.3, 3.3), not taken from `src/classes.rs`.
#[test]
fn every_byte_in_short_contexts_follows_the_abnf() {
    const ALPHA: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    const DIGIT: &[u8] = b"0123456789";
    const UNRESERVED_PUNCT: &[u8] = b"-._~";
    const SUB_DELIMS: &[u8] = b"!$&'()*+,;=";
    let unreserved =
        |b: u8| ALPHA.contains(&b) || DIGIT.contains(&b) || UNRESERVED_PUNCT.contains(&b);
    let sub_delim = |b: u8| SUB_DELIMS.contains(&b);
    // pchar = unreserved / pct-encoded / sub-delims / ":" / "@" (a lone `%`
    // is no pct-encoded).
    let pchar = |b: u8| unreserved(b) || sub_delim(b) || b == b':' || b == b'@';
    for b in 0..=255u8 {
        for mode in [Mode::Reference, Mode::Uri, Mode::Absolute] {
            let relative_ok = mode == Mode::Reference;
            // `b` alone: a relative reference whose first segment may not
            // hold `:` (path-noscheme), or `/`, or an empty path before `?`
            // or `#`. No scheme: never a URI.
            let alone = relative_ok && ((pchar(b) && b != b':') || b"/?#".contains(&b));
            // `a:b`: path-rootless or, for `/`, path-absolute, or an empty
            // path before a query or (not in absolute-URI) a fragment.
            let after_scheme =
                pchar(b) || b == b'/' || b == b'?' || (b == b'#' && mode != Mode::Absolute);
            // `//b`: an authority of one byte (reg-name, or `:` an empty
            // port, or `@` an empty userinfo), or an empty one before `/`,
            // `?` or `#`. No scheme: a relative reference only.
            let authority = relative_ok && (unreserved(b) || sub_delim(b) || b":@/?#".contains(&b));
            // `//[b`: an IP literal never closed (and `[]` is empty).
            let ip_literal = false;
            for (input, expected) in [
                (vec![b], alone),
                (vec![b'a', b':', b], after_scheme),
                (vec![b'/', b'/', b], authority),
                (vec![b'/', b'/', b'[', b], ip_literal),
            ] {
                let got = parse(&input, mode);
                assert_eq!(
                    got.is_ok(),
                    expected,
                    "{:?} {mode:?}: {:?}",
                    String::from_utf8_lossy(&input),
                    got.err().map(|e| e.to_string())
                );
                if let Err(e) = got {
                    assert!(e.offset() <= input.len(), "{input:?}");
                }
            }
        }
    }
}

#[test]
fn no_panic_on_any_short_input() {
    let alphabet = b":/?#[]@%vV.1aF \xff";
    // All pairs and triples over the structural alphabet (every single byte
    // in four contexts: `every_byte_in_short_contexts_follows_the_abnf`).
    for &a in alphabet {
        for &b in alphabet {
            for &c in alphabet {
                for prefix in [&b""[..], b"//", b"s://[", b"//u@["] {
                    let mut v = prefix.to_vec();
                    v.extend_from_slice(&[a, b, c]);
                    for mode in [Mode::Reference, Mode::Uri, Mode::Absolute] {
                        if let Err(e) = parse(&v, mode) {
                            assert!(e.offset() <= v.len(), "{v:?}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn long_lines() {
    let mut long = b"http://example.com/".to_vec();
    long.extend(std::iter::repeat_n(b'a', 10 << 20));
    assert!(parse(&long, Mode::Uri).is_ok());
    long.push(b' ');
    let e = parse(&long, Mode::Uri).unwrap_err();
    assert_eq!(e.offset(), long.len() - 1);
    let mut host = b"http://".to_vec();
    host.extend(std::iter::repeat_n(b'h', 1 << 20));
    host.extend_from_slice(b":8080/");
    assert_eq!(parse(&host, Mode::Uri).unwrap().port_number(), Some(8080));
}
