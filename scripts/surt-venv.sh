#!/usr/bin/env bash
# Creates .venv-surt/ (git-ignored): a virtual environment with the oracles of
# the compatibility profiles: the Internet Archive's `surt` library for
# `uriscan normalize --profile surt` (scripts/surt-diff.py,
# tests/surt_oracle.rs) and Scrapy's `w3lib` (`canonicalize_url`) for
# `--profile web` (scripts/web-diff.py, tests/web_oracle.rs). surt is AGPL: it
# is run as a program and none of its code is in this repository. Every
# version is pinned (w3lib has no dependencies), so the oracles give the same
# keys on every machine. Never touches the system Python. Idempotent: an
# environment that already has the pins is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-surt
pins=(
    surt==0.3.1
    six==1.17.0
    tldextract==5.4.0
    idna==3.20
    requests==2.34.2
    requests-file==3.0.1
    filelock==4.3.1
    certifi==2026.10.19.post1
    charset-normalizer==3.5.3
    urllib3==2.8.0
    w3lib==2.5.0
)
python=${PYTHON:-python3}
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -m pip freeze 2>/dev/null | sort | diff -q - <(printf '%s\n' "${pins[@]}" | sort) >/dev/null; then
    exit 0
fi
"$python" -m venv --clear "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "${pins[@]}"
"$venv/bin/python" -c 'import surt; assert surt.surt("http://www.archive.org/goo/?a=2&b&a=1") == "org,archive)/goo?a=1&a=2&b"'
"$venv/bin/python" -c 'from w3lib.url import canonicalize_url as c; assert c("http://a/do?c=3&b=5&b=2") == "http://a/do?b=2&b=5&c=3"'
echo "surt and w3lib oracles ready: $venv ($("$venv/bin/python" --version))"
