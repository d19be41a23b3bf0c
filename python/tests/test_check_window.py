"""uriscan.check, normalize, surt and resolve run the library's window pass
over rows staged as lines (python/src/staged.rs): check's answers must be
exactly those of parsing each value on its own (uriscan.Uri), and the
others' over an array those of one value at a time (a str is parsed on its
own), for rows that do not fit that staging too:
LF and CR inside or at the ends of a value, NUL, non-ASCII, empty values,
nulls (whose bytes in the values buffer may hold anything), slices,
large_string, string_view, chunked arrays, several threads, and values
longer than one staged piece."""

import random

import pyarrow as pa
import pytest

import uriscan

MODES = ["reference", "uri", "absolute"]
STRING_TYPES = [pa.string(), pa.large_string(), pa.string_view()]

# Values that a naive staging would get wrong, each beside valid ones.
EDGES = [
    "http://a/\n", "\nhttp://a/", "http://a/\nhttp://b/", "a\nb", "\n", "\n\n",
    "http://a/\r", "\rhttp://a/", "http://a/\r\n", "a\rb", "\r", "\r\n", "\n\r",
    "", "http://a/\x00", "\x00", "http://é/", "/é", "é\n", "http://a/b c",
    "http://a/" + "b" * 70_000, "http://a/" + "b" * 70_000 + " ", "/" + "x" * 63, "/" + "x" * 64,
]
VALID = ["http://example.com/a", "../rel", "//h/p", "mailto:x@y", "http://[::1]:80/"]


def one_by_one(values, mode):
    """Each value parsed on its own: True, False, or None for null."""

    def valid(text):
        try:
            uriscan.Uri(text, mode)
            return True
        except uriscan.InvalidUri:
            return False

    return [None if v is None else valid(v) for v in values]


def mixed(edges):
    """Every edge between valid values, and nulls here and there."""
    values = []
    for i, edge in enumerate(edges):
        values += [VALID[i % len(VALID)], edge, None if i % 3 == 0 else VALID[(i + 1) % len(VALID)]]
    return values


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("string_type", STRING_TYPES)
def test_edges_match_one_by_one(mode, string_type):
    values = mixed(EDGES)
    assert uriscan.check(pa.array(values, string_type), mode).to_pylist() == one_by_one(values, mode)
    for edge in EDGES:
        assert uriscan.check([edge], mode).to_pylist() == one_by_one([edge], mode), repr(edge)


def test_a_cr_before_the_next_row_is_not_a_line_end():
    # Staged naively as "http://a/\r\nhttp://b/\n", the CR would be read as
    # part of the line end and the first row found valid.
    assert uriscan.check(["http://a/\r", "http://b/"]).to_pylist() == [False, True]
    assert uriscan.check(["a\nb", "http://b/", "x y"]).to_pylist() == [False, True, False]


@pytest.mark.parametrize("string_type", [pa.string(), pa.large_string()])
def test_null_rows_bytes_are_not_read(string_type):
    # A null row whose bytes in the values buffer hold an LF and a CR.
    texts = ["http://a/", "x\ny\r", "http://b/", "c d"]
    dense = pa.array(texts, string_type)
    validity = pa.array([True, False, True, True]).buffers()[1]
    array = pa.Array.from_buffers(string_type, len(texts), [validity, *dense.buffers()[1:]])
    assert array.to_pylist() == ["http://a/", None, "http://b/", "c d"]
    assert uriscan.check(array).to_pylist() == [True, None, True, False]


@pytest.mark.parametrize("string_type", STRING_TYPES)
def test_slices(string_type):
    values = mixed(EDGES)
    array = pa.array(values, string_type)
    for start, length in [(1, 10), (4, 30), (7, len(values) - 7), (len(values) - 2, 2), (5, 0)]:
        want = one_by_one(values[start:start + length], "reference")
        assert uriscan.check(array.slice(start, length)).to_pylist() == want, (start, length)


def test_chunked_and_threads():
    values = mixed(EDGES) * 400  # more rows than threads' smallest share
    chunked = pa.chunked_array([values[:1000], [], values[1000:]], pa.string())
    want = one_by_one(values, "uri")
    assert uriscan.check(chunked, "uri").to_pylist() == want
    assert uriscan.check(chunked, "uri", threads=3).to_pylist() == want
    assert uriscan.check(pa.array(values, pa.large_string()), "uri", threads=2).to_pylist() == want


def random_values(seed, n):
    """Short URI-like texts with some of every byte the staging cares about."""
    rng = random.Random(seed)
    pieces = ["http://", "https://", "//", "/", "?", "#", "%41", "%zz", "@", ":", "[::1]", "]", ".", "..",
              "a", "B", "0", "-", "~", " ", "\n", "\r", "\r\n", "\x00", "é", "\t", "'", "|"]
    weights = [8, 4, 3, 10, 2, 2, 2, 1, 1, 3, 1, 1, 3, 1, 30, 5, 5, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    values = []
    for _ in range(n):
        if rng.random() < 0.03:
            values.append(None)
        else:
            values.append("".join(rng.choices(pieces, weights, k=rng.randrange(0, 24))))
    return values


@pytest.mark.parametrize("seed", range(4))
def test_random_differential(seed):
    values = random_values(seed, 20_000)
    for mode in MODES:
        want = one_by_one(values, mode)
        for string_type in STRING_TYPES:
            got = uriscan.check(pa.array(values, string_type), mode).to_pylist()
            assert got == want, (mode, string_type, next(i for i, (g, w) in enumerate(zip(got, want)) if g != w))


@pytest.mark.parametrize("string_type", STRING_TYPES)
def test_surt_matches_one_by_one(string_type):
    # uriscan.surt of one str keys it on its own (no staging).
    values = mixed(EDGES) + random_values(7, 5_000)
    want = [None if v is None else uriscan.surt(v) for v in values]
    array = pa.array(values, string_type)
    assert uriscan.surt(array).to_pylist() == want
    assert uriscan.surt(array, threads=2).to_pylist() == want
    assert uriscan.surt(array.slice(5, 300)).to_pylist() == want[5:305]
    chunked = pa.chunked_array([values[:100], [], values[100:]], string_type)
    assert uriscan.surt(chunked).to_pylist() == want


# Values whose normal forms take every shortcut of the noted pass and miss
# it: uppercase before the path, escapes to decode or uppercase, dot
# segments, default ports, queries to sort, fragments.
NORMALIZE_VALUES = [
    "http://a/b", "HTTP://A/b", "http://a:80/", "http://a/%7e/%2f", "http://a/./b/../c",
    "https://a:443", "http://a/b?z=1&a=2#f", "s:.//a", "../a/./b", "//A/b/", "http://a/b?",
    "http://[::1]/", "http://a/" + "x" * 200 + "/%41", "ftp://a:21/%5b", "http://www.a.com/?b&a=%20",
    "http://a/b;p?q", "http://%20@a/x;y/z;w", "http://a%20b/c;", "mailto:a;b", "HTTPS://a/b;c",
]


@pytest.mark.parametrize("string_type", STRING_TYPES)
@pytest.mark.parametrize("profile", ["rfc3986", "web", "surt"])
def test_normalize_matches_one_by_one(string_type, profile):
    values = mixed(EDGES + NORMALIZE_VALUES) + random_values(11, 5_000)
    for mode in MODES:
        want = [None if v is None else uriscan.normalize(v, profile, mode=mode) for v in values]
        array = pa.array(values, string_type)
        assert uriscan.normalize(array, profile, mode=mode).to_pylist() == want, mode
        assert uriscan.normalize(array, profile, mode=mode, threads=2).to_pylist() == want, mode
        assert uriscan.normalize(array.slice(3, 500), profile, mode=mode).to_pylist() == want[3:503]


@pytest.mark.parametrize("string_type", STRING_TYPES)
def test_resolve_matches_one_by_one(string_type):
    values = mixed(EDGES + NORMALIZE_VALUES) + random_values(13, 5_000)
    base = "http://a/b/c/d;p?q"
    for strict in [True, False]:
        want = [None if v is None else uriscan.resolve(base, v, strict=strict) for v in values]
        array = pa.array(values, string_type)
        assert uriscan.resolve(base, array, strict=strict).to_pylist() == want
        assert uriscan.resolve(base, array, strict=strict, threads=2).to_pylist() == want
