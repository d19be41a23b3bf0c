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
            Host::Ipv6(a) => f.write_str(Ipv6Literal::new(*a).as_str()),
            Host::IpvFuture(s) => write!(f, "[{s}]"),
            Host::RegName(s) => f.write_str(s),
        }
    }
}

/// The IP literal of an IPv6 address: `[`, its canonical text (RFC 5952
/// section 4, as the standard library's `Display` writes it), `]`. The
/// groups in lowercase hex without leading zeros, the first of the longest
/// runs of two or more zero groups as `::`, an IPv4-mapped address as
/// `::ffff:` and its dotted quad (section 5). Written byte by byte into a
/// buffer of its own: through `core::fmt` (`format!("[{a}]")`) an address
/// cost the `web` profile some 7,000 instructions (callgrind), a line's
/// whole key several times over.
pub(crate) struct Ipv6Literal {
    /// The longest: `[`, eight groups of four digits, seven `:`, `]`.
    bytes: [u8; 41],
    len: usize,
}

impl Ipv6Literal {
    pub(crate) fn new(a: Ipv6Addr) -> Ipv6Literal {
        let mut t = Ipv6Literal {
            bytes: [0; 41],
            len: 0,
        };
        t.push(b'[');
        if let Some(v4) = a.to_ipv4_mapped() {
            t.push_str(b"::ffff:");
            for (i, octet) in v4.octets().into_iter().enumerate() {
                if i > 0 {
                    t.push(b'.');
                }
                t.push_decimal(octet);
            }
            t.push(b']');
            return t;
        }
        let groups = a.segments();
        // The first longest run of zero groups: `zeros` groups from `run`.
        let (mut run, mut zeros, mut start, mut len) = (0, 0, 0, 0);
        for (i, &g) in groups.iter().enumerate() {
            if g != 0 {
                len = 0;
                continue;
            }
            if len == 0 {
                start = i;
            }
            len += 1;
            if len > zeros {
                (run, zeros) = (start, len);
            }
        }
        if zeros > 1 {
            t.push_groups(&groups[..run]);
            t.push_str(b"::");
            t.push_groups(&groups[run + zeros..]);
        } else {
            t.push_groups(&groups);
        }
        t.push(b']');
        t
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    fn as_str(&self) -> &str {
        core::str::from_utf8(self.as_bytes()).expect("ASCII")
    }

    fn push(&mut self, b: u8) {
        self.bytes[self.len] = b;
        self.len += 1;
    }

    fn push_str(&mut self, s: &[u8]) {
        for &b in s {
            self.push(b);
        }
    }

    /// `groups` in lowercase hex without leading zeros (`0` for zero),
    /// joined by `:`.
    fn push_groups(&mut self, groups: &[u16]) {
        for (i, &g) in groups.iter().enumerate() {
            if i > 0 {
                self.push(b':');
            }
            let digits = (4 - g.leading_zeros() as usize / 4).max(1);
            for k in (0..digits).rev() {
                self.push(crate::classes::HEX_LOWER[usize::from(g >> (4 * k) & 15)]);
            }
        }
    }

    /// `b` in decimal without leading zeros.
    fn push_decimal(&mut self, b: u8) {
        if b >= 100 {
            self.push(b'0' + b / 100);
        }
        if b >= 10 {
            self.push(b'0' + b / 10 % 10);
        }
        self.push(b'0' + b % 10);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

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

    /// An address's groups, each zero half the time (so that runs of zeros
    /// of every length and place occur), else small or any.
    fn groups() -> impl Strategy<Value = [u16; 8]> {
        let group =
            prop_oneof![4 => Just(0u16), 1 => 1u16..16, 1 => 0xfff0u16.., 2 => any::<u16>()];
        prop::array::uniform8(group)
    }

    proptest! {
        /// The literal is the standard library's `Display` of the address
        /// in brackets (the oracle: its own implementation of RFC 5952).
        #[test]
        fn ipv6_literal_is_std_display(g in groups(), mapped in any::<bool>()) {
            let mut g = g;
            if mapped {
                g[..6].copy_from_slice(&[0, 0, 0, 0, 0, 0xffff]);
            }
            let a = Ipv6Addr::from(g);
            let literal = Ipv6Literal::new(a);
            prop_assert_eq!(literal.as_str(), format!("[{a}]"));
            prop_assert_eq!(Host::Ipv6(a).to_string(), format!("[{a}]"));
        }
    }

    #[test]
    fn ipv6_literal_cases() {
        for (text, want) in [
            ("::", "[::]"),
            ("::1", "[::1]"),
            ("1::", "[1::]"),
            ("1:0:2:3:4:5:6:7", "[1:0:2:3:4:5:6:7]"),
            ("1:0:0:2:0:0:0:3", "[1:0:0:2::3]"),
            ("1:0:0:2:3:0:0:4", "[1::2:3:0:0:4]"),
            ("::ffff:1.2.3.4", "[::ffff:1.2.3.4]"),
            ("::ffff:0.10.200.255", "[::ffff:0.10.200.255]"),
            ("::1.2.3.4", "[::102:304]"),
            ("ABCD:EF01::0F", "[abcd:ef01::f]"),
        ] {
            assert_eq!(
                Ipv6Literal::new(text.parse().unwrap()).as_str(),
                want,
                "{text}"
            );
        }
    }
}
