#!/usr/bin/env python3
"""The example job (examples/spark/surt_dedup.py) with a free key: the URL
itself, in the JVM, no Python worker; the floor of scripts/bench-spark-cluster.sh,
what the job costs whatever computes its key.

    spark-submit scripts/free-key-job.py INPUT OUTPUT

INPUT is a text file, one URL per line; OUTPUT a Parquet directory with the
example job's columns: surt (here the URL), the first URL with it, valid and
host (both null) and the key's count. Everything but the key is the example
job's own code (read_urls: reading and numbering the lines; then the same
groupBy, min over the same struct, count and Parquet write). Generated URLs
are about as distinct as their SURT keys and about as long, so the shuffle
has about as many keys and bytes; a little fewer bytes, as valid and host are
null rather than computed, which makes this floor, if anything, low.
"""

import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_job():
    path = os.path.join(ROOT, "examples", "spark", "surt_dedup.py")
    spec = importlib.util.spec_from_file_location("surt_dedup", path)
    job = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(job)
    return job


def free_first_per_key(job, urls):
    """surt_dedup.first_per_key with the URL as its key, null validity and
    host, and no Python worker."""
    from pyspark.sql import functions as F

    keyed = urls.where(F.col("url").isNotNull()).select(
        *job.POSITION, "url", F.col("url").alias("surt"),
        F.lit(None).cast("boolean").alias("valid"), F.lit(None).cast("string").alias("host"))
    first = F.min(F.struct(*job.POSITION, "url", "valid", "host")).alias("first")
    return keyed.groupBy("surt").agg(first, F.count(F.lit(1)).alias("count")).select(
        "surt", "first.url", "first.valid", "first.host", "count")


def main():
    input_path, output_path = sys.argv[1:]
    from pyspark.sql import SparkSession

    job = load_job()
    spark = SparkSession.builder.appName("free_key_dedup").getOrCreate()
    try:
        urls = job.read_urls(spark, input_path, "text")
        free_first_per_key(job, urls).write.mode("overwrite").parquet(output_path)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
