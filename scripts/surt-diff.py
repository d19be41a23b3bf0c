#!/usr/bin/env python3
"""Differential test of `uriscan normalize --profile surt` against the
Internet Archive's `surt` library (`surt.surt(url)`, default options), run
from .venv-surt/ (scripts/surt-venv.sh makes it).

Each input file is read in place and given as it is to uriscan (one key per
line); each line (LF-separated, a final CR removed, as uriscan reads it) is
given as bytes to surt.surt(). Lines on which surt.surt() raises are not
compared (uriscan then passes the line through): they are counted as
"oracle raises". Every difference is printed as input / expected / got, with
counts by category; the exit status is 1 on any difference.

    scripts/surt-diff.py                       # the default sets, see below
    scripts/surt-diff.py FILE...               # these files
    scripts/surt-diff.py --cases               # only the generated cases
    scripts/surt-diff.py --invalid pass FILE   # uriscan --invalid pass

The default sets: ../shared/corpora/* (when present), corpora/sample.txt and
the cases of scripts/surt_cases.py (written to a temporary file).
"""

import argparse
import collections
import os
import subprocess
import sys

import oracle_sets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_PYTHON = os.path.join(ROOT, ".venv-surt", "bin", "python")

try:
    import surt
except ImportError:
    if os.path.exists(VENV_PYTHON) and os.path.realpath(sys.prefix) != os.path.realpath(os.path.join(ROOT, ".venv-surt")):
        os.execv(VENV_PYTHON, [VENV_PYTHON] + sys.argv)
    sys.exit("surt-diff: no surt module; run scripts/surt-venv.sh first")


def lines_of(data):
    """The lines as uriscan reads them: LF-separated, one CR before the LF
    removed, no empty record after a final LF."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [l[:-1] if l.endswith(b"\r") else l for l in lines]


def category(line):
    """A rough name for what a line exercises, to group the differences."""
    low = line.lower()
    if not line.strip():
        return "blank"
    if any(b >= 0x80 for b in line):
        return "non-ascii"
    if any(b < 0x20 or b == 0x7F for b in line):
        return "control"
    if b" " in line.strip() or b"\\" in line or b"|" in line or b"{" in line or b"^" in line:
        return "invalid byte"
    if any(s in low for s in (b"sessionid", b"sessid", b"sid=", b"cfid", b"cftoken")) or b".aspx" in low:
        return "session id"
    rest = low.split(b"//", 1)[-1]
    host = rest.split(b"/", 1)[0].split(b"?", 1)[0].split(b"#", 1)[0]
    if b"%" in host:
        return "escape in host"
    if b"%" in line:
        return "escape"
    if host.replace(b".", b"").replace(b":", b"").isdigit() or host.startswith(b"0x") or b"[" in host:
        return "numeric host"
    if host.startswith(b"www"):
        return "www"
    if b":" in host:
        return "port"
    if b"?" in line:
        return "query"
    if b"://" not in line:
        return "no authority"
    return "other"


def oracle(line):
    try:
        return surt.surt(line)
    except Exception as e:  # noqa: BLE001 - any crash of the oracle
        return e


def run_uriscan(binary, path, invalid):
    cmd = [binary, "normalize", "--profile", "surt", "--invalid", invalid, path]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        sys.exit("surt-diff: %s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr.decode(errors="replace")))
    return lines_of(p.stdout)


def compare(name, path, args):
    with open(path, "rb") as f:
        lines = lines_of(f.read())
    got = run_uriscan(args.uriscan, path, args.invalid)
    if len(got) != len(lines):
        print("%s: %d lines in, %d out: the outputs cannot be paired" % (name, len(lines), len(got)))
        return len(lines), 0, collections.Counter({"line count": 1})
    counts = collections.Counter()
    shown = collections.Counter()
    raises = 0
    for line, key in zip(lines, got):
        want = oracle(line)
        if isinstance(want, Exception):
            raises += 1
            continue
        if want != key:
            cat = category(line)
            counts[cat] += 1
            if args.show < 0 or shown[cat] < args.show:
                shown[cat] += 1
                print("%s [%s]\n  input:    %r\n  expected: %r\n  got:      %r" % (name, cat, line, want, key))
    return len(lines), raises, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    oracle_sets.add_arguments(ap, ROOT)
    ap.add_argument("--invalid", default="key", help="uriscan's --invalid (key, or pass before it existed)")
    args = ap.parse_args()

    total = 0
    summary = []
    with oracle_sets.input_sets(args, "surt_cases.py", ROOT) as sets:
        for name, path in sets:
            n, raises, counts = compare(name, path, args)
            diffs = sum(counts.values())
            total += diffs
            summary.append((name, n, raises, diffs, counts))
    print("\n%-28s %8s %8s %8s  by category" % ("set", "lines", "raises", "diffs"))
    for name, n, raises, diffs, counts in summary:
        cats = ", ".join("%s %d" % kv for kv in counts.most_common())
        print("%-28s %8d %8d %8d  %s" % (name, n, raises, diffs, cats))
    print("%d differences" % total)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
