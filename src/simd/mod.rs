//! The portable SIMD pass: turn bytes into bitmasks, one bit per byte.
//!
//! # Design
//!
//! The simple loop, in pseudo-code, is the reference validator
//! ([`crate::grammar`]): for each byte, look up its class and decide. The fast
//! path splits that work in two stages, as simdjson does:
//!
//! 1. **Classify** (this module, the only place with `unsafe`): a 64-byte block
//!    becomes a [`Masks`] value, one `u64` per byte class: line feeds, `:`,
//!    `/`, `?`, `#`, the `special` bytes that need a closer look (`%` `@`
//!    `[` `]` and bytes outside the URI alphabet), `%` and hex digits. No
//!    grammar here: intrinsics only turn bytes into masks.
//! 2. **Decide** ([`crate::stage2`], safe scalar code): a line's Appendix B
//!    boundaries are found with a few trailing-zero counts on those masks; a
//!    line whose masks show no special byte is valid once its scheme and
//!    structure are, with no per-byte loop, and the few special bytes of the
//!    others are looked at one by one (`%` needs two hex digits after it).
//!    An unusual authority (userinfo, IP literal, percent-encoding) goes
//!    through the reference code. For an invalid line stage 2 goes over its
//!    masks once more to say where and why, exactly as the reference
//!    validator would (the first special byte that is not allowed where it
//!    stands, or the reference's own scheme and authority checks).
//!
//! The optimisations, in order:
//!
//! 1. For a corpus, stage 1 runs once over a window of a chunk (64 KiB, so
//!    its masks stay in the L2 cache), finding the line ends and the classes
//!    of every line in it at once; stage 2 then reads each line's bits at any
//!    offset in the window. A single URI through the library API is
//!    classified on its own, in a stack buffer of masks.
//! 2. Backends: AVX2 classifies with a nibble lookup table (`vpshufb`) for the
//!    special class; AVX-512 (F and BW) the same way on a whole block per
//!    vector, its compares writing the masks straight into mask registers
//!    and its masked loads reading tails in place; AVX-512 with VBMI and
//!    GFNI all classes of a byte at once, one bit each in a byte from a
//!    128-entry table (`vpermi2b`), then, for 8 blocks at a time, the bits
//!    transposed into masks in vectors (`vgf2p8affineqb`, `vpermt2q`) and
//!    stored a class at a time ([`Sink::put_group`]); SSE2, which has no byte
//!    shuffle, with compares and ranges; NEON with `vqtbl1q_u8` lookups and
//!    a pairwise-add movemask; SWAR on `u64` words elsewhere. Every
//!    backend's tables are built from [`crate::classes`].
//! 3. The backend is chosen once (run-time detection on x86-64, compile time
//!    on aarch64) and cached; `URISCAN_BACKEND=scalar|swar|sse2|avx2|avx512|avx512vbmi|neon`
//!    forces one. The dispatch happens once per window (or per single URI),
//!    and the block loop runs inside one `#[target_feature]` function.
//! 4. `scalar` is the reference validator itself, with no masks: the oracle
//!    every other backend is tested against (`src/simd/tests.rs`).
//!
//! Normalization looks at four other classes ([`NormalMarks`]: `%`, `/`,
//! `.`, `A-Z`): whether a URI is already normal is mostly whether it has no
//! `/.`, no uppercase letter in its scheme and host, and only normal
//! percent-encodings. For a corpus (`Uris::for_normalizer`) the window's
//! block loop computes them beside the [`Masks`] while the block is in the
//! L1 cache (a [`Sink`] with `MARKS`), and stage 2 notes each valid line's
//! answer; a single URI gets a pass of its own ([`Backend::normal_marks`]).

#![allow(unsafe_code)]

use std::sync::atomic::{AtomicU8, Ordering};

use crate::classes::mask;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
pub(crate) mod scalar;
#[cfg(target_arch = "x86_64")]
mod sse2;
#[cfg(test)]
mod tests;

/// The byte classes of a 64-byte block: bit `i` of each field describes byte
/// `i` of the block.
///
/// ```
/// use uriscan::{Backend, Masks};
///
/// let mut block = [b'x'; 64];
/// block[..8].copy_from_slice(b"a%2Fb?#\n");
/// let m: Masks = Backend::Scalar.classify(&block);
/// assert_eq!(m.pct, 1 << 1);
/// assert_eq!(m.hex & 0xFF, 0b1_1101); // `a`, `2`, `F` and `b`
/// assert_eq!(m.question, 1 << 5);
/// assert_eq!(m.hash, 1 << 6);
/// assert_eq!(m.lf, 1 << 7);
/// assert_eq!(m.special, 1 << 1 | 1 << 7); // the `%` and the LF
/// assert_eq!(m.colon | m.slash, 0);
/// // Every backend this CPU runs gives the same masks.
/// for backend in Backend::available() {
///     assert_eq!(backend.classify(&block), m);
/// }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Masks {
    /// `\n`.
    pub lf: u64,
    /// `:`.
    pub colon: u64,
    /// `/`.
    pub slash: u64,
    /// `?`.
    pub question: u64,
    /// `#`.
    pub hash: u64,
    /// The bytes that need a closer look: `%` `@` `[` `]` and every byte
    /// outside the URI alphabet (controls, space, `"` `<` `>` `\` `^` `` ` ``
    /// `{` `|` `}`, DEL and every byte >= 0x80). Every other byte is
    /// `unreserved`, `sub-delims` or one of `: / ? #`.
    pub special: u64,
    /// `%`.
    pub pct: u64,
    /// `HEXDIG`: `0-9 A-F a-f`. With `pct`, stage 2 sees which `%`s are
    /// followed by two hex digits without reading the bytes.
    pub hex: u64,
}

impl Masks {
    /// The mask of class `c` ([`crate::classes::mask`]; 0 for any other
    /// index).
    #[inline(always)]
    pub(crate) fn class(&self, c: usize) -> u64 {
        match c {
            mask::LF => self.lf,
            mask::COLON => self.colon,
            mask::SLASH => self.slash,
            mask::QUESTION => self.question,
            mask::HASH => self.hash,
            mask::SPECIAL => self.special,
            mask::PCT => self.pct,
            mask::HEX => self.hex,
            _ => 0,
        }
    }

    /// The masks of block `j` of a [`Group`].
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn of_group(g: &Group, j: usize) -> Masks {
        let g = &g.classes;
        Masks {
            lf: g[mask::LF][j],
            colon: g[mask::COLON][j],
            slash: g[mask::SLASH][j],
            question: g[mask::QUESTION][j],
            hash: g[mask::HASH][j],
            special: g[mask::SPECIAL][j],
            pct: g[mask::PCT][j],
            hex: g[mask::HEX][j],
        }
    }
}

/// The masks of 8 consecutive blocks, class by class: a class's 8 words
/// are then one 64-byte store into a sink's bit array.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Group {
    /// `classes[k][j]`: class `k` ([`crate::classes::mask`], the order of
    /// [`Masks`]' fields) of block `j`.
    pub(crate) classes: [[u64; 8]; mask::COUNT],
    /// Per block, its `special` bytes but each `%` followed by two hex
    /// digits; in the last block, as though no hex digit followed it.
    pub(crate) pathbad: [u64; 8],
}

/// What normalization looks for in a 64-byte block (bit `i` for byte `i`):
/// percent-encodings to check, `/.` (a dot segment needs one) and uppercase
/// letters (for the scheme and the host).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct NormalMarks {
    /// `%`.
    pub(crate) pct: u64,
    /// `/`.
    pub(crate) slash: u64,
    /// `.`.
    pub(crate) dot: u64,
    /// `A-Z`.
    pub(crate) upper: u64,
}

/// Turns a 64-byte block into masks. Implemented once per backend.
pub(crate) trait Classify {
    fn classify(&self, block: &[u8; 64]) -> Masks;

    /// The masks of `tail` (fewer than 64 bytes) padded with zero bytes.
    /// Through a zeroed copy, unless a backend loads the bytes in place.
    #[inline(always)]
    fn classify_tail(&self, tail: &[u8]) -> Masks {
        self.classify(&padded(tail))
    }

    /// What normalization looks for in a block; a byte loop unless a
    /// backend has vectors.
    #[inline(always)]
    fn normal_marks(&self, block: &[u8; 64]) -> NormalMarks {
        let mut m = NormalMarks::default();
        for (i, &b) in block.iter().enumerate() {
            m.pct |= u64::from(b == b'%') << i;
            m.slash |= u64::from(b == b'/') << i;
            m.dot |= u64::from(b == b'.') << i;
            m.upper |= u64::from(b.is_ascii_uppercase()) << i;
        }
        m
    }

    /// [`Classify::normal_marks`] of `tail` (fewer than 64 bytes) padded
    /// with zero bytes.
    #[inline(always)]
    fn normal_marks_tail(&self, tail: &[u8]) -> NormalMarks {
        self.normal_marks(&padded(tail))
    }
}

/// Asks the CPU to bring the cache line holding `data[at]` into its L2
/// cache, without waiting for it; nothing when `at` is past the end. Stage 2
/// calls it for the bytes a window ahead while it decides this window's
/// lines, so that the next window's classification finds its bytes in the
/// cache instead of stalling on each block's load (the classifier is
/// memory-bound; this took `check` from 31.7 to 28.3 ns per URI on the
/// 16 MiB generated corpus, AVX-512). No-op but on x86-64: aarch64's
/// prefetch intrinsic is unstable in Rust, and a plain read would stall.
#[inline(always)]
pub(crate) fn prefetch(data: &[u8], at: usize) {
    if let Some(byte) = data.get(at) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `_mm_prefetch` (SSE, which every x86-64 CPU has) is a
        // hint: it changes no memory and cannot fault, and the pointer is to
        // a byte of `data` anyway.
        unsafe {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};
            _mm_prefetch::<_MM_HINT_T1>(core::ptr::from_ref(byte).cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = byte;
    }
}

/// `tail` (at most 64 bytes) followed by zero bytes, as a block.
#[inline(always)]
pub(crate) fn padded(tail: &[u8]) -> [u8; 64] {
    let mut block = [0u8; 64];
    block[..tail.len()].copy_from_slice(tail);
    block
}

/// Lookup tables for a byte set, indexed by nibble: byte `b < 0x80` is in the
/// set when `lo[b & 15] & hi[b >> 4] != 0`; `hi` is 0 for bytes >= 0x80,
/// which no URI class holds.
pub(crate) struct NibbleTables {
    pub(crate) lo: [u8; 16],
    pub(crate) hi: [u8; 16],
}

impl NibbleTables {
    /// The tables of the bytes `b < 0x80` with `set[b] == want`.
    pub(crate) const fn of(set: &[bool; 256], want: bool) -> NibbleTables {
        let mut lo = [0u8; 16];
        let mut hi = [0u8; 16];
        let mut b = 0;
        while b < 128 {
            if set[b] == want {
                lo[b & 15] |= 1 << (b >> 4);
            }
            b += 1;
        }
        let mut h = 0;
        while h < 8 {
            hi[h] = 1 << h;
            h += 1;
        }
        NibbleTables { lo, hi }
    }

    /// The special bytes below 0x80 (every byte >= 0x80 is special too).
    #[cfg(target_arch = "x86_64")]
    pub(crate) const SPECIAL: NibbleTables = NibbleTables::of(&crate::classes::SPECIAL, true);
    /// The hex digits (all below 0x80).
    pub(crate) const HEX: NibbleTables = NibbleTables::of(&crate::classes::HEX, true);

    /// `SPECIAL`'s `lo` and `hi`, then `HEX`'s, each repeated over `N`
    /// bytes: one copy per 128-bit lane of an `N`-byte vector, since
    /// `vpshufb` looks up within a lane.
    #[cfg(target_arch = "x86_64")]
    pub(crate) const fn lanes<const N: usize>() -> [[u8; N]; 4] {
        let from = [
            NibbleTables::SPECIAL.lo,
            NibbleTables::SPECIAL.hi,
            NibbleTables::HEX.lo,
            NibbleTables::HEX.hi,
        ];
        let mut all = [[0u8; N]; 4];
        let mut t = 0;
        while t < 4 {
            let mut i = 0;
            while i < N {
                all[t][i] = from[t][i % 16];
                i += 1;
            }
            t += 1;
        }
        all
    }
}

/// An implementation of the classifier.
///
/// Every backend gives the same results; they differ in speed and in which
/// CPUs run them:
///
/// ```
/// use uriscan::{parse_with, Backend, Mode};
///
/// let backend = Backend::current();
/// assert!(backend.is_available());
/// for backend in Backend::available() {
///     let uri = parse_with(b"http://example.com/a%20b", Mode::Uri, backend)?;
///     assert_eq!(uri.path(), "/a%20b");
/// }
/// # Ok::<(), uriscan::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// The table-driven reference validator, byte by byte (no masks); its
    /// classifier is a table loop. The oracle of every other backend.
    Scalar,
    /// Masks computed on `u64` words (SIMD within a register): any target;
    /// the choice where there is no vector unit (1.3-1.8x the scalar
    /// reference on most of the README's corpora).
    Swar,
    /// x86-64 SSE2 (every x86-64 CPU).
    Sse2,
    /// x86-64 AVX2, detected at run time.
    Avx2,
    /// x86-64 AVX-512 (F and BW), detected at run time: a block per vector.
    Avx512,
    /// x86-64 AVX-512 with VBMI and GFNI (Ice Lake and later, Zen 4),
    /// detected at run time: every class of a byte from one 128-entry
    /// lookup (`vpermi2b`) instead of six compares and two nibble lookups,
    /// and 8 blocks' masks at a time by a bit transpose in vectors.
    Avx512Vbmi,
    /// aarch64 NEON (every aarch64 CPU).
    Neon,
}

impl Backend {
    /// Every backend, available here or not.
    ///
    /// ```
    /// use uriscan::Backend;
    ///
    /// assert_eq!(Backend::ALL.len(), 7);
    /// for backend in Backend::ALL {
    ///     assert_eq!(Backend::from_name(backend.name()), Some(backend));
    /// }
    /// ```
    pub const ALL: [Backend; 7] = [
        Backend::Scalar,
        Backend::Swar,
        Backend::Sse2,
        Backend::Avx2,
        Backend::Avx512,
        Backend::Avx512Vbmi,
        Backend::Neon,
    ];

    /// `scalar`, `swar`, `sse2`, `avx2`, `avx512`, `avx512vbmi` or `neon`.
    ///
    /// ```
    /// use uriscan::Backend;
    ///
    /// assert_eq!(Backend::Avx512Vbmi.name(), "avx512vbmi");
    /// assert_eq!(
    ///     Backend::ALL.map(Backend::name),
    ///     ["scalar", "swar", "sse2", "avx2", "avx512", "avx512vbmi", "neon"],
    /// );
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Swar => "swar",
            Backend::Sse2 => "sse2",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Avx512Vbmi => "avx512vbmi",
            Backend::Neon => "neon",
        }
    }

    /// The backend named `name` (as [`Backend::name`] writes it).
    ///
    /// ```
    /// use uriscan::Backend;
    ///
    /// assert_eq!(Backend::from_name("avx2"), Some(Backend::Avx2));
    /// // Names are exact: lowercase, no spaces.
    /// assert_eq!(Backend::from_name("AVX2"), None);
    /// assert_eq!(Backend::from_name("mmx"), None);
    /// ```
    #[must_use]
    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Whether this CPU can run the backend.
    ///
    /// ```
    /// use uriscan::Backend;
    ///
    /// // The portable backends run everywhere.
    /// assert!(Backend::Scalar.is_available() && Backend::Swar.is_available());
    /// // x86-64's and aarch64's never both.
    /// assert!(!(Backend::Sse2.is_available() && Backend::Neon.is_available()));
    /// ```
    #[must_use]
    pub fn is_available(self) -> bool {
        match self {
            Backend::Scalar | Backend::Swar => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => !cfg!(miri) && std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => {
                !cfg!(miri)
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512Vbmi => {
                Backend::Avx512.is_available()
                    && std::arch::is_x86_feature_detected!("avx512vbmi")
                    && std::arch::is_x86_feature_detected!("gfni")
            }
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => !cfg!(miri),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The backends this CPU can run.
    ///
    /// ```
    /// use uriscan::Backend;
    ///
    /// let available = Backend::available();
    /// assert!(available.contains(&Backend::Scalar));
    /// assert!(available.contains(&Backend::detect()));
    /// assert!(available.iter().all(|b| b.is_available()));
    /// ```
    #[must_use]
    pub fn available() -> Vec<Backend> {
        Backend::ALL
            .into_iter()
            .filter(|b| b.is_available())
            .collect()
    }

    /// The fastest backend this CPU can run: AVX-512 with VBMI, AVX-512,
    /// AVX2, NEON or SSE2, else SWAR (measured faster than the scalar
    /// reference, see the README).
    ///
    /// ```
    /// use uriscan::Backend;
    ///
    /// let fastest = Backend::detect();
    /// assert!(fastest.is_available());
    /// assert_ne!(fastest, Backend::Scalar);
    /// ```
    #[must_use]
    pub fn detect() -> Backend {
        [
            Backend::Avx512Vbmi,
            Backend::Avx512,
            Backend::Avx2,
            Backend::Neon,
            Backend::Sse2,
        ]
        .into_iter()
        .find(|b| b.is_available())
        .unwrap_or(Backend::Swar)
    }

    /// The backend in use: the one `URISCAN_BACKEND` names if this CPU can run
    /// it, else [`Backend::detect`]. Decided once per process.
    ///
    /// ```
    /// use uriscan::Backend;
    ///
    /// let current = Backend::current();
    /// assert!(current.is_available());
    /// assert_eq!(Backend::current(), current);
    /// if std::env::var_os("URISCAN_BACKEND").is_none() {
    ///     assert_eq!(current, Backend::detect());
    /// }
    /// ```
    #[must_use]
    pub fn current() -> Backend {
        static CURRENT: AtomicU8 = AtomicU8::new(u8::MAX);
        let v = CURRENT.load(Ordering::Relaxed);
        if let Some(&b) = Backend::ALL.get(v as usize) {
            return b;
        }
        let chosen = std::env::var("URISCAN_BACKEND")
            .ok()
            .and_then(|s| Backend::from_name(s.trim()))
            .filter(|b| b.is_available())
            .unwrap_or_else(Backend::detect);
        let index = Backend::ALL.iter().position(|&b| b == chosen).unwrap_or(0);
        CURRENT.store(index as u8, Ordering::Relaxed);
        chosen
    }

    /// This backend if this CPU can run it, else the scalar table.
    #[inline(always)]
    fn usable(self) -> Backend {
        if self.is_available() {
            self
        } else {
            Backend::Scalar
        }
    }

    /// Classifies one 64-byte block. A backend this CPU cannot run classifies
    /// with the scalar table instead.
    ///
    /// ```
    /// use uriscan::Backend;
    ///
    /// let mut block = [b'a'; 64];
    /// block[..12].copy_from_slice(b"http://x/ y\n");
    /// let m = Backend::current().classify(&block);
    /// assert_eq!(m.colon, 1 << 4);
    /// assert_eq!(m.slash, 1 << 5 | 1 << 6 | 1 << 8);
    /// assert_eq!(m.special, 1 << 9 | 1 << 11); // the space and the LF
    /// assert_eq!(m.lf, 1 << 11);
    /// ```
    #[must_use]
    pub fn classify(self, block: &[u8; 64]) -> Masks {
        let mut out = [Masks::default()];
        self.classify_blocks(block, &mut out);
        out[0]
    }

    /// Classifies `data` 64 bytes at a time into `out` (one [`Masks`] per
    /// block, the last block padded with zero bytes, which are `special`), as many
    /// blocks as both hold. One dispatch for the whole loop.
    ///
    /// ```
    /// use uriscan::{Backend, Masks};
    ///
    /// let data = b"http://a/ b\n".repeat(10); // 120 bytes: two blocks, the second padded
    /// let mut masks = [Masks::default(); 2];
    /// Backend::current().classify_blocks(&data, &mut masks);
    /// assert_eq!(masks[0].lf.count_ones() + masks[1].lf.count_ones(), 10);
    /// // Bytes 120 to 127 are padding: zero bytes, special.
    /// assert_eq!(masks[1].special >> 56, 0xFF);
    ///
    /// // As many blocks as `out` holds.
    /// let mut first = [Masks::default(); 1];
    /// Backend::current().classify_blocks(&data, &mut first);
    /// assert_eq!(first[0], masks[0]);
    /// ```
    pub fn classify_blocks(self, data: &[u8], out: &mut [Masks]) {
        self.classify_into(data, out);
    }

    /// Classifies `data` a block at a time into `out` (see [`Sink`]): the
    /// loop behind [`Backend::classify_blocks`] and stage 2's windows.
    #[inline]
    pub(crate) fn classify_into<S: Sink + ?Sized>(self, data: &[u8], out: &mut S) {
        self.checked().classify_into(data, out);
    }

    /// This backend if this CPU can run it, else the scalar table, checked
    /// once: for callers that classify many short inputs (a log's lines,
    /// a text's groups), whose calls would each repeat the CPU feature
    /// tests (with `Backend::current`, 2.2% of `extract --log combined`'s
    /// time, by perf).
    #[inline]
    pub(crate) fn checked(self) -> Checked {
        Checked(self.usable())
    }

    /// The [`NormalMarks`] of `data` 64 bytes at a time into `out`, the
    /// last block padded with zero bytes, as many blocks as both hold. One
    /// dispatch for the whole loop.
    #[inline]
    pub(crate) fn normal_marks(self, data: &[u8], out: &mut [NormalMarks]) {
        // The same dispatch as `classify_into`'s. (One generic dispatch for
        // both, over a trait of block loops, cost 1-4% more instructions:
        // callgrind, `check` and `is_normal` on 2 MB of generated.)
        match self.usable() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `usable` gives `Avx2` only where `is_available`
            // found AVX2.
            Backend::Avx2 => unsafe { avx2::normal_marks(data, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `usable` gives `Avx512` or `Avx512Vbmi` only where
            // `is_available` found AVX-512 F and BW (`Avx512Vbmi`'s check
            // includes `Avx512`'s). (The same code with VBMI: what
            // normalization looks for is four compares.)
            Backend::Avx512 | Backend::Avx512Vbmi => unsafe { avx512::normal_marks(data, out) },
            #[cfg(target_arch = "x86_64")]
            Backend::Sse2 => normal_marks_with(&sse2::Sse2, data, out),
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => normal_marks_with(&neon::Neon, data, out),
            Backend::Swar => normal_marks_with(&scalar::Swar, data, out),
            _ => normal_marks_with(&scalar::Table, data, out),
        }
    }

    /// The number of bytes of `data` equal to `byte`. `memchr`'s count
    /// sums a population count per 32 bytes, which the x86-64 baseline
    /// has no instruction for; this adds one per match into byte lanes,
    /// a compare and a subtract a vector, and sums the lanes every 255
    /// vectors. Counting each chunk's lines with `memchr` was 14.6% of
    /// `check -q -j1`'s time on prose, by `perf` (docs/PERFORMANCE.md,
    /// session 29).
    #[inline]
    pub(crate) fn count_byte(self, data: &[u8], byte: u8) -> u64 {
        match self.usable() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `usable` gives `Avx2` only where `is_available`
            // found AVX2.
            Backend::Avx2 => unsafe { avx2::count_byte(data, byte) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `usable` gives `Avx512` or `Avx512Vbmi` only where
            // `is_available` found AVX-512 F and BW.
            Backend::Avx512 | Backend::Avx512Vbmi => unsafe { avx512::count_byte(data, byte) },
            Backend::Scalar => data.iter().filter(|&&b| b == byte).count() as u64,
            _ => count_byte_with(data, byte),
        }
    }
}

/// The loop behind [`Backend::count_byte`] without a backend of its own, in
/// safe code that the compiler vectorizes with the baseline's vectors
/// (SSE2, NEON): 32 byte lanes, each adding one per match for up to 255
/// blocks before the lanes are summed. (The same loop with 64 lanes in an
/// AVX-512 function kept the lanes in memory, a store and a load a
/// vector: the AVX2 and AVX-512 backends have loops of their own.)
fn count_byte_with(data: &[u8], byte: u8) -> u64 {
    const LANES: usize = 32;
    let mut total = 0;
    let mut blocks = data.chunks_exact(LANES);
    loop {
        let mut lanes = [0u8; LANES];
        let mut n = 0;
        for block in blocks.by_ref().take(255) {
            for (lane, &b) in lanes.iter_mut().zip(block) {
                *lane += u8::from(b == byte);
            }
            n += 1;
        }
        total += lanes.iter().map(|&c| u64::from(c)).sum::<u64>();
        if n < 255 {
            break;
        }
    }
    total + blocks.remainder().iter().filter(|&&b| b == byte).count() as u64
}

/// A [`Backend`] this CPU runs, checked once ([`Backend::checked`]): its
/// classification dispatches on the backend without testing the CPU's
/// features again. Its field is private to this module, so that only
/// `Backend::checked` makes one: the safety of its calls rests on that.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checked(Backend);

impl Checked {
    /// [`Backend::classify_blocks`].
    #[inline]
    pub(crate) fn classify_blocks(self, data: &[u8], out: &mut [Masks]) {
        self.classify_into(data, out);
    }

    /// [`Backend::classify_into`].
    #[inline]
    pub(crate) fn classify_into<S: Sink + ?Sized>(self, data: &[u8], out: &mut S) {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Checked` holds what `Backend::usable` gave, which
            // is `Avx2` only where `is_available` found AVX2.
            Backend::Avx2 => unsafe { avx2::classify_blocks(data, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, `Avx512` only where `is_available` found
            // AVX-512 F and BW.
            Backend::Avx512 => unsafe { avx512::classify_blocks(data, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, `Avx512Vbmi` only where `is_available`
            // found AVX-512 F, BW, VBMI and GFNI.
            Backend::Avx512Vbmi => unsafe { avx512::classify_blocks_vbmi(data, out) },
            #[cfg(target_arch = "x86_64")]
            Backend::Sse2 => classify_blocks_with(&sse2::Sse2, data, out),
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => classify_blocks_with(&neon::Neon, data, out),
            Backend::Swar => classify_blocks_with(&scalar::Swar, data, out),
            _ => classify_blocks_with(&scalar::Table, data, out),
        }
    }
}

/// The loop behind [`Backend::normal_marks`].
#[inline(always)]
pub(crate) fn normal_marks_with<C: Classify>(c: &C, data: &[u8], out: &mut [NormalMarks]) {
    each_block(
        data,
        0,
        out.len(),
        |b| c.normal_marks(b),
        |t| c.normal_marks_tail(t),
        |i, m| out[i] = m,
    );
}

/// The block loop of both kernels: `put(i, block(..))` for each whole
/// 64-byte block of `data` from block `from` on, then `put(i, tail(..))`
/// for its last partial block, `max` blocks at most; returns how many
/// blocks (from 0) were put.
#[inline(always)]
fn each_block<T>(
    data: &[u8],
    from: usize,
    max: usize,
    block: impl Fn(&[u8; 64]) -> T,
    tail: impl Fn(&[u8]) -> T,
    mut put: impl FnMut(usize, T),
) -> usize {
    let full = (data.len() / 64).min(max);
    for i in from..full {
        put(
            i,
            block(data[64 * i..64 * i + 64].try_into().expect("64 bytes")),
        );
    }
    if full < max && 64 * full < data.len() {
        put(full, tail(&data[64 * full..]));
        full + 1
    } else {
        full
    }
}

/// Where a block loop puts each block's masks: a slice of [`Masks`], or
/// stage 2's window, one bit array per class.
pub(crate) trait Sink {
    /// Whether it also takes each block's [`NormalMarks`] (`put_marks`).
    const MARKS: bool = false;
    /// How many blocks it holds.
    fn blocks(&self) -> usize;
    /// Stores the masks of block `i` (< `blocks()`), in order from 0.
    fn put(&mut self, i: usize, m: Masks);
    /// Whether it takes 8 blocks at a time (`put_group`) faster than one
    /// by one: a backend that classifies 8 blocks at once then hands them
    /// over as a group, else block by block.
    #[cfg(target_arch = "x86_64")]
    const GROUPS: bool = false;
    /// Stores the masks of blocks `i..i + 8` (`i` a multiple of 8, below
    /// `blocks() - 7`), as `put` would one by one.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn put_group(&mut self, i: usize, g: &Group) {
        for j in 0..8 {
            self.put(i + j, Masks::of_group(g, j));
        }
    }
    /// Stores the [`NormalMarks`] of block `i`, after its masks (only
    /// called when `MARKS`).
    #[inline(always)]
    fn put_marks(&mut self, _i: usize, _m: NormalMarks) {}
    /// Told after the last `put` how many blocks were put.
    #[inline(always)]
    fn end(&mut self, _blocks: usize) {}
}

impl Sink for [Masks] {
    #[inline(always)]
    fn blocks(&self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn put(&mut self, i: usize, m: Masks) {
        self[i] = m;
    }
}

/// Classifies the blocks of `data` into `out`, as many as both hold, the
/// last padded with zero bytes; with their [`NormalMarks`] too when the
/// sink takes them (the block is still in the L1 cache).
#[inline(always)]
pub(crate) fn classify_blocks_with<C: Classify, S: Sink + ?Sized>(c: &C, data: &[u8], out: &mut S) {
    classify_blocks_from(c, data, 0, out);
}

/// [`classify_blocks_with`] when blocks `..from` are already put.
#[inline(always)]
pub(crate) fn classify_blocks_from<C: Classify, S: Sink + ?Sized>(
    c: &C,
    data: &[u8],
    from: usize,
    out: &mut S,
) {
    let max = out.blocks();
    let none = NormalMarks::default();
    let put = each_block(
        data,
        from,
        max,
        |b| {
            let n = if S::MARKS { c.normal_marks(b) } else { none };
            (c.classify(b), n)
        },
        |t| {
            let n = if S::MARKS {
                c.normal_marks_tail(t)
            } else {
                none
            };
            (c.classify_tail(t), n)
        },
        |i, (m, n)| {
            out.put(i, m);
            if S::MARKS {
                out.put_marks(i, n);
            }
        },
    );
    out.end(put);
}
