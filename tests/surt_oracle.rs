//! The surt profile against its oracle, the Internet Archive's Python `surt`
//! library 0.3.1 (AGPL, run as a program from `.venv-surt/`, never part of
//! this repository): `scripts/surt-diff.py` keys the corpora, `corpora/` and
//! the 100,000 cases of `scripts/surt_cases.py` with both and fails on any
//! difference.
//!
//! It runs when `URISCAN_SURT_ORACLE` is set (CI sets it after
//! `scripts/surt-venv.sh`); otherwise it says that it was skipped.

use std::path::Path;
use std::process::Command;

/// The Unicode tables of `src/normalize/surt/` (`stringprep.rs`, `ucd.rs`)
/// are what `scripts/gen-stringprep.py` writes from Python's standard
/// library (no `surt` library needed: it runs everywhere a `python3` of the
/// files' Unicode version does).
#[test]
fn unicode_tables_are_what_their_script_writes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (table, file) in [
        ("stringprep", "src/normalize/surt/stringprep.rs"),
        ("ucd", "src/normalize/surt/ucd.rs"),
    ] {
        let out = Command::new("python3")
            .arg(root.join("scripts/gen-stringprep.py"))
            .arg(table)
            .output()
            .expect("python3 runs scripts/gen-stringprep.py");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let written = std::fs::read_to_string(root.join(file)).unwrap();
        let fresh = String::from_utf8_lossy(&out.stdout);
        // ucd.rs holds the canonical classes and compositions of the
        // Unicode of the Python that wrote it; another Python's differ.
        let unicode = |text: &str| {
            text.lines()
                .find(|l| l.contains("Python of Unicode"))
                .map(str::to_owned)
        };
        if unicode(&written) != unicode(&fresh) {
            eprintln!(
                "{file}: written by {:?}, this python3 has {:?}; not compared",
                unicode(&written),
                unicode(&fresh)
            );
            continue;
        }
        // The file is the script's output as `cargo fmt` lays it out.
        let squeeze = |s: &str| s.split_whitespace().collect::<String>();
        assert_eq!(
            squeeze(&written),
            squeeze(&fresh),
            "run: python3 scripts/gen-stringprep.py {table} > {file} && cargo fmt"
        );
    }
}

#[test]
fn surt_profile_matches_the_python_surt_library() {
    let Some(report) = oracle_report("scripts/surt-diff.py", "the surt profile", "surt.surt()")
    else {
        return;
    };
    // The summary table ends the report.
    assert!(report.contains("\n0 differences"), "{report}");
}

/// The report of an oracle's differential script (`scripts/*-diff.py`, run
/// with `.venv-surt/`'s Python on the test's uriscan binary), which must
/// succeed; `None`, after saying so, when `URISCAN_SURT_ORACLE` is not set.
pub(crate) fn oracle_report(script: &str, profile: &str, oracle: &str) -> Option<String> {
    if std::env::var_os("URISCAN_SURT_ORACLE").is_none() {
        eprintln!(
            "{profile} oracle skipped: run scripts/surt-venv.sh and set \
             URISCAN_SURT_ORACLE=1 to compare {profile} with {oracle}"
        );
        return None;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv-surt/bin/python");
    assert!(
        python.exists(),
        "URISCAN_SURT_ORACLE is set but {} is missing: run scripts/surt-venv.sh",
        python.display()
    );
    let out = Command::new(&python)
        .arg(root.join(script))
        .args(["--uriscan", env!("CARGO_BIN_EXE_uriscan"), "--show", "5"])
        .output()
        .unwrap_or_else(|e| panic!("{script} runs: {e}"));
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{profile} differs from {oracle}:\n{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(report)
}
