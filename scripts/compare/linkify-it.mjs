// The URLs that linkify-it (npm) finds in a file, one per line, for
// scripts/compare-extractors.sh. Links with a scheme only (fuzzy links and
// e-mail off), as `uriscan extract` finds them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const mod = require('linkify-it');
const LinkifyIt = mod.LinkifyIt || mod.default || mod;
const linkify = new LinkifyIt({}, { fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
const text = readFileSync(process.argv[2], 'utf8');
const out = (linkify.match(text) || []).filter((m) => m.schema !== 'mailto:').map((m) => m.raw);
process.stdout.write(out.map((u) => u + '\n').join(''));
