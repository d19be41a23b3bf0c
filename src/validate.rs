//! The scalar validator: RFC 3986 Appendix A, shaped like the grammar.
//!
//! The input is first split by Appendix B ([`crate::split()`]); each component is
//! then checked against its rule with the class table of [`crate::table`]:
//!
//! * `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`;
//! * `authority = [ userinfo "@" ] host [ ":" port ]`, the host being an
//!   `IP-literal` (complete `IPv6address` or `IPvFuture`), an `IPv4address`
//!   (strict `dec-octet`) or a `reg-name`;
//! * the five path rules. After the split, `path-abempty`, `path-absolute`
//!   and `path-rootless` reduce to "`pchar` and `/`": a path can only start
//!   with `//` when an authority precedes it, and the only way for a relative
//!   reference's first segment to hold a `:` (`path-noscheme`) is to start with
//!   one, since any other `:` before the first `/ ? #` makes a scheme;
//! * `query` and `fragment`: `pchar / "/" / "?"`;
//! * `pct-encoded = "%" HEXDIG HEXDIG` everywhere it is allowed.
//!
//! If Appendix B finds a scheme, the input can only be a `URI`: as a
//! `relative-ref` its first segment would hold a `:`. So the mode only decides
//! whether a missing scheme or a fragment is an error.
//!
//! Components are checked left to right, so the error returned is the first in
//! the input. This module is the reference that every faster path must match,
//! byte for byte, error offsets included. It allocates nothing.
//!
//! Left out on purpose: IPv6 zone identifiers (RFC 6874) and IRIs (RFC 3987)
//! are not RFC 3986 and are rejected.

use core::fmt;
use core::ops::Range;

use crate::error::{Component, Error, ErrorKind};
use crate::simd::Backend;
use crate::split::{split, Span, Split};
use crate::stage2;
use crate::table::{self, is};

/// Which rule of RFC 3986 the input must match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// `URI-reference = URI / relative-ref` (section 4.1): anything a
    /// document may contain.
    #[default]
    Reference,
    /// `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]` (section 3).
    Uri,
    /// `absolute-URI = scheme ":" hier-part [ "?" query ]` (section 4.3): a
    /// URI without fragment, as a base URI must be.
    Absolute,
}

impl Mode {
    /// The CLI name of the mode: `reference`, `uri` or `absolute`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Reference => "reference",
            Mode::Uri => "uri",
            Mode::Absolute => "absolute",
        }
    }
}

/// The kind of a host (RFC 3986 section 3.2.2).
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
    pub const ALL: [HostKind; 4] = [
        HostKind::Ipv4,
        HostKind::Ipv6,
        HostKind::IpvFuture,
        HostKind::RegName,
    ];

    /// `ipv4`, `ipv6`, `ipvfuture` or `reg-name`.
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
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The parts of an authority, as offsets into the input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Authority {
    start: usize,
    host_start: usize,
    host_end: usize,
    end: usize,
    /// The host kind, the flags `USERINFO` and `PORT`, and the notes: one
    /// word, not several bytes (see the same choice in `Split`).
    info: usize,
}

/// In place of a host kind: a `reg-name` or `IPv4address`, which of the
/// two told by [`name_kind`] on the host's bytes when asked
/// ([`Authority::host_kind`]). Validity does not depend on it (an
/// `IPv4address` is a `reg-name` too), so a corpus pass that only checks
/// never looks.
const NAME: usize = HostKind::ALL.len();
const USERINFO: usize = 1 << 8;
const PORT: usize = 1 << 9;
/// Notes on the whole URI, not on its authority, kept here for free bits
/// and left out of equality and hashing: what the corpus pass of
/// [`crate::batch::Uris::for_normalizer`] saw for
/// [`crate::Normalizer::is_normal`]. No uppercase letter before the path,
/// no `/.`, and every percent-encoding in normal form:
pub(crate) const NOTE_PLAIN: usize = 1 << 10;
/// A percent-encoding not in normal form (so the URI is not normal).
pub(crate) const NOTE_BAD_PCT: usize = 1 << 11;
const NOTES: usize = NOTE_PLAIN | NOTE_BAD_PCT;

impl PartialEq for Authority {
    fn eq(&self, other: &Authority) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Authority {}

impl std::hash::Hash for Authority {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl Authority {
    /// The parts of no authority (a URI without one holds this).
    pub(crate) const NONE: Authority = Authority {
        start: 0,
        host_start: 0,
        host_end: 0,
        end: 0,
        info: NAME,
    };

    /// An authority without userinfo: a `reg-name` or `IPv4address` host
    /// `[start, host_end)`, then `:` and a port up to `end` when `has_port`.
    #[inline(always)]
    pub(crate) fn plain(start: usize, host_end: usize, end: usize, has_port: bool) -> Authority {
        Authority::new(start, [start, host_end], end, None, has_port)
    }

    /// The authority `[start, end)` whose host is `[host[0], host[1])`, an
    /// IP literal of kind `literal` or else a `reg-name` or `IPv4address`:
    /// a userinfo and its `@` before the host when `host[0] > start`, and
    /// `:` and a port after it when `has_port`.
    #[inline(always)]
    pub(crate) fn new(
        start: usize,
        host: [usize; 2],
        end: usize,
        literal: Option<HostKind>,
        has_port: bool,
    ) -> Authority {
        Authority {
            start,
            host_start: host[0],
            host_end: host[1],
            end,
            info: literal.map_or(NAME, |k| k as usize)
                | if host[0] > start { USERINFO } else { 0 }
                | if has_port { PORT } else { 0 },
        }
    }

    /// The kind of the host, whose authority is in `input`.
    #[inline]
    pub(crate) fn host_kind(&self, input: &[u8]) -> HostKind {
        match self.info & 0xff {
            NAME => name_kind(&input[self.host().range()]),
            k => HostKind::ALL[k],
        }
    }

    /// The userinfo, without its `@`.
    pub(crate) fn userinfo(&self) -> Option<Span> {
        (self.info & USERINFO != 0).then(|| Span::new(self.start, self.host_start - 1))
    }

    /// The host.
    pub(crate) fn host(&self) -> Span {
        Span::new(self.host_start, self.host_end)
    }

    /// The port, without its `:`.
    pub(crate) fn port(&self) -> Option<Span> {
        (self.info & PORT != 0).then(|| Span::new(self.host_end + 1, self.end))
    }

    /// Adds notes on the URI (`NOTE_PLAIN`, `NOTE_BAD_PCT`).
    #[inline(always)]
    pub(crate) fn add_notes(&mut self, notes: usize) {
        self.info |= notes & NOTES;
    }

    /// The notes on the URI.
    #[inline(always)]
    pub(crate) fn notes(&self) -> usize {
        self.info & NOTES
    }

    /// What equality and hashing compare: everything but the notes.
    fn key(&self) -> [usize; 5] {
        [
            self.start,
            self.host_start,
            self.host_end,
            self.end,
            self.info & !NOTES,
        ]
    }
}

/// A valid URI reference, borrowed from the input: every component and
/// sub-component is a slice of it.
///
/// ```
/// use uriscan::{parse, HostKind, Mode};
///
/// let uri = parse(b"https://user@[2001:db8::7]:8443/a/b?q=1#top", Mode::Uri)?;
/// assert_eq!(uri.scheme(), Some("https"));
/// assert_eq!(uri.authority(), Some("user@[2001:db8::7]:8443"));
/// assert_eq!(uri.userinfo(), Some("user"));
/// assert_eq!(uri.host(), Some("[2001:db8::7]"));
/// assert_eq!(uri.host_kind(), Some(HostKind::Ipv6));
/// assert_eq!(uri.port(), Some("8443"));
/// assert_eq!(uri.port_number(), Some(8443));
/// assert_eq!(uri.path(), "/a/b");
/// assert_eq!(uri.query(), Some("q=1"));
/// assert_eq!(uri.fragment(), Some("top"));
/// # Ok::<(), uriscan::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Uri<'a> {
    input: &'a [u8],
    split: Split,
    /// [`Authority::NONE`] when the split has no authority. Not an `Option`:
    /// a plain struct is cheap to build and move on the hot path. Also holds
    /// the corpus pass's notes, for any URI.
    authority: Authority,
}

/// The text and its components, as the accessors give them (not the
/// offsets and flags kept inside).
impl fmt::Debug for Uri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Uri")
            .field("text", &self.as_str())
            .field("scheme", &self.scheme())
            .field("userinfo", &self.userinfo())
            .field("host", &self.host())
            .field("host_kind", &self.host_kind())
            .field("port", &self.port())
            .field("path", &self.path())
            .field("query", &self.query())
            .field("fragment", &self.fragment())
            .finish()
    }
}

impl<'a> Uri<'a> {
    /// A URI from parts already checked (by stage 2).
    #[inline(always)]
    pub(crate) fn from_parts(input: &'a [u8], split: Split, authority: Authority) -> Uri<'a> {
        Uri {
            input,
            split,
            authority,
        }
    }

    /// The whole input (no UTF-8 check: for the crate's own hot paths).
    #[inline]
    pub(crate) fn bytes(&self) -> &'a [u8] {
        self.input
    }

    /// The bytes of `span` (no UTF-8 check: for the crate's own hot paths).
    #[inline]
    pub(crate) fn raw(&self, span: Span) -> &'a [u8] {
        &self.input[span.range()]
    }

    /// The notes of the corpus pass on this URI (`NOTE_PLAIN`,
    /// `NOTE_BAD_PCT`), 0 for none.
    #[inline(always)]
    pub(crate) fn notes(&self) -> usize {
        self.authority.notes()
    }

    /// The parts of the authority.
    #[inline]
    pub(crate) fn parts(&self) -> Option<Authority> {
        self.split.has_authority().then_some(self.authority)
    }

    #[inline]
    fn str(&self, span: Span) -> &'a str {
        ascii_str(&self.input[span.range()])
    }

    /// The whole input.
    #[must_use]
    pub fn as_str(&self) -> &'a str {
        self.str(Span::new(0, self.input.len()))
    }

    /// The Appendix B split (byte ranges) of the input.
    #[must_use]
    pub fn split(&self) -> &Split {
        &self.split
    }

    /// Whether the reference is a relative reference (it has no scheme).
    #[must_use]
    pub fn is_relative(&self) -> bool {
        self.split.scheme_span().is_none()
    }

    /// The scheme, as written (not lowercased).
    #[must_use]
    pub fn scheme(&self) -> Option<&'a str> {
        self.split.scheme_span().map(|s| self.str(s))
    }

    /// The authority, without its `//`.
    #[must_use]
    pub fn authority(&self) -> Option<&'a str> {
        self.split.authority_span().map(|s| self.str(s))
    }

    /// The userinfo, without its `@`.
    #[must_use]
    pub fn userinfo(&self) -> Option<&'a str> {
        self.parts()?.userinfo().map(|s| self.str(s))
    }

    /// The host; an IP literal keeps its brackets (`[::1]`). Defined (possibly
    /// empty) whenever the authority is.
    #[must_use]
    pub fn host(&self) -> Option<&'a str> {
        self.parts().map(|a| self.str(a.host()))
    }

    /// The byte range of the host in the input.
    #[must_use]
    pub fn host_range(&self) -> Option<Range<usize>> {
        self.parts().map(|a| a.host().range())
    }

    /// The kind of the host. A `reg-name` and an `IPv4address` are told
    /// apart here, from the host's bytes, not while parsing: the grammar
    /// admits both, so a pass that only validates never pays for it.
    #[must_use]
    pub fn host_kind(&self) -> Option<HostKind> {
        self.parts().map(|a| a.host_kind(self.input))
    }

    /// The port as written, without its `:`; may be empty (`http://h:/`).
    #[must_use]
    pub fn port(&self) -> Option<&'a str> {
        self.parts()?.port().map(|s| self.str(s))
    }

    /// The port as a number, when there is one and it fits in a `u16`
    /// (leading zeros allowed: `080` is 80).
    #[must_use]
    pub fn port_number(&self) -> Option<u16> {
        port_value(self.port()?.as_bytes())?.try_into().ok()
    }

    /// The path; always defined, possibly empty.
    #[must_use]
    pub fn path(&self) -> &'a str {
        self.str(self.split.path_span())
    }

    /// The query, without its `?`.
    #[must_use]
    pub fn query(&self) -> Option<&'a str> {
        self.split.query_span().map(|s| self.str(s))
    }

    /// The fragment, without its `#`.
    #[must_use]
    pub fn fragment(&self) -> Option<&'a str> {
        self.split.fragment_span().map(|s| self.str(s))
    }
}

/// The bytes of a [`Uri`] as text, with no UTF-8 check: a `Uri` is built
/// only from input the grammar accepted (by the reference validator, or by
/// stage 2, which accepts no byte outside the URI alphabet and is tested to
/// agree with the reference), and the grammar admits ASCII bytes only.
/// Checking again on every accessor call cost more than the whole split
/// (`Uri::scheme`, `host`, `port`, `path`, `query` and `fragment` of each
/// URI of 16 MiB of `generated`: 94 ns per URI with `str::from_utf8`, 41
/// without, against 33 for `check` alone).
#[allow(unsafe_code)]
#[inline]
fn ascii_str(bytes: &[u8]) -> &str {
    debug_assert!(bytes.is_ascii(), "a valid URI is ASCII");
    // SAFETY: `bytes` is ASCII (see above; the tests, in debug builds,
    // assert it on every call), and ASCII is UTF-8.
    unsafe { core::str::from_utf8_unchecked(bytes) }
}

/// Parses `input` as a URI reference, a URI or an absolute URI (see [`Mode`]),
/// checking every component against the grammar of RFC 3986 Appendix A.
///
/// # Errors
///
/// Returns the first offending byte's offset, its component and the reason
/// when `input` does not match the rule of `mode`.
///
/// ```
/// use uriscan::{parse, Component, ErrorKind, HostKind, Mode};
///
/// let uri = parse(b"//192.168.0.1:80/x", Mode::Reference)?;
/// assert!(uri.is_relative());
/// assert_eq!(uri.host_kind(), Some(HostKind::Ipv4));
///
/// // 256 is no dec-octet, so this host is a reg-name.
/// let uri = parse(b"http://256.1.1.1/", Mode::Uri)?;
/// assert_eq!(uri.host_kind(), Some(HostKind::RegName));
///
/// let err = parse(b"http://[1:2:3:4:5:6:7:8:9]/", Mode::Uri).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Ipv6TooManyGroups);
/// assert_eq!(err.component(), Component::Host);
///
/// let err = parse(b"/no/scheme", Mode::Uri).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::MissingScheme);
/// # Ok::<(), uriscan::Error>(())
/// ```
pub fn parse(input: &[u8], mode: Mode) -> Result<Uri<'_>, Error> {
    parse_with(input, mode, Backend::current())
}

/// Inputs shorter than this go straight to the reference validator, which is
/// faster on them than classifying a block.
const SHORT: usize = 8;

/// [`parse`] with a chosen [`Backend`] (for benchmarks and tests). Every
/// backend gives the same result; one this CPU cannot run, or
/// [`Backend::Scalar`], means the reference validator.
///
/// # Errors
///
/// As [`parse`].
///
/// ```
/// use uriscan::{parse_with, Backend, Mode};
///
/// for backend in Backend::available() {
///     let uri = parse_with(b"http://example.com/a?b#c", Mode::Uri, backend)?;
///     assert_eq!(uri.query(), Some("b"));
/// }
/// # Ok::<(), uriscan::Error>(())
/// ```
pub fn parse_with(input: &[u8], mode: Mode, backend: Backend) -> Result<Uri<'_>, Error> {
    if backend != Backend::Scalar && input.len() >= SHORT && backend.is_available() {
        match stage2::decide_line(backend, input, mode) {
            Ok(d) => return Ok(Uri::from_parts(input, d.split, d.authority)),
            Err(Some(e)) => return Err(e),
            Err(None) => {}
        }
    }
    parse_reference(input, mode)
}

/// The reference validator: the Appendix B split, then every component
/// checked byte by byte against its rule.
pub(crate) fn parse_reference(input: &[u8], mode: Mode) -> Result<Uri<'_>, Error> {
    let split = split(input);
    let authority = check(input, &split, mode)?;
    Ok(Uri {
        input,
        split,
        authority: authority.unwrap_or(Authority::NONE),
    })
}

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
    scan(input, unknown(path), table::PATH, Component::Path)?;
    if let Some(q) = query {
        scan(input, unknown(q), table::QUERY, Component::Query)?;
    }
    if let Some(f) = fragment {
        if mode == Mode::Absolute {
            return Err(Error::new(
                f.start - 1,
                Component::Fragment,
                ErrorKind::FragmentNotAllowed,
            ));
        }
        scan(input, unknown(f), table::QUERY, Component::Fragment)?;
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

/// Whether the `%` at `i` is followed by two hex digits before `end`.
#[inline(always)]
pub(crate) fn is_pct_encoded(input: &[u8], i: usize, end: usize) -> bool {
    i + 2 < end && is(input[i + 1], table::HEXDIG) && is(input[i + 2], table::HEXDIG)
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
    if !is(first, table::ALPHA) {
        let kind = if is(first, table::SCHEME) {
            ErrorKind::SchemeStart
        } else {
            ErrorKind::InvalidByte(first)
        };
        return Err(Error::new(s.start, Component::Scheme, kind));
    }
    if let Some(i) = input[s.start + 1..s.end]
        .iter()
        .position(|&b| !is(b, table::SCHEME))
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
        scan(input, u, table::USERINFO, Component::Userinfo)?;
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
        scan(input, host, table::REG_NAME, Component::Host)?;
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
    while i < end && is(input[i], table::HEXDIG) {
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
    if let Some(j) = input[i..end].iter().position(|&b| !is(b, table::IPVFUTURE)) {
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
        while i < end && is(input[i], table::HEXDIG) {
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

    #[test]
    fn debug_shows_components_not_notes() {
        let uri = parse(b"http://u@h:8/p?q#f", Mode::Reference).unwrap();
        assert_eq!(
            format!("{uri:?}"),
            concat!(
                r#"Uri { text: "http://u@h:8/p?q#f", scheme: Some("http"), "#,
                r#"userinfo: Some("u"), host: Some("h"), host_kind: Some(RegName), "#,
                r#"port: Some("8"), path: "/p", query: Some("q"), fragment: Some("f") }"#,
            )
        );
        // The corpus pass's notes for normalization do not show.
        let chunk = crate::batch::Chunk::new(b"http://h/p\n", 1, 0);
        let (_, _, noted) = chunk.uris(Mode::Reference).for_normalizer().next().unwrap();
        let plain = parse(b"http://h/p", Mode::Reference).unwrap();
        assert_eq!(format!("{:?}", noted.unwrap()), format!("{plain:?}"));
    }
}
