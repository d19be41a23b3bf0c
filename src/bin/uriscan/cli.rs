//! The command line, as clap sees it. Nothing outside this file and
//! `Config::from_cli` sees clap.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Scan, split and validate RFC 3986 URIs, one per line, at the speed of memory.
///
/// Input: the files named, or standard input when none is named or `-` is. Records
/// are lines ended by LF; one CR before the LF is dropped; the last line needs no
/// LF. Exit status: 0 success, 1 invalid lines (check), 2 usage or I/O error.
#[derive(Parser, Debug)]
#[command(name = "uriscan", version, long_version = crate::long_version(), max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Validate every line; print `FILE:LINE:COL: message` for each invalid one.
    ///
    /// A summary (`N lines, V valid, I invalid`) goes to standard error. Exit
    /// status: 0 when every line is valid, 1 when some are not, 2 on a usage or I/O
    /// error (which wins over invalid lines).
    Check(CheckArgs),
    /// Split every line into its components (RFC 3986 Appendix B) and validate it.
    ///
    /// One record per input line, in input order: a JSON object (`--format json`)
    /// or a TSV row (`--format tsv`, with a header; `\N` is undefined). scheme,
    /// authority, path, query and fragment are present even for invalid lines
    /// (null = undefined, "" = empty); userinfo, host and port only for valid ones.
    /// Exit status: 0, or 2 on an I/O error; validity is reported in the output.
    Split(SplitArgs),
    /// Print statistics about the input: lines, validity, error kinds, schemes and
    /// host kinds.
    Stats(StatsArgs),
}

#[derive(Args, Debug)]
pub struct Input {
    /// Files to read; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The rule every line must match.
    #[arg(long, value_enum, default_value_t = ModeArg::Reference)]
    pub mode: ModeArg,
    /// Worker threads (default: all cores). -j1 runs without a thread pool.
    #[arg(short = 'j', long = "threads", value_name = "N")]
    pub threads: Option<usize>,
    /// Target size of a unit of parallel work, in bytes (K, M and G suffixes allowed).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub chunk_size: Option<usize>,
    /// Show progress on standard error even when it is not a terminal.
    #[arg(long, overrides_with = "no_progress")]
    pub progress: bool,
    /// Never show progress.
    #[arg(long)]
    pub no_progress: bool,
}

#[derive(Args, Debug)]
pub struct StatsOptions {
    /// Print statistics to standard error at the end.
    #[arg(long)]
    pub stats: bool,
    /// The format of the statistics.
    #[arg(long, value_enum, default_value_t = StatsFormat::Text)]
    pub stats_format: StatsFormat,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: Input,
    #[command(flatten)]
    pub stats: StatsOptions,
    /// Print only the summary, not each invalid line.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct SplitArgs {
    #[command(flatten)]
    pub input: Input,
    #[command(flatten)]
    pub stats: StatsOptions,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SplitFormat::Json)]
    pub format: SplitFormat,
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub input: Input,
    /// The format of the statistics.
    #[arg(long = "format", value_enum, default_value_t = StatsFormat::Text)]
    pub format: StatsFormat,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeArg {
    /// URI-reference: a URI or a relative reference.
    Reference,
    /// URI: a scheme is required.
    Uri,
    /// absolute-URI: a scheme is required and a fragment is not allowed.
    Absolute,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitFormat {
    Json,
    Tsv,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsFormat {
    Text,
    Json,
}

/// `4096`, `64K`, `2M`, `1G` (binary multiples).
fn parse_size(s: &str) -> Result<usize, String> {
    let s = s.trim();
    let (digits, shift) = match s.as_bytes().last() {
        Some(b'k' | b'K') => (&s[..s.len() - 1], 10),
        Some(b'm' | b'M') => (&s[..s.len() - 1], 20),
        Some(b'g' | b'G') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    let n: usize = digits
        .parse()
        .map_err(|_| format!("'{s}' is not a size (examples: 65536, 64K, 2M)"))?;
    let size = n
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("'{s}' is too large"))?;
    if size == 0 {
        return Err("the chunk size must be at least 1 byte".into());
    }
    Ok(size)
}
