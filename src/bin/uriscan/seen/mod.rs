//! The keys `dedup` (and `extract --unique`) has seen, and the ordered pass
//! that offers each chunk's keys to them: [`Unique`].
//!
//! In memory (the default) every distinct key goes to one table
//! ([`table`]), exact or by digest, and a record is printed as soon as its
//! key is found new. With a budget (`dedup --memory`) the table is frozen
//! once it would outgrow it, and the records it cannot place go to
//! temporary files ([`spill`]), deduplicated at the end of the input and
//! printed after the table's, in input order: the output is byte for byte
//! the in-memory one.

mod spill;
mod table;

use anyhow::Context as _;
use xxhash_rust::xxh3::xxh3_128;

pub use spill::Limits;
use spill::Spill;
use table::{Offer, Table};

/// A chunk's records for the ordered pass, kept apart from its statistics.
#[derive(Default, Debug)]
pub struct Keys {
    /// Each record: its key (left out where only its digest is compared and
    /// it is not shown), then what is shown when the key is new: for
    /// `dedup`, the line and an LF; nothing when what is shown is the key
    /// and an LF (`--print key`, or a line that is its own key), so that
    /// those bytes are kept once.
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

    /// Adds the record of `key`, which shows `shown` and an LF when new;
    /// `digests` (`--hash`): the key's bytes are not compared, so they are
    /// kept only when they are what is shown.
    #[inline]
    pub fn push(&mut self, key: &[u8], shown: &[u8], digests: bool) {
        let hash = xxh3_128(key);
        // A normal line is its own key, the same slice: no byte compare.
        if std::ptr::eq(shown, key) || shown == key {
            self.bytes.extend_from_slice(key);
            let end = self.bytes.len();
            self.records.push((hash, end, end));
            return;
        }
        if !digests {
            self.bytes.extend_from_slice(key);
        }
        let key_end = self.bytes.len();
        self.bytes.extend_from_slice(shown);
        self.bytes.push(b'\n');
        self.records.push((hash, key_end, self.bytes.len()));
    }

    /// Record `(key_end, end)`'s key, from `from` (the previous record's
    /// end), and what it shows.
    #[inline]
    fn record(&self, from: usize, key_end: usize, end: usize) -> (&[u8], [&[u8]; 2]) {
        let key = &self.bytes[from..key_end];
        if key_end == end {
            (key, [key, b"\n"])
        } else {
            (key, [&self.bytes[key_end..end], b""])
        }
    }
}

/// The ordered pass: each chunk's keys offered to the table in input order,
/// the records of new keys written.
pub struct Unique {
    /// `None` once [`Unique::finish`] has printed it.
    table: Option<Table>,
    /// Exact keys (not `--hash`).
    exact: bool,
    /// `--count`: nothing is written before the counts, at the end.
    count: bool,
    /// `--memory`: where the records the table has no room for go.
    limits: Option<Limits>,
    spill: Option<Spill>,
    /// Records offered: the next one's sequence number.
    offered: u64,
    /// Records kept and dropped (all of them known after `finish`).
    pub unique: u64,
    pub duplicates: u64,
}

impl Unique {
    /// All the keys in memory.
    pub fn new(exact: bool, count: bool) -> anyhow::Result<Unique> {
        Unique::bounded(exact, count, None)
    }

    /// With `limits`, the keys beyond its memory go to temporary files.
    pub fn bounded(exact: bool, count: bool, limits: Option<Limits>) -> anyhow::Result<Unique> {
        if let Some(l) = &limits {
            l.check()?;
        }
        let budget = limits.as_ref().map_or(usize::MAX, Limits::table_budget);
        Ok(Unique {
            table: Some(
                Table::new(exact, count, budget).context("cannot allocate the table of keys")?,
            ),
            exact,
            count,
            limits,
            spill: None,
            offered: 0,
            unique: 0,
            duplicates: 0,
        })
    }

    /// Offers the records of `keys`; appends to `out` those whose key is new.
    pub fn offer(&mut self, keys: &Keys, out: &mut Vec<u8>) -> anyhow::Result<()> {
        let table = self.table.as_mut().expect("no offer after finish");
        let records = &keys.records[..];
        let mut from = 0;
        for (i, &(hash, key_end, end)) in records.iter().enumerate() {
            table.look_ahead(|j| records.get(j).map(|r| r.0), i);
            let (key, shown) = keys.record(from, key_end, end);
            let seq = self.offered;
            self.offered += 1;
            match table
                .offer(hash, key, shown)
                .context("cannot store more keys")?
            {
                Offer::New => {
                    self.unique += 1;
                    if !self.count {
                        out.extend_from_slice(shown[0]);
                        out.extend_from_slice(shown[1]);
                    }
                }
                Offer::Repeat => self.duplicates += 1,
                Offer::Full => {
                    let spill = match &mut self.spill {
                        Some(spill) => spill,
                        None => {
                            // A key placed later would be new twice.
                            table.freeze();
                            let limits = self.limits.clone().expect("only a budget fills");
                            self.spill
                                .insert(Spill::new(limits, self.exact, self.count)?)
                        }
                    };
                    spill.push(seq, hash, key, shown)?;
                }
            }
            from = end;
        }
        Ok(())
    }

    /// Once every record is offered: hands what is left to print to
    /// `emit`, in input order (the count of each key, under `--count`, and
    /// what it is printed with): the counts of the table, then the spilled
    /// records' survivors. The table's memory is given back first.
    pub fn finish(
        &mut self,
        mut emit: impl FnMut(Option<u64>, &[u8]) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        if let Some(table) = self.table.take() {
            for (count, shown) in table.counts() {
                emit(Some(count), shown)?;
            }
        }
        if let Some(spill) = self.spill.take() {
            self.unique += spill.finish(emit)?;
            self.duplicates = self.offered - self.unique;
        }
        Ok(())
    }
}
