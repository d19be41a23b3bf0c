//! `uriscan._uriscan`, the extension module of the Python package
//! `uriscan` (see `uriscan/__init__.py` and docs/PYTHON.md).
//!
//! The glue only: `arrays` reads Arrow columns and Python values and
//! hands results back, `kernels` calls the uriscan library once per row
//! (`check`, `normalize`, `surt` and `resolve` parse once per run of rows:
//! `staged` copies them as lines for the library's window pass), `uri` is
//! the one-value type. No URI logic lives
//! here.

mod arrays;
mod kernels;
mod options;
mod staged;
mod uri;

use arrow_array::StringArray;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3_arrow::PyArray;
use uriscan::{Mode, Normalizer, Profile, UriBuf};

use arrays::{Input, Kernel, Texts};
use uri::{invalid, InvalidUri, PyUri};

/// Runs `kernel` over `values`; one `str` gives the result's one value
/// as a Python object (`as_py()`).
fn apply(
    py: Python<'_>,
    values: &Bound<'_, PyAny>,
    threads: usize,
    kernel: &Kernel<'_>,
) -> PyResult<Py<PyAny>> {
    match Input::from_py(values)? {
        Input::One(text) => {
            let array = StringArray::from(vec![text]);
            let out = kernel(&Texts::Utf8(&array), 0..1).map_err(value_error)?;
            let out = PyArray::from_array_ref(out);
            let value = out.to_pyarrow(py)?.get_item(0)?.call_method0("as_py")?;
            Ok(value.unbind())
        }
        Input::Many(columns) => arrays::run(py, columns, threads, kernel),
    }
}

/// Runs a function whose row gives a string or nothing (null): on one
/// `str` directly, with no Arrow array in between.
fn apply_strings(
    py: Python<'_>,
    values: &Bound<'_, PyAny>,
    threads: usize,
    mode: Mode,
    n: Option<&Normalizer>,
    row: impl Fn(&[u8], staged::Parsed<'_>, &mut Vec<u8>) -> bool + Sync,
) -> PyResult<Py<PyAny>> {
    match Input::from_py(values)? {
        Input::One(text) => {
            let mut out = Vec::new();
            let text = text.as_bytes();
            Ok(match row(text, uriscan::parse(text, mode), &mut out) {
                true => String::from_utf8_lossy(&out)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind(),
                false => py.None(),
            })
        }
        Input::Many(columns) => arrays::run(py, columns, threads, &|texts, rows| {
            kernels::strings(texts, rows, mode, n, &row)
        }),
    }
}

fn value_error(e: arrow_schema::ArrowError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Whether each value is valid under RFC 3986: a URI reference
/// (mode="reference", what a document may contain), a URI ("uri": with a
/// scheme) or an absolute URI ("absolute": with a scheme and no fragment).
///
/// `values` is a pyarrow Array or ChunkedArray of string, large_string or
/// string_view (a ChunkedArray in gives a ChunkedArray out, chunk for
/// chunk), any object with `__arrow_c_array__` or `__arrow_c_stream__`
/// (a Polars Series gives a pyarrow ChunkedArray), or a list of str (a
/// pyarrow Array out). Null in gives null out. One str in gives one bool.
///
/// The GIL is released while the kernel runs; threads=N splits a large
/// array over N threads.
///
/// >>> import uriscan
/// >>> uriscan.check(["http://example.com/a", "http://exa mple.com/", None, "../rel"]).to_pylist()
/// [True, False, None, True]
/// >>> uriscan.check("../rel", mode="uri")
/// False
#[pyfunction]
#[pyo3(signature = (values, mode = "reference", *, threads = 1))]
fn check(
    py: Python<'_>,
    values: &Bound<'_, PyAny>,
    mode: &str,
    threads: usize,
) -> PyResult<Py<PyAny>> {
    let mode = options::mode(mode)?;
    apply(py, values, threads, &|texts, rows| {
        kernels::check(texts, rows, mode)
    })
}

/// Each value's validity and components, as `uriscan split` gives them, in
/// a StructArray with these fields (null means undefined):
///
/// - valid (bool): whether the value is valid under `mode` (see `check`)
/// - error (str): why not, with the byte offset of the first bad byte
///   ("invalid character ' ' in host at byte 10"); null when valid
/// - scheme, authority (str): without their ":" and "//"
/// - userinfo, host, port (str): the parts of the authority; null for an
///   invalid value
/// - path (str): always defined, maybe empty
/// - query, fragment (str): without their "?" and "#"
///
/// An invalid value keeps the components of RFC 3986 Appendix B's split
/// (scheme, authority, path, query, fragment). A null value gives a null
/// row. String fields are large_string for a large_string input, string
/// otherwise. One str in gives one dict. `values`, threads and the GIL as
/// for `check`.
///
/// >>> import uriscan
/// >>> row = uriscan.split(["https://user@example.com:8443/a?q=1#top"])[0].as_py()
/// >>> row["host"], row["port"], row["path"], row["query"], row["fragment"]
/// ('example.com', '8443', '/a', 'q=1', 'top')
/// >>> bad = uriscan.split("http://exa mple.com/")
/// >>> bad["valid"], bad["error"], bad["authority"], bad["host"]
/// (False, "invalid character ' ' in host at byte 10", 'exa mple.com', None)
#[pyfunction]
#[pyo3(signature = (values, mode = "reference", *, threads = 1))]
fn split(
    py: Python<'_>,
    values: &Bound<'_, PyAny>,
    mode: &str,
    threads: usize,
) -> PyResult<Py<PyAny>> {
    let mode = options::mode(mode)?;
    apply(py, values, threads, &|texts, rows| {
        kernels::split(texts, rows, mode)
    })
}

/// Each value's normal form, null where it is not valid under `mode`:
/// `uriscan normalize` with its switches as keyword arguments.
///
/// Profiles: "rfc3986" (RFC 3986 6.2.2 and 6.2.3: case, percent-encoding,
/// dot segments, default port), "web" (the key of w3lib's canonicalize_url,
/// Scrapy's: sorted, form-encoded query, no fragment, default port kept)
/// and "surt" (the SURT key of web archives; see also `surt`, which keys
/// invalid values too).
/// strip_fragment, sort_query and strip_www switch those steps on for any
/// profile; drop_params is a list of globs of query keys to drop
/// (["utm_*", "fbclid"]). One str in gives one str (or None). `values`,
/// threads and the GIL as for `check`.
///
/// >>> import uriscan
/// >>> uriscan.normalize("HTTP://Example.COM:80/a/./b/../c?b=2&a=1#top")
/// 'http://example.com/a/c?b=2&a=1#top'
/// >>> uriscan.normalize(["HTTP://Example.COM/?utm_source=x&b=2&a=1#top", "http://a b/"], "web", drop_params=["utm_*"]).to_pylist()
/// ['http://example.com/?a=1&b=2', None]
#[pyfunction]
#[pyo3(signature = (values, profile = "rfc3986", *, strip_fragment = false, sort_query = false, strip_www = false, drop_params = None, mode = "reference", threads = 1))]
#[allow(clippy::too_many_arguments)]
fn normalize(
    py: Python<'_>,
    values: &Bound<'_, PyAny>,
    profile: &str,
    strip_fragment: bool,
    sort_query: bool,
    strip_www: bool,
    drop_params: Option<Vec<String>>,
    mode: &str,
    threads: usize,
) -> PyResult<Py<PyAny>> {
    let mut n = Normalizer::new(options::profile(profile)?);
    // As the CLI: a switch adds to what the profile does.
    n.strip_fragment |= strip_fragment;
    n.sort_query |= sort_query;
    n.strip_www |= strip_www;
    n.drop_params(
        drop_params
            .unwrap_or_default()
            .iter()
            .filter(|g| !g.is_empty()),
    );
    let mode = options::mode(mode)?;
    apply_strings(py, values, threads, mode, Some(&n), kernels::normalized(&n))
}

/// Each value's SURT key (the key of the `surt` library and of CDX
/// indexes: `uriscan normalize --profile surt --invalid key`). Every
/// non-null value gets a key, a URI or not, as `surt.surt` keys any line.
/// One str in gives one str; `values`, threads and the GIL as for `check`.
///
/// >>> import uriscan
/// >>> uriscan.surt("http://www.archive.org/goo/?a=2&b&a=1")
/// 'org,archive)/goo?a=1&a=2&b'
/// >>> uriscan.surt(["https://Example.com/a b", None]).to_pylist()
/// ['com,example)/a%20b', None]
#[pyfunction]
#[pyo3(signature = (values, *, threads = 1))]
fn surt(py: Python<'_>, values: &Bound<'_, PyAny>, threads: usize) -> PyResult<Py<PyAny>> {
    let n = Normalizer::new(Profile::Surt);
    apply_strings(
        py,
        values,
        threads,
        Mode::Reference,
        None,
        kernels::surt_key(&n),
    )
}

/// Each value resolved as a reference against the URI `base` (RFC 3986
/// section 5), null where it is not valid under `mode`. `base` must be a
/// URI (with a scheme; its fragment is ignored), else InvalidUri is
/// raised. strict=False ignores a reference's scheme when it is the
/// base's (5.2.2's backward-compatible rule). One str in gives one str
/// (or None); `values`, threads and the GIL as for `check`.
///
/// >>> import uriscan
/// >>> uriscan.resolve("http://a/b/c/d;p?q", ["g", "../g", "//g", "?y", "#s", "g:h"]).to_pylist()
/// ['http://a/b/c/g', 'http://a/b/g', 'http://g', 'http://a/b/c/d;p?y', 'http://a/b/c/d;p?q#s', 'g:h']
#[pyfunction]
#[pyo3(signature = (base, values, *, strict = true, mode = "reference", threads = 1))]
fn resolve(
    py: Python<'_>,
    base: &str,
    values: &Bound<'_, PyAny>,
    strict: bool,
    mode: &str,
    threads: usize,
) -> PyResult<Py<PyAny>> {
    let base = UriBuf::parse(base, Mode::Uri).map_err(|e| invalid(py, &e))?;
    let mode = options::mode(mode)?;
    apply_strings(
        py,
        values,
        threads,
        mode,
        None,
        kernels::resolved(&base, strict),
    )
}

/// The URIs in each free text (RFC 3986 Appendix C: `<...>` and quotes
/// delimit, trailing punctuation is left out; docs/EXTRACT.md), as a list
/// of strings per text: the valid URIs, and IRIs (RFC 3987) as found when
/// the URI they map to is valid, or every candidate with all=True. schemeless=True
/// also finds `example.com/path` (a host whose top-level domain is known),
/// given as `http://example.com/path`. A null text gives a null list; one
/// str in gives one list. Texts, threads and the GIL as for `check`.
///
/// >>> import uriscan
/// >>> uriscan.extract("See <http://example.com/a b> and (http://en.wikipedia.org/wiki/Foo_(bar)).")
/// ['http://example.com/ab', 'http://en.wikipedia.org/wiki/Foo_(bar)']
/// >>> uriscan.extract(["go to example.org/x now", None], schemeless=True).to_pylist()
/// [['http://example.org/x'], None]
/// >>> uriscan.extract("see https://ja.wikipedia.org/wiki/日本 and more")
/// ['https://ja.wikipedia.org/wiki/日本']
#[pyfunction]
#[pyo3(signature = (texts, *, schemeless = false, all = false, threads = 1))]
fn extract(
    py: Python<'_>,
    texts: &Bound<'_, PyAny>,
    schemeless: bool,
    all: bool,
    threads: usize,
) -> PyResult<Py<PyAny>> {
    apply(py, texts, threads, &|t, rows| {
        kernels::extract(t, rows, schemeless, all)
    })
}

/// The fields of each Apache/nginx access-log line ("common" or
/// "combined", nginx's default), unescaped, in a StructArray with fields
/// `method`, `target` (the request target: `/path?q`, `http://h/p`, `*`,
/// or a CONNECT's `//host:443`) and `referer` (null when `-` or absent).
/// A line not of the format, or null, gives a null row. One str in gives
/// one dict (or None). Lines, threads and the GIL as for `check`.
///
/// >>> import uriscan
/// >>> line = '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a%20b?x=1 HTTP/1.0" 200 2326 "http://example.com/" "Mozilla"'
/// >>> uriscan.extract_log(line)
/// {'method': 'GET', 'target': '/a%20b?x=1', 'referer': 'http://example.com/'}
/// >>> uriscan.extract_log(["not a log line"]).to_pylist()
/// [None]
#[pyfunction]
#[pyo3(signature = (lines, format = "combined", *, threads = 1))]
fn extract_log(
    py: Python<'_>,
    lines: &Bound<'_, PyAny>,
    format: &str,
    threads: usize,
) -> PyResult<Py<PyAny>> {
    let combined = match format {
        "combined" => true,
        "common" => false,
        _ => {
            return Err(PyValueError::new_err(format!(
                "format must be 'combined' or 'common', not {format:?}"
            )))
        }
    };
    apply(py, lines, threads, &|t, rows| {
        kernels::extract_log(t, rows, combined)
    })
}

/// The names of `split`'s fields, in order.
fn split_fields(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    Ok(pyo3::types::PyTuple::new(py, kernels::SPLIT_FIELDS)?.into_any())
}

#[pymodule]
fn _uriscan(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(split, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(surt, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(extract_log, m)?)?;
    m.add_class::<PyUri>()?;
    m.add("InvalidUri", py.get_type::<InvalidUri>())?;
    m.add("SPLIT_FIELDS", split_fields(py)?)?;
    m.add("backend", uriscan::Backend::current().name())?;
    Ok(())
}
