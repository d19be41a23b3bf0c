//! The escapes that text writes a URI's characters with (rules C6 and C7
//! of docs/EXTRACT.md): JSON's and source code's string escapes `\uXXXX`,
//! which continue a URI and are undone, and HTML's character references to
//! characters that end a URI, which end it. And the escapes that stand
//! right before a URI, which it starts after (rules C1b and C7b): a string
//! escape (`\n`, `\u003c`) and a terminal colour code (`ESC[32m`).

use super::{iri, is_trailing, log, Scan};
use crate::classes;

/// The length of the escape at `text[at]` (a `\`) when it continues a URI
/// ([`escape_at`]). Out of line: rare, and kept out of the search's loop.
#[inline(never)]
pub(super) fn escape_len(text: &[u8], at: usize, json: bool) -> Option<usize> {
    escape_at(text, at, json).map(|(_, n)| n)
}

/// The escape at `text[at]` (a `\`) when it continues a URI: with `json` a
/// `\/`, else a [`string_escape`]; the character and the escape's length.
fn escape_at(text: &[u8], at: usize, json: bool) -> Option<(char, usize)> {
    if json && text.get(at + 1) == Some(&b'/') {
        return Some(('/', 2));
    }
    string_escape(text, at)
}

/// The string escape `\uXXXX` at `text[at]` (a `\`), a surrogate pair's
/// two included, when the character it stands for continues a URI (rule
/// C7): that character and the escape's length. JSON encoders write some
/// URI characters so (Go's `&` as `\u0026`, Gson's `=` and .NET's `+`, and
/// every non-ASCII one with Python's `ensure_ascii`), as do JavaScript,
/// Java and C# string literals. An escape of a byte that rules C2 and C3
/// judge by where it stands (trailing punctuation and brackets) ends the
/// URI as any other backslash does, so that the URI ends where its
/// unescaped text would.
///
/// Markup's escapes of `-` and `_` stand for those bytes too: troff's
/// `\-` (man pages write every hyphen of a URL so), and the backslash
/// escapes of Markdown and reStructuredText (`user\_manual`). Cut at the
/// `\`, such a URI would be another, wrong one.
fn string_escape(text: &[u8], at: usize) -> Option<(char, usize)> {
    match text.get(at + 1) {
        Some(&b @ (b'-' | b'_')) => Some((char::from(b), 2)),
        Some(b'u') => {
            let (c, n) = log::json::unicode_escape(text, at)?;
            (continues(c) && !positional(c)).then_some((c, n))
        }
        _ => None,
    }
}

/// Whether `c` is punctuation or a bracket that rules C2 and C3 judge by
/// where it stands, not by what it is. (C8b's characters are not: escaped,
/// as Python's `json.dumps` writes every non-ASCII one, they continue a URI
/// wherever they stand, `\u060c` in an Arabic title or `\u2013` in
/// `Fisher\u2013Yates`.)
fn positional(c: char) -> bool {
    c.is_ascii() && (is_trailing(c as u8) || matches!(c, ')' | ']'))
}

/// The string escape whose `\` is `text[at - 1]`, when that `\` is not
/// itself escaped (an odd run of them ends there): `\n` `\r` `\t` `\b`
/// `\f`, `\uXXXX` or `\xXX`. The character it stands for (`None` for half
/// of a surrogate pair) and the length of what follows the `\`; the `\`s
/// looked at count in `scan`'s work. A scheme or a host that text writes
/// right after one starts after it (rule C7b): in the JSON string
/// `"see:\nhttp://a.com/"` the URI is `http://a.com/`, not
/// `nhttp://a.com/`.
pub(super) fn escape_before(
    scan: &mut Scan,
    text: &[u8],
    at: usize,
) -> Option<(Option<char>, usize)> {
    let slashes = text[..at].iter().rev().take_while(|&&b| b == b'\\').count();
    scan.work(slashes);
    if slashes % 2 == 0 {
        return None;
    }
    let hex = |n: usize| {
        let v = log::json::hex(text.get(at + 1..at + 1 + n)?)?;
        Some((char::from_u32(v), 1 + n))
    };
    let c = match *text.get(at)? {
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'u' => return hex(4),
        b'x' => return hex(2),
        _ => return None,
    };
    Some((Some(c), 1))
}

/// Where the troff markup that runs on into `text[at]` ends, when
/// `text[at - 1]` is its `\` or `(`: a font change (`\fB`, `\fI`, `\f5`,
/// before the JSON escape `\f` that it starts with; `\f(CW`) or a
/// character or string of a two-letter name (`\(dq`, `\*(Aq`: quotes),
/// whose `\` is not itself escaped; the `\`s looked at count in `scan`'s
/// work. Man pages write URIs right after them (rule C7b).
pub(super) fn troff_end(scan: &mut Scan, text: &[u8], at: usize) -> Option<usize> {
    if text[at - 1] == b'\\' {
        let font = text[at] == b'f'
            && text
                .get(at + 1)
                .is_some_and(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
        return (font && escape_before(scan, text, at).is_some()).then_some(at + 2);
    }
    if text[at - 1] != b'(' {
        return None;
    }
    let before = &text[..at - 1];
    let name = before
        .strip_suffix(b"*")
        .or_else(|| before.strip_suffix(b"f"))
        .unwrap_or(before);
    let slashes = name.iter().rev().take_while(|&&b| b == b'\\').count();
    scan.work(slashes);
    (slashes % 2 == 1 && at + 2 <= text.len()).then_some(at + 2)
}

/// Where the terminal control sequence (ANSI CSI: `ESC [`, parameters of
/// digits and `;`, a final letter, as colour codes are written) that runs
/// through `text[at]` ends, when `text[at - 1]` is its `[` or a `;` of its
/// parameters; the bytes looked at count in `scan`'s work. Its final
/// letter and digits are scheme and host characters, so a URI written
/// right after one in a coloured log (`ESC[32mhttp://a.com/`) starts
/// after it (rule C1b). A colour code whose ESC was lost (`[32m`, as logs
/// passed through some viewers and pastes hold them) counts too: a final
/// `m` after at least one digit, where the URI would otherwise be
/// `mhttp://...` or a host `32mexample.com`.
pub(super) fn csi_end(scan: &mut Scan, text: &[u8], at: usize) -> Option<usize> {
    let params = text[..at]
        .iter()
        .rev()
        .take_while(|&&b| b.is_ascii_digit() || b == b';')
        .count();
    let open = at - params;
    scan.work(params);
    if open < 1 || text[open - 1] != b'[' {
        return None;
    }
    let digits = text[at..].iter().take_while(|b| b.is_ascii_digit()).count();
    scan.work(digits);
    let last = at + digits;
    if open >= 2 && text[open - 2] == 0x1b {
        return text
            .get(last)
            .is_some_and(u8::is_ascii_alphabetic)
            .then_some(last + 1);
    }
    colour_code_len(&text[open - 1..]).map(|n| open - 1 + n)
}

/// The length of the colour code without its ESC that `bytes` starts
/// with (rule C1b): `[`, digits and `;` with at least one digit, `m`.
pub(super) fn colour_code_len(bytes: &[u8]) -> Option<usize> {
    let params = bytes.strip_prefix(b"[")?;
    let n = params
        .iter()
        .take_while(|&&b| b.is_ascii_digit() || b == b';')
        .count();
    let digit = params[..n].iter().any(u8::is_ascii_digit);
    (digit && params.get(n) == Some(&b'm')).then_some(n + 2)
}

/// Where the run of URI bytes `text[body..end]` of a URI that follows a
/// colour code (rule C1b) ends when the closing code lost its ESC too
/// (`[32mhttp://a.com/x[0m`): at the first [`colour_code_len`] code
/// (never valid in a URI). Rare: out of line.
#[inline(never)]
pub(super) fn before_colour_code(text: &[u8], body: usize, end: usize) -> Option<usize> {
    memchr::memchr_iter(b'[', &text[body..end])
        .map(|i| body + i)
        .find(|&i| colour_code_len(&text[i..end]).is_some())
}

/// Whether the character `c` may continue a URI in text: a byte of the
/// URI alphabet, or a non-ASCII character of rule C9.
fn continues(c: char) -> bool {
    if c.is_ascii() {
        classes::is(c as u8, classes::URI_ALPHABET)
    } else {
        iri::continues(c)
    }
}

/// [`unescape`] into a new vector. Out of line, as the escapes are rare.
#[inline(never)]
pub(super) fn unescaped(raw: &[u8], json: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    unescape(raw, json, &mut out);
    out
}

/// Appends `raw`, a URI found in text, to `out` with its string escapes
/// undone: each `\uXXXX` that [`string_escape`] takes, and with `json` each
/// `\/`. Its other bytes are copied as they are: a `\` of neither kind
/// ends a URI, and no URI starts or ends inside an escape (rule C7b moves
/// a scheme that follows one past it), so `raw` has none.
#[inline(never)]
pub(super) fn unescape(raw: &[u8], json: bool, out: &mut Vec<u8>) {
    let mut at = 0;
    while let Some(i) = memchr::memchr(b'\\', &raw[at..]) {
        let i = at + i;
        out.extend_from_slice(&raw[at..i]);
        if let Some((c, n)) = escape_at(raw, i, json) {
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            at = i + n;
        } else {
            out.push(b'\\');
            at = i + 1;
        }
    }
    out.extend_from_slice(&raw[at..]);
}

/// Where `text[from..end]`, a URI's bytes, ends at the first HTML
/// reference to a character that ends a URI ([`ends_uri_as_reference`]);
/// `end` when it has none.
pub(super) fn reference_end(text: &[u8], from: usize, end: usize) -> usize {
    let mut at = from;
    while let Some(i) = memchr::memchr(b';', &text[at..end]) {
        if let Some(amp) = reference_start(text, from, at + i) {
            return amp;
        }
        at += i + 1;
    }
    end
}

/// The `&` of the HTML reference that ends with the `;` at `text[semi]`
/// and starts at `from` or after, when it is one to a character that ends
/// a URI.
pub(super) fn reference_start(text: &[u8], from: usize, semi: usize) -> Option<usize> {
    // The longest: `&#1234567;`, `&#x10FFFF;`.
    let low = semi.saturating_sub(10).max(from);
    let amp = low + text[low..semi].iter().rposition(|&b| b == b'&')?;
    ends_uri_as_reference(&text[amp..=semi]).then_some(amp)
}

/// Whether `reference` is an HTML character reference (`&quot;`, `&#60;`,
/// `&#x200B;`...) to a character that ends a URI (rule C6): text escaped
/// for HTML writes a URI's closing quote or bracket, or the no-break or
/// zero-width space after it, so. A reference to a URI character (`&amp;`,
/// `&#47;`) is left as written.
fn ends_uri_as_reference(reference: &[u8]) -> bool {
    const NAMED: [&[u8]; 17] = [
        b"&quot;",
        b"&lt;",
        b"&gt;",
        b"&QUOT;",
        b"&LT;",
        b"&GT;",
        b"&nbsp;",
        b"&hellip;",
        b"&laquo;",
        b"&raquo;",
        b"&ldquo;",
        b"&rdquo;",
        b"&lsquo;",
        b"&rsquo;",
        b"&ndash;",
        b"&mdash;",
        b"&emsp;",
    ];
    match numeric_reference(reference).map(char::from_u32) {
        None => NAMED.contains(&reference),
        Some(Some(c)) => !continues(c),
        Some(None) => true,
    }
}

/// The code point of `reference` when it is a numeric HTML reference of 1
/// to 7 digits: `&#60;`, `&#x200B;`, `&#0000060;`.
fn numeric_reference(reference: &[u8]) -> Option<u32> {
    let number = reference.strip_prefix(b"&#")?.strip_suffix(b";")?;
    let (digits, radix) = match number {
        [b'x' | b'X', hex @ ..] => (hex, 16),
        _ => (number, 10),
    };
    if digits.is_empty() || digits.len() > 7 {
        return None;
    }
    digits
        .iter()
        .try_fold(0, |v, &d| Some(v * radix + (d as char).to_digit(radix)?))
}

/// The `&` of the HTML reference that ends with the `;` at `text[semi]`
/// and starts at `from` or after, when it is one to punctuation or a
/// bracket that rules C2 and C3 judge by position (`&#39;` and `&#x27;`,
/// as Django, Jinja and Python's `html.escape` write `'`, `&apos;`,
/// `&#46;`): at a URI's end it trails as that character does (rule C6b).
pub(super) fn positional_reference_start(text: &[u8], from: usize, semi: usize) -> Option<usize> {
    let low = semi.saturating_sub(10).max(from);
    let amp = low + text[low..semi].iter().rposition(|&b| b == b'&')?;
    let reference = &text[amp..=semi];
    let c = match numeric_reference(reference) {
        Some(code) => char::from_u32(code)?,
        None if reference == b"&apos;" => '\'',
        None => return None,
    };
    positional(c).then_some(amp)
}
