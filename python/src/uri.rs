//! `uriscan.Uri`, one parsed URI, and `uriscan.InvalidUri`, the error of
//! one that does not parse.

use pyo3::basic::CompareOp;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use uriscan::{Error, Mode, UriBuf};

use crate::kernels::message;
use crate::options::mode;

pyo3::create_exception!(
    uriscan,
    InvalidUri,
    PyValueError,
    "A text that is not a URI under the mode asked for. `offset` is the \
     0-based byte offset of the first bad byte, `component` the name of \
     the component it is in (`scheme`, `authority`, `userinfo`, `host`, \
     `port`, `path`, `query` or `fragment`)."
);

/// The `InvalidUri` of `e`, with its `offset` and `component`.
pub fn invalid(py: Python<'_>, e: &Error) -> PyErr {
    let err = InvalidUri::new_err(message(e));
    let value = err.value(py);
    // Attributes of a fresh exception instance: setting them cannot fail.
    let _ = value.setattr("offset", e.offset());
    let _ = value.setattr("component", e.component().as_str());
    err
}

/// One URI reference, parsed and validated (RFC 3986).
///
/// `Uri(text, mode="reference")` raises `InvalidUri` (a `ValueError`) when
/// `text` is not a URI reference (`mode="uri"`: a URI, `"absolute"`: an
/// absolute URI). The components are attributes, `None` when undefined
/// (`path` is always defined, maybe empty). Two `Uri`s are equal when their
/// texts are; `str()` gives the text.
///
/// >>> u = Uri("https://user@example.com:8443/a/b?q=1#top")
/// >>> (u.scheme, u.userinfo, u.host, u.port, u.path, u.query, u.fragment)
/// ('https', 'user', 'example.com', '8443', '/a/b', 'q=1', 'top')
#[pyclass(module = "uriscan", name = "Uri", frozen)]
pub struct PyUri {
    uri: UriBuf,
}

#[pymethods]
impl PyUri {
    #[new]
    #[pyo3(signature = (text, mode = "reference"))]
    fn new(py: Python<'_>, text: &str, mode: &str) -> PyResult<PyUri> {
        let mode: Mode = self::mode(mode)?;
        UriBuf::parse(text, mode)
            .map(|uri| PyUri { uri })
            .map_err(|e| invalid(py, &e))
    }

    /// The scheme (`https`), or None for a relative reference.
    #[getter]
    fn scheme(&self) -> Option<&str> {
        self.uri.as_uri().scheme()
    }

    /// The authority (`user@example.com:8443`), or None.
    #[getter]
    fn authority(&self) -> Option<&str> {
        self.uri.as_uri().authority()
    }

    /// The userinfo of the authority, or None.
    #[getter]
    fn userinfo(&self) -> Option<&str> {
        self.uri.as_uri().userinfo()
    }

    /// The host (an IP literal keeps its brackets), or None without an authority.
    #[getter]
    fn host(&self) -> Option<&str> {
        self.uri.as_uri().host()
    }

    /// The port as written (maybe empty: `http://h:/`), or None.
    #[getter]
    fn port(&self) -> Option<&str> {
        self.uri.as_uri().port()
    }

    /// The path, maybe empty.
    #[getter]
    fn path(&self) -> &str {
        self.uri.as_uri().path()
    }

    /// The query, without its `?`, or None.
    #[getter]
    fn query(&self) -> Option<&str> {
        self.uri.as_uri().query()
    }

    /// The fragment, without its `#`, or None.
    #[getter]
    fn fragment(&self) -> Option<&str> {
        self.uri.as_uri().fragment()
    }

    /// Whether this is a relative reference (it has no scheme).
    #[getter]
    fn is_relative(&self) -> bool {
        self.uri.as_uri().is_relative()
    }

    fn __str__(&self) -> &str {
        self.uri.as_str()
    }

    fn __repr__(&self) -> String {
        // A URI has no `"` or `\` (RFC 3986 allows neither), so this is
        // a valid Python literal.
        format!("Uri({:?})", self.uri.as_str())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.uri.hash(&mut h);
        h.finish()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        let Ok(other) = other.cast::<PyUri>() else {
            return py.NotImplemented();
        };
        let other = &other.get().uri;
        match op {
            CompareOp::Eq => (self.uri == *other).into_pyobject(py),
            CompareOp::Ne => (self.uri != *other).into_pyobject(py),
            _ => return py.NotImplemented(),
        }
        .map(|b| b.to_owned().into_any().unbind())
        .unwrap_or_else(|never| match never {})
    }
}
