#!/usr/bin/env bash
# spark-pack-env.sh ARCHIVE [PIN...]: packs the Python environment that Spark's
# executors run uriscan in, for `spark-submit --archives ARCHIVE#environment`
# with `spark.pyspark.python=./environment/bin/python` (docs/SPARK.md).
#
# On a cluster each executor starts its own Python workers, which can import
# only what is installed on that machine or shipped with the job; a package
# with native code, as uriscan is, is shipped as a whole virtual environment
# (Spark's "Python Package Management" docs: venv-pack). The environment
# holds the uriscan wheel that scripts/python-venv.sh built and installed in
# .venv-py/ (target/python-wheel/), and what Spark's Arrow path needs on the
# executors: pyarrow, pandas, numpy and theirs, at the versions .venv-py/ has
# (its pin list), plus any PIN given (the benchmark adds surt). Not pyspark:
# the executors take it from the cluster's Spark (its python/lib/pyspark.zip).
#
# ARCHIVE ends in .tar.gz (gzip level 1: the archive is made on every run and
# copied once per executor, so speed matters more than size). The virtual
# environment it is packed from is kept beside it, ARCHIVE without .tar.gz
# plus .venv/, and made afresh only when its pins change. venv-pack keeps
# bin/python a link to the Python that made it, so every node needs that
# Python at the same path, as with any packed venv (conda-pack ships the
# interpreter too).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] && [[ "$1" == *.tar.gz ]] || { echo "usage: $0 ARCHIVE.tar.gz [PIN...]" >&2; exit 2; }
archive=$1
shift
venv=${archive%.tar.gz}.venv
wheel=(target/python-wheel/uriscan-*.whl)
[ -x .venv-py/bin/venv-pack ] && [ -f "${wheel[0]}" ] || {
    echo "no .venv-py/ with venv-pack, or no wheel in target/python-wheel/: run scripts/python-venv.sh" >&2
    exit 2
}

# The executors' pins: these packages at .venv-py's versions, then the PINs.
shared='^(numpy|pandas|pyarrow|python-dateutil|pytz|tzdata)=='
pins=($(.venv-py/bin/python -m pip freeze --exclude uriscan | grep -E "$shared") "$@")
installed() { "$venv/bin/python" -m pip freeze --exclude uriscan 2>/dev/null | sort; }
if ! { [ -x "$venv/bin/python" ] && installed | diff -q - <(printf '%s\n' "${pins[@]}" | sort) >/dev/null; }; then
    mkdir -p "$(dirname "$venv")"
    .venv-py/bin/python -m venv --clear "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "${pins[@]}"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "${wheel[0]}"
"$venv/bin/python" -c 'import uriscan; assert uriscan.surt("http://www.archive.org/goo/?a=2&b&a=1") == "org,archive)/goo?a=1&a=2&b"'
# Without the packages' own tests and pip, which the executors never run:
# half the files, so each executor unpacks, and the cluster test deletes,
# 4,000 files rather than 8,000.
.venv-py/bin/venv-pack --quiet --force --compress-level 1 --prefix "$venv" --output "$archive" \
    --exclude 'lib/python*/site-packages/*/tests/*' --exclude 'lib/python*/site-packages/pip/*' \
    --exclude 'lib/python*/site-packages/pip-*'
