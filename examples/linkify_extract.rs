//! The URLs that the `linkify` crate finds in a file, one per line, for
//! scripts/compare-extractors.sh: `cargo run --release --example
//! linkify_extract -- FILE`. URLs with a scheme only, as `uriscan extract`
//! finds them (IRIs allowed, linkify's default).

fn main() -> std::io::Result<()> {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: linkify_extract FILE");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(path)?;
    let mut finder = linkify::LinkFinder::new();
    finder.kinds(&[linkify::LinkKind::Url]);
    let mut out = String::new();
    for link in finder.links(&text) {
        out.push_str(link.as_str());
        out.push('\n');
    }
    std::io::Write::write_all(&mut std::io::stdout().lock(), out.as_bytes())
}
