//! Finding URIs in free text and in web-server logs (`log.rs`).
//!
//! Free text (RFC 3986 Appendix C and what linkifiers do):
//!
//! 1. Candidates are found from their `:` (memchr), never by a regular
//!    expression: the scheme is the run of scheme characters before it,
//!    starting at a letter, and the `:` must be followed by `//`, or by `\/\/`
//!    (a JSON string's escaped slashes, unescaped in the result), unless the
//!    scheme is one of those without an authority: `mailto`, `urn`, `tel`,
//!    `data`, `news`, followed by that scheme's syntax (`opaque.rs`:
//!    not `Data::Dumper`). Right after a string escape (`\n`, `\u003c`:
//!    JSON, code), a terminal colour code (`ESC[32m`) or troff's markup
//!    (`\fB`, `\(dq`: man pages) the scheme starts past it, as their
//!    letters are scheme characters.
//! 2. A candidate runs over bytes of the URI alphabet and over the non-ASCII
//!    characters an IRI may hold (`iri.rs`: RFC 3987's `ucschar` and
//!    `iprivate`, less full-width, CJK and general punctuation); it ends at
//!    whitespace, a control byte, `"`, `<`, `>`, a backtick, invalid UTF-8
//!    and any other byte or character outside those. A string escape
//!    `\uXXXX` of such a character (as JSON encoders write `&` or `é`),
//!    and markup's `\-` and `\_` (troff, Markdown), continue it and are
//!    undone in the result, but for the punctuation and brackets that
//!    rule 3 judges by position.
//! 3. After a `'` it ends at the next `'` not followed by a letter or digit;
//!    `(` `)` and `[` `]` stay when balanced, and the first closer that
//!    closes no opener of the URI ends it (`[a](http://x/b)`,
//!    `(http://a/)(http://b/)`); then trailing `.` `,` `:` `;` `!` `?` `'`
//!    `*` and openers are not part of it, nor, after a Markdown emphasis
//!    opener (`_`, `__`, `~~`), the same closer. In an HTML attribute value (after `="`
//!    or `='`) or element text (after a `>`), `&amp;` and numeric references
//!    to URI characters are decoded; an HTML reference to a
//!    character that ends a URI (`&quot;`, `&gt;`, `&nbsp;`, `&#8203;`)
//!    ends it, anywhere.
//! 4. A URI in angle brackets, `<http://example.com/a b>` or `<URL:...>`, runs
//!    to the `>`, across lines too: whitespace inside is removed and the
//!    `URL:` prefix dropped. Only URI characters and whitespace may stand
//!    between the brackets; otherwise rule 2 delimits the URI.
//!
//! docs/EXTRACT.md has these rules as a table, with an example each. Every
//! rule is linear in the text: each byte is looked at a bounded number of
//! times, whatever the text (`tests::linear_on_hostile_text`).
//!
//! A bare `http://` (nothing after the `//`) is no candidate. Each candidate
//! is then validated as a `URI` by the caller.
//!
//! Schemeless domains (`example.com/path`), only when asked
//! ([`Extract::schemeless`]), as linkifiers' "fuzzy" links:
//!
//! 5. A host of two or more labels (letters, digits, inner hyphens, 63 bytes
//!    at most each) whose last label is a top-level domain of the bundled
//!    list (`src/extract/tlds.txt`: the ASCII top-level rules of the Public Suffix
//!    List's ICANN section; nothing is downloaded), then an optional `:port`
//!    and an optional path, query or fragment delimited as in 2 and 3.
//! 6. It must start the text or follow whitespace or one of `( [ { < " ' ,
//!    ;` and a backtick, or a string escape of one (`\n`, `\u003c`), so
//!    `user@example.com`, `a/b.com` and `x.example.com` inside a longer word
//!    are not taken; and it must not run into a word or an `@` after it.
//! 7. A host alone with a two-letter (country-code) top-level domain and no
//!    `www.` is not taken: `main.rs`, `setup.py` and `README.md` are file
//!    names far more often than hosts. `www.example.rs` and `example.rs/x`
//!    are taken. Nor is a host alone right before `(` or `[`: a call or an
//!    index in code (`trio.run(main)`), whose last name is a top-level
//!    domain too.
//! 8. The result is the candidate with `http://` in front (as linkifiers
//!    write it); `start` is where the host starts. A domain inside a URI
//!    with a scheme is part of that URI, not a second one.

use std::borrow::Cow;

use crate::classes;
use crate::grammar::{Error, Mode};
use crate::simd::Backend;
use crate::uri::Uri;
use cut::{cut, is_trailing};
use escape::{colour_code_len, csi_end, escape_before, escape_len, troff_end, unescape, unescaped};
use opaque::{opaque_fits, OPAQUE};
use scan::Scan;

mod cut;
mod escape;
mod iri;
mod log;
mod opaque;
mod scan;
pub use iri::{found_to_uri, iri_to_uri};
pub use log::{parse_log_line, LogFields, LogFormat, LogParser, LogUri, DETECT_LINES};

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
///
/// // So are string escapes of URI characters (Go writes `&` so).
/// let found: Vec<_> = uriscan::extract(br#"{"url":"http://c.example/?a=1\u0026b=2"}"#).collect();
/// assert_eq!(&*found[0].uri, b"http://c.example/?a=1&b=2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<'a> {
    /// Where the URI starts in the text (its scheme's first byte, or its
    /// host's for a schemeless one).
    pub start: usize,
    /// The URI: borrowed from the text, or owned when whitespace, JSON
    /// escapes or HTML's references to URI characters (`&amp;`, in an
    /// attribute or an element's text) were undone.
    pub uri: Cow<'a, [u8]>,
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
        bracket_stop: 0,
        bracket_space: 0,
        run: Run::default(),
        json_run: Run::default(),
        plain_run: Run::default(),
        scan: Scan::new(Backend::current()),
        plain_scan: Scan::new(Backend::current()),
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
    /// Where the last search for the `>` of a bracketed URI (rule 4) stopped:
    /// the first byte after its `:` that is neither a URI byte nor
    /// whitespace. Every byte before it from that `:` on is one, so a later
    /// bracketed candidate before it stops there too: remembering it keeps
    /// `<http://a ` repeated without `>` linear instead of quadratic.
    bracket_stop: usize,
    /// One past the last whitespace byte that search passed over (0 for
    /// none): the bytes of a candidate after that `:` hold whitespace, to
    /// be dropped, exactly when it lies past the candidate's start.
    bracket_space: usize,
    /// The last run of URI bytes of a URI with a scheme, of one in a JSON
    /// string, and of a schemeless one (see [`Run`]).
    run: Run,
    json_run: Run,
    plain_run: Run,
    /// The masks of the text around the search for URIs with a scheme, and
    /// around the search for schemeless ones (each moves forward on its
    /// own, so each keeps its blocks).
    scan: Scan,
    plain_scan: Scan,
}

/// The last run of URI bytes found: a candidate that starts inside it ends
/// where it ends (every byte between is a URI byte), so a run that rule 3
/// cut short is not scanned again from each candidate inside it, which
/// would make `http://a/)` repeated quadratic.
#[derive(Clone, Debug)]
struct Run {
    last: Option<(usize, usize)>,
    /// Where the last run's first escape (`\/` or [`string_escape`]) is,
    /// `usize::MAX` when it has none: most URIs have none, and need no
    /// search for one.
    escape: usize,
}

impl Default for Run {
    fn default() -> Run {
        Run {
            last: None,
            escape: usize::MAX,
        }
    }
}

impl Run {
    /// The end of the run of URI-alphabet bytes and IRI characters of
    /// `text` from `from`, string escapes of them included
    /// ([`string_escape`]); with `json`, escaped slashes `\/` continue it.
    #[inline(always)]
    fn end(&mut self, scan: &mut Scan, text: &[u8], from: usize, json: bool) -> usize {
        if let Some((start, end)) = self.last {
            if (start..=end).contains(&from) {
                return end;
            }
        }
        let mut end = scan.alphabet_end(text, from);
        self.escape = usize::MAX;
        loop {
            if let Some(n) = iri::char_len(text, end) {
                end = scan.alphabet_end(text, end + n);
                continue;
            }
            let escaped = match text.get(end) {
                Some(b'\\') => escape_len(text, end, json),
                _ => None,
            };
            let Some(n) = escaped else {
                break;
            };
            self.escape = self.escape.min(end);
            end = scan.alphabet_end(text, end + n);
        }
        self.last = Some((from, end));
        end
    }

    /// Whether the last run has an escape before `end`.
    fn escaped_before(&self, end: usize) -> bool {
        self.escape < end
    }
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

    /// How many bytes of the text extraction has looked at so far (each
    /// byte counted once per look): the linear-time checks (the unit tests
    /// and the `extract` fuzz target) bound it by a multiple of the text's
    /// length. Not an API: it may change or go.
    #[doc(hidden)]
    #[must_use]
    pub fn work(&self) -> usize {
        self.scan.work + self.plain_scan.work
    }

    /// [`parse`](crate::parse) of `found`'s URI, one this iterator has just
    /// given: the same result, from the masks the search classified its
    /// bytes into when they are still at hand (a URI borrowed from the text,
    /// the last found, of 8 to 128 bytes), instead of classifying them
    /// again.
    ///
    /// # Errors
    ///
    /// As [`parse`](crate::parse): the URI is not valid in `mode`.
    ///
    /// ```
    /// use uriscan::Mode;
    ///
    /// let mut found = uriscan::extract(b"see http://a.example/ok and http://b%zz/.");
    /// let a = found.next().unwrap();
    /// assert!(found.parse(&a, Mode::Uri).is_ok());
    /// let b = found.next().unwrap();
    /// assert_eq!(found.parse(&b, Mode::Uri), uriscan::parse(&b.uri, Mode::Uri));
    /// ```
    pub fn parse<'f>(&self, found: &'f Found<'a>, mode: Mode) -> Result<Uri<'f>, Error> {
        match found.uri {
            Cow::Borrowed(uri) if is_at(self.text, found.start, uri) => {
                self.scan.parse(found.start, uri, mode)
            }
            _ => crate::parse(&found.uri, mode),
        }
    }

    /// The next URI with a scheme (rules 1 to 4).
    fn next_with_scheme(&mut self) -> Option<Found<'a>> {
        let text = self.text;
        while let Some(colon) = self.scan.colon(text, self.pos) {
            self.pos = colon + 1;
            // The scheme: scheme characters before the `:`, from a letter.
            // `:` is no scheme character, so each byte is looked at by one
            // colon's scan at most.
            let mut start = colon;
            while start > 0 && classes::is(text[start - 1], classes::SCHEME) {
                start -= 1;
            }
            self.scan.work(colon - start);
            let run = start;
            while start < colon && !text[start].is_ascii_alphabetic() {
                start += 1;
            }
            // After a string escape (`\nhttp://`) or a terminal colour
            // code (`ESC[32mhttp://`), from past it (C7b, C1b).
            if let Some((past, _)) = past_markup(&mut self.scan, text, run) {
                start = past.min(colon);
                while start < colon && !text[start].is_ascii_alphabetic() {
                    start += 1;
                }
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
            self.scan.candidate(text, start);
            // Angle brackets: `<...>` or `<URL:...>` runs to the `>`.
            let before = &text[..start];
            let bracketed = before.ends_with(b"<")
                || (before.len() >= 5 && before[before.len() - 5..].eq_ignore_ascii_case(b"<URL:"));
            if bracketed {
                if self.bracket_stop <= colon {
                    let mut stop = colon;
                    self.bracket_space = 0;
                    loop {
                        stop = self.scan.alphabet_end(text, stop);
                        match text.get(stop) {
                            Some(b) if b.is_ascii_whitespace() => {
                                stop += 1;
                                self.bracket_space = stop;
                            }
                            _ => match iri::char_len(text, stop) {
                                Some(n) => stop += n,
                                None => break,
                            },
                        }
                    }
                    self.bracket_stop = stop;
                }
                let gt = Some(self.bracket_stop).filter(|&gt| text.get(gt) == Some(&b'>'));
                if let Some(gt) = gt {
                    let inner = &text[start..gt];
                    self.pos = gt + 1;
                    // (The scheme's bytes before the `:` are no whitespace.)
                    let uri = if self.bracket_space > start {
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
            // The extent: the run of URI bytes (rule 2), cut by rule 3.
            let run_end = if json {
                self.json_run.end(&mut self.scan, text, colon + 1, true)
            } else {
                self.run.end(&mut self.scan, text, colon + 1, false)
            };
            let end = cut(&mut self.scan, text, start, colon + 1, run_end);
            self.pos = end.max(colon + 1);
            // Something must follow `//` (or the `:` of an opaque scheme),
            // and more than a userinfo: `git+ssh://git@${host}/` is a
            // template whose host is to come, not a URI (C1).
            let prefix = if json {
                5
            } else if rest.starts_with(b"//") {
                3
            } else {
                1
            };
            if end <= colon + prefix
                || (prefix == 1 && !opaque_fits(scheme, &text[colon + 1..end]))
                || (prefix > 1 && text[end - 1] == b'@')
            {
                continue;
            }
            let raw = &text[start..end];
            let uri = if json || self.run.escaped_before(end) {
                Cow::Owned(unescaped(raw, json))
            } else if in_markup(before) && has_uri_reference(raw) {
                Cow::Owned(decode_uri_references(raw))
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
        let (run, scan) = (&mut self.plain_run, &mut self.plain_scan);
        if let Some((found, end)) = find_schemeless(self.text, self.plain_pos, limit, run, scan) {
            self.plain_pos = end;
            return Some(found);
        }
        let found = self.ahead.take()?;
        self.plain_pos = self.pos;
        Some(found)
    }
}

/// Whether `part` is the bytes of `text` from `start` (the same memory, not
/// only the same bytes).
fn is_at(text: &[u8], start: usize, part: &[u8]) -> bool {
    text.get(start..start.saturating_add(part.len()))
        .is_some_and(|t| std::ptr::eq(t, part))
}

/// The top-level domains of `src/extract/tlds.txt`, sorted.
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

/// Where the string escape (`\n`, `\u003c`: rule C7b), the troff markup
/// (`\fB`, `\(dq`: C7b) or the terminal colour code (`ESC[32m`: C1b) that
/// runs on into `text[at]` ends, and whether it parts a schemeless host
/// from what stands before it (rule 6: a colour code and troff's markup
/// do, an escape of whitespace or of an opener does). Their
/// last letters and digits are scheme and host characters, so a URI right
/// after one starts past it. Rare: one byte compared inline, the rest out
/// of line.
#[inline(always)]
fn past_markup(scan: &mut Scan, text: &[u8], at: usize) -> Option<(usize, bool)> {
    match at.checked_sub(1).map(|i| text[i]) {
        Some(b'\\' | b'[' | b';') => markup_end(scan, text, at),
        // (Inline, the usual `(http://`'s test: troff's `\(`, `\*(`, `\f(`.)
        Some(b'(') if at >= 2 && matches!(text[at - 2], b'\\' | b'*' | b'f') => {
            markup_end(scan, text, at)
        }
        _ => None,
    }
}

/// [`past_markup`] after its `\`, `[`, `;` or `(`.
#[inline(never)]
fn markup_end(scan: &mut Scan, text: &[u8], at: usize) -> Option<(usize, bool)> {
    if let Some(end) = troff_end(scan, text, at) {
        return Some((end, true));
    }
    match text[at - 1] {
        b'\\' => {
            let (c, n) = escape_before(scan, text, at)?;
            Some((at + n, c.is_some_and(|c| c.is_ascii() && opens(c as u8))))
        }
        b'(' => None,
        _ => csi_end(scan, text, at).map(|end| (end, true)),
    }
}

/// Whether a schemeless host may follow `b` (rule 6): whitespace or one of
/// `( [ { < " ' , ;` and a backtick.
fn opens(b: u8) -> bool {
    b.is_ascii_whitespace() || b"([{<\"',;`".contains(&b)
}

/// Whether `b` may stand in a host name of a schemeless candidate.
fn is_host_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'.'
}

/// The first schemeless domain that starts in `text[from..limit]` and ends
/// by `limit` (rules 5 to 8), and where it ends.
fn find_schemeless<'t>(
    full: &'t [u8],
    from: usize,
    limit: usize,
    run: &mut Run,
    scan: &mut Scan,
) -> Option<(Found<'t>, usize)> {
    let text = &full[..limit];
    let mut pos = from;
    while let Some(i) = memchr::memchr(b'.', &text[pos.min(text.len())..]) {
        scan.work(i + 1);
        let dot = pos + i;
        // The run of host bytes around this dot. The search goes on past its
        // end, so each run is looked at once, except what lies before `from`.
        let mut start = dot;
        while start > from && is_host_byte(text[start - 1]) {
            start -= 1;
        }
        if start == from && start > 0 && is_host_byte(text[start - 1]) {
            start -= 1;
        }
        let mut end = dot;
        while end < text.len() && is_host_byte(text[end]) {
            end += 1;
        }
        scan.work(end - start);
        pos = end.max(dot + 1);
        if start < from {
            continue;
        }
        if let Some(found) = schemeless_at(full, limit, start, end, run, scan) {
            return Some(found);
        }
    }
    None
}

/// The schemeless candidate whose host run is `full[start..end]`, if it is
/// one and ends by `limit`.
fn schemeless_at<'t>(
    full: &'t [u8],
    limit: usize,
    mut start: usize,
    run_end: usize,
    run: &mut Run,
    scan: &mut Scan,
) -> Option<(Found<'t>, usize)> {
    let text = &full[..limit];
    match past_markup(scan, text, start) {
        Some((past, true)) if past < run_end => start = past,
        Some(_) => return None,
        None if start > 0 && !opens(text[start - 1]) => return None,
        None => {}
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
        scan.work(digits);
        if digits > 0 || matches!(text.get(end + 1), Some(b'/' | b'?' | b'#')) {
            end += 1 + digits;
        }
    }
    // (Dots that end a sentence stand at `end` when the host lost them.)
    if matches!(text.get(end), Some(b'/' | b'?' | b'#')) {
        let path_end = run.end(scan, full, end, false).min(limit);
        end = cut(scan, text, start, host_end, path_end);
    }
    // A name that runs on into `_` (`a.com_b`) or `@` is no domain; the
    // host run has taken every letter, digit, `-` and `.` there.
    let after = text.get(end).copied();
    if after == Some(b'@') || (end == run_end && after == Some(b'_')) {
        return None;
    }
    let bare = end == host_end;
    // A call or an index in code (`trio.run(main)`, `r.data[0]`), whose
    // last name is a top-level domain too.
    // (A colour code that lost its ESC, `[0m`, is no index: rule C1b.)
    if bare
        && (after == Some(b'(') || (after == Some(b'[') && colour_code_len(&text[end..]).is_none()))
    {
        return None;
    }
    if bare && tld.len() == 2 && !host[..4.min(host.len())].eq_ignore_ascii_case(b"www.") {
        return None;
    }
    let mut uri = b"http://".to_vec();
    if run.escaped_before(end) {
        unescape(&text[start..end], false, &mut uri);
    } else {
        uri.extend_from_slice(&text[start..end]);
    }
    Some((
        Found {
            start,
            uri: Cow::Owned(uri),
        },
        end,
    ))
}

/// Whether `raw` holds an HTML character reference that
/// [`decode_uri_references`] decodes.
fn has_uri_reference(raw: &[u8]) -> bool {
    memchr::memchr_iter(b'&', raw).any(|i| uri_reference(&raw[i..]).is_some())
}

/// Whether a URI after `before` is HTML's: an attribute's value (`href="`,
/// `href='`, or `href=\"` in a JSON string), or an element's text (right
/// after a tag's `>`: after a name, a quote or the `/` of `<br/>`; not an
/// arrow's `->` or `=>`, nor a quoted mail's `> `), where `&amp;` means `&`.
fn in_markup(before: &[u8]) -> bool {
    match before {
        [.., b'=', b'"' | b'\''] | [.., b'=', b'\\', b'"'] => true,
        [.., b, b'>'] => b.is_ascii_alphanumeric() || matches!(b, b'"' | b'\'' | b'/'),
        _ => false,
    }
}

/// The byte and length of the HTML character reference that `bytes`
/// starts with, when it stands for a URI character: `&amp;`, or a numeric
/// reference (`&#38;`, `&#x26;`, `&#39;`, `&#x2F;`) to an ASCII byte of
/// the URI alphabet but `%` (which would make an escape of what follows).
fn uri_reference(bytes: &[u8]) -> Option<(u8, usize)> {
    if bytes.starts_with(b"&amp;") {
        return Some((b'&', 5));
    }
    let rest = bytes.strip_prefix(b"&#")?;
    let (hex, digits) = match rest.first()? {
        b'x' | b'X' => (true, &rest[1..]),
        _ => (false, rest),
    };
    let n = digits
        .iter()
        .take(7)
        .take_while(|b| {
            if hex {
                b.is_ascii_hexdigit()
            } else {
                b.is_ascii_digit()
            }
        })
        .count();
    if n == 0 || digits.get(n) != Some(&b';') {
        return None;
    }
    let value = u32::from_str_radix(
        core::str::from_utf8(&digits[..n]).ok()?,
        if hex { 16 } else { 10 },
    )
    .ok()?;
    let b = u8::try_from(value)
        .ok()
        .filter(|&b| classes::is(b, classes::QUERY | classes::GEN_OTHER))?;
    Some((b, bytes.len() - digits.len() + n + 1))
}

/// `raw` with each reference of [`uri_reference`] decoded.
fn decode_uri_references(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut at = 0;
    while let Some(i) = memchr::memchr(b'&', &raw[at..]) {
        let amp = at + i;
        out.extend_from_slice(&raw[at..amp]);
        match uri_reference(&raw[amp..]) {
            Some((b, len)) => {
                out.push(b);
                at = amp + len;
            }
            None => {
                out.push(b'&');
                at = amp + 1;
            }
        }
    }
    out.extend_from_slice(&raw[at..]);
    out
}

#[cfg(test)]
mod tests;
