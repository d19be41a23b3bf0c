#!/usr/bin/env python3
"""The cluster test's second job (scripts/spark-cluster-test.sh): the CLI route,
and where the executors' Python workers import uriscan from.

    spark-submit --files target/release/uriscan [--archives ENV#environment ...] \\
        scripts/spark-cluster-job.py INPUT KEYS PROBE

1. The CLI route of docs/SPARK.md: INPUT's lines through ``RDD.pipe`` into
   ``./uriscan normalize --profile surt --invalid key``, the binary shipped
   with ``--files`` (Spark fetches it into each executor's working
   directory, executable); the keys, collected in input order, go to KEYS,
   one line per input line.
2. A probe: each of a few tasks imports uriscan in its Python worker and
   reports the executor's working directory, ``sys.executable``,
   ``uriscan.__file__`` and every ``sys.path`` entry that holds a uriscan
   package, as JSON lines in PROBE, for scripts/spark-cluster-check.py to
   check that uriscan comes from the shipped environment only, and could not
   come from the driver's.
"""

import json
import os
import sys

from pyspark.sql import SparkSession

PIPE = "./uriscan normalize --profile surt --invalid key -j1 --no-progress"


def where_from(_):
    """Runs on an executor: where this Python worker finds uriscan."""
    import uriscan

    holders = [os.path.realpath(p) for p in sys.path if os.path.isdir(os.path.join(p, "uriscan"))]
    yield {"cwd": os.getcwd(), "executable": sys.executable,
           "uriscan": os.path.realpath(uriscan.__file__), "holders": holders}


def main():
    input_path, keys_path, probe_path = sys.argv[1:]
    spark = SparkSession.builder.appName("uriscan-cluster-check").getOrCreate()
    sc = spark.sparkContext
    try:
        # One output line per input line (-j1: one CLI thread per task slot);
        # a failure of the CLI fails the task.
        keys = sc.textFile(input_path, minPartitions=4).pipe(PIPE, checkCode=True).collect()
        with open(keys_path, "w", encoding="utf-8") as f:
            f.writelines(key + "\n" for key in keys)
        probes = sc.parallelize(range(4), 4).mapPartitions(where_from).collect()
        with open(probe_path, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(probe) + "\n" for probe in probes)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
