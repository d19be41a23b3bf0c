#!/usr/bin/env python3
"""URLs per second of the Spark example job (examples/spark/surt_dedup.py)
and of its SURT key alone, with uriscan on Spark's Arrow path against the same
work with the Python `surt` library in a pandas_udf, side by side in one run,
in local mode.

    scripts/python-venv.sh
    .venv-py/bin/pip install --no-deps surt==0.3.1 six==1.17.0 tldextract==5.4.0 \\
        idna==3.20 requests==2.34.2 requests-file==3.0.1 filelock==4.3.1 \\
        certifi==2026.10.19.post1 charset-normalizer==3.5.3 urllib3==2.8.0
    .venv-py/bin/python scripts/bench-spark.py [--lines N] [--cores C] [--repeat R]

The pins are those of scripts/surt-venv.sh; surt is AGPL and only run here,
as a program (the next scripts/python-venv.sh, whose pins it is not among,
makes .venv-py afresh without it).

Two figures per variant: URLs per second of wall time divided by the task
slots (C), and URLs per CPU second of the JVM and its Python workers (from
/proc, Linux only), which the other load on a shared machine disturbs less.

The input is N lines (default 1,000,000) of the generated corpus (gencorpus,
seed 7), written once under /tmp. The session is local[C] (default 1: the
figures are per task slot; the JVM and the Python worker of a task are two
processes, so one task slot may keep more than one core busy). The session
is started and warmed up before any timing, so the JVM start is excluded;
each run reads the text file and is forced by a `noop` write. Variants:

  read only            the lines and their positions, nothing computed: the
                       floor under every other variant
  key, mapInArrow      uriscan.spark.with_surt (what the helpers use)
  key, pandas_udf      uriscan.surt in a pandas_udf (Series -> Arrow -> Series)
  key, surt.surt       surt.surt in a pandas_udf (Series.map), the usual UDF
  job, uriscan         surt_dedup.first_per_key: key, validity and host by
                       annotate, then the first URL of each key
  job, surt.surt       the same dedup with surt.surt for the key and
                       urllib.parse.urlsplit for the host, in one pandas_udf
                       (no validity: Python has no RFC 3986 validator)

uriscan's variants are timed best of R (default 3, the run with the least
wall time), surt.surt's once (they take tens of seconds).
"""

import argparse
import importlib.util
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_job():
    path = os.path.join(ROOT, "examples", "spark", "surt_dedup.py")
    spec = importlib.util.spec_from_file_location("surt_dedup", path)
    job = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(job)
    return job


def corpus(lines):
    path = f"/tmp/uriscan-bench-spark-{lines}.txt"
    if not os.path.exists(path):
        subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "gencorpus"],
                       cwd=ROOT, check=True)
        with open(path + ".tmp", "wb") as f:
            subprocess.run([os.path.join(ROOT, "target/release/examples/gencorpus"),
                            "--lines", str(lines), "--seed", "7"], stdout=f, check=True)
        os.rename(path + ".tmp", path)
    return path


def udfs():
    """The pandas_udfs: uriscan's key, surt.surt's key, and surt.surt's key
    with urlsplit's host."""
    import pandas as pd
    from pyspark.sql.functions import pandas_udf

    @pandas_udf("string")
    def uriscan_key(urls: pd.Series) -> pd.Series:
        import pyarrow as pa
        import uriscan

        return uriscan.surt(pa.array(urls, pa.string())).to_pandas()

    @pandas_udf("string")
    def surt_key(urls: pd.Series) -> pd.Series:
        import surt

        return urls.map(key_or_none(surt.surt))

    @pandas_udf("surt string, host string")
    def surt_key_host(urls: pd.Series) -> pd.DataFrame:
        import surt
        from urllib.parse import urlsplit

        def host(url):
            try:
                return urlsplit(url).hostname
            except ValueError:
                return None

        return pd.DataFrame({"surt": urls.map(key_or_none(surt.surt)), "host": urls.map(host)})

    return uriscan_key, surt_key, surt_key_host


def surt_first_per_key(job, urls, surt_key_host):
    """The example job's dedup (job: surt_dedup) of ``urls`` (a frame from
    job.read_urls) with surt.surt's key and urlsplit's host, both from
    surt_key_host (of udfs()): one row per key, its first URL, that URL's
    host and the key's count. Also the job of scripts/surt-udf-job.py."""
    from pyspark.sql import functions as F

    keyed = urls.withColumn("k", surt_key_host("url")).select(
        *job.POSITION, "url", "k.surt", "k.host")
    first = F.min(F.struct(*job.POSITION, "url", "host")).alias("first")
    return keyed.groupBy("surt").agg(first, F.count(F.lit(1)).alias("count")).select(
        "surt", "first.url", "first.host", "count")


def key_or_none(surt):
    """surt(url), or None where the library raises (it does on some lines)."""
    def key(url):
        try:
            return surt(url)
        except Exception:
            return None
    return key


def cpu_seconds(root):
    """CPU seconds used so far by process ``root`` (the JVM) and all its
    descendants (the Python workers), the children it has reaped included,
    from /proc."""
    procs = {}  # pid -> (parent, utime + stime + cutime + cstime in ticks)
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        procs[int(pid)] = (int(fields[1]), sum(map(int, fields[11:15])))
    ticks, todo = 0, [root]
    while todo:
        pid = todo.pop()
        ticks += procs.get(pid, (0, 0))[1]
        todo.extend(child for child, (parent, _) in procs.items() if parent == pid)
    return ticks / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--cores", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if importlib.util.find_spec("surt") is None:
        sys.exit("surt is not installed: see the set-up in this script's first lines")

    from pyspark.sql import SparkSession

    from uriscan.spark import with_surt

    job = load_job()
    path = corpus(args.lines)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (SparkSession.builder.master(f"local[{args.cores}]").appName("bench-spark")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", str(args.cores))
             .getOrCreate())
    uriscan_key, surt_key, surt_key_host = udfs()

    def urls():
        return job.read_urls(spark, path, "text")

    variants = [
        ("read only", urls, args.repeat),
        ("key, mapInArrow", lambda: with_surt(urls(), "url", "surt"), args.repeat),
        ("key, pandas_udf", lambda: urls().withColumn("surt", uriscan_key("url")), args.repeat),
        ("key, surt.surt", lambda: urls().withColumn("surt", surt_key("url")), 1),
        ("job, uriscan", lambda: job.first_per_key(urls()), args.repeat),
        ("job, surt.surt", lambda: surt_first_per_key(job, urls(), surt_key_host), 1),
    ]
    # Warm-up: the Python workers start and import their modules.
    for _, frame, _ in variants:
        frame().limit(1000).write.format("noop").mode("overwrite").save()

    n = urls().count()
    print(f"{n} lines of {path}, local[{args.cores}], spark {spark.version}, "
          f"{spark.conf.get('spark.sql.execution.arrow.maxRecordsPerBatch')} rows per Arrow batch")
    jvm = spark.sparkContext._gateway.proc.pid
    print(f"{'':18} {'wall s':>8} {'k URLs/s/core':>14} {'CPU s':>8} {'k URLs/CPU s':>13}")
    best = {}
    for name, frame, repeat in variants:
        runs = []
        for _ in range(repeat):
            cpu, start = cpu_seconds(jvm), time.perf_counter()
            frame().write.format("noop").mode("overwrite").save()
            runs.append((time.perf_counter() - start, cpu_seconds(jvm) - cpu))
        wall, cpu = min(runs)
        best[name] = cpu
        print(f"{name:18} {wall:8.2f} {n / wall / args.cores / 1e3:14.1f} {cpu:8.2f}"
              f" {n / cpu / 1e3:13.1f}  (runs: {', '.join(f'{w:.2f}' for w, _ in runs)})")
    print(f"CPU time, key: pandas_udf / mapInArrow {best['key, pandas_udf'] / best['key, mapInArrow']:.2f}x,"
          f" surt.surt / uriscan {best['key, surt.surt'] / best['key, mapInArrow']:.1f}x;"
          f" job: surt.surt / uriscan {best['job, surt.surt'] / best['job, uriscan']:.1f}x")
    spark.stop()


if __name__ == "__main__":
    main()
