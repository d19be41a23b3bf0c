//! The lines of the long-input differential: the real corpora in
//! `../shared/corpora/*.txt`, lines of 0 to 2,000 bytes joined from them, and
//! mutants of both with edits at 16-, 32- and 64-byte block boundaries.
//!
//! Every choice comes from a fixed seed, so a failure names a line that the
//! next run builds again.

use crate::gen::Rng;
use std::path::{Path, PathBuf};

/// The longest line built here (the "0-2,000 bytes").
pub const MAX_LEN: usize = 2000;

/// The shared corpora, beside the checkout; `None` (with the reason) when the
/// directory is absent, as on a clone without `../shared`.
pub fn corpus_dir() -> Result<PathBuf, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!("{} is absent", dir.display()))
    }
}

/// Every line of every `*.txt` file of `dir`, in file-name order (the `.csv`
/// holds pairs, not lines). A final CR stays: it is part of the line's bytes.
pub fn real_lines(dir: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no *.txt corpus in {}", dir.display());
    let mut lines = Vec::new();
    for file in files {
        let data = std::fs::read(&file).unwrap();
        let body = data.strip_suffix(b"\n").unwrap_or(&data);
        lines.extend(body.split(|&b| b == b'\n').map(<[u8]>::to_vec));
    }
    lines
}

/// A length in `0..=MAX_LEN`: half of them within 2 bytes of a multiple of
/// 64, where a line's last SIMD block begins or ends.
fn length(r: &mut Rng) -> usize {
    if r.below(2) == 0 {
        r.below(MAX_LEN + 1)
    } else {
        (64 * r.below(MAX_LEN / 64 + 1) + r.below(5))
            .saturating_sub(2)
            .min(MAX_LEN)
    }
}

/// A line of `length()` bytes: real lines joined by a separator that keeps
/// the URI structure going (a path segment, a query parameter, a fragment,
/// or nothing), then cut at that length, which may split a `%HH` or an IP
/// literal.
pub fn joined(r: &mut Rng, real: &[Vec<u8>]) -> Vec<u8> {
    let len = length(r);
    let mut line = real[r.below(real.len())].clone();
    while line.len() < len {
        line.extend_from_slice([&b"/"[..], b"?", b"&", b"#", b""][r.below(5)]);
        line.extend_from_slice(&real[r.below(real.len())]);
    }
    line.truncate(len);
    line
}

/// The bytes an edit inserts or writes: delimiters, `%`, brackets, bytes
/// that no component allows (space, `"`, NUL, CR, TAB, `\`), bytes >= 0x80
/// (one of them a UTF-8 lead byte), and plain ones. Never LF, the line end.
const BYTES: &[u8] = b":/?#[]@%. \"\0\r\t\\{a1F\x80\xc3\xff";

/// Where an edit happens: three times in four within one byte of a 16-, 32-
/// or 64-byte block boundary, else anywhere; always in `0..=len`.
fn position(r: &mut Rng, len: usize) -> usize {
    if r.below(4) == 0 {
        return r.below(len + 1);
    }
    let block = [16, 32, 64][r.below(3)];
    (block * r.below(len / block + 1) + r.below(3))
        .saturating_sub(1)
        .min(len)
}

/// `line` after one to three edits: a byte inserted, deleted, replaced, or
/// two neighbours swapped.
pub fn mutant(r: &mut Rng, line: &[u8]) -> Vec<u8> {
    let mut m = line.to_vec();
    for _ in 0..1 + r.below(3) {
        let at = position(r, m.len());
        let byte = BYTES[r.below(BYTES.len())];
        match r.below(4) {
            0 => m.insert(at, byte),
            1 if at < m.len() => {
                m.remove(at);
            }
            2 if at < m.len() => m[at] = byte,
            _ if at + 1 < m.len() => m.swap(at, at + 1),
            _ => m.insert(at, byte),
        }
    }
    m
}
