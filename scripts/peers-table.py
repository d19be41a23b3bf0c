#!/usr/bin/env python3
"""Turn the criterion results of `cargo bench -p uriscan-peers` into a Markdown table:
corpus, parser, ns/URI, GB/s, M URIs/s, accepted lines.

    cargo bench -p uriscan-peers && python3 scripts/peers-table.py

The benchmark is the workspace member bench/peers; criterion writes to the
workspace's target/criterion, here as before.
"""
import csv
import json
import os
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "criterion")
accepted_path = os.path.join(root, "peers-accepted.tsv")
if not os.path.exists(accepted_path):
    sys.exit("run `cargo bench -p uriscan-peers` first")

rows = list(csv.DictReader(open(accepted_path), delimiter="\t"))
print("| corpus | parser | ns/URI | GB/s | M URIs/s | accepted |")
print("|---|---|---:|---:|---:|---:|")
for r in rows:
    est = os.path.join(root, f"peers_{r['corpus']}", r["parser"], "new", "estimates.json")
    if not os.path.exists(est):
        continue
    ns = json.load(open(est))["median"]["point_estimate"]  # ns per pass over the corpus
    lines, nbytes = int(r["lines"]), int(r["bytes"])
    print(f"| {r['corpus']} | {r['parser']} | {ns / lines:.1f} | {nbytes / ns:.3f} | "
          f"{lines / ns * 1e3:.2f} | {r['accepted']} of {lines} |")
