//! The console examples of the README and docs/CLI.md, run as printed: each
//! `$ ` line is a command for `sh` (`uriscan` is the built binary), and the
//! lines after it are what it prints, standard error included, as a
//! terminal shows them. A `$ cat FILE` of a file no earlier command made
//! makes it, with the lines shown. In the expected lines, `...` stands for
//! any text, and a line of `...` alone for any lines; the figures of
//! `elapsed` and `throughput` vary and are not compared.

use std::path::Path;
use std::process::Command;

use super::TempDir;

/// A command and the lines it prints.
struct Step {
    command: String,
    expected: Vec<String>,
}

/// The `console` blocks of `doc`, in order.
fn blocks(doc: &str) -> Vec<Vec<Step>> {
    let mut blocks = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```console" {
            continue;
        }
        let mut steps: Vec<Step> = Vec::new();
        for line in lines.by_ref() {
            if line.trim_start().starts_with("```") {
                break;
            }
            match line.strip_prefix("$ ") {
                Some(command) => steps.push(Step {
                    command: command.to_string(),
                    expected: Vec::new(),
                }),
                None => steps
                    .last_mut()
                    .expect("a console block starts with a command")
                    .expected
                    .push(line.to_string()),
            }
        }
        blocks.push(steps);
    }
    blocks
}

/// Whether `line` is `pattern`, each `...` of which stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("...");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether `lines` are `expected`, where a line of `...` alone stands for
/// any lines and the figures of `elapsed` and `throughput` are not
/// compared.
fn lines_match(expected: &[String], lines: &[&str]) -> bool {
    match expected.split_first() {
        None => lines.is_empty(),
        Some((gap, rest)) if gap == "..." => {
            (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..]))
        }
        Some((e, rest)) => lines.split_first().is_some_and(|(l, more)| {
            let varies = ["elapsed ", "throughput "]
                .iter()
                .any(|k| e.starts_with(k) && l.starts_with(k));
            (varies || line_matches(e, l)) && lines_match(rest, more)
        }),
    }
}

/// Runs the console examples of `doc` in a directory of their own, where
/// `corpora/` is the repository's; returns how many commands ran.
fn run_examples(doc: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(doc)).unwrap();
    let dir = TempDir::new(&format!("examples-{}", doc.replace('/', "-")));
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("corpora"), dir.0.join("corpora")).unwrap();
    // `uriscan` on the PATH is the built binary (through the test runner,
    // such as qemu, where there is one).
    let bin = dir.0.join("bin");
    std::fs::create_dir(&bin).unwrap();
    let runner = std::env::var("URISCAN_TEST_RUNNER").unwrap_or_default();
    std::fs::write(
        bin.join("uriscan"),
        format!(
            "#!/bin/sh\nexec {runner} '{}' \"$@\"\n",
            env!("CARGO_BIN_EXE_uriscan")
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(bin.join("uriscan"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for block in blocks(&text) {
        let mut status = 0;
        for step in block {
            if let Some(file) = step.command.strip_prefix("cat ") {
                let file = dir.0.join(file.trim());
                if !file.exists() {
                    std::fs::write(&file, step.expected.join("\n") + "\n").unwrap();
                }
            }
            // `(exit N)` gives `echo $?` the status of the command before.
            let o = Command::new("sh")
                .arg("-c")
                .arg(format!(
                    "(exit {status}); {{ {}
}} 2>&1",
                    step.command
                ))
                .current_dir(&dir.0)
                .env("PATH", &path)
                .env_remove("URISCAN_BACKEND")
                .output()
                .unwrap();
            status = o.status.code().unwrap_or(128);
            let out = String::from_utf8_lossy(&o.stdout);
            let lines: Vec<&str> = out.lines().collect();
            assert!(
                lines_match(&step.expected, &lines),
                "{doc}: `$ {}` printed\n{out}\nwhere the doc shows\n{}",
                step.command,
                step.expected.join("\n")
            );
            // (A `cat` of a file made from the doc's lines proves nothing.)
            ran += usize::from(!step.command.starts_with("cat "));
        }
    }
    ran
}

#[test]
#[cfg(unix)]
fn readme_and_cli_doc_examples_print_what_they_show() {
    for (doc, at_least) in [("README.md", 16), ("docs/CLI.md", 18)] {
        let ran = run_examples(doc);
        assert!(ran >= at_least, "{doc}: only {ran} commands");
    }
}

#[test]
fn patterns() {
    assert!(line_matches("a...c", "abbbc"));
    assert!(line_matches("  ipv4 ... ipv6 ...", "  ipv4 0 ipv6 1"));
    assert!(!line_matches("a...c", "abbbd"));
    assert!(!line_matches("abc", "abcd"));
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&e(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(lines_match(&e(&["a", "...", "d"]), &["a", "d"]));
    assert!(!lines_match(&e(&["a", "...", "d"]), &["a", "b"]));
    assert!(lines_match(
        &e(&["elapsed     0.004 s"]),
        &["elapsed     1.5 s"]
    ));
    assert!(!lines_match(&e(&["a"]), &["a", "b"]));
}
