//! Keys checked against `surt.surt()` of the Python `surt` library 0.3.1
//! (each expected value below is its output).

use super::{key, key_uri, sort_query_into};
use crate::{parse, Mode};

fn k(line: &str) -> String {
    let mut out = Vec::new();
    key(line.as_bytes(), &mut out);
    String::from_utf8(out).unwrap()
}

/// Checks that `input` keys to `expected` both by the general steps
/// ([`key`]) and by the fast path of valid URIs ([`key_uri`]).
fn keys_both_ways(input: &str, expected: &str) {
    assert_eq!(k(input), expected, "{input:?}");
    let uri = parse(input.as_bytes(), Mode::Reference).unwrap();
    let mut fast = Vec::new();
    key_uri(&uri, &mut fast);
    assert_eq!(
        String::from_utf8_lossy(&fast),
        expected,
        "{input:?}, fast path"
    );
}

#[test]
fn oracle_keys() {
    for (input, expected) in [
        (
            "http://www.archive.org/goo/?a=2&b&a=1",
            "org,archive)/goo?a=1&a=2&b",
        ),
        ("", "-"),
        ("filedesc://x.arc", "filedesc://x.arc"),
        ("http://1.2/", "2,0,0,1)/"),
        ("http://1.010/", "8,0,0,1)/"),
        ("http://1.08/", "08,1)/"),
        ("http://017700000001/", "1,145,0,31)/"),
        ("http://4294967296/", "0,0,0,0)/"),
        ("http://1.16777216/", "16777216,1)/"),
        ("http://0x7f.1/", "1,0x7f)/"),
        ("http://1..2/", "2,0,0,1)/"),
        // Dotted IPv4 forms: decimal parts (8 and 9 too) after a first
        // part without a leading zero, octal ones after one with it, up to
        // four parts; any other host of digits and dots is a name.
        ("http://1.9/", "9,0,0,1)/"),
        ("http://192.168.0.9/", "9,0,168,192)/"),
        ("http://017.1/", "1,0,0,15)/"),
        ("http://010.1.1.1/", "1,1,1,8)/"),
        ("http://0.9/", "9,0)/"),
        ("http://09.1/", "1,09)/"),
        ("http://00.8/", "8,00)/"),
        ("http://1.2.3.4.5/", "5,4,3,2,1)/"),
        // Each part but the last is a byte (255 is one, 256 is not); the
        // last fills what the others leave: 32 - 8 (n - 1) bits.
        ("http://255.1.770/", "2,3,1,255)/"),
        ("http://255.1.2.03/", "3,2,1,255)/"),
        ("http://256.1.2.3/", "3,2,1,256)/"),
        ("http://1.256/", "0,1,0,1)/"),
        ("http://1.16777215/", "255,255,255,1)/"),
        ("http://1.2.65535/", "255,255,2,1)/"),
        ("http://1.2.65536/", "65536,2,1)/"),
        ("http://1.2.3.0377/", "255,3,2,1)/"),
        // Parameters sorted by key, then none first by value; keys of 7,
        // 8 (its `=` right after the first word) and 9 bytes.
        (
            "http://a.com/?abcdefgh=2&abcdefgh=1&abcdefg=3&abcdefghi",
            "com,a)/?abcdefg=3&abcdefgh=1&abcdefgh=2&abcdefghi",
        ),
        (
            "http://a.com/?bbcdefgh=1&abcdefgh=2",
            "com,a)/?abcdefgh=2&bbcdefgh=1",
        ),
        // A leading `www`, `www1`, `www23`... label goes (any case); digits
        // not followed by a dot keep it.
        ("http://www1.a.com/", "com,a)/"),
        ("http://WWW23.a.com/x", "com,a)/x"),
        ("http://www1a.com/", "com,www1a)/"),
        ("http://www12/", "www12)/"),
        // TAB, CR and LF inside a line are removed (step 2), anywhere.
        ("http://exa\tmple.com/a\r\nb", "com,example)/ab"),
        (" http://a.com/x\ty ", "com,a)/xy"),
        ("http://a.com/\t?b=1\n&a=2", "com,a)/?a=2&b=1"),
        // Escapes decoded until nothing changes, in host, path and query
        // (one `%` left by a round may start an escape of the next).
        ("http://a.com/%2541", "com,a)/a"),
        ("http://a.com/%252541x?q=%2525", "com,a)/ax?q=%25"),
        ("http://a.com/%%34%31", "com,a)/a"),
        ("http://a%2541.com/", "com,aa)/"),
        ("http://a.com/x%2", "com,a)/x%252"),
        // Escaped again after decoding: DEL, `#`, space (in lowercase hex).
        ("http://a.com/%7F%23x?a=%7f%23", "com,a)/%7f%23x?a=%7f%23"),
        ("http://a.com/a%20b%7e", "com,a)/a%20b~"),
    ] {
        assert_eq!(k(input), expected, "{input:?}");
    }
}

/// Ports as the library reads them (each key is `surt.surt()`'s output):
/// 0 is none, leading zeros go, the scheme's default goes; a port above
/// 65535 makes the library raise, so the key is not exact (and keeps the
/// port as written). The general steps and the fast path agree.
#[test]
fn ports_as_the_library_reads_them() {
    for (input, expected, exact) in [
        ("http://a.com:0/x", "com,a)/x", true),
        ("http://a.com:00/x", "com,a)/x", true),
        ("http://a.com:080/x", "com,a)/x", true),
        ("https://a.com:0443/x", "com,a)/x", true),
        ("http://a.com:07/x", "com,a:7)/x", true),
        ("ftp://a.com:21/x", "com,a:21)/x", true),
        ("http://a.com:65535/x", "com,a:65535)/x", true),
        ("http://a.com:65536/x", "com,a:65536)/x", false),
        ("http://a.com:99999999999/x", "com,a:99999999999)/x", false),
    ] {
        let mut general = Vec::new();
        let keyed = key(input.as_bytes(), &mut general);
        assert_eq!(String::from_utf8(general).unwrap(), expected, "{input}");
        assert_eq!(keyed.exact, exact, "{input}");
        let uri = parse(input.as_bytes(), Mode::Reference).unwrap();
        let mut fast = Vec::new();
        assert_eq!(key_uri(&uri, &mut fast).exact, exact, "{input}");
        assert_eq!(String::from_utf8(fast).unwrap(), expected, "{input}");
    }
}

/// Session ids leave the key as `surt.surt()` removes them: an ASP.NET
/// segment (`/(a(24 letters or digits)...)/` or `/(24 ...)/`) when a
/// `.aspx` follows it with something before and no `?` between, the last
/// of each form; and `jsessionid`, `phpsessid`, `sid` (32 letters or
/// digits), `aspsessionid` (8 letters, 24 letters) and `cfid`+`cftoken`
/// parameters, each pattern at its last place, ending the query or an `&`,
/// which goes with it (the `&` before it stays). The near misses stay: one
/// letter short or too long, a wrong byte at each place of a pattern. Both
/// by the general steps ([`key`]) and by the fast path of valid URIs
/// ([`key_uri`]), which decides by itself whether to look for them
/// (`has_aspx`, `may_name_session`). `<24>`, `<32>` and `<L24>` stand for
/// ids, written lowercase in the keys.
#[test]
fn session_ids_go_as_the_library_removes_them() {
    let ids = |s: &str| {
        s.replace("<24>", "0123456789abcdefghijklmn")
            .replace("<32>", "0123456789abcdef0123456789ABCDEF")
            .replace("<L24>", "ABCDEFGHIJKLMNOPQRSTUVWX")
    };
    for (input, expected) in [
        // ASP.NET segments: each form, both, the last of two; then near
        // misses, which stay.
        ("http://a.com/(a(<24>))/x.aspx", "com,a)/x.aspx"),
        ("http://a.com/(<24>)/x.aspx", "com,a)/x.aspx"),
        ("http://a.com/(a(<24>)B(<24>))/x.aspx", "com,a)/x.aspx"),
        ("http://a.com/x/(<24>)/y.ASPX", "com,a)/x/y.aspx"),
        // The path's only `a` that of its `.aspx` (the fast path looks for
        // `.a` before it looks for a segment at all).
        (
            "http://b.com/(0123456789bcdefghijklmno)/x.aspx",
            "com,b)/x.aspx",
        ),
        (
            "http://b.com/(0123456789bcdefghijklmno)/x.ASPX",
            "com,b)/x.aspx",
        ),
        ("http://a.com/(<24>)/x.aspxyz", "com,a)/x.aspxyz"),
        ("http://a.com/(<24>)/x.aspx/", "com,a)/x.aspx"),
        ("http://a.com/(<24>)/x.aspx?q=1", "com,a)/x.aspx?q=1"),
        ("http://a.com/(<24>)/x.asp.aspx", "com,a)/x.asp.aspx"),
        ("http://a.com/(<24>)//x.aspx", "com,a)/x.aspx"),
        ("http://a.com/(<24>)/(<24>)/x.aspx", "com,a)/(<24>)/x.aspx"),
        ("http://a.com/(a(<24>))/(<24>)/x.aspx", "com,a)/x.aspx"),
        ("http://a.com/(<24>)/(a(<24>))/x.aspx", "com,a)/x.aspx"),
        ("http://a.com/(<24>)/x.asp", "com,a)/(<24>)/x.asp"),
        ("http://a.com/(<24>)/x.aspy", "com,a)/(<24>)/x.aspy"),
        ("http://a.com/y.aspx/(<24>)/x", "com,a)/y.aspx/(<24>)/x"),
        ("http://a.com/(<24>)/.aspx", "com,a)/(<24>)/.aspx"),
        ("http://a.com/(<24>)/x/.aspx", "com,a)/x/.aspx"),
        ("http://a.com/(<24>)/x%3F.aspx", "com,a)/(<24>)/x?.aspx"),
        (
            "http://a.com/(<24>)/x%3Fy/z.aspx",
            "com,a)/(<24>)/x?y/z.aspx",
        ),
        (
            "http://a.com/(0123456789abcdefghijklm)/x.aspx",
            "com,a)/(0123456789abcdefghijklm)/x.aspx",
        ),
        ("http://a.com/(<24>o)/x.aspx", "com,a)/(<24>o)/x.aspx"),
        (
            "http://a.com/(0123456789abcdefghijklm-)/x.aspx",
            "com,a)/(0123456789abcdefghijklm-)/x.aspx",
        ),
        ("http://a.com/(1(<24>))/x.aspx", "com,a)/(1(<24>))/x.aspx"),
        ("http://a.com/((<24>))/x.aspx", "com,a)/((<24>))/x.aspx"),
        ("http://a.com/(a(<24>))x/y.aspx", "com,a)/(a(<24>))x/y.aspx"),
        ("http://a.com/(a(<24>)/x.aspx", "com,a)/(a(<24>)/x.aspx"),
        ("http://a.com/(a(<24>x)/x.aspx", "com,a)/(a(<24>x)/x.aspx"),
        (
            "http://a.com/(a(<24>)b(0123456789abcdefghijklm))/x.aspx",
            "com,a)/(a(<24>)b(0123456789abcdefghijklm))/x.aspx",
        ),
        ("http://a.com/x(<24>)/y.aspx", "com,a)/x(<24>)/y.aspx"),
        ("http://a.com/(x)/y.aspx", "com,a)/(x)/y.aspx"),
        ("http://a.com/(ab<24>))/x.aspx", "com,a)/(ab<24>))/x.aspx"),
        // jsessionid, phpsessid and sid: 32 letters or digits ending the
        // query or an `&`.
        ("http://a.com/?jsessionid=<32>", "com,a)/"),
        ("http://a.com/?JSESSIONID=<32>&b=1", "com,a)/?b=1"),
        ("http://a.com/?b=1&jsessionid=<32>&c=2", "com,a)/?b=1&c=2"),
        ("http://a.com/?jsessionid=<32>&", "com,a)/"),
        ("http://a.com/?&jsessionid=<32>", "com,a)/?&"),
        (
            "http://a.com/?jsessionid=<32>&jsessionid=<32>",
            "com,a)/?&jsessionid=<32>",
        ),
        (
            "http://a.com/?jsessionid=0123456789abcdef0123456789ABCDE",
            "com,a)/?jsessionid=0123456789abcdef0123456789abcde",
        ),
        (
            "http://a.com/?jsessionid=0123456789abcdef0123456789ABCDE-",
            "com,a)/?jsessionid=0123456789abcdef0123456789abcde-",
        ),
        (
            "http://a.com/?jsessionid=<32>x&b=1",
            "com,a)/?b=1&jsessionid=<32>x",
        ),
        ("http://a.com/?phpsessid=<32>", "com,a)/"),
        ("http://a.com/?PHPSESSID=<32>&b=1", "com,a)/?b=1"),
        ("http://a.com/?phpsessid=<32>&jsessionid=<32>", "com,a)/"),
        ("http://a.com/?sid=<32>", "com,a)/"),
        ("http://a.com/?a=1&sid=<32>", "com,a)/?&a=1"),
        ("http://a.com/?xsid=<32>&b=1", "com,a)/?xb=1"),
        ("http://a.com/?x=sid=<32>", "com,a)/?x="),
        ("http://a.com/?sid=<32>&sid=<32>", "com,a)/?&sid=<32>"),
        ("http://a.com/?a=<32>&sid=<32>", "com,a)/?&a=<32>"),
        ("http://a.com/?sidx=<32>", "com,a)/?sidx=<32>"),
        ("http://a.com/?nid=<32>", "com,a)/?nid=<32>"),
        ("http://a.com/?sid=1&b=<32>", "com,a)/?b=<32>&sid=1"),
        // aspsessionid: 8 letters, `=`, 24 letters; near misses with a
        // `cfid`, which makes the query one to look at.
        ("http://a.com/?ASPSESSIONIDABCDEFGH=<L24>", "com,a)/"),
        (
            "http://a.com/?b=1&aspsessionidabcdefgh=<L24>&c=2",
            "com,a)/?b=1&c=2",
        ),
        (
            "http://a.com/?aspsessionidabcdefg1=<L24>",
            "com,a)/?aspsessionidabcdefg1=<L24>",
        ),
        (
            "http://a.com/?aspsessionidabcdefgh=ABCDEFGHIJKLMNOPQRSTUVW1",
            "com,a)/?aspsessionidabcdefgh=abcdefghijklmnopqrstuvw1",
        ),
        (
            "http://a.com/?aspsessionidabcdefgh=ABCDEFGHIJKLMNOPQRSTUVW",
            "com,a)/?aspsessionidabcdefgh=abcdefghijklmnopqrstuvw",
        ),
        (
            "http://a.com/?aspsessionidabcdefgh=<L24>x",
            "com,a)/?aspsessionidabcdefgh=<L24>x",
        ),
        (
            "http://a.com/?aspsessionidabcdefgh!<L24>",
            "com,a)/?aspsessionidabcdefgh!<L24>",
        ),
        (
            "http://a.com/?aspsessionidabcdefgh=<L24>&sid=<32>",
            "com,a)/",
        ),
        (
            "http://a.com/?xspsessionidabcdefgh=<L24>&cfid=1",
            "com,a)/?cfid=1&xspsessionidabcdefgh=<L24>",
        ),
        (
            "http://a.com/?cfid=1&aspsessionidabcdefgh=ABCDEFGHIJKLMNOPQRSTUVW",
            "com,a)/?aspsessionidabcdefgh=abcdefghijklmnopqrstuvw&cfid=1",
        ),
        // cfid and cftoken, each with a value.
        ("http://a.com/?cfid=1&cftoken=2", "com,a)/"),
        ("http://a.com/?CFID=1&CFTOKEN=2&b=3", "com,a)/?b=3"),
        ("http://a.com/?b=3&cfid=12&cftoken=abc", "com,a)/?&b=3"),
        ("http://a.com/?xcfid=1&cftoken=2", "com,a)/?x"),
        ("http://a.com/?cfid=a=b&cftoken=c=d&e", "com,a)/?e"),
        ("http://a.com/?cfid=&cftoken=2", "com,a)/?cfid=&cftoken=2"),
        ("http://a.com/?cfid=1&cftoken=", "com,a)/?cfid=1&cftoken="),
        (
            "http://a.com/?cfid=1&cftoken=&b=1",
            "com,a)/?b=1&cfid=1&cftoken=",
        ),
        ("http://a.com/?cfid=1", "com,a)/?cfid=1"),
        ("http://a.com/?cfid=1&b=2", "com,a)/?b=2&cfid=1"),
        ("http://a.com/?cfid=1&cftokn=23", "com,a)/?cfid=1&cftokn=23"),
        ("http://a.com/?cfid=1&cftoken", "com,a)/?cfid=1&cftoken"),
        ("http://a.com/?cfid=1&cftoken=2&sid=<32>", "com,a)/"),
        (
            "http://a.com/?abcd=1&cftoken=2&cfid=3",
            "com,a)/?abcd=1&cfid=3&cftoken=2",
        ),
        ("http://a.com/?cfid=", "com,a)/?cfid="),
    ] {
        keys_both_ways(&ids(input), &ids(expected).to_ascii_lowercase());
    }
}

/// Any bytes get a key, without a panic: ASCII with no line break (a line
/// starting with `filedesc` aside), whatever the line holds.
#[test]
fn any_bytes_get_an_ascii_key() {
    const PIECES: [&[u8]; 24] = [
        b"http://",
        b"https://",
        b"www.",
        b"%",
        b"%2",
        b"%25",
        b"%c3%bc",
        b"\xc3\xbc",
        b"\xff",
        b".",
        b"..",
        b"/",
        b"//",
        b"?",
        b"&",
        b"=",
        b"#",
        b":",
        b"[",
        b"]",
        b"@",
        b" ",
        b"0",
        b"(a(0123456789abcdefghijklmn))/x.aspx",
    ];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut line, mut out) = (Vec::new(), Vec::new());
    for _ in 0..20_000 {
        line.clear();
        for _ in 0..next() % 12 {
            let r = next();
            if r % 4 == 0 {
                line.push((r >> 8) as u8);
            } else {
                line.extend_from_slice(PIECES[(r >> 8) as usize % PIECES.len()]);
            }
        }
        out.clear();
        key(&line, &mut out);
        if !line.starts_with(b"filedesc") {
            assert!(
                out.is_ascii() && !out.contains(&b'\n') && !out.is_empty(),
                "{:?} -> {:?}",
                String::from_utf8_lossy(&line),
                String::from_utf8_lossy(&out)
            );
        }
    }
}

/// The fast path of valid URIs ([`key_uri`]) writes what the general steps
/// ([`key`], checked against the library above and by the oracle test)
/// write for the same line, on URIs built from pieces that each steer one
/// of its branches: schemes with and without an authority, IPv4 forms,
/// `www`, ports, escapes that decode to `%`, `/` or `.`, dot and empty
/// segments, session ids and ASP.NET segments, queries to sort; and
/// relative references of the three forms (`//host/path`, `/host/path`,
/// `host/path`), which the library keys as `http://` and them.
#[test]
fn fast_path_of_valid_uris_is_the_general_key() {
    // The empty one makes a relative reference.
    const SCHEMES: [&str; 10] = [
        "http", "https", "HTTP", "ftp", "dns", "mailto", "filedesc", "", "file", "httpx",
    ];
    const HOSTS: [&str; 30] = [
        "",
        "[::FFFF:192.0.2.128]",
        "[2001:DB8:85a3::8a2e:370:7334]",
        "[v1.fe80::a+en1]",
        ".",
        "..",
        // Around the fast path's word (8 bytes) and limit (64 bytes).
        "a.co",
        "ab.Com",
        "abc.COM",
        "abcd.com",
        "Sub.Example.org",
        "www.",
        "www1.a",
        "a.b.c.d.e.f.g.h.i.j.k",
        "abcdefghij.abcdefghij.abcdefghij.abcdefghij.abcdefghij.ABCDEFGHI",
        "abcdefghij.abcdefghij.abcdefghij.abcdefghij.abcdefghij.abcdefghij.Long",
        "www.Example.COM",
        "www12.a.b",
        "1.2",
        "017700000001",
        "4294967296",
        "a..b",
        ".a.",
        // A dot at the end (the fast path declines it), alone in the host
        // or after another.
        "a.",
        "a.b.",
        "%41.com",
        "[::1]",
        "http",
        "u:p@WWW.x.org",
        "https://a",
    ];
    const PORTS: [&str; 6] = ["", ":", ":80", ":443", ":0", ":99999"];
    const PIECES: [&str; 22] = [
        "/",
        "//",
        "/.",
        "/..",
        "a",
        "B",
        "%2F",
        "%2e",
        "%25",
        "%2541",
        "%%34%31",
        "%41",
        "%c3%bc",
        "(a(0123456789abcdefghijklmn))/",
        "x.ASPX",
        "?",
        "&",
        "=",
        "b=1",
        "a=2",
        "jsessionid=0123456789ABCDEF0123456789abcdef",
        "#f",
    ];
    let mut next = draws(0x9e37_79b9_7f4a_7c15u64);
    let (mut line, mut fast, mut general) = (String::new(), Vec::new(), Vec::new());
    let (mut tried, mut relative) = (0, 0);
    for _ in 0..50_000 {
        line.clear();
        let scheme = SCHEMES[next(SCHEMES.len())];
        if !scheme.is_empty() {
            line.push_str(scheme);
            line.push(':');
        } else if next(2) > 0 {
            line.push_str(["", "/", "a@"][next(3)]);
        }
        if next(4) > 0 {
            line.push_str("//");
            line.push_str(HOSTS[next(HOSTS.len())]);
            line.push_str(PORTS[next(PORTS.len())]);
            // Mostly a path after the authority; sometimes nothing.
            if next(4) > 0 {
                line.push('/');
            }
        }
        for _ in 0..next(8) {
            line.push_str(PIECES[next(PIECES.len())]);
        }
        let Ok(uri) = parse(line.as_bytes(), Mode::Reference) else {
            continue;
        };
        tried += 1;
        relative += usize::from(scheme.is_empty());
        fast.clear();
        general.clear();
        let (f, g) = (key_uri(&uri, &mut fast), key(line.as_bytes(), &mut general));
        assert_eq!(
            (String::from_utf8_lossy(&fast), f),
            (String::from_utf8_lossy(&general), g),
            "{line:?}"
        );
    }
    assert!(tried > 20_000, "only {tried} valid URIs");
    assert!(relative > 2_000, "only {relative} relative references");
}

/// Hosts at the edges of the fast path that the drawn hosts above do not
/// reach, keyed by both ways (each key is `surt.surt()`'s output). Up to
/// 64 bytes (`Host`, a word at a time): an empty label right after
/// `www.`; a dot ending a host of 33 bytes or more with no other dot near
/// it (a wrong shift would push its bit past the word's 64). Longer
/// (`write_long_host`, a byte at a time): a dot at the end with no other
/// dot, an empty label right after `www.`.
#[test]
fn fast_path_hosts_at_its_edges() {
    let a = |n| "a".repeat(n);
    let long = format!("{}Long", "abcdefghij.".repeat(6));
    let long_key = format!("long,{}abcdefghij", "abcdefghij,".repeat(5));
    for (input, expected) in [
        ("http://www..abc/".to_string(), "abc)/".to_string()),
        (format!("http://{}./", a(40)), format!("{})/", a(40))),
        (format!("http://www.{}./", a(59)), format!("{})/", a(59))),
        (format!("http://{}./", a(70)), format!("{})/", a(70))),
        (format!("http://www..{long}/"), format!("{long_key})/")),
    ] {
        keys_both_ways(&input, &expected);
    }
}

/// The parameters of a query sorted by key, then none first by value (a
/// plain split on `&` and on each parameter's first `=`): the reference
/// for [`sort_query_into`], which finds them eight bytes at a time, on
/// random queries of every length around its word.
#[test]
fn query_sort_is_that_of_a_plain_split() {
    const BYTES: &[u8] = b"ab=&=&Ax1";
    let mut next = draws(0x2545_f491_4f6c_dd1du64);
    let (mut params, mut out) = (Vec::new(), Vec::new());
    for _ in 0..20_000 {
        let query: Vec<u8> = (0..next(40)).map(|_| BYTES[next(BYTES.len())]).collect();
        let mut expected: Vec<&[u8]> = query.split(|&b| b == b'&').collect();
        expected.sort_by_key(|p| match p.iter().position(|&b| b == b'=') {
            Some(e) => (&p[..e], Some(&p[e + 1..])),
            None => (&p[..], None),
        });
        out.clear();
        sort_query_into(&query, &mut params, &mut out);
        assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&expected.join(&b'&')),
            "{:?}",
            String::from_utf8_lossy(&query)
        );
    }
}

/// Numbers below `n` for each call `next(n)`, from a xorshift generator
/// seeded with `state`: the same draws on every run.
pub(super) fn draws(mut state: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    }
}

/// `escape_once` copies words with nothing to escape at once: the same
/// bytes as escaping byte by byte, whatever byte sits at whatever offset of
/// a word, in runs of one byte (words with nothing but that byte), and on
/// random runs of bytes of every kind.
#[test]
fn escape_once_by_words_is_byte_by_byte() {
    use super::{escape_once, push_escaped};
    let by_bytes = |src: &[u8]| {
        let mut out = Vec::new();
        src.iter().for_each(|&b| push_escaped(b, &mut out));
        out
    };
    let by_words = |src: &[u8]| {
        let mut out = b"kept".to_vec();
        escape_once(src, &mut out);
        assert_eq!(&out[..4], b"kept", "escape_once appends");
        out.split_off(4)
    };
    for b in 0..=255u8 {
        for at in 0..17 {
            let mut src = b"aZ0~!$&'()*+,;=:@/?.-_".repeat(2)[..17].to_vec();
            src[at] = b;
            assert_eq!(by_words(&src), by_bytes(&src), "byte {b:#04x} at {at}");
        }
        let src = [b; 17];
        assert_eq!(by_words(&src), by_bytes(&src), "byte {b:#04x} alone");
    }
    let mut draw = draws(0x5eed);
    for len in 0..300 {
        let src: Vec<u8> = (0..len)
            .map(|_| match draw(4) {
                0 => draw(256) as u8,
                1 => b"#% \x7fA"[draw(5)],
                _ => b'a' + draw(26) as u8,
            })
            .collect();
        assert_eq!(by_words(&src), by_bytes(&src), "{src:?}");
    }
}
