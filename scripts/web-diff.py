#!/usr/bin/env python3
"""Differential test of `uriscan normalize --profile web` against w3lib's
`canonicalize_url(url)` (w3lib 2.5.0, default arguments: what Scrapy keys
requests with), run from .venv-surt/ (scripts/surt-venv.sh makes it).

Each input file is read in place and given as it is to uriscan (`--format
json`: one record per line, with whether it is an RFC 3986 reference); each
line (LF-separated, a final CR removed, as uriscan reads it) is given as
bytes to canonicalize_url(). Compared: every line that is an RFC 3986
reference and on which the library does not raise. Not compared, counted:
lines that are not RFC 3986 references (the profile does not key them) and
lines on which the library raises.

The library's key is first adjusted by the differences docs/WEB.md lists,
each a named rule below that applies to a precise input and rewrites the
key in one precise way; the lines each rule changed are counted. Every
remaining difference is printed as input / expected / got, with counts by
category; the exit status is 1 on any.

    scripts/web-diff.py                 # the default sets, see below
    scripts/web-diff.py FILE...         # these files
    scripts/web-diff.py --cases         # only the generated cases

The default sets: ../shared/corpora/* (when present), corpora/sample.txt and
the cases of scripts/web_cases.py (written to a temporary file).
"""

import argparse
import collections
import ipaddress
import json
import os
import re
import subprocess
import sys

import oracle_sets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_PYTHON = os.path.join(ROOT, ".venv-surt", "bin", "python")

try:
    from w3lib.url import canonicalize_url
except ImportError:
    if os.path.exists(VENV_PYTHON) and os.path.realpath(sys.prefix) != os.path.realpath(os.path.join(ROOT, ".venv-surt")):
        os.execv(VENV_PYTHON, [VENV_PYTHON] + sys.argv)
    sys.exit("web-diff: no w3lib module; run scripts/surt-venv.sh first")

# RFC 3986 Appendix B.
SPLIT = re.compile(r"^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$", re.S)


def parts(s):
    return list(SPLIT.match(s).groups())


def join(p):
    scheme, authority, path, query, fragment = p
    out = ""
    if scheme is not None:
        out += scheme + ":"
    if authority is not None:
        out += "//" + authority
    out += path
    if query is not None:
        out += "?" + query
    if fragment is not None:
        out += "#" + fragment
    return out


# The documented differences (docs/WEB.md, "Differences kept"). Each takes
# the input's parts and the library's key's parts, and returns the key's
# parts as uriscan writes them, or None where it does not apply.

def keeps_no_authority(line, key):
    """A URI without authority gets none: w3lib writes `http:/a` as
    `http:///a` (and a path it made start with `//` behind one more)."""
    if line[1] is None and key[1] is not None:
        key = key[:]
        key[2] = ("//" + key[1] if key[1] else "") + key[2]
        key[1] = None
        return key
    return None


def empty_path_stays_empty(line, key):
    """Without an authority an empty path (before `;params`) stays empty:
    w3lib writes `/`, which changes what `?q` or `#f` refer to and what
    `mailto:?to=x` is."""
    if line[1] is None and not line[2].startswith("/") and key[2].startswith("/"):
        key = key[:]
        key[2] = key[2][1:]
        return key
    return None


def empty_authority_stays(line, key):
    """An empty authority stays: w3lib drops it but for `http`, `file` and
    the other schemes of Python's `uses_netloc` (`foo:///a` -> `foo:/a`),
    and RFC 3986 does not make them equivalent."""
    if line[1] is not None and key[1] is None:
        key = key[:]
        key[1] = ""
        return key
    return None


def no_double_slash_without_authority(line, key):
    """A path without authority never starts with `//` (it would read as
    an authority): it is written behind `/.`, as the rfc3986 profile does."""
    if line[1] is None and key[1] is None and key[2].startswith("//"):
        key = key[:]
        key[2] = "/." + key[2]
        return key
    return None


def brackets_stay_encoded(line, key):
    """`[`, `]` and `|` decoded from a path stay encoded: RFC 3986 does not
    allow them there."""
    if any(c in key[2] for c in "[]|"):
        key = key[:]
        key[2] = key[2].replace("[", "%5B").replace("]", "%5D").replace("|", "%7C")
        return key
    return None


def colon_stays_encoded(line, key):
    """In a relative path's first segment `%3A` stays encoded: a `:` there
    would make it a scheme."""
    if line[0] is None and line[1] is None:
        whole = join(key)
        end = re.search(r"[/?#]|$", whole).start()
        if ":" in whole[:end]:
            return parts(whole[:end].replace(":", "%3A") + whole[end:])
    return None


def ipvfuture_keeps_brackets(line, key):
    """An IPvFuture literal without a `:` keeps its brackets (w3lib drops
    them, which makes it a reg-name)."""
    host = (line[1] or "").rpartition("@")[2]
    if host.startswith("[") and key[1] is not None and "[" not in key[1]:
        user, at, rest = key[1].rpartition("@")
        name, colon, port = rest.partition(":")
        key = key[:]
        key[1] = user + at + "[" + name + "]" + colon + port
        return key
    return None


def ipv4_mapped_dotted(line, key):
    """An IPv4-mapped IPv6 address is written `::ffff:1.2.3.4` (RFC 5952
    section 5, Python 3.13's ipaddress); Python 3.11 writes
    `::ffff:102:304`."""
    m = re.search(r"\[([0-9a-f:]+)\]", key[1] or "")
    if not m:
        return None
    a = ipaddress.IPv6Address(m.group(1))
    if a.ipv4_mapped is None:
        return None
    key = key[:]
    key[1] = key[1].replace(m.group(0), "[::ffff:%s]" % a.ipv4_mapped)
    return key


RULES = [colon_stays_encoded, keeps_no_authority, empty_path_stays_empty, empty_authority_stays,
         no_double_slash_without_authority,
         brackets_stay_encoded, ipvfuture_keeps_brackets, ipv4_mapped_dotted]


def expected(line, key):
    """The library's key adjusted by the rules; the names of those applied."""
    lp, kp = parts(line), parts(key)
    applied = []
    for rule in RULES:
        new = rule(lp, kp)
        if new is not None and new != kp:
            kp = new
            applied.append(rule.__name__)
    return join(kp), applied


def lines_of(data):
    """The lines as uriscan reads them: LF-separated, one CR before the LF
    removed, no empty record after a final LF."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [l[:-1] if l.endswith(b"\r") else l for l in lines]


def category(line):
    """A rough name for what a line exercises, to group the differences."""
    p = parts(line.decode("latin-1"))
    if p[0] is None:
        return "relative"
    if p[1] is None:
        return "no authority"
    if "%" in p[1] or "[" in p[1]:
        return "host"
    if "@" in p[1] or re.search(r":\d*$", p[1]):
        return "userinfo or port"
    if p[3] is not None:
        return "query"
    if "%" in p[2] or ";" in p[2] or "/." in p[2]:
        return "path"
    return "other"


def run_uriscan(binary, path):
    cmd = [binary, "normalize", "--profile", "web", "--format", "json", path]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        sys.exit("web-diff: %s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr.decode(errors="replace")))
    return [json.loads(l) for l in lines_of(p.stdout)]


def compare(name, path, args):
    with open(path, "rb") as f:
        lines = lines_of(f.read())
    got = run_uriscan(args.uriscan, path)
    stats = collections.Counter()
    diffs = collections.Counter()
    shown = collections.Counter()
    if len(got) != len(lines):
        print("%s: %d lines in, %d out: the outputs cannot be paired" % (name, len(lines), len(got)))
        diffs["line count"] += 1
        return len(lines), stats, diffs
    for line, rec in zip(lines, got):
        if not rec["valid"]:
            stats["not RFC 3986"] += 1
            continue
        try:
            key = canonicalize_url(line)
        except Exception:  # noqa: BLE001 - any crash of the oracle
            stats["raises"] += 1
            continue
        want, applied = expected(line.decode("ascii"), key)
        for rule in applied:
            stats[rule] += 1
        if want == rec["normalized"]:
            stats["compared"] += 1
            continue
        stats["compared"] += 1
        cat = category(line)
        diffs[cat] += 1
        if args.show < 0 or shown[cat] < args.show:
            shown[cat] += 1
            print("%s [%s]\n  input:    %r\n  w3lib:    %r\n  expected: %r (%s)\n  got:      %r"
                  % (name, cat, line, key, want, ", ".join(applied) or "no rule", rec["normalized"]))
    return len(lines), stats, diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    oracle_sets.add_arguments(ap, ROOT)
    args = ap.parse_args()

    total = 0
    summary = []
    with oracle_sets.input_sets(args, "web_cases.py", ROOT) as sets:
        for name, path in sets:
            n, stats, diffs = compare(name, path, args)
            total += sum(diffs.values())
            summary.append((name, n, stats, diffs))
    print("\n%-26s %7s %7s %7s %8s %7s  documented differences; differences by category"
          % ("set", "lines", "not3986", "raises", "compared", "diffs"))
    rules = collections.Counter()
    for name, n, stats, diffs in summary:
        documented = ", ".join("%s %d" % (r.__name__, stats[r.__name__]) for r in RULES if stats[r.__name__])
        rules.update({r.__name__: stats[r.__name__] for r in RULES})
        cats = ", ".join("%s %d" % kv for kv in diffs.most_common())
        print("%-26s %7d %7d %7d %8d %7d  %s%s" % (name, n, stats["not RFC 3986"], stats["raises"],
                                                  stats["compared"], sum(diffs.values()), documented,
                                                  "; " + cats if cats else ""))
    print("documented differences, all sets: %s" % (", ".join("%s %d" % kv for kv in rules.most_common() if kv[1]) or "none"))
    print("%d differences" % total)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
