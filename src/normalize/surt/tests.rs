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
