//! Normalization's helpers and profiles, and the corpus pass's notes.

use proptest::prelude::*;

use super::*;
use crate::{parse, Mode};

/// URIs rich in what normalization changes, valid or not.
fn uri() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop::sample::select(vec![
        "http:", "HTTP:", "https:", "wss:", "ws:", "ftp:", "x:", "//", "//www.", "Ex.", "ex.",
        "com", "com.", ":80", ":8080", ":", "/", ".", "..", "./", "../", "/.//", "%2e", "%2E",
        "%7e", "%7E", "%2f", "%2F", "%c3", "%C3", "?", "a=1", "b=", "&", "utm_x=1", "#", "@", "u@",
        "[::1]", "A", "z",
        // What the web profile reads otherwise: forms, params, userinfo.
        "+", "%20", "%2B", "%3A", "%3a", ";", "=", "'", "%7C", "u:p:q@", "[::0:1]", "[v1.X]",
    ]);
    prop::collection::vec(piece, 0..12).prop_map(|v| v.concat().into_bytes())
}

// The one-pass search of `is_normal` against plain byte loops.
proptest! {
    #[test]
    fn marks_match_byte_loops(
        s in prop::collection::vec(prop::sample::select(b"./%aZA@[]z`{7Ee2F0".to_vec()), 0..300),
        upper_end in 0usize..300,
    ) {
        let upper_end = upper_end.min(s.len());
        for backend in Backend::available() {
        let m = marks(backend, &s, upper_end);
        let pct_normal = s.iter().enumerate().filter(|&(_, &b)| b == b'%').all(|(i, _)| {
            let hex = |b: Option<&u8>| b.is_some_and(|&b| b"0123456789ABCDEF".contains(&b));
            hex(s.get(i + 1)) && hex(s.get(i + 2)) && {
                let text = std::str::from_utf8(&s[i + 1..i + 3]).unwrap();
                !classes::is(u8::from_str_radix(text, 16).unwrap(), classes::UNRESERVED)
            }
        });
        prop_assert_eq!(m.pct_normal, pct_normal);
        prop_assert_eq!(m.slash_dot, s.windows(2).any(|w| w == b"/."));
        prop_assert_eq!(m.upper, s[..upper_end].iter().any(u8::is_ascii_uppercase));
        }
        let plain = s.iter().enumerate().any(|(i, &b)| {
            b == b'.'
                && (i == 0 || s[i - 1] == b'/')
                && matches!(&s[i + 1..], [] | [b'/', ..] | [b'.'] | [b'.', b'/', ..])
        });
        prop_assert_eq!(super::resolve::has_dot_segment(&s), plain);
    }
}

/// Found by fuzzing: `/.` before a `//` path without authority is the
/// normal form, so such a URI is passed through as it is.
#[test]
fn dot_before_double_slash_path_is_normal() {
    let n = Normalizer::new(Profile::Rfc3986);
    for (input, normal) in [
        ("s:/.//v1:/P?q", true),
        ("s:/.//", true),
        ("s:/././/v1", false),
        ("s:/.//a/../b", false),
        ("s:/.//./x", false),
        ("s://h/.//x", false),
        ("/.//x", true),
    ] {
        let u = parse(input.as_bytes(), Mode::Reference).unwrap();
        let mut out = Vec::new();
        n.rewrite(&u, &mut out, super::QueryKnown::Unknown);
        assert_eq!(n.is_normal(&u), normal, "{input}");
        assert_eq!(
            out == input.as_bytes(),
            normal,
            "{input} -> {}",
            String::from_utf8_lossy(&out)
        );
    }
}

#[test]
fn default_ports_ignore_case() {
    for (s, p) in [
        ("http", 80),
        ("HtTp", 80),
        ("https", 443),
        ("WS", 80),
        ("wsS", 443),
        ("Ftp", 21),
    ] {
        assert_eq!(default_port(s.as_bytes()), Some(p), "{s}");
    }
    for s in [
        "", "h", "htt", "httpx", "http+", "ftps", "wss2", "http-", "ttp",
    ] {
        assert_eq!(default_port(s.as_bytes()), None, "{s}");
        assert_eq!(lowercase_default_port(s.as_bytes()), None, "{s}");
    }
    for (s, p) in DEFAULT_PORTS {
        assert_eq!(lowercase_default_port(s), Some(p));
    }
}

/// The backends whose scanner takes notes (the scalar one notes nothing).
fn noting_backends() -> impl Iterator<Item = Backend> {
    Backend::available()
        .into_iter()
        .filter(|&b| b != Backend::Scalar)
}

/// Each profile's name, and which read the corpus pass's notes: the
/// `rfc3986` and `web` profiles do (their already-normal test starts from
/// them), the `surt` profile, whose keys are never URIs, does not, and
/// `Uris::for_normalizer_of` takes them only for those that do.
#[test]
fn profiles_name_themselves_and_take_notes_they_read() {
    use crate::batch::Chunk;
    use crate::stage2::Notes;
    let chunk = Chunk::new(b"http://a/%7e\n", 1, 0);
    for (profile, name, reads) in [
        (Profile::Rfc3986, "rfc3986", true),
        (Profile::Web, "web", true),
        (Profile::Surt, "surt", false),
    ] {
        assert_eq!(profile.name(), name);
        let n = Normalizer::new(profile);
        assert_eq!(n.uses_notes(), reads, "{name}");
        for backend in noting_backends() {
            let notes: Vec<Notes> = chunk
                .uris_with(Mode::Reference, backend)
                .for_normalizer_of(&n)
                .map(|(_, _, r)| r.unwrap().notes())
                .collect();
            let want = if reads { Notes::BAD_PCT } else { Notes::NONE };
            assert_eq!(notes, [want], "{name} {}", backend.name());
        }
    }
}

/// A URI that section 6 leaves as it is, noted so by the corpus pass,
/// is still not normal for a normalizer with any of its switches on that
/// change it (each of the 31 sets of them), nor ever for the `surt`
/// profile, even with all its switches off: the notes' shortcut is for
/// section 6 alone.
#[test]
fn notes_shortcut_is_for_section_6_alone() {
    use crate::batch::Chunk;
    let mut cases = Vec::new();
    for set in 1..32 {
        let mut n = Normalizer::new(Profile::Rfc3986);
        n.strip_fragment = set & 1 != 0;
        n.sort_query = set & 2 != 0;
        n.strip_www = set & 4 != 0;
        n.drop_empty_query = set & 8 != 0;
        n.strip_trailing_dot = set & 16 != 0;
        // All but `drop_empty_query` change the first.
        let line = if set == 8 {
            "http://a/?"
        } else {
            "http://www.a.com./?b&a#f"
        };
        cases.push((line, n));
    }
    let mut drop = Normalizer::new(Profile::Rfc3986);
    drop.drop_params(["x"]);
    cases.push(("http://a/?x=1", drop));
    let mut bare_surt = Normalizer::new(Profile::Surt);
    bare_surt.strip_fragment = false;
    bare_surt.sort_query = false;
    bare_surt.strip_www = false;
    bare_surt.drop_empty_query = false;
    cases.push(("http://a/", bare_surt));
    for (line, n) in cases {
        let text = format!("{line}\n");
        let chunk = Chunk::new(text.as_bytes(), 1, 0);
        for backend in noting_backends() {
            for (_, _, r) in chunk.uris_with(Mode::Reference, backend).for_normalizer() {
                let uri = r.unwrap();
                let name = backend.name();
                assert!(uri.notes().is_normal(), "{name} {line}");
                assert!(Normalizer::default().is_normal(&uri), "{name} {line}");
                assert!(!n.is_normal(&uri), "{name} {line} {n:?}");
                let mut scratch = Vec::new();
                let normalized = n.normalized(&uri, &mut scratch);
                assert_ne!(normalized, line.as_bytes(), "{name} {n:?}");
            }
        }
    }
}

/// `strip_trailing_dot` keeps a host's first byte (`.` stays, `..`
/// becomes `.`), and `strip_www` takes a leading `www.` in any case only
/// when a dot follows in the rest; `is_normal` says so too.
#[test]
fn host_switches_keep_a_host() {
    let dot = [
        ("http://./", "http://./"),
        ("http://../", "http://./"),
        ("http://.../x", "http://./x"),
        ("http://a./", "http://a/"),
        ("http://a../", "http://a/"),
        ("http://a.b/", "http://a.b/"),
        ("http:///", "http:///"),
    ];
    let www = [
        ("http://www.a.b/", "http://a.b/"),
        ("http://WwW.a.b/", "http://a.b/"),
        ("http://www.a./", "http://a./"),
        ("http://www.a/", "http://www.a/"),
        ("http://www../", "http://./"),
        ("http://wwwa.b/", "http://wwwa.b/"),
        ("http://ww.a.b/", "http://ww.a.b/"),
    ];
    for profile in [Profile::Rfc3986, Profile::Web] {
        for (cases, www_on) in [(&dot, false), (&www, true)] {
            let mut n = Normalizer::new(profile);
            n.strip_trailing_dot = !www_on;
            n.strip_www = www_on;
            for (input, want) in cases {
                let uri = parse(input.as_bytes(), Mode::Uri).unwrap();
                let mut out = Vec::new();
                n.normalize(&uri, &mut out);
                assert_eq!(String::from_utf8_lossy(&out), *want, "{profile:?} {input}");
                assert_eq!(n.is_normal(&uri), input == want, "{profile:?} {input}");
            }
        }
    }
}

/// `sort_query` orders the parameters by key, then by value, and keeps
/// the input's order among equal ones (`a` and `a=` both have the empty
/// value); `is_normal` agrees.
#[test]
fn sort_query_orders_by_key_then_value() {
    let mut n = Normalizer::new(Profile::Rfc3986);
    n.sort_query = true;
    for (input, want) in [
        ("http://h/?b=1&a=2&a=1&a=&a", "http://h/?a=&a&a=1&a=2&b=1"),
        ("http://h/?a=1&a", "http://h/?a&a=1"),
        ("http://h/?a&a=1", "http://h/?a&a=1"),
        ("http://h/?a&a=", "http://h/?a&a="),
        ("http://h/?ab=1&a=b", "http://h/?a=b&ab=1"),
        ("http://h/?a=b=c&a=b", "http://h/?a=b&a=b=c"),
        ("http://h/?a=b&a=b=c", "http://h/?a=b&a=b=c"),
    ] {
        let uri = parse(input.as_bytes(), Mode::Uri).unwrap();
        let mut out = Vec::new();
        n.normalize(&uri, &mut out);
        assert_eq!(String::from_utf8_lossy(&out), want, "{input}");
        assert_eq!(n.is_normal(&uri), input == want, "{input}");
    }
}

/// `drop_params`' globs match whole keys: `*` any run of bytes, wherever
/// it stands, the rest exactly.
#[test]
fn globs_match_whole_keys() {
    let cases = [
        ("utm_*", "utm_source", true),
        ("utm_*", "utm_", true),
        ("utm_*", "utm", false),
        ("utm_*", "xutm_a", false),
        ("*id", "sessionid", true),
        ("*id", "id", true),
        ("*id", "idx", false),
        ("s*id", "sid", true),
        ("s*id", "session_id", true),
        ("s*id", "xsid", false),
        ("s*id", "sidx", false),
        ("s*id", "zzid", false),
        ("a*b*c", "abc", true),
        ("a*b*c", "aXbYc", true),
        ("a*b*c", "acb", false),
        ("fbclid", "fbclid", true),
        ("fbclid", "fbclid2", false),
        ("*", "", true),
    ];
    for (pattern, key, want) in cases {
        assert_eq!(
            glob(pattern.as_bytes(), key.as_bytes()),
            want,
            "{pattern} {key}"
        );
    }
}

/// The normalizations `is_normal` is tested with: each profile, two
/// custom ones (`rfc3986` with switches on), and `web` with its switches
/// off.
fn normalizers() -> Vec<Normalizer> {
    let mut custom = Normalizer::new(Profile::Rfc3986);
    custom.strip_fragment = true;
    custom.drop_params(["utm_*"]);
    let mut switched = Normalizer::new(Profile::Rfc3986);
    switched.sort_query = true;
    switched.strip_www = true;
    switched.drop_empty_query = true;
    switched.strip_trailing_dot = true;
    let mut plain_web = Normalizer::new(Profile::Web);
    plain_web.strip_fragment = false;
    plain_web.sort_query = false;
    plain_web.drop_empty_query = false;
    plain_web.strip_trailing_dot = false;
    vec![
        Normalizer::new(Profile::Rfc3986),
        Normalizer::new(Profile::Web),
        Normalizer::new(Profile::Surt),
        custom,
        switched,
        plain_web,
    ]
}

#[test]
fn corpus_pass_notes() {
    use crate::batch::Chunk;
    use crate::stage2::Notes;
    let cases: [(&str, Notes); 25] = [
        // Shorter than 8 bytes: noted as longer lines are.
        ("a/b/C", Notes::NORMAL.with(Notes::NO_PCT)),
        ("ws://a", Notes::PLAIN.with(Notes::NO_PCT)),
        ("s://a", Notes::NORMAL.with(Notes::NO_PCT)),
        ("s:.", Notes::PLAIN.with(Notes::NO_PCT)),
        ("http://a/b", Notes::NORMAL.with(Notes::NO_PCT)),
        ("http://a/B/C?D#E", Notes::NORMAL.with(Notes::NO_PCT)),
        ("http://a/%C3%A9?%2F#%20", Notes::NORMAL),
        // A `%` in the fragment only, or in the userinfo only: no NO_PCT.
        ("http://a/b?c#%2F", Notes::NORMAL),
        ("http://%20@a/b", Notes::NORMAL),
        ("http://u@a/x@y", Notes::NORMAL.with(Notes::NO_PCT)),
        ("../a/b/c", Notes::NORMAL.with(Notes::NO_PCT)),
        ("foo://ab", Notes::NORMAL.with(Notes::NO_PCT)),
        ("https://a:8080/", Notes::PLAIN.with(Notes::NO_PCT)),
        ("http://a:/b", Notes::PLAIN.with(Notes::NO_PCT)),
        ("http://a", Notes::PLAIN.with(Notes::NO_PCT)),
        ("wss://a?b", Notes::PLAIN.with(Notes::NO_PCT)),
        ("urn:./a/b", Notes::PLAIN.with(Notes::NO_PCT)),
        ("HTTP://a/", Notes::NONE),
        ("http://A/", Notes::NONE),
        ("http://a/./b", Notes::NONE),
        ("http://a/?/.", Notes::NONE),
        ("http://a/b/.", Notes::NONE),
        ("http://a/%7e", Notes::BAD_PCT),
        ("http://a/%7E", Notes::BAD_PCT),
        ("http://a/%c3", Notes::BAD_PCT),
    ];
    // Every case at every offset of a word of the window's bits, and
    // after a head of 60 bytes (a host past the low word).
    let long = "x".repeat(60);
    for backend in Backend::available()
        .into_iter()
        .filter(|&b| b != Backend::Scalar)
    {
        for pad in 0..9 {
            let mut text = format!("{}\n", "y".repeat(pad));
            for (c, _) in cases {
                text.push_str(c);
                text.push('\n');
                text.push_str(&c.replacen("//", &format!("//{long}"), 1));
                text.push_str("\r\n");
            }
            let chunk = Chunk::new(text.as_bytes(), 1, 0);
            let notes: Vec<Notes> = chunk
                .uris_with(Mode::Reference, backend)
                .for_normalizer()
                .skip(1)
                .map(|(_, _, r)| r.unwrap().notes())
                .collect();
            for (i, (c, want)) in cases.iter().enumerate() {
                assert_eq!(notes[2 * i], *want, "{} {c} after {pad}", backend.name());
                if c.contains("//") {
                    assert_eq!(notes[2 * i + 1], *want, "{} long {c}", backend.name());
                }
            }
        }
    }
}

/// The notes of each line of `text` (all valid) by a noting scanner of
/// `backend`, the same through `next` and through `fold`.
fn noted_lines(text: &str, backend: Backend) -> Vec<crate::stage2::Notes> {
    let chunk = crate::batch::Chunk::new(text.as_bytes(), 1, 0);
    let uris = || chunk.uris_with(Mode::Reference, backend).for_normalizer();
    let next: Vec<_> = uris().map(|(_, _, r)| r.unwrap().notes()).collect();
    let folded = uris().fold(Vec::new(), |mut v, (_, _, r)| {
        v.push(r.unwrap().notes());
        v
    });
    assert_eq!(folded, next, "{} {text:?} through fold", backend.name());
    next
}

/// Each kind of note is given to the lines it describes and read back by
/// its accessor: `PLAIN` (no uppercase letter before the path, no `/.`,
/// only normal escapes), `NORMAL` (and the port and path normal too),
/// `BAD_PCT` (an escape not in normal form, but neither of the others),
/// `NONE`, and `NO_PCT` beside the first two.
#[test]
fn notes_say_what_the_pass_saw() {
    // (line, plain, normal, bad escape, no `%`)
    let cases = [
        ("http://a.com/x", true, true, false, true),
        ("http://a.com/%C3%A9?q=%20", true, true, false, false),
        ("http://a.com:80/x", true, false, false, true),
        ("http://a.com:80/%41B", false, false, true, false),
        ("http://a.com/%7Ex", false, false, true, false),
        ("http://a.com/x?%c3%a9", false, false, true, false),
        ("http://a.com/x#%2d", false, false, true, false),
        ("HTTP://a.com/%7e", false, false, false, false),
        ("http://A.com/x", false, false, false, false),
        ("http://a.com/a/./b", false, false, false, false),
        ("http://a.com/%7e/./", false, false, false, false),
    ];
    let text: String = cases.iter().map(|c| format!("{}\n", c.0)).collect();
    for backend in Backend::available()
        .into_iter()
        .filter(|&b| b != Backend::Scalar)
    {
        let notes = noted_lines(&text, backend);
        for (&(line, plain, normal, bad, no_pct), n) in cases.iter().zip(&notes) {
            let name = backend.name();
            assert_eq!(n.is_plain(), plain, "{name} {line}: {n:?}");
            assert_eq!(n.is_normal(), normal, "{name} {line}: {n:?}");
            assert_eq!(n.has_bad_pct(), bad, "{name} {line}: {n:?}");
            assert_eq!(n.has_no_pct(), no_pct, "{name} {line}: {n:?}");
        }
    }
}

/// A `/.` cut by the end of a 64-byte block (the `/` its last byte) is
/// seen: the `/` carries into the next block's marks, so the line is not
/// noted as normal and its dot segment goes.
#[test]
fn slash_dot_across_a_block_edge_is_seen() {
    let line = "http://a/xxxxxxxxxx/./b";
    for backend in Backend::available()
        .into_iter()
        .filter(|&b| b != Backend::Scalar)
    {
        for pad in 0..=130 {
            let text = format!("{}\n{line}\n", "y".repeat(pad));
            let notes = noted_lines(&text, backend);
            assert!(
                !notes[1].is_normal(),
                "{} {line} after {pad}: {:?}",
                backend.name(),
                notes[1]
            );
        }
    }
}

/// A line whose masks fill its lane (`g % 8 + len == 128` bits, `g` its
/// offset in the window) is noted as a shorter one is, through `next` and
/// through `fold`: its LF is past the lane, so the scanner finds it on the
/// window's words, and then decides the line in its lane.
#[test]
fn lines_as_wide_as_a_lane_are_noted() {
    use crate::stage2::Notes;
    for backend in Backend::available()
        .into_iter()
        .filter(|&b| b != Backend::Scalar)
    {
        for g in 1..=16usize {
            let mut text = format!("{}\n", "y".repeat(g - 1));
            text.push_str("http://a/");
            text.push_str(&"b".repeat(128 - g % 8 - 9));
            text.push('\n');
            let notes = noted_lines(&text, backend);
            assert_eq!(
                notes[1],
                Notes::NORMAL.with(Notes::NO_PCT),
                "{} at {g}",
                backend.name()
            );
        }
    }
}

/// A chunk's first line and a last line without an LF are noted as any
/// other line: the first starts at offset 0 of the chunk and of its
/// window (a line that fills its lane has its LF past it), and a last line
/// without an LF ends at the data's end, in a window that reaches it.
#[test]
fn first_and_unended_lines_are_noted() {
    use crate::stage2::Notes;
    // 10, 16 and 128 bytes; the last fills its lane at an offset that is a
    // multiple of 8 (each line here starts at one).
    let wide = format!("http://a/{}", "b".repeat(119));
    for backend in Backend::available()
        .into_iter()
        .filter(|&b| b != Backend::Scalar)
    {
        for line in ["http://a/b", "http://a/B/C?D#E", wide.as_str()] {
            for (text, at) in [
                (line.to_string(), 0),
                (format!("{line}\n"), 0),
                (format!("{line}\nhttp://a/\n"), 0),
                (format!("{}\n{line}", "y".repeat(7)), 1),
                (format!("{}\n{line}", "y".repeat(199)), 1),
            ] {
                assert_eq!(
                    noted_lines(&text, backend)[at],
                    Notes::NORMAL.with(Notes::NO_PCT),
                    "{} {text:?}",
                    backend.name()
                );
            }
        }
    }
}

proptest! {
    /// `is_normal` says the same of a URI with the corpus pass's notes
    /// (any backend) as without, for every normalization.
    #[test]
    fn notes_keep_is_normal(
        lines in prop::collection::vec((uri(), any::<bool>()), 1..6),
        lead in 0usize..70,
    ) {
        use crate::batch::Chunk;
        let mut text = vec![b'x'; lead];
        text.push(b'\n');
        for (l, crlf) in &lines {
            text.extend_from_slice(l);
            text.extend_from_slice(if *crlf { b"\r\n" } else { b"\n" });
        }
        let chunk = Chunk::new(&text, 1, 0);
        let plain: Vec<_> = chunk.uris_with(Mode::Reference, Backend::Scalar).collect();
        for backend in Backend::available() {
            let noted: Vec<_> = chunk.uris_with(Mode::Reference, backend).for_normalizer().collect();
            prop_assert_eq!(&noted, &plain);
            for ((_, line, r), (_, _, p)) in noted.iter().zip(&plain) {
                let (Ok(u), Ok(p)) = (r, p) else { continue };
                for n in normalizers() {
                    prop_assert_eq!(
                        n.is_normal(u),
                        n.is_normal(p),
                        "{} {:?} {:?}",
                        backend.name(),
                        n.profile(),
                        String::from_utf8_lossy(line)
                    );
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    prop_assert_eq!(n.normalized(u, &mut a), n.normalized(p, &mut b));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]
    #[test]
    fn is_normal_means_unchanged(input in uri()) {
        let Ok(u) = parse(&input, Mode::Reference) else { return Ok(()) };
        for n in normalizers() {
            if n.profile() == Profile::Surt {
                continue;
            }
            let mut out = Vec::new();
            n.rewrite(&u, &mut out, super::QueryKnown::Unknown);
            prop_assert_eq!(
                n.is_normal(&u),
                out == input,
                "{:?} {:?} -> {:?}",
                n.profile(),
                String::from_utf8_lossy(&input),
                String::from_utf8_lossy(&out)
            );
        }
    }
}
