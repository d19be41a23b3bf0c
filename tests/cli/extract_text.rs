//! `extract` on free text: IRIs as found or mapped (`--to-uri`), the
//! delimiting of docs/EXTRACT.md end to end, and `--format tsv`.

use super::{code, run, stderr, stdout};

const TEXT: &str = "see https://ja.wikipedia.org/wiki/日本 and more\n\
    http://müller.de/über, danke（http://例え.テスト/パス）。\n\
    [http://x.com/a](http://y.com/b) (http://a.com/)(http://b.com/)\n\
    <a href=\"http://h.com/?a=1&amp;b=2\">x</a> http://bad.example/\u{E000}\n";

#[test]
fn iris_as_found() {
    let o = run(&["extract"], TEXT.as_bytes());
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        "https://ja.wikipedia.org/wiki/日本\nhttp://müller.de/über\nhttp://例え.テスト/パス\n\
         http://x.com/a\nhttp://y.com/b\nhttp://a.com/\nhttp://b.com/\nhttp://h.com/?a=1&b=2\n"
    );
    // A private-use character outside the query maps to no URI: invalid.
    assert!(
        stderr(&o).contains("4 lines, 9 URIs found, 1 invalid"),
        "{}",
        stderr(&o)
    );
    let o = run(&["extract", "--all"], TEXT.as_bytes());
    assert!(
        stdout(&o).ends_with("http://bad.example/\u{E000}\tinvalid: invalid byte 0xEE in path\n"),
        "{}",
        stdout(&o)
    );
}

/// JSON lines of today's services, read as text: Go writes `&` as
/// `\u0026`, Python every non-ASCII character as `\uXXXX`; the URIs come out
/// with the escapes undone, whole, and map to URIs with `--to-uri`.
#[test]
fn string_escapes_in_json_lines() {
    let text = "{\"level\":\"info\",\"url\":\"http://x.com/?a=1\\u0026b=2\"}\n\
        {\"msg\":\"GET http:\\/\\/y.com\\/p?q=1\\u0026r=2 done\"}\n\
        {\"ref\":\"http://m\\u00fcller.de/\\u00fcber\"}\n\
        {\"msg\":\"see\\n\\u003chttp://z.com/a\\u003e\"}\n";
    let o = run(&["extract"], text.as_bytes());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "http://x.com/?a=1&b=2\nhttp://y.com/p?q=1&r=2\nhttp://müller.de/über\nhttp://z.com/a\n"
    );
    let o = run(&["extract", "--to-uri"], text.as_bytes());
    assert_eq!(
        stdout(&o),
        "http://x.com/?a=1&b=2\nhttp://y.com/p?q=1&r=2\nhttp://xn--mller-kva.de/%C3%BCber\n\
         http://z.com/a\n"
    );
}

#[test]
fn iris_to_uri() {
    let o = run(&["extract", "--to-uri"], TEXT.as_bytes());
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        "https://ja.wikipedia.org/wiki/%E6%97%A5%E6%9C%AC\nhttp://xn--mller-kva.de/%C3%BCber\n\
         http://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9\n\
         http://x.com/a\nhttp://y.com/b\nhttp://a.com/\nhttp://b.com/\nhttp://h.com/?a=1&b=2\n"
    );
    let o = run(&["extract", "--to-uri", "--log", "common"], TEXT.as_bytes());
    assert_eq!(code(&o), 2, "--to-uri is for free text");
}

#[test]
fn tsv_and_json_formats() {
    let o = run(
        &["extract", "--format", "tsv", "--all"],
        "a http://a.example/x\tb\nc（http://例え.テスト/）d http://b.example/%zz\n".as_bytes(),
    );
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        "line\tcolumn\turi\tvalid\n1\t3\thttp://a.example/x\ttrue\n\
         2\t5\thttp://例え.テスト/\ttrue\n2\t34\thttp://b.example/%zz\tfalse\n"
    );
    let o = run(
        &["extract", "--format", "json"],
        "x http://ü.example/ y\n".as_bytes(),
    );
    assert_eq!(
        stdout(&o),
        "{\"line\":1,\"column\":3,\"uri\":\"http://ü.example/\",\"valid\":true}\n"
    );
    // `--mode` is no option of extract: a URI found is validated as a URI.
    assert_eq!(code(&run(&["extract", "--mode", "uri"], b"")), 2);
}

/// Bytes browsers send as written but RFC 3986 does not allow where they
/// stand: `[` `]` after the host (PHP and Rails arrays, shields.io's JSON
/// paths) and a second `#` (Matrix rooms). The URI is taken as found and
/// validated as the URI with them percent-encoded, which `--to-uri`
/// prints; any other fault keeps it invalid, with its own error.
#[test]
fn browser_bytes_are_percent_encoded() {
    let text = "Matrix: https://matrix.to/#/#rust-url:mozilla.org and\n\
        http://a.com/x.php?a[]=1&b[0]=2. Not http://a.com/x[0]%zz or http://a.com/[::1]x%.\n\
        http://m\u{fc}ller.de/\u{fc}ber?a[]=1 http://[::1]/x http://b.org/p[1]#f#g\n";
    let o = run(&["extract"], text.as_bytes());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "https://matrix.to/#/#rust-url:mozilla.org\nhttp://a.com/x.php?a[]=1&b[0]=2\n\
         http://m\u{fc}ller.de/\u{fc}ber?a[]=1\nhttp://[::1]/x\nhttp://b.org/p[1]#f#g\n"
    );
    assert!(
        stderr(&o).contains("3 lines, 7 URIs found, 2 invalid"),
        "{}",
        stderr(&o)
    );
    let o = run(&["extract", "--to-uri"], text.as_bytes());
    assert_eq!(
        stdout(&o),
        "https://matrix.to/#/%23rust-url:mozilla.org\nhttp://a.com/x.php?a%5B%5D=1&b%5B0%5D=2\n\
         http://xn--mller-kva.de/%C3%BCber?a%5B%5D=1\nhttp://[::1]/x\nhttp://b.org/p%5B1%5D#f%23g\n"
    );
    let o = run(&["extract", "--all"], text.as_bytes());
    assert!(
        stdout(&o).contains("http://a.com/x[0]%zz\tinvalid: invalid character '[' in path\n"),
        "{}",
        stdout(&o)
    );
}

/// Documentation and code as found on a machine: a man page's troff (a URL
/// after a font change, its hyphens written `\-`), Markdown's `\_`, code
/// that only looks like an opaque URI, a template literal. Each line number
/// and byte offset is the URI's place in the text as written.
#[test]
fn man_pages_markdown_and_code() {
    let text =
        ".B \\fBhttps://en.wikipedia.org/wiki/Inter\\-Domain\\fR, \\(dqgs://bucket/a\\-b\\(dq\n\
        see http://c.org/user\\_manual.html and Data::Dumper, f(data:int), data:,hi\n\
        const u = `https://npm.im/${name}`; fetch(`http://${host}/`)\n";
    let o = run(&["extract", "-n", "--byte-offset"], text.as_bytes());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "1:6:https://en.wikipedia.org/wiki/Inter-Domain\n1:58:gs://bucket/a-b\n\
         2:4:http://c.org/user_manual.html\n2:66:data:,hi\n3:11:https://npm.im/\n"
    );
}
