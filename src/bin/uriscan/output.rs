//! Rendering records: `check` lines, `split` JSON objects and TSV rows, the
//! records of `normalize` and `resolve`; plurals for messages.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

use uriscan::{Error, Split, Uri};

use crate::cli::{InvalidPolicy, OutFormat};

/// Where the records go: standard output, or the file of `--output`.
pub enum Dest {
    Stdout(io::Stdout),
    File(File),
}

impl Dest {
    /// Standard output, or the file `path`, created (or truncated).
    pub fn create(path: Option<&Path>) -> anyhow::Result<Dest> {
        Ok(match path {
            None => Dest::Stdout(io::stdout()),
            Some(p) => Dest::File(File::create(p).map_err(|e| {
                anyhow::anyhow!("cannot create the output file {}: {e}", p.display())
            })?),
        })
    }
}

impl Write for Dest {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Dest::Stdout(s) => s.write(buf),
            Dest::File(f) => f.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Dest::Stdout(s) => s.write_all(buf),
            Dest::File(f) => f.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Dest::Stdout(s) => s.flush(),
            Dest::File(f) => f.flush(),
        }
    }
}

/// `1 line`, `2 lines`: `n` and the noun, singular or plural.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// How `normalize` and `resolve` write each line: the result of a valid
/// line (the normalized URI or the target), or the invalid line as
/// `--invalid` says.
pub struct Transformed {
    pub format: OutFormat,
    pub invalid: InvalidPolicy,
    /// The JSON name of the result.
    pub field: &'static [u8],
    /// `--with-original` (text format): `value<TAB>line`.
    pub with_original: bool,
}

impl Transformed {
    /// The record of line `line` (`text`), whose result is `value` or an error.
    /// Whether a valid line's record is its value and a LF alone (text,
    /// without `--with-original`), which the caller may then write itself.
    pub fn is_bare_text(&self) -> bool {
        self.format == OutFormat::Text && !self.with_original
    }

    pub fn record(
        &self,
        out: &mut Vec<u8>,
        messages: &mut Vec<u8>,
        file: &str,
        line: u64,
        text: &[u8],
        value: Result<&[u8], &Error>,
    ) {
        let format = self.format;
        match (value, format) {
            (Ok(value), OutFormat::Text) => {
                out.extend_from_slice(value);
                if self.with_original {
                    out.push(b'\t');
                    out.extend_from_slice(text);
                }
                out.push(b'\n');
            }
            (Ok(value), OutFormat::Tsv) => {
                tsv_field(out, Some(value));
                out.push(b'\t');
                tsv_field(out, Some(text));
                out.push(b'\n');
            }
            (Ok(value), OutFormat::Json) => {
                out.extend_from_slice(b"{\"line\":");
                push_u64(out, line);
                out.extend_from_slice(b",\"valid\":true,\"");
                out.extend_from_slice(self.field);
                out.extend_from_slice(b"\":");
                json_opt(out, Some(value));
                out.extend_from_slice(b",\"error\":null}\n");
            }
            (Err(e), _) => {
                match self.invalid {
                    InvalidPolicy::Report => check_line(messages, file, line, e),
                    InvalidPolicy::Skip => return,
                    InvalidPolicy::Pass | InvalidPolicy::Key => {}
                }
                match format {
                    OutFormat::Json => {
                        let _ = write!(out, "{{\"line\":{line},\"valid\":false,\"");
                        out.extend_from_slice(self.field);
                        out.extend_from_slice(b"\":null,\"error\":");
                        json_error(out, e);
                        out.extend_from_slice(b"}\n");
                    }
                    // The line in both columns, escaped as any field.
                    OutFormat::Tsv if self.invalid == InvalidPolicy::Pass => {
                        tsv_field(out, Some(text));
                        out.push(b'\t');
                        tsv_field(out, Some(text));
                        out.push(b'\n');
                    }
                    _ if self.invalid == InvalidPolicy::Pass => {
                        out.extend_from_slice(text);
                        if self.with_original {
                            out.push(b'\t');
                            out.extend_from_slice(text);
                        }
                        out.push(b'\n');
                    }
                    _ => {}
                }
            }
        }
    }
}

impl Transformed {
    /// The record of invalid line `line` (`text`) under `--invalid key`:
    /// its `key`, and its error in JSON.
    pub fn record_keyed(&self, out: &mut Vec<u8>, line: u64, text: &[u8], key: &[u8], e: &Error) {
        match self.format {
            OutFormat::Json => {
                let _ = write!(out, "{{\"line\":{line},\"valid\":false,\"");
                out.extend_from_slice(self.field);
                out.extend_from_slice(b"\":");
                json_opt(out, Some(key));
                out.extend_from_slice(b",\"error\":");
                json_error(out, e);
                out.extend_from_slice(b"}\n");
            }
            _ => self.record(out, &mut Vec::new(), "", line, text, Ok(key)),
        }
    }
}

/// Appends `bytes` as the inside of a JSON string: `"` `\` and control
/// characters (C0, DEL, C1) escaped, bytes that are not UTF-8 replaced by
/// U+FFFD.
pub fn json_str_body(out: &mut Vec<u8>, bytes: &[u8]) {
    // Whether any byte needs escaping, with no branch per byte (the
    // compiler vectorizes the fold; a short-circuiting `all` it does not).
    let plain = bytes.iter().fold(true, |ok, &b| {
        ok & (0x20..0x7f).contains(&b) & (b != b'"') & (b != b'\\')
    });
    if plain {
        out.extend_from_slice(bytes);
        return;
    }
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' => out.extend_from_slice(b"\\\""),
                '\\' => out.extend_from_slice(b"\\\\"),
                '\n' => out.extend_from_slice(b"\\n"),
                '\r' => out.extend_from_slice(b"\\r"),
                '\t' => out.extend_from_slice(b"\\t"),
                // C0, DEL and C1: control characters, which a terminal
                // would act on.
                c if (c as u32) < 0x20 || ('\u{7f}'..='\u{9f}').contains(&c) => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => {
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        if !chunk.invalid().is_empty() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
}

/// Appends a JSON string, or `null` for `None`.
pub fn json_opt(out: &mut Vec<u8>, bytes: Option<&[u8]>) {
    match bytes {
        Some(b) => {
            out.push(b'"');
            json_str_body(out, b);
            out.push(b'"');
        }
        None => out.extend_from_slice(b"null"),
    }
}

/// [`json_opt`] of a component of a valid URI: RFC 3986's alphabet is
/// printable ASCII with no `"` and no `\`, so nothing needs an escape.
#[inline(always)]
fn json_uri_opt(out: &mut Vec<u8>, bytes: Option<&[u8]>) {
    match bytes {
        Some(b) => {
            out.push(b'"');
            out.extend_from_slice(b);
            out.push(b'"');
        }
        None => out.extend_from_slice(b"null"),
    }
}

/// [`tsv_field`] of a component of a valid URI, which needs no escape
/// (see [`json_uri_opt`]).
#[inline(always)]
fn tsv_uri_field(out: &mut Vec<u8>, bytes: Option<&[u8]>) {
    // (Two calls: `\N`'s two bytes are then stored in place, not copied by
    // `memcpy` as a slice of either length would be.)
    match bytes {
        Some(b) => out.extend_from_slice(b),
        None => out.extend_from_slice(b"\\N"),
    }
}

/// Appends a TSV field: `\N` for undefined; `\` tab, LF and CR escaped as `\\`
/// `\t` `\n` `\r`; other control bytes and bytes that are not UTF-8 as
/// `\xNN`. Lossless: undoing the escapes gives the bytes back, and the field
/// is UTF-8.
pub fn tsv_field(out: &mut Vec<u8>, bytes: Option<&[u8]>) {
    let Some(bytes) = bytes else {
        out.extend_from_slice(b"\\N");
        return;
    };
    // As in `json_str_body`: one branch-free pass decides, most fields are
    // copied whole.
    let plain = bytes
        .iter()
        .fold(true, |ok, &b| ok & (0x20..0x7f).contains(&b) & (b != b'\\'));
    if plain {
        out.extend_from_slice(bytes);
        return;
    }
    for chunk in bytes.utf8_chunks() {
        for &b in chunk.valid().as_bytes() {
            match b {
                b'\\' => out.extend_from_slice(b"\\\\"),
                b'\t' => out.extend_from_slice(b"\\t"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                0..0x20 | 0x7f => push_hex_escape(out, b),
                // (UTF-8 sequences, byte by byte.)
                b => out.push(b),
            }
        }
        for &b in chunk.invalid() {
            push_hex_escape(out, b);
        }
    }
}

/// Appends `\xNN`, `NN` being `b` in lowercase hexadecimal.
fn push_hex_escape(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.extend_from_slice(&[
        b'\\',
        b'x',
        HEX[usize::from(b >> 4)],
        HEX[usize::from(b & 15)],
    ]);
}

/// The header row of `split --format tsv`.
pub const TSV_HEADER: &str = "line\tvalid\tkind\tscheme\tauthority\tuserinfo\thost\tport\tpath\tquery\tfragment\terror_offset\terror_component\terror_message\n";

/// The fields of one `split` record.
pub struct Record<'a> {
    pub line: u64,
    pub text: &'a [u8],
    pub split: Split,
    pub result: Result<Uri<'a>, Error>,
}

/// A record's validity and kind, with what stands between them, in one
/// output format ([`Record::json`], [`Record::tsv`]).
trait Words {
    const VALID_URI: &'static [u8];
    const VALID_RELATIVE: &'static [u8];
    const INVALID_URI: &'static [u8];
    const INVALID_RELATIVE: &'static [u8];
}

struct Json;
struct Tsv;

impl Words for Json {
    const VALID_URI: &'static [u8] = b",\"valid\":true,\"kind\":\"uri\"";
    const VALID_RELATIVE: &'static [u8] = b",\"valid\":true,\"kind\":\"relative\"";
    const INVALID_URI: &'static [u8] = b",\"valid\":false,\"kind\":\"uri\"";
    const INVALID_RELATIVE: &'static [u8] = b",\"valid\":false,\"kind\":\"relative\"";
}

impl Words for Tsv {
    const VALID_URI: &'static [u8] = b"\ttrue\turi\t";
    const VALID_RELATIVE: &'static [u8] = b"\ttrue\trelative\t";
    const INVALID_URI: &'static [u8] = b"\tfalse\turi\t";
    const INVALID_RELATIVE: &'static [u8] = b"\tfalse\trelative\t";
}

impl Record<'_> {
    fn part(&self, r: Option<std::ops::Range<usize>>) -> Option<&[u8]> {
        r.map(|r| &self.text[r])
    }

    /// Userinfo, host and port of a valid URI with an authority.
    fn sub(&self) -> [Option<&[u8]>; 3] {
        match &self.result {
            Ok(uri) => [uri.userinfo(), uri.host(), uri.port()].map(|c| c.map(str::as_bytes)),
            Err(_) => [None; 3],
        }
    }

    /// Appends the record's validity and kind in the words of `F`, each
    /// pair as one constant: bytes of a length known at compile time are
    /// stored in place, a choice between lengths is a call to `memcpy`.
    fn valid_and_kind<F: Words>(&self, out: &mut Vec<u8>) {
        match (self.result.is_ok(), self.split.scheme().is_some()) {
            (true, true) => out.extend_from_slice(F::VALID_URI),
            (true, false) => out.extend_from_slice(F::VALID_RELATIVE),
            (false, true) => out.extend_from_slice(F::INVALID_URI),
            (false, false) => out.extend_from_slice(F::INVALID_RELATIVE),
        }
    }

    pub fn json(&self, out: &mut Vec<u8>) {
        // The components of a valid URI need no escapes. A copy of the
        // writer per validity: through a pointer to either field writer,
        // `split --format json` took 12% more instructions; with a test of
        // the validity at each field, 3% more.
        if self.result.is_ok() {
            self.json_with::<true>(out);
        } else {
            self.json_with::<false>(out);
        }
    }

    #[inline(always)]
    fn json_with<const VALID: bool>(&self, out: &mut Vec<u8>) {
        let field = |out: &mut Vec<u8>, bytes: Option<&[u8]>| {
            if VALID {
                json_uri_opt(out, bytes);
            } else {
                json_opt(out, bytes);
            }
        };
        let s = &self.split;
        out.extend_from_slice(b"{\"line\":");
        push_u64(out, self.line);
        self.valid_and_kind::<Json>(out);
        out.extend_from_slice(b",\"scheme\":");
        field(out, self.part(s.scheme()));
        out.extend_from_slice(b",\"authority\":");
        field(out, self.part(s.authority()));
        let [userinfo, host, port] = self.sub();
        out.extend_from_slice(b",\"userinfo\":");
        field(out, userinfo);
        out.extend_from_slice(b",\"host\":");
        field(out, host);
        out.extend_from_slice(b",\"port\":");
        field(out, port);
        out.extend_from_slice(b",\"path\":");
        field(out, Some(&self.text[s.path()]));
        out.extend_from_slice(b",\"query\":");
        field(out, self.part(s.query()));
        out.extend_from_slice(b",\"fragment\":");
        field(out, self.part(s.fragment()));
        out.extend_from_slice(b",\"error\":");
        match &self.result {
            Ok(_) => out.extend_from_slice(b"null"),
            Err(e) => json_error(out, e),
        }
        out.extend_from_slice(b"}\n");
    }

    pub fn tsv(&self, out: &mut Vec<u8>) {
        let s = &self.split;
        push_u64(out, self.line);
        self.valid_and_kind::<Tsv>(out);
        let [userinfo, host, port] = self.sub();
        let fields = [
            self.part(s.scheme()),
            self.part(s.authority()),
            userinfo,
            host,
            port,
            Some(&self.text[s.path()]),
            self.part(s.query()),
            self.part(s.fragment()),
        ];
        // The components of a valid URI need no escapes. (Both writers
        // called directly, so that they inline; the test of the validity
        // at each field costs 0.4% here.)
        let valid = self.result.is_ok();
        for f in fields {
            if valid {
                tsv_uri_field(out, f);
            } else {
                tsv_field(out, f);
            }
            out.push(b'\t');
        }
        match &self.result {
            Ok(_) => out.extend_from_slice(b"\\N\t\\N\t\\N\n"),
            Err(e) => {
                let _ = writeln!(out, "{}\t{}\t{}", e.offset(), e.component(), e);
            }
        }
    }
}

/// Appends `n` in decimal (`write!` goes through the formatting machinery,
/// a large part of `split`'s time): two digits at a time from a table,
/// right to left, then appended as a fixed 8 bytes (20 past 8 digits) and
/// cut back, since a copy of a variable length is a call to `memcpy`.
pub fn push_u64(out: &mut Vec<u8>, mut n: u64) {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    // The digits end at byte 20; the bytes after it are room for the
    // fixed copy (of 20 from at most byte 12).
    let mut buf = [0u8; 32];
    let mut i = 20;
    while n >= 100 {
        let pair = 2 * (n % 100) as usize;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
        n /= 100;
    }
    if n >= 10 {
        let pair = 2 * n as usize;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        i -= 1;
        buf[i] = b'0' + n as u8;
    }
    let (at, len) = (out.len(), 20 - i);
    if len <= 8 {
        let word: [u8; 8] = buf[i..i + 8].try_into().expect("8 bytes");
        out.extend_from_slice(&word);
    } else {
        let word: [u8; 20] = buf[i..i + 20].try_into().expect("20 bytes");
        out.extend_from_slice(&word);
    }
    out.truncate(at + len);
}

/// `{"offset":N,"component":S,"message":S}`.
pub fn json_error(out: &mut Vec<u8>, e: &Error) {
    let _ = write!(
        out,
        "{{\"offset\":{},\"component\":\"{}\",\"message\":",
        e.offset(),
        e.component()
    );
    json_opt(out, Some(e.to_string().as_bytes()));
    out.push(b'}');
}

/// `FILE:LINE:COL: message`, COL being the 1-based byte column.
#[inline(never)]
pub fn check_line(out: &mut Vec<u8>, file: &str, line: u64, err: &Error) {
    // The numbers by `push_u64`, the message by its `Display`.
    out.extend_from_slice(file.as_bytes());
    out.push(b':');
    push_u64(out, line);
    out.push(b':');
    push_u64(out, err.offset() as u64 + 1);
    let _ = writeln!(out, ": {err}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes() {
        let mut out = Vec::new();
        json_opt(&mut out, Some(b"a\"b\\c\n\x01\xff\xc3\xa9"));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"a\\\"b\\\\c\\n\\u0001\u{FFFD}\u{e9}\""
        );
    }

    #[test]
    fn decimal() {
        // Every count of digits, at both its ends, and the first thousand.
        let edges = (0..20).flat_map(|k| {
            let p = 10u64.pow(k);
            [p - 1, p, p + 1]
        });
        for n in edges.chain(0..1000).chain([u64::from(u32::MAX), u64::MAX]) {
            let mut out = b"x".to_vec();
            push_u64(&mut out, n);
            assert_eq!(out, format!("x{n}").into_bytes());
        }
    }

    #[test]
    fn tsv_escapes() {
        let mut out = Vec::new();
        tsv_field(&mut out, Some(b"a\tb\\c\x00\xfe\x7f\r\n\xc3\xa9\xc3"));
        tsv_field(&mut out, None);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "a\\tb\\\\c\\x00\\xfe\\x7f\\r\\n\u{e9}\\xc3\\N"
        );
    }

    /// `tsv_field` is lossless: its escapes undone, every byte string comes
    /// back (all 256 bytes, alone and around a multi-byte character), and
    /// the field is UTF-8 with no TAB, LF or CR.
    #[test]
    fn tsv_round_trips() {
        fn unescape(field: &[u8]) -> Vec<u8> {
            let mut out = Vec::new();
            let mut i = 0;
            while i < field.len() {
                if field[i] != b'\\' {
                    out.push(field[i]);
                    i += 1;
                    continue;
                }
                match field[i + 1] {
                    b't' => out.push(b'\t'),
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b'\\' => out.push(b'\\'),
                    b'x' => {
                        let hex = std::str::from_utf8(&field[i + 2..i + 4]).unwrap();
                        out.push(u8::from_str_radix(hex, 16).unwrap());
                        i += 2;
                    }
                    other => panic!("unknown escape {other}"),
                }
                i += 2;
            }
            out
        }
        for b in 0..=255u8 {
            for bytes in [
                vec![b],
                vec![b'a', b, 0xc3, 0xa9, b, b'z'],
                vec![0xe2, 0x82, b],
            ] {
                let mut out = Vec::new();
                tsv_field(&mut out, Some(&bytes));
                assert!(std::str::from_utf8(&out).is_ok(), "{bytes:?}");
                assert!(!out.iter().any(|c| b"\t\n\r".contains(c)), "{bytes:?}");
                assert_eq!(unescape(&out), bytes);
            }
        }
    }
}
