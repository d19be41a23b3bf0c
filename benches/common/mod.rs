//! Corpora shared by the benchmarks: the bundled sample, a generated corpus of
//! realistic lines, and the real-world lists of `../shared/corpora/` when that
//! folder is present (read in place, never copied).

#![allow(dead_code)]

pub mod gen;

/// The criterion settings of both bench targets (`throughput` and the peers'):
/// short runs, compared in one sitting on a shared machine.
pub fn criterion() -> criterion::Criterion {
    criterion::Criterion::default()
        .sample_size(10)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
}

use std::path::Path;

/// A named corpus held in memory.
pub struct Corpus {
    pub name: String,
    pub data: Vec<u8>,
}

impl Corpus {
    /// The records of the corpus (CR dropped), as the CLI sees them.
    pub fn lines(&self) -> Vec<&[u8]> {
        uriscan::batch::Chunk::new(&self.data, 1, 0)
            .lines()
            .map(|(_, l)| l)
            .collect()
    }

    /// The mean line length in bytes, terminators excluded.
    pub fn mean_line(&self) -> f64 {
        let lines = self.lines();
        lines.iter().map(|l| l.len()).sum::<usize>() as f64 / lines.len().max(1) as f64
    }
}

/// The size of the generated corpus: `URISCAN_BENCH_MB` MiB (default 16).
pub fn generated_bytes() -> u64 {
    std::env::var("URISCAN_BENCH_MB")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(16)
        << 20
}

/// uriscan's root folder, also when these corpora are used by the workspace
/// member `bench/peers` (whose manifest folder is two levels down).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|d| d.join("corpora/sample.txt").is_file())
        .expect("corpora/sample.txt in the crate folder or above it")
}

/// The corpora to measure: `bundled`, `generated`, then every `*.txt` of
/// `../shared/corpora/`. `URISCAN_BENCH_CORPORA=a,b` keeps only those named.
pub fn corpora() -> Vec<Corpus> {
    let root = root();
    let mut v = vec![
        Corpus {
            name: "bundled".into(),
            data: std::fs::read(root.join("corpora/sample.txt")).expect("corpora/sample.txt"),
        },
        Corpus {
            name: "generated".into(),
            data: gen::corpus(7, generated_bytes()),
        },
    ];
    let shared = root.join("../shared/corpora");
    if let Ok(dir) = std::fs::read_dir(&shared) {
        let mut files: Vec<_> = dir
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
        for p in files {
            if let Ok(data) = std::fs::read(&p) {
                let name = p.file_stem().unwrap().to_string_lossy().into_owned();
                v.push(Corpus { name, data });
            }
        }
    }
    if let Ok(keep) = std::env::var("URISCAN_BENCH_CORPORA") {
        let keep: Vec<&str> = keep.split(',').collect();
        v.retain(|c| keep.contains(&c.name.as_str()));
    }
    v
}
