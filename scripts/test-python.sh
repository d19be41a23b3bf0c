#!/usr/bin/env bash
# The Python package's tests: makes .venv-py/ and installs the package
# (scripts/python-venv.sh; built with the dev profile unless
# URISCAN_WHEEL_PROFILE says otherwise), and runs pytest on python/tests,
# comparing with the CLI at URISCAN_BIN if set (scripts/test.sh sets the one
# cargo test built), else with the release CLI, built here. Extra arguments
# go to pytest (-k, -x, ...).
#
# pytest-xdist runs the test files on up to 4 processes (one per core),
# each file whole on one of them (--dist loadfile: a module's Spark session
# is started once). On 2 cores the Spark tests take one and the rest the
# other: 105 s against 178 s one after the other (session 43).
set -euo pipefail
cd "$(dirname "$0")/.."
URISCAN_WHEEL_PROFILE=${URISCAN_WHEEL_PROFILE:-dev} scripts/python-venv.sh
if [ -z "${URISCAN_BIN:-}" ]; then
    cargo build --release --quiet --bin uriscan
    export URISCAN_BIN="$PWD/target/release/uriscan"
fi
workers=$(nproc 2>/dev/null || echo 1)
workers=$(( workers > 4 ? 4 : workers ))
.venv-py/bin/python -m pytest -q -n "$workers" --dist loadfile python/tests "$@"
