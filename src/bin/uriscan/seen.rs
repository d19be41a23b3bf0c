//! The set of keys `dedup` (and `extract --unique`) has seen, exact or by
//! digest, and the ordered pass that offers each chunk's keys to it.
//!
//! One open-addressing table of 16-byte slots (linear probing, at most 3/4
//! full, doubled when it would be fuller), indexed by the top bits of the
//! key's XXH3-128 digest; an empty slot is all zero.
//!
//! Exact (the default): each distinct key is stored once, in an arena of
//! 64 MiB blocks that never move (a LEB128 length, then the bytes), and a
//! slot holds the digest's high half and the key's place in the arena (plus
//! one, so never zero); a match of the high half is confirmed by comparing
//! the bytes, and a distinct key with the same high half just takes the next
//! free slot.
//! Memory per distinct key: its bytes, a byte or two of length, and 16
//! bytes of slot divided by the table's load (3/8 to 3/4): 21 to 43 bytes.
//!
//! Digest only (`--hash`): a slot holds the whole digest: 21 to 43 bytes per
//! distinct key whatever the key's length. XXH3-128 is stable and
//! documented, so the same keys dedup the same way on every machine and in
//! every partition of a distributed job.
//!
//! With millions of keys every probe is a cache miss (and, on a virtual
//! machine, a TLB miss with a two-level page walk). [`Seen::look_ahead`]
//! prefetches, while key `i` is offered, the home slot of key `i + 2A` and
//! (exact mode) the stored key that the slot of key `i + A` points to, so
//! that the misses of many keys are in flight at once and none of them
//! stalls the offer that needs it.

use std::io::{self, Write};

use anyhow::Context as _;
use memmap2::MmapMut;
use xxhash_rust::xxh3::xxh3_128;

/// A chunk's records for the ordered pass, kept apart from its statistics.
#[derive(Default, Debug)]
pub struct Keys {
    /// Each record: its key, then what is shown when the key is new (for
    /// `dedup`, the line and an LF, left out for a valid line under `--print
    /// key`).
    pub bytes: Vec<u8>,
    /// For each record: the key's digest, the end of the key and the end of
    /// the record.
    pub records: Vec<(u128, usize, usize)>,
}

impl Keys {
    /// Ends the record that starts at `at` and whose key ends at `key_end`.
    #[inline]
    pub fn end_record(&mut self, at: usize, key_end: usize) {
        let hash = xxh3_128(&self.bytes[at..key_end]);
        self.records.push((hash, key_end, self.bytes.len()));
    }
}

/// The ordered pass: each chunk's keys offered to [`Seen`] in input order,
/// the records of new keys written.
pub struct Unique {
    seen: Seen,
    /// `--print key`: a valid line's key is what is shown.
    print_key: bool,
    /// `--count`: nothing is written before the counts, at the end.
    count: bool,
    /// Records kept and dropped.
    pub unique: u64,
    pub duplicates: u64,
}

impl Unique {
    pub fn new(exact: bool, count: bool, print_key: bool) -> anyhow::Result<Unique> {
        Ok(Unique {
            seen: Seen::new(exact, count).context("cannot allocate the table of keys")?,
            print_key,
            count,
            unique: 0,
            duplicates: 0,
        })
    }

    /// Offers the records of `keys`; appends to `out` those whose key is new.
    pub fn offer(&mut self, keys: &Keys, out: &mut Vec<u8>) -> anyhow::Result<()> {
        let records = &keys.records[..];
        let mut from = 0;
        for (i, &(hash, key_end, end)) in records.iter().enumerate() {
            self.seen.look_ahead(|j| records.get(j).map(|r| r.0), i);
            let key = &keys.bytes[from..key_end];
            // An invalid line's key is a NUL and the line: show the line.
            let shown: [&[u8]; 2] = if self.print_key && key.first() != Some(&0) {
                [key, b"\n"]
            } else {
                [&keys.bytes[key_end..end], b""]
            };
            if self
                .seen
                .offer(hash, key, shown)
                .context("cannot store more keys")?
            {
                self.unique += 1;
                if !self.count {
                    out.extend_from_slice(shown[0]);
                    out.extend_from_slice(shown[1]);
                }
            } else {
                self.duplicates += 1;
            }
            from = end;
        }
        Ok(())
    }

    /// `--count`: `count<TAB>line` for every key, in order of first
    /// occurrence.
    pub fn write_counts(&self, out: &mut dyn Write) -> io::Result<()> {
        self.seen.write_counts(out)
    }
}

/// How far ahead [`Seen::look_ahead`] prefetches, in keys: enough misses in
/// flight to keep the memory system busy, few enough that what is fetched
/// is still cached when its key is offered. The slot of a key is fetched
/// `2 * AHEAD` keys ahead, its stored key (exact mode) `AHEAD` keys ahead.
const AHEAD: usize = 12;

/// The arena's block size; a longer key gets a block of its own.
const BLOCK: usize = 64 << 20;

/// A place in the arena: block number above these bits, offset below.
const OFFSET_BITS: u32 = 40;

struct Seen {
    exact: bool,
    /// A power of two of 16-byte slots, at most 3/4 full.
    table: MmapMut,
    /// `64 - log2(slots)`: a digest's home slot is its top bits.
    shift: u32,
    len: usize,
    /// Exact mode: the distinct keys, each a LEB128 length then its bytes,
    /// in blocks that are never moved.
    arena: Vec<Block>,
    /// `--hash`: the id of the all-zero digest, which an empty slot looks like.
    zero: Option<usize>,
    /// `--count`: each slot's key id, and for each id its count and the line
    /// to print.
    counts: Option<Counts>,
}

struct Block {
    map: MmapMut,
    used: usize,
}

struct Counts {
    ids: Vec<usize>,
    counts: Vec<u64>,
    lines: Vec<u8>,
    ends: Vec<usize>,
}

const EMPTY: [u64; 2] = [0, 0];

/// Zeroed memory from the system, on huge pages where it has them: the
/// table and the arena are read at random, and with 4 KiB pages each of
/// those reads also misses the TLB (and each first touch faults). Measured
/// on the 1 GiB generated corpus, exact `dedup -j1`: see the README.
fn zeroed(len: usize) -> io::Result<MmapMut> {
    let map = MmapMut::map_anon(len)?;
    // A hint: where transparent huge pages are off, it changes nothing.
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    Ok(map)
}

/// Starts loading the cache line that holds `r`, and returns at once.
#[inline(always)]
fn prefetch<T: bytemuck::NoUninit>(r: &T) {
    // The one `unsafe` of the binary: a prefetch instruction takes a
    // pointer. It pays: see `AHEAD` and the README.
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: a prefetch is a hint that reads nothing into a register and
    // never faults; the pointer comes from a live reference besides.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((r as *const T).cast());
    }
    // Elsewhere a plain read, which the CPU issues early but which holds
    // back the instructions after it until the line comes.
    #[cfg(not(target_arch = "x86_64"))]
    std::hint::black_box(bytemuck::bytes_of(r)[0]);
}

fn slots(table: &[u8]) -> &[[u64; 2]] {
    bytemuck::cast_slice(table)
}

impl Seen {
    pub fn new(exact: bool, count: bool) -> io::Result<Seen> {
        const SLOTS: usize = 1 << 10;
        Ok(Seen {
            exact,
            table: zeroed(SLOTS * 16)?,
            shift: 64 - SLOTS.trailing_zeros(),
            len: 0,
            arena: Vec::new(),
            zero: None,
            counts: count.then(|| Counts {
                ids: vec![0; SLOTS],
                counts: Vec::new(),
                lines: Vec::new(),
                ends: Vec::new(),
            }),
        })
    }

    fn home(&self, hi: u64) -> usize {
        (hi >> self.shift) as usize
    }

    /// The block of arena place `at`, and the offset of the place in it.
    fn place(&self, at: u64) -> (&[u8], usize) {
        let block = &self.arena[(at >> OFFSET_BITS) as usize].map;
        (block, (at & ((1 << OFFSET_BITS) - 1)) as usize)
    }

    /// The key stored at arena place `at`.
    fn key_at(&self, at: u64) -> &[u8] {
        let (block, mut i) = self.place(at);
        let (mut len, mut shift) = (0usize, 0);
        loop {
            let b = block[i];
            len |= usize::from(b & 0x7f) << shift;
            i += 1;
            if b < 0x80 {
                break;
            }
            shift += 7;
        }
        &block[i..i + len]
    }

    /// Appends `key` to the arena; its place.
    fn store(&mut self, key: &[u8]) -> io::Result<u64> {
        let need = key.len() + 10;
        if self
            .arena
            .last()
            .is_none_or(|b| b.map.len() - b.used < need)
        {
            let map = zeroed(need.max(BLOCK))?;
            self.arena.push(Block { map, used: 0 });
        }
        let number = self.arena.len() as u64 - 1;
        let block = self.arena.last_mut().expect("a block was just ensured");
        let at = number << OFFSET_BITS | block.used as u64;
        let mut len = key.len();
        while len >= 0x80 {
            block.map[block.used] = len as u8 | 0x80;
            block.used += 1;
            len >>= 7;
        }
        block.map[block.used] = len as u8;
        block.used += 1;
        block.map[block.used..block.used + key.len()].copy_from_slice(key);
        block.used += key.len();
        Ok(at)
    }

    /// Prefetches what offering the keys after the `i`-th of `digests` will
    /// read; to be called before offering the `i`-th. A hint, with no effect
    /// on what the set holds.
    #[inline(always)]
    pub fn look_ahead(&self, digests: impl Fn(usize) -> Option<u128>, i: usize) {
        let slots = slots(&self.table);
        let slot = |d: u128| &slots[self.home((d >> 64) as u64)];
        // The first keys: nothing was fetched for them yet.
        let from = if i == 0 { 0 } else { 2 * AHEAD };
        for j in from..=2 * AHEAD {
            if let Some(d) = digests(i + j) {
                prefetch(slot(d));
            }
        }
        if !self.exact {
            return;
        }
        let from = if i == 0 { 0 } else { AHEAD };
        for j in from..=AHEAD {
            // The slot itself was fetched `AHEAD` keys ago (its key may
            // still be further in the probe run: then that is missed).
            if let Some(d) = digests(i + j) {
                let [hi, at] = *slot(d);
                if hi == (d >> 64) as u64 && at != 0 {
                    let (block, i) = self.place(at - 1);
                    prefetch(&block[i]);
                }
            }
        }
    }

    /// Records one occurrence of `key` (whose digest is `digest`), shown as
    /// the concatenation of `shown` (with its LF); true when the key is new.
    pub fn offer(&mut self, digest: u128, key: &[u8], shown: [&[u8]; 2]) -> io::Result<bool> {
        let (hi, lo) = ((digest >> 64) as u64, digest as u64);
        if !self.exact && digest == 0 {
            let next = self.next_id();
            return Ok(match self.zero {
                Some(id) => self.count(Ok(id), shown),
                None => {
                    self.zero = Some(next);
                    self.count(Err(next), shown)
                }
            });
        }
        let size = self.table.len() / 16;
        if (self.len + 1) * 4 > size * 3 {
            self.resize(size * 2)?;
        }
        let slots = slots(&self.table);
        let mask = slots.len() - 1;
        let mut i = self.home(hi);
        loop {
            let slot = slots[i];
            if slot == EMPTY {
                break;
            }
            if slot[0] == hi
                && if self.exact {
                    self.key_at(slot[1] - 1) == key
                } else {
                    slot[1] == lo
                }
            {
                let id = self.counts.as_ref().map_or(0, |c| c.ids[i]);
                return Ok(self.count(Ok(id), shown));
            }
            i = (i + 1) & mask;
        }
        let next = self.next_id();
        let slot = if self.exact {
            [hi, self.store(key)? + 1]
        } else {
            [hi, lo]
        };
        bytemuck::cast_slice_mut(&mut self.table)[i] = slot;
        self.len += 1;
        if let Some(c) = &mut self.counts {
            c.ids[i] = next;
        }
        Ok(self.count(Err(next), shown))
    }

    fn next_id(&self) -> usize {
        self.len + usize::from(self.zero.is_some())
    }

    /// Counts an occurrence of key `id`, `Err` when it is the first; true
    /// when it is.
    fn count(&mut self, id: Result<usize, usize>, shown: [&[u8]; 2]) -> bool {
        if let Some(c) = &mut self.counts {
            match id {
                Ok(id) => c.counts[id] += 1,
                Err(_) => {
                    c.counts.push(1);
                    c.lines.extend_from_slice(shown[0]);
                    c.lines.extend_from_slice(shown[1]);
                    c.ends.push(c.lines.len());
                }
            }
        }
        id.is_err()
    }

    /// Moves every key to a table of `size` slots.
    fn resize(&mut self, size: usize) -> io::Result<()> {
        let old = std::mem::replace(&mut self.table, zeroed(size * 16)?);
        let old_ids = self
            .counts
            .as_mut()
            .map(|c| std::mem::replace(&mut c.ids, vec![0; size]));
        self.shift = 64 - size.trailing_zeros();
        let new: &mut [[u64; 2]] = bytemuck::cast_slice_mut(&mut self.table);
        for (j, &slot) in slots(&old).iter().enumerate() {
            if slot == EMPTY {
                continue;
            }
            let mut i = (slot[0] >> self.shift) as usize;
            while new[i] != EMPTY {
                i = (i + 1) & (size - 1);
            }
            new[i] = slot;
            if let (Some(c), Some(ids)) = (&mut self.counts, &old_ids) {
                c.ids[i] = ids[j];
            }
        }
        Ok(())
    }

    /// `--count`: writes `count<TAB>line` for every key, in order of first
    /// occurrence.
    pub fn write_counts<W: Write + ?Sized>(&self, out: &mut W) -> io::Result<()> {
        let Some(c) = &self.counts else {
            return Ok(());
        };
        let mut from = 0;
        for (count, &end) in c.counts.iter().zip(&c.ends) {
            write!(out, "{count}\t")?;
            out.write_all(&c.lines[from..end])?;
            from = end;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The table against a `HashMap`, with and without `--count`, through
    /// growth: many keys per high half (long probe runs), keys that share a
    /// whole digest, the all-zero digest, keys with 1-, 2- and 3-byte
    /// lengths, and `look_ahead` before each offer.
    #[test]
    fn seen_matches_a_hash_map() {
        for (exact, count) in [(true, true), (false, true), (true, false), (false, false)] {
            let mut seen = Seen::new(exact, count).unwrap();
            let mut model: HashMap<(u128, Vec<u8>), ()> = HashMap::new();
            let mut digests_seen: HashMap<u128, ()> = HashMap::new();
            let mut new_keys = 0;
            let offers: Vec<(u128, Vec<u8>)> = (0..20_000u64)
                .map(|i| {
                    // Keys 0..10000 repeat; key k and k + 5000 share a digest;
                    // only 97 distinct high halves; key 0's digest is zero.
                    let k = i * 7919 % 10_000;
                    let hi = (k % 5000 % 97).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    let digest = u128::from(hi) << 64 | u128::from(k % 5000);
                    let pad = match k % 1001 {
                        0 => 20_000,
                        n if n % 7 == 0 => 200,
                        _ => 0,
                    };
                    (digest, format!("key{k}{}", "x".repeat(pad)).into_bytes())
                })
                .collect();
            for (i, (digest, key)) in offers.iter().enumerate() {
                seen.look_ahead(|j| offers.get(j).map(|o| o.0), i);
                let new = seen.offer(*digest, key, [key, b"\n"]).unwrap();
                let expected = if exact {
                    model.insert((*digest, key.clone()), ()).is_none()
                } else {
                    digests_seen.insert(*digest, ()).is_none()
                };
                assert_eq!(new, expected, "exact {exact} offer {i}");
                new_keys += usize::from(new);
            }
            assert_eq!(new_keys, if exact { 10_000 } else { 5_000 });
            let mut out = Vec::new();
            seen.write_counts(&mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            if !count {
                assert!(text.is_empty());
                continue;
            }
            assert_eq!(text.lines().count(), new_keys);
            let total: u64 = text
                .lines()
                .map(|l| l.split('\t').next().unwrap().parse::<u64>().unwrap())
                .sum();
            assert_eq!(total, 20_000);
            // Each key was offered twice (i and i + 10000 give the same k).
            assert!(text
                .lines()
                .all(|l| l.starts_with(if exact { "2\t" } else { "4\t" })));
        }
    }
}
