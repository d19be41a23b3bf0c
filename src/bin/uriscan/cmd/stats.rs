//! `stats`: count only; the statistics are the output.

use uriscan::batch::Chunk;
use uriscan::Mode;

use super::{Command, Common, Part, StatsTo};
use crate::cli::StatsArgs;
use crate::stats::Stats;

pub struct StatsCmd {
    common: Common,
    mode: Mode,
}

impl StatsCmd {
    pub fn new(a: StatsArgs) -> anyhow::Result<StatsCmd> {
        let mut common = Common::new(a.input, a.output, None);
        common.stats = Some((a.format, StatsTo::Output));
        Ok(StatsCmd {
            common,
            mode: super::mode(a.mode.mode),
        })
    }
}

impl Command for StatsCmd {
    type Extra = ();
    type State = ();

    fn common(&self) -> &Common {
        &self.common
    }

    fn state(&self) -> anyhow::Result<()> {
        Ok(())
    }

    fn process(&self, _: &str, chunk: &Chunk<'_>, _: &mut Vec<u8>) -> Part<()> {
        let mut st = Stats::default();
        // `fold`, its closure inlined (see `check`).
        chunk
            .uris(self.mode)
            .fold((), #[inline(always)] |(), (_, _, result)| st.record(&result, true));
        Part::new(st, Vec::new(), ())
    }
}
