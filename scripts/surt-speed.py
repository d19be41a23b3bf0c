#!/usr/bin/env python3
"""SURT keys per second: the Python `surt` library (surt.surt() in a loop, as a
UDF would call it) against `uriscan normalize --profile surt --invalid key -j1`,
side by side on the same lines, in one run.

    scripts/surt-venv.sh && .venv-surt/bin/python scripts/surt-speed.py [FILE]

FILE defaults to 200,000 lines of the generated corpus (gencorpus, seed 7),
written under /tmp. Both read the same bytes; the Python side is timed on the
keying loop only (reading excluded), uriscan end to end (its process, reading
and writing included), so the ratio is if anything unfair to uriscan. Lines on
which the library raises count as keyed (the exception is caught).
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    import surt  # from .venv-surt (scripts/surt-venv.sh)

    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "uriscan",
                    "--example", "gencorpus"], cwd=ROOT, check=True)
    path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/uriscan-surt-speed.txt"
    if len(sys.argv) <= 1 and not os.path.exists(path):
        with open(path, "wb") as f:
            subprocess.run([os.path.join(ROOT, "target/release/examples/gencorpus"),
                            "--lines", "200000", "--seed", "7"], stdout=f, check=True)
    with open(path, "rb") as f:
        lines = f.read().decode("utf-8", "replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    n = len(lines)

    start = time.perf_counter()
    for line in lines:
        try:
            surt.surt(line.rstrip("\r"))
        except Exception:
            pass
    py = time.perf_counter() - start

    best = None
    for _ in range(3):
        start = time.perf_counter()
        out = subprocess.run([os.path.join(ROOT, "target/release/uriscan"), "normalize",
                              "--profile", "surt", "--invalid", "key", "-j1", "--no-progress",
                              path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        t = time.perf_counter() - start
        if out.returncode not in (0, 1):
            sys.exit(f"uriscan failed with status {out.returncode}")
        keys = out.stdout.count(b"\n")
        if keys != n:
            sys.exit(f"uriscan wrote {keys} keys for {n} lines")
        best = t if best is None else min(best, t)

    print(f"{n} lines of {path}")
    print(f"surt.surt() loop:        {py:8.3f} s  {n / py / 1e3:10.1f} k URLs/s")
    print(f"uriscan (best of 3, -j1): {best:8.3f} s  {n / best / 1e3:10.1f} k URLs/s")
    print(f"ratio: {py / best:.0f}x")


if __name__ == "__main__":
    main()
