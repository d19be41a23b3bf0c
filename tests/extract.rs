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
    assert_eq!(
        target("CONNECT h.example:443 HTTP/1.1"),
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
