#!/usr/bin/env bash
# The Python package's tests: makes .venv-py/ and installs the package
# (scripts/python-venv.sh; built with the wheel-test profile of Cargo.toml
# unless URISCAN_WHEEL_PROFILE says otherwise), and runs pytest on python/tests,
# comparing with the CLI at URISCAN_BIN if set (scripts/test.sh sets the one
# cargo test built), else with the release CLI, built here. Extra arguments
# go to pytest (-k, -x, ...).

set -euo pipefail
cd "$(dirname "$0")/.."
URISCAN_WHEEL_PROFILE=${URISCAN_WHEEL_PROFILE:-wheel-test} scripts/python-venv.sh
if [ -z "${URISCAN_BIN:-}" ]; then
    cargo build --release --quiet --bin uriscan
    export URISCAN_BIN="$PWD/target/release/uriscan"
fi
.venv-py/bin/python -m pytest -q python/tests "$@"
