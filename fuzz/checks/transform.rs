//! Normalization is idempotent and keeps the component structure, for every
//! profile; the corpus pass's notes (`Uris::for_normalizer`, any backend)
//! change no `is_normal` answer; resolution of any reference against a base
//! gives a URI that parses; the SURT key of any line (`surt_key`, what
//! `--invalid key` writes: the library's steps, IDNA and nameprep included,
//! on bytes that are no URI) depends on that line alone and is only appended;
//! nothing panics.
//!
//! Shared by the fuzz target of the same name and by the stable replay of
//! its committed corpus (tests/fuzz_replay.rs): the checks are written once.

use uriscan::batch::Chunk;
use uriscan::{parse, resolve, surt_key, Backend, Mode, Normalizer, Profile};

/// Panics if `data` breaks a property above.
pub fn check(data: &[u8]) {
    let chunk = Chunk::new(data, 1, 0);
    for backend in Backend::available() {
        for (_, line, r) in chunk.uris_with(Mode::Reference, backend).for_normalizer() {
            let Ok(noted) = r else { continue };
            let alone = parse(line, Mode::Reference).expect("valid on its own");
            for profile in [Profile::Rfc3986, Profile::Web, Profile::Surt] {
                let n = Normalizer::new(profile);
                assert_eq!(
                    n.is_normal(&noted),
                    n.is_normal(&alone),
                    "{} {profile:?} {:?}",
                    backend.name(),
                    String::from_utf8_lossy(line)
                );
            }
        }
    }
    surt_keys(&chunk);
    let Ok(uri) = parse(data, Mode::Reference) else {
        return;
    };
    for profile in [Profile::Rfc3986, Profile::Web, Profile::Surt] {
        let n = Normalizer::new(profile);
        let mut once = Vec::new();
        n.normalize(&uri, &mut once);
        if profile == Profile::Surt {
            // A SURT key is not a URI.
            continue;
        }
        let again = parse(&once, Mode::Reference).unwrap_or_else(|e| {
            panic!(
                "{profile:?} {:?} -> {:?}: {e}",
                String::from_utf8_lossy(data),
                String::from_utf8_lossy(&once)
            )
        });
        assert_eq!(again.is_relative(), uri.is_relative());
        assert_eq!(again.authority().is_some(), uri.authority().is_some());
        let mut twice = Vec::new();
        n.normalize(&again, &mut twice);
        assert_eq!(
            twice,
            once,
            "{profile:?} not idempotent on {:?}",
            String::from_utf8_lossy(data)
        );
        assert!(
            n.is_normal(&again),
            "{profile:?} {:?}",
            String::from_utf8_lossy(&once)
        );
    }
    for base in [
        &b"http://a/b/c/d;p?q"[..],
        b"foo:a/b",
        b"http://a",
        b"s://h/.//x",
    ] {
        let base = parse(base, Mode::Uri).expect("a base");
        for strict in [true, false] {
            let mut target = Vec::new();
            resolve(&base, &uri, strict, &mut target);
            let t = parse(&target, Mode::Uri).unwrap_or_else(|e| {
                panic!(
                    "{:?} against {:?} -> {:?}: {e}",
                    String::from_utf8_lossy(data),
                    base.as_str(),
                    String::from_utf8_lossy(&target)
                )
            });
            assert!(t.scheme().is_some());
        }
    }
}

/// The SURT key of every line of `chunk`, URI or not: the same when the
/// line is keyed again after all the others (the fast path's scratch
/// buffers, kept per thread, carry nothing from one line to the next), and
/// appended after what the output held, which stays as it was.
fn surt_keys(chunk: &Chunk<'_>) {
    let key = |line: &[u8], out: &mut Vec<u8>| {
        let at = out.len();
        let exact = surt_key(line, out);
        (exact, out[at..].to_vec())
    };
    let lines: Vec<&[u8]> = chunk.lines().map(|(_, line)| line).collect();
    let mut out = Vec::new();
    let first: Vec<_> = lines.iter().map(|line| key(line, &mut out)).collect();
    for (line, first) in lines.iter().zip(&first).rev() {
        let mut again = b"kept\n".to_vec();
        let second = key(line, &mut again);
        assert_eq!(
            (&again[..5], &second),
            (&b"kept\n"[..], first),
            "surt_key of {:?}",
            String::from_utf8_lossy(line)
        );
    }
}
