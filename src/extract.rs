//! Finding URIs in free text and in web-server logs.
//!
//! Free text (RFC 3986 Appendix C and what linkifiers do):
//!
//! 1. Candidates are found from their `:` (memchr), never by a regular
//!    expression: the scheme is the run of scheme characters before it,
//!    starting at a letter, and the `:` must be followed by `//`, or by `\/\/`
//!    (a JSON string's escaped slashes, unescaped in the result), unless the
//!    scheme is one of those without an authority: `mailto`, `urn`, `tel`,
//!    `data`, `news`.
//! 2. A candidate ends at whitespace, a control byte, `"`, `<`, `>`, a
//!    backtick or any other byte outside the URI alphabet.
//! 3. Trailing `.` `,` `:` `;` `!` `?` `'` `*` are not part of it, and a
//!    closing `)` `]` `}` is kept only when it balances an opener inside it.
//! 4. A URI in angle brackets, `<http://example.com/a b>` or `<URL:...>`, runs
//!    to the `>`, across lines too: whitespace inside is removed and the
//!    `URL:` prefix dropped. Only URI characters and whitespace may stand
//!    between the brackets; otherwise rule 2 delimits the URI.
//!
//! A bare `http://` (nothing after the `//`) is no candidate. Each candidate
//! is then validated as a `URI` by the caller.
//!
//! Schemeless domains (`example.com/path`), only when asked
//! ([`Extract::schemeless`]), as linkifiers' "fuzzy" links:
//!
//! 5. A host of two or more labels (letters, digits, inner hyphens, 63 bytes
//!    at most each) whose last label is a top-level domain of the bundled
//!    list (`src/tlds.txt`: the ASCII top-level rules of the Public Suffix
//!    List's ICANN section; nothing is downloaded), then an optional `:port`
//!    and an optional path, query or fragment delimited as in 2 and 3.
//! 6. It must start the text or follow whitespace or one of `( [ { < " ' ,
//!    ;` and a backtick (so `user@example.com`, `a/b.com` and `x.example.com`
//!    inside a longer word are not taken), and must not run into a word or
//!    an `@` after it.
//! 7. A host alone with a two-letter (country-code) top-level domain and no
//!    `www.` is not taken: `main.rs`, `setup.py` and `README.md` are file
//!    names far more often than hosts. `www.example.rs` and `example.rs/x`
//!    are taken.
//! 8. The result is the candidate with `http://` in front (as linkifiers
//!    write it); `start` is where the host starts. A domain inside a URI
//!    with a scheme is part of that URI, not a second one.

use std::borrow::Cow;

use crate::classes;
use crate::simd::Backend;

/// A URI found in text.
///
/// ```
/// use std::borrow::Cow;
///
/// let text = br#"see http://example.com/a, or {"u":"http:\/\/b.example\/x"}"#;
/// let found: Vec<_> = uriscan::extract(text).collect();
/// assert_eq!(found.len(), 2);
/// // The trailing comma is not part of the URI, which is borrowed from the text.
/// assert_eq!(found[0].start, 4);
/// assert_eq!(found[0].uri, Cow::Borrowed(&b"http://example.com/a"[..]));
/// // A JSON string's escaped slashes are unescaped, in a copy.
/// assert_eq!(&text[found[1].start..][..5], b"http:");
/// assert!(matches!(found[1].uri, Cow::Owned(_)));
/// assert_eq!(&*found[1].uri, b"http://b.example/x");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<'a> {
    /// Where the URI starts in the text (its scheme's first byte, or its
    /// host's for a schemeless one).
    pub start: usize,
    /// The URI: borrowed from the text, or owned when whitespace or JSON
    /// escapes were removed.
    pub uri: Cow<'a, [u8]>,
}

const OPAQUE: [&[u8]; 5] = [b"mailto", b"urn", b"tel", b"data", b"news"];

/// Whether `b` may stand in a URI (its alphabet).
fn in_alphabet(b: u8) -> bool {
    crate::classes::is(b, crate::classes::URI_ALPHABET)
}

/// The URIs of `text`, in order of appearance (see the module docs).
///
/// ```
/// let text = b"See <URL:http://example.com/a b> and (http://en.wikipedia.org/wiki/Foo_(bar)).";
/// let found: Vec<_> = uriscan::extract(text).map(|f| f.uri.into_owned()).collect();
/// assert_eq!(found, [&b"http://example.com/ab"[..], b"http://en.wikipedia.org/wiki/Foo_(bar)"]);
/// ```
pub fn extract(text: &[u8]) -> Extract<'_> {
    Extract {
        text,
        pos: 0,
        schemeless: false,
        plain_pos: 0,
        ahead: None,
    }
}

/// The iterator of [`extract`].
///
/// Each candidate still has to be validated, with [`parse`](crate::parse) as a
/// URI:
///
/// ```
/// use uriscan::{extract, parse, Mode};
///
/// let text = b"a http://a.example/ok, b http://b%zz.example/ and urn:isbn:0451450523.";
/// let mut found = extract(text);
/// assert_eq!(&*found.next().unwrap().uri, b"http://a.example/ok");
/// assert_eq!(&*found.next().unwrap().uri, b"http://b%zz.example/");
/// assert_eq!(&*found.next().unwrap().uri, b"urn:isbn:0451450523");
/// assert!(found.next().is_none());
///
/// let valid: Vec<_> = extract(text).filter(|f| parse(&f.uri, Mode::Uri).is_ok()).collect();
/// assert_eq!(valid.len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Extract<'a> {
    text: &'a [u8],
    /// Where the search for URIs with a scheme goes on.
    pos: usize,
    schemeless: bool,
    /// Where the search for schemeless domains goes on.
    plain_pos: usize,
    /// The next URI with a scheme, found ahead of the schemeless ones.
    ahead: Option<Found<'a>>,
}

impl<'a> Extract<'a> {
    /// Also finds schemeless domains (`example.com/path`), written with
    /// `http://` in front (rules 5 to 8 of the module documentation).
    ///
    /// ```
    /// let text = b"Try example.com/docs, www.example.rs or http://a.example/; not main.rs.";
    /// let found: Vec<_> = uriscan::extract(text)
    ///     .schemeless(true)
    ///     .map(|f| String::from_utf8(f.uri.into_owned()).unwrap())
    ///     .collect();
    /// assert_eq!(found, ["http://example.com/docs", "http://www.example.rs", "http://a.example/"]);
    /// ```
    #[must_use]
    pub fn schemeless(mut self, on: bool) -> Extract<'a> {
        self.schemeless = on;
        self
    }

    /// The next URI with a scheme (rules 1 to 4).
    fn next_with_scheme(&mut self) -> Option<Found<'a>> {
        let text = self.text;
        while let Some(i) = memchr::memchr(b':', &text[self.pos..]) {
            let colon = self.pos + i;
            self.pos = colon + 1;
            // The scheme: scheme characters before the `:`, from a letter.
            let mut start = colon;
            while start > 0 && classes::is(text[start - 1], classes::SCHEME) {
                start -= 1;
            }
            while start < colon && !text[start].is_ascii_alphabetic() {
                start += 1;
            }
            if start == colon {
                continue;
            }
            let scheme = &text[start..colon];
            let rest = &text[colon + 1..];
            let json = rest.starts_with(b"\\/\\/");
            if !rest.starts_with(b"//")
                && !json
                && !OPAQUE.iter().any(|s| s.eq_ignore_ascii_case(scheme))
            {
                continue;
            }
            // Angle brackets: `<...>` or `<URL:...>` runs to the `>`.
            let before = &text[..start];
            let bracketed = before.ends_with(b"<")
                || (before.len() >= 5 && before[before.len() - 5..].eq_ignore_ascii_case(b"<URL:"));
            if bracketed {
                let gt = memchr::memchr(b'>', &text[colon..])
                    .map(|j| colon + j)
                    .filter(|&gt| {
                        text[start..gt]
                            .iter()
                            .all(|&b| in_alphabet(b) || b.is_ascii_whitespace())
                    });
                if let Some(gt) = gt {
                    let inner = &text[start..gt];
                    self.pos = gt + 1;
                    let uri = if inner.iter().any(u8::is_ascii_whitespace) {
                        Cow::Owned(
                            inner
                                .iter()
                                .copied()
                                .filter(|b| !b.is_ascii_whitespace())
                                .collect(),
                        )
                    } else {
                        Cow::Borrowed(inner)
                    };
                    return Some(Found { start, uri });
                }
            }
            // The extent: bytes of the URI alphabet (and `\/` in JSON).
            let mut end = alphabet_end(text, colon + 1);
            while json && text.get(end) == Some(&b'\\') && text.get(end + 1) == Some(&b'/') {
                end = alphabet_end(text, end + 2);
            }
            let end = trim(&text[start..end]) + start;
            self.pos = end.max(colon + 1);
            // Something must follow `//` (or the `:` of an opaque scheme).
            let prefix = if json {
                5
            } else if rest.starts_with(b"//") {
                3
            } else {
                1
            };
            if end <= colon + prefix {
                continue;
            }
            let raw = &text[start..end];
            let uri = if json {
                let mut v = Vec::with_capacity(raw.len());
                let mut k = 0;
                while k < raw.len() {
                    if raw[k] == b'\\' && raw.get(k + 1) == Some(&b'/') {
                        k += 1;
                    }
                    v.push(raw[k]);
                    k += 1;
                }
                Cow::Owned(v)
            } else {
                Cow::Borrowed(raw)
            };
            return Some(Found { start, uri });
        }
        self.pos = text.len();
        None
    }
}

impl<'a> Iterator for Extract<'a> {
    type Item = Found<'a>;

    fn next(&mut self) -> Option<Found<'a>> {
        if !self.schemeless {
            return self.next_with_scheme();
        }
        if self.ahead.is_none() {
            self.ahead = self.next_with_scheme();
        }
        // A schemeless domain before the next URI with a scheme comes first;
        // after that URI, the search goes on past it.
        let limit = self.ahead.as_ref().map_or(self.text.len(), |f| f.start);
        if let Some((found, end)) = find_schemeless(self.text, self.plain_pos, limit) {
            self.plain_pos = end;
            return Some(found);
        }
        let found = self.ahead.take()?;
        self.plain_pos = self.pos;
        Some(found)
    }
}

/// The top-level domains of `src/tlds.txt`, sorted.
fn tlds() -> &'static [&'static str] {
    static TLDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    TLDS.get_or_init(|| {
        let mut v: Vec<&str> = include_str!("tlds.txt")
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        v.sort_unstable();
        v
    })
}

/// Whether `label` (any case) is a top-level domain of the bundled list.
fn is_tld(label: &[u8]) -> bool {
    if label.len() > 24 {
        return false;
    }
    let mut buf = [0u8; 24];
    let lower = &mut buf[..label.len()];
    lower.copy_from_slice(label);
    lower.make_ascii_lowercase();
    tlds().binary_search_by(|t| t.as_bytes().cmp(lower)).is_ok()
}

/// Whether `b` may stand in a host name of a schemeless candidate.
fn is_host_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'.'
}

/// The first schemeless domain that starts in `text[from..limit]` and ends
/// by `limit` (rules 5 to 8), and where it ends.
fn find_schemeless(text: &[u8], from: usize, limit: usize) -> Option<(Found<'_>, usize)> {
    let text = &text[..limit];
    let mut pos = from;
    while let Some(i) = memchr::memchr(b'.', &text[pos.min(text.len())..]) {
        let dot = pos + i;
        // The run of host bytes around this dot.
        let mut start = dot;
        while start > 0 && is_host_byte(text[start - 1]) {
            start -= 1;
        }
        let mut end = dot;
        while end < text.len() && is_host_byte(text[end]) {
            end += 1;
        }
        pos = end.max(dot + 1);
        if start < from {
            continue;
        }
        if let Some(found) = schemeless_at(text, start, end) {
            return Some(found);
        }
    }
    None
}

/// The schemeless candidate whose host run is `text[start..end]`, if it is
/// one.
fn schemeless_at(text: &[u8], start: usize, run_end: usize) -> Option<(Found<'_>, usize)> {
    const BEFORE: &[u8] = b"([{<\"',;`";
    if start > 0 && !(text[start - 1].is_ascii_whitespace() || BEFORE.contains(&text[start - 1])) {
        return None;
    }
    // Trailing dots end a sentence, not the host.
    let mut host_end = run_end;
    while host_end > start && text[host_end - 1] == b'.' {
        host_end -= 1;
    }
    let host = &text[start..host_end];
    let mut labels = 0;
    for label in host.split(|&b| b == b'.') {
        if label.is_empty()
            || label.len() > 63
            || label[0] == b'-'
            || label[label.len() - 1] == b'-'
        {
            return None;
        }
        labels += 1;
    }
    let tld = host.rsplit(|&b| b == b'.').next().unwrap_or_default();
    if labels < 2 || !tld.iter().all(u8::is_ascii_alphabetic) || !is_tld(tld) {
        return None;
    }
    // Port, then path, query or fragment, delimited as for URIs.
    let mut end = host_end;
    if host_end == run_end && text.get(end) == Some(&b':') {
        // A port; an empty one only before a path, query or fragment.
        let digits = text[end + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits > 0 || matches!(text.get(end + 1), Some(b'/' | b'?' | b'#')) {
            end += 1 + digits;
        }
    }
    if (host_end == run_end || end > host_end) && matches!(text.get(end), Some(b'/' | b'?' | b'#'))
    {
        while end < text.len() && in_alphabet(text[end]) {
            end += 1;
        }
        end = start + trim(&text[start..end]);
    }
    let after = text.get(end).copied();
    if end == run_end && after.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'@' || b == b'_')
    {
        return None;
    }
    if after == Some(b'@') {
        return None;
    }
    let bare = end == host_end;
    if bare && tld.len() == 2 && !host[..4.min(host.len())].eq_ignore_ascii_case(b"www.") {
        return None;
    }
    let mut uri = b"http://".to_vec();
    uri.extend_from_slice(&text[start..end]);
    Some((
        Found {
            start,
            uri: Cow::Owned(uri),
        },
        end,
    ))
}

/// The end of the run of URI-alphabet bytes of `text` from `from`, found
/// with the SIMD classifier: only its `special` bytes need a look (`%` `@`
/// `[` `]` are in the alphabet, the others are not).
fn alphabet_end(text: &[u8], from: usize) -> usize {
    alphabet_end_with(Backend::current(), text, from)
}

/// [`alphabet_end`] with a chosen backend.
fn alphabet_end_with(backend: Backend, text: &[u8], from: usize) -> usize {
    let mut at = from;
    while at < text.len() {
        let special = match text.get(at..at + 64) {
            Some(block) => backend.classify(block.try_into().expect("64 bytes")),
            None => {
                // Zero bytes past the end are special, and end the run.
                let mut block = [0u8; 64];
                block[..text.len() - at].copy_from_slice(&text[at..]);
                backend.classify(&block)
            }
        }
        .special;
        let mut w = special;
        while w != 0 {
            let i = at + w.trailing_zeros() as usize;
            if i >= text.len() || !matches!(text[i], b'%' | b'@' | b'[' | b']') {
                return i.min(text.len());
            }
            w &= w - 1;
        }
        at += 64;
    }
    text.len()
}

/// The length of `uri` once trailing punctuation and unbalanced closers are
/// cut off.
fn trim(uri: &[u8]) -> usize {
    let mut end = uri.len();
    loop {
        let Some(&last) = uri[..end].last() else {
            return end;
        };
        let cut = match last {
            b'.' | b',' | b':' | b';' | b'!' | b'?' | b'\'' | b'*' => true,
            b')' | b']' | b'}' => {
                let open = match last {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                let body = &uri[..end];
                // Most often the URI has no opener (`(http://x/y)`): cut.
                memchr::memchr(open, body).is_none_or(|first| {
                    let opens = memchr::memchr_iter(open, &body[first..]).count();
                    let closes = memchr::memchr_iter(last, body).count();
                    closes > opens
                })
            }
            _ => false,
        };
        if !cut {
            return end;
        }
        end -= 1;
    }
}

/// The fields of a web-server access log line that hold URIs.
///
/// ```
/// use uriscan::{parse, Mode};
///
/// let line = br#"10.0.0.1 - - [01/Jan/2024:00:00:00 +0000] "CONNECT example.com:443 HTTP/1.1" 200 0 "-" "curl/8""#;
/// let f = uriscan::parse_log_line(line, true).unwrap();
/// assert_eq!(f.method, Some(&b"CONNECT"[..]));
/// // The authority-form target, written so that it parses as an authority.
/// let target = f.target.unwrap();
/// assert_eq!(&*target, b"//example.com:443");
/// assert_eq!(parse(&target, Mode::Reference)?.port_number(), Some(443));
/// assert_eq!(&line[f.target_at..][..15], b"example.com:443");
/// // A Referer of `-` is none.
/// assert_eq!(f.referer, None);
/// # Ok::<(), uriscan::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogFields<'a> {
    /// The request method (`GET`), when the request line has one and needed
    /// no unescaping.
    pub method: Option<&'a [u8]>,
    /// The request target, unescaped: origin-form `/path?q`, absolute-form
    /// `http://h/p`, `*`, or a CONNECT's authority-form `h:443` given as
    /// `//h:443` (so that it parses as an authority, not as a scheme and a
    /// path).
    pub target: Option<Cow<'a, [u8]>>,
    /// Where the target starts in the line.
    pub target_at: usize,
    /// The Referer, unescaped, unless `-` or absent (common format).
    pub referer: Option<Cow<'a, [u8]>>,
    /// Where the Referer starts in the line.
    pub referer_at: usize,
}

/// Splits an Apache/nginx `common` or `combined` access log line:
/// `host ident user [date] "request" status size` (`common`), then
/// `"referer" "user-agent"` (`combined`, which nginx writes by default).
/// Quoted fields are unescaped (`\"`, `\\`, `\xXX`). `None` when the line is
/// not of that shape.
///
/// ```
/// let line = br#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a%20b?x=1 HTTP/1.0" 200 2326 "http://example.com/\x41" "Mozilla""#;
/// let f = uriscan::parse_log_line(line, true).unwrap();
/// assert_eq!(f.target.as_deref(), Some(&b"/a%20b?x=1"[..]));
/// assert_eq!(f.referer.as_deref(), Some(&b"http://example.com/A"[..]));
/// ```
pub fn parse_log_line(line: &[u8], combined: bool) -> Option<LogFields<'_>> {
    // host ident user: three fields separated by spaces.
    let mut pos = 0;
    for _ in 0..3 {
        let sp = find_short(line, pos, b' ')?;
        if sp == pos {
            return None;
        }
        pos = sp + 1;
    }
    // [date]
    if line.get(pos) != Some(&b'[') {
        return None;
    }
    // `[10/Oct/2000:13:55:36 -0700]` is 28 bytes in every common log.
    // (A fold, not `contains`: no call for 26 bytes.)
    pos = if line.get(pos + 27) == Some(&b']')
        && !line[pos + 1..pos + 27]
            .iter()
            .fold(false, |a, &b| a | (b == b']'))
    {
        pos + 28
    } else {
        find_short(line, pos, b']')? + 1
    };
    if line.get(pos) != Some(&b' ') {
        return None;
    }
    pos += 1;
    let (request, request_at, after) = quoted(line, pos)?;
    pos = after;
    // status and size.
    for _ in 0..2 {
        if line.get(pos) != Some(&b' ') {
            return None;
        }
        pos += 1;
        let end = find_short(line, pos, b' ').unwrap_or(line.len());
        if end == pos {
            return None;
        }
        pos = end;
    }
    let (mut referer, mut referer_at) = (None, 0);
    if combined {
        if line.get(pos) != Some(&b' ') {
            return None;
        }
        let (r, at, _) = quoted(line, pos + 1)?;
        if &r[..] != b"-" && !r.is_empty() {
            referer = Some(r);
            referer_at = at;
        }
    }
    // "METHOD target PROTOCOL" (a target holding spaces keeps them), or a
    // bare target.
    let (method, target) = split_request(&request);
    let target_at = request_at + target.as_ref().map_or(0, |t| t.start);
    // A CONNECT's target is in authority-form (RFC 9112 section 3.2.3),
    // `host:port`, which would parse as a scheme and a path: it is given as
    // the network-path reference `//host:port`, whose authority it is.
    let connect = method.clone().is_some_and(|m| &request[m] == b"CONNECT");
    let (method, target) = match request {
        Cow::Borrowed(r) => (method.map(|m| &r[m]), target.map(|t| Cow::Borrowed(&r[t]))),
        Cow::Owned(r) => (None, target.map(|t| Cow::Owned(r[t].to_vec()))),
    };
    let target = match target {
        Some(t) if connect => Some(Cow::Owned([&b"//"[..], &t].concat())),
        t => t,
    };
    Some(LogFields {
        method,
        target,
        target_at,
        referer,
        referer_at,
    })
}

/// The method and target ranges of a request line.
fn split_request(
    r: &[u8],
) -> (
    Option<core::ops::Range<usize>>,
    Option<core::ops::Range<usize>>,
) {
    let first = memchr::memchr(b' ', r);
    let last = memchr::memrchr(b' ', r);
    match (first, last) {
        (Some(f), Some(l)) if f < l => (Some(0..f), Some(f + 1..l)),
        (None, None) if !r.is_empty() && r != b"-" => (None, Some(0..r.len())),
        _ => (None, None),
    }
}

/// The offset of the first `b` at or after `pos`: a plain loop, faster than
/// `memchr`'s set-up for the few bytes of a log line's short fields.
#[inline]
fn find_short(line: &[u8], pos: usize, b: u8) -> Option<usize> {
    line.get(pos..)?
        .iter()
        .position(|&x| x == b)
        .map(|i| pos + i)
}

/// The quoted field starting at `pos` (at its `"`): its unescaped bytes, the
/// offset of its first byte and the offset after its closing `"`.
fn quoted(line: &[u8], pos: usize) -> Option<(Cow<'_, [u8]>, usize, usize)> {
    if line.get(pos) != Some(&b'"') {
        return None;
    }
    let start = pos + 1;
    let mut i = start;
    let mut escaped = false;
    while let Some(j) = memchr::memchr2(b'\\', b'"', &line[i.min(line.len())..]) {
        i += j;
        if line[i] == b'"' {
            break;
        }
        escaped = true;
        i += 2;
    }
    if line.get(i) != Some(&b'"') {
        return None;
    }
    let raw = &line[start..i];
    if !escaped {
        return Some((Cow::Borrowed(raw), start, i + 1));
    }
    let mut v = Vec::with_capacity(raw.len());
    let mut k = 0;
    while k < raw.len() {
        if raw[k] == b'\\' && k + 1 < raw.len() {
            match raw[k + 1] {
                b'x' if k + 3 < raw.len()
                    && raw[k + 2].is_ascii_hexdigit()
                    && raw[k + 3].is_ascii_hexdigit() =>
                {
                    let h = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
                    v.push(h(raw[k + 2]) << 4 | h(raw[k + 3]));
                    k += 4;
                }
                b'n' => {
                    v.push(b'\n');
                    k += 2;
                }
                b't' => {
                    v.push(b'\t');
                    k += 2;
                }
                c => {
                    v.push(c);
                    k += 2;
                }
            }
        } else {
            v.push(raw[k]);
            k += 1;
        }
    }
    Some((Cow::Owned(v), start, i + 1))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Every backend's run of URI-alphabet bytes equals the table's.
        #[test]
        fn alphabet_end_agrees(
            text in prop::collection::vec(prop_oneof![
                8 => prop::sample::select(b"a/%@[]:?#".to_vec()),
                1 => any::<u8>(),
            ], 0..300),
            from in 0usize..300,
        ) {
            let from = from.min(text.len());
            let expected = text[from..]
                .iter()
                .position(|&b| !in_alphabet(b))
                .map_or(text.len(), |i| from + i);
            for backend in Backend::available() {
                prop_assert_eq!(alphabet_end_with(backend, &text, from), expected, "{}", backend.name());
            }
        }

        /// Trimming equals the rule as written: cut trailing punctuation, and
        /// a closer while the URI has more of it than of its opener.
        #[test]
        fn trim_follows_the_rule(
            uri in prop::collection::vec(prop::sample::select(b"a.,:;!?'*()[]{}".to_vec()), 0..40),
        ) {
            let mut end = uri.len();
            while let Some(&last) = uri[..end].last() {
                let count = |b: u8| uri[..end].iter().filter(|&&x| x == b).count();
                let cut = match last {
                    b'.' | b',' | b':' | b';' | b'!' | b'?' | b'\'' | b'*' => true,
                    b')' => count(b')') > count(b'('),
                    b']' => count(b']') > count(b'['),
                    b'}' => count(b'}') > count(b'{'),
                    _ => false,
                };
                if !cut {
                    break;
                }
                end -= 1;
            }
            prop_assert_eq!(trim(&uri), end);
        }
    }
}
