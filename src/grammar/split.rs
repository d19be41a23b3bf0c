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
    // Appendix B's components are contiguous, so five offsets and three flags
    // describe them all (a small value is cheap to return).
    /// End of the scheme; 0 when undefined (a scheme is never empty).
    scheme_end: usize,
    /// Start of the path = end of the authority.
    path_start: usize,
    path_end: usize,
    /// End of the query; `path_end` when undefined.
    query_end: usize,
    len: usize,
    // A full word, like the offsets: a byte here would be copied together
    // with its neighbours by wider loads, which stall on the narrow store
    // that just wrote it (store forwarding fails).
    flags: usize,
}

const AUTHORITY: usize = 1;
const QUERY: usize = 2;
const FRAGMENT: usize = 4;

impl Split {
    /// The split of the empty input.
    pub(crate) const EMPTY: Split = Split {
        scheme_end: 0,
        path_start: 0,
        path_end: 0,
        query_end: 0,
        len: 0,
        flags: 0,
    };

    /// Whether there is an authority.
    #[inline(always)]
    pub(crate) fn has_authority(&self) -> bool {
        self.flags & AUTHORITY != 0
    }

    /// Packs the five components; they must be those of one Appendix B split
    /// of an input of `len` bytes.
    #[inline(always)]
    pub(crate) fn new(
        scheme: Option<Span>,
        authority: Option<Span>,
        path: Span,
        query: Option<Span>,
        fragment: Option<Span>,
        len: usize,
    ) -> Split {
        let mut flags = 0;
        if authority.is_some() {
            flags |= AUTHORITY;
        }
        if query.is_some() {
            flags |= QUERY;
        }
        if fragment.is_some() {
            flags |= FRAGMENT;
        }
        Split {
            scheme_end: scheme.map_or(0, |s| s.end),
            path_start: path.start,
            path_end: path.end,
            query_end: query.map_or(path.end, |q| q.end),
            len,
            flags,
        }
    }

    #[inline(always)]
    pub(crate) fn scheme_span(&self) -> Option<Span> {
        (self.scheme_end > 0).then(|| Span::new(0, self.scheme_end))
    }

    #[inline(always)]
    pub(crate) fn authority_span(&self) -> Option<Span> {
        let start = if self.scheme_end > 0 {
            self.scheme_end + 1
        } else {
            0
        } + 2;
        (self.flags & AUTHORITY != 0).then(|| Span::new(start, self.path_start))
    }

    #[inline(always)]
    pub(crate) fn path_span(&self) -> Span {
        Span::new(self.path_start, self.path_end)
    }

    #[inline(always)]
    pub(crate) fn query_span(&self) -> Option<Span> {
        (self.flags & QUERY != 0).then(|| Span::new(self.path_end + 1, self.query_end))
    }

    #[inline(always)]
    pub(crate) fn fragment_span(&self) -> Option<Span> {
        (self.flags & FRAGMENT != 0).then(|| Span::new(self.query_end + 1, self.len))
    }

    /// The scheme, without its `:`; `None` when undefined.
    ///
    /// ```
    /// use uriscan::split;
    ///
    /// assert_eq!(split(b"HTTP://a/").scheme(), Some(0..4));
    /// // A `:` after the first `/` makes no scheme.
    /// assert_eq!(split(b"//a/b:c").scheme(), None);
    /// // The split checks no grammar: any run before the first `:` is a scheme.
    /// assert_eq!(split(b"a b:c").scheme(), Some(0..3));
    /// ```
    #[must_use]
    pub fn scheme(&self) -> Option<Range<usize>> {
        self.scheme_span().map(Span::range)
    }

    /// The authority, without its leading `//`; `None` when undefined.
    ///
    /// ```
    /// use uriscan::split;
    ///
    /// assert_eq!(split(b"http://u@h:8/p").authority(), Some(7..12));
    /// // An empty authority is defined...
    /// assert_eq!(split(b"file:///etc").authority(), Some(7..7));
    /// // ...unlike a missing one.
    /// assert_eq!(split(b"file:/etc").authority(), None);
    /// ```
    #[must_use]
    pub fn authority(&self) -> Option<Range<usize>> {
        self.authority_span().map(Span::range)
    }

    /// The path; always defined, possibly empty.
    ///
    /// ```
    /// use uriscan::split;
    ///
    /// assert_eq!(split(b"a:b/c?d").path(), 2..5);
    /// assert_eq!(split(b"http://a").path(), 8..8);
    /// assert_eq!(split(b"").path(), 0..0);
    /// ```
    #[must_use]
    pub fn path(&self) -> Range<usize> {
        self.path_span().range()
    }

    /// The query, without its `?`; `None` when undefined.
    ///
    /// ```
    /// use uriscan::split;
    ///
    /// assert_eq!(split(b"/p?a=1?b").query(), Some(3..8));
    /// assert_eq!(split(b"/p?").query(), Some(3..3));
    /// assert_eq!(split(b"/p").query(), None);
    /// // A `?` in the fragment starts no query.
    /// assert_eq!(split(b"/p#?x").query(), None);
    /// ```
    #[must_use]
    pub fn query(&self) -> Option<Range<usize>> {
        self.query_span().map(Span::range)
    }

    /// The fragment, without its `#`; `None` when undefined.
    ///
    /// ```
    /// use uriscan::split;
    ///
    /// // Everything after the first `#`.
    /// assert_eq!(split(b"/p#a#b").fragment(), Some(3..6));
    /// assert_eq!(split(b"/p#").fragment(), Some(3..3));
    /// assert_eq!(split(b"/p").fragment(), None);
    /// ```
    #[must_use]
    pub fn fragment(&self) -> Option<Range<usize>> {
        self.fragment_span().map(Span::range)
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
    Split::new(scheme, authority, path, query, fragment, len)
}
