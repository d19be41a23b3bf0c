//! `normalize`: every line's normalized form (RFC 3986 section 6, or the
//! `web` or `surt` profile).

use anyhow::bail;
use uriscan::batch::Chunk;
use uriscan::{surt_key, Mode, Normalizer, Profile};

use super::{Command, Common, Part};
use crate::cli::{InvalidPolicy, NormalizeArgs, OutFormat};
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
        let normalizer = super::normalizer(&a.key);
        if a.invalid.invalid == InvalidPolicy::Key && normalizer.profile() != Profile::Surt {
            bail!("--invalid key needs --profile surt");
        }
        if a.with_original && a.format != OutFormat::Text {
            bail!("--with-original needs --format text (tsv already has key<TAB>original)");
        }
        Ok(Normalize {
            common: Common::new(a.input, a.output, a.stats.format()).iri(a.iri.iri),
            mode: super::mode(a.mode.mode),
            normalizer,
            emit: Transformed {
                format: a.format,
                invalid: a.invalid.invalid,
                field: b"normalized",
                with_original: a.with_original,
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
        // `Normalizer::is_normal` looks for, where it looks.
        let uris = chunk.uris(self.mode).for_normalizer_of(&self.normalizer);
        // `for_each`'s internal iteration keeps a valid line's result out
        // of memory (`Uris::fold`): 0.8% fewer instructions than `for`.
        uris.for_each(|(line, text, result)| {
            st.record(&result, detailed);
            // An already normal URI is written as it is, with no copy;
            // in plain text, a key straight into the output.
            let value = match &result {
                Ok(uri) if self.emit.is_bare_text() => {
                    self.normalizer.normalize(uri, out);
                    out.push(b'\n');
                    return;
                }
                Ok(uri) => Ok(self.normalizer.normalized(uri, &mut scratch)),
                Err(e) if self.emit.invalid == InvalidPolicy::Key => {
                    scratch.clear();
                    surt_key(text, &mut scratch);
                    self.emit.record_keyed(out, line, text, &scratch, e);
                    return;
                }
                Err(e) => Err(e),
            };
            self.emit
                .record(out, &mut messages, file, line, text, value);
        });
        Part::new(st, messages, ())
    }

    fn summary(&self, totals: &Stats, _: &()) -> Option<String> {
        (totals.invalid > 0 && self.emit.invalid == InvalidPolicy::Report).then(|| totals.summary())
    }

    fn fails(&self, totals: &Stats) -> bool {
        self.strict && totals.invalid > 0
    }
}
