//! One line judged by the peers and uriscan's result compared with their
//! verdict: `iri-string` for validity in every mode, `fluent-uri` for
//! validity, components and the error's offset in the modes it has
//! (reference and URI). Each way in which uriscan departs from them on
//! purpose is a [`Departure`], counted where it is used; anything else is a
//! failure. docs/DIFFERENTIAL.md lists the departures with their reasons.

use fluent_uri::ParseErrorKind;
use uriscan::{Component, Error, ErrorKind, Mode, Uri};

/// Why a line's comparison with a peer is not the plain one. Each variant
/// other than `NotUtf8` is a case where both reject the line but point at
/// different bytes (or call the same byte's fault by another kind); [`departure`] accepts it only where fluent-uri's offset
/// is exactly the one its parser (fluent-uri 0.4.1, `src/parse.rs`) gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Departure {
    /// The line is not UTF-8, and both peers take only `&str`: they judge it
    /// with every byte >= 0x80 replaced by DEL (0x7F). Both bytes are in no
    /// character class of RFC 3986, so the verdict and the first bad byte
    /// stay where they were.
    NotUtf8,
    /// A URI without a scheme (mode `uri`): uriscan reports it at 0, where
    /// the scheme should begin (`ErrorKind::MissingScheme`); fluent-uri where
    /// its leading run of scheme characters stops without a `:`.
    MissingScheme,
    /// A bad scheme (`1a:b`, `@[:x`, `. file:x`): uriscan takes the text
    /// before the first `:` as the scheme when no `/`, `?` or `#` comes
    /// first, and reports its first bad byte (a first byte that is no
    /// letter at 0, `ErrorKind::SchemeStart`). fluent-uri takes a scheme only
    /// when its leading run of scheme characters ends at that `:`; otherwise
    /// it reports the end of that run (mode `uri`) or, reading the line as a
    /// relative path, the end of its first segment's run of `segment-nz-nc`
    /// characters (mode `reference`): the `:` or an earlier byte. A `%`
    /// there is a byte that no scheme allows for uriscan, a bad `%HH` of the
    /// path for fluent-uri: the same offset, another kind.
    Scheme,
    /// An invalid IP literal: uriscan points at the fault inside it (the
    /// group too many, the second `::`, the bad IPv4 part, a byte no address
    /// allows, as the `x` of `[example]`) or at an unclosed `[`; fluent-uri
    /// at the start of the address or where its IPv6 reader stopped. Both
    /// offsets lie in the same literal, after the same `[`.
    IpLiteral,
    /// A faulty authority: fluent-uri reads it in runs, each whole before it
    /// is judged (a bad `%` in a run is the fault at once): the run of
    /// userinfo characters; when that does not end at `@`, it is
    /// `host[:port]`, with the fault at the first non-digit after a single
    /// `:` or at the last of several; after `@`, a host, `:` and digits, and
    /// a path that must start with `/`. uriscan reads left to right and
    /// reports the first byte that its part of the authority does not allow:
    /// `//a:b]c@d` has userinfo `a:b]c`, whose `]` is the fault (fluent-uri:
    /// the `b` of port `b`); `//@:::%zz` has port `::%zz`, whose second `:`
    /// is (fluent-uri: the `%` of a path `:%zz`). An authority that starts
    /// with an IP literal is that host for fluent-uri, then a port and a
    /// path: `//[::][@` has userinfo `[::][` for uriscan (its `[` is the
    /// fault; fluent-uri: the second `[`), and in `//[::].%` uriscan stops
    /// at the `.` after the literal (`ErrorKind::AfterIpLiteral`),
    /// fluent-uri at the bad `%` of a path `.%`.
    Authority,
}

impl Departure {
    /// Every departure.
    pub const ALL: [Departure; 5] = [
        Departure::NotUtf8,
        Departure::MissingScheme,
        Departure::Scheme,
        Departure::IpLiteral,
        Departure::Authority,
    ];
}

/// How often each departure was used.
#[derive(Default)]
pub struct Tally(std::collections::BTreeMap<Departure, u64>);

impl Tally {
    fn count(&mut self, d: Departure) {
        *self.0.entry(d).or_default() += 1;
    }

    /// How often `d` was used.
    pub fn get(&self, d: Departure) -> u64 {
        self.0.get(&d).copied().unwrap_or(0)
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (d, n) in &self.0 {
            write!(f, "{d:?}: {n}; ")?;
        }
        Ok(())
    }
}

/// The text the peers judge: `line` itself, or its stand-in (see
/// [`Departure::NotUtf8`]).
pub fn peer_text(line: &[u8], tally: &mut Tally) -> String {
    match std::str::from_utf8(line) {
        Ok(s) => s.to_owned(),
        Err(_) => {
            tally.count(Departure::NotUtf8);
            line.iter()
                .map(|&b| if b >= 0x80 { '\x7f' } else { b as char })
                .collect()
        }
    }
}

fn iri_string_ok(s: &str, mode: Mode) -> bool {
    use iri_string::types::{UriAbsoluteStr, UriReferenceStr, UriStr};
    match mode {
        Mode::Reference => UriReferenceStr::new(s).is_ok(),
        Mode::Uri => UriStr::new(s).is_ok(),
        Mode::Absolute => UriAbsoluteStr::new(s).is_ok(),
    }
}

/// A URI's parts as fluent-uri splits them.
#[derive(Debug, PartialEq)]
struct Parts<'a> {
    scheme: Option<&'a str>,
    userinfo: Option<&'a str>,
    host: Option<&'a str>,
    port: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn ours_parts<'a>(u: &Uri<'a>) -> Parts<'a> {
    Parts {
        scheme: u.scheme(),
        userinfo: u.userinfo(),
        host: u.host(),
        port: u.port(),
        path: u.path(),
        query: u.query(),
        fragment: u.fragment(),
    }
}

/// fluent-uri's verdict on `s` in `mode`: its parts, or the offset and kind
/// of its error; `None` for absolute-URI, which it has no type for.
fn fluent(s: &str, mode: Mode) -> Option<Result<Parts<'_>, (usize, ParseErrorKind)>> {
    Some(match mode {
        Mode::Reference => fluent_uri::UriRef::parse(s)
            .map(|u| Parts {
                scheme: u.scheme().map(|x| x.as_str()),
                userinfo: u.authority().and_then(|a| a.userinfo()).map(|x| x.as_str()),
                host: u.authority().map(|a| a.host()),
                port: u.authority().and_then(|a| a.port()).map(|x| x.as_str()),
                path: u.path().as_str(),
                query: u.query().map(|x| x.as_str()),
                fragment: u.fragment().map(|x| x.as_str()),
            })
            .map_err(|e| (e.index(), e.kind())),
        Mode::Uri => fluent_uri::Uri::parse(s)
            .map(|u| Parts {
                scheme: Some(u.scheme().as_str()),
                userinfo: u.authority().and_then(|a| a.userinfo()).map(|x| x.as_str()),
                host: u.authority().map(|a| a.host()),
                port: u.authority().and_then(|a| a.port()).map(|x| x.as_str()),
                path: u.path().as_str(),
                query: u.query().map(|x| x.as_str()),
                fragment: u.fragment().map(|x| x.as_str()),
            })
            .map_err(|e| (e.index(), e.kind())),
        Mode::Absolute => return None,
    })
}

/// Checks uriscan's result `ours` for `line` in `mode` against the peers'
/// verdict on `text` (from [`peer_text`]); the error says what differs.
pub fn compare(
    line: &[u8],
    text: &str,
    mode: Mode,
    ours: &Result<Uri<'_>, Error>,
    tally: &mut Tally,
) -> Result<(), String> {
    let show = || {
        format!(
            "{mode:?} {:?} (len {})",
            String::from_utf8_lossy(line),
            line.len()
        )
    };
    if ours.is_ok() != iri_string_ok(text, mode) {
        return Err(format!(
            "iri-string differs on validity: {}: ours {ours:?}",
            show()
        ));
    }
    let differs = |theirs: &Result<Parts<'_>, (usize, ParseErrorKind)>| {
        Err(format!(
            "{mode:?} {:?} | fluent-uri differs: {}: ours {:?}, theirs {theirs:?}",
            ours.as_ref().map(|_| ()).map_err(|e| e.kind().name()),
            show(),
            ours.as_ref()
                .map(ours_parts)
                .map_err(|e| (e.offset(), e.kind()))
        ))
    };
    match (ours, fluent(text, mode)) {
        (_, None) => Ok(()),
        (Ok(a), Some(Ok(b))) if ours_parts(a) == b => Ok(()),
        (Err(e), Some(Err((at, kind)))) if e.offset() == at && kinds_agree(e.kind(), kind) => {
            Ok(())
        }
        (Err(e), Some(Err(theirs))) => match departure(text.as_bytes(), mode, e, theirs.0) {
            Some(d) => {
                tally.count(d);
                Ok(())
            }
            None => differs(&Err(theirs)),
        },
        (_, Some(theirs)) => differs(&theirs),
    }
}

/// Whether uriscan's error kind `ours` fits fluent-uri's `theirs`: a bad
/// `%HH` is one for both; what fluent-uri calls an invalid IPv6 address,
/// uriscan finds inside an IP literal.
fn kinds_agree(ours: ErrorKind, theirs: ParseErrorKind) -> bool {
    let pct = ours == ErrorKind::BadPercentEncoding;
    match theirs {
        ParseErrorKind::InvalidPctEncodedOctet => pct,
        ParseErrorKind::InvalidIpv6Addr => {
            IP_LITERAL.contains(&ours) || matches!(ours, ErrorKind::InvalidByte(_))
        }
        _ => !pct,
    }
}

/// The kinds of uriscan's errors inside an IP literal.
const IP_LITERAL: [ErrorKind; 9] = [
    ErrorKind::UnclosedIpLiteral,
    ErrorKind::Ipv6TooManyGroups,
    ErrorKind::Ipv6TooFewGroups,
    ErrorKind::Ipv6GroupTooLong,
    ErrorKind::Ipv6DoubleColon,
    ErrorKind::Ipv6Colon,
    ErrorKind::Ipv6Ipv4,
    ErrorKind::Ipv6Zone,
    ErrorKind::BadIpvFuture,
];

/// The departure that explains uriscan's error `e` and fluent-uri's offset
/// `theirs` on `text`, if one does.
fn departure(text: &[u8], mode: Mode, e: &Error, theirs: usize) -> Option<Departure> {
    let ours = e.offset();
    let scheme_run = text.iter().take_while(|&&b| is_scheme_char(b)).count();
    match e.kind() {
        ErrorKind::MissingScheme if ours == 0 && theirs == scheme_run => {
            return Some(Departure::MissingScheme)
        }
        _ if e.component() == Component::Scheme
            && theirs
                == match mode {
                    Mode::Uri => scheme_run,
                    _ => noscheme_run(text),
                } =>
        {
            return Some(Departure::Scheme)
        }
        _ => {}
    }
    match e.kind() {
        k if (IP_LITERAL.contains(&k) || matches!(k, ErrorKind::InvalidByte(_)))
            && literal_start(text, ours).is_some()
            && literal_start(text, ours) == literal_start(text, theirs) =>
        {
            Some(Departure::IpLiteral)
        }
        ErrorKind::InvalidByte(_) | ErrorKind::PortNotNumber | ErrorKind::AfterIpLiteral
            if fluent_authority_fault(text) == Some(theirs) =>
        {
            Some(Departure::Authority)
        }
        _ => None,
    }
}

/// RFC 3986 `scheme` characters after the first: ALPHA / DIGIT / "+" / "-" / ".".
fn is_scheme_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
}

/// The offset where fluent-uri's reading of a relative path's first segment
/// (`segment-nz-nc`: `reg-name` characters and `@`) stops: the end of that
/// run, or a bad `%` in it.
fn noscheme_run(text: &[u8]) -> usize {
    run(text, 0, |b| is_reg_name_char(b) || b == b'@').unwrap_or_else(|bad_pct| bad_pct)
}

/// The offset of the `[` that opens the IP literal holding offset `at` (the
/// `[` itself, a byte after it, or its `]`), if any: the first `[` after
/// the last `]` before `at`, at or before `at` (a second `[`, as in
/// `[v1.[`, is a byte inside the first's literal).
fn literal_start(text: &[u8], at: usize) -> Option<usize> {
    let before = &text[..at.min(text.len())];
    let from = before.iter().rposition(|&b| b == b']').map_or(0, |c| c + 1);
    let upto = &text[from..(at + 1).min(text.len())];
    upto.iter().position(|&b| b == b'[').map(|i| from + i)
}

/// Where fluent-uri reports a fault of `text`'s authority, read in runs as
/// its parser does: the authority starts after the first `//` that only a
/// scheme and `:` precede; the run of userinfo characters there is read
/// whole first. When it does not end at `@`, it is `host[:port]`: one `:`
/// makes the rest a port of digits, several are a fault at the last one.
/// After `@` come a host (a `reg-name`; `None` for an IP literal), an
/// optional `:` and digits, and a path that must start with `/`. A bad `%`
/// in any run is the fault at once.
fn fluent_authority_fault(text: &[u8]) -> Option<usize> {
    let slashes = text.windows(2).position(|w| w == b"//")?;
    let prefix = &text[..slashes];
    let scheme_ok = prefix.is_empty()
        || prefix.strip_suffix(b":").is_some_and(|s| {
            s.first().is_some_and(u8::is_ascii_alphabetic) && s.iter().all(|&b| is_scheme_char(b))
        });
    if !scheme_ok {
        return None;
    }
    let start = slashes + 2;
    let end = match run(text, start, |b| is_reg_name_char(b) || b == b':') {
        Ok(end) => end,
        Err(bad_pct) => return Some(bad_pct),
    };
    if end == start && text.get(start) == Some(&b'[') {
        // An IP literal first (`//[::][@`): fluent-uri reads it as the host
        // (a fault inside it is the IP literal departure), where uriscan,
        // seeing an `@` later, reads its `[` as a byte of userinfo.
        let close = start + text[start..].iter().position(|&b| b == b']')?;
        return fault_after_host(text, close + 1);
    }
    if text.get(end) != Some(&b'@') {
        let colons: Vec<usize> = (start..end).filter(|&i| text[i] == b':').collect();
        return match colons[..] {
            [] => None,
            [c] => (c + 1..end).find(|&i| !text[i].is_ascii_digit()),
            [.., last] => Some(last),
        };
    }
    if text.get(end + 1) == Some(&b'[') {
        return None;
    }
    match run(text, end + 1, is_reg_name_char) {
        Ok(host_end) => fault_after_host(text, host_end),
        Err(bad_pct) => Some(bad_pct),
    }
}

/// Where fluent-uri reports a fault after a host that ends at `at`: an
/// optional `:` and digits, then a path that must start with `/`.
fn fault_after_host(text: &[u8], mut at: usize) -> Option<usize> {
    if text.get(at) == Some(&b':') {
        at += 1 + text[at + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
    }
    match run(text, at, |b| is_reg_name_char(b) || b"/:@".contains(&b)) {
        Err(bad_pct) => Some(bad_pct),
        Ok(path_end) if path_end > at && text[at] != b'/' => Some(at),
        Ok(path_end) if path_end == at && at < text.len() && !b"?#".contains(&text[at]) => Some(at),
        Ok(_) => None,
    }
}

/// `reg-name` characters other than `%`: unreserved and sub-delims.
fn is_reg_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=".contains(&b)
}

/// The end of the run of bytes from `at` that `allowed` takes or that are a
/// `%` with two hex digits; `Err` with the offset of a `%` without them.
fn run(text: &[u8], mut at: usize, allowed: impl Fn(u8) -> bool) -> Result<usize, usize> {
    while let Some(&b) = text.get(at) {
        if b == b'%' {
            let hex = text.get(at + 1..at + 3);
            if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                return Err(at);
            }
            at += 3;
        } else if allowed(b) {
            at += 1;
        } else {
            break;
        }
    }
    Ok(at)
}
