//! The fast path of the SURT key: [`key_uri`] of a valid URI or relative
//! reference, made from the components its parse found, in single passes
//! (eight bytes at a time where a pass scans), for the URIs that need none
//! of the library's repairs of a line; the general steps of
//! [`super::key`] for the others. `src/normalize/surt/tests.rs` checks that
//! both write the same key on URIs built to steer every branch.

use super::session::{has_aspx, may_name_session, strip_path_session, strip_query_session};
use super::{
    hex, ip_formats, key, normalize_path, push_escaped, read_port, split_params, write_host,
    write_port, write_sorted, www_prefix, Keyed, Scratch, SCRATCH,
};
use crate::normalize::swar::{self, byte_bits, bytes_eq, lowercase, HI, LO};
use crate::uri::Uri;

/// [`key`] of a valid URI, the same bytes: most URIs of a crawl (a
/// registered name or IPv4 host without `%`) need none of the library's
/// repairs of a line, so their key is made from the components the parse
/// found, with decoding and escaping only where there is a `%`.
pub(crate) fn key_uri(uri: &Uri<'_>, out: &mut Vec<u8>) -> Keyed {
    let at = out.len();
    let fast = SCRATCH.with(|s| {
        let mut s = s.try_borrow_mut().ok()?;
        key_plain(uri, out, &mut s)
    });
    fast.unwrap_or_else(|| {
        out.truncate(at);
        key(uri.bytes(), out)
    })
}

/// The fast path of [`key_uri`]: `None` (having written nothing) for a URI
/// that needs one of the library's repairs.
fn key_plain(uri: &Uri<'_>, out: &mut Vec<u8>, s: &mut Scratch) -> Option<Keyed> {
    let line = uri.bytes();
    if line.starts_with(b"filedesc") {
        return None;
    }
    let split = uri.split();
    let Scratch {
        host: h,
        path,
        query,
        tmp,
        ranges,
        params,
        ..
    } = s;
    let Parts {
        scheme,
        host,
        port,
        path: raw_path,
    } = library_split(uri)?;
    let (port, exact) = read_port(port);
    let has_host = match host {
        // A host of dots is empty after the library's step 4, and an
        // empty one (`file:///a`) stays so unless the scheme starts with
        // `http` (then the library takes it from the path): no host.
        Some(host)
            if host.iter().all(|&b| b == b'.')
                && !(host.is_empty() && scheme.starts_with(b"http")) =>
        {
            write_host(scheme, b"", port, exact, out);
            false
        }
        Some(host) => {
            // Step 4 (no escape, ASCII): an IPv4 address in any of
            // `inet_aton`'s forms, which all end in a digit, else the host
            // lowercased, as step 7 writes it.
            if host.last().is_some_and(u8::is_ascii_digit) && ip_formats(host, h) {
                write_host(scheme, h, port, exact, out);
            } else if write_plain_host(scheme, host, out) {
                write_port(scheme, port, exact, out);
            } else {
                return None;
            }
            true
        }
        None => {
            write_host(scheme, b"", None, true, out);
            false
        }
    };
    // Step 5 in one pass where one round of decoding is all it takes (a
    // decoded `%` takes the general steps): decoded, escaped again and
    // lowercased at once. Escaping maps `/` and `.` to themselves and no
    // other byte to either, so the segments are then what they were
    // before it: dot segments and empty ones are removed after it, where
    // there may be some.
    let path_at = out.len();
    if !reescape(raw_path, out) {
        return None;
    }
    let marks = path_marks(&out[path_at..]);
    if has_host && (out.len() == path_at || marks.segments) {
        normalize_path(&out[path_at..], tmp, ranges);
        out.truncate(path_at);
        out.extend_from_slice(tmp);
    }
    if marks.aspx && has_aspx(&out[path_at..]) {
        path.clear();
        path.extend_from_slice(&out[path_at..]);
        strip_path_session(path);
        out.truncate(path_at);
        out.extend_from_slice(path);
    }
    if out.len() - path_at > 1 && out.last() == Some(&b'/') {
        out.pop();
    }
    // Step 6 likewise, the parameters sorted into `out`.
    let raw_query = split.query_span().map_or(&b""[..], |q| uri.raw(q));
    let mut query_at = None;
    if !raw_query.is_empty() {
        query.clear();
        if !reescape(raw_query, query) {
            return None;
        }
        // One pass finds the parameters and whether an `=` may end the
        // name of a session id; only then the ids are looked for.
        let named = split_params(query, params, |e| may_name_session(query, e));
        if named {
            strip_query_session(query, tmp);
            split_params(query, params, |_| false);
        }
        if !query.is_empty() {
            if out.len() == path_at {
                out.push(b'/');
            }
            out.push(b'?');
            query_at = Some(out.len());
            write_sorted(query, params, out);
        }
    }
    Some(Keyed {
        exact,
        query: query_at,
    })
}

/// The scheme, host, port (empty when none) and path that the library's
/// split (step 3) finds in a line.
struct Parts<'u> {
    scheme: &'u [u8],
    host: Option<&'u [u8]>,
    port: &'u [u8],
    path: &'u [u8],
}

/// The [`Parts`] of the valid URI or relative reference `uri`, when they
/// are the parse's components or simply made from them; `None` where the
/// general steps are needed.
fn library_split<'u>(uri: &Uri<'u>) -> Option<Parts<'u>> {
    let split = uri.split();
    let path = uri.raw(split.path_span());
    let Some(scheme) = split.scheme_span().map(|s| uri.raw(s)) else {
        // A relative reference, keyed as `http://` and it.
        return relative_split(uri, path).map(|(host, path)| Parts {
            scheme: b"http",
            host: Some(host),
            port: b"",
            path,
        });
    };
    let Some(parts) = uri.parts() else {
        // `http:a/b`: the library's host is `a`.
        return (!scheme.starts_with(b"http")).then_some(Parts {
            scheme,
            host: None,
            port: b"",
            path,
        });
    };
    // Repeated prefixes (`http://https://a`): the library keys the last.
    let after = &uri.bytes()[scheme.len() + 3..];
    if after.starts_with(b"http://") || after.starts_with(b"https://") {
        return None;
    }
    let port = parts.port().map_or(&b""[..], |p| uri.raw(p));
    Some(Parts {
        scheme,
        host: Some(uri.raw(parts.host())),
        port,
        path,
    })
}

/// The host and path of the relative reference `uri` (whose path is
/// `path`) as the library splits `http://` and it, for the three forms:
/// `//host/path` (the authority's host, which the library takes from the
/// path it makes of it: so no userinfo or port), `/host/path` and
/// `host/path` (the first segment: without `@`, the library's userinfo).
/// `None` for an empty host or one in brackets, which take the general
/// steps. Where the
/// library takes the host from a path (the first two forms), the path
/// left is `/` when nothing follows the host.
fn relative_split<'u>(uri: &Uri<'u>, path: &'u [u8]) -> Option<(&'u [u8], &'u [u8])> {
    let or_slash = |p: &'u [u8]| if p.is_empty() { &b"/"[..] } else { p };
    if let Some(parts) = uri.parts() {
        if parts.userinfo().is_some() || parts.port().is_some() {
            return None;
        }
        // An IP literal keeps its brackets here: the general steps.
        let host = uri.raw(parts.host());
        return (!host.is_empty() && host[0] != b'[').then_some((host, or_slash(path)));
    }
    let rest = path.strip_prefix(b"/").unwrap_or(path);
    let end = rest.iter().position(|&b| b == b'/').unwrap_or(rest.len());
    let host = &rest[..end];
    let rooted = rest.len() < path.len();
    let plain = !host.is_empty() && host[0] != b'[' && (rooted || !host.contains(&b'@'));
    let path = if rooted {
        or_slash(&rest[end..])
    } else {
        &rest[end..]
    };
    plain.then_some((host, path))
}

/// Step 4 and the start of step 7 for a host that needs none of the
/// library's repairs (not empty, no IPvFuture, no `%`, no dot to collapse
/// or trim): its labels reversed, lowercased and joined by `,`, a `www`
/// label stripped (scheme `dns` aside); the caller writes the port and
/// `)`. `false` (having written nothing) for any other host.
fn write_plain_host(scheme: &[u8], host: &[u8], out: &mut Vec<u8>) -> bool {
    if let Some(inside) = host.strip_prefix(b"[") {
        // The library keys an IPv6 address by its dotted labels too (most
        // have none); an IPvFuture takes the general steps.
        let inside = &inside[..inside.len() - 1];
        return !inside.starts_with(b"v")
            && !inside.starts_with(b"V")
            && inside.len() <= 64
            && Host::read(inside).write_reversed(0, out);
    }
    if host.first().is_none_or(|&b| b == b'.') {
        return false;
    }
    let start = if scheme == b"dns" {
        0
    } else {
        www_prefix(host)
    };
    if host.len() <= 64 {
        Host::read(host).write_reversed(start, out)
    } else {
        write_long_host(host, start, out)
    }
}

/// A host of up to 64 bytes, lowercased, with the bit of each of its dots
/// and `%`, read eight bytes at a time (a per-byte loop over the labels
/// cost a tenth of the surt profile's instructions).
struct Host {
    /// The host lowercased, and room to copy eight bytes past its end.
    lower: [u8; 72],
    len: usize,
    /// Bit `i`: byte `i` is a `.`.
    dots: u64,
    pcts: u64,
}

impl Host {
    /// `host` (of at most 64 bytes) read.
    fn read(host: &[u8]) -> Host {
        let len = host.len();
        let mut h = Host {
            lower: [0; 72],
            len,
            dots: 0,
            pcts: 0,
        };
        let mut take = |w: u64, at: usize| {
            h.lower[at..at + 8].copy_from_slice(&lowercase(w).to_le_bytes());
            h.dots |= byte_bits(bytes_eq(w, b'.')) << at;
            h.pcts |= byte_bits(bytes_eq(w, b'%')) << at;
        };
        if len < 8 {
            take(swar::word(host), 0);
        } else {
            // Whole words, then the last eight bytes (those already read
            // again, to the same bits and bytes).
            let mut at = 0;
            while at + 8 < len {
                take(swar::load(&host[at..]), at);
                at += 8;
            }
            take(swar::load(&host[len - 8..]), len - 8);
        }
        h
    }

    /// Writes the labels from `start` on, as [`write_plain_host`] says;
    /// `false` (having written nothing) for a `%`, an empty label or a
    /// dot at the end.
    fn write_reversed(&self, start: usize, out: &mut Vec<u8>) -> bool {
        let n = self.len - start;
        if self.pcts != 0 || n == 0 {
            return false;
        }
        let dots = self.dots >> start;
        if dots & 1 != 0 || dots >> (n - 1) != 0 || dots & dots >> 1 != 0 {
            return false;
        }
        // The key in a buffer, each label copied eight bytes at a time
        // (the bytes past it overwritten by the next).
        let mut key = [0; 72];
        let mut at = 0;
        let mut copy = |from: usize, to: usize, comma: bool| {
            let mut k = from;
            while k < to {
                let dst = at + k - from;
                key[dst..dst + 8].copy_from_slice(&self.lower[k..k + 8]);
                k += 8;
            }
            at += to - from;
            key[at] = b',';
            at += usize::from(comma);
        };
        let (mut end, mut left) = (self.len, self.dots & !((1 << start) - 1));
        while left != 0 {
            let dot = 63 - left.leading_zeros() as usize;
            copy(dot + 1, end, true);
            (end, left) = (dot, left & !(1 << dot));
        }
        copy(start, end, false);
        out.extend_from_slice(&key[..at]);
        true
    }
}

/// [`write_plain_host`] of a host longer than 64 bytes, a byte at a time
/// from its end.
fn write_long_host(host: &[u8], start: usize, out: &mut Vec<u8>) -> bool {
    let at = out.len();
    let lower =
        |label: &[u8], out: &mut Vec<u8>| out.extend(label.iter().map(u8::to_ascii_lowercase));
    let mut end = host.len();
    for i in (start..host.len()).rev() {
        match host[i] {
            b'%' => return false,
            // `..`, or a dot at the end.
            b'.' if i + 1 == end => {
                out.truncate(at);
                return false;
            }
            b'.' => {
                lower(&host[i + 1..end], out);
                out.push(b',');
                end = i;
            }
            _ => {}
        }
    }
    if end == start {
        out.truncate(at);
        return false;
    }
    lower(&host[start..end], out);
    true
}

/// What the fast path looks for in a path, in one pass (paths are short
/// and calls cost more than bytes).
struct PathMarks {
    /// A `/` followed by `.` or `/`: a dot segment or an empty one may be
    /// there.
    segments: bool,
    /// A `.` followed by `a` or `A`: an ASP.NET session segment may be there
    /// (it needs a `.aspx` after it).
    aspx: bool,
}

fn path_marks(path: &[u8]) -> PathMarks {
    // Eight bytes at a time: the high bit of each `/`, `.` and `a`/`A`,
    // and of the byte after each `/` and `.` (the previous word's last
    // byte carried in).
    let (mut segments, mut aspx) = (0, 0);
    let (mut slash_before, mut dot_before) = (0, 0);
    let mut words = path.chunks_exact(8);
    let mut marks = |w: u64| {
        let (slash, dot) = (bytes_eq(w, b'/'), bytes_eq(w, b'.'));
        let after_slash = slash << 8 | slash_before;
        let after_dot = dot << 8 | dot_before;
        segments |= after_slash & (slash | dot);
        aspx |= after_dot & bytes_eq(w | (LO * 0x20), b'a');
        (slash_before, dot_before) = (slash >> 56, dot >> 56);
    };
    for w in &mut words {
        marks(swar::load(w));
    }
    marks(swar::tail(path));
    PathMarks {
        segments: segments != 0,
        aspx: aspx != 0,
    }
}

/// Appends to `out` what [`unescape_repeatedly`] and then [`escape_once`]
/// make of `src`, the path or query of a valid URI (whose only byte to
/// escape is `%`, which starts an escape), when one round of decoding is
/// all it takes: `src` lowercased, each escape decoded and escaped again
/// if the byte is one to escape. `false` (having written part of it) when
/// a decoded byte is a `%`, which may start another escape.
fn reescape(src: &[u8], out: &mut Vec<u8>) -> bool {
    out.reserve(src.len());
    let mut rest = src;
    loop {
        let i = lower_until_pct(rest, out);
        let Some(escape) = rest.get(i + 1..) else {
            return true;
        };
        let decoded = match escape {
            &[h, l, ..] => hex(h).zip(hex(l)).map(|(h, l)| h << 4 | l),
            _ => None,
        };
        match decoded {
            Some(b) if b != b'%' => push_escaped(b, out),
            _ => return false,
        }
        rest = &escape[2..];
    }
}

/// Appends `src` lowercased to `out` up to its first `%`, whose offset it
/// returns (`src.len()` when it has none). Eight bytes at a time: paths
/// and queries are short, and a call of `memchr` or of a vectorized loop
/// costs more than their bytes.
fn lower_until_pct(src: &[u8], out: &mut Vec<u8>) -> usize {
    let mut i = 0;
    while let Some(eight) = src.get(i..i + 8) {
        let w = swar::load(eight);
        // A zero byte of `w ^ "%%%%%%%%"` is a `%`.
        let v = w ^ (LO * u64::from(b'%'));
        if v.wrapping_sub(LO) & !v & HI != 0 {
            break;
        }
        out.extend_from_slice(&lowercase(w).to_le_bytes());
        i += 8;
    }
    // Fewer than eight bytes left: with the word that ends `src` when
    // they have no `%`, its first bytes (read above, with no `%`) written
    // again over their own copies.
    let left = src.len() - i;
    if (1..8).contains(&left) && i > 0 {
        let w = u64::from_le_bytes(src[src.len() - 8..].try_into().expect("eight bytes"));
        if bytes_eq(w, b'%') >> (64 - 8 * left) == 0 {
            out.truncate(out.len() - (8 - left));
            out.extend_from_slice(&lowercase(w).to_le_bytes());
            return src.len();
        }
    }
    while let Some(&b) = src.get(i) {
        if b == b'%' {
            break;
        }
        out.push(b.to_ascii_lowercase());
        i += 1;
    }
    i
}
