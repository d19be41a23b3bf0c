#!/usr/bin/env bash
# The Python package's tests: makes .venv-py/ and installs the package
# (scripts/python-venv.sh), builds the CLI the tests compare with, and
# runs pytest on python/tests. Extra arguments go to pytest (-k, -x, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/python-venv.sh
cargo build --release --quiet --bin uriscan
URISCAN_BIN="$PWD/target/release/uriscan" .venv-py/bin/python -m pytest -q python/tests "$@"
