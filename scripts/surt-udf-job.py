#!/usr/bin/env python3
"""The example job (examples/spark/surt_dedup.py) as it is written without
uriscan: the SURT key by the Python ``surt`` library and the host by
``urllib.parse.urlsplit``, in one ``pandas_udf``; the baseline of
scripts/bench-spark-cluster.sh.

    spark-submit [--archives ENV#environment ...] scripts/surt-udf-job.py INPUT OUTPUT

INPUT is a text file, one URL per line; OUTPUT a Parquet directory, one row
per key: surt, the first URL with it, that URL's host and the key's count
(no validity: Python has no RFC 3986 validator). The executors need ``surt``
(scripts/spark-pack-env.sh with its pins, as the benchmark packs it). The
job's parts are those of scripts/bench-spark.py, the local-mode benchmark.
"""

import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    input_path, output_path = sys.argv[1:]
    from pyspark.sql import SparkSession

    bench = load("bench_spark", "scripts/bench-spark.py")
    job = bench.load_job()
    spark = SparkSession.builder.appName("surt_udf_dedup").getOrCreate()
    try:
        _, _, surt_key_host = bench.udfs()
        urls = job.read_urls(spark, input_path, "text")
        bench.surt_first_per_key(job, urls, surt_key_host).write.mode("overwrite").parquet(
            output_path)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
