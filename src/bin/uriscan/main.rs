//! The `uriscan` command: a thin layer over the library. `cli` parses the
//! command line into a [`Config`]; `run` drives the corpus engine
//! ([`uriscan::batch`]) over every input and maps the outcome to an exit code.
//! Its one `unsafe` block is `dedup`'s prefetch.
#![deny(unsafe_code)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod cli;
mod dedup;
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

use cli::{
    Cli, Command, DedupPrint, InvalidPolicy, KeyArgs, LogFormat, ModeArg, OutFormat, ProfileArg,
    SplitFormat, StatsFormat,
};
use output::Record;
use stats::Stats;
use uriscan::{Normalizer, Profile, Uri};
use xxhash_rust::xxh3::xxh3_128;

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
    /// Print every line's normalized form.
    Normalize(OutFormat),
    /// Print every line resolved against the base.
    Resolve { strict: bool, format: OutFormat },
    /// Print the first line of each key.
    Dedup(DedupPrint),
    /// Print the URIs found in each line.
    Extract(ExtractOptions),
}

/// What `extract` prints and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ExtractOptions {
    line_number: bool,
    byte_offset: bool,
    unique: bool,
    all: bool,
    json: bool,
    /// Also schemeless domains (free text only).
    schemeless: bool,
    /// `Some(combined)` for access logs.
    log: Option<bool>,
}

/// How `dedup` keeps and prints keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DedupMode {
    count: bool,
    hash: bool,
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
    normalizer: Normalizer,
    invalid: InvalidPolicy,
    /// Exit 1 on invalid lines (normalize, resolve, dedup).
    strict: bool,
    /// The base of `resolve`.
    base: Option<Uri<'static>>,
    dedup: DedupMode,
    /// `extract --scheme`, lowercased.
    schemes: Vec<Vec<u8>>,
}

/// Parses `text` as the base URI of `what`, kept for the whole run.
fn base_uri(what: &str, text: String) -> anyhow::Result<Uri<'static>> {
    let text: &'static [u8] = Box::leak(text.into_bytes().into_boxed_slice());
    uriscan::parse(text, Mode::Uri).map_err(|e| {
        anyhow::anyhow!(
            "{what} {:?} is not a URI: {e} (column {})",
            String::from_utf8_lossy(text),
            e.offset() + 1
        )
    })
}

fn normalizer(k: &KeyArgs) -> Normalizer {
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

impl Config {
    fn from_cli(cli: Cli) -> anyhow::Result<Config> {
        let mut normalizer_ = Normalizer::new(Profile::Rfc3986);
        let mut invalid = InvalidPolicy::Report;
        let mut strict = false;
        let mut base = None;
        let mut schemes = Vec::new();
        let mut dedup = DedupMode {
            count: false,
            hash: false,
        };
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
            Command::Normalize(a) => {
                normalizer_ = normalizer(&a.key);
                (invalid, strict) = (a.invalid.invalid, a.invalid.strict);
                (
                    Job::Normalize(a.format),
                    a.input,
                    a.stats.stats.then_some((a.stats.stats_format, false)),
                )
            }
            Command::Extract(a) => {
                schemes = a
                    .scheme
                    .iter()
                    .map(|s| s.to_ascii_lowercase().into_bytes())
                    .collect();
                base = match (a.base, a.host) {
                    (Some(b), _) => Some(base_uri("--base", b)?),
                    (None, Some(h)) => Some(base_uri("--host", format!("http://{h}/"))?),
                    (None, None) => None,
                };
                (
                    Job::Extract(ExtractOptions {
                        line_number: a.line_number,
                        byte_offset: a.byte_offset,
                        unique: a.unique,
                        all: a.all,
                        json: a.format == OutFormat::Json,
                        schemeless: a.schemeless,
                        log: a.log.map(|l| l != LogFormat::Common),
                    }),
                    a.input,
                    a.stats.stats.then_some((a.stats.stats_format, false)),
                )
            }
            Command::Resolve(a) => {
                base = Some(base_uri("--base", a.base)?);
                (invalid, strict) = (a.invalid.invalid, a.invalid.strict);
                (
                    Job::Resolve {
                        strict: !a.non_strict,
                        format: a.format,
                    },
                    a.input,
                    a.stats.stats.then_some((a.stats.stats_format, false)),
                )
            }
            Command::Dedup(a) => {
                normalizer_ = normalizer(&a.key);
                dedup = DedupMode {
                    count: a.count,
                    hash: a.hash,
                };
                (invalid, strict) = (a.invalid.invalid, a.invalid.strict);
                (
                    Job::Dedup(a.print),
                    a.input,
                    a.stats.stats.then_some((a.stats.stats_format, false)),
                )
            }
        };
        let threads = input
            .threads
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(Config {
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
            normalizer: normalizer_,
            invalid,
            strict,
            base,
            dedup,
            schemes,
        })
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    check_forced_backend();
    match Config::from_cli(cli).and_then(run) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("uriscan: {e:#}");
            ExitCode::from(2)
        }
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
    eprintln!(
        "uriscan: warning: URISCAN_BACKEND={name}: {why}; using {}",
        used.name()
    );
}

/// Renders one chunk's records into `out` and counts them.
fn process(config: &Config, file: &str, chunk: &Chunk<'_>, out: &mut Vec<u8>) -> Stats {
    let mut st = Stats {
        bytes: chunk.data().len() as u64,
        ..Stats::default()
    };
    let detailed = config.stats.is_some();
    let mut scratch = Vec::new();
    if let Job::Extract(x) = config.job {
        if x.log.is_none() {
            extract_text(config, x, chunk, out, &mut st, &mut scratch);
        } else {
            for (line, text) in chunk.lines() {
                st.lines += 1;
                extract_line(config, x, file, line, text, out, &mut st, &mut scratch);
            }
        }
        return st;
    }
    if let Job::Check { quiet } = config.job {
        // The hot loop of `check`, on its own: `for_each`'s internal
        // iteration keeps a small closure's results in registers (see
        // `Uris::fold`).
        chunk.uris(config.mode).for_each(|(line, _, result)| {
            st.record(&result, detailed);
            if let (Err(e), false) = (&result, quiet) {
                output::check_line(out, file, line, e);
            }
        });
        return st;
    }
    if let Job::Dedup(print) = config.job {
        // Room for the records at once (a key about as long as its line,
        // and the line again unless keys are printed; lines of 32 bytes or
        // more): grown by doubling, the copies cost 4.5% of `dedup`'s
        // instructions.
        let n = chunk.data().len();
        let lines = if print == DedupPrint::Key { 1 } else { 2 };
        st.keys.reserve(lines * n + n / 8);
        st.records.reserve(n / 32);
    }
    let mut uris = chunk.uris(config.mode);
    if matches!(config.job, Job::Normalize(_) | Job::Dedup(_)) {
        // The pass that classifies the lines also finds what
        // `Normalizer::is_normal` looks for.
        uris = uris.for_normalizer();
    }
    for (line, text, result) in uris {
        st.record(&result, detailed);
        match config.job {
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
            // `check` runs its own loop above.
            Job::Check { .. } | Job::Stats | Job::Extract(_) => {}
            Job::Normalize(format) => {
                // An already normal URI is written as it is, with no copy.
                let value = match &result {
                    Ok(uri) => config.normalizer.normalized(uri, &mut scratch),
                    Err(_) => b"",
                };
                emit(
                    config,
                    format,
                    file,
                    line,
                    text,
                    &result,
                    value,
                    b"normalized",
                    out,
                    &mut st,
                );
            }
            Job::Resolve { strict, format } => {
                if let (Ok(uri), Some(base)) = (&result, &config.base) {
                    scratch.clear();
                    uriscan::resolve(base, uri, strict, &mut scratch);
                }
                emit(
                    config, format, file, line, text, &result, &scratch, b"target", out, &mut st,
                );
            }
            Job::Dedup(print) => {
                // Each record is the key, then the line and an LF (left out
                // where the key is what is printed).
                let at = st.keys.len();
                match &result {
                    Ok(uri) => config.normalizer.normalize(uri, &mut st.keys),
                    Err(e) => match config.invalid {
                        InvalidPolicy::Report => {
                            output::check_line(&mut st.messages, file, line, e);
                            continue;
                        }
                        InvalidPolicy::Skip => continue,
                        // An invalid line is its own key, marked apart.
                        InvalidPolicy::Pass => {
                            st.keys.push(0);
                            st.keys.extend_from_slice(text);
                        }
                    },
                }
                let key_end = st.keys.len();
                let hash = xxh3_128(&st.keys[at..]);
                if print != DedupPrint::Key || result.is_err() {
                    st.keys.extend_from_slice(text);
                    st.keys.push(b'\n');
                }
                st.records.push((hash, key_end, st.keys.len()));
            }
        }
    }
    st
}

/// `extract` on the free text of a chunk, as one text, so that a URI in
/// `<...>` may run over lines (RFC 3986 Appendix C); positions are turned
/// into line numbers and columns as URIs are found. A `<...>` that runs past
/// the chunk's end (chunks are megabytes) is delimited as if unbracketed.
#[allow(clippy::too_many_arguments)]
fn extract_text(
    config: &Config,
    x: ExtractOptions,
    chunk: &Chunk<'_>,
    out: &mut Vec<u8>,
    st: &mut Stats,
    scratch: &mut Vec<u8>,
) {
    let data = chunk.data();
    st.lines += chunk.lines().count() as u64;
    let (mut line, mut line_start, mut scanned) = (chunk.first_line(), 0, 0);
    // Line and column are printed only on request: finding them costs a
    // search through the text between URIs.
    let positions = x.json || x.line_number || x.byte_offset;
    for f in uriscan::extract(data).schemeless(x.schemeless) {
        if positions {
            for lf in memchr::memchr_iter(b'\n', &data[scanned..f.start]) {
                line += 1;
                line_start = scanned + lf + 1;
            }
            scanned = f.start;
        }
        found(
            config,
            x,
            line,
            f.start - line_start,
            &f.uri,
            Mode::Uri,
            st,
            out,
            scratch,
        );
    }
}

/// `extract --log` on one line: the request target and the Referer.
#[allow(clippy::too_many_arguments)]
fn extract_line(
    config: &Config,
    x: ExtractOptions,
    file: &str,
    line: u64,
    text: &[u8],
    out: &mut Vec<u8>,
    st: &mut Stats,
    scratch: &mut Vec<u8>,
) {
    let mut emit = |at: usize, uri: &[u8], mode: Mode, st: &mut Stats, out: &mut Vec<u8>| {
        found(config, x, line, at, uri, mode, st, out, scratch);
    };
    let combined = x.log == Some(true);
    match uriscan::parse_log_line(text, combined) {
        Some(fields) => {
            st.valid += 1;
            if let Some(t) = &fields.target {
                if &t[..] != b"*" {
                    emit(fields.target_at, t, Mode::Reference, st, out);
                }
            }
            if let Some(r) = &fields.referer {
                emit(fields.referer_at, r, Mode::Reference, st, out);
            }
        }
        None => {
            st.invalid += 1;
            let _ = writeln!(
                st.messages,
                "{file}:{line}: not a{} log line",
                if combined { " combined" } else { " common" }
            );
        }
    }
}

/// Renders one URI found by `extract` at column `at` of line `line` (or,
/// with `unique`, queues it for the ordered writer).
#[allow(clippy::too_many_arguments)]
fn found(
    config: &Config,
    x: ExtractOptions,
    line: u64,
    at: usize,
    uri: &[u8],
    mode: Mode,
    st: &mut Stats,
    out: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
) {
    let result = uriscan::parse(uri, mode);
    let (uri, result) = match (&result, &config.base) {
        (Ok(u), Some(base)) if u.is_relative() => {
            scratch.clear();
            uriscan::resolve(base, u, true, scratch);
            (&scratch[..], Ok(()))
        }
        (Ok(_), _) => (uri, Ok(())),
        (Err(e), _) => (uri, Err(*e)),
    };
    if !config.schemes.is_empty() {
        let scheme = uriscan::split(uri)
            .scheme()
            .map(|r| uri[r].to_ascii_lowercase());
        if !scheme.is_some_and(|s| config.schemes.contains(&s)) {
            return;
        }
    }
    st.found += 1;
    if result.is_err() {
        st.found_invalid += 1;
        if !x.all {
            return;
        }
    }
    let target: &mut Vec<u8> = if x.unique { &mut st.keys } else { out };
    let key_end = target.len();
    if x.unique {
        target.extend_from_slice(uri);
    }
    let record_start = target.len();
    if x.json {
        let _ = write!(target, "{{\"line\":{line},\"column\":{},\"uri\":", at + 1);
        output::json_opt(target, Some(uri));
        let _ = writeln!(target, ",\"valid\":{}}}", result.is_ok());
    } else {
        if x.line_number {
            let _ = write!(target, "{line}:");
        }
        if x.byte_offset {
            let _ = write!(target, "{at}:");
        }
        target.extend_from_slice(uri);
        if let Err(e) = result {
            let _ = write!(target, "\tinvalid: {e}");
        }
        target.push(b'\n');
    }
    if x.unique {
        let _ = record_start;
        let hash = xxh3_128(&target[key_end..key_end + uri.len()]);
        let end = target.len();
        st.records.push((hash, key_end + uri.len(), end));
    }
}

/// One record of `normalize` or `resolve`: the result `value` (the normalized
/// URI or the target) of a valid line, or the invalid line as `--invalid`
/// says.
#[allow(clippy::too_many_arguments)]
fn emit(
    config: &Config,
    format: OutFormat,
    file: &str,
    line: u64,
    text: &[u8],
    result: &Result<Uri<'_>, uriscan::Error>,
    value: &[u8],
    field: &[u8],
    out: &mut Vec<u8>,
    st: &mut Stats,
) {
    match (result, format) {
        (Ok(_), OutFormat::Text) => {
            out.extend_from_slice(value);
            out.push(b'\n');
        }
        (Ok(_), OutFormat::Tsv) => {
            output::tsv_field(out, Some(value));
            out.push(b'\t');
            output::tsv_field(out, Some(text));
            out.push(b'\n');
        }
        (Ok(_), OutFormat::Json) => {
            let _ = write!(out, "{{\"line\":{line},\"valid\":true,\"");
            out.extend_from_slice(field);
            out.extend_from_slice(b"\":");
            output::json_opt(out, Some(value));
            out.extend_from_slice(b",\"error\":null}\n");
        }
        (Err(e), _) => {
            match config.invalid {
                InvalidPolicy::Report => output::check_line(&mut st.messages, file, line, e),
                InvalidPolicy::Skip => return,
                InvalidPolicy::Pass => {}
            }
            match format {
                OutFormat::Json => {
                    let _ = write!(out, "{{\"line\":{line},\"valid\":false,\"");
                    out.extend_from_slice(field);
                    out.extend_from_slice(b"\":null,\"error\":");
                    output::json_error(out, e);
                    out.extend_from_slice(b"}\n");
                }
                _ if config.invalid == InvalidPolicy::Pass => {
                    out.extend_from_slice(text);
                    if format == OutFormat::Tsv {
                        out.push(b'\t');
                        out.extend_from_slice(text);
                    }
                    out.push(b'\n');
                }
                _ => {}
            }
        }
    }
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
        Some(batch::Pool::new(config.threads).context("cannot start worker threads")?)
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
    // `dedup` decides in input order, so it writes from the ordered callback.
    let mut dedup_out = BufWriter::with_capacity(1 << 16, io::stdout());
    let mut seen = dedup::Seen::new(!config.dedup.hash, config.dedup.count)
        .context("cannot allocate the table of keys")?;
    let mut seen_error = None;
    let print_key = config.job == Job::Dedup(DedupPrint::Key);
    let mut dedup_error = None;
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
            |mut st, p| {
                if !st.messages.is_empty() {
                    let _ = io::stderr().lock().write_all(&st.messages);
                }
                let mut from = 0;
                // After a failed allocation, nothing more is offered.
                let records = if seen_error.is_none() {
                    &st.records[..]
                } else {
                    &[]
                };
                for (i, &(hash, key_end, end)) in records.iter().enumerate() {
                    seen.look_ahead(|j| records.get(j).map(|r| r.0), i);
                    let key = &st.keys[from..key_end];
                    // An invalid line's key is a NUL and the line: show the line.
                    let shown: [&[u8]; 2] = if print_key && key.first() != Some(&0) {
                        [key, b"\n"]
                    } else {
                        [&st.keys[key_end..end], b""]
                    };
                    let new = match seen.offer(hash, key, shown) {
                        Ok(new) => new,
                        Err(e) => {
                            seen_error = Some(e);
                            break;
                        }
                    };
                    if new {
                        st.unique += 1;
                        if !config.dedup.count && dedup_error.is_none() {
                            let written = dedup_out
                                .write_all(shown[0])
                                .and_then(|()| dedup_out.write_all(shown[1]));
                            if let Err(e) = written {
                                dedup_error = Some(e);
                            }
                        }
                    } else {
                        st.duplicates += 1;
                    }
                    from = end;
                }
                totals.merge(st);
                progress.update(done_bytes + p.bytes, done_lines + p.lines);
            },
        );
        done_bytes = totals.bytes;
        done_lines = totals.lines;
        if let Some(e) = seen_error.take() {
            return Err(anyhow::Error::new(e).context("cannot store more keys"));
        }
        if let Some(e) = dedup_error.take() {
            closed |= is_closed(Err(e))?;
        }
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
    if config.dedup.count && !closed {
        closed |= is_closed(seen.write_counts(&mut dedup_out))?;
    }
    if !closed {
        closed |= is_closed(dedup_out.flush())?;
    }
    progress.finish();
    drop(out);
    drop(dedup_out);

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
    match config.job {
        Job::Check { .. } => eprintln!("{}", totals.summary()),
        Job::Dedup(_) => eprintln!(
            "{} lines, {} unique, {} duplicates, {} invalid",
            totals.lines, totals.unique, totals.duplicates, totals.invalid
        ),
        Job::Extract(x) => {
            eprint!(
                "{} lines, {} URIs found, {} invalid",
                totals.lines, totals.found, totals.found_invalid
            );
            if x.unique {
                eprint!(", {} unique", totals.unique);
            }
            if x.log.is_some() {
                eprint!(", {} lines not in the log format", totals.invalid);
            }
            eprintln!();
        }
        Job::Normalize(_) | Job::Resolve { .. }
            if totals.invalid > 0 && config.invalid == InvalidPolicy::Report =>
        {
            eprintln!("{}", totals.summary())
        }
        _ => {}
    }
    let invalid_fails = match config.job {
        Job::Check { .. } => true,
        Job::Normalize(_) | Job::Resolve { .. } | Job::Dedup(_) => config.strict,
        Job::Split(_) | Job::Stats | Job::Extract(_) => false,
    };
    Ok(if io_error {
        ExitCode::from(2)
    } else if invalid_fails && totals.invalid > 0 {
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
