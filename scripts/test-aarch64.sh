#!/usr/bin/env bash
# Builds uriscan for aarch64-unknown-linux-gnu and runs its tests under
# user-mode qemu, so that the NEON backend really executes (on a NEON-only
# CPU model, cortex-a72): the library's tests (whose SIMD tests compare the
# NEON and SWAR backends with the scalar reference on random inputs) and the
# differential suite (the peers judge what NEON parsed).
# Installs what it needs with apt-get (Debian's cross toolchain and its
# packaged Rust aarch64 standard library; see ../shared/aarch64.md), printing
# what it runs; not root, it says what is missing. SKIP_INSTALL=1 checks
# nothing (.ci/run has checked).
# URISCAN_AARCH64_ALL=1 also builds and runs the binary's unit tests and every
# integration test (the CLI's, 2 minutes under qemu, judge the library code
# the native runs judge, through a process per case);
# URISCAN_AARCH64_PORTABLE=1 also runs the library's tests with the portable
# backends (swar, scalar) forced: the same code the x86-64 runs test
# natively. .ci/run leaves both out to keep within its time budget.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(rustc-web libstd-rust-web-dev:arm64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
if [ "${SKIP_INSTALL:-0}" != 1 ] && ! dpkg -s "${packages[@]}" >/dev/null 2>&1; then
    if [ "$(id -u)" != 0 ]; then
        echo "missing: some of ${packages[*]}. As root:" \
            "dpkg --add-architecture arm64; apt-get update;" \
            "apt-get install --no-install-recommends ${packages[*]}" >&2
        exit 2
    fi
    echo "+ dpkg --add-architecture arm64; apt-get update; apt-get install ${packages[*]}"
    dpkg --add-architecture arm64
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${packages[@]}" >/dev/null
fi

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L / -cpu cortex-a72"
# The CLI tests start the uriscan binary themselves: through qemu too.
export URISCAN_TEST_RUNNER="$CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER"
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
source scripts/qemu-common.sh
# RUSTC only for this build (a separate target dir keeps host builds intact).
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}/aarch64
# Doc tests are left out under qemu: they are the API's examples, compiled
# one by one (a minute here), and run natively by scripts/test.sh; the
# library's tests and the differential suite are what exercise the NEON
# backend. The command-line tool and its tests (argument parsing, output
# formats: no target-specific code; the library code they reach is the
# library's tests') are left out too, unless URISCAN_AARCH64_ALL=1: without
# the `cli` feature the build compiles neither the binary nor clap, and
# without the `tests` crate none of the CLI's tests. The dev-dependencies
# that no test run here then executes (criterion and its clap: the
# benches'; regex: the oracles of the tests crate) are built unoptimised,
# so that the library's tests, which wait for every dev-dependency, start
# sooner. Session 43, one build each on an idle machine: 386 s with the CLI
# and the tests crate, 306 s without them, 249 s with these crates at
# opt-level 0 too.
opt0=()
if [ "${URISCAN_AARCH64_ALL:-0}" = 1 ]; then
    features=()
    targets=(--lib --bins --tests)
else
    features=(--no-default-features)
    targets=(--lib --test differential)
    for crate in criterion clap clap_builder regex regex-automata regex-syntax aho-corasick; do
        opt0+=(--config "profile.test.package.$crate.opt-level=0")
    done
fi
cross=(env RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc cargo test "${opt0[@]}"
    --target aarch64-unknown-linux-gnu "${features[@]}")
# URISCAN_AARCH64_CLIPPY=1 first lints the library for the target: native
# clippy never sees its cfg(target_arch = "aarch64") code, all of which is
# in the library (src/simd/), which needs none of the CLI's dependencies.
# URISCAN_BUILD_NICE=N builds (and lints) at that niceness, so that a run
# beside other work (.ci/run's) takes only the cores the other work leaves
# idle; the tests under qemu run at the usual priority, since a starved run
# would meet qemu_test's time limit.
nice=(nice -n "${URISCAN_BUILD_NICE:-0}")
if [ "${URISCAN_AARCH64_CLIPPY:-0}" = 1 ]; then
    echo "== aarch64 clippy (at ${SECONDS} s of this script)"
    "${nice[@]}" env RUSTC=/usr/bin/rustc /usr/bin/cargo-clippy clippy \
        --target aarch64-unknown-linux-gnu --lib --no-default-features -- -D warnings
fi
echo "== aarch64 build (at ${SECONDS} s)"
"${nice[@]}" "${cross[@]}" "${targets[@]}" --no-run
# On NEON, the backend aarch64 machines run; with URISCAN_AARCH64_PORTABLE=1
# the library's tests again with each portable backend forced.
echo "== aarch64, URISCAN_BACKEND=neon (at ${SECONDS} s)"
# The library's tests start no process (qemu-common.sh's hang is a fork's):
# two at a time, on both cores when this is all that runs.
URISCAN_BACKEND=neon RUST_TEST_THREADS=2 qemu_test "${cross[@]}" --lib
if [ "${URISCAN_AARCH64_ALL:-0}" = 1 ]; then
    URISCAN_BACKEND=neon qemu_test "${cross[@]}" --bins --tests
else
    echo "(only the differential suite of the integration tests: URISCAN_AARCH64_ALL=1 runs them all)"
    URISCAN_BACKEND=neon qemu_test "${cross[@]}" --test differential
fi
if [ "${URISCAN_AARCH64_PORTABLE:-0}" != 1 ]; then
    echo "(swar and scalar under qemu skipped: portable code, tested natively; URISCAN_AARCH64_PORTABLE=1 runs them)"
    echo "(aarch64 done at ${SECONDS} s)"
    exit 0
fi
for backend in swar scalar; do
    echo "== aarch64, URISCAN_BACKEND=$backend (library tests)"
    URISCAN_BACKEND=$backend qemu_test "${cross[@]}" --lib
done
