//! Profile `web`: the key that Python crawlers compute with w3lib's
//! `canonicalize_url(url)` (w3lib 2.5.0, default arguments; Scrapy's request
//! fingerprints and duplicate filter use it), byte for byte on RFC 3986 URI
//! references, so that keys made by uriscan join with theirs. Written from
//! the library's observed behaviour and checked against it
//! (`tests/web_oracle.rs`); `docs/WEB.md` has the table of behaviours.
//!
//! In this order:
//!
//! 1. the scheme is lowercased;
//! 2. userinfo: the user and the password (split at the first `:`) are
//!    percent-decoded and re-encoded, every byte but `unreserved` and
//!    `!$&'()*+,` as `%HH` (so `;`, `=` and a second `:` get encoded);
//! 3. the host is lowercased, escapes included (`%C3` -> `%c3`; they are not
//!    decoded); an IPv6 address is written in its RFC 5952 form;
//! 4. a port loses its leading zeros; an empty port goes; a default port
//!    stays (`http://a:80/`);
//! 5. the path's last segment is split at its first `;` (the "params" of
//!    `http`, `https`, `ftp` and the other schemes of Python's
//!    `uses_params`, and of relative references), which is kept verbatim
//!    (dropped when empty); before it, every escape is decoded except
//!    `%25 %2F %3B %3F`, and what is not `unreserved`, a `sub-delim`, `:` or
//!    `@` is re-encoded in uppercase; a path starting with `/` has its dot
//!    segments removed (after decoding); an empty path after an authority
//!    becomes `/`;
//! 6. the query is read as a form (split at `&`, empty fields dropped, `+`
//!    and escapes decoded), its pairs sorted by key then value (bytes) and
//!    written back form-encoded: `key=value` (the `=` always), `unreserved`
//!    bytes as they are, a space as `+`, every other byte as `%HH`; a query
//!    left empty goes;
//! 7. the fragment goes.
//!
//! Where the library's output would not be the same kind of reference, or
//! not an RFC 3986 reference at all, uriscan keeps its own (and
//! `docs/WEB.md` lists them): `[`, `]` and `|` decoded from a path stay
//! encoded; an IPvFuture literal keeps its brackets; an empty path without
//! an authority stays empty (w3lib writes `/`, which changes what a
//! relative reference or a `mailto:` means); a URI without authority gets
//! none (w3lib writes `http:/a` as `http:///a`); the first segment of a
//! relative path keeps `%3A` (a `:` would make it a scheme); a path without
//! authority is never written starting with `//`; a port above 65535 (on
//! which the library raises) is kept, without leading zeros; an IPv4-mapped
//! IPv6 address is written `::ffff:1.2.3.4` (RFC 5952 section 5, and
//! Python 3.13's `ipaddress`; Python 3.11 writes `::ffff:102:304`).
//!
//! The switches: `drop_params` drops the pairs whose encoded key matches;
//! `sort_query: false` keeps the pairs' order; `drop_empty_query: false`
//! writes a query left empty as `?`; `strip_fragment: false` keeps a
//! non-empty fragment verbatim (as `keep_fragments=True` does);
//! `strip_www` and `strip_trailing_dot` change the host as in `rfc3986`.

use std::cell::RefCell;
use std::ops::Range;

use super::resolve::{changes_keeping_shape, remove_dots_keeping_shape};
use super::{strips_www, swar, Normalizer};
use crate::classes::{self, hex_value};
use crate::grammar::HostKind;
use crate::uri::{Host, Ipv6Literal, Uri};

/// The schemes whose last path segment has `;params` (Python's
/// `urllib.parse.uses_params`; relative references too), each as a word
/// ([`classes::name_word`]: none is longer than eight bytes).
const USES_PARAMS: [u64; 15] = {
    const NAMES: [&[u8]; 15] = [
        b"http",
        b"https",
        b"ftp",
        b"hdl",
        b"prospero",
        b"imap",
        b"shttp",
        b"rtsp",
        b"rtsps",
        b"rtspu",
        b"sip",
        b"sips",
        b"mms",
        b"sftp",
        b"tel",
    ];
    let mut words = [0; 15];
    let mut i = 0;
    while i < 15 {
        words[i] = classes::name_word(NAMES[i]);
        i += 1;
    }
    words
};

/// The scratch of [`Normalizer::write_form`], reused from line to line.
#[derive(Default)]
struct Form {
    /// The decoded keys and values that are not their own decoding, one
    /// after the other.
    decoded: Vec<u8>,
    /// Each pair's key and value.
    pairs: Vec<(Piece, Piece)>,
}

/// A key or a value of a query read as a form: `raw` (only `unreserved`
/// bytes, which are their own decoding and encoding: most keys and values)
/// bytes `at` of the query, else bytes `at` of [`Form::decoded`]; `first`,
/// a key's first eight bytes big-endian (zeros after its end), which order
/// most pairs without looking at their bytes.
#[derive(Clone)]
struct Piece {
    at: Range<usize>,
    raw: bool,
    first: u64,
}

impl Piece {
    /// The bytes `at` of the query `q`, decoded: themselves when they are
    /// `raw` (only `unreserved` bytes), else appended to `decoded`; `first`
    /// of a `key` (0 for a value, which sorts after its key).
    fn of(q: &[u8], at: Range<usize>, raw: bool, decoded: &mut Vec<u8>, key: bool) -> Piece {
        let s = &q[at.clone()];
        let at = if raw { at } else { decode_form(s, decoded) };
        let mut first = [0; 8];
        if key {
            let bytes = if raw { s } else { &decoded[at.clone()] };
            let n = bytes.len().min(8);
            first[..n].copy_from_slice(&bytes[..n]);
        }
        Piece {
            at,
            raw,
            first: u64::from_be_bytes(first),
        }
    }

    /// The decoded bytes: of the query `q`, or of `decoded`.
    fn bytes<'b>(&self, q: &'b [u8], decoded: &'b [u8]) -> &'b [u8] {
        if self.raw {
            &q[self.at.clone()]
        } else {
            &decoded[self.at.clone()]
        }
    }
}

thread_local! {
    static FORM: RefCell<Form> = RefCell::new(Form::default());
}

/// What [`Normalizer::web_verdict`] found of the query of a URI that is
/// not normal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum QueryKnown {
    /// Not looked at.
    Unknown,
    /// Written as it is (it has one).
    Normal,
    /// Rewritten.
    NotNormal,
}

impl Normalizer {
    /// Appends the `web` key of `uri` (see the module documentation);
    /// `query`: what a [`Normalizer::web_verdict`] found of its query.
    pub(super) fn web(&self, uri: &Uri<'_>, out: &mut Vec<u8>, query: QueryKnown) {
        let split = uri.split();
        let scheme = split.scheme_span().map(|s| uri.raw(s));
        if let Some(s) = scheme {
            let at = out.len();
            out.extend_from_slice(s);
            out[at..].make_ascii_lowercase();
            out.push(b':');
        }
        let has_authority = uri.parts().is_some();
        if let Some(parts) = uri.parts() {
            out.extend_from_slice(b"//");
            if let Some(u) = parts.userinfo() {
                let u = uri.raw(u);
                let (user, password) = split_at_first(u, b':');
                reencode_userinfo(user, out);
                if let Some(p) = password {
                    out.push(b':');
                    reencode_userinfo(p, out);
                }
                out.push(b'@');
            }
            self.web_host(uri, out);
            if let Some(p) = parts.port().map(|p| uri.raw(p)) {
                if !p.is_empty() {
                    out.push(b':');
                    out.extend_from_slice(trim_zeros(p));
                }
            }
        }
        let (path, params) = split_params(scheme, uri.raw(split.path_span()));
        let at = out.len();
        let relative_path = scheme.is_none() && !has_authority;
        reencode_path(path, relative_path, out);
        if out[at..].first() == Some(&b'/') && changes_keeping_shape(&out[at..], has_authority) {
            let decoded = out.split_off(at);
            remove_dots_keeping_shape(&decoded, has_authority, out);
        }
        if has_authority && out.len() == at {
            out.push(b'/');
        }
        if let Some(p) = params.filter(|p| !p.is_empty()) {
            out.push(b';');
            out.extend_from_slice(p);
        }
        if let Some(q) = split.query_span().map(|q| uri.raw(q)) {
            self.web_query(q, out, query);
        }
        if let (Some(f), false) = (split.fragment_span(), self.strip_fragment) {
            let f = uri.raw(f);
            if !f.is_empty() {
                out.push(b'#');
                out.extend_from_slice(f);
            }
        }
    }

    fn web_host(&self, uri: &Uri<'_>, out: &mut Vec<u8>) {
        // Only an IPv6 address is parsed: it is written anew.
        if uri.host_kind() == Some(HostKind::Ipv6) {
            if let Some(Host::Ipv6(a)) = uri.parsed_host() {
                out.extend_from_slice(Ipv6Literal::new(a).as_bytes());
            }
            return;
        }
        let mut host = uri.host().unwrap_or_default().as_bytes();
        if self.strip_www && strips_www(host) {
            host = &host[4..];
        }
        let at = out.len();
        out.extend_from_slice(host);
        out[at..].make_ascii_lowercase();
        while self.strip_trailing_dot && out.len() > at + 1 && out.last() == Some(&b'.') {
            out.pop();
        }
    }

    /// Appends the query `q` (without its `?`) read as a form, its pairs
    /// sorted and written form-encoded; nothing when no pair is left and
    /// `drop_empty_query` is on.
    fn web_query(&self, q: &[u8], out: &mut Vec<u8>, known: QueryKnown) {
        let at = out.len();
        out.push(b'?');
        // The common case: a query already in its form, copied whole.
        let normal = match known {
            QueryKnown::Normal => true,
            QueryKnown::NotNormal => false,
            QueryKnown::Unknown => !q.is_empty() && self.web_query_is_normal(q),
        };
        if normal {
            out.extend_from_slice(q);
            return;
        }
        FORM.with(|form| match form.try_borrow_mut() {
            Ok(mut form) => self.write_form(q, out, &mut form),
            // Only reentrant use could get here; keep working.
            Err(_) => self.write_form(q, out, &mut Form::default()),
        });
        if out.len() > at + 1 && !self.drop.is_empty() {
            self.retain_params(out, at + 1);
        }
        if self.drop_empty_query && out.len() == at + 1 {
            out.pop();
        }
    }

    /// Appends the pairs of the query `q` decoded, sorted (with
    /// `sort_query`) and form-encoded; `form` is scratch. A key or value of
    /// `unreserved` bytes only is neither decoded nor encoded but copied.
    fn write_form(&self, q: &[u8], out: &mut Vec<u8>, form: &mut Form) {
        let Form { decoded, pairs } = form;
        decoded.clear();
        pairs.clear();
        let mut start = 0;
        while start < q.len() {
            let FormField { eq, end, raw, .. } = form_field::<false>(q, start);
            if end > start {
                let eq = eq.unwrap_or(end);
                let key = Piece::of(q, start..eq, raw[0], decoded, true);
                let value = Piece::of(q, (eq + 1).min(end)..end, raw[1], decoded, false);
                pairs.push((key, value));
            }
            start = end + 1;
        }
        if self.sort_query {
            // Unstable: equal pairs are equal bytes. Keys that differ in
            // their first eight bytes are ordered by those.
            let decoded = &decoded[..];
            let bytes = |p: &Piece| p.bytes(q, decoded);
            pairs.sort_unstable_by(|(k1, v1), (k2, v2)| {
                k1.first
                    .cmp(&k2.first)
                    .then_with(|| bytes(k1).cmp(bytes(k2)))
                    .then_with(|| bytes(v1).cmp(bytes(v2)))
            });
        }
        for (i, (k, v)) in pairs.iter().enumerate() {
            if i > 0 {
                out.push(b'&');
            }
            for (piece, after) in [(k, Some(b'=')), (v, None)] {
                if piece.raw {
                    out.extend_from_slice(&q[piece.at.clone()]);
                } else {
                    encode_form(&decoded[piece.at.clone()], out);
                }
                out.extend(after);
            }
        }
    }

    /// Whether [`Normalizer::web`] would give `uri` itself.
    pub(super) fn web_is_normal(&self, uri: &Uri<'_>) -> bool {
        self.web_verdict(uri).is_none()
    }

    /// `None` when [`Normalizer::web`] would give `uri` itself, else what
    /// the look found of its query, which the rewrite then need not look
    /// at again. The notes of the corpus pass (no uppercase letter before
    /// the path, no `/.`, no `%`) spare the passes that look for those.
    pub(super) fn web_verdict(&self, uri: &Uri<'_>) -> Option<QueryKnown> {
        let (plain, no_pct) = (uri.notes().is_plain(), uri.notes().has_no_pct());
        let split = uri.split();
        let scheme = split.scheme_span().map(|s| uri.raw(s));
        if !plain && scheme.is_some_and(|s| s.iter().any(u8::is_ascii_uppercase)) {
            return Some(QueryKnown::Unknown);
        }
        let has_authority = uri.parts().is_some();
        if let Some(parts) = uri.parts() {
            if let Some(u) = parts.userinfo() {
                let (user, password) = split_at_first(uri.raw(u), b':');
                if !userinfo_is_normal(user) || !password.is_none_or(userinfo_is_normal) {
                    return Some(QueryKnown::Unknown);
                }
            }
            if !self.web_host_is_normal(uri, plain) {
                return Some(QueryKnown::Unknown);
            }
            if let Some(p) = parts.port().map(|p| uri.raw(p)) {
                if trim_zeros(p).len() != p.len() || p.is_empty() {
                    return Some(QueryKnown::Unknown);
                }
            }
        }
        let (path, params) = split_params(scheme, uri.raw(split.path_span()));
        if (has_authority && path.is_empty())
            || params.is_some_and(<[u8]>::is_empty)
            || !(no_pct || path_is_normal(path, scheme.is_none() && !has_authority))
            || (!plain && path.first() == Some(&b'/') && changes_keeping_shape(path, has_authority))
        {
            return Some(QueryKnown::Unknown);
        }
        if let Some(q) = split.query_span().map(|q| uri.raw(q)) {
            if !self.web_query_is_normal(q) {
                return Some(QueryKnown::NotNormal);
            }
        }
        match split.fragment_span() {
            Some(f) if self.strip_fragment || f.range().is_empty() => Some(QueryKnown::Normal),
            _ => None,
        }
    }

    /// Whether the host is written as it is; `plain`: the corpus pass saw
    /// no uppercase letter in it.
    fn web_host_is_normal(&self, uri: &Uri<'_>, plain: bool) -> bool {
        let host = uri.host().unwrap_or_default();
        if uri.host_kind() == Some(HostKind::Ipv6) {
            let Some(Host::Ipv6(a)) = uri.parsed_host() else {
                return false;
            };
            return Ipv6Literal::new(a).as_bytes() == host.as_bytes();
        }
        let host = host.as_bytes();
        !((!plain && host.iter().any(u8::is_ascii_uppercase))
            || (self.strip_www && strips_www(host))
            || (self.strip_trailing_dot && host.len() > 1 && host.ends_with(b".")))
    }

    fn web_query_is_normal(&self, q: &[u8]) -> bool {
        if q.is_empty() {
            return !self.drop_empty_query;
        }
        let mut prev: Option<(&[u8], &[u8], bool)> = None;
        // Field by field, each in one pass over its bytes (a trailing `&`
        // leaves an empty last field, which is not normal).
        let mut start = 0;
        while start <= q.len() {
            let FormField {
                eq,
                end,
                raw,
                encoded,
            } = form_field::<true>(q, start);
            let (Some(eq), true) = (eq, encoded) else {
                return false;
            };
            let (k, v, plain) = (&q[start..eq], &q[eq + 1..end], raw == [true; 2]);
            if self.dropped(&q[start..end]) {
                return false;
            }
            if let (true, Some((pk, pv, p_plain))) = (self.sort_query, prev) {
                // Bytes without escapes or `+` are their decoded bytes.
                let order = if p_plain && plain {
                    (pk, pv).cmp(&(k, v))
                } else {
                    form_decoded(pk)
                        .cmp(form_decoded(k))
                        .then_with(|| form_decoded(pv).cmp(form_decoded(v)))
                };
                if order.is_gt() {
                    return false;
                }
            }
            prev = Some((k, v, plain));
            start = end + 1;
        }
        true
    }
}

/// `s` split at the first `sep`: what is before it, and what is after it if
/// there is one. (A plain loop: the pieces are short, where `memchr`'s set-up
/// costs more than it saves.)
fn split_at_first(s: &[u8], sep: u8) -> (&[u8], Option<&[u8]>) {
    match s.iter().position(|&b| b == sep) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    }
}

/// The port `p` (ASCII digits) without leading zeros; `0` for zero.
fn trim_zeros(p: &[u8]) -> &[u8] {
    let first = p.iter().position(|&b| b != b'0').unwrap_or(p.len());
    if first == p.len() && !p.is_empty() {
        &p[p.len() - 1..]
    } else {
        &p[first..]
    }
}

/// `path` split before the first `;` of its last segment, for the schemes
/// of [`USES_PARAMS`] and relative references (`urllib.parse.urlparse`'s
/// params): the path, and the params without their `;`.
fn split_params<'p>(scheme: Option<&[u8]>, path: &'p [u8]) -> (&'p [u8], Option<&'p [u8]>) {
    // Most paths have no `;`: one pass of words, no search from the end.
    if !swar::contains(path, b';') {
        return (path, None);
    }
    let uses = scheme.is_none_or(|s| {
        let w = swar::lowercase(swar::word(s));
        s.len() <= 8 && USES_PARAMS.contains(&w)
    });
    if !uses {
        return (path, None);
    }
    let last = path.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
    match path[last..].iter().position(|&b| b == b';') {
        Some(i) => (&path[..last + i], Some(&path[last + i + 1..])),
        None => (path, None),
    }
}

/// Whether the byte `v`, decoded from an escape in a path, is written as it
/// is: `unreserved`, a `sub-delim` but `;`, `:` or `@` (w3lib also writes
/// `[`, `]` and `|` so, which RFC 3986 does not allow in a path). A `:` in
/// the first segment of a relative path stays encoded.
fn path_keeps_decoded(v: u8, colon_encoded: bool) -> bool {
    match v {
        b';' => false,
        b':' => !colon_encoded,
        _ => classes::is(v, classes::PCHAR),
    }
}

/// Whether `e` is the normal escape of `v` in a path: kept encoded, in
/// uppercase (`%25 %2F %3B %3F` are never decoded).
fn path_escape_is_normal(h: u8, l: u8, colon_encoded: bool) -> bool {
    let v = hex_value(h) << 4 | hex_value(l);
    !h.is_ascii_lowercase()
        && !l.is_ascii_lowercase()
        && (matches!(v, b'%' | b'/' | b'?') || !path_keeps_decoded(v, colon_encoded))
}

/// Appends `path` with its escapes decoded where the profile decodes them
/// and the others in uppercase. `relative_path`: the path of a reference
/// with neither scheme nor authority, whose first segment keeps `%3A`.
fn reencode_path(path: &[u8], relative_path: bool, out: &mut Vec<u8>) {
    if !swar::contains(path, b'%') {
        out.extend_from_slice(path);
        return;
    }
    let first_end = first_segment_end(path, relative_path);
    let mut i = 0;
    while i < path.len() {
        let b = path[i];
        if b == b'%' {
            let (h, l) = (path[i + 1], path[i + 2]);
            let v = hex_value(h) << 4 | hex_value(l);
            if !matches!(v, b'%' | b'/' | b'?') && path_keeps_decoded(v, i < first_end) {
                out.push(v);
            } else {
                push_escape(v, out);
            }
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
}

/// Where the first segment of `path` ends if it is a relative path (its
/// `%3A` stays encoded), else 0.
fn first_segment_end(path: &[u8], relative_path: bool) -> usize {
    if relative_path {
        memchr::memchr(b'/', path).unwrap_or(path.len())
    } else {
        0
    }
}

/// Whether [`reencode_path`] leaves `path` as it is.
fn path_is_normal(path: &[u8], relative_path: bool) -> bool {
    let first_end = first_segment_end(path, relative_path);
    let mut i = 0;
    while let Some(at) = memchr::memchr(b'%', &path[i..]) {
        let at = i + at;
        if !path_escape_is_normal(path[at + 1], path[at + 2], at < first_end) {
            return false;
        }
        i = at + 3;
    }
    true
}

/// Whether `v` is written as it is in userinfo: `unreserved` and
/// `!$&'()*+,` (not `;`, `=` nor `:`).
fn userinfo_keeps(v: u8) -> bool {
    classes::is(v, classes::REG_NAME) && v != b';' && v != b'='
}

/// Appends `part` (a user or a password) decoded and re-encoded.
fn reencode_userinfo(part: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < part.len() {
        let mut v = part[i];
        if v == b'%' {
            v = hex_value(part[i + 1]) << 4 | hex_value(part[i + 2]);
            i += 2;
        }
        if userinfo_keeps(v) {
            out.push(v);
        } else {
            push_escape(v, out);
        }
        i += 1;
    }
}

/// Whether [`reencode_userinfo`] leaves `part` as it is.
fn userinfo_is_normal(part: &[u8]) -> bool {
    let mut i = 0;
    while i < part.len() {
        let b = part[i];
        if b == b'%' {
            let (h, l) = (part[i + 1], part[i + 2]);
            let v = hex_value(h) << 4 | hex_value(l);
            if h.is_ascii_lowercase() || l.is_ascii_lowercase() || userinfo_keeps(v) {
                return false;
            }
            i += 3;
        } else {
            if !userinfo_keeps(b) {
                return false;
            }
            i += 1;
        }
    }
    true
}

fn push_escape(v: u8, out: &mut Vec<u8>) {
    out.extend_from_slice(&classes::pct_encode(v, classes::HEX_UPPER));
}

/// The bytes of the form-encoded `s` (`+` is a space), lazily.
fn form_decoded(s: &[u8]) -> impl Iterator<Item = u8> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let b = *s.get(i)?;
        i += 1;
        Some(match b {
            b'+' => b' ',
            b'%' => {
                i += 2;
                hex_value(s[i - 2]) << 4 | hex_value(s[i - 1])
            }
            b => b,
        })
    })
}

/// Appends the form-decoded `s` to `decoded`; where it is.
fn decode_form(s: &[u8], decoded: &mut Vec<u8>) -> Range<usize> {
    let at = decoded.len();
    decoded.extend(form_decoded(s));
    at..decoded.len()
}

/// Appends `s` form-encoded: `unreserved` as it is, a space as `+`, every
/// other byte as `%HH`.
fn encode_form(s: &[u8], out: &mut Vec<u8>) {
    for &v in s {
        if classes::is(v, classes::UNRESERVED) {
            out.push(v);
        } else if v == b' ' {
            out.push(b'+');
        } else {
            push_escape(v, out);
        }
    }
}

/// A field of a query, read in one pass over its bytes: its first `=` at
/// `eq` (if it has one), its end (the next `&` or the query's end) at
/// `end`, whether its key and its value are `unreserved` bytes only
/// (`raw`: their own decoding and encoding), and whether it is `encoded`
/// as [`encode_form`] writes its decoded bytes: besides `unreserved` bytes,
/// only `+` and escapes, in uppercase, of bytes that are neither
/// `unreserved` nor the space. What [`Normalizer::write_form`] and
/// [`Normalizer::web_query_is_normal`] read of each field.
struct FormField {
    eq: Option<usize>,
    end: usize,
    raw: [bool; 2],
    encoded: bool,
}

/// The [`FormField`] of the query `q` (of a valid URI: a `%` starts an
/// escape) that starts at `start`; when `CHECK`, only whether it is
/// `encoded`: the pass stops at the first byte that says it is not (its
/// other fields then say nothing).
#[inline(always)]
fn form_field<const CHECK: bool>(q: &[u8], start: usize) -> FormField {
    let (mut eq, mut raw, mut encoded) = (None, [true; 2], true);
    let mut i = start;
    while let Some(&b) = q.get(i) {
        if !classes::is(b, classes::UNRESERVED) {
            match b {
                b'&' => break,
                b'=' if eq.is_none() => eq = Some(i),
                _ => {
                    raw[usize::from(eq.is_some())] = false;
                    match b {
                        b'+' => {}
                        b'%' => {
                            let (h, l) = (q[i + 1], q[i + 2]);
                            let v = hex_value(h) << 4 | hex_value(l);
                            encoded &= !(h.is_ascii_lowercase()
                                || l.is_ascii_lowercase()
                                || v == b' '
                                || classes::is(v, classes::UNRESERVED));
                            i += 2;
                        }
                        _ => encoded = false,
                    }
                    if CHECK && !encoded {
                        break;
                    }
                }
            }
        }
        i += 1;
    }
    FormField {
        eq,
        end: i,
        raw,
        encoded,
    }
}

#[cfg(test)]
mod tests;
