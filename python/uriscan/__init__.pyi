"""Type stubs of uriscan (the extension module uriscan._uriscan)."""

from typing import Any, Literal, Optional, Protocol, Sequence, Union, overload

import pyarrow as pa

__version__: str

class _ArrowArray(Protocol):
    def __arrow_c_array__(self, requested_schema: Any = ...) -> tuple[Any, Any]: ...

class _ArrowStream(Protocol):
    def __arrow_c_stream__(self, requested_schema: Any = ...) -> Any: ...

# An Array of string, large_string or string_view gives an Array; a
# ChunkedArray, or any other stream (a Polars Series), gives a ChunkedArray.
_Values = Union[pa.Array, pa.ChunkedArray, _ArrowArray, _ArrowStream, Sequence[Optional[str]]]
_Mode = Literal["reference", "uri", "absolute"]

#: The names of split's fields, in order.
SPLIT_FIELDS: tuple[str, ...]
#: The SIMD backend the kernels run on (avx2, sse2, neon, ...).
backend: str

class InvalidUri(ValueError):
    """A text that is not a URI under the mode asked for."""

    #: The 0-based byte offset of the first bad byte.
    offset: int
    #: The component it is in: scheme, authority, userinfo, host, port, path, query or fragment.
    component: str

class Uri:
    """One URI reference, parsed and validated; raises InvalidUri."""

    def __init__(self, text: str, mode: _Mode = "reference") -> None: ...
    @property
    def scheme(self) -> Optional[str]: ...
    @property
    def authority(self) -> Optional[str]: ...
    @property
    def userinfo(self) -> Optional[str]: ...
    @property
    def host(self) -> Optional[str]: ...
    @property
    def port(self) -> Optional[str]: ...
    @property
    def path(self) -> str: ...
    @property
    def query(self) -> Optional[str]: ...
    @property
    def fragment(self) -> Optional[str]: ...
    @property
    def is_relative(self) -> bool: ...
    def __str__(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@overload
def check(values: str, mode: _Mode = "reference", *, threads: int = 1) -> bool: ...
@overload
def check(values: pa.ChunkedArray, mode: _Mode = "reference", *, threads: int = 1) -> pa.ChunkedArray: ...
@overload
def check(values: _Values, mode: _Mode = "reference", *, threads: int = 1) -> Union[pa.BooleanArray, pa.ChunkedArray]: ...
@overload
def split(values: str, mode: _Mode = "reference", *, threads: int = 1) -> dict[str, Any]: ...
@overload
def split(values: pa.ChunkedArray, mode: _Mode = "reference", *, threads: int = 1) -> pa.ChunkedArray: ...
@overload
def split(values: _Values, mode: _Mode = "reference", *, threads: int = 1) -> Union[pa.StructArray, pa.ChunkedArray]: ...
@overload
def normalize(
    values: str,
    profile: Literal["rfc3986", "web", "surt"] = "rfc3986",
    *,
    strip_fragment: bool = False,
    sort_query: bool = False,
    strip_www: bool = False,
    drop_params: Optional[Sequence[str]] = None,
    mode: _Mode = "reference",
    threads: int = 1,
) -> Optional[str]: ...
@overload
def normalize(
    values: _Values,
    profile: Literal["rfc3986", "web", "surt"] = "rfc3986",
    *,
    strip_fragment: bool = False,
    sort_query: bool = False,
    strip_www: bool = False,
    drop_params: Optional[Sequence[str]] = None,
    mode: _Mode = "reference",
    threads: int = 1,
) -> Union[pa.StringArray, pa.LargeStringArray, pa.ChunkedArray]: ...
@overload
def surt(values: str, *, threads: int = 1) -> str: ...
@overload
def surt(values: _Values, *, threads: int = 1) -> Union[pa.StringArray, pa.LargeStringArray, pa.ChunkedArray]: ...
@overload
def resolve(base: str, values: str, *, strict: bool = True, mode: _Mode = "reference", threads: int = 1) -> Optional[str]: ...
@overload
def resolve(
    base: str, values: _Values, *, strict: bool = True, mode: _Mode = "reference", threads: int = 1
) -> Union[pa.StringArray, pa.LargeStringArray, pa.ChunkedArray]: ...
@overload
def extract(texts: str, *, schemeless: bool = False, all: bool = False, threads: int = 1) -> list[str]: ...
@overload
def extract(
    texts: _Values, *, schemeless: bool = False, all: bool = False, threads: int = 1
) -> Union[pa.ListArray, pa.ChunkedArray]: ...
@overload
def extract_log(
    lines: str, format: Literal["combined", "common"] = "combined", *, threads: int = 1
) -> Optional[dict[str, Optional[str]]]: ...
@overload
def extract_log(
    lines: _Values, format: Literal["combined", "common"] = "combined", *, threads: int = 1
) -> Union[pa.StructArray, pa.ChunkedArray]: ...
