//! Extraction from any text and log-line parsing never panic, and what they
//! find lies where they say.
//!
//! Shared by the fuzz target of the same name and by the stable replay of
//! its committed corpus (tests/fuzz_replay.rs): the checks are written once.

use uriscan::{extract, parse_log_line};

/// Panics if `data` breaks a property above.
pub fn check(data: &[u8]) {
    for schemeless in [false, true] {
        let mut last = 0;
        for f in extract(data).schemeless(schemeless) {
            assert!(f.start >= last && f.start < data.len());
            assert!(!f.uri.is_empty());
            last = f.start;
        }
    }
    for combined in [true, false] {
        if let Some(f) = parse_log_line(data, combined) {
            if let (Some(t), Some(m)) = (&f.target, f.method) {
                if m != b"CONNECT" && matches!(t, std::borrow::Cow::Borrowed(_)) {
                    assert_eq!(&data[f.target_at..f.target_at + t.len()], &t[..]);
                }
            }
        }
    }
}
