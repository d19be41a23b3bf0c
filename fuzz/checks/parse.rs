//! Every backend agrees with the scalar reference on any input, as a single
//! URI and as a chunk of lines, and the split never panics.
//!
//! Shared by the fuzz target of the same name and by the stable replay of
//! its committed corpus (tests/fuzz_replay.rs): the checks are written once.

use uriscan::batch::Chunk;
use uriscan::{parse_with, split, Backend, Mode};

/// Panics if `data` breaks a property above.
pub fn check(data: &[u8]) {
    let _ = split(data);
    for mode in [Mode::Reference, Mode::Uri, Mode::Absolute] {
        let expected = parse_with(data, mode, Backend::Scalar);
        if let Ok(u) = &expected {
            assert_eq!(
                u.split(),
                &split(data),
                "{:?}",
                String::from_utf8_lossy(data)
            );
        }
        for backend in Backend::available() {
            assert_eq!(
                parse_with(data, mode, backend),
                expected,
                "{}",
                backend.name()
            );
        }
    }
    let chunk = Chunk::new(data, 1, 0);
    for mode in [Mode::Reference, Mode::Uri, Mode::Absolute] {
        let expected: Vec<_> = chunk.uris_with(mode, Backend::Scalar).collect();
        assert_eq!(expected.len(), chunk.lines().count());
        for backend in Backend::available() {
            let got: Vec<_> = chunk.uris_with(mode, backend).collect();
            assert_eq!(got, expected, "{} {mode:?}", backend.name());
            // The `fold` loop (what `for_each` runs) is a second copy.
            let mut folded = Vec::new();
            chunk
                .uris_with(mode, backend)
                .for_each(|item| folded.push(item));
            assert_eq!(folded, expected, "{} {mode:?} fold", backend.name());
        }
    }
}
