//! `extract`: the URIs in free text (RFC 3986 Appendix C delimiting), or
//! the URIs of log lines (`--log`).

use std::io::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use uriscan::batch::Chunk;
use uriscan::{LogParser, LogUri, Mode, UriBuf};

use super::{Command, Common, Part};
use crate::cli::{ExtractArgs, LogFormat, OutFormat};
use crate::output::{self, count};
use crate::seen::{Keys, Unique};
use crate::stats::Stats;

pub struct Extract {
    common: Common,
    line_number: bool,
    byte_offset: bool,
    unique: bool,
    all: bool,
    format: OutFormat,
    /// Also schemeless domains (free text only).
    schemeless: bool,
    /// `--log`.
    log: Option<Logs>,
    /// `--base`, or `http://HOST/` of `--host`.
    base: Option<UriBuf>,
    /// `--scheme`, lowercased.
    schemes: Vec<Vec<u8>>,
    /// `--to-uri`: print each IRI found mapped to a URI.
    to_uri: bool,
}

/// `--log`: how lines are read.
struct Logs {
    /// The parser each chunk starts from (w3c and auto: none, see `carried`).
    parser: Option<LogParser>,
    /// `--field`, for a JSON log that `auto` finds.
    fields: Vec<String>,
    /// w3c and auto: the parser carried from chunk to chunk, which are then
    /// read in order on one thread (a `#Fields:` line holds for the lines
    /// after it, and auto decides once, on the first lines of the input).
    carried: Option<Mutex<Carried>>,
    /// How many lines were of the format, for the exit status.
    parsed: AtomicU64,
}

/// The state of a carried parser.
enum Carried {
    /// auto, before the first line.
    Undecided,
    Reading(LogParser),
    /// auto found no format it knows (the reason is said once).
    Unknown,
}

impl Logs {
    fn new(format: LogFormat, fields: Vec<String>) -> anyhow::Result<Logs> {
        let format = match format {
            LogFormat::Combined | LogFormat::Nginx => Some(uriscan::LogFormat::Combined),
            LogFormat::Common => Some(uriscan::LogFormat::Common),
            LogFormat::W3c => Some(uriscan::LogFormat::W3c),
            LogFormat::Alb => Some(uriscan::LogFormat::Alb),
            LogFormat::Json => Some(uriscan::LogFormat::Json),
            LogFormat::Auto => None,
        };
        match format {
            Some(uriscan::LogFormat::Json) if fields.is_empty() => {
                anyhow::bail!("--log json needs --field PATH (say --field request.uri)")
            }
            Some(f) if f != uriscan::LogFormat::Json && !fields.is_empty() => {
                anyhow::bail!("--field is for --log json (or auto), not --log {}", f.name())
            }
            _ => {}
        }
        if fields.len() > 64 {
            anyhow::bail!("at most 64 --field paths");
        }
        let parser = format.map(|f| parser(f, &fields));
        let carried = match &parser {
            None => Some(Mutex::new(Carried::Undecided)),
            Some(p) if p.format() == uriscan::LogFormat::W3c => {
                Some(Mutex::new(Carried::Reading(p.clone())))
            }
            Some(_) => None,
        };
        Ok(Logs {
            parser: parser.filter(|_| carried.is_none()),
            fields,
            carried,
            parsed: AtomicU64::new(0),
        })
    }

    /// The format lines are read as (auto: once decided).
    fn format(&self) -> Option<uriscan::LogFormat> {
        if let Some(p) = &self.parser {
            return Some(p.format());
        }
        match &*self
            .carried
            .as_ref()?
            .lock()
            .unwrap_or_else(|e| e.into_inner())
        {
            Carried::Reading(p) => Some(p.format()),
            Carried::Undecided | Carried::Unknown => None,
        }
    }

    /// The format, as messages name it.
    fn name(&self) -> String {
        match self.format() {
            Some(f) => format!("the {} format", f.name()),
            None => "any log format auto knows (w3c, json, combined, alb, common)".into(),
        }
    }

    /// Reads the lines of `chunk` of `file`, giving each URI found (with its
    /// line) to `found` and reporting the lines not in the format; returns
    /// how many lines were in it and how many not.
    fn read(
        &self,
        file: &str,
        chunk: &Chunk<'_>,
        messages: &mut Vec<u8>,
        mut found: impl FnMut(u64, &LogUri<'_>),
    ) -> (u64, u64) {
        let (mut parsed, mut errors) = (0, 0);
        let mut uris = Vec::new();
        let mut lines = |mut parser: Option<&mut LogParser>, messages: &mut Vec<u8>| {
            let what = parser.as_ref().map(|p| p.format().name());
            for (line, text) in chunk.lines() {
                uris.clear();
                if parser.as_mut().is_some_and(|p| p.parse_line(text, &mut uris)) {
                    parsed += 1;
                    for u in &uris {
                        found(line, u);
                    }
                } else {
                    errors += 1;
                    let _ = match what {
                        Some(w) => writeln!(messages, "{file}:{line}: not a line of the {w} format"),
                        None => writeln!(messages, "{file}:{line}: not a line of a known log format"),
                    };
                }
            }
        };
        match (&self.parser, &self.carried) {
            (Some(p), _) => lines(Some(&mut p.clone()), messages),
            (None, Some(c)) => {
                let mut c = c.lock().unwrap_or_else(|e| e.into_inner());
                if let Carried::Undecided = *c {
                    *c = self.decide(file, chunk, messages);
                }
                match &mut *c {
                    Carried::Reading(p) => {
                        // A W3C header holds within its file.
                        if chunk.offset() == 0 {
                            p.start_file();
                        }
                        lines(Some(p), messages);
                    }
                    Carried::Undecided | Carried::Unknown => lines(None, messages),
                }
            }
            (None, None) => unreachable!("a log reader has a parser or carries one"),
        }
        (parsed, errors)
    }

    /// `--log auto`: the format of the first lines of `chunk` (the first of
    /// the input), said on standard error.
    fn decide(&self, file: &str, chunk: &Chunk<'_>, messages: &mut Vec<u8>) -> Carried {
        let first = chunk.lines().map(|(_, t)| t);
        let Some(format) = uriscan::LogFormat::detect(first) else {
            let _ = writeln!(
                messages,
                "uriscan: --log auto: the first {} lines of {file} are in no log format it knows \
                 (w3c, json, combined, alb, common)",
                uriscan::DETECT_LINES
            );
            return Carried::Unknown;
        };
        if format == uriscan::LogFormat::Json && self.fields.is_empty() {
            let _ = writeln!(
                messages,
                "uriscan: --log auto: {file} holds JSON lines, and no --field PATH says what to take"
            );
            return Carried::Unknown;
        }
        let _ = writeln!(
            messages,
            "uriscan: --log auto: reading {file} as {} (from its first {} lines)",
            format.name(),
            uriscan::DETECT_LINES
        );
        Carried::Reading(parser(format, &self.fields))
    }
}

/// A parser of `format`, with `fields` for JSON.
fn parser(format: uriscan::LogFormat, fields: &[String]) -> LogParser {
    match format {
        uriscan::LogFormat::Json => LogParser::json(fields),
        f => LogParser::new(f),
    }
}

/// The header row of `extract --format tsv`.
const TSV_HEADER: &str = "line\tcolumn\turi\tvalid\n";

impl Extract {
    pub fn new(a: ExtractArgs) -> anyhow::Result<Extract> {
        let base = match (a.base, a.host) {
            (Some(b), _) => Some(super::base_uri("--base", b)?),
            (None, Some(h)) => {
                // A host and perhaps a port: the authority of `http://HOST/`
                // and nothing more.
                let base = super::base_uri("--host", format!("http://{h}/"))?;
                let uri = base.as_uri();
                if uri.authority() != Some(h.as_str()) || h.contains('@') || uri.host().is_none_or(str::is_empty) {
                    anyhow::bail!("--host {h:?} is not a host with an optional port (HOST[:PORT])");
                }
                Some(base)
            }
            (None, None) => None,
        };
        let log = a.log.map(|f| Logs::new(f, a.field)).transpose()?;
        let mut common = Common::new(a.input, a.output, a.stats.format());
        if log.as_ref().is_some_and(|l| l.carried.is_some()) {
            common.threads = 1;
        }
        Ok(Extract {
            common,
            line_number: a.line_number,
            byte_offset: a.byte_offset,
            unique: a.unique,
            all: a.all,
            format: a.format,
            schemeless: a.schemeless,
            log,
            base,
            schemes: a
                .scheme
                .iter()
                .map(|s| {
                    let s = s.trim();
                    if !uriscan::parse(format!("{s}:").as_bytes(), Mode::Uri).is_ok_and(|u| u.path().is_empty()) {
                        anyhow::bail!("--scheme {s:?} is not a scheme (a letter, then letters, digits, '+', '-' or '.')");
                    }
                    Ok(s.to_ascii_lowercase().into_bytes())
                })
                .collect::<anyhow::Result<_>>()?,
            to_uri: a.to_uri,
        })
    }
}

/// What a chunk found.
#[derive(Default)]
pub struct Found {
    /// URIs found, and how many of them are invalid.
    found: u64,
    invalid: u64,
    /// `--log`: lines in the log format, and not.
    parsed: u64,
    not_log: u64,
    /// `--unique`: the records, each keyed by its URI.
    keys: Keys,
}

/// The totals of the run.
pub struct Totals {
    found: u64,
    invalid: u64,
    parsed: u64,
    not_log: u64,
    /// `--unique`.
    unique: Option<Unique>,
}

/// Where one chunk's finds go.
struct Sink<'o> {
    out: &'o mut Vec<u8>,
    found: Found,
    scratch: Vec<u8>,
    /// The input's lines and, with `--stats`, the URIs found.
    stats: Stats,
}

impl Command for Extract {
    type Extra = Found;
    type State = Totals;

    fn common(&self) -> &Common {
        &self.common
    }

    fn header(&self) -> &'static [u8] {
        match self.format {
            OutFormat::Tsv => TSV_HEADER.as_bytes(),
            OutFormat::Text | OutFormat::Json => b"",
        }
    }

    fn state(&self) -> anyhow::Result<Totals> {
        Ok(Totals {
            found: 0,
            invalid: 0,
            parsed: 0,
            not_log: 0,
            unique: if self.unique {
                Some(Unique::new(true, false)?)
            } else {
                None
            },
        })
    }

    fn ordered(&self) -> bool {
        self.unique
    }

    fn process(&self, file: &str, chunk: &Chunk<'_>, out: &mut Vec<u8>) -> Part<Found> {
        let mut messages = Vec::new();
        let mut sink = Sink {
            out,
            found: Found::default(),
            scratch: Vec::new(),
            stats: Stats::default(),
        };
        match &self.log {
            None => self.text(chunk, &mut sink),
            Some(logs) => {
                // A URI the log parser found valid is parsed again only
                // for its parts (`--base`, `--stats` details).
                let parts = self.base.is_some() || self.common.detailed();
                let mut dotted = Vec::new();
                let (parsed, errors) = logs.read(file, chunk, &mut messages, |line, u| {
                    let parsed = if u.known_valid && !parts {
                        Ok(None)
                    } else {
                        uriscan::parse(&u.uri, Mode::Reference).map(Some)
                    };
                    // An origin-form target `//x/y` is the server's path,
                    // not the host `x` (RFC 9112 section 3.2.1): the base
                    // resolves it as `/.//x/y`, whose dot segment goes.
                    if u.origin_form && u.uri.starts_with(b"//") && parsed.is_ok() && self.base.is_some() {
                        dotted.clear();
                        dotted.extend_from_slice(b"/.");
                        dotted.extend_from_slice(&u.uri);
                        if let Ok(path) = uriscan::parse(&dotted, Mode::Reference) {
                            return self.found(&mut sink, line, u.at, &u.uri, Ok(Some(path)));
                        }
                    }
                    self.found(&mut sink, line, u.at, &u.uri, parsed);
                });
                sink.stats.lines += parsed + errors;
                sink.found.parsed += parsed;
                sink.found.not_log += errors;
            }
        }
        Part::new(sink.stats, messages, sink.found)
    }

    fn consume(&self, found: Found, totals: &mut Totals, out: &mut Vec<u8>) -> anyhow::Result<()> {
        totals.found += found.found;
        totals.invalid += found.invalid;
        totals.parsed += found.parsed;
        totals.not_log += found.not_log;
        if let Some(logs) = &self.log {
            logs.parsed.fetch_add(found.parsed, Ordering::Relaxed);
        }
        match &mut totals.unique {
            Some(unique) => unique.offer(&found.keys, out),
            None => Ok(()),
        }
    }

    fn summary(&self, st: &Stats, totals: &Totals) -> Option<String> {
        let mut s = format!(
            "{}, {} found, {} invalid",
            count(st.lines, "line", "lines"),
            count(totals.found, "URI", "URIs"),
            totals.invalid
        );
        if let Some(u) = &totals.unique {
            s += &format!(", {} unique", u.unique);
        }
        if let Some(logs) = &self.log {
            s += &format!(
                ", {} parsed, {} not in the log format",
                totals.parsed,
                count(totals.not_log, "line", "lines")
            );
            if st.lines > 0 && totals.parsed == 0 {
                s += &format!("\nuriscan: no line of the input is in {}", logs.name());
            }
        }
        Some(s)
    }

    /// A log of which no line parses was read in the wrong format.
    fn fails(&self, totals: &Stats) -> bool {
        self.log
            .as_ref()
            .is_some_and(|l| totals.lines > 0 && l.parsed.load(Ordering::Relaxed) == 0)
    }
}

impl Extract {
    /// The free text of a chunk, as one text, so that a URI in `<...>` may
    /// run over lines (RFC 3986 Appendix C); positions are turned into line
    /// numbers and columns as URIs are found. A `<...>` that runs past the
    /// chunk's end (chunks are megabytes) is delimited as if unbracketed.
    fn text(&self, chunk: &Chunk<'_>, sink: &mut Sink<'_>) {
        let data = chunk.data();
        // (Counted by the reader that cut the chunk, not walked: a `memchr`
        // call per line was 7% of the time on text.)
        sink.stats.lines += chunk.line_count();
        let (mut line, mut line_start, mut scanned) = (chunk.first_line(), 0, 0);
        // Line and column are printed only on request: finding them costs a
        // search through the text between URIs.
        let positions = self.format != OutFormat::Text || self.line_number || self.byte_offset;
        let mut finds = uriscan::extract(data).schemeless(self.schemeless);
        while let Some(f) = finds.next() {
            if positions {
                for lf in memchr::memchr_iter(b'\n', &data[scanned..f.start]) {
                    line += 1;
                    line_start = scanned + lf + 1;
                }
                scanned = f.start;
            }
            let at = f.start - line_start;
            // (From the masks that found it, when it can.)
            let error = match finds.parse(&f, Mode::Uri) {
                Ok(uri) => {
                    self.found(sink, line, at, &f.uri, Ok(Some(uri)));
                    continue;
                }
                Err(e) => e,
            };
            // An IRI, or a URI with bytes browsers take as written:
            // validated as the URI it maps to (`found_to_uri`), printed as
            // found unless `--to-uri` asks for the URI. An ASCII URI keeps
            // its own error, at its own offset, when the mapping changes
            // nothing or is invalid too.
            let mut mapped = Vec::new();
            match uriscan::found_to_uri(&f.uri, &mut mapped) {
                Ok(()) if mapped == *f.uri => self.found(sink, line, at, &f.uri, Err(error)),
                Ok(()) => {
                    let parsed = match uriscan::parse(&mapped, Mode::Uri) {
                        Err(_) if f.uri.is_ascii() => Err(error),
                        parsed => parsed.map(Some),
                    };
                    let shown = if self.to_uri { &mapped } else { &f.uri[..] };
                    self.found(sink, line, at, shown, parsed);
                }
                Err(e) => self.found(sink, line, at, &f.uri, Err(e)),
            }
        }
    }

    /// Renders one URI found at column `at` of line `line` (or, with
    /// `--unique`, keeps it for the ordered pass): `uri` as printed, and
    /// `parsed` its validation (an IRI's, of the URI it maps to); `Ok(None)`
    /// when it is known valid and neither `--base` nor `--stats` details
    /// need its parts.
    fn found(
        &self,
        sink: &mut Sink<'_>,
        line: u64,
        at: usize,
        uri: &[u8],
        parsed: Result<Option<uriscan::Uri<'_>>, uriscan::Error>,
    ) {
        let scratch = &mut sink.scratch;
        let (uri, result) = match (&parsed, &self.base) {
            (Ok(Some(u)), Some(base)) if u.is_relative() => {
                scratch.clear();
                uriscan::resolve(&base.as_uri(), u, true, scratch);
                (&scratch[..], Ok(()))
            }
            (Ok(_), _) => (uri, Ok(())),
            (Err(e), _) => (uri, Err(*e)),
        };
        if !self.schemes.is_empty() {
            let scheme = uriscan::split(uri)
                .scheme()
                .map(|r| uri[r].to_ascii_lowercase());
            if !scheme.is_some_and(|s| self.schemes.contains(&s)) {
                return;
            }
        }
        // (With details, a valid URI's parts are always at hand.)
        if let Some(parsed) = parsed.transpose().filter(|_| self.common.detailed()) {
            sink.stats.record_uri(&parsed, true);
        }
        let found = &mut sink.found;
        found.found += 1;
        if result.is_err() {
            found.invalid += 1;
            if !self.all {
                return;
            }
        }
        let target: &mut Vec<u8> = if self.unique {
            &mut found.keys.bytes
        } else {
            &mut *sink.out
        };
        let at_key = target.len();
        if self.unique {
            target.extend_from_slice(uri);
        }
        let column = at + 1;
        match self.format {
            // (Numbers by `push_u64` and constants by the piece: `write!`
            // costs more than the rest of the record.)
            OutFormat::Json => {
                target.extend_from_slice(b"{\"line\":");
                output::push_u64(target, line);
                target.extend_from_slice(b",\"column\":");
                output::push_u64(target, column as u64);
                target.extend_from_slice(b",\"uri\":");
                output::json_opt(target, Some(uri));
                if result.is_ok() {
                    target.extend_from_slice(b",\"valid\":true}\n");
                } else {
                    target.extend_from_slice(b",\"valid\":false}\n");
                }
            }
            OutFormat::Tsv => {
                output::push_u64(target, line);
                target.push(b'\t');
                output::push_u64(target, column as u64);
                target.push(b'\t');
                output::tsv_field(target, Some(uri));
                if result.is_ok() {
                    target.extend_from_slice(b"\ttrue\n");
                } else {
                    target.extend_from_slice(b"\tfalse\n");
                }
            }
            OutFormat::Text => {
                if self.line_number {
                    output::push_u64(target, line);
                    target.push(b':');
                }
                if self.byte_offset {
                    output::push_u64(target, at as u64);
                    target.push(b':');
                }
                target.extend_from_slice(uri);
                if let Err(e) = result {
                    let _ = write!(target, "\tinvalid: {e}");
                }
                target.push(b'\n');
            }
        }
        if self.unique {
            found.keys.end_record(at_key, at_key + uri.len());
        }
    }
}
