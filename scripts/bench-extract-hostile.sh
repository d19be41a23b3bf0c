#!/usr/bin/env bash
# Linear time of `uriscan extract` on hostile text: a size-doubling check.
#
#   scripts/bench-extract-hostile.sh              # 1, 2, 4 and 8 MiB of each input
#   HOSTILE_RUNS=7 scripts/bench-extract-hostile.sh   # the fastest of 7 runs (default 5)
#
# Each input is one long line of a unit repeated with no separator (the runs
# that once made extraction quadratic: closers after a URI, `<http://a `
# without its `>`, `@`, `:`, quotes, `http://` run together, ...). For each
# size the script takes the CPU time (task-clock, from `perf stat`; user +
# system from /usr/bin/time where perf is missing) of `uriscan extract -j1`
# (and `--schemeless` for the inputs that exercise it), the fastest of
# HOSTILE_RUNS runs, and prints the time and the ratio to the size before.
#
# Why 3x: linear work doubles when the input doubles (ratio 2; a little less
# at 1 MiB, where the process's start-up is part of the time), quadratic work
# quadruples (ratio 4). A bound between the two, with room for a shared
# machine's noise on top of the minimum of several runs, tells them apart:
# the script exits with status 1 if any doubling costs more than 3x. The
# library's unit test `linear_on_hostile_text` and the `extract` fuzz target
# bound the same thing exactly (bytes looked at per input byte); this is the
# end-to-end check in seconds.
#
# Beside them, the same command on as many bytes of ordinary generated text
# (scripts/bench-cli.sh's corpus, when it exists): hostile text should cost
# about what ordinary text of its size costs (informative, not checked).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${HOSTILE_RUNS:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cargo build --release --quiet --bin uriscan
bin=target/release/uriscan

# cpu_ms CMD...: the fastest of $runs runs' CPU time, in milliseconds.
cpu_ms() {
    local best="" ms
    for _ in $(seq "$runs"); do
        if command -v perf > /dev/null; then
            ms=$(perf stat -x, -e task-clock -- "$@" 2>&1 > /dev/null | awk -F, '/task-clock/ {print $1}')
        else
            ms=$(/usr/bin/time -f '%U %S' "$@" 2>&1 > /dev/null | tail -1 | awk '{print ($1 + $2) * 1000}')
        fi
        if [ -z "$best" ] || awk -v a="$ms" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$ms
        fi
    done
    echo "$best"
}

# hostile NAME HEAD UNIT SIZE: HEAD, then UNIT repeated, SIZE bytes in all.
hostile() {
    { printf '%s' "$2"; yes "$3" | tr -d '\n'; } | head -c "$4" > "$dir/$1-$4" || true
}

# name|head|unit|extra flag
inputs=(
    "closing-parens|http://a/|)|"
    "closing-brackets|http://a/|]|"
    "brackets-without-gt||<http://a |"
    "url-prefix-without-gt||<URL:http://a |"
    "at-signs|http://a/|@|"
    "colons|http://a/|:|"
    "quotes|http://a/|\"'|"
    "quoted-closers||'http://a/)|"
    "schemes-run-together||http://|"
    "dotted-words||a.|--schemeless"
    "domains-and-closers||a.com/)|--schemeless"
)
sizes=(1048576 2097152 4194304 8388608)
worst=0
failed=""
echo "| input | flags | 1 MiB (ms) | 2 MiB | 4 MiB | 8 MiB | worst doubling |"
echo "|---|---|---:|---:|---:|---:|---:|"
for spec in "${inputs[@]}"; do
    IFS='|' read -r name head unit flag <<< "$spec"
    row="| $name | ${flag:--} |"
    prev=""
    most=0
    for size in "${sizes[@]}"; do
        hostile "$name" "$head" "$unit" "$size"
        # shellcheck disable=SC2086
        ms=$(cpu_ms "$bin" extract -j1 --no-progress $flag "$dir/$name-$size")
        rm -f "$dir/$name-$size"
        if [ -n "$prev" ]; then
            ratio=$(awk -v a="$ms" -v b="$prev" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 0.001) }')
            row+=" $ms (${ratio}x) |"
            most=$(awk -v a="$ratio" -v b="$most" 'BEGIN { print (a > b ? a : b) }')
        else
            row+=" $ms |"
        fi
        prev=$ms
    done
    echo "$row ${most}x |"
    if awk -v a="$most" 'BEGIN { exit !(a > 3) }'; then
        failed+=" $name"
    fi
done
text=${BENCH_DIR:-/tmp/uriscan-bench}/generated-256M.text
if [ -s "$text" ]; then
    head -c 8388608 "$text" > "$dir/ordinary"
    echo
    echo "ordinary generated text, 8 MiB: $(cpu_ms "$bin" extract -j1 --no-progress "$dir/ordinary") ms," \
        "with --schemeless $(cpu_ms "$bin" extract -j1 --no-progress --schemeless "$dir/ordinary") ms"
fi
if [ -n "$failed" ]; then
    echo "bench-extract-hostile.sh: a doubling cost more than 3x:$failed" >&2
    exit 1
fi
