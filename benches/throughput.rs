//! uriscan's own stages on every corpus, per backend: the classifier alone,
//! split alone, validate + split of single URIs (`parse_with`) and of a whole
//! chunk (`Chunk::uris_with`, what `uriscan check` runs); normalize, resolve
//! and dedup keys; extract on a generated access log and text, and on the
//! sample W3C, ALB and JSON logs; and the batch
//! engine per thread count.
//!
//! `cargo bench --bench throughput`; throughput is bytes of input.
//! `URISCAN_BENCH_CORPORA=generated` and `URISCAN_BENCH_MB=64` narrow it down.

mod common;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use uriscan::batch::{self, Chunk};
use uriscan::{
    extract, parse, parse_log_line, parse_with, resolve, split, Backend, LogFormat, LogParser,
    Masks, Mode, Normalizer, Profile,
};

fn stages(c: &mut Criterion) {
    for corpus in common::corpora() {
        let lines = corpus.lines();
        let mut group = c.benchmark_group(format!("stages/{}", corpus.name));
        group.throughput(Throughput::Bytes(corpus.data.len() as u64));
        let mut masks = vec![Masks::default(); corpus.data.len().div_ceil(64)];
        for backend in Backend::available() {
            group.bench_function(BenchmarkId::new("classify", backend.name()), |b| {
                b.iter(|| {
                    backend.classify_blocks(black_box(&corpus.data), &mut masks);
                    masks.last().map_or(0, |m| m.lf)
                })
            });
        }
        group.bench_function("split", |b| {
            b.iter(|| {
                let mut n = 0;
                for l in &lines {
                    n += split(black_box(l)).path().len();
                }
                n
            })
        });
        for backend in Backend::available() {
            group.bench_function(BenchmarkId::new("parse", backend.name()), |b| {
                b.iter(|| {
                    let mut n = 0usize;
                    for l in &lines {
                        n +=
                            usize::from(parse_with(black_box(l), Mode::Reference, backend).is_ok());
                    }
                    n
                })
            });
            group.bench_function(BenchmarkId::new("check", backend.name()), |b| {
                let chunk = Chunk::new(&corpus.data, 1, 0);
                b.iter(|| {
                    chunk
                        .uris_with(Mode::Reference, backend)
                        .filter(|(_, _, r)| r.is_ok())
                        .count()
                })
            });
        }
        group.finish();
    }
}

/// normalize (already-normal and needs-work inputs apart), resolve and a
/// dedup-like key set, on the bundled and generated corpora.
fn transforms(c: &mut Criterion) {
    for corpus in common::corpora()
        .into_iter()
        .filter(|c| c.name == "bundled" || c.name == "generated")
    {
        let lines = corpus.lines();
        let n = Normalizer::new(Profile::Rfc3986);
        let mut normal = Vec::new();
        for l in &lines {
            if let Ok(u) = parse(l, Mode::Reference) {
                n.normalize(&u, &mut normal);
                normal.push(b'\n');
            }
        }
        let normal_lines: Vec<&[u8]> = normal
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        let mut group = c.benchmark_group(format!("transforms/{}", corpus.name));
        for (name, input) in [("needs-work", &lines), ("already-normal", &normal_lines)] {
            // The corpus path, as `uriscan normalize` runs it: a chunk's
            // lines parsed by the SIMD pass (which also notes what
            // `is_normal` looks for), each written normalized (an already
            // normal one as it is); `check` on the same input beside it.
            let mut joined = input.join(&b"\n"[..]);
            joined.push(b'\n');
            let chunk = Chunk::new(&joined, 1, 0);
            group.throughput(Throughput::Bytes(joined.len() as u64));
            // The profiles on the corpus as it is (each key written, as
            // `uriscan normalize --profile P` does), rfc3986 on both inputs.
            let profiles: &[Profile] = if name == "needs-work" {
                &[Profile::Rfc3986, Profile::Web, Profile::Surt]
            } else {
                &[Profile::Rfc3986]
            };
            for &profile in profiles {
                let n = Normalizer::new(profile);
                let id = match profile {
                    Profile::Rfc3986 => "normalize".to_string(),
                    p => format!("normalize-{}", p.name()),
                };
                group.bench_function(BenchmarkId::new(id, name), |b| {
                    let mut out = Vec::with_capacity(joined.len() + (1 << 20));
                    let mut scratch = Vec::new();
                    b.iter(|| {
                        out.clear();
                        chunk
                            .uris(Mode::Reference)
                            .for_normalizer()
                            .for_each(|(_, _, r)| {
                                if let Ok(u) = r {
                                    out.extend_from_slice(n.normalized(&u, &mut scratch));
                                    out.push(b'\n');
                                }
                            });
                        out.len()
                    })
                });
            }
            group.bench_function(BenchmarkId::new("check", name), |b| {
                b.iter(|| {
                    chunk
                        .uris(Mode::Reference)
                        .filter(|(_, _, r)| r.is_ok())
                        .count()
                })
            });
        }
        group.throughput(Throughput::Bytes(corpus.data.len() as u64));
        let base = parse(b"http://example.com/a/b/c/d;p?q", Mode::Uri).unwrap();
        group.bench_function("resolve", |b| {
            let mut out = Vec::with_capacity(1 << 20);
            b.iter(|| {
                out.clear();
                for l in &lines {
                    if let Ok(u) = parse(black_box(l), Mode::Reference) {
                        resolve(&base, &u, true, &mut out);
                    }
                }
                out.len()
            })
        });
        // The key set of `dedup`, simplified: normalize, then a set of owned keys.
        group.bench_function("dedup-keys", |b| {
            let mut key = Vec::with_capacity(4096);
            b.iter(|| {
                let mut seen = std::collections::HashSet::with_capacity(lines.len());
                for l in &lines {
                    if let Ok(u) = parse(black_box(l), Mode::Reference) {
                        key.clear();
                        n.normalize(&u, &mut key);
                        seen.insert(key.clone());
                    }
                }
                seen.len()
            })
        });
        group.finish();
    }
}

/// `extract` on a generated access log (fields parsed, target and Referer
/// validated, as `uriscan extract --log combined` does per line) and on
/// generated text (every URI found and validated), with `check` of the
/// generated URI corpus beside them in the same run.
fn extraction(c: &mut Criterion) {
    let bytes = common::generated_bytes();
    let log = common::gen::corpus_of(common::gen::Kind::Log, 7, bytes);
    let text = common::gen::corpus_of(common::gen::Kind::Text, 7, bytes);
    let uris = common::gen::corpus(7, bytes);
    let mut group = c.benchmark_group("extract/generated");
    group.throughput(Throughput::Bytes(log.len() as u64));
    group.bench_function("log-combined", |b| {
        let chunk = Chunk::new(&log, 1, 0);
        b.iter(|| {
            let mut valid = 0usize;
            for (_, line) in chunk.lines() {
                if let Some(f) = parse_log_line(line, true) {
                    for uri in [f.target, f.referer].into_iter().flatten() {
                        valid += usize::from(parse(&uri, Mode::Reference).is_ok());
                    }
                }
            }
            valid
        })
    });
    // The other formats on their sample logs (tests/data/logs), repeated to
    // the same size: each line parsed, each URI validated.
    for (name, file, parser) in [
        ("log-w3c", "cloudfront.log", LogParser::new(LogFormat::W3c)),
        ("log-alb", "alb.log", LogParser::new(LogFormat::Alb)),
        (
            "log-json",
            "json.log",
            LogParser::json(["request.uri", "request.headers.referer"]),
        ),
    ] {
        let path = format!("{}/tests/data/logs/{file}", env!("CARGO_MANIFEST_DIR"));
        let sample = std::fs::read(path).expect("the sample logs are in the repository");
        let data = sample.repeat(bytes as usize / sample.len() + 1);
        group.throughput(Throughput::Bytes(data.len() as u64));
        group.bench_function(name, |b| {
            let chunk = Chunk::new(&data, 1, 0);
            let mut uris = Vec::new();
            b.iter(|| {
                let mut parser = parser.clone();
                let mut valid = 0usize;
                for (_, line) in chunk.lines() {
                    uris.clear();
                    if parser.parse_line(line, &mut uris) {
                        for u in &uris {
                            valid += usize::from(parse(&u.uri, Mode::Reference).is_ok());
                        }
                    }
                }
                valid
            })
        });
    }
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("text", |b| {
        b.iter(|| {
            extract(black_box(&text))
                .filter(|f| parse(&f.uri, Mode::Reference).is_ok())
                .count()
        })
    });
    // Hostile text at n and 2n bytes: linear extraction keeps the same
    // throughput at both sizes (quadratic trimming halved it).
    for (name, head, unit) in [
        ("closers", &b"http://a/"[..], &b")"[..]),
        ("brackets-without-gt", b"", b"<http://a "),
    ] {
        for size in [1usize << 20, 2 << 20] {
            let mut hostile = head.to_vec();
            while hostile.len() < size {
                hostile.extend_from_slice(unit);
            }
            group.throughput(Throughput::Bytes(hostile.len() as u64));
            group.bench_with_input(BenchmarkId::new(name, size), &hostile, |b, t| {
                b.iter(|| extract(black_box(t)).count())
            });
        }
    }
    group.throughput(Throughput::Bytes(uris.len() as u64));
    group.bench_function("check", |b| {
        let chunk = Chunk::new(&uris, 1, 0);
        b.iter(|| {
            chunk
                .uris(Mode::Reference)
                .filter(|(_, _, r)| r.is_ok())
                .count()
        })
    });
    group.finish();
}

fn engine(c: &mut Criterion) {
    let data = common::gen::corpus(7, common::generated_bytes());
    let mut group = c.benchmark_group("engine/generated");
    group.throughput(Throughput::Bytes(data.len() as u64));
    let max = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut counts = vec![1];
    if max > 1 {
        counts.push(max);
    }
    for threads in counts {
        let pool = batch::Pool::new(threads).unwrap();
        let options = batch::Options {
            pool: (threads > 1).then_some(&pool),
            chunk_size: batch::DEFAULT_CHUNK_SIZE,
            ..batch::Options::default()
        };
        group.bench_with_input(BenchmarkId::new("check", threads), &data, |b, data| {
            b.iter(|| {
                let mut invalid = 0u64;
                batch::run(
                    &data[..],
                    &mut std::io::sink(),
                    &options,
                    |chunk, _out| {
                        chunk
                            .uris(Mode::Reference)
                            .filter(|(_, _, r)| r.is_err())
                            .count() as u64
                    },
                    |n, _| invalid += n,
                )
                .unwrap();
                invalid
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = stages, transforms, extraction, engine
}
criterion_main!(benches);
