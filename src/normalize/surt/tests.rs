//! Keys checked against `surt.surt()` of the Python `surt` library 0.3.1
//! (each expected value below is its output).

use super::key;

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
