#!/usr/bin/env python3
"""Turn the criterion results of `cargo bench --bench throughput` into Markdown
tables: per corpus and backend, GB/s, M URIs/s and ns/URI of classify, parse
(single URIs) and check (a whole chunk, what `uriscan check` runs), and the
transforms. Line counts come from `cargo bench --bench peers`
(target/criterion/peers-accepted.tsv), so run that too.

    cargo bench --bench throughput && cargo bench --bench peers && python3 scripts/bench-table.py
"""
import csv
import json
import os
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "criterion")
acc = os.path.join(root, "peers-accepted.tsv")
if not os.path.exists(acc):
    sys.exit("run `cargo bench --bench peers` first")
lines = {}
for r in csv.DictReader(open(acc), delimiter="\t"):
    lines[r["corpus"]] = (int(r["lines"]), int(r["bytes"]))


def est(*parts):
    path = os.path.join(root, *parts, "new", "estimates.json")
    if not os.path.exists(path):
        return None
    d = json.load(open(os.path.join(root, *parts, "new", "benchmark.json")))
    thr = d.get("throughput") or {}
    nbytes = thr.get("Bytes")
    return json.load(open(path))["median"]["point_estimate"], nbytes


print("| corpus | stage | backend | GB/s | M URIs/s | ns/URI |")
print("|---|---|---|---:|---:|---:|")
for corpus, (n, _) in lines.items():
    for stage in ["classify", "parse", "check"]:
        for backend in ["scalar", "swar", "sse2", "avx2", "neon"]:
            e = est(f"stages_{corpus}", stage, backend)
            if e is None:
                continue
            ns, nbytes = e
            print(f"| {corpus} | {stage} | {backend} | {nbytes / ns:.3f} | {n / ns * 1e3:.2f} | {ns / n:.1f} |")
    e = est(f"stages_{corpus}", "split")
    if e:
        ns, nbytes = e
        print(f"| {corpus} | split (Appendix B) | - | {nbytes / ns:.3f} | {n / ns * 1e3:.2f} | {ns / n:.1f} |")

print()
print("| corpus | transform | GB/s | ns/URI |")
print("|---|---|---:|---:|")
for corpus in ["bundled", "generated"]:
    if corpus not in lines:
        continue
    n = lines[corpus][0]
    for parts in [("normalize", "needs-work"), ("normalize", "already-normal"), ("resolve",), ("dedup-keys",)]:
        e = est(f"transforms_{corpus}", *parts)
        if e:
            ns, nbytes = e
            print(f"| {corpus} | {' '.join(parts)} | {nbytes / ns:.3f} | {ns / n:.1f} |")
for threads in ["1", "2"]:
    e = est("engine_generated", "check", threads)
    if e:
        ns, nbytes = e
        print(f"| generated (in memory) | batch engine check, {threads} thread(s) | {nbytes / ns:.3f} | {ns / lines['generated'][0]:.1f} |")
