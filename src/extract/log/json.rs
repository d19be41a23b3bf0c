//! JSON lines (RFC 8259, one object per line): the strings at dotted paths.
//!
//! A small strict scanner, not a JSON library: each line is read once, left
//! to right, and must be one JSON object and nothing else (whitespace
//! aside), or it is not a line of the format. Values off the paths asked for
//! are checked and skipped, never built; a string on a path is decoded
//! (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\uXXXX` with surrogate
//! pairs), borrowed from the line when it has no escape; an empty string
//! and `-` (what loggers write for an absent value) give no URI. What it leaves out
//! on purpose: array indices in paths (a path's parts are member names);
//! values other than strings on a path (a number or `null` there gives no
//! URI); nesting deeper than [`MAX_DEPTH`] (such a line is refused, so that
//! the scanner's recursion is bounded); checking that the bytes inside
//! strings are UTF-8 (they are passed on as they are). With duplicate
//! member names, the first wins.

use std::borrow::Cow;

use super::LogUri;

/// The deepest nesting of objects and arrays a line may have.
pub const MAX_DEPTH: usize = 128;

/// The paths asked for, each split at its dots.
#[derive(Clone, Debug, Default)]
pub(super) struct Paths {
    parts: Vec<Vec<Vec<u8>>>,
}

impl Paths {
    pub(super) fn new<S: AsRef<str>>(paths: impl IntoIterator<Item = S>) -> Paths {
        let parts: Vec<Vec<Vec<u8>>> = paths
            .into_iter()
            .map(|p| {
                p.as_ref()
                    .split('.')
                    .map(|s| s.as_bytes().to_vec())
                    .collect()
            })
            .collect();
        assert!(parts.len() <= 64, "at most 64 JSON paths");
        Paths { parts }
    }

    pub(super) fn parse_line<'a>(&self, line: &'a [u8], out: &mut Vec<LogUri<'a>>) -> bool {
        let mut s = Scanner {
            b: line,
            i: 0,
            paths: &self.parts,
            found: Vec::new(),
        };
        s.found.resize(self.parts.len(), None);
        s.ws();
        if s.peek() != Some(b'{') {
            return false;
        }
        let all = if self.parts.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.parts.len()) - 1
        };
        if !s.value(all, 0) {
            return false;
        }
        s.ws();
        if s.i != line.len() {
            return false;
        }
        out.extend(s.found.into_iter().flatten());
        true
    }
}

/// The state of one line's scan.
struct Scanner<'a, 'p> {
    b: &'a [u8],
    /// INVARIANT: `i <= b.len()`, and only moves forward.
    i: usize,
    paths: &'p [Vec<Vec<u8>>],
    /// The string found for each path.
    found: Vec<Option<LogUri<'a>>>,
}

impl<'a> Scanner<'a, '_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    /// Takes `lit` if it is next.
    fn eat(&mut self, lit: &[u8]) -> bool {
        let ok = self.b[self.i..].starts_with(lit);
        if ok {
            self.i += lit.len();
        }
        ok
    }

    /// One value at nesting `depth`; `active` holds the paths whose first
    /// `depth` parts led here.
    fn value(&mut self, active: u64, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        self.ws();
        match self.peek() {
            Some(b'{') => self.object(active, depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => {
                // The paths that end here, and want this string.
                let ending = self.ending(active, depth);
                let at = self.i + 1;
                let Some(text) = self.string(ending != 0) else {
                    return false;
                };
                // `-` is the usual stand-in for an absent value, as in the
                // other formats.
                if let Some(text) = text.filter(|t| !t.is_empty() && &t[..] != b"-") {
                    for p in Bits(ending) {
                        self.found[p].get_or_insert_with(|| LogUri {
                            at,
                            uri: text.clone(),
                            known_valid: false,
                            origin_form: false,
                        });
                    }
                }
                true
            }
            Some(b't') => self.eat(b"true"),
            Some(b'f') => self.eat(b"false"),
            Some(b'n') => self.eat(b"null"),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => false,
        }
    }

    /// The paths of `active` that have exactly `depth` parts.
    fn ending(&self, active: u64, depth: usize) -> u64 {
        Bits(active)
            .filter(|&p| self.paths[p].len() == depth)
            .fold(0, |m, p| m | 1 << p)
    }

    fn object(&mut self, active: u64, depth: usize) -> bool {
        self.i += 1;
        self.ws();
        if self.eat(b"}") {
            return true;
        }
        // The paths that go on below this object.
        let deeper = Bits(active)
            .filter(|&p| self.paths[p].len() > depth)
            .fold(0u64, |m, p| m | 1 << p);
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return false;
            }
            let Some(key) = self.string(deeper != 0) else {
                return false;
            };
            let next = match key {
                Some(key) => Bits(deeper)
                    .filter(|&p| self.paths[p][depth] == *key)
                    .fold(0, |m, p| m | 1 << p),
                None => 0,
            };
            self.ws();
            if !self.eat(b":") || !self.value(next, depth + 1) {
                return false;
            }
            self.ws();
            if self.eat(b"}") {
                return true;
            }
            if !self.eat(b",") {
                return false;
            }
        }
    }

    fn array(&mut self, depth: usize) -> bool {
        self.i += 1;
        self.ws();
        if self.eat(b"]") {
            return true;
        }
        loop {
            if !self.value(0, depth + 1) {
                return false;
            }
            self.ws();
            if self.eat(b"]") {
                return true;
            }
            if !self.eat(b",") {
                return false;
            }
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> bool {
        self.eat(b"-");
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return false,
        }
        if self.eat(b".") {
            if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
                return false;
            }
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
                return false;
            }
            self.digits();
        }
        true
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
    }

    /// The string at `i` (its `"`): `None` when it is not a valid one;
    /// `Some(None)` when valid and not `wanted`; its decoded text otherwise.
    fn string(&mut self, wanted: bool) -> Option<Option<Cow<'a, [u8]>>> {
        let start = self.i + 1;
        let mut i = start;
        let mut decoded: Option<Vec<u8>> = None;
        // The bytes before `i` not yet copied into `decoded`.
        let mut copied = start;
        loop {
            let b = *self.b.get(i)?;
            match b {
                b'"' => break,
                0..=0x1f => return None,
                b'\\' => {
                    let (c, len) = self.escape(i)?;
                    if wanted {
                        let d = decoded.get_or_insert_with(Vec::new);
                        d.extend_from_slice(&self.b[copied..i]);
                        let mut buf = [0; 4];
                        d.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    }
                    i += len;
                    copied = i;
                }
                _ => i += 1,
            }
        }
        self.i = i + 1;
        if !wanted {
            return Some(None);
        }
        Some(Some(match decoded {
            Some(mut d) => {
                d.extend_from_slice(&self.b[copied..i]);
                Cow::Owned(d)
            }
            None => Cow::Borrowed(&self.b[start..i]),
        }))
    }

    /// The escape at `i` (its `\`): the character and the escape's length.
    fn escape(&self, i: usize) -> Option<(char, usize)> {
        let c = match *self.b.get(i + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return unicode_escape(self.b, i),
            _ => return None,
        };
        Some((c, 2))
    }
}

/// The JSON escape `\uXXXX` at `b[i]` (its `\`, followed by `u`), a
/// surrogate pair's two included: the character and the escape's length.
/// `None` when it is not one: fewer than four hex digits, or a surrogate
/// without its other half.
pub(in crate::extract) fn unicode_escape(b: &[u8], i: usize) -> Option<(char, usize)> {
    let hex4 = |i: usize| hex(b.get(i..i + 4)?);
    let hi = hex4(i + 2)?;
    if !(0xd800..0xe000).contains(&hi) {
        return Some((char::from_u32(hi)?, 6));
    }
    // A surrogate: a high one followed by `\u` and a low one.
    if hi >= 0xdc00 || b.get(i + 6..i + 8)? != b"\\u" {
        return None;
    }
    let lo = hex4(i + 8)?;
    if !(0xdc00..0xe000).contains(&lo) {
        return None;
    }
    let c = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
    Some((char::from_u32(c)?, 12))
}

/// The value of `digits`, all hexadecimal (a string escape's).
pub(in crate::extract) fn hex(digits: &[u8]) -> Option<u32> {
    digits
        .iter()
        .try_fold(0, |v, &d| Some(v << 4 | (d as char).to_digit(16)?))
}

/// The indices of the set bits of a mask.
struct Bits(u64);

impl Iterator for Bits {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uris(paths: &[&str], line: &str) -> Option<Vec<String>> {
        let mut out = Vec::new();
        Paths::new(paths)
            .parse_line(line.as_bytes(), &mut out)
            .then(|| {
                out.iter()
                    .map(|u| String::from_utf8(u.uri.to_vec()).unwrap())
                    .collect()
            })
    }

    #[test]
    fn paths_and_escapes() {
        let p = ["request.uri", "referer", "a.b.c"];
        let line = r#"{"time":"2024-05-01T00:00:00Z","a":{"b":[1,{"c":"no"}],"x":-1.5e+3},"referer":"https:\/\/ref.example\/?q=\"\u00e9\ud83d\ude00\"","request":{"method":"GET","uri":"/p?x=1","h":{"u":"deep"}},"ok":true,"n":null}"#;
        assert_eq!(
            uris(&p, line),
            Some(vec![
                "/p?x=1".into(),
                "https://ref.example/?q=\"é😀\"".into()
            ])
        );
        // In the order of the paths, whatever the order in the line; the first
        // of duplicates; nothing for a path that holds no string.
        assert_eq!(
            uris(
                &p,
                r#" {"referer":"/r","request":{"uri":"/a"},"request":{"uri":"/b"},"a":{"b":{"c":7}}} "#
            ),
            Some(vec!["/a".into(), "/r".into()])
        );
        assert_eq!(uris(&p, "{}"), Some(vec![]));
        assert_eq!(
            uris(&p, r#"{"referer":"-","request":{"uri":""}}"#),
            Some(vec![])
        );
    }

    #[test]
    fn strict() {
        let p = ["u"];
        for bad in [
            "",
            "[]",
            r#""u""#,
            r#"{"u":"a"} x"#,
            r#"{"u":"a",}"#,
            r#"{"u" "a"}"#,
            r#"{u:"a"}"#,
            r#"{"u":"a\x"}"#,
            r#"{"u":"a\ud800"}"#,
            r#"{"u":"a\udc00\ud800"}"#,
            "{\"u\":\"a\tb\"}",
            r#"{"u":01}"#,
            r#"{"u":1.}"#,
            r#"{"u":-}"#,
            r#"{"u":tru}"#,
            r#"{"u":[1,]}"#,
            r#"{"u":"a""#,
            r#"{"u":"\u12"}"#,
        ] {
            assert_eq!(uris(&p, bad), None, "{bad}");
        }
        let deep = format!(
            "{{\"u\":{}{}}}",
            "[".repeat(MAX_DEPTH),
            "]".repeat(MAX_DEPTH)
        );
        assert_eq!(uris(&p, &deep), Some(vec![]));
        let deeper = format!(
            "{{\"u\":{}{}}}",
            "[".repeat(MAX_DEPTH + 1),
            "]".repeat(MAX_DEPTH + 1)
        );
        assert_eq!(uris(&p, &deeper), None);
    }

    #[test]
    fn every_short_escape() {
        // RFC 8259, section 7: the eight two-character escapes, in a string
        // on a path (decoded) and in one off it (checked and skipped).
        assert_eq!(
            uris(&["u"], r#"{"u":"\"\\\/\b\f\n\r\t"}"#),
            Some(vec!["\"\\/\u{8}\u{c}\n\r\t".into()])
        );
        assert_eq!(
            uris(&["u"], r#"{"msg":"a\tb","u":"/p"}"#),
            Some(vec!["/p".into()])
        );
    }

    #[test]
    fn surrogate_pairs() {
        // A high surrogate's low half must follow at once, as `\uXXXX`
        // (RFC 8259, section 7): the four hex digits two bytes later are not it.
        assert_eq!(unicode_escape(br"\ud83d\ude00", 0), Some(('\u{1f600}', 12)));
        assert_eq!(unicode_escape(br"\u00e9", 0), Some(('\u{e9}', 6)));
        assert_eq!(unicode_escape(br"\ud83dABde00", 0), None);
        assert_eq!(unicode_escape(br"\ud83d\u0041", 0), None);
        assert_eq!(unicode_escape(br"\ude00\ud83d", 0), None);
        assert_eq!(uris(&["u"], r#"{"u":"\ud83dABde00"}"#), None);
    }

    #[test]
    fn a_uri_is_placed_at_its_strings_first_byte() {
        // `{"u": "/p"}`: the value's `"` is byte 6, its `/` byte 7.
        let mut out = Vec::new();
        assert!(Paths::new(["u"]).parse_line(br#"{"u": "/p"}"#, &mut out));
        assert_eq!(out.len(), 1);
        assert_eq!((out[0].at, &out[0].uri[..]), (7, &b"/p"[..]));
    }

    #[test]
    fn a_path_ending_at_an_object_gives_nothing() {
        // `a` holds an object, not a string: no URI for it, and its members
        // are read only for the paths that go on below it.
        let line = r#"{"a":{"b":"/x"}}"#;
        assert_eq!(uris(&["a"], line), Some(vec![]));
        assert_eq!(uris(&["a", "a.b"], line), Some(vec!["/x".into()]));
    }
}
