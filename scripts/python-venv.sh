#!/usr/bin/env bash
# Creates .venv-py/ (git-ignored): the virtual environment of the Python
# package (python/, docs/PYTHON.md), its tests and the Spark example, from
# pinned versions, then builds the package's wheel into target/python-wheel/
# (maturin; always, quietly, so that it follows the Rust sources) and
# installs it. The wheel is built with cargo's release profile, or with the
# profile URISCAN_WHEEL_PROFILE names: the tests (scripts/test-python.sh,
# scripts/spark-cluster-test.sh) use Cargo.toml's `wheel-test`, which builds
# in a third of the time (under 2 against 5 minutes on 2 cores), uriscan
# optimised in it. scripts/spark-pack-env.sh installs that same wheel into
# the environment it packs for Spark's executors (with venv-pack, pinned
# here).
# Never touches the system Python. Idempotent: an environment that already
# has the pins is kept.
#
# The pins install on CPython 3.11 (x86-64 and aarch64 Linux wheels).
# pyspark 4.0 needs Java 17 or newer to run, not to install.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-py
pins=(
    maturin==1.16.0
    pyarrow==21.0.0
    pytest==8.4.2
    iniconfig==2.3.1
    packaging==26.4
    pluggy==1.7.0
    Pygments==2.21.0
    polars==1.44.2
    polars-runtime-32==1.44.2
    pyspark==4.0.5
    py4j==0.10.9.9
    pandas==2.3.3
    numpy==2.3.5
    python-dateutil==4.0.0
    pytz==2026.6
    tzdata==2026.6
    venv-pack==0.2.0
)
python=${PYTHON:-python3}
# The installed packages but uriscan itself.
installed() { "$venv/bin/python" -m pip freeze --exclude uriscan 2>/dev/null | sort; }
if ! { [ -x "$venv/bin/python" ] && installed | diff -q - <(printf '%s\n' "${pins[@]}" | sort) >/dev/null; }; then
    "$python" -m venv --clear "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "${pins[@]}"
fi
# maturin is in the environment (its build backend runs `maturin` from the
# PATH), so the build needs no download. The directory holds one wheel, this
# build's.
wheels=target/python-wheel
rm -rf "$wheels"
PATH="$PWD/$venv/bin:$PATH" MATURIN_PEP517_ARGS="--profile ${URISCAN_WHEEL_PROFILE:-release}" \
    "$venv/bin/python" -m pip wheel --quiet --disable-pip-version-check --no-deps \
    --no-build-isolation --wheel-dir "$wheels" ./python
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall \
    "$wheels"/uriscan-*.whl
"$venv/bin/python" -c 'import uriscan; assert uriscan.surt("http://www.archive.org/goo/?a=2&b&a=1") == "org,archive)/goo?a=1&a=2&b"'
