//! [`run`]: chunks read in bounded memory, processed by a [`Pool`] (or the
//! calling thread), written and consumed in input order.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{mpsc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

use super::chunk::{count_lfs, count_lines, lines_of, Chunk};
use super::DEFAULT_CHUNK_SIZE;

/// The most bytes one `read` brings into a chunk: a piece whose LFs are
/// counted while it is in the cache (a chunk, 2 MiB by default, is about
/// as large as this machine's L2).
const READ_PIECE: usize = 1 << 18;

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
    ///
    /// ```
    /// use uriscan::batch::Pool;
    ///
    /// assert_eq!(Pool::new(3)?.threads(), 3);
    /// let per_core = Pool::new(0)?;
    /// assert!(per_core.threads() >= 1);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(threads: usize) -> io::Result<Pool> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("uriscan-{i}"))
            .build()
            .map(Pool)
            .map_err(io::Error::other)
    }

    /// The number of worker threads.
    ///
    /// ```
    /// use uriscan::batch::Pool;
    ///
    /// let pool = Pool::new(2)?;
    /// assert_eq!(pool.threads(), 2);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[must_use]
    pub fn threads(&self) -> usize {
        self.0.current_num_threads()
    }
}

/// How [`run`] cuts and schedules its work.
///
/// The default processes chunks of [`DEFAULT_CHUNK_SIZE`] bytes on the calling
/// thread; a [`Pool`] spreads them over its threads, and the output comes out
/// in input order all the same:
///
/// ```
/// use uriscan::batch::{run, Options, Pool, DEFAULT_CHUNK_SIZE};
///
/// let default = Options::default();
/// assert!(default.pool.is_none());
/// assert_eq!(default.chunk_size, DEFAULT_CHUNK_SIZE);
///
/// let pool = Pool::new(2)?;
/// let options = Options { pool: Some(&pool), chunk_size: 1 << 16, ..Options::default() };
/// let input: String = (0..20_000).map(|i| format!("http://example.com/{i}\n")).collect();
/// let mut out = Vec::new();
/// let mut chunks = 0;
/// run(input.as_bytes(), &mut out, &options,
///     |chunk, out| out.extend_from_slice(chunk.data()),
///     |(), _progress| chunks += 1,
/// )?;
/// assert_eq!(out, input.as_bytes());
/// assert!(chunks > 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Options<'p> {
    /// The threads that process chunks; `None` processes them on the
    /// calling thread with no pool at all.
    pub pool: Option<&'p Pool>,
    /// The target size of a chunk in bytes (a chunk holding one long line is
    /// longer).
    pub chunk_size: usize,
    /// The longest line kept, in bytes before its LF (a CR counted): a
    /// longer one is read past, never held whole, and listed by
    /// [`Chunk::skipped`] instead (the default, `usize::MAX`, keeps every
    /// line). A chunk is then at most `max_line + 1` bytes, whatever
    /// `chunk_size` says, so memory stays bounded on an input with no LF
    /// (`/dev/zero`).
    pub max_line: usize,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            pool: None,
            chunk_size: DEFAULT_CHUNK_SIZE,
            max_line: usize::MAX,
        }
    }
}

/// A line longer than [`Options::max_line`], left out of the chunks: its
/// number, where it starts and its length (without its LF).
///
/// ```
/// use uriscan::batch::{run, LongLine, Options};
///
/// let options = Options { max_line: 4, ..Options::default() };
/// let mut skipped = Vec::new();
/// let mut kept = Vec::new();
/// run(&b"ab\nabcdefgh\ncd\n"[..], &mut std::io::sink(), &options,
///     |chunk, _out| {
///         let lines: Vec<_> = chunk.lines().map(|(n, l)| (n, l.to_vec())).collect();
///         (chunk.skipped().to_vec(), lines)
///     },
///     |(long, lines), _progress| {
///         skipped.extend(long);
///         kept.extend(lines);
///     },
/// )?;
/// assert_eq!(skipped, [LongLine { line: 2, offset: 3, len: 8, lf: true }]);
/// assert_eq!(kept, [(1, b"ab".to_vec()), (3, b"cd".to_vec())]);
/// # Ok::<(), uriscan::batch::RunError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LongLine {
    /// Its line number (1-based).
    pub line: u64,
    /// The offset of its first byte in the input.
    pub offset: u64,
    /// Its length in bytes, its LF not counted.
    pub len: u64,
    /// Whether an LF ended it (not the end of the input).
    pub lf: bool,
}

impl LongLine {
    /// The bytes of input it took, its LF counted.
    #[must_use]
    pub fn input_len(&self) -> u64 {
        self.len + u64::from(self.lf)
    }
}

/// What [`run`] has done so far, given to its `consume` callback.
///
/// The counts are running totals, after each chunk:
///
/// ```
/// use uriscan::batch::{run, Options, Progress};
///
/// let options = Options { chunk_size: 1, ..Options::default() }; // a chunk per line
/// let mut seen = Vec::new();
/// run(&b"a\nbb\r\nccc"[..], &mut std::io::sink(), &options,
///     |_chunk, _out| (),
///     |(), progress| seen.push(*progress),
/// )?;
/// assert_eq!(seen, [
///     Progress { bytes: 2, lines: 1 },
///     Progress { bytes: 6, lines: 2 },
///     Progress { bytes: 9, lines: 3 },
/// ]);
/// # Ok::<(), uriscan::batch::RunError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Input bytes processed and written (or skipped as a [`LongLine`]).
    pub bytes: u64,
    /// Records processed and written (or skipped as a [`LongLine`]).
    pub lines: u64,
}

impl Progress {
    /// Counts `chunk`, the lines it skipped included.
    fn add(&mut self, chunk: &OwnedChunk) {
        let skipped = chunk.skipped.iter().map(LongLine::input_len).sum::<u64>();
        self.bytes += chunk.len as u64 + skipped;
        self.lines += chunk.lines + chunk.skipped.len() as u64;
    }
}

/// A failure of [`run`]: reading the input or writing the output.
///
/// ```
/// use std::io::{self, Read, Write};
/// use uriscan::batch::{run, Options, RunError};
///
/// struct BrokenDisk;
/// impl Read for BrokenDisk {
///     fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
///         Err(io::Error::other("disk on fire"))
///     }
/// }
/// let err = run(BrokenDisk, &mut Vec::new(), &Options::default(), |_, _| (), |(), _| {})
///     .unwrap_err();
/// assert!(matches!(err, RunError::Read(_)));
/// assert_eq!(err.to_string(), "read error: disk on fire");
///
/// struct ClosedPipe;
/// impl Write for ClosedPipe {
///     fn write(&mut self, _: &[u8]) -> io::Result<usize> {
///         Err(io::ErrorKind::BrokenPipe.into())
///     }
///     fn flush(&mut self) -> io::Result<()> {
///         Ok(())
///     }
/// }
/// let err = run(&b"a\n"[..], &mut ClosedPipe, &Options::default(),
///     |chunk, out| out.extend_from_slice(chunk.data()),
///     |(), _| {},
/// )
/// .unwrap_err();
/// assert!(matches!(err, RunError::Write(e) if e.kind() == io::ErrorKind::BrokenPipe));
/// ```
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
/// # Panics
///
/// When `process` or `consume` panics, on the calling thread, with that
/// panic's payload (a chunk's `process` that panics on a pool thread is
/// resumed there once the chunk comes back).
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
    let mut reader = ChunkReader::new(input, options.chunk_size, options.max_line);
    let mut progress = Progress::default();
    let Some(pool) = options.pool else {
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(chunk) = reader.next_chunk(buf).map_err(RunError::Read)? {
            out.clear();
            let value = process(&chunk.as_chunk(), &mut out);
            output.write_all(&out).map_err(RunError::Write)?;
            progress.add(&chunk);
            consume(value, &progress);
            buf = chunk.data;
        }
        return Ok(());
    };

    run_pipelined(&pool.0, &mut reader, output, &process, &mut consume)
}

/// The parallel pipeline of [`run`]: each of the pool's threads takes the
/// next chunk from the shared reader (one at a time, under a lock) and
/// processes it, so a chunk is read into the cache of the core that
/// processes it and no thread only reads; the calling thread writes
/// finished chunks in input order as they come back. At most
/// `2 x threads + 2` chunks are read and not yet written.
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
    let threads = pool.current_num_threads().max(1);
    let feed = Feed {
        state: Mutex::new(FeedState {
            reader,
            next_read: 0,
            written: 0,
            stop: false,
            read_error: None,
            spare: Vec::new(),
        }),
        room: Condvar::new(),
        ahead: threads as u64 * 2 + 2,
    };
    pool.in_place_scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<Done<T>>();
        for _ in 0..threads {
            let (tx, feed) = (done_tx.clone(), &feed);
            scope.spawn(move |_| feed.work(process, &tx));
        }
        drop(done_tx);
        // Whatever ends this thread's loop (the input's end, a failed
        // write, a panic here or in a worker), the workers stop taking
        // chunks: else a worker waiting for room would wait for ever, and
        // the scope with it.
        let _stop = StopOnDrop(&feed);
        let mut progress = Progress::default();
        // Finished chunks waiting for those before them, by sequence number.
        let mut ready: BTreeMap<u64, (OwnedChunk, Vec<u8>, T)> = BTreeMap::new();
        let mut next_write = 0u64;
        let mut write_error = None;
        let mut spare = Vec::new();
        // Ends when every worker has stopped: at the end of the input, on
        // a read error, or when told to.
        for (seq, chunk, out, value) in done_rx.iter() {
            let value = value.unwrap_or_else(|payload| panic::resume_unwind(payload));
            ready.insert(seq, (chunk, out, value));
            while let Some((chunk, out, value)) = ready.remove(&next_write) {
                next_write += 1;
                if let Err(e) = output.write_all(&out) {
                    write_error = Some(e);
                    break;
                }
                progress.add(&chunk);
                consume(value, &progress);
                spare.push((chunk.data, out));
            }
            let mut state = feed.lock();
            state.written = next_write;
            state.spare.append(&mut spare);
            drop(state);
            feed.room.notify_all();
            // (The workers are stopped by `_stop` on the way out.)
            if write_error.is_some() {
                break;
            }
        }
        let read_error = feed.lock().read_error.take();
        match (write_error, read_error) {
            (Some(e), _) => Err(RunError::Write(e)),
            (None, Some(e)) => Err(RunError::Read(e)),
            (None, None) => Ok(()),
        }
    })
}

/// A chunk processed by a worker: its sequence number, the chunk, its
/// output and its value (or the panic of `process`, to be resumed on the
/// calling thread).
type Done<T> = (u64, OwnedChunk, Vec<u8>, thread::Result<T>);

/// What the workers of [`run_pipelined`] share: the reader and the counts
/// behind one lock, and the condition that room was made.
struct Feed<'r, R> {
    state: Mutex<FeedState<'r, R>>,
    /// Notified when chunks are written (room for more) or on a stop.
    room: Condvar,
    /// How many chunks may be read and not yet written.
    ahead: u64,
}

struct FeedState<'r, R> {
    reader: &'r mut ChunkReader<R>,
    /// Chunks handed out so far, and written so far.
    // INVARIANT: chunks [written, next_read) are being processed or wait to
    // be written; bounding their number (not only those being processed)
    // bounds memory even when one slow chunk holds up the ones after it.
    next_read: u64,
    written: u64,
    /// No more chunks are to be taken.
    stop: bool,
    read_error: Option<io::Error>,
    /// Buffers of written chunks (input, output), for the next ones.
    spare: Vec<(Vec<u8>, Vec<u8>)>,
}

impl<'r, R> Feed<'r, R> {
    /// The state, even after a panic while it was held (a panic in
    /// `process` never happens under the lock; one in reading would be
    /// resumed from its worker all the same).
    fn lock(&self) -> MutexGuard<'_, FeedState<'r, R>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<R: Read> Feed<'_, R> {
    /// A worker's loop: take the next chunk (waiting for room), process
    /// it, send it back; until the input ends, a read fails or a stop.
    fn work<T, P>(&self, process: &P, done: &mpsc::Sender<Done<T>>)
    where
        P: Fn(&Chunk<'_>, &mut Vec<u8>) -> T,
    {
        loop {
            let mut state = self.lock();
            while !state.stop && state.next_read - state.written >= self.ahead {
                state = self
                    .room
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            if state.stop {
                return;
            }
            let (data, mut out) = state.spare.pop().unwrap_or_default();
            let chunk = match state.reader.next_chunk(data) {
                Ok(Some(chunk)) => chunk,
                Ok(None) => return,
                Err(e) => {
                    state.read_error = Some(e);
                    return;
                }
            };
            let seq = state.next_read;
            state.next_read += 1;
            drop(state);
            out.clear();
            // A panic goes back as the chunk's result, to be resumed on the
            // calling thread: else it would wait for this chunk for ever.
            let value =
                panic::catch_unwind(AssertUnwindSafe(|| process(&chunk.as_chunk(), &mut out)));
            if done.send((seq, chunk, out, value)).is_err() {
                return;
            }
        }
    }
}

/// Stops the workers of a [`Feed`] when dropped.
struct StopOnDrop<'f, 'r, R>(&'f Feed<'r, R>);

impl<R> Drop for StopOnDrop<'_, '_, R> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.stop = true;
        drop(state);
        self.0.room.notify_all();
    }
}

/// A chunk that owns its bytes.
pub(super) struct OwnedChunk {
    /// The bytes of the chunk are `data[..len]`.
    pub(super) data: Vec<u8>,
    pub(super) len: usize,
    first_line: u64,
    offset: u64,
    lines: u64,
    /// The lines too long to keep, read past just before this chunk's first.
    pub(super) skipped: Vec<LongLine>,
}

impl OwnedChunk {
    fn as_chunk(&self) -> Chunk<'_> {
        Chunk::new(&self.data[..self.len], self.first_line, self.offset)
            .with_skipped(&self.skipped)
            .with_lines(self.lines)
    }
}

/// Cuts a byte stream into chunks of whole lines, reading past lines longer
/// than `max_line`.
pub(super) struct ChunkReader<R> {
    inner: R,
    /// The target size of a chunk, at most `max_line + 1`.
    chunk_size: usize,
    max_line: usize,
    /// The bytes after the last LF of the previous chunk.
    carry: Vec<u8>,
    eof: bool,
    /// A read error, returned once the bytes read before it are a chunk.
    error: Option<io::Error>,
    next_line: u64,
    offset: u64,
}

impl<R: Read> ChunkReader<R> {
    pub(super) fn new(inner: R, chunk_size: usize, max_line: usize) -> Self {
        ChunkReader {
            inner,
            // INVARIANT: no chunk's buffer is filled past `max_line + 1`
            // bytes before an LF is looked for, so a line whose LF is
            // found is never too long, and one whose LF is not found in
            // `max_line + 1` bytes is.
            chunk_size: chunk_size.clamp(1, max_line.saturating_add(1)),
            max_line: max_line.max(1),
            carry: Vec::new(),
            eof: false,
            error: None,
            next_line: 1,
            offset: 0,
        }
    }

    /// The next chunk, in `buf`; `None` at the end of the input.
    pub(super) fn next_chunk(&mut self, mut buf: Vec<u8>) -> io::Result<Option<OwnedChunk>> {
        // `buf` keeps its full length from one use to the next, so that only
        // memory it never had gets zeroed; `filled` says how much is data.
        // It grows as the input comes (`fill`), not to `target` at once: a
        // small input takes little memory whatever the chunk size.
        let mut filled = self.carry.len();
        let mut target = self.chunk_size.max(filled + 1);
        if buf.len() < filled {
            buf.resize(filled, 0);
        }
        buf[..filled].copy_from_slice(&self.carry);
        self.carry.clear();
        // The LFs of `buf[..filled]`, counted as each read brings its bytes
        // (`fill`), while they are in the cache: a pass of its own over the
        // whole chunk afterwards cost about 4% more of `check -q -j1`'s time
        // (docs/PERFORMANCE.md, session 29). The carry holds none.
        let mut lfs = 0;
        let mut skipped = Vec::new();
        // INVARIANT: `buf[..scanned]` holds no LF.
        let mut scanned = 0;
        loop {
            filled = self.fill(&mut buf, filled, target, Some(&mut lfs));
            if let Some(i) = memchr::memrchr(b'\n', &buf[scanned..filled]) {
                if !self.eof || scanned + i + 1 < filled {
                    // The bytes after the last LF, which hold none.
                    self.carry.extend_from_slice(&buf[scanned + i + 1..filled]);
                    filled = scanned + i + 1;
                }
                break;
            }
            // `buf[..filled]` is the start of one line, which may be too long.
            if filled > self.max_line {
                skipped.push(self.skip_line(&mut buf, &mut filled));
                (scanned, target) = (0, self.chunk_size.max(filled));
                lfs = count_lfs(&buf[..filled]);
                continue;
            }
            if self.eof {
                break;
            }
            // A line longer than the chunk: grow the chunk, never split it.
            scanned = filled;
            target = (filled + self.chunk_size).min(self.max_line.saturating_add(1));
        }
        if filled == 0 && skipped.is_empty() {
            return self.error.take().map_or(Ok(None), Err);
        }
        let lines = lines_of(&buf[..filled], lfs);
        debug_assert_eq!(lines, count_lines(&buf[..filled]));
        let chunk = OwnedChunk {
            first_line: self.next_line,
            offset: self.offset,
            lines,
            len: filled,
            data: buf,
            skipped,
        };
        self.next_line += lines;
        self.offset += filled as u64;
        Ok(Some(chunk))
    }

    /// Reads past the line that `buf[..*filled]` starts, too long to keep,
    /// and up to its LF; leaves the bytes read after the LF in
    /// `buf[..*filled]`. Memory: `buf` as it is.
    fn skip_line(&mut self, buf: &mut Vec<u8>, filled: &mut usize) -> LongLine {
        let mut long = LongLine {
            line: self.next_line,
            offset: self.offset,
            len: 0,
            lf: false,
        };
        let mut read = *filled;
        loop {
            if let Some(i) = memchr::memchr(b'\n', &buf[..read]) {
                long.len += i as u64;
                long.lf = true;
                buf.copy_within(i + 1..read, 0);
                *filled = read - i - 1;
                break;
            }
            long.len += read as u64;
            if self.eof {
                *filled = 0;
                break;
            }
            let len = buf.len();
            // (The bytes of a line read past are not counted.)
            read = self.fill(buf, 0, len, None);
        }
        self.next_line += 1;
        self.offset += long.input_len();
        long
    }

    /// Reads into `buf[filled..target]` until it is full or the input ends;
    /// returns the new `filled`, having added the LFs read to `lfs` if given. Reads
    /// take at most [`READ_PIECE`] bytes, so that those LFs are counted in
    /// the cache. A read error ends the input, to be
    /// returned by the next `next_chunk`: what was read before it is
    /// processed first. `buf` grows as the bytes come, by what it holds (at least 64 KiB),
    /// up to `target`: never zeroed far ahead of the data.
    fn fill(
        &mut self,
        buf: &mut Vec<u8>,
        mut filled: usize,
        target: usize,
        mut lfs: Option<&mut u64>,
    ) -> usize {
        while filled < target && !self.eof {
            if buf.len() <= filled {
                let grow = filled.max(1 << 16).min(target - filled);
                // Out of memory is the input's error, not an abort.
                if buf.try_reserve_exact(filled + grow - buf.len()).is_err() {
                    self.error = Some(io::Error::new(
                        io::ErrorKind::OutOfMemory,
                        format!("out of memory for a chunk of {} bytes", filled + grow),
                    ));
                    self.eof = true;
                    break;
                }
                buf.resize(filled + grow, 0);
            }
            let end = buf.len().min(target).min(filled + READ_PIECE);
            match self.inner.read(&mut buf[filled..end]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    if let Some(lfs) = lfs.as_deref_mut() {
                        *lfs += count_lfs(&buf[filled..filled + n]);
                    }
                    filled += n;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.error = Some(e);
                    self.eof = true;
                }
            }
        }
        filled
    }
}
