//! The lines of a chunk, decided a window at a time ([`Scanner`]): stage 1
//! classifies a window that starts at a line, stage 2 decides each line
//! that ends in it, the usual line on the fast path.

use super::decide::decide;
use super::lanes::{Bits, Lane, LineMasks, View};
use super::plain::{decide_plain, plain_fault};
use super::window::{Bitmaps, Head, NormalBitmaps, Noting};
use super::{ends, line_at, Outcome, Verdict, LF, PATHBAD, PREFETCH_AHEAD, WINDOW_BLOCKS};
use crate::grammar::error::Error;
use crate::grammar::Mode;
use crate::simd::{prefetch, Backend};

/// The lines of a chunk, decided a window at a time: stage 1 classifies a
/// window starting at a line, stage 2 decides each line that ends in it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scanner {
    /// The window's masks.
    pub(super) bits: Bitmaps,
    /// The offset in the chunk of the window's first byte.
    base: usize,
    /// How many bytes from `base` the masks describe.
    covered: usize,
    /// The window's uppercase letters and suspect bytes (`%`, the `.` of
    /// `/.`), when valid lines are to be noted ([`Scanner::into_noting`]).
    normal: Option<NormalBitmaps>,
    /// The error of the last line that [`Scanner::line`] found invalid,
    /// with the line's offset in the chunk: the hot loop's stage 2 computes
    /// it where it finds the line invalid, and [`Scanner::why`] hands it
    /// over instead of deciding the line a second time.
    error: Option<(usize, Error)>,
}

impl Scanner {
    /// A scanner with this one's bit arrays that also notes on each valid
    /// line of a window what [`crate::Normalizer::is_normal`] would look
    /// for ([`NormalBitmaps::notes`]); it classifies again from the next
    /// line on.
    pub(crate) fn into_noting(self) -> Scanner {
        if let Some(normal) = self.normal {
            normal.bits.recycle();
        }
        Scanner {
            bits: Bitmaps {
                bits: self.bits.bits,
                pending: [0; 3],
                branchy: false,
            },
            base: 0,
            covered: 0,
            normal: Some(NormalBitmaps::default()),
            error: None,
        }
    }

    /// Gives the scanner's bit arrays to the next scanner of this thread
    /// (dropping it frees them).
    pub(crate) fn recycle(self) {
        self.bits.bits.recycle();
        if let Some(normal) = self.normal {
            normal.bits.recycle();
        }
    }

    /// Decides the line at `start` of `data` (ending at the next LF or at
    /// the end of `data`, one CR before the LF dropped). Returns the end of
    /// its content, the offset of the next line and the outcome, with the
    /// notes of a noting scanner when `NOTE` (`false` compiles them out).
    #[inline(always)]
    pub(crate) fn line<const NOTE: bool>(
        &mut self,
        backend: Backend,
        data: &[u8],
        start: usize,
        mode: Mode,
    ) -> (usize, usize, Outcome) {
        // The usual line on its own path: sharing the lane-or-view choice
        // below costs 4% more instructions per line (callgrind).
        prefetch(data, start + PREFETCH_AHEAD);
        if let Some(raw_end) = self.lf_near(start) {
            let (content_end, next) = ends(data, start, raw_end);
            let line = &data[start..content_end];
            let outcome = self.decide_in_window::<NOTE>(start - self.base, line, mode);
            return (content_end, next, outcome);
        }
        let raw_end = match self.lf_far(backend, data, start) {
            Ok(lf) => lf,
            Err(long) => return long,
        };
        let (content_end, next) = ends(data, start, raw_end);
        let line = &data[start..content_end];
        let g = start - self.base;
        let outcome = if g % 8 + line.len() <= 128 {
            self.decide_in_window::<NOTE>(g, line, mode)
        } else {
            decide::<false>(
                View {
                    m: &self.bits,
                    base: g,
                },
                line,
                mode,
            )
            .outcome()
        };
        (content_end, next, outcome)
    }

    /// Whether the scanner notes what normalization looks for
    /// ([`Scanner::into_noting`]): then `line::<true>` adds the notes.
    #[inline(always)]
    pub(crate) fn is_noting(&self) -> bool {
        self.normal.is_some()
    }

    /// The error that [`Scanner::line`] kept for the line at `start` of
    /// the chunk, if it kept one.
    #[inline(always)]
    pub(crate) fn kept(&self, start: usize) -> Option<Error> {
        self.error.filter(|&(at, _)| at == start).map(|(_, e)| e)
    }

    /// The reference's error for the line at `start` of the chunk, `line`,
    /// that [`Scanner::line`] has just found invalid: the one it kept, else
    /// from the window's masks; `None` when the window has none for it (a
    /// line longer than a window).
    #[cold]
    #[inline(never)]
    pub(crate) fn why(&self, start: usize, line: &[u8], mode: Mode) -> Option<Error> {
        if let Some(e) = self.kept(start) {
            return Some(e);
        }
        if start < self.base || start + line.len() > self.base + self.covered {
            return None;
        }
        let g = start - self.base;
        let verdict = if g % 8 + line.len() <= 128 {
            decide::<true>(Lane::of_window(&self.bits, g, line.len()), line, mode)
        } else {
            decide::<true>(
                View {
                    m: &self.bits,
                    base: g,
                },
                line,
                mode,
            )
        };
        verdict.error()
    }

    /// Stage 2 of `line`, at bit `g` of the window with `g % 8 + line.len()`
    /// at most 128 (its masks one lane), with the notes of a noting scanner
    /// when `NOTE`.
    #[inline(always)]
    pub(super) fn decide_in_window<const NOTE: bool>(
        &mut self,
        g: usize,
        line: &[u8],
        mode: Mode,
    ) -> Outcome {
        let lane = || Lane::of_window(&self.bits, g, line.len());
        let mut outcome = match decide_plain(&self.bits, g, line, mode) {
            // The usual line noted from the shape stage 2 found.
            Some((mut outcome, head)) => {
                debug_assert_eq!(head, Head::of(&outcome));
                if let (true, Some(n)) = (NOTE, &self.normal) {
                    outcome.notes = n.notes(g, line, &head);
                }
                return outcome;
            }
            // A window of relative references: most lines come here, and
            // computing the error of invalid ones here too costs them 10%
            // (`why` computes it when asked).
            None if self.bits.branchy => decide::<false>(lane(), line, mode).outcome(),
            None => {
                // Most invalid lines: their error without `decide`, when
                // their first special byte (not a good `%`) is neither `@`
                // nor `[` (userinfo, IP literal).
                let at = (self.bits.lane(PATHBAD, g) >> (g % 8)).trailing_zeros() as usize;
                let fault = match line.get(at) {
                    Some(b'@' | b'[') | None => None,
                    Some(_) => plain_fault(&self.bits, g, line, mode),
                };
                let verdict = match fault {
                    Some(e) => Verdict::Invalid(Some(e)),
                    None => decide::<true>(lane(), line, mode),
                };
                match verdict {
                    Verdict::Valid(outcome) => outcome,
                    verdict => {
                        self.error = verdict.error().map(|e| (self.base + g, e));
                        Outcome::REFERENCE
                    }
                }
            }
        };
        if let (true, Some(n), true) = (NOTE, &self.normal, outcome.valid) {
            outcome.notes = n.notes(g, line, &Head::of(&outcome));
        }
        outcome
    }

    /// The usual line's end: in the window, its LF within 120 bytes, found
    /// in the same load at the same offset as its masks will be.
    #[inline(always)]
    pub(super) fn lf_near(&self, start: usize) -> Option<usize> {
        if start < self.base || start >= self.base + self.covered {
            return None;
        }
        let g = start - self.base;
        let lf = self.bits.lane(LF, g) & <u128 as Bits>::from_bit(g % 8);
        (lf != 0).then(|| start + lf.trailing_zeros() as usize - g % 8)
    }

    /// The end of a line that `lf_near` did not find (its LF further on, or
    /// past the window, which is then refilled from the line's start), or
    /// `Err` with the line's result when it is longer than a window.
    #[cold]
    #[inline(never)]
    pub(super) fn lf_far(
        &mut self,
        backend: Backend,
        data: &[u8],
        start: usize,
    ) -> Result<usize, (usize, usize, Outcome)> {
        let mut filled = false;
        loop {
            if start >= self.base && start < self.base + self.covered {
                if let Some(lf) = self.lf(start - self.base) {
                    return Ok(self.base + lf);
                }
                if self.base + self.covered == data.len() {
                    return Ok(data.len());
                }
            }
            if filled {
                // Longer than a window: no masks for it.
                let (content_end, next) = line_at(data, start);
                return Err((content_end, next, Outcome::REFERENCE));
            }
            self.fill(backend, data, start);
            filled = true;
        }
    }

    /// The offset from `base` of the first LF at or after `from`, if the
    /// window holds one.
    #[inline(always)]
    pub(super) fn lf(&self, from: usize) -> Option<usize> {
        let at = View {
            m: &self.bits,
            base: 0,
        }
        .first(LF, from, self.covered);
        (at < self.covered).then_some(at)
    }

    /// Classifies the window of `data` that starts at `start`.
    #[inline(never)]
    pub(super) fn fill(&mut self, backend: Backend, data: &[u8], start: usize) {
        let len = (64 * WINDOW_BLOCKS).min(data.len() - start);
        let window = &data[start..start + len];
        match &mut self.normal {
            Some(normal) => backend.classify_into(
                window,
                &mut Noting {
                    bits: &mut self.bits,
                    normal,
                },
            ),
            None => backend.classify_into(window, &mut self.bits),
        }
        self.base = start;
        self.covered = len;
    }
}
