//! [`SliceChunker`]: the chunks of [`super::run_slice`], slices of bytes in
//! memory.

use std::io;

use super::chunk::count_lfs;
use super::run::{OwnedChunk, Source};
use super::LongLine;

/// Cuts bytes in memory into chunks of whole lines, as [`super::run::ChunkReader`]
/// cuts a stream: about `chunk_size` bytes ending on an LF (a line longer
/// than that is a chunk of its own), the lines longer than `max_line` left
/// out and listed with the next chunk.
pub(super) struct SliceChunker<'s> {
    data: &'s [u8],
    /// Where the next chunk starts.
    pos: usize,
    chunk_size: usize,
    max_line: usize,
    next_line: u64,
}

impl<'s> SliceChunker<'s> {
    pub(super) fn new(data: &'s [u8], chunk_size: usize, max_line: usize) -> Self {
        SliceChunker {
            data,
            pos: 0,
            // As the reader's: a window never longer than a line may be.
            chunk_size: chunk_size.clamp(1, max_line.saturating_add(1)),
            max_line: max_line.max(1),
            next_line: 1,
        }
    }

    /// The end (past its LF, if any) of the chunk that starts at `pos`
    /// (`rest`, not empty); `None` when its first line is too long.
    fn chunk_end(&self, rest: &[u8]) -> Option<usize> {
        let window = &rest[..rest.len().min(self.chunk_size)];
        if let Some(i) = memchr::memrchr(b'\n', window) {
            return Some(i + 1);
        }
        // No LF in the window: its line is the chunk, if it is no longer
        // than `max_line` (its LF within `max_line + 1` bytes, or the end).
        let limit = rest.len().min(self.max_line.saturating_add(1));
        match memchr::memchr(b'\n', &rest[window.len()..limit]) {
            Some(i) => Some(window.len() + i + 1),
            None if rest.len() <= self.max_line => Some(rest.len()),
            None => None,
        }
    }

    /// Passes the line at `pos`, too long to keep.
    fn skip_line(&mut self) -> LongLine {
        let rest = &self.data[self.pos..];
        let lf = memchr::memchr(b'\n', rest);
        let long = LongLine {
            line: self.next_line,
            offset: self.pos as u64,
            len: lf.unwrap_or(rest.len()) as u64,
            lf: lf.is_some(),
        };
        self.next_line += 1;
        self.pos += long.input_len() as usize;
        long
    }
}

impl<'s> Source<'s> for SliceChunker<'s> {
    fn next_chunk(&mut self, spare: Vec<u8>) -> io::Result<Option<OwnedChunk<'s>>> {
        let mut skipped = Vec::new();
        loop {
            let data = self.data;
            let rest = &data[self.pos..];
            let end = if rest.is_empty() {
                if skipped.is_empty() {
                    return Ok(None);
                }
                0
            } else if let Some(end) = self.chunk_end(rest) {
                end
            } else {
                skipped.push(self.skip_line());
                continue;
            };
            let bytes = &rest[..end];
            let lines = count_lfs(bytes) + u64::from(bytes.last().is_some_and(|&b| b != b'\n'));
            let chunk = OwnedChunk::borrowed(
                bytes,
                self.next_line,
                self.pos as u64,
                lines,
                skipped,
                spare,
            );
            self.next_line += lines;
            self.pos += end;
            return Ok(Some(chunk));
        }
    }
}
