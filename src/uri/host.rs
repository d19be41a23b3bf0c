//! A host, parsed (section 3.2.2).

use std::net::{Ipv4Addr, Ipv6Addr};

use crate::grammar::HostKind;

/// A URI's host, parsed from its text: an `IPv4address` or `IPv6address` as
/// the standard library's address types, an `IPvFuture` (without its
/// brackets) or a `reg-name` as written (not lowercased, not
/// percent-decoded; possibly empty).
///
/// ```
/// use std::net::Ipv6Addr;
/// use uriscan::{parse, Host, Mode};
///
/// let uri = parse(b"https://[2001:db8::7]:8443/", Mode::Uri)?;
/// let host = uri.parsed_host().unwrap();
/// assert_eq!(host, Host::Ipv6("2001:db8::7".parse::<Ipv6Addr>().unwrap()));
/// assert_eq!(host.to_string(), "[2001:db8::7]");
/// assert_eq!(host.kind(), uriscan::HostKind::Ipv6);
/// # Ok::<(), uriscan::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host<'a> {
    /// `IPv4address`: four `dec-octet`s.
    Ipv4(Ipv4Addr),
    /// An `IP-literal` holding an `IPv6address`.
    Ipv6(Ipv6Addr),
    /// An `IP-literal` holding an `IPvFuture`, without its brackets
    /// (`v7.x`).
    IpvFuture(&'a str),
    /// `reg-name`, as written.
    RegName(&'a str),
}

impl<'a> Host<'a> {
    /// The host `text` (brackets included for an IP literal) of kind
    /// `kind`, both from a valid URI.
    pub(crate) fn new(text: &'a str, kind: HostKind) -> Host<'a> {
        let literal = || &text[1..text.len() - 1];
        let valid = "a host the grammar accepted";
        match kind {
            HostKind::Ipv4 => Host::Ipv4(text.parse().expect(valid)),
            HostKind::Ipv6 => Host::Ipv6(literal().parse().expect(valid)),
            HostKind::IpvFuture => Host::IpvFuture(literal()),
            HostKind::RegName => Host::RegName(text),
        }
    }

    /// The kind of the host.
    ///
    /// ```
    /// use uriscan::{Host, HostKind};
    ///
    /// assert_eq!(Host::RegName("example.com").kind(), HostKind::RegName);
    /// ```
    #[must_use]
    pub fn kind(&self) -> HostKind {
        match self {
            Host::Ipv4(_) => HostKind::Ipv4,
            Host::Ipv6(_) => HostKind::Ipv6,
            Host::IpvFuture(_) => HostKind::IpvFuture,
            Host::RegName(_) => HostKind::RegName,
        }
    }
}

/// The host as a URI writes it: an IP literal in brackets. An IPv6 address
/// is written in its canonical form (RFC 5952), which may differ from the
/// text it was parsed from.
impl core::fmt::Display for Host<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Host::Ipv4(a) => write!(f, "{a}"),
            Host::Ipv6(a) => write!(f, "[{a}]"),
            Host::IpvFuture(s) => write!(f, "[{s}]"),
            Host::RegName(s) => f.write_str(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse, Mode};

    /// Every IPv6 form the grammar accepts parses as the standard library's
    /// address, to the value the text spells.
    #[test]
    fn ipv6_forms_parse() {
        for (text, want) in [
            ("[1:2:3:4:5:6:7:8]", "1:2:3:4:5:6:7:8"),
            ("[::]", "::"),
            ("[::1.2.3.4]", "::102:304"),
            ("[1::]", "1::"),
            ("[ffff::192.0.2.1]", "ffff::c000:201"),
            ("[1:2:3:4:5:6:1.2.3.4]", "1:2:3:4:5:6:102:304"),
            ("[A:b::C]", "a:b::c"),
        ] {
            let uri = format!("http://{text}/");
            let host = parse(uri.as_bytes(), Mode::Uri).unwrap().parsed_host();
            let want: Ipv6Addr = want.parse().unwrap();
            assert_eq!(host, Some(Host::Ipv6(want)), "{text}");
        }
        let uri = parse(b"http://255.0.0.9:80", Mode::Uri).unwrap();
        assert_eq!(
            uri.parsed_host(),
            Some(Host::Ipv4(Ipv4Addr::new(255, 0, 0, 9)))
        );
        // Not a dec-octet: a reg-name, not an address.
        let uri = parse(b"http://1.2.3.04/", Mode::Uri).unwrap();
        assert_eq!(uri.parsed_host(), Some(Host::RegName("1.2.3.04")));
    }
}
