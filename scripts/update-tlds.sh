#!/usr/bin/env bash
# Regenerates src/extract/tlds.txt, the top-level domains `uriscan extract
# --schemeless` accepts, from the Public Suffix List as Debian packages it
# (package `publicsuffix`; nothing is downloaded at run time). Keeps the ASCII
# top-level rules of the list's ICANN section.
set -euo pipefail
cd "$(dirname "$0")/.."

psl=/usr/share/publicsuffix/public_suffix_list.dat
if [ ! -r "$psl" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq publicsuffix >/dev/null
fi
version=$(dpkg-query -W -f '${Version}' publicsuffix 2>/dev/null || echo unknown)
{
    echo "# Top-level domains for \`uriscan extract --schemeless\`: the ASCII top-level"
    echo "# rules of the ICANN section of the Public Suffix List"
    echo "# (https://publicsuffix.org/list/, Debian package publicsuffix $version),"
    echo "# which is under the Mozilla Public License 2.0 (https://mozilla.org/MPL/2.0/)."
    echo "# Regenerate with scripts/update-tlds.sh."
    sed -n '/===BEGIN ICANN DOMAINS===/,/===END ICANN DOMAINS===/p' "$psl" \
        | grep -v '^//' | grep -v '^$' | grep -v '\.' | grep -v '[^a-z0-9-]' \
        | LC_ALL=C sort -u
} > src/extract/tlds.txt
echo "src/extract/tlds.txt: $(grep -vc '^#' src/extract/tlds.txt) top-level domains"
