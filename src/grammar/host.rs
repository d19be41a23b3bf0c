//! Hosts (section 3.2.2): the kinds, `IPv4address` with strict
//! `dec-octet`s, and `IP-literal` (`IPv6address` in all nine forms,
//! `IPvFuture`). IPv6 zone identifiers (RFC 6874) are not RFC 3986 and are
//! rejected.

use super::error::{Component, Error, ErrorKind};
use crate::classes::{self, is};

/// The kind of a host (RFC 3986 section 3.2.2).
///
/// ```
/// use uriscan::{parse, HostKind, Mode};
///
/// let kind = |s: &str| parse(s.as_bytes(), Mode::Uri).unwrap().host_kind();
/// assert_eq!(kind("http://192.0.2.1/"), Some(HostKind::Ipv4));
/// assert_eq!(kind("http://[2001:db8::1]/"), Some(HostKind::Ipv6));
/// assert_eq!(kind("http://[v1.fe80::a+en1]/"), Some(HostKind::IpvFuture));
/// assert_eq!(kind("http://example.com/"), Some(HostKind::RegName));
/// // A leading zero is no `dec-octet`: a reg-name.
/// assert_eq!(kind("http://01.1.1.1/"), Some(HostKind::RegName));
/// // An empty host is a reg-name too; no authority, no host.
/// assert_eq!(kind("file:///etc/hosts"), Some(HostKind::RegName));
/// assert_eq!(kind("mailto:a@example.com"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HostKind {
    /// `IPv4address`: four `dec-octet`s, such as `192.0.2.1`. A host that looks
    /// like one but fails `dec-octet` (`256.1.1.1`, `01.1.1.1`) is a `reg-name`.
    Ipv4,
    /// An `IP-literal` holding an `IPv6address`, such as `[2001:db8::1]`.
    Ipv6,
    /// An `IP-literal` holding an `IPvFuture`, such as `[v1.fe80::a+en1]`.
    IpvFuture,
    /// `reg-name`: a registered name such as `example.com`, possibly empty.
    RegName,
}

impl HostKind {
    /// Every kind, in the order of [`HostKind::index`].
    ///
    /// ```
    /// use uriscan::HostKind;
    ///
    /// assert_eq!(HostKind::ALL.len(), 4);
    /// for (i, kind) in HostKind::ALL.into_iter().enumerate() {
    ///     assert_eq!(kind.index(), i);
    /// }
    /// ```
    pub const ALL: [HostKind; 4] = [
        HostKind::Ipv4,
        HostKind::Ipv6,
        HostKind::IpvFuture,
        HostKind::RegName,
    ];

    /// `ipv4`, `ipv6`, `ipvfuture` or `reg-name`.
    ///
    /// ```
    /// use uriscan::HostKind;
    ///
    /// assert_eq!(HostKind::ALL.map(HostKind::as_str), ["ipv4", "ipv6", "ipvfuture", "reg-name"]);
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            HostKind::Ipv4 => "ipv4",
            HostKind::Ipv6 => "ipv6",
            HostKind::IpvFuture => "ipvfuture",
            HostKind::RegName => "reg-name",
        }
    }

    /// The index of this kind in [`HostKind::ALL`].
    ///
    /// ```
    /// use uriscan::{parse, HostKind, Mode};
    ///
    /// let mut counts = [0; HostKind::ALL.len()];
    /// for s in ["http://a/", "http://10.0.0.1/", "http://[::1]/", "http://b.example/"] {
    ///     let kind = parse(s.as_bytes(), Mode::Uri).unwrap().host_kind().unwrap();
    ///     counts[kind.index()] += 1;
    /// }
    /// assert_eq!(counts, [1, 1, 0, 2]);
    /// assert_eq!(HostKind::ALL[HostKind::RegName.index()], HostKind::RegName);
    /// ```
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The kind of a host that is not an `IP-literal`: `IPv4address` when it is
/// one, else `reg-name`. (A host that does not start with a digit is not
/// looked at further.)
#[inline(always)]
pub(crate) fn name_kind(host: &[u8]) -> HostKind {
    if host.first().is_some_and(u8::is_ascii_digit) && is_ipv4(host) {
        HostKind::Ipv4
    } else {
        HostKind::RegName
    }
}

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`, where
/// `dec-octet` is 0-255 written without leading zeros. Inlined: called, it
/// took 3% of `check` of the generated corpus in the criterion bench (whose
/// build had left it out of line; the CLI's had not).
#[inline(always)]
pub(crate) fn is_ipv4(bytes: &[u8]) -> bool {
    // One pass: the value and length of the octet so far, and the dots.
    // (Splitting on `.` first cost about 35 ns per IPv4 host.)
    let (mut value, mut digits, mut dots) = (0u32, 0u32, 0u32);
    for &b in bytes {
        if b == b'.' {
            if digits == 0 || dots == 3 {
                return false;
            }
            (value, digits, dots) = (0, 0, dots + 1);
        } else if b.is_ascii_digit() {
            // No leading zero, at most 255 (three digits at most).
            if digits > 0 && value == 0 {
                return false;
            }
            value = value * 10 + u32::from(b - b'0');
            digits += 1;
            if value > 255 {
                return false;
            }
        } else {
            return false;
        }
    }
    dots == 3 && digits > 0
}

/// `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`: checks what lies
/// between the brackets, `[start, end)`.
pub(crate) fn check_ip_literal(input: &[u8], start: usize, end: usize) -> Result<HostKind, Error> {
    if start < end && matches!(input[start], b'v' | b'V') {
        check_ipvfuture(input, start, end)?;
        Ok(HostKind::IpvFuture)
    } else {
        check_ipv6(input, start, end)?;
        Ok(HostKind::Ipv6)
    }
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`, the
/// `v` at `start`.
fn check_ipvfuture(input: &[u8], start: usize, end: usize) -> Result<(), Error> {
    let bad = |i| Error::new(i, Component::Host, ErrorKind::BadIpvFuture);
    let mut i = start + 1;
    while i < end && is(input[i], classes::HEXDIG) {
        i += 1;
    }
    // INVARIANT: [start + 1, i) is the version, i the byte after it.
    if i == start + 1 || i == end || input[i] != b'.' {
        return Err(bad(i));
    }
    i += 1;
    if i == end {
        return Err(bad(i));
    }
    if let Some(j) = input[i..end]
        .iter()
        .position(|&b| !is(b, classes::IPVFUTURE))
    {
        let at = i + j;
        return Err(Error::new(
            at,
            Component::Host,
            ErrorKind::InvalidByte(input[at]),
        ));
    }
    Ok(())
}

/// `IPv6address` of section 3.2.2, all nine forms, between `[start, end)`.
///
/// The nine alternatives amount to: `h16` groups (1-4 hex digits) separated by
/// `:`, at most one `::` standing for one or more zero groups, an optional
/// dotted `IPv4address` as the last 32 bits (it counts as two groups), and
/// exactly 8 groups without `::`, at most 7 with it.
fn check_ipv6(input: &[u8], start: usize, end: usize) -> Result<(), Error> {
    let err = |i, kind| Error::new(i, Component::Host, kind);
    let mut i = start;
    let mut groups = 0;
    let mut double_colon = false;
    let mut double_colon_at = start;
    if input[i..end].starts_with(b"::") {
        double_colon = true;
        i += 2;
    } else if i < end && input[i] == b':' {
        return Err(err(i, ErrorKind::Ipv6Colon));
    }
    // INVARIANT: at the top of the loop, `i` is where a group may start: at
    // `start`, or just after a `:` or `::`.
    while i < end {
        let group = i;
        while i < end && is(input[i], classes::HEXDIG) {
            i += 1;
        }
        if i < end && input[i] == b'.' {
            // ls32 as an IPv4address: the last 32 bits, so it runs to the end.
            if !is_ipv4(&input[group..end]) {
                return Err(err(group, ErrorKind::Ipv6Ipv4));
            }
            if groups + 2 > if double_colon { 7 } else { 8 } {
                return Err(err(group, ErrorKind::Ipv6TooManyGroups));
            }
            groups += 2;
            break;
        }
        let digits = i - group;
        if digits == 0 {
            return Err(match input[i] {
                b':' => err(i, ErrorKind::Ipv6Colon),
                b'%' => err(i, ErrorKind::Ipv6Zone),
                b => err(i, ErrorKind::InvalidByte(b)),
            });
        }
        if digits > 4 {
            return Err(err(group + 4, ErrorKind::Ipv6GroupTooLong));
        }
        groups += 1;
        if groups > if double_colon { 7 } else { 8 } {
            return Err(err(group, ErrorKind::Ipv6TooManyGroups));
        }
        if i == end {
            break;
        }
        match input[i] {
            b':' => {}
            b'%' => return Err(err(i, ErrorKind::Ipv6Zone)),
            b => return Err(err(i, ErrorKind::InvalidByte(b))),
        }
        i += 1;
        if i < end && input[i] == b':' {
            if double_colon {
                return Err(err(i - 1, ErrorKind::Ipv6DoubleColon));
            }
            double_colon = true;
            double_colon_at = i - 1;
            i += 1;
        } else if i == end {
            return Err(err(i - 1, ErrorKind::Ipv6Colon));
        }
    }
    if !double_colon && groups < 8 {
        return Err(err(end, ErrorKind::Ipv6TooFewGroups));
    }
    if double_colon && groups > 7 {
        // Eight groups and a `::`, which stands for at least one more.
        return Err(err(double_colon_at, ErrorKind::Ipv6TooManyGroups));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `IPv4address` as the grammar writes it: four `dec-octet`s joined by
    /// dots.
    fn is_ipv4_grammar(bytes: &[u8]) -> bool {
        let parts: Vec<&[u8]> = bytes.split(|&b| b == b'.').collect();
        parts.len() == 4 && parts.iter().all(|p| is_dec_octet(p))
    }

    /// `dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT /
    /// "25" %x30-35`.
    fn is_dec_octet(p: &[u8]) -> bool {
        match *p {
            [a] => a.is_ascii_digit(),
            [a, b] => matches!(a, b'1'..=b'9') && b.is_ascii_digit(),
            [b'1', b, c] => b.is_ascii_digit() && c.is_ascii_digit(),
            [b'2', b'0'..=b'4', c] => c.is_ascii_digit(),
            [b'2', b'5', b'0'..=b'5'] => true,
            _ => false,
        }
    }

    /// `is_ipv4` against the grammar: every join of three to five octets
    /// taken from edge cases (empty, leading zeros, 255/256, four digits,
    /// letters), and every string of up to 6 bytes over digits, dot and a
    /// letter.
    #[test]
    fn ipv4_matches_the_grammar() {
        let octets: [&[u8]; 20] = [
            b"", b"0", b"00", b"01", b"1", b"9", b"10", b"99", b"100", b"199", b"200", b"249",
            b"250", b"255", b"256", b"300", b"999", b"1000", b"0255", b"2a",
        ];
        let mut checked = 0;
        for count in 3..=5u32 {
            for mut k in 0..octets.len().pow(count) {
                let mut host = Vec::new();
                for i in 0..count {
                    if i > 0 {
                        host.push(b'.');
                    }
                    host.extend_from_slice(octets[k % octets.len()]);
                    k /= octets.len();
                }
                assert_eq!(is_ipv4(&host), is_ipv4_grammar(&host), "{host:?}");
                checked += usize::from(is_ipv4(&host));
            }
        }
        assert_eq!(checked, 11usize.pow(4), "the joins of four valid octets");
        let alphabet = b"0125.9x";
        for len in 0..=6u32 {
            for mut k in 0..alphabet.len().pow(len) {
                let host: Vec<u8> = (0..len)
                    .map(|_| {
                        let b = alphabet[k % alphabet.len()];
                        k /= alphabet.len();
                        b
                    })
                    .collect();
                assert_eq!(is_ipv4(&host), is_ipv4_grammar(&host), "{host:?}");
            }
        }
    }
}
