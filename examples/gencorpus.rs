//! Deterministic generator of realistic URI corpora, for the bundled sample and
//! for benchmarks of any size.
//!
//! ```text
//! cargo run --release --example gencorpus -- --lines 5000 > corpora/sample.txt
//! cargo run --release --example gencorpus -- --bytes 1G --seed 7 > /tmp/1g.txt
//! cargo run --release --example gencorpus -- --bytes 1G --kind log > /tmp/access.log
//! ```
//!
//! The mix: http/https URLs with paths, queries and fragments (most lines), IPv4
//! and IPv6 hosts, ports, userinfo, mailto:, urn:, tel:, file:, data:, relative
//! references, and about 3% invalid lines of known kinds (a space, a bad
//! percent-encoding, a bad IPv6 literal, a non-numeric port, a non-ASCII byte,
//! a bad scheme). Mean line length is about 70 bytes. The same seed always gives
//! the same bytes.

use std::io::{self, BufWriter, Write};

#[path = "../benches/common/gen.rs"]
mod gen;

fn parse_size(s: &str) -> u64 {
    let (n, mul) = match s.as_bytes().last() {
        Some(b'K' | b'k') => (&s[..s.len() - 1], 1 << 10),
        Some(b'M' | b'm') => (&s[..s.len() - 1], 1 << 20),
        Some(b'G' | b'g') => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    n.parse::<u64>()
        .expect("a size such as 1000, 64K, 100M or 1G")
        * mul
}

fn main() -> io::Result<()> {
    let mut lines = None;
    let mut bytes = None;
    let mut seed = 1u64;
    let mut kind = gen::Kind::Uris;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().unwrap_or_default();
        match a.as_str() {
            "--lines" => lines = Some(v.parse::<u64>().expect("--lines N")),
            "--bytes" => bytes = Some(parse_size(&v)),
            "--seed" => seed = v.parse().expect("--seed N"),
            "--kind" => {
                kind = match v.as_str() {
                    "uris" => gen::Kind::Uris,
                    "log" => gen::Kind::Log,
                    "text" => gen::Kind::Text,
                    _ => panic!("--kind uris|log|text"),
                }
            }
            _ => {
                eprintln!(
                    "usage: gencorpus [--lines N | --bytes SIZE] [--seed N] [--kind uris|log|text]"
                );
                std::process::exit(2);
            }
        }
    }
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    gen::generate_kind(kind, seed, lines, bytes, &mut out)?;
    out.flush()
}
