//! The web profile against its reference, w3lib's `canonicalize_url` (w3lib
//! 2.5.0, what Scrapy keys requests with), run from `.venv-surt/`:
//! `scripts/web-diff.py` keys `../shared/corpora/*`, `corpora/` and the
//! 112,512 cases of `scripts/web_cases.py` with both and fails on any
//! difference but the documented ones (`docs/WEB.md`).
//!
//! It runs when `URISCAN_SURT_ORACLE` is set (`scripts/test.sh` sets it
//! after `scripts/surt-venv.sh`, which installs both oracles); otherwise it
//! says that it was skipped.

use crate::surt_oracle::oracle_report;

#[test]
fn web_profile_matches_w3lib_canonicalize_url() {
    let Some(report) = oracle_report(
        "scripts/web-diff.py",
        "the web profile",
        "w3lib's canonicalize_url",
    ) else {
        return;
    };
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
