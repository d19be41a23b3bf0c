//! `check`: validate every line, report the invalid ones as
//! `FILE:LINE:COL: message`; exit 1 when some are invalid.

use uriscan::batch::Chunk;
use uriscan::Mode;

use super::{Command, Common, Part};
use crate::cli::CheckArgs;
use crate::output;
use crate::stats::Stats;

pub struct Check {
    common: Common,
    mode: Mode,
    /// `--quiet`: the summary only.
    quiet: bool,
}

impl Check {
    pub fn new(a: CheckArgs) -> anyhow::Result<Check> {
        Ok(Check {
            common: Common::new(a.input, a.output, a.stats.format()).iri(a.iri.iri),
            mode: super::mode(a.mode.mode),
            quiet: a.quiet,
        })
    }

    /// Validates every line of `chunk`, counting them (with what the
    /// detailed report shows when `DETAILED`) and writing each invalid
    /// one's report to `out` unless `--quiet`.
    #[inline(always)]
    fn fold<const DETAILED: bool>(&self, file: &str, chunk: &Chunk<'_>, out: &mut Vec<u8>) -> Stats {
        let mut st = Stats::default();
        let quiet = self.quiet;
        // `fold`'s internal iteration keeps a small closure's results in
        // registers (see `Uris::fold`), if the closure is inlined into the
        // loop: called at two places, it may not be by itself, and a call
        // per line copies its result through memory, where the loads stall
        // on the stores that just wrote it (`normalize` 10% slower).
        chunk.uris(self.mode).fold((), #[inline(always)] |(), (line, _, result)| {
            st.record(&result, DETAILED);
            if let (Err(e), false) = (&result, quiet) {
                output::check_line(out, file, line, e);
            }
        });
        st
    }
}

impl Command for Check {
    type Extra = ();
    type State = ();

    fn common(&self) -> &Common {
        &self.common
    }

    fn state(&self) -> anyhow::Result<()> {
        Ok(())
    }

    fn process(&self, file: &str, chunk: &Chunk<'_>, out: &mut Vec<u8>) -> Part<()> {
        // Two loops: without the detailed report, a valid line's URI is
        // only counted, and the compiler leaves out the spans that stage 2
        // would otherwise work out for it (callgrind, `check -q -j1` of 8
        // MiB of the generated corpus: 21% fewer instructions; the
        // in-memory kernel's loop, which only asks `is_ok`, had them).
        let st = if self.common.detailed() {
            self.fold::<true>(file, chunk, out)
        } else {
            self.fold::<false>(file, chunk, out)
        };
        Part::new(st, Vec::new(), ())
    }

    fn summary(&self, totals: &Stats, _: &()) -> Option<String> {
        Some(totals.summary())
    }

    fn fails(&self, totals: &Stats) -> bool {
        totals.invalid > 0
    }
}
