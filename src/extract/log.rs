//! The fields of web-server access log lines that hold URIs.

use std::borrow::Cow;

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
