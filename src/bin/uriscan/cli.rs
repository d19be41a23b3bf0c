//! The command line, as clap sees it: the subcommands' arguments, the option
//! groups they share, and `--generate`. Nothing outside this file sees clap;
//! each `cmd` module turns its arguments into its configuration.

use std::io;
use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

/// Scan, split and validate RFC 3986 URIs, one per line, at the speed of memory.
///
/// Input: the files named, or standard input when none is named or `-` is. Records
/// are lines ended by LF; one CR before the LF is dropped; the last line needs no
/// LF. Output: standard output, or the file of `-o/--output`. Exit status: 0
/// success, 1 invalid lines (check; normalize, resolve and dedup with `--strict`)
/// or lines longer than `--max-line` skipped, 2 usage or I/O error.
#[derive(Parser, Debug)]
#[command(
    name = "uriscan",
    version,
    long_version = crate::long_version(),
    max_term_width = 100,
    arg_required_else_help = true,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// Print the man pages (roff) or a shell's completion script to standard
    /// output, and exit.
    #[arg(long, value_enum, value_name = "KIND")]
    pub generate: Option<Generate>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What `--generate` prints.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generate {
    /// The man pages, in roff: uriscan(1), then uriscan-check(1) and the
    /// other subcommands'.
    Man,
    /// Completions for bash.
    CompleteBash,
    /// Completions for zsh.
    CompleteZsh,
    /// Completions for fish.
    CompleteFish,
    /// Completions for PowerShell.
    CompletePowershell,
}

/// What `--generate` asks for: the man page or a completion script.
pub fn generate(kind: Generate) -> io::Result<Vec<u8>> {
    use clap_complete::Shell;
    let mut command = Cli::command();
    let mut out = Vec::new();
    let shell = match kind {
        Generate::Man => {
            // The page of uriscan, then one for each subcommand (the
            // `uriscan-check(1)`... its SEE ALSO names), each with its own
            // title: `man -l` shows them one after the other.
            // (No page for `help`, which the man pages replace.)
            command = command.disable_help_subcommand(true);
            command.build();
            for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
                // (clap names a command with a `'static` string; these
                // few live until the process ends, in a moment.)
                let name: &'static str = Box::leak(format!("uriscan-{}", sub.get_name()).into());
                let sub = sub
                    .clone()
                    .name(name)
                    .bin_name(name.replace('-', " "))
                    .version(env!("CARGO_PKG_VERSION"));
                clap_mangen::Man::new(sub).render(&mut out)?;
            }
            let mut pages = Vec::new();
            clap_mangen::Man::new(command).render(&mut pages)?;
            pages.append(&mut out);
            return Ok(pages);
        }
        Generate::CompleteBash => Shell::Bash,
        Generate::CompleteZsh => Shell::Zsh,
        Generate::CompleteFish => Shell::Fish,
        Generate::CompletePowershell => Shell::PowerShell,
    };
    clap_complete::generate(shell, &mut command, "uriscan", &mut out);
    Ok(out)
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Validate every line; print `FILE:LINE:COL: message` for each invalid one
    /// (to standard output, or to `--output`).
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
    /// Bytes that are not UTF-8 are `\xNN` in TSV (lossless: `\\ \t \n \r \xNN`
    /// undone give the line back) and U+FFFD in JSON (lossy).
    /// Exit status: 0, or 2 on an I/O error; validity is reported in the output.
    Split(SplitArgs),
    /// Print statistics about the input: lines, validity, error kinds, schemes and
    /// host kinds (to standard output, or to `--output`).
    Stats(StatsArgs),
    /// Normalize every line (RFC 3986 section 6, or the `web` or `surt` profile).
    ///
    /// One normalized URI per valid line. Invalid lines are reported on standard
    /// error with their line number and left out (`--invalid report`), kept
    /// verbatim (`--invalid pass`), dropped silently (`--invalid skip`) or, with
    /// `--profile surt`, keyed as the Python `surt` library keys them
    /// (`--invalid key`). Exit
    /// status 0 unless a usage or I/O error happened, or `--strict` and invalid
    /// lines.
    Normalize(NormalizeArgs),
    /// Resolve every line as a reference against `--base` (RFC 3986 section 5).
    Resolve(ResolveArgs),
    /// Print each line whose normalized key was not seen before, in input order.
    ///
    /// The key is the normalized URI of `--profile` (with the switches). Keys
    /// are compared exactly (stored once in an arena); `--hash` keeps only each
    /// key's XXH3-128 digest, for corpora whose keys do not fit in memory.
    Dedup(DedupArgs),
    /// Find URIs in free text (default) or in web-server access logs (`--log`).
    ///
    /// Free text: candidates start at a scheme followed by `//` (or `mailto:`,
    /// `urn:`, `tel:`, `data:`, `news:`), end at whitespace, quotes, `<`, `>`,
    /// backticks, bytes outside the URI alphabet and non-ASCII punctuation, at
    /// the first unmatched `)` or `]`, and lose trailing punctuation; other
    /// non-ASCII characters continue them (IRIs, printed as found unless
    /// `--to-uri`); `<...>` and `<URL:...>` may hold whitespace, which is
    /// removed. The rules: docs/EXTRACT.md. Each is validated as a URI (an IRI,
    /// or one with `[` `]` after its host or a second `#`, as the URI it maps
    /// to with those percent-encoded); invalid ones are printed only with
    /// `--all`, marked. The statistics (`--stats`) count the input's lines and
    /// bytes, and the URIs found (valid, invalid, schemes, hosts).
    Extract(ExtractArgs),
}

/// `--iri`, of the subcommands that read URI lists.
#[derive(Args, Debug)]
pub struct IriOpt {
    /// Lines are IRIs (RFC 3987): map each line with non-ASCII characters to a
    /// URI first (section 3.1: the host through IDNA, other non-ASCII
    /// characters percent-encoded as UTF-8); the output and the columns of
    /// errors are the mapped line's. A line that maps to no URI is processed
    /// as it is (and found invalid).
    #[arg(long)]
    pub iri: bool,
}

#[derive(Args, Debug)]
pub struct ExtractArgs {
    #[command(flatten)]
    pub input: Input,
    #[command(flatten)]
    pub output: OutputOpt,
    /// Only these schemes (comma-separated, case-insensitive).
    #[arg(long, value_name = "SCHEMES", value_delimiter = ',')]
    pub scheme: Vec<String>,
    /// Print the line number of each URI (json and tsv always have it).
    #[arg(short = 'n', long)]
    pub line_number: bool,
    /// Print the 0-based byte offset of each URI in its line (json and tsv
    /// always have its 1-based column).
    #[arg(long)]
    pub byte_offset: bool,
    /// Print each distinct URI once.
    #[arg(short = 'u', long)]
    pub unique: bool,
    /// Also print invalid candidates, marked `<TAB>invalid: message`.
    #[arg(long)]
    pub all: bool,
    /// Also find schemeless domains (`example.com/path`, printed as
    /// `http://example.com/path`): a host whose top-level domain is in the
    /// bundled Public Suffix List extract, then an optional port and path.
    #[arg(long, conflicts_with = "log")]
    pub schemeless: bool,
    /// Print each IRI found (non-ASCII characters, RFC 3987) mapped to a URI:
    /// the host through IDNA to `xn--` form, other non-ASCII characters
    /// percent-encoded as UTF-8; and `[` `]` after the host and a second `#`
    /// as `%5B` `%5D` `%23`. Without it, such URIs are printed as found (and
    /// validated as the URI they map to).
    #[arg(long, conflicts_with = "log")]
    pub to_uri: bool,
    /// Output format: `text`, `json` (`{"line":N,"column":N,"uri":S,"valid":bool}`)
    /// or `tsv` (`line<TAB>column<TAB>uri<TAB>valid`, with a header; the column
    /// is 1-based).
    #[arg(long, value_enum, default_value_t = OutFormat::Text)]
    pub format: OutFormat,
    /// Read log lines of this format and take the fields that hold URIs
    /// instead of scanning the text: the request target and the Referer
    /// (combined, common, w3c), the request URL (alb), the `--field`s (json);
    /// `auto` tells the format from the first 10 lines. w3c and auto read on
    /// one thread (a `#Fields:` line holds for the lines after it).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub log: Option<LogFormat>,
    /// With `--log json` (or auto): the dotted path of a string member to take
    /// (`request.uri`); may be given several times.
    #[arg(long, value_name = "PATH", requires = "log")]
    pub field: Vec<String>,
    /// Resolve origin-form targets (`/path?q`) against this base URI (with
    /// `--log`: free text yields absolute URIs only).
    #[arg(long, value_name = "URI", conflicts_with = "host", requires = "log")]
    pub base: Option<String>,
    /// Resolve origin-form targets against `http://HOST/` (with `--log`).
    #[arg(long, value_name = "HOST", requires = "log")]
    pub host: Option<String>,
    #[command(flatten)]
    pub stats: StatsOptions,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// Apache combined: common + "referer" "user-agent".
    Combined,
    /// Apache common: host ident user [date] "request" status size.
    Common,
    /// nginx's default `combined` format.
    Nginx,
    /// W3C extended logs (IIS, CloudFront): `#Fields:` names the fields.
    W3c,
    /// AWS Application and Classic Load Balancer access logs.
    #[value(alias = "elb")]
    Alb,
    /// JSON lines: one object per line; `--field` names what to take.
    Json,
    /// Tell the format from the first 10 lines (said on standard error).
    Auto,
}

#[derive(Args, Debug)]
pub struct KeyArgs {
    /// The normalization profile.
    #[arg(long, value_enum, default_value_t = ProfileArg::Rfc3986)]
    pub profile: ProfileArg,
    /// Drop the fragment.
    #[arg(long)]
    pub strip_fragment: bool,
    /// Sort the query parameters by key, then value.
    #[arg(long)]
    pub sort_query: bool,
    /// Drop the query parameters whose key matches one of these globs
    /// (comma-separated; `*` matches anything): `utm_*,fbclid`.
    #[arg(long, value_name = "GLOBS", value_delimiter = ',')]
    pub drop_params: Vec<String>,
    /// Remove a leading `www.` from the host.
    #[arg(long)]
    pub strip_www: bool,
}

#[derive(Args, Debug)]
pub struct InvalidArgs {
    /// What to do with invalid lines.
    #[arg(long, value_enum, default_value_t = InvalidPolicy::Report)]
    pub invalid: InvalidPolicy,
    /// Exit with status 1 when some lines are invalid.
    #[arg(long)]
    pub strict: bool,
}

/// [`InvalidArgs`] for `resolve`, which has no key for an invalid line.
#[derive(Args, Debug)]
pub struct ResolveInvalidArgs {
    /// What to do with invalid lines.
    #[arg(long, value_enum, default_value_t = ResolveInvalid::Report)]
    pub invalid: ResolveInvalid,
    /// Exit with status 1 when some lines are invalid.
    #[arg(long)]
    pub strict: bool,
}

/// [`InvalidPolicy`] but `key`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResolveInvalid {
    /// Report on standard error and leave out.
    Report,
    /// Keep verbatim.
    Pass,
    /// Drop silently.
    Skip,
}

impl From<ResolveInvalid> for InvalidPolicy {
    fn from(p: ResolveInvalid) -> InvalidPolicy {
        match p {
            ResolveInvalid::Report => InvalidPolicy::Report,
            ResolveInvalid::Pass => InvalidPolicy::Pass,
            ResolveInvalid::Skip => InvalidPolicy::Skip,
        }
    }
}

#[derive(Args, Debug)]
pub struct NormalizeArgs {
    #[command(flatten)]
    pub input: Input,
    #[command(flatten)]
    pub mode: ModeOpt,
    #[command(flatten)]
    pub iri: IriOpt,
    #[command(flatten)]
    pub output: OutputOpt,
    #[command(flatten)]
    pub key: KeyArgs,
    #[command(flatten)]
    pub invalid: InvalidArgs,
    #[command(flatten)]
    pub stats: StatsOptions,
    /// Output format: `text` (one URI per line), `json`, or `tsv` (`key<TAB>original`).
    #[arg(long, value_enum, default_value_t = OutFormat::Text)]
    pub format: OutFormat,
    /// Print `KEY<TAB>LINE`: the key, a TAB and the line verbatim (as read,
    /// without its CR), in the order of a CDX index, for `sort` and `join`.
    /// With `--format text` only (`tsv` escapes the line).
    #[arg(long)]
    pub with_original: bool,
}

#[derive(Args, Debug)]
pub struct ResolveArgs {
    #[command(flatten)]
    pub input: Input,
    #[command(flatten)]
    pub mode: ModeOpt,
    #[command(flatten)]
    pub output: OutputOpt,
    /// The base URI (it must have a scheme; its fragment is ignored).
    #[arg(long, value_name = "URI")]
    pub base: String,
    /// Ignore a reference's scheme when it equals the base's (RFC 3986 5.2.2's
    /// backward-compatible rule).
    #[arg(long)]
    pub non_strict: bool,
    #[command(flatten)]
    pub invalid: ResolveInvalidArgs,
    #[command(flatten)]
    pub stats: StatsOptions,
    /// Output format: `text` (one URI per line), `json`, or `tsv`
    /// (`target<TAB>original`).
    #[arg(long, value_enum, default_value_t = OutFormat::Text)]
    pub format: OutFormat,
}

#[derive(Args, Debug)]
pub struct DedupArgs {
    #[command(flatten)]
    pub input: Input,
    #[command(flatten)]
    pub mode: ModeOpt,
    #[command(flatten)]
    pub iri: IriOpt,
    #[command(flatten)]
    pub output: OutputOpt,
    #[command(flatten)]
    pub key: KeyArgs,
    #[command(flatten)]
    pub invalid: InvalidArgs,
    #[command(flatten)]
    pub stats: StatsOptions,
    /// Print the first line of each key as it was written (`original`) or its
    /// normalized key (`key`).
    #[arg(long, value_enum, default_value_t = DedupPrint::Original)]
    pub print: DedupPrint,
    /// Print `count<TAB>line` for each key, in order of first occurrence, at
    /// the end.
    #[arg(long)]
    pub count: bool,
    /// Keep only a 128-bit XXH3 digest of each key (16 bytes per distinct key;
    /// two distinct keys collide with odds of about n^2 / 2^129).
    #[arg(long)]
    pub hash: bool,
    /// Keep the key table within SIZE bytes (K, M and G suffixes allowed, at
    /// least 64K): the keys beyond it are partitioned into temporary files and
    /// deduplicated there, exactly and in input order (default: no bound).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory: Option<usize>,
    /// Where `--memory` puts its temporary files (default: $TMPDIR, or /tmp).
    /// They are unlinked as soon as they are made, so none is left behind.
    #[arg(long, value_name = "DIR", requires = "memory")]
    pub temp_dir: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileArg {
    /// RFC 3986 sections 6.2.2 and 6.2.3.
    Rfc3986,
    /// The key of w3lib's canonicalize_url (Scrapy): sorted, form-encoded query, no fragment.
    Web,
    /// The SURT key of web archives (`org,archive)/goo?a=1`).
    Surt,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvalidPolicy {
    /// Report on standard error and leave out.
    Report,
    /// Keep verbatim.
    Pass,
    /// Drop silently.
    Skip,
    /// Write the key `--profile surt` gives the line all the same (the
    /// Python `surt` library's key of a line that is no URI), so that a
    /// crawl log is keyed completely. Only with `--profile surt`.
    Key,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutFormat {
    Text,
    Json,
    Tsv,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DedupPrint {
    Original,
    Key,
}

#[derive(Args, Debug)]
pub struct Input {
    /// Files to read; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Worker threads, 1 to 1024 (default: all cores). -j1 runs without a thread pool.
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Target size of a unit of parallel work, in bytes, at most 1G (K, M and G suffixes allowed).
    #[arg(long, value_name = "SIZE", value_parser = parse_chunk_size)]
    pub chunk_size: Option<usize>,
    /// The longest line read, in bytes before its LF [default: 256M]. A longer
    /// line is read past (never held in memory), reported on standard error
    /// with its number and offset, and counted; the exit status is then 1.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_line: Option<usize>,
    /// Show progress on standard error even when it is not a terminal.
    #[arg(long, overrides_with = "no_progress")]
    pub progress: bool,
    /// Never show progress.
    #[arg(long)]
    pub no_progress: bool,
}

/// The rule lines are validated by.
#[derive(Args, Debug)]
pub struct ModeOpt {
    /// The rule every line must match.
    #[arg(long, value_enum, default_value_t = ModeArg::Reference)]
    pub mode: ModeArg,
}

/// Where the records go.
#[derive(Args, Debug)]
pub struct OutputOpt {
    /// Write the output to FILE (created or truncated) instead of standard
    /// output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct StatsOptions {
    /// Print statistics to standard error at the end.
    #[arg(long)]
    pub stats: bool,
    /// The format of the statistics (implies --stats) [default: text].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub stats_format: Option<StatsFormat>,
}

impl StatsOptions {
    /// The format of the statistics, when they are asked for.
    pub fn format(&self) -> Option<StatsFormat> {
        match (self.stats, self.stats_format) {
            (_, Some(f)) => Some(f),
            (true, None) => Some(StatsFormat::Text),
            (false, None) => None,
        }
    }
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: Input,
    #[command(flatten)]
    pub mode: ModeOpt,
    #[command(flatten)]
    pub iri: IriOpt,
    #[command(flatten)]
    pub output: OutputOpt,
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
    pub mode: ModeOpt,
    #[command(flatten)]
    pub iri: IriOpt,
    #[command(flatten)]
    pub output: OutputOpt,
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
    #[command(flatten)]
    pub mode: ModeOpt,
    #[command(flatten)]
    pub output: OutputOpt,
    /// The format of the statistics (`--stats-format` is the same option).
    #[arg(long, visible_alias = "stats-format", value_enum, default_value_t = StatsFormat::Text)]
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

/// `--chunk-size`: a size of at most 1G.
fn parse_chunk_size(s: &str) -> Result<usize, String> {
    let size = parse_size(s)?;
    // Each worker holds a chunk or two: a bound keeps a typo (64G) from
    // allocating the machine's memory.
    if size > MAX_CHUNK {
        return Err(format!("'{s}' is more than the largest chunk size, 1G"));
    }
    Ok(size)
}

/// `--memory`: a size of at least 64K (room for a small table and the
/// temporary files' buffers).
fn parse_memory(s: &str) -> Result<usize, String> {
    match parse_size(s)? {
        size if size < 64 << 10 => Err(format!("'{s}' is less than the least memory, 64K")),
        size => Ok(size),
    }
}

/// `4096`, `64K`, `2M`, `1G` (binary multiples), at least 1.
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
        return Err("a size must be at least 1 byte".into());
    }
    Ok(size)
}

/// The largest `--chunk-size`.
const MAX_CHUNK: usize = 1 << 30;

/// `-j N`: from 1 to 1024 (more threads than that are a typo on any machine,
/// and each costs a stack and a chunk of memory).
fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n @ 1..=1024) => Ok(n),
        Ok(_) => Err(format!("'{s}' threads: give 1 to 1024")),
        Err(_) => Err(format!("'{s}' is not a number of threads")),
    }
}
