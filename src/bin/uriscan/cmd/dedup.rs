//! `dedup`: the first line of each normalized key, in input order. Chunks
//! compute their keys in parallel; the keys are offered to the key store in
//! input order ([`Unique`]). With `--memory`, the keys beyond it are
//! deduplicated in temporary files at the end of the input (`seen::spill`)
//! and their lines printed then, in input order: the output is the one
//! without `--memory`, byte for byte.

use std::sync::Mutex;

use uriscan::batch::Chunk;
use uriscan::{surt_key, Mode, Normalizer};

use super::{Command, Common, OutputError, Part};
use crate::cli::{DedupArgs, DedupPrint, InvalidPolicy};
use crate::output::{self, count};
use crate::seen::{Keys, Limits, Unique};
use crate::stats::Stats;

pub struct Dedup {
    common: Common,
    mode: Mode,
    normalizer: Normalizer,
    invalid: InvalidPolicy,
    /// `--strict`: exit 1 on invalid lines.
    strict: bool,
    print: DedupPrint,
    /// `--count`: counts at the end instead of lines as they come.
    count: bool,
    /// `--hash`: digests only.
    hash: bool,
    /// `--memory` and `--temp-dir`.
    limits: Option<Limits>,
    /// The buffers of chunks already consumed, for the next chunks: a new
    /// buffer of a few MiB is fresh memory, whose every page costs a fault
    /// and the kernel's zeroing.
    spare: Mutex<Vec<Keys>>,
}

impl Dedup {
    pub fn new(a: DedupArgs) -> anyhow::Result<Dedup> {
        if a.invalid.invalid == InvalidPolicy::Key && a.key.profile != crate::cli::ProfileArg::Surt {
            anyhow::bail!("--invalid key needs --profile surt");
        }
        Ok(Dedup {
            common: Common::new(a.input, a.output, a.stats.format()).iri(a.iri.iri),
            mode: super::mode(a.mode.mode),
            normalizer: super::normalizer(&a.key),
            invalid: a.invalid.invalid,
            strict: a.invalid.strict,
            print: a.print,
            count: a.count,
            hash: a.hash,
            limits: a.memory.map(|memory| Limits {
                memory,
                dir: a.temp_dir.unwrap_or_else(std::env::temp_dir),
            }),
            spare: Mutex::new(Vec::new()),
        })
    }
}

impl Command for Dedup {
    type Extra = Keys;
    type State = Unique;

    fn common(&self) -> &Common {
        &self.common
    }

    fn state(&self) -> anyhow::Result<Unique> {
        Unique::bounded(
            !self.hash,
            self.count,
            self.limits.clone(),
        )
    }

    fn ordered(&self) -> bool {
        true
    }

    fn process(&self, file: &str, chunk: &Chunk<'_>, _: &mut Vec<u8>) -> Part<Keys> {
        let (mut st, mut messages) = (Stats::default(), Vec::new());
        let mut keys = self.spare.lock().map(|mut s| s.pop()).ok().flatten().unwrap_or_default();
        let detailed = self.common.detailed();
        // Room for the records at once (at most a key about as long as its
        // line and the line again; lines of 32 bytes or more): grown by
        // doubling, the copies cost 4.5% of `dedup`'s instructions.
        let n = chunk.data().len();
        keys.bytes.reserve(2 * n + n / 8);
        keys.records.reserve(n / 32);
        // A key that is not the line itself (nor a slice of it) is built here.
        let mut scratch = Vec::new();
        // The pass that classifies the lines also finds what
        // `Normalizer::is_normal` looks for, where it looks. `fold`'s
        // internal iteration keeps a valid line's result out of memory (see
        // `Uris::fold`): 1% fewer instructions than a `for` loop's `next`
        // (8 MiB, `--hash`), if the closure is inlined (see `check`).
        let lines = chunk.uris(self.mode).for_normalizer_of(&self.normalizer);
        lines.fold((), #[inline(always)] |(), (line, text, result)| {
            st.record(&result, detailed);
            let key: &[u8] = match &result {
                Ok(uri) => self.normalizer.normalized(uri, &mut scratch),
                Err(e) => match self.invalid {
                    InvalidPolicy::Report => {
                        output::check_line(&mut messages, file, line, e);
                        return;
                    }
                    InvalidPolicy::Skip => return,
                    // An invalid line is its own key, marked apart.
                    InvalidPolicy::Pass => {
                        scratch.clear();
                        scratch.push(0);
                        scratch.extend_from_slice(text);
                        &scratch
                    }
                    // The key the surt profile gives any line.
                    InvalidPolicy::Key => {
                        scratch.clear();
                        surt_key(text, &mut scratch);
                        &scratch
                    }
                },
            };
            // `--print key` shows the key, but an invalid line's (a NUL and
            // the line) shows the line.
            let shown = if self.print == DedupPrint::Key && key.first() != Some(&0) {
                key
            } else {
                text
            };
            keys.push(key, shown, self.hash);
        });
        Part::new(st, messages, keys)
    }

    fn consume(&self, mut keys: Keys, unique: &mut Unique, out: &mut Vec<u8>) -> anyhow::Result<()> {
        unique.offer(&keys, out)?;
        keys.bytes.clear();
        keys.records.clear();
        if let Ok(mut spare) = self.spare.lock() {
            spare.push(keys);
        }
        Ok(())
    }

    fn finish(&self, unique: &mut Unique, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
        // A counted record put together first, its count by `push_u64`:
        // one write, no formatting machinery.
        let mut record = Vec::new();
        unique.finish(|count, shown| {
            let written = match count {
                Some(n) => {
                    record.clear();
                    output::push_u64(&mut record, n);
                    record.push(b'\t');
                    record.extend_from_slice(shown);
                    out.write_all(&record)
                }
                None => out.write_all(shown),
            };
            written.map_err(|e| OutputError(e).into())
        })
    }

    fn summary(&self, totals: &Stats, unique: &Unique) -> Option<String> {
        // Lines are unique, duplicates or left out invalid; passed or keyed,
        // the invalid lines are among the first two.
        let among = match self.invalid {
            InvalidPolicy::Pass => " (passed, among them)",
            InvalidPolicy::Key => " (keyed, among them)",
            InvalidPolicy::Report | InvalidPolicy::Skip => "",
        };
        Some(format!(
            "{}, {} unique, {}, {} invalid{among}",
            count(totals.lines, "line", "lines"),
            unique.unique,
            count(unique.duplicates, "duplicate", "duplicates"),
            totals.invalid
        ))
    }

    fn fails(&self, totals: &Stats) -> bool {
        self.strict && totals.invalid > 0
    }
}
