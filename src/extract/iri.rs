//! IRIs (RFC 3987): which non-ASCII characters continue a URI found in text,
//! and the mapping of an IRI to a URI (section 3.1).
//!
//! A character continues a URI when it is a `ucschar` or an `iprivate` of
//! RFC 3987 section 2.2 and not punctuation or a space: full-width and CJK
//! punctuation (`）` `」` `。` `，`), the General Punctuation block (`…`,
//! curly quotes, dashes, spaces) and `«` `»` are `ucschar`s, but in text they
//! end a URI as their ASCII counterparts do. Invalid UTF-8 ends it too. The
//! sentence punctuation of other scripts (`،` `؟` `।`...) continues one,
//! but trails at its end as `.` `,` `?` do ([`trails`]).
//!
//! The mapping percent-encodes the UTF-8 bytes of every non-ASCII character
//! (userinfo, IP literal, port, path, query, fragment) and converts a
//! non-ASCII registered name with IDNA
//! (UTS 46, through the `idna` crate) to its `xn--` form. It leaves the ASCII
//! bytes alone: whether the result is a valid URI is the parser's to say.

use crate::classes;
use crate::grammar::{Component, Error, ErrorKind};

/// The length of the character at `text[at]` (a non-ASCII byte) when it may
/// continue a URI, else `None`.
pub(crate) fn char_len(text: &[u8], at: usize) -> Option<usize> {
    let (c, len) = decode(text.get(at..)?)?;
    continues(c).then_some(len)
}

/// Whether the non-ASCII character `c` may continue a URI in text.
pub(crate) fn continues(c: char) -> bool {
    is_iri_char(c) && !is_punctuation(c)
}

/// The character that `bytes` starts with, and its length; `None` when it
/// is ASCII or not UTF-8.
fn decode(bytes: &[u8]) -> Option<(char, usize)> {
    let len = match *bytes.first()? {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let s = std::str::from_utf8(bytes.get(..len)?).ok()?;
    Some((s.chars().next()?, len))
}

/// `ucschar` or `iprivate` (RFC 3987 section 2.2).
fn is_iri_char(c: char) -> bool {
    let c = u32::from(c);
    let plane_offset = c & 0xFFFF;
    match c {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF => true,
        // Planes 1 to 14 but for each one's last two code points
        // (noncharacters) and plane 14's first 4,096 (tags and variation
        // selectors).
        0x10000..=0xEFFFF => plane_offset < 0xFFFE && !(0xE0000..0xE1000).contains(&c),
        _ => is_iprivate(c),
    }
}

/// `iprivate` (RFC 3987 section 2.2): allowed in a query only.
fn is_iprivate(c: u32) -> bool {
    matches!(c, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// Punctuation and spaces that end a URI in text although RFC 3987 lets
/// them stand in an IRI.
fn is_punctuation(c: char) -> bool {
    matches!(
        u32::from(c),
        // no-break space, « and »
        0xA0 | 0xAB | 0xBB
        // General Punctuation: spaces, the em dash and longer, quotes, `…`
        // (hyphens and the en dash trail: [`trails`]); Supplemental
        // Punctuation
        | 0x2000..=0x200F | 0x2014..=0x206F | 0x2E00..=0x2E7F
        // CJK Symbols and Punctuation: ideographic space, `、` `。`, the
        // brackets `「」『』【】〈〉《》`, but not the iteration marks `々` `〆` `〇`
        | 0x3000..=0x3004 | 0x3008..=0x3020 | 0x3030 | 0x303D
        // vertical and small forms, CJK compatibility forms
        | 0xFE10..=0xFE1F | 0xFE30..=0xFE6F
        // full-width `！` to `／`, `：` to `＠`, `［` to `｀`, `｛` to `･`
        | 0xFF01..=0xFF0F | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40 | 0xFF5B..=0xFF65
    )
}

/// The length of the last character of `uri` when it trails ([`trails`]:
/// the sentence punctuation of a script other than Latin and CJK, a hyphen
/// or the en dash), else `None`.
pub(crate) fn trailing_len(uri: &[u8]) -> Option<usize> {
    // Every such character is of two or three bytes: a two-byte one's
    // lead byte is never a three-byte one's continuation byte.
    let n = uri.len();
    let len = match (
        n.checked_sub(2).map(|i| uri[i]),
        n.checked_sub(3).map(|i| uri[i]),
    ) {
        (Some(0xC2..=0xDF), _) => 2,
        (_, Some(0xE0..=0xEF)) => 3,
        _ => return None,
    };
    let (c, l) = decode(&uri[n - len..])?;
    (l == len && trails(c)).then_some(len)
}

/// Whether the non-ASCII character `c` is the full stop, comma, semicolon,
/// colon, question or exclamation mark of a script other than Latin and
/// CJK (whose marks [`is_punctuation`] lists), a hyphen or the en dash:
/// `ucschar`s, and kept inside an IRI (an Arabic title may hold a `،`, an
/// English one a `–`), but at its end in text they end the sentence, as
/// C2's ASCII `.` `,` `;` `?` do (rule C8b).
pub(crate) fn trails(c: char) -> bool {
    matches!(
        u32::from(c),
        // Greek question mark and ano teleia
        0x037E | 0x0387
        // Armenian comma and full stop (its question and exclamation marks
        // stand over a vowel, inside the word)
        | 0x055D | 0x0589
        // Hebrew sof pasuq
        | 0x05C3
        // Arabic comma, semicolon and question mark, the Urdu full stop
        | 0x060C | 0x061B | 0x061F | 0x06D4
        // Devanagari danda and double danda (Hindi, Marathi, Bengali...)
        | 0x0964 | 0x0965
        // Sinhala kunddaliya; Thai angkhankhu and khomut; Tibetan shads
        | 0x0DF4 | 0x0E5A | 0x0E5B | 0x0F0D | 0x0F0E
        // Myanmar little section and section
        | 0x104A | 0x104B
        // Ethiopic wordspace, full stop, comma, semicolon, colons, question
        // mark and paragraph separator
        | 0x1361
            ..=0x1368
        // Canadian syllabics full stop; Khmer khan and bariyoosan
        | 0x166E | 0x17D4 | 0x17D5
        // Mongolian comma and full stop, Manchu comma and full stop
        | 0x1802 | 0x1803 | 0x1808 | 0x1809
        // The hyphens, the figure dash and the en dash, which join words
        // in titles (`Fisher–Yates_shuffle`, `Navier–Stokes`)
        | 0x2010..=0x2013
    )
}

/// Maps the IRI `iri` to a URI (RFC 3987 section 3.1), appended to `out`:
/// the host through IDNA to its ASCII (`xn--`) form, every other non-ASCII
/// character percent-encoded as its UTF-8 bytes. A URI (all ASCII) is
/// copied unchanged. The result is not validated: parse it as a URI.
///
/// ```
/// let mut uri = Vec::new();
/// uriscan::iri_to_uri("http://例え.テスト/パス?q=ü#ß".as_bytes(), &mut uri).unwrap();
/// assert_eq!(uri, b"http://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9?q=%C3%BC#%C3%9F");
///
/// uri.clear();
/// uriscan::iri_to_uri("http://müller.de/über".as_bytes(), &mut uri).unwrap();
/// assert_eq!(uri, b"http://xn--mller-kva.de/%C3%BCber");
/// ```
///
/// # Errors
///
/// [`ErrorKind::InvalidByte`] at the first byte of a character that is not
/// UTF-8, not a `ucschar`, or an `iprivate` outside the query (RFC 3987
/// allows those in the query only), and at the host's first byte when IDNA
/// rejects a non-ASCII host. `out` then holds part of the mapping.
pub fn iri_to_uri(iri: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
    if iri.is_ascii() {
        out.extend_from_slice(iri);
        return Ok(());
    }
    let split = crate::grammar::split(iri);
    let query = split.query();
    let mut at = 0;
    if let Some(auth) = split.authority() {
        // The host: after the last `@`; an IP literal to its `]`, a name to
        // the first `:`, where the port starts.
        let a = &iri[auth.clone()];
        let host_start = auth.start + memchr::memrchr(b'@', a).map_or(0, |i| i + 1);
        let h = &iri[host_start..auth.end];
        let host_end = host_start
            + match h.first() {
                Some(b'[') => memchr::memchr(b']', h).map_or(h.len(), |i| i + 1),
                _ => memchr::memchr(b':', h).unwrap_or(h.len()),
            };
        encode(iri, at, host_start, &query, Component::Userinfo, out)?;
        let name = &iri[host_start..host_end];
        if name.is_ascii() || name[0] == b'[' {
            // Only a registered name goes through IDNA (RFC 3987 section
            // 3.1): an IP literal's other characters are encoded (and
            // make it invalid), as are a port's.
            encode(iri, host_start, host_end, &query, Component::Host, out)?;
        } else {
            let bad = || Error::new(host_start, Component::Host, ErrorKind::InvalidByte(name[0]));
            let name = std::str::from_utf8(name).map_err(|_| bad())?;
            let ascii = idna::domain_to_ascii(name).map_err(|_| bad())?;
            out.extend_from_slice(ascii.as_bytes());
        }
        encode(iri, host_end, auth.end, &query, Component::Port, out)?;
        at = auth.end;
    }
    let fragment = split.fragment();
    for (end, component) in [
        (
            query.as_ref().map_or(iri.len(), |q| q.start),
            Component::Path,
        ),
        (
            fragment.as_ref().map_or(iri.len(), |f| f.start),
            Component::Query,
        ),
        (iri.len(), Component::Fragment),
    ] {
        if end > at {
            encode(iri, at, end, &query, component, out)?;
            at = end;
        }
    }
    Ok(())
}

/// Maps a URI or IRI found in text (as [`crate::extract`] finds it, or as a
/// browser sends it) to the URI it stands for, appended to `out`: the IRI
/// mapping of [`iri_to_uri`], then the bytes that browsers send as written
/// but RFC 3986 never allows where they stand percent-encoded: `[` and `]`
/// after the host (`?a[]=1`, as PHP and Rails write arrays) and every `#`
/// after the first (`https://matrix.to/#/#room:example.org`). A URI without
/// them is copied unchanged. `uriscan extract` validates each URI it finds
/// as this mapping of it, and `--to-uri` prints the mapping. The result is
/// not validated: parse it as a URI.
///
/// ```
/// let mut uri = Vec::new();
/// uriscan::found_to_uri(b"https://matrix.to/#/#room:example.org", &mut uri).unwrap();
/// assert_eq!(uri, b"https://matrix.to/#/%23room:example.org");
///
/// uri.clear();
/// uriscan::found_to_uri("http://[::1]/x.php?a[]=ü".as_bytes(), &mut uri).unwrap();
/// assert_eq!(uri, b"http://[::1]/x.php?a%5B%5D=%C3%BC");
/// ```
///
/// # Errors
///
/// Those of [`iri_to_uri`].
pub fn found_to_uri(found: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
    let at = out.len();
    iri_to_uri(found, out)?;
    let mapped = &out[at..];
    let split = crate::grammar::split(mapped);
    let after_host = split.authority().map_or(split.path().start, |a| a.end);
    let fragment = split.fragment().map_or(mapped.len(), |f| f.start);
    let needed = |(i, &b): (usize, &u8)| matches!(b, b'[' | b']') || (b == b'#' && i >= fragment);
    let Some(first) = mapped.iter().enumerate().skip(after_host).position(needed) else {
        return Ok(());
    };
    let rest = out.split_off(at + after_host + first);
    for (i, &b) in rest.iter().enumerate() {
        match b {
            b'[' => out.extend_from_slice(b"%5B"),
            b']' => out.extend_from_slice(b"%5D"),
            b'#' if after_host + first + i >= fragment => out.extend_from_slice(b"%23"),
            _ => out.push(b),
        }
    }
    Ok(())
}

/// Appends `iri[from..to]`, which lies in `component`, with its non-ASCII
/// characters percent-encoded.
fn encode(
    iri: &[u8],
    from: usize,
    to: usize,
    query: &Option<std::ops::Range<usize>>,
    component: Component,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let mut at = from;
    while at < to {
        let b = iri[at];
        if b.is_ascii() {
            out.push(b);
            at += 1;
            continue;
        }
        let bad = Error::new(at, component, ErrorKind::InvalidByte(b));
        let (c, len) = decode(&iri[at..to]).ok_or(bad)?;
        let in_query = query.as_ref().is_some_and(|q| q.contains(&at));
        if !is_iri_char(c) || (is_iprivate(u32::from(c)) && !in_query) {
            return Err(bad);
        }
        for &byte in &iri[at..at + len] {
            out.extend_from_slice(&classes::pct_encode(byte, classes::HEX_UPPER));
        }
        at += len;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(iri: &str) -> Result<String, Error> {
        let mut out = Vec::new();
        iri_to_uri(iri.as_bytes(), &mut out).map(|()| String::from_utf8(out).unwrap())
    }

    #[test]
    fn maps_each_component() {
        assert_eq!(
            map("http://example.com/a b").unwrap(),
            "http://example.com/a b"
        );
        assert_eq!(
            map("https://ja.wikipedia.org/wiki/日本").unwrap(),
            "https://ja.wikipedia.org/wiki/%E6%97%A5%E6%9C%AC"
        );
        assert_eq!(
            map("http://ü:ß@Bücher.example:8080/ä").unwrap(),
            "http://%C3%BC:%C3%9F@xn--bcher-kva.example:8080/%C3%A4"
        );
        // The port is not the host's: IDNA sees `xn--p1ai`, not `xn--p1ai:8080`
        // (whose Punycode it rejects).
        assert_eq!(
            map("http://bücher.xn--p1ai:8080/x").unwrap(),
            "http://xn--bcher-kva.xn--p1ai:8080/x"
        );
        assert_eq!(map("http://[::1]/é").unwrap(), "http://[::1]/%C3%A9");
        // Only a registered name goes through IDNA: a port's and an IP
        // literal's other characters are encoded (and the URI invalid), not
        // mapped to ASCII digits or Punycode.
        assert_eq!(
            map("http://ü.com:８０/").unwrap(),
            "http://xn--tda.com:%EF%BC%98%EF%BC%90/"
        );
        assert_eq!(map("http://[ü]/").unwrap(), "http://[%C3%BC]/");
        assert_eq!(map("http://[::1]:80/ü").unwrap(), "http://[::1]:80/%C3%BC");
        assert_eq!(map("http://ü.com:/x").unwrap(), "http://xn--tda.com:/x");
        let mut out = Vec::new();
        let e = iri_to_uri("http://a:\u{85}/".as_bytes(), &mut out).unwrap_err();
        assert_eq!((e.offset(), e.component()), (9, Component::Port));
        assert_eq!(map("urn:x:ü").unwrap(), "urn:x:%C3%BC");
        // iprivate: in the query only.
        assert_eq!(map("http://a/?\u{E000}").unwrap(), "http://a/?%EE%80%80");
        let e = map("http://a/\u{E000}").unwrap_err();
        assert_eq!((e.offset(), e.kind()), (9, ErrorKind::InvalidByte(0xEE)));
        // Not a ucschar: a C1 control, a noncharacter.
        assert!(map("http://a/\u{85}").is_err());
        assert!(map("http://a/\u{FDD0}").is_err());
        let mut out = Vec::new();
        let e = iri_to_uri(b"http://a/\xFF", &mut out).unwrap_err();
        assert_eq!((e.offset(), e.component()), (9, Component::Path));
    }

    /// `found_to_uri` leaves every valid URI as it is, and what it maps is
    /// never invalid for a `[` or `]` after the host or a second `#`.
    #[test]
    fn found_to_uri_encodes_only_what_browsers_take() {
        let map = |found: &[u8]| {
            let mut out = b"kept".to_vec();
            found_to_uri(found, &mut out).map(|()| out[4..].to_vec())
        };
        for (found, uri) in [
            (
                &b"https://matrix.to/#/#room:a.org"[..],
                &b"https://matrix.to/#/%23room:a.org"[..],
            ),
            (
                b"http://a.com/x?a[]=1&b[0]=2#[x]",
                b"http://a.com/x?a%5B%5D=1&b%5B0%5D=2#%5Bx%5D",
            ),
            (b"http://[v1.x]:8/[", b"http://[v1.x]:8/%5B"),
            (b"mailto:a@b?x=[1]##", b"mailto:a@b?x=%5B1%5D#%23"),
            (b"s:[", b"s:%5B"),
        ] {
            assert_eq!(map(found).unwrap(), uri, "{}", found.escape_ascii());
        }
        let bytes = b"ab:/?#[]@%1.";
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut lengths = [0; 24];
        for _ in 0..20_000 {
            // (The seed steps for the length too: an empty string must not
            // leave it where it was, or every later string is empty.)
            let len = (next() % 24) as usize;
            lengths[len] += 1;
            let found: Vec<u8> = (0..len)
                .map(|_| bytes[(next() % bytes.len() as u64) as usize])
                .collect();
            let found = [b"http://h".as_slice(), &found].concat();
            let mapped = map(&found).unwrap();
            match crate::parse(&mapped, crate::Mode::Uri) {
                _ if crate::parse(&found, crate::Mode::Uri).is_ok() => {
                    assert_eq!(mapped, found, "{}", found.escape_ascii());
                }
                Ok(_) => {}
                Err(e) => {
                    let browser = match e.kind() {
                        ErrorKind::InvalidByte(b'[' | b']') => matches!(
                            e.component(),
                            Component::Path | Component::Query | Component::Fragment
                        ),
                        ErrorKind::InvalidByte(b'#') => true,
                        _ => false,
                    };
                    assert!(!browser, "{} -> {e}", found.escape_ascii());
                }
            }
        }
        // Every length came, many times: the strings do vary.
        assert!(lengths.iter().all(|&n| n > 500), "{lengths:?}");
    }

    #[test]
    fn punctuation_ends_a_uri() {
        for c in [
            '）', '」', '。', '，', '…', '“', '\u{3000}', '\u{A0}', '«', '：', '、',
        ] {
            let s = c.to_string();
            assert_eq!(char_len(s.as_bytes(), 0), None, "{c:?}");
        }
        for c in ['日', 'ü', 'ß', '々', '😀', 'Ａ', '¡'] {
            let s = c.to_string();
            assert_eq!(char_len(s.as_bytes(), 0), Some(s.len()), "{c:?}");
        }
        assert_eq!(char_len(b"\xE6\x97", 0), None);
    }

    #[test]
    fn other_scripts_punctuation_trails() {
        for c in [
            '\u{60C}', '\u{61B}', '\u{61F}', '\u{6D4}', '\u{964}', '\u{965}', '\u{37E}', '\u{387}',
            '\u{589}', '\u{1362}', '\u{104A}', '\u{17D4}', '\u{1803}', '\u{2010}', '\u{2013}',
        ] {
            let s = format!("http://a/x{c}");
            assert!(char_len(c.to_string().as_bytes(), 0).is_some(), "{c:?}");
            assert_eq!(trailing_len(s.as_bytes()), Some(c.len_utf8()), "{c:?}");
        }
        // Letters, other marks and broken characters do not trail.
        for s in [
            "http://a/x日",
            "http://a/xü",
            "http://a/x\u{55E}",
            "http://a/x",
            "",
            "\u{61F}",
        ] {
            let expected = if s == "\u{61F}" { Some(2) } else { None };
            assert_eq!(trailing_len(s.as_bytes()), expected, "{s:?}");
        }
        assert_eq!(trailing_len(b"http://a/x\xD8"), None);
        assert_eq!(trailing_len(b"http://a/x\x9F"), None);
    }

    /// `ucschar` and `iprivate` as RFC 3987 section 2.2's ABNF lists them.
    const RFC_3987: [(u32, u32); 20] = [
        (0xA0, 0xD7FF),
        (0xF900, 0xFDCF),
        (0xFDF0, 0xFFEF),
        (0x10000, 0x1FFFD),
        (0x20000, 0x2FFFD),
        (0x30000, 0x3FFFD),
        (0x40000, 0x4FFFD),
        (0x50000, 0x5FFFD),
        (0x60000, 0x6FFFD),
        (0x70000, 0x7FFFD),
        (0x80000, 0x8FFFD),
        (0x90000, 0x9FFFD),
        (0xA0000, 0xAFFFD),
        (0xB0000, 0xBFFFD),
        (0xC0000, 0xCFFFD),
        (0xD0000, 0xDFFFD),
        (0xE1000, 0xEFFFD),
        // iprivate
        (0xE000, 0xF8FF),
        (0xF0000, 0xFFFFD),
        (0x100000, 0x10FFFD),
    ];

    #[test]
    fn iprivate_is_the_rfcs_ranges() {
        let iprivate = &RFC_3987[RFC_3987.len() - 3..];
        for c in 0..=0x10FFFF {
            let rfc = iprivate.iter().any(|&(a, b)| (a..=b).contains(&c));
            assert_eq!(is_iprivate(c), rfc, "U+{c:04X}");
        }
    }

    #[test]
    fn iri_chars_are_the_rfcs_ranges() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let rfc = RFC_3987
                .iter()
                .any(|&(a, b)| (a..=b).contains(&u32::from(c)));
            assert_eq!(is_iri_char(c), rfc, "U+{:04X}", u32::from(c));
        }
    }
}
