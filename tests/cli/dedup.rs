//! `dedup` at scale: `--memory` (external dedup through temporary files)
//! against the in-memory output, its errors, a memory limit, and a closed
//! standard output.

use std::process::Stdio;

use super::{bin, code, corpus, run, stderr, stdout, TempDir};

/// Distinct lines `http://example.com/p/{i}` for `i` in `range`, with an
/// invalid line after every `invalid_every`-th (none for 0).
fn numbered(range: std::ops::Range<u32>, invalid_every: u32) -> Vec<u8> {
    range
        .flat_map(|i| {
            let bad = if invalid_every > 0 && i % invalid_every == 0 {
                "http://bad host/\n"
            } else {
                ""
            };
            format!("http://example.com/p/{i}\n{bad}").into_bytes()
        })
        .collect()
}

/// The names left in `dir`.
fn left_in(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// The sample corpus twice (every key repeats), then 40,000 distinct keys
/// and 10,000 of them again: under `--memory 64K` the table holds a few
/// hundred keys, so most records are spilled, and each of the 64
/// partitions holds more distinct keys than the budget, so each is split
/// again. Every mode, one thread and two, gives the in-memory output and
/// summary byte for byte, and leaves the temporary directory empty.
#[test]
fn memory_bound_gives_the_in_memory_output() {
    let dir = TempDir::new("dedup-memory");
    let tmp = dir.0.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let sample = std::fs::read(corpus()).unwrap();
    let input = [
        &sample[..],
        &sample,
        &numbered(0..40_000, 5000),
        &numbered(30_000..40_000, 5000),
    ]
    .concat();
    let file = dir.file("in.txt", &input);
    let tmp = tmp.to_string_lossy().into_owned();
    let modes: [&[&str]; 6] = [
        &[],
        &["--hash"],
        &["--count"],
        &["--hash", "--count"],
        &["--count", "--print", "key", "--invalid", "pass"],
        &["--profile", "web", "--invalid", "pass"],
    ];
    for mode in modes {
        let in_memory = run(&[&["dedup", "-j1", &file][..], mode].concat(), b"");
        assert_eq!(code(&in_memory), 0, "{mode:?}: {}", stderr(&in_memory));
        for threads in ["-j1", "-j2"] {
            let args = ["dedup", threads, "--chunk-size", "64K", &file];
            let bounded = ["--memory", "64K", "--temp-dir", &tmp];
            let o = run(&[&args[..], &bounded, mode].concat(), b"");
            assert_eq!(code(&o), 0, "{mode:?} {threads}: {}", stderr(&o));
            assert!(
                o.stdout == in_memory.stdout,
                "{mode:?} {threads}: the output differs from the in-memory one"
            );
            assert_eq!(stderr(&o), stderr(&in_memory), "{mode:?} {threads}");
            assert_eq!(left_in(tmp.as_ref()), Vec::<String>::new());
        }
    }
}

/// Each of 3,000 keys as a normal URI (its own key) and as one the
/// normalizer rewrites, both orders, with invalid lines, repeated across
/// many 4 KiB chunks (whose record buffers are reused): every mode gives
/// the one-chunk output, and the first occurrence of a key is what is
/// shown (the key itself under `--print key`, but an invalid line's line).
#[test]
fn small_chunks_give_the_one_chunk_output() {
    let dir = TempDir::new("dedup-chunks");
    let mut input = Vec::new();
    for round in 0..3u32 {
        for i in 0..3000u32 {
            let k = (i * 7 + round * 1000) % 3000;
            let (normal, other) = (
                format!("http://example.com/p/{k}\n"),
                format!("HTTP://Example.COM:80/p/./{k}\n"),
            );
            let (a, b) = if k % 2 == 0 {
                (normal, other)
            } else {
                (other, normal)
            };
            input.extend_from_slice(a.as_bytes());
            input.extend_from_slice(b.as_bytes());
            if k % 97 == 0 {
                input.extend_from_slice(format!("http://bad host/{k}\n").as_bytes());
            }
        }
    }
    let file = dir.file("in.txt", &input);
    let modes: [&[&str]; 7] = [
        &[],
        &["--hash"],
        &["--print", "key"],
        &["--hash", "--print", "key"],
        &["--count"],
        &["--hash", "--count", "--print", "key", "--invalid", "pass"],
        &["--invalid", "pass", "--print", "key"],
    ];
    for mode in modes {
        let whole = run(&[&["dedup", "-j1", &file][..], mode].concat(), b"");
        assert_eq!(code(&whole), 0, "{mode:?}: {}", stderr(&whole));
        let out = stdout(&whole);
        let key = mode.contains(&"key");
        let counted = mode.contains(&"--count");
        let invalid = if mode.contains(&"pass") { 31 } else { 0 };
        // 3,000 keys, each shown once, and the distinct invalid lines where
        // they are passed through.
        assert_eq!(out.lines().count(), 3000 + invalid, "{mode:?}");
        let valid: Vec<&str> = out.lines().filter(|l| !l.contains("bad host")).collect();
        // Key 0 comes first as a normal URI, key 7 as the rewritten one;
        // counted, each key was seen 6 times.
        let seventh = if key {
            "http://example.com/p/7"
        } else {
            "HTTP://Example.COM:80/p/./7"
        };
        let count = if counted { "6\t" } else { "" };
        assert_eq!(
            valid[0],
            format!("{count}http://example.com/p/0"),
            "{mode:?}"
        );
        assert_eq!(valid[1], format!("{count}{seventh}"), "{mode:?}");
        for threads in ["-j1", "-j2"] {
            let args = ["dedup", threads, "--chunk-size", "4K", &file];
            let o = run(&[&args[..], mode].concat(), b"");
            assert!(
                o.stdout == whole.stdout,
                "{mode:?} {threads}: the output differs"
            );
            assert_eq!(stderr(&o), stderr(&whole), "{mode:?} {threads}");
        }
    }
}

/// A temporary directory that is not one is an error before anything is
/// printed: exit 2, a message naming it, no output and no summary.
#[test]
fn memory_without_a_usable_temp_dir_is_an_error() {
    let dir = TempDir::new("dedup-no-tmp");
    let not_a_dir = dir.file("file", b"");
    let missing = dir.0.join("missing").to_string_lossy().into_owned();
    for tmp in [&missing, &not_a_dir] {
        let o = run(
            &["dedup", "--memory", "64K", "--temp-dir", tmp, &corpus()],
            b"",
        );
        assert_eq!(code(&o), 2, "{tmp}");
        assert!(
            stderr(&o).contains(&format!("temporary file in {tmp}")),
            "{}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("unique"));
        assert_eq!(stdout(&o), "");
    }
    // Sizes below 64K are refused.
    let o = run(&["dedup", "--memory", "10K", &corpus()], b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("least memory"));
}

/// A full disk (a 64 KiB tmpfs, where this test may mount one: as root on
/// Linux) is an error: exit 2, the reason, no summary, not all the output,
/// and nothing left behind. Skipped where mounting is impossible.
#[test]
fn memory_on_a_full_disk_is_an_error() {
    let dir = TempDir::new("dedup-full");
    let mnt = dir.0.join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&mnt)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipped: cannot mount a tmpfs here");
        return;
    }
    let file = dir.file("in.txt", &numbered(0..100_000, 0));
    let m = mnt.to_string_lossy().into_owned();
    let o = run(&["dedup", "--memory", "64K", "--temp-dir", &m, &file], b"");
    let left = left_in(&mnt);
    let _ = std::process::Command::new("umount").arg(&mnt).status();
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains(&format!("temporary file in {m}: No space left on device")),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("unique"));
    assert!(stdout(&o).lines().count() < 100_000);
    assert_eq!(left, Vec::<String>::new());
}

/// Under a limit on virtual memory, every mode either finishes or ends with
/// a clean error (status 2, a message): never an abort on a failed
/// allocation (`--count` and `--hash --count` grew plain `Vec`s, which
/// abort).
#[test]
fn a_memory_limit_is_a_clean_error() {
    if std::env::var("URISCAN_TEST_RUNNER").is_ok_and(|r| !r.trim().is_empty()) {
        return; // An emulator's address space is not the program's.
    }
    let dir = TempDir::new("dedup-ulimit");
    let file = dir.file("in.txt", &numbered(0..1_000_000, 0));
    let exe = env!("CARGO_BIN_EXE_uriscan");
    let mut failed = 0;
    for kib in [60_000, 80_000, 100_000, 120_000] {
        for mode in ["", "--count", "--hash --count"] {
            let o = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!(
                    "ulimit -v {kib} && exec {exe} dedup -j1 --no-progress {mode} {file} >/dev/null"
                ))
                .output()
                .unwrap();
            let err = stderr(&o);
            match o.status.code() {
                Some(0) => assert!(err.contains("1000000 unique"), "{err}"),
                Some(2) => {
                    assert!(
                        err.starts_with("uriscan: "),
                        "ulimit -v {kib} {mode}: {err}"
                    );
                    assert!(!err.contains("unique"));
                    failed += 1;
                }
                _ => panic!("ulimit -v {kib} dedup {mode}: {:?}\n{err}", o.status),
            }
        }
    }
    // The smallest limits are too small for a million keys.
    assert!(failed > 0);
}

/// `dedup FILE | head -1`: the first failed write ends the run: success,
/// no summary (its counts would be false), and the invalid lines of only
/// the few chunks read before, not of the whole input.
#[test]
fn closed_stdout_stops_dedup_and_says_nothing_false() {
    let dir = TempDir::new("dedup-head");
    let file = dir.file("in.txt", &numbered(0..400_000, 1000));
    for extra in [&["-j2"][..], &["-j1"], &["-j2", "--memory", "1M"]] {
        let mut child = bin()
            .args(["dedup", "--no-progress", "--chunk-size", "64K", &file])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (first, err, status) = super::read_then_close(&mut child, 22);
        assert_eq!(first, b"http://example.com/p/0");
        assert!(status.success(), "{extra:?}: {status:?} {err}");
        assert!(!err.contains("unique"), "{extra:?}: {err}");
        let reports = err.lines().filter(|l| l.contains("invalid")).count();
        assert!(
            reports < 100,
            "{extra:?}: {reports} of 400 invalid lines reported"
        );
    }
}

/// Interrupted (Ctrl-C's SIGINT) or killed while its temporary files are
/// open, `dedup --memory` leaves nothing behind: each file is unlinked as
/// soon as it is made, so the directory is empty even while they are in
/// use (the process holds them as "(deleted)").
#[cfg(target_os = "linux")]
#[test]
fn interrupted_memory_run_leaves_no_temporary_file() {
    use std::io::Write;
    // A shell starts a background job with SIGINT ignored, and the child
    // inherits that: `kill -INT` would then stop nothing, and the run
    // would wait on its open stdin for ever. The INT case needs SIGINT
    // to be delivered (`SigIgn` bit 1 clear).
    let int_ignored = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let mask = s.lines().find_map(|l| l.strip_prefix("SigIgn:"))?;
            u64::from_str_radix(mask.trim(), 16).ok()
        })
        .is_some_and(|mask| mask & 0b10 != 0);
    if int_ignored {
        eprintln!("SIGINT is ignored in this process: testing KILL only");
    }
    let signals: &[&str] = if int_ignored {
        &["KILL"]
    } else {
        &["INT", "KILL"]
    };
    for &signal in signals {
        let dir = TempDir::new(&format!("dedup-interrupt-{signal}"));
        let tmp = dir.0.to_string_lossy().into_owned();
        let mut child = bin()
            .args(["dedup", "--no-progress", "-j1", "--chunk-size", "64K"])
            .args(["--memory", "64K", "--temp-dir", &tmp])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // Enough distinct keys to spill, each 64K chunk taken as it comes
        // (-j1); stdin stays open, so it waits for more.
        stdin.write_all(&numbered(0..100_000, 0)).unwrap();
        stdin.flush().unwrap();
        let fds = format!("/proc/{}/fd", child.id());
        let spilling = || {
            std::fs::read_dir(&fds).unwrap().any(|fd| {
                std::fs::read_link(fd.unwrap().path())
                    .is_ok_and(|t| t.to_string_lossy().starts_with(&format!("{tmp}/.uriscan-")))
            })
        };
        // Bounded: the input above takes well under a second to spill.
        let mut tries = 0;
        while !spilling() {
            tries += 1;
            assert!(tries < 3000, "no temporary file opened");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(left_in(&dir.0), Vec::<String>::new());
        let killed = std::process::Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        assert!(!status.success(), "{signal}: {status:?}");
        drop(stdin);
        assert_eq!(left_in(&dir.0), Vec::<String>::new(), "{signal}");
    }
}

/// The summary accounts for every line: unique, duplicate, or invalid and
/// left out; passed or keyed, the invalid lines are among the first two,
/// and it says so.
#[test]
fn summary_adds_up_for_every_invalid_policy() {
    let input = b"http://a/\nHTTP://A/\nhttp://b/\nhttp://a/#x\nbad line\nbad line\nhttp://b/\n";
    for (args, among) in [
        (&["--invalid", "report"][..], false),
        (&["--invalid", "skip"], false),
        (&["--invalid", "pass"], true),
        (&["--invalid", "key", "--profile", "surt"], true),
    ] {
        let o = run(&[&["dedup"][..], args].concat(), input);
        assert_eq!(code(&o), 0, "{args:?}");
        let err = stderr(&o);
        let summary = err.lines().last().unwrap();
        let n: Vec<u64> = summary
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect();
        let [lines, unique, duplicates, invalid] = n[..] else {
            panic!("{summary}")
        };
        assert_eq!((lines, invalid), (7, 2), "{summary}");
        assert_eq!(unique, stdout(&o).lines().count() as u64, "{summary}");
        let left_out = if among { 0 } else { invalid };
        assert_eq!(lines, unique + duplicates + left_out, "{args:?}: {summary}");
        assert_eq!(summary.ends_with("among them)"), among, "{summary}");
    }
}
