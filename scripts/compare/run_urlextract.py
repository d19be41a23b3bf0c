"""The URLs that URLExtract (PyPI) finds in a file, one per line, for
scripts/compare-extractors.sh; in order, duplicates kept."""
import sys

from urlextract import URLExtract

text = open(sys.argv[1], encoding="utf-8").read()
extractor = URLExtract()
for url in extractor.gen_urls(text):
    print(url)
