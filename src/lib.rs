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
//! borrows the input, or an [`Error`] with the offset of the first offending
//! byte, the [`Component`] it is in and an [`ErrorKind`].
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

pub mod batch;
mod error;
mod extract;
mod normalize;
mod resolve;
mod simd;
mod split;
mod stage2;
mod table;
mod validate;

pub use error::{Component, Error, ErrorKind};
pub use extract::{extract, parse_log_line, Extract, Found, LogFields};
pub use normalize::{normalize, Normalizer, Profile};
pub use resolve::{remove_dot_segments, resolve};
pub use simd::{Backend, Masks};
pub use split::{split, Split};
pub use validate::{parse, parse_with, HostKind, Mode, Uri};

/// The README's examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
