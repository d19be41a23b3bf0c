#!/usr/bin/env bash
# The README's test command: every test, the compatibility oracles, the
# Python package and Spark included.
#
# 1. scripts/surt-venv.sh makes (once) the git-ignored .venv-surt/ with the
#    pinned Python `surt` and `w3lib` libraries, the oracles of the surt and
#    web profiles;
# 2. cargo test runs the unit, property, differential, CLI and doc tests,
#    with the optional serde feature's, and with URISCAN_SURT_ORACLE=1 so
#    that tests/surt_oracle.rs compares every key with surt.surt() and
#    tests/web_oracle.rs with w3lib's canonicalize_url() instead of skipping;
# 3. scripts/test-python.sh makes the git-ignored .venv-py/ (pinned pyarrow,
#    polars, pyspark, pytest...), builds and installs the Python package
#    (python/) into it, and runs pytest on python/tests: the package against
#    the CLI that cargo test built (the test profile: optimised, no LTO),
#    and the Spark helpers and example job in local mode, which need Java 17
#    or newer (Debian: apt-get install openjdk-17-jre-headless).
#
# Needs Rust, a C compiler, Python 3.9 or newer with its venv module
# (Debian: apt-get install python3 python3-venv) and Java 17 or newer.
# Extra arguments go to cargo test.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
source scripts/test-env.sh
if ! "$python" -c 'import sys, venv, ensurepip; assert sys.version_info >= (3, 9)' 2>/dev/null; then
    echo "missing: Python 3.9 or newer with its venv module, for the oracles and" \
        "the Python package (Debian: apt-get install python3 python3-venv)" >&2
    exit 2
fi
if ! java -version >/dev/null 2>&1; then
    echo "missing: Java 17 or newer, for the Spark tests" \
        "(Debian: apt-get install openjdk-17-jre-headless)" >&2
    exit 2
fi
scripts/surt-venv.sh
URISCAN_SURT_ORACLE=1 cargo test "${test_features[@]}" "$@"
# The CLI the tests above ran (a no-op build), for the Python tests.
cargo build --quiet --profile test "${test_features[@]}" --bin uriscan
URISCAN_BIN="$(target_dir)/debug/uriscan" scripts/test-python.sh
