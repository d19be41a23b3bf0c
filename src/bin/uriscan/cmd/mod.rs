//! The subcommands, one module each, all of one shape ([`Command`]): the
//! arguments become a configuration (`new`), every chunk of input is
//! processed on its own (`process`, in parallel), what the chunks yield is
//! taken in input order (`consume`), and the totals become a summary and an
//! exit status. `main`'s `drive` runs them all the same way. A new
//! subcommand is a new module here and a line in `subcommands!` below, with
//! its arguments (a `cli::Command` variant) in `cli`.

use std::io;
use std::path::PathBuf;

use uriscan::batch::{self, Chunk};
use uriscan::{Mode, Normalizer, Profile, UriBuf};

use crate::cli::{Input, KeyArgs, ModeArg, OutputOpt, ProfileArg, StatsFormat};
use crate::stats::Stats;

/// Declares the subcommands' modules and the dispatch from their
/// `cli::Command` variants (whose arguments each `new` takes) to
/// [`crate::drive`].
macro_rules! subcommands {
    ($($variant:ident => $module:ident::$command:ident,)*) => {
        $(pub mod $module;)*

        /// Runs the subcommand that `command` names.
        pub fn run(command: crate::cli::Command) -> anyhow::Result<std::process::ExitCode> {
            match command {
                $(crate::cli::Command::$variant(a) => crate::drive($module::$command::new(a)?),)*
            }
        }
    };
}

// One line per subcommand.
subcommands! {
    Check => check::Check,
    Split => split::Split,
    Stats => stats::StatsCmd,
    Normalize => normalize::Normalize,
    Resolve => resolve::Resolve,
    Dedup => dedup::Dedup,
    Extract => extract::Extract,
}

/// One subcommand, with its configuration.
pub trait Command: Sync {
    /// What a chunk yields for `consume` besides its counts and reports.
    type Extra: Send;
    /// What `consume` keeps from chunk to chunk and file to file.
    type State;

    /// The settings every subcommand has.
    fn common(&self) -> &Common;

    /// Written before any record (a TSV header).
    fn header(&self) -> &'static [u8] {
        b""
    }

    /// The state before the first chunk.
    fn state(&self) -> anyhow::Result<Self::State>;

    /// Processes one chunk of `file`, writing its records to `out`: the hot
    /// loop, run in parallel.
    fn process(&self, file: &str, chunk: &Chunk<'_>, out: &mut Vec<u8>) -> Part<Self::Extra>;

    /// Whether records are written by `consume` (in input order, with
    /// `state`), not by `process`.
    fn ordered(&self) -> bool {
        false
    }

    /// Takes what a chunk yielded, in input order, appending the records it
    /// decides to write to `out`.
    fn consume(
        &self,
        _extra: Self::Extra,
        _state: &mut Self::State,
        _out: &mut Vec<u8>,
    ) -> anyhow::Result<()> {
        Ok(())
    }

    /// Writes what is written once every input is read. A failed write to
    /// `out` is an [`OutputError`] (which a closed standard output makes a
    /// quiet end); any other error ends the run with status 2.
    fn finish(&self, _state: &mut Self::State, _out: &mut dyn io::Write) -> anyhow::Result<()> {
        Ok(())
    }

    /// The line for standard error at the end, if any.
    fn summary(&self, _totals: &Stats, _state: &Self::State) -> Option<String> {
        None
    }

    /// Whether these totals make the exit status 1.
    fn fails(&self, _totals: &Stats) -> bool {
        false
    }
}

/// A failed write to the output, told apart from `finish`'s other errors
/// (a temporary file's, say).
#[derive(Debug)]
pub struct OutputError(pub io::Error);

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for OutputError {}

/// What processing one chunk yields besides its records.
pub struct Part<X> {
    pub stats: Stats,
    /// Reports for standard error, in order.
    pub messages: Vec<u8>,
    /// The subcommand's own.
    pub extra: X,
}

impl<X> Part<X> {
    pub fn new(stats: Stats, messages: Vec<u8>, extra: X) -> Part<X> {
        Part {
            stats,
            messages,
            extra,
        }
    }
}

/// Where the statistics go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsTo {
    /// Standard error, after the records.
    Stderr,
    /// The output: they are what `stats` writes.
    Output,
}

/// `--max-line`'s default, 256 MiB: above any URI met in practice (browsers
/// stop at a few MB; a `data:` URI of a large image is tens of MB), and
/// above the 200 MB lines the test suite keeps, yet it bounds the memory an
/// input with no LF (`/dev/zero`) takes to that, plus the chunks.
pub const DEFAULT_MAX_LINE: usize = 256 << 20;

/// The settings every subcommand has, with clap left behind.
pub struct Common {
    pub files: Vec<PathBuf>,
    pub threads: usize,
    pub chunk_size: usize,
    /// `--max-line`: longer lines are skipped.
    pub max_line: usize,
    /// `Some(true)` for `--progress`, `Some(false)` for `--no-progress`.
    pub progress: Option<bool>,
    /// `--output`, or standard output.
    pub output: Option<PathBuf>,
    pub stats: Option<(StatsFormat, StatsTo)>,
    /// `--iri`: lines are mapped from IRIs to URIs before processing.
    pub iri: bool,
}

impl Common {
    /// The settings of these option groups; statistics, if asked for, go to
    /// standard error.
    pub fn new(input: Input, output: OutputOpt, stats: Option<StatsFormat>) -> Common {
        let threads = input
            .threads
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let mut files = input.files;
        if files.is_empty() {
            files.push(PathBuf::from("-"));
        }
        Common {
            files,
            threads,
            chunk_size: input.chunk_size.unwrap_or(batch::DEFAULT_CHUNK_SIZE),
            max_line: input.max_line.unwrap_or(DEFAULT_MAX_LINE),
            progress: if input.no_progress {
                Some(false)
            } else if input.progress {
                Some(true)
            } else {
                None
            },
            output: output.output,
            stats: stats.map(|f| (f, StatsTo::Stderr)),
            iri: false,
        }
    }

    /// With `--iri` or without.
    pub fn iri(mut self, on: bool) -> Common {
        self.iri = on;
        self
    }

    /// Whether the statistics count schemes (a hash map lookup per line).
    pub fn detailed(&self) -> bool {
        self.stats.is_some()
    }
}

pub fn mode(m: ModeArg) -> Mode {
    match m {
        ModeArg::Reference => Mode::Reference,
        ModeArg::Uri => Mode::Uri,
        ModeArg::Absolute => Mode::Absolute,
    }
}

/// The normalizer of `--profile` and its switches.
pub fn normalizer(k: &KeyArgs) -> Normalizer {
    let mut n = Normalizer::new(match k.profile {
        ProfileArg::Rfc3986 => Profile::Rfc3986,
        ProfileArg::Web => Profile::Web,
        ProfileArg::Surt => Profile::Surt,
    });
    n.strip_fragment |= k.strip_fragment;
    n.sort_query |= k.sort_query;
    n.strip_www |= k.strip_www;
    n.drop_params(k.drop_params.iter().filter(|g| !g.is_empty()));
    n
}

/// Parses `text` as the base URI of `what`, kept for the whole run.
pub fn base_uri(what: &str, text: String) -> anyhow::Result<UriBuf> {
    UriBuf::parse(text.as_str(), Mode::Uri).map_err(|e| {
        anyhow::anyhow!(
            "{what} {text:?} is not a URI: {e} (column {})",
            e.offset() + 1
        )
    })
}

/// The lines of `data` with each one that holds non-ASCII characters mapped
/// from an IRI to a URI (`--iri`), or `None` when all of it is ASCII. A
/// line that maps to no URI is kept as it is, for the subcommand to reject.
pub fn map_iris(data: &[u8]) -> Option<Vec<u8>> {
    if data.is_ascii() {
        return None;
    }
    let mut out = Vec::with_capacity(data.len() + data.len() / 4);
    for line in data.split_inclusive(|&b| b == b'\n') {
        let (body, end) = match line.strip_suffix(b"\n") {
            Some(b) => b
                .strip_suffix(b"\r")
                .map_or((b, &b"\n"[..]), |b| (b, &b"\r\n"[..])),
            None => (line, &b""[..]),
        };
        let at = out.len();
        if uriscan::iri_to_uri(body, &mut out).is_err() {
            out.truncate(at);
            out.extend_from_slice(body);
        }
        out.extend_from_slice(end);
    }
    Some(out)
}
