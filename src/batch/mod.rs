//! The corpus engine: newline-delimited records, read in bounded memory,
//! processed on all cores, written in input order.
//!
//! A record is a line ended by LF; one CR before the LF (or at the end of the
//! input) is dropped; the last line needs no LF; the empty piece after a final
//! LF is not a record. Line numbers count from 1.
//!
//! How [`run`] works:
//!
//! 1. The input is read in blocks into chunks of about `chunk_size` bytes that
//!    end on a line feed (the bytes after the last LF of a block move to the next
//!    chunk). A line longer than a chunk grows that chunk: a line is never
//!    split, unless it is longer than `max_line`: then it is read past (never
//!    held whole) and listed by [`Chunk::skipped`] of the next chunk. Each
//!    chunk knows the number of its first line.
//! 2. Each worker thread of the pool takes the next chunk from the shared
//!    reader (one worker reads at a time) and processes it where it was read,
//!    so no thread only copies bytes for another core; at most
//!    `2 x threads + 2` chunks are read and not yet written. Each chunk's
//!    output goes into its own buffer, with a value (statistics, say).
//! 3. The calling thread receives finished chunks, puts them back in input
//!    order, writes their output and hands their values to `consume`: reading,
//!    processing and writing overlap, with no barrier between batches.
//!
//! Memory stays bounded by about `(2 x threads + 2) x chunk_size` plus outputs
//! and the longest line, whatever the size of the input, be it a 10 GB file or
//! an endless pipe; `max_line` bounds the longest line. With
//! one thread, no thread pool is involved: chunks are read, processed and
//! written one after the other.
//!
//! ```
//! use uriscan::batch::{run, Options};
//! use uriscan::Mode;
//!
//! // Report each invalid line of a corpus with its number.
//! let input = &b"http://example.com/\nb c\n/ok\r\nhttp://[::1/\n"[..];
//! let mut out = Vec::new();
//! run(input, &mut out, &Options::default(),
//!     |chunk, out| {
//!         for (n, _line, result) in chunk.uris(Mode::Reference) {
//!             if let Err(e) = result {
//!                 out.extend_from_slice(format!("{n}: {e}\n").as_bytes());
//!             }
//!         }
//!     },
//!     |(), _progress| {},
//! )?;
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "2: invalid character ' ' in path\n4: '[' of IP literal not closed by ']'\n",
//! );
//! # Ok::<(), uriscan::batch::RunError>(())
//! ```

mod chunk;
pub(crate) mod run;
#[cfg(test)]
mod tests;

pub use chunk::{Chunk, Lines, Uris};
pub use run::{run, LongLine, Options, Pool, Progress, RunError};

/// The default size of a chunk: large enough to amortise the scheduling, small
/// enough to keep every core busy on modest inputs.
///
/// ```
/// use uriscan::batch::{Options, DEFAULT_CHUNK_SIZE};
///
/// assert_eq!(DEFAULT_CHUNK_SIZE, 2 * 1024 * 1024);
/// assert_eq!(Options::default().chunk_size, DEFAULT_CHUNK_SIZE);
/// ```
pub const DEFAULT_CHUNK_SIZE: usize = 1 << 21;
