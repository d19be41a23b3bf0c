//! What the integration test crates share.

/// The number of cases of a property test: `default`, or fewer when
/// `URISCAN_PROPTEST_CASES` says so (under qemu, say).
pub fn cases(default: u32) -> u32 {
    std::env::var("URISCAN_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(default, |n: u32| n.min(default))
}
