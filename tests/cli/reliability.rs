//! Hostile inputs and outputs (issue 26): a line with no end, a closed or
//! full output, a file that shrinks while it is read, a base URI that makes
//! every record long, bytes that are not UTF-8.

use std::io::{Read, Write};
use std::process::{ChildStdin, Stdio};

use super::{bin, code, run, stderr, stdout, TempDir};

/// Runs uriscan `args` with its standard input fed by `feed` (on a thread
/// of its own) and, where `ulimit` can be used, at most `limit_kb` of
/// address space; returns the exit code, standard output and standard error.
fn run_fed(
    args: &[&str],
    limit_kb: Option<u64>,
    feed: impl FnOnce(&mut ChildStdin) + Send + 'static,
) -> (i32, Vec<u8>, String) {
    let mut command = match limit_kb {
        Some(kb) => {
            let mut c = std::process::Command::new("sh");
            c.arg("-c")
                .arg(format!("ulimit -v {kb} && exec \"$0\" \"$@\""))
                .arg(env!("CARGO_BIN_EXE_uriscan"));
            c
        }
        None => bin(),
    };
    let mut child = command
        .args(args)
        .arg("--no-progress")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || feed(&mut stdin));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let code = out.status.code().unwrap_or(-1);
    (
        code,
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether the binary runs natively on Linux, where address-space limits
/// can be set on it and `/proc` is its own (not through a
/// `URISCAN_TEST_RUNNER` such as qemu, which needs far more memory).
fn native_linux() -> bool {
    cfg!(target_os = "linux")
        && std::env::var("URISCAN_TEST_RUNNER").map_or(true, |r| r.trim().is_empty())
}

/// `mb` megabytes natively; a sixteenth under a `URISCAN_TEST_RUNNER`
/// (qemu runs them 20-50 times slower, and the bytes test the same
/// reading and chunking code as natively: the SIMD backends' own tests
/// are the library's).
fn big(mb: usize) -> usize {
    if native_linux() {
        mb << 20
    } else {
        (mb << 20) / 16
    }
}

/// Writes `n` zero bytes (no LF).
fn zeros(to: &mut ChildStdin, n: usize) {
    let block = vec![0u8; 1 << 20];
    let mut left = n;
    while left > 0 {
        let k = left.min(block.len());
        if to.write_all(&block[..k]).is_err() {
            return;
        }
        left -= k;
    }
}

/// The chunk buffer grows with the input, not to `--chunk-size` at once:
/// a small input with the largest chunk size runs in a small address
/// space (a whole chunk's buffer, 1 GiB, would not fit in it), and the
/// same bytes give the same output at every chunk size.
#[test]
fn small_input_takes_little_memory_whatever_the_chunk_size() {
    if !native_linux() {
        return;
    }
    let input = b"http://a/b\r\nnot a uri\n/c";
    let want = run(&["split", "-j1"], input);
    assert_eq!(code(&want), 0);
    assert_eq!(want.stdout.iter().filter(|&&b| b == b'\n').count(), 3);
    for args in [&["-j1"][..], &["-j2"]] {
        let args = [&["split", "--chunk-size", "1G"], args].concat();
        let (status, out, err) = run_fed(&args, Some(200_000), move |to| {
            let _ = to.write_all(input);
        });
        assert_eq!(status, 0, "{args:?}: {err}");
        assert!(out == want.stdout, "{args:?}");
        assert_eq!(err, stderr(&want));
    }
    // A line that the memory cannot hold (with a `--max-line` above it)
    // is an error, exit 2, not an abort.
    let (status, _, err) = run_fed(
        &["check", "-j1", "--chunk-size", "1G", "--max-line", "1G"],
        Some(200_000),
        |to| zeros(to, 300 << 20),
    );
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("out of memory for a chunk of"), "{err}");
}

/// A line with no end (`/dev/zero`) is read past in bounded memory,
/// reported with its number and offset, counted, and the lines after it
/// are read; the exit status says a line was left out.
#[test]
fn line_longer_than_max_line_is_skipped_in_bounded_memory() {
    // 150 MB of zeros under a 64 MB address-space limit: held whole,
    // the line would need more than twice the limit.
    let limit = native_linux().then_some(64 << 10);
    for threads in ["-j1", "-j2"] {
        let (code, out, err) = run_fed(&["check", threads, "--max-line", "1M"], limit, |to| {
            let _ = to.write_all(b"http://a/\nb c\n");
            zeros(to, 150 << 20);
            let _ = to.write_all(b"\nhttp://d/\n");
        });
        assert_eq!(code, 1, "{threads}: {err}");
        assert_eq!(out, b"-:2:2: invalid character ' ' in path\n");
        assert_eq!(
            err,
            "uriscan: -:3: line of 157286400 bytes (from byte 14) longer than --max-line, skipped\n\
             4 lines, 2 valid, 1 invalid\n\
             uriscan: 1 line longer than --max-line skipped\n",
            "{threads}"
        );
    }
    // Exactly --max-line bytes is kept; one more is not; a CR counts; the
    // last line needs no LF to be too long. Every subcommand says so.
    let input = b"http://x/\nhttp://xx/\nhttp://x/\r\nhttp://xx/";
    for sub in ["check", "split", "normalize", "resolve", "extract", "stats"] {
        let mut args = vec![sub, "--max-line", "9"];
        if sub == "resolve" {
            args.extend(["--base", "http://b/"]);
        }
        let o = run(&args, input);
        assert_eq!(code(&o), 1, "{sub}");
        assert_eq!(
            stderr(&o)
                .lines()
                .filter(|l| l.contains("longer than --max-line, skipped"))
                .collect::<Vec<_>>(),
            [
                "uriscan: -:2: line of 10 bytes (from byte 10) longer than --max-line, skipped",
                "uriscan: -:3: line of 10 bytes (from byte 21) longer than --max-line, skipped",
                "uriscan: -:4: line of 10 bytes (from byte 32) longer than --max-line, skipped",
            ],
            "{sub}"
        );
        assert!(
            stderr(&o).ends_with("uriscan: 3 lines longer than --max-line skipped\n"),
            "{sub}: {}",
            stderr(&o)
        );
    }
    let o = run(&["stats", "--format", "json", "--max-line", "9"], input);
    let s = stdout(&o);
    assert!(
        s.starts_with("{\"lines\":4,\"bytes\":42,\"valid\":1,\"invalid\":0,\"skipped\":3,"),
        "{s}"
    );
    // The default keeps a 200 MB line (tests/cli.rs huge_lines: 100 MB).
    let o = run(&["check", "--max-line", "x"], b"");
    assert_eq!(code(&o), 2);
}

/// `split --format tsv` keeps bytes that are not UTF-8 as `\xNN`, so the
/// line comes back from its fields; JSON, whose strings are Unicode, has
/// U+FFFD for them (the lossy form, as documented).
#[test]
fn split_tsv_is_lossless_for_bytes_that_are_not_utf8() {
    let o = run(
        &["split", "--format", "tsv"],
        b"http://h/\xff\xc3\xa9\xc3?\x80#\\\x7f\n",
    );
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    let row: Vec<&str> = out.lines().nth(1).unwrap().split('\t').collect();
    // scheme, authority, path, query, fragment
    assert_eq!(
        [row[3], row[4], row[8], row[9], row[10]],
        ["http", "h", "/\\xff\u{e9}\\xc3", "\\x80", "\\\\\\x7f"]
    );
    let o = run(&["split"], b"/\xff\n");
    assert!(
        stdout(&o).contains("\"path\":\"/\u{FFFD}\""),
        "{}",
        stdout(&o)
    );
    // Control characters, DEL and C1 too, are escaped in JSON.
    let o = run(&["split"], "/\x01\x7f\u{85}é\n".as_bytes());
    assert!(
        stdout(&o).contains("\"path\":\"/\\u0001\\u007f\\u0085é\""),
        "{}",
        stdout(&o)
    );
}

/// `--invalid pass --format tsv` escapes the invalid line in both its
/// columns, as every TSV field: a TAB or `\` in it keeps its columns.
#[test]
fn tsv_keeps_its_columns_for_invalid_lines_passed() {
    let input = b"http://a/x\ty\nhttp://b/\\z\nhttp://ok/\n";
    for args in [
        &["normalize", "--invalid", "pass", "--format", "tsv"][..],
        &[
            "resolve",
            "--base",
            "http://q/",
            "--invalid",
            "pass",
            "--format",
            "tsv",
        ],
    ] {
        let o = run(args, input);
        assert_eq!(code(&o), 0, "{args:?}");
        assert_eq!(
            stdout(&o),
            "http://a/x\\ty\thttp://a/x\\ty\nhttp://b/\\\\z\thttp://b/\\\\z\nhttp://ok/\thttp://ok/\n",
            "{args:?}"
        );
    }
}

/// A file truncated while it is read is an error (exit 2) that names it,
/// after the records of what was read; so is standard input redirected
/// from a file. The run is held up by its output, which the test reads
/// only after truncating: `split` writes about seven bytes per byte read,
/// so with the pipe and the output buffer full it has read far less than
/// the 1 MB the file keeps.
#[test]
fn file_that_shrinks_while_read_exits_2() {
    let dir = TempDir::new("shrinks");
    let lines: String = (0..400_000)
        .map(|i| format!("http://example.com/{i}\n"))
        .collect();
    for stdin in [false, true] {
        let path = dir.file("shrinks.txt", lines.as_bytes());
        let mut command = bin();
        command.args(["split", "-j1", "--chunk-size", "1K", "--no-progress"]);
        if stdin {
            command.stdin(std::fs::File::open(&path).unwrap());
        } else {
            command.arg(&path);
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        out.read_exact(&mut first).unwrap();
        let kept = 1 << 20;
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(kept)
            .unwrap();
        let mut rest = Vec::new();
        out.read_to_end(&mut rest).unwrap();
        let (err, status) = super::stderr_and_status(&mut child);
        assert_eq!(status.code(), Some(2), "{err}");
        assert_eq!(
            err,
            format!(
                "uriscan: cannot read {}: it shrank while it was read: it ended after {kept} \
                 of the {} bytes it had when opened\n",
                if stdin { "-" } else { &path },
                lines.len()
            )
        );
        // A record for every line of what was left.
        let records = rest.iter().filter(|&&b| b == b'\n').count();
        let left = &lines.as_bytes()[..kept as usize];
        let lf = left.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(records, lf + usize::from(!left.ends_with(b"\n")));
    }
}

/// `resolve` with a long base: each line's target is about as long as the
/// base, so a chunk's output is bounded by cutting smaller chunks, not by
/// memory: 64 MB of output in a 48 MB address space, and the same bytes at
/// every thread count and chunk size.
#[test]
fn resolve_with_a_long_base_buffers_bounded_output() {
    let base = format!("http://a/{}/c", "b".repeat(64 << 10));
    let input = "g\n".repeat(1000);
    let target = format!("http://a/{}/g\n", "b".repeat(64 << 10));
    let args = ["resolve", "--base", base.as_str()];
    let limit = native_linux().then_some(48 << 10);
    let fed = input.clone();
    let (code, out, err) = run_fed(&[&args[..], &["-j1"]].concat(), limit, move |to| {
        let _ = to.write_all(fed.as_bytes());
    });
    assert_eq!(code, 0, "{err}");
    assert!(out == target.repeat(1000).as_bytes(), "{} bytes", out.len());
    let reference = run(&[&args[..], &["-j1"]].concat(), input.as_bytes());
    for more in [
        &["-j2"][..],
        &["-j2", "--chunk-size", "100"],
        &["-j3", "--chunk-size", "1K"],
        &["-j2", "--format", "json"],
    ] {
        let o = run(&[&args[..], more].concat(), input.as_bytes());
        assert_eq!(super::code(&o), 0, "{more:?}");
        if more.contains(&"json") {
            assert_eq!(stdout(&o).lines().count(), 1000);
        } else {
            assert!(o.stdout == reference.stdout, "{more:?}");
        }
    }
}

/// A closed standard output (`| head -1`) ends `check` and `extract` at
/// once, with success and nothing on standard error: no summary that
/// counts what was never written (as "0 URIs found" after one would).
#[test]
fn closed_stdout_stops_check_and_extract_with_no_summary() {
    for (args, line) in [
        (&["check", "-j1"][..], "a b"),
        (&["check", "-j2", "--stats"], "a b"),
        (&["extract", "-j1"], "see http://example.com/x"),
        (&["extract", "-j2", "--stats"], "see http://example.com/x"),
    ] {
        let mut child = bin()
            .args(args)
            .args(["--no-progress", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let lines = format!("{line}\n").repeat(10_000);
        let writer = std::thread::spawn(move || {
            // 200 MB at most: far more than a pipe holds.
            (0..1000).all(|_| stdin.write_all(lines.as_bytes()).is_ok())
        });
        let (_, err, status) = super::read_then_close(&mut child, 1);
        assert!(!writer.join().unwrap(), "{args:?} went on reading");
        assert_eq!(status.code(), Some(0), "{args:?}: {err}");
        assert_eq!(err, "", "{args:?}");
    }
}

/// A full device as standard output is an I/O error: exit 2 and a message,
/// on every subcommand.
#[test]
fn full_stdout_exits_2() {
    for args in [
        &["check"][..],
        &["split"],
        &["split", "--format", "tsv"],
        &["normalize"],
        &["resolve", "--base", "http://a/"],
        &["dedup"],
        &["extract"],
        &["stats"],
    ] {
        let o = bin()
            .args(args)
            .args(["--no-progress", &super::corpus()])
            .stdout(
                std::fs::File::options()
                    .write(true)
                    .open("/dev/full")
                    .unwrap(),
            )
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            err.lines().last(),
            Some("uriscan: cannot write to standard output: No space left on device (os error 28)"),
            "{args:?}"
        );
    }
}

/// A FIFO is read like a file (its size, 0, says nothing: no shrinking).
#[test]
fn fifo_input_is_read_to_its_end() {
    let dir = TempDir::new("fifo");
    let fifo = dir.0.join("in.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: no mkfifo");
        return;
    }
    let path = fifo.clone();
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::File::options().write(true).open(path).unwrap();
        for _ in 0..1000 {
            f.write_all(&b"http://a/\nb c\n".repeat(100)).unwrap();
        }
    });
    let o = run(
        &[
            "check",
            "-q",
            "-j2",
            "--chunk-size",
            "4K",
            fifo.to_str().unwrap(),
        ],
        b"",
    );
    writer.join().unwrap();
    assert_eq!(code(&o), 1);
    assert_eq!(stderr(&o), "200000 lines, 100000 valid, 100000 invalid\n");
}

/// Random bytes (NUL, CR, bytes that are not UTF-8, lines of every length):
/// every line is accounted for, at every thread count and chunk size, and
/// the reports are the same bytes.
#[test]
fn random_bytes_lose_no_line() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let input: Vec<u8> = (0..big(100))
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u8
        })
        .collect();
    let lf = input.iter().filter(|&&b| b == b'\n').count();
    let lines = lf + usize::from(!input.ends_with(b"\n"));
    let reference = run(&["check", "-j1"], &input);
    assert_eq!(code(&reference), 1);
    let summary = stderr(&reference);
    assert!(
        summary.starts_with(&format!("{lines} lines, ")),
        "{summary}"
    );
    for args in [&["-j2"][..], &["-j3", "--chunk-size", "64K"]] {
        let o = run(&[&["check"][..], args].concat(), &input);
        assert!(o.stdout == reference.stdout, "{args:?}");
        assert_eq!(stderr(&o), summary, "{args:?}");
    }
}

/// Lines of 1 MB and one of 200 MB (under the default --max-line) are
/// kept, whole, without a 200 MB buffer in the test.
#[test]
fn lines_of_1_mb_and_200_mb_are_kept() {
    let (code, out, err) = run_fed(&["check", "-j2", "--chunk-size", "64K"], None, |to| {
        let mut mb = b"http://example.com/".to_vec();
        mb.resize(1 << 20, b'a');
        mb.push(b'\n');
        for _ in 0..20 {
            let _ = to.write_all(&mb);
        }
        let _ = to.write_all(b"http://example.com/");
        let block = vec![b'b'; 1 << 20];
        for _ in 0..big(200) >> 20 {
            let _ = to.write_all(&block);
        }
        let _ = to.write_all(b" \n");
    });
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!(
            "-:21:{}: invalid character ' ' in path\n",
            19 + (big(200) >> 20 << 20) + 1
        )
    );
    assert_eq!(err, "21 lines, 20 valid, 1 invalid\n");
}

/// Every record-writing subcommand gives the same bytes at every thread
/// count and chunk size (tests/cli.rs checks split and check).
#[test]
fn every_subcommand_is_byte_identical_across_threads_and_chunks() {
    let c = super::corpus();
    for sub in [
        &["normalize"][..],
        &["normalize", "--profile", "surt", "--invalid", "key"],
        &["resolve", "--base", "http://a/b/c/d;p?q"],
        &["extract", "--all", "-n"],
        &["split", "--format", "tsv"],
    ] {
        let reference = run(&[sub, &["-j1", &c]].concat(), b"");
        assert!(!reference.stdout.is_empty(), "{sub:?}");
        for args in [
            &["-j2"][..],
            &["-j3", "--chunk-size", "100"],
            &["-j1", "--chunk-size", "7"],
        ] {
            let o = run(&[sub, args, &[c.as_str()]].concat(), b"");
            assert!(o.stdout == reference.stdout, "{sub:?} {args:?}");
            assert_eq!(o.stderr, reference.stderr, "{sub:?} {args:?}");
        }
    }
}

/// Inputs that open but fail to read (`/proc/self/mem` at offset 0: EIO),
/// or whose path goes through a file, are I/O errors naming them (exit 2,
/// no summary); the readable inputs among them are still read.
#[test]
fn unreadable_inputs_exit_2_and_the_others_are_read() {
    if !native_linux() {
        return;
    }
    let dir = TempDir::new("unreadable2");
    let bad = dir.file("bad.txt", b"a b\n");
    let through = format!("{bad}/x");
    let o = run(&["check", "/proc/self/mem", &through, &bad], b"");
    assert_eq!(code(&o), 2);
    assert_eq!(
        stdout(&o),
        format!("{bad}:1:2: invalid character ' ' in path\n")
    );
    assert_eq!(
        stderr(&o),
        format!(
            "uriscan: cannot read /proc/self/mem: Input/output error (os error 5)\n\
             uriscan: cannot read {through}: Not a directory (os error 20)\n"
        )
    );
}

/// A file whose size is no length (sysfs gives every file 4096 bytes) is
/// read to its end as it is: it ends early but has not shrunk.
#[test]
#[cfg(target_os = "linux")]
fn sysfs_file_is_read_not_shrunk() {
    let Some(path) = [
        "/sys/devices/system/cpu/online",
        "/sys/kernel/mm/transparent_hugepage/enabled",
    ]
    .into_iter()
    .find(|p| {
        std::fs::metadata(p).is_ok_and(|m| m.len() > std::fs::read(p).map_or(0, |d| d.len() as u64))
    }) else {
        eprintln!("no sysfs file with a nominal size here: nothing to check");
        return;
    };
    let o = run(&["stats", path], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).starts_with("lines       1\n"), "{}", stdout(&o));
}
