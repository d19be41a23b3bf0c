//! `dedup --memory`: the keys the table had no room for, deduplicated in
//! temporary files, exactly, in bounded memory.
//!
//! Once the key table ([`Table`]) would outgrow its budget it is frozen: it
//! goes on answering for the keys it holds (their repeats are counted
//! there, and their first occurrences, all before the freeze, are already
//! printed), and every other record goes to one of [`FANOUT`] partition
//! files, chosen by six bits of its key's digest, as it comes: its sequence
//! number in the input, the digest, the key (exact mode) and what is
//! printed for it. All occurrences of a key land in the same partition, in
//! input order.
//!
//! At the end of the input each partition is deduplicated alone, in a
//! fresh table under the same budget, into a run of its survivors (the
//! first occurrence of each key, with its count under `--count`) in input
//! order. A partition whose distinct keys do not fit is split again by the
//! next six bits of the digest, its parts finished the same way and their
//! runs merged into its run: skew costs a pass, never the bound. A k-way
//! merge of the runs by sequence number then restores input order, the way
//! `sort` merges its runs.
//!
//! Memory: the table's budget, plus one buffer per open file (at most
//! [`FANOUT`] at a time). Every temporary file is unlinked as soon as it is
//! created, so nothing is left behind by any exit, an error, Ctrl-C or
//! `SIGKILL`; a failed write (a full disk) is an error.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context as _;

use super::table::{Offer, Table};

/// Partitions per split: six bits of the digest's low half per level.
const FANOUT: usize = 64;
const BITS: u32 = 6;

/// The deepest split: the low half holds ten groups of six bits.
const MAX_DEPTH: u32 = 64 / BITS - 1;

/// `--memory` and `--temp-dir`.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The bytes the key table and the temporary files' buffers may take.
    pub memory: usize,
    pub dir: PathBuf,
}

impl Limits {
    /// Each open temporary file's buffer: a quarter of the memory shared by
    /// [`FANOUT`] of them, within 4 KiB (a tiny budget, in tests) to 1 MiB.
    fn buffer(&self) -> usize {
        (self.memory / (4 * FANOUT)).clamp(4 << 10, 1 << 20)
    }

    /// What the buffers leave to the key table (at least half).
    pub fn table_budget(&self) -> usize {
        self.memory
            .saturating_sub(FANOUT * self.buffer())
            .max(self.memory / 2)
    }

    /// Fails unless a temporary file can be made in the directory: found
    /// out before anything is printed rather than once the table is full.
    pub fn check(&self) -> anyhow::Result<()> {
        temp_file(&self.dir).map(drop).temp(&self.dir)
    }
}

/// A temporary file in `dir`, already unlinked: it is gone once closed,
/// whatever ends the process.
fn temp_file(dir: &Path) -> io::Result<File> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(".uriscan-{}-{n}.tmp", std::process::id()));
        match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => {
                std::fs::remove_file(&path)?;
                return Ok(file);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
}

/// Says which directory an I/O error on a temporary file happened in.
trait Temp<T> {
    fn temp(self, dir: &Path) -> anyhow::Result<T>;
}

impl<T> Temp<T> for io::Result<T> {
    fn temp(self, dir: &Path) -> anyhow::Result<T> {
        // A message, not the `io::Error` itself: `finish`'s caller tells a
        // failed write to the output apart by its type.
        self.map_err(|e| anyhow::anyhow!("temporary file in {}: {e}", dir.display()))
    }
}

/// The partition of `digest` at `depth` (0: the first split).
fn part_of(digest: u128, depth: u32) -> usize {
    (digest as u64 >> (BITS * depth)) as usize & (FANOUT - 1)
}

/// Reads `buf.len()` bytes, or none at the end of the input: false then.
fn read_or_end(r: &mut impl Read, buf: &mut [u8]) -> io::Result<bool> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) if got == 0 => return Ok(false),
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

/// A partition's record, or (`key` empty, `word` the count) a run's: the
/// input's sequence number, the digest of the key (or the count), the key,
/// and what is printed for it. On disk: three little-endian `u64`s (the
/// sequence number and the lengths) around the `u128`, then the bytes.
#[derive(Default)]
struct Record {
    seq: u64,
    word: u128,
    key_len: usize,
    /// The key, then what is printed.
    bytes: Vec<u8>,
}

impl Record {
    fn key(&self) -> &[u8] {
        &self.bytes[..self.key_len]
    }

    fn shown(&self) -> &[u8] {
        &self.bytes[self.key_len..]
    }

    fn write(
        w: &mut impl Write,
        seq: u64,
        word: u128,
        key: &[u8],
        shown: [&[u8]; 2],
    ) -> io::Result<()> {
        let shown_len = shown[0].len() + shown[1].len();
        let mut head = [0u8; 40];
        head[..8].copy_from_slice(&seq.to_le_bytes());
        head[8..24].copy_from_slice(&word.to_le_bytes());
        head[24..32].copy_from_slice(&(key.len() as u64).to_le_bytes());
        head[32..].copy_from_slice(&(shown_len as u64).to_le_bytes());
        w.write_all(&head)?;
        w.write_all(key)?;
        w.write_all(shown[0])?;
        w.write_all(shown[1])
    }

    /// The next record of `r` into `self`; false at the end.
    fn read(&mut self, r: &mut impl Read) -> io::Result<bool> {
        let mut head = [0u8; 40];
        if !read_or_end(r, &mut head)? {
            return Ok(false);
        }
        let word = |at: usize| u64::from_le_bytes(head[at..at + 8].try_into().expect("8 bytes"));
        self.seq = word(0);
        self.word = u128::from_le_bytes(head[8..24].try_into().expect("16 bytes"));
        self.key_len = word(24) as usize;
        let len = self.key_len + word(32) as usize;
        self.bytes.clear();
        self.bytes.try_reserve(len).map_err(io::Error::other)?;
        self.bytes.resize(len, 0);
        r.read_exact(&mut self.bytes)?;
        Ok(true)
    }
}

/// How partitions are finished: the modes and the limits.
struct Finisher {
    limits: Limits,
    exact: bool,
    count: bool,
}

/// The records spilled so far, in their partitions.
pub struct Spill {
    how: Finisher,
    parts: Vec<BufWriter<File>>,
}

impl Spill {
    pub fn new(limits: Limits, exact: bool, count: bool) -> anyhow::Result<Spill> {
        let how = Finisher {
            limits,
            exact,
            count,
        };
        let parts = how.files()?;
        Ok(Spill { how, parts })
    }

    /// Spills record `seq` of the input: its key's digest, the key and what
    /// is printed for it.
    pub fn push(
        &mut self,
        seq: u64,
        digest: u128,
        key: &[u8],
        shown: [&[u8]; 2],
    ) -> anyhow::Result<()> {
        // `--hash` compares digests only.
        let key = if self.how.exact { key } else { b"" };
        let part = &mut self.parts[part_of(digest, 0)];
        Record::write(part, seq, digest, key, shown).temp(&self.how.limits.dir)
    }

    /// Finishes every partition, then hands the survivors to `emit` (the
    /// count, under `--count`, and what is printed) in input order; their
    /// number.
    pub fn finish(
        self,
        mut emit: impl FnMut(Option<u64>, &[u8]) -> anyhow::Result<()>,
    ) -> anyhow::Result<u64> {
        let how = &self.how;
        let mut runs = Vec::with_capacity(FANOUT);
        for part in self.parts {
            let part = part.into_inner().map_err(|e| e.into_error());
            runs.push(how.finish(part.temp(&how.limits.dir)?, 0)?);
        }
        how.merge(runs, |r| {
            emit(how.count.then_some(r.word as u64), r.shown())
        })
    }
}

impl Finisher {
    fn dir(&self) -> &Path {
        &self.limits.dir
    }

    /// [`FANOUT`] new temporary files, buffered.
    fn files(&self) -> anyhow::Result<Vec<BufWriter<File>>> {
        (0..FANOUT).map(|_| self.file()).collect()
    }

    fn file(&self) -> anyhow::Result<BufWriter<File>> {
        let file = temp_file(self.dir()).temp(self.dir())?;
        Ok(BufWriter::with_capacity(self.limits.buffer(), file))
    }

    /// `w`'s file, flushed and rewound for reading.
    fn reread(&self, w: BufWriter<File>) -> anyhow::Result<BufReader<File>> {
        let mut file = w
            .into_inner()
            .map_err(|e| e.into_error())
            .temp(self.dir())?;
        file.seek(SeekFrom::Start(0)).temp(self.dir())?;
        Ok(BufReader::with_capacity(self.limits.buffer(), file))
    }

    /// The run of partition `part` (records in input order, split `depth`
    /// times so far): its survivors in input order.
    fn finish(&self, part: File, depth: u32) -> anyhow::Result<BufWriter<File>> {
        let mut part = BufReader::with_capacity(self.limits.buffer(), part);
        if let Some(run) = self.in_memory(&mut part)? {
            return Ok(run);
        }
        anyhow::ensure!(
            depth < MAX_DEPTH,
            "dedup --memory: keys sharing {} bits of digest do not fit in the memory given",
            BITS * (depth + 1)
        );
        // Too many distinct keys: the next bits split them.
        let parts = self.split(part.into_inner(), depth + 1)?;
        let mut runs = Vec::with_capacity(FANOUT);
        for part in parts {
            let part = part.into_inner().map_err(|e| e.into_error());
            runs.push(self.finish(part.temp(self.dir())?, depth + 1)?);
        }
        let mut run = self.file()?;
        self.merge(runs, |r| {
            Record::write(&mut run, r.seq, r.word, b"", [r.shown(), b""]).temp(self.dir())
        })?;
        Ok(run)
    }

    /// The run of partition `part` deduplicated in one table, or `None`
    /// when its distinct keys outgrow the budget.
    fn in_memory(&self, part: &mut BufReader<File>) -> anyhow::Result<Option<BufWriter<File>>> {
        part.seek(SeekFrom::Start(0)).temp(self.dir())?;
        let mut table = Table::new(self.exact, self.count, self.limits.table_budget())
            .context("cannot store more keys")?;
        let mut run = self.file()?;
        let mut r = Record::default();
        while r.read(part).temp(self.dir())? {
            // Counting, the table keeps the sequence number with the line.
            let seq = r.seq.to_le_bytes();
            let offer = table.offer(r.word, r.key(), [&seq, r.shown()]);
            match offer.context("cannot store more keys")? {
                Offer::Full => return Ok(None),
                Offer::New if !self.count => {
                    Record::write(&mut run, r.seq, 0, b"", [r.shown(), b""]).temp(self.dir())?;
                }
                Offer::New | Offer::Repeat => {}
            }
        }
        for (count, kept) in table.counts() {
            let (seq, shown) = kept.split_at(8);
            let seq = u64::from_le_bytes(seq.try_into().expect("8 bytes"));
            Record::write(&mut run, seq, count.into(), b"", [shown, b""]).temp(self.dir())?;
        }
        Ok(Some(run))
    }

    /// Partition `part`'s records, by their digest's bits at `depth`.
    fn split(&self, part: File, depth: u32) -> anyhow::Result<Vec<BufWriter<File>>> {
        let mut part = BufReader::with_capacity(self.limits.buffer(), part);
        part.seek(SeekFrom::Start(0)).temp(self.dir())?;
        let mut parts = self.files()?;
        let mut r = Record::default();
        while r.read(&mut part).temp(self.dir())? {
            let to = &mut parts[part_of(r.word, depth)];
            Record::write(to, r.seq, r.word, r.key(), [r.shown(), b""]).temp(self.dir())?;
        }
        Ok(parts)
    }

    /// Merges `runs` (each in input order) by sequence number, handing each
    /// record to `emit`; their number.
    fn merge(
        &self,
        runs: Vec<BufWriter<File>>,
        mut emit: impl FnMut(&Record) -> anyhow::Result<()>,
    ) -> anyhow::Result<u64> {
        let mut readers = Vec::with_capacity(runs.len());
        for run in runs {
            readers.push(self.reread(run)?);
        }
        let mut heads: Vec<Record> = readers.iter().map(|_| Record::default()).collect();
        let mut next = BinaryHeap::new();
        for (i, (r, head)) in readers.iter_mut().zip(&mut heads).enumerate() {
            if head.read(r).temp(self.dir())? {
                next.push(Reverse((head.seq, i)));
            }
        }
        let mut n = 0;
        while let Some(Reverse((_, i))) = next.pop() {
            emit(&heads[i])?;
            n += 1;
            if heads[i].read(&mut readers[i]).temp(self.dir())? {
                next.push(Reverse((heads[i].seq, i)));
            }
        }
        Ok(n)
    }
}
