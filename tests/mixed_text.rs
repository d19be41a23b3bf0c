//! Mixed text with known URLs for extraction's precision and recall
//! (tests/extract.rs) and for the comparison with other extractors
//! (`examples/mixed_text.rs`, scripts/compare-extractors.sh).

use crate::gen::Rng;

/// Mixed text with known URLs, built from parts (never chosen with
/// uriscan's parser): prose, Markdown, HTML, JSON, chat with CJK, code,
/// logs (JSON lines, coloured terminal output) and forums (BBCode), each
/// URL in the delimiters its context uses.
pub fn generate(seed: u64, n: usize) -> (String, Vec<String>) {
    let mut r = Rng(seed);
    let schemes = ["http", "https", "https", "ftp"];
    let hosts = [
        "example.com",
        "www.example.org",
        "a.b.example.net",
        "例え.テスト",
        "müller.de",
        "localhost:8080",
        "192.0.2.7",
        "[2001:db8::1]",
        "user@host.example",
    ];
    let segs = [
        "wiki",
        "Foo_(bar)",
        "a-b",
        "日本",
        "über",
        "index.html",
        "v1.2",
        "~user",
        "%E2%82%AC",
        "x,y",
        "a;b=c",
        "it's",
    ];
    let queries = [
        "",
        "",
        "?q=1",
        "?a=1&b=2",
        "?q=caf%C3%A9",
        "?x=1;y=2",
        "?q=検索",
    ];
    let frags = ["", "", "", "#top", "#sec-2.1", "#L10-L20"];
    let words = [
        "the",
        "see",
        "also",
        "12:30",
        "ratio 1:2",
        "e.g.",
        "(note)",
        "key:value",
        "C:\\dir",
        "次に",
        "見て",
        "foo.bar",
        "a@b.c",
        "→",
    ];
    let mut text = String::new();
    let mut urls = Vec::new();
    for _ in 0..n {
        for _ in 0..r.below(6) {
            text.push_str(words[r.below(words.len())]);
            text.push(' ');
        }
        let mut u = format!(
            "{}://{}",
            schemes[r.below(schemes.len())],
            hosts[r.below(hosts.len())]
        );
        for _ in 0..r.below(4) {
            u.push('/');
            u.push_str(segs[r.below(segs.len())]);
        }
        if r.below(3) == 0 {
            u.push('/');
        }
        u.push_str(queries[r.below(queries.len())]);
        u.push_str(frags[r.below(frags.len())]);
        let (wrapped, expected) = match r.below(20) {
            0 => (format!("{u} "), u.clone()),
            1 => (format!("({u}) "), u.clone()),
            2 => (format!("{u}. "), u.clone()),
            3 => (format!("<{u}> "), u.clone()),
            4 => (format!("[link]({u}) "), u.clone()),
            5 => {
                urls.push(u.clone());
                (format!("[{u}]({u}) "), u.clone())
            }
            6 => (
                format!("<a href=\"{}\">x</a> ", u.replace('&', "&amp;")),
                u.clone(),
            ),
            7 => (
                format!("{{\"url\":\"{}\"}} ", u.replace('/', "\\/")),
                u.clone(),
            ),
            8 => (format!("{{\"url\": \"{u}\"}}, "), u.clone()),
            9 => (format!("见（{u}）。"), u.clone()),
            10 => (format!("「{u}」、"), u.clone()),
            11 => (format!("{u}，谢谢 "), u.clone()),
            12 => (format!("fetch('{u}'); "), u.clone()),
            13 => (format!("<{u}|label> "), u.clone()),
            14 => (format!("{u}?! "), u.clone()),
            // A JSON log line as Go writes it: a line break before the
            // URL, `&` as `\u0026`.
            15 => (
                format!("{{\"msg\":\"done\\n{}\"}} ", u.replace('&', "\\u0026")),
                u.clone(),
            ),
            // Coloured terminal output, a BBCode link, Markdown emphasis.
            // (Half of them with their ESCs lost, as some viewers and
            // pastes leave them.)
            16 if r.below(2) == 0 => (format!("[1;32m{u}[0m "), u.clone()),
            16 => (format!("\x1b[1;32m{u}\x1b[0m "), u.clone()),
            17 => (format!("[url]{u}[/url] "), u.clone()),
            18 => (format!("_{u}_ "), u.clone()),
            _ => (format!("Referer: \"{u}\" "), u.clone()),
        };
        // A URL that ends in what its context trims is written that way
        // only where the context delimits it (brackets, quotes).
        text.push_str(&wrapped);
        urls.push(expected);
        if r.below(5) == 0 {
            text.push('\n');
        }
    }
    (text, urls)
}
