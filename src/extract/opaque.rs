//! The schemes whose URIs have no authority that extraction takes from
//! text (`mailto:`, `urn:`, `tel:`, `data:`, `news:`), and what must follow
//! each (rule C0 of docs/EXTRACT.md).

/// The schemes without `//` that start a URI in text.
pub(super) const OPAQUE: [&[u8]; 5] = [b"mailto", b"urn", b"tel", b"data", b"news"];

/// Whether `body`, what follows `scheme:` for a scheme of [`OPAQUE`] (not
/// empty), starts as that scheme's URIs do (rule C0), so that code and
/// prose that only look like one are left alone: `Data::Dumper` (Perl),
/// `audit_rule_data::buf` (C++), `def f(data:int)` (Python),
/// `mailto:str`, `tel:int`. A `:` never follows the scheme's; then:
/// - `mailto:` (RFC 6068) holds an address, so an `@`, or starts with its
///   header fields' `?`;
/// - `urn:` (RFC 8141) a namespace identifier (2 to 32 letters, digits and
///   `-`, neither end a `-`), a `:` and something after it;
/// - `tel:` (RFC 3966) a number: `+`, a digit, `*` or `(` first;
/// - `data:` (RFC 2397) a `,` after an optional media type (`type/subtype`,
///   then `;` parameters) or `;` parameters alone;
/// - `news:` (RFC 5538) anything else.
#[inline(never)]
pub(super) fn opaque_fits(scheme: &[u8], body: &[u8]) -> bool {
    let Some(&first) = body.first() else {
        return false;
    };
    if first == b':' {
        return false;
    }
    let is = |s: &[u8]| scheme.eq_ignore_ascii_case(s);
    if is(b"mailto") {
        first == b'?' || body.contains(&b'@')
    } else if is(b"urn") {
        let Some(c) = body.iter().position(|&b| b == b':') else {
            return false;
        };
        let nid = &body[..c];
        (2..=32).contains(&nid.len())
            && nid.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'-')
            && nid[0] != b'-'
            && nid[nid.len() - 1] != b'-'
            && c + 1 < body.len()
    } else if is(b"tel") {
        matches!(first, b'+' | b'0'..=b'9' | b'*' | b'(')
    } else if is(b"data") {
        let Some(comma) = body.iter().position(|&b| b == b',') else {
            return false;
        };
        let media = &body[..comma];
        let kind = &media[..media.iter().position(|&b| b == b';').unwrap_or(media.len())];
        let token = |t: &[u8]| {
            !t.is_empty()
                && t.iter()
                    .all(|&b| b.is_ascii_alphanumeric() || b"!#$&^_.+-".contains(&b))
        };
        kind.is_empty()
            || kind
                .iter()
                .position(|&b| b == b'/')
                .is_some_and(|s| token(&kind[..s]) && token(&kind[s + 1..]))
    } else {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::opaque_fits;

    /// Extraction's cut takes a `:` off the end of what it found, so these
    /// bodies only reach `opaque_fits` through a direct call.
    #[test]
    fn a_urn_needs_something_after_its_namespace() {
        assert!(opaque_fits(b"urn", b"ab:c"));
        assert!(opaque_fits(b"URN", b"isbn:0451450523"));
        assert!(!opaque_fits(b"urn", b"ab:"));
        assert!(!opaque_fits(b"urn", b"isbn"));
    }
}
