//! `--iri` on the subcommands that read URI lists: each line with non-ASCII
//! characters is mapped from an IRI to a URI before it is processed.

use super::{code, run, stderr, stdout};

const LINES: &str =
    "http://müller.de/über\nhttp://例え.テスト/パス?q=ü\r\nhttp://a/\u{E000}\nhttp://ok/\n";

#[test]
fn check_with_and_without_iri() {
    let o = run(&["check"], LINES.as_bytes());
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("4 lines, 1 valid, 3 invalid"),
        "{}",
        stderr(&o)
    );
    let o = run(&["check", "--iri"], LINES.as_bytes());
    assert_eq!(code(&o), 1);
    // The private-use character outside the query maps to no URI.
    assert_eq!(stdout(&o), "-:3:10: invalid byte 0xEE in path\n");
    assert!(
        stderr(&o).contains("4 lines, 3 valid, 1 invalid"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn normalize_split_dedup_map_first() {
    let mapped = "http://xn--mller-kva.de/%C3%BCber\n\
        http://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9?q=%C3%BC\nhttp://ok/\n";
    let o = run(&["normalize", "--iri"], LINES.as_bytes());
    assert_eq!(stdout(&o), mapped);
    let o = run(
        &["dedup", "--iri"],
        format!("{LINES}http://Müller.de/über\n").as_bytes(),
    );
    assert_eq!(stdout(&o), mapped);
    let o = run(&["split", "--iri", "--format", "tsv"], LINES.as_bytes());
    let row = stdout(&o).lines().nth(1).unwrap().to_string();
    assert!(
        row.starts_with("1\ttrue\turi\thttp\txn--mller-kva.de\t"),
        "{row}"
    );
    assert_eq!(
        code(&run(&["resolve", "--iri", "--base", "http://a/"], b"")),
        2
    );
}
