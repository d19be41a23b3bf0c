//! `resolve`: every line resolved as a reference against `--base` (RFC 3986
//! section 5).

use uriscan::batch::Chunk;
use uriscan::{Mode, UriBuf};

use super::{Command, Common, Part};
use crate::cli::{InvalidPolicy, ResolveArgs};
use crate::output::Transformed;
use crate::stats::Stats;

pub struct Resolve {
    common: Common,
    mode: Mode,
    base: UriBuf,
    /// Not `--non-strict`: a reference's scheme counts even when it is the
    /// base's.
    strict_scheme: bool,
    emit: Transformed,
    /// `--strict`: exit 1 on invalid lines.
    strict: bool,
}

impl Resolve {
    pub fn new(a: ResolveArgs) -> anyhow::Result<Resolve> {
        let base = super::base_uri("--base", a.base)?;
        let mut common = Common::new(a.input, a.output, a.stats.format());
        common.chunk_size = common.chunk_size.min(chunk_for(base.as_str().len()));
        Ok(Resolve {
            base,
            common,
            mode: super::mode(a.mode.mode),
            strict_scheme: !a.non_strict,
            emit: Transformed {
                format: a.format,
                invalid: a.invalid.invalid.into(),
                field: b"target",
                with_original: false,
            },
            strict: a.invalid.strict,
        })
    }
}

/// About the most output a chunk renders in memory before it is written.
const OUTPUT_PER_CHUNK: usize = 8 << 20;

/// The largest chunk whose output stays within [`OUTPUT_PER_CHUNK`] with a
/// base of `base_len` bytes: each line's target may be about as long as
/// the base (a short reference, even an empty line, takes its path), so a
/// chunk's output is up to `base_len` times its number of lines, and the
/// 2-byte `g` lines of a 2 MB chunk with a 120 KB base would be 120 GB.
/// Every line takes at least a byte of input, so a chunk of `n` bytes
/// writes at most about `n x (base_len + 128)`: the 128 cover the JSON
/// record around a target, or an error message.
fn chunk_for(base_len: usize) -> usize {
    (OUTPUT_PER_CHUNK / (base_len + 128)).max(1)
}

impl Command for Resolve {
    type Extra = ();
    type State = ();

    fn common(&self) -> &Common {
        &self.common
    }

    fn state(&self) -> anyhow::Result<()> {
        Ok(())
    }

    fn process(&self, file: &str, chunk: &Chunk<'_>, out: &mut Vec<u8>) -> Part<()> {
        let (mut st, mut messages, mut target) = (Stats::default(), Vec::new(), Vec::new());
        let detailed = self.common.detailed();
        // `fold`, its closure inlined (see `check`).
        chunk.uris(self.mode).fold((), #[inline(always)] |(), (line, text, result)| {
            st.record(&result, detailed);
            let value = match &result {
                Ok(uri) => {
                    target.clear();
                    uriscan::resolve(&self.base.as_uri(), uri, self.strict_scheme, &mut target);
                    Ok(&target[..])
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
