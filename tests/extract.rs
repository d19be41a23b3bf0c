//! Extraction from free text: tricky cases, and precision and recall on a
//! generated text whose inserted URIs are known.

use uriscan::{extract, parse, Mode};

use crate::gen::Rng;

fn found(text: &str) -> Vec<String> {
    extract(text.as_bytes())
        .map(|f| String::from_utf8(f.uri.into_owned()).unwrap())
        .collect()
}

#[test]
fn tricky_cases() {
    let cases: &[(&str, &[&str])] = &[
        (
            "(see http://en.wikipedia.org/wiki/Foo_(bar))",
            &["http://en.wikipedia.org/wiki/Foo_(bar)"],
        ),
        ("(see http://example.com/x)", &["http://example.com/x"]),
        ("[http://example.com/a[1]]", &["http://example.com/a[1]"]),
        ("{http://example.com/}", &["http://example.com/"]),
        ("Go to http://example.com/a.", &["http://example.com/a"]),
        ("Really? http://example.com/a?!", &["http://example.com/a"]),
        ("'http://example.com/q'", &["http://example.com/q"]),
        ("\"http://example.com/q\"", &["http://example.com/q"]),
        (
            "list: http://a.example/,http://b.example/;",
            &["http://a.example/,http://b.example/"],
        ),
        (
            "[text](https://md.example/page) and ![img](http://i.example/p.png)",
            &["https://md.example/page", "http://i.example/p.png"],
        ),
        (
            "<a href=\"http://html.example/x?y=1\">x</a>",
            &["http://html.example/x?y=1"],
        ),
        (
            "{\"url\":\"https:\\/\\/json.example\\/a\\/b?c=d\"}",
            &["https://json.example/a/b?c=d"],
        ),
        ("<http://example.com/a b\tc>", &["http://example.com/abc"]),
        ("<URL:http://example.com/x>", &["http://example.com/x"]),
        // Appendix C's own example: brackets hold a URI across a line break.
        (
            "Looking at the header of the current RFC, <http://www.ietf.org/rfc/\nrfc2396.txt>",
            &["http://www.ietf.org/rfc/rfc2396.txt"],
        ),
        // Not URI characters between the brackets: delimited as usual.
        (
            "<http://example.com/a \"quoted\"> x",
            &["http://example.com/a"],
        ),
        (
            "http://start.example/ text http://end.example/",
            &["http://start.example/", "http://end.example/"],
        ),
        (
            "mailto:me@example.com, urn:isbn:0451450523.",
            &["mailto:me@example.com", "urn:isbn:0451450523"],
        ),
        (
            "tel:+1-816-555-1212 news:comp.lang.rust data:text/plain,hi",
            &[
                "tel:+1-816-555-1212",
                "news:comp.lang.rust",
                "data:text/plain,hi",
            ],
        ),
        ("time 12:30, ratio 1:2, key:value, C:\\dir", &[]),
        (
            "`http://code.example/x` and http://a.example/`b`",
            &["http://code.example/x", "http://a.example/"],
        ),
        (
            "ftp://files.example/pub/file.txt*",
            &["ftp://files.example/pub/file.txt"],
        ),
        ("xhttp://weird.example/", &["xhttp://weird.example/"]),
        ("1http://digit.example/", &["http://digit.example/"]),
        ("http://a.example/é", &["http://a.example/"]),
        ("HTTP://UPPER.EXAMPLE/", &["HTTP://UPPER.EXAMPLE/"]),
        ("http://", &[]),
        ("http:// space", &[]),
    ];
    for (text, expected) in cases {
        assert_eq!(found(text), *expected, "{text}");
    }
}

/// Appendix C's `<URL:...>` prefix is matched in any case; whitespace inside
/// the brackets tells whether the bracket rule applied (without it the URI
/// would end at the space).
#[test]
fn url_prefix_in_brackets_is_case_insensitive() {
    for prefix in ["URL:", "url:", "Url:", "uRl:"] {
        let text = format!("see <{prefix}http://example.com/a b\nc> now");
        assert_eq!(found(&text), ["http://example.com/abc"], "{text:?}");
    }
    // Not a `URL:` prefix: `<URI:` is no bracket, so the URI ends at the space.
    assert_eq!(
        found("<URI:http://example.com/a b>"),
        ["http://example.com/a"]
    );
}

/// A JSON-escaped `http:\/\/` needs at least one byte after the escaped
/// slashes, exactly as a plain `http://` does: the shortest candidate found
/// is `http:\/\/x`, and `http:\/\/` (one byte shorter) is none.
#[test]
fn json_escaped_candidate_minimum_length() {
    assert_eq!(found(r#"{"u":"http:\/\/x"}"#), ["http://x"]);
    assert_eq!(found(r"http:\/\/x"), ["http://x"]);
    assert_eq!(found(r#"{"u":"http:\/\/"}"#), Vec::<String>::new());
    assert_eq!(found(r"http:\/\/"), Vec::<String>::new());
    // Trailing punctuation is cut first, so nothing is left after `\/\/`.
    assert_eq!(found(r"http:\/\/."), Vec::<String>::new());
    // The same boundary unescaped.
    assert_eq!(found("http://x"), ["http://x"]);
    assert_eq!(found("http://"), Vec::<String>::new());
}

#[test]
fn precision_and_recall_on_generated_text() {
    let corpus =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/sample.txt"))
            .unwrap();
    let uris: Vec<&str> = corpus
        .lines()
        .filter(|l| l.starts_with("http") && parse(l.as_bytes(), Mode::Uri).is_ok())
        .filter(|l| !l.ends_with(['.', ',', ':', ';', '!', '?', '\'', '*', ')', ']', '}']))
        .collect();
    let words = [
        "the",
        "crawler",
        "found",
        "a",
        "link",
        "to",
        "see",
        "also",
        "and",
        "12:30",
        "ratio 1:2",
        "e.g.",
        "(note)",
        "key:value",
    ];
    let mut r = Rng(42);
    let mut text = String::new();
    let mut inserted = Vec::new();
    for i in 0..3000 {
        for _ in 0..r.below(8) {
            text.push_str(words[r.below(words.len())]);
            text.push(' ');
        }
        let u = uris[i % uris.len()];
        let wrapped = match r.below(8) {
            0 => format!("{u} "),
            1 => format!("({u}) "),
            2 => format!("{u}. "),
            3 => format!("<{u}> "),
            4 => format!("[link]({u}) "),
            5 => format!("<a href=\"{u}\">x</a> "),
            6 => format!("{{\"u\":\"{}\"}} ", u.replace('/', "\\/")),
            _ => format!("'{u}', "),
        };
        text.push_str(&wrapped);
        inserted.push(u.to_string());
        if r.below(5) == 0 {
            text.push('\n');
        }
    }
    let got = found(&text);
    let hits = got.iter().zip(&inserted).filter(|(a, b)| a == b).count();
    let precision = hits as f64 / got.len() as f64;
    let recall = hits as f64 / inserted.len() as f64;
    eprintln!(
        "extraction: precision {precision:.4}, recall {recall:.4} on {} URIs",
        inserted.len()
    );
    assert_eq!(got.len(), inserted.len(), "one URI found per URI inserted");
    assert!(
        precision >= 0.999 && recall >= 0.999,
        "precision {precision} recall {recall}"
    );
}

#[test]
fn log_request_lines() {
    let line = |req: &str| format!("h - - [d] \"{req}\" 200 1 \"-\" \"ua\"");
    let target = |req: &str| {
        let l = line(req);
        uriscan::parse_log_line(l.as_bytes(), true)
            .unwrap()
            .target
            .map(|t| String::from_utf8(t.into_owned()).unwrap())
    };
    assert_eq!(target("GET /a?b HTTP/1.1"), Some("/a?b".into()));
    assert_eq!(target("GET /a b HTTP/1.1"), Some("/a b".into()));
    // Authority-form, as a network-path reference: an authority, not a
    // scheme `h.example` and a path `443`.
    assert_eq!(
        target("CONNECT h.example:443 HTTP/1.1"),
        Some("//h.example:443".into())
    );
    assert_eq!(
        target("CONNECT [::1]:8443 HTTP/1.1"),
        Some("//[::1]:8443".into())
    );
    assert_eq!(
        target("CONNECT \\x68.example:443 HTTP/1.1"),
        Some("//h.example:443".into())
    );
    let connect = target("CONNECT h.example:443 HTTP/1.1").unwrap();
    let uri = uriscan::parse(connect.as_bytes(), uriscan::Mode::Reference).unwrap();
    assert_eq!(
        (uri.scheme(), uri.host(), uri.port(), uri.path()),
        (None, Some("h.example"), Some("443"), "")
    );
    assert_eq!(
        target("GET h.example:443 HTTP/1.1"),
        Some("h.example:443".into())
    );
    assert_eq!(target("OPTIONS * HTTP/1.1"), Some("*".into()));
    assert_eq!(target("/bare"), Some("/bare".into()));
    assert_eq!(target("-"), None);
    assert_eq!(target("GET /\\x41\\\"q HTTP/1.1"), Some("/A\"q".into()));
    let l = line("GET /p HTTP/1.0");
    let f = uriscan::parse_log_line(l.as_bytes(), true).unwrap();
    assert_eq!(f.method, Some(&b"GET"[..]));
    assert_eq!(&l.as_bytes()[f.target_at..f.target_at + 2], b"/p");
    assert_eq!(f.referer, None);
    assert!(uriscan::parse_log_line(b"h - - [d] \"GET / HTTP/1.0\" 200", true).is_none());
    assert!(uriscan::parse_log_line(b"not a log line", false).is_none());
}

fn found_schemeless(text: &str) -> Vec<String> {
    extract(text.as_bytes())
        .schemeless(true)
        .map(|f| String::from_utf8(f.uri.into_owned()).unwrap())
        .collect()
}

#[test]
fn schemeless_cases() {
    let cases: &[(&str, &[&str])] = &[
        ("example.com", &["http://example.com"]),
        ("Visit Example.COM today.", &["http://Example.COM"]),
        (
            "(see en.wikipedia.org/wiki/Foo_(bar))",
            &["http://en.wikipedia.org/wiki/Foo_(bar)"],
        ),
        (
            "x.example.org:8080/p?q=1#f,",
            &["http://x.example.org:8080/p?q=1#f"],
        ),
        ("at example.com:443.", &["http://example.com:443"]),
        ("\"example.co.uk/a\"", &["http://example.co.uk/a"]),
        (
            "www.example.rs and example.rs/x",
            &["http://www.example.rs", "http://example.rs/x"],
        ),
        // File names, versions, abbreviations, e-mail, paths: none.
        ("main.rs setup.py README.md", &[]),
        ("e.g. i.e. v1.2.3 3.14 U.S.A.", &[]),
        ("mail bob@example.com", &[]),
        ("a/b.com c:d.com x_y.com", &[]),
        ("example.invalidtld/x example.", &[]),
        ("-bad-.com bad-.com a..com", &[]),
        // A domain inside a URI with a scheme belongs to that URI.
        (
            "http://example.com/a.b.com then b.org",
            &["http://example.com/a.b.com", "http://b.org"],
        ),
        (
            "a.com http://b.com/ c.com",
            &["http://a.com", "http://b.com/", "http://c.com"],
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(&found_schemeless(text), expected, "{text:?}");
    }
    // Off by default.
    assert!(found("example.com/x").is_empty());
}

#[test]
fn schemeless_precision_and_recall_on_generated_text() {
    let corpus =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/sample.txt"))
            .unwrap();
    // Web URLs with a public top-level domain and no userinfo, written
    // without their scheme.
    let hosts: Vec<String> = corpus
        .lines()
        .filter(|l| parse(l.as_bytes(), Mode::Uri).is_ok())
        .filter_map(|l| l.strip_prefix("https://").or(l.strip_prefix("http://")))
        .filter(|rest| {
            let host = rest.split(['/', '?', '#', ':']).next().unwrap();
            !rest.contains('@')
                && [".com", ".org", ".io", ".de", ".uk", ".jp"]
                    .iter()
                    .any(|t| host.ends_with(t))
        })
        .filter(|l| !l.ends_with(['.', ',', ':', ';', '!', '?', '\'', '*', ')', ']', '}']))
        .map(str::to_string)
        .collect();
    assert!(hosts.len() > 1000, "{}", hosts.len());
    let words = [
        "the",
        "crawler",
        "found",
        "main.rs",
        "setup.py",
        "README.md",
        "e.g.",
        "v1.2.3",
        "bob@example.com",
        "12:30",
        "3.14",
        "U.S.",
        "see",
        "(note)",
        "key:value",
    ];
    let mut r = Rng(7);
    let mut text = String::new();
    let mut inserted = Vec::new();
    for i in 0..3000 {
        for _ in 0..r.below(8) {
            text.push_str(words[r.below(words.len())]);
            text.push(' ');
        }
        let u = &hosts[i % hosts.len()];
        let wrapped = match r.below(7) {
            0 => format!("{u} "),
            1 => format!("({u}) "),
            2 => format!("{u}. "),
            3 => format!("<{u}> "),
            4 => format!("[link]({u}) "),
            5 => format!("<a href=\"{u}\">x</a> "),
            _ => format!("'{u}', "),
        };
        text.push_str(&wrapped);
        inserted.push(format!("http://{u}"));
        if r.below(5) == 0 {
            text.push('\n');
        }
    }
    let got = found_schemeless(&text);
    let hits = got.iter().filter(|g| inserted.contains(g)).count();
    let precision = hits as f64 / got.len() as f64;
    let recall =
        got.iter().zip(&inserted).filter(|(a, b)| a == b).count() as f64 / inserted.len() as f64;
    eprintln!(
        "schemeless extraction: precision {precision:.4}, recall {recall:.4} on {} domains",
        inserted.len()
    );
    assert_eq!(
        got.len(),
        inserted.len(),
        "one URI found per domain inserted"
    );
    assert!(
        precision >= 0.999 && recall >= 0.999,
        "precision {precision} recall {recall}"
    );
}
