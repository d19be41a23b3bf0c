//! The reference grammar: RFC 3986 Appendix B's split and Appendix A's
//! component rules, written plainly, shaped like the ABNF. This is the
//! oracle: every faster path ([`crate::stage2`]) must agree with it byte for
//! byte, error offsets included, and nothing here calls a faster path.
//!
//! - [`split`]: Appendix B, which never fails;
//! - [`check`]: the components against their rules, left to right;
//! - [`host`]: `IP-literal` (`IPv6address`, `IPvFuture`) and `IPv4address`;
//! - [`authority`]: an authority's parts as offsets;
//! - [`error`]: [`Error`], [`Component`], [`ErrorKind`].
//!
//! The input is first split by Appendix B ([`split()`]); each component is
//! then checked against its rule with the class table of [`crate::classes`]:
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

pub(crate) mod authority;
pub(crate) mod check;
pub(crate) mod error;
pub(crate) mod host;
pub(crate) mod split;

pub use error::{Component, Error, ErrorKind};
pub use host::HostKind;
pub use split::{split, Split};

/// Which rule of RFC 3986 the input must match.
///
/// ```
/// use uriscan::{parse, ErrorKind, Mode};
///
/// assert_eq!(Mode::default(), Mode::Reference);
///
/// // A fragment: fine in a URI, not in an absolute URI.
/// let input = b"http://example.com/a#top";
/// assert!(parse(input, Mode::Reference).is_ok());
/// assert!(parse(input, Mode::Uri).is_ok());
/// let err = parse(input, Mode::Absolute).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::FragmentNotAllowed);
/// assert_eq!(input[err.offset()], b'#');
///
/// // A relative reference: fine as a reference only.
/// assert!(parse(b"../a", Mode::Reference).is_ok());
/// let err = parse(b"../a", Mode::Uri).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::MissingScheme);
/// ```
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
    ///
    /// ```
    /// use uriscan::Mode;
    ///
    /// assert_eq!(
    ///     [Mode::Reference, Mode::Uri, Mode::Absolute].map(Mode::as_str),
    ///     ["reference", "uri", "absolute"],
    /// );
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Reference => "reference",
            Mode::Uri => "uri",
            Mode::Absolute => "absolute",
        }
    }
}
