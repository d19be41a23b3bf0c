//! `extract --log` on the sample logs of `tests/data/logs/` (written in each
//! format's real shape, with edge cases): what it prints (the `.expected`
//! files, reviewed by hand), the lines it reports, the counts of its summary
//! and its exit status.

use super::*;

fn sample(name: &str) -> String {
    format!("{}/tests/data/logs/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn expected(name: &str) -> String {
    String::from_utf8_lossy(&std::fs::read(sample(name)).unwrap()).into_owned()
}

/// The numbers of the summary line `L lines, U URIs found, I invalid, P
/// parsed, E lines not in the log format`: (L, P, E).
fn counts(stderr: &str) -> (u64, u64, u64) {
    let line = stderr
        .lines()
        .find(|l| l.contains(" parsed, "))
        .unwrap_or_else(|| panic!("no summary in {stderr}"));
    let n: Vec<u64> = line
        .split(", ")
        .map(|part| part.split(' ').next().unwrap().parse().unwrap())
        .collect();
    (n[0], n[3], n[4])
}

/// `extract --all -n` with `args` on `files`: stdout, stderr, exit status.
fn extract(args: &[&str], files: &[&str]) -> (String, String, i32) {
    let mut all = vec!["extract", "--all", "-n"];
    all.extend_from_slice(args);
    let paths: Vec<String> = files.iter().map(|f| sample(f)).collect();
    all.extend(paths.iter().map(String::as_str));
    let o = run(&all, b"");
    // Not `stdout`: the URIs of bad lines (with `--all`) are no UTF-8.
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    (out, stderr(&o), code(&o))
}

/// One sample run: the options, the files, the `.expected` stdout, the
/// lines reported (file, number) and the summary's (lines, parsed, not).
struct Case {
    args: &'static [&'static str],
    files: &'static [&'static str],
    expected: &'static str,
    errors: &'static [(&'static str, u32)],
    counts: (u64, u64, u64),
}

/// Each format on its samples: the URIs, the error lines with their file
/// and number, and lines in = lines parsed + lines not in the format; the
/// same however the input is cut into chunks and threads.
#[test]
fn samples() {
    let cases = [
        Case {
            args: &["--log", "combined"],
            files: &["combined.log"],
            expected: "combined.expected",
            errors: &[("combined.log", 19), ("combined.log", 23)],
            counts: (32, 30, 2),
        },
        Case {
            args: &["--log", "w3c"],
            files: &["iis.log", "cloudfront.log"],
            expected: "w3c.expected",
            errors: &[("iis.log", 5), ("cloudfront.log", 8)],
            counts: (56, 54, 2),
        },
        Case {
            args: &["--log", "alb"],
            files: &["alb.log"],
            expected: "alb.expected",
            errors: &[("alb.log", 15)],
            counts: (21, 20, 1),
        },
        Case {
            args: &[
                "--log",
                "json",
                "--field",
                "request.uri",
                "--field",
                "request.headers.referer",
            ],
            files: &["json.log"],
            expected: "json.expected",
            errors: &[("json.log", 7), ("json.log", 10), ("json.log", 12)],
            counts: (21, 18, 3),
        },
    ];
    for case in cases {
        for split in [&[][..], &["-j2", "--chunk-size", "300"][..]] {
            let args = [case.args, split].concat();
            let (out, err, status) = extract(&args, case.files);
            assert_eq!(status, 0, "{args:?}: {err}");
            assert_eq!(out, expected(case.expected), "{args:?}");
            for (file, line) in case.errors {
                let report = format!("{}:{line}: not a line of the ", sample(file));
                assert!(err.contains(&report), "{args:?}: no {report} in {err}");
            }
            assert_eq!(
                err.matches(": not a line of the ").count(),
                case.errors.len()
            );
            let (lines, parsed, not) = counts(&err);
            assert_eq!((lines, parsed, not), case.counts, "{args:?}: {err}");
            assert_eq!(lines, parsed + not);
        }
    }
}

/// `--log auto` reads each sample as its own format, and says so.
#[test]
fn auto_detects_each_sample() {
    let fields = [
        "--field",
        "request.uri",
        "--field",
        "request.headers.referer",
    ];
    for (file, format, want) in [
        ("combined.log", "combined", "combined.expected"),
        ("alb.log", "alb", "alb.expected"),
        ("json.log", "json", "json.expected"),
    ] {
        let args = [&["--log", "auto"][..], &fields[..]].concat();
        let (out, err, status) = extract(&args, &[file]);
        assert_eq!(status, 0, "{err}");
        assert_eq!(out, expected(want), "{file}");
        let said = format!(
            "--log auto: reading {} as {format} (from its first 10 lines)",
            sample(file)
        );
        assert!(err.contains(&said), "{err}");
    }
    let (out, err, _) = extract(&["--log", "auto"], &["iis.log", "cloudfront.log"]);
    assert_eq!(out, expected("w3c.expected"));
    assert!(err.contains("as w3c"), "{err}");
    // Decided once, on the first lines of the input: the second file is read
    // as the first one's format.
    let (_, err, status) = extract(&["--log", "auto"], &["alb.log", "combined.log"]);
    assert_eq!(status, 0);
    assert_eq!(counts(&err), (53, 20, 33));
    // JSON lines, but nothing says what to take.
    let (out, err, status) = extract(&["--log", "auto"], &["json.log"]);
    assert_eq!((out.as_str(), status), ("", 1));
    assert!(
        err.contains("holds JSON lines, and no --field PATH says what to take"),
        "{err}"
    );
}

/// When no line of the input parses, the exit status is 1 and the message
/// names the format tried; an empty input is no failure.
#[test]
fn no_line_parses() {
    let (out, err, status) = extract(&["--log", "combined"], &["alb.log"]);
    assert_eq!((out.as_str(), status), ("", 1));
    assert!(
        err.contains("no line of the input is in the combined format"),
        "{err}"
    );
    assert_eq!(counts(&err), (21, 0, 21));
    let (_, err, status) = extract(&["--log", "alb"], &["iis.log"]);
    assert_eq!(status, 1);
    assert!(
        err.contains("no line of the input is in the alb format"),
        "{err}"
    );
    let o = run(&["extract", "--log", "auto"], b"hello\nworld\n");
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("the first 10 lines of - are in no log format it knows"));
    assert!(stderr(&o).contains("-:2: not a line of a known log format"));
    assert!(stderr(&o).contains(
        "no line of the input is in any log format auto knows (w3c, json, combined, alb, common)"
    ));
    let o = run(&["extract", "--log", "json", "--field", "u"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// A W3C header holds within its file: a second file must have its own, and
/// a header may change the fields mid-file.
#[test]
fn w3c_header_per_file() {
    let dir = TempDir::new("w3c-files");
    let first = dir.file(
        "a.log",
        b"#Fields: date time cs-uri-stem\n2024-05-01 00:00:00 /a\n#Fields: cs-uri-stem cs-uri-query cs-host\n/b x=1 h.example\n",
    );
    let second = dir.file("b.log", b"/c - h.example\n");
    let o = run(&["extract", "--log", "w3c", "-n", &first, &second], b"");
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "2:/a\n4:http://h.example/b?x=1\n");
    assert!(stderr(&o).contains(&format!("{second}:1: not a line of the w3c format")));
    // Origin-form targets resolve against --base.
    let o = run(
        &["extract", "--log", "w3c", "--base", "https://iis.example/"],
        b"#Fields: cs-uri-stem cs-uri-query\n/x/y q=1\n",
    );
    assert_eq!(stdout(&o), "https://iis.example/x/y?q=1\n");
}

#[test]
fn usage_errors() {
    for (args, says) in [
        (&["--log", "json"][..], "--log json needs --field PATH"),
        (
            &["--log", "combined", "--field", "a"][..],
            "--field is for --log json",
        ),
        (&["--field", "a"][..], "--log"),
        // `--host` is a host and perhaps a port, no more; `--scheme` a
        // list of schemes (spaces after the commas are fine).
        (
            &["--log", "combined", "--host", "a/b?c"][..],
            "is not a host with an optional port",
        ),
        (
            &["--log", "common", "--host", "u@h"][..],
            "is not a host with an optional port",
        ),
        (&["--scheme", ""][..], "--scheme \"\" is not a scheme"),
        (
            &["--log", "common", "--host", ""][..],
            "is not a host with an optional port",
        ),
        (
            &["--log", "common", "--host", ":80"][..],
            "is not a host with an optional port",
        ),
        (
            &["--scheme", "http,h tp"][..],
            "--scheme \"h tp\" is not a scheme",
        ),
    ] {
        let o = run(&[&["extract"][..], args].concat(), b"{}\n");
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    let o = run(
        &["extract", "--scheme", "http, ftp"],
        b"http://a/ ftp://b/ gs://c/\n",
    );
    assert_eq!(stdout(&o), "http://a/\nftp://b/\n");
    let o = run(&["extract", "--log", "common", "--host", "[::1]:8080"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // `elb` names the same format as `alb`.
    let (out, _, _) = extract(&["--log", "elb"], &["alb.log"]);
    assert_eq!(out, expected("alb.expected"));
}

/// With `--base` or `--host`, an origin-form target that starts with `//`
/// is the server's path (RFC 9112 section 3.2.1), not a host: a request for
/// `//evil.example/x` stays on the base's host. A CONNECT's `//host:port`
/// and a Referer keep their authority.
#[test]
fn base_keeps_a_double_slash_target_on_its_host() {
    let combined = b"1.2.3.4 - - [01/May/2024:10:00:07 +0000] \"GET //evil.example/x?q HTTP/1.1\" 200 1 \"-\" \"-\"\n\
1.2.3.4 - - [01/May/2024:10:00:08 +0000] \"GET //evil.example\\x2Fy HTTP/1.1\" 200 1 \"//cdn.example/r\" \"-\"\n\
1.2.3.4 - - [01/May/2024:10:00:09 +0000] \"CONNECT evil.example:443 HTTP/1.1\" 200 1 \"-\" \"-\"\n\
1.2.3.4 - - [01/May/2024:10:00:10 +0000] \"GET //evil.example HTTP/1.1\" 200 1 \"-\" \"-\"\n";
    let o = run(
        &[
            "extract",
            "--log",
            "combined",
            "--base",
            "https://good.example/app/",
        ],
        combined,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "https://good.example//evil.example/x?q\nhttps://good.example//evil.example/y\n\
https://cdn.example/r\nhttps://evil.example:443\nhttps://good.example//evil.example\n"
    );
    let w3c = b"#Fields: date time cs-method cs-uri-stem cs-uri-query s-port cs(Referer)\n\
2024-05-01 00:00:01 GET //evil.example/x a=1 80 -\n";
    let o = run(&["extract", "--log", "w3c", "--host", "h"], w3c);
    assert_eq!(
        stdout(&o),
        "http://h//evil.example/x?a=1\n",
        "{}",
        stderr(&o)
    );
}

/// HTTP/0.9's request line, `GET /path` with no protocol, gives its
/// target; a line of one space that is no request gives none; `OPTIONS *`
/// has no URI in any format.
#[test]
fn http_09_target_and_options_star() {
    let o = run(
        &["extract", "--log", "combined", "--all"],
        b"1.2.3.4 - - [01/May/2024:10:00:07 +0000] \"GET /old\" 200 1 \"-\" \"ua\"\n\
1.2.3.4 - - [01/May/2024:10:00:08 +0000] \"junk here\" 400 1 \"-\" \"ua\"\n\
1.2.3.4 - - [01/May/2024:10:00:09 +0000] \"OPTIONS * HTTP/1.1\" 200 1 \"-\" \"ua\"\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "/old\n");
    let o = run(
        &["extract", "--log", "w3c"],
        b"#Fields: cs-method cs-uri-stem cs-host\nOPTIONS * h\nGET /x h\n",
    );
    assert_eq!(stdout(&o), "http://h/x\n", "{}", stderr(&o));
}
