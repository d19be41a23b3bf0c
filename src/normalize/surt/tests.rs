//! Keys checked against `surt.surt()` of the Python `surt` library 0.3.1
//! (each expected value below is its output).

use super::{key, key_uri, sort_query_into};
use crate::{parse, Mode};

fn k(line: &str) -> String {
    let mut out = Vec::new();
    key(line.as_bytes(), &mut out);
    String::from_utf8(out).unwrap()
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
    ] {
        assert_eq!(k(input), expected, "{input:?}");
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
fn draws(mut state: u64) -> impl FnMut(usize) -> usize {
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
