//! The text's stage-1 masks for extraction ([`Scan`]): where the next `:`
//! is, and where a run of URI bytes ends, read off the masks of the blocks
//! crossed instead of byte by byte, the text classified only around its
//! candidates; and the count of bytes looked at that the linear-time
//! checks bound.

use crate::grammar::Mode;
use crate::simd::{Backend, Checked, Masks};
use crate::stage2::{self, Verdict};
use crate::{Error, Uri};

/// Whether `b` may stand in a URI (its alphabet).
pub(super) fn in_alphabet(b: u8) -> bool {
    crate::classes::is(b, crate::classes::URI_ALPHABET)
}

/// How many 64-byte blocks [`Scan`] classifies at once: one call to the
/// classifier for 512 bytes, so that its dispatch is paid once per group,
/// not once per block. (Groups of 4 blocks: 3% fewer instructions on
/// prose, 2% more on text that is mostly URIs, by callgrind.)
const GROUP: usize = 8;

/// How many blocks before the group [`Scan`] keeps the masks of (the last
/// of the group before, when the text's groups are classified in turn):
/// a URI of up to 128 bytes that ends in the group starts in them or in it,
/// so that [`Scan::blocks`] has its masks for validation.
const KEEP: usize = 2;

/// Blocks of anything after the group's, so that [`Scan::blocks`] gives
/// three blocks from any of the group's (validation reads three, and
/// clears the bits past the URI's end).
const PAD: usize = 2;

/// The text's stage-1 masks, a group of [`GROUP`] blocks at a time (aligned
/// on the text's start), and how many bytes extraction looked at.
///
/// The search for the end of a URI's run of URI bytes reads the masks of
/// the blocks it crosses: a run ends at the first `special` byte that is
/// not `%` `@` `[` `]`. The search for a `:` reads them in the group at
/// hand and `memchr`s past it: a group is classified when a candidate
/// starts in it or its run reaches it, so text without URIs costs a
/// `memchr`, not a classification (on prose, 28% fewer instructions for
/// the whole extraction; on text that is mostly URIs, the same). The
/// searches move forward, so each group is classified a bounded number of
/// times (the searches of one candidate and of the next meet in the same
/// group).
#[derive(Clone, Debug)]
pub(super) struct Scan {
    backend: Checked,
    /// The offset of the group's first byte, a multiple of `64 * GROUP`
    /// (`usize::MAX`: none yet).
    base: usize,
    /// The masks of the [`KEEP`] blocks before the group, then of the
    /// group's blocks, then [`PAD`] blocks of anything.
    masks: [Masks; KEEP + GROUP + PAD],
    /// Whether the first [`KEEP`] masks are those of the blocks before the
    /// group (the group before it was the last classified).
    kept: bool,
    /// Bytes looked at (see [`super::Extract::work`]).
    pub(super) work: usize,
}

impl Scan {
    pub(super) fn new(backend: Backend) -> Scan {
        Scan {
            backend: backend.checked(),
            base: usize::MAX,
            masks: [Masks::default(); KEEP + GROUP + PAD],
            kept: false,
            work: 0,
        }
    }

    /// Counts `n` more bytes looked at.
    #[inline(always)]
    pub(super) fn work(&mut self, n: usize) {
        self.work += n;
    }

    /// The start of the block of `text` holding byte `at` (`< text.len()`)
    /// and its masks (bytes past the end of `text` are zero bytes: special).
    #[inline]
    fn block(&mut self, text: &[u8], at: usize) -> (usize, &Masks) {
        let group = at & !(64 * GROUP - 1);
        if group != self.base {
            self.kept = self.base.checked_add(64 * GROUP) == Some(group);
            if self.kept {
                self.masks.copy_within(GROUP.., 0);
            }
            let end = text.len().min(group + 64 * GROUP);
            self.backend
                .classify_blocks(&text[group..end], &mut self.masks[KEEP..KEEP + GROUP]);
            self.base = group;
            self.work(end - group);
        }
        let block = at & !63;
        (block, &self.masks[KEEP + (block - group) / 64])
    }

    /// The masks of the blocks holding `text[start..end]`, from the block
    /// of `start` on and at least three (those past the block of `end`
    /// hold anything), when the group at hand and the blocks kept before
    /// it hold them all; else `None`.
    /// They are the text's whatever the searches did before (a function of
    /// the bytes alone), so a caller may read them for any range they hold.
    #[inline]
    pub(super) fn blocks(&self, start: usize, end: usize) -> Option<&[Masks]> {
        if self.base == usize::MAX {
            return None;
        }
        // The index in `masks` of the block of byte `at`, and the first
        // index that holds this text's masks.
        let index = |at: usize| (at + 64 * KEEP).checked_sub(self.base).map(|d| d / 64);
        let held = if self.kept { 0 } else { KEEP };
        let (first, last) = (index(start)?, index(end.max(start + 1) - 1)?);
        let ours = first >= held && last < KEEP + GROUP;
        self.masks.get(first..).filter(|_| ours)
    }

    /// [`crate::parse`] of `uri`, the bytes of the text from `start`, by
    /// stage 2 from the masks at hand when they hold it all and it has 8
    /// bytes or more (a shorter one is left to the reference).
    #[inline]
    pub(super) fn parse<'u>(
        &self,
        start: usize,
        uri: &'u [u8],
        mode: Mode,
    ) -> Result<Uri<'u>, Error> {
        match self.blocks(start, start + uri.len()) {
            Some(m) if uri.len() >= 8 => stage2::decide_range_then(
                m,
                start % 64,
                uri,
                mode,
                |o| Ok(Uri::from_outcome(uri, o)),
                |verdict| match verdict {
                    Verdict::Invalid(Some(e)) => Err(e),
                    _ => crate::parse(uri, mode),
                },
            ),
            _ => crate::parse(uri, mode),
        }
    }

    /// The first `:` of `text` at or after `from`: read off the masks of
    /// the group at hand, and past it found by `memchr`, which classifies
    /// nothing. Most `:`s of prose start no URI (`Note:`, `12:30`), so
    /// a group is classified only when a candidate needs its masks
    /// ([`Scan::candidate`]), not for every `:` or every group.
    pub(super) fn colon(&mut self, text: &[u8], from: usize) -> Option<usize> {
        let mut at = from;
        let group_end = self.base.wrapping_add(64 * GROUP).min(text.len());
        while at < group_end && at >= self.base {
            let (block, m) = self.block(text, at);
            let colons = m.colon >> (at - block);
            if colons != 0 {
                let colon = at + colons.trailing_zeros() as usize;
                self.work(colon + 1 - from);
                return Some(colon);
            }
            at = block + 64;
        }
        let found = memchr::memchr(b':', text.get(at..).unwrap_or_default()).map(|i| at + i);
        self.work(found.map_or(text.len(), |c| c + 1).saturating_sub(from));
        found
    }

    /// Classifies the group of byte `start` (`< text.len()`), where a
    /// candidate URI starts, unless it is the group at hand: the searches
    /// that follow move forward from it, group by group, so that
    /// [`Scan::blocks`] holds the candidate's masks for its validation.
    #[inline]
    pub(super) fn candidate(&mut self, text: &[u8], start: usize) {
        self.block(text, start);
    }

    /// The end of the run of URI-alphabet bytes of `text` from `from`: only
    /// the `special` bytes of its blocks need a look (`%` `@` `[` `]` are
    /// in the alphabet, the others are not).
    pub(super) fn alphabet_end(&mut self, text: &[u8], from: usize) -> usize {
        let mut at = from;
        let end = 'run: loop {
            if at >= text.len() {
                break text.len();
            }
            let (block, m) = self.block(text, at);
            let mut w = m.special >> (at - block);
            while w != 0 {
                let i = at + w.trailing_zeros() as usize;
                if i >= text.len() || !in_alphabet(text[i]) {
                    break 'run i.min(text.len());
                }
                w &= w - 1;
            }
            at = block + 64;
        };
        self.work(end.saturating_sub(from));
        end
    }
}
