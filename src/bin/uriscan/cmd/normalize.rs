//! `normalize`: every line's normalized form (RFC 3986 section 6, or the
//! `web` or `surt` profile).

use anyhow::bail;
use uriscan::batch::Chunk;
use uriscan::{surt_key, Error, Mode, Normalizer, Profile, Uri};

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

    /// A line that is not copied as it is within a run of plain text: a
    /// key or a rewrite written out, an invalid line reported, keyed or
    /// passed, a record of another format.
    #[inline(never)]
    fn emit_other(
        &self,
        (file, line, text, result): (&str, u64, &[u8], &Result<Uri<'_>, Error>),
        run: &mut Run<'_>,
        out: &mut Vec<u8>,
        messages: &mut Vec<u8>,
        scratch: &mut Vec<u8>,
    ) {
        let value = match result {
            // A key straight into the output.
            Ok(uri) if self.emit.is_bare_text() => {
                run.flush(out);
                self.normalizer.normalize(uri, out);
                out.push(b'\n');
                return;
            }
            Ok(uri) => Ok(self.normalizer.normalized(uri, scratch)),
            Err(e) if self.emit.invalid == InvalidPolicy::Key => {
                scratch.clear();
                surt_key(text, scratch);
                run.flush(out);
                self.emit.record_keyed(out, line, text, scratch, e);
                return;
            }
            Err(e) => Err(e),
        };
        run.flush(out);
        self.emit.record(out, messages, file, line, text, value);
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
        // In plain text, consecutive lines that are already normal and end
        // in a lone LF are copied to the output as one run of the chunk,
        // not one by one: most lines of a crawl's list are normal.
        let runs = self.emit.is_bare_text() && self.normalizer.profile() != Profile::Surt;
        let mut run = Run::new(chunk.data());
        // `fold`'s internal iteration keeps a valid line's result out of
        // memory (`Uris::fold`): 0.8% fewer instructions than `for`, if the
        // closure is inlined into the loop (see `check`): all but the usual
        // line is in a call of its own, to keep the loop small.
        uris.fold((), #[inline(always)] |(), (line, text, result)| {
            st.record(&result, detailed);
            match &result {
                Ok(uri) if runs => run.put(self.normalizer.normalized(uri, &mut scratch), out),
                _ => self.emit_other(
                    (file, line, text, &result),
                    &mut run,
                    out,
                    &mut messages,
                    &mut scratch,
                ),
            }
        });
        run.flush(out);
        Part::new(st, messages, ())
    }

    fn summary(&self, totals: &Stats, _: &()) -> Option<String> {
        (totals.invalid > 0 && self.emit.invalid == InvalidPolicy::Report).then(|| totals.summary())
    }

    fn fails(&self, totals: &Stats) -> bool {
        self.strict && totals.invalid > 0
    }
}

/// Lines of a chunk written to the output as they are, not yet copied:
/// `data[start..end]`, each of its lines ending in a lone LF.
struct Run<'a> {
    data: &'a [u8],
    start: usize,
    end: usize,
}

impl<'a> Run<'a> {
    fn new(data: &'a [u8]) -> Run<'a> {
        Run {
            data,
            start: 0,
            end: 0,
        }
    }

    /// Writes the line `value` (with its LF) after the run: into the run
    /// when it is a line of the chunk that ends in a lone LF (the
    /// output's line is then the input's, LF and all), else to `out`
    /// after the run.
    #[inline(always)]
    fn put(&mut self, value: &[u8], out: &mut Vec<u8>) {
        // Where `value` is in the chunk, if it is there (a rewritten value
        // is elsewhere: a huge or out-of-range offset).
        let at = (value.as_ptr() as usize).wrapping_sub(self.data.as_ptr() as usize);
        let end = at.wrapping_add(value.len());
        if at == self.end && self.data.get(end) == Some(&b'\n') {
            self.end = end + 1;
            return;
        }
        self.restart(value, at, end, out);
    }

    /// [`Run::put`] of a `value` that does not extend the run (at `at` in
    /// the chunk, or elsewhere).
    #[inline(never)]
    fn restart(&mut self, value: &[u8], at: usize, end: usize, out: &mut Vec<u8>) {
        self.flush(out);
        if at <= self.data.len() && self.data.get(end) == Some(&b'\n') {
            (self.start, self.end) = (at, end + 1);
        } else {
            out.extend_from_slice(value);
            out.push(b'\n');
        }
    }

    /// Copies the run to `out`.
    #[inline]
    fn flush(&mut self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.data[self.start..self.end]);
        self.start = self.end;
    }
}
