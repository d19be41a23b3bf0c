//! Stage 2's helpers alone, and its choice of path (the agreement with the
//! reference is tested in `src/simd/tests.rs`).

use proptest::prelude::*;

use super::lanes::{Bits, Lane, LineMasks};
use super::plain::head_scheme_misfits;
use super::*;
use crate::classes;

#[test]
fn valid_percent_encodings_are_normal_as_the_classes_say() {
    let hex = b"0123456789ABCDEFabcdef";
    for &h in hex {
        for &l in hex {
            assert_eq!(
                super::window::valid_pct_is_normal(h, l),
                classes::pct_is_normal(h, l),
                "%{}{}",
                h as char,
                l as char
            );
        }
    }
}

#[test]
fn bit_ranges() {
    for k in 0..=200usize {
        let below = if k >= 128 { !0u128 } else { (1u128 << k) - 1 };
        assert_eq!(<u128 as Bits>::below(k), below, "{k}");
        assert_eq!(<u128 as Bits>::from_bit(k), !below, "{k}");
        let below = if k >= 64 { !0u64 } else { (1u64 << k) - 1 };
        assert_eq!(<u64 as Bits>::below(k), below, "{k}");
        assert_eq!(<u64 as Bits>::from_bit(k), !below, "{k}");
    }
}

/// A window of request targets goes straight to `decide`; one of
/// absolute URIs, or of a mix, through `decide_plain` first.
#[test]
fn relative_windows_skip_the_fast_path() {
    let window = |line: &str, every: usize, other: &str| -> bool {
        let data: String = (0..2000)
            .map(|i| {
                if every > 0 && i % every == 0 {
                    other
                } else {
                    line
                }
            })
            .collect();
        let mut s = Scanner::default();
        s.fill(Backend::current(), data.as_bytes(), 0);
        s.bits.branchy
    };
    assert!(window("/a/b.png?x=1\n", 0, ""));
    assert!(window("a/b.png\n", 0, ""));
    assert!(!window("http://a/b.png\n", 0, ""));
    assert!(!window("/a/b.png\n", 3, "https://example.com/\n"));
}

/// Whether `head_scheme_misfits` of `word` says of each byte what the
/// table says.
fn misfits_agree(word: [u8; 8]) -> Result<(), String> {
    let misfits = head_scheme_misfits(u64::from_le_bytes(word));
    for (i, &c) in word.iter().enumerate() {
        let class = if i == 0 {
            classes::ALPHA
        } else {
            classes::SCHEME
        };
        if (misfits >> (8 * i + 7) & 1 == 0) != classes::is(c, class)
            || misfits >> (8 * i) & 0x7f != 0
        {
            return Err(format!(
                "{word:?}: byte {i} ({c:#04x}), misfits {misfits:#018x}"
            ));
        }
    }
    Ok(())
}

#[test]
fn scheme_word_matches_the_table() {
    // Every byte value at every position, among scheme bytes and among
    // bytes that are not (`0xff` and `0x7f`, whose neighbours a carry
    // would reach).
    for filler in [*b"abcdefgh", *b"z9+-.Z0a", [0xff; 8], [0x7f; 8], [0; 8]] {
        for pos in 0..8 {
            for b in 0..=255u8 {
                let mut word = filler;
                word[pos] = b;
                misfits_agree(word).unwrap();
            }
        }
    }
}

proptest! {
    /// A window's classes are the blocks' masks, and `PATHBAD` is
    /// exactly the special bytes but the `%`s followed by two hex
    /// digits within the window.
    #[test]
    fn window_bitmaps_match_bytes(
        data in prop::collection::vec(prop::sample::select(b"%4aG@ /:?#\n\xc3".to_vec()), 0..400),
    ) {
        for backend in Backend::available() {
            let mut s = Scanner::default();
            if data.is_empty() {
                continue;
            }
            s.fill(backend, &data, 0);
            let view = View { m: &s.bits, base: 0 };
            let hex = |i: usize| data.get(i).is_some_and(u8::is_ascii_hexdigit);
            for (i, &b) in data.iter().enumerate() {
                let special = classes::SPECIAL[b as usize];
                let bad = special && !(b == b'%' && hex(i + 1) && hex(i + 2));
                prop_assert_eq!(view.first(PATHBAD, i, i + 1) == i, bad, "{} at {}", backend.name(), i);
                prop_assert_eq!(view.first(SPECIAL, i, i + 1) == i, special);
                prop_assert_eq!(view.first(LF, i, i + 1) == i, b == b'\n');
                prop_assert_eq!(view.first(COLON | SLASH, i, i + 1) == i, b == b':' || b == b'/');
                // The one-byte line at `i` as stage 2's lanes take it.
                let lane = Lane::of_window(&s.bits, i, 1);
                prop_assert_eq!(lane.first(PATHBAD, 0, 1) == 0, bad, "{} lane at {}", backend.name(), i);
                prop_assert_eq!(lane.first(SPECIAL, 0, 1) == 0, special);
                prop_assert_eq!(lane.first(COLON, 0, 1) == 0, b == b':');
                prop_assert_eq!(lane.first(SLASH, 0, 1) == 0, b == b'/');
                prop_assert_eq!(lane.first(QUESTION | HASH, 0, 1) == 0, b == b'?' || b == b'#');
            }
        }
    }

    #[test]
    fn scheme_word_matches_the_table_on_random_words(word in any::<[u8; 8]>()) {
        prop_assert_eq!(misfits_agree(word), Ok(()));
    }
}
