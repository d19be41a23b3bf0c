//! The session ids that the library removes from the key: ASP.NET session
//! segments of paths, and `jsessionid`, `phpsessid`, `sid`, `ASPSESSIONID`
//! and `cfid`+`cftoken` parameters of queries.

/// Removes an ASP.NET session segment from a lowercased path:
/// `/(a(24 alnum)b(...))/` or `/(24 alnum)/`, when a `.aspx` follows it
/// before any `?`; the last such segment, first form then second.
pub(super) fn strip_path_session(path: &mut Vec<u8>) {
    // Either form needs a `.aspx` after it: most paths have none.
    if !has_aspx(path) {
        return;
    }
    for form in [true, false] {
        let mut found = None;
        for i in (1..path.len()).rev() {
            if path[i - 1] == b'/' {
                if let Some(end) = session_segment(&path[i..], form) {
                    if aspx_follows(&path[i + end..]) {
                        found = Some((i, end));
                        break;
                    }
                }
            }
        }
        if let Some((i, end)) = found {
            path.drain(i..i + end);
        }
    }
}

/// Whether `path` has a `.aspx` (any case), without which it has no
/// session segment. A plain loop: paths are short, a `memchr` call per
/// `.` cost more than the bytes (2.4% of the surt profile's time).
pub(super) fn has_aspx(path: &[u8]) -> bool {
    // `aspx` in any case: OR 0x20 maps exactly `A`..`X` to their lowercase.
    let aspx = u32::from_le_bytes(*b"aspx");
    path.iter().enumerate().any(|(i, &b)| {
        b == b'.'
            && path
                .get(i + 1..i + 5)
                .is_some_and(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]) | 0x2020_2020 == aspx)
    })
}

/// The length of a session segment at the start of `s`, its `/` included.
fn session_segment(s: &[u8], nested: bool) -> Option<usize> {
    let id = |s: &[u8]| s.len() >= 24 && s[..24].iter().all(u8::is_ascii_alphanumeric);
    if s.first() != Some(&b'(') {
        return None;
    }
    let mut i = 1;
    if nested {
        let mut groups = 0;
        while s.len() >= i + 27
            && s[i].is_ascii_alphabetic()
            && s[i + 1] == b'('
            && id(&s[i + 2..])
            && s[i + 26] == b')'
        {
            i += 27;
            groups += 1;
        }
        if groups == 0 {
            return None;
        }
    } else {
        if !id(&s[1..]) {
            return None;
        }
        i = 25;
    }
    (s.get(i..i + 2) == Some(b")/")).then_some(i + 2)
}

/// Whether `s` has a `.aspx` at an offset of 1 or more with no `?` before.
fn aspx_follows(s: &[u8]) -> bool {
    let stop = s.iter().position(|&b| b == b'?').unwrap_or(s.len());
    (1..=stop).any(|k| s[k..].len() >= 5 && s[k..k + 5].eq_ignore_ascii_case(b".aspx"))
}

/// Whether the `=` at `e` of `query` may be the first `=` of a session
/// id's pattern: it follows `sid` (`jsessionid`: `nid`) with 32 bytes
/// after it, or `aspsessionid` and 8 letters with 24, or `cfid`. Most
/// queries have no `=` so placed, and no id to look for.
#[inline(always)]
pub(super) fn may_name_session(query: &[u8], e: usize) -> bool {
    let (k, after) = (&query[..e], query.len() - e - 1);
    let ends = |s: &[u8]| k.len() >= s.len() && k[k.len() - s.len()..].eq_ignore_ascii_case(s);
    (after >= 32 && (ends(b"sid") || ends(b"nid")))
        || ends(b"cfid")
        || (after >= 24
            && k.len() >= 20
            && k[k.len() - 20..k.len() - 8].eq_ignore_ascii_case(b"aspsessionid"))
}

/// Removes the session ids from `query` (before it is lowercased), each
/// pattern in turn at its last place, as the library does: the id and the
/// `&` after it go, the `&` before it stays.
pub(super) fn strip_query_session(query: &mut Vec<u8>, tmp: &mut Vec<u8>) {
    // A plain loop: queries are short, and `memchr` calls cost more.
    if !(0..query.len()).any(|e| query[e] == b'=' && may_name_session(query, e)) {
        return;
    }
    type Matcher = fn(&[u8]) -> Option<usize>;
    // Each pattern with the offset of its `=` (the first one), where the
    // search for it starts.
    let matchers: [(usize, Matcher); 5] = [
        (10, |s| fixed_id(s, b"jsessionid=", 32)),
        (9, |s| fixed_id(s, b"phpsessid=", 32)),
        (3, |s| fixed_id(s, b"sid=", 32)),
        (20, |s| {
            let name = b"aspsessionid";
            if s.len() < name.len() + 8 + 1 + 24 || !s[..name.len()].eq_ignore_ascii_case(name) {
                return None;
            }
            let s = &s[name.len()..];
            (s[..8].iter().all(u8::is_ascii_alphabetic)
                && s[8] == b'='
                && s[9..33].iter().all(u8::is_ascii_alphabetic))
            .then_some(name.len() + 33)
        }),
        (4, |s| {
            if s.len() < 5 || !s[..5].eq_ignore_ascii_case(b"cfid=") {
                return None;
            }
            let v = s[5..]
                .iter()
                .position(|&b| b == b'&')
                .unwrap_or(s.len() - 5);
            let rest = &s[5 + v..];
            if v == 0 || rest.len() < 9 || !rest[..9].eq_ignore_ascii_case(b"&cftoken=") {
                return None;
            }
            let t = rest[9..]
                .iter()
                .position(|&b| b == b'&')
                .unwrap_or(rest.len() - 9);
            (t > 0).then_some(5 + v + 9 + t)
        }),
    ];
    for (eq, m) in matchers {
        // The last place of a match is that of the last `=` it can have
        // at `eq`.
        let hit = memchr::memrchr_iter(b'=', query).find_map(|e| {
            let i = e.checked_sub(eq)?;
            let end = i + m(&query[i..])?;
            (end == query.len() || query[end] == b'&').then_some((i, end))
        });
        if let Some((i, end)) = hit {
            tmp.clear();
            tmp.extend_from_slice(&query[..i]);
            if end < query.len() {
                tmp.extend_from_slice(&query[end + 1..]);
            }
            std::mem::swap(query, tmp);
        }
    }
}

/// `name` (any case) and `n` ASCII letters or digits at the start of `s`.
fn fixed_id(s: &[u8], name: &[u8], n: usize) -> Option<usize> {
    let v = s.get(name.len()..)?;
    (s[..name.len()].eq_ignore_ascii_case(name)
        && v.len() >= n
        && v[..n].iter().all(u8::is_ascii_alphanumeric))
    .then_some(name.len() + n)
}
