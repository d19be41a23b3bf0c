//! `normalize --profile surt` with `--invalid key` (every line keyed, as
//! the Python `surt` library keys it) and `--with-original`
//! (`KEY<TAB>LINE`, the line verbatim, in the order of a CDX index).

use super::{code, run, stderr, stdout};

/// Valid URIs, then lines that are not: a space, no scheme, a `|`, a blank
/// line, a raw UTF-8 host.
const LOG: &[u8] = b"http://www.Example.com:80/a/../B/?z=1&a=2#top\n\
    HTTP://127.1/x?jsessionid=0123456789abcdef0123456789ABCDEF&b=1\n\
    http://example.com/a b\n\
    Example.COM/p|q\n\
    \n\
    http://b\xc3\xbccher.example/%7E\r\n";

#[test]
fn invalid_key_keys_every_line() {
    let o = run(&["normalize", "--profile", "surt", "--invalid", "key"], LOG);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "com,example)/b?a=2&z=1\n\
         1,0,0,127)/x?b=1\n\
         com,example)/a%20b\n\
         com,example)/p|q\n\
         -\n\
         example,xn--bcher-kva)/~\n"
    );
    // Invalid lines are not reported (they are keyed), but they still count,
    // and --strict still fails on them.
    assert_eq!(stderr(&o), "");
    let strict = run(
        &[
            "normalize",
            "--profile",
            "surt",
            "--invalid",
            "key",
            "--strict",
        ],
        LOG,
    );
    assert_eq!(code(&strict), 1);
    assert_eq!(stdout(&strict), stdout(&o));
}

#[test]
fn invalid_key_in_json_keeps_the_error() {
    let o = run(
        &[
            "normalize",
            "--profile",
            "surt",
            "--invalid",
            "key",
            "--format",
            "json",
        ],
        b"http://a/ b\n",
    );
    assert_eq!(code(&o), 0);
    let line = stdout(&o);
    assert!(
        line.starts_with("{\"line\":1,\"valid\":false,\"normalized\":\"a)/%20b\",\"error\":{"),
        "{line}"
    );
}

#[test]
fn invalid_key_needs_the_surt_profile() {
    for args in [
        &["normalize", "--invalid", "key"][..],
        &["normalize", "--profile", "web", "--invalid", "key"],
        &["dedup", "--invalid", "key"],
    ] {
        let o = run(args, b"http://a/\n");
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(
            stderr(&o).contains("--invalid key"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    // `resolve` has no key for an invalid line, nor offers one.
    let o = run(&["resolve", "--base", "http://a/", "--invalid", "key"], b"");
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("possible values: report, pass, skip"),
        "{}",
        stderr(&o)
    );
    let o = run(&["resolve", "--help"], b"");
    assert!(!stdout(&o).contains("key:"), "{}", stdout(&o));
}

#[test]
fn with_original_prints_key_tab_line() {
    let o = run(
        &[
            "normalize",
            "--profile",
            "surt",
            "--invalid",
            "key",
            "--with-original",
        ],
        LOG,
    );
    assert_eq!(code(&o), 0);
    // The line as read (no CR), bytes that are not UTF-8-safe included.
    let expected: &[u8] =
        b"com,example)/b?a=2&z=1\thttp://www.Example.com:80/a/../B/?z=1&a=2#top\n\
        1,0,0,127)/x?b=1\tHTTP://127.1/x?jsessionid=0123456789abcdef0123456789ABCDEF&b=1\n\
        com,example)/a%20b\thttp://example.com/a b\n\
        com,example)/p|q\tExample.COM/p|q\n\
        -\t\n\
        example,xn--bcher-kva)/~\thttp://b\xc3\xbccher.example/%7E\n";
    assert_eq!(o.stdout, expected, "{}", stdout(&o));
    // Each output line is the key, a TAB and the input line, so `cut -f2-`
    // gives the input back.
    // With --invalid pass, an invalid line is its own key.
    let pass = run(
        &[
            "normalize",
            "--profile",
            "surt",
            "--invalid",
            "pass",
            "--with-original",
        ],
        b"http://a/ b\nhttp://A/\n",
    );
    assert_eq!(stdout(&pass), "http://a/ b\thttp://a/ b\na)/\thttp://A/\n");
    // Other profiles too.
    let web = run(
        &["normalize", "--profile", "web", "--with-original"],
        b"HTTP://A/#x\n",
    );
    assert_eq!(stdout(&web), "http://a/\tHTTP://A/#x\n");
    // Only with the text format.
    let tsv = run(&["normalize", "--with-original", "--format", "tsv"], b"");
    assert_eq!(code(&tsv), 2);
}

#[test]
fn dedup_invalid_key_groups_lines_by_their_surt_key() {
    let o = run(
        &[
            "dedup",
            "--profile",
            "surt",
            "--invalid",
            "key",
            "--print",
            "key",
        ],
        b"http://a.com/x\nA.COM/x \nhttp://a.com/ y\nhttp://www.a.com/%20y\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "com,a)/x\ncom,a)/%20y\n");
}
