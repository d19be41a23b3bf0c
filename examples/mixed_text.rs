//! Writes the generated mixed text of tests/mixed_text.rs and its known
//! URLs, for scripts/compare-extractors.sh:
//! `cargo run --release --example mixed_text -- DIR [SEED] [URLS]` writes
//! `DIR/text.txt` and `DIR/expected.txt` (one URL per line, in order).

#[path = "../benches/common/gen.rs"]
#[allow(dead_code)]
mod gen;
#[path = "../tests/mixed_text.rs"]
mod mixed_text;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: mixed_text DIR [SEED] [URLS]");
        std::process::exit(2);
    };
    let number =
        |i: usize, default: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default);
    let (text, urls) = mixed_text::generate(number(1, 42), number(2, 4000) as usize);
    let dir = std::path::Path::new(dir);
    std::fs::write(dir.join("text.txt"), text)?;
    std::fs::write(dir.join("expected.txt"), urls.join("\n") + "\n")
}
