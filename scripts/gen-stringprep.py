#!/usr/bin/env python3
"""Writes the Unicode data that IDNA 2003's nameprep (RFC 3491) reads, as
Python's `idna` codec (the `surt` library's) reads it:

- src/normalize/surt/stringprep.rs: RFC 3454's tables D.1 and D.2 (bidi
  classes R or AL, and L, of Unicode 3.2) and B.3's case foldings that
  differ from the lowercase;
- src/normalize/surt/ucd.rs: NFKC's data as `unicodedata.ucd_3_2_0.normalize`
  applies it: the decompositions of Unicode 3.2, and the canonical classes
  and compositions of the running Python's Unicode, which that function
  uses too.

No dependency; the output is deterministic for one Python version.

    python3 scripts/gen-stringprep.py stringprep > src/normalize/surt/stringprep.rs
    python3 scripts/gen-stringprep.py ucd > src/normalize/surt/ucd.rs
"""

import stringprep
import sys
import unicodedata

UCD = unicodedata.ucd_3_2_0
WIDTH = 96
HANGUL = range(0xAC00, 0xAC00 + 11172)


def code_points():
    return (cp for cp in range(0x110000) if not 0xD800 <= cp < 0xE000)


def ranges(classes):
    out, start = [], None
    for cp in range(0x110000):
        inside = not 0xD800 <= cp < 0xE000 and UCD.bidirectional(chr(cp)) in classes
        if inside and start is None:
            start = cp
        elif not inside and start is not None:
            out.append((start, cp - 1))
            start = None
    if start is not None:
        out.append((start, 0x10FFFF))
    return out


def table(name, doc, rows, third=None):
    """A constant array of ranges `(first, last)` in hex, four a line, each
    with a third, decimal field of Rust type `third` when it is given."""
    for line in doc if isinstance(doc, list) else [doc]:
        print(f"/// {line}")
    print("#[rustfmt::skip]")
    fields = f"(u32, u32, {third})" if third else "(u32, u32)"
    print(f"pub(super) const {name}: [{fields}; {len(rows)}] = [")
    cell = lambda r: f"(0x{r[0]:x}, 0x{r[1]:x}" + (f", {r[2]})," if third else "),")
    for i in range(0, len(rows), 4):
        print("    " + " ".join(cell(r) for r in rows[i:i + 4]))
    print("];")


def literal(c):
    """`c` as it stands in a Rust string: itself when it is a visible
    left-to-right letter, digit, symbol or punctuation of Unicode 3.2
    (and not a quote or backslash), else an escape."""
    visible = UCD.category(c)[0] in "LNSP" and UCD.bidirectional(c) in ("L", "EN", "ON", "ET", "ES", "CS")
    if c.isascii() and (not c.isprintable() or c in ' "\\'):
        visible = False
    return c if visible else f"\\u{{{ord(c):x}}}"


def text(name, doc, records, sep):
    """A string constant of `records`, joined by `sep`, in lines of about
    WIDTH columns broken only between records (so no line of the
    constant starts with white space, which a line continuation drops)."""
    for line in doc:
        print(f"/// {line}")
    print(f"pub(super) const {name}: &str = \"\\")
    line = ""
    for i, record in enumerate(records):
        piece = "".join(literal(c) for c in record) + (sep if i + 1 < len(records) else "")
        if line and len(line) + len(piece) > WIDTH:
            print(line + "\\")
            line = ""
        line += piece
    print(line + "\";")


def rfc3454():
    print(f"""\
//! RFC 3454's tables for IDNA 2003's nameprep (RFC 3491) as Python's
//! `stringprep` module (its `idna` codec's, the `surt` library's) reads
//! them: the bidi tables D.1 (the characters of bidi class R or AL) and
//! D.2 (class L) of Unicode 3.2, as sorted ranges of code points; table
//! B.3's case foldings that are not the lowercase, and which characters
//! have a lowercase, in the Python's own Unicode (`idna.rs` reads them).
//!
//! Written by `scripts/gen-stringprep.py stringprep` from the `unicodedata`
//! and `stringprep` of a Python of Unicode {unicodedata.unidata_version};
//! do not edit.
""")
    table("D1", "RFC 3454 D.1: the ranges of bidi class R or AL in Unicode 3.2.", ranges({"R", "AL"}))
    print()
    table("D2", "RFC 3454 D.2: the ranges of bidi class L in Unicode 3.2.", ranges({"L"}))
    print()
    folds = [chr(cp) + stringprep.b3_exceptions[cp] for cp in sorted(stringprep.b3_exceptions)]
    text("B3", [
        "RFC 3454 B.3's case foldings that differ from the lowercase (Python's",
        "`stringprep.b3_exceptions`): each record the character, then its",
        "folding, in code point order, separated by NUL.",
    ], folds, "\\0")
    print()
    lowered = [cp for cp in code_points() if chr(cp).lower() != chr(cp)]
    runs, i = [], 0
    while i < len(lowered):
        by_one = by_two = i
        while by_one + 1 < len(lowered) and lowered[by_one + 1] == lowered[by_one] + 1:
            by_one += 1
        while by_two + 1 < len(lowered) and lowered[by_two + 1] == lowered[by_two] + 2:
            by_two += 1
        if by_two > by_one and by_two - i >= 2:
            runs.append((lowered[i], lowered[by_two], 2))
            i = by_two + 1
        else:
            runs.append((lowered[i], lowered[by_one], 1))
            i = by_one + 1
    table("LOWERED", [
        "The characters that Python's `str.lower` changes (which B.3 maps",
        "to their lowercase where it has no exception), as runs `(first,",
        "last, step)`: `first`, `first + step`... up to `last`.",
    ], runs, "u32")


def ucd():
    print(f"""\
//! NFKC's data as Python's `unicodedata.ucd_3_2_0.normalize("NFKC")`, which
//! IDNA 2003's nameprep (RFC 3491) applies, reads it: the decompositions of
//! Unicode 3.2, and the canonical combining classes and compositions of
//! the Python's own Unicode (`nfkc.rs` reads them).
//!
//! Written by `scripts/gen-stringprep.py ucd` from the `unicodedata` of a
//! Python of Unicode {unicodedata.unidata_version}; do not edit.
""")
    classes = []
    for cp in code_points():
        ccc = unicodedata.combining(chr(cp))
        if ccc and classes and classes[-1][1] == cp - 1 and classes[-1][2] == ccc:
            classes[-1][1] = cp
        elif ccc:
            classes.append([cp, cp, ccc])
    table("CLASSES", [
        "The canonical combining classes other than 0, as ranges `(first,",
        "last, class)`, of this Python's Unicode: `ucd_3_2_0.normalize` orders",
        "marks by them.",
    ], classes, "u8")
    print()
    decompositions = []
    for cp in code_points():
        c = chr(cp)
        d = UCD.normalize("NFKD", c)
        if d != c and cp not in HANGUL:
            decompositions.append(c + d)
    text("NFKD", [
        "The full compatibility decompositions of Unicode 3.2 (Hangul",
        "syllables aside), canonically ordered, as `ucd_3_2_0.normalize(\"NFKD\")`",
        "gives them: each record the character, then its decomposition, the",
        "records in code point order, separated by NUL.",
    ], decompositions, "\\0")
    print()
    pairs = []
    for cp in code_points():
        c = chr(cp)
        parts = unicodedata.decomposition(c).split()
        if cp in HANGUL or len(parts) != 2 or parts[0].startswith("<"):
            continue
        if unicodedata.normalize("NFC", c) == c:
            pairs.append("".join(chr(int(p, 16)) for p in parts) + c)
    pairs.sort()
    text("COMPOSE", [
        "The canonical compositions of this Python's Unicode (Hangul aside):",
        "three characters a record, a starter, the character it composes with",
        "and what they compose to, in the order of the first two.",
    ], pairs, "")




def main():
    what = sys.argv[1:] == ["stringprep"] and rfc3454 or sys.argv[1:] == ["ucd"] and ucd
    if not what:
        sys.exit("usage: gen-stringprep.py stringprep|ucd")
    what()


if __name__ == "__main__":
    main()
