"""Precision and recall of each extractor's output against the URLs known
to be in the text: a URL found is a hit when it was inserted (each inserted
URL counts once). Prints a Markdown table row per extractor."""
import sys
from collections import Counter

expected = open(sys.argv[1], encoding="utf-8").read().splitlines()
print("| extractor | found | precision | recall |")
print("|---|---:|---:|---:|")
for spec in sys.argv[2:]:
    name, path = spec.split("=", 1)
    found = open(path, encoding="utf-8").read().splitlines()
    left = Counter(expected)
    hits = 0
    for url in found:
        if left[url] > 0:
            left[url] -= 1
            hits += 1
    precision = hits / len(found) if found else 0.0
    recall = hits / len(expected)
    print(f"| {name} | {len(found)} | {precision:.4f} | {recall:.4f} |")
