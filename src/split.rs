//! RFC 3986 Appendix B: split any byte string into its five components.
//!
//! ```text
//! ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
//!  12            3  4          5       6  7        8 9
//! ```
//!
//! scheme = $2, authority = $4, path = $5, query = $7, fragment = $9. The split
//! never fails, allocates nothing and copies nothing: it returns offsets. An
//! unmatched group is *undefined* (`None`), which differs from a group that
//! matched the empty string (`Some(empty range)`). It checks no grammar: that
//! is [`crate::parse`]'s job.

use core::ops::Range;

/// A half-open byte range of the input, stored compactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl Span {
    #[inline]
    pub(crate) const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    #[inline]
    pub(crate) fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

/// The Appendix B split of a byte string: the byte ranges of its scheme,
/// authority, path, query and fragment.
///
/// ```
/// let input = b"foo://example.com:8042/over/there?name=ferret#nose";
/// let s = uriscan::split(input);
/// assert_eq!(s.scheme().map(|r| &input[r]), Some(&b"foo"[..]));
/// assert_eq!(s.authority().map(|r| &input[r]), Some(&b"example.com:8042"[..]));
/// assert_eq!(&input[s.path()], b"/over/there");
/// assert_eq!(s.query().map(|r| &input[r]), Some(&b"name=ferret"[..]));
/// assert_eq!(s.fragment().map(|r| &input[r]), Some(&b"nose"[..]));
///
/// // Undefined is not empty.
/// let s = uriscan::split(b"/a?");
/// assert_eq!(s.query(), Some(3..3));
/// assert_eq!(s.fragment(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Split {
    pub(crate) scheme: Option<Span>,
    pub(crate) authority: Option<Span>,
    pub(crate) path: Span,
    pub(crate) query: Option<Span>,
    pub(crate) fragment: Option<Span>,
}

impl Split {
    /// The scheme, without its `:`; `None` when undefined.
    #[must_use]
    pub fn scheme(&self) -> Option<Range<usize>> {
        self.scheme.map(Span::range)
    }

    /// The authority, without its leading `//`; `None` when undefined.
    #[must_use]
    pub fn authority(&self) -> Option<Range<usize>> {
        self.authority.map(Span::range)
    }

    /// The path; always defined, possibly empty.
    #[must_use]
    pub fn path(&self) -> Range<usize> {
        self.path.range()
    }

    /// The query, without its `?`; `None` when undefined.
    #[must_use]
    pub fn query(&self) -> Option<Range<usize>> {
        self.query.map(Span::range)
    }

    /// The fragment, without its `#`; `None` when undefined.
    #[must_use]
    pub fn fragment(&self) -> Option<Range<usize>> {
        self.fragment.map(Span::range)
    }
}

/// Splits `input` into scheme, authority, path, query and fragment exactly as
/// the regular expression of RFC 3986 Appendix B does. Never fails.
///
/// ```
/// let s = uriscan::split(b"mailto:someone@example.com");
/// assert_eq!(s.scheme(), Some(0..6));
/// assert_eq!(s.authority(), None);
/// assert_eq!(s.path(), 7..26);
/// ```
#[must_use]
pub fn split(input: &[u8]) -> Split {
    let len = input.len();
    // Group 1: a non-empty run of bytes other than `: / ? #`, then `:`.
    let mut pos = 0;
    let mut scheme = None;
    if let Some(i) = input
        .iter()
        .position(|&b| matches!(b, b':' | b'/' | b'?' | b'#'))
    {
        if i > 0 && input[i] == b':' {
            scheme = Some(Span::new(0, i));
            pos = i + 1;
        }
    }
    split_after_scheme(input, scheme, pos, len)
}

/// The rest of [`split`] once the scheme is known: `pos` is where group 3
/// starts.
#[inline]
pub(crate) fn split_after_scheme(
    input: &[u8],
    scheme: Option<Span>,
    mut pos: usize,
    len: usize,
) -> Split {
    // Group 3: `//` then a run of bytes other than `/ ? #`.
    let mut authority = None;
    if input[pos..].starts_with(b"//") {
        let start = pos + 2;
        let end = memchr::memchr3(b'/', b'?', b'#', &input[start..]).map_or(len, |i| start + i);
        authority = Some(Span::new(start, end));
        pos = end;
    }
    // Group 5: bytes other than `? #`.
    let path_end = memchr::memchr2(b'?', b'#', &input[pos..]).map_or(len, |i| pos + i);
    let path = Span::new(pos, path_end);
    pos = path_end;
    // Group 6: `?` then bytes other than `#`.
    let mut query = None;
    if pos < len && input[pos] == b'?' {
        let start = pos + 1;
        let end = memchr::memchr(b'#', &input[start..]).map_or(len, |i| start + i);
        query = Some(Span::new(start, end));
        pos = end;
    }
    // Group 8: `#` then anything.
    let fragment = (pos < len).then(|| Span::new(pos + 1, len));
    Split {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}
