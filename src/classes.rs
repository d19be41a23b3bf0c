//! The 256-entry byte-class table: one bit per ABNF character class of RFC 3986
//! Appendix A, built by a `const fn`.
//!
//! Each component's allowed set is an OR of class bits ([`PATH`], [`QUERY`]...),
//! so the validator tests any byte against any rule with one load and one AND.
//! `%` has a class of its own: `pct-encoded` needs two more bytes, which the
//! validator checks itself.

/// `ALPHA`: `A-Z a-z`.
pub(crate) const ALPHA: u16 = 1 << 0;
/// `DIGIT`: `0-9`.
pub(crate) const DIGIT: u16 = 1 << 1;
/// `unreserved` minus `ALPHA` and `DIGIT`: `- . _ ~`.
pub(crate) const UNRESERVED_MARK: u16 = 1 << 2;
/// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="`.
pub(crate) const SUB_DELIM: u16 = 1 << 3;
/// `":"`.
pub(crate) const COLON: u16 = 1 << 4;
/// `"@"`.
pub(crate) const AT: u16 = 1 << 5;
/// `"/"`.
pub(crate) const SLASH: u16 = 1 << 6;
/// `"?"`.
pub(crate) const QUESTION: u16 = 1 << 7;
/// `HEXDIG`: `0-9 A-F a-f`.
pub(crate) const HEXDIG: u16 = 1 << 8;
/// `"+" / "-" / "."`: the non-alphanumeric scheme characters.
pub(crate) const SCHEME_MARK: u16 = 1 << 9;
/// `"%"`: the start of `pct-encoded`.
pub(crate) const PERCENT: u16 = 1 << 10;
/// `gen-delims` not covered above: `"#" / "[" / "]"`.
pub(crate) const GEN_OTHER: u16 = 1 << 11;

/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`.
pub(crate) const UNRESERVED: u16 = ALPHA | DIGIT | UNRESERVED_MARK;
/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, after the first byte.
pub(crate) const SCHEME: u16 = ALPHA | DIGIT | SCHEME_MARK;
/// `userinfo = *( unreserved / pct-encoded / sub-delims / ":" )`, without `%`.
pub(crate) const USERINFO: u16 = UNRESERVED | SUB_DELIM | COLON;
/// `reg-name = *( unreserved / pct-encoded / sub-delims )`, without `%`.
pub(crate) const REG_NAME: u16 = UNRESERVED | SUB_DELIM;
/// The tail of `IPvFuture`: `1*( unreserved / sub-delims / ":" )`.
pub(crate) const IPVFUTURE: u16 = UNRESERVED | SUB_DELIM | COLON;
/// `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"`, without `%`.
pub(crate) const PCHAR: u16 = UNRESERVED | SUB_DELIM | COLON | AT;
/// A path: `pchar` and `"/"`, without `%`.
pub(crate) const PATH: u16 = PCHAR | SLASH;
/// `query = fragment = *( pchar / "/" / "?" )`, without `%`.
pub(crate) const QUERY: u16 = PCHAR | SLASH | QUESTION;
/// The URI alphabet: `unreserved / reserved / "%"`. A byte outside it can stand
/// nowhere in a URI.
pub(crate) const URI_ALPHABET: u16 = QUERY | PERCENT | GEN_OTHER;

const fn class_of(b: u8) -> u16 {
    let mut c = 0;
    if b.is_ascii_alphabetic() {
        c |= ALPHA;
    }
    if b.is_ascii_digit() {
        c |= DIGIT;
    }
    if b.is_ascii_hexdigit() {
        c |= HEXDIG;
    }
    match b {
        b'-' | b'.' | b'_' | b'~' => c |= UNRESERVED_MARK,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' => {
            c |= SUB_DELIM
        }
        b':' => c |= COLON,
        b'@' => c |= AT,
        b'/' => c |= SLASH,
        b'?' => c |= QUESTION,
        b'%' => c |= PERCENT,
        b'#' | b'[' | b']' => c |= GEN_OTHER,
        _ => {}
    }
    if matches!(b, b'+' | b'-' | b'.') {
        c |= SCHEME_MARK;
    }
    c
}

const fn build() -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = class_of(i as u8);
        i += 1;
    }
    t
}

/// The class bits of every byte value.
pub(crate) static TABLE: [u16; 256] = TABLE_CONST;

/// Whether byte `b` is in any of the classes of `mask`.
#[inline(always)]
pub(crate) fn is(b: u8, mask: u16) -> bool {
    TABLE[b as usize] & mask != 0
}

/// The bytes the fast path's stage 2 looks at one by one: `%` `@` `[` `]`
/// and every byte outside the URI alphabet. All others are `unreserved`,
/// `sub-delims` or one of `: / ? #`, which stage 2 handles with masks.
pub(crate) const SPECIAL: [bool; 256] = {
    let plain = UNRESERVED | SUB_DELIM | COLON | SLASH | QUESTION;
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = TABLE_CONST[i] & plain == 0 && i != b'#' as usize;
        i += 1;
    }
    t
};

/// `HEXDIG`, as a set.
pub(crate) const HEX: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = TABLE_CONST[i] & HEXDIG != 0;
        i += 1;
    }
    t
};

/// The classes of stage 1's masks (one `u64` per class per 64-byte block,
/// bit `i` for byte `i`), by index: the order of [`crate::Masks`]' fields,
/// of a [`crate::simd::Group`]'s arrays and of stage 2's selector bits
/// (`1 << index`). One vocabulary for the three: the SIMD tables that
/// compute them are built from this module's table ([`SPECIAL`], [`HEX`]).
pub(crate) mod mask {
    /// `\n`.
    pub(crate) const LF: usize = 0;
    /// `:`.
    pub(crate) const COLON: usize = 1;
    /// `/`.
    pub(crate) const SLASH: usize = 2;
    /// `?`.
    pub(crate) const QUESTION: usize = 3;
    /// `#`.
    pub(crate) const HASH: usize = 4;
    /// [`super::SPECIAL`]: `%` `@` `[` `]` and every byte outside the URI
    /// alphabet.
    pub(crate) const SPECIAL: usize = 5;
    /// `%`.
    pub(crate) const PCT: usize = 6;
    /// [`super::HEX`]: `HEXDIG`.
    pub(crate) const HEX: usize = 7;
    /// How many classes stage 1 computes.
    pub(crate) const COUNT: usize = 8;
    /// Stage 2's own class, derived from three of stage 1's: `SPECIAL` but
    /// each `%` followed by two hex digits.
    pub(crate) const PATHBAD: usize = 8;
}

// Percent-encoding helpers (`pct-encoded = "%" HEXDIG HEXDIG`).

/// Whether the `%` at `i` is followed by two hex digits before `end`.
#[inline(always)]
pub(crate) fn is_pct_encoded(input: &[u8], i: usize, end: usize) -> bool {
    i + 2 < end && is(input[i + 1], HEXDIG) && is(input[i + 2], HEXDIG)
}

/// Whether `%` `h` `l` is a percent-encoding in normal form: two uppercase
/// hex digits, of a byte that is not `unreserved`.
#[inline(always)]
pub(crate) fn pct_is_normal(h: u8, l: u8) -> bool {
    let upper_hex = |b: u8| b.is_ascii_digit() || (b'A'..=b'F').contains(&b);
    upper_hex(h) && upper_hex(l) && !is(hex_value(h) << 4 | hex_value(l), UNRESERVED)
}

/// The hex digits by value, lowercase.
pub(crate) const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";

/// The hex digits by value, uppercase (RFC 3986 section 2.1's choice for
/// percent-encodings).
pub(crate) const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// `%HH`: the percent-encoding of `b`, in the hex `digits` ([`HEX_UPPER`]
/// or [`HEX_LOWER`]).
#[inline(always)]
pub(crate) fn pct_encode(b: u8, digits: &[u8; 16]) -> [u8; 3] {
    [
        b'%',
        digits[usize::from(b >> 4)],
        digits[usize::from(b & 15)],
    ]
}

/// The value of the hex digit `b` (`0-9 A-F a-f`).
#[inline(always)]
pub(crate) fn hex_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        _ => b - b'A' + 10,
    }
}

const TABLE_CONST: [u16; 256] = build();

/// `name` (at most eight bytes) as one word, byte `i` at bits `8 * i`: a
/// scheme of up to eight bytes is then compared with a known one in one
/// step (the default ports' schemes, `uses_params`).
pub(crate) const fn name_word(name: &[u8]) -> u64 {
    let mut w = 0;
    let mut i = 0;
    while i < name.len() {
        w |= (name[i] as u64) << (8 * i);
        i += 1;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_match_the_abnf() {
        let unreserved = |b: u8| b.is_ascii_alphanumeric() || b"-._~".contains(&b);
        let sub = |b: u8| b"!$&'()*+,;=".contains(&b);
        let gen = |b: u8| b":/?#[]@".contains(&b);
        for b in 0..=255u8 {
            assert_eq!(is(b, UNRESERVED), unreserved(b), "unreserved {b:#x}");
            assert_eq!(is(b, SUB_DELIM), sub(b), "sub-delims {b:#x}");
            assert_eq!(
                is(b, PCHAR),
                unreserved(b) || sub(b) || b == b':' || b == b'@',
                "pchar {b:#x}"
            );
            assert_eq!(
                is(b, URI_ALPHABET),
                unreserved(b) || sub(b) || gen(b) || b == b'%',
                "alphabet {b:#x}"
            );
            assert_eq!(
                is(b, SCHEME),
                b.is_ascii_alphanumeric() || b"+-.".contains(&b)
            );
            assert_eq!(is(b, HEXDIG), b.is_ascii_hexdigit());
            assert_eq!(is(b, REG_NAME), unreserved(b) || sub(b));
            assert_eq!(
                SPECIAL[b as usize],
                !(unreserved(b) || sub(b) || b":/?#".contains(&b)),
                "special {b:#x}"
            );
        }
    }
}
