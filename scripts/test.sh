#!/usr/bin/env bash
# The README's test command: every test, the compatibility oracles included.
#
# 1. scripts/surt-venv.sh makes (once) the git-ignored .venv-surt/ with the
#    pinned Python `surt` and `w3lib` libraries, the oracles of the surt and
#    web profiles;
# 2. cargo test runs the unit, property, differential, CLI and doc tests,
#    with URISCAN_SURT_ORACLE=1 so that tests/surt_oracle.rs compares every
#    key with surt.surt() and tests/web_oracle.rs with w3lib's
#    canonicalize_url() instead of skipping.
#
# Needs Rust, a C compiler and Python 3 with its venv module (Debian:
# apt-get install python3 python3-venv). Extra arguments go to cargo test.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    echo "missing: Python 3 with its venv module, for the surt oracle" \
        "(Debian: apt-get install python3 python3-venv)" >&2
    exit 2
fi
scripts/surt-venv.sh
URISCAN_SURT_ORACLE=1 cargo test "$@"
