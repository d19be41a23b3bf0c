//! The deterministic corpus generator shared by `examples/gencorpus.rs` and the
//! benchmarks: realistic URI lines (mean about 60 bytes) with about 3% invalid
//! lines of known kinds. The same seed always gives the same bytes.

use std::io::{self, Write};

/// SplitMix64: tiny, fast and good enough to pick words.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const HOSTS: &[&str] = &[
    "example.com",
    "www.example.org",
    "en.wikipedia.org",
    "github.com",
    "news.ycombinator.com",
    "docs.rs",
    "crates.io",
    "www.bbc.co.uk",
    "cdn.jsdelivr.net",
    "api.twitter.com",
    "maps.google.com",
    "www.amazon.de",
    "static.xx.fbcdn.net",
    "s3.amazonaws.com",
    "login.microsoftonline.com",
    "www.nytimes.com",
    "archive.org",
    "web.archive.org",
    "stackoverflow.com",
    "forum.example.net",
    "shop.example.co.jp",
    "xn--bcher-kva.example",
];
const WORDS: &[&str] = &[
    "index",
    "about",
    "blog",
    "2024",
    "news",
    "article",
    "products",
    "search",
    "images",
    "static",
    "js",
    "css",
    "wiki",
    "Main_Page",
    "user",
    "settings",
    "v1",
    "api",
    "items",
    "download",
    "releases",
    "tag",
    "category",
    "Foo_(bar)",
    "page",
    "docs",
    "latest",
    "src",
    "lib.rs",
    "assets",
    "img",
    "photo.jpg",
    "style.css",
    "app.min.js",
    "feed.xml",
    "caf%C3%A9",
    "a%20b",
    "~user",
    "data",
    "report.pdf",
];
const KEYS: &[&str] = &[
    "q",
    "id",
    "page",
    "utm_source",
    "utm_medium",
    "ref",
    "lang",
    "sort",
    "s",
    "v",
    "fbclid",
    "session",
    "limit",
    "offset",
    "filter",
];
const VALUES: &[&str] = &[
    "1",
    "42",
    "en",
    "desc",
    "newsletter",
    "rust+uri",
    "hello%20world",
    "a%2Fb",
    "true",
    "x-y_z",
    "2024-01-31",
    "%E2%9C%93",
    "",
];

fn path(r: &mut Rng, out: &mut String) {
    for _ in 0..2 + r.below(4) {
        out.push('/');
        out.push_str(r.pick(WORDS));
    }
    if r.chance(15) {
        out.push('/');
    }
}

fn query(r: &mut Rng, out: &mut String) {
    out.push('?');
    for i in 0..1 + r.below(4) {
        if i > 0 {
            out.push('&');
        }
        out.push_str(r.pick(KEYS));
        out.push('=');
        out.push_str(r.pick(VALUES));
    }
}

fn host(r: &mut Rng, out: &mut String) {
    match r.below(100) {
        0..=3 => out.push_str(&format!(
            "{}.{}.{}.{}",
            r.below(256),
            r.below(256),
            r.below(256),
            r.below(256)
        )),
        4..=5 => out.push_str(r.pick(&[
            "[2001:db8::1]",
            "[::1]",
            "[fe80::1:2:3:4]",
            "[2001:db8:85a3:0:0:8a2e:370:7334]",
            "[::ffff:192.0.2.128]",
            "[v1.fe80::a+en1]",
        ])),
        _ => out.push_str(r.pick(HOSTS)),
    }
}

fn http(r: &mut Rng, out: &mut String) {
    out.push_str(if r.chance(70) { "https://" } else { "http://" });
    if r.chance(2) {
        out.push_str(r.pick(&["user@", "user:pass@", "a%40b@"]));
    }
    host(r, out);
    if r.chance(6) {
        out.push_str(r.pick(&[":8080", ":443", ":80", ":3000", ":"]));
    }
    path(r, out);
    if r.chance(55) {
        query(r, out);
    }
    if r.chance(10) {
        out.push('#');
        out.push_str(r.pick(&["top", "section-2", "", "L10-L20", "/route?x=1"]));
    }
}

fn line(r: &mut Rng, out: &mut String) {
    match r.below(100) {
        0..=74 => http(r, out),
        75..=76 => {
            out.push_str("mailto:");
            out.push_str(r.pick(&["someone", "info", "a.b+c"]));
            out.push('@');
            out.push_str(r.pick(HOSTS));
        }
        77 => out.push_str(r.pick(&[
            "urn:isbn:0451450523", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
            "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66",
        ])),
        78 => out.push_str(r.pick(&["tel:+1-816-555-1212", "tel:+44-20-7946-0958"])),
        79..=80 => {
            out.push_str("file:///");
            out.push_str(r.pick(&["home/user", "usr/share/doc", "C:/Windows"]));
            path(r, out);
        }
        81 => out.push_str(r.pick(&[
            "data:text/plain;charset=utf-8,Hello%2C%20World",
            "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        ])),
        82..=83 => out.push_str(r.pick(&[
            "ftp://ftp.is.co.za/rfc/rfc1808.txt", "ldap://[2001:db8::7]/c=GB?objectClass?one",
            "news:comp.infosystems.www.servers.unix", "telnet://192.0.2.16:80/",
            "git+ssh://git@github.com/rust-lang/rust.git", "ws://example.com:8080/chat",
        ])),
        84..=96 => {
            // Relative references.
            match r.below(4) {
                0 => path(r, out),
                1 => {
                    out.push_str("../");
                    out.push_str(r.pick(WORDS));
                }
                2 => {
                    out.push_str("//");
                    out.push_str(r.pick(HOSTS));
                    path(r, out);
                }
                _ => {
                    path(r, out);
                    query(r, out);
                }
            }
        }
        _ => {
            // About 3% invalid lines, of known kinds.
            http(r, out);
            match r.below(7) {
                0 => out.push_str("/a b"),
                1 => out.push_str("/100%"),
                2 => out.push_str("?q=%zz"),
                3 => *out = out.replacen("://", "://[1:2:3:4:5:6:7:8:9]/", 1),
                4 => *out = format!("http://{}:http/", r.pick(HOSTS)),
                5 => out.push_str("/caf\u{e9}"),
                _ => *out = format!("1{out}"),
            }
        }
    }
}

/// Writes URI lines until `lines` lines or `bytes` bytes are written
/// (whichever is given; 5000 lines when neither is).
#[allow(dead_code)]
pub fn generate<W: Write>(
    seed: u64,
    lines: Option<u64>,
    bytes: Option<u64>,
    out: &mut W,
) -> io::Result<()> {
    generate_kind(Kind::Uris, seed, lines, bytes, out)
}

/// The kind of text [`generate_kind`] writes.
#[allow(dead_code)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One URI reference per line (the default).
    Uris,
    /// Apache combined access-log lines: the target is a path with a query,
    /// the Referer a generated URI.
    Log,
    /// Markdown/HTML-like prose with about one URI per 100 bytes, in
    /// parentheses, angle brackets, `href="..."` or followed by punctuation.
    Text,
}

/// Like [`generate`], for any [`Kind`].
#[allow(dead_code)]
pub fn generate_kind<W: Write>(
    kind: Kind,
    seed: u64,
    lines: Option<u64>,
    bytes: Option<u64>,
    out: &mut W,
) -> io::Result<()> {
    let mut r = Rng(seed);
    let mut s = String::with_capacity(1024);
    let mut u = String::with_capacity(512);
    let (mut n, mut written) = (0u64, 0u64);
    let words = [
        "the", "crawler", "found", "a", "link", "to", "see", "also", "and", "at", "12:30", "e.g.",
        "**note**", "`code`",
    ];
    loop {
        if lines.is_some_and(|l| n >= l) || bytes.is_some_and(|b| written >= b) {
            break;
        }
        if lines.is_none() && bytes.is_none() && n >= 5000 {
            break;
        }
        s.clear();
        match kind {
            Kind::Uris => line(&mut r, &mut s),
            Kind::Log => {
                u.clear();
                path(&mut r, &mut u);
                if r.chance(50) {
                    query(&mut r, &mut u);
                }
                let method = r.pick(&["GET", "GET", "GET", "POST", "HEAD"]);
                s.push_str(&format!(
                    "{}.{}.{}.{} - - [17/May/2015:10:05:{:02} +0000] \"{method} {u} HTTP/1.1\" {} {} \"",
                    r.below(256), r.below(256), r.below(256), r.below(256), r.below(60),
                    r.pick(&["200", "200", "304", "404"]), r.below(50000)
                ));
                if r.chance(70) {
                    u.clear();
                    http(&mut r, &mut u);
                    s.push_str(&u);
                } else {
                    s.push('-');
                }
                s.push_str("\" \"Mozilla/5.0 (X11; Linux x86_64)\"");
            }
            Kind::Text => {
                for _ in 0..1 + r.below(3) {
                    for _ in 0..3 + r.below(6) {
                        s.push_str(r.pick(&words));
                        s.push(' ');
                    }
                    u.clear();
                    http(&mut r, &mut u);
                    match r.below(5) {
                        0 => s.push_str(&format!("({u}) ")),
                        1 => s.push_str(&format!("<{u}> ")),
                        2 => s.push_str(&format!("[link]({u}) ")),
                        3 => s.push_str(&format!("<a href=\"{u}\">x</a> ")),
                        _ => s.push_str(&format!("{u}. ")),
                    }
                }
            }
        }
        s.push('\n');
        out.write_all(s.as_bytes())?;
        written += s.len() as u64;
        n += 1;
    }
    Ok(())
}

/// A generated corpus of about `bytes` bytes, in memory.
#[allow(dead_code)]
pub fn corpus(seed: u64, bytes: u64) -> Vec<u8> {
    corpus_of(Kind::Uris, seed, bytes)
}

/// [`corpus`] of any [`Kind`].
#[allow(dead_code)]
pub fn corpus_of(kind: Kind, seed: u64, bytes: u64) -> Vec<u8> {
    let mut v = Vec::with_capacity(bytes as usize + 1024);
    generate_kind(kind, seed, None, Some(bytes), &mut v).expect("writing to a Vec");
    v
}
