#!/usr/bin/env bash
# CI's short fuzz run: each fuzz target for URISCAN_FUZZ_SECONDS (default 60)
# seconds, starting from the committed inputs (fuzz/corpus-min/<target>/ and
# fuzz/seeds/), with inputs of up to 128 KiB (libFuzzer's default cap is
# 4 KiB; the corpus engine's scanner window is 64 KiB, and a seed crosses it).
#
# It needs a nightly toolchain (URISCAN_FUZZ_TOOLCHAIN names another) and
# cargo-fuzz; without them it says why it skips and exits 0 (the stable test
# suite replays the committed inputs in any case: tests/fuzz_replay.rs). A
# build that fails, or a target that fails (a panic, a crash, a timeout),
# ends the script with status 1; libFuzzer saves a failing input in
# fuzz/artifacts/<target>/. New inputs go to the git-ignored
# fuzz/corpus/<target>/, never to the committed corpus (to refresh that, see
# fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${URISCAN_FUZZ_SECONDS:-60}
toolchain=${URISCAN_FUZZ_TOOLCHAIN:-nightly}
if ! cargo "+$toolchain" --version >/dev/null 2>&1; then
    echo "fuzz-ci: skipped: no $toolchain toolchain (rustup toolchain install $toolchain)"
    exit 0
fi
if ! cargo "+$toolchain" fuzz --version >/dev/null 2>&1; then
    echo "fuzz-ci: skipped: no cargo-fuzz (cargo install cargo-fuzz --locked)"
    exit 0
fi
if ! cargo "+$toolchain" fuzz build; then
    echo "fuzz-ci: the fuzz targets do not build with $toolchain" >&2
    exit 1
fi
for target in $(cargo "+$toolchain" fuzz list); do
    mkdir -p "fuzz/corpus/$target"
    echo "== fuzz $target for ${seconds} s"
    if ! cargo "+$toolchain" fuzz run "$target" "fuzz/corpus/$target" "fuzz/corpus-min/$target" \
        fuzz/seeds -- -max_len=131072 -max_total_time="$seconds" -timeout=10 \
        -print_final_stats=1; then
        echo "fuzz-ci: $target failed; its input is in fuzz/artifacts/$target/" >&2
        exit 1
    fi
done
