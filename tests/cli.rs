//! The command-line contract, run against the built binary.

/// The conventions shared by every subcommand: `--output`, `--generate`,
/// the format options, unreadable inputs, plurals.
mod conventions;
/// `dedup --memory`, memory limits, a closed output.
mod dedup;
/// The README's and docs/CLI.md's console examples, run as printed.
mod doc_examples;
mod extract_text;
mod iri;
/// `extract --log` on the sample logs of tests/data/logs.
mod logs;
/// Hostile inputs and outputs: long lines, closed and full outputs, shrinking files.
mod reliability;
mod surt;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Output, Stdio};

/// The built binary; under `URISCAN_TEST_RUNNER` (say `qemu-aarch64 -L /`,
/// for a cross build) run through it.
fn bin() -> Command {
    let exe = env!("CARGO_BIN_EXE_uriscan");
    match std::env::var("URISCAN_TEST_RUNNER") {
        Ok(runner) if !runner.trim().is_empty() => {
            let mut parts = runner.split_whitespace();
            let mut c = Command::new(parts.next().unwrap());
            c.args(parts).arg(exe);
            c
        }
        _ => Command::new(exe),
    }
}

/// Runs uriscan with `args` and `stdin`; returns its output.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .arg("--no-progress")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("uriscan runs");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A temporary directory removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("uriscan-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    fn file(&self, name: &str, data: &[u8]) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, data).unwrap();
        p.to_string_lossy().into_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn corpus() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/sample.txt").to_string()
}

#[test]
fn check_all_valid_exits_0() {
    let o = run(
        &["check"],
        b"http://example.com/\n/relative\n\nmailto:a@b\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o).trim(), "4 lines, 4 valid, 0 invalid");
}

#[test]
fn check_reports_file_line_column() {
    let o = run(
        &["check"],
        b"http://ok/\nhttp://example.com/a b\n%zz\r\nhttp://[::1::]/",
    );
    assert_eq!(code(&o), 1);
    assert_eq!(
        stdout(&o),
        "-:2:21: invalid character ' ' in path\n\
         -:3:1: '%' not followed by two hex digits in path\n\
         -:4:12: IPv6 address has more than one '::'\n"
    );
    assert_eq!(stderr(&o).trim(), "4 lines, 1 valid, 3 invalid");
}

#[test]
fn check_modes() {
    let input = b"http://a/#f\n/rel\n";
    let o = run(&["check", "--mode", "reference"], input);
    assert_eq!(code(&o), 0);
    let o = run(&["check", "--mode", "uri"], input);
    assert_eq!(code(&o), 1);
    assert_eq!(
        stdout(&o),
        "-:2:1: missing scheme: a relative reference, not a URI\n"
    );
    let o = run(&["check", "--mode", "absolute"], input);
    assert_eq!(
        stdout(&o),
        "-:1:10: an absolute URI may not have a fragment\n-:2:1: missing scheme: a relative reference, not a URI\n"
    );
    let o = run(&["check", "--mode", "bogus"], input);
    assert_eq!(code(&o), 2);
}

#[test]
fn missing_file_and_directory_exit_2() {
    let dir = TempDir::new("missing");
    let good = dir.file("good.txt", b"http://a/\n");
    let missing = dir.0.join("nope.txt").to_string_lossy().into_owned();
    let o = run(&["check", &missing], b"");
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("nope.txt: No such file"),
        "{}",
        stderr(&o)
    );
    let d = dir.0.to_string_lossy().into_owned();
    let o = run(&["check", &d, &good], b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
    // The counts are partial: no summary after the error.
    assert!(!stderr(&o).contains("valid"), "{}", stderr(&o));
    // An I/O error wins over invalid lines.
    let bad = dir.file("bad.txt", b"a b\n");
    let o = run(&["check", &bad, &missing], b"");
    assert_eq!(code(&o), 2);
    assert!(stdout(&o).contains("bad.txt:1:2: invalid character ' ' in path"));
    let o = run(&["split", &missing], b"");
    assert_eq!(code(&o), 2);
}

#[test]
fn usage_error_exits_2() {
    assert_eq!(code(&run(&["frobnicate"], b"")), 2);
    assert_eq!(code(&run(&["check", "--chunk-size", "0"], b"")), 2);
    assert_eq!(code(&run(&["check", "--threads", "x"], b"")), 2);
    // Bounds: no thread pool of zero or thousands of threads, no chunk
    // buffer of the machine's memory.
    for args in [
        &["check", "-j0"][..],
        &["check", "-j", "1025"],
        &["check", "--chunk-size", "64G"],
        &["check", "--chunk-size", "2G"],
    ] {
        let o = run(args, b"http://a/\n");
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(
            stderr(&o).contains("invalid value"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    assert_eq!(
        code(&run(
            &["check", "-j", "1024", "--chunk-size", "1G"],
            b"http://a/\n"
        )),
        0
    );
}

/// A report that cannot be written to standard error (a full device) is an
/// I/O error, exit 2, not a panic (101) or a success.
#[test]
fn failed_write_to_stderr_exits_2() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    for (args, input) in [
        (&["check", "-q"][..], &b"http://a/\nbad uri\n"[..]),
        (&["check", "-q", "--stats"], b"http://a/\n"),
        (&["normalize"], b"bad uri\n"),
    ] {
        let mut child = bin()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(full())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn empty_input() {
    let o = run(&["check"], b"");
    assert_eq!(code(&o), 0);
    assert_eq!(stderr(&o).trim(), "0 lines, 0 valid, 0 invalid");
    let o = run(&["split"], b"");
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "");
    // A lone LF is one empty line, which is a valid relative reference.
    let o = run(&["check"], b"\n");
    assert_eq!(stderr(&o).trim(), "1 line, 1 valid, 0 invalid");
}

#[test]
fn split_json_contract() {
    let o = run(
        &["split"],
        b"http://u@[::1]:8080/p?q#f\r\n\n/a b?\nhttp://h:x/\n\xffa\"\\\x00",
    );
    assert_eq!(code(&o), 0);
    let expected = [
        r#"{"line":1,"valid":true,"kind":"uri","scheme":"http","authority":"u@[::1]:8080","userinfo":"u","host":"[::1]","port":"8080","path":"/p","query":"q","fragment":"f","error":null}"#,
        r#"{"line":2,"valid":true,"kind":"relative","scheme":null,"authority":null,"userinfo":null,"host":null,"port":null,"path":"","query":null,"fragment":null,"error":null}"#,
        r#"{"line":3,"valid":false,"kind":"relative","scheme":null,"authority":null,"userinfo":null,"host":null,"port":null,"path":"/a b","query":"","fragment":null,"error":{"offset":2,"component":"path","message":"invalid character ' ' in path"}}"#,
        r#"{"line":4,"valid":false,"kind":"uri","scheme":"http","authority":"h:x","userinfo":null,"host":null,"port":null,"path":"/","query":null,"fragment":null,"error":{"offset":9,"component":"port","message":"port is not a number"}}"#,
        "{\"line\":5,\"valid\":false,\"kind\":\"relative\",\"scheme\":null,\"authority\":null,\"userinfo\":null,\"host\":null,\"port\":null,\"path\":\"\u{FFFD}a\\\"\\\\\\u0000\",\"query\":null,\"fragment\":null,\"error\":{\"offset\":0,\"component\":\"path\",\"message\":\"invalid byte 0xFF in path\"}}",
    ];
    let out = stdout(&o);
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got, expected);
}

#[test]
fn split_tsv_contract() {
    let o = run(&["split", "--format", "tsv"], b"s://h/p?\n\tx\n");
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        "line\tvalid\tkind\tscheme\tauthority\tuserinfo\thost\tport\tpath\tquery\tfragment\terror_offset\terror_component\terror_message\n\
         1\ttrue\turi\ts\th\t\\N\th\t\\N\t/p\t\t\\N\t\\N\t\\N\t\\N\n\
         2\tfalse\trelative\t\\N\t\\N\t\\N\t\\N\t\\N\t\\tx\t\\N\t\\N\t0\tpath\tinvalid byte 0x09 in path\n"
    );
}

#[test]
fn split_mode_decides_valid() {
    let o = run(&["split", "--mode", "uri"], b"/x\n");
    assert!(stdout(&o).contains("\"valid\":false"));
    assert!(stdout(&o).contains("\"component\":\"scheme\""));
}

#[test]
fn crlf_and_missing_final_lf() {
    let o = run(&["check"], b"http://a/\r\nhttp://b/\r\n/c");
    assert_eq!(code(&o), 0);
    assert_eq!(stderr(&o).trim(), "3 lines, 3 valid, 0 invalid");
    // Only one CR is dropped; a second is an invalid byte.
    let o = run(&["check"], b"/a\r\r\n");
    assert_eq!(stdout(&o), "-:1:3: invalid byte 0x0D in path\n");
}

#[test]
fn nul_and_non_utf8_bytes() {
    let o = run(&["check"], b"/a\x00b\n/\xc3\xa9\n/\xff\xfe\n");
    assert_eq!(code(&o), 1);
    assert_eq!(
        stdout(&o),
        "-:1:3: invalid byte 0x00 in path\n-:2:2: invalid byte 0xC3 in path\n-:3:2: invalid byte 0xFF in path\n"
    );
}

#[test]
fn huge_lines() {
    // A 100 MB line, valid, then one with an error at its very end.
    let mut input = b"http://example.com/".to_vec();
    input.extend(std::iter::repeat_n(b'a', 100 << 20));
    let len = input.len();
    input.extend_from_slice(b"\n");
    input.extend_from_within(..len);
    input.extend_from_slice(b" \nhttp://short/\n");
    let o = run(&["check", "--chunk-size", "1M", "-j", "2"], &input);
    assert_eq!(code(&o), 1);
    assert_eq!(
        stdout(&o),
        format!("-:2:{}: invalid character ' ' in path\n", len + 1)
    );
    assert_eq!(stderr(&o).trim(), "3 lines, 2 valid, 1 invalid");
    // dedup keeps a key longer than an arena block (64 MiB) in a block of
    // its own, exact and by digest.
    let line = &input[..len + 1];
    let twice = [line, line, b"http://short/\n"].concat();
    for mode in ["--count", "--hash"] {
        let o = run(&["dedup", mode, "--chunk-size", "1M"], &twice);
        assert_eq!(code(&o), 0, "{mode}");
        let expected = if mode == "--count" {
            [b"2\t", line, b"1\thttp://short/\n"].concat()
        } else {
            [line, b"http://short/\n"].concat()
        };
        assert!(o.stdout == expected, "{mode}");
    }
}

#[test]
fn many_files_restart_line_numbers() {
    let dir = TempDir::new("many");
    let a = dir.file("a.txt", b"ok\nbad one\n");
    let b = dir.file("b.txt", b"bad two\nok");
    let o = run(&["check", &a, "-", &b], b"x y\n");
    assert_eq!(code(&o), 1);
    assert_eq!(
        stdout(&o),
        format!("{a}:2:4: invalid character ' ' in path\n-:1:2: invalid character ' ' in path\n{b}:1:4: invalid character ' ' in path\n")
    );
    assert_eq!(stderr(&o).trim(), "5 lines, 2 valid, 3 invalid");
}

#[test]
fn threads_and_chunk_sizes_give_identical_output() {
    let c = corpus();
    let reference = run(&["split", "-j1", &c], b"");
    assert_eq!(code(&reference), 0);
    assert_eq!(stdout(&reference).lines().count(), 5000);
    for args in [
        ["-j2", "--chunk-size", "2M"],
        ["-j2", "--chunk-size", "1K"],
        ["-j3", "--chunk-size", "100"],
        ["-j1", "--chunk-size", "7"],
    ] {
        let mut a = vec!["split"];
        a.extend_from_slice(&args);
        a.push(&c);
        let o = run(&a, b"");
        assert!(
            o.stdout == reference.stdout,
            "split {args:?} differs from -j1"
        );
        let mut a = vec!["check"];
        a.extend_from_slice(&args);
        a.push(&c);
        let o = run(&a, b"");
        let r = run(&["check", "-j1", &c], b"");
        assert_eq!(o.stdout, r.stdout, "check {args:?}");
        assert_eq!(o.stderr, r.stderr, "check {args:?}");
    }
}

#[test]
fn forced_backend_that_is_not_used_is_said() {
    let used = stdout(&run(&["--version"], b""));
    // A backend of the other architecture: never available here.
    let foreign = if cfg!(target_arch = "x86_64") {
        "neon"
    } else {
        "avx2"
    };
    // uriscan with `args` and URISCAN_BACKEND set to `name`, no input.
    let forced = |args: &[&str], name: &str| {
        bin()
            .args(args)
            .env("URISCAN_BACKEND", name)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    for (name, why) in [
        (foreign, "this CPU cannot run it"),
        ("avx3", "no such backend"),
    ] {
        let o = forced(&["check", "--no-progress"], name);
        assert_eq!(code(&o), 0);
        let err = stderr(&o);
        assert!(
            err.starts_with(&format!("uriscan: warning: URISCAN_BACKEND={name}: {why}")),
            "{err}"
        );
        // The backend it falls back to is the detected one.
        let v = forced(&["--version"], name);
        let detected = bin()
            .arg("--version")
            .env_remove("URISCAN_BACKEND")
            .output()
            .unwrap();
        assert_eq!(v.stdout, detected.stdout);
    }
    // The backend in use, forced by name, is no cause for a warning.
    let in_use = used
        .lines()
        .find_map(|l| l.strip_prefix("backend: "))
        .and_then(|l| l.split(' ').next())
        .unwrap();
    let o = forced(&["check", "--no-progress"], in_use);
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
}

#[test]
fn stats_account_for_every_line() {
    let c = corpus();
    let o = run(&["stats", "--format", "json", &c], b"");
    assert_eq!(code(&o), 0);
    let s = stdout(&o);
    let field = |name: &str| -> u64 {
        let i = s.find(&format!("\"{name}\":")).unwrap() + name.len() + 3;
        s[i..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert_eq!(field("lines"), 5000);
    assert_eq!(field("valid") + field("invalid"), 5000);
    assert!(field("invalid") > 0);
    assert_eq!(field("bytes"), std::fs::metadata(&c).unwrap().len());
    // check --stats prints the same counts to stderr and nothing extra to stdout.
    let o = run(&["check", "-q", "--stats", &c], b"");
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("lines       5000"));
}

#[test]
fn closed_stdout_is_not_an_error() {
    closed_stdout(&["split"], false);
    // Subcommands that write in input order, after the chunks.
    closed_stdout(&["dedup", "-j2"], true);
    closed_stdout(&["extract", "-u"], true);
}

/// Runs uriscan `args` on much input (`distinct`: no line twice), closing
/// its standard output after 100 bytes: it must end quietly, with success.
fn closed_stdout(args: &[&str], distinct: bool) {
    let mut child = bin()
        .args(args)
        .args(["--no-progress", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for i in 0..50 {
            let lines: Vec<u8> = (0..10_000)
                .flat_map(|j| {
                    let n = if distinct { i * 10_000 + j } else { 0 };
                    format!("http://example.com/some/path?query#fragment{n}\n").into_bytes()
                })
                .collect();
            if stdin.write_all(&lines).is_err() {
                return false;
            }
        }
        true
    });
    let (_, err, status) = read_then_close(&mut child, 100);
    let read_all = writer.join().unwrap();
    assert!(!read_all, "{args:?} went on reading");
    assert!(
        status.success(),
        "{args:?}: status {status:?}, stderr {err}"
    );
    assert_eq!(err, "", "{args:?}");
}

#[test]
fn progress_when_forced() {
    let o = bin()
        .args(["check", "--progress", &corpus()])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("5000 lines"));
}

#[test]
fn version_and_help() {
    let o = bin().arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("uriscan "));
    let o = bin().args(["check", "--help"]).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("--mode"));
}

#[test]
fn normalize_text_json_tsv() {
    let input = b"HTTP://Example.COM:80/a/./b/../c?b=2&a=1#top\nhttp://x/ y\nfoo:a/../b\n";
    let o = run(&["normalize"], input);
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "http://example.com/a/c?b=2&a=1#top\nfoo:b\n");
    assert!(stderr(&o).contains("-:2:10: invalid character ' ' in path"));
    assert!(stderr(&o).contains("3 lines, 2 valid, 1 invalid"));
    let o = run(&["normalize", "--strict"], input);
    assert_eq!(code(&o), 1);
    let o = run(
        &["normalize", "--invalid", "pass", "--profile", "web"],
        input,
    );
    assert_eq!(
        stdout(&o),
        "http://example.com:80/a/c?a=1&b=2\nhttp://x/ y\nfoo:a/../b\n"
    );
    assert_eq!(stderr(&o), "");
    let o = run(
        &["normalize", "--invalid", "skip", "--format", "tsv"],
        input,
    );
    assert_eq!(
        stdout(&o),
        "http://example.com/a/c?b=2&a=1#top\tHTTP://Example.COM:80/a/./b/../c?b=2&a=1#top\nfoo:b\tfoo:a/../b\n"
    );
    assert_eq!(stderr(&o), "");
    let o = run(
        &["normalize", "--format", "json", "--profile", "surt"],
        input,
    );
    assert_eq!(
        stdout(&o),
        "{\"line\":1,\"valid\":true,\"normalized\":\"com,example)/a/c?a=1&b=2\",\"error\":null}\n\
         {\"line\":2,\"valid\":false,\"normalized\":null,\"error\":{\"offset\":9,\"component\":\"path\",\"message\":\"invalid character ' ' in path\"}}\n\
         {\"line\":3,\"valid\":true,\"normalized\":\"foo:a/../b\",\"error\":null}\n"
    );
    let o = run(
        &[
            "normalize",
            "--drop-params",
            "utm_*,fbclid",
            "--strip-fragment",
            "--sort-query",
            "--strip-www",
        ],
        b"http://www.e.com/?utm_a=1&z=2&fbclid=3&a=4#f\n",
    );
    assert_eq!(stdout(&o), "http://e.com/?a=4&z=2\n");
}

/// `normalize` in plain text copies runs of already normal lines whole:
/// its output is still, line by line, what the library's `Normalizer`
/// makes of each line (normal or not, valid or not, LF or CRLF, the last
/// line with no LF), whatever the chunk size.
#[test]
fn normalize_writes_each_line_as_the_library_does() {
    use uriscan::{parse, Mode, Normalizer, Profile};
    const PIECES: [&str; 12] = [
        "http://a.example/b?q#f",
        "https://b/c/d",
        "HTTP://A/b",
        "http://a:80/x",
        "http://a/./b/../c",
        "s:%7euser",
        "/rel/path",
        "http://x/ y",
        "",
        "mailto:a@b",
        "http://a/%2f%41",
        "http://a/b?z=1&a=2",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..6 {
        let mut input = Vec::new();
        for _ in 0..200 + next(200) {
            input.extend_from_slice(PIECES[next(PIECES.len())].as_bytes());
            input.extend_from_slice(if next(8) == 0 { b"\r\n" } else { b"\n" });
        }
        if round % 2 == 1 {
            input.extend_from_slice(b"http://last/no-lf");
        }
        for (profile, name) in [(Profile::Rfc3986, "rfc3986"), (Profile::Web, "web")] {
            let n = Normalizer::new(profile);
            for invalid in ["pass", "skip"] {
                let mut want = Vec::new();
                for line in input.split_inclusive(|&b| b == b'\n') {
                    let line = line.strip_suffix(b"\n").unwrap_or(line);
                    let line = line.strip_suffix(b"\r").unwrap_or(line);
                    match parse(line, Mode::Reference) {
                        Ok(uri) => n.normalize(&uri, &mut want),
                        Err(_) if invalid == "pass" => want.extend_from_slice(line),
                        Err(_) => continue,
                    }
                    want.push(b'\n');
                }
                for chunk in ["64", "1K", "1M"] {
                    let args = [
                        "normalize",
                        "-j2",
                        "--profile",
                        name,
                        "--invalid",
                        invalid,
                        "--chunk-size",
                        chunk,
                    ];
                    let o = run(&args, &input);
                    assert_eq!(code(&o), 0, "{args:?}");
                    assert!(o.stdout == want, "{args:?} round {round}");
                }
            }
        }
    }
}

#[test]
fn normalize_is_idempotent_on_the_corpus() {
    let c = corpus();
    let once = run(&["normalize", "--invalid", "skip", &c], b"");
    assert_eq!(code(&once), 0);
    let twice = run(&["normalize", "-"], &once.stdout);
    assert_eq!(code(&twice), 0);
    assert_eq!(stderr(&twice), "");
    assert!(once.stdout == twice.stdout);
    assert_eq!(stdout(&once).lines().count(), 4846);
}

#[test]
fn resolve_against_base() {
    let o = run(
        &["resolve", "--base", "http://a/b/c/d;p?q#ignored"],
        b"g\n../g\n?y\nhttp:g\n//g\n#s\na b\n",
    );
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        "http://a/b/c/g\nhttp://a/b/g\nhttp://a/b/c/d;p?y\nhttp:g\nhttp://g\nhttp://a/b/c/d;p?q#s\n"
    );
    assert!(stderr(&o).contains("-:7:2: invalid character ' ' in path"));
    let o = run(
        &["resolve", "--base", "http://a/b/c/d;p?q", "--non-strict"],
        b"http:g\nHTTP:g\nHttp:g\nHTTPS:g\n",
    );
    // Schemes compare case-insensitively (RFC 3986 3.1, 5.2.2).
    assert_eq!(
        stdout(&o),
        "http://a/b/c/g\nhttp://a/b/c/g\nhttp://a/b/c/g\nHTTPS:g\n"
    );
    let o = run(
        &["resolve", "--base", "http://a/b", "--format", "json"],
        b"c\n",
    );
    assert_eq!(
        stdout(&o),
        "{\"line\":1,\"valid\":true,\"target\":\"http://a/c\",\"error\":null}\n"
    );
    for bad_base in ["relative/path", "http://a b/", ""] {
        let o = run(&["resolve", "--base", bad_base], b"g\n");
        assert_eq!(code(&o), 2, "{bad_base}");
        assert!(stderr(&o).contains("is not a URI"));
    }
}

#[test]
fn dedup_keeps_first_of_each_key() {
    let input = b"http://a/\nHTTP://A:80/\nhttp://b/\nhttp://a/#x\nbad uri\nhttp://b\nbad uri\n";
    let o = run(&["dedup"], input);
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "http://a/\nhttp://b/\nhttp://a/#x\n");
    assert!(stderr(&o).contains("7 lines, 3 unique, 2 duplicates, 2 invalid"));
    let o = run(&["dedup", "--profile", "web", "--print", "key"], input);
    // w3lib keeps the default port.
    assert_eq!(stdout(&o), "http://a/\nhttp://a:80/\nhttp://b/\n");
    let o = run(
        &["dedup", "--invalid", "pass", "-j2", "--chunk-size", "10"],
        input,
    );
    assert_eq!(stdout(&o), "http://a/\nhttp://b/\nhttp://a/#x\nbad uri\n");
    // Every line is accounted for.
    let c = corpus();
    let o = run(&["dedup", "--invalid", "skip", &c], b"");
    let err = stderr(&o);
    let nums: Vec<u64> = err
        .split(|ch: char| !ch.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(nums[0], 5000);
    assert_eq!(nums[1] + nums[2] + nums[3], 5000);
    assert_eq!(stdout(&o).lines().count() as u64, nums[1]);
}

#[test]
fn dedup_count_and_hash_modes() {
    let input = b"http://a/\nHTTP://A:80/\nhttp://b/\nhttp://a/#x\nbad uri\nhttp://b\n";
    let o = run(&["dedup", "--count"], input);
    assert_eq!(stdout(&o), "2\thttp://a/\n2\thttp://b/\n1\thttp://a/#x\n");
    let o = run(
        &[
            "dedup",
            "--hash",
            "--count",
            "--print",
            "key",
            "--invalid",
            "pass",
        ],
        input,
    );
    assert_eq!(
        stdout(&o),
        "2\thttp://a/\n2\thttp://b/\n1\thttp://a/#x\n1\tbad uri\n"
    );
    // Exact and digest modes agree on the corpus, whatever the threads.
    let c = corpus();
    let exact = run(&["dedup", "--profile", "web", "-j1", &c], b"");
    let hashed = run(
        &[
            "dedup",
            "--profile",
            "web",
            "--hash",
            "-j2",
            "--chunk-size",
            "4K",
            &c,
        ],
        b"",
    );
    assert!(exact.stdout == hashed.stdout);
    assert!(!exact.stdout.is_empty());
    // The keys are the normalized lines, each at its first occurrence: the
    // corpus twice over, so that every key repeats and the table grows.
    let twice = [std::fs::read(&c).unwrap(), std::fs::read(&c).unwrap()].concat();
    let normalized = stdout(&run(&["normalize", "--invalid", "skip"], &twice));
    let mut seen = std::collections::HashSet::new();
    let expected: String = normalized
        .lines()
        .filter(|l| seen.insert(*l))
        .map(|l| format!("{l}\n"))
        .collect();
    for mode in ["--count", "--hash"] {
        let o = run(
            &["dedup", "--print", "key", "--invalid", "skip", mode],
            &twice,
        );
        let keys = stdout(&o);
        let keys = if mode == "--count" {
            let counts: Vec<&str> = keys
                .lines()
                .map(|l| l.split('\t').next().unwrap())
                .collect();
            assert!(
                counts.iter().all(|&n| n.parse::<u32>().unwrap() % 2 == 0),
                "{mode}"
            );
            keys.lines()
                .map(|l| format!("{}\n", l.split_once('\t').unwrap().1))
                .collect()
        } else {
            keys
        };
        assert_eq!(keys, expected, "{mode}");
        assert!(seen.len() > 4000);
    }
}

#[test]
fn extract_free_text() {
    let text = b"See <URL:http://example.com/a b> and (http://en.wikipedia.org/wiki/Foo_(bar)). Also http://x.org/path, and https://y.com/q?a=1!\n\
Markdown [text](https://md.example/page) and <a href=\"http://html.example/x?y=1\">x</a> mailto:me@example.com\n\
JSON {\"u\":\"http:\\/\\/json.example\\/a\\/b\"} `http://code.example/` http://bad.example/%zz urn:isbn:123 not:a-uri\n\
http://x.org/path";
    let o = run(&["extract"], text);
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        "http://example.com/ab\nhttp://en.wikipedia.org/wiki/Foo_(bar)\nhttp://x.org/path\nhttps://y.com/q?a=1\n\
         https://md.example/page\nhttp://html.example/x?y=1\nmailto:me@example.com\n\
         http://json.example/a/b\nhttp://code.example/\nurn:isbn:123\nhttp://x.org/path\n"
    );
    assert!(stderr(&o).contains("4 lines, 12 URIs found, 1 invalid"));
    let o = run(
        &[
            "extract",
            "-n",
            "--byte-offset",
            "--all",
            "-u",
            "--scheme",
            "HTTP",
        ],
        text,
    );
    assert_eq!(
        stdout(&o),
        "1:9:http://example.com/ab\n1:38:http://en.wikipedia.org/wiki/Foo_(bar)\n1:84:http://x.org/path\n\
         2:54:http://html.example/x?y=1\n3:11:http://json.example/a/b\n3:42:http://code.example/\n\
         3:64:http://bad.example/%zz\tinvalid: '%' not followed by two hex digits in path\n"
    );
    let o = run(&["extract", "--format", "json"], b"x http://a.example/ y\n");
    assert_eq!(
        stdout(&o),
        "{\"line\":1,\"column\":3,\"uri\":\"http://a.example/\",\"valid\":true}\n"
    );
    // A bracketed URI across lines (Appendix C), at its line and column.
    let o = run(
        &["extract", "-n", "--byte-offset"],
        b"line one\nsee <http://www.ietf.org/rfc/\n  rfc2396.txt> and http://b.example/\n",
    );
    assert_eq!(
        stdout(&o),
        "2:5:http://www.ietf.org/rfc/rfc2396.txt\n3:19:http://b.example/\n"
    );
    assert!(
        stderr(&o).contains("3 lines, 2 URIs found"),
        "{}",
        stderr(&o)
    );
    // Schemeless domains only when asked, with `http://` in front.
    let text = b"docs at example.com/guide, www.example.rs or https://a.example/x; not main.rs\n";
    let o = run(&["extract", "--schemeless", "--byte-offset"], text);
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        "8:http://example.com/guide\n27:http://www.example.rs\n45:https://a.example/x\n"
    );
    assert_eq!(stdout(&run(&["extract"], text)), "https://a.example/x\n");
    let o = run(&["extract", "--schemeless", "--log", "common"], text);
    assert_eq!(code(&o), 2, "--schemeless is for free text");
}

#[test]
fn extract_access_logs() {
    let log = b"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /a%20b?x=1 HTTP/1.0\" 200 2326 \"http://example.com/\\x41\" \"Mozilla\"\n\
garbage line\n\
5.6.7.8 - - [10/Oct/2000:13:55:37 -0700] \"GET http://abs.example/p HTTP/1.1\" 404 0 \"-\" \"curl\"\n";
    let o = run(
        &["extract", "--log", "combined", "--host", "example.org"],
        log,
    );
    assert_eq!(
        stdout(&o),
        "http://example.org/a%20b?x=1\nhttp://example.com/A\nhttp://abs.example/p\n"
    );
    assert!(stderr(&o).contains("-:2: not a line of the combined format"));
    assert!(stderr(&o).contains("1 line not in the log format"));
    // A combined line starts with a common one: its target, no Referer.
    let o = run(
        &["extract", "--log", "common"],
        &log[..log.iter().position(|&b| b == b'\n').unwrap()],
    );
    assert_eq!(stdout(&o), "/a%20b?x=1\n");
    let o = run(
        &["extract", "--log", "nginx"],
        b"1.2.3.4 - - [date] \"GET /x\" 200\n",
    );
    assert!(stderr(&o).contains("-:1: not a line of the combined format"));
    let common =
        b"1.2.3.4 - frank [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif HTTP/1.0\" 200 2326\n";
    let o = run(
        &[
            "extract",
            "--log",
            "common",
            "--base",
            "https://h.example/dir/",
        ],
        common,
    );
    assert_eq!(stdout(&o), "https://h.example/apache_pb.gif\n");
    // CONNECT's authority-form target: its authority, resolved against the
    // base like any network-path reference.
    let connect =
        b"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"CONNECT [::1]:8443 HTTP/1.1\" 200 0\n";
    let o = run(&["extract", "--log", "common"], connect);
    assert_eq!(stdout(&o), "//[::1]:8443\n");
    let o = run(
        &["extract", "--log", "common", "--base", "https://h/"],
        connect,
    );
    assert_eq!(stdout(&o), "https://[::1]:8443\n");
}

/// A rootless path stays rootless when removing its dot segments leaves its
/// first segment empty: written behind `./`, not made absolute.
#[test]
fn normalize_keeps_a_rootless_path_rootless() {
    let o = run(&["normalize"], b"s:.//a\ns:a/..//b\ns:./a\nfoo:/a/..//x\n");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "s:.//a\ns:.//b\ns:a\nfoo:/.//x\n");
}

/// Reads `n` bytes of `child`'s standard output, closes it (as `| head -c
/// N` would), then reads all its standard error and waits for it.
fn read_then_close(child: &mut Child, n: usize) -> (Vec<u8>, String, ExitStatus) {
    let mut out = child.stdout.take().unwrap();
    let mut first = vec![0u8; n];
    out.read_exact(&mut first).unwrap();
    drop(out);
    let (err, status) = stderr_and_status(child);
    (first, err, status)
}

/// All of `child`'s standard error, then its exit status.
fn stderr_and_status(child: &mut Child) -> (String, ExitStatus) {
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (err, child.wait().unwrap())
}
