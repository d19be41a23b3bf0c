//! `extract`: the URIs in free text (RFC 3986 Appendix C delimiting), or
//! the request targets and Referers of access-log lines.

use std::io::Write as _;

use uriscan::batch::Chunk;
use uriscan::{Mode, UriBuf};

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
    /// `Some(combined)` for access logs.
    log: Option<bool>,
    /// `--base`, or `http://HOST/` of `--host`.
    base: Option<UriBuf>,
    /// `--scheme`, lowercased.
    schemes: Vec<Vec<u8>>,
    /// `--to-uri`: print each IRI found mapped to a URI.
    to_uri: bool,
}

/// The header row of `extract --format tsv`.
const TSV_HEADER: &str = "line\tcolumn\turi\tvalid\n";

impl Extract {
    pub fn new(a: ExtractArgs) -> anyhow::Result<Extract> {
        let base = match (a.base, a.host) {
            (Some(b), _) => Some(super::base_uri("--base", b)?),
            (None, Some(h)) => Some(super::base_uri("--host", format!("http://{h}/"))?),
            (None, None) => None,
        };
        Ok(Extract {
            common: Common::new(a.input, a.output, a.stats.format()),
            line_number: a.line_number,
            byte_offset: a.byte_offset,
            unique: a.unique,
            all: a.all,
            format: a.format,
            schemeless: a.schemeless,
            log: a.log.map(|l| l != LogFormat::Common),
            base,
            schemes: a
                .scheme
                .iter()
                .map(|s| s.to_ascii_lowercase().into_bytes())
                .collect(),
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
    /// `--log`: lines not in the log format.
    not_log: u64,
    /// `--unique`: the records, each keyed by its URI.
    keys: Keys,
}

/// The totals of the run.
pub struct Totals {
    found: u64,
    invalid: u64,
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
            not_log: 0,
            unique: if self.unique {
                Some(Unique::new(true, false, false)?)
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
        match self.log {
            None => self.text(chunk, &mut sink),
            Some(combined) => {
                for (line, text) in chunk.lines() {
                    sink.stats.lines += 1;
                    if !self.log_line(combined, line, text, &mut sink) {
                        sink.found.not_log += 1;
                        let _ = writeln!(
                            messages,
                            "{file}:{line}: not a{} log line",
                            if combined { " combined" } else { " common" }
                        );
                    }
                }
            }
        }
        Part::new(sink.stats, messages, sink.found)
    }

    fn consume(&self, found: Found, totals: &mut Totals, out: &mut Vec<u8>) -> anyhow::Result<()> {
        totals.found += found.found;
        totals.invalid += found.invalid;
        totals.not_log += found.not_log;
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
        if self.log.is_some() {
            s += &format!(
                ", {} not in the log format",
                count(totals.not_log, "line", "lines")
            );
        }
        Some(s)
    }
}

impl Extract {
    /// The free text of a chunk, as one text, so that a URI in `<...>` may
    /// run over lines (RFC 3986 Appendix C); positions are turned into line
    /// numbers and columns as URIs are found. A `<...>` that runs past the
    /// chunk's end (chunks are megabytes) is delimited as if unbracketed.
    fn text(&self, chunk: &Chunk<'_>, sink: &mut Sink<'_>) {
        let data = chunk.data();
        sink.stats.lines += chunk.lines().count() as u64;
        let (mut line, mut line_start, mut scanned) = (chunk.first_line(), 0, 0);
        // Line and column are printed only on request: finding them costs a
        // search through the text between URIs.
        let positions = self.format != OutFormat::Text || self.line_number || self.byte_offset;
        for f in uriscan::extract(data).schemeless(self.schemeless) {
            if positions {
                for lf in memchr::memchr_iter(b'\n', &data[scanned..f.start]) {
                    line += 1;
                    line_start = scanned + lf + 1;
                }
                scanned = f.start;
            }
            let at = f.start - line_start;
            let parsed = uriscan::parse(&f.uri, Mode::Uri);
            if parsed.is_ok() || f.uri.is_ascii() {
                self.found(sink, line, at, &f.uri, parsed);
                continue;
            }
            // An IRI: validated as the URI it maps to, printed as found
            // unless `--to-uri` asks for the URI.
            let mut mapped = Vec::new();
            match uriscan::iri_to_uri(&f.uri, &mut mapped) {
                Ok(()) if self.to_uri => {
                    self.found(sink, line, at, &mapped, uriscan::parse(&mapped, Mode::Uri))
                }
                Ok(()) => self.found(sink, line, at, &f.uri, uriscan::parse(&mapped, Mode::Uri)),
                Err(e) => self.found(sink, line, at, &f.uri, Err(e)),
            }
        }
    }

    /// One access-log line: its request target and Referer; false when it
    /// is not a line of the format.
    fn log_line(&self, combined: bool, line: u64, text: &[u8], sink: &mut Sink<'_>) -> bool {
        let Some(fields) = uriscan::parse_log_line(text, combined) else {
            return false;
        };
        if let Some(t) = &fields.target {
            if &t[..] != b"*" {
                let parsed = uriscan::parse(t, Mode::Reference);
                self.found(sink, line, fields.target_at, t, parsed);
            }
        }
        if let Some(r) = &fields.referer {
            let parsed = uriscan::parse(r, Mode::Reference);
            self.found(sink, line, fields.referer_at, r, parsed);
        }
        true
    }

    /// Renders one URI found at column `at` of line `line` (or, with
    /// `--unique`, keeps it for the ordered pass): `uri` as printed, and
    /// `parsed` its validation (an IRI's, of the URI it maps to).
    fn found(
        &self,
        sink: &mut Sink<'_>,
        line: u64,
        at: usize,
        uri: &[u8],
        parsed: Result<uriscan::Uri<'_>, uriscan::Error>,
    ) {
        let scratch = &mut sink.scratch;
        let (uri, result) = match (&parsed, &self.base) {
            (Ok(u), Some(base)) if u.is_relative() => {
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
        if self.common.detailed() {
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
            OutFormat::Json => {
                let _ = write!(target, "{{\"line\":{line},\"column\":{column},\"uri\":");
                output::json_opt(target, Some(uri));
                let _ = writeln!(target, ",\"valid\":{}}}", result.is_ok());
            }
            OutFormat::Tsv => {
                let _ = write!(target, "{line}\t{column}\t");
                output::tsv_field(target, Some(uri));
                let _ = writeln!(target, "\t{}", result.is_ok());
            }
            OutFormat::Text => {
                if self.line_number {
                    let _ = write!(target, "{line}:");
                }
                if self.byte_offset {
                    let _ = write!(target, "{at}:");
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
