//! The web profile against its reference, w3lib's `canonicalize_url` (w3lib
//! 2.5.0, what Scrapy keys requests with), run from `.venv-surt/`:
//! `scripts/web-diff.py` keys `../shared/corpora/*`, `corpora/` and the
//! 112,512 cases of `scripts/web_cases.py` with both and fails on any
//! difference but the documented ones (`docs/WEB.md`).
//!
//! It runs when `URISCAN_SURT_ORACLE` is set (`scripts/test.sh` sets it
//! after `scripts/surt-venv.sh`, which installs both oracles); otherwise it
//! says that it was skipped.

use std::path::Path;
use std::process::Command;

#[test]
fn web_profile_matches_w3lib_canonicalize_url() {
    if std::env::var_os("URISCAN_SURT_ORACLE").is_none() {
        eprintln!(
            "web oracle skipped: run scripts/surt-venv.sh and set URISCAN_SURT_ORACLE=1 \
             to compare the web profile with w3lib's canonicalize_url"
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv-surt/bin/python");
    assert!(
        python.exists(),
        "URISCAN_SURT_ORACLE is set but {} is missing: run scripts/surt-venv.sh",
        python.display()
    );
    let out = Command::new(&python)
        .arg(root.join("scripts/web-diff.py"))
        .args(["--uriscan", env!("CARGO_BIN_EXE_uriscan"), "--show", "5"])
        .output()
        .expect("scripts/web-diff.py runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the web profile differs from canonicalize_url:\n{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The summary table ends the report; over 100,000 generated cases were
    // compared (its columns: set, lines, not RFC 3986, raises, compared).
    assert!(report.contains("\n0 differences"), "{report}");
    let compared: u64 = report
        .lines()
        .find(|l| l.starts_with("web_cases.py "))
        .and_then(|l| l.split_whitespace().nth(4)?.parse().ok())
        .unwrap_or_else(|| panic!("no count of generated cases in:\n{report}"));
    assert!(compared >= 100_000, "{compared} generated cases compared");
}
