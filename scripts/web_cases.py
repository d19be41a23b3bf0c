#!/usr/bin/env python3
"""Writes to standard output, one a line, 112,512 URLs (over 100,000 of them
RFC 3986 references) built to hit the special cases of w3lib's
`canonicalize_url` (the `web` profile and its oracle): queries with
repeated, blank and case-differing keys, `+`, spaces and `=` in values,
escapes of every byte in both cases, non-ASCII (escaped, and raw in a few
lines that are no RFC 3986 URI), IDNA hosts, IPv4, IPv6 and IPvFuture
literals, ports with and without leading zeros (default ports too),
userinfo, dot segments, empty paths, `;params`, fragments, relative
references. Deterministic: a fixed seed, and no dependency.

    scripts/web_cases.py [COUNT] > cases.txt
"""

import random
import sys

SEED = 23
ALNUM = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

SCHEMES = ["http://", "https://", "HTTP://", "Https://", "ftp://", "ws://", "wss://", "file://",
           "foo://", "x-y.z+w://", "svn+ssh://", "rtsp://", "sip:", "mailto:", "urn:isbn:", "news:",
           "http:", "http:/", "foo:", "foo:/", "tel:", "data:", "", "", "//", "//", "/", "./", "../"]

NAMES = ["example.com", "Example.COM", "www.example.com", "WWW.Example.Org", "a.b.c.d.e", "localhost",
         "com", "x", "example.com.", "example..com", ".example.com", "ex-ample.co.uk", "a_b.example",
         "xn--bcher-kva.example", "XN--BCHER-KVA.example", "xn--e1afmkfd.xn--p1ai", "ex%41mple.com",
         "ex%4dmple.com", "%C3%A9.fr", "%c3%a9.FR", "a~b.com", "a!$&'()*+,;=b.com", "", "a%2Eb.com"]
IPS = ["127.0.0.1", "0.0.0.0", "255.255.255.255", "1.2.3.4", "10.0.0.1",
       "[::1]", "[::]", "[::0:1]", "[0:0:0:0:0:0:0:1]", "[2001:DB8::1]", "[2001:db8:0:0:1:0:0:1]",
       "[2001:0db8:0000:0000:0000:0000:0002:0001]", "[1:0:0:2:0:0:0:3]", "[1:0:0:2:0:0:3:4]",
       "[1::]", "[0001:0DB8::]", "[::ffff:1.2.3.4]", "[::FFFF:0:0]", "[::1.2.3.4]", "[fe80::1:2]",
       "[1:2:3:4:5:6:7:8]", "[1:2:3:4:5:6:0:8]", "[0:0:1::]", "[v1.x]", "[v1.x:y]", "[vF.X:Y]",
       "[V1.a]", "[v7.fe80::a+en1]"]
UNICODE = ["bücher.de", "BÜCHER.de", "пример.рф", "例え.jp", "straße.de", "ｅｘａｍｐｌｅ.com", "café.com"]
PORTS = ["", "", "", ":", ":80", ":443", ":21", ":8080", ":080", ":00080", ":0", ":00", ":65535",
         ":65536", ":99999", ":000000000000000000000080", ":1"]
USERINFO = ["", "", "", "", "user@", "User:Pw@", "u:@", ":p@", "@", ":@", "u:p:q@", "U%41:p%3a@",
            "u%3Bx%3d@", "u;x=y@", "u'!$&()*+,@", "%7e%7E~@", "a%40b@", "u%20v@", "%C3%A9@", "u-._~@"]

# Path pieces: every kind of escape, dot segments, params.
SEGMENTS = ["a", "B", "index.html", "x.php", "", ".", "..", "%2e", "%2E", "%2e%2E", ".%2e", "%252e",
            "~user", "%7Euser", "%7e", "a%2Fb", "a%2fb", "%25", "%2525", "%252F", "%3B", "%3b", "%3F",
            "%3f", "%23", "%20", "%7C", "%5B", "%5d", "%3A", "%3a", "%40", "%21", "%24", "%26", "%27",
            "%28", "%29", "%2A", "%2a", "%2B", "%2C", "%3D", "%22", "%3C", "%3E", "%5C", "%5E", "%60",
            "%7B", "%7D", "%00", "%0A", "%7F", "%FF", "%80", "%c3%a9", "%C3%A9", "%e9", "a+b", "a=b",
            "a;b", "a;b=c", "x;type=a", ";", "a;", ";x", "a;%7e", "a;b;c", "@", ":", "!$&'()*,=",
            "CAPS", "MiXeD", "%41%42", "..%2F", "%2E%2E%2F"]

# Query keys and values: repeated, blank, case, `+`, spaces, escapes.
KEYS = ["a", "A", "b", "B", "z", "a", "a", "q", "utm_source", "utm_x", "id", "", "a+b", "a%20b",
        "%61", "%41", "a%3Db", "a%26b", "%C3%A9", "%c3%a9", "%e9", "~", "%7e", "*", "%2a",
        "'", "a.b", "a-b", "a_b", "a%5B%5D", "%2B", "+", "%25", "/", "?", "@", ":"]
VALUES = ["", "", "1", "2", "10", "x", "X", "a+b", "a%20b", "a%2Bb", "%2b", "+", "++", "=", "a=b",
          "%3D", "%26", "%25", "%C3%A9", "%c3%a9", "%e9", "%FF", "~", "%7E", "'x'",
          "%27", "/a/b", "?", "@", ":", "!$()*,;", "%00", "%0a", "%7F", "1;2"]
# Bytes RFC 3986 does not allow: a few lines get one (they are not compared).
INVALID = [" ", "é", "%", "%zz", "\"", "|", "[", "^", "\\", "{"]


def pct_any(r):
    b = r.randrange(256)
    return ("%%%02X" if r.random() < 0.5 else "%%%02x") % b


def host(r):
    k = r.random()
    if k < 0.5:
        h = r.choice(NAMES)
    elif k < 0.7:
        h = r.choice(IPS)
    elif k < 0.85:
        h = "".join(r.choice(ALNUM + "-.") for _ in range(r.randrange(1, 14))) + r.choice([".com", ".ORG", ".de", ""])
    elif k < 0.97:
        h = r.choice(NAMES) + pct_any(r) + r.choice(NAMES)
    else:
        h = r.choice(UNICODE)
    return h


def segment(r):
    k = r.random()
    if k < 0.6:
        return r.choice(SEGMENTS)
    if k < 0.85:
        return r.choice(SEGMENTS) + pct_any(r) + r.choice(SEGMENTS)
    return "".join(r.choice(ALNUM + "-._~!$&'()*+,;=:@") for _ in range(r.randrange(1, 8)))


def path(r, absolute):
    if r.random() < 0.12:
        return "" if r.random() < 0.6 else r.choice(["/", "//", "/.", "/..", "/./", "/../", "/a/..", "/a/.", "//a/../b"])
    n = r.randrange(1, 6)
    p = "/".join(segment(r) for _ in range(n))
    if absolute or r.random() < 0.7:
        p = "/" + p
    if r.random() < 0.2:
        p += "/"
    return p


def query(r):
    k = r.random()
    if k < 0.3:
        return ""
    if k < 0.35:
        return "?" + r.choice(["", "&", "&&", "=", "==", "&=&", "a", "a&", "&a", "a=1&&b=2&", ";a=1;b=2"])
    fields = []
    for _ in range(r.randrange(1, 7)):
        key = r.choice(KEYS)
        if r.random() < 0.1:
            key += pct_any(r)
        shape = r.random()
        if shape < 0.15:
            fields.append(key)
        elif shape < 0.2:
            fields.append("")
        else:
            value = r.choice(VALUES)
            if r.random() < 0.1:
                value += pct_any(r)
            fields.append(key + "=" + value)
    if r.random() < 0.2:
        # Repeat a field: equal pairs, and the sort's ties.
        fields.append(r.choice(fields))
    return "?" + "&".join(fields)


def fragment(r):
    return r.choice(["", "", "", "", "#", "#top", "#F%7e", "#a?b=c", "#%C3%A9", "#/x/../y"])


def case(r):
    scheme = r.choice(SCHEMES)
    if scheme.endswith("//"):
        authority = r.choice(USERINFO) + host(r) + r.choice(PORTS)
        url = scheme + authority + path(r, True)
    else:
        url = scheme + path(r, False)
    url += query(r) + fragment(r)
    if r.random() < 0.02:
        at = r.randrange(len(url) + 1)
        url = url[:at] + r.choice(INVALID) + url[at:]
    return url


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 112_000
    r = random.Random(SEED)
    out = sys.stdout
    # Every byte escaped in a path, a query key and a value, in both cases.
    for b in range(256):
        for fmt in ("%%%02X", "%%%02x"):
            e = fmt % b
            out.write("http://example.com/a%sb?%s=1&k=%s\n" % (e, e, e))
    for _ in range(count):
        out.write(case(r) + "\n")


if __name__ == "__main__":
    main()
