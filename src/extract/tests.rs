//! Unit tests of the extraction iterator: its work count (the linear-time
//! checks), the masks it keeps for validation, and the SIMD searches
//! against plain loops.

use proptest::prelude::*;

use super::scan::in_alphabet;
use super::*;

/// The work of extracting everything from `text`, with and without
/// schemeless domains.
fn work_on(text: &[u8]) -> usize {
    [false, true]
        .into_iter()
        .map(|schemeless| {
            let mut found = extract(text).schemeless(schemeless);
            std::hint::black_box((&mut found).count());
            found.work()
        })
        .sum()
}

/// Hostile text costs what ordinary text of its size costs: the bytes
/// looked at stay under a fixed multiple of the input's size (each rule
/// is linear), on 2 MiB of runs that used to be quadratic. And the
/// count is a count: each pass looks at every byte at least once.
#[test]
fn linear_on_hostile_text() {
    const SIZE: usize = 2 << 20;
    let repeat = |head: &[u8], unit: &[u8]| {
        let mut t = head.to_vec();
        while t.len() < SIZE {
            t.extend_from_slice(unit);
        }
        t
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("closing parens", repeat(b"http://a/", b")")),
        ("closing brackets", repeat(b"http://a/", b"]")),
        ("closers and openers", repeat(b"http://a/(", b")]}")),
        ("quotes", repeat(b"http://a/", b"\"'")),
        ("at signs", repeat(b"http://a/", b"@")),
        ("colons", repeat(b"http://a/", b":")),
        ("dots and colons", repeat(b"http://", b".:")),
        ("brackets without >", repeat(b"", b"<http://a ")),
        ("brackets and quotes", repeat(b"", b"<http://a \"")),
        ("<URL: without >", repeat(b"", b"<URL:http://a ")),
        ("schemes run together", repeat(b"", b"http://")),
        ("schemes and closers", repeat(b"", b"http://)")),
        ("opaque schemes", repeat(b"", b"mailto:")),
        ("JSON slashes", repeat(b"http:", b"\\/")),
        ("string escapes", repeat(b"http://a/", b"\\u0026")),
        ("HTML references", repeat(b"", b"&lt;http://a/&gt;")),
        ("semicolons", repeat(b"http://a/", b";&")),
        ("escapes and closers", repeat(b"", b"http://a/\\u0026)")),
        ("lone surrogates", repeat(b"http://a/", b"\\ud83d")),
        ("dotted words", repeat(b"", b"a.")),
        ("domains and closers", repeat(b"", b"a.com/)")),
        ("scheme characters", repeat(b"", b"a+.-")),
        ("quoted, closers", repeat(b"", b"'http://a/)")),
        ("quoted, quotes", repeat(b"", b"'http://a/'.")),
        ("quoted, words", repeat(b"", b"'http://a/'b")),
        ("emphasis", repeat(b"", b"__http://a/_.__")),
        ("trailing references", repeat(b"http://a/", b"&#39;.")),
        ("colour codes", repeat(b"", b"\x1b[1;2mhttp:")),
        ("colour parameters", repeat(b"\x1b[", b"1;2m:")),
        ("colour codes without ESC", repeat(b"", b"[1mhttp://a")),
        ("domains after codes without ESC", repeat(b"", b"[1ma.com/")),
        ("brackets after a code", repeat(b"[1mhttp://a", b"[1")),
        ("escaped schemes", repeat(b"", b"\\\\\\nhttp:")),
        ("escaped domains", repeat(b"", b"\\\\\\na.com/ ")),
    ];
    for (name, text) in &cases {
        let work = work_on(text);
        assert!(
            (2 * text.len()..=40 * text.len()).contains(&work),
            "{name}: {work} bytes looked at for {} bytes",
            text.len()
        );
    }
}

/// The count counts each pass over a URI's bytes, so that a pass that
/// went quadratic would show: a long URI's bytes are looked at by the
/// classifier, by the search for the end of its run of URI bytes and
/// by the cut, three times; after a colour code without ESC (`[1m`),
/// a fourth, by the search for another code in it. Trailing HTML
/// references (`&#39;.` repeated), which end the URI at its `/`: those
/// three, then each byte either in the look back from a reference's `;`
/// to its `&` or in the trim of what trails it, and in the search for
/// the next `:` past the URI: five. And colons after a URI: each byte
/// once, by the search for `:` (whether it reads the masks or, past
/// the group at hand, asks `memchr`), besides the 512 bytes of the
/// URI's group, classified for it.
#[test]
fn work_counts_each_pass_over_a_uri() {
    let n = 1 << 20;
    let cases = [
        (&b"http://a/"[..], &b"b"[..], n + 9, 3, 0),
        (b"[1mhttp://a/", b"b", n + 9, 4, 0),
        (b"http://a/", b"&#39;.", 9, 5, 0),
        (b"http://a/ ", b":", 9, 1, 512),
    ];
    for (head, unit, uri_len, passes, besides) in cases {
        let mut text = head.to_vec();
        while text.len() < head.len() + n {
            text.extend_from_slice(unit);
        }
        text.push(b' ');
        let mut found = extract(&text);
        assert_eq!(found.next().map(|f| f.uri.len()), Some(uri_len));
        assert!(found.next().is_none());
        let work = found.work();
        assert!(
            (passes * n + besides..passes * n + besides + 64).contains(&work),
            "{:?}: {work} bytes looked at, {passes} passes of {n} and {besides}",
            String::from_utf8_lossy(unit)
        );
    }
}

/// `Scan::candidate` classifies the group where a candidate starts, so
/// that its validation reads the masks (stage 2) instead of falling
/// back to the reference parser: `Scan::blocks` then holds the bytes
/// from the start on, wherever the group at hand was before (none yet,
/// the one before, one further on).
#[test]
fn candidates_have_their_masks() {
    let text = b"see http://a.com/x then ".repeat(100);
    for backend in Backend::available() {
        let mut scan = Scan::new(backend);
        for start in [4, 600, 1500, 40] {
            scan.candidate(&text, start);
            assert!(
                scan.blocks(start, start + 12).is_some(),
                "{} {start}",
                backend.name()
            );
        }
    }
}

/// The schemeless search counts its passes as the search with a
/// scheme does: the bytes up to each `.` (its `memchr`), then the run
/// of host bytes around the dot, each once. Over ` .` repeated that is
/// three looks a unit, over `  .` four, on top of the scheme search's one
/// a byte.
#[test]
fn schemeless_work_counts_each_pass() {
    let n = 1 << 16;
    for (unit, looks) in [(&b" ."[..], 3), (b"  .", 4)] {
        let text = unit.repeat(n);
        let mut plain = extract(&text);
        assert!(plain.next().is_none());
        let mut schemeless = extract(&text).schemeless(true);
        assert!(schemeless.next().is_none());
        assert_eq!(plain.work(), text.len());
        assert_eq!(schemeless.work() - plain.work(), looks * n, "{unit:?}");
    }
}

/// `Extract::parse` reads its masks only for a URI borrowed from its
/// own text: one of the same length at the same offset of another
/// text, or the same bytes copied, is parsed as it is.
#[test]
fn parse_reads_the_masks_of_its_own_text_only() {
    let own = b"see http://a.example/ok and more";
    let other = b"see http://a%zz.exam/ok and more";
    let mut found = extract(own);
    let a = found.next().unwrap();
    let b = extract(other).next().unwrap();
    assert_eq!((a.start, a.uri.len()), (b.start, b.uri.len()));
    assert!(found.parse(&a, Mode::Uri).is_ok());
    let want = crate::parse(&b.uri, Mode::Uri);
    assert!(want.is_err());
    assert_eq!(found.parse(&b, Mode::Uri), want);
    let copied = Found {
        start: a.start,
        uri: Cow::Owned(b.uri.to_vec()),
    };
    assert_eq!(found.parse(&copied, Mode::Uri), want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    /// Every backend's run of URI-alphabet bytes equals the table's.
    #[test]
    fn alphabet_end_agrees(
        text in prop::collection::vec(prop_oneof![
            8 => prop::sample::select(b"a/%@[]:?#".to_vec()),
            1 => any::<u8>(),
        ], 0..300),
        from in 0usize..300,
    ) {
        let from = from.min(text.len());
        let expected = text[from..]
            .iter()
            .position(|&b| !in_alphabet(b))
            .map_or(text.len(), |i| from + i);
        for backend in Backend::available() {
            let end = Scan::new(backend).alphabet_end(&text, from);
            prop_assert_eq!(end, expected, "{}", backend.name());
        }
    }

    /// However the searches went before (a group classified for a
    /// candidate, or skipped by `memchr`), the next `:` and the end of
    /// a run are where a byte-by-byte search puts them, and the masks
    /// that validation reads are the text's: `Scan::parse` gives what
    /// `parse` gives.
    #[test]
    fn searches_agree_whatever_was_classified(
        text in prop::collection::vec(prop_oneof![
            12 => prop::sample::select(b"ab/.%2F?#".to_vec()),
            1 => Just(b':'),
            1 => any::<u8>(),
        ], 0..2000),
        steps in prop::collection::vec((0usize..3, 0usize..2000, 0usize..400), 1..24),
    ) {
        for backend in Backend::available() {
            let mut scan = Scan::new(backend);
            for &(step, at, back) in &steps {
                let at = at.min(text.len());
                match step {
                    0 => {
                        let colon = memchr::memchr(b':', &text[at..]).map(|i| at + i);
                        prop_assert_eq!(scan.colon(&text, at), colon, "{}", backend.name());
                    }
                    1 if at < text.len() => scan.candidate(&text, at),
                    _ => {
                        let end = text[at..]
                            .iter()
                            .position(|&b| !in_alphabet(b))
                            .map_or(text.len(), |i| at + i);
                        prop_assert_eq!(scan.alphabet_end(&text, at), end, "{}", backend.name());
                        // (From before the run too: masks the searches
                        // have, had, or never had.)
                        let start = at.saturating_sub(back);
                        let uri = &text[start..end];
                        prop_assert_eq!(
                            scan.parse(start, uri, Mode::Reference),
                            crate::parse(uri, Mode::Reference),
                            "{}", backend.name()
                        );
                    }
                }
            }
        }
    }
}
