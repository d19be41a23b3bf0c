//! The set of keys `dedup` has seen, exact or by digest.
//!
//! Exact (the default): each distinct key is stored once, in one arena
//! (`Vec<u8>`), and found through a map from its XXH3-128 digest to its place
//! in the arena; a digest match is confirmed by comparing the bytes, and the
//! (astronomically rare) distinct key with the same digest goes to a side map.
//! Memory per distinct key: its bytes + about 40 bytes of map entry.
//!
//! Digest only (`--hash`): the map holds the digest alone, 16 bytes + the
//! map's overhead per distinct key, whatever the key's length. XXH3-128 is
//! stable and documented, so the same keys dedup the same way on every
//! machine and in every partition of a distributed job.

use std::collections::HashMap;
use std::io::{self, Write};

/// One place of [`DigestTable`], as four words so that a new table is
/// allocated zeroed (by the OS, lazily) with no pass to initialise it:
/// `[digest low, digest high, key start, key length << 32 | id + 1]`; all
/// zero is a free place.
type Slot = [u64; 4];

/// What a lookup found: the key's start, length and id.
#[derive(Clone, Copy)]
struct Entry {
    start: u64,
    len: u32,
    id: u32,
}

/// An open-addressing table from digest to key, probed linearly from the
/// digest's low bits (XXH3's bits are uniform). Built for batches: `warm`
/// loads the places of a group of digests back to back, so that their
/// cache misses overlap instead of following one another (a table of
/// millions of keys lives in DRAM, and a miss costs 100 ns).
struct DigestTable {
    slots: Vec<Slot>,
    len: usize,
}

impl DigestTable {
    fn new() -> DigestTable {
        DigestTable {
            slots: vec![[0; 4]; 1 << 10],
            len: 0,
        }
    }

    #[inline]
    fn home(&self, digest: u128) -> usize {
        digest as usize & (self.slots.len() - 1)
    }

    /// Touches the home places of `digests`.
    #[inline]
    fn warm(&self, digests: impl Iterator<Item = u128>) {
        let mut any = 0;
        for d in digests {
            any ^= self.slots[self.home(d)][3];
        }
        std::hint::black_box(any);
    }

    /// The entry of `digest`, or `None` after inserting `entry` for it.
    #[inline]
    fn get_or_insert(&mut self, digest: u128, entry: Entry) -> Option<Entry> {
        // At most three quarters full.
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let (lo, hi) = (digest as u64, (digest >> 64) as u64);
        let mut i = self.home(digest);
        loop {
            let slot = self.slots[i];
            if slot[3] == 0 {
                self.slots[i] = [
                    lo,
                    hi,
                    entry.start,
                    u64::from(entry.len) << 32 | u64::from(entry.id + 1),
                ];
                self.len += 1;
                return None;
            }
            if slot[0] == lo && slot[1] == hi {
                return Some(Entry {
                    start: slot[2],
                    len: (slot[3] >> 32) as u32,
                    id: (slot[3] as u32) - 1,
                });
            }
            i = (i + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let size = 2 * self.slots.len();
        let old = std::mem::replace(&mut self.slots, vec![[0; 4]; size]);
        let mask = size - 1;
        for slot in old.into_iter().filter(|s| s[3] != 0) {
            let mut i = self.home(u128::from(slot[0]) | u128::from(slot[1]) << 64);
            while self.slots[i][3] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }
}

pub struct Seen {
    exact: bool,
    /// Digest -> (start, length) of the key in `arena` (exact) and its id.
    map: DigestTable,
    arena: Vec<u8>,
    /// Exact mode: distinct keys whose digest another key has.
    collided: HashMap<Vec<u8>, u32>,
    /// `--count`: for each key id, its count, and the line to print.
    counts: Option<(Vec<u64>, Vec<u8>, Vec<usize>)>,
}

impl Seen {
    pub fn new(exact: bool, count: bool) -> Seen {
        Seen {
            exact,
            map: DigestTable::new(),
            arena: Vec::new(),
            collided: HashMap::new(),
            counts: count.then(|| (Vec::new(), Vec::new(), Vec::new())),
        }
    }

    fn next_id(&self) -> u32 {
        (self.map.len + self.collided.len()) as u32
    }

    /// Readies the table for the next `offer`s of these digests (see
    /// `DigestTable::warm`).
    pub fn warm(&self, digests: impl Iterator<Item = u128>) {
        self.map.warm(digests);
    }

    /// Records one occurrence of `key` (whose digest is `digest`), shown as
    /// the concatenation of `shown` (with its LF); true when the key is new.
    pub fn offer(&mut self, digest: u128, key: &[u8], shown: [&[u8]; 2]) -> bool {
        let id = self.next_id();
        let start = self.arena.len() as u64;
        let entry = Entry {
            start,
            len: key.len() as u32,
            id,
        };
        let id = match self.map.get_or_insert(digest, entry) {
            None => {
                if self.exact {
                    self.arena.extend_from_slice(key);
                }
                Err(id)
            }
            Some(found) => {
                let (start, len) = (found.start as usize, found.len as usize);
                if !self.exact || &self.arena[start..start + len] == key {
                    Ok(found.id)
                } else if let Some(&id) = self.collided.get(key) {
                    Ok(id)
                } else {
                    self.collided.insert(key.to_vec(), id);
                    Err(id)
                }
            }
        };
        if let Some((counts, lines, ends)) = &mut self.counts {
            match id {
                Ok(id) => counts[id as usize] += 1,
                Err(_) => {
                    counts.push(1);
                    lines.extend_from_slice(shown[0]);
                    lines.extend_from_slice(shown[1]);
                    ends.push(lines.len());
                }
            }
        }
        id.is_err()
    }

    /// `--count`: writes `count<TAB>line` for every key, in order of first
    /// occurrence.
    pub fn write_counts<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let Some((counts, lines, ends)) = &self.counts else {
            return Ok(());
        };
        let mut from = 0;
        for (count, &end) in counts.iter().zip(ends) {
            write!(out, "{count}\t")?;
            out.write_all(&lines[from..end])?;
            from = end;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table against a `HashMap`, through growth, with digests that
    /// share their home place (low bits) and keys that share a digest.
    #[test]
    fn seen_matches_a_hash_map() {
        for exact in [true, false] {
            let mut seen = Seen::new(exact, true);
            let mut model: HashMap<(u128, Vec<u8>), ()> = HashMap::new();
            let mut digests_seen: HashMap<u128, ()> = HashMap::new();
            for i in 0..20_000u64 {
                // Few distinct low bits, so probing runs long; keys 0..5000
                // repeat, and key k and k + 5000 share a digest.
                let k = i * 7919 % 10_000;
                let digest = u128::from(k % 5000) << 64 | u128::from(k % 5000 % 64);
                let key = format!("key{k}").into_bytes();
                seen.warm([digest].into_iter());
                let new = seen.offer(digest, &key, [&key, b"\n"]);
                let expected = if exact {
                    model.insert((digest, key.clone()), ()).is_none()
                } else {
                    digests_seen.insert(digest, ()).is_none()
                };
                assert_eq!(new, expected, "exact {exact} i {i} k {k}");
            }
            let mut out = Vec::new();
            seen.write_counts(&mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            let distinct = if exact { 10_000 } else { 5_000 };
            assert_eq!(text.lines().count(), distinct);
            let total: u64 = text
                .lines()
                .map(|l| l.split('\t').next().unwrap().parse::<u64>().unwrap())
                .sum();
            assert_eq!(total, 20_000);
        }
    }
}
