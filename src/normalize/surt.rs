//! The SURT key (Sort-friendly URI Reordering Transform) exactly as the
//! Internet Archive's Python `surt` library, version 0.3.1, computes it with
//! its default options (`surt.surt(url)`), quirks included. Written from the
//! library's observed behaviour (`scripts/surt-diff.py` compares the two on
//! every line of the corpora and of `scripts/surt_cases.py`); none of its
//! code is here. `docs/SURT.md` lists each surprising behaviour with an
//! example.
//!
//! The steps, on the raw bytes of any line (it need not be a URI):
//!
//! 1. an empty line is `-`; a line starting with `filedesc` is its own key;
//! 2. ASCII whitespace is trimmed, TAB, CR and LF removed everywhere; a line
//!    without a scheme gets `http://`; repeated `http://`/`https://` prefixes
//!    keep the last one;
//! 3. the split of RFC 3986 Appendix B; the host is what follows the last
//!    `@` of the authority, up to a `:` (or the inside of `[...]`); trailing
//!    `:`s are dropped; a port is digits (another port makes the library
//!    raise), port 0 is none; a `http*` scheme without host takes the first
//!    segment of the path as its host (`http:////a/b` -> host `a`);
//! 4. the host is percent-decoded until nothing changes, IDNA-encoded when
//!    not ASCII (IDNA 2003, kept as it is when that fails), `..` becomes `.`,
//!    outer dots go; a number or a dotted numeric host is read as an IPv4
//!    address (`inet_aton`: octal parts, short forms, the integer modulo
//!    2^32); else it is lowercased and escaped;
//! 5. the path is percent-decoded until nothing changes; with a host, dot
//!    segments are removed and empty segments but the last are dropped
//!    (`/../` at the root stays); it is escaped (bytes below `!`, `#`, `%`,
//!    DEL and non-ASCII), lowercased, cleaned of ASP.NET session segments
//!    and of a trailing `/`;
//! 6. the query is decoded and escaped the same way, cleaned of session ids
//!    (`jsessionid`, `phpsessid`, `sid`, `ASPSESSIONID`, `cfid`+`cftoken`),
//!    lowercased and its parameters sorted; an empty query goes;
//! 7. a `www`, `www1`... label is stripped from the host (scheme `dns`
//!    aside), the default port of `http` (80) and `https` (443) goes, and
//!    the key is `host,labels,reversed[:port])path[?query]`, or
//!    `scheme:path[?query]` without a host. The fragment is dropped.
//!
//! Left out on purpose: IDNA's `nameprep` is approximated (lowercasing,
//! the common compatibility mappings and prohibited characters; no full
//! NFKC), see `docs/SURT.md`.

use std::cell::RefCell;

use super::swar;
use crate::classes::{self, hex_value, is};
pub(crate) use fast::key_uri;
use session::{strip_path_session, strip_query_session};

/// Buffers reused from line to line, so that keying a line allocates
/// nothing once they have grown.
#[derive(Default)]
struct Scratch {
    url: Vec<u8>,
    host: Vec<u8>,
    path: Vec<u8>,
    query: Vec<u8>,
    tmp: Vec<u8>,
    ranges: Vec<(usize, usize)>,
    params: Vec<(u64, [usize; 3])>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// What [`key`] tells of the key it wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Keyed {
    /// `false` for the lines on which the library raises an exception (a
    /// port that is not a number up to 65535, a line of whitespace): their
    /// key is then the one the library would give if it kept the port
    /// (escaped like a path), or `-` for blank lines.
    pub exact: bool,
    /// Where the query starts in `out` (after its `?`), if it has one.
    pub query: Option<usize>,
}

/// Appends the SURT key of `line` to `out`, as `surt.surt(line)` of the
/// Python `surt` library 0.3.1 gives it.
pub(crate) fn key(line: &[u8], out: &mut Vec<u8>) -> Keyed {
    let exact = Keyed {
        exact: true,
        query: None,
    };
    if line.is_empty() {
        out.push(b'-');
        return exact;
    }
    if line.starts_with(b"filedesc") {
        out.extend_from_slice(line);
        return exact;
    }
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => key_with(line, out, &mut s),
        // Only reentrant use could get here; keep working.
        Err(_) => key_with(line, out, &mut Scratch::default()),
    })
}

fn key_with(line: &[u8], out: &mut Vec<u8>, s: &mut Scratch) -> Keyed {
    let Scratch {
        url,
        host,
        path,
        query,
        tmp,
        ranges,
        params,
    } = s;
    // Step 2: trim, remove TAB CR LF, add a scheme, collapse http:// runs.
    url.clear();
    // Python's whitespace: with VT, unlike `u8::is_ascii_whitespace`.
    let space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let start = line.iter().position(|b| !space(b)).unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|b| !space(b))
        .map_or(start, |i| i + 1);
    if start == end {
        out.push(b'-');
        return Keyed::default();
    }
    url.extend_from_slice(b"http://");
    let trimmed = &line[start..end];
    if memchr::memchr3(b'\t', b'\r', b'\n', trimmed).is_some() {
        url.extend(
            trimmed
                .iter()
                .filter(|&&b| !matches!(b, b'\t' | b'\r' | b'\n')),
        );
    } else {
        url.extend_from_slice(trimmed);
    }
    let url = if has_scheme(&url[7..]) {
        &url[7..]
    } else {
        &url[..]
    };
    let mut from = 0;
    let mut last = None;
    loop {
        let rest = &url[from..];
        let n = if rest.starts_with(b"http://") {
            7
        } else if rest.starts_with(b"https://") {
            8
        } else {
            break;
        };
        last = Some(from);
        from += n;
    }
    let url = &url[last.unwrap_or(0)..];

    // Step 3: the split.
    let colon = url.iter().position(|&b| b == b':').unwrap_or(0);
    let scheme = &url[..colon];
    let rest = &url[colon + 1..];
    let (netloc, rest) = match rest.strip_prefix(b"//") {
        Some(r) => {
            let end = r
                .iter()
                .position(|&b| matches!(b, b'/' | b'?' | b'#'))
                .unwrap_or(r.len());
            (Some(&r[..end]), &r[end..])
        }
        None => (None, rest),
    };
    let path_end = rest
        .iter()
        .position(|&b| matches!(b, b'?' | b'#'))
        .unwrap_or(rest.len());
    let raw_path = &rest[..path_end];
    let raw_query = match rest.get(path_end) {
        Some(b'?') => {
            let q = &rest[path_end + 1..];
            &q[..q.iter().position(|&b| b == b'#').unwrap_or(q.len())]
        }
        _ => &b""[..],
    };
    let (mut raw_host, mut port, mut exact): (&[u8], Option<&[u8]>, bool) = (b"", None, true);
    if let Some(netloc) = netloc {
        let netloc = trim_end_of(netloc, b':');
        let info = match netloc.iter().rposition(|&b| b == b'@') {
            Some(at) => &netloc[at + 1..],
            None => netloc,
        };
        let (h, p) = match info.iter().position(|&b| b == b'[') {
            Some(open) => {
                let inside = &info[open + 1..];
                match inside.iter().position(|&b| b == b']') {
                    Some(close) => {
                        let after = &inside[close + 1..];
                        let p = after
                            .iter()
                            .position(|&b| b == b':')
                            .map_or(&b""[..], |c| &after[c + 1..]);
                        (&inside[..close], p)
                    }
                    None => (inside, &b""[..]),
                }
            }
            None => match info.iter().position(|&b| b == b':') {
                Some(c) => (&info[..c], &info[c + 1..]),
                None => (info, &b""[..]),
            },
        };
        raw_host = h;
        (port, exact) = read_port(p);
    }
    let mut raw_path = raw_path;
    if raw_host.is_empty() && scheme.starts_with(b"http") && !raw_path.is_empty() {
        let t = trim_start_of(raw_path, b'/');
        let slash = t.iter().position(|&b| b == b'/');
        raw_host = &t[..slash.unwrap_or(t.len())];
        raw_path = slash.map_or(b"/", |i| &t[i..]);
    }

    // Step 4: the host.
    host.clear();
    if !raw_host.is_empty() {
        unescape_repeatedly(raw_host, host, tmp);
        if !host.is_ascii() {
            tmp.clear();
            if idna::encode(host, tmp) {
                std::mem::swap(host, tmp);
            }
        }
        collapse_dots(host);
        if !ip_formats(host, tmp) {
            tmp.clear();
            escape_once(host, tmp);
        }
        std::mem::swap(host, tmp);
    }

    // Step 5: the path.
    path.clear();
    unescape_repeatedly(raw_path, tmp, path);
    if !host.is_empty() {
        normalize_path(tmp, path, ranges);
        std::mem::swap(path, tmp);
    }
    path.clear();
    escape_once(tmp, path);
    strip_path_session(path);
    if path.len() > 1 && path.last() == Some(&b'/') {
        path.pop();
    }

    // Step 6: the query.
    query.clear();
    let has_query = if raw_query.is_empty() {
        false
    } else {
        unescape_repeatedly(raw_query, tmp, query);
        query.clear();
        escape_once(tmp, query);
        strip_query_session(query, tmp);
        sort_query(query, tmp, params);
        !query.is_empty()
    };

    // Step 7: www, port, and the key.
    let query = has_query.then_some(&query[..]);
    write_key(scheme, host, port, exact, path, query, out)
}

/// The port of the library's split: `None` when empty or 0; not exact
/// (the library raises) when not a number up to 65535.
fn read_port(p: &[u8]) -> (Option<&[u8]>, bool) {
    if p.is_empty() {
        return (None, true);
    }
    let value = p.iter().try_fold(0u32, |v, &b| {
        b.is_ascii_digit()
            .then(|| v.saturating_mul(10).saturating_add(u32::from(b - b'0')))
    });
    match value {
        Some(0) => (None, true),
        Some(v) if v <= 65535 => (Some(p), true),
        _ => (Some(p), false),
    }
}

/// Step 7: appends to `out` the key of the host, port, path and query
/// (`None`: no query) that steps 3-6 made: a `www`, `www1`... label
/// stripped from the host (scheme `dns` aside), the default port of `http`
/// (80) and `https` (443) dropped, then `host,labels,reversed[:port])path
/// [?query]`, or `scheme:path[?query]` without a host.
fn write_key(
    scheme: &[u8],
    host: &[u8],
    port: Option<&[u8]>,
    exact: bool,
    path: &[u8],
    query: Option<&[u8]>,
    out: &mut Vec<u8>,
) -> Keyed {
    write_host(scheme, host, port, exact, out);
    let path_at = out.len();
    out.extend_from_slice(path);
    write_query(path_at, query, exact, out)
}

/// The part of step 7 before the path: `host,labels,reversed[:port])`, or
/// `scheme:` without a host (or with a `www` host only).
fn write_host(scheme: &[u8], host: &[u8], port: Option<&[u8]>, exact: bool, out: &mut Vec<u8>) {
    let mut h = host;
    if !h.is_empty() && scheme != b"dns" {
        h = &h[www_prefix(h)..];
    }
    if h.is_empty() {
        out.extend_from_slice(scheme);
        out.push(b':');
        return;
    }
    // The labels reversed, in place: the whole host reversed, then each
    // label (one copy instead of one per label).
    let at = out.len();
    out.extend_from_slice(h);
    let labels = &mut out[at..];
    labels.reverse();
    for label in labels.split_mut(|&b| b == b'.') {
        label.reverse();
    }
    for b in labels.iter_mut().filter(|b| **b == b'.') {
        *b = b',';
    }
    write_port(scheme, port, exact, out);
}

/// The end of step 7's host: `:port` unless it is the scheme's default,
/// then `)`.
fn write_port(scheme: &[u8], port: Option<&[u8]>, exact: bool, out: &mut Vec<u8>) {
    if let Some(p) = port {
        let default: &[u8] = if scheme.eq_ignore_ascii_case(b"http") {
            b"80"
        } else if scheme.eq_ignore_ascii_case(b"https") {
            b"443"
        } else {
            b""
        };
        let digits = trim_start_of(p, b'0');
        if !exact {
            // A port the library raises on: kept, escaped like a path.
            out.push(b':');
            escape_once(p, out);
        } else if digits != default {
            out.push(b':');
            out.extend_from_slice(digits);
        }
    }
    out.push(b')');
}

/// The end of step 7, after the path written from `path_at`: a `/` for an
/// empty path with a query, and `?query`.
fn write_query(path_at: usize, query: Option<&[u8]>, exact: bool, out: &mut Vec<u8>) -> Keyed {
    let mut at = None;
    if let Some(query) = query {
        if out.len() == path_at {
            out.push(b'/');
        }
        out.push(b'?');
        at = Some(out.len());
        out.extend_from_slice(query);
    }
    Keyed { exact, query: at }
}

/// Whether `s` starts with `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`.
fn has_scheme(s: &[u8]) -> bool {
    if !s.first().is_some_and(|&b| is(b, classes::ALPHA)) {
        return false;
    }
    let n = s
        .iter()
        .position(|&b| !is(b, classes::SCHEME))
        .unwrap_or(s.len());
    s.get(n) == Some(&b':')
}

fn trim_end_of(s: &[u8], b: u8) -> &[u8] {
    &s[..s.iter().rposition(|&c| c != b).map_or(0, |i| i + 1)]
}

fn trim_start_of(s: &[u8], b: u8) -> &[u8] {
    &s[s.iter().position(|&c| c != b).unwrap_or(s.len())..]
}

/// Percent-decodes `src` into `out` (cleared first) until nothing changes;
/// a `%` without two hex digits stays. `tmp` is scratch.
fn unescape_repeatedly(src: &[u8], out: &mut Vec<u8>, tmp: &mut Vec<u8>) {
    if !unescape_once(src, out) {
        return;
    }
    loop {
        std::mem::swap(out, tmp);
        if !unescape_once(tmp, out) {
            return;
        }
    }
}

/// One round of [`unescape_repeatedly`] from `src` into `out` (cleared
/// first): whether it decoded something and left a `%`, which may start an
/// escape now (`%2541`, or `%%34%31` which is `%41`).
fn unescape_once(src: &[u8], out: &mut Vec<u8>) -> bool {
    out.clear();
    let (mut decoded, mut pct) = (false, false);
    let mut rest = src;
    while let Some(i) = memchr::memchr(b'%', rest) {
        out.extend_from_slice(&rest[..i]);
        match (
            rest.get(i + 1).and_then(|&b| hex(b)),
            rest.get(i + 2).and_then(|&b| hex(b)),
        ) {
            (Some(h), Some(l)) => {
                let b = h << 4 | l;
                decoded = true;
                pct |= b == b'%';
                out.push(b);
                rest = &rest[i + 3..];
            }
            _ => {
                pct = true;
                out.push(b'%');
                rest = &rest[i + 1..];
            }
        }
    }
    out.extend_from_slice(rest);
    decoded && pct
}

fn hex(b: u8) -> Option<u8> {
    is(b, classes::HEXDIG).then(|| hex_value(b))
}

/// Appends `src` to `out` lowercased, with the bytes up to space, `#`, `%`,
/// DEL and the non-ASCII ones percent-encoded in lowercase hex (the library
/// escapes in uppercase, then lowercases the host, the path and the query).
fn escape_once(src: &[u8], out: &mut Vec<u8>) {
    out.reserve(src.len());
    // Eight bytes at a time where none is escaped (most words): lowercased
    // and copied at once.
    let mut words = src.chunks_exact(8);
    for word in &mut words {
        let w = swar::load(word);
        if escaped_bytes(w) == 0 {
            out.extend_from_slice(&swar::lowercase(w).to_le_bytes());
        } else {
            word.iter().for_each(|&b| push_escaped(b, out));
        }
    }
    words.remainder().iter().for_each(|&b| push_escaped(b, out));
}

/// The high bit of each byte of `w` that [`escape_once`] escapes: below
/// `!`, `#`, `%`, DEL and the non-ASCII ones (as [`push_escaped`]'s map
/// says, a word at a time).
#[inline(always)]
fn escaped_bytes(w: u64) -> u64 {
    use swar::{bytes_eq, HI, LO};
    // A byte of 0x21 or more (ASCII) gets its high bit in the sum.
    let below = !((w & !HI).wrapping_add(LO * u64::from(0x80 - b'!'))) & HI;
    (w & HI) | below | bytes_eq(w, 0x7f) | bytes_eq(w, b'#') | bytes_eq(w, b'%')
}

/// [`escape_once`] of one byte.
#[inline(always)]
fn push_escaped(b: u8, out: &mut Vec<u8>) {
    // Each byte's lowercase form, or 0 for the bytes escaped (no letter is).
    const MAP: [u8; 256] = {
        let mut m = [0u8; 256];
        let mut b = b'!';
        while b < 0x7f {
            if b != b'#' && b != b'%' {
                m[b as usize] = b.to_ascii_lowercase();
            }
            b += 1;
        }
        m
    };
    match MAP[usize::from(b)] {
        0 => out.extend_from_slice(&classes::pct_encode(b, classes::HEX_LOWER)),
        c => out.push(c),
    }
}

/// Replaces each `..` by `.` (left to right, not overlapping), then removes
/// the leading and trailing dots.
fn collapse_dots(host: &mut Vec<u8>) {
    let mut w = 0;
    let mut r = 0;
    while r < host.len() {
        host[w] = host[r];
        w += 1;
        r += if host[r] == b'.' && host.get(r + 1) == Some(&b'.') {
            2
        } else {
            1
        };
    }
    host.truncate(w);
    let end = host.iter().rposition(|&b| b != b'.').map_or(0, |i| i + 1);
    host.truncate(end);
    let start = host.iter().position(|&b| b != b'.').unwrap_or(host.len());
    host.drain(..start);
}

/// Writes into `out` (cleared) the dotted IPv4 address that `host` reads as:
/// all digits (the number modulo 2^32), or up to four dotted parts, the
/// first without a leading zero and decimal, or all octal with a leading
/// `0` (as `inet_aton` reads them). Returns `false` for other hosts.
fn ip_formats(host: &[u8], out: &mut Vec<u8>) -> bool {
    out.clear();
    if host.is_empty() {
        return false;
    }
    let value = if host.iter().all(u8::is_ascii_digit) {
        host.iter().fold(0u32, |v, &b| {
            v.wrapping_mul(10).wrapping_add(u32::from(b - b'0'))
        })
    } else {
        let parts = host.split(|&b| b == b'.');
        let n = parts.clone().count();
        let all_digits = parts
            .clone()
            .all(|p| !p.is_empty() && p.iter().all(u8::is_ascii_digit));
        if n > 4 || !all_digits {
            return false;
        }
        let decimal = host[0] != b'0';
        let octal = !decimal
            && host
                .iter()
                .all(|&b| b == b'.' || (b'0'..=b'7').contains(&b));
        if !(decimal || octal) {
            return false;
        }
        match inet_aton(host) {
            Some(v) => v,
            None => return false,
        }
    };
    for (i, o) in value.to_be_bytes().into_iter().enumerate() {
        if i > 0 {
            out.push(b'.');
        }
        // Decimal, without `fmt` (which costs ten times as much).
        if o >= 100 {
            out.push(b'0' + o / 100);
        }
        if o >= 10 {
            out.push(b'0' + o / 10 % 10);
        }
        out.push(b'0' + o % 10);
    }
    true
}

/// `inet_aton` of up to four dotted parts of digits (each decimal, or octal
/// with a leading `0`).
fn inet_aton(host: &[u8]) -> Option<u32> {
    let mut parts = [0u64; 4];
    let mut n = 0;
    for p in host.split(|&b| b == b'.') {
        let (digits, radix) = if p.len() > 1 && p[0] == b'0' {
            (&p[1..], 8)
        } else {
            (p, 10)
        };
        let mut v: u64 = 0;
        for &b in digits {
            let d = u64::from(b - b'0');
            if d >= radix {
                return None;
            }
            v = v.saturating_mul(radix).saturating_add(d);
        }
        parts[n] = v;
        n += 1;
    }
    let last = parts[n - 1];
    let max_last = [0xffff_ffff, 0xff_ffff, 0xffff, 0xff][n - 1];
    if parts[..n - 1].iter().any(|&p| p > 0xff) || last > max_last {
        return None;
    }
    let mut v = last;
    for (i, &p) in parts[..n - 1].iter().enumerate() {
        v |= p << (24 - 8 * i);
    }
    Some(v as u32)
}

/// The path normalization of a path with a host: dot segments removed
/// (`..` at the root kept), empty segments dropped except the last, so a
/// trailing `/` stays; an empty path is `/`. `path` is scratch on return.
fn normalize_path(src: &[u8], out: &mut Vec<u8>, kept: &mut Vec<(usize, usize)>) {
    out.clear();
    out.push(b'/');
    if src.is_empty() {
        return;
    }
    kept.clear();
    let mut start = 0;
    let mut first = true;
    for seg in src.split(|&b| b == b'/') {
        let range = (start, start + seg.len());
        start += seg.len() + 1;
        if first {
            first = false;
            continue;
        }
        match seg {
            b"." => {}
            b".." => {
                if kept.pop().is_none() {
                    kept.push(range);
                }
            }
            _ => kept.push(range),
        }
    }
    if let Some((&last, init)) = kept.split_last() {
        for &(a, b) in init {
            if b > a {
                out.extend_from_slice(&src[a..b]);
                out.push(b'/');
            }
        }
        out.extend_from_slice(&src[last.0..last.1]);
    }
}

/// Sorts the `&`-separated parameters of `query` by key, then (a parameter
/// without `=` first) by value, bytewise.
fn sort_query(query: &mut Vec<u8>, tmp: &mut Vec<u8>, params: &mut Vec<(u64, [usize; 3])>) {
    tmp.clear();
    sort_query_into(query, params, tmp);
    std::mem::swap(query, tmp);
}

/// [`sort_query`], appending the sorted query to `out`. `params` is
/// scratch (see [`split_params`]).
fn sort_query_into(query: &[u8], params: &mut Vec<(u64, [usize; 3])>, out: &mut Vec<u8>) {
    split_params(query, params, |_| false);
    write_sorted(query, params, out);
}

/// Splits `query` into `params`: each parameter's first bytes (as
/// [`order_prefix`] gives them), start, first `=` (its end when it has
/// none) and end; none when `query` has no `&` (there is nothing to
/// sort). One pass eight bytes at a time, visiting only the `&` and `=`
/// (queries are short, and a per-byte loop cost a tenth of the surt
/// profile's instructions). Returns whether `at_eq` held for any `=`.
fn split_params(
    query: &[u8],
    params: &mut Vec<(u64, [usize; 3])>,
    mut at_eq: impl FnMut(usize) -> bool,
) -> bool {
    params.clear();
    let (mut start, mut eq, mut seen) = (0, None, false);
    // Whole words, then the last bytes padded with NULs (neither `&` nor
    // `=`), in one loop so that its body is inlined once.
    let mut base = 0;
    while base < query.len() {
        let w = if base + 8 <= query.len() {
            swar::load(&query[base..])
        } else {
            swar::tail(query)
        };
        let amps = swar::bytes_eq(w, b'&');
        let mut marks = amps | swar::bytes_eq(w, b'=');
        while marks != 0 {
            let bit = marks.trailing_zeros();
            let i = base + bit as usize / 8;
            if amps >> bit & 1 != 0 {
                let p = [start, eq.unwrap_or(i), i];
                params.push((order_prefix(query, p), p));
                (start, eq) = (i + 1, None);
            } else {
                eq = eq.or(Some(i));
                seen |= at_eq(i);
            }
            marks &= marks - 1;
        }
        base += 8;
    }
    if !params.is_empty() {
        let p = [start, eq.unwrap_or(query.len()), query.len()];
        params.push((order_prefix(query, p), p));
    }
    seen
}

/// Appends `query`, split into `params` by [`split_params`], to `out` with
/// its parameters sorted (by key, then none first by value).
fn write_sorted(query: &[u8], params: &mut [(u64, [usize; 3])], out: &mut Vec<u8>) {
    let split = |[a, e, b]: [usize; 3]| (&query[a..e], (e < b).then(|| &query[e + 1..b]));
    let order = |x: &(u64, [usize; 3]), y: &(u64, [usize; 3])| {
        x.0.cmp(&y.0).then_with(|| split(x.1).cmp(&split(y.1)))
    };
    if params.windows(2).all(|w| order(&w[0], &w[1]).is_le()) {
        out.extend_from_slice(query);
        return;
    }
    params.sort_by(order);
    for (i, &(_, [a, _, b])) in params.iter().enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        out.extend_from_slice(&query[a..b]);
    }
}

/// The first eight bytes of the parameter `query[a..b]` whose key ends at
/// `e`, as a big-endian number, with its `=` as a zero byte and zeros
/// after its end. The order of parameters (by key, then none first by
/// value) is that of their bytes with the `=` after the key as the lowest
/// byte (a query has no NUL: it would be escaped), so a smaller prefix is
/// a smaller parameter, and only equal prefixes need their bytes compared.
#[inline(always)]
fn order_prefix(query: &[u8], [a, e, b]: [usize; 3]) -> u64 {
    // (No copy of a variable length, which is a call of `memcpy`.)
    let mut word = swar::word(&query[a..b]);
    if e - a < 8 && e < b {
        word &= !(0xff << (8 * (e - a)));
    }
    word.swap_bytes()
}

/// The length of a leading `www.`, `www1.`, `www23.`... of `host` (any
/// case), or 0.
fn www_prefix(host: &[u8]) -> usize {
    if !host
        .get(..3)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"www"))
    {
        return 0;
    }
    let digits = host[3..].iter().take_while(|b| b.is_ascii_digit()).count();
    if host.get(3 + digits) == Some(&b'.') {
        4 + digits
    } else {
        0
    }
}

mod fast;
mod idna;
mod nfkc;
mod session;
mod stringprep;
mod ucd;

#[cfg(test)]
mod tests;
