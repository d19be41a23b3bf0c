//! The URI types and the parse entry point: [`parse`] runs the fast path
//! (stage 1's masks and stage 2's decision) and falls back to the reference
//! grammar ([`crate::grammar`]) for what stage 2 leaves (inputs too short
//! to pay for a block, or too long for its masks).
//!
//! - [`Uri`]: a valid URI reference borrowed from its input, components as
//!   `Option<&str>` (undefined differs from empty);
//! - [`UriBuf`]: the same, owning its text;
//! - [`Host`]: a parsed host.

mod host;
mod owned;
#[cfg(feature = "serde")]
mod serde;

use core::fmt;
use core::ops::Range;

pub use host::Host;
pub(crate) use host::Ipv6Literal;
pub use owned::UriBuf;

use crate::grammar::authority::Authority;
use crate::grammar::check::{check, port_value};
use crate::grammar::split::{split, Span, Split};
use crate::grammar::{Error, HostKind, Mode};
use crate::simd::Backend;
use crate::stage2::{self, Notes, Outcome, Verdict};

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
///
/// Two `Uri`s are equal when their text is, byte for byte (no normalization:
/// compare [`crate::Normalizer`] keys for equivalence); hashing and ordering
/// agree with that.
#[derive(Clone, Copy)]
pub struct Uri<'a> {
    input: &'a [u8],
    split: Split,
    /// [`Authority::NONE`] when the split has no authority. Not an `Option`:
    /// a plain struct is cheap to build and move on the hot path.
    authority: Authority,
    /// What the corpus pass saw of the text for normalization; no part of
    /// the URI's identity (see [`Notes`]).
    notes: Notes,
}

impl PartialEq for Uri<'_> {
    fn eq(&self, other: &Uri<'_>) -> bool {
        self.input == other.input
    }
}

impl Eq for Uri<'_> {}

impl core::hash::Hash for Uri<'_> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.input.hash(state);
    }
}

impl PartialOrd for Uri<'_> {
    fn partial_cmp(&self, other: &Uri<'_>) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Uri<'_> {
    fn cmp(&self, other: &Uri<'_>) -> core::cmp::Ordering {
        self.input.cmp(other.input)
    }
}

/// The text, as it was given.
///
/// ```
/// let uri = uriscan::parse(b"http://a/b?c", uriscan::Mode::Uri)?;
/// assert_eq!(uri.to_string(), "http://a/b?c");
/// # Ok::<(), uriscan::Error>(())
/// ```
impl fmt::Display for Uri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parses a URI reference ([`Mode::Reference`]).
///
/// ```
/// use uriscan::Uri;
///
/// let uri = Uri::try_from("//example.com/a")?;
/// assert_eq!(uri.host(), Some("example.com"));
/// assert!(Uri::try_from("a b").is_err());
/// # Ok::<(), uriscan::Error>(())
/// ```
impl<'a> TryFrom<&'a str> for Uri<'a> {
    type Error = Error;

    fn try_from(text: &'a str) -> Result<Uri<'a>, Error> {
        parse(text.as_bytes(), Mode::Reference)
    }
}

/// Parses a URI reference ([`Mode::Reference`]).
///
/// ```
/// use uriscan::Uri;
///
/// let uri = Uri::try_from(&b"mailto:a@example.com"[..])?;
/// assert_eq!(uri.path(), "a@example.com");
/// # Ok::<(), uriscan::Error>(())
/// ```
impl<'a> TryFrom<&'a [u8]> for Uri<'a> {
    type Error = Error;

    fn try_from(bytes: &'a [u8]) -> Result<Uri<'a>, Error> {
        parse(bytes, Mode::Reference)
    }
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
    /// A URI from parts already checked (by stage 2), with its notes.
    #[inline(always)]
    pub(crate) fn from_parts(
        input: &'a [u8],
        split: Split,
        authority: Authority,
        notes: Notes,
    ) -> Uri<'a> {
        Uri {
            input,
            split,
            authority,
            notes,
        }
    }

    /// A URI from stage 2's outcome for `input`, valid.
    #[inline(always)]
    pub(crate) fn from_outcome(input: &'a [u8], o: &Outcome) -> Uri<'a> {
        Uri::from_parts(input, o.split, o.authority, o.notes)
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

    /// The notes of the corpus pass on this URI ([`Notes::NONE`] when it
    /// did not look).
    #[inline(always)]
    pub(crate) fn notes(&self) -> Notes {
        self.notes
    }

    /// The parts kept inside: the split, the authority's parts (for the
    /// owned URI, which keeps them beside its text).
    pub(crate) fn raw_parts(&self) -> (Split, Authority) {
        (self.split, self.authority)
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
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// // As given: not normalized.
    /// let uri = parse(b"HTTP://A/%7e", Mode::Uri)?;
    /// assert_eq!(uri.as_str(), "HTTP://A/%7e");
    ///
    /// // Borrowed from the input, so it outlives the `Uri`.
    /// let input: &'static [u8] = b"/a?b";
    /// let text: &'static str = parse(input, Mode::Reference)?.as_str();
    /// assert_eq!(text, "/a?b");
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &'a str {
        self.str(Span::new(0, self.input.len()))
    }

    /// The Appendix B split (byte ranges) of the input.
    ///
    /// ```
    /// use uriscan::{parse, split, Mode};
    ///
    /// let uri = parse(b"http://a/b?c", Mode::Uri)?;
    /// let s = uri.split();
    /// assert_eq!(*s, split(b"http://a/b?c"));
    /// assert_eq!(&uri.as_str()[s.path()], "/b");
    /// assert_eq!(s.query(), Some(11..12));
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn split(&self) -> &Split {
        &self.split
    }

    /// Whether the reference is a relative reference (it has no scheme).
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// assert!(parse(b"//example.com/a", Mode::Reference)?.is_relative());
    /// assert!(parse(b"a/b", Mode::Reference)?.is_relative());
    /// assert!(!parse(b"mailto:a@example.com", Mode::Reference)?.is_relative());
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn is_relative(&self) -> bool {
        self.split.scheme_span().is_none()
    }

    /// The scheme, as written (not lowercased).
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// assert_eq!(parse(b"HTTP://a/", Mode::Uri)?.scheme(), Some("HTTP"));
    /// assert_eq!(parse(b"//a/", Mode::Reference)?.scheme(), None);
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn scheme(&self) -> Option<&'a str> {
        self.split.scheme_span().map(|s| self.str(s))
    }

    /// The authority, without its `//`.
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// let authority = |s: &'static str| parse(s.as_bytes(), Mode::Uri).map(|u| u.authority());
    /// assert_eq!(authority("http://u@h:8/p")?, Some("u@h:8"));
    /// // Empty is not undefined.
    /// assert_eq!(authority("file:///etc")?, Some(""));
    /// assert_eq!(authority("file:/etc")?, None);
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn authority(&self) -> Option<&'a str> {
        self.split.authority_span().map(|s| self.str(s))
    }

    /// The userinfo, without its `@`.
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// let userinfo = |s: &'static str| parse(s.as_bytes(), Mode::Uri).map(|u| u.userinfo());
    /// assert_eq!(userinfo("ftp://user:pw@h/")?, Some("user:pw"));
    /// assert_eq!(userinfo("http://@h/")?, Some(""));
    /// assert_eq!(userinfo("http://h/")?, None);
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn userinfo(&self) -> Option<&'a str> {
        self.parts()?.userinfo().map(|s| self.str(s))
    }

    /// The host; an IP literal keeps its brackets (`[::1]`). Defined (possibly
    /// empty) whenever the authority is.
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// let host = |s: &'static str| parse(s.as_bytes(), Mode::Uri).map(|u| u.host());
    /// assert_eq!(host("http://u@Example.com:8/")?, Some("Example.com"));
    /// assert_eq!(host("http://[::1]:8/")?, Some("[::1]"));
    /// assert_eq!(host("file:///etc")?, Some(""));
    /// assert_eq!(host("mailto:a@example.com")?, None);
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn host(&self) -> Option<&'a str> {
        self.parts().map(|a| self.str(a.host()))
    }

    /// The byte range of the host in the input.
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// let input = b"http://user@example.com:8/";
    /// let range = parse(input, Mode::Uri)?.host_range().unwrap();
    /// assert_eq!(range, 12..23);
    /// assert_eq!(&input[range], b"example.com");
    /// assert_eq!(parse(b"/p", Mode::Reference)?.host_range(), None);
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn host_range(&self) -> Option<Range<usize>> {
        self.parts().map(|a| a.host().range())
    }

    /// The kind of the host. A `reg-name` and an `IPv4address` are told
    /// apart here, from the host's bytes, not while parsing: the grammar
    /// admits both, so a pass that only validates never pays for it.
    ///
    /// ```
    /// use uriscan::{parse, HostKind, Mode};
    ///
    /// let kind = |s: &'static str| parse(s.as_bytes(), Mode::Uri).map(|u| u.host_kind());
    /// assert_eq!(kind("http://10.0.0.1/")?, Some(HostKind::Ipv4));
    /// // 256 is no `dec-octet`: a reg-name, and valid.
    /// assert_eq!(kind("http://256.1.1.1/")?, Some(HostKind::RegName));
    /// assert_eq!(kind("http://[::1]/")?, Some(HostKind::Ipv6));
    /// assert_eq!(kind("urn:isbn:0451450523")?, None);
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn host_kind(&self) -> Option<HostKind> {
        self.parts().map(|a| a.host_kind(self.input))
    }

    /// The host, parsed: an IPv4 or IPv6 address as [`std::net`] values, an
    /// `IPvFuture` or a `reg-name` as written. See [`Host`].
    ///
    /// ```
    /// use std::net::{Ipv4Addr, Ipv6Addr};
    /// use uriscan::{parse, Host, Mode};
    ///
    /// let host = |s: &'static str| parse(s.as_bytes(), Mode::Reference).unwrap().parsed_host();
    /// assert_eq!(host("http://192.0.2.1/"), Some(Host::Ipv4(Ipv4Addr::new(192, 0, 2, 1))));
    /// assert_eq!(host("http://[::1]/"), Some(Host::Ipv6(Ipv6Addr::LOCALHOST)));
    /// assert_eq!(host("http://[v7.x]/"), Some(Host::IpvFuture("v7.x")));
    /// assert_eq!(host("http://Example.com/"), Some(Host::RegName("Example.com")));
    /// assert_eq!(host("http:///p"), Some(Host::RegName("")));
    /// assert_eq!(host("mailto:a@b"), None);
    /// ```
    #[must_use]
    pub fn parsed_host(&self) -> Option<Host<'a>> {
        let (host, kind) = (self.host()?, self.host_kind()?);
        Some(Host::new(host, kind))
    }

    /// The port as written, without its `:`; may be empty (`http://h:/`).
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// let port = |s: &'static str| parse(s.as_bytes(), Mode::Uri).map(|u| u.port());
    /// assert_eq!(port("http://h:080/")?, Some("080"));
    /// assert_eq!(port("http://h:/")?, Some(""));
    /// // No default port is filled in.
    /// assert_eq!(port("http://h/")?, None);
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn port(&self) -> Option<&'a str> {
        self.parts()?.port().map(|s| self.str(s))
    }

    /// The port as a number, when there is one and it fits in a `u16`
    /// (leading zeros allowed: `080` is 80).
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// let number = |s: &'static str| parse(s.as_bytes(), Mode::Uri).map(|u| u.port_number());
    /// assert_eq!(number("http://h:080/")?, Some(80));
    /// assert_eq!(number("http://h:/")?, None);
    /// // Any run of digits is a valid port; this one does not fit in a `u16`.
    /// assert_eq!(number("http://h:65536/")?, None);
    /// // No default port is filled in.
    /// assert_eq!(number("https://h/")?, None);
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn port_number(&self) -> Option<u16> {
        port_value(self.port()?.as_bytes())?.try_into().ok()
    }

    /// The path; always defined, possibly empty.
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// let path = |s: &'static str| parse(s.as_bytes(), Mode::Reference).map(|u| u.path());
    /// assert_eq!(path("http://a/b%20c?d")?, "/b%20c"); // not decoded
    /// assert_eq!(path("mailto:a@example.com")?, "a@example.com");
    /// assert_eq!(path("http://a")?, "");
    /// assert_eq!(path("?q")?, "");
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn path(&self) -> &'a str {
        self.str(self.split.path_span())
    }

    /// The query, without its `?`.
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// let query = |s: &'static str| parse(s.as_bytes(), Mode::Reference).map(|u| u.query());
    /// assert_eq!(query("/p?a=1?b#c")?, Some("a=1?b"));
    /// // Empty is not undefined.
    /// assert_eq!(query("/p?")?, Some(""));
    /// assert_eq!(query("/p")?, None);
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn query(&self) -> Option<&'a str> {
        self.split.query_span().map(|s| self.str(s))
    }

    /// The fragment, without its `#`.
    ///
    /// ```
    /// use uriscan::{parse, Mode};
    ///
    /// let fragment = |s: &'static str| parse(s.as_bytes(), Mode::Reference).map(|u| u.fragment());
    /// assert_eq!(fragment("/p?q#top")?, Some("top"));
    /// // Empty is not undefined.
    /// assert_eq!(fragment("/p#")?, Some(""));
    /// assert_eq!(fragment("/p")?, None);
    /// # Ok::<(), uriscan::Error>(())
    /// ```
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
            Verdict::Valid(d) => return Ok(Uri::from_outcome(input, &d)),
            Verdict::Invalid(Some(e)) => return Err(e),
            // (`decide_line` always says why.)
            Verdict::Invalid(None) | Verdict::Undecided => {}
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
        notes: Notes::NONE,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cmp::Ordering;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};

    fn uri(text: &str) -> Uri<'_> {
        parse(text.as_bytes(), Mode::Reference).expect("valid")
    }

    /// The `Hash` of `v` by the standard hasher (also for `owned.rs`'s
    /// tests).
    pub(super) fn hash_of<T: Hash + ?Sized>(v: &T) -> u64 {
        let mut h = DefaultHasher::new();
        v.hash(&mut h);
        h.finish()
    }

    /// `Display`, equality, hashing and ordering are those of the text,
    /// byte for byte (the type's doc; the per-mutant suite runs no doc
    /// test, so these are said here too).
    #[test]
    fn traits_follow_the_text() {
        let (a, b) = (uri("http://a/x"), uri("http://b/x"));
        // Another buffer with the same bytes.
        let same = String::from("http://a/x");
        assert_eq!(a.to_string(), "http://a/x");
        assert_eq!(a, uri(&same));
        assert_ne!(a, b);
        // No normalization: equivalent URIs (RFC 3986 6.2.2.1) are not equal.
        assert_ne!(a, uri("HTTP://a/x"));
        assert_eq!(hash_of(&a), hash_of(&uri(&same)));
        assert_ne!(hash_of(&a), hash_of(&b));
        assert_eq!(a.cmp(&b), Ordering::Less);
        assert_eq!(b.partial_cmp(&a), Some(Ordering::Greater));
        assert_eq!(a.partial_cmp(&uri(&same)), Some(Ordering::Equal));
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
