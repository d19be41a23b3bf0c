# A standalone Spark cluster on 127.0.0.1 for one script's lifetime, from the
# pinned PySpark in .venv-py/: sourced by scripts/spark-cluster-test.sh and
# scripts/bench-spark-cluster.sh, which call cluster_start, then submit jobs
# with cluster_submit, then cluster_stop.
#
# Every process it starts (master, workers, drivers) is recorded, and
# cluster_stop ends them with their descendants (the executors the workers
# launch and the executors' Python workers), found from ps, and then checks
# that none is left: it runs on success, on failure and on Ctrl-C (a trap on
# EXIT, INT and TERM). Logs, work and event-log directories live in one
# temporary directory, kept when something failed and removed otherwise.
#
# The caller sets `set -euo pipefail` and runs from the repository's root.

SPARK_HOME=$(.venv-py/bin/python -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
export SPARK_HOME
# Daemons, drivers and executors bind and advertise 127.0.0.1 only.
export SPARK_LOCAL_IP=127.0.0.1
# Nothing of the caller's Python environment reaches the workers (and thus
# the executors): they must import uriscan from the shipped archive only.
unset PYTHONPATH VIRTUAL_ENV PYSPARK_PYTHON PYSPARK_DRIVER_PYTHON

cluster_tmp=$(mktemp -d "${TMPDIR:-/tmp}/uriscan-spark-cluster.XXXXXX")
# No spark-defaults.conf or spark-env.sh of the machine's: an empty conf dir.
export SPARK_CONF_DIR=$cluster_tmp/conf
mkdir -p "$SPARK_CONF_DIR" "$cluster_tmp/work" "$cluster_tmp/local" "$cluster_tmp/logs"
cluster_started=()  # the PIDs of the processes this script started
cluster_failed=0

trap 'cluster_failed=1; cluster_stop; exit 130' INT
trap 'cluster_failed=1; cluster_stop; exit 143' TERM
trap 'status=$?; [ "$status" = 0 ] || cluster_failed=1; cluster_stop || status=1; exit "$status"' EXIT

# free_ports N: N TCP ports of 127.0.0.1 free now (the kernel's choice).
free_ports() {
    .venv-py/bin/python - "$1" <<'EOF'
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

# spark_daemon NAME CLASS ARGS...: starts a Spark daemon in the background,
# in the temporary directory, its output in logs/NAME.log.
spark_daemon() {
    local name=$1
    shift
    (cd "$cluster_tmp" && exec "$SPARK_HOME/bin/spark-class" "$@") >"$cluster_tmp/logs/$name.log" 2>&1 &
    cluster_started+=($!)
}

# cluster_start WORKERS: a master and WORKERS workers of one core and 1 GiB
# each; returns once the master lists them all as alive. Sets
# cluster_master (the spark:// URL).
cluster_start() {
    local workers=$1 i port ui
    read -r port ui <<<"$(free_ports 2)"
    spark_daemon master org.apache.spark.deploy.master.Master --host 127.0.0.1 --port "$port" \
        --webui-port "$ui"
    cluster_master=spark://127.0.0.1:$port
    for i in $(seq "$workers"); do
        # Executors keep their shuffle files under SPARK_LOCAL_DIRS.
        SPARK_LOCAL_DIRS=$cluster_tmp/local spark_daemon "worker$i" \
            org.apache.spark.deploy.worker.Worker --host 127.0.0.1 --cores 1 --memory 1g \
            --work-dir "$cluster_tmp/work" "$cluster_master"
    done
    # The master's JSON status lists the workers that registered.
    if ! .venv-py/bin/python - "http://127.0.0.1:$ui/json/" "$workers" "${cluster_started[@]}" <<'EOF'
import json, os, sys, time, urllib.request
url, want, pids = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
alive = 0
for _ in range(240):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            alive = json.load(r).get("aliveworkers", 0)
        if alive == want:
            sys.exit(0)
    except OSError:
        pass
    if not all(os.path.exists(f"/proc/{pid}") for pid in pids):
        sys.exit("a Spark daemon exited")
    time.sleep(0.5)
sys.exit(f"{alive} of {want} workers alive after 120 s")
EOF
    then
        cluster_logs master worker1
        return 1
    fi
    echo "Spark $(.venv-py/bin/python -c 'import pyspark; print(pyspark.__version__)'): master" \
        "$cluster_master, $workers workers of 1 core and 1 GiB (logs: $cluster_tmp/logs)" >&2
}

# cluster_submit NAME CORES ARGS...: runs spark-submit in client mode on the
# cluster with at most CORES executor cores (one executor per worker), the
# job waiting until they have all registered, with its event log in
# events/NAME/, its output in logs/NAME.log; ARGS are more spark-submit
# arguments, then the program and its arguments. Python workers on the
# executors run the environment shipped as target/spark/uriscan-env.tar.gz
# (SPARK_ENV_ARCHIVE overrides it; scripts/spark-pack-env.sh) and unpacked as
# ./environment; the driver runs .venv-py's Python. Fails, with the log's
# end, if the job does.
cluster_submit() {
    local name=$1 cores=$2 status=0
    shift 2
    mkdir -p "$cluster_tmp/events/$name"
    "$SPARK_HOME/bin/spark-submit" --master "$cluster_master" --deploy-mode client \
        --archives "${SPARK_ENV_ARCHIVE:-target/spark/uriscan-env.tar.gz}#environment" \
        --conf spark.pyspark.python=./environment/bin/python \
        --conf "spark.pyspark.driver.python=$PWD/.venv-py/bin/python" \
        --conf spark.cores.max="$cores" \
        --conf spark.executor.cores=1 \
        --conf spark.scheduler.minRegisteredResourcesRatio=1.0 \
        --conf spark.scheduler.maxRegisteredResourcesWaitingTime=120s \
        --conf spark.ui.enabled=false \
        --conf spark.ui.showConsoleProgress=false \
        --conf spark.eventLog.enabled=true \
        --conf spark.eventLog.compress=false \
        --conf spark.eventLog.rolling.enabled=false \
        --conf "spark.eventLog.dir=file://$cluster_tmp/events/$name" \
        --conf "spark.local.dir=$cluster_tmp/local" \
        "$@" >"$cluster_tmp/logs/$name.log" 2>&1 &
    cluster_started+=($!)
    # In the background and waited for, so that a signal is handled at once.
    wait $! || status=$?
    if [ "$status" != 0 ]; then
        echo "$name: spark-submit exited with status $status" >&2
        cluster_logs "$name"
        return 1
    fi
}

# cluster_logs NAME...: the end of each named log, for a failure's report.
cluster_logs() {
    local name
    for name in "$@"; do
        echo "--- the end of $cluster_tmp/logs/$name.log" >&2
        tail -n 30 "$cluster_tmp/logs/$name.log" >&2 || true
    done
}

# descendants PID...: the PIDs given and every descendant of them, from ps.
descendants() {
    ps -e -o pid=,ppid= | awk -v roots="$*" '
        BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
        { parent[$1] = $2 }
        END {
            for (grew = 1; grew;) {
                grew = 0
                for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grew = 1 }
            }
            for (p in keep) print p
        }'
}

# leftovers: the processes that still work in the temporary directory
# (every daemon, executor and Python worker of the cluster does), as ps lines.
leftovers() {
    local pid
    for pid in $(ps -e -o pid=); do
        if [[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" == "$cluster_tmp"* ]]; then
            ps -o pid=,args= -p "$pid" || true
        fi
    done
}

# cluster_stop: ends every process started (SIGTERM, then SIGKILL after 15 s)
# with its descendants, checks with ps that none is left, and removes the
# temporary directory unless something failed. Fails if a process is left.
cluster_stop() {
    trap - INT TERM EXIT
    local seen=() alive=() pid round left
    [ ${#cluster_started[@]} -gt 0 ] && seen=("${cluster_started[@]}")
    for round in $(seq 60); do
        # Descendants are looked for again each round: a process may start
        # children until it is stopped, and they outlive it.
        [ ${#seen[@]} -gt 0 ] && mapfile -t seen < <(descendants "${seen[@]}")
        alive=()
        for pid in "${seen[@]}"; do
            kill -0 "$pid" 2>/dev/null && alive+=("$pid")
        done
        [ ${#alive[@]} -eq 0 ] && break
        if [ "$round" = 1 ]; then
            kill -TERM "${alive[@]}" 2>/dev/null || true
        elif [ "$round" = 30 ]; then
            kill -KILL "${alive[@]}" 2>/dev/null || true
        fi
        sleep 0.5
    done
    left=$(leftovers)
    if [ ${#alive[@]} -gt 0 ] || [ -n "$left" ]; then
        echo "Spark processes left running: ${alive[*]}" >&2
        echo "$left" >&2
        return 1
    fi
    echo "stopped the ${#seen[@]} Spark processes started (master, workers, drivers, executors," \
        "Python workers); none is left" >&2
    if [ "$cluster_failed" = 0 ]; then
        rm -rf "$cluster_tmp"
    else
        echo "logs kept in $cluster_tmp/logs" >&2
    fi
}
