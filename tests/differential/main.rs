//! uriscan's validator against two other strict RFC 3986 parsers,
//! `iri-string` (validity in every mode) and `fluent-uri` (validity, the
//! components of a valid line, the offset of an invalid line's error), on
//! short random inputs, on the bundled corpus, and on the real corpora of
//! `../shared/corpora` with lines of up to 2,000 bytes joined and mutated
//! from them (see `inputs`), one at a time and as the lines of one chunk.
//! Where uriscan departs from a peer on purpose, `peers::Departure` names
//! the case; every other difference fails.

#[path = "../../benches/common/gen.rs"]
#[allow(dead_code)]
mod gen;
mod inputs;
mod peers;
#[path = "../support.rs"]
mod support;

use gen::Rng;
use peers::{compare, peer_text, Departure, Tally};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use support::cases;
use uriscan::batch::Chunk;
use uriscan::{parse, Mode};

const MODES: [Mode; 3] = [Mode::Reference, Mode::Uri, Mode::Absolute];

/// Strings weighted toward URI structure: delimiters, hex digits, `%`, IPv6
/// pieces, and a few bytes outside the alphabet.
fn uri_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => prop::sample::select(vec![
            ":", "/", "?", "#", "[", "]", "@", "%", "//", "::", ".", "..", "%41", "%zz", "%4",
        ]),
        3 => prop::sample::select(vec![
            "a", "http", "s+v-1.x", "1", "12", "255", "256", "01", "ffff", "abcde", "v1", "V", "x",
            "1.2.3.4", "~", "!", "$&'()*+,;=", "-_",
        ]),
        1 => prop::sample::select(vec![" ", "\"", "<", "\\", "^", "{", "é", "\u{0}", "\t", "`", "|"]),
    ];
    prop::collection::vec(piece, 0..16).prop_map(|v| v.concat())
}

/// Checks `line` alone in every mode.
fn check_alone(line: &[u8], tally: &mut Tally) -> Result<(), String> {
    let text = peer_text(line, tally);
    for mode in MODES {
        compare(line, &text, mode, &parse(line, mode), tally)?;
    }
    Ok(())
}

proptest! {
    // Failures saved beside this file (`main.proptest-regressions`), and the
    // saved ones replayed: proptest's default looks for a `main.rs` above
    // the file and would use `tests/proptest-regressions/main.txt`.
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::with_cases(cases(30_000))
    })]
    #[test]
    fn short_random_inputs_agree(s in uri_text()) {
        if let Err(e) = check_alone(s.as_bytes(), &mut Tally::default()) {
            return Err(TestCaseError::fail(e));
        }
    }
}

/// The bundled corpus: every line agrees.
#[test]
fn bundled_corpus_agrees() {
    let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/sample.txt")).unwrap();
    let mut tally = Tally::default();
    let lines: Vec<&[u8]> = data
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(lines.len(), 5000);
    for line in lines {
        check_alone(line, &mut tally).unwrap();
    }
}

/// Every real line, 30,000 lines joined from them with one mutant each, and
/// 30,000 mutants of real lines (fewer with `URISCAN_PROPTEST_CASES`), alone and as the lines of one chunk (where
/// the scanner's windows cross line ends). Each departure must be needed by
/// some line: one that none needs is a filter to remove.
#[test]
fn real_and_mutated_long_lines_agree() {
    let dir = match inputs::corpus_dir() {
        Ok(dir) => dir,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let real = inputs::real_lines(&dir);
    let mut r = Rng(28);
    let mut lines = real.clone();
    let n = cases(30_000);
    for _ in 0..n {
        let joined = inputs::joined(&mut r, &real);
        lines.push(inputs::mutant(&mut r, &joined));
        lines.push(joined);
    }
    for _ in 0..n {
        let i = r.below(real.len());
        lines.push(inputs::mutant(&mut r, &real[i]));
    }
    let data = lines.join(&b'\n');
    let chunk = Chunk::new(&data, 1, 0);
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    let mut invalid = 0;
    for mode in MODES {
        for ((_, line, ours), expected) in chunk.uris(mode).zip(&lines) {
            // The chunk takes a final CR as part of a CRLF line end.
            assert_eq!(line, expected.strip_suffix(b"\r").unwrap_or(expected));
            let text = peer_text(line, &mut tally);
            let alone = parse(line, mode);
            invalid += usize::from(alone.is_err());
            for (how, ours) in [("in a chunk", ours), ("alone", alone)] {
                if let Err(e) = compare(line, &text, mode, &ours, &mut tally) {
                    failures.push(format!("{how}: {e}"));
                }
            }
        }
    }
    let long = lines.iter().filter(|l| l.len() > 64).count();
    eprintln!(
        "{} lines ({long} over 64 bytes), {} bytes, {invalid} invalid in the 3 modes; departures: {tally}",
        lines.len(),
        data.len()
    );
    for f in failures.iter().take(20) {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} differences", failures.len());
    for d in Departure::ALL {
        assert!(tally.get(d) > 0, "no line needs {d:?}");
    }
}

/// The examples of docs/DIFFERENTIAL.md: each needs exactly the departure
/// that the table lists it under.
#[test]
fn documented_examples_need_their_departure() {
    use Departure::*;
    let examples: [(&[u8], Mode, Departure); 13] = [
        (b"/a\xff", Mode::Reference, NotUtf8),
        (b"a_b", Mode::Uri, MissingScheme),
        (b"1a_b:c", Mode::Reference, Scheme),
        (b"1a_b:c", Mode::Uri, Scheme),
        (b"@[:", Mode::Reference, Scheme),
        (b". file:x", Mode::Reference, Scheme),
        (b"%tps://x", Mode::Reference, Scheme),
        (b"//[0::0::0]", Mode::Reference, IpLiteral),
        (b"//[example]", Mode::Reference, IpLiteral),
        (b"//[v1.[", Mode::Reference, IpLiteral),
        (b"//a:b]c@d", Mode::Reference, Authority),
        (b"//h.ne:t:x", Mode::Reference, Authority),
        (b"//@:::%zz", Mode::Reference, Authority),
    ];
    for (line, mode, expected) in examples {
        let mut tally = Tally::default();
        let text = peer_text(line, &mut tally);
        compare(line, &text, mode, &parse(line, mode), &mut tally).unwrap();
        let used: Vec<Departure> = Departure::ALL
            .into_iter()
            .filter(|&d| tally.get(d) > 0)
            .collect();
        assert_eq!(used, [expected], "{:?}", String::from_utf8_lossy(line));
    }
}
