#!/usr/bin/env bash
# Mutation testing (docs/MUTANTS.md): cargo-mutants changes the library's
# code one small edit at a time (a `<` made `<=`, a function body replaced
# by a default value...) and reports each mutant that the tests do not
# catch ("missed"): a change of behaviour no test notices.
#
#   scripts/mutants.sh                   the library files (src/, not src/bin/) this
#                                        branch changed since it left origin/main (main
#                                        without a remote), committed or not
#   scripts/mutants.sh --base REF        ... changed relative to REF
#   scripts/mutants.sh --lines [--base REF]
#                                        only the lines changed (cargo-mutants --in-diff)
#   scripts/mutants.sh FILE...           those files
#   scripts/mutants.sh --all             the library's core modules: src/classes.rs,
#                                        src/grammar/, src/simd/scalar.rs, src/stage2/,
#                                        src/uri/, src/normalize/, src/extract/
#   ... -- ARGS                          ARGS go to cargo mutants: `-- --list` lists the
#                                        mutants without testing them, `-- --in-place`
#                                        mutates this tree (no copy, no rebuild of the
#                                        dependencies; do not edit it meanwhile)
#
# A mutant's build is stopped after MUTANTS_BUILD_TIMEOUT seconds (default
# 900, some ten times the slowest stage-2 mutants' 65 to 153 s) and counts
# as a timeout, unless ARGS give --build-timeout or
# --build-timeout-multiplier themselves. So do not pause a run (SIGSTOP):
# the build under way when it resumes would count as a timeout.
#
# Each mutant is built and tested with the fast suites (.cargo/mutants.toml:
# `--lib --test tests --test differential`, the oracles skipped, no property test shrinking), one
# at a time (MUTANTS_JOBS, default 1) under `nice -n 19`. A mutant costs an
# incremental build and a test run, 11 to 16 s on a shared 2-core machine
# (docs/MUTANTS.md), which is why this is a developer's script and not a step
# of .ci/run: the core modules have 3,997 mutants (cargo-mutants 27.1.0), some
# 11 to 16 hours at that rate. Run it on what a change touches, before
# sending the change.
#
# The tree is copied to a temporary directory for the run (unless
# `-- --in-place`), and built with CARGO_TARGET_DIR=target/mutants (kept, so
# only the first run builds the dependencies), unless CARGO_TARGET_DIR says
# otherwise. Results go to target/mutants-out/mutants.out/ (missed.txt,
# caught.txt, timeout.txt, unviable.txt, outcomes.json, a log per mutant).
#
# It installs nothing: without cargo-mutants it prints the command that
# installs the pinned version and exits 2. Exit status: cargo-mutants' own (0
# every mutant caught or unviable, 2 some missed, 3 some timed out, 4 the
# tests fail without any mutation, 1 a usage error); 0 with nothing to test.
set -euo pipefail
cd "$(dirname "$0")/.."
version=27.1.0
core=(src/classes.rs 'src/grammar/**' src/simd/scalar.rs 'src/stage2/**' 'src/uri/**'
    'src/normalize/**' 'src/extract/**')

if ! cargo mutants --version >/dev/null 2>&1; then
    echo "missing: cargo-mutants. Install it with:" >&2
    echo "  cargo install --locked cargo-mutants@$version" >&2
    exit 2
fi

base=
all=0
lines=0
files=()
while [ $# -gt 0 ]; do
    case $1 in
        --all) all=1 ;;
        --lines) lines=1 ;;
        --base)
            [ $# -ge 2 ] || { echo "mutants.sh: --base needs a git revision" >&2; exit 1; }
            base=$2
            shift
            ;;
        --) shift; break ;;
        -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "mutants.sh: unknown option $1 (--help)" >&2; exit 1 ;;
        *) files+=("$1") ;;
    esac
    shift
done
extra=("$@")

args=()
if [ "$all" = 1 ]; then
    for f in "${core[@]}"; do args+=(--file "$f"); done
    echo "mutants.sh: the core modules: ${core[*]}"
elif [ ${#files[@]} -gt 0 ]; then
    for f in "${files[@]}"; do
        [ -f "$f" ] || { echo "mutants.sh: no file $f" >&2; exit 1; }
        args+=(--file "$f")
    done
else
    if [ -z "$base" ]; then
        if git rev-parse --verify -q origin/main >/dev/null; then base=origin/main; else base=main; fi
    fi
    git rev-parse --verify -q "$base^{commit}" >/dev/null \
        || { echo "mutants.sh: no git revision $base" >&2; exit 1; }
    # What this branch changed since it left BASE, committed or not (not
    # what BASE gained since).
    fork=$(git merge-base "$base" HEAD)
    mapfile -t changed < <(git diff --name-only "$fork" -- src/ ':!src/bin/' | grep '\.rs$' || true)
    present=()
    for f in "${changed[@]}"; do [ -f "$f" ] && present+=("$f"); done
    if [ ${#present[@]} -eq 0 ]; then
        echo "mutants.sh: no library file changed relative to $base: nothing to test"
        exit 0
    fi
    echo "mutants.sh: changed relative to $base: ${present[*]}"
    if [ "$lines" = 1 ]; then
        mkdir -p target
        git diff "$fork" -- "${present[@]}" >target/mutants.diff
        args+=(--in-diff target/mutants.diff)
    else
        for f in "${present[@]}"; do args+=(--file "$f"); done
    fi
fi

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target/mutants}
# A property test that fails on a mutant neither shrinks its input (time
# spent on a failure already counted) nor saves it to proptest-regressions/.
export PROPTEST_MAX_SHRINK_ITERS=0 PROPTEST_DISABLE_FAILURE_PERSISTENCE=1
out=target/mutants-out
# The per-mutant suite skips the one test that takes most of its time
# (docs/MUTANTS.md, "Cost"): cli::dedup::memory_bound_gives_the_in_memory_output,
# some 35 of the 46 s the `tests` binary takes on one thread. It compares
# dedup's bounded-memory output with its in-memory output, both computed by
# the same (mutated) library, so a mutant of the core can fail it only by
# a crash; a missed mutant is re-tested with the whole suite,
# MUTANTS_SUITE=full, before it is called missed.
skip=(--cargo-test-arg=-- --cargo-test-arg=--skip
    --cargo-test-arg=cli::dedup::memory_bound_gives_the_in_memory_output)
[ "${MUTANTS_SUITE:-}" = full ] && skip=()
# The library is built without debug information (the dependencies keep
# the test profile's, so none is rebuilt): 2 s of CPU less a build, about
# a quarter (docs/MUTANTS.md, "Cost"). opt-level stays at the test
# profile's 2: 1 saved less on the build than it cost the tests.
skip+=(--cargo-arg=--config=profile.test.package.uriscan.debug=0)
# --in-place runs one mutant at a time, and refuses --jobs.
jobs=(--jobs "${MUTANTS_JOBS:-1}")
build_timeout=(--build-timeout "${MUTANTS_BUILD_TIMEOUT:-900}")
for a in "${extra[@]}"; do
    case $a in
        --in-place) jobs=() ;;
        --build-timeout | --build-timeout=* | --build-timeout-multiplier*) build_timeout=() ;;
    esac
done
set +e
nice -n 19 cargo mutants "${jobs[@]}" "${build_timeout[@]}" "${skip[@]}" --output "$out" "${args[@]}" "${extra[@]}"
status=$?
set -e
echo "mutants.sh: cargo mutants exited with status $status; results in $out/mutants.out/"
if [ -s "$out/mutants.out/missed.txt" ]; then
    echo "mutants.sh: missed (a test to add, or an equivalent mutant for docs/MUTANTS.md):"
    cat "$out/mutants.out/missed.txt"
fi
exit "$status"
