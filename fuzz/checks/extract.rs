//! Extraction from any text and log-line parsing never panic, and what they
//! find lies where they say.
//!
//! Shared by the fuzz target of the same name and by the stable replay of
//! its committed corpus (tests/fuzz_replay.rs): the checks are written once.

use uriscan::{extract, parse_log_line, LogFormat, LogParser};

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
    // Every format's parser, on the data as one line and line by line (so
    // that a W3C `#Fields:` line meets the lines after it): no panic, and
    // each URI's field starts inside its line.
    let parsers = [
        LogFormat::Combined,
        LogFormat::Common,
        LogFormat::W3c,
        LogFormat::Alb,
    ]
    .map(LogParser::new);
    for mut parser in parsers
        .into_iter()
        .chain([LogParser::json(["a", "a.b", "c"])])
    {
        let mut uris = Vec::new();
        for line in std::iter::once(data).chain(data.split(|&b| b == b'\n')) {
            uris.clear();
            if parser.parse_line(line, &mut uris) {
                assert!(uris.iter().all(|u| u.at <= line.len()));
            } else {
                assert!(uris.is_empty());
            }
        }
    }
    let _ = LogFormat::detect(data.split(|&b| b == b'\n'));
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
