# Sourced by the scripts that run the test suite under user-mode qemu
# (test-aarch64.sh, test-old-x86.sh).

# One test at a time: a test binary that forks (the CLI tests start uriscan)
# while other test threads run can hang in qemu-user, its child stuck before
# exec at 0% CPU and holding the other children's pipes (seen: a CI run hung
# in the aarch64 CLI tests, `huge_lines` waiting for an EOF that never came).
export RUST_TEST_THREADS=1
# Property tests run about 20x slower under qemu: fewer cases.
export URISCAN_PROPTEST_CASES=${URISCAN_PROPTEST_CASES:-300}

# qemu_test CMD...: runs a test command (already built), killing it after
# URISCAN_QEMU_TIMEOUT seconds (10 minutes; more for a run at a low
# priority beside other work). Should qemu hang even so, the run is tried
# once more; a test that fails fails at once.
qemu_test() {
    local status=0 limit=${URISCAN_QEMU_TIMEOUT:-600}
    timeout --kill-after=10 "$limit" "$@" || status=$?
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then
        echo "the tests hung under qemu (exit $status): once more" >&2
        timeout --kill-after=10 "$limit" "$@"
    else
        return "$status"
    fi
}
