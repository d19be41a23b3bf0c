//! The `uriscan` command: a thin layer over the library. `cli` parses the
//! command line; each subcommand (`cmd`) turns its arguments into its
//! configuration; [`drive`] runs the corpus engine ([`uriscan::batch`]) with
//! it over every input and maps the outcome to an exit code: 0 all well, 1
//! invalid lines (where the subcommand says so) or lines longer than
//! `--max-line` skipped, 2 a usage or I/O error (a file that shrinks while it
//! is read is one: [`Shrinking`]). A closed standard output ends the run
//! quietly, with success. The one
//! `unsafe` block is the key store's prefetch (`seen`).
#![deny(unsafe_code)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod cli;
mod cmd;
mod output;
mod progress;
mod seen;
mod stats;

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::Context as _;
use clap::Parser as _;
use uriscan::batch::{self, Chunk, RunError};

use cli::{Cli, StatsFormat};
use cmd::StatsTo;
use output::Dest;
use progress::Progress;
use stats::Stats;

/// `--version --verbose` style details: shown by `uriscan --version`.
pub fn long_version() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        format!(
            "{}\nbackend: {} (available: {}; URISCAN_BACKEND forces one)",
            env!("CARGO_PKG_VERSION"),
            uriscan::Backend::current().name(),
            uriscan::Backend::available()
                .iter()
                .map(|b| b.name())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    check_forced_backend();
    let code = match run(cli) {
        Ok(code) => code,
        Err(e) => {
            to_stderr(format!("uriscan: {e:#}\n").as_bytes());
            ExitCode::from(2)
        }
    };
    // A report that could not be written (`2>/dev/full`) is an I/O error,
    // whatever the run found.
    if STDERR_FAILED.load(Ordering::Relaxed) {
        return ExitCode::from(2);
    }
    code
}

/// Set once a write to standard error failed.
static STDERR_FAILED: AtomicBool = AtomicBool::new(false);

/// Writes `bytes` to standard error; a failure (a full disk, a closed
/// descriptor) is remembered for the exit status, never a panic as
/// `eprintln!`'s.
fn to_stderr(bytes: &[u8]) {
    if io::stderr().lock().write_all(bytes).is_err() {
        STDERR_FAILED.store(true, Ordering::Relaxed);
    }
}

/// `--generate`, or the subcommand.
fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match (cli.generate, cli.command) {
        (Some(kind), _) => {
            let text = cli::generate(kind).context("cannot generate")?;
            is_closed(io::stdout().lock().write_all(&text), None)?;
            Ok(ExitCode::SUCCESS)
        }
        (None, Some(command)) => cmd::run(command),
        (None, None) => anyhow::bail!("a subcommand or --generate is required (see --help)"),
    }
}

/// Says so on standard error when `URISCAN_BACKEND` names a backend that is
/// not the one in use (no such backend, or one this CPU cannot run): the
/// library then falls back to the detected one without a word, and a
/// benchmark or test run would measure something else than it says.
fn check_forced_backend() {
    let Some(name) = std::env::var_os("URISCAN_BACKEND") else {
        return;
    };
    let name = name.to_string_lossy();
    let used = uriscan::Backend::current();
    let why = match uriscan::Backend::from_name(name.trim()) {
        _ if name.trim().is_empty() => return,
        Some(b) if b == used => return,
        Some(_) => "this CPU cannot run it".to_string(),
        None => {
            let names: Vec<&str> = uriscan::Backend::ALL.iter().map(|b| b.name()).collect();
            format!("no such backend ({})", names.join(", "))
        }
    };
    to_stderr(
        format!(
            "uriscan: warning: URISCAN_BACKEND={name}: {why}; using {}\n",
            used.name()
        )
        .as_bytes(),
    );
}

/// Runs subcommand `cmd` over every input: its `process` on every chunk (in
/// parallel), its `consume` in input order; then the statistics, the
/// summary and the exit status.
fn drive<C: cmd::Command>(cmd: C) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let common = cmd.common();
    let to = common.output.as_deref();
    if let Some(path) = to {
        check_not_an_input(path, &common.files)?;
    }
    let mut out = BufWriter::with_capacity(1 << 16, Dest::create(to)?);
    let pool = if common.threads > 1 {
        Some(batch::Pool::new(common.threads).context("cannot start worker threads")?)
    } else {
        None
    };
    let options = batch::Options {
        pool: pool.as_ref(),
        chunk_size: common.chunk_size,
        max_line: common.max_line,
    };
    let total: Option<u64> = common
        .files
        .iter()
        .map(|p| {
            std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len())
        })
        .sum();
    let mut progress = Progress::new(common.progress, total);
    let mut state = cmd.state()?;
    let mut totals = Stats::default();
    let mut input_error = false;
    let mut closed = is_closed(out.write_all(cmd.header()), to)?;
    // The records that `consume` decides on, chunk by chunk.
    let mut pending = Vec::new();
    for path in &common.files {
        if closed {
            break;
        }
        let name = path.display().to_string();
        let source = match open(path) {
            Ok(s) => s,
            Err(e) => {
                to_stderr(format!("uriscan: cannot read {name}: {e}\n").as_bytes());
                input_error = true;
                continue;
            }
        };
        // Records are written by the engine as chunks finish, or (ordered
        // subcommands) by `consume`; then the engine's writes fail once
        // `consume`'s have, which ends its run.
        let stop = AtomicBool::new(false);
        let (mut none, mut unless_stopped) = (io::sink(), Stop(&stop));
        let (chunk_out, ordered_out): (&mut (dyn Write + Send), &mut dyn Write) = if cmd.ordered() {
            (&mut unless_stopped, &mut out)
        } else {
            (&mut out, &mut none)
        };
        let (mut failed, mut write_failed) = (None, None);
        let result = batch::run(
            source,
            chunk_out,
            &options,
            |chunk, buf| {
                // `--iri`: the chunk's lines mapped to URIs, numbered as before.
                let mapped = common.iri.then(|| cmd::map_iris(chunk.data())).flatten();
                let mut part = match &mapped {
                    Some(data) => {
                        let mapped = Chunk::new(data, chunk.first_line(), chunk.offset());
                        cmd.process(&name, &mapped, buf)
                    }
                    None => cmd.process(&name, chunk, buf),
                };
                part.stats.bytes = chunk.data().len() as u64;
                note_skipped(&name, chunk.skipped(), &mut part);
                part
            },
            |part, p| {
                if !part.messages.is_empty() {
                    to_stderr(&part.messages);
                }
                totals.merge(part.stats);
                // After a failure, nothing more is offered.
                if failed.is_none() && write_failed.is_none() {
                    pending.clear();
                    match cmd.consume(part.extra, &mut state, &mut pending) {
                        Ok(()) => write_failed = ordered_out.write_all(&pending).err(),
                        Err(e) => failed = Some(e),
                    }
                    if failed.is_some() || write_failed.is_some() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                progress.update(p);
            },
        );
        progress.next_file();
        if let Some(e) = failed {
            return Err(e);
        }
        if let Some(e) = write_failed {
            closed |= is_closed(Err(e), to)?;
        }
        match result {
            Ok(()) => {}
            Err(RunError::Write(_)) if closed => {}
            Err(RunError::Read(e)) => {
                to_stderr(format!("uriscan: cannot read {name}: {e}\n").as_bytes());
                input_error = true;
            }
            Err(RunError::Write(e)) => closed |= is_closed(Err(e), to)?,
        }
    }
    if !closed {
        // dedup: what is printed at the end (`--count`, `--memory`).
        if let Err(e) = cmd.finish(&mut state, &mut out) {
            match e.downcast::<cmd::OutputError>() {
                Ok(cmd::OutputError(e)) => closed |= is_closed(Err(e), to)?,
                Err(e) => return Err(e),
            }
        }
    }
    progress.finish();
    let elapsed = start.elapsed();
    // After an input error, or once standard output is closed, the counts
    // are partial: no statistics and no summary.
    let partial = input_error || closed;
    let stats = common.stats.filter(|_| !partial).map(|(format, to)| {
        let text = match format {
            StatsFormat::Text => totals.text(elapsed),
            StatsFormat::Json => totals.json(elapsed),
        };
        (text, to)
    });
    if let (Some((text, StatsTo::Output)), false) = (&stats, closed) {
        closed |= is_closed(out.write_all(text.as_bytes()), to)?;
    }
    if !closed {
        is_closed(out.flush(), to)?;
    }
    drop(out);
    if input_error {
        return Ok(ExitCode::from(2));
    }
    if closed {
        return Ok(ExitCode::SUCCESS);
    }
    if let Some((text, StatsTo::Stderr)) = &stats {
        to_stderr(text.as_bytes());
    }
    if let Some(summary) = cmd.summary(&totals, &state) {
        to_stderr(format!("{summary}\n").as_bytes());
    }
    if totals.skipped > 0 {
        let lines = output::count(totals.skipped, "line", "lines");
        to_stderr(format!("uriscan: {lines} longer than --max-line skipped\n").as_bytes());
        return Ok(ExitCode::from(1));
    }
    Ok(if cmd.fails(&totals) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Reports the lines longer than `--max-line` read past before `part`'s
/// chunk of `file`, before its own reports, and counts them.
fn note_skipped<X>(file: &str, skipped: &[batch::LongLine], part: &mut cmd::Part<X>) {
    if skipped.is_empty() {
        return;
    }
    let mut messages = Vec::new();
    for long in skipped {
        let _ = writeln!(
            messages,
            "uriscan: {file}:{}: line of {} bytes (from byte {}) longer than --max-line, skipped",
            long.line, long.len, long.offset
        );
        part.stats.bytes += long.input_len();
    }
    messages.append(&mut part.messages);
    part.messages = messages;
    part.stats.lines += skipped.len() as u64;
    part.stats.skipped += skipped.len() as u64;
}

/// An input: standard input or a file.
enum Source {
    Stdin,
    File(Shrinking),
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::Stdin => io::stdin().lock().read(buf),
            Source::File(f) => f.read(buf),
        }
    }
}

fn open(path: &Path) -> io::Result<Source> {
    if path.as_os_str() == "-" {
        return Ok(Shrinking::stdin().map_or(Source::Stdin, Source::File));
    }
    if std::fs::metadata(path)?.is_dir() {
        return Err(io::Error::other("it is a directory"));
    }
    Shrinking::open(path).map(Source::File)
}

/// A file that fails to read when it ends before the size it had when it
/// was opened: truncated while it is read (a log rotated, a file rewritten),
/// it would otherwise be processed short without a word. (A file that
/// grows is read to its new end.)
struct Shrinking {
    file: File,
    /// The bytes from the position at open to the end (0 for what is not
    /// a regular file: a FIFO, a device, a file of /proc, whose sizes say
    /// nothing).
    size: u64,
    /// The file's size when it was opened.
    len: u64,
    read: u64,
}

impl Shrinking {
    fn open(path: &Path) -> io::Result<Shrinking> {
        Shrinking::new(File::open(path)?)
    }

    /// Standard input when it is a regular file (`< access.log`), read
    /// from where it stands; `None` for a pipe or a terminal.
    fn stdin() -> Option<Shrinking> {
        let shrinking = Shrinking::new(stdin_file()?).ok()?;
        (shrinking.size > 0).then_some(shrinking)
    }

    /// `file`, expected to hold the bytes from where it stands to its end.
    fn new(mut file: File) -> io::Result<Shrinking> {
        use std::io::Seek as _;
        let meta = file.metadata()?;
        let size = if meta.is_file() {
            meta.len().saturating_sub(file.stream_position()?)
        } else {
            0
        };
        Ok(Shrinking {
            file,
            size,
            len: meta.len(),
            read: 0,
        })
    }

    /// Whether the file's size is now less than it was when opened.
    fn shrank(&self) -> io::Result<bool> {
        Ok(self.file.metadata()?.len() < self.len)
    }
}

impl Read for Shrinking {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read(buf)?;
        self.read += n as u64;
        // (A file whose size is no length, as sysfs gives every file 4096,
        // ends early but has not shrunk: its size still says the same.)
        if n == 0 && !buf.is_empty() && self.read < self.size && self.shrank()? {
            return Err(io::Error::other(format!(
                "it shrank while it was read: it ended after {} of the {} bytes it had when opened",
                self.read, self.size
            )));
        }
        Ok(n)
    }
}

/// A sink for the engine's (empty) chunk records that fails once `consume`
/// has, so that the engine stops reading.
struct Stop<'a>(&'a AtomicBool);

impl Write for Stop<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.0.load(Ordering::Relaxed) {
            return Err(io::Error::other("the output failed"));
        }
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.write(buf).map(drop)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Refuses an output file that is one of the inputs: creating it would
/// empty the input before it is read. The same file by another name (a
/// symbolic or hard link, another mount of it) or as standard input
/// (`-o f < f`) is the same input.
fn check_not_an_input(output: &Path, inputs: &[std::path::PathBuf]) -> anyhow::Result<()> {
    // It does not exist yet (or cannot be resolved): no input is it.
    let Some(id) = file_id(output) else {
        return Ok(());
    };
    let stdin = || {
        let stdin = stdin_file().and_then(|f| FileId::of(&f.metadata().ok()?, None));
        if stdin.as_ref() == Some(&id) {
            anyhow::bail!(
                "the output file {} is also the standard input (it would be emptied before it is read)",
                output.display()
            );
        }
        Ok(())
    };
    if inputs.is_empty() {
        stdin()?;
    }
    for input in inputs {
        if input.as_os_str() == "-" {
            stdin()?;
        } else if file_id(input).as_ref() == Some(&id) {
            anyhow::bail!(
                "the output file {} is the input {} (it would be emptied before it is read)",
                output.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// What makes a regular file (the only kind that creating an output
/// empties) the same file: its device and inode, where there are such (any
/// of its names, links or mounts), else its resolved path.
#[derive(PartialEq, Eq)]
enum FileId {
    #[cfg_attr(not(unix), allow(dead_code))]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(std::path::PathBuf),
}

impl FileId {
    /// Of the file whose metadata is `m`, at `path` (`None` for standard
    /// input, which has none); `None` for what is not a regular file.
    fn of(m: &std::fs::Metadata, path: Option<&Path>) -> Option<FileId> {
        if !m.is_file() {
            return None;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let _ = path;
            Some(FileId::Inode(m.dev(), m.ino()))
        }
        #[cfg(not(unix))]
        {
            Some(FileId::Path(std::fs::canonicalize(path?).ok()?))
        }
    }
}

/// The [`FileId`] of the file at `path`; `None` when it does not exist or
/// is no regular file.
fn file_id(path: &Path) -> Option<FileId> {
    FileId::of(&std::fs::metadata(path).ok()?, Some(path))
}

/// What standard input reads, as a file of its own (its descriptor
/// duplicated); `None` where that cannot be had.
#[cfg(unix)]
fn stdin_file() -> Option<File> {
    use std::os::fd::AsFd as _;
    Some(File::from(io::stdin().as_fd().try_clone_to_owned().ok()?))
}

#[cfg(not(unix))]
fn stdin_file() -> Option<File> {
    None
}

/// `Ok(true)` when a write failed because standard output was closed (which
/// ends the run quietly), `Ok(false)` when it succeeded, an error otherwise.
/// `to` is `--output`'s file.
fn is_closed(result: io::Result<()>, to: Option<&Path>) -> anyhow::Result<bool> {
    match (result, to) {
        (Ok(()), _) => Ok(false),
        (Err(e), None) if e.kind() == io::ErrorKind::BrokenPipe => Ok(true),
        (Err(e), None) => Err(anyhow::Error::new(e).context("cannot write to standard output")),
        (Err(e), Some(path)) => {
            Err(anyhow::Error::new(e).context(format!("cannot write to {}", path.display())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file truncated while it is read fails to read at its new end,
    /// after giving what it had; one read whole, or one that grew, does not.
    #[test]
    fn a_file_that_shrinks_while_read_is_an_error() {
        let path = std::env::temp_dir().join(format!("uriscan-shrink-{}", std::process::id()));
        std::fs::write(&path, vec![b'a'; 10_000]).unwrap();
        let mut source = Shrinking::open(&path).unwrap();
        let mut buf = [0; 4096];
        assert_eq!(source.read(&mut buf).unwrap(), 4096);
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(5000)
            .unwrap();
        let mut rest = Vec::new();
        let err = source.read_to_end(&mut rest).unwrap_err();
        assert_eq!(rest.len(), 5000 - 4096);
        assert_eq!(
            err.to_string(),
            "it shrank while it was read: it ended after 5000 of the 10000 bytes it had when opened"
        );
        // Read whole; grown while read.
        let mut all = Vec::new();
        Shrinking::open(&path)
            .unwrap()
            .read_to_end(&mut all)
            .unwrap();
        assert_eq!(all.len(), 5000);
        let mut source = Shrinking::open(&path).unwrap();
        std::fs::write(&path, vec![b'b'; 6000]).unwrap();
        all.clear();
        source.read_to_end(&mut all).unwrap();
        assert_eq!(all.len(), 6000);
        std::fs::remove_file(&path).unwrap();
    }
}
