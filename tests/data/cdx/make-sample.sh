#!/usr/bin/env bash
# Makes tests/data/cdx/sample.cdx, the test input of examples/spark/cdx_verify.py
# (python/tests/test_spark.py): 400 records in Common Crawl's CDX form,
# `urlkey timestamp {json}`, sorted as CDX files are, for the first 400
# http and https URLs of corpora/sample.txt (a crawl's URLs are absolute),
# each urlkey made by the CLI
# (`uriscan normalize --profile surt --invalid key --with-original`), then
# three keys altered by hand below, as a faulty indexer could have made them.
# The JSON's other fields are made up in CDX's form. Deterministic.
#
#   cargo build --release --bin uriscan && tests/data/cdx/make-sample.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
grep -m 400 -E '^https?://' corpora/sample.txt |
    target/release/uriscan normalize --profile surt --invalid key --with-original --no-progress -j1 |
    python3 -c '
import hashlib, json, sys
# The altered records: line (1-based, in the input) -> its wrong urlkey.
ALTERED = {7: "www.", 150: "case", 333: "query"}
records = []
for n, line in enumerate(sys.stdin, 1):
    key, url = line.rstrip("\n").split("\t", 1)
    how = ALTERED.get(n)
    if how == "www.":      # the host not reversed past www
        key = key.replace(")", ",www)", 1)
    elif how == "case":    # the path not lowercased
        key = key.upper()
    elif how == "query":   # a parameter the URL does not have
        key = key + "&z=1"
    digest = hashlib.sha1(url.encode()).hexdigest().upper()[:32]
    record = {"url": url, "mime": "text/html", "status": "200", "digest": "sha1:" + digest,
              "length": str(1000 + 7 * n), "offset": str(5000 * n),
              "filename": "crawl-data/CC-MAIN-2024-10/segments/1707947473347.0/warc/"
                          "CC-MAIN-20240220211055-20240221001055-00000.warc.gz"}
    timestamp = f"20240221{n // 3600:02d}{n // 60 % 60:02d}{n % 60:02d}"
    records.append((key, timestamp, json.dumps(record)))
for key, timestamp, record in sorted(records):
    print(key, timestamp, record)
' >tests/data/cdx/sample.cdx
