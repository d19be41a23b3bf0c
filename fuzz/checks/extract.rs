//! Extraction from any text and log-line parsing never panic, what they
//! find lies where they say, and extraction's work is linear: the bytes it
//! looks at ([`uriscan::Extract::work`]) stay under [`WORK_PER_BYTE`] per
//! input byte plus [`WORK_FIXED`], whatever the text.
//!
//! Shared by the fuzz target of the same name and by the stable replay of
//! its committed corpus (tests/fuzz_replay.rs): the checks are written once.

use uriscan::{extract, parse, parse_log_line, LogFormat, LogParser, Mode};

/// The bytes extraction may look at per byte of text: the bound of the
/// library's `linear_on_hostile_text` test, whose 20 inputs (runs that were
/// once quadratic, 2 MiB each) need 4 to 14.5.
pub const WORK_PER_BYTE: usize = 40;

/// And on top, whatever the text's length: stage 1 classifies 512 bytes
/// at a time, so a short text counts a group of blocks (twice with
/// schemeless domains, whose search keeps its own).
pub const WORK_FIXED: usize = 4 * 512;

/// Panics if `data` breaks a property above.
pub fn check(data: &[u8]) {
    for schemeless in [false, true] {
        let mut last = 0;
        let mut found = extract(data).schemeless(schemeless);
        for f in &mut found {
            assert!(f.start >= last && f.start < data.len());
            assert!(!f.uri.is_empty());
            last = f.start;
        }
        let work = found.work();
        assert!(
            work <= WORK_PER_BYTE * data.len() + WORK_FIXED,
            "{work} bytes looked at for {} bytes of text (schemeless: {schemeless})",
            data.len()
        );
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
                // What the parser found valid, `parse` finds valid.
                assert!(uris
                    .iter()
                    .all(|u| !u.known_valid || parse(&u.uri, Mode::Reference).is_ok()));
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
