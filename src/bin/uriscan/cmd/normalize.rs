//! `normalize`: every line's normalized form (RFC 3986 section 6, or the
//! `web` or `surt` profile).

use uriscan::batch::Chunk;
use uriscan::{Mode, Normalizer};

use super::{Command, Common, Part};
use crate::cli::{InvalidPolicy, NormalizeArgs};
use crate::output::Transformed;
use crate::stats::Stats;

pub struct Normalize {
    common: Common,
    mode: Mode,
    normalizer: Normalizer,
    emit: Transformed,
    /// `--strict`: exit 1 on invalid lines.
    strict: bool,
}

impl Normalize {
    pub fn new(a: NormalizeArgs) -> anyhow::Result<Normalize> {
        Ok(Normalize {
            common: Common::new(a.input, a.output, a.stats.format()),
            mode: super::mode(a.mode.mode),
            normalizer: super::normalizer(&a.key),
            emit: Transformed {
                format: a.format,
                invalid: a.invalid.invalid,
                field: b"normalized",
            },
            strict: a.invalid.strict,
        })
    }
}

impl Command for Normalize {
    type Extra = ();
    type State = ();

    fn common(&self) -> &Common {
        &self.common
    }

    fn state(&self) -> anyhow::Result<()> {
        Ok(())
    }

    fn process(&self, file: &str, chunk: &Chunk<'_>, out: &mut Vec<u8>) -> Part<()> {
        let (mut st, mut messages, mut scratch) = (Stats::default(), Vec::new(), Vec::new());
        let detailed = self.common.detailed();
        // The pass that classifies the lines also finds what
        // `Normalizer::is_normal` looks for.
        for (line, text, result) in chunk.uris(self.mode).for_normalizer() {
            st.record(&result, detailed);
            // An already normal URI is written as it is, with no copy.
            let value = match &result {
                Ok(uri) => Ok(self.normalizer.normalized(uri, &mut scratch)),
                Err(e) => Err(e),
            };
            self.emit
                .record(out, &mut messages, file, line, text, value);
        }
        Part::new(st, messages, ())
    }

    fn summary(&self, totals: &Stats, _: &()) -> Option<String> {
        (totals.invalid > 0 && self.emit.invalid == InvalidPolicy::Report).then(|| totals.summary())
    }

    fn fails(&self, totals: &Stats) -> bool {
        self.strict && totals.invalid > 0
    }
}
