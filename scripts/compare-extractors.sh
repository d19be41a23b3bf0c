#!/bin/sh
# Precision and recall of uriscan extract, the linkify crate, linkify-it (npm)
# and URLExtract (PyPI) on the same generated mixed text (tests/mixed_text.rs:
# prose, Markdown, HTML, JSON, chat with CJK, code, log Referers).
#
# scripts/compare-extractors.sh [SEED] [URLS]
#
# The peers install, pinned, into git-ignored directories of the repository:
# scripts/compare/node_modules (linkify-it) and .venv-compare (urlextract). A
# peer that does not install is skipped with its reason.
set -eu
cd "$(dirname "$0")/.."
LINKIFY_IT=6.1.0
URLEXTRACT=1.9.0
out=target/compare-extractors
mkdir -p "$out"
cargo build --release --quiet --bin uriscan --example mixed_text --example linkify_extract
target/release/examples/mixed_text "$out" "${1:-42}" "${2:-4000}"
target/release/uriscan extract "$out/text.txt" >"$out/uriscan.txt" 2>/dev/null
target/release/examples/linkify_extract "$out/text.txt" >"$out/linkify.txt"
set -- "uriscan extract=$out/uriscan.txt" "linkify 0.10 (Rust)=$out/linkify.txt"
if [ -d scripts/compare/node_modules/linkify-it ] ||
    npm install --silent --no-save --prefix scripts/compare "linkify-it@$LINKIFY_IT" >/dev/null 2>&1; then
    node scripts/compare/linkify-it.mjs "$out/text.txt" >"$out/linkify-it.txt"
    set -- "$@" "linkify-it $LINKIFY_IT (npm)=$out/linkify-it.txt"
else
    echo "skipped linkify-it: npm install failed" >&2
fi
if [ -x .venv-compare/bin/python ] ||
    { python3 -m venv .venv-compare && .venv-compare/bin/pip install -q "urlextract==$URLEXTRACT"; } >/dev/null 2>&1; then
    .venv-compare/bin/python scripts/compare/run_urlextract.py "$out/text.txt" >"$out/urlextract.txt"
    set -- "$@" "URLExtract $URLEXTRACT (PyPI)=$out/urlextract.txt"
else
    echo "skipped urlextract: pip install failed" >&2
fi
python3 scripts/compare/score.py "$out/expected.txt" "$@"
