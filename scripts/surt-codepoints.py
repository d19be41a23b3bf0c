#!/usr/bin/env python3
"""Keys one host per code point with uriscan and with the `surt` library,
and counts the keys that differ, by cause (docs/SURT.md, "What remains
different"). Two sets of 1,111,904 lines, every code point from U+00A0 to
U+10FFFF but the surrogates: `http://x` c `.com/`, and `http://א` c `א.com/`
(a right-to-left label, where the bidi rule judges c). Some 3 minutes.

    .venv-surt/bin/python scripts/surt-codepoints.py --uriscan target/release/uriscan
"""

import argparse
import stringprep
import subprocess
import unicodedata
from collections import Counter

import surt


def cause(c):
    if unicodedata.category(c) == "Cn":
        return f"unknown to this Python's Unicode ({unicodedata.unidata_version})"
    mapped = "" if stringprep.in_table_b1(c) else stringprep.map_table_b2(c)
    if unicodedata.ucd_3_2_0.normalize("NFKC", mapped) != c.lower():
        return "nameprep (B.2, then NFKC of Unicode 3.2) is not the lowercase"
    return "other (NFKC composes it with the character before)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uriscan", required=True)
    args = ap.parse_args()
    chars = [chr(u) for u in range(0xA0, 0x110000) if not 0xD800 <= u < 0xE000]
    for before, after in (("x", ""), ("\u05d0", "\u05d0")):
        lines = [f"http://{before}{c}{after}.com/" for c in chars]
        ours = subprocess.run(
            [args.uriscan, "normalize", "--profile", "surt", "--invalid", "key"],
            input="\n".join(lines).encode() + b"\n", capture_output=True, check=True,
        ).stdout.decode("utf-8", "surrogateescape").split("\n")
        counts = Counter()
        for c, line, key in zip(chars, lines, ours):
            try:
                theirs = surt.surt(line)
            except Exception:  # noqa: BLE001 - a raise is a difference too
                theirs = None
            if theirs != key:
                counts[cause(c)] += 1
        print(f"http://{before}c{after}.com/: {len(lines)} lines, {sum(counts.values())} keys differ")
        for name, n in counts.most_common():
            print(f"  {n:7}  {name}")


if __name__ == "__main__":
    main()
