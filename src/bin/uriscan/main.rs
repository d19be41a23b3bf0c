//! The `uriscan` command: a thin layer over the library. `cli` parses the
//! command line into a [`Config`]; `run` drives the corpus engine
//! ([`uriscan::batch`]) over every input and maps the outcome to an exit code.

mod cli;
mod output;
mod progress;
mod stats;

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use clap::Parser as _;
use uriscan::batch::{self, Chunk, RunError};
use uriscan::Mode;

use cli::{Cli, Command, ModeArg, SplitFormat, StatsFormat};
use output::Record;
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

/// What the run does with each line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Job {
    /// Report invalid lines.
    Check { quiet: bool },
    /// Print every line's components.
    Split(SplitFormat),
    /// Count only.
    Stats,
}

/// Everything a run needs, with clap left behind.
struct Config {
    job: Job,
    files: Vec<PathBuf>,
    mode: Mode,
    threads: usize,
    chunk_size: usize,
    progress: Option<bool>,
    /// Where statistics go, if anywhere: `true` for standard output.
    stats: Option<(StatsFormat, bool)>,
}

impl Config {
    fn from_cli(cli: Cli) -> Config {
        let (job, input, stats) = match cli.command {
            Command::Check(a) => (
                Job::Check { quiet: a.quiet },
                a.input,
                a.stats.stats.then_some((a.stats.stats_format, false)),
            ),
            Command::Split(a) => (
                Job::Split(a.format),
                a.input,
                a.stats.stats.then_some((a.stats.stats_format, false)),
            ),
            Command::Stats(a) => (Job::Stats, a.input, Some((a.format, true))),
        };
        let threads = input
            .threads
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Config {
            job,
            files: input.files,
            mode: match input.mode {
                ModeArg::Reference => Mode::Reference,
                ModeArg::Uri => Mode::Uri,
                ModeArg::Absolute => Mode::Absolute,
            },
            threads,
            chunk_size: input.chunk_size.unwrap_or(batch::DEFAULT_CHUNK_SIZE),
            progress: if input.no_progress {
                Some(false)
            } else if input.progress {
                Some(true)
            } else {
                None
            },
            stats,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(Config::from_cli(cli)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("uriscan: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Renders one chunk's records into `out` and counts them.
fn process(config: &Config, file: &str, chunk: &Chunk<'_>, out: &mut Vec<u8>) -> Stats {
    let mut st = Stats {
        bytes: chunk.data().len() as u64,
        ..Stats::default()
    };
    let detailed = config.stats.is_some();
    for (line, text, result) in chunk.uris(config.mode) {
        st.record(&result, detailed);
        match config.job {
            Job::Check { quiet } => {
                if let (Err(e), false) = (&result, quiet) {
                    output::check_line(out, file, line, e);
                }
            }
            Job::Split(format) => {
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
                match format {
                    SplitFormat::Json => record.json(out),
                    SplitFormat::Tsv => record.tsv(out),
                }
            }
            Job::Stats => {}
        }
    }
    st
}

/// An input: standard input or a file.
enum Source {
    Stdin,
    File(File),
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::Stdin => io::stdin().lock().read(buf),
            Source::File(f) => f.read(buf),
        }
    }
}

fn open(path: &PathBuf) -> anyhow::Result<(Source, Option<u64>)> {
    if path.as_os_str() == "-" {
        return Ok((Source::Stdin, None));
    }
    let meta = std::fs::metadata(path).with_context(|| path.display().to_string())?;
    if meta.is_dir() {
        anyhow::bail!("{}: is a directory", path.display());
    }
    let file = File::open(path).with_context(|| path.display().to_string())?;
    Ok((Source::File(file), meta.is_file().then_some(meta.len())))
}

fn run(mut config: Config) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    if config.files.is_empty() {
        config.files.push(PathBuf::from("-"));
    }
    let pool = if config.threads > 1 {
        Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(config.threads)
                .build()
                .context("cannot start worker threads")?,
        )
    } else {
        None
    };
    let options = batch::Options {
        pool: pool.as_ref(),
        chunk_size: config.chunk_size,
    };
    let total: Option<u64> = config
        .files
        .iter()
        .map(|p| {
            std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len())
        })
        .sum();
    let progress = progress::Progress::new(config.progress, total);

    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout);
    let mut totals = Stats::default();
    let mut io_error = false;
    let mut closed = false;
    if config.job == Job::Split(SplitFormat::Tsv) {
        closed |= is_closed(out.write_all(output::TSV_HEADER.as_bytes()))?;
    }
    let (mut done_bytes, mut done_lines) = (0, 0);
    for path in &config.files {
        if closed {
            break;
        }
        let (source, _) = match open(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("uriscan: {e:#}");
                io_error = true;
                continue;
            }
        };
        let name = path.display().to_string();
        let result = batch::run(
            source,
            &mut out,
            &options,
            |chunk, buf| process(&config, &name, chunk, buf),
            |st, p| {
                totals.merge(st);
                progress.update(done_bytes + p.bytes, done_lines + p.lines);
            },
        );
        done_bytes = totals.bytes;
        done_lines = totals.lines;
        match result {
            Ok(()) => {}
            Err(RunError::Read(e)) => {
                eprintln!("uriscan: {name}: {e}");
                io_error = true;
            }
            Err(RunError::Write(e)) => closed |= is_closed(Err(e))?,
        }
    }
    if !closed {
        closed |= is_closed(out.flush())?;
    }
    progress.finish();
    drop(out);

    let elapsed = start.elapsed();
    if let Some((format, to_stdout)) = config.stats {
        let text = match format {
            StatsFormat::Text => totals.text(elapsed),
            StatsFormat::Json => totals.json(elapsed),
        };
        if to_stdout {
            if !closed {
                is_closed(io::stdout().lock().write_all(text.as_bytes()))?;
            }
        } else {
            eprint!("{text}");
        }
    }
    if let Job::Check { .. } = config.job {
        eprintln!("{}", totals.summary());
    }
    Ok(if io_error {
        ExitCode::from(2)
    } else if matches!(config.job, Job::Check { .. }) && totals.invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `Ok(true)` when a write failed because standard output was closed (which
/// ends the run quietly), `Ok(false)` when it succeeded, an error otherwise.
fn is_closed(result: io::Result<()>) -> anyhow::Result<bool> {
    match result {
        Ok(()) => Ok(false),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(true),
        Err(e) => Err(anyhow::Error::new(e).context("cannot write to standard output")),
    }
}
