//! Integration tests: the grammar, the Appendix B split, differential checks
//! against other strict parsers, the fuzz corpora's replay, and the
//! command-line contract.

mod cli;
mod differential;
mod extract;
mod fuzz_replay;
#[path = "../benches/common/gen.rs"]
#[allow(dead_code)]
mod gen;
mod grammar;
mod layers;
mod mixed_text;
mod normalize;
mod refimpl;
mod resolve;
mod split;
mod surt_oracle;
mod web_oracle;

/// The number of cases of a property test: `default`, or fewer when
/// `URISCAN_PROPTEST_CASES` says so (under qemu, say).
pub fn cases(default: u32) -> u32 {
    std::env::var("URISCAN_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(default, |n: u32| n.min(default))
}

/// The bundled corpus is what the generator writes (`gencorpus --lines 5000`).
#[test]
fn bundled_corpus_is_regenerated_byte_for_byte() {
    let mut v = Vec::new();
    gen::generate(1, Some(5000), None, &mut v).unwrap();
    let bundled =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/sample.txt")).unwrap();
    assert!(
        v == bundled,
        "corpora/sample.txt differs from the generator's output"
    );
}
