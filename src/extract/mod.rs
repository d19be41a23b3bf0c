//! Finding URIs in free text and in web-server logs (`log.rs`).
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
//!    list (`src/extract/tlds.txt`: the ASCII top-level rules of the Public Suffix
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

mod log;
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
