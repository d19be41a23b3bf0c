#!/usr/bin/env bash
# Scaling on a standalone Spark cluster (docs/SPARK.md, "Scaling"): the example
# job (examples/spark/surt_dedup.py) on 1 and on 2 executors of one core each,
# the same job with a free key (the URL itself, no Python worker:
# scripts/free-key-job.py, the floor of what any key function can cost) on
# 1 and on 2, and the same job with surt.surt in a pandas_udf
# (scripts/surt-udf-job.py) on 2, over the same generated input, each
# configuration ROUNDS times, in alternating orders. Not run by CI (tens of
# minutes).
#
#   scripts/bench-spark-cluster.sh [LINES [ROUNDS]]     # default 5000000 2
#
# The cluster is scripts/spark-cluster.sh's (a master and two one-core, 1 GiB
# workers on 127.0.0.1, stopped at the end). Every job runs in one packed
# environment, uriscan's plus the surt library's pins (those of
# .venv-surt/, scripts/surt-venv.sh; surt is AGPL and only run, not shipped
# with uriscan): target/spark/uriscan-surt-env.tar.gz. The input is LINES
# lines of `gencorpus --lines LINES --seed 7` (about 70 bytes each), under
# ${BENCH_DIR:-/tmp/uriscan-bench}, read in 16 MB splits (about 22 tasks at
# 5M lines, so that two executors share the work evenly); the shuffle has 8
# partitions. Prints a Markdown table (scripts/bench-spark-cluster.py): job
# time from the event log (executors already up), URLs per second per
# executor, and each executor's CPU seconds (the executor JVM and its Python
# workers, from /proc, JVM start-up included), steadier than wall time on a
# shared machine; then a summary per job and executor count (the means of CPU
# seconds per million URLs, in all and of the busiest executor) and the
# ratios between them; and the machine's cores and load average (uptime)
# before each run and at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-5000000}
rounds=${2:-2}
scripts/python-venv.sh
scripts/surt-venv.sh
cargo build --release --quiet --bin uriscan --example gencorpus
env_archive=target/spark/uriscan-surt-env.tar.gz
mapfile -t surt_pins < <(.venv-surt/bin/python -m pip freeze | grep -v '^w3lib==')
scripts/spark-pack-env.sh "$env_archive" "${surt_pins[@]}"
dir=${BENCH_DIR:-/tmp/uriscan-bench}
input=$dir/spark-$lines.txt
if [ ! -s "$input" ]; then
    mkdir -p "$dir"
    target/release/examples/gencorpus --lines "$lines" --seed 7 >"$input.tmp"
    mv "$input.tmp" "$input"
fi

. scripts/spark-cluster.sh
SPARK_ENV_ARCHIVE=$env_archive
cluster_start 2
workers=("${cluster_started[@]:1:2}")
results=$cluster_tmp/results.jsonl

# run NAME EXECUTORS PROGRAM ARGS...: one measured job.
run() {
    local name=$1 executors=$2 sampler run_name
    shift 2
    run_name=${name// /-}-$executors-$((++runs))
    echo "run $runs, $name on $executors: $(nproc) cores, $(uptime)" | tee -a "$cluster_tmp/load.txt" >&2
    .venv-py/bin/python scripts/bench-spark-cluster.py sample "$cluster_tmp/cpu.json" "${workers[@]}" &
    sampler=$!
    cluster_started+=($sampler)
    cluster_submit "$run_name" "$executors" \
        --conf spark.sql.files.maxPartitionBytes=16m \
        --conf spark.sql.shuffle.partitions=8 \
        "$@"
    kill -TERM "$sampler"
    wait "$sampler"
    .venv-py/bin/python scripts/bench-spark-cluster.py report "$name" "$lines" \
        "$cluster_tmp/events/$run_name" "$cluster_tmp/cpu.json" | tee -a "$results" >&2
}

runs=0
for round in $(seq "$rounds"); do
    # Alternating orders, so that a change in the machine's other load
    # weighs on every configuration.
    if [ $((round % 2)) = 1 ]; then
        order="1 2" jobs="uriscan free"
    else
        order="2 1" jobs="free uriscan"
    fi
    for executors in $order; do
        for job in $jobs; do
            if [ "$job" = uriscan ]; then
                run uriscan "$executors" examples/spark/surt_dedup.py --overwrite "$input" \
                    "$cluster_tmp/out/uriscan"
            else
                run "free key" "$executors" scripts/free-key-job.py "$input" "$cluster_tmp/out/free"
            fi
        done
    done
    run surt.surt 2 scripts/surt-udf-job.py "$input" "$cluster_tmp/out/surt"
done
echo "$lines lines of $input, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg):"
cat "$cluster_tmp/load.txt"
.venv-py/bin/python scripts/bench-spark-cluster.py table "$results"
.venv-py/bin/python scripts/bench-spark-cluster.py summary "$results"
