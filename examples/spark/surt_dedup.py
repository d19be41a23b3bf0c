#!/usr/bin/env python3
"""The first URL of each SURT key: read a list of URLs, add each one's SURT
key, validity and host with uriscan's Arrow kernels, keep the first URL of
each key, write Parquet.

    python examples/spark/surt_dedup.py INPUT OUTPUT          # local[2]
    spark-submit [--master URL] examples/spark/surt_dedup.py INPUT OUTPUT

INPUT is a text file (one URL per line, LF-separated; one CR before the LF is
dropped, as the uriscan CLI does) or Parquet with a string column ``url``
(``--column`` names another), a file or a directory of files. The format
follows the extension (``.parquet`` or ``.pq`` is Parquet, anything else text)
unless ``--format`` says. OUTPUT is a Parquet directory with one row per key:
``surt`` (the key of ``uriscan.surt``, as ``uriscan normalize --profile surt
--invalid key`` prints it), ``url`` (the first URL with that key), ``valid``
(whether that URL is an RFC 3986 URI-reference), ``host`` (its host, null
when it has none) and ``count`` (how many input URLs have the key). Null URLs
(Parquet) are left out.

"First" is the smallest input position. Each row carries its position
explicitly, read before any shuffle, as three numbers: the rank of its file
among the input's paths (sorted as strings: ``part-00000`` before
``part-00001``), the start of the file split it was read from
(``_metadata.file_block_start``) and ``monotonically_increasing_id()``, which
grows with the row within a Spark partition. A file split is read whole, in
order, by one partition, so positions compare as (file, line or row in that
file) whatever order Spark gives the partitions (it packs splits by size), and
the first of a key is the row with the smallest position: ``min`` over a
struct that starts with it.

Run by ``python``, the job makes its own local session (``--master``, default
``local[2]``) whose Python workers are this interpreter; run by
``spark-submit``, it takes the master and every setting from spark-submit.
The executors need uriscan importable (docs/SPARK.md, "On a cluster").
"""

import argparse
import os
import re
import sys

# Spark sets this variable in the Python process that spark-submit starts.
SUBMITTED = "PYSPARK_GATEWAY_PORT" in os.environ

# The columns of a row's input position, compared in this order: the file's
# rank among the input's paths, the start of its file split, the row's
# monotonically_increasing_id (see the module's doc).
POSITION = ("file", "split", "row")


def read_urls(spark, path, fmt, column="url"):
    """A frame of ``url`` (string) and the POSITION columns (the input order,
    see the module's doc) read from ``path``, a text or Parquet input."""
    from pyspark.sql import functions as F

    if fmt == "text":
        # lineSep "\n": Spark's default also ends lines at a lone CR.
        rows = spark.read.option("lineSep", "\n").text(path)
        value = F.col("value")
        url = F.when(value.endswith("\r"), value.substr(F.lit(1), F.length(value) - 1)).otherwise(
            value)
    else:
        rows = spark.read.parquet(path)
        if column not in rows.columns:
            raise ValueError(f"{path}: no column {column!r}; the columns are {rows.columns}")
        url = F.col(column)
    # Each file's rank among the input's paths (in the form of
    # _metadata.file_path, whose local paths start "file:/", not "file:///"),
    # by a broadcast join on the path, so that rows carry numbers, not the
    # path, through the kernels' Python worker and the shuffle.
    paths = sorted(re.sub("^file:///", "file:/", p) for p in rows.inputFiles())
    files = spark.createDataFrame(list(enumerate(paths)), "file long, path string")
    read = rows.select(
        url.alias("url"),
        F.col("_metadata.file_path").alias("path"),
        F.col("_metadata.file_block_start").alias("split"),
        F.monotonically_increasing_id().alias("row"),
    )
    unknown = F.raise_error(F.concat(F.lit("a path not among the input files: "), "path"))
    file = F.when(F.col("file").isNull(), unknown).otherwise(F.col("file")).alias("file")
    return read.join(F.broadcast(files), "path", "left").select("url", file, "split", "row")


def first_per_key(urls):
    """One row per SURT key of ``urls`` (a frame from read_urls): the key, the
    first URL with it, that URL's validity and host, and the key's count."""
    from pyspark.sql import functions as F

    from uriscan.spark import annotate

    keyed = annotate(urls.where(F.col("url").isNotNull()), "url", surt="surt", valid="valid",
                     host="host")
    first = F.min(F.struct(*POSITION, "url", "valid", "host")).alias("first")
    return keyed.groupBy("surt").agg(first, F.count(F.lit(1)).alias("count")).select(
        "surt", "first.url", "first.valid", "first.host", "count")


def input_format(path, fmt):
    """``fmt`` if given, else the format ``path``'s extension says."""
    if fmt:
        return fmt
    return "parquet" if path.rstrip("/").endswith((".parquet", ".pq")) else "text"


def run(spark, input_path, output_path, fmt=None, column="url", overwrite=False):
    """Reads ``input_path``, writes the first URL of each key to
    ``output_path`` as Parquet."""
    urls = read_urls(spark, input_path, input_format(input_path, fmt), column)
    writer = first_per_key(urls).write
    if overwrite:
        writer = writer.mode("overwrite")
    writer.parquet(output_path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="text file (one URL a line) or Parquet, file or directory")
    parser.add_argument("output", help="Parquet directory to write")
    parser.add_argument("--format", choices=["text", "parquet"],
                        help="the input's format (default: .parquet or .pq is Parquet, else text)")
    parser.add_argument("--column", default="url", help="Parquet input's URL column (default: url)")
    parser.add_argument("--overwrite", action="store_true", help="replace OUTPUT if it exists")
    parser.add_argument("--master", help="run by python: the Spark master (default: local[2]); "
                        "run by spark-submit, give spark-submit's --master instead")
    args = parser.parse_args(argv)
    if SUBMITTED and args.master:
        parser.error("under spark-submit, give --master to spark-submit, before the script")

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("surt_dedup")
    if not SUBMITTED:
        # The Python workers of a local session run this interpreter (its
        # virtual environment has uriscan), not whatever python3 is on PATH.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        builder = builder.master(args.master or "local[2]")
    spark = builder.getOrCreate()
    try:
        run(spark, args.input, args.output, args.format, args.column, args.overwrite)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
