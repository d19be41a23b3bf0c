//! NFKC (Unicode Standard Annex #15) as IDNA 2003's nameprep applies it
//! through Python's `unicodedata.ucd_3_2_0.normalize("NFKC")`: the full
//! compatibility decompositions of Unicode 3.2, Hangul syllables by their
//! algorithm, canonical ordering and canonical composition by the classes
//! and compositions of the Unicode that Python carries (14.0 in Python
//! 3.11), which that function reads as well. So a character Unicode 3.2
//! did not assign is not decomposed, but two characters compose into one
//! Unicode assigned later (`ᬅ` and U+1B35 into `ᬆ`), as in Python.
//!
//! The data ([`ucd`]) is generated; its text tables are indexed once, on
//! first use.

use super::ucd;
use std::sync::OnceLock;

const S_BASE: u32 = 0xac00;
const L_BASE: u32 = 0x1100;
const V_BASE: u32 = 0x1161;
const T_BASE: u32 = 0x11a7;
const L_COUNT: u32 = 19;
const V_COUNT: u32 = 21;
const T_COUNT: u32 = 28;
const N_COUNT: u32 = V_COUNT * T_COUNT;
const S_COUNT: u32 = L_COUNT * N_COUNT;

/// `s` in NFKC.
pub(super) fn nfkc(s: &str) -> String {
    let mut chars = Vec::with_capacity(s.len());
    for c in s.chars() {
        decompose(c, &mut chars);
    }
    order(&mut chars);
    compose(&chars).into_iter().collect()
}

/// Whether NFKC may change `c` on its own or the character before it: `c`
/// decomposes, is a mark or composes with a character before it (a
/// conservative test: `true` for some that change nothing).
pub(super) fn touches(c: char) -> bool {
    let u = c as u32;
    (S_BASE..S_BASE + S_COUNT).contains(&u)
        || class(c) != 0
        || second(c)
        || decomposition(c).is_some()
}

/// Whether NFKC leaves any text made of such characters as it is: the
/// decomposition of `c` starts with a starter that composes with nothing
/// before it, and NFKC of `c` alone is `c`. Then canonical ordering never
/// reaches across two of them, and each decomposition composes back to its
/// character without the one before it taking part.
pub(super) fn inert(c: char) -> bool {
    let mut chars = Vec::with_capacity(4);
    decompose(c, &mut chars);
    class(chars[0]) == 0 && !second(chars[0]) && {
        order(&mut chars);
        compose(&chars) == [c]
    }
}

/// Whether `c` composes with a character before it.
fn second(c: char) -> bool {
    let u = c as u32;
    (V_BASE..V_BASE + V_COUNT).contains(&u)
        || (T_BASE + 1..T_BASE + T_COUNT).contains(&u)
        || tables().seconds.binary_search(&c).is_ok()
}

/// Appends the full compatibility decomposition of `c` to `out`.
fn decompose(c: char, out: &mut Vec<char>) {
    let u = c as u32;
    if (S_BASE..S_BASE + S_COUNT).contains(&u) {
        let s = u - S_BASE;
        let jamo = |u| char::from_u32(u).expect("a Hangul jamo");
        out.push(jamo(L_BASE + s / N_COUNT));
        out.push(jamo(V_BASE + s % N_COUNT / T_COUNT));
        if !s.is_multiple_of(T_COUNT) {
            out.push(jamo(T_BASE + s % T_COUNT));
        }
    } else if let Some(d) = decomposition(c) {
        out.extend(d.chars());
    } else {
        out.push(c);
    }
}

/// Puts each run of marks (class other than 0) in the order of their
/// classes, keeping the order of marks of one class.
fn order(chars: &mut [char]) {
    for i in 1..chars.len() {
        let k = class(chars[i]);
        if k == 0 {
            continue;
        }
        let mut j = i;
        while j > 0 && class(chars[j - 1]) > k {
            chars.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Canonical composition of decomposed, ordered `chars`: each character
/// composes with the last starter before it when nothing between them
/// blocks it (a starter, or a mark of a class not below its own).
fn compose(chars: &[char]) -> Vec<char> {
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let mut starter: Option<usize> = None;
    for &c in chars {
        let k = class(c);
        if let Some(at) = starter {
            // The starter itself, last, has class 0: nothing blocks.
            let blocked = class(out[out.len() - 1]) >= k.max(1);
            if !blocked {
                if let Some(composed) = pair(out[at], c) {
                    out[at] = composed;
                    continue;
                }
            }
        }
        if k == 0 {
            starter = Some(out.len());
        }
        out.push(c);
    }
    out
}

/// What `first` and `second` compose to, if anything.
fn pair(first: char, second: char) -> Option<char> {
    let (a, b) = (first as u32, second as u32);
    if (L_BASE..L_BASE + L_COUNT).contains(&a) && (V_BASE..V_BASE + V_COUNT).contains(&b) {
        let s = S_BASE + ((a - L_BASE) * V_COUNT + b - V_BASE) * T_COUNT;
        return char::from_u32(s);
    }
    if (S_BASE..S_BASE + S_COUNT).contains(&a)
        && (a - S_BASE).is_multiple_of(T_COUNT)
        && (T_BASE + 1..T_BASE + T_COUNT).contains(&b)
    {
        return char::from_u32(a + b - T_BASE);
    }
    let pairs = &tables().pairs;
    pairs
        .binary_search_by(|&(x, y, _)| (x, y).cmp(&(first, second)))
        .ok()
        .map(|i| pairs[i].2)
}

/// The canonical combining class of `c`.
fn class(c: char) -> u8 {
    range(&ucd::CLASSES, c, |(first, last, _)| (first, last)).map_or(0, |(_, _, k)| k)
}

/// The full compatibility decomposition of `c` (not a Hangul syllable),
/// if it has one.
fn decomposition(c: char) -> Option<&'static str> {
    record(&tables().decompositions, c)
}

/// The entry of `table`, sorted, disjoint ranges whose `(first, last)`
/// `span` reads, that holds `c`.
pub(super) fn range<T: Copy>(table: &[T], c: char, span: impl Fn(T) -> (u32, u32)) -> Option<T> {
    let u = c as u32;
    let i = table.partition_point(|&t| span(t).1 < u);
    table.get(i).copied().filter(|&t| span(t).0 <= u)
}

/// The records of a generated text table ([`ucd::NFKD`],
/// `stringprep::B3`): each a character, then its text; NUL between them.
pub(super) fn records(text: &'static str) -> Vec<(char, &'static str)> {
    text.split('\0')
        .map(|record| {
            let mut chars = record.chars();
            let key = chars.next().expect("a record starts with its character");
            (key, chars.as_str())
        })
        .collect()
}

/// The text of `c`'s record in `records` (sorted by character), if any.
pub(super) fn record(records: &[(char, &'static str)], c: char) -> Option<&'static str> {
    let i = records.binary_search_by_key(&c, |&(k, _)| k).ok()?;
    Some(records[i].1)
}

/// The text tables of [`ucd`], indexed.
struct Tables {
    /// Each decomposable character and its decomposition, by character.
    decompositions: Vec<(char, &'static str)>,
    /// The canonical compositions, by their first two characters.
    pairs: Vec<(char, char, char)>,
    /// The second characters of the compositions, sorted.
    seconds: Vec<char>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let decompositions = records(ucd::NFKD);
        let all: Vec<char> = ucd::COMPOSE.chars().collect();
        let pairs: Vec<(char, char, char)> = all.chunks(3).map(|t| (t[0], t[1], t[2])).collect();
        let mut seconds: Vec<char> = pairs.iter().map(|&(_, b, _)| b).collect();
        seconds.sort_unstable();
        seconds.dedup();
        Tables {
            decompositions,
            pairs,
            seconds,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_are_sorted_and_whole() {
        let t = tables();
        assert!(t.decompositions.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(t.decompositions.iter().all(|(_, d)| !d.is_empty()));
        assert!(t
            .pairs
            .windows(2)
            .all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)));
        assert_eq!(ucd::COMPOSE.chars().count(), 3 * t.pairs.len());
        assert!(ucd::CLASSES.windows(2).all(|w| w[0].1 < w[1].0));
    }

    #[test]
    fn normalizes_as_annex_15_does() {
        let cases = [
            ("e\u{301}", "é"),
            ("ﬁ", "fi"),
            ("Ａ\u{308}", "Ä"),
            // Marks in class order (220 before 230), then composed.
            ("a\u{301}\u{316}", "á\u{316}"),
            ("a\u{316}\u{301}", "á\u{316}"),
            // Marks that compose with nothing, put in class order.
            ("x\u{301}\u{316}", "x\u{316}\u{301}"),
            ("x\u{316}\u{301}", "x\u{316}\u{301}"),
            (
                "x\u{301}\u{35c}\u{316}\u{300}",
                "x\u{316}\u{301}\u{300}\u{35c}",
            ),
            // A mark of the same class blocks the second, though the
            // first composes with nothing.
            ("a\u{33d}\u{301}", "a\u{33d}\u{301}"),
            // Two starters compose when next to each other, not across a mark.
            ("\u{b47}\u{b3e}", "\u{b4b}"),
            ("\u{b47}\u{301}\u{b3e}", "\u{b47}\u{301}\u{b3e}"),
            // A jamo after the 19 leading consonants composes with nothing.
            ("\u{1113}\u{1161}", "\u{1113}\u{1161}"),
            // A mark of the same class blocks the second.
            ("a\u{301}\u{300}", "á\u{300}"),
            // A starter between blocks composition.
            ("e\u{200b}\u{301}", "e\u{200b}\u{301}"),
            // Hangul: L V T jamo compose; a syllable decomposes and recomposes.
            ("\u{1100}\u{1161}\u{11a8}", "각"),
            ("\u{1100}\u{1161}", "가"),
            ("가\u{11a8}", "각"),
            ("\u{1100}\u{11a8}", "\u{1100}\u{11a8}"),
            ("각", "각"),
            // Syllables far into the block (U+D55C, U+AD6D, the last U+D7A3).
            ("\u{1112}\u{1161}\u{11ab}", "한"),
            ("하\u{11ab}", "한"),
            ("한국", "한국"),
            ("\u{1112}\u{1175}\u{11c2}", "\u{d7a3}"),
            // A singleton and a composition excluded from NFC.
            ("\u{212b}", "Å"),
            ("\u{958}", "\u{915}\u{93c}"),
            // Compatibility: ligature, fraction, circled, superscript.
            ("㎏", "kg"),
            ("½", "1⁄2"),
            ("①", "1"),
            ("x²", "x2"),
            // Marks out of order at the very start, with no starter.
            ("\u{301}\u{316}", "\u{316}\u{301}"),
            ("\u{301}\u{316}a", "\u{316}\u{301}a"),
            // Only a syllable of no trailing jamo takes one, and only one
            // of U+11A8..=U+11C2; nothing past the last syllable does.
            ("\u{ac00}\u{11a7}", "\u{ac00}\u{11a7}"),
            ("\u{ac00}\u{11a6}", "\u{ac00}\u{11a6}"),
            ("\u{ac01}\u{11a8}", "\u{ac01}\u{11a8}"),
            ("\u{d7a4}\u{11a8}", "\u{d7a4}\u{11a8}"),
            // Composed into a character Unicode 3.2 did not know.
            ("\u{1b05}\u{1b35}", "\u{1b06}"),
            // Not decomposed: assigned after Unicode 3.2 (Unicode 4.1).
            ("\u{2c7c}", "\u{2c7c}"),
            ("", ""),
        ];
        for (input, want) in cases {
            assert_eq!(nfkc(input), want, "{input:?}");
        }
    }

    #[test]
    fn decomposes_a_syllable_into_its_jamo() {
        let jamo = |c| {
            let mut out = Vec::new();
            decompose(c, &mut out);
            out
        };
        assert_eq!(jamo('가'), ['\u{1100}', '\u{1161}']);
        assert_eq!(jamo('각'), ['\u{1100}', '\u{1161}', '\u{11a8}']);
        assert_eq!(jamo('\u{d7a3}'), ['\u{1112}', '\u{1175}', '\u{11c2}']);
        assert_eq!(jamo('\u{d7a4}'), ['\u{d7a4}']);
    }

    #[test]
    fn touches_is_true_where_nfkc_changes_a_pair() {
        for c in [
            '\u{301}', 'ﬁ', '가', '\u{1161}', '\u{11a8}', '\u{3099}', '\u{b3e}',
        ] {
            assert!(touches(c), "{c:?}");
        }
        for c in ['a', 'ж', '日', 'א', '\u{1100}'] {
            assert!(!touches(c), "{c:?}");
        }
        // The ends of the Hangul ranges: syllables U+AC00..=U+D7A3, vowel
        // jamo U+1161..=U+1175, trailing jamo U+11A8..=U+11C2 (U+11A7,
        // "no trailing consonant", composes with nothing), and what lies
        // just outside them (unassigned in Unicode 3.2, or private use).
        for c in ['\u{ac00}', '\u{d7a3}', '\u{1175}', '\u{11c2}'] {
            assert!(touches(c), "{c:?}");
        }
        for c in [
            '\u{abff}', '\u{d7a4}', '\u{e000}', '\u{1160}', '\u{1176}', '\u{11a7}', '\u{11c3}',
        ] {
            assert!(!touches(c), "U+{:04X}", c as u32);
        }
        for c in ['\u{1161}', '\u{1175}', '\u{11a8}', '\u{11c2}', '\u{301}'] {
            assert!(second(c), "U+{:04X}", c as u32);
        }
        for c in [
            '\u{1160}', '\u{1176}', '\u{11a7}', '\u{11c3}', 'a', '\u{1100}',
        ] {
            assert!(!second(c), "U+{:04X}", c as u32);
        }
    }
}
