#!/usr/bin/env python3
"""Which of the core's mutants today were tested, by the runs of docs/mutants/ledger.tsv.

    python3 scripts/mutants-ledger.py            per-file table (Markdown) and totals
    python3 scripts/mutants-ledger.py --left     also the untested mutants' names, one a line
    python3 scripts/mutants-ledger.py --re FILE...
                                                 a regular expression of the FILEs' untested
                                                 mutants, for `scripts/mutants.sh FILE... -- --re`

Mutation runs took many sessions, at many commits, while the code moved on.
A mutant listed today (`cargo mutants --list` over the core's globs, as
`scripts/mutants.sh --all`) counts as tested when a run of the ledger
covered it and its line has not changed since: `git blame` at HEAD dates
each line's last change, and a run at commit C covers the lines last
changed at C or before it (a `lines` run from B to C, those changed after B
and at or before C). A line whose code changed after its run counts as
untested, even if the change was a rename. The outcomes (caught, missed,
equivalent) are in docs/MUTANTS.md and docs/mutants/; the ledger only says
what ran.
"""
import re
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ["src/classes.rs", "src/grammar/**", "src/simd/scalar.rs", "src/stage2/**",
        "src/uri/**", "src/normalize/**", "src/extract/**"]
NAME = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):\d+: ")
# A line's header in `git blame --porcelain`: its commit, then its line
# numbers (and, on the first line of a group, the group's size).
BLAME_HEAD = re.compile(r"^([0-9a-f]{40}) \d+ \d+( \d+)?$")


def git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout


def listed():
    """Today's mutants of the core, in cargo-mutants' order."""
    args = ["cargo", "mutants", "--list"]
    for glob in CORE:
        args += ["--file", glob]
    out = subprocess.run(args, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    names = [n for n in out.splitlines() if NAME.match(n)]
    if not names:
        sys.exit("mutants-ledger.py: cargo mutants --list gave no mutants")
    return names


def blame(path):
    """The full commit hash of each line of `path` at HEAD (index 1 = line 1)."""
    commits = [None]
    for row in git("blame", "--porcelain", "HEAD", "--", path).splitlines():
        head = BLAME_HEAD.match(row)
        if head:
            commits.append(head[1])
    return commits


class Ancestry:
    """Whether a commit is at or before another (cached `git rev-list`)."""

    def __init__(self):
        self.sets = {}

    def upto(self, commit):
        if commit not in self.sets:
            self.sets[commit] = set(git("rev-list", commit).split())
        return self.sets[commit]

    def within(self, x, commit, base=None):
        return x in self.upto(commit) and (base is None or x not in self.upto(base))


def ledger():
    rows = []
    for n, row in enumerate((ROOT / "docs/mutants/ledger.tsv").read_text().splitlines(), 1):
        if not row.strip() or row.startswith("#"):
            continue
        fields = row.split("\t")
        if len(fields) != 5:
            sys.exit(f"ledger.tsv:{n}: expected 5 tab-separated fields, got {len(fields)}")
        rows.append(fields)
    return rows


def covered_by(row, names, by_file, lines_of, ancestry):
    """The names today's list and the ledger's `row` agree it tested."""
    kind, scope, commit, extra, _ = row
    commit = git("rev-parse", commit).strip()
    if kind == "lines":
        base = git("rev-parse", extra).strip()
        return {name for name in names if ancestry.within(lines_of(name), commit, base)}
    if scope != "-":
        names = by_file.get(scope, [])
    if kind == "file":
        chosen = names
    elif kind in ("shard", "first"):
        spec, count = extra.split(":")
        if len(names) != int(count):
            return set()  # the file's mutants changed: the old selection is another set
        if kind == "shard":
            k, n = map(int, spec.split("/"))
            chosen = names[k::n]
        else:
            chosen = names[:int(spec)]
    elif kind == "names":
        wanted = set((ROOT / extra).read_text().split("\n"))
        chosen = [name for name in names if name in wanted]
    else:
        sys.exit(f"ledger.tsv: unknown kind {kind!r}")
    return {name for name in chosen if ancestry.within(lines_of(name), commit)}


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped to head
    args = sys.argv[1:]
    names = listed()
    by_file = {}
    for name in names:
        by_file.setdefault(NAME.match(name)["file"], []).append(name)
    blames = {path: blame(path) for path in by_file}

    def lines_of(name):
        m = NAME.match(name)
        return blames[m["file"]][int(m["line"])]

    ancestry, tested = Ancestry(), set()
    for row in ledger():
        tested |= covered_by(row, names, by_file, lines_of, ancestry)

    if args[:1] == ["--re"]:
        left = [n for path in args[1:] for n in by_file.get(path, []) if n not in tested]
        if not left:
            sys.exit("mutants-ledger.py: no untested mutants in " + " ".join(args[1:]))
        escape = lambda s: re.sub(r"([\\.+*?()|\[\]{}^$])", r"\\\1", s)
        print("^(" + "|".join(escape(n) for n in left) + ")$")
        return
    print(f"HEAD {git('rev-parse', '--short', 'HEAD').strip()}: "
          f"{len(names)} mutants in the core, {len(tested)} tested, {len(names) - len(tested)} not")
    print()
    print("| file | mutants | tested | not tested |")
    print("|---|---:|---:|---:|")
    for path, file_names in by_file.items():
        done = sum(n in tested for n in file_names)
        print(f"| `{path}` | {len(file_names)} | {done} | {len(file_names) - done} |")
    if "--left" in args:
        print()
        for name in names:
            if name not in tested:
                print(name)


if __name__ == "__main__":
    main()
