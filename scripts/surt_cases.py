#!/usr/bin/env python3
"""Writes to standard output, one a line, at least 100,000 URLs built to hit
the special cases of SURT keying (the `surt` profile and its oracle, the
`surt` library): session ids in query and path, `www` prefixes, numeric
hosts, escapes of every kind, IDNA hosts, ports, query keys, `//` and dot
segments, trailing slashes, fragments, uppercase, and bytes that are not
allowed in a URI; a host with each Mathematical Alphanumeric Symbol
(U+1D400 to U+1D7FF, which IDNA 2003 maps by style and Unicode version);
and 20,000 hosts that NFKC changes (characters with decompositions,
marks of every class in any order, Hangul jamo, characters that compose
with the one before). Deterministic: a fixed seed, and no dependency (the
Unicode 3.2 data of Python's standard library picks the characters).

    scripts/surt_cases.py [COUNT] > cases.txt
"""

import random
import sys
import unicodedata

SEED = 23
ALNUM = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def sid(r, n, chars=ALNUM):
    return "".join(r.choice(chars) for _ in range(n))


SCHEMES = ["http://", "https://", "HTTP://", "Https://", "ftp://", "", "//", "http:", "http:/",
           "http:///", "http:////", "http://http://", "https://http://", "http://https://",
           "mailto:", "dns:", "file:///", "httpx://", "ws://", "news:", "urn:isbn:", "x-y.z+w://",
           "http://user:pw@", "http://@", "http://us%40er@", " http://", "\thttp://"]

NAMES = ["example.com", "Example.COM", "archive.org", "a.b.c.d.e", "localhost", "com", "x",
         "example.com.", "example..com", ".example.com", "ex-ample.co.uk", "a_b.example",
         "xn--bcher-kva.example", "XN--BCHER-KVA.example", "www", "www.", "wwwx.com", "www-1.com"]
WWW = ["www.", "www1.", "www2.", "WWW.", "Www9.", "www12.", "www.www.", "www1.www.", "www..", "ww.", "www-", "wwww."]
UNICODE = ["bücher.example", "BÜCHER.de", "пример.рф", "例え.jp", "中文.中国", "straße.de",
           "ﬁ.example", "ｅｘａｍｐｌｅ.com", "１２３.com", "a。b.com", "ıi.com", "İstanbul.tr",
           "éé.fr", "ÀÉÎÕÜ.com", "ñandú.ar", "ελληνικά.gr", "العربية.eg", "עברית.il",
           "日本語ドメイン.jp", "한국.kr", "x" * 60 + "ü.com", "a\u00adb.com", "\u200bzero.com",
           "café.com", "Café.COM", "maße.de", "ǅ.com", "ŉ.com", "ſ.com", "☃.net"]


def numeric(r):
    k = r.randrange(14)
    if k == 0:
        return ".".join(str(r.randrange(256)) for _ in range(4))
    if k == 1:
        return str(r.randrange(2 ** 32))
    if k == 2:
        return str(r.randrange(2 ** 32, 2 ** 40))
    if k == 3:
        return "0" + "".join(r.choice("01234567") for _ in range(r.randrange(1, 12)))
    if k == 4:
        return ".".join("0" + oct(r.randrange(256))[2:] for _ in range(r.randrange(1, 5)))
    if k == 5:
        return "0x%x" % r.randrange(2 ** 32)
    if k == 6:
        return ".".join("0x%X" % r.randrange(256) for _ in range(4))
    if k == 7:
        return ".".join(str(r.randrange(1000)) for _ in range(r.randrange(1, 6)))
    if k == 8:
        return "%d.%d" % (r.randrange(1, 256), r.randrange(2 ** 25))
    if k == 9:
        return "%d.%d.%d" % (r.randrange(1, 256), r.randrange(256), r.randrange(2 ** 17))
    if k == 10:
        return r.choice(["0", "00", "0.0.0.0", "255.255.255.255", "256.1.1.1", "1.2.3.04", "1.2.3.08",
                         "01.2.3.4", "09.1.1.1", "127.1", "127.0.0.1.", "1..2.3", "[::1]", "[2001:DB8::1]",
                         "[::ffff:1.2.3.4]", "[v1.x]", "1.2.3.4.5", "4294967295", "4294967296", "0.1"])
    if k == 11:
        return "%d.%d.%d.%d" % tuple(r.randrange(1000) for _ in range(4))
    if k == 12:
        return "%2531%2e2.3.4" if r.random() < 0.5 else "1%2E2%2e3.4"
    return "".join(r.choice("0123456789.") for _ in range(r.randrange(1, 12))).strip(".") or "7"


def pct(r, s):
    """Percent-encodes some bytes of s in various ways."""
    out = []
    for b in s.encode("utf-8"):
        c = chr(b)
        k = r.random()
        if k < 0.08:
            out.append("%%%02X" % b)
        elif k < 0.12:
            out.append("%%%02x" % b)
        elif k < 0.14:
            out.append("%%25%02X" % b)
        elif k < 0.15:
            out.append("%%2525%02x" % b)
        else:
            out.append(c if b < 0x80 else bytes([b]).decode("latin-1"))
    return "".join(out)


def host(r):
    k = r.random()
    if k < 0.25:
        h = r.choice(NAMES)
    elif k < 0.45:
        h = r.choice(WWW) + r.choice(NAMES)
    elif k < 0.6:
        h = numeric(r)
    elif k < 0.75:
        h = r.choice(WWW + [""]) + r.choice(UNICODE)
    elif k < 0.85:
        h = "%s.%s" % (sid(r, r.randrange(1, 12), ALPHA + "-0123456789"), r.choice(["com", "org", "CO.UK", "de", "xn--p1ai"]))
    else:
        h = r.choice(NAMES + UNICODE)
        h = pct(r, h)
    if r.random() < 0.05:
        h = h.upper()
    return h


PORTS = ["", ":", "::", ":80", ":443", ":8080", ":0", ":21", ":080", ":00080", ":65535", ":65536", ":x", ":8o", ": 80", ":١٢"]

SEGMENTS = ["a", "B", "index.html", "Index.ASPX", "x.aspx", "foo.php", "", ".", "..", "%2e", "%2E%2e", "%252e",
            "~user", "%7Euser", "%7e", "a%2Fb", "a%2fb", "%25", "%2525", "%", "%%", "%zz", "%4", "%41%42",
            "%c3%a9", "%C3%A9", "é", "中", "a b", "a+b", "a|b", "{x}", "a^b", "a\\b", "a\"b", "<>", "`",
            "%00", "%0A", "%7F", "%FF", "%80", "a;jsessionid=123", "A;B=C", "@", ":", "!$&'()*,;=",
            "%3F", "%23", "%3f", "%20", "..%2F", "%2E%2E%2F", "CAPS", "MiXeD", "a%0d%0ab"]


def path_session(r):
    body = sid(r, 24, "0123456789abcdefghijklmnopqrstuvwxyz" + "ABCDEF")
    k = r.randrange(5)
    if k == 0:
        return "/app/(S(%s))/page.aspx" % body
    if k == 1:
        return "/(%s)/default.aspx" % body
    if k == 2:
        return "/x/(a(%s)f(%s))/y/z.ASPX?q=1" % (body, sid(r, 24, "abcdef0123456789"))
    if k == 3:
        return "/(S(%s))/x?y.aspx" % body
    return "/a/(%s)/b/c.aspx/d" % sid(r, r.choice([23, 24, 25]), "abcdef0123456789")


def path(r):
    if r.random() < 0.06:
        return path_session(r)
    if r.random() < 0.05:
        return r.choice(["", "/", "//", "///", "/./", "/../", "/.", "/..", "/a/..", "/a/.", "/a/./", "/a//b//", "//a", "/%2F/", "?", "#"])
    n = r.randrange(0, 6)
    segs = [r.choice(SEGMENTS) for _ in range(n)]
    p = "/" + "/".join(segs)
    if r.random() < 0.3:
        p += "/"
    if r.random() < 0.1:
        p = p.replace("/", "//", 1)
    if r.random() < 0.05:
        p = p.upper()
    return p


SESSION_KEYS = ["jsessionid", "JSESSIONID", "phpsessid", "PHPSESSID", "sid", "SID", "xsid", "aspsessionid"]


def query_param(r):
    k = r.random()
    if k < 0.15:
        key = r.choice(SESSION_KEYS)
        if key == "aspsessionid":
            key = "ASPSESSIONID" + sid(r, 8, ALPHA)
            return key + "=" + sid(r, r.choice([24, 24, 23, 25]), ALPHA)
        return key + "=" + sid(r, r.choice([32, 32, 32, 31, 33]))
    if k < 0.2:
        return "cfid=%d&cftoken=%s" % (r.randrange(10 ** 6), sid(r, r.randrange(1, 20)))
    if k < 0.25:
        return r.choice(["CFID=1&CFTOKEN=2", "cfid=&cftoken=x", "cfid=1&cftoken=", "cfid=1", "cftoken=1&cfid=2"])
    if k < 0.35:
        return r.choice(["", "=", "a", "a=", "=b", "a==b", "A=B", "a=1", "a=2", "b", "B=1", "a&", "&", "&&"])
    if k < 0.45:
        return pct(r, r.choice(["q=a b", "q=é", "k=v&w", "x=%", "q=a+b", "q=%26", "a=1#f", "u=http://x/?a=1", "z=中"]))
    key = sid(r, r.randrange(1, 4), "abcABC_-.")
    val = sid(r, r.randrange(0, 5), ALNUM + "%+-._~!$'()*,;:@/?")
    return key + "=" + val


def query(r):
    k = r.random()
    if k < 0.35:
        return ""
    if k < 0.4:
        return "?"
    if k < 0.42:
        return "??"
    return "?" + "&".join(query_param(r) for _ in range(r.randrange(1, 6)))


def fragment(r):
    k = r.random()
    if k < 0.8:
        return ""
    return r.choice(["#", "#top", "#A?b=c", "#%20", "#é", "##", "#a#b", "#/x/../y"])


def noise(r, s):
    k = r.random()
    if k < 0.85:
        return s
    i = r.randrange(len(s) + 1)
    bad = r.choice([" ", "  ", "\t", "\x0b", "\x0c", "é", "\u00a0", "|", "{", "}", "^", "\\", "%", "%%", "`", '"', "<", ">",
                    "\x00", "\x7f", "\x01", "中", "\ufeff", "\r"])
    s = s[:i] + bad + s[i:]
    if r.random() < 0.1:
        s = s.upper()
    if r.random() < 0.05:
        s = " " + s + " "
    return s


def case(r):
    scheme = r.choice(SCHEMES[:8]) if r.random() < 0.8 else r.choice(SCHEMES)
    url = scheme + host(r) + (r.choice(PORTS) if r.random() < 0.3 else "") + path(r) + query(r) + fragment(r)
    return noise(r, url)


FIXED = [
    "http://www.archive.org/goo/?a=2&b&a=1", "filedesc://x.arc", "filedescription", "-", "http://", "https://",
    "http:", "http:/", "http:///", "http:////www.vikings.com", "http://https/order.1and1.com",
    "http://:80/foo", "http://@/", "http://a@b@c/", "http://[::1]:8080/", "http://[::1", "http://a]:80/",
    "dns:www.example.com", "DNS:WWW.Example.com", "mailto:Foo@Example.COM?subject=Hi", "urn:ISBN:0451450523",
    "http://a/?", "http://a/#", "http://a/?#", "http://a/#?", "http://a?", "http://a#", "?", "#", "//", "/", "a",
    "http://a/b?jsessionid=0123456789abcdef0123456789ABCDEF",
    "http://a/b?x=1&jsessionid=0123456789abcdef0123456789ABCDEF&y=2",
    "http://a/b?x=1&jsessionid=0123456789abcdef0123456789ABCDEF",
    "http://a/b?jsessionid=0123456789abcdef0123456789ABCDEF&",
    "http://a/b?xsid=0123456789abcdef0123456789ABCDEF",
    "http://a/b?CFID=1&CFTOKEN=2&z=1", "http://a/x/(S(0123456789abcdefghijklmn))/y.aspx",
]


UCD = unicodedata.ucd_3_2_0
DECOMPOSABLE = [chr(u) for u in range(0xA0, 0x30000) if UCD.decomposition(chr(u))]
MARKS = [chr(u) for u in range(0x300, 0x30000) if UCD.combining(chr(u))]
BASES = list("aeiouAEIOUcnszgwxy") + ["\u03b1", "\u03c9", "\u0430", "\u0435", "\u0915", "\u0b47", "\u304b", "\u30cf"]
JAMO = ([chr(u) for u in range(0x1100, 0x1113)], [chr(u) for u in range(0x1161, 0x1176)],
        [chr(u) for u in range(0x11A8, 0x11C3)])


def nfkc_host(r):
    """A label of one to eight pieces that NFKC changes, and a TLD."""
    pieces = []
    for _ in range(r.randrange(1, 9)):
        k = r.random()
        if k < 0.35:
            pieces.append(r.choice(DECOMPOSABLE))
        elif k < 0.6:
            pieces.append(r.choice(BASES) + "".join(r.choice(MARKS) for _ in range(r.randrange(1, 4))))
        elif k < 0.75:
            pieces.append(r.choice(MARKS))
        elif k < 0.9:
            pieces.append("".join(r.choice(j) for j in JAMO[:r.randrange(1, 4)]))
        else:
            pieces.append(r.choice(BASES))
    return "".join(pieces) + r.choice([".com", ".de", ".jp", ".\u0440\u0444"])


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    r = random.Random(SEED)
    out = sys.stdout.buffer
    for line in FIXED:
        out.write(line.encode("utf-8") + b"\n")
    for u in range(0x1D400, 0x1D800):
        out.write(f"http://x{chr(u)}y.com/".encode("utf-8") + b"\n")
    hosts = random.Random(SEED + 1)
    for _ in range(20_000):
        out.write(f"http://{nfkc_host(hosts)}/".encode("utf-8", "surrogatepass") + b"\n")
    for _ in range(count):
        line = case(r).encode("utf-8")
        if r.random() < 0.01:
            # Bytes that are not UTF-8.
            i = r.randrange(len(line) + 1)
            line = line[:i] + bytes([r.choice([0x80, 0xC3, 0xFF, 0xE9])]) + line[i:]
        out.write(line.replace(b"\n", b"") + b"\n")


if __name__ == "__main__":
    main()
