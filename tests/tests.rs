//! Integration tests: the grammar, the Appendix B split, differential checks
//! against other strict parsers, and the command-line contract.

mod cli;
mod differential;
mod extract;
#[path = "../benches/common/gen.rs"]
#[allow(dead_code)]
mod gen;
mod grammar;
mod normalize;
mod refimpl;
mod resolve;
mod split;

/// The number of cases of a property test: `default`, or fewer when
/// `URISCAN_PROPTEST_CASES` says so (under qemu, say).
pub fn cases(default: u32) -> u32 {
    std::env::var("URISCAN_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(default, |n: u32| n.min(default))
}
