#!/usr/bin/env bash
# dedup at scale: the acceptance check of `--memory` and the benchmark
# against sort (issue 26, part 3).
#
#   scripts/bench-dedup.sh          # check, then the table
#   BENCH_RUNS=5 scripts/bench-dedup.sh
#
# 1. Acceptance (exit 1 when it fails): on 3M distinct URLs (the first 3M lines
#    of the generated corpus, each made distinct by a `/uN` suffix, invalid
#    lines passed through as keys), `dedup --memory 64M` writes exactly what
#    in-memory `dedup` writes, at -j1 and at -j2, with a peak RSS under 200 MB.
# 2. Benchmark, on 8M lines holding 1M distinct lines (each of 1M distinct
#    generated URLs 8 times, in a scrambled order): dedup in memory, --hash,
#    --memory 64M, against `LC_ALL=C sort -u` and `LC_ALL=C sort | uniq -c`.
#    Seconds are the fastest of BENCH_RUNS (default 3) wall-clock runs, read
#    from the page cache; peak RSS from /usr/bin/time -v. sort dedups the raw
#    lines and dedup the normalized keys, so the outputs differ a little; the
#    work (find every distinct line, keep the first or count them) is the same.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${BENCH_DIR:-/tmp/uriscan-bench}
mkdir -p "$dir"
cargo build --release --quiet --bin uriscan --example gencorpus
bin=$PWD/target/release/uriscan
corpus="$dir/generated-256M.txt"
if [ ! -s "$corpus" ]; then
    target/release/examples/gencorpus --bytes 256M --seed 7 > "$corpus.tmp" && mv "$corpus.tmp" "$corpus"
fi
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

distinct="$dir/dedup-3M-distinct.txt"
[ -s "$distinct" ] || head -n 3000000 "$corpus" | awk '{ print $0 "/u" NR }' > "$distinct"
repeated="$dir/dedup-8M-1M.txt"
[ -s "$repeated" ] || head -n 1000000 "$corpus" \
    | awk '{ l[NR - 1] = $0 "/u" NR } END { for (i = 0; i < 8000000; i++) print l[i * 7919 % 1000000] }' > "$repeated"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run LOG CMD...: runs CMD (output to $tmp/out) under /usr/bin/time -v into
# LOG; fails the script, naming it, unless it exits 0.
run() {
    local log=$1; shift
    if ! /usr/bin/time -v "$@" > "$tmp/out" 2> "$log"; then
        echo "bench-dedup.sh: '$*' failed:" >&2
        tail -n 30 "$log" >&2
        exit 1
    fi
}
secs() { awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$1"; }
rss_kib() { awk -F': ' '/Maximum resident set size/ {print $2}' "$1"; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo
echo "## Acceptance: $distinct ($(wc -l < "$distinct") lines, $(stat -c %s "$distinct") bytes)"
run "$tmp/log" "$bin" dedup --invalid pass --no-progress -j2 "$distinct"
mv "$tmp/out" "$tmp/in-memory"
echo "in memory, -j2: $(secs "$tmp/log") s, peak RSS $(( $(rss_kib "$tmp/log") / 1024 )) MiB, $(wc -l < "$tmp/in-memory") lines out"
[ "$(wc -l < "$tmp/in-memory")" -eq 3000000 ] || { echo "bench-dedup.sh: expected 3000000 distinct lines" >&2; exit 1; }
for j in 1 2; do
    run "$tmp/log" "$bin" dedup --memory 64M --temp-dir "$tmp" --invalid pass --no-progress "-j$j" "$distinct"
    rss=$(rss_kib "$tmp/log")
    echo "--memory 64M, -j$j: $(secs "$tmp/log") s, peak RSS $(( rss / 1024 )) MiB"
    cmp -s "$tmp/out" "$tmp/in-memory" \
        || { echo "bench-dedup.sh: --memory 64M -j$j writes other bytes than in-memory dedup" >&2; exit 1; }
    [ "$rss" -lt $(( 200 * 1000 )) ] \
        || { echo "bench-dedup.sh: --memory 64M -j$j peaked at $rss KiB, over 200 MB" >&2; exit 1; }
done
echo "same output: yes; RSS under 200 MB: yes"

bytes=$(stat -c %s "$repeated")
lines=$(wc -l < "$repeated")
echo
echo "## Against sort: $repeated ($lines lines, 1000000 distinct, $bytes bytes)"
echo
echo "| command | seconds | GB/s | M lines/s | peak RSS (MiB) |"
echo "|---|---:|---:|---:|---:|"
cat "$repeated" > /dev/null
bench() {
    local name=$1; shift
    local best="" best_rss=""
    for _ in $(seq "${BENCH_RUNS:-3}"); do
        run "$tmp/log" "$@"
        local s; s=$(secs "$tmp/log")
        if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$s; best_rss=$(rss_kib "$tmp/log")
        fi
    done
    awk -v n="$name" -v s="$best" -v r="$best_rss" -v b="$bytes" -v l="$lines" \
        'BEGIN { printf "| `%s` | %.2f | %.2f | %.1f | %.0f |\n", n, s, b/s/1e9, l/s/1e6, r/1024 }'
}
bench "uriscan dedup -j1" "$bin" dedup --invalid pass --no-progress -j1 "$repeated"
bench "uriscan dedup -j2" "$bin" dedup --invalid pass --no-progress -j2 "$repeated"
bench "uriscan dedup --hash -j2" "$bin" dedup --hash --invalid pass --no-progress -j2 "$repeated"
bench "uriscan dedup --count -j2" "$bin" dedup --count --invalid pass --no-progress -j2 "$repeated"
bench "uriscan dedup --memory 64M -j2" "$bin" dedup --memory 64M --temp-dir "$tmp" --invalid pass --no-progress -j2 "$repeated"
bench "uriscan dedup --memory 64M --count -j2" "$bin" dedup --memory 64M --temp-dir "$tmp" --count --invalid pass --no-progress -j2 "$repeated"
bench "LC_ALL=C sort -u" env LC_ALL=C sort -u -T "$tmp" "$repeated"
bench "LC_ALL=C sort | uniq -c" sh -c 'LC_ALL=C sort -T "$1" "$2" | LC_ALL=C uniq -c' sh "$tmp" "$repeated"
bench "LC_ALL=C sort -u -S 64M" env LC_ALL=C sort -u -S 64M -T "$tmp" "$repeated"
