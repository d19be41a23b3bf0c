//! W3C extended log format (W3C Working Draft WD-logfile-960323), as IIS
//! and Amazon CloudFront write it.
//!
//! A line starting with `#` is a directive; `#Fields:` names the fields of
//! the lines after it, until the next `#Fields:` (a log may change them
//! mid-file, as IIS does when its settings change). Fields are separated by
//! spaces (IIS) or TABs (CloudFront): a line holding a TAB is split on TABs.
//! A data line must have as many fields as its `#Fields:` names; one before
//! any `#Fields:` is not a line of the format. `-` is an empty field.
//!
//! The URIs of a line:
//!
//! 1. The target: `cs-uri` when the log has it, else `cs-uri-stem`, with
//!    `?` and `cs-uri-query` when the query is not `-`.
//! 2. Made absolute when the line has a host: `x-host-header` (CloudFront:
//!    the `Host` the viewer sent), else `cs-host` (IIS), else `cs(Host)`
//!    (CloudFront: the distribution's own domain): the first of these the
//!    log has that is not `-` on the line. Its scheme is
//!    `cs-protocol` (CloudFront: `http`, `https`, `ws`, `wss`), else `https`
//!    when `s-port` is 443, else `http`.
//! 3. `cs(Referer)`.
//!
//! Encodings: the fields are taken as written. CloudFront percent-encodes
//! `cs-uri-stem`, `cs-uri-query` and `cs(Referer)` (and its `cs(User-Agent)`,
//! which is no URI), so they are URI text already. IIS writes `+` for the
//! spaces of fields that may hold them (`cs(User-Agent)`, `cs(Referer)`,
//! `cs(Cookie)`); a `+` in a URI is a valid character that cannot be told
//! from one the client sent, so it is kept, not turned back into a space.

use std::borrow::Cow;

use super::LogUri;

/// The fields of interest, by role: their indices among a `#Fields:` list.
const STEM: usize = 0;
const QUERY: usize = 1;
const URI: usize = 2;
const REFERER: usize = 3;
/// The host fields, in order of preference: `x-host-header`, `cs-host`,
/// `cs(Host)`.
const HOSTS: [usize; 3] = [4, 5, 6];
const PROTOCOL: usize = 7;
const PORT: usize = 8;
const ROLES: usize = 9;

/// What a `#Fields:` directive says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Fields {
    /// How many fields a data line has.
    count: usize,
    /// The index of each role's field, if the log has it.
    roles: [Option<usize>; ROLES],
}

impl Fields {
    /// The fields named in `names` (the text after `#Fields:`); `None` when
    /// it names none.
    fn new(names: &[u8]) -> Option<Fields> {
        let mut roles = [None; ROLES];
        let mut count = 0;
        for (i, name) in names
            .split(|&b| b == b' ' || b == b'\t')
            .filter(|n| !n.is_empty())
            .enumerate()
        {
            count = i + 1;
            let name = name.to_ascii_lowercase();
            let role = match &name[..] {
                b"cs-uri-stem" => STEM,
                b"cs-uri-query" => QUERY,
                b"cs-uri" => URI,
                b"cs(referer)" => REFERER,
                b"cs-protocol" => PROTOCOL,
                b"s-port" => PORT,
                b"x-host-header" => HOSTS[0],
                b"cs-host" => HOSTS[1],
                b"cs(host)" => HOSTS[2],
                _ => continue,
            };
            roles[role].get_or_insert(i);
        }
        (count > 0).then_some(Fields { count, roles })
    }
}

/// Reads one line of a W3C log whose last `#Fields:` so far is `fields`.
pub(super) fn parse_line<'a>(
    fields: &mut Option<Fields>,
    line: &'a [u8],
    out: &mut Vec<LogUri<'a>>,
) -> bool {
    if line.first() == Some(&b'#') {
        if line.len() >= 8 && line[..8].eq_ignore_ascii_case(b"#Fields:") {
            *fields = Fields::new(&line[8..]);
            return fields.is_some();
        }
        return true;
    }
    let Some(f) = fields else {
        return false;
    };
    let sep = if memchr::memchr(b'\t', line).is_some() {
        b'\t'
    } else {
        b' '
    };
    let mut at = [None::<(usize, usize)>; ROLES];
    let (mut start, mut n) = (0, 0);
    for end in memchr::memchr_iter(sep, line).chain([line.len()]) {
        for (r, &i) in f.roles.iter().enumerate() {
            if i == Some(n) {
                at[r] = Some((start, end));
            }
        }
        n += 1;
        start = end + 1;
    }
    if n != f.count {
        return false;
    }
    // A field's bytes, unless empty or `-`.
    let get = |r: usize| {
        at[r]
            .map(|(s, e)| (s, &line[s..e]))
            .filter(|(_, v)| !v.is_empty() && *v != b"-")
    };
    let target = match (get(URI), get(STEM)) {
        (Some((s, uri)), _) => Some((s, Cow::Borrowed(uri))),
        (None, Some((s, stem))) => Some(match get(QUERY) {
            Some((_, q)) => (s, Cow::Owned([stem, b"?", q].concat())),
            None => (s, Cow::Borrowed(stem)),
        }),
        (None, None) => None,
    };
    // `OPTIONS *` asks about the server, as in the other formats: no URI.
    let target = target.filter(|(_, t)| &t[..] != b"*");
    if let Some((s, target)) = target {
        let uri = match HOSTS.into_iter().find_map(get) {
            Some((_, host)) if target.starts_with(b"/") => {
                let scheme: &[u8] = match get(PROTOCOL) {
                    Some((_, p)) if p.iter().all(u8::is_ascii_alphabetic) => p,
                    _ if get(PORT).is_some_and(|(_, p)| p == b"443") => b"https",
                    _ => b"http",
                };
                let mut u = scheme.to_ascii_lowercase();
                u.extend_from_slice(b"://");
                u.extend_from_slice(host);
                u.extend_from_slice(&target);
                Cow::Owned(u)
            }
            _ => target,
        };
        // A stem is a path (`//x/y` too), unless a host made it absolute.
        let origin_form = uri.starts_with(b"/");
        out.push(LogUri {
            at: s,
            uri,
            known_valid: false,
            origin_form,
        });
    }
    if let Some((s, r)) = get(REFERER) {
        out.push(LogUri {
            at: s,
            uri: Cow::Borrowed(r),
            known_valid: false,
            origin_form: false,
        });
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uris(fields: &mut Option<Fields>, line: &[u8]) -> Option<Vec<String>> {
        let mut out = Vec::new();
        parse_line(fields, line, &mut out).then(|| {
            out.iter()
                .map(|u| String::from_utf8_lossy(&u.uri).into_owned())
                .collect()
        })
    }

    #[test]
    fn iis() {
        let mut f = None;
        assert_eq!(uris(&mut f, b"2024-05-01 00:00:01 GET /a - 80"), None);
        assert_eq!(
            uris(
                &mut f,
                b"#Software: Microsoft Internet Information Services 10.0"
            ),
            Some(vec![])
        );
        assert_eq!(
            uris(&mut f, b"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port c-ip cs(User-Agent) cs(Referer) sc-status"),
            Some(vec![])
        );
        let line = b"2024-05-01 00:00:01 10.0.0.5 GET /shop/cart.aspx id=7&x=a+b 443 2001:db8::1 Mozilla/5.0+(Windows+NT+10.0) https://www.example.com/?q=a+b 200";
        assert_eq!(
            uris(&mut f, line),
            Some(vec![
                "/shop/cart.aspx?id=7&x=a+b".into(),
                "https://www.example.com/?q=a+b".into()
            ])
        );
        // A wrong number of fields is not a line of the format.
        assert_eq!(uris(&mut f, b"2024-05-01 00:00:01 10.0.0.5 GET /a"), None);
        // The fields change; the host and port make the target absolute.
        uris(
            &mut f,
            b"#Fields: date time cs-uri-stem cs-uri-query s-port cs-host",
        )
        .unwrap();
        assert_eq!(
            uris(&mut f, b"2024-05-01 00:00:02 /b - 443 shop.example"),
            Some(vec!["https://shop.example/b".into()])
        );
        assert_eq!(
            uris(&mut f, b"2024-05-01 00:00:02 /b - 80 -"),
            Some(vec!["/b".into()])
        );
        // An empty `#Fields:` leaves no fields.
        assert_eq!(uris(&mut f, b"#Fields:"), None);
        assert_eq!(uris(&mut f, b"2024-05-01 00:00:02 /b - 80 -"), None);
    }

    #[test]
    fn cloudfront() {
        let mut f = None;
        uris(&mut f, b"#Fields: date time x-edge-location cs(Host) cs-uri-stem cs(Referer) cs-uri-query x-host-header cs-protocol").unwrap();
        let line = b"2024-05-01\t00:00:01\tIAD89-C3\td111111abcdef8.cloudfront.net\t/caf%C3%A9.html\t-\tlang=fr\twww.example.com\thttps";
        assert_eq!(
            uris(&mut f, line),
            Some(vec!["https://www.example.com/caf%C3%A9.html?lang=fr".into()])
        );
        // Without the viewer's Host, the distribution's domain.
        let line = b"2024-05-01\t00:00:01\tIAD89-C3\td111111abcdef8.cloudfront.net\t/x\thttps://ref.example/\t-\t-\tws";
        assert_eq!(
            uris(&mut f, line),
            Some(vec![
                "ws://d111111abcdef8.cloudfront.net/x".into(),
                "https://ref.example/".into()
            ])
        );
    }

    /// A directive other than `#Fields:`, long or short, leaves the fields
    /// as they are. `cs-uri` is the target as written, which a host makes
    /// absolute only when it is in origin-form. A `cs-protocol` that is not
    /// letters is no scheme: the port says it.
    #[test]
    fn directives_cs_uri_and_protocol() {
        let mut f = None;
        uris(&mut f, b"#Fields: cs-uri cs-host cs-protocol s-port").unwrap();
        for directive in [&b"#Date: 2024-05-01 00:00:00"[..], b"#Remark", b"#"] {
            assert_eq!(uris(&mut f, directive), Some(vec![]));
            assert_eq!(
                uris(&mut f, b"/a?b h.example - 80"),
                Some(vec!["http://h.example/a?b".into()])
            );
        }
        for (line, uri) in [
            (
                &b"http://o.example/a h.example https 443"[..],
                "http://o.example/a",
            ),
            (b"/a h.example h2 443", "https://h.example/a"),
            (b"/a h.example h2 80", "http://h.example/a"),
        ] {
            assert_eq!(uris(&mut f, line), Some(vec![uri.into()]));
        }
    }
}
