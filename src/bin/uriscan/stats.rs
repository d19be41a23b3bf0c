//! Counting what a run saw: lines, validity, error kinds and components,
//! schemes and host kinds. What a subcommand counts of its own (URIs found,
//! keys kept) is its own.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;

use uriscan::{Component, Error, ErrorKind, HostKind, Uri};

use crate::output::{count, json_str_body};

/// The counts of one chunk, or of a whole run once merged.
#[derive(Default, Debug, Clone)]
pub struct Stats {
    pub lines: u64,
    pub bytes: u64,
    pub valid: u64,
    pub invalid: u64,
    /// Lines longer than `--max-line`, read past (counted in `lines`).
    pub skipped: u64,
    pub by_kind: [u64; ErrorKind::ALL.len()],
    pub by_component: [u64; Component::ALL.len()],
    pub relative: u64,
    pub host_kinds: [u64; HostKind::ALL.len()],
    /// Valid URIs by lowercased scheme; filled only when `detailed`.
    pub schemes: HashMap<Vec<u8>, u64>,
}

impl Stats {
    /// Counts one line's result; `detailed` also counts schemes, host
    /// kinds and relative references (the detailed report's figures).
    #[inline(always)]
    pub fn record(&mut self, result: &Result<Uri<'_>, Error>, detailed: bool) {
        self.lines += 1;
        self.record_uri(result, detailed);
    }

    /// Counts one URI's result (`extract`: a URI found, not a line).
    #[inline(always)]
    pub fn record_uri(&mut self, result: &Result<Uri<'_>, Error>, detailed: bool) {
        // The per-line closures that call this stay small enough for the
        // compiler to inline them into the scanner's loop (a call per line,
        // its result passed in memory, cost `check -j1` 20% of its time):
        // what only some lines need is in calls of its own.
        match result {
            Ok(uri) => {
                self.valid += 1;
                // Only the detailed report shows these: a job that does not
                // print it does not pay for them on every line.
                if detailed {
                    self.record_detail(uri);
                }
            }
            Err(e) => self.record_error(e),
        }
    }

    #[inline(never)]
    fn record_detail(&mut self, uri: &Uri<'_>) {
        if let Some(kind) = uri.host_kind() {
            self.host_kinds[kind.index()] += 1;
        }
        if uri.is_relative() {
            self.relative += 1;
        } else {
            let key = uri.scheme().unwrap_or_default().to_ascii_lowercase();
            *self.schemes.entry(key.into_bytes()).or_insert(0) += 1;
        }
    }

    #[inline(never)]
    fn record_error(&mut self, e: &Error) {
        self.invalid += 1;
        self.by_kind[e.kind().index()] += 1;
        self.by_component[Component::ALL
            .iter()
            .position(|&c| c == e.component())
            .unwrap_or(0)] += 1;
    }

    pub fn merge(&mut self, other: Stats) {
        self.lines += other.lines;
        self.bytes += other.bytes;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.skipped += other.skipped;
        self.relative += other.relative;
        for (a, b) in self.by_kind.iter_mut().zip(other.by_kind) {
            *a += b;
        }
        for (a, b) in self.by_component.iter_mut().zip(other.by_component) {
            *a += b;
        }
        for (a, b) in self.host_kinds.iter_mut().zip(other.host_kinds) {
            *a += b;
        }
        for (k, v) in other.schemes {
            *self.schemes.entry(k).or_insert(0) += v;
        }
    }

    /// The one-line summary of `check`: `N lines, V valid, I invalid`.
    pub fn summary(&self) -> String {
        format!(
            "{}, {} valid, {} invalid",
            count(self.lines, "line", "lines"),
            self.valid,
            self.invalid
        )
    }

    fn sorted_schemes(&self) -> Vec<(&[u8], u64)> {
        let mut v: Vec<(&[u8], u64)> = self.schemes.iter().map(|(k, &n)| (&k[..], n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }

    pub fn text(&self, elapsed: Duration) -> String {
        let secs = elapsed.as_secs_f64();
        let mut s = String::new();
        let _ = writeln!(s, "lines       {}", self.lines);
        let _ = writeln!(s, "bytes       {}", self.bytes);
        let _ = writeln!(s, "valid       {}", self.valid);
        let _ = writeln!(s, "invalid     {}", self.invalid);
        let _ = writeln!(s, "skipped     {}", self.skipped);
        let _ = writeln!(s, "elapsed     {secs:.3} s");
        let _ = writeln!(
            s,
            "throughput  {:.3} GB/s, {:.3} M lines/s",
            rate(self.bytes, secs) / 1e9,
            rate(self.lines, secs) / 1e6
        );
        if self.invalid > 0 {
            let _ = writeln!(s, "invalid by kind:");
            for k in ErrorKind::ALL {
                let n = self.by_kind[k.index()];
                if n > 0 {
                    let _ = writeln!(s, "  {:<24}{n}", k.name());
                }
            }
            let _ = writeln!(s, "invalid by component:");
            for (i, c) in Component::ALL.iter().enumerate() {
                if self.by_component[i] > 0 {
                    let _ = writeln!(s, "  {:<24}{}", c.as_str(), self.by_component[i]);
                }
            }
        }
        let _ = writeln!(s, "valid by scheme:");
        let _ = writeln!(s, "  {:<24}{}", "(relative)", self.relative);
        for (k, n) in self.sorted_schemes() {
            let _ = writeln!(s, "  {:<24}{n}", String::from_utf8_lossy(k));
        }
        let _ = writeln!(s, "valid by host kind:");
        for k in HostKind::ALL {
            let _ = writeln!(s, "  {:<24}{}", k.as_str(), self.host_kinds[k.index()]);
        }
        s
    }

    pub fn json(&self, elapsed: Duration) -> String {
        let secs = elapsed.as_secs_f64();
        let mut s = format!(
            "{{\"lines\":{},\"bytes\":{},\"valid\":{},\"invalid\":{},\"skipped\":{},\"elapsed_s\":{secs:.6},\"gb_per_s\":{:.6},\"m_lines_per_s\":{:.6},\"invalid_by_kind\":{{",
            self.lines,
            self.bytes,
            self.valid,
            self.invalid,
            self.skipped,
            rate(self.bytes, secs) / 1e9,
            rate(self.lines, secs) / 1e6
        );
        let kinds: Vec<String> = ErrorKind::ALL
            .iter()
            .map(|k| format!("\"{}\":{}", k.name(), self.by_kind[k.index()]))
            .collect();
        s += &kinds.join(",");
        s += "},\"invalid_by_component\":{";
        let comps: Vec<String> = Component::ALL
            .iter()
            .enumerate()
            .map(|(i, c)| format!("\"{}\":{}", c.as_str(), self.by_component[i]))
            .collect();
        s += &comps.join(",");
        let _ = write!(s, "}},\"relative\":{},\"by_scheme\":{{", self.relative);
        let schemes: Vec<String> = self
            .sorted_schemes()
            .into_iter()
            .map(|(k, n)| {
                let mut key = Vec::new();
                json_str_body(&mut key, k);
                format!("\"{}\":{n}", String::from_utf8_lossy(&key))
            })
            .collect();
        s += &schemes.join(",");
        s += "},\"by_host_kind\":{";
        let hosts: Vec<String> = HostKind::ALL
            .iter()
            .map(|k| format!("\"{}\":{}", k.as_str(), self.host_kinds[k.index()]))
            .collect();
        s += &hosts.join(",");
        s += "}}\n";
        s
    }
}

fn rate(n: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        n as f64 / secs
    } else {
        0.0
    }
}
