#!/usr/bin/env python3
"""Writes src/normalize/surt/stringprep.rs: RFC 3454's tables D.1 (the
characters of bidi class R or AL) and D.2 (bidi class L) of Unicode 3.2,
as ranges, from the Unicode 3.2 data that Python's standard library
carries (`unicodedata.ucd_3_2_0`, which Python's `stringprep` module and
its `idna` codec read). No dependency; the output is deterministic.

    python3 scripts/gen-stringprep.py > src/normalize/surt/stringprep.rs
"""

import unicodedata

UCD = unicodedata.ucd_3_2_0


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


def table(name, doc, rows):
    print(f"/// {doc}")
    print("#[rustfmt::skip]")
    print(f"pub(super) const {name}: [(u32, u32); {len(rows)}] = [")
    for i in range(0, len(rows), 4):
        print("    " + " ".join(f"(0x{a:x}, 0x{b:x})," for a, b in rows[i:i + 4]))
    print("];")


def main():
    print("""\
//! RFC 3454's bidi tables for IDNA 2003's nameprep (RFC 3491 section 6),
//! as sorted ranges of code points: D.1, the characters of bidi class R or
//! AL, and D.2, those of class L, in Unicode 3.2, the version nameprep is
//! defined on (`idna.rs` reads them).
//!
//! Written by `scripts/gen-stringprep.py` from Python's `unicodedata.ucd_3_2_0`
//! (the data its `idna` codec, the `surt` library's, reads); do not edit.
""")
    table("D1", "RFC 3454 D.1: the ranges of bidi class R or AL in Unicode 3.2.", ranges({"R", "AL"}))
    print()
    table("D2", "RFC 3454 D.2: the ranges of bidi class L in Unicode 3.2.", ranges({"L"}))


if __name__ == "__main__":
    main()
