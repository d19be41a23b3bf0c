"""The input sets of the oracle comparisons (scripts/surt-diff.py,
scripts/web-diff.py): the files named on the command line, or else every
list of ../shared/corpora/, the bundled sample and the lines of a case
generator (all of them, or the generator's alone with --cases).

    with input_sets(args, "surt_cases.py", ROOT) as sets:
        for name, path in sets:
            ...
"""
import contextlib
import glob
import os
import subprocess
import sys
import tempfile


def add_arguments(ap, root):
    """The options both comparisons take: the files, the binary, --cases and
    --show."""
    ap.add_argument("files", nargs="*")
    ap.add_argument("--uriscan", default=os.path.join(root, "target", "release", "uriscan"))
    ap.add_argument("--cases", action="store_true", help="only the generated cases")
    ap.add_argument("--show", type=int, default=10, help="differences printed per category and set (-1: all)")


@contextlib.contextmanager
def input_sets(args, generator, root):
    """(name, path) of each set to compare; the generator's lines are in a
    temporary file, removed on leaving."""
    sets = [(os.path.relpath(f, root), f) for f in args.files]
    if args.files:
        yield sets
        return
    if not args.cases:
        shared = sorted(glob.glob(os.path.join(root, "..", "shared", "corpora", "*")))
        sets += [(os.path.basename(f), f) for f in shared if not f.endswith(".md")]
        sets.append(("corpora/sample.txt", os.path.join(root, "corpora", "sample.txt")))
    prefix = generator.split("_")[0] + "-cases-"
    tmp = tempfile.NamedTemporaryFile(prefix=prefix, suffix=".txt", delete=False)
    try:
        subprocess.run([sys.executable, os.path.join(root, "scripts", generator)], stdout=tmp, check=True)
        tmp.close()
        sets.append((generator, tmp.name))
        yield sets
    finally:
        tmp.close()
        os.unlink(tmp.name)
