#!/usr/bin/env bash
# Two builds of the CLI on the same job, timed alternately (old, new, old,
# new...) so that a shared, noisy machine disturbs both alike; the way
# docs/PERFORMANCE.md's A/B tables of session 25 were measured.
#
#   scripts/ab-cli.sh OLD NEW RUNS FILE ARGS...
#
# runs `OLD ARGS -jJ FILE` and `NEW ARGS -jJ FILE` RUNS times each, for each J
# of $JOBS (default "1 2"), standard output to /dev/null, and prints the
# minimum and the median wall time of each in ms. Before timing, each is run
# once more with its output kept: their standard outputs must be identical
# (an A/B of a speed change compares the same work), else it stops. Every
# timed run's exit status and standard error (the summary's counts) must be
# those of that first run, else it stops with status 1: a crashed or wrong
# run is never timed. Example:
#
#   scripts/ab-cli.sh /tmp/uriscan-old target/release/uriscan 30 /tmp/g64.txt check -q
set -euo pipefail
[ $# -ge 5 ] || { sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
old=$1 new=$2 runs=$3 file=$4
shift 4
for b in "$old" "$new"; do [ -x "$b" ] || { echo "ab-cli: no executable $b" >&2; exit 2; }; done
[ -r "$file" ] || { echo "ab-cli: cannot read $file" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for j in ${JOBS:-1 2}; do
    for side in old new; do
        bin=$old
        [ $side = new ] && bin=$new
        set +e
        "$bin" "$@" "-j$j" "$file" >"$tmp/$side.out" 2>"$tmp/$side.err"
        echo $? >"$tmp/$side.status"
        set -e
        : >"$tmp/$side.times"
    done
    if ! cmp -s "$tmp/old.out" "$tmp/new.out"; then
        echo "ab-cli: -j$j: the two builds write different output; not timed" >&2
        exit 1
    fi
    for _ in $(seq "$runs"); do
        for side in old new; do
            bin=$old
            [ $side = new ] && bin=$new
            start=$(date +%s%N)
            set +e
            "$bin" "$@" "-j$j" "$file" >/dev/null 2>"$tmp/run.err"
            status=$?
            set -e
            end=$(date +%s%N)
            if [ "$status" != "$(cat "$tmp/$side.status")" ] || ! cmp -s "$tmp/run.err" "$tmp/$side.err"; then
                echo "ab-cli: -j$j $side: exit status $status or standard error unlike its first run's:" >&2
                cat "$tmp/run.err" >&2
                exit 1
            fi
            echo $(((end - start) / 1000)) >>"$tmp/$side.times"
        done
    done
    for side in old new; do
        sort -n "$tmp/$side.times" | awk -v j="$j" -v s="$side" '
            { t[NR] = $1 }
            END { printf "-j%s %s: min %.1f ms, median %.1f ms (%d runs)\n", j, s, t[1] / 1000, t[int(NR / 2) + 1] / 1000, NR }'
    done
done
