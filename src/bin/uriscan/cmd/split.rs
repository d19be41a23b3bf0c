//! `split`: every line's components (RFC 3986 Appendix B) and its validity,
//! as JSON objects or TSV rows.

use uriscan::batch::Chunk;
use uriscan::Mode;

use super::{Command, Common, Part};
use crate::cli::{SplitArgs, SplitFormat};
use crate::output::{self, Record};
use crate::stats::Stats;

pub struct Split {
    common: Common,
    mode: Mode,
    format: SplitFormat,
}

impl Split {
    pub fn new(a: SplitArgs) -> anyhow::Result<Split> {
        Ok(Split {
            common: Common::new(a.input, a.output, a.stats.format()).iri(a.iri.iri),
            mode: super::mode(a.mode.mode),
            format: a.format,
        })
    }
}

impl Command for Split {
    type Extra = ();
    type State = ();

    fn common(&self) -> &Common {
        &self.common
    }

    fn header(&self) -> &'static [u8] {
        match self.format {
            SplitFormat::Tsv => output::TSV_HEADER.as_bytes(),
            SplitFormat::Json => b"",
        }
    }

    fn state(&self) -> anyhow::Result<()> {
        Ok(())
    }

    fn process(&self, _: &str, chunk: &Chunk<'_>, out: &mut Vec<u8>) -> Part<()> {
        let mut st = Stats::default();
        let detailed = self.common.detailed();
        // `fold`, its closure inlined (see `check`): through `next`, each
        // line's result is copied where the loads stall on the stores that
        // just wrote it.
        chunk.uris(self.mode).fold((), #[inline(always)] |(), (line, text, result)| {
            st.record(&result, detailed);
            let split = match &result {
                Ok(uri) => *uri.split(),
                Err(_) => uriscan::split(text),
            };
            let record = Record {
                line,
                text,
                split,
                result,
            };
            match self.format {
                SplitFormat::Json => record.json(out),
                SplitFormat::Tsv => record.tsv(out),
            }
        });
        Part::new(st, Vec::new(), ())
    }
}
