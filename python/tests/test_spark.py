"""uriscan on Spark, in local mode: the helpers of uriscan.spark and the example
jobs examples/spark/surt_dedup.py and cdx_verify.py, judged line by line
against the uriscan command-line tool (its release build) on the bundled
corpus and CDX sample. scripts/spark-cluster-test.sh does the same on a
standalone cluster.

Needs Java 17 or newer (PySpark 4); without it the module is skipped with a
message that says what to install. One local[2] session serves the module.
"""

import gzip
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cli_reference import SPLIT_FIELDS, Reference, check_job_output, cli_lines

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "corpora", "sample.txt")
JOB = os.path.join(ROOT, "examples", "spark", "surt_dedup.py")


def java_problem():
    """Why Spark cannot run here, or None."""
    if shutil.which("java") is None:
        return "no java on PATH"
    out = subprocess.run(["java", "-version"], capture_output=True, text=True)
    found = re.search(r'version "(\d+)', out.stderr)
    if out.returncode != 0 or found is None:
        return f"java -version failed: {out.stderr.strip()}"
    if int(found.group(1)) < 17:
        return f"java is version {found.group(1)}"
    return None


if java_problem():
    pytest.skip(
        f"the Spark tests need Java 17 or newer ({java_problem()}): install it, e.g. "
        "apt-get install openjdk-17-jre-headless, and check with java -version",
        allow_module_level=True,
    )

from pyspark.sql import SparkSession  # noqa: E402 (after the Java check)

import uriscan.spark as us  # noqa: E402


def load_job():
    spec = importlib.util.spec_from_file_location("surt_dedup", JOB)
    job = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(job)
    return job


job = load_job()


@pytest.fixture(scope="module")
def spark():
    # Local Python workers run this interpreter, whose environment has uriscan.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("uriscan-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        # Several Arrow batches per partition, as on real data.
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "700")
        # Several file splits per input, packed by Spark in an order of its
        # own: the job's notion of "first" must not depend on it.
        .config("spark.sql.files.maxPartitionBytes", "40000")
        .config("spark.sql.files.openCostInBytes", "0")
        .getOrCreate()
    )
    yield session
    session.stop()


@pytest.fixture(scope="module")
def cli():
    """The path of the uriscan command-line tool: URISCAN_BIN
    (scripts/test-python.sh sets it), else the release build, made now."""
    if "URISCAN_BIN" in os.environ:
        return os.environ["URISCAN_BIN"]
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "uriscan"], cwd=ROOT,
                   check=True)
    return os.path.join(ROOT, "target", "release", "uriscan")


@pytest.fixture(scope="module")
def sample(cli, tmp_path_factory):
    with open(SAMPLE, encoding="utf-8") as f:
        lines = f.read().splitlines()
    return lines, Reference(cli, lines, str(tmp_path_factory.mktemp("ref") / "sample.txt"))


def test_helpers_agree_with_cli(spark, sample):
    lines, ref = sample
    rows = [(i, line) for i, line in enumerate(lines)] + [(len(lines), None)]
    df = spark.createDataFrame(rows, "line long, url string")
    df = us.with_surt(df, "url", "surt")
    df = us.with_valid(df, "url", "valid")
    df = us.with_split(df, "url", "u_")
    df = us.annotate(df, "url", host="host")
    got = sorted(df.collect(), key=lambda r: r.line)

    assert df.columns == ["line", "url", "surt", "valid"] + ["u_" + f for f in SPLIT_FIELDS] + [
        "host"]
    assert len(got) == len(lines) + 1
    for i, row in enumerate(got[:-1]):
        split = ref.split_row(i)
        assert row.surt == ref.keys[i], lines[i]
        assert row.valid == ref.valid[i], lines[i]
        assert {f: row["u_" + f] for f in SPLIT_FIELDS} == split, lines[i]
        assert row.host == split["host"], lines[i]
    assert sum(not r.valid for r in got[:-1]) == ref.valid.count(False) > 0
    # A null URL has null in every column added.
    assert all(v is None for v in got[-1][2:])


@pytest.mark.parametrize("doc", ["docs/SPARK.md", "README.md"])
def test_docs_example(spark, doc):
    """The helpers' example in docs/SPARK.md and the README gives the table
    printed there."""
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        doc = f.read()
    code = doc[doc.index("```python\nfrom pyspark.sql import SparkSession"):]
    assert 'annotate(df, "url", surt="surt", valid="valid", host="host")' in code[:code.index("```text")]
    table = doc[doc.index("```text\n+---") + len("```text\n"):]
    table = table[:table.index("```")].splitlines()
    value = {"NULL": None, "true": True, "false": False}
    printed = [[value.get(cell.strip(), cell.strip()) for cell in line.split("|")[1:-1]]
               for line in table[3:-1]]
    df = spark.createDataFrame(
        [("HTTP://www.Example.com:80/b?z=1&a=2#top",), ("http://x/ y",), (None,)], "url string")
    got = us.annotate(df, "url", surt="surt", valid="valid", host="host").collect()
    assert [list(row) for row in got] == printed
    assert len(printed) == 3


def test_output_replaces_a_column_in_place(spark):
    df = spark.createDataFrame([("HTTP://Example.COM/b?z=1&a=2", 1)], "url string, n int")
    out = us.with_surt(df, "url", "url")
    assert out.columns == ["url", "n"]
    assert out.collect()[0].url == "com,example)/b?a=2&z=1"


def test_bad_arguments_are_value_errors(spark):
    df = spark.createDataFrame([("http://a/", 1)], "url string, n int")
    with pytest.raises(ValueError, match="no column 'link'"):
        us.with_surt(df, "link", "surt")
    with pytest.raises(ValueError, match="'n' is int, not string"):
        us.with_valid(df, "n", "valid")
    with pytest.raises(ValueError, match="at least one output"):
        us.annotate(df, "url")
    with pytest.raises(ValueError, match=r"used twice: \['x'\]"):
        us.annotate(df, "url", surt="x", valid="x")


def test_job_text(spark, cli, sample, tmp_path):
    lines, _ = sample
    # The corpus, then its lines backwards with "#dup" added (the same key
    # unless the line had a fragment): the first of each key is always in the
    # first half, and the splits of the second half must not win. Some lines
    # end in CR LF; the CR is not part of the URL, as for the CLI.
    doubled = lines + [line + "#dup" for line in reversed(lines)]
    text = tmp_path / "urls.txt"
    text.write_bytes(b"".join(
        line.encode() + (b"\r\n" if i % 7 == 0 else b"\n") for i, line in enumerate(doubled)))
    ref = Reference(cli, doubled, str(tmp_path / "ref.txt"))
    assert spark.read.text(str(text)).rdd.getNumPartitions() > 2

    job.run(spark, str(text), str(tmp_path / "out"))
    got = check_job_output(tmp_path / "out", doubled, ref)
    assert sum(row["count"] for row in got) == len(doubled)
    assert max(row["count"] for row in got) > 1
    # The output is not overwritten unless the job is told to.
    with pytest.raises(Exception, match="already exists"):
        job.run(spark, str(text), str(tmp_path / "out"))


def test_job_parquet(spark, cli, sample, tmp_path):
    lines, _ = sample
    # Three files of small row groups, named in input order, with null URLs
    # and another column, then the corpus again with "#dup" added; in a
    # directory whose path Spark percent-encodes.
    data = tmp_path / "a b%" / "urls.parquet"
    data.mkdir(parents=True)
    values = lines + [None, None] + [line + "#dup" for line in lines]
    for n, start in enumerate(range(0, len(values), 4000)):
        chunk = values[start:start + 4000]
        table = pa.table({"id": pa.array(range(start, start + len(chunk))),
                          "url": pa.array(chunk, pa.string())})
        pq.write_table(table, data / f"part-{n:05}.parquet", row_group_size=500)
    assert spark.read.parquet(str(data)).rdd.getNumPartitions() > 2

    job.run(spark, str(data), str(tmp_path / "out"))
    check_job_output(tmp_path / "out", values, Reference(cli, values, str(tmp_path / "ref.txt")))


def test_job_programs(cli, sample, tmp_path):
    """The job as a program, each run in a Spark of its own: by python (the
    format from the extension, local[1]) and by spark-submit (local[2])."""
    lines, _ = sample
    head = tmp_path / "head.txt"
    head.write_text("\n".join(lines[:300]) + "\n")
    ref = Reference(cli, lines[:300], str(tmp_path / "ref.txt"))
    submit = os.path.join(os.path.dirname(sys.executable), "spark-submit")
    # (spark-submit finds Spark through the Python PYSPARK_PYTHON names.)
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    for n, command in enumerate([[sys.executable, JOB, "--master", "local[1]"],
                                 [submit, "--master", "local[2]", JOB]]):
        out = tmp_path / f"out{n}"
        run = subprocess.run([*command, str(head), str(out)], capture_output=True, text=True,
                             env=env)
        assert run.returncode == 0, run.stderr
        check_job_output(out, lines[:300], ref)
    # Under spark-submit the job knows that the master is spark-submit's.
    run = subprocess.run([submit, JOB, "--master", "local[2]", str(head), str(tmp_path / "o")],
                         capture_output=True, text=True, env=env)
    # (spark-submit prints the Python program's standard error on its own
    # standard output.)
    assert run.returncode == 2 and "give --master to spark-submit" in run.stdout, run.stdout


def test_cli_route_keeps_one_line_per_input_line(spark, cli, sample):
    """RDD.pipe through the CLI (docs/SPARK.md): one output line per input
    line, in order, the CLI's own output."""
    lines, _ = sample
    command = f"{cli} normalize --profile surt --invalid pass"
    piped = spark.sparkContext.textFile(SAMPLE, minPartitions=4).pipe(command).collect()
    assert len(piped) == len(lines)
    assert piped == cli_lines(cli, ["normalize", "--profile", "surt", "--invalid", "pass"], SAMPLE)


def test_cdx_verify_reports_the_altered_keys(spark, cli, tmp_path, capsys):
    """examples/spark/cdx_verify.py on the bundled CDX sample (made by
    tests/data/cdx/make-sample.sh from the CLI's keys, three of them altered)
    reports exactly the three altered records, with the CLI's key for each."""
    cdx = os.path.join(ROOT, "tests", "data", "cdx", "sample.cdx")
    with open(cdx, encoding="utf-8") as f:
        lines = f.read().splitlines()
    urls = [json.loads(line.split(" ", 2)[2])["url"] for line in lines]
    ref = Reference(cli, urls, str(tmp_path / "urls.txt"))
    altered = {
        ("com,nytimes,www)/report.pdf/style.css/images/css", "20240221000007"):
            "com,nytimes)/report.pdf/style.css/images/css",
        ("NET,JSDELIVR,CDN)/PRODUCTS/DOWNLOAD/FOO_(BAR)/SEARCH/TAG", "20240221000230"):
            "net,jsdelivr,cdn)/products/download/foo_(bar)/search/tag",
        ("uk,co,bbc)/data/user/settings/css&z=1", "20240221000533"):
            "uk,co,bbc)/data/user/settings/css",
    }
    # The sample's other keys are the CLI's.
    assert {(line.split(" ")[0], line.split(" ")[1]): key for line, key in zip(lines, ref.keys)
            if line.split(" ")[0] != key} == altered

    verify = importlib.util.spec_from_file_location(
        "cdx_verify", os.path.join(ROOT, "examples", "spark", "cdx_verify.py"))
    cdx_verify = importlib.util.module_from_spec(verify)
    verify.loader.exec_module(cdx_verify)
    capsys.readouterr()
    assert cdx_verify.run(spark, cdx, output=str(tmp_path / "out")) == (400, 3)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "400 records, 3 with a urlkey that is not uriscan's key of their url"
    reported = [line.split("\t") for line in printed[1:]]
    assert {(key, ts): surt for key, ts, _, surt in reported} == altered
    assert [(key, ts) for key, ts, _, _ in reported] == sorted(altered)
    assert sorted((r["urlkey"], r["timestamp"], r["surt"])
                  for r in pq.read_table(tmp_path / "out").to_pylist()) == sorted(
        (key, ts, surt) for (key, ts), surt in altered.items())
    # Common Crawl's cdx-NNNNN.gz files are gzip members one after another
    # (a block of lines each): Spark reads them all.
    data = "".join(line + "\n" for line in lines).encode()
    (tmp_path / "cdx-00000.gz").write_bytes(gzip.compress(data[:30000]) + gzip.compress(data[30000:]))
    assert cdx_verify.run(spark, str(tmp_path / "cdx-00000.gz")) == (400, 3)
