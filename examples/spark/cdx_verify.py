#!/usr/bin/env python3
"""Verify the SURT keys of a CDX index: recompute each record's ``urlkey`` from
its ``url`` with uriscan and report the records where they differ.

    python examples/spark/cdx_verify.py INPUT [--output DIR]      # local[2]
    spark-submit [--master URL] examples/spark/cdx_verify.py INPUT [--output DIR]

INPUT is CDX as Common Crawl publishes it (``cdx-00000.gz`` ...: Spark reads
gzip text as it is), one record per line, ``urlkey timestamp {json}``, the
JSON holding ``url``; or, with ``--format parquet``, Common Crawl's columnar
index (``url_surtkey`` and ``url`` columns), a file or a directory, local or
``s3://`` as Spark's file systems allow. The key is ``uriscan.surt``, the key
of the Python ``surt`` library 0.3.1, which Common Crawl's index is made with.

Prints how many records were read and how many differ, then up to ``--show``
of them (default 20) as ``urlkey<TAB>timestamp<TAB>url<TAB>recomputed key``,
sorted by urlkey and timestamp; with ``--output``, writes every one of them
as Parquet (the same columns) to DIR. A CDX line that is not
``urlkey timestamp {json with a url}`` counts as differing, with a null url
and key. Exit status 0 whether or not records differ.
"""

import argparse
import os
import sys

# Spark sets this variable in the Python process that spark-submit starts.
SUBMITTED = "PYSPARK_GATEWAY_PORT" in os.environ

COLUMNS = ("urlkey", "timestamp", "url", "surt")


def read_records(spark, path, fmt="cdx"):
    """A frame of ``urlkey``, ``timestamp`` and ``url`` (strings) from CDX
    text or the columnar index (Parquet)."""
    from pyspark.sql import functions as F

    if fmt == "parquet":
        return spark.read.parquet(path).select(
            F.col("url_surtkey").alias("urlkey"),
            F.col("fetch_time").cast("string").alias("timestamp"), "url")
    # lineSep "\n": Spark's default also ends lines at a lone CR.
    fields = F.split(F.col("value"), " ", 3)
    return spark.read.option("lineSep", "\n").text(path).select(
        fields[0].alias("urlkey"), fields[1].alias("timestamp"),
        F.get_json_object(fields[2], "$.url").alias("url"))


def mismatches(records):
    """The records whose urlkey is not uriscan's key of their url, with that
    key as ``surt`` (null when the url is missing)."""
    from pyspark.sql import functions as F

    from uriscan.spark import with_surt

    keyed = with_surt(records, "url", "surt")
    return keyed.where(~F.col("urlkey").eqNullSafe(F.col("surt"))).select(*COLUMNS)


def run(spark, input_path, fmt="cdx", output=None, show=20):
    """Reads ``input_path``, prints the report, writes the differing records
    to ``output`` if given; returns (records read, records that differ)."""
    records = read_records(spark, input_path, fmt).cache()
    differ = mismatches(records).cache()
    total, count = records.count(), differ.count()
    print(f"{total} records, {count} with a urlkey that is not uriscan's key of their url")
    for row in differ.orderBy("urlkey", "timestamp").limit(show).collect():
        print("\t".join("" if v is None else v for v in row))
    if output:
        differ.write.mode("overwrite").parquet(output)
    records.unpersist()
    differ.unpersist()
    return total, count


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="CDX text (gzip or not) or the columnar index (Parquet)")
    parser.add_argument("--format", choices=["cdx", "parquet"], default="cdx",
                        help="cdx (default): urlkey timestamp {json}; parquet: the columnar "
                        "index, url_surtkey and url")
    parser.add_argument("--output", help="Parquet directory for every differing record")
    parser.add_argument("--show", type=int, default=20, help="records printed (default 20)")
    parser.add_argument("--master", help="run by python: the Spark master (default: local[2]); "
                        "run by spark-submit, give spark-submit's --master instead")
    args = parser.parse_args(argv)
    if SUBMITTED and args.master:
        parser.error("under spark-submit, give --master to spark-submit, before the script")

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("cdx_verify")
    if not SUBMITTED:
        # The Python workers of a local session run this interpreter (its
        # virtual environment has uriscan).
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        builder = builder.master(args.master or "local[2]")
    spark = builder.getOrCreate()
    try:
        run(spark, args.input, args.format, args.output, args.show)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
