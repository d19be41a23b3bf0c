//! The engine: chunk boundaries, line numbers, threads and read sizes.

use std::io::{self, Read};

use super::*;

/// A reader that returns at most `n` bytes per call.
struct Short<'a>(&'a [u8], usize);

impl Read for Short<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.len().min(self.1).min(buf.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

fn reference_lines(input: &[u8]) -> Vec<(u64, Vec<u8>)> {
    let mut pieces: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if pieces.last() == Some(&&b""[..]) {
        pieces.pop();
    }
    pieces
        .into_iter()
        .enumerate()
        .map(|(i, l)| (i as u64 + 1, l.strip_suffix(b"\r").unwrap_or(l).to_vec()))
        .collect()
}

fn collect(
    input: &[u8],
    chunk_size: usize,
    read_size: usize,
    threads: usize,
) -> Vec<(u64, Vec<u8>)> {
    let pool = Pool::new(threads).unwrap();
    let options = Options {
        pool: (threads > 1).then_some(&pool),
        chunk_size,
        ..Options::default()
    };
    let mut out = Vec::new();
    let mut lines = Vec::new();
    let mut last = Progress::default();
    run(
        Short(input, read_size),
        &mut out,
        &options,
        |chunk, out| {
            let v: Vec<(u64, Vec<u8>)> = chunk.lines().map(|(n, l)| (n, l.to_vec())).collect();
            for (n, l) in &v {
                out.extend_from_slice(format!("{n}:").as_bytes());
                out.extend_from_slice(l);
                out.push(b'\n');
            }
            v
        },
        |v, p| {
            assert!(p.bytes > last.bytes);
            last = *p;
            lines.extend(v)
        },
    )
    .unwrap();
    assert_eq!(last.bytes, input.len() as u64);
    assert_eq!(last.lines, lines.len() as u64);
    let mut expected = Vec::new();
    for (n, l) in &lines {
        expected.extend_from_slice(format!("{n}:").as_bytes());
        expected.extend_from_slice(l);
        expected.push(b'\n');
    }
    assert_eq!(out, expected, "output in input order");
    lines
}

#[test]
fn chunk_boundaries_at_every_position() {
    let input = b"http://a/b\r\n\nxyz\r\n/q?x#y\nlast-no-lf\r";
    let expected = reference_lines(input);
    for chunk_size in 1..=input.len() + 1 {
        for read_size in [1, 3, 7, 1000] {
            for threads in [1, 2, 3] {
                assert_eq!(
                    collect(input, chunk_size, read_size, threads),
                    expected,
                    "chunk {chunk_size} read {read_size} threads {threads}"
                );
            }
        }
    }
}

#[test]
fn edge_inputs() {
    for input in [
        &b""[..],
        b"\n",
        b"\n\n",
        b"\r\n",
        b"a",
        b"a\n",
        b"a\r",
        b"\r\r\n",
    ] {
        for chunk_size in 1..4 {
            assert_eq!(
                collect(input, chunk_size, 2, 2),
                reference_lines(input),
                "{input:?}"
            );
        }
    }
}

#[test]
fn line_longer_than_chunks() {
    let mut input = vec![b'x'; 100_000];
    input.extend_from_slice(b"\r\nshort\n");
    input.extend(vec![b'y'; 50_000]);
    assert_eq!(collect(&input, 1024, 4096, 2), reference_lines(&input));
}

#[test]
fn read_error_keeps_what_came_before() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("boom"));
            }
            self.0 -= 1;
            buf[..2].copy_from_slice(b"a\n");
            Ok(2)
        }
    }
    let mut out = Vec::new();
    let mut lines = 0;
    let r = run(
        Failing(3),
        &mut out,
        &Options {
            pool: None,
            chunk_size: 2,
            ..Options::default()
        },
        |c, o| {
            o.extend_from_slice(c.data());
            c.lines().count()
        },
        |n, _| lines += n,
    );
    assert!(matches!(r, Err(RunError::Read(_))));
    assert_eq!(lines, 3);
    assert_eq!(out, b"a\na\na\n");
}

/// Lines longer than `max_line` are read past and listed, at every chunk
/// size, read size and thread count; the others are kept, numbered as in
/// the whole input; the progress counts every byte and line.
#[test]
fn long_lines_are_skipped_and_listed() {
    let input = b"ab\nabcdef\r\n\nabcd\nxyzxyzxyz\nq\r\nlast-too-long";
    // (number, offset, bytes before the LF, LF) of every line.
    let mut all = Vec::new();
    let mut offset = 0;
    for (i, piece) in input.split_inclusive(|&b| b == b'\n').enumerate() {
        let lf = piece.ends_with(b"\n");
        let len = piece.len() - usize::from(lf);
        all.push((i as u64 + 1, offset, len, lf));
        offset += piece.len() as u64;
    }
    let reference = reference_lines(input);
    for max_line in 1..=14 {
        let expected_skipped: Vec<LongLine> = all
            .iter()
            .filter(|l| l.2 > max_line)
            .map(|&(line, offset, len, lf)| LongLine {
                line,
                offset,
                len: len as u64,
                lf,
            })
            .collect();
        let expected_kept: Vec<(u64, Vec<u8>)> = reference
            .iter()
            .filter(|(n, _)| all[*n as usize - 1].2 <= max_line)
            .cloned()
            .collect();
        for chunk_size in [1, 2, 5, 64] {
            for read_size in [1, 3, 1000] {
                for threads in [1, 2] {
                    let pool = Pool::new(threads).unwrap();
                    let options = Options {
                        pool: (threads > 1).then_some(&pool),
                        chunk_size,
                        max_line,
                    };
                    let (mut kept, mut skipped, mut last) = (Vec::new(), Vec::new(), None);
                    run(
                        Short(input, read_size),
                        &mut io::sink(),
                        &options,
                        |chunk, _| {
                            let lines: Vec<_> =
                                chunk.lines().map(|(n, l)| (n, l.to_vec())).collect();
                            (lines, chunk.skipped().to_vec())
                        },
                        |(lines, long), p| {
                            kept.extend(lines);
                            skipped.extend(long);
                            last = Some(*p);
                        },
                    )
                    .unwrap();
                    let what = format!("max {max_line} chunk {chunk_size} read {read_size}");
                    assert_eq!(kept, expected_kept, "{what}");
                    assert_eq!(skipped, expected_skipped, "{what}");
                    let last = last.unwrap();
                    assert_eq!(last.bytes, input.len() as u64, "{what}");
                    assert_eq!(last.lines, all.len() as u64, "{what}");
                }
            }
        }
    }
}

/// A line with no end is read past in bounded memory: the chunk buffers
/// never outgrow `max_line + 1` bytes.
#[test]
fn endless_line_is_read_in_bounded_memory() {
    let mut reader = super::run::ChunkReader::new(io::repeat(b'z').take(10 << 20), 1 << 16, 4096);
    let chunk = reader.next_chunk(Vec::new()).unwrap().unwrap();
    assert_eq!(chunk.len, 0);
    assert_eq!(chunk.skipped.len(), 1);
    assert_eq!(chunk.skipped[0].len, 10 << 20);
    assert!(chunk.data.len() <= 4097, "{}", chunk.data.len());
    assert!(reader.next_chunk(chunk.data).unwrap().is_none());
}

/// The bytes read before a read error, in the chunk being filled, are
/// processed before the error is returned (a file truncated while read is
/// processed as far as it was read).
#[test]
fn read_error_mid_chunk_keeps_the_bytes_before_it() {
    struct ThenFail<'a>(&'a [u8]);
    impl Read for ThenFail<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("boom"));
            }
            let n = self.0.len().min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    for threads in [1, 2] {
        let pool = Pool::new(threads).unwrap();
        let options = Options {
            pool: (threads > 1).then_some(&pool),
            ..Options::default()
        };
        let mut out = Vec::new();
        let r = run(
            ThenFail(b"a\nb"),
            &mut out,
            &options,
            |c, o| o.extend_from_slice(c.data()),
            |(), _| {},
        );
        assert!(matches!(r, Err(RunError::Read(e)) if e.to_string() == "boom"));
        assert_eq!(out, b"a\nb");
    }
}

/// A panic in `process` on a pool thread reaches the caller of `run`, as
/// it does without a pool, instead of leaving the caller waiting for that
/// chunk for ever.
#[test]
fn panic_in_a_worker_reaches_the_caller() {
    for threads in [1, 2] {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let pool = Pool::new(threads).unwrap();
            let options = Options {
                pool: (threads > 1).then_some(&pool),
                chunk_size: 2,
                ..Options::default()
            };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run(
                    &b"a\nb\nboom\nc\nd\n"[..],
                    &mut io::sink(),
                    &options,
                    |chunk, _| {
                        if chunk.data().starts_with(b"boom") {
                            panic!("chunk at line {}", chunk.first_line());
                        }
                    },
                    |(), _| {},
                )
            }));
            let message = result.err().map(|p| match p.downcast::<String>() {
                Ok(s) => *s,
                Err(_) => "another payload".to_string(),
            });
            let _ = tx.send(message);
        });
        let message = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("run still waiting after 60 s ({threads} threads)"));
        assert_eq!(
            message.as_deref(),
            Some("chunk at line 3"),
            "{threads} threads"
        );
    }
}

/// Runs `job` on another thread and returns its result, failing the test
/// if it takes more than 60 s (a pipeline waiting for ever).
fn within_a_minute<T: Send + 'static>(what: &str, job: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(job());
    });
    rx.recv_timeout(std::time::Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("{what}: run still waiting after 60 s"))
}

/// A line per chunk, 1,000 of them: the workers fill the read-ahead
/// window long before the input ends.
fn thousand_lines() -> Vec<u8> {
    (0..1000)
        .flat_map(|i| format!("{i}\n").into_bytes())
        .collect()
}

/// While one chunk is slow, the other workers read ahead by at most
/// `2 x threads + 2` chunks (memory stays bounded), and then wait.
#[test]
fn read_ahead_is_bounded_by_the_window() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let max_ahead = within_a_minute("slow first chunk", || {
        let pool = Pool::new(2).unwrap();
        let options = Options {
            pool: Some(&pool),
            chunk_size: 2,
            ..Options::default()
        };
        let (started, consumed, max_ahead) = (
            AtomicUsize::new(0),
            AtomicUsize::new(0),
            AtomicUsize::new(0),
        );
        run(
            &thousand_lines()[..],
            &mut io::sink(),
            &options,
            |chunk, _| {
                let ahead =
                    started.fetch_add(1, Ordering::SeqCst) + 1 - consumed.load(Ordering::SeqCst);
                max_ahead.fetch_max(ahead, Ordering::SeqCst);
                if chunk.first_line() == 1 {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                }
            },
            |(), _| {
                consumed.fetch_add(1, Ordering::SeqCst);
            },
        )
        .unwrap();
        assert_eq!(consumed.load(Ordering::SeqCst), 1000);
        max_ahead.load(Ordering::SeqCst)
    });
    assert!((2..=6).contains(&max_ahead), "{max_ahead} chunks ahead");
}

/// The ways a run ends early (a panic in `process` or in `consume`, a
/// failed write) end it while workers wait for room in the window,
/// instead of leaving them, and the caller, waiting for ever.
#[test]
fn early_ends_stop_waiting_workers() {
    struct Full;
    impl io::Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("disk full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    for end in ["process", "consume", "write"] {
        let outcome = within_a_minute(end, move || {
            let pool = Pool::new(2).unwrap();
            let options = Options {
                pool: Some(&pool),
                chunk_size: 2,
                ..Options::default()
            };
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut written = Vec::new();
                let mut full = Full;
                let output: &mut (dyn io::Write + Send) = if end == "write" {
                    &mut full
                } else {
                    &mut written
                };
                run(
                    &thousand_lines()[..],
                    output,
                    &options,
                    |chunk, out| {
                        if chunk.first_line() == 1 {
                            // The other worker fills the window meanwhile.
                            std::thread::sleep(std::time::Duration::from_millis(100));
                            assert!(end != "process", "process at line 1");
                        }
                        out.extend_from_slice(chunk.data());
                    },
                    |(), _| assert!(end != "consume", "consume"),
                )
                .map_err(|e| e.to_string())
            }))
            .map_err(|p| match p.downcast::<&str>() {
                Ok(s) => s.to_string(),
                Err(p) => p
                    .downcast::<String>()
                    .map_or("another payload".into(), |s| *s),
            })
        });
        let expected = match end {
            "write" => Ok(Err("write error: disk full".to_string())),
            "process" => Err("process at line 1".to_string()),
            _ => Err("consume".to_string()),
        };
        assert_eq!(outcome, expected, "{end}");
    }
}
