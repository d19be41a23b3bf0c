"""uriscan.Uri, one value, and uriscan.InvalidUri."""

import pytest

import uriscan


def test_components():
    u = uriscan.Uri("https://user@example.com:8443/a/b?q=1#top")
    assert (u.scheme, u.authority, u.userinfo, u.host, u.port) == (
        "https", "user@example.com:8443", "user", "example.com", "8443",
    )
    assert (u.path, u.query, u.fragment, u.is_relative) == ("/a/b", "q=1", "top", False)
    r = uriscan.Uri("../x")
    assert (r.scheme, r.authority, r.host, r.path, r.query, r.is_relative) == (None, None, None, "../x", None, True)
    assert uriscan.Uri("http://[::1]/").host == "[::1]"


def test_str_repr_eq_hash():
    u = uriscan.Uri("http://a/b'c")
    assert str(u) == "http://a/b'c"
    assert eval(repr(u), {"Uri": uriscan.Uri}) == u
    assert u == uriscan.Uri("http://a/b'c")
    assert u != uriscan.Uri("http://A/b'c")
    assert u != "http://a/b'c"
    assert len({u, uriscan.Uri("http://a/b'c"), uriscan.Uri("http://a/")}) == 2
    assert hash(u) == hash(uriscan.Uri("http://a/b'c"))


def test_invalid_uri_carries_offset_and_component():
    with pytest.raises(uriscan.InvalidUri) as e:
        uriscan.Uri("http://example.com:84x3/")
    err = e.value
    assert isinstance(err, ValueError)
    assert (err.offset, err.component) == (21, "port")
    assert "at byte 21" in str(err)
    with pytest.raises(ValueError) as e:
        uriscan.Uri("/no/scheme", mode="uri")
    assert e.value.component == "scheme"
    with pytest.raises(uriscan.InvalidUri) as e:
        uriscan.Uri("http://a/#x", "absolute")
    assert e.value.offset == 9


def test_bad_mode():
    with pytest.raises(ValueError, match="mode must be"):
        uriscan.Uri("a", "url")


def test_frozen():
    u = uriscan.Uri("http://a/")
    with pytest.raises(AttributeError):
        u.host = "b"
