//! The library's layers (`src/lib.rs`, `docs/ARCHITECTURE.md`): each
//! top-level module of `src/` names with `crate::` paths only the modules
//! below it, so the graph has no cycle (paths in comments and in
//! `#[cfg(test)]` modules do not count: tests judge every layer); and no
//! file of `src/` is longer than 900 lines, every line counted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The layers, bottom up, as `lib.rs` declares them.
const LAYERS: [&str; 8] = [
    "classes",
    "grammar",
    "simd",
    "stage2",
    "uri",
    "normalize",
    "extract",
    "batch",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `text` without line comments and without what follows a
/// `#[cfg(test)]` module (test modules come last in a file); a file named
/// `tests.rs` is all test.
fn code(path: &Path, text: &str) -> String {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim_start() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod ") && next.ends_with('{'))
        {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The top-level modules that `text` names as `crate::NAME` or in
/// `crate::{NAME, ...}`.
fn named(text: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        let group = if let Some(inner) = rest.strip_prefix('{') {
            &inner[..inner.find('}').unwrap_or(inner.len())]
        } else {
            rest
        };
        for layer in LAYERS {
            let starts = |s: &str| {
                s.strip_prefix(layer)
                    .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
            };
            if starts(group) || group.split(',').any(|p| starts(p.trim())) {
                found.push(layer);
            }
        }
    }
    found
}

#[test]
fn each_layer_uses_only_those_below() {
    let src = src();
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut edges: BTreeMap<(&str, &str), PathBuf> = BTreeMap::new();
    for path in &all {
        let rel = path.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        let module = top.strip_suffix(".rs").unwrap_or(top);
        let Some(level) = LAYERS.iter().position(|&l| l == module) else {
            continue; // lib.rs and the binary
        };
        let text = std::fs::read_to_string(path).unwrap();
        for used in named(&code(path, &text)) {
            let at = LAYERS.iter().position(|&l| l == used).unwrap();
            if at >= level && used != module {
                edges.insert((module, used), rel.to_path_buf());
            }
        }
    }
    assert!(
        edges.is_empty(),
        "modules that name a layer not below them: {edges:?}"
    );
    // The check sees what it must: lib.rs declares these modules.
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    for layer in LAYERS {
        assert!(lib.contains(&format!("mod {layer};")), "{layer} in lib.rs");
    }
}

#[test]
fn upward_paths_are_seen() {
    // The detector itself: a use of a higher layer, grouped or not.
    assert_eq!(named("use crate::uri::Uri;"), ["uri"]);
    assert_eq!(
        named("use crate::{batch::Chunk, grammar};"),
        ["grammar", "batch"]
    );
    assert!(named("use crate::uris;").is_empty());
    let path = Path::new("x.rs");
    assert!(named(&code(path, "// crate::batch\nfn f() {}")).is_empty());
    let with_tests = "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::batch;\n}\n";
    assert!(named(&code(path, with_tests)).is_empty());
}

#[test]
fn no_file_of_src_is_longer_than_900_lines() {
    let mut all = Vec::new();
    files(&src(), &mut all);
    let long: Vec<_> = all
        .iter()
        .map(|p| (p, std::fs::read_to_string(p).unwrap().lines().count()))
        .filter(|&(_, n)| n > 900)
        .collect();
    assert!(long.is_empty(), "{long:?}");
}
