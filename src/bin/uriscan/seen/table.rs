//! The key table: one open-addressing table of 16-byte slots (linear
//! probing, at most 3/4 full, doubled when it would be fuller), indexed by
//! the top bits of the key's XXH3-128 digest; an empty slot is all zero.
//!
//! Exact (the default): each distinct key is stored once, in an arena of
//! blocks that never move (a LEB128 length, then the bytes), and a slot
//! holds the digest's high half and the key's place in the arena (plus
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
//! Counting (`--count`): the arena entry of a key also holds its count (8
//! bytes) and what is printed for it (a LEB128 length, then the bytes), so
//! that the counts come out by walking the arena, in order of first
//! occurrence, and nothing else grows with the keys. With `--hash --count`
//! the stored "key" is the digest's low half, so the slot is the exact
//! mode's: per distinct key the slot, 18 bytes and the line (which must be
//! kept: it is printed once the last occurrence is counted).
//!
//! All of it is memory mapped from the system in blocks, so a failed
//! allocation is an error (exit 2), never an abort. Under a budget
//! (`dedup --memory`) the table answers [`Offer::Full`] rather than grow
//! past it; the caller then freezes it ([`Table::freeze`]), and it goes on
//! recognising the keys it holds.
//!
//! With millions of keys every probe is a cache miss (and, on a virtual
//! machine, a TLB miss with a two-level page walk). [`Table::look_ahead`]
//! prefetches, while key `i` is offered, the home slot of key `i + 2A` and
//! (stored keys) the entry that the slot of key `i + A` points to, so that
//! the misses of many keys are in flight at once and none of them stalls
//! the offer that needs it.
//!
//! Growing is mostly the kernel zeroing the larger table's fresh pages at
//! their first touch: on the 64 MiB generated corpus, `dedup --hash -j2`
//! spent half of the ordered pass there, the pass that bounds `dedup`'s
//! speed. Without a budget, once the table is half full a helper thread maps
//! and touches the next one ([`Table::prepare`]), so that the growth only
//! moves the keys.

use std::io;
use std::thread::JoinHandle;

use memmap2::MmapMut;

/// How far ahead [`Table::look_ahead`] prefetches, in keys: enough misses in
/// flight to keep the memory system busy, few enough that what is fetched
/// is still cached when its key is offered. The slot of a key is fetched
/// `2 * AHEAD` keys ahead, its stored key (exact mode) `AHEAD` keys ahead.
const AHEAD: usize = 12;

/// The arena's largest block size; a longer entry gets a block of its own.
const BLOCK: usize = 64 << 20;

/// The smallest table (in slots) whose successor a helper thread prepares:
/// below it a growth costs less than starting a thread.
const PREPARE_FROM: usize = 1 << 16;

/// The smallest block, under a tiny budget.
const MIN_BLOCK: usize = 4 << 10;

/// A place in the arena: block number above these bits, offset below.
const OFFSET_BITS: u32 = 40;

/// What offering a key found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// The key was not there; now it is.
    New,
    /// The key was there (and, counting, is counted once more).
    Repeat,
    /// The key was not there and the table has no room for it within its
    /// budget (or is frozen): it holds the keys it held.
    Full,
}

pub struct Table {
    /// The arena holds each key (exact, or counting).
    stores: bool,
    exact: bool,
    count: bool,
    /// A power of two of 16-byte slots, at most 3/4 full.
    table: MmapMut,
    /// `64 - log2(slots)`: a digest's home slot is its top bits.
    shift: u32,
    len: usize,
    /// The entries (stored keys), in blocks that are never moved.
    arena: Vec<Block>,
    block: usize,
    /// `--hash` without counts: whether the all-zero digest, which an empty
    /// slot looks like, was offered.
    zero: bool,
    /// Bytes mapped (table and arena), and the most they may reach.
    mapped: usize,
    budget: usize,
    frozen: bool,
    /// The next table, twice as large, being mapped and touched by a helper
    /// thread ([`Table::prepare`]).
    next: Option<JoinHandle<io::Result<MmapMut>>>,
}

struct Block {
    map: MmapMut,
    used: usize,
}

const EMPTY: [u64; 2] = [0, 0];

/// What [`Table::make_room`] did.
enum Room {
    /// No room within the budget.
    None,
    /// Room, with every key where it was.
    Made,
    /// Room in a larger table: a free slot found before is stale.
    Moved,
}

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

/// [`zeroed`] memory with every page touched, so that whoever uses it next
/// takes no page fault (and no zeroing) on it.
fn touched(len: usize) -> io::Result<MmapMut> {
    let mut map = zeroed(len)?;
    for i in (0..len).step_by(4096) {
        map[i] = 0;
    }
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

/// The LEB128 number at `buf[i..]`, and the index after it.
fn get_len(buf: &[u8], mut i: usize) -> (usize, usize) {
    let (mut len, mut shift) = (0usize, 0);
    loop {
        let b = buf[i];
        len |= usize::from(b & 0x7f) << shift;
        i += 1;
        if b < 0x80 {
            return (len, i);
        }
        shift += 7;
    }
}

/// Writes `len` as LEB128 at `buf[i..]`; the index after it.
fn put_len(buf: &mut [u8], mut i: usize, mut len: usize) -> usize {
    while len >= 0x80 {
        buf[i] = len as u8 | 0x80;
        i += 1;
        len >>= 7;
    }
    buf[i] = len as u8;
    i + 1
}

impl Table {
    /// An empty table that keeps its memory within `budget` bytes (but
    /// always takes its first key); `usize::MAX` for no bound.
    pub fn new(exact: bool, count: bool, budget: usize) -> io::Result<Table> {
        // A tiny budget (tests force spills with one) gets a small table.
        let slots = (budget / 64).clamp(16, 1 << 10).next_power_of_two();
        Ok(Table {
            stores: exact || count,
            exact,
            count,
            table: zeroed(slots * 16)?,
            shift: 64 - slots.trailing_zeros(),
            len: 0,
            arena: Vec::new(),
            block: (budget / 8).clamp(MIN_BLOCK, BLOCK),
            zero: false,
            mapped: slots * 16,
            budget,
            frozen: false,
            next: None,
        })
    }

    /// From now on every key not held is [`Offer::Full`], so that a key the
    /// caller sends elsewhere never becomes new here later.
    pub fn freeze(&mut self) {
        self.frozen = true;
    }

    fn home(&self, hi: u64) -> usize {
        (hi >> self.shift) as usize
    }

    /// The block of arena place `at`, and the offset of the place in it.
    fn place(&self, at: u64) -> (usize, usize) {
        (
            (at >> OFFSET_BITS) as usize,
            (at & ((1 << OFFSET_BITS) - 1)) as usize,
        )
    }

    /// The key stored at arena place `at`, and where its entry goes on.
    fn key_at(&self, at: u64) -> (&[u8], usize) {
        let (b, i) = self.place(at);
        let block = &self.arena[b].map;
        let (len, i) = get_len(block, i);
        (&block[i..i + len], i + len)
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
        if !self.stores {
            return;
        }
        let from = if i == 0 { 0 } else { AHEAD };
        for j in from..=AHEAD {
            // The slot itself was fetched `AHEAD` keys ago (its key may
            // still be further in the probe run: then that is missed).
            if let Some(d) = digests(i + j) {
                let [hi, at] = *slot(d);
                if hi == (d >> 64) as u64 && at != 0 {
                    let (b, i) = self.place(at - 1);
                    prefetch(&self.arena[b].map[i]);
                }
            }
        }
    }

    /// Offers one occurrence of `key` (whose digest is `digest`); counting,
    /// the concatenation of `shown` is what the key's count is printed with
    /// (kept from its first occurrence).
    pub fn offer(&mut self, digest: u128, key: &[u8], shown: [&[u8]; 2]) -> io::Result<Offer> {
        let (hi, lo) = ((digest >> 64) as u64, digest as u64);
        let low_half = lo.to_le_bytes();
        let key = if self.exact { key } else { &low_half[..] };
        if !self.stores && digest == 0 {
            return Ok(match (self.zero, self.frozen) {
                (true, _) => Offer::Repeat,
                (false, true) => Offer::Full,
                (false, false) => {
                    self.zero = true;
                    Offer::New
                }
            });
        }
        let free = match self.find(hi, lo, key) {
            Ok(i) => {
                if self.count {
                    self.add_one(slots(&self.table)[i][1] - 1);
                }
                return Ok(Offer::Repeat);
            }
            Err(free) => free,
        };
        let entry = 10
            + key.len()
            + if self.count {
                18 + shown[0].len() + shown[1].len()
            } else {
                0
            };
        let i = match self.make_room(entry)? {
            Room::None => return Ok(Offer::Full),
            Room::Made => free,
            // The free slot is elsewhere in the larger table.
            Room::Moved => self
                .find(hi, lo, key)
                .expect_err("the key was not in the table"),
        };
        let slot = if self.stores {
            [hi, self.store(key, shown) + 1]
        } else {
            [hi, lo]
        };
        bytemuck::cast_slice_mut(&mut self.table)[i] = slot;
        self.len += 1;
        self.prepare();
        Ok(Offer::New)
    }

    /// Once a large table is half full (it grows at 3/4), has a helper
    /// thread map and touch the next one, which [`Table::resize`] takes.
    /// Only without a budget: the prepared table would count against it.
    /// If no thread can be started, the growth maps its table itself.
    fn prepare(&mut self) {
        let size = self.table.len() / 16;
        if self.next.is_some() || self.budget != usize::MAX || size < PREPARE_FROM {
            return;
        }
        if self.len * 2 >= size {
            let len = size * 32;
            self.next = std::thread::Builder::new()
                .name("uriscan-table".into())
                .spawn(move || touched(len))
                .ok();
        }
    }

    /// `Ok(slot)` of the key, or `Err(the free slot where it would go)`.
    fn find(&self, hi: u64, lo: u64, key: &[u8]) -> Result<usize, usize> {
        let slots = slots(&self.table);
        let mask = slots.len() - 1;
        let mut i = self.home(hi);
        loop {
            let slot = slots[i];
            if slot == EMPTY {
                return Err(i);
            }
            if slot[0] == hi
                && if self.stores {
                    self.key_at(slot[1] - 1).0 == key
                } else {
                    slot[1] == lo
                }
            {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// Whether a new key whose entry takes at most `entry` bytes fits:
    /// grows the table or adds a block as needed, within the budget (a
    /// table with no key yet takes any key, so that a key larger than the
    /// budget is not refused forever).
    fn make_room(&mut self, entry: usize) -> io::Result<Room> {
        if self.frozen {
            return Ok(Room::None);
        }
        let fits = |mapped: usize, more: usize| {
            self.len == 0 || mapped.saturating_add(more) <= self.budget
        };
        let size = self.table.len() / 16;
        let grow = (self.len + 1) * 4 > size * 3;
        // The old table and the new one are both mapped while keys move.
        if grow && !fits(self.mapped, size * 32) {
            return Ok(Room::None);
        }
        let new_block = self.stores
            && self
                .arena
                .last()
                .is_none_or(|b| b.map.len() - b.used < entry);
        let block_len = entry.max(self.block);
        let after_grow = self.mapped + if grow { size * 16 } else { 0 };
        if new_block && !fits(after_grow, block_len) {
            return Ok(Room::None);
        }
        if grow {
            self.resize(size * 2)?;
        }
        if new_block {
            self.arena.try_reserve(1).map_err(io::Error::other)?;
            self.arena.push(Block {
                map: zeroed(block_len)?,
                used: 0,
            });
            self.mapped += block_len;
        }
        Ok(if grow { Room::Moved } else { Room::Made })
    }

    /// Appends the entry of `key` to the arena, whose last block has room
    /// for it ([`Table::make_room`]); its place.
    fn store(&mut self, key: &[u8], shown: [&[u8]; 2]) -> u64 {
        let count = self.count;
        let number = self.arena.len() as u64 - 1;
        let block = self.arena.last_mut().expect("make_room ensured a block");
        let at = number << OFFSET_BITS | block.used as u64;
        let map = &mut block.map[..];
        let mut i = put_len(map, block.used, key.len());
        map[i..i + key.len()].copy_from_slice(key);
        i += key.len();
        if count {
            map[i..i + 8].copy_from_slice(&1u64.to_le_bytes());
            i = put_len(map, i + 8, shown[0].len() + shown[1].len());
            for part in shown {
                map[i..i + part.len()].copy_from_slice(part);
                i += part.len();
            }
        }
        block.used = i;
        at
    }

    /// Counts one more occurrence of the key at arena place `at`.
    fn add_one(&mut self, at: u64) {
        let (_, count_at) = self.key_at(at);
        let (b, _) = self.place(at);
        let bytes = &mut self.arena[b].map[count_at..count_at + 8];
        let n = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        bytes.copy_from_slice(&(n + 1).to_le_bytes());
    }

    /// Moves every key to a table of `size` slots.
    fn resize(&mut self, size: usize) -> io::Result<()> {
        let fresh = match self.next.take().map(JoinHandle::join) {
            Some(Ok(Ok(map))) if map.len() == size * 16 => map,
            _ => zeroed(size * 16)?,
        };
        let old = std::mem::replace(&mut self.table, fresh);
        self.mapped += size * 16 - old.len();
        self.shift = 64 - size.trailing_zeros();
        let new: &mut [[u64; 2]] = bytemuck::cast_slice_mut(&mut self.table);
        for &slot in slots(&old) {
            if slot == EMPTY {
                continue;
            }
            let mut i = (slot[0] >> self.shift) as usize;
            while new[i] != EMPTY {
                i = (i + 1) & (size - 1);
            }
            new[i] = slot;
        }
        Ok(())
    }

    /// Counting: each key's count and what it is printed with, in order of
    /// first occurrence (nothing otherwise).
    pub fn counts(&self) -> impl Iterator<Item = (u64, &[u8])> + '_ {
        let blocks = if self.count { &self.arena[..] } else { &[] };
        blocks.iter().flat_map(|block| {
            let map = &block.map[..block.used];
            let mut i = 0;
            std::iter::from_fn(move || {
                if i == map.len() {
                    return None;
                }
                let (key_len, at) = get_len(map, i);
                let count_at = at + key_len;
                let count =
                    u64::from_le_bytes(map[count_at..count_at + 8].try_into().expect("8 bytes"));
                let (len, at) = get_len(map, count_at + 8);
                i = at + len;
                Some((count, &map[at..i]))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Offers `offers` to `table` as `dedup` does, checking each answer
    /// against a `HashMap` model of what the table holds.
    fn offer_all(
        table: &mut Table,
        offers: &[(u128, Vec<u8>)],
        exact: bool,
    ) -> Vec<(u128, Vec<u8>)> {
        let mut model: HashMap<(u128, Vec<u8>), ()> = HashMap::new();
        let mut refused = Vec::new();
        for (i, (digest, key)) in offers.iter().enumerate() {
            table.look_ahead(|j| offers.get(j).map(|o| o.0), i);
            let id = (*digest, if exact { key.clone() } else { Vec::new() });
            let held = model.contains_key(&id);
            let got = table.offer(*digest, key, [key, b"\n"]).unwrap();
            match got {
                Offer::Repeat => assert!(held, "offer {i}: a repeat of a key never held"),
                Offer::New => {
                    assert!(!held, "offer {i}: a held key new again");
                    model.insert(id, ());
                }
                Offer::Full => {
                    assert!(!held, "offer {i}: a held key refused");
                    refused.push((*digest, key.clone()));
                }
            }
        }
        refused
    }

    /// Keys 0..10000 in a scrambled order, twice; key k and k + 5000 share a
    /// digest; only 97 distinct high halves (long probe runs); key 0's
    /// digest is zero; keys with 1-, 2- and 3-byte lengths.
    fn offers() -> Vec<(u128, Vec<u8>)> {
        (0..20_000u64)
            .map(|i| {
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
            .collect()
    }

    /// The table against a `HashMap`, with and without `--count`, through
    /// growth, with `look_ahead` before each offer.
    #[test]
    fn table_matches_a_hash_map() {
        let offers = offers();
        for (exact, count) in [(true, true), (false, true), (true, false), (false, false)] {
            let mut table = Table::new(exact, count, usize::MAX).unwrap();
            assert!(offer_all(&mut table, &offers, exact).is_empty());
            let distinct = if exact { 10_000 } else { 5_000 };
            assert_eq!(table.len, distinct - usize::from(!table.stores));
            let counts: Vec<(u64, &[u8])> = table.counts().collect();
            if !count {
                assert!(counts.is_empty());
                continue;
            }
            assert_eq!(counts.len(), distinct);
            assert_eq!(counts.iter().map(|c| c.0).sum::<u64>(), 20_000);
            // Each key was offered twice (i and i + 10000 give the same k),
            // and shown as its first occurrence.
            let every = if exact { 2 } else { 4 };
            assert!(counts.iter().all(|c| c.0 == every));
            let first: Vec<Vec<u8>> = offers[..distinct]
                .iter()
                .map(|o| [&o.1[..], b"\n"].concat())
                .collect();
            let shown: Vec<Vec<u8>> = counts.iter().map(|c| c.1.to_vec()).collect();
            if exact {
                assert_eq!(shown, first);
            }
        }
    }

    /// Past [`PREPARE_FROM`] slots each growth takes the table a helper
    /// thread prepared: the answers are still the model's, with and without
    /// counts, and every distinct key is held once.
    #[test]
    fn a_prepared_table_holds_the_same_keys() {
        // 3 * PREPARE_FROM distinct keys (each twice): two prepared growths.
        let n = 3 * PREPARE_FROM as u64;
        let offers: Vec<(u128, Vec<u8>)> = (0..2 * n)
            .map(|i| {
                let k = i % n;
                let digest =
                    u128::from(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)) << 64 | u128::from(k);
                (digest, k.to_le_bytes().to_vec())
            })
            .collect();
        for (exact, count) in [(false, false), (true, false), (false, true)] {
            let mut table = Table::new(exact, count, usize::MAX).unwrap();
            assert!(offer_all(&mut table, &offers, exact).is_empty());
            assert_eq!(table.len as u64, n - u64::from(!table.stores));
            assert!(table.table.len() / 16 > 2 * PREPARE_FROM);
        }
    }

    /// Under a budget the table refuses keys once it would outgrow it,
    /// keeps recognising those it holds, and (frozen) refuses every new
    /// key, even one that would fit.
    #[test]
    fn a_budget_bounds_the_table() {
        let offers = offers();
        for (exact, count) in [(true, true), (false, true), (true, false), (false, false)] {
            let budget = 64 << 10;
            let mut table = Table::new(exact, count, budget).unwrap();
            let refused = offer_all(&mut table, &offers, exact);
            assert!(!refused.is_empty());
            assert!(table.mapped <= budget);
            assert!(table.len > 0);
            table.freeze();
            let mut small = Table::new(exact, count, usize::MAX).unwrap();
            let digest = u128::MAX - 1;
            assert_eq!(small.offer(digest, b"n", [b"n", b""]).unwrap(), Offer::New);
            assert_eq!(table.offer(digest, b"n", [b"n", b""]).unwrap(), Offer::Full);
            assert_eq!(
                table.offer(offers[1].0, &offers[1].1, [b"", b""]).unwrap(),
                {
                    if refused.contains(&offers[1]) {
                        Offer::Full
                    } else {
                        Offer::Repeat
                    }
                }
            );
        }
    }
}
