//! The in-memory kernel of a CLI job, for `scripts/bench-cli.sh`'s ratios of
//! the CLI's throughput to the kernel's: the file read into memory once,
//! then the library's loop of that job over it on one thread, as the CLI's
//! workers run it on each chunk (validation and split by the corpus pass,
//! each key written into an output buffer), without reading, chunking,
//! statistics or writing.
//!
//!     cargo run --release --example kernel -- JOB FILE [RUNS]
//!
//! JOB is `check`, `split`, `normalize`, `normalize-web`, `normalize-surt`,
//! `extract` (free text) or `extract-log` (a combined access log). Prints
//! the fastest of RUNS runs (default 5) in seconds, then what the run
//! counted (valid lines, components' bytes, keys' bytes or URIs found), so
//! that no run's work can be optimized away or go wrong unseen.

use std::time::Instant;

use uriscan::batch::Chunk;
use uriscan::{extract, parse, parse_log_line, Mode, Normalizer, Profile};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(job), Some(file)) = (args.first(), args.get(1)) else {
        eprintln!("usage: kernel JOB FILE [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args
        .get(2)
        .map_or(5, |r| r.parse().expect("RUNS is a number"));
    let data = std::fs::read(file).unwrap_or_else(|e| {
        eprintln!("kernel: cannot read {file}: {e}");
        std::process::exit(2);
    });
    let chunk = Chunk::new(&data, 1, 0);
    let mut out = Vec::with_capacity(data.len() + (1 << 20));
    let mut scratch = Vec::new();
    let mut run = || -> usize {
        out.clear();
        match job.as_str() {
            "check" => chunk
                .uris(Mode::Reference)
                .filter(|(_, _, r)| r.is_ok())
                .count(),
            "split" => chunk
                .uris(Mode::Reference)
                .filter_map(|(_, _, r)| r.ok())
                .map(|u| {
                    let parts = [u.scheme(), u.authority(), Some(u.path()), u.query()];
                    parts.iter().flatten().map(|p| p.len()).sum::<usize>()
                        + u.fragment().map_or(0, str::len)
                })
                .sum(),
            "normalize" | "normalize-web" | "normalize-surt" => {
                let profile = match job.as_str() {
                    "normalize-web" => Profile::Web,
                    "normalize-surt" => Profile::Surt,
                    _ => Profile::Rfc3986,
                };
                let n = Normalizer::new(profile);
                let uris = chunk.uris(Mode::Reference).for_normalizer_of(&n);
                for (_, _, r) in uris {
                    if let Ok(u) = r {
                        out.extend_from_slice(n.normalized(&u, &mut scratch));
                        out.push(b'\n');
                    }
                }
                out.len()
            }
            "extract" => extract(&data)
                .filter(|f| parse(&f.uri, Mode::Reference).is_ok())
                .count(),
            "extract-log" => chunk
                .lines()
                .filter_map(|(_, line)| parse_log_line(line, true))
                .flat_map(|f| [f.target, f.referer])
                .flatten()
                .filter(|u| parse(u, Mode::Reference).is_ok())
                .count(),
            _ => {
                eprintln!("kernel: unknown job {job}");
                std::process::exit(2);
            }
        }
    };
    let (mut best, mut counted) = (f64::INFINITY, 0);
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        counted = run();
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!("{best:.6} {counted}");
}
