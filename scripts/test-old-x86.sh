#!/usr/bin/env bash
# Runs the test suite on emulated x86-64 CPUs older than this one, under
# user-mode qemu: Nehalem (SSE4.2, no AVX) and qemu64 (SSE3, no SSSE3),
# the uriscan binary's choice of backend on each, the library's tests and
# the differential suite on qemu64 (on both with URISCAN_OLD_X86_BOTH=1;
# the whole suite on Nehalem too with URISCAN_OLD_X86_ALL=1), so that
# run-time detection really chooses SSE2 and no AVX2 or AVX-512 instruction
# can hide in code that every CPU runs.
# The build is the usual one (x86-64 baseline); only the test binaries, and
# the uriscan binary, run under qemu. Installs qemu-user with apt-get when it is
# missing, printing what it runs (SKIP_INSTALL=1 to never try). See
# ../shared/aarch64.md.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v qemu-x86_64 >/dev/null; then
    if [ "${SKIP_INSTALL:-0}" = 1 ] || [ "$(id -u)" != 0 ]; then
        echo "missing: qemu-x86_64. As root: apt-get install qemu-user" >&2
        exit 2
    fi
    echo "+ apt-get update; apt-get install qemu-user"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends qemu-user >/dev/null
fi

source scripts/qemu-common.sh
source scripts/test-env.sh
# (Building the tests builds target/debug/uriscan too, for the CLI tests;
# with scripts/test.sh's features, so that after it nothing is rebuilt.)
cargo test --quiet "${test_features[@]}" --no-run
# Both CPUs get the detection check; the tests run on qemu64 only unless
# URISCAN_OLD_X86_BOTH=1: detection picks SSE2 on both, so the same code
# runs, and qemu64, which also lacks SSSE3 and SSE4, is the stricter test of
# an instruction used without detection (the tests on both took 356 s of
# CI's time at nice 10 beside other steps, session 43).
for cpu in Nehalem qemu64; do
    runner="qemu-x86_64 -cpu $cpu"
    echo "== x86-64 $cpu under qemu (at ${SECONDS} s of this script)"
    # Detection must settle on SSE2 and offer nothing the CPU lacks.
    version=$($runner "$(target_dir)/debug/uriscan" --version)
    echo "$version"
    if ! grep -q '^backend: sse2 (available: scalar, swar, sse2;' <<<"$version"; then
        echo "expected the SSE2 backend, and only scalar, swar and sse2 available" >&2
        exit 1
    fi
    if [ "$cpu" = Nehalem ] && [ "${URISCAN_OLD_X86_BOTH:-0}" != 1 ] \
        && [ "${URISCAN_OLD_X86_ALL:-0}" != 1 ]; then
        echo "(its tests left to qemu64: URISCAN_OLD_X86_BOTH=1 runs them here too)"
        continue
    fi
    export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$runner" URISCAN_TEST_RUNNER="$runner"
    # The library's tests (every backend against the scalar reference) and
    # the differential suite catch an instruction the CPU lacks; the rest of
    # the suite (the CLI's, 111 s under qemu) judges the same SSE2 code as
    # the native run with URISCAN_BACKEND=sse2, and ran under qemu on
    # Nehalem until session 22. URISCAN_OLD_X86_ALL=1 runs it on Nehalem.
    # Left out: the two slowest tests of portable code under qemu (about 23
    # of its 84 s here, session 43), which run natively with every backend.
    qemu_test cargo test --quiet "${test_features[@]}" --lib -- \
        --skip extract::tests::linear_on_hostile_text --skip grammar::host::tests::ipv4_matches_the_grammar
    qemu_test cargo test --quiet "${test_features[@]}" --test differential
    if [ "$cpu" = Nehalem ] && [ "${URISCAN_OLD_X86_ALL:-0}" = 1 ]; then
        qemu_test cargo test --quiet "${test_features[@]}" --bins --tests
    fi
done
echo "(old x86-64 done at ${SECONDS} s)"
