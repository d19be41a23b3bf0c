//! The fields of access-log lines that hold URIs, in five formats
//! ([`LogFormat`]): Apache/nginx `common` and `combined` (here), W3C
//! extended logs as IIS and CloudFront write them (`log/w3c.rs`), AWS load
//! balancers' access logs (`log/alb.rs`) and JSON lines (`log/json.rs`).
//! [`LogParser`] reads a log line by line; a W3C log's meaning carries from
//! its `#Fields:` directive to the lines after it, so a parser is fed the
//! lines of one file in order. The URIs are given as the log holds them,
//! with the format's own escapes undone; they are validated by the caller.

use std::borrow::Cow;

use crate::simd::{Backend, Checked};

mod alb;
pub(super) mod json;
mod usual;
mod w3c;

/// A log format: which fields of a line are URIs and how they are written.
///
/// ```
/// use uriscan::LogFormat;
///
/// let lines: [&[u8]; 2] = [
///     b"#Version: 1.0",
///     b"#Fields: date time cs-uri-stem",
/// ];
/// assert_eq!(LogFormat::detect(lines), Some(LogFormat::W3c));
/// assert_eq!(LogFormat::W3c.name(), "w3c");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LogFormat {
    /// Apache `combined` (nginx's default): `common`, then `"referer"
    /// "user-agent"`. The request target and the Referer.
    Combined,
    /// Apache `common`: `host ident user [date] "request" status size`. The
    /// request target.
    Common,
    /// W3C extended (IIS, CloudFront): directives (`#Fields:` names the
    /// fields of the lines after it), then space- or TAB-separated fields.
    /// The target (`cs-uri-stem` and `cs-uri-query`, or `cs-uri`), made
    /// absolute where the line has a host, and `cs(Referer)`.
    W3c,
    /// AWS Application (and Classic) Load Balancer access logs. The URL of
    /// the `"request"` field (absolute there) and the ALB's `redirect_url`.
    Alb,
    /// One JSON object per line. The string at each dotted path given to
    /// [`LogParser::json`].
    Json,
}

/// How many lines [`LogFormat::detect`] looks at.
pub const DETECT_LINES: usize = 10;

impl LogFormat {
    /// Its name on the command line: `combined`, `common`, `w3c`, `alb`,
    /// `json`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            LogFormat::Combined => "combined",
            LogFormat::Common => "common",
            LogFormat::W3c => "w3c",
            LogFormat::Alb => "alb",
            LogFormat::Json => "json",
        }
    }

    /// The format of a log whose first lines these are (only the first
    /// [`DETECT_LINES`] are read; empty lines are skipped): `W3c` when the
    /// first starts with `#` (a directive), `Json` when it starts with `{`;
    /// otherwise whichever of `combined`, `alb` and `common` parses most of
    /// them, the first of these on a tie (a `combined` line is also a
    /// `common` one). `None` when no line is of any of them.
    ///
    /// ```
    /// use uriscan::LogFormat;
    ///
    /// let alb: &[u8] = br#"https 2024-01-01T00:00:00.000000Z app/lb/1 1.2.3.4:5 - 0 0 0 200 200 1 1 "GET https://h:443/ HTTP/1.1" "ua" - - arn "r" "-" "-" 0 2024-01-01T00:00:00.000000Z "forward" "-" "-" "-" "-" "-" "-""#;
    /// assert_eq!(LogFormat::detect([alb]), Some(LogFormat::Alb));
    /// assert_eq!(LogFormat::detect([&b"hello"[..]]), None);
    /// ```
    #[must_use]
    pub fn detect<'a>(lines: impl IntoIterator<Item = &'a [u8]>) -> Option<LogFormat> {
        let mut lines = lines
            .into_iter()
            .filter(|l| !l.is_empty())
            .take(DETECT_LINES)
            .peekable();
        match lines.peek()?.first() {
            Some(b'#') => return Some(LogFormat::W3c),
            Some(b'{') => return Some(LogFormat::Json),
            _ => {}
        }
        let candidates = [LogFormat::Combined, LogFormat::Alb, LogFormat::Common];
        let mut counts = [0usize; 3];
        for line in lines {
            for (n, &format) in counts.iter_mut().zip(&candidates) {
                let mut parser = LogParser::new(format);
                *n += usize::from(parser.parse_line(line, &mut Vec::new()));
            }
        }
        let best = (0..3).fold(0, |b, i| if counts[i] > counts[b] { i } else { b });
        (counts[best] > 0).then_some(candidates[best])
    }
}

/// A URI in a log line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogUri<'a> {
    /// Where the field it comes from starts in the line.
    pub at: usize,
    /// The URI: borrowed from the line, or owned when escapes were undone or
    /// it was put together from several fields.
    pub uri: Cow<'a, [u8]>,
    /// True when the parser found the URI valid as it read it (what
    /// [`crate::parse`] in [`crate::Mode::Reference`] says of it), as it
    /// does for the usual `common` and `combined` lines; false says nothing
    /// (validate it).
    pub known_valid: bool,
    /// True for a request target in origin-form (`/path?query`, RFC 9112
    /// section 3.2.1): an absolute path, which a base makes absolute with
    /// its scheme and authority even when it starts with `//` (the server's
    /// path `//x/y`, not the host `x`). False for any other URI (a Referer,
    /// an absolute-form target, a CONNECT's `//host:port`).
    pub origin_form: bool,
}

/// Reads the lines of a log of one format, in order, and gives the URIs of
/// each.
///
/// ```
/// use uriscan::{LogFormat, LogParser};
///
/// let mut p = LogParser::new(LogFormat::W3c);
/// let mut uris = Vec::new();
/// // Before any `#Fields:`, a data line means nothing.
/// assert!(!p.parse_line(b"2024-01-01 00:00:00 /a", &mut uris));
/// assert!(p.parse_line(b"#Fields: date time cs-uri-stem cs-uri-query cs-host", &mut uris));
/// assert!(p.parse_line(b"2024-01-01 00:00:00 /a q=1 example.com", &mut uris));
/// assert_eq!(&*uris[0].uri, b"http://example.com/a?q=1");
///
/// let mut p = LogParser::json(["request.uri"]);
/// uris.clear();
/// assert!(p.parse_line(br#"{"request":{"uri":"\/x?y=1"},"status":200}"#, &mut uris));
/// assert_eq!(&*uris[0].uri, b"/x?y=1");
/// assert!(!p.parse_line(b"{\"request\":", &mut uris));
/// ```
#[derive(Clone, Debug)]
pub struct LogParser {
    format: LogFormat,
    /// W3C: the fields named by the last `#Fields:`.
    w3c: Option<w3c::Fields>,
    /// JSON: the paths asked for.
    json: json::Paths,
    /// The classifier of the usual `common` and `combined` lines.
    backend: Checked,
}

impl LogParser {
    /// A parser of `format`; `LogFormat::Json` takes its paths from
    /// [`LogParser::json`] (this one finds nothing).
    #[must_use]
    pub fn new(format: LogFormat) -> LogParser {
        LogParser {
            format,
            w3c: None,
            json: json::Paths::default(),
            backend: Backend::current().checked(),
        }
    }

    /// A JSON-lines parser that takes the string at each of these dotted
    /// paths (`request.uri`: member `uri` of member `request`), in this
    /// order, from each line that has it. At most 64 paths; a path's parts
    /// are member names, never array indices.
    ///
    /// # Panics
    ///
    /// With more than 64 paths.
    #[must_use]
    pub fn json<S: AsRef<str>>(paths: impl IntoIterator<Item = S>) -> LogParser {
        LogParser {
            json: json::Paths::new(paths),
            ..LogParser::new(LogFormat::Json)
        }
    }

    /// Its format.
    #[must_use]
    pub fn format(&self) -> LogFormat {
        self.format
    }

    /// Forgets what earlier lines said (a W3C `#Fields:`), as at the start
    /// of a new file.
    pub fn start_file(&mut self) {
        self.w3c = None;
    }

    /// Appends the URIs of `line` (without its line terminator) to `out`;
    /// false when the line is not one of the format (and nothing is
    /// appended). A W3C directive is a line of the format with no URI.
    pub fn parse_line<'a>(&mut self, line: &'a [u8], out: &mut Vec<LogUri<'a>>) -> bool {
        match self.format {
            LogFormat::Combined | LogFormat::Common => {
                let combined = self.format == LogFormat::Combined;
                if usual::parse_line(line, combined, self.backend, out).is_some() {
                    return true;
                }
                let Some(f) = parse_log_line(line, combined) else {
                    return false;
                };
                if let Some(t) = f.target.filter(|t| &t[..] != b"*") {
                    out.push(LogUri {
                        at: f.target_at,
                        origin_form: f.origin_form,
                        uri: t,
                        known_valid: false,
                    });
                }
                if let Some(r) = f.referer {
                    out.push(LogUri {
                        at: f.referer_at,
                        uri: r,
                        known_valid: false,
                        origin_form: false,
                    });
                }
                true
            }
            LogFormat::W3c => w3c::parse_line(&mut self.w3c, line, out),
            LogFormat::Alb => alb::parse_line(line, out),
            LogFormat::Json => self.json.parse_line(line, out),
        }
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
    /// Whether the target is in origin-form (`/path?q`, RFC 9112 section
    /// 3.2.1): a path, even when it starts with `//`; not a CONNECT's.
    pub origin_form: bool,
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
    let pos = head(line)?;
    let (request, request_at, after) = quoted(line, pos)?;
    let pos = status_size(line, after)?;
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
    // Any other target that starts with `/` is a path, `//` or not.
    let origin_form = !connect && target.as_ref().is_some_and(|t| t.starts_with(b"/"));
    Some(LogFields {
        method,
        target,
        target_at,
        origin_form,
        referer,
        referer_at,
    })
}

/// Where the `"` of the request starts, after `host ident user [date] `;
/// `None` when the line does not start so.
#[inline]
pub(super) fn head(line: &[u8]) -> Option<usize> {
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
    Some(pos + 1)
}

/// The offset after ` status size`, which start at `pos` (at the space
/// before the status); `None` when either is missing.
#[inline]
pub(super) fn status_size(line: &[u8], mut pos: usize) -> Option<usize> {
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
    Some(pos)
}

/// The method and target ranges of a request line.
pub(crate) fn split_request(
    r: &[u8],
) -> (
    Option<core::ops::Range<usize>>,
    Option<core::ops::Range<usize>>,
) {
    // The method is a few bytes, and the protocol (`HTTP/1.1`) is eight:
    // plain loops and a look at the usual place, where `memchr`'s set-up
    // costs more than the search.
    let first = r.iter().position(|&b| b == b' ');
    let usual = r
        .len()
        .checked_sub(9)
        .filter(|&l| r[l] == b' ' && !r[l + 1..].contains(&b' '));
    let last = usual.or_else(|| memchr::memrchr(b' ', r));
    match (first, last) {
        (Some(f), Some(l)) if f < l => (Some(0..f), Some(f + 1..l)),
        // HTTP/0.9's `GET /path`, with no protocol: a target that starts
        // with `/` (other lines of one space are no request).
        (Some(f), Some(_)) if r.get(f + 1) == Some(&b'/') => (Some(0..f), Some(f + 1..r.len())),
        (None, None) if !r.is_empty() && r != b"-" => (None, Some(0..r.len())),
        _ => (None, None),
    }
}

/// The offset of the first `b` at or after `pos`: eight bytes a word, then
/// a plain loop, faster than `memchr`'s set-up for the few bytes of a log
/// line's short fields.
#[inline]
fn find_short(line: &[u8], pos: usize, b: u8) -> Option<usize> {
    let mut i = pos;
    while let Some(w) = line.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        if let Some(k) = first_byte(u64::from_le_bytes(*w), b) {
            return Some(i + k);
        }
        i += 8;
    }
    line.get(i..)?.iter().position(|&x| x == b).map(|k| i + k)
}

/// The index of the first byte `b` of the eight of `w` (little-endian).
#[inline(always)]
fn first_byte(w: u64, b: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let x = w ^ (ONES * u64::from(b));
    // A zero byte of `x` sets its high bit here; a byte above the first
    // zero may be set falsely (by the borrow), never one below it.
    let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
    (zero != 0).then(|| zero.trailing_zeros() as usize / 8)
}

/// The quoted field starting at `pos` (at its `"`): its unescaped bytes, the
/// offset of its first byte and the offset after its closing `"`.
pub(crate) fn quoted(line: &[u8], pos: usize) -> Option<(Cow<'_, [u8]>, usize, usize)> {
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

    /// [`head`] as the format says it, a byte at a time: three fields
    /// ended by a space each, then a `[`, the date up to the first `]`,
    /// and a space.
    fn head_as_written(line: &[u8]) -> Option<usize> {
        let mut pos = 0;
        for _ in 0..3 {
            let sp = pos + line[pos..].iter().position(|&b| b == b' ')?;
            if sp == pos {
                return None;
            }
            pos = sp + 1;
        }
        if line.get(pos) != Some(&b'[') {
            return None;
        }
        let end = pos + line[pos..].iter().position(|&b| b == b']')?;
        (line.get(end + 1) == Some(&b' ')).then_some(end + 2)
    }

    /// The usual 28-byte date is taken at once; any other `]` before its
    /// place, or none there, and the first `]` ends the date.
    #[test]
    fn head_ends_the_date_at_its_first_bracket() {
        let date = b"[10/Oct/2000:13:55:36 -0700]";
        let line = |date: &[u8], rest: &[u8]| [&b"h i u "[..], date, rest].concat();
        let usual = line(date, b" \"GET / HTTP/1.0\" 200 5");
        assert_eq!(head(&usual), Some(35));
        // A `]` at the usual place, but one before it ends the date.
        let early = line(b"[x] \"GET /aaaaaaaaaaaaaaaaa] HTTP/1.0\"", b"");
        assert_eq!(head(&early), Some(10));
        let two = line(b"[x]]] \"GET /aaaaaaaaaaaaaaa] HTTP/1.0\"", b"");
        assert_eq!(head(&two), None);
        let three = line(b"[x]]]] \"GET /aaaaaaaaaaaaaa] HTTP/1.0\"", b"");
        assert_eq!(head(&three), None);
        // A longer date with a space where the usual one ends, and a `]`
        // far on in the line.
        let mut long = line(b"[10/Oct/2000:13:55:36 -07000 x]", b" \"GET /");
        long.resize(200, b'a');
        long[6 * 27] = b']';
        assert_eq!(head(&long), Some(38));
        for l in [usual, early, two, three, long] {
            assert_eq!(
                head(&l),
                head_as_written(&l),
                "{:?}",
                String::from_utf8_lossy(&l)
            );
        }
    }

    proptest! {
        /// [`head`] finds what [`head_as_written`] finds, on lines with
        /// the usual date's length, with `]`s before its end, and others.
        #[test]
        fn head_is_as_written(
            fields in prop::collection::vec(prop::sample::select(b"a ".to_vec()), 0..8),
            date in prop_oneof![
                prop::collection::vec(prop::sample::select(b"0: ]".to_vec()), 26..=26),
                prop::collection::vec(prop::sample::select(b"0:/ ]".to_vec()), 0..40),
            ],
            close in prop::sample::select(b"] a".to_vec()),
            rest in prop::collection::vec(prop::sample::select(b"a ]\"".to_vec()), 0..200),
        ) {
            let line = [&fields[..], b" [", &date, &[close], &rest].concat();
            prop_assert_eq!(head(&line), head_as_written(&line));
        }

        /// `find_short` finds what `position` finds.
        #[test]
        fn find_short_is_position(
            line in prop::collection::vec(prop::sample::select(b" ]a\x00\x80\xff".to_vec()), 0..40),
            pos in 0usize..44,
            b in prop::sample::select(b" ]a\x00\x80\xff".to_vec()),
        ) {
            let expected = line
                .get(pos..)
                .and_then(|l| l.iter().position(|&x| x == b))
                .map(|k| pos + k);
            prop_assert_eq!(find_short(&line, pos, b), expected);
        }

        /// The request line's split equals that of its first and last
        /// spaces found with `memchr` (the fast path looks at the usual
        /// place of the last one first).
        #[test]
        fn split_request_is_first_and_last_space(
            r in prop::collection::vec(prop::sample::select(b"GET /aHTP1. ".to_vec()), 0..40),
        ) {
            let expected = match (memchr::memchr(b' ', &r), memchr::memrchr(b' ', &r)) {
                (Some(f), Some(l)) if f < l => (Some(0..f), Some(f + 1..l)),
                (Some(f), Some(_)) if r.get(f + 1) == Some(&b'/') => (Some(0..f), Some(f + 1..r.len())),
                (None, None) if !r.is_empty() && r != b"-" => (None, Some(0..r.len())),
                _ => (None, None),
            };
            prop_assert_eq!(split_request(&r), expected);
        }
    }
}
