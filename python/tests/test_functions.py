"""What each function computes, on values whose answers are known."""

import pyarrow as pa
import pytest

import uriscan


def test_check_modes():
    values = ["http://a/b#f", "../rel", "http://a/b"]
    assert uriscan.check(values).to_pylist() == [True, True, True]
    assert uriscan.check(values, "uri").to_pylist() == [True, False, True]
    assert uriscan.check(values, "absolute").to_pylist() == [False, False, True]


def test_check_rejects_what_rfc3986_rejects():
    bad = ["http://a b/", "http://a/%zz", "http://[::1/", "http://a:8x/", "1http://a/", "http://a/é"]
    assert uriscan.check(bad).to_pylist() == [False] * len(bad)


def test_split_fields_and_types():
    out = uriscan.split(["foo://u@h:1/p?q#f"])
    assert isinstance(out, pa.StructArray)
    assert [out.type.field(i).name for i in range(out.type.num_fields)] == list(uriscan.SPLIT_FIELDS)
    assert list(uriscan.SPLIT_FIELDS) == [
        "valid", "error", "scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment",
    ]
    assert out.type.field("valid").type == pa.bool_()
    assert out.to_pylist() == [{
        "valid": True, "error": None, "scheme": "foo", "authority": "u@h:1", "userinfo": "u",
        "host": "h", "port": "1", "path": "/p", "query": "q", "fragment": "f",
    }]


def test_split_undefined_is_null_empty_is_empty():
    [row] = uriscan.split(["http://h?"]).to_pylist()
    assert row["path"] == "" and row["query"] == "" and row["fragment"] is None
    assert row["userinfo"] is None and row["port"] is None
    [rel] = uriscan.split(["a/b"]).to_pylist()
    assert rel["scheme"] is None and rel["authority"] is None and rel["host"] is None


def test_split_invalid_keeps_the_appendix_b_split():
    [row] = uriscan.split(["http://u@exa mple.com:80/p?q#f"]).to_pylist()
    assert row["valid"] is False
    assert row["error"] == "invalid character ' ' in host at byte 12"
    assert (row["scheme"], row["authority"], row["path"], row["query"], row["fragment"]) == (
        "http", "u@exa mple.com:80", "/p", "q", "f",
    )
    assert (row["userinfo"], row["host"], row["port"]) == (None, None, None)


def test_split_null_row():
    out = uriscan.split([None, "a"])
    assert out.is_null().to_pylist() == [True, False]
    assert out.field("path").to_pylist() == [None, "a"]


def test_normalize_profiles():
    url = "HTTP://www.Example.com:80/a/../b/?z=1&a=2#top"
    assert uriscan.normalize(url) == "http://www.example.com/b/?z=1&a=2#top"
    # web is w3lib's canonicalize_url key: the default port stays.
    assert uriscan.normalize(url, "web") == "http://www.example.com:80/b/?a=2&z=1"
    assert uriscan.normalize(url, "surt") == "com,example)/b?a=2&z=1"


def test_normalize_switches_add_to_the_profile():
    url = "http://www.a.com/p?utm_source=x&id=7&b=1#f"
    assert uriscan.normalize(url, strip_fragment=True) == "http://www.a.com/p?utm_source=x&id=7&b=1"
    assert uriscan.normalize(url, sort_query=True) == "http://www.a.com/p?b=1&id=7&utm_source=x#f"
    assert uriscan.normalize(url, strip_www=True) == "http://a.com/p?utm_source=x&id=7&b=1#f"
    assert uriscan.normalize(url, drop_params=["utm_*", ""]) == "http://www.a.com/p?id=7&b=1#f"
    assert uriscan.normalize(url, "surt", drop_params=["utm_*", "id", "b"]) == "com,a)/p"


def test_normalize_null_where_invalid_under_the_mode():
    out = uriscan.normalize(["http://a/./b", "http://a b/", "../a"])
    assert out.to_pylist() == ["http://a/b", None, "../a"]
    assert uriscan.normalize(["../a"], mode="uri").to_pylist() == [None]


def test_surt_keys_every_line():
    values = ["http://www.archive.org/goo/?a=2&b&a=1", "Example.com/a b|c", "http://127.1/", "http://example.com:99999/"]
    keys = uriscan.surt(values).to_pylist()
    assert keys[:3] == ["org,archive)/goo?a=1&a=2&b", "com,example)/a%20b|c", "1,0,0,127)/"]
    assert keys[3] is not None
    # Where the URI is valid, surt is the surt profile of normalize.
    assert uriscan.surt(values[0]) == uriscan.normalize(values[0], "surt")


def test_resolve_rfc3986_examples():
    base = "http://a/b/c/d;p?q"
    cases = {
        "g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/",
        "/g": "http://a/g", "//g": "http://g", "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y",
        "#s": "http://a/b/c/d;p?q#s", "": "http://a/b/c/d;p?q", "../../../g": "http://a/g",
        "g;x=1/../y": "http://a/b/c/y",
    }
    assert uriscan.resolve(base, list(cases)).to_pylist() == list(cases.values())


def test_resolve_strict_and_invalid():
    assert uriscan.resolve("http://a/b/c/d;p?q", "http:g") == "http:g"
    assert uriscan.resolve("http://a/b/c/d;p?q", "http:g", strict=False) == "http://a/b/c/g"
    assert uriscan.resolve("http://a/", ["a b", None]).to_pylist() == [None, None]
    with pytest.raises(uriscan.InvalidUri) as e:
        uriscan.resolve("/no/scheme", ["a"])
    assert e.value.component == "scheme"


def test_extract():
    text = "See <URL:http://example.com/a b> and (http://en.wikipedia.org/wiki/Foo_(bar)), http://b%zz.example/."
    assert uriscan.extract(text) == ["http://example.com/ab", "http://en.wikipedia.org/wiki/Foo_(bar)"]
    assert uriscan.extract(text, all=True)[-1] == "http://b%zz.example/"
    out = uriscan.extract([text, "nothing here", None, "example.org/x"], schemeless=True)
    assert isinstance(out, pa.ListArray)
    assert out.to_pylist()[1:] == [[], None, ["http://example.org/x"]]
    assert uriscan.extract(["example.org/x"]).to_pylist() == [[]]
    # Bytes browsers send as written (`[` `]` after the host, a second `#`)
    # are taken, as `uriscan extract` takes them; a bad escape is not.
    browsers = "Matrix: https://matrix.to/#/#room:a.org, http://a.com/x?a[]=1. Not http://b.com/[%zz."
    assert uriscan.extract(browsers) == ["https://matrix.to/#/#room:a.org", "http://a.com/x?a[]=1"]


def test_extract_log():
    combined = '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a%20b?x=1 HTTP/1.0" 200 2326 "http://example.com/\\x41" "Mozilla"'
    common = '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "CONNECT example.com:443 HTTP/1.1" 200 0'
    out = uriscan.extract_log([combined, common, "garbage", None])
    assert isinstance(out, pa.StructArray)
    assert out.to_pylist() == [
        {"method": "GET", "target": "/a%20b?x=1", "referer": "http://example.com/A"},
        None,
        None,
        None,
    ]
    assert uriscan.extract_log(common, "common") == {
        "method": "CONNECT", "target": "//example.com:443", "referer": None,
    }
