"""RFC 3986 URIs over Arrow arrays: the uriscan kernel in Python.

Every function takes a pyarrow Array or ChunkedArray of strings, any object
with the Arrow PyCapsule interface (a Polars Series, DuckDB results), or a
list of str, reads the strings in place and returns Arrow arrays; null in
gives null out, and the GIL is released while the kernel runs. One str in
gives one value out. See docs/PYTHON.md, and help() on each function.

>>> import uriscan
>>> uriscan.check(["http://example.com/", "http://a b/"]).to_pylist()
[True, False]
>>> uriscan.surt("http://www.Example.com/b?z=1&a=2")
'com,example)/b?a=2&z=1'
"""

from ._uriscan import (
    SPLIT_FIELDS,
    InvalidUri,
    Uri,
    backend,
    check,
    extract,
    extract_log,
    normalize,
    resolve,
    split,
    surt,
)

__version__ = "0.1.0"

__all__ = [
    "SPLIT_FIELDS",
    "InvalidUri",
    "Uri",
    "backend",
    "check",
    "extract",
    "extract_log",
    "normalize",
    "resolve",
    "split",
    "surt",
]
