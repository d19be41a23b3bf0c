//! The fuzz targets' committed inputs, replayed on the stable toolchain:
//! every file of `fuzz/corpus-min/<target>/` (the target's corpus after
//! `cargo fuzz cmin`) and of `fuzz/seeds/` (hand-picked inputs for every
//! target) goes through `fuzz/checks/<target>.rs`, the very function the
//! fuzz target calls, so CI asserts what the fuzzer asserts without a
//! nightly toolchain or cargo-fuzz.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use proptest::prelude::*;

#[path = "../fuzz/checks/extract.rs"]
mod extract;
#[path = "../fuzz/checks/parse.rs"]
mod parse;
#[path = "../fuzz/checks/transform.rs"]
mod transform;

/// The files of `dir`, in name order.
fn files(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e} (the committed corpus)", dir.display()));
    let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

/// Runs `check` on every committed input of `target`; a failure names the
/// file. Returns how many inputs ran from the target's own corpus.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let own = files(&fuzz.join("corpus-min").join(target));
    for file in own.iter().chain(&files(&fuzz.join("seeds"))) {
        let data = std::fs::read(file).unwrap();
        if catch_unwind(AssertUnwindSafe(|| check(&data))).is_err() {
            panic!("{} fails the {target} checks", file.display());
        }
    }
    own.len()
}

#[test]
fn parse_corpus() {
    assert!(replay("parse", parse::check) > 0);
}

#[test]
fn transform_corpus() {
    assert!(replay("transform", transform::check) > 0);
}

#[test]
fn extract_corpus() {
    assert!(replay("extract", extract::check) > 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    /// The extract checks hold on text made of what marks a URI's start
    /// and end (string escapes, colour codes, HTML references, emphasis,
    /// BBCode tags, quotes and brackets) in any order: the inputs a byte
    /// fuzzer reaches slowly, on the stable toolchain.
    #[test]
    fn extract_checks_hold_on_markup(parts in prop::collection::vec(prop::sample::select(vec![
        "http:", "//", "a.com", "www.", "/x", "?q=1", "\\", "n", "u0026", "u003c", "ud83d",
        "\x1b", "[", "]", "1;", "32m", "[/url]", "&#39;", "&apos;", ";", "_", "~~", "'",
        "(", ")", ".", " ", "\n", "é", "<", ">", "\"",
    ]), 0..60)) {
        extract::check(parts.concat().as_bytes());
    }
}
