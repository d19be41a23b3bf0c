//! The components of an Appendix B split checked against their rules of
//! Appendix A, left to right, so that the error given is the first in the
//! input: scheme, authority (userinfo, host through [`super::host`], port),
//! path, query and fragment, `pct-encoded` wherever it is allowed.

use super::authority::Authority;
use super::error::{Component, Error, ErrorKind};
use super::host::check_ip_literal;
use super::split::{Span, Split};
use super::Mode;
use crate::classes::{self, is, is_pct_encoded};

/// The value of a port of ASCII digits; `None` when empty or past `u32`.
pub(crate) fn port_value(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u32, |n, &d| {
        n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
    })
}

/// Checks the components of an Appendix B split against Appendix A, left to
/// right; returns the parts of the authority when there is one.
pub(crate) fn check(input: &[u8], s: &Split, mode: Mode) -> Result<Option<Authority>, Error> {
    match s.scheme_span() {
        Some(scheme) => check_scheme(input, scheme)?,
        None if mode != Mode::Reference => return Err(missing_scheme()),
        None => {}
    }
    let authority = match s.authority_span() {
        Some(a) => Some(check_authority(input, a)?),
        None => None,
    };
    if s.scheme_span().is_none() && s.authority_span().is_none() && input.first() == Some(&b':') {
        // path-noscheme: the first segment of a relative path may not hold a
        // `:`. After the split, that happens only when it starts with one.
        return Err(colon_in_first_segment());
    }
    check_rest(
        input,
        s.path_span(),
        s.query_span(),
        s.fragment_span(),
        mode,
        0,
    )?;
    Ok(authority)
}

/// A URI without a scheme where one is required.
pub(crate) fn missing_scheme() -> Error {
    Error::new(0, Component::Scheme, ErrorKind::MissingScheme)
}

/// A relative reference whose path starts with `:`.
pub(crate) fn colon_in_first_segment() -> Error {
    Error::new(0, Component::Path, ErrorKind::ColonInFirstSegment)
}

/// Checks `path`, `query` and `fragment` against their rules, in that
/// order, knowing the bytes before `from` valid (0: none known; stage 2
/// passes the first byte its masks show may be wrong, so that only the
/// error is looked at).
pub(crate) fn check_rest(
    input: &[u8],
    path: Span,
    query: Option<Span>,
    fragment: Option<Span>,
    mode: Mode,
    from: usize,
) -> Result<(), Error> {
    let unknown = |s: Span| Span::new(s.start.max(from).min(s.end), s.end);
    scan(input, unknown(path), classes::PATH, Component::Path)?;
    if let Some(q) = query {
        scan(input, unknown(q), classes::QUERY, Component::Query)?;
    }
    if let Some(f) = fragment {
        if mode == Mode::Absolute {
            return Err(Error::new(
                f.start - 1,
                Component::Fragment,
                ErrorKind::FragmentNotAllowed,
            ));
        }
        scan(input, unknown(f), classes::QUERY, Component::Fragment)?;
    }
    Ok(())
}

/// Checks that every byte of `span` is in `mask` or starts a `pct-encoded`.
#[inline]
fn scan(input: &[u8], span: Span, mask: u16, component: Component) -> Result<(), Error> {
    let mut i = span.start;
    while i < span.end {
        let b = input[i];
        if is(b, mask) {
            i += 1;
        } else if b == b'%' {
            pct_encoded(input, i, span.end, component)?;
            i += 3;
        } else {
            return Err(Error::new(i, component, ErrorKind::InvalidByte(b)));
        }
    }
    Ok(())
}

/// `pct-encoded = "%" HEXDIG HEXDIG`, the `%` being at `i` and the component
/// ending at `end`.
#[inline]
fn pct_encoded(input: &[u8], i: usize, end: usize, component: Component) -> Result<(), Error> {
    if is_pct_encoded(input, i, end) {
        Ok(())
    } else {
        Err(Error::new(i, component, ErrorKind::BadPercentEncoding))
    }
}

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`; Appendix B made it
/// non-empty.
pub(crate) fn check_scheme(input: &[u8], s: Span) -> Result<(), Error> {
    let first = input[s.start];
    if !is(first, classes::ALPHA) {
        let kind = if is(first, classes::SCHEME) {
            ErrorKind::SchemeStart
        } else {
            ErrorKind::InvalidByte(first)
        };
        return Err(Error::new(s.start, Component::Scheme, kind));
    }
    if let Some(i) = input[s.start + 1..s.end]
        .iter()
        .position(|&b| !is(b, classes::SCHEME))
    {
        let at = s.start + 1 + i;
        return Err(Error::new(
            at,
            Component::Scheme,
            ErrorKind::InvalidByte(input[at]),
        ));
    }
    Ok(())
}

/// `authority = [ userinfo "@" ] host [ ":" port ]`.
///
/// Neither a host nor a port may hold `@`, so the first `@` ends the userinfo.
/// A `reg-name` or `IPv4address` host ends at the first `:`; an `IP-literal`
/// at its `]`.
pub(crate) fn check_authority(input: &[u8], a: Span) -> Result<Authority, Error> {
    let bytes = &input[a.range()];
    let mut host_start = a.start;
    if let Some(at) = memchr::memchr(b'@', bytes) {
        let u = Span::new(a.start, a.start + at);
        scan(input, u, classes::USERINFO, Component::Userinfo)?;
        host_start = u.end + 1;
    }
    let (host, host_kind, port_colon) = if host_start < a.end && input[host_start] == b'[' {
        let Some(close) = memchr::memchr(b']', &input[host_start..a.end]).map(|i| host_start + i)
        else {
            return Err(Error::new(
                host_start,
                Component::Host,
                ErrorKind::UnclosedIpLiteral,
            ));
        };
        let kind = Some(check_ip_literal(input, host_start + 1, close)?);
        let after = close + 1;
        let port_colon = if after == a.end {
            None
        } else if input[after] == b':' {
            Some(after)
        } else {
            return Err(Error::new(
                after,
                Component::Authority,
                ErrorKind::AfterIpLiteral,
            ));
        };
        (Span::new(host_start, after), kind, port_colon)
    } else {
        let end = memchr::memchr(b':', &input[host_start..a.end]).map_or(a.end, |i| host_start + i);
        let host = Span::new(host_start, end);
        scan(input, host, classes::REG_NAME, Component::Host)?;
        (host, None, (end < a.end).then_some(end))
    };
    let port = match port_colon {
        Some(colon) => {
            let p = Span::new(colon + 1, a.end);
            check_port(input, p)?;
            Some(p)
        }
        None => None,
    };
    Ok(Authority::new(
        a.start,
        [host.start, host.end],
        a.end,
        host_kind,
        port.is_some(),
    ))
}

/// `port = *DIGIT`: the port `p` of `input`, or an error at its first byte
/// that is not a digit.
#[inline]
pub(crate) fn check_port(input: &[u8], p: Span) -> Result<(), Error> {
    match input[p.range()].iter().position(|b| !b.is_ascii_digit()) {
        Some(i) => Err(Error::new(
            p.start + i,
            Component::Port,
            ErrorKind::PortNotNumber,
        )),
        None => Ok(()),
    }
}
