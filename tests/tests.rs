//! Integration tests: the grammar, the Appendix B split, the fuzz corpora's
//! replay, and the command-line contract. The differential checks against
//! other strict parsers are a test crate of their own (`tests/differential/`),
//! so that a cross build for qemu can build them alone.

mod cli;
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
mod support;
mod surt_oracle;
mod web_oracle;

pub use support::cases;

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
