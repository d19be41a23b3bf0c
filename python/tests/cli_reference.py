"""What the uriscan command-line tool says of a list of values, and the check of
the example job's output (examples/spark/surt_dedup.py) against it: shared by
test_spark.py (local mode) and scripts/spark-cluster-check.py (a standalone
cluster)."""

import json
import re
import subprocess

import pyarrow.parquet as pq

SPLIT_FIELDS = ["valid", "error", "scheme", "authority", "userinfo", "host", "port", "path",
                "query", "fragment"]


def cli_lines(cli, args, path):
    out = subprocess.run([cli, *args, "-j1", "--no-progress", path], capture_output=True)
    assert out.returncode in (0, 1), out.stderr.decode()
    return out.stdout.decode().splitlines()


class Reference:
    """What the CLI says of each of a list of values (None: a null, of which
    it says nothing): the surt key (normalize --profile surt --invalid key),
    the split (split) and the validity (check)."""

    def __init__(self, cli, values, path):
        present = [i for i, v in enumerate(values) if v is not None]
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(values[i] + "\n" for i in present)
        keys = cli_lines(cli, ["normalize", "--profile", "surt", "--invalid", "key"], path)
        splits = [json.loads(line) for line in cli_lines(cli, ["split"], path)]
        error_line = re.compile(re.escape(path) + r":(\d+):\d+: ")
        invalid = {int(error_line.match(line).group(1)) - 1
                   for line in cli_lines(cli, ["check"], path)}
        assert len(keys) == len(splits) == len(present)
        self.keys = [None] * len(values)
        self.splits = [None] * len(values)
        self.valid = [None] * len(values)
        for n, i in enumerate(present):
            self.keys[i] = keys[n]
            self.splits[i] = splits[n]
            self.valid[i] = n not in invalid

    def split_row(self, i):
        """Value i's split as uriscan.split gives it (error: message at byte N)."""
        s = dict(self.splits[i])
        if s["error"] is not None:
            s["error"] = f"{s['error']['message']} at byte {s['error']['offset']}"
        return {f: s[f] for f in SPLIT_FIELDS}


def check_job_output(out_dir, values, ref):
    """The job's output holds one row per key of the non-null values, and
    each row is the first value with that key, with the CLI's validity and
    host for it and the key's count."""
    firsts = {}  # key -> (index of its first value, count)
    for i, key in enumerate(ref.keys):
        if key is not None:
            first, count = firsts.get(key, (i, 0))
            firsts[key] = (first, count + 1)
    got = pq.read_table(out_dir).to_pylist()
    assert len(got) == len(firsts)
    for row in got:
        first, count = firsts[row["surt"]]
        assert row["url"] == values[first], row
        assert row["count"] == count, row
        assert row["valid"] == ref.valid[first], row
        assert row["host"] == ref.split_row(first)["host"], row
    return got
