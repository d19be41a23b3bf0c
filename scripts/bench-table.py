#!/usr/bin/env python3
"""Turn the criterion results of `cargo bench --bench throughput` into Markdown
tables: per corpus and backend, GB/s, M URIs/s and ns/URI of classify, parse
(single URIs) and check (a whole chunk, what `uriscan check` runs), and the
transforms. Line counts come from `cargo bench -p uriscan-peers`
(target/criterion/peers-accepted.tsv), so run that too.

    cargo bench --bench throughput && cargo bench -p uriscan-peers && python3 scripts/bench-table.py
"""
import csv
import json
import os
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "criterion")
acc = os.path.join(root, "peers-accepted.tsv")
if not os.path.exists(acc):
    sys.exit("run `cargo bench -p uriscan-peers` first")
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
        for backend in ["scalar", "swar", "sse2", "avx2", "avx512", "avx512vbmi", "neon"]:
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

# The summary the README shows: per corpus, the classifier alone and `check`
# per backend, with the default SIMD path (the first of AVX-512 with VBMI,
# AVX-512 and AVX2 the machine has) against the scalar reference.
print()
print("| corpus | mean line | classify best GB/s | check scalar GB/s | check sse2 GB/s | check avx2 GB/s | check avx512 GB/s | check avx512vbmi GB/s | check best M URIs/s | check best ns/URI | best / scalar |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for corpus, (n, nb) in lines.items():
    def gbs(stage, backend):
        e = est(f"stages_{corpus}", stage, backend)
        return (e[1] / e[0], e[0]) if e else (None, None)
    sc, sc_ns = gbs("check", "scalar")
    s2, _ = gbs("check", "sse2")
    av, _ = gbs("check", "avx2")
    a5, _ = gbs("check", "avx512")
    vb, _ = gbs("check", "avx512vbmi")
    if None in (sc, s2, av):
        continue
    best = next(b for b, g in [("avx512vbmi", vb), ("avx512", a5), ("avx2", av)] if g)
    _, best_ns = gbs("check", best)
    cl, _ = gbs("classify", best)
    if cl is None:
        continue
    text = lambda g: f"{g:.3f}" if g else "-"
    mean = nb / n - 1
    print(f"| {corpus} | {mean:.1f} | {cl:.3f} | {sc:.3f} | {s2:.3f} | {av:.3f} | {text(a5)} | {text(vb)} | {n / best_ns * 1e3:.2f} | {best_ns / n:.1f} | {sc_ns / best_ns:.1f}x |")
