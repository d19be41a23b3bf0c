//! # uriscan
//!
//! Split, validate, normalize and extract RFC 3986 URIs at the speed of memory,
//! one at a time or by the billion.
//!
//! The pipeline, and where each stage of RFC 3986 lives:
//!
//! | stage | function | RFC 3986 |
//! |---|---|---|
//! | split into five components, never fails | [`split()`] | Appendix B |
//! | validate every component, say where and why | [`parse`] | Appendix A, sections 3 and 4 |
//! | classify bytes 64 at a time (SSE2, AVX2, AVX-512, NEON, SWAR) | [`Backend`] | — |
//! | normalize (syntax-based and scheme-based) | [`normalize()`], [`Normalizer`] | 6.2.2, 6.2.3 |
//! | resolve a reference against a base | [`resolve()`] | 5.2, 5.3 |
//! | find URIs in free text and access logs | [`extract()`], [`parse_log_line`] | Appendix C |
//! | process newline-delimited corpora on all cores | [`batch`] | — |
//!
//! Splitting returns offsets, never copies; parsing returns a [`Uri`] that
//! borrows the input (or a [`UriBuf`] that owns it), or an [`Error`] with the
//! offset of the first offending byte, the [`Component`] it is in and an
//! [`ErrorKind`].
//!
//! # Layers
//!
//! The modules form layers, each using only those below it (no cycle;
//! `tests/layers.rs` checks it, `docs/ARCHITECTURE.md` draws the pipeline
//! and says which file to open for which change):
//!
//! 1. `classes`: the byte-class table and percent-encoding helpers, and the
//!    indexes of stage 1's mask classes (one vocabulary for all three);
//! 2. `grammar`: the reference, the oracle: Appendix B's split, Appendix A's
//!    component checks, [`Error`]; it never calls a faster path;
//! 3. `simd`: stage 1, bytes to class masks, one file per ISA ([`Backend`]);
//! 4. `stage2`: masks to a line's verdict, the fast path's one copy of the
//!    line grammar, tested against `grammar` on random input;
//! 5. `uri`: [`Uri`], [`UriBuf`], [`Host`]; [`parse`] runs stages 1 and 2
//!    and falls back to `grammar`;
//! 6. `normalize`: section 6 and the profiles ([`Normalizer`]), and
//!    section 5 ([`resolve()`]);
//! 7. `extract`: URIs in text and access logs;
//! 8. [`batch`]: the corpus engine.
//!
//! The command-line tool (`src/bin/uriscan`, feature `cli`, on by default)
//! uses only this public API. With `default-features = false` the library
//! depends on memchr, rayon and bytemuck alone; feature `serde` adds
//! `Serialize`/`Deserialize` for the URI types.
//!
//! ```
//! use uriscan::{parse, split, Mode};
//!
//! let input = b"http://example.com/a%20b?q#f";
//! let s = split(input);
//! assert_eq!(&input[s.path()], b"/a%20b");
//!
//! let uri = parse(input, Mode::Uri)?;
//! assert_eq!(uri.host(), Some("example.com"));
//!
//! let err = parse(b"http://example.com/a%2", Mode::Uri).unwrap_err();
//! assert_eq!(err.offset(), 20);
//! assert_eq!(err.to_string(), "'%' not followed by two hex digits in path");
//! # Ok::<(), uriscan::Error>(())
//! ```
#![deny(missing_docs)]
#![deny(unsafe_code)]
#![warn(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

// The layers, from the bottom up (see the module docs above and
// docs/ARCHITECTURE.md); each uses only those above it in this list.
pub mod batch;
mod classes;
mod extract;
mod grammar;
mod normalize;
mod simd;
mod stage2;
mod uri;

pub use extract::{
    extract, found_to_uri, iri_to_uri, parse_log_line, Extract, Found, LogFields, LogFormat,
    LogParser, LogUri, DETECT_LINES,
};
pub use grammar::{split, Component, Error, ErrorKind, HostKind, Mode, Split};
pub use normalize::{normalize, remove_dot_segments, resolve, surt_key, Normalizer, Profile};
pub use simd::{Backend, Masks};
pub use uri::{parse, parse_with, Host, Uri, UriBuf};

/// The README's examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
