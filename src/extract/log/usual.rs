//! The usual `common` or `combined` line read in one pass over stage 1's
//! masks, its URIs validated as they are delimited.
//!
//! [`super::parse_log_line`] finds each quoted field with a `memchr2` call,
//! splits the request line, and leaves validation to the caller, which
//! runs [`crate::parse`] on each URI, classifying its bytes a second time;
//! on a log line those calls' set-ups cost more than the few bytes they
//! look at. Here the line's first [`PREFIX`] bytes are classified once
//! ([`Backend::classify_blocks`]), and every field boundary of the usual line is
//! a `special` byte (space, `"`, `[`, `]`): the line is read by walking the
//! `special` bits, a trailing-zero count each, never a byte at a time. The
//! request target and the Referer are validated by the same walk:
//!
//! - a target in origin-form (`/` not followed by `/`) or absolute-form,
//!   and a Referer that is an absolute URI with an authority of `reg-name`
//!   bytes and a port of digits, are valid exactly when their bytes after
//!   the path's start hold no `special` byte but `%`s followed by two hex
//!   digits (`PATHBAD`, as stage 2 computes it), and at most one `#`
//!   (RFC 3986 sections 3.3 to 3.5: a path of `pchar` and `/` ends at the
//!   first `?` or `#`, a query of `query` bytes at the first `#`, and a
//!   fragment holds the same bytes as a query; every byte that is not
//!   `special` is `unreserved`, a `sub-delim` or one of `: / ? #`);
//! - the first such byte must be the field's end (the space before the
//!   protocol, the Referer's closing `"`); any other (a `\` escape, an
//!   invalid byte, an `@`, a userinfo, an IP literal, a CONNECT, a second
//!   `#`, a field holding another special byte, a field that runs past the
//!   prefix...) sends the whole line to the general path.
//!
//! What this accepts, the general path reads the same way (same fields,
//! same offsets, borrowed from the line) and [`crate::parse`] finds valid:
//! the tests check both on random and sample lines.

use std::borrow::Cow;

use super::LogUri;
use crate::classes::{self, is};
use crate::simd::{Checked, Masks};

/// How many bytes of a line are classified: the four blocks of the usual
/// line's fields (a user agent may run past them; a field that does, the
/// general path reads).
const PREFIX: usize = 256;

/// 256 bits, one per byte of a line's [`PREFIX`]: bytes 0 to 127, then
/// 128 to 255. (As a pair of `u128`s, the next set bit after an offset is
/// found without a loop over words, whose exit is hard to predict.)
type Bits256 = [u128; 2];

/// The masks of a line that the walk reads. Past the line's end every
/// byte is `special` (and so `bad`): a walk stops at the end of the line;
/// past the prefix, nothing is set.
struct Bits {
    /// Stage 1's `special`: `%` `@` `[` `]` and every byte outside the URI
    /// alphabet (space, `"`, `\`...).
    special: Bits256,
    /// `special` but the `%`s followed by two hex digits.
    bad: Bits256,
    /// `#`.
    hash: Bits256,
    /// `:`.
    colon: Bits256,
    /// `/` `?` `#`: what ends an authority.
    after_authority: Bits256,
}

impl Bits {
    /// The bits of the first [`PREFIX`] bytes of `line`.
    #[inline(always)]
    fn new(line: &[u8], backend: Checked) -> Bits {
        let line = &line[..line.len().min(PREFIX)];
        let mut m = [Masks::default(); PREFIX / 64];
        let blocks = line.len().div_ceil(64).max(1);
        backend.classify_blocks(line, &mut m[..blocks]);
        // Whole blocks past a short line's end: all `special`, as its
        // padding is.
        for b in &mut m[blocks..] {
            b.special = u64::MAX;
        }
        let bits = |class: fn(&Masks) -> u64| -> Bits256 {
            let pair = |k: usize| u128::from(class(&m[k])) | u128::from(class(&m[k + 1])) << 64;
            [pair(0), pair(2)]
        };
        let (special, pct, hex) = (bits(|m| m.special), bits(|m| m.pct), bits(|m| m.hex));
        // (As `stage2::pathbad`: a `%` is good when the next two bytes are
        // hex digits; past the prefix, none is.)
        let hex1 = [hex[0] >> 1 | hex[1] << 127, hex[1] >> 1];
        let hex2 = [hex[0] >> 2 | hex[1] << 126, hex[1] >> 2];
        let bad = |h: usize| special[h] & !(pct[h] & hex1[h] & hex2[h]);
        Bits {
            special,
            bad: [bad(0), bad(1)],
            hash: bits(|m| m.hash),
            colon: bits(|m| m.colon),
            after_authority: bits(|m| m.slash | m.question | m.hash),
        }
    }

    /// The first set bit of `w` at or after `from`; [`PREFIX`] when none.
    /// (No loop: a few conditional moves.)
    #[inline(always)]
    fn next(w: &Bits256, from: usize) -> usize {
        let lo = if from < 128 {
            w[0] & u128::MAX << from
        } else {
            0
        };
        let hi = if from < 256 {
            w[1] & u128::MAX << from.saturating_sub(128)
        } else {
            0
        };
        if lo != 0 {
            lo.trailing_zeros() as usize
        } else {
            128 + hi.trailing_zeros() as usize
        }
    }
}

/// The URIs of `line` read as a `common` (or, `combined`, a `combined`)
/// line of the usual shape, all known valid; `None` when the line is not of
/// that shape, for the general path (nothing is appended then).
#[inline]
pub(super) fn parse_line<'a>(
    line: &'a [u8],
    combined: bool,
    backend: Checked,
    out: &mut Vec<LogUri<'a>>,
) -> Option<()> {
    let b = Bits::new(line, backend);
    let special = |from| Bits::next(&b.special, from);
    // No byte past the prefix: where a walk gets there, the line is left
    // to the general path. Past it and past the line, 0, which the walk
    // never looks for (a NUL in the line is special, and ends any field).
    // (Not an `Option`: its tests cost 3% of the instructions.)
    let limit = line.len().min(PREFIX);
    let byte = |i: usize| if i < limit { line[i] } else { 0 };
    // host ident user: each ends at a space, the first special byte.
    let mut pos = 0;
    for _ in 0..3 {
        let sp = special(pos);
        if sp == pos || byte(sp) != b' ' {
            return None;
        }
        pos = sp + 1;
    }
    // [date], to the first `]` (a date holds a space).
    if byte(pos) != b'[' {
        return None;
    }
    let mut close = special(pos + 1);
    while byte(close) != b']' {
        if close >= limit {
            return None;
        }
        close = special(close + 1);
    }
    if byte(close + 1) != b' ' || byte(close + 2) != b'"' {
        return None;
    }
    // "METHOD target PROTOCOL": the method ends at the first special byte,
    // a space.
    let method = close + 3;
    let sp = special(method);
    if sp == method || byte(sp) != b' ' || &line[method..sp] == b"CONNECT" {
        return None;
    }
    let target = sp + 1;
    let end = match line.get(target..target + 2) {
        Some([b'/', b'/']) => return None,
        Some([b'/', _]) => rest_end(&b, target),
        _ => absolute_end(&b, line, target)?,
    };
    // The target ends at a space, and the protocol (`HTTP/1.1`), which
    // holds none, at the closing `"`: that space is the request line's
    // last, and the target holds no `"` or `\`.
    if byte(end) != b' ' {
        return None;
    }
    let quote = special(end + 1);
    if byte(quote) != b'"' {
        return None;
    }
    // ` status size`, each ending at a space (or the line's end).
    let mut after = quote + 1;
    for _ in 0..2 {
        if byte(after) != b' ' {
            return None;
        }
        let sp = special(after + 1);
        if sp == after + 1 || (sp < limit && byte(sp) != b' ') {
            return None;
        }
        after = sp.min(line.len());
    }
    let mut referer = None;
    if combined {
        if byte(after) != b' ' || byte(after + 1) != b'"' {
            return None;
        }
        let start = after + 2;
        match byte(start) {
            // `-` or empty: none.
            b'-' if byte(start + 1) == b'"' => {}
            b'"' => {}
            _ => {
                let end = absolute_end(&b, line, start)?;
                if byte(end) != b'"' {
                    return None;
                }
                referer = Some(start..end);
            }
        }
    }
    // (One `extend` of a known length: two `push` calls, out of line,
    // cost more.)
    let uri = |r: core::ops::Range<usize>, origin_form: bool| LogUri {
        at: r.start,
        uri: Cow::Borrowed(&line[r]),
        known_valid: true,
        origin_form,
    };
    // (A target that starts with `//` took the general path.)
    out.extend(
        core::iter::once(uri(target..end, line[target] == b'/'))
            .chain(referer.map(|r| uri(r, false))),
    );
    Some(())
}

/// The end of an absolute URI at `i` with an authority of `reg-name` bytes
/// and a port of digits: `scheme "://" host [ ":" port ]`, then path, query
/// and fragment. `None` when it does not start so; otherwise the first byte
/// that cannot continue it, which the caller checks ends its field.
#[inline(always)]
fn absolute_end(b: &Bits, line: &[u8], i: usize) -> Option<usize> {
    // The scheme ends at the first of `: / ? #`, a `:`.
    let colon = Bits::next(&b.colon, i);
    if colon >= Bits::next(&b.after_authority, i)
        || !line.get(i).is_some_and(|&c| is(c, classes::ALPHA))
        || !line[i + 1..colon].iter().all(|&c| is(c, classes::SCHEME))
        || line.get(colon + 1..colon + 3) != Some(b"//")
    {
        return None;
    }
    // The authority ends at the first of `/ ? #`, or at a special byte
    // (the field's end, or a byte this path leaves: `%`, `@`, `[`).
    let start = colon + 3;
    let slash = Bits::next(&b.after_authority, start);
    let end = slash.min(Bits::next(&b.special, start));
    // Its bytes are `unreserved`, `sub-delims` or `:`: a `reg-name` up to
    // the first `:`, then a port, which must be digits.
    let port = Bits::next(&b.colon, start);
    if port < end && !line[port + 1..end].iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(if end == slash { rest_end(b, end) } else { end })
}

/// The end of a valid path (from its first byte), query and fragment at
/// `i`: the first byte that is `special` but not a `%` followed by two hex
/// digits, or the second `#` (which ends no field, so the caller declines).
#[inline(always)]
fn rest_end(b: &Bits, i: usize) -> usize {
    let end = Bits::next(&b.bad, i);
    let hash = Bits::next(&b.hash, i);
    if hash < end {
        return end.min(Bits::next(&b.hash, hash + 1));
    }
    end
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::simd::Backend;
    use crate::{parse, parse_log_line, Mode};

    /// The general path's URIs of `line`: `parse_log_line`'s target (but
    /// `*`) and Referer.
    fn general(line: &[u8], combined: bool) -> Option<Vec<(usize, Vec<u8>)>> {
        let f = parse_log_line(line, combined)?;
        let mut v = Vec::new();
        if let Some(t) = f.target.filter(|t| &t[..] != b"*") {
            v.push((f.target_at, t.into_owned()));
        }
        if let Some(r) = f.referer {
            v.push((f.referer_at, r.into_owned()));
        }
        Some(v)
    }

    /// Where the fast path reads a line, it reads it as the general path
    /// does, each URI borrowed from the line and valid.
    fn agrees(line: &[u8]) -> Result<bool, TestCaseError> {
        let mut taken = false;
        for combined in [true, false] {
            let mut out = Vec::new();
            if parse_line(line, combined, Backend::current().checked(), &mut out).is_none() {
                prop_assert!(out.is_empty());
                continue;
            }
            taken = true;
            let fast: Vec<_> = out.iter().map(|u| (u.at, u.uri.to_vec())).collect();
            prop_assert_eq!(
                Some(fast),
                general(line, combined),
                "{:?}",
                line.escape_ascii().to_string()
            );
            for u in &out {
                prop_assert!(u.known_valid && matches!(u.uri, Cow::Borrowed(_)));
                prop_assert_eq!(&line[u.at..u.at + u.uri.len()], &u.uri[..]);
                prop_assert!(
                    parse(&u.uri, Mode::Reference).is_ok(),
                    "{:?}",
                    u.uri.escape_ascii().to_string()
                );
            }
        }
        Ok(taken)
    }

    /// One of `good` most of the time, else one of `bad`.
    fn mostly(good: &[&'static [u8]], bad: &[&'static [u8]]) -> BoxedStrategy<&'static [u8]> {
        prop_oneof![
            12 => prop::sample::select(good.to_vec()),
            1 => prop::sample::select(bad.to_vec()),
        ]
        .boxed()
    }

    /// A request target's or Referer's tail: the usual bytes, now and then
    /// one that is not (or that the fast path leaves to the general one).
    fn tail() -> impl Strategy<Value = Vec<u8>> {
        let token = mostly(
            &[
                b"a", b"Z", b"0", b"/", b".", b"-", b"~", b"%2F", b"%c3", b"?", b"=", b"&", b":",
                b";", b"!", b"'",
            ],
            &[
                b"#", b"%", b"%z", b"%4", b" ", b"\"", b"\\", b"@", b"[", b"]", b"\xc3", b"\x00",
                b"|", b"\x7f",
            ],
        );
        prop::collection::vec(token, 0..12).prop_map(|t| t.concat())
    }

    /// A request target or Referer, often of the usual shape.
    fn uri() -> impl Strategy<Value = Vec<u8>> {
        let start = mostly(
            &[
                b"/",
                b"http://h.example",
                b"https://h.example:8080",
                b"a+b.c-d://x",
                b"http://",
            ],
            &[
                b"//",
                b"1a://",
                b"-",
                b"",
                b"*",
                b"h.example:443",
                b"ftp://u@h",
                b"http://[::1]",
                b"http://h:8x",
                b"http://h%41",
                b"mailto:a",
                b"http:/",
                b"h\"ttp://",
            ],
        );
        (start, tail()).prop_map(|(s, t)| [s, &t[..]].concat())
    }

    fn request() -> impl Strategy<Value = Vec<u8>> {
        let method = mostly(
            &[b"GET ", b"POST "],
            &[b"CONNECT ", b"", b"G\\ET ", b"GET  ", b"G\"ET "],
        );
        let protocol = mostly(
            &[b" HTTP/1.1", b" HTTP/2"],
            &[b"", b" HTTP/1 1", b" HTTP/1\\1", b" ", b" HTTP/1.\""],
        );
        (method, uri(), protocol).prop_map(|(m, t, p)| [m, &t[..], p].concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn fast_path_agrees_with_the_general(
            host in mostly(&[b"1.2.3.4", b"::1"], &[b"", b"a b", b"a\"b", b"a%b"]),
            user in mostly(&[b" - - ", b" - frank "], &[b" -  ", b" - \"x\" ", b" - [x] "]),
            date in mostly(&[b"[10/Oct/2000:13:55:36 -0700]", b"[d]"], &[b"[]]", b"[x", b"[a\"]"]),
            request in request(),
            status in mostly(&[b" 200 1", b" 304 0"], &[b" 200", b" 200 ", b"  1", b" 2\"0 1", b" 200 1\"2"]),
            referer in prop_oneof![1 => Just(b"-".to_vec()), 1 => Just(Vec::new()), 8 => uri()],
            end in mostly(&[b"\" \"ua\""], &[b"\"", b"", b"\\\" \"", b" \"ua"]),
            // A longer user name, so that the fields cross the prefix
            // classified and its blocks' boundaries.
            pad in prop_oneof![1 => Just(0usize), 1 => 0usize..240],
        ) {
            let user = [&user[..user.len() - 1], &b"u".repeat(pad), b" "].concat();
            let line = [host, &user, date, b" \"", &request, b"\"", status, b" \"", &referer, end]
                .concat();
            agrees(&line)?;
        }

        /// On lines of the usual shape with random bytes in the target
        /// and the Referer.
        #[test]
        fn fast_path_agrees_on_random_uris(
            target in prop::collection::vec(any::<u8>(), 0..40),
            referer in prop::collection::vec(any::<u8>(), 0..40),
        ) {
            let line = [
                &b"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /"[..],
                &target,
                b" HTTP/1.1\" 200 1 \"http://h/",
                &referer,
                b"\" \"ua\"",
            ]
            .concat();
            agrees(&line)?;
        }
    }

    #[test]
    fn fast_path_reads_the_usual_lines() {
        let lines: &[&[u8]] = &[
            br#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a/b?c=d%2F#f HTTP/1.1" 200 2326 "https://h.example:8080/x?y#z" "ua""#,
            br#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET http://h/a HTTP/1.0" 200 2326 "-" "ua""#,
            br#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "POST /?q=a:b;c HTTP/2" 200 2326 "http://h" "ua""#,
            br#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200 2326 "" "ua""#,
        ];
        for line in lines {
            assert!(agrees(line).unwrap(), "{}", line.escape_ascii());
        }
        let declined: &[&[u8]] = &[
            // A target that is not valid, an escape, a userinfo, CONNECT,
            // a second `#`, an `@` (valid, but left to the general path).
            br#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a%zz HTTP/1.1" 200 2326 "-" "ua""#,
            br#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a\x41 HTTP/1.1" 200 2326 "-" "ua""#,
            br#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 2326 "http://u@h/" "ua""#,
            br#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "CONNECT h:443 HTTP/1.1" 200 0 "-" "ua""#,
            br#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a#b#c HTTP/1.1" 200 2326 "-" "ua""#,
            br#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a@b HTTP/1.1" 200 2326 "-" "ua""#,
        ];
        for line in declined {
            let mut out = Vec::new();
            assert!(
                parse_line(line, true, Backend::current().checked(), &mut out).is_none(),
                "{}",
                line.escape_ascii()
            );
        }
    }

    /// Percent-encodings and field ends at every offset into the blocks,
    /// the two halves of the prefix and past it.
    #[test]
    fn fast_path_agrees_at_every_offset() {
        for pad in 0..260 {
            let user = "u".repeat(pad + 1);
            let target = "/a".to_owned() + &"%2F".repeat(20);
            let line = format!(
                "1.2.3.4 - {user} [10/Oct/2000:13:55:36 -0700] \"GET {target} HTTP/1.1\" 200 1 \"http://h:8/%41%4\" \"ua\""
            );
            agrees(line.as_bytes()).unwrap();
            // Valid: read here when its fields end inside the prefix.
            let good = line.replace("%4\"", "%4A\"");
            let inside = good.find("\" \"ua").unwrap() < PREFIX;
            agrees(good.as_bytes()).unwrap();
            let mut out = Vec::new();
            let taken = parse_line(
                good.as_bytes(),
                true,
                Backend::current().checked(),
                &mut out,
            )
            .is_some();
            assert_eq!(taken, inside, "{good}");
            // A line that ends inside the Referer's authority, or its port.
            for end in ["http://h", "http://h:8"] {
                let mut line = format!("1.2.3.4 - {user} [d] \"GET / HTTP/1.1\" 200 1 \"{end}");
                agrees(line.as_bytes()).unwrap();
                line.push('8');
                agrees(line.as_bytes()).unwrap();
            }
        }
    }

    /// Every line of the sample log: where the fast path reads one, it
    /// agrees with the general path.
    #[test]
    fn fast_path_agrees_on_the_sample_log() {
        let log = include_bytes!("../../../tests/data/logs/combined.log");
        let mut taken = 0;
        for line in log.split(|&b| b == b'\n') {
            taken += usize::from(agrees(line).unwrap());
        }
        assert!(taken > 10, "{taken}");
    }

    /// The edges of the shape. After the date, ` "`: a line with only one
    /// of the two is not the usual line (nor one the general path reads).
    /// A `common` line's size ends at a space or at the line's end (read
    /// here), not at another special byte. After a `combined` line's size,
    /// ` "`, and a Referer of `-` or empty is none (read here).
    #[test]
    fn fast_path_reads_the_edges_of_the_shape() {
        let fast = |line: &[u8], combined| {
            let mut out = Vec::new();
            parse_line(line, combined, Backend::current().checked(), &mut out).map(|()| {
                out.iter()
                    .map(|u| (u.at, u.uri.to_vec()))
                    .collect::<Vec<_>>()
            })
        };
        let target = Some(vec![(46, b"/a".to_vec())]);
        let head = r#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 2326"#;
        for line in [
            r#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700]x"GET /a HTTP/1.1" 200 2326"#,
            r#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] xGET /a HTTP/1.1" 200 2326"#,
        ] {
            for combined in [true, false] {
                assert_eq!(fast(line.as_bytes(), combined), None, "{line}");
                assert!(
                    parse_log_line(line.as_bytes(), combined).is_none(),
                    "{line}"
                );
            }
        }
        assert_eq!(fast(head.as_bytes(), false), target);
        assert!(agrees(head.as_bytes()).unwrap());
        assert_eq!(fast(format!("{head}\"x").as_bytes(), false), None);
        for referer in ["-", ""] {
            let line = format!("{head} \"{referer}\" \"ua\"");
            assert_eq!(fast(line.as_bytes(), true), target, "{line}");
        }
        let line = format!("{head} x\" \"ua\"");
        assert_eq!(fast(line.as_bytes(), true), None);
        assert!(parse_log_line(line.as_bytes(), true).is_none());
    }
}
