//! The conventions that users of ripgrep and fd expect, on every subcommand:
//! `-o/--output`, `--generate`, one `--format` and one `--stats-format`,
//! options that mean nothing rejected, unreadable inputs as errors with no
//! summary after them, plurals.

use super::{bin, code, corpus, run, stderr, stdout, TempDir};

#[test]
fn output_option_writes_what_stdout_would() {
    let dir = TempDir::new("output");
    let c = corpus();
    let runs: [&[&str]; 9] = [
        &["check"],
        &["split", "--format", "tsv"],
        &["split", "-j2", "--chunk-size", "4K"],
        &["normalize", "--profile", "web"],
        &["resolve", "--base", "http://a/b/c", "--format", "json"],
        &["dedup", "-j2", "--chunk-size", "4K"],
        &["dedup", "--count"],
        &["extract", "--format", "tsv"],
        &["extract", "-u", "-j2", "--chunk-size", "1K"],
    ];
    for (i, args) in runs.iter().enumerate() {
        let to_stdout = run(&[args, &[c.as_str()][..]].concat(), b"");
        assert!(!to_stdout.stdout.is_empty(), "{args:?}");
        for flag in ["-o", "--output"] {
            let path = dir.0.join(format!("out{i}{flag}"));
            let p = path.to_string_lossy().into_owned();
            let to_file = run(&[args, &[flag, p.as_str(), c.as_str()][..]].concat(), b"");
            assert_eq!(code(&to_file), code(&to_stdout), "{args:?}");
            assert_eq!(stdout(&to_file), "", "{args:?}");
            assert!(
                std::fs::read(&path).unwrap() == to_stdout.stdout,
                "{args:?} {flag}: the file differs from standard output"
            );
            assert_eq!(stderr(&to_file), stderr(&to_stdout), "{args:?}");
        }
    }
    // An existing file is truncated; stats writes its statistics there.
    let path = dir.file("stats.json", &[b'x'; 100_000]);
    let o = run(&["stats", "--format", "json", "-o", &path, &c], b"");
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "");
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.starts_with("{\"lines\":5000,"), "{written}");
    assert!(written.ends_with("}\n") && !written.contains('x'));
}

#[test]
fn output_file_that_is_an_input_is_refused() {
    let dir = TempDir::new("output-input");
    let data = b"http://a/\nhttp://b/\n";
    let input = dir.file("in.txt", data);
    let other = dir.file("other.txt", b"http://c/\n");
    // The same file under another name.
    let alias = dir
        .0
        .join(".")
        .join("in.txt")
        .to_string_lossy()
        .into_owned();
    for args in [
        &["normalize", &input, "-o", &input][..],
        &["dedup", &other, &alias, "--output", &input],
    ] {
        let o = run(args, b"");
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(
            stderr(&o).contains(&format!("is the input {}", args[args.len() - 3])),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(
            std::fs::read(&input).unwrap() == data,
            "the input is intact"
        );
    }
    // A hard link to it, and the file as standard input (`-o f < f`, with
    // or without `-`).
    #[cfg(unix)]
    {
        let hard = dir.0.join("hard.txt");
        std::fs::hard_link(&input, &hard).unwrap();
        let hard = hard.to_string_lossy().into_owned();
        let o = run(&["normalize", &input, "-o", &hard], b"");
        assert_eq!(code(&o), 2);
        assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
        for args in [
            &["normalize", "-o", &input][..],
            &["check", "-", "-o", &hard],
        ] {
            let o = bin()
                .args(args)
                .stdin(std::fs::File::open(&input).unwrap())
                .output()
                .unwrap();
            assert_eq!(code(&o), 2, "{args:?}");
            assert!(
                stderr(&o).contains("is also the standard input"),
                "{args:?}: {}",
                stderr(&o)
            );
        }
        assert!(
            std::fs::read(&input).unwrap() == data,
            "the input is intact"
        );
    }
    // Standard input and another file are fine.
    let out = dir.0.join("out.txt").to_string_lossy().into_owned();
    let o = run(&["normalize", "-", &input, "-o", &out], b"http://z/\n");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "http://z/\nhttp://a/\nhttp://b/\n"
    );
}

#[test]
fn output_file_that_cannot_be_created_exits_2() {
    let dir = TempDir::new("output-bad");
    let bad = dir.0.join("no-such-dir").join("out.txt");
    let bad = bad.to_string_lossy().into_owned();
    for args in [
        &["check", "-o", &bad][..],
        &["dedup", "--output", &bad],
        &["extract", "-o", &bad],
    ] {
        let o = run(args, b"http://a/\n");
        assert_eq!(code(&o), 2, "{args:?}");
        assert_eq!(stdout(&o), "");
        let err = stderr(&o);
        assert_eq!(
            err.lines().collect::<Vec<_>>(),
            [format!(
                "uriscan: cannot create the output file {bad}: No such file or directory (os error 2)"
            )],
            "{args:?}"
        );
    }
    // A directory is no output file either.
    let d = dir.0.to_string_lossy().into_owned();
    let o = run(&["split", "-o", &d], b"http://a/\n");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("cannot create the output file"));
}

/// Every subcommand, as `uriscan --help` lists them.
const SUBCOMMANDS: [&str; 7] = [
    "check",
    "split",
    "stats",
    "normalize",
    "resolve",
    "dedup",
    "extract",
];

#[test]
fn generate_man_page_and_completions() {
    let generate = |kind: &str| bin().args(["--generate", kind]).output().unwrap();
    let o = generate("man");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let man = stdout(&o);
    let header = man.lines().find(|l| l.starts_with(".TH")).unwrap_or("");
    assert!(header.starts_with(".TH uriscan 1"), "{man}");
    assert!(
        man.lines().take_while(|l| !l.starts_with(".TH")).count() < 5,
        "the roff header comes first"
    );
    assert!(man.contains("dedup") && man.contains("\\-\\-generate"));
    // Each page its SEE ALSO names follows, with the subcommand's options.
    let titles: Vec<&str> = man.lines().filter(|l| l.starts_with(".TH ")).collect();
    for sub in SUBCOMMANDS {
        assert!(man.contains(&format!("uriscan\\-{sub}(1)")), "{sub}");
        assert!(
            titles
                .iter()
                .any(|t| t.starts_with(&format!(".TH uriscan-{sub} 1"))),
            "{sub}: {titles:?}"
        );
    }
    assert_eq!(titles.len(), SUBCOMMANDS.len() + 1, "{titles:?}");
    assert!(man.contains("\\-\\-drop\\-params") && man.contains("\\-\\-max\\-line"));
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let o = generate(&format!("complete-{shell}"));
        assert_eq!(code(&o), 0, "{shell}");
        assert_eq!(stderr(&o), "", "{shell}");
        let script = stdout(&o);
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell} completion lacks {sub}");
        }
        assert!(script.contains("stats-format"), "{shell}");
    }
    assert_eq!(code(&generate("complete-tcsh")), 2);
    // --generate is a top-level flag, alone.
    let o = bin().args(["--generate", "man", "check"]).output().unwrap();
    assert_eq!(code(&o), 2);
    assert_eq!(o.stdout, b"");
    let o = bin().output().unwrap();
    assert_eq!(code(&o), 2, "neither a subcommand nor --generate");
}

#[test]
fn extract_tsv() {
    let o = run(
        &["extract", "--format", "tsv", "--all"],
        b"see http://a.example/ and\nhttp://b.example/%zz\ttab <http://c.example/\n x>\n",
    );
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        "line\tcolumn\turi\tvalid\n\
         1\t5\thttp://a.example/\ttrue\n\
         2\t1\thttp://b.example/%zz\tfalse\n\
         2\t27\thttp://c.example/x\ttrue\n"
    );
    assert_eq!(
        stderr(&o).trim(),
        "3 lines, 3 URIs found, 1 invalid",
        "{}",
        stderr(&o)
    );
    // Without --all, invalid URIs are left out; with -u, each once.
    let o = run(
        &["extract", "--format", "tsv", "-u"],
        b"http://a/ http://a/ http://b/%zz\nhttp://a/\n",
    );
    assert_eq!(
        stdout(&o),
        "line\tcolumn\turi\tvalid\n1\t1\thttp://a/\ttrue\n"
    );
    assert_eq!(
        stderr(&o).trim(),
        "2 lines, 4 URIs found, 1 invalid, 1 unique"
    );
    // Access logs too; only the header when nothing is found.
    let o = run(
        &["extract", "--format", "tsv", "--log", "common"],
        b"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /a\\tb HTTP/1.0\" 200 1\n",
    );
    assert_eq!(stdout(&o), "line\tcolumn\turi\tvalid\n");
    assert_eq!(
        stderr(&o).trim(),
        "1 line, 1 URI found, 1 invalid, 1 parsed, 0 lines not in the log format"
    );
    let o = run(&["extract", "--format", "xml"], b"");
    assert_eq!(code(&o), 2);
}

#[test]
fn options_a_subcommand_ignores_are_rejected() {
    // extract finds URIs (absolute) and log targets (references): --mode
    // has no meaning there.
    for args in [
        &["extract", "--mode", "uri"][..],
        &["extract", "--mode=absolute"],
        &["stats", "--stats"],
        &["dedup", "--format", "json"],
        &["check", "--format", "json"],
    ] {
        let o = run(args, b"http://a/\n");
        assert_eq!(code(&o), 2, "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
        assert!(stderr(&o).contains("unexpected argument"), "{args:?}");
    }
    // The base resolves log targets; free text has absolute URIs only.
    for args in [
        &["extract", "--base", "http://b/"][..],
        &["extract", "--host", "b.example"],
    ] {
        let o = run(args, b"http://a/\n");
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(
            stderr(&o).contains("--log <FORMAT>"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn one_name_for_each_format_option() {
    let input = b"http://a/\nb c\n";
    // --format: the records, on every subcommand that has a choice.
    for (args, first) in [
        (&["split", "--format", "json"][..], "{\"line\":1,"),
        (&["split", "--format", "tsv"], "line\tvalid\t"),
        (&["normalize", "--format", "json"], "{\"line\":1,"),
        (&["normalize", "--format", "tsv"], "http://a/\thttp://a/"),
        (
            &["resolve", "--base", "http://x/", "--format", "json"],
            "{\"line\":1,",
        ),
        (
            &["resolve", "--base", "http://x/", "--format", "tsv"],
            "http://a/\thttp://a/",
        ),
        (&["extract", "--format", "json"], "{\"line\":1,"),
        (&["extract", "--format", "tsv"], "line\tcolumn\t"),
        (&["stats", "--format", "json"], "{\"lines\":2,"),
        (&["stats", "--format", "text"], "lines       2\n"),
    ] {
        let o = run(args, input);
        assert!(stdout(&o).starts_with(first), "{args:?}: {}", stdout(&o));
    }
    // --stats-format: the statistics, everywhere; it implies --stats.
    for sub in [
        &["check"][..],
        &["split"],
        &["normalize"],
        &["resolve", "--base", "http://x/"],
        &["dedup"],
        &["extract"],
    ] {
        let o = run(&[sub, &["--stats-format", "json"][..]].concat(), input);
        assert!(
            stderr(&o).contains("{\"lines\":2,"),
            "{sub:?}: {}",
            stderr(&o)
        );
        let o = run(
            &[sub, &["--stats", "--stats-format", "text"][..]].concat(),
            input,
        );
        assert!(stderr(&o).contains("lines       2\n"), "{sub:?}");
        let o = run(&[sub, &["--stats"][..]].concat(), input);
        assert!(stderr(&o).contains("lines       2\n"), "{sub:?}");
        let o = run(sub, input);
        assert!(!stderr(&o).contains("lines       "), "{sub:?}");
    }
    // stats, whose records are statistics, takes either name.
    let o = run(&["stats", "--stats-format", "json"], input);
    assert!(stdout(&o).starts_with("{\"lines\":2,"));
}

#[test]
fn unreadable_input_exits_2_without_a_summary() {
    let dir = TempDir::new("unreadable");
    let missing = dir.0.join("nope.txt").to_string_lossy().into_owned();
    let d = dir.0.to_string_lossy().into_owned();
    for args in [
        &["check"][..],
        &["check", "--stats"],
        &["split"],
        &["normalize"],
        &["dedup", "--count"],
        &["extract", "-u"],
    ] {
        for (input, why) in [
            (&missing, "No such file or directory (os error 2)"),
            (&d, "it is a directory"),
        ] {
            let o = run(&[args, &[input.as_str()][..]].concat(), b"");
            assert_eq!(code(&o), 2, "{args:?} {input}");
            assert_eq!(stdout(&o), "", "{args:?} {input}");
            assert_eq!(
                stderr(&o),
                format!("uriscan: cannot read {input}: {why}\n"),
                "{args:?}: the error only, no summary"
            );
        }
    }
    let o = run(&["stats", "--format", "json", &missing], b"");
    assert_eq!(code(&o), 2);
    assert_eq!(stdout(&o), "", "no statistics of nothing");
}

#[test]
fn plurals_in_messages() {
    let o = run(&["check"], b"http://a/");
    assert_eq!(stderr(&o), "1 line, 1 valid, 0 invalid\n");
    let o = run(&["check"], b"a b\n/c\n");
    assert_eq!(stderr(&o), "2 lines, 1 valid, 1 invalid\n");
    let o = run(&["extract"], b"x http://a/ y\n");
    assert_eq!(stderr(&o), "1 line, 1 URI found, 0 invalid\n");
    let o = run(&["extract"], b"none\n");
    assert_eq!(stderr(&o), "1 line, 0 URIs found, 0 invalid\n");
    let o = run(&["dedup"], b"http://a/\n");
    assert_eq!(stderr(&o), "1 line, 1 unique, 0 duplicates, 0 invalid\n");
    let o = run(&["dedup"], b"http://a/\nHTTP://a/\n");
    assert_eq!(stderr(&o), "2 lines, 1 unique, 1 duplicate, 0 invalid\n");
    let o = run(&["normalize"], b"a b\n");
    assert_eq!(
        stderr(&o),
        "-:1:2: invalid character ' ' in path\n1 line, 0 valid, 1 invalid\n"
    );
}

#[test]
fn extract_statistics_count_the_uris_found() {
    let text = b"x http://a/ y HTTPS://b/%zz z mailto:m@e\nno URI\nftp://[::1]/f\n";
    let o = run(&["extract", "--stats-format", "json"], text);
    assert_eq!(code(&o), 0);
    let err = stderr(&o);
    assert!(
        err.starts_with("{\"lines\":3,\"bytes\":62,\"valid\":3,\"invalid\":1,"),
        "{err}"
    );
    assert!(
        err.contains("\"by_scheme\":{\"ftp\":1,\"http\":1,\"mailto\":1}"),
        "{err}"
    );
    assert!(err.contains("\"ipv6\":1"), "{err}");
    assert!(
        err.ends_with("}\n3 lines, 4 URIs found, 1 invalid\n"),
        "{err}"
    );
    // Only those --scheme keeps.
    let o = run(&["extract", "--stats", "--scheme", "http,https"], text);
    assert!(stderr(&o).contains("valid       1\ninvalid     1\n"));
    // Access logs: lines not in the format are no URIs.
    let o = run(
        &["extract", "--log", "common", "--stats-format", "json"],
        b"1.2.3.4 - - [d] \"GET /a HTTP/1.0\" 200 1\nnot a log line\n",
    );
    let err = stderr(&o);
    assert!(err.contains("{\"lines\":2,"), "{err}");
    assert!(err.contains("\"valid\":1,\"invalid\":0,"), "{err}");
    assert!(err.contains("\"relative\":1,"), "{err}");
    assert!(
        err.ends_with("2 lines, 1 URI found, 0 invalid, 1 parsed, 1 line not in the log format\n")
    );
}
