//! [`UriBuf`]: a valid URI reference that owns its text.

use core::fmt;
use core::str::FromStr;

use super::Uri;
use crate::grammar::authority::Authority;
use crate::grammar::split::Split;
use crate::grammar::{Error, Mode};
use crate::stage2::Notes;

/// A valid URI reference that owns its text: what [`Uri`] is to a borrowed
/// input, `UriBuf` is to a `String` (as `PathBuf` is to `Path`). The parse
/// is kept beside the text (offsets, no copies of components), so
/// [`UriBuf::as_uri`] costs nothing.
///
/// ```
/// use uriscan::{Mode, UriBuf};
///
/// let base: UriBuf = "http://a/b/c/d;p?q".parse()?;
/// assert_eq!(base.as_uri().host(), Some("a"));
/// assert_eq!(base.to_string(), "http://a/b/c/d;p?q");
///
/// let strict = UriBuf::parse(String::from("/relative"), Mode::Uri);
/// assert!(strict.is_err());
/// # Ok::<(), uriscan::Error>(())
/// ```
#[derive(Clone)]
pub struct UriBuf {
    text: Box<str>,
    split: Split,
    authority: Authority,
}

impl UriBuf {
    /// Parses `text` as [`crate::parse`] does, keeping it.
    ///
    /// # Errors
    ///
    /// As [`crate::parse`]: the first offending byte's offset, component and
    /// reason.
    ///
    /// ```
    /// use uriscan::{Mode, UriBuf};
    ///
    /// let uri = UriBuf::parse("https://example.com:8443/x", Mode::Uri)?;
    /// assert_eq!(uri.as_uri().port_number(), Some(8443));
    /// let err = UriBuf::parse("https://example.com:84x3/", Mode::Uri).unwrap_err();
    /// assert_eq!(err.offset(), 22);
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    pub fn parse(text: impl Into<String>, mode: Mode) -> Result<UriBuf, Error> {
        let text = text.into().into_boxed_str();
        let (split, authority) = crate::parse(text.as_bytes(), mode)?.raw_parts();
        Ok(UriBuf {
            text,
            split,
            authority,
        })
    }

    /// The URI, borrowed: its components and sub-components.
    ///
    /// ```
    /// let uri: uriscan::UriBuf = "foo://u@h:1/p?q#f".parse()?;
    /// assert_eq!(uri.as_uri().userinfo(), Some("u"));
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn as_uri(&self) -> Uri<'_> {
        Uri::from_parts(
            self.text.as_bytes(),
            self.split,
            self.authority,
            Notes::NONE,
        )
    }

    /// The text.
    ///
    /// ```
    /// let uri: uriscan::UriBuf = "a/b".parse()?;
    /// assert_eq!(uri.as_str(), "a/b");
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The text, as a `String`.
    ///
    /// ```
    /// let uri: uriscan::UriBuf = "a/b".parse()?;
    /// assert_eq!(uri.into_string(), "a/b");
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn into_string(self) -> String {
        self.text.into_string()
    }
}

/// A copy of the borrowed URI's text, with its parse.
///
/// ```
/// use uriscan::{parse, Mode, UriBuf};
///
/// let owned = {
///     let text = String::from("http://a/b");
///     UriBuf::from(parse(text.as_bytes(), Mode::Uri)?)
/// };
/// assert_eq!(owned.as_uri().path(), "/b");
/// # Ok::<(), uriscan::Error>(())
/// ```
impl From<Uri<'_>> for UriBuf {
    fn from(uri: Uri<'_>) -> UriBuf {
        let (split, authority) = uri.raw_parts();
        UriBuf {
            text: uri.as_str().into(),
            split,
            authority,
        }
    }
}

/// Parses a URI reference ([`Mode::Reference`]).
///
/// ```
/// let uri: uriscan::UriBuf = "//h/p".parse()?;
/// assert!(uri.as_uri().is_relative());
/// assert!("%zz".parse::<uriscan::UriBuf>().is_err());
/// # Ok::<(), uriscan::Error>(())
/// ```
impl FromStr for UriBuf {
    type Err = Error;

    fn from_str(text: &str) -> Result<UriBuf, Error> {
        UriBuf::parse(text, Mode::Reference)
    }
}

/// Parses a URI reference ([`Mode::Reference`]), keeping the string.
///
/// ```
/// let uri = uriscan::UriBuf::try_from(String::from("x:y"))?;
/// assert_eq!(uri.as_uri().scheme(), Some("x"));
/// # Ok::<(), uriscan::Error>(())
/// ```
impl TryFrom<String> for UriBuf {
    type Error = Error;

    fn try_from(text: String) -> Result<UriBuf, Error> {
        UriBuf::parse(text, Mode::Reference)
    }
}

/// Parses a URI reference ([`Mode::Reference`]).
///
/// ```
/// let uri = uriscan::UriBuf::try_from("x:y")?;
/// assert_eq!(uri.as_str(), "x:y");
/// # Ok::<(), uriscan::Error>(())
/// ```
impl TryFrom<&str> for UriBuf {
    type Error = Error;

    fn try_from(text: &str) -> Result<UriBuf, Error> {
        UriBuf::parse(text, Mode::Reference)
    }
}

impl fmt::Display for UriBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for UriBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.as_uri(), f)
    }
}

/// Equal when the texts are, as [`Uri`]s are.
impl PartialEq for UriBuf {
    fn eq(&self, other: &UriBuf) -> bool {
        self.text == other.text
    }
}

impl Eq for UriBuf {}

impl core::hash::Hash for UriBuf {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.text.as_bytes().hash(state);
    }
}

impl PartialOrd for UriBuf {
    fn partial_cmp(&self, other: &UriBuf) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for UriBuf {
    fn cmp(&self, other: &UriBuf) -> core::cmp::Ordering {
        self.text.as_bytes().cmp(other.text.as_bytes())
    }
}

impl AsRef<str> for UriBuf {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uri::tests::hash_of;

    fn buf(text: &str) -> UriBuf {
        UriBuf::parse(text, Mode::Reference).expect("valid")
    }

    /// The traits and conversions of `UriBuf` are those of its text (the
    /// per-mutant suite runs no doc test, so these are said here too).
    #[test]
    fn traits_follow_the_text() {
        let (a, b) = (buf("http://a/x"), buf("http://b/x"));
        assert_eq!(a.to_string(), "http://a/x");
        assert_eq!(AsRef::<str>::as_ref(&a), "http://a/x");
        assert_eq!(format!("{a:?}"), format!("{:?}", a.as_uri()));
        assert!(format!("{a:?}").contains("http://a/x"));
        assert_eq!(a, buf("http://a/x"));
        assert_ne!(a, b);
        assert_eq!(hash_of(&a), hash_of(&buf("http://a/x")));
        assert_ne!(hash_of(&a), hash_of(&b));
        assert_eq!(a.cmp(&b), core::cmp::Ordering::Less);
        assert_eq!(b.partial_cmp(&a), Some(core::cmp::Ordering::Greater));
        assert_eq!(a.partial_cmp(&a.clone()), Some(core::cmp::Ordering::Equal));
        assert_eq!(b.into_string(), "http://b/x");
    }
}
