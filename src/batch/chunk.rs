//! A chunk of lines and its iterators: [`Chunk::lines`], and
//! [`Chunk::uris`], which runs stages 1 and 2 a window at a time.

use crate::grammar::{Error, Mode};
use crate::normalize::Normalizer;
use crate::simd::Backend;
use crate::stage2::{self, Scanner};
use crate::uri::{parse_reference, Uri};

use super::LongLine;

/// A piece of input made of whole lines, and the number of its first line.
///
/// [`run`](super::run) hands its `process` callback one chunk at a time; a chunk never
/// splits a line. With a chunk size of 1 byte, each line is a chunk of its own:
///
/// ```
/// use uriscan::batch::{run, Options};
///
/// let options = Options { chunk_size: 1, ..Options::default() };
/// let mut seen = Vec::new();
/// run(&b"ab\ncd\r\nef"[..], &mut std::io::sink(), &options,
///     |chunk, _out| (chunk.first_line(), chunk.offset(), chunk.data().to_vec()),
///     |c, _progress| seen.push(c),
/// )?;
/// assert_eq!(seen, [
///     (1, 0, b"ab\n".to_vec()),
///     (2, 3, b"cd\r\n".to_vec()),
///     (3, 7, b"ef".to_vec()),
/// ]);
/// # Ok::<(), uriscan::batch::RunError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Chunk<'a> {
    data: &'a [u8],
    first_line: u64,
    offset: u64,
    skipped: &'a [LongLine],
    /// Its number of lines, when the reader that cut it counted them.
    lines: Option<u64>,
}

impl<'a> Chunk<'a> {
    /// A chunk of `data` whose first line is line number `first_line` and which
    /// starts `offset` bytes into the input.
    ///
    /// ```
    /// use uriscan::batch::Chunk;
    ///
    /// // Lines 10 and 11 of an input, from its byte 120 on.
    /// let chunk = Chunk::new(b"http://a/\n/b\n", 10, 120);
    /// assert_eq!(chunk.first_line(), 10);
    /// assert_eq!(chunk.offset(), 120);
    /// let numbers: Vec<u64> = chunk.lines().map(|(n, _)| n).collect();
    /// assert_eq!(numbers, [10, 11]);
    /// ```
    #[must_use]
    pub fn new(data: &'a [u8], first_line: u64, offset: u64) -> Chunk<'a> {
        Chunk {
            data,
            first_line,
            offset,
            skipped: &[],
            lines: None,
        }
    }

    /// The chunk, with `skipped` read past just before it.
    pub(super) fn with_skipped(self, skipped: &'a [LongLine]) -> Chunk<'a> {
        Chunk { skipped, ..self }
    }

    /// The chunk, whose lines the reader counted: `lines`.
    pub(super) fn with_lines(self, lines: u64) -> Chunk<'a> {
        Chunk {
            lines: Some(lines),
            ..self
        }
    }

    /// The number of its lines (a last line needs no LF): counted when the
    /// chunk was cut from a run's input, else now.
    ///
    /// ```
    /// use uriscan::batch::Chunk;
    ///
    /// assert_eq!(Chunk::new(b"a\r\n\nb", 1, 0).line_count(), 3);
    /// assert_eq!(Chunk::new(b"a\n", 1, 0).line_count(), 1);
    /// assert_eq!(Chunk::new(b"", 1, 0).line_count(), 0);
    /// ```
    #[must_use]
    pub fn line_count(&self) -> u64 {
        self.lines.unwrap_or_else(|| count_lines(self.data))
    }

    /// The lines longer than [`Options::max_line`](super::Options::max_line)
    /// read past just before the chunk's first line (or, for the last chunk,
    /// at the end of the input), in input order; none with the default
    /// options.
    ///
    /// ```
    /// use uriscan::batch::Chunk;
    ///
    /// assert!(Chunk::new(b"a\n", 1, 0).skipped().is_empty());
    /// ```
    #[must_use]
    pub fn skipped(&self) -> &'a [LongLine] {
        self.skipped
    }

    /// The bytes of the chunk, line terminators included.
    ///
    /// ```
    /// use uriscan::batch::Chunk;
    ///
    /// let chunk = Chunk::new(b"a\r\nb\n", 1, 0);
    /// assert_eq!(chunk.data(), b"a\r\nb\n");
    /// // `lines` removes the terminators.
    /// let lines: Vec<&[u8]> = chunk.lines().map(|(_, line)| line).collect();
    /// assert_eq!(lines, [&b"a"[..], b"b"]);
    /// ```
    #[must_use]
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The number of the chunk's first line (1-based).
    ///
    /// Every record of the chunk is numbered from it, as in the whole input:
    ///
    /// ```
    /// use uriscan::{batch::Chunk, Mode};
    ///
    /// let chunk = Chunk::new(b"/a\n/b c\n", 41, 0);
    /// assert_eq!(chunk.first_line(), 41);
    /// let invalid: Vec<u64> = chunk
    ///     .uris(Mode::Reference)
    ///     .filter(|(_, _, r)| r.is_err())
    ///     .map(|(n, _, _)| n)
    ///     .collect();
    /// assert_eq!(invalid, [42]);
    /// ```
    #[must_use]
    pub fn first_line(&self) -> u64 {
        self.first_line
    }

    /// The offset of the chunk's first byte in the input.
    ///
    /// With it, an error's offset in its line becomes an offset in the input:
    ///
    /// ```
    /// use uriscan::{batch::Chunk, Mode};
    ///
    /// let chunk = Chunk::new(b"x\nhttp://a/ b\n", 1, 100);
    /// let errors: Vec<(u64, u64)> = chunk
    ///     .uris(Mode::Reference)
    ///     .filter_map(|(n, line, r)| {
    ///         let e = r.err()?;
    ///         let in_chunk = line.as_ptr() as usize - chunk.data().as_ptr() as usize;
    ///         Some((n, chunk.offset() + (in_chunk + e.offset()) as u64))
    ///     })
    ///     .collect();
    /// // Line 2 starts at byte 102 of the input; its space is 9 bytes further.
    /// assert_eq!(errors, [(2, 111)]);
    /// ```
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The records of the chunk with their line numbers, terminators removed.
    ///
    /// ```
    /// use uriscan::batch::Chunk;
    ///
    /// let lines: Vec<_> = Chunk::new(b"a\r\n\nb", 7, 0).lines().collect();
    /// assert_eq!(lines, [(7, &b"a"[..]), (8, &b""[..]), (9, &b"b"[..])]);
    /// ```
    #[must_use]
    pub fn lines(&self) -> Lines<'a> {
        Lines {
            data: self.data,
            pos: 0,
            line: self.first_line,
        }
    }
}

impl<'a> Chunk<'a> {
    /// The records of the chunk parsed as `mode` says, with the backend in
    /// use ([`Backend::current`]): `(line number, line, result)`. Faster than
    /// [`parse`](crate::parse) on each of [`Chunk::lines`]: a line's end is
    /// found by the pass that classifies it.
    ///
    /// ```
    /// use uriscan::{batch::Chunk, Mode};
    ///
    /// let chunk = Chunk::new(b"http://a/\r\nb c\n", 1, 0);
    /// let v: Vec<_> = chunk.uris(Mode::Reference).map(|(n, l, r)| (n, l, r.is_ok())).collect();
    /// assert_eq!(v, [(1, &b"http://a/"[..], true), (2, &b"b c"[..], false)]);
    /// ```
    #[must_use]
    pub fn uris(&self, mode: Mode) -> Uris<'a> {
        self.uris_with(mode, Backend::current())
    }

    /// [`Chunk::uris`] with a chosen backend (for benchmarks and tests); one
    /// this CPU cannot run means [`Backend::Scalar`].
    ///
    /// Every backend gives the same results:
    ///
    /// ```
    /// use uriscan::{batch::Chunk, Backend, Mode};
    ///
    /// let chunk = Chunk::new(b"http://a/b\n%zz\nhttp://[::1]:80/\n/no/scheme\n", 1, 0);
    /// let results = |backend| -> Vec<_> {
    ///     chunk
    ///         .uris_with(Mode::Uri, backend)
    ///         .map(|(n, _, r)| (n, r.map(|uri| uri.as_str())))
    ///         .collect()
    /// };
    /// let reference = results(Backend::Scalar);
    /// assert_eq!(reference[0], (1, Ok("http://a/b")));
    /// assert!(reference[1].1.is_err());
    /// for backend in Backend::ALL {
    ///     assert_eq!(results(backend), reference, "{}", backend.name());
    /// }
    /// ```
    #[must_use]
    pub fn uris_with(&self, mode: Mode, backend: Backend) -> Uris<'a> {
        Uris {
            data: self.data,
            pos: 0,
            line: self.first_line,
            mode,
            scanner: Scanner::default(),
            backend: if backend.is_available() {
                backend
            } else {
                Backend::Scalar
            },
        }
    }
}

impl<'a> Uris<'a> {
    /// The same records, with notes on each valid URI of what
    /// [`Normalizer::is_normal`] looks for (percent-encodings not in normal
    /// form, uppercase letters before the path, `/.`), found by the SIMD
    /// pass that classifies a window of lines: `is_normal` of a URI noted
    /// plain is then a few instructions instead of a pass of its own. What
    /// `uriscan normalize` and `dedup` run. (The scalar backend takes no
    /// notes.)
    ///
    /// [`Normalizer::is_normal`]: crate::Normalizer::is_normal
    ///
    /// ```
    /// use uriscan::{batch::Chunk, Mode, Normalizer};
    ///
    /// let n = Normalizer::default();
    /// let chunk = Chunk::new(b"http://a/b\nHTTP://a/b\nhttp://a/./b\n", 1, 0);
    /// let normal: Vec<bool> = chunk
    ///     .uris(Mode::Reference)
    ///     .for_normalizer()
    ///     .map(|(_, _, r)| n.is_normal(&r.unwrap()))
    ///     .collect();
    /// assert_eq!(normal, [true, false, false]);
    /// ```
    #[must_use]
    pub fn for_normalizer(mut self) -> Self {
        // A new scanner (with the old one's arrays) classifies again from
        // the next line on.
        self.scanner = self.scanner.into_noting();
        self
    }

    /// The records as `n` takes them: with the notes of
    /// [`Uris::for_normalizer`] when it reads them, else without, which
    /// saves their cost (about a sixth of the noted pass's instructions;
    /// the `surt` profile reads none).
    ///
    /// ```
    /// use uriscan::{batch::Chunk, Mode, Normalizer, Profile};
    ///
    /// let n = Normalizer::new(Profile::Surt);
    /// let chunk = Chunk::new(b"http://www.Example.com/a\n", 1, 0);
    /// let mut key = Vec::new();
    /// for (_, _, uri) in chunk.uris(Mode::Reference).for_normalizer_of(&n) {
    ///     n.normalize(&uri?, &mut key);
    /// }
    /// assert_eq!(key, b"com,example)/a");
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn for_normalizer_of(self, n: &Normalizer) -> Self {
        if n.uses_notes() {
            self.for_normalizer()
        } else {
            self
        }
    }

    /// [`Uris::fold`]'s loop over the lines, with or without the notes of
    /// [`Uris::for_normalizer`].
    #[inline(always)]
    fn fold_lines<const NOTE: bool, B, F>(mut self, mut acc: B, mut f: F, mode: Mode) -> B
    where
        F: FnMut(B, <Self as Iterator>::Item) -> B,
    {
        while self.pos < self.data.len() {
            let n = self.line;
            self.line += 1;
            let start = self.pos;
            let (end, next, d) = self
                .scanner
                .line::<NOTE>(self.backend, self.data, start, mode);
            let line = &self.data[start..end];
            self.pos = next;
            // Two calls, so that the valid line's result is never merged
            // with one returned through memory.
            acc = if d.valid {
                f(acc, (n, line, Ok(Uri::from_outcome(line, &d))))
            } else {
                f(acc, (n, line, invalid(&self.scanner, start, line, mode)))
            };
        }
        self.scanner.recycle();
        acc
    }
}

/// The result of the line at `start`, `line`, that `scanner` has just found
/// invalid: its error from the window's masks, or the reference
/// validator's for a line the window does not hold.
#[cold]
fn invalid<'a>(
    scanner: &Scanner,
    start: usize,
    line: &'a [u8],
    mode: Mode,
) -> Result<Uri<'a>, Error> {
    // The kept error first, here: returned by `why`, it came back through
    // memory and was copied by wider loads than wrote it, a stall (store
    // forwarding fails) of about 9% of an invalid line's time.
    if let Some(e) = scanner.kept(start) {
        return Err(e);
    }
    match scanner.why(start, line, mode) {
        Some(e) => Err(e),
        None => parse_reference(line, mode),
    }
}

/// The number of lines of `data`: its LFs ([`count_lfs`]), and a last line
/// without one.
pub(super) fn count_lines(data: &[u8]) -> u64 {
    lines_of(data, count_lfs(data))
}

/// The number of lines of `data`, which holds `lfs` LFs: those, and a last
/// line without one.
pub(super) fn lines_of(data: &[u8], lfs: u64) -> u64 {
    lfs + u64::from(data.last().is_some_and(|&b| b != b'\n'))
}

/// The number of LFs in `data`, counted with the vectors of the backend in
/// use ([`Backend::count_byte`]).
pub(super) fn count_lfs(data: &[u8]) -> u64 {
    Backend::current().count_byte(data, b'\n')
}

/// The iterator of [`Chunk::uris`].
///
/// Its items are `(line number, line without terminator, parse result)`:
///
/// ```
/// use uriscan::{batch::Chunk, ErrorKind, Mode};
///
/// let chunk = Chunk::new(b"http://a/\r\n/b\n", 1, 0);
/// let mut uris = chunk.uris(Mode::Uri);
/// let (n, line, result) = uris.next().unwrap();
/// assert_eq!((n, line), (1, &b"http://a/"[..]));
/// assert_eq!(result?.host(), Some("a"));
/// let (n, _, result) = uris.next().unwrap();
/// assert_eq!(n, 2);
/// assert_eq!(result.unwrap_err().kind(), ErrorKind::MissingScheme);
/// assert!(uris.next().is_none());
/// # Ok::<(), uriscan::Error>(())
/// ```
///
/// For the most lines a second, iterate internally (`fold`, `for_each`,
/// `count`...) rather than with `next`: the loop then hands each result
/// to the closure in registers. A closure that does more than a few things
/// may be left a call of its own (the loop calls it at two places), and
/// each line's result then goes through memory, where copying it stalls on
/// the stores that just wrote it: give `fold` a closure marked
/// `#[inline(always)]`, as `uriscan check` and `normalize` do (10% faster
/// for `normalize`):
///
/// ```
/// use uriscan::{batch::Chunk, Mode};
///
/// let chunk = Chunk::new(b"http://a/\nb c\n", 1, 0);
/// let (mut valid, mut invalid) = (0, Vec::new());
/// chunk.uris(Mode::Reference).fold((), #[inline(always)] |(), (n, _, result)| {
///     match result {
///         Ok(_) => valid += 1,
///         Err(e) => invalid.push((n, e.offset())),
///     }
/// });
/// assert_eq!((valid, invalid), (1, vec![(2, 1)]));
/// ```
#[derive(Clone, Debug)]
pub struct Uris<'a> {
    data: &'a [u8],
    pos: usize,
    line: u64,
    mode: Mode,
    backend: Backend,
    scanner: Scanner,
}

impl<'a> Iterator for Uris<'a> {
    type Item = (u64, &'a [u8], Result<Uri<'a>, Error>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.data.len() {
            return None;
        }
        let n = self.line;
        self.line += 1;
        if self.backend == Backend::Scalar {
            let (end, next) = stage2::line_at(self.data, self.pos);
            let line = &self.data[self.pos..end];
            self.pos = next;
            return Some((n, line, parse_reference(line, self.mode)));
        }
        // (`true`: notes if the scanner is noting.)
        let start = self.pos;
        let (end, next, d) = self
            .scanner
            .line::<true>(self.backend, self.data, start, self.mode);
        let line = &self.data[start..end];
        self.pos = next;
        // Each result is built in one place, straight into the return value:
        // a copy through the stack would cost store-forwarding stalls.
        if d.valid {
            return Some((n, line, Ok(Uri::from_outcome(line, &d))));
        }
        Some((n, line, invalid(&self.scanner, start, line, self.mode)))
    }

    /// Internal iteration (`for_each` uses it): the item goes straight to
    /// `f`, with no `Option` to fill and copy, so a hot loop keeps a valid
    /// line's result in registers.
    #[inline]
    fn fold<B, F>(mut self, mut acc: B, f: F) -> B
    where
        F: FnMut(B, Self::Item) -> B,
    {
        if self.backend == Backend::Scalar {
            let mut f = f;
            for item in self.by_ref() {
                acc = f(acc, item);
            }
            return acc;
        }
        // The loop without notes has no test for them per line, and in the
        // usual mode no test of the mode.
        match (self.scanner.is_noting(), self.mode) {
            (true, mode) => self.fold_lines::<true, B, F>(acc, f, mode),
            (false, Mode::Reference) => self.fold_lines::<false, B, F>(acc, f, Mode::Reference),
            (false, mode) => self.fold_lines::<false, B, F>(acc, f, mode),
        }
    }
}

/// The iterator of [`Chunk::lines`]: `(line number, line)`.
///
/// ```
/// use uriscan::batch::Chunk;
///
/// let mut lines = Chunk::new(b"one\r\n\ntwo\n", 5, 0).lines();
/// assert_eq!(lines.next(), Some((5, &b"one"[..])));
/// assert_eq!(lines.next(), Some((6, &b""[..])));
/// assert_eq!(lines.next(), Some((7, &b"two"[..])));
/// // Nothing after the final LF is a record.
/// assert_eq!(lines.next(), None);
/// ```
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    data: &'a [u8],
    pos: usize,
    line: u64,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (u64, &'a [u8]);

    #[inline]
    fn next(&mut self) -> Option<(u64, &'a [u8])> {
        if self.pos >= self.data.len() {
            return None;
        }
        let (end, next) = stage2::line_at(self.data, self.pos);
        let line = &self.data[self.pos..end];
        self.pos = next;
        let n = self.line;
        self.line += 1;
        Some((n, line))
    }
}
