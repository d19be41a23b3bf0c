#!/usr/bin/env python3
"""SURT keys per second: the Python `surt` library (surt.surt() in a loop, as a
UDF would call it) against `uriscan normalize --profile surt --invalid key -j1`,
side by side on the same lines, in one run.

    scripts/surt-venv.sh && .venv-surt/bin/python scripts/surt-speed.py [FILE]

FILE defaults to 200,000 lines of the generated corpus (gencorpus, seed 7),
written under /tmp. Both read the same bytes; the Python side is timed on the
keying loop only (reading excluded), uriscan end to end (its process, reading
and writing its keys to a file included), so the ratio is if anything unfair
to uriscan. Lines on which the library raises count as keyed (the exception is
caught). Two ratios: by wall time, and by CPU time (the Python loop's process
time against the uriscan process's user + system time), which a shared,
loaded machine disturbs less: both sides run on one core.
"""
import resource
import tempfile
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

    start, cpu_start = time.perf_counter(), time.process_time()
    for line in lines:
        try:
            surt.surt(line.rstrip("\r"))
        except Exception:
            pass
    py, py_cpu = time.perf_counter() - start, time.process_time() - cpu_start

    best, best_cpu = None, None
    with tempfile.TemporaryFile() as keys_file:
        for _ in range(3):
            keys_file.seek(0)
            keys_file.truncate()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            out = subprocess.run([os.path.join(ROOT, "target/release/uriscan"), "normalize",
                                  "--profile", "surt", "--invalid", "key", "-j1",
                                  "--no-progress", path],
                                 stdout=keys_file, stderr=subprocess.DEVNULL)
            t = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            if out.returncode not in (0, 1):
                sys.exit(f"uriscan failed with status {out.returncode}")
            keys_file.seek(0)
            keys = keys_file.read().count(b"\n")
            if keys != n:
                sys.exit(f"uriscan wrote {keys} keys for {n} lines")
            best = t if best is None else min(best, t)
            best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)

    print(f"{n} lines of {path}")
    print(f"surt.surt() loop:         {py:8.3f} s wall {py_cpu:8.3f} s CPU"
          f"  {n / py / 1e3:10.1f} k URLs/s (wall)")
    print(f"uriscan (best of 3, -j1): {best:8.3f} s wall {best_cpu:8.3f} s CPU"
          f"  {n / best / 1e3:10.1f} k URLs/s (wall)")
    print(f"ratio: {py / best:.0f}x by wall time, {py_cpu / best_cpu:.0f}x by CPU time")


if __name__ == "__main__":
    main()
