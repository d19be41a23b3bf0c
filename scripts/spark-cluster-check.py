#!/usr/bin/env python3
"""Checks what scripts/spark-cluster-test.sh's jobs did on the standalone
cluster, against the uriscan CLI; exits 1 with the reason if anything is off.

    spark-cluster-check.py --cli BIN --input FILE --executors N \\
        --events DIR... --dedup OUT --keys FILE --probe FILE

- every event log (Spark's JSON lines, one directory per job) shows N
  executors, each of which ran tasks (SparkListenerTaskEnd events);
- OUT, surt_dedup.py's output on FILE, has one row per key of the CLI
  (`normalize --profile surt --invalid key`), each the first URL with it,
  with the CLI's validity and host and the key's count
  (python/tests/cli_reference.py, as the local-mode tests check it);
- KEYS, the CLI route's output, is the CLI's own output, line for line;
- every line of PROBE (scripts/spark-cluster-job.py) says that an executor's
  Python worker imported uriscan from the environment shipped into its
  working directory (./environment) and had no other uriscan on its
  sys.path (the driver's .venv-py has one), and the probes came from N
  executors.
"""

import argparse
import collections
import glob
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))

from cli_reference import Reference, check_job_output  # noqa: E402


def tasks_per_executor(events_dir):
    """{executor id: tasks it ended} from the one event log in events_dir,
    every executor added included (with 0)."""
    (log,) = glob.glob(os.path.join(events_dir, "*"))
    tasks = collections.Counter()
    with open(log, encoding="utf-8") as f:
        for line in f:
            event = json.loads(line)
            if event["Event"] == "SparkListenerExecutorAdded":
                tasks[event["Executor ID"]] += 0
            elif event["Event"] == "SparkListenerTaskEnd":
                tasks[event["Task Info"]["Executor ID"]] += 1
    return dict(tasks)


def check_executors(events_dir, executors):
    tasks = tasks_per_executor(events_dir)
    name = os.path.basename(events_dir.rstrip("/"))
    assert len(tasks) == executors and all(tasks.values()), (
        f"{name}: tasks per executor {tasks}, not {executors} executors that all ran tasks")
    print(f"{name}: tasks per executor {dict(sorted(tasks.items()))}")


def check_probe(path, executors):
    with open(path, encoding="utf-8") as f:
        probes = [json.loads(line) for line in f]
    for probe in probes:
        shipped = os.path.join(os.path.realpath(probe["cwd"]), "environment", "")
        assert probe["uriscan"].startswith(shipped), (
            f"an executor imported uriscan from {probe['uriscan']}, not from {shipped}")
        assert os.path.join(probe["cwd"], "environment", "") in os.path.join(
            os.path.abspath(probe["executable"]), ""), probe
        # (pyspark comes from the cluster's Spark, its python/lib/pyspark.zip.)
        others = [p for p in probe["holders"] if not os.path.join(p, "").startswith(shipped)]
        assert not others, f"an executor could import another uriscan, from {others}"
    cwds = {probe["cwd"] for probe in probes}
    assert len(cwds) == executors, f"probes from {len(cwds)} executors, not {executors}: {cwds}"
    print(f"probe: uriscan imported from ./environment/ on {len(cwds)} executors, e.g. "
          f"{probes[0]['uriscan']} by {probes[0]['executable']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--input", required=True)
    parser.add_argument("--executors", type=int, required=True)
    parser.add_argument("--events", nargs="+", required=True)
    parser.add_argument("--dedup", required=True)
    parser.add_argument("--keys", required=True)
    parser.add_argument("--probe", required=True)
    args = parser.parse_args()

    for events in args.events:
        check_executors(events, args.executors)
    check_probe(args.probe, args.executors)
    # The input as the CLI and the job read it: LF-separated, one CR before
    # the LF dropped.
    with open(args.input, "rb") as f:
        values = [line.removesuffix(b"\r").decode() for line in f.read().split(b"\n")]
    if values and values[-1] == "":
        values.pop()
    with tempfile.TemporaryDirectory() as tmp:
        ref = Reference(args.cli, values, os.path.join(tmp, "input.txt"))
    rows = check_job_output(args.dedup, values, ref)
    print(f"surt_dedup: {len(rows)} keys of {len(values)} URLs, each the CLI's, with the first "
          "URL, its validity and host, and the count")
    with open(args.keys, encoding="utf-8") as f:
        keys = f.read().splitlines()
    assert keys == ref.keys, "the CLI route's keys differ from the CLI's"
    print(f"RDD.pipe: {len(keys)} keys, one per input line, the CLI's own")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        sys.exit(f"spark-cluster-check: {e}")
