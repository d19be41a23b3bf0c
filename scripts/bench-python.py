#!/usr/bin/env python3
"""URLs per second of the Python package, side by side in one run: the
vectorized check, split and surt over one pyarrow array (threads=1), against
urllib.parse.urlsplit and surt.surt in a Python loop, and the CLI's check on
the same file.

    scripts/python-venv.sh && .venv-py/bin/python scripts/bench-python.py [FILE]

FILE defaults to 1,000,000 lines of the generated corpus (gencorpus, seed 7),
written under /tmp. Each vectorized figure is the best of 3 runs over the whole
array (reading the file and building the array excluded); urlsplit runs once
over every line. surt.surt runs in .venv-surt (scripts/surt-venv.sh; its
library is kept out of this environment) over the first 100,000 lines, timed
inside that process; it is left out when .venv-surt is missing. The CLI line
is `uriscan check -q -j1 FILE`, a whole process (reading included); the
kernel lines are the library's own loop over the file in memory on one
thread (examples/kernel.rs, the best of 3 in that process): the Rust figures
the vectorized check and surt are measured against.
"""
import os
import subprocess
import sys
import time
import urllib.parse

import pyarrow as pa

import uriscan

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SURT_LINES = 100_000

# Run in .venv-surt: times surt.surt over the first N lines of FILE, prints seconds.
SURT_LOOP = """
import sys, time, surt
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "rb") as f:
    lines = f.read().decode("utf-8", "replace").split("\\n")[:n]
start = time.perf_counter()
for line in lines:
    try:
        surt.surt(line)
    except Exception:
        pass
print(time.perf_counter() - start)
"""


def best_of(n, f):
    times = []
    for _ in range(n):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "uriscan",
                    "--example", "gencorpus", "--example", "kernel"], cwd=ROOT, check=True)
    path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/uriscan-bench-python-1m.txt"
    if len(sys.argv) <= 1 and not os.path.exists(path):
        with open(path + ".tmp", "wb") as f:
            subprocess.run([os.path.join(ROOT, "target/release/examples/gencorpus"),
                            "--lines", "1000000", "--seed", "7"], stdout=f, check=True)
        os.replace(path + ".tmp", path)
    with open(path, "rb") as f:
        lines = f.read().decode("utf-8", "replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [line.removesuffix("\r") for line in lines]
    n = len(lines)
    array = pa.array(lines, pa.string())

    rows = []  # (name, lines, seconds)
    for name, f in [
        ("uriscan.check", lambda: uriscan.check(array)),
        ("uriscan.split", lambda: uriscan.split(array)),
        ("uriscan.surt", lambda: uriscan.surt(array)),
    ]:
        rows.append((f"{name} (pyarrow, threads=1)", n, best_of(3, f)))

    def urlsplit_loop():
        for line in lines:
            try:
                urllib.parse.urlsplit(line)
            except ValueError:
                pass

    rows.append(("urllib.parse.urlsplit (loop)", n, best_of(1, urlsplit_loop)))

    surt_python = os.path.join(ROOT, ".venv-surt", "bin", "python")
    if os.path.exists(surt_python):
        out = subprocess.run([surt_python, "-c", SURT_LOOP, path, str(SURT_LINES)],
                             capture_output=True, text=True, check=True)
        rows.append(("surt.surt (loop, .venv-surt)", min(n, SURT_LINES), float(out.stdout)))
    else:
        print("(surt.surt left out: run scripts/surt-venv.sh first)")

    def cli_check():
        done = subprocess.run([os.path.join(ROOT, "target/release/uriscan"), "check", "-q", "-j1",
                               "--no-progress", path], stderr=subprocess.DEVNULL)
        if done.returncode not in (0, 1):
            sys.exit(f"uriscan check failed with status {done.returncode}")

    rows.append(("uriscan check -q -j1 FILE (CLI)", n, best_of(3, cli_check)))
    for job in ["check", "normalize-surt"]:
        out = subprocess.run([os.path.join(ROOT, "target/release/examples/kernel"), job, path, "3"],
                             capture_output=True, text=True, check=True)
        rows.append((f"Rust kernel {job} (in memory)", n, float(out.stdout.split()[0])))

    print(f"{n} lines of {path} ({sum(map(len, lines)) / n:.0f} bytes a line on average); "
          f"backend {uriscan.backend}, Python {sys.version.split()[0]}, pyarrow {pa.__version__}")
    rates = {name: count / seconds for name, count, seconds in rows}
    urlsplit = rates["urllib.parse.urlsplit (loop)"]
    print(f"{'':40} {'seconds':>9} {'URLs/s':>12} {'x urlsplit':>11}")
    for name, count, seconds in rows:
        print(f"{name:40} {seconds:9.3f} {rates[name]:12,.0f} {rates[name] / urlsplit:11.1f}")
    if "surt.surt (loop, .venv-surt)" in rates:
        ratio = rates["uriscan.surt (pyarrow, threads=1)"] / rates["surt.surt (loop, .venv-surt)"]
        print(f"uriscan.surt / surt.surt: {ratio:.0f}x")
    ratio = rates["uriscan.check (pyarrow, threads=1)"] / rates["uriscan check -q -j1 FILE (CLI)"]
    print(f"uriscan.check / CLI check: {ratio:.2f}")
    for name, kernel in [("check", "check"), ("surt", "normalize-surt")]:
        ratio = rates[f"uriscan.{name} (pyarrow, threads=1)"] / rates[f"Rust kernel {kernel} (in memory)"]
        print(f"uriscan.{name} / in-memory kernel: {ratio:.2f}")


if __name__ == "__main__":
    main()
