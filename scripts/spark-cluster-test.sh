#!/usr/bin/env bash
# uriscan on a real Spark cluster: a standalone master and two one-core
# workers on 127.0.0.1, from the pinned PySpark in .venv-py/, each executor
# its own JVM with its own Python workers, which have uriscan only because the
# job ships it (docs/SPARK.md, "On a cluster"). Run by .ci/run; takes about
# three minutes on 2 busy cores.
#
# 1. scripts/python-venv.sh (the wheel, built with the wheel-test profile unless
#    URISCAN_WHEEL_PROFILE says otherwise, and venv-pack), the CLI (the one at
#    URISCAN_BIN if set, else the release CLI, built here), and
#    scripts/spark-pack-env.sh: the executors' environment, packed;
# 2. the cluster (scripts/spark-cluster.sh), then two jobs with spark-submit
#    --master spark://127.0.0.1:PORT, the environment shipped with --archives:
#    examples/spark/surt_dedup.py on the bundled corpus, and
#    scripts/spark-cluster-job.py: the CLI route (RDD.pipe, the binary
#    shipped with --files) and a probe of where the executors import uriscan
#    from;
# 3. scripts/spark-cluster-check.py: both executors ran tasks of each job
#    (their event logs), uriscan came from the shipped environment, and every
#    key, first URL and count equals the CLI's;
# 4. the cluster stopped by the process IDs this script started, and ps
#    showing none of them left (also on failure and Ctrl-C).
#
# Exits 0 only when all of that holds. Needs Java 17 or newer.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! java -version >/dev/null 2>&1; then
    echo "missing: Java 17 or newer, for Spark (Debian: apt-get install openjdk-17-jre-headless)" >&2
    exit 2
fi
URISCAN_WHEEL_PROFILE=${URISCAN_WHEEL_PROFILE:-wheel-test} scripts/python-venv.sh
cli=${URISCAN_BIN:-}
if [ -z "$cli" ]; then
    cargo build --release --quiet --bin uriscan
    cli=target/release/uriscan
fi
scripts/spark-pack-env.sh target/spark/uriscan-env.tar.gz
input=corpora/sample.txt

. scripts/spark-cluster.sh
cluster_start 2
out=$cluster_tmp/out
mkdir -p "$out"
# Small file splits and Arrow batches, so that the corpus (5,000 lines,
# 290 KB) makes several tasks per stage and several batches per task.
cluster_submit dedup 2 \
    --conf spark.sql.files.maxPartitionBytes=32k \
    --conf spark.sql.files.openCostInBytes=0 \
    --conf spark.sql.shuffle.partitions=4 \
    --conf spark.sql.execution.arrow.maxRecordsPerBatch=300 \
    examples/spark/surt_dedup.py "$input" "$out/dedup"
cluster_submit pipe 2 --files "$cli" \
    scripts/spark-cluster-job.py "$input" "$out/keys.txt" "$out/probe.jsonl"
.venv-py/bin/python scripts/spark-cluster-check.py --cli "$cli" --input "$input" --executors 2 \
    --events "$cluster_tmp/events/dedup" "$cluster_tmp/events/pipe" \
    --dedup "$out/dedup" --keys "$out/keys.txt" --probe "$out/probe.jsonl"
cluster_stop
echo "spark-cluster-test: passed"
