#!/usr/bin/env bash
# End-to-end throughput and peak memory of the uriscan CLI on a generated corpus.
#
#   scripts/bench-cli.sh            # 1 GiB corpus: check, split, normalize, dedup, extract, -j1 and -j2,
#                                   # and extract / check over the same text (issue 25)
#   scripts/bench-cli.sh --memory   # also peak RSS on 100 MiB vs 10 GiB inputs
#   BENCH_RUNS=5 scripts/bench-cli.sh   # the fastest of 5 runs per command (default 3)
#
# The corpus is generated once (deterministic, seed 7) under ${BENCH_DIR:-/tmp/uriscan-bench}
# and read from the page cache. Peak memory is the maximum resident set size that
# /usr/bin/time -v reports. Prints a Markdown table.
#
# A run is a measurement only if it succeeded: an exit status other than 0 (or 1
# for `check`, whose generated input has invalid lines), a signal included, ends
# the script with status 1 and names the command. Where one output line per
# input line is expected (split; normalize of the already normalized input) the
# output's line count must equal the input's, and check -q must write nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${BENCH_DIR:-/tmp/uriscan-bench}
size=${BENCH_SIZE:-1G}
mkdir -p "$dir"
cargo build --release --quiet --bin uriscan --example gencorpus --example kernel
bin=target/release/uriscan
gen=target/release/examples/gencorpus
kernel=target/release/examples/kernel
corpus="$dir/generated-$size.txt"
if [ ! -s "$corpus" ]; then
    echo "generating $corpus ..." >&2
    "$gen" --bytes "$size" --seed 7 > "$corpus.tmp" && mv "$corpus.tmp" "$corpus"
fi
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

# elapsed LOG, max_rss LOG: what /usr/bin/time -v wrote to LOG.
elapsed() {
    awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$1"
}
max_rss() {
    awk -F': ' '/Maximum resident set size/ {print $2}' "$1"
}

# check_status STATUS LOG CMD...: fails the script, naming the command, unless
# STATUS is 0, or 1 for `check` (which says some lines are invalid: the
# generated corpus has some). A crash (a panic is 101, a signal 128+N) or a
# usage or I/O error (2) is never a measurement.
check_status() {
    local status=$1 log=$2; shift 2
    if ! grep -q 'Command terminated by signal' "$log" \
        && { [ "$status" -eq 0 ] || { [ "$status" -eq 1 ] && [ "$1" = check ]; }; }; then
        return 0
    fi
    echo "bench-cli.sh: '$bin $*' exited with status $status:" >&2
    # Its standard error (the last lines) and time's word on how it ended,
    # without time's statistics.
    sed -n '/^\tCommand being timed:/q;p' "$log" | tail -n 20 >&2
    exit 1
}

# measure FILE EXPECT CMD ARGS...: prints "seconds max_rss_kib" of the fastest
# of BENCH_RUNS runs (default 3): on a shared machine the minimum is the
# figure that others' load disturbs least. Every run's exit status is checked
# (check_status). EXPECT, unless `-`, is the number of lines the command must
# write: the first run's output is counted (through `wc -l`), the others go to
# /dev/null. Call it as `out=$(measure ...)`, so that a failure ends the script.
measure() {
    local file=$1 expect=$2; shift 2
    cat "$file" > /dev/null   # page cache
    local log count best="" best_rss=""
    log=$(mktemp)
    count=$(mktemp)
    for run in $(seq "${BENCH_RUNS:-3}"); do
        local status=0 secs rss
        if [ "$run" = 1 ] && [ "$expect" != - ]; then
            { s=0; /usr/bin/time -v "$bin" "$@" --no-progress "$file" 2> "$log" || s=$?; echo "$s" > "$count.status"; } \
                | wc -l > "$count"
            status=$(cat "$count.status")
        else
            /usr/bin/time -v "$bin" "$@" --no-progress "$file" > /dev/null 2> "$log" || status=$?
        fi
        check_status "$status" "$log" "$@" --no-progress "$file"
        if [ "$run" = 1 ] && [ "$expect" != - ] && [ "$(cat "$count")" -ne "$expect" ]; then
            echo "bench-cli.sh: '$bin $* --no-progress $file' wrote $(cat "$count") lines, expected $expect" >&2
            exit 1
        fi
        secs=$(elapsed "$log")
        rss=$(max_rss "$log")
        if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$secs
            best_rss=$rss
        fi
    done
    rm -f "$log" "$count" "$count.status"
    echo "$best $best_rss"
}

bytes=$(stat -c %s "$corpus")
lines=$(wc -l < "$corpus")
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "corpus: $corpus ($bytes bytes, $lines lines, mean line $(( bytes / lines - 1 )) bytes)"
echo
echo "| command | threads | seconds | GB/s | M URIs/s | peak RSS (MiB) | speed-up vs -j1 |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for cmd in check split normalize dedup dedup-hash; do
    base=""
    for j in 1 2; do
        case $cmd in
            check) args=(check -q) ;;
            dedup-hash) args=(dedup --hash --invalid skip) ;;
            normalize|dedup) args=("$cmd" --invalid skip) ;;
            *) args=("$cmd") ;;
        esac
        args+=("-j$j")
        # One output line per input line: split (a JSON object each);
        # check -q writes nothing. The others drop or merge lines.
        case $cmd in
            split) expect=$lines ;;
            check) expect=0 ;;
            *) expect=- ;;
        esac
        out=$(measure "$corpus" "$expect" "${args[@]}")
        read -r secs rss <<< "$out"
        [ -z "$base" ] && base=$secs
        awk -v c="$cmd" -v j="$j" -v s="$secs" -v r="$rss" -v b="$bytes" -v l="$lines" -v base="$base" \
            'BEGIN { printf "| %s | %d | %.2f | %.2f | %.1f | %.0f | %.2fx |\n", c, j, s, b/s/1e9, l/s/1e6, r/1024, base/s }'
    done
done

# Normalize and check of an already normalized corpus: the pass-through case
# (`Normalizer::is_normal`), against check of the same input.
normal="$dir/generated-$size.normal"
if [ ! -s "$normal" ]; then
    "$bin" normalize --invalid skip --no-progress "$corpus" > "$normal.tmp" \
        || { echo "bench-cli.sh: '$bin normalize --invalid skip --no-progress $corpus' failed" >&2; exit 1; }
    mv "$normal.tmp" "$normal"
fi
nbytes=$(stat -c %s "$normal")
nlines=$(wc -l < "$normal")
echo
echo "Already normalized input ($nbytes bytes, $nlines lines):"
echo
echo "| command | threads | seconds | GB/s | M URIs/s | peak RSS (MiB) |"
echo "|---|---:|---:|---:|---:|---:|"
for cmd in check normalize; do
    for j in 1 2; do
        args=("$cmd" "-j$j")
        expect=$nlines   # every line is valid and normal: one line each
        if [ "$cmd" = check ]; then
            args+=(-q)
            expect=0
        fi
        out=$(measure "$normal" "$expect" "${args[@]}")
        read -r secs rss <<< "$out"
        awk -v c="$cmd" -v j="$j" -v s="$secs" -v r="$rss" -v b="$nbytes" -v l="$nlines" \
            'BEGIN { printf "| %s | %d | %.2f | %.2f | %.1f | %.0f |\n", c, j, s, b/s/1e9, l/s/1e6, r/1024 }'
    done
done

# Extraction: a generated access log and a generated Markdown/HTML-like text
# of the same size.
for kind in log text; do
    f="$dir/generated-$size.$kind"
    if [ ! -s "$f" ]; then
        "$gen" --bytes "$size" --seed 7 --kind "$kind" > "$f.tmp" && mv "$f.tmp" "$f"
    fi
done
echo
echo "| command | input | threads | seconds | GB/s | peak RSS (MiB) |"
echo "|---|---|---:|---:|---:|---:|"
for j in 1 2; do
    for kind in log text text-schemeless; do
        f="$dir/generated-$size.${kind%-schemeless}"
        args=(extract "-j$j")
        [ "$kind" = log ] && args+=(--log combined)
        [ "$kind" = text-schemeless ] && args+=(--schemeless)
        out=$(measure "$f" - "${args[@]}")
        read -r secs rss <<< "$out"
        awk -v c="${args[*]}" -v k="$kind" -v j="$j" -v s="$secs" -v r="$rss" -v b="$(stat -c %s "$f")" \
            'BEGIN { printf "| %s | %s | %d | %.2f | %.2f | %.0f |\n", c, k, j, s, b/s/1e9, r/1024 }'
    done
done

# The CLI against its in-memory kernel, one thread: the same job's library
# loop over the file read into memory once (examples/kernel.rs: no reading,
# chunking, statistics or writing), the fastest of BENCH_RUNS runs each; and
# each job's CLI throughput as a share of `check -q`'s on the same input.
echo
echo "One thread, the CLI against the in-memory kernel (examples/kernel.rs):"
echo
echo "| job | input | CLI seconds | kernel seconds | CLI / kernel | CLI / CLI check |"
echo "|---|---|---:|---:|---:|---:|"
check_secs=""
for job in check split normalize normalize-web normalize-surt extract extract-log; do
    f=$corpus
    case $job in
        check) args=(check -q) ;;
        split) args=(split --format tsv) ;;
        normalize) args=(normalize --invalid skip) ;;
        normalize-*) args=(normalize --invalid skip --profile "${job#normalize-}") ;;
        extract) args=(extract); f="$dir/generated-$size.text" ;;
        extract-log) args=(extract --log combined); f="$dir/generated-$size.log" ;;
    esac
    out=$(measure "$f" - "${args[@]}" -j1)
    read -r secs _ <<< "$out"
    cat "$f" > /dev/null
    read -r ksecs counted <<< "$("$kernel" "$job" "$f" "${BENCH_RUNS:-3}")" \
        || { echo "bench-cli.sh: '$kernel $job $f' failed" >&2; exit 1; }
    [ "${counted:-0}" -gt 0 ] || { echo "bench-cli.sh: '$kernel $job $f' counted nothing" >&2; exit 1; }
    # Check's own ratio is against the URI list; extraction's inputs differ.
    case $job in
        check) check_secs=$secs ;;
    esac
    awk -v j="$job" -v k="$(basename "$f")" -v s="$secs" -v ks="$ksecs" -v cs="$check_secs" \
        -v b="$(stat -c %s "$f")" -v cb="$bytes" '
        BEGIN {
            share = (cs > 0) ? sprintf("%.2f", (b / s) / (cb / cs)) : "-"
            printf "| %s | %s | %.3f | %.3f | %.2f | %s |\n", j, k, s, ks, ks / s, share
        }'
done

# Issue 25's ratio: free-text extraction against `check` over the same
# bytes (every line of a text is an invalid URI, so `check -q` classifies it
# all and stops each line at its first bad byte), one thread, on three texts
# of about the corpus's size: the generated one (three quarters of its bytes
# are URIs: there, validating the URIs found costs about what `check`'s
# pass over the whole text does), RFC 3986 as ../shared/seeds has it (a real
# text about URIs: one every 785 bytes), and the READMEs of the crates this
# project depends on (real Markdown, one URI every 300 bytes, read from
# Cargo's registry as `cargo metadata` lists them), each repeated.
echo
echo "| text | URIs found | extract -j1 GB/s | check -q -j1 GB/s | extract / check |"
echo "|---|---:|---:|---:|---:|"
# repeat_to OUT SRC: SRC's bytes repeated to the corpus's size in OUT (once).
repeat_to() {
    local out=$1 src=$2
    [ -s "$out" ] && return 0
    local want n
    want=$(stat -c %s "$corpus")
    n=$(( want / $(stat -c %s "$src") + 1 ))
    for ((i = 0; i < n; i++)); do cat "$src"; done > "$out.tmp"
    truncate -s "$want" "$out.tmp"
    mv "$out.tmp" "$out"
}
texts=("$dir/generated-$size.text")
rfc=../shared/seeds/rfc3986-full-zh.txt
if [ -s "$rfc" ]; then
    repeat_to "$dir/rfc3986-$size.text" "$rfc"
    texts+=("$dir/rfc3986-$size.text")
fi
readmes="$dir/readmes.md"
if [ ! -s "$readmes" ]; then
    cargo metadata --format-version 1 --locked 2>/dev/null | python3 -c '
import json, os, sys
for p in sorted(json.load(sys.stdin)["packages"], key=lambda p: (p["name"], p["version"])):
    if p["source"] is None:
        continue
    d = os.path.dirname(p["manifest_path"])
    for f in sorted(os.listdir(d)):
        if f.lower().startswith("readme") and f.lower().endswith(".md"):
            sys.stdout.buffer.write(open(os.path.join(d, f), "rb").read())
' > "$readmes.tmp" && mv "$readmes.tmp" "$readmes" || rm -f "$readmes.tmp"
fi
if [ -s "$readmes" ]; then
    repeat_to "$dir/readmes-$size.md" "$readmes"
    texts+=("$dir/readmes-$size.md")
fi
for text in "${texts[@]}"; do
    out=$(measure "$text" 0 check -q -j1)
    read -r text_check_secs _ <<< "$out"
    out=$(measure "$text" - extract -j1)
    read -r extract_secs _ <<< "$out"
    found=$("$bin" extract -j1 --no-progress "$text" 2>/dev/null | wc -l)
    awk -v t="$(basename "$text")" -v n="$found" -v c="$text_check_secs" -v e="$extract_secs" \
        -v b="$(stat -c %s "$text")" \
        'BEGIN { printf "| %s | %d | %.2f | %.2f | %.2f |\n", t, n, b/e/1e9, b/c/1e9, c/e }'
done

if [ "${1:-}" = "--memory" ]; then
    small="$dir/mem-100M.txt"
    big="$dir/mem-10G.txt"
    head -c $((100 << 20)) "$corpus" > "$small"
    : > "$big"
    for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$corpus" >> "$big"; done
    echo
    echo "| input | bytes | seconds | peak RSS (MiB) |"
    echo "|---|---:|---:|---:|"
    log=$(mktemp)
    for f in "$small" "$big"; do
        status=0
        /usr/bin/time -v "$bin" check -q -j2 --no-progress "$f" > /dev/null 2> "$log" || status=$?
        check_status "$status" "$log" check -q -j2 --no-progress "$f"
        secs=$(elapsed "$log")
        rss=$(max_rss "$log")
        awk -v f="$(basename "$f")" -v b="$(stat -c %s "$f")" -v s="$secs" -v r="$rss" \
            'BEGIN { printf "| %s | %.0f | %.2f | %.1f |\n", f, b, s, r/1024 }'
    done
    rm -f "$small" "$big" "$log"
fi
