//! One differential harness, run on every backend this CPU has (the others are
//! skipped, not failed): each backend's masks equal the table's, and its
//! parse results (validity, every component range, the error's offset,
//! component and kind) equal the reference validator's.

use proptest::prelude::*;

use super::scalar::Table;
#[cfg(target_arch = "x86_64")]
use super::Group;
use super::{Backend, Classify, Masks, NormalMarks, Sink};
use crate::batch::Chunk;
use crate::grammar::Mode;
use crate::uri::{parse_reference, parse_with};

/// The backends to test: every available one but `Scalar`, the oracle.
fn backends() -> Vec<Backend> {
    let v: Vec<Backend> = Backend::available()
        .into_iter()
        .filter(|&b| b != Backend::Scalar)
        .collect();
    assert!(v.contains(&Backend::Swar), "SWAR runs everywhere");
    v
}

fn oracle(block: &[u8; 64]) -> Masks {
    Table.classify(block)
}

/// A sink that keeps what it is given: each block's masks, put alone or in
/// a [`Group`], and each group's `pathbad` words.
struct Recorder {
    masks: Vec<Masks>,
    pathbad: Vec<(usize, [u64; 8])>,
}

impl Sink for Recorder {
    #[cfg(target_arch = "x86_64")]
    const GROUPS: bool = true;

    fn blocks(&self) -> usize {
        self.masks.len()
    }
    fn put(&mut self, i: usize, m: Masks) {
        self.masks[i] = m;
    }
    #[cfg(target_arch = "x86_64")]
    fn put_group(&mut self, i: usize, g: &Group) {
        assert_eq!(i % 8, 0, "a group starts at a multiple of 8");
        for j in 0..8 {
            self.put(i + j, Masks::of_group(g, j));
        }
        self.pathbad.push((i, g.pathbad));
    }
}

/// [`Group::pathbad`] from the table's masks of the group's 8 blocks.
fn oracle_pathbad(m: &[Masks]) -> [u64; 8] {
    core::array::from_fn(|j| {
        let next = m.get(j + 1).filter(|_| j < 7).map_or(0, |n| n.hex);
        let hex1 = m[j].hex >> 1 | next << 63;
        let hex2 = m[j].hex >> 2 | next << 62;
        m[j].special & !(m[j].pct & hex1 & hex2)
    })
}

/// `backend`'s [`NormalMarks`] of each block of `data`.
fn normal_marks(backend: Backend, data: &[u8]) -> Vec<NormalMarks> {
    let mut out = vec![NormalMarks::default(); data.len().div_ceil(64)];
    backend.normal_marks(data, &mut out);
    out
}

#[test]
fn every_byte_in_every_lane() {
    for backend in backends() {
        for fill in [b'a', b'%', 0u8, 0xff] {
            for lane in 0..64 {
                for byte in 0..=255u8 {
                    let mut block = [fill; 64];
                    block[lane] = byte;
                    let what = format!(
                        "{} byte {byte:#04x} lane {lane} fill {fill:#04x}",
                        backend.name()
                    );
                    assert_eq!(backend.classify(&block), oracle(&block), "{what}");
                    assert_eq!(
                        normal_marks(backend, &block),
                        [Table.normal_marks(&block)],
                        "{what}"
                    );
                }
            }
        }
    }
}

#[test]
fn classify_blocks_pads_with_zeros() {
    // Every length of a last block, which backends may load in place
    // (overlapping loads) instead of copying; the masks of normalization's
    // pass likewise.
    let all: Vec<u8> = (0..1010u32).map(|i| (i * 37 % 251) as u8).collect();
    for backend in backends() {
        for (start, len) in
            (0..3usize).flat_map(|s| (0..=200usize).chain([1000]).map(move |l| (s, l)))
        {
            let data = &all[start..];
            let mut got = vec![Masks::default(); len.div_ceil(64)];
            backend.classify_blocks(&data[..len], &mut got);
            let marks = normal_marks(backend, &data[..len]);
            for (k, m) in got.iter().enumerate() {
                let mut block = [0u8; 64];
                let part = &data[64 * k..(64 * k + 64).min(len)];
                block[..part.len()].copy_from_slice(part);
                assert_eq!(*m, oracle(&block), "{} len {len} block {k}", backend.name());
                assert_eq!(
                    marks[k],
                    Table.normal_marks(&block),
                    "{} len {len} block {k}",
                    backend.name()
                );
            }
        }
    }
}

/// Every backend's result for `input` equals the reference's. `parse_with`
/// hands inputs shorter than 8 bytes straight to the reference (stage 2 never
/// sees them there), so those are also checked as a line of a chunk, where
/// stage 2 decides lines of any length ([`same_in_chunk`]).
#[track_caller]
fn same(input: &[u8], what: &str) {
    if input.len() < 8 {
        same_in_chunk(input, what);
    }
    for mode in [Mode::Reference, Mode::Uri, Mode::Absolute] {
        let expected = parse_reference(input, mode);
        // What `Uri`'s accessors rely on (`validate::ascii_str`).
        assert!(expected.is_err() || input.is_ascii(), "{what}");
        for backend in backends() {
            assert_eq!(
                parts(&parse_with(input, mode, backend)),
                parts(&expected),
                "{} {mode:?} {what}: {:?}",
                backend.name(),
                String::from_utf8_lossy(input)
            );
        }
    }
}

/// What a result says: the error, or every component (`Uri`'s `==` compares
/// the input's bytes only).
type Parts<'a> = Result<[Option<&'a str>; 8], crate::Error>;

fn parts<'a>(r: &Result<crate::Uri<'a>, crate::Error>) -> Parts<'a> {
    r.as_ref().map_err(Clone::clone).map(|u| {
        [
            u.scheme(),
            u.authority(),
            u.userinfo(),
            u.host(),
            u.port(),
            Some(u.path()),
            u.query(),
            u.fragment(),
        ]
    })
}

/// `input` as a line of a chunk (first, and after a longer line), through
/// stage 2 on every backend, equals the reference. An input that is not one
/// line (it holds a `\n` or ends with `\r`) is skipped.
#[track_caller]
fn same_in_chunk(input: &[u8], what: &str) {
    if input.contains(&b'\n') || input.last() == Some(&b'\r') {
        return;
    }
    for pad in [&b""[..], b"http://pad.example/a?b#c\n"] {
        let mut data = pad.to_vec();
        data.extend_from_slice(input);
        data.push(b'\n');
        let chunk = Chunk::new(&data, 1, 0);
        for mode in [Mode::Reference, Mode::Uri, Mode::Absolute] {
            let expected = parse_reference(input, mode);
            for backend in backends() {
                let (_, line, got) = chunk.uris_with(mode, backend).last().unwrap();
                assert_eq!(line, input, "{} {what}", backend.name());
                assert_eq!(
                    parts(&got),
                    parts(&expected),
                    "{} {mode:?} {what} in a chunk: {:?}",
                    backend.name(),
                    String::from_utf8_lossy(input)
                );
            }
        }
    }
}

/// Buffers rich in structure, to cut inputs from.
fn samples() -> Vec<Vec<u8>> {
    let long = "http://user:pw@www.example.com:8080/a/b%20c/d;e=f/g?q=1&r=%7e&s=/x?y#frag/x?y:z@";
    vec![
        long.repeat(4).into_bytes(),
        "https://[2001:db8::1]:443/p%41th/%zz?x=[1]#a#b"
            .repeat(6)
            .into_bytes(),
        "//h/p:q@r/s?t#u%2".repeat(16).into_bytes(),
        "a:b:c/d?e#f\u{e9}g h\"i<j>".repeat(12).into_bytes(),
        "mailto:x@y.z?subject=%41%42%43&body=%"
            .repeat(8)
            .into_bytes(),
        "http://1.2.3.4:80/ftp://[v7.a:b]/x%25y%2z"
            .repeat(8)
            .into_bytes(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(200)))]

    /// Through a sink that takes groups of 8 blocks (as stage 2's windows
    /// do, which some backends fill a group at a time), every block's
    /// masks and every group's `pathbad` equal the table's, at every
    /// length and for every sink size.
    #[test]
    fn groups_of_blocks_agree(
        bytes in prop::collection::vec(prop_oneof![
            4 => prop::sample::select(b"%%%0123456789abcdefABCDEFgG:/?#@[]\n x".to_vec()),
            1 => any::<u8>(),
        ], 0..3000),
        room in 0usize..60,
    ) {
        for backend in Backend::available() {
            let mut out = Recorder { masks: vec![Masks::default(); room], pathbad: Vec::new() };
            backend.classify_into(&bytes, &mut out);
            let blocks = bytes.len().div_ceil(64).min(room);
            for (k, got) in out.masks[..blocks].iter().enumerate() {
                let mut block = [0u8; 64];
                let part = &bytes[64 * k..(64 * k + 64).min(bytes.len())];
                block[..part.len()].copy_from_slice(part);
                prop_assert_eq!(*got, oracle(&block), "{} block {}", backend.name(), k);
            }
            for (i, words) in &out.pathbad {
                prop_assert_eq!(*words, oracle_pathbad(&out.masks[*i..*i + 8]), "{} group {}", backend.name(), i);
            }
            if backend == Backend::Avx512Vbmi {
                prop_assert_eq!(out.pathbad.len(), (bytes.len() / 512).min(room / 8));
            }
        }
    }
}

#[test]
fn every_length_at_every_offset() {
    for buf in samples() {
        for start in 0..=64.min(buf.len()) {
            for len in 0..=260 {
                if start + len > buf.len() {
                    break;
                }
                same(&buf[start..start + len], &format!("[{start}..+{len}]"));
            }
        }
    }
}

#[test]
fn every_byte_at_every_position_of_a_uri() {
    let base = b"http://u@example.com:80/path/to/x?query=1&b=2#fragment".to_vec();
    for pos in 0..base.len() {
        for byte in 0..=255u8 {
            let mut v = base.clone();
            v[pos] = byte;
            same(&v, &format!("byte {byte:#04x} at {pos}"));
            // And past the first block.
            let mut long = b"http://example.com/".to_vec();
            long.extend(std::iter::repeat_n(b'a', 50));
            long.extend_from_slice(&v);
            same(&long, &format!("byte {byte:#04x} at {pos} + 69"));
        }
    }
}

/// `default` property-test cases, or fewer when `URISCAN_PROPTEST_CASES` says
/// so (under qemu, say).
fn cases(default: u32) -> u32 {
    std::env::var("URISCAN_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(default, |n: u32| n.min(default))
}

fn uri_bytes() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        5 => prop::sample::select(b":/?#[]@%".to_vec()),
        3 => prop::sample::select(b"0123456789abcdefABCDEFv.".to_vec()),
        2 => prop::sample::select(b"xyz-_~!$&'()*+,;=".to_vec()),
        1 => 0x80u8..=0xff,
        1 => any::<u8>(),
    ];
    prop::collection::vec(byte, 0..300)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(3000)))]

    #[test]
    fn random_inputs_agree(input in uri_bytes()) {
        same(&input, "random");
    }

    #[test]
    fn random_authority_inputs_agree(tail in uri_bytes()) {
        let mut input = b"s://".to_vec();
        input.extend_from_slice(&tail);
        same(&input, "authority");
        let mut input = b"//[".to_vec();
        input.extend_from_slice(&tail);
        same(&input, "ip literal");
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(300)))]

    #[test]
    fn random_chunks_agree(lines in prop::collection::vec(uri_bytes(), 0..20), crlf in any::<bool>(), last_lf in any::<bool>()) {
        let mut data = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            let clean: Vec<u8> = l.iter().copied().filter(|&b| b != b'\n').collect();
            data.extend_from_slice(&clean);
            if i + 1 < lines.len() || last_lf {
                data.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
            }
        }
        check_chunk(&data);
    }
}

/// A line built the way URIs are, from parts that are mostly right and
/// sometimes just wrong: a scheme (of 1 to 9 bytes, or a bad one) or none,
/// `//` and an authority (a name, IPv4 and near-IPv4 hosts, a port or a
/// near-port, userinfo, an IP literal) or none, then path, query and
/// fragment with good and bad percent-encodings, `@`, `:`, a second `#`.
/// Random bytes seldom make a valid URI; these reach every branch of stage
/// 2's fast path ([`crate::stage2`]) and the edges of its tests.
fn uri_lines() -> impl Strategy<Value = Vec<u8>> {
    let pick = |parts: &'static [&'static str]| prop::sample::select(parts);
    let scheme = pick(&[
        "",
        "",
        "h:",
        "http:",
        "https:",
        "git+ssh:",
        "abcdefgh:",
        "abcdefghi:",
        "a.b-c:",
        "1a:",
        "a_b:",
        ":",
        "ht%74p:",
        "HTTP:",
        "abcdefgh!:",
        // Past the first mask word: a long scheme, a long first segment.
        "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz:",
        "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz",
    ]);
    // An authority from a userinfo, a host and a port, each valid or not
    // (a second `@`, a `[` not at the host's start, an IP literal not
    // closed or with a special byte in it...), or none.
    let userinfo = pick(&[
        "", "", "", "u@", "u:p@", "%41@", "@", "u@v@", "u%4@", "[a]@", "u p@",
    ]);
    let host = pick(&[
        "",
        "example.com",
        "a",
        "1.2.3.4",
        "1.2.3.400",
        "1a.example",
        "01.2.3.4",
        "[::1]",
        "[v1.x]",
        "[1::2::3]",
        "[::1",
        "[::1%25]",
        "[::1@]",
        "[::1@",
        "[::1%",
        "[::1]x",
        "a[::1]",
        "a]",
        "h%41",
        "h%4",
        "h h",
        "a@b",
        "\u{e9}",
    ]);
    let port = pick(&["", "", ":80", ":", ":8a", ":65535", ":@", ":%31"]);
    let authority = prop_oneof![
        Just(String::new()),
        (userinfo, host, port).prop_map(|(u, h, p)| format!("//{u}{h}{p}")),
    ];
    let segment = pick(&[
        "", "/", "/a", "/b.c", "a", "a:b", "/%41", "/%4", "/%zz", "/@", "/ ", "/./", "//",
    ]);
    let query = pick(&["", "", "?", "?q=1", "?a/b?c", "?%20", "?%2", "?x y"]);
    let fragment = pick(&["", "", "#", "#f", "#f#g", "#%41", "#%", "#a?b/c"]);
    (
        scheme,
        authority,
        prop::collection::vec(segment, 0..4),
        query,
        fragment,
    )
        .prop_map(|(scheme, authority, path, query, fragment)| {
            let mut line = format!("{scheme}{authority}");
            line.extend(path);
            line.push_str(query);
            line.push_str(fragment);
            line.into_bytes()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(1000)))]

    /// Lines of URI parts, in chunks, so that they start at every offset of
    /// a mask word: every backend agrees with the reference.
    #[test]
    fn uri_like_chunks_agree(lines in prop::collection::vec(uri_lines(), 1..40)) {
        check_chunk(&lines.join(&b'\n'));
    }
}

/// `Chunk::uris_with` on every backend equals the reference on `Chunk::lines`,
/// with each window's lines decided as its sample of blocks says, and with
/// all of them through [`crate::stage2`]'s fast path first and through none.
fn check_chunk(data: &[u8]) {
    for force in [None, Some(false), Some(true)] {
        crate::stage2::FORCE_BRANCHY.set(force);
        check_chunk_now(data);
    }
    crate::stage2::FORCE_BRANCHY.set(None);
}

fn check_chunk_now(data: &[u8]) {
    let chunk = Chunk::new(data, 1, 0);
    for mode in [Mode::Reference, Mode::Uri, Mode::Absolute] {
        let expected: Vec<_> = chunk
            .lines()
            .map(|(n, l)| (n, l, parse_reference(l, mode)))
            .collect();
        for (_, line, r) in &expected {
            assert!(r.is_err() || line.is_ascii(), "a valid URI is ASCII");
        }
        for backend in Backend::available() {
            let got: Vec<_> = chunk.uris_with(mode, backend).collect();
            assert_eq!(got, expected, "{} {mode:?}", backend.name());
            // `fold`'s loop (what `for_each` runs) is a second copy.
            let mut folded = Vec::new();
            chunk
                .uris_with(mode, backend)
                .for_each(|item| folded.push(item));
            assert_eq!(folded, expected, "{} {mode:?} fold", backend.name());
        }
    }
}

#[test]
fn bundled_corpus_agrees() {
    let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/sample.txt")).unwrap();
    check_chunk(&data);
    for line in data.split(|&b| b == b'\n') {
        same(line, "corpus line");
    }
}

#[test]
fn lines_longer_than_a_window() {
    // Stage 1 classifies 64 KiB windows; a longer line goes to the reference
    // and the lines after it start a new window.
    let mut long = b"http://example.com/".to_vec();
    long.extend(std::iter::repeat_n(b'a', 70_000));
    let mut bad = long.clone();
    bad[50_000] = b' ';
    let mut data = Vec::new();
    for line in [&b"http://a/"[..], &long, b"b c", &bad, b"//x/y", &long] {
        data.extend_from_slice(line);
        data.push(b'\n');
    }
    check_chunk(&data);
    // Lines that end exactly at, just before and just after a window's end.
    for shift in 0..3 {
        let mut data = vec![b'x'; 65_536 - 3 + shift];
        data.extend_from_slice(b"\nhttp://a/%41\r\nc d\n");
        check_chunk(&data);
    }
}

/// Lines about as long as a lane (the 128 bits of masks from a line's
/// offset in the window rounded down to 8), at the first offsets of a
/// window, where `g / 8` is below `g % 8`: a line whose LF is past its lane
/// is decided in the lane when it fits (`g % 8 + len <= 128`) and on the
/// window's words when not, in `Scanner::line` and again in `Scanner::why`
/// (for the error of an invalid one), and a wrong byte at its end or a
/// scheme's `:` past the lane is seen either way.
#[test]
fn lines_about_a_lane_long() {
    for g in 0..16 {
        for len in 118..=132 {
            let mut lines = Vec::new();
            for last in [b'b', b' '] {
                let mut line = b"http://a/".to_vec();
                line.extend(std::iter::repeat_n(b'b', len - 10));
                line.push(last);
                lines.push(line);
            }
            // A long scheme, then an invalid byte.
            let mut line = vec![b's'; len - 3];
            line.extend_from_slice(b": b");
            lines.push(line);
            for line in lines {
                assert_eq!(line.len(), len);
                let mut data = Vec::new();
                if g > 0 {
                    data.extend(std::iter::repeat_n(b'x', g - 1));
                    data.push(b'\n');
                }
                data.extend_from_slice(&line);
                data.push(b'\n');
                check_chunk(&data);
            }
        }
    }
}

/// An invalid line's error is its own: the scanner keeps the error of the
/// last line it found invalid in its lane, with the line's offset, and
/// hands it over for that offset only. Here it keeps one in a window that
/// starts at 65,536 (for `http://a/ b`, the second line there), and the
/// next window starts at 131,072 with an invalid line longer than a lane,
/// whose error comes from the masks when asked for.
#[test]
fn kept_errors_are_of_their_line() {
    let mut data = vec![b'x'; 65_535];
    data.push(b'\n');
    data.extend_from_slice(b"a\nhttp://a/ b\n");
    while data.len() < 131_072 {
        let room = 131_072 - data.len();
        let len = if room > 200 { 100 } else { room };
        data.extend_from_slice(b"http://example.com/");
        data.extend(std::iter::repeat_n(b'x', len - 20));
        data.push(b'\n');
    }
    assert_eq!(data.len(), 131_072);
    data.extend_from_slice(b"http://a/");
    data.extend(std::iter::repeat_n(b'b', 200));
    data.extend_from_slice(b" c\n");
    check_chunk(&data);
}

#[test]
fn percent_encodings_across_blocks_and_windows() {
    // Stage 1 marks the `%`s followed by two hex digits per block, looking
    // into the next block for the digits: put every kind of `%` at every
    // offset of a block, in a chunk longer than a window.
    let mut data = Vec::new();
    for pad in 0..140 {
        for end in [
            "%41",
            "%4",
            "%",
            "%4g",
            "%g1",
            "%41x",
            "@",
            "%41%",
            "%%41",
            "%2f/%7E?%aa#%0",
        ] {
            data.extend_from_slice(b"http://a/");
            data.extend(std::iter::repeat_n(b'x', pad));
            data.extend_from_slice(end.as_bytes());
            data.push(b'\n');
        }
    }
    assert!(data.len() > 65_536);
    check_chunk(&data);
    // The same as single URIs: short ones in registers, longer ones (up to
    // 512 bytes) read block by block.
    for line in data.split(|&b| b == b'\n').step_by(7) {
        same(line, "percent-encoding");
    }
    for pad in 100..300 {
        for end in ["%41", "%4", "%4g", "%g1", "%41%", "%%41"] {
            let mut line = b"http://a/".to_vec();
            line.extend(std::iter::repeat_n(b'x', pad));
            line.extend_from_slice(end.as_bytes());
            line.extend_from_slice(b"/y");
            same(&line, "percent-encoding in a long URI");
        }
    }
    // A `%` and its digits on both sides of a window's end.
    for shift in 0..4 {
        let mut data = vec![b'x'; 65_536 - 12 + shift];
        data.extend_from_slice(b"\nhttp://a/%41%42\nhttp://b/%4\n");
        check_chunk(&data);
    }
}

#[test]
fn line_ends_in_chunks() {
    check_chunk(b"");
    check_chunk(b"\n");
    check_chunk(b"\r\n\r\n");
    check_chunk(b"a\rb\r\r\n");
    let mut long = b"http://example.com/".to_vec();
    long.extend(std::iter::repeat_n(b'x', 300));
    for extra in [0usize, 1, 44, 45, 46, 108, 109, 110, 236, 237, 238, 300] {
        let mut data = long[..19 + extra].to_vec();
        data.extend_from_slice(b"\r\nhttp://b/ c\n");
        data.extend_from_slice(&long[..19 + extra]);
        check_chunk(&data);
    }
}

/// A scanner's bit arrays go to the thread's next scanner when it is done
/// (`BitArrays::recycle`): what they hold from a full window of other
/// lines must not show in a short chunk's lines, nor in their notes.
#[test]
fn recycled_arrays_hold_nothing_of_earlier_chunks() {
    use crate::{Normalizer, Profile};
    // A window full of every class: specials, uppercase, `%`, `/.`, CRs.
    let junk: Vec<u8> = b"HTTP://A.B/%zz/./..?#[::]:@ {}|\\\r%41/.%\n"
        .iter()
        .cycle()
        .take(3 * 65_536)
        .copied()
        .collect();
    let shorts: [&[u8]; 7] = [
        b"http://a/b\n",
        b"http://a/b%20c?d\nhttp://a/b?c=%41#e\nhttp://a/;p\n",
        b"http://a/b\nc\n/x/y?z",
        b"s:a\n//h\n\n?\n#\n",
        b"http://example.com/abcdefghijklmnop/qrstuvwxyz/0123456789\n",
        b"a b\nhttp://a/%4\n",
        b"x",
    ];
    // (Web reads the `%`-free note, rfc3986 the others.)
    let normalizers = [Profile::Rfc3986, Profile::Web].map(Normalizer::new);
    for backend in Backend::available() {
        for short in shorts {
            for noting in [false, true] {
                let uris = |data| {
                    let uris = Chunk::new(data, 1, 0).uris_with(Mode::Reference, backend);
                    if noting {
                        uris.for_normalizer()
                    } else {
                        uris
                    }
                };
                uris(&junk).for_each(drop);
                let mut got = Vec::new();
                uris(short).for_each(|(_, line, r)| {
                    // The notes show in the normal forms' shortcuts.
                    let normal = r
                        .as_ref()
                        .ok()
                        .map(|u| normalizers.each_ref().map(|n| n.is_normal(u)));
                    got.push((line, r, normal));
                });
                let expected: Vec<_> = Chunk::new(short, 1, 0)
                    .lines()
                    .map(|(_, line)| {
                        let r = parse_reference(line, Mode::Reference);
                        let normal = r
                            .as_ref()
                            .ok()
                            .map(|u| normalizers.each_ref().map(|n| n.is_normal(u)));
                        (line, r, normal)
                    })
                    .collect();
                assert_eq!(got, expected, "{} {noting}", backend.name());
            }
        }
    }
}

/// A mask's class index ([`crate::classes::mask`]) is the order of its
/// fields: one vocabulary for `Masks`, a `Group`'s arrays and stage 2.
#[test]
fn masks_by_class_index() {
    use crate::classes::mask;
    let m = Masks {
        lf: 1,
        colon: 2,
        slash: 4,
        question: 8,
        hash: 16,
        special: 32,
        pct: 64,
        hex: 128,
    };
    for c in 0..mask::COUNT {
        assert_eq!(m.class(c), 1 << c, "class {c}");
    }
    assert_eq!(m.class(mask::PATHBAD), 0);
}

/// `count_byte` of every backend equals a plain count, across the lengths
/// where a lane could overflow: every byte a match for 255 vectors and
/// more (255 is as many as a byte lane holds), at offsets that misalign
/// the loads, for a needle with the high bit set and for zero too.
#[test]
fn count_byte_counts_full_lanes() {
    for needle in [b'\n', 0xFF, 0] {
        let data = vec![needle; 3 * 255 * 64 + 200];
        let (lane, full) = (255 * 32, 255 * 64);
        let short = [0, 1, 31, 32, 63, 64, 65, lane, lane + 1, full - 1];
        let long = [full, full + 1, full + 64, 2 * full + 5, 3 * full];
        for len in short.into_iter().chain(long) {
            for offset in [0, 1, 7, 33] {
                let part = &data[offset..offset + len];
                for backend in Backend::available() {
                    assert_eq!(
                        backend.count_byte(part, needle),
                        len as u64,
                        "{} len {len} offset {offset} needle {needle:#x}",
                        backend.name()
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(300)))]

    /// On random bytes, dense or sparse in the needle, at any offset,
    /// every backend's `count_byte` equals a plain count. (The bytes come
    /// from a seed: a strategy per byte made this test half the library
    /// suite's time, which every mutant of a mutation run pays.)
    #[test]
    fn count_byte_agrees(
        len in 0usize..40_000,
        seed in any::<u64>(),
        offset in 0usize..64,
        needle in prop_oneof![Just(b'\n'), any::<u8>()],
    ) {
        // Half LFs, a sixth CRs, a third any byte, as a splitmix64 draws.
        let mut state = seed;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = state;
                z = (z ^ z >> 30).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ z >> 27).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^= z >> 31;
                match z % 6 {
                    0..=2 => b'\n',
                    3 => b'\r',
                    _ => (z >> 8) as u8,
                }
            })
            .collect();
        let part = &bytes[offset.min(bytes.len())..];
        let want = part.iter().filter(|&&b| b == needle).count() as u64;
        for backend in Backend::available() {
            prop_assert_eq!(backend.count_byte(part, needle), want, "{}", backend.name());
        }
    }
}
