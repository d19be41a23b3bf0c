//! The corpus engine: newline-delimited records, read in bounded memory,
//! processed on all cores, written in input order.
//!
//! A record is a line ended by LF; one CR before the LF (or at the end of the
//! input) is dropped; the last line needs no LF; the empty piece after a final
//! LF is not a record. Line numbers count from 1.
//!
//! How [`run`] works:
//!
//! 1. The input is read in blocks into chunks of about `chunk_size` bytes that
//!    end on a line feed (the bytes after the last LF of a block move to the next
//!    chunk). A line longer than a chunk grows that chunk: a line is never
//!    split. Each chunk knows the number of its first line.
//! 2. The calling thread reads chunks and spawns one rayon task per chunk,
//!    keeping at most `2 x threads + 2` chunks in flight; each task renders its
//!    chunk's output into its own buffer and returns a value (statistics, say).
//! 3. The calling thread receives finished chunks, puts them back in input
//!    order, writes their output and hands their values to `consume`: reading,
//!    processing and writing overlap, with no barrier between batches.
//!
//! Memory stays bounded by about `(2 x threads + 2) x chunk_size` plus outputs,
//! whatever the size of the input, be it a 10 GB file or an endless pipe. With
//! one thread, no thread pool is involved: chunks are read, processed and
//! written one after the other.
#![doc = include_str!("../docs/examples/batch/module.md")]

use std::io::{self, Read, Write};

use crate::grammar::{Error, Mode};
use crate::simd::Backend;
use crate::stage2::{self, Scanner};
use crate::uri::{parse_reference, Uri};

use std::collections::BTreeMap;
use std::sync::mpsc;

/// The default size of a chunk: large enough to amortise the scheduling, small
/// enough to keep every core busy on modest inputs.
#[doc = include_str!("../docs/examples/batch/default_chunk_size.md")]
pub const DEFAULT_CHUNK_SIZE: usize = 1 << 21;

/// A piece of input made of whole lines, and the number of its first line.
#[doc = include_str!("../docs/examples/batch/chunk.md")]
#[derive(Clone, Copy, Debug)]
pub struct Chunk<'a> {
    data: &'a [u8],
    first_line: u64,
    offset: u64,
}

impl<'a> Chunk<'a> {
    /// A chunk of `data` whose first line is line number `first_line` and which
    /// starts `offset` bytes into the input.
    #[doc = include_str!("../docs/examples/batch/chunk_new.md")]
    #[must_use]
    pub fn new(data: &'a [u8], first_line: u64, offset: u64) -> Chunk<'a> {
        Chunk {
            data,
            first_line,
            offset,
        }
    }

    /// The bytes of the chunk, line terminators included.
    #[doc = include_str!("../docs/examples/batch/data.md")]
    #[must_use]
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The number of the chunk's first line (1-based).
    #[doc = include_str!("../docs/examples/batch/first_line.md")]
    #[must_use]
    pub fn first_line(&self) -> u64 {
        self.first_line
    }

    /// The offset of the chunk's first byte in the input.
    #[doc = include_str!("../docs/examples/batch/offset.md")]
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
    #[doc = include_str!("../docs/examples/batch/uris_with.md")]
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
        // A new scanner classifies again from the next line on.
        self.scanner = Scanner::noting();
        self
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

/// The iterator of [`Chunk::uris`].
#[doc = include_str!("../docs/examples/batch/uris.md")]
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
#[doc = include_str!("../docs/examples/batch/lines.md")]
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

/// Worker threads that [`run`] hands chunks to (a rayon pool inside, which
/// no signature shows). Start one per process and reuse it across runs.
///
/// ```
/// use uriscan::batch::{run, Options, Pool};
///
/// let pool = Pool::new(2)?;
/// assert_eq!(pool.threads(), 2);
/// let options = Options { pool: Some(&pool), ..Options::default() };
/// let mut out = Vec::new();
/// run(&b"a\nb\n"[..], &mut out, &options, |chunk, out| {
///     for (_, line) in chunk.lines() {
///         out.extend_from_slice(line);
///     }
/// }, |_, _| {})?;
/// assert_eq!(out, b"ab");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Pool(rayon::ThreadPool);

impl Pool {
    /// A pool of `threads` worker threads (0: one per core).
    ///
    /// # Errors
    ///
    /// When the threads cannot be started.
    #[doc = include_str!("../docs/examples/batch/pool_new.md")]
    pub fn new(threads: usize) -> io::Result<Pool> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("uriscan-{i}"))
            .build()
            .map(Pool)
            .map_err(io::Error::other)
    }

    /// The number of worker threads.
    #[doc = include_str!("../docs/examples/batch/threads.md")]
    #[must_use]
    pub fn threads(&self) -> usize {
        self.0.current_num_threads()
    }
}

/// How [`run`] cuts and schedules its work.
#[doc = include_str!("../docs/examples/batch/options.md")]
#[derive(Clone, Copy, Debug)]
pub struct Options<'p> {
    /// The threads that process chunks; `None` processes them on the
    /// calling thread with no pool at all.
    pub pool: Option<&'p Pool>,
    /// The target size of a chunk in bytes (a chunk holding one long line is
    /// longer).
    pub chunk_size: usize,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            pool: None,
            chunk_size: DEFAULT_CHUNK_SIZE,
        }
    }
}

/// What [`run`] has done so far, given to its `consume` callback.
#[doc = include_str!("../docs/examples/batch/progress.md")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Input bytes processed and written.
    pub bytes: u64,
    /// Records processed and written.
    pub lines: u64,
}

/// A failure of [`run`]: reading the input or writing the output.
#[doc = include_str!("../docs/examples/batch/runerror.md")]
#[derive(Debug)]
pub enum RunError {
    /// Reading the input failed; what was read before has been processed and
    /// written.
    Read(io::Error),
    /// Writing the output failed (a closed pipe, say).
    Write(io::Error),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Read(e) => write!(f, "read error: {e}"),
            RunError::Write(e) => write!(f, "write error: {e}"),
        }
    }
}

impl std::error::Error for RunError {}

/// Processes the newline-delimited records of `input` chunk by chunk: calls
/// `process` on every chunk (in parallel when `options.pool` is set), writes
/// each chunk's output to `output` and hands its value to `consume`, both in
/// input order.
///
/// # Errors
///
/// [`RunError::Read`] when the input cannot be read (everything before is
/// processed, written and consumed first), [`RunError::Write`] when the output
/// cannot be written.
///
/// ```
/// use uriscan::batch::{run, Options};
///
/// let input = &b"http://a/\nnot a uri\r\n/b"[..];
/// let mut out = Vec::new();
/// let mut invalid = 0;
/// run(input, &mut out, &Options::default(),
///     |chunk, out| {
///         let mut n = 0;
///         for (line, text) in chunk.lines() {
///             if uriscan::parse(text, uriscan::Mode::Reference).is_err() {
///                 out.extend_from_slice(format!("{line}\n").as_bytes());
///                 n += 1;
///             }
///         }
///         n
///     },
///     |n, _progress| invalid += n,
/// )?;
/// assert_eq!(out, b"2\n");
/// assert_eq!(invalid, 1);
/// # Ok::<(), uriscan::batch::RunError>(())
/// ```
pub fn run<R, W, T, P, C>(
    input: R,
    output: &mut W,
    options: &Options<'_>,
    process: P,
    mut consume: C,
) -> Result<(), RunError>
where
    R: Read + Send,
    W: Write + Send + ?Sized,
    T: Send,
    P: Fn(&Chunk<'_>, &mut Vec<u8>) -> T + Sync,
    C: FnMut(T, &Progress),
{
    let chunk_size = options.chunk_size.max(1);
    let mut reader = ChunkReader::new(input, chunk_size);
    let mut progress = Progress::default();
    let Some(pool) = options.pool else {
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(chunk) = reader.next_chunk(buf).map_err(RunError::Read)? {
            out.clear();
            let value = process(&chunk.as_chunk(), &mut out);
            output.write_all(&out).map_err(RunError::Write)?;
            progress.bytes += chunk.len as u64;
            progress.lines += chunk.lines;
            consume(value, &progress);
            buf = chunk.data;
        }
        return Ok(());
    };

    run_pipelined(&pool.0, &mut reader, output, &process, &mut consume)
}

/// The parallel pipeline of [`run`]: the calling thread reads chunks and hands
/// each to the pool as a task, keeping at most `2 x threads + 2` in flight; it
/// writes finished chunks in input order as they come back.
fn run_pipelined<R, W, T, P, C>(
    pool: &rayon::ThreadPool,
    reader: &mut ChunkReader<R>,
    output: &mut W,
    process: &P,
    consume: &mut C,
) -> Result<(), RunError>
where
    R: Read + Send,
    W: Write + Send + ?Sized,
    T: Send,
    P: Fn(&Chunk<'_>, &mut Vec<u8>) -> T + Sync,
    C: FnMut(T, &Progress),
{
    let max_in_flight = pool.current_num_threads().max(1) * 2 + 2;
    let mut progress = Progress::default();
    pool.in_place_scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<(u64, OwnedChunk, Vec<u8>, T)>();
        let mut spare_in: Vec<Vec<u8>> = Vec::new();
        let mut spare_out: Vec<Vec<u8>> = Vec::new();
        // Finished chunks waiting for those before them, by sequence number.
        let mut ready: BTreeMap<u64, (OwnedChunk, Vec<u8>, T)> = BTreeMap::new();
        let (mut next_read, mut next_write, mut in_flight) = (0u64, 0u64, 0usize);
        let mut read_error = None;
        let mut write_error = None;
        let mut eof = false;
        loop {
            // INVARIANT: chunks [next_write, next_read) are in flight or ready;
            // bounding their number (not only those in flight) bounds memory
            // even when one slow chunk holds up the ones after it.
            while !eof && write_error.is_none() && next_read - next_write < max_in_flight as u64 {
                match reader.next_chunk(spare_in.pop().unwrap_or_default()) {
                    Ok(Some(chunk)) => {
                        let tx = done_tx.clone();
                        let mut out = spare_out.pop().unwrap_or_default();
                        let seq = next_read;
                        scope.spawn(move |_| {
                            out.clear();
                            let value = process(&chunk.as_chunk(), &mut out);
                            // The receiver outlives every task of the scope.
                            let _ = tx.send((seq, chunk, out, value));
                        });
                        next_read += 1;
                        in_flight += 1;
                    }
                    Ok(None) => eof = true,
                    Err(e) => {
                        read_error = Some(e);
                        eof = true;
                    }
                }
            }
            if in_flight == 0 {
                break;
            }
            let Ok((seq, chunk, out, value)) = done_rx.recv() else {
                break;
            };
            in_flight -= 1;
            ready.insert(seq, (chunk, out, value));
            while let Some((chunk, mut out, value)) = ready.remove(&next_write) {
                next_write += 1;
                if write_error.is_none() {
                    match output.write_all(&out) {
                        Ok(()) => {
                            progress.bytes += chunk.len as u64;
                            progress.lines += chunk.lines;
                            consume(value, &progress);
                        }
                        Err(e) => write_error = Some(e),
                    }
                }
                out.clear();
                spare_out.push(out);
                spare_in.push(chunk.data);
            }
        }
        match (write_error, read_error) {
            (Some(e), _) => Err(RunError::Write(e)),
            (None, Some(e)) => Err(RunError::Read(e)),
            (None, None) => Ok(()),
        }
    })
}

/// A chunk that owns its bytes.
struct OwnedChunk {
    /// The bytes of the chunk are `data[..len]`.
    data: Vec<u8>,
    len: usize,
    first_line: u64,
    offset: u64,
    lines: u64,
}

impl OwnedChunk {
    fn as_chunk(&self) -> Chunk<'_> {
        Chunk::new(&self.data[..self.len], self.first_line, self.offset)
    }
}

/// Cuts a byte stream into chunks of whole lines.
struct ChunkReader<R> {
    inner: R,
    chunk_size: usize,
    /// The bytes after the last LF of the previous chunk.
    carry: Vec<u8>,
    eof: bool,
    next_line: u64,
    offset: u64,
}

impl<R: Read> ChunkReader<R> {
    fn new(inner: R, chunk_size: usize) -> Self {
        ChunkReader {
            inner,
            chunk_size,
            carry: Vec::new(),
            eof: false,
            next_line: 1,
            offset: 0,
        }
    }

    /// The next chunk, in `buf`; `None` at the end of the input.
    fn next_chunk(&mut self, mut buf: Vec<u8>) -> io::Result<Option<OwnedChunk>> {
        // `buf` keeps its full length from one use to the next, so that only
        // memory it never had gets zeroed; `filled` says how much is data.
        let mut filled = self.carry.len();
        let mut target = self.chunk_size.max(filled + 1);
        if buf.len() < target {
            buf.resize(target, 0);
        }
        buf[..filled].copy_from_slice(&self.carry);
        self.carry.clear();
        loop {
            // INVARIANT: `buf[..filled]` holds no LF at or after `scanned`.
            let scanned = filled;
            filled = self.fill(&mut buf, filled, target)?;
            if let Some(i) = memchr::memrchr(b'\n', &buf[scanned..filled]) {
                if !self.eof || scanned + i + 1 < filled {
                    self.carry.extend_from_slice(&buf[scanned + i + 1..filled]);
                    filled = scanned + i + 1;
                }
                break;
            }
            if self.eof {
                break;
            }
            // A line longer than the chunk: grow the chunk, never split it.
            target = filled + self.chunk_size;
            if buf.len() < target {
                buf.resize(target, 0);
            }
        }
        if filled == 0 {
            return Ok(None);
        }
        let data = &buf[..filled];
        let mut lines = count_lf(data);
        if data.last() != Some(&b'\n') {
            lines += 1;
        }
        let chunk = OwnedChunk {
            first_line: self.next_line,
            offset: self.offset,
            lines,
            len: filled,
            data: buf,
        };
        self.next_line += lines;
        self.offset += filled as u64;
        Ok(Some(chunk))
    }

    /// Reads into `buf[filled..target]` until it is full or the input ends;
    /// returns the new `filled`.
    fn fill(&mut self, buf: &mut [u8], mut filled: usize, target: usize) -> io::Result<usize> {
        while filled < target && !self.eof {
            match self.inner.read(&mut buf[filled..target]) {
                Ok(0) => self.eof = true,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(filled)
    }
}

/// The number of LF bytes in `data`: byte-wide counts over blocks of 255 bytes,
/// a loop the compiler vectorises.
fn count_lf(data: &[u8]) -> u64 {
    // memchr counts with the widest vectors the CPU has.
    memchr::memchr_iter(b'\n', data).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that returns at most `n` bytes per call.
    struct Short<'a>(&'a [u8], usize);

    impl Read for Short<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn reference_lines(input: &[u8]) -> Vec<(u64, Vec<u8>)> {
        let mut pieces: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
        if pieces.last() == Some(&&b""[..]) {
            pieces.pop();
        }
        pieces
            .into_iter()
            .enumerate()
            .map(|(i, l)| (i as u64 + 1, l.strip_suffix(b"\r").unwrap_or(l).to_vec()))
            .collect()
    }

    fn collect(
        input: &[u8],
        chunk_size: usize,
        read_size: usize,
        threads: usize,
    ) -> Vec<(u64, Vec<u8>)> {
        let pool = Pool::new(threads).unwrap();
        let options = Options {
            pool: (threads > 1).then_some(&pool),
            chunk_size,
        };
        let mut out = Vec::new();
        let mut lines = Vec::new();
        let mut last = Progress::default();
        run(
            Short(input, read_size),
            &mut out,
            &options,
            |chunk, out| {
                let v: Vec<(u64, Vec<u8>)> = chunk.lines().map(|(n, l)| (n, l.to_vec())).collect();
                for (n, l) in &v {
                    out.extend_from_slice(format!("{n}:").as_bytes());
                    out.extend_from_slice(l);
                    out.push(b'\n');
                }
                v
            },
            |v, p| {
                assert!(p.bytes > last.bytes);
                last = *p;
                lines.extend(v)
            },
        )
        .unwrap();
        assert_eq!(last.bytes, input.len() as u64);
        assert_eq!(last.lines, lines.len() as u64);
        let mut expected = Vec::new();
        for (n, l) in &lines {
            expected.extend_from_slice(format!("{n}:").as_bytes());
            expected.extend_from_slice(l);
            expected.push(b'\n');
        }
        assert_eq!(out, expected, "output in input order");
        lines
    }

    #[test]
    fn chunk_boundaries_at_every_position() {
        let input = b"http://a/b\r\n\nxyz\r\n/q?x#y\nlast-no-lf\r";
        let expected = reference_lines(input);
        for chunk_size in 1..=input.len() + 1 {
            for read_size in [1, 3, 7, 1000] {
                for threads in [1, 2, 3] {
                    assert_eq!(
                        collect(input, chunk_size, read_size, threads),
                        expected,
                        "chunk {chunk_size} read {read_size} threads {threads}"
                    );
                }
            }
        }
    }

    #[test]
    fn edge_inputs() {
        for input in [
            &b""[..],
            b"\n",
            b"\n\n",
            b"\r\n",
            b"a",
            b"a\n",
            b"a\r",
            b"\r\r\n",
        ] {
            for chunk_size in 1..4 {
                assert_eq!(
                    collect(input, chunk_size, 2, 2),
                    reference_lines(input),
                    "{input:?}"
                );
            }
        }
    }

    #[test]
    fn line_longer_than_chunks() {
        let mut input = vec![b'x'; 100_000];
        input.extend_from_slice(b"\r\nshort\n");
        input.extend(vec![b'y'; 50_000]);
        assert_eq!(collect(&input, 1024, 4096, 2), reference_lines(&input));
    }

    #[test]
    fn read_error_keeps_what_came_before() {
        struct Failing(usize);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::other("boom"));
                }
                self.0 -= 1;
                buf[..2].copy_from_slice(b"a\n");
                Ok(2)
            }
        }
        let mut out = Vec::new();
        let mut lines = 0;
        let r = run(
            Failing(3),
            &mut out,
            &Options {
                pool: None,
                chunk_size: 2,
            },
            |c, o| {
                o.extend_from_slice(c.data());
                c.lines().count()
            },
            |n, _| lines += n,
        );
        assert!(matches!(r, Err(RunError::Read(_))));
        assert_eq!(lines, 3);
        assert_eq!(out, b"a\na\na\n");
    }
}
