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

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Write};

/// The digests are already uniform: their low 64 bits are the hash.
#[derive(Default)]
pub struct DigestHasher(u64);

impl Hasher for DigestHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

type DigestMap<V> = HashMap<u128, V, BuildHasherDefault<DigestHasher>>;

pub struct Seen {
    exact: bool,
    /// Digest -> (start, length) of the key in `arena` (exact) or nothing.
    map: DigestMap<(u64, u32, u32)>,
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
            map: DigestMap::default(),
            arena: Vec::new(),
            collided: HashMap::new(),
            counts: count.then(|| (Vec::new(), Vec::new(), Vec::new())),
        }
    }

    fn next_id(&self) -> u32 {
        (self.map.len() + self.collided.len()) as u32
    }

    /// Records one occurrence of `key` (whose digest is `digest`), shown as
    /// the concatenation of `shown` (with its LF); true when the key is new.
    pub fn offer(&mut self, digest: u128, key: &[u8], shown: [&[u8]; 2]) -> bool {
        let next = self.next_id();
        // One probe of the map (an entry), not a lookup then an insert: with
        // millions of keys, each probe is a cache miss.
        let id = match self.map.entry(digest) {
            Entry::Vacant(place) => {
                let start = self.arena.len() as u64;
                if self.exact {
                    self.arena.extend_from_slice(key);
                }
                place.insert((start, key.len() as u32, next));
                Err(next)
            }
            Entry::Occupied(place) => {
                let (start, len, id) = *place.get();
                if !self.exact || &self.arena[start as usize..start as usize + len as usize] == key
                {
                    Ok(id)
                } else if let Some(&id) = self.collided.get(key) {
                    Ok(id)
                } else {
                    self.collided.insert(key.to_vec(), next);
                    Err(next)
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
