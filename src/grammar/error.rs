//! Errors of the validator: where (byte offset and component) and why.
//!
//! One small `Copy` value per failed parse. The offset is the 0-based offset of
//! the first offending byte in the input that was parsed (for a line of a corpus,
//! in that line). A few structural errors point at the byte where the grammar
//! went wrong instead (an unclosed `[` points at the `[`; a missing scheme at 0);
//! each variant of [`ErrorKind`] says where its offset points.

use core::fmt;

/// The component of a URI reference in which an error was found.
///
/// The names (see [`Component::as_str`]) are the ones used in uriscan's JSON
/// and TSV output.
///
/// ```
/// use uriscan::{parse, Component, Mode};
///
/// let component = |s: &str| parse(s.as_bytes(), Mode::Reference).unwrap_err().component();
/// assert_eq!(component("1http://a/"), Component::Scheme);
/// assert_eq!(component("http://[::1]x/"), Component::Authority);
/// assert_eq!(component("http://u^@a/"), Component::Userinfo);
/// assert_eq!(component("http://a b/"), Component::Host);
/// assert_eq!(component("http://a:8x/"), Component::Port);
/// assert_eq!(component("/a b"), Component::Path);
/// assert_eq!(component("/a?b c"), Component::Query);
/// assert_eq!(component("/a#b#c"), Component::Fragment);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    /// `scheme` (RFC 3986 section 3.1).
    Scheme,
    /// `authority` as a whole (3.2), for errors of its structure.
    Authority,
    /// `userinfo` (3.2.1).
    Userinfo,
    /// `host` (3.2.2).
    Host,
    /// `port` (3.2.3).
    Port,
    /// `path` (3.3).
    Path,
    /// `query` (3.4).
    Query,
    /// `fragment` (3.5).
    Fragment,
}

impl Component {
    /// Every component, in the order in which they appear in a URI.
    ///
    /// ```
    /// use uriscan::Component;
    ///
    /// assert_eq!(Component::ALL.len(), 8);
    /// assert_eq!(Component::ALL[0], Component::Scheme);
    /// assert_eq!(Component::ALL[7], Component::Fragment);
    /// // Their order is also the one of `Ord`.
    /// assert!(Component::ALL.windows(2).all(|w| w[0] < w[1]));
    /// ```
    pub const ALL: [Component; 8] = [
        Component::Scheme,
        Component::Authority,
        Component::Userinfo,
        Component::Host,
        Component::Port,
        Component::Path,
        Component::Query,
        Component::Fragment,
    ];

    /// The lowercase name of the component: `scheme`, `authority`, `userinfo`,
    /// `host`, `port`, `path`, `query` or `fragment`.
    ///
    /// ```
    /// use uriscan::Component;
    ///
    /// let names = Component::ALL.map(Component::as_str);
    /// assert_eq!(
    ///     names,
    ///     ["scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment"],
    /// );
    /// // `Display` writes the same name.
    /// assert_eq!(Component::Userinfo.to_string(), "userinfo");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Component::Scheme => "scheme",
            Component::Authority => "authority",
            Component::Userinfo => "userinfo",
            Component::Host => "host",
            Component::Port => "port",
            Component::Path => "path",
            Component::Query => "query",
            Component::Fragment => "fragment",
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a URI reference is invalid.
///
/// ```
/// use uriscan::{parse, ErrorKind, Mode};
///
/// let kind = |s: &str, mode| parse(s.as_bytes(), mode).unwrap_err().kind();
/// assert_eq!(kind("/a b", Mode::Reference), ErrorKind::InvalidByte(b' '));
/// assert_eq!(kind("/a%4g", Mode::Reference), ErrorKind::BadPercentEncoding);
/// assert_eq!(kind("1a:b", Mode::Reference), ErrorKind::SchemeStart);
/// assert_eq!(kind("/a", Mode::Uri), ErrorKind::MissingScheme);
/// assert_eq!(kind(":a", Mode::Reference), ErrorKind::ColonInFirstSegment);
/// assert_eq!(kind("a:b#c", Mode::Absolute), ErrorKind::FragmentNotAllowed);
/// assert_eq!(kind("//[::1%25eth0]/", Mode::Reference), ErrorKind::Ipv6Zone);
/// assert_eq!(kind("//[1::2::3]/", Mode::Reference), ErrorKind::Ipv6DoubleColon);
/// assert_eq!(kind("//a:8o/", Mode::Reference), ErrorKind::PortNotNumber);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A byte that the grammar does not allow where it stands (space, `"`,
    /// `<`, a control byte, a byte >= 0x80, a second `@`, a `#` in a
    /// fragment...). The offset points at that byte.
    InvalidByte(u8),
    /// A `%` not followed by two hexadecimal digits (`pct-encoded`). The
    /// offset points at the `%`.
    BadPercentEncoding,
    /// The scheme starts with a digit, `+`, `-` or `.`; it must start with a
    /// letter. The offset is 0.
    SchemeStart,
    /// A URI was required (mode `uri` or `absolute`) but the input has no
    /// scheme. The offset is 0.
    MissingScheme,
    /// A relative reference whose first path segment contains `:`
    /// (`path-noscheme`). The offset points at the `:`.
    ColonInFirstSegment,
    /// A fragment in an `absolute-URI`. The offset points at the `#`.
    FragmentNotAllowed,
    /// An IP literal whose `[` has no matching `]` in the authority. The
    /// offset points at the `[`.
    UnclosedIpLiteral,
    /// Something other than `:port` after the `]` of an IP literal. The offset
    /// points at the byte after the `]`.
    AfterIpLiteral,
    /// An IPv6 address with more than 8 groups of 16 bits (or more than 7 with
    /// `::`). The offset points at the first group too many.
    Ipv6TooManyGroups,
    /// An IPv6 address with fewer than 8 groups and no `::`. The offset points
    /// at its end (the `]`).
    Ipv6TooFewGroups,
    /// An IPv6 group (`h16`) of more than 4 hex digits. The offset points at
    /// the fifth digit.
    Ipv6GroupTooLong,
    /// An IPv6 address with a second `::`. The offset points at it.
    Ipv6DoubleColon,
    /// A single `:` at the start or the end of an IPv6 address, or `:::`. The
    /// offset points at the `:`.
    Ipv6Colon,
    /// The dotted IPv4 part of an IPv6 address (`ls32`) is not a valid
    /// `IPv4address`, or is not at the end. The offset points at its start.
    Ipv6Ipv4,
    /// An IPv6 zone identifier (`%25eth0`, RFC 6874), which RFC 3986 does not
    /// allow. The offset points at the `%`.
    Ipv6Zone,
    /// An `IPvFuture` literal not of the form `v` 1*HEXDIG `.` 1*(unreserved /
    /// sub-delims / `:`). The offset points where the form breaks.
    BadIpvFuture,
    /// A port that is not all digits. The offset points at the first
    /// non-digit.
    PortNotNumber,
}

impl ErrorKind {
    /// Every kind, for statistics tables (`InvalidByte` with byte 0 stands for
    /// all bytes).
    ///
    /// ```
    /// use std::collections::HashSet;
    /// use uriscan::{parse, ErrorKind, Mode};
    ///
    /// // One entry per variant: 17 kinds, 17 distinct names.
    /// assert_eq!(ErrorKind::ALL.len(), 17);
    /// let names: HashSet<&str> = ErrorKind::ALL.iter().map(|k| k.name()).collect();
    /// assert_eq!(names.len(), ErrorKind::ALL.len());
    ///
    /// // A table of counts, one per kind.
    /// let mut counts = [0u32; ErrorKind::ALL.len()];
    /// for line in ["/a b", "/\"q\"", "//a:x/", "/%"] {
    ///     let err = parse(line.as_bytes(), Mode::Reference).unwrap_err();
    ///     counts[err.kind().index()] += 1;
    /// }
    /// let table: Vec<(&str, u32)> = ErrorKind::ALL
    ///     .iter()
    ///     .map(|k| (k.name(), counts[k.index()]))
    ///     .filter(|&(_, n)| n > 0)
    ///     .collect();
    /// assert_eq!(
    ///     table,
    ///     [("invalid_byte", 2), ("bad_percent_encoding", 1), ("port_not_number", 1)],
    /// );
    /// ```
    pub const ALL: [ErrorKind; 17] = [
        ErrorKind::InvalidByte(0),
        ErrorKind::BadPercentEncoding,
        ErrorKind::SchemeStart,
        ErrorKind::MissingScheme,
        ErrorKind::ColonInFirstSegment,
        ErrorKind::FragmentNotAllowed,
        ErrorKind::UnclosedIpLiteral,
        ErrorKind::AfterIpLiteral,
        ErrorKind::Ipv6TooManyGroups,
        ErrorKind::Ipv6TooFewGroups,
        ErrorKind::Ipv6GroupTooLong,
        ErrorKind::Ipv6DoubleColon,
        ErrorKind::Ipv6Colon,
        ErrorKind::Ipv6Ipv4,
        ErrorKind::Ipv6Zone,
        ErrorKind::BadIpvFuture,
        ErrorKind::PortNotNumber,
    ];

    /// A short, stable, snake_case name of the kind (for statistics and
    /// machine-readable output); `InvalidByte` is `invalid_byte` whatever the
    /// byte.
    ///
    /// ```
    /// use uriscan::ErrorKind;
    ///
    /// assert_eq!(ErrorKind::BadPercentEncoding.name(), "bad_percent_encoding");
    /// assert_eq!(ErrorKind::Ipv6TooFewGroups.name(), "ipv6_too_few_groups");
    /// assert_eq!(ErrorKind::InvalidByte(b' ').name(), "invalid_byte");
    /// assert_eq!(ErrorKind::InvalidByte(0xFF).name(), "invalid_byte");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::InvalidByte(_) => "invalid_byte",
            ErrorKind::BadPercentEncoding => "bad_percent_encoding",
            ErrorKind::SchemeStart => "scheme_start",
            ErrorKind::MissingScheme => "missing_scheme",
            ErrorKind::ColonInFirstSegment => "colon_in_first_segment",
            ErrorKind::FragmentNotAllowed => "fragment_not_allowed",
            ErrorKind::UnclosedIpLiteral => "unclosed_ip_literal",
            ErrorKind::AfterIpLiteral => "after_ip_literal",
            ErrorKind::Ipv6TooManyGroups => "ipv6_too_many_groups",
            ErrorKind::Ipv6TooFewGroups => "ipv6_too_few_groups",
            ErrorKind::Ipv6GroupTooLong => "ipv6_group_too_long",
            ErrorKind::Ipv6DoubleColon => "ipv6_double_colon",
            ErrorKind::Ipv6Colon => "ipv6_colon",
            ErrorKind::Ipv6Ipv4 => "ipv6_ipv4",
            ErrorKind::Ipv6Zone => "ipv6_zone",
            ErrorKind::BadIpvFuture => "bad_ipvfuture",
            ErrorKind::PortNotNumber => "port_not_number",
        }
    }

    /// The index of this kind in [`ErrorKind::ALL`].
    ///
    /// ```
    /// use uriscan::ErrorKind;
    ///
    /// for (i, kind) in ErrorKind::ALL.into_iter().enumerate() {
    ///     assert_eq!(kind.index(), i);
    /// }
    /// assert_eq!(ErrorKind::ALL[ErrorKind::Ipv6Zone.index()], ErrorKind::Ipv6Zone);
    /// // Every invalid byte shares the index of `InvalidByte(0)`.
    /// assert_eq!(ErrorKind::InvalidByte(b'<').index(), ErrorKind::InvalidByte(0).index());
    /// ```
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            ErrorKind::InvalidByte(_) => 0,
            ErrorKind::BadPercentEncoding => 1,
            ErrorKind::SchemeStart => 2,
            ErrorKind::MissingScheme => 3,
            ErrorKind::ColonInFirstSegment => 4,
            ErrorKind::FragmentNotAllowed => 5,
            ErrorKind::UnclosedIpLiteral => 6,
            ErrorKind::AfterIpLiteral => 7,
            ErrorKind::Ipv6TooManyGroups => 8,
            ErrorKind::Ipv6TooFewGroups => 9,
            ErrorKind::Ipv6GroupTooLong => 10,
            ErrorKind::Ipv6DoubleColon => 11,
            ErrorKind::Ipv6Colon => 12,
            ErrorKind::Ipv6Ipv4 => 13,
            ErrorKind::Ipv6Zone => 14,
            ErrorKind::BadIpvFuture => 15,
            ErrorKind::PortNotNumber => 16,
        }
    }
}

/// A URI reference failed to parse: where (offset and component) and why.
///
/// ```
/// use uriscan::{parse, Component, ErrorKind, Mode};
///
/// let err = parse(b"http://example.com/a b", Mode::Reference).unwrap_err();
/// assert_eq!(err.offset(), 20);
/// assert_eq!(err.component(), Component::Path);
/// assert_eq!(err.kind(), ErrorKind::InvalidByte(b' '));
/// assert_eq!(err.to_string(), "invalid character ' ' in path");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    offset: usize,
    component: Component,
    kind: ErrorKind,
}

impl Error {
    #[cold]
    #[inline(never)]
    pub(crate) fn new(offset: usize, component: Component, kind: ErrorKind) -> Error {
        Error {
            offset,
            component,
            kind,
        }
    }

    /// The 0-based byte offset of the first offending byte (see
    /// [`ErrorKind`] for where each kind points).
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// let input = b"http://a/b%zz";
    /// let err = parse(input, Mode::Uri).unwrap_err();
    /// assert_eq!(err.offset(), 10);
    /// assert_eq!(input[err.offset()], b'%');
    ///
    /// // An unclosed IP literal: the offset points at its `[`.
    /// let input = b"http://[::1/x";
    /// let err = parse(input, Mode::Uri).unwrap_err();
    /// assert_eq!(err.offset(), 7);
    /// assert_eq!(input[err.offset()], b'[');
    /// ```
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The component in which the error was found.
    ///
    /// ```
    /// use uriscan::{parse, Component, Mode};
    ///
    /// // The same byte, in two components.
    /// let err = parse(b"http://a/?q=<x>", Mode::Uri).unwrap_err();
    /// assert_eq!((err.offset(), err.component()), (12, Component::Query));
    /// let err = parse(b"http://a/<x>", Mode::Uri).unwrap_err();
    /// assert_eq!((err.offset(), err.component()), (9, Component::Path));
    /// assert_eq!(err.to_string(), "invalid character '<' in path");
    /// ```
    #[must_use]
    pub fn component(&self) -> Component {
        self.component
    }

    /// Why the input is invalid.
    ///
    /// ```
    /// use uriscan::{parse, ErrorKind, Mode};
    ///
    /// let err = parse(b"a\tb", Mode::Reference).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::InvalidByte(b'\t'));
    /// assert_eq!(err.to_string(), "invalid byte 0x09 in path");
    ///
    /// let err = parse(b"http://[v1]/", Mode::Uri).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::BadIpvFuture);
    /// ```
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.component;
        match self.kind {
            ErrorKind::InvalidByte(b) if b.is_ascii_graphic() || b == b' ' => {
                write!(f, "invalid character '{}' in {c}", b as char)
            }
            ErrorKind::InvalidByte(b) => write!(f, "invalid byte 0x{b:02X} in {c}"),
            ErrorKind::BadPercentEncoding => write!(f, "'%' not followed by two hex digits in {c}"),
            ErrorKind::SchemeStart => f.write_str("scheme does not start with a letter"),
            ErrorKind::MissingScheme => {
                f.write_str("missing scheme: a relative reference, not a URI")
            }
            ErrorKind::ColonInFirstSegment => {
                f.write_str("':' in the first segment of a relative path (write './' before it)")
            }
            ErrorKind::FragmentNotAllowed => f.write_str("an absolute URI may not have a fragment"),
            ErrorKind::UnclosedIpLiteral => f.write_str("'[' of IP literal not closed by ']'"),
            ErrorKind::AfterIpLiteral => f.write_str("expected ':' or end of authority after ']'"),
            ErrorKind::Ipv6TooManyGroups => f.write_str("IPv6 address has more than 8 groups"),
            ErrorKind::Ipv6TooFewGroups => {
                f.write_str("IPv6 address has fewer than 8 groups and no '::'")
            }
            ErrorKind::Ipv6GroupTooLong => f.write_str("IPv6 group has more than 4 hex digits"),
            ErrorKind::Ipv6DoubleColon => f.write_str("IPv6 address has more than one '::'"),
            ErrorKind::Ipv6Colon => f.write_str("misplaced ':' in IPv6 address"),
            ErrorKind::Ipv6Ipv4 => f.write_str("invalid IPv4 part in IPv6 address"),
            ErrorKind::Ipv6Zone => f.write_str("IPv6 zone identifiers are not allowed by RFC 3986"),
            ErrorKind::BadIpvFuture => {
                f.write_str("malformed IPvFuture literal (expected 'v' HEXDIG... '.' ...)")
            }
            ErrorKind::PortNotNumber => f.write_str("port is not a number"),
        }
    }
}

impl std::error::Error for Error {}
