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
//!    to the `>`: whitespace inside is removed and the `URL:` prefix dropped
//!    (within one line: uriscan's records are lines).
//!
//! A bare `http://` (nothing after the `//`) is no candidate. Each candidate
//! is then validated as a `URI` by the caller. Left out on
//! purpose: schemeless domains (`example.com/path`), which need a
//! public-suffix list.

use std::borrow::Cow;

use crate::table;

/// A URI found in text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<'a> {
    /// Where the URI starts in the text (its scheme's first byte).
    pub start: usize,
    /// The URI: borrowed from the text, or owned when whitespace or JSON
    /// escapes were removed.
    pub uri: Cow<'a, [u8]>,
}

const OPAQUE: [&[u8]; 5] = [b"mailto", b"urn", b"tel", b"data", b"news"];

/// Whether `b` may stand in a URI (its alphabet).
fn in_alphabet(b: u8) -> bool {
    crate::table::is(b, crate::table::URI_ALPHABET)
}

/// The URIs of `text`, in order of appearance (see the module docs).
///
/// ```
/// let text = b"See <URL:http://example.com/a b> and (http://en.wikipedia.org/wiki/Foo_(bar)).";
/// let found: Vec<_> = uriscan::extract(text).map(|f| f.uri.into_owned()).collect();
/// assert_eq!(found, [&b"http://example.com/ab"[..], b"http://en.wikipedia.org/wiki/Foo_(bar)"]);
/// ```
pub fn extract(text: &[u8]) -> Extract<'_> {
    Extract { text, pos: 0 }
}

/// The iterator of [`extract`].
#[derive(Clone, Debug)]
pub struct Extract<'a> {
    text: &'a [u8],
    pos: usize,
}

impl<'a> Iterator for Extract<'a> {
    type Item = Found<'a>;

    fn next(&mut self) -> Option<Found<'a>> {
        let text = self.text;
        while let Some(i) = memchr::memchr(b':', &text[self.pos..]) {
            let colon = self.pos + i;
            self.pos = colon + 1;
            // The scheme: scheme characters before the `:`, from a letter.
            let mut start = colon;
            while start > 0 && table::is(text[start - 1], table::SCHEME) {
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
                if let Some(gt) = memchr::memchr(b'>', &text[colon..]).map(|j| colon + j) {
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
            let mut end = colon + 1;
            while end < text.len() {
                let b = text[end];
                if in_alphabet(b) {
                    end += 1;
                } else if json && b == b'\\' && text.get(end + 1) == Some(&b'/') {
                    end += 2;
                } else {
                    break;
                }
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
                let opens = body.iter().filter(|&&b| b == open).count();
                let closes = body.iter().filter(|&&b| b == last).count();
                closes > opens
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogFields<'a> {
    /// The request method (`GET`), when the request line has one and needed
    /// no unescaping.
    pub method: Option<&'a [u8]>,
    /// The request target, unescaped (`/path?q`, `http://h/p`, `h:443`, `*`).
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
        let sp = memchr::memchr(b' ', &line[pos..])? + pos;
        if sp == pos {
            return None;
        }
        pos = sp + 1;
    }
    // [date]
    if line.get(pos) != Some(&b'[') {
        return None;
    }
    pos = memchr::memchr(b']', &line[pos..])? + pos + 1;
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
        let end = memchr::memchr(b' ', &line[pos..]).map_or(line.len(), |i| pos + i);
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
    let (method, target) = match request {
        Cow::Borrowed(r) => (method.map(|m| &r[m]), target.map(|t| Cow::Borrowed(&r[t]))),
        Cow::Owned(r) => (None, target.map(|t| Cow::Owned(r[t].to_vec()))),
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

/// The quoted field starting at `pos` (at its `"`): its unescaped bytes, the
/// offset of its first byte and the offset after its closing `"`.
fn quoted(line: &[u8], pos: usize) -> Option<(Cow<'_, [u8]>, usize, usize)> {
    if line.get(pos) != Some(&b'"') {
        return None;
    }
    let start = pos + 1;
    let mut i = start;
    let mut escaped = false;
    while i < line.len() {
        match line[i] {
            b'\\' => {
                escaped = true;
                i += 2;
            }
            b'"' => break,
            _ => i += 1,
        }
    }
    if i >= line.len() {
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
