"""What the functions take and give back: Arrow arrays of every string type,
sliced and chunked arrays, PyCapsule streams, lists, single values, nulls,
and the errors of anything else."""

import pyarrow as pa
import polars as pl
import pytest

import uriscan

URLS = ["http://example.com/a", "http://exa mple.com/", None, "../rel", "HTTP://B.com:80/%7e"]
CHECKED = [True, False, None, True, True]
LOG_LINE = '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" 200 2326 "-" "Mozilla"'

# Every function with a string or boolean result per row, with the one
# argument that varies.
ROW_FUNCTIONS = {
    "check": lambda v, **k: uriscan.check(v, **k),
    "normalize": lambda v, **k: uriscan.normalize(v, **k),
    "surt": lambda v, **k: uriscan.surt(v, **k),
    "resolve": lambda v, **k: uriscan.resolve("http://a/b/c", v, **k),
    "split": lambda v, **k: uriscan.split(v, **k),
    "extract": lambda v, **k: uriscan.extract(v, **k),
    "extract_log": lambda v, **k: uriscan.extract_log(v, **k),
}


@pytest.mark.parametrize("string_type", [pa.string(), pa.large_string(), pa.string_view()])
def test_check_every_string_type(string_type):
    out = uriscan.check(pa.array(URLS, string_type))
    assert isinstance(out, pa.BooleanArray)
    assert out.to_pylist() == CHECKED


def test_list_gives_array():
    out = uriscan.check(URLS)
    assert isinstance(out, pa.BooleanArray)
    assert out.to_pylist() == CHECKED
    assert uriscan.check([]).to_pylist() == []
    assert uriscan.check([None, None]).to_pylist() == [None, None]


def test_null_type_array_is_all_null():
    out = uriscan.surt(pa.array([None, None]))
    assert out.type == pa.string()
    assert out.to_pylist() == [None, None]
    assert uriscan.check(pa.chunked_array([[None]])).to_pylist() == [None]


def test_tuple_is_a_sequence():
    assert uriscan.check(tuple(URLS)).to_pylist() == CHECKED


def test_sliced_array_reads_its_window():
    arr = pa.array(["x y"] * 3 + URLS + ["a b"] * 3)
    window = arr.slice(3, len(URLS))
    assert uriscan.check(window).to_pylist() == CHECKED
    assert uriscan.surt(window).to_pylist() == uriscan.surt(URLS).to_pylist()
    split = uriscan.split(window)
    assert split.to_pylist() == uriscan.split(URLS).to_pylist()


def test_sliced_large_string():
    arr = pa.array(["x y"] + URLS, pa.large_string()).slice(1)
    assert uriscan.check(arr).to_pylist() == CHECKED


def test_chunked_gives_chunked_chunk_for_chunk():
    chunked = pa.chunked_array([URLS[:2], [], URLS[2:]], pa.string())
    out = uriscan.check(chunked)
    assert isinstance(out, pa.ChunkedArray)
    assert [len(c) for c in out.chunks] == [2, 0, 3]
    assert out.to_pylist() == CHECKED
    assert out.type == pa.bool_()


def test_empty_chunked_keeps_the_type():
    out = uriscan.surt(pa.chunked_array([], pa.large_string()))
    assert isinstance(out, pa.ChunkedArray)
    assert out.num_chunks == 0
    assert out.type == pa.large_string()
    assert uriscan.split(pa.chunked_array([], pa.string())).type.num_fields == 10


def test_polars_series_through_the_pycapsule_stream():
    series = pl.Series("u", URLS)
    out = uriscan.check(series)
    assert isinstance(out, pa.ChunkedArray)
    assert out.to_pylist() == CHECKED
    keys = uriscan.surt(series)
    assert keys.to_pylist() == uriscan.surt(URLS).to_pylist()


def test_any_pycapsule_array():
    class Exporter:
        """Exports an array through __arrow_c_array__ only."""

        def __init__(self, arr):
            self.arr = arr

        def __arrow_c_array__(self, requested_schema=None):
            return self.arr.__arrow_c_array__(requested_schema)

    out = uriscan.check(Exporter(pa.array(URLS)))
    assert isinstance(out, pa.BooleanArray)
    assert out.to_pylist() == CHECKED


@pytest.mark.parametrize("name", ["normalize", "surt", "resolve", "split", "extract", "extract_log"])
def test_string_results_follow_the_offset_width(name):
    f = ROW_FUNCTIONS[name]

    def string_types(t):
        if pa.types.is_struct(t):
            return {t.field(i).type for i in range(t.num_fields)} - {pa.bool_()}
        if pa.types.is_list(t):
            return {t.value_type}
        return {t}

    assert string_types(f(pa.array(URLS, pa.string())).type) == {pa.string()}
    assert string_types(f(pa.array(URLS, pa.large_string())).type) == {pa.large_string()}
    assert string_types(f(pa.array(URLS, pa.string_view())).type) == {pa.string()}


@pytest.mark.parametrize("name", list(ROW_FUNCTIONS))
def test_null_in_null_out(name):
    value = LOG_LINE if name == "extract_log" else "http://a/"
    out = ROW_FUNCTIONS[name](pa.array([None, value, None], pa.string()))
    assert out.is_null().to_pylist() == [True, False, True]
    assert len(out) == 3


@pytest.mark.parametrize("name", list(ROW_FUNCTIONS))
def test_threads_give_the_same_result(name):
    # Long enough to be split into ranges, with nulls and invalid values
    # in every range.
    values = pa.array((URLS + ["http://www.example.com/x?b=1&a=2 ", "1.2.3.4 - - [x] y"]) * 5000)
    f = ROW_FUNCTIONS[name]
    one = f(values, threads=1)
    assert f(values, threads=3).equals(one)
    chunked = pa.chunked_array([values.slice(0, 20000), values.slice(20000)])
    out = f(chunked, threads=2)
    assert [len(c) for c in out.chunks] == [20000, len(values) - 20000]
    assert out.combine_chunks().equals(one)


def test_threads_must_be_positive():
    with pytest.raises(ValueError, match="threads"):
        uriscan.check(["http://a/"], threads=0)
    with pytest.raises(OverflowError):
        uriscan.check(["http://a/"], threads=-1)


def test_not_strings_is_a_type_error():
    with pytest.raises(TypeError, match="string"):
        uriscan.check(pa.array([1, 2]))
    with pytest.raises(TypeError, match="string"):
        uriscan.surt(pa.chunked_array([[1.5]]))
    with pytest.raises(TypeError):
        uriscan.check(42)
    with pytest.raises(TypeError):
        uriscan.check([b"http://a/"])
    with pytest.raises(TypeError):
        uriscan.check(["http://a/", 3])


def test_bad_names_are_value_errors():
    with pytest.raises(ValueError, match="mode must be"):
        uriscan.check(["a"], mode="url")
    with pytest.raises(ValueError, match="profile must be"):
        uriscan.normalize(["a"], "rfc")
    with pytest.raises(ValueError, match="format must be"):
        uriscan.extract_log(["a"], "apache")


def test_single_values():
    assert uriscan.check("http://a/") is True
    assert uriscan.check("http://a b/") is False
    assert uriscan.surt("http://www.Example.com/") == "com,example)/"
    assert uriscan.normalize("http://a b/") is None
    assert uriscan.normalize("HTTP://A/") == "http://a/"
    assert uriscan.resolve("http://a/b/c", "../d") == "http://a/d"
    assert uriscan.split("http://a/")["host"] == "a"
    assert uriscan.extract("see http://a/x.") == ["http://a/x"]
    assert uriscan.extract_log("nope") is None
    # A str is one value, never a sequence of characters.
    assert uriscan.check("ab") is True
