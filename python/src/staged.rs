//! Rows parsed by the library's window pass instead of one `parse` call
//! each: a run of rows is copied into a reused buffer as LF-terminated
//! lines, and [`Chunk::uris`] classifies them 64 bytes at a time, many
//! lines a block, as the CLI does. The copy runs at memory speed, and
//! costs less than the pass saves over parsing each row on its own
//! (scripts/bench-python.py: `check` from 0.48 to 0.80 of the in-memory
//! kernel's throughput).
//!
//! An Arrow string array has no separators to reuse: its values buffer is
//! the rows' bytes back to back. A row holding an LF would be cut in two,
//! and a CR before the added LF would be dropped as a line terminator, so
//! rows with either byte (rare, and invalid in every mode) are parsed on
//! their own, as are no other rows. Each row's result is exactly
//! `uriscan::parse(row, mode)`'s.

use std::ops::Range;

use arrow_array::{Array, GenericStringArray, OffsetSizeTrait};
use memchr::memchr2;
use uriscan::batch::Chunk;
use uriscan::{Error, Mode, Normalizer, Uri};

use crate::arrays::{row_of, Texts};

/// A row's parse result.
pub type Parsed<'a> = Result<Uri<'a>, Error>;

/// The bytes staged before a pass: small enough that the lines are still
/// in the L2 cache when the pass reads them back, large enough that
/// starting a pass is nothing beside it.
const PIECE: usize = 64 * 1024;

/// Calls `f` with each row's parse result under `mode`, in row order;
/// `None` for a null row. With `n`, each URI carries the notes that `n`
/// reads ([`uriscan::batch::Uris::for_normalizer_of`]).
pub fn each_parsed<'a>(
    texts: &Texts<'a>,
    rows: Range<usize>,
    mode: Mode,
    n: Option<&Normalizer>,
    mut f: impl FnMut(Option<Parsed<'_>>),
) {
    let mut stage = Stage::default();
    let mut start = rows.start;
    while start < rows.end {
        let end = stage.fill(texts, start..rows.end);
        stage.pass(start, mode, n, &mut f);
        start = end;
    }
}

/// One run of rows: the staged ones as lines, the others set aside.
#[derive(Default)]
struct Stage<'a> {
    /// The staged rows, each followed by an LF.
    lines: Vec<u8>,
    /// The rows not staged, in order: their index, and their text
    /// (`None`: null).
    aside: Vec<(usize, Option<&'a [u8]>)>,
}

impl<'a> Stage<'a> {
    /// Stages rows from `rows.start` on until about [`PIECE`] bytes, and
    /// returns the first row left for the next run.
    fn fill(&mut self, texts: &Texts<'a>, rows: Range<usize>) -> usize {
        // `string` and `large_string` are searched for LF and CR once, over
        // the values of the whole run after the copy; `string_view` row by
        // row, during it.
        let end = self.take(texts, rows.clone(), texts.is_view());
        if texts
            .values(rows.start..end)
            .is_some_and(|values| memchr2(b'\n', b'\r', values).is_some())
        {
            self.take(texts, rows.start..end, true);
        }
        end
    }

    /// Copies rows from `rows.start` on until about [`PIECE`] bytes, each
    /// with an LF, and sets aside nulls and, when `careful`, the rows
    /// holding an LF or a CR. Returns the first row not taken.
    fn take(&mut self, texts: &Texts<'a>, rows: Range<usize>, careful: bool) -> usize {
        self.lines.clear();
        self.aside.clear();
        // One loop per array type: no match on the type per row.
        match *texts {
            Texts::Utf8(a) => self.take_from(a, rows, careful),
            Texts::Large(a) => self.take_from(a, rows, careful),
            _ => self.take_rows(rows, careful, |i| texts.get(i)),
        }
    }

    /// [`Stage::take`] from a `string` or `large_string` array.
    fn take_from<O: OffsetSizeTrait>(
        &mut self,
        a: &'a GenericStringArray<O>,
        rows: Range<usize>,
        careful: bool,
    ) -> usize {
        // An array without a null bitmap, the usual case, has no test per row.
        match a.nulls() {
            None => self.take_rows(rows, careful, |i| Some(a.value(i).as_bytes())),
            Some(_) => self.take_rows(rows, careful, row_of(a)),
        }
    }

    /// [`Stage::take`] with `row(i)`, row `i`'s text or `None` for null.
    #[inline(always)]
    fn take_rows(
        &mut self,
        rows: Range<usize>,
        careful: bool,
        row: impl Fn(usize) -> Option<&'a [u8]>,
    ) -> usize {
        for i in rows.clone() {
            if self.lines.len() >= PIECE {
                return i;
            }
            match row(i) {
                Some(text) if !careful || memchr2(b'\n', b'\r', text).is_none() => {
                    self.lines.extend_from_slice(text);
                    self.lines.push(b'\n');
                }
                text => self.aside.push((i, text)),
            }
        }
        rows.end
    }

    /// Runs the window pass over the staged lines, and calls `f` with the
    /// result of each row of the run from `first` on, the rows set aside
    /// (parsed on their own) in their places.
    fn pass<F>(&self, first: usize, mode: Mode, n: Option<&Normalizer>, f: &mut F)
    where
        F: FnMut(Option<Parsed<'_>>),
    {
        let mut row = first;
        let mut aside = &self.aside[..];
        // The one test per staged row, so that the loop stays small enough
        // for the compiler to inline `f` (and, for `check`, to drop the
        // building of each `Uri`).
        let mut next_aside = first_row(aside);
        let uris = Chunk::new(&self.lines, 1, 0).uris(mode);
        let uris = match n {
            Some(n) => uris.for_normalizer_of(n),
            None => uris,
        };
        uris.for_each(|(_, _, result)| {
            if row == next_aside {
                (row, aside) = put_aside(aside, row, mode, f);
                next_aside = first_row(aside);
            }
            f(Some(result));
            row += 1;
        });
        put_aside(aside, row, mode, f);
    }
}

/// The rows set aside from a row on, with their texts (`None`: null).
type Aside<'s, 'a> = &'s [(usize, Option<&'a [u8]>)];

/// The row of the first of `aside`, `usize::MAX` when there is none.
fn first_row(aside: Aside<'_, '_>) -> usize {
    aside.first().map_or(usize::MAX, |&(i, _)| i)
}

/// Calls `f` with the results of the rows of `aside` that follow on from
/// `row` with no staged row between, and returns the row after them and
/// the rest of `aside`. Out of line: rare, and kept out of the hot loop.
#[inline(never)]
fn put_aside<'s, 'a, F>(
    aside: Aside<'s, 'a>,
    mut row: usize,
    mode: Mode,
    f: &mut F,
) -> (usize, Aside<'s, 'a>)
where
    F: FnMut(Option<Parsed<'_>>),
{
    let taken = aside
        .iter()
        .zip(row..)
        .take_while(|&(&(i, _), r)| i == r)
        .count();
    for &(_, text) in &aside[..taken] {
        f(text.map(|text| uriscan::parse(text, mode)));
    }
    row += taken;
    (row, &aside[taken..])
}
