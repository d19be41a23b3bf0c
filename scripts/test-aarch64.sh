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
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/aarch64}
cross=(env RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc cargo test --target aarch64-unknown-linux-gnu)
# Doc tests are left out under qemu: they are the API's examples, compiled
# one by one (a minute here), and run natively by scripts/test.sh; the
# library's and the integration tests are what exercise the NEON backend.
# The binary's own unit tests (argument parsing, output formats: no
# target-specific code) are left out too, unless URISCAN_AARCH64_ALL=1: the
# build without them took 328 s against 368 s (session 40, idle machine).
targets=(--lib --test tests)
if [ "${URISCAN_AARCH64_ALL:-0}" = 1 ]; then
    targets=(--lib --bins --tests)
fi
"${cross[@]}" "${targets[@]}" --no-run
# On NEON, the backend aarch64 machines run; with URISCAN_AARCH64_PORTABLE=1
# the library's tests again with each portable backend forced.
echo "== aarch64, URISCAN_BACKEND=neon"
URISCAN_BACKEND=neon qemu_test "${cross[@]}" --lib
if [ "${URISCAN_AARCH64_ALL:-0}" = 1 ]; then
    URISCAN_BACKEND=neon qemu_test "${cross[@]}" --bins --tests
else
    echo "(only the differential suite of the integration tests: URISCAN_AARCH64_ALL=1 runs them all)"
    URISCAN_BACKEND=neon qemu_test "${cross[@]}" --test tests differential
fi
if [ "${URISCAN_AARCH64_PORTABLE:-0}" != 1 ]; then
    echo "(swar and scalar under qemu skipped: portable code, tested natively; URISCAN_AARCH64_PORTABLE=1 runs them)"
    exit 0
fi
for backend in swar scalar; do
    echo "== aarch64, URISCAN_BACKEND=$backend (library tests)"
    URISCAN_BACKEND=$backend qemu_test "${cross[@]}" --lib
done
