//! Stage 2 step by step: every line that [`super::plain::decide_plain`]
//! leaves (userinfo, IP literals, an `@` in the path, long schemes, invalid
//! lines), and every line of a window of relative references. Each step
//! branches on what it finds; the scheme and the authority that are not of
//! the usual shape are checked by the reference grammar's own code.

use super::lanes::LineMasks;
use super::plain::is_scheme;
use super::{Notes, Outcome, Verdict, COLON, HASH, PATHBAD, QUESTION, SLASH, SPECIAL};
use crate::classes::is_pct_encoded;
use crate::grammar::authority::Authority;
use crate::grammar::check::{
    check_authority, check_port, check_rest, check_scheme, colon_in_first_segment, missing_scheme,
};
use crate::grammar::error::{Component, Error, ErrorKind};
use crate::grammar::host::check_ip_literal;
use crate::grammar::split::{Span, Split};
use crate::grammar::Mode;

/// An invalid line's verdict: its error `e()` only when asked why, so that
/// the hot loop's instance (`WHY` false) computes nothing on that path.
#[inline(always)]
pub(super) fn invalid<const WHY: bool>(e: impl FnOnce() -> Option<Error>) -> Verdict {
    Verdict::Invalid(if WHY { e() } else { None })
}

/// Stage 2 proper: decides `line` from its masks `v`, with the reference's
/// error for an invalid line when `WHY`.
#[inline(always)]
pub(super) fn decide<const WHY: bool>(v: impl LineMasks, line: &[u8], mode: Mode) -> Verdict {
    let n = line.len();
    // 1. Scheme: up to the first of `: / ? #` when that is a `:` at > 0.
    let d = v.first_on(COLON | SLASH | QUESTION | HASH, 0, n);
    let mut pos = 0;
    let scheme = if d < n && d > 0 && line[d] == b':' {
        if !is_scheme(line, d) {
            return invalid::<WHY>(|| check_scheme(line, Span::new(0, d)).err());
        }
        pos = d + 1;
        Some(Span::new(0, d))
    } else {
        // A relative reference: not a URI, and not starting with `:`
        // (`path-noscheme`; any later `:` of its first segment would have
        // made a scheme).
        if mode != Mode::Reference {
            return invalid::<WHY>(|| Some(missing_scheme()));
        }
        if line.first() == Some(&b':') {
            return invalid::<WHY>(|| Some(colon_in_first_segment()));
        }
        None
    };
    // 2. Authority: `//` up to the first of `/ ? #`.
    let mut authority = None;
    let mut parts = Authority::NONE;
    if line[pos..].starts_with(b"//") {
        let start = pos + 2;
        let end = v.first_on(SLASH | QUESTION | HASH, start, n);
        let a = Span::new(start, end);
        match authority_parts(v, line, a) {
            Ok(p) => parts = p,
            Err(e) => return invalid::<WHY>(|| Some(e)),
        }
        authority = Some(a);
        pos = end;
    }
    // 3. Path, query and fragment.
    let h = v.first_on(HASH, pos, n);
    if h < n && (mode == Mode::Absolute || v.first_on(HASH, h + 1, n) < n) {
        return invalid::<WHY>(|| rest_error(v, line, pos, h, mode));
    }
    // (A `PATHBAD` byte of the line is an `@` or one not allowed there.)
    let ok = v.all_on(PATHBAD, pos, n, |p| line[p] == b'@');
    if !ok {
        return invalid::<WHY>(|| rest_error(v, line, pos, h, mode));
    }
    let q = v.first(QUESTION, pos, h);
    Verdict::Valid(Outcome {
        valid: true,
        split: Split::new(
            scheme,
            authority,
            Span::new(pos, q),
            (q < h).then(|| Span::new(q + 1, h)),
            (h < n).then(|| Span::new(h + 1, n)),
            n,
        ),
        authority: parts,
        notes: Notes::NONE,
    })
}

/// The parts of the authority `line[start..end]`, found from its masks
/// `v`: its special bytes (few or none) are looked at one by one. The
/// first `@` ends a userinfo, a `[` that starts the host opens an
/// IP literal up to the next special byte, which must be its `]` and the
/// authority's last; any other special byte must start a percent-encoding.
/// Then a port of digits after the host's first `:` (or after the `]`).
/// The reference's result
/// ([`check_authority`], which decides an authority not of this shape):
/// the same parts, or the same error.
///
/// Out of line: it serves the few lines that [`decide_plain`] leaves, and
/// inlined into the hot loop it cost the usual line 0.5 ns.
#[inline(never)]
pub(super) fn authority_parts(v: impl LineMasks, line: &[u8], a: Span) -> Result<Authority, Error> {
    authority_of_shape(v, line, a.start, a.end)
        .or_else(|e| e.map_or_else(|| check_authority(line, a), Err))
}

/// [`authority_parts`] of an authority of its shape; `Err(None)` for any
/// other.
#[inline(always)]
pub(super) fn authority_of_shape(
    v: impl LineMasks,
    line: &[u8],
    start: usize,
    end: usize,
) -> Result<Authority, Option<Error>> {
    // A port from `from` (to `end`).
    let port = |from: usize| check_port(line, Span::new(from.min(end), end)).map_err(Some);
    let mut host = start;
    let mut p = v.first(SPECIAL, start, end);
    while p < end {
        match line[p] {
            b'%' if is_pct_encoded(line, p, end) => {}
            b'@' if host == start => host = p + 1,
            b'[' if p == host => {
                // The next special byte is the literal's `]` (the first,
                // as the reference finds it), and none follows (no `@`
                // after it, which would have made all before it a
                // userinfo).
                let close = v.first(SPECIAL, p + 1, end);
                if close == end || line[close] != b']' || v.first(SPECIAL, close + 1, end) < end {
                    return Err(None);
                }
                let kind = check_ip_literal(line, p + 1, close).map_err(Some)?;
                let after = close + 1;
                if after < end && line[after] != b':' {
                    let e = Error::new(after, Component::Authority, ErrorKind::AfterIpLiteral);
                    return Err(Some(e));
                }
                port(after + 1)?;
                return Ok(Authority::new(
                    start,
                    [host, after],
                    end,
                    Some(kind),
                    after < end,
                ));
            }
            _ => return Err(None),
        }
        p = v.first(SPECIAL, p + 1, end);
    }
    // Only `unreserved`, `sub-delims`, `:` and percent-encodings from
    // `host` on: a `reg-name` or `IPv4address`, then a port.
    let colon = v.first(COLON, host, end);
    port(colon + 1)?;
    Ok(Authority::new(start, [host, colon], end, None, colon < end))
}

/// The reference's error for a line whose scheme and authority are valid
/// and whose path, query or fragment is not (from `pos`; the first `#` at
/// `h`, or none at the line's end). A byte there is wrong exactly when it
/// is a `PATHBAD` byte other than an `@` (a special byte that does not start
/// a good percent-encoding), or a second `#`: the first such byte is found
/// on the masks, and the reference's own checks ([`check_rest`]) start
/// there, so that they give its error at once.
#[cold]
pub(super) fn rest_error(
    v: impl LineMasks,
    line: &[u8],
    pos: usize,
    h: usize,
    mode: Mode,
) -> Option<Error> {
    let n = line.len();
    let mut from = n;
    v.all_on(PATHBAD, pos, n, |p| {
        let ok = line[p] == b'@';
        if !ok {
            from = p;
        }
        ok
    });
    if h < n {
        from = from.min(v.first_on(HASH, h + 1, n));
    }
    let q = v.first(QUESTION, pos, h);
    check_rest(
        line,
        Span::new(pos, q),
        (q < h).then(|| Span::new(q + 1, h)),
        (h < n).then(|| Span::new(h + 1, n)),
        mode,
        from,
    )
    .err()
}
