#!/usr/bin/env python3
"""The measuring parts of scripts/bench-spark-cluster.sh.

    bench-spark-cluster.py sample OUT PID...
        until SIGTERM, the CPU time of each PID's descendants (a standalone
        worker's: the executor JVM it launches and that executor's Python
        workers), every 0.5 s from /proc; then writes the samples to OUT,
        as JSON: [[time, [CPU seconds of each PID]], ...]
    bench-spark-cluster.py report NAME LINES EVENTS_DIR CPU_JSON
        the run's result as a JSON line: its job time from its event log,
        the CPU seconds each executor used meanwhile, and the shuffle's
        records and bytes written and bytes read from another host
    bench-spark-cluster.py table RESULTS
        the Markdown table of the results
    bench-spark-cluster.py summary RESULTS
        per job and executor count, the means of the CPU seconds per million
        URLs, of all executors and of the busiest one, and the shuffle's MB
        written and MB read remotely; then the ratios: each
        job's CPU time in all over the free-key job's on as many executors
        (surt.surt's over the free key's is the most that any key function
        can gain over surt.surt in this job), and each job's busiest
        executor on 1 over on 2 (its scaling, were each executor given a
        core of its own)

CPU time of a process tree: the user and system time of each live
descendant plus what it counted of the children it reaped, and the root's
reaped children, so that a process that ends and is reaped stays counted.
The worker's own time is left out.

The job time is from the first job's start to the last job's end in the
event log (wall clock, as the samples' times): the executors are up by then
(the job waits for them), so JVM start-up is excluded, from the time and
from the CPU seconds (those of the samples just before the start and just
after the end), and the figures compare 1 and 2 executors fairly.
"""

import collections
import glob
import json
import os
import signal
import sys
import time


def proc_table():
    """{pid: (parent, own ticks, reaped children's ticks)} from /proc."""
    procs = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        ticks = [int(t) for t in fields[11:15]]
        procs[int(pid)] = (int(fields[1]), ticks[0] + ticks[1], ticks[2] + ticks[3])
    return procs


def tree_seconds(procs, root):
    """CPU seconds of root's descendants (see the module's doc)."""
    ticks = procs.get(root, (0, 0, 0))[2]
    todo = [child for child, (parent, _, _) in procs.items() if parent == root]
    while todo:
        pid = todo.pop()
        ticks += procs[pid][1] + procs[pid][2]
        todo.extend(child for child, (parent, _, _) in procs.items() if parent == pid)
    return ticks / os.sysconf("SC_CLK_TCK")


def sample(out, pids):
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    samples = []
    while not stop:
        procs = proc_table()
        samples.append((time.time(), [tree_seconds(procs, pid) for pid in pids]))
        time.sleep(0.5)
    with open(out, "w") as f:
        json.dump(samples, f)


def events(events_dir):
    (log,) = glob.glob(os.path.join(events_dir, "*"))
    with open(log, encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def report(name, lines, events_dir, cpu_json):
    starts, ends = [], []
    tasks = collections.Counter()
    shuffle = collections.Counter()
    for event in events(events_dir):
        if event["Event"] == "SparkListenerJobStart":
            starts.append(event["Submission Time"])
        elif event["Event"] == "SparkListenerJobEnd":
            ends.append(event["Completion Time"])
        elif event["Event"] == "SparkListenerTaskEnd":
            tasks[event["Task Info"]["Executor ID"]] += 1
            metrics = event.get("Task Metrics") or {}
            written = metrics.get("Shuffle Write Metrics", {})
            shuffle["records"] += written.get("Shuffle Records Written", 0)
            shuffle["bytes"] += written.get("Shuffle Bytes Written", 0)
            shuffle["remote bytes"] += metrics.get("Shuffle Read Metrics", {}).get(
                "Remote Bytes Read", 0)
    start, end = min(starts) / 1000, max(ends) / 1000
    with open(cpu_json) as f:
        samples = json.load(f)
    before = [cpu for t, cpu in samples if t <= start][-1]
    # The most within a second after the end: a Python worker whose parent
    # ended first leaves the tree (and its CPU time with it).
    after = [max(column) for column in zip(*(cpu for t, cpu in samples if start <= t <= end + 1))]
    # The workers whose executor ran tasks (in a 1-executor run, one is idle).
    used = sorted(a - b for a, b in zip(after, before) if a - b > 0.5)
    print(json.dumps({"name": name, "lines": lines, "executors": len(tasks),
                      "tasks": dict(tasks), "seconds": end - start, "cpu": used,
                      "shuffle": dict(shuffle)}))


def table(results):
    with open(results) as f:
        runs = [json.loads(line) for line in f]
    print("| run | job | executors | job s | k URLs/s per executor | CPU s per executor "
          "| k URLs per CPU s |")
    print("|---:|---|---:|---:|---:|---|---:|")
    for n, r in enumerate(runs, 1):
        per_executor = r["lines"] / r["seconds"] / r["executors"] / 1e3
        cpu = " + ".join(f"{c:.1f}" for c in r["cpu"])
        print(f"| {n} | {r['name']} | {r['executors']} | {r['seconds']:.1f} | {per_executor:.0f} "
              f"| {cpu} | {r['lines'] / sum(r['cpu']) / 1e3:.0f} |")


def summary(results):
    with open(results) as f:
        runs = [json.loads(line) for line in f]
    groups = collections.defaultdict(list)
    for r in runs:
        groups[r["name"], r["executors"]].append(r)

    def mean(values):
        return sum(values) / len(values)

    total = {k: mean([sum(r["cpu"]) / r["lines"] * 1e6 for r in g]) for k, g in groups.items()}
    busiest = {k: mean([max(r["cpu"]) / r["lines"] * 1e6 for r in g]) for k, g in groups.items()}
    print("| job | executors | runs | CPU s per M URLs, in all | busiest executor "
          "| shuffle M records | shuffle MB | MB read remotely |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for k, g in groups.items():
        # Runs before the shuffle was recorded have none.
        shuffle = {m: mean([r.get("shuffle", {}).get(m, 0) for r in g]) / 1e6
                   for m in ("records", "bytes", "remote bytes")}
        print(f"| {k[0]} | {k[1]} | {len(g)} | {total[k]:.1f} | {busiest[k]:.1f} "
              f"| {shuffle['records']:.2f} | {shuffle['bytes']:.0f} "
              f"| {shuffle['remote bytes']:.0f} |")
    print()
    for (name, executors), cpu in total.items():
        free = total.get(("free key", executors))
        if free and name != "free key":
            plural = "" if executors == 1 else "s"
            print(f"{name} over free key, {executors} executor{plural}, CPU in all: "
                  f"{cpu / free:.2f}x")
    for name in sorted({name for name, _ in groups}):
        if (name, 1) in busiest and (name, 2) in busiest:
            print(f"{name}, busiest executor, 1 over 2 executors: "
                  f"{busiest[name, 1] / busiest[name, 2]:.2f}x")
    if ("surt.surt", 2) in total and ("uriscan", 2) in total:
        print(f"surt.surt over uriscan, 2 executors, CPU in all: "
              f"{total['surt.surt', 2] / total['uriscan', 2]:.2f}x")


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "sample":
        sample(args[0], [int(pid) for pid in args[1:]])
    elif command == "report":
        report(args[0], int(args[1]), args[2], args[3])
    elif command == "table":
        table(args[0])
    elif command == "summary":
        summary(args[0])
    else:
        sys.exit(f"unknown command {command}: sample, report, table or summary")


if __name__ == "__main__":
    main()
