//! uriscan against the Rust URI parsers people would otherwise pick, on the same
//! in-memory corpora, each with its strictest entry point.
//!
//! | parser | standard | entry point |
//! |---|---|---|
//! | uriscan | RFC 3986 | `parse(bytes, Mode::Reference)` (validate + split) |
//! | uriscan-chunk | RFC 3986 | `Chunk::uris(Mode::Reference)` over the same lines joined by LF: what `uriscan check` runs |
//! | fluent-uri | RFC 3986 | `UriRef::parse` |
//! | iri-string | RFC 3986 | `UriReferenceStr::new` |
//! | oxiri | RFC 3987 | `IriRef::parse` |
//! | url | WHATWG | `Url::parse` |
//! | ada-url | WHATWG (C++) | `Url::parse` |
//! | http | RFC 7230 request targets | `Uri::try_from(&str)` |
//!
//! Strictness differs, so the number of lines each accepts is printed before the
//! timings and written to `target/criterion/peers-accepted.tsv`; the throughput
//! is bytes of input, and `scripts/peers-table.py` turns the criterion results
//! into ns per URI, GB/s and M URIs/s. Lines that are not UTF-8 are given to no
//! parser (none accepts them).
//!
//! `cargo bench -p uriscan-peers` (this workspace member keeps the C++ of
//! ada-url and the other parsers out of uriscan's own build);
//! `URISCAN_BENCH_CORPORA=generated,node_files` picks corpora,
//! `URISCAN_BENCH_MB` sizes the generated one.

// The corpora of uriscan's own benches, shared (not copied).
#[path = "../../../benches/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::io::Write;
use std::str::FromStr;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

type Parser = (&'static str, fn(&str) -> bool);

fn parsers() -> Vec<Parser> {
    vec![
        ("uriscan", |s| {
            uriscan::parse(s.as_bytes(), uriscan::Mode::Reference).is_ok()
        }),
        ("fluent-uri", |s| fluent_uri::UriRef::parse(s).is_ok()),
        ("iri-string", |s| {
            iri_string::types::UriReferenceStr::new(s).is_ok()
        }),
        ("oxiri", |s| oxiri::IriRef::parse(s).is_ok()),
        ("url", |s| url::Url::parse(s).is_ok()),
        ("ada-url", |s| ada_url::Url::parse(s, None).is_ok()),
        ("http", |s| http::Uri::from_str(s).is_ok()),
    ]
}

fn peers(c: &mut Criterion) {
    let corpora = common::corpora();
    let out_dir = common::root().join("target/criterion");
    let _ = std::fs::create_dir_all(&out_dir);
    let mut table = std::fs::File::create(out_dir.join("peers-accepted.tsv")).ok();
    if let Some(t) = table.as_mut() {
        let _ = writeln!(t, "corpus\tparser\tlines\tbytes\taccepted");
    }
    for corpus in &corpora {
        let all = corpus.lines();
        let lines: Vec<&str> = all
            .iter()
            .filter_map(|l| std::str::from_utf8(l).ok())
            .collect();
        let bytes: usize = all.iter().map(|l| l.len() + 1).sum();
        eprintln!(
            "corpus {}: {} lines, {} bytes, mean line {:.1} bytes",
            corpus.name,
            all.len(),
            bytes,
            corpus.mean_line()
        );
        let mut group = c.benchmark_group(format!("peers/{}", corpus.name));
        group.throughput(Throughput::Bytes(bytes as u64));
        for (name, parse) in parsers() {
            let accepted = lines.iter().filter(|s| parse(s)).count();
            eprintln!("  {name:<12} accepts {accepted} of {}", all.len());
            if let Some(t) = table.as_mut() {
                let _ = writeln!(
                    t,
                    "{}\t{name}\t{}\t{bytes}\t{accepted}",
                    corpus.name,
                    all.len()
                );
            }
            group.bench_with_input(BenchmarkId::from_parameter(name), &lines, |b, lines| {
                b.iter(|| {
                    let mut n = 0usize;
                    for s in lines {
                        n += usize::from(parse(black_box(s)));
                    }
                    n
                })
            });
        }
        // The corpus path: the same lines as one chunk, validated and split
        // line by line with the window-at-a-time SIMD pass.
        let joined = lines.join("\n").into_bytes();
        let chunk = uriscan::batch::Chunk::new(&joined, 1, 0);
        let accepted = chunk
            .uris(uriscan::Mode::Reference)
            .filter(|(_, _, r)| r.is_ok())
            .count();
        eprintln!(
            "  {:<12} accepts {accepted} of {}",
            "uriscan-chunk",
            all.len()
        );
        if let Some(t) = table.as_mut() {
            let _ = writeln!(
                t,
                "{}\turiscan-chunk\t{}\t{bytes}\t{accepted}",
                corpus.name,
                all.len()
            );
        }
        group.bench_function(BenchmarkId::from_parameter("uriscan-chunk"), |b| {
            b.iter(|| {
                black_box(&chunk)
                    .uris(uriscan::Mode::Reference)
                    .filter(|(_, _, r)| r.is_ok())
                    .count()
            })
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = peers
}
criterion_main!(benches);
