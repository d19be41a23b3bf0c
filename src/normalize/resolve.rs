//! Reference resolution, RFC 3986 section 5: 5.2.2 (transform references),
//! 5.2.3 (merge paths), 5.2.4 (remove dot segments) and 5.3 (recomposition).
//!
//! Strict by default (`http:g` against an `http` base stays `http:g`);
//! `strict: false` is the backward-compatible rule of 5.2.2 that ignores a
//! reference's scheme equal to the base's.
//!
//! Decisions where the literal algorithm would produce a string that does
//! not reparse to the same structure (each is tested):
//!
//! - A rootless path stays rootless: when the path that dot segments are
//!   removed from does not start with `/` (a reference with its own scheme
//!   such as `g:h/../i`, or a merge with a rootless or empty base path and no
//!   authority), the segments are removed as if it did, and the leading `/` is
//!   dropped again: `g:h/../i` resolves to `g:i`, not `g:/i`. When the
//!   first segment comes out empty, which no rootless path can write as is,
//!   it is written behind a `./`: `s:.//a` stays `s:.//a`, not `s:/a` (a
//!   different path) nor `s:/.//a` (an absolute one).
//! - A result with no authority whose path starts with `//` would reparse with
//!   an authority; it is written `/.//...` instead, which means the same path.
//! - `%2E` is not a dot: only literal `.` and `..` segments are removed
//!   (normalization decodes `%2E` first, resolution does not).

use super::swar;
use crate::grammar::split::Span;
use crate::uri::Uri;

/// Removes the dot segments of `path` (section 5.2.4), appending the result
/// to `out`.
///
/// ```
/// let mut out = Vec::new();
/// uriscan::remove_dot_segments(b"/a/b/c/./../../g", &mut out);
/// assert_eq!(out, b"/a/g");
/// ```
pub fn remove_dot_segments(path: &[u8], out: &mut Vec<u8>) {
    let base = out.len();
    let mut input = path;
    // Removes the last segment of the output and the `/` before it.
    let pop = |out: &mut Vec<u8>| {
        let cut = out[base..]
            .iter()
            .rposition(|&b| b == b'/')
            .map_or(base, |i| base + i);
        out.truncate(cut);
    };
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix(b"../") {
            input = rest; // A
        } else if let Some(rest) = input.strip_prefix(b"./") {
            input = rest; // A
        } else if input.starts_with(b"/./") {
            input = &input[2..]; // B
        } else if input == b"/." {
            input = b"/"; // B
        } else if input.starts_with(b"/../") {
            input = &input[3..]; // C
            pop(out);
        } else if input == b"/.." {
            input = b"/"; // C
            pop(out);
        } else if input == b"." || input == b".." {
            input = b""; // D
        } else {
            // E: the first segment, with its `/` if any, moves to the output.
            let from = usize::from(input[0] == b'/');
            let end = memchr::memchr(b'/', &input[from..]).map_or(input.len(), |i| from + i);
            out.extend_from_slice(&input[..end]);
            input = &input[end..];
        }
    }
}

fn get(input: &[u8], s: Span) -> &[u8] {
    &input[s.range()]
}

/// Whether `path` has a `.` or `..` segment.
pub(crate) fn has_dot_segment(path: &[u8]) -> bool {
    // A `.` that starts a segment and is followed by the end, `/` or `./`
    // or `.` and the end; most paths have no `.` starting a segment at all.
    if path.first() != Some(&b'.') && !swar::follows(path, b'/', b'.') {
        return false;
    }
    memchr::memchr_iter(b'.', path).any(|i| {
        (i == 0 || path[i - 1] == b'/')
            && matches!(&path[i + 1..], [] | [b'/', ..] | [b'.'] | [b'.', b'/', ..])
    })
}

/// Whether [`remove_dots_keeping_shape`] would change `path`: it has a dot
/// segment other than the `/.` that keeps a path without authority from
/// starting with `//`, or the `.` that keeps a rootless path whose first
/// segment is empty rootless (`.//a`): those are the shape kept, not
/// segments to remove.
pub(crate) fn changes_keeping_shape(path: &[u8], has_authority: bool) -> bool {
    let rest = match (path.strip_prefix(b"/."), path.strip_prefix(b".")) {
        (Some(rest), _) if !has_authority && rest.starts_with(b"//") => rest,
        (_, Some(rest)) if rest.starts_with(b"//") => rest,
        _ => path,
    };
    has_dot_segment(rest)
}

/// [`remove_dot_segments`] that keeps a rootless path rootless and a path
/// without authority from starting with `//` (see the module's decisions).
pub(crate) fn remove_dots_keeping_shape(path: &[u8], has_authority: bool, out: &mut Vec<u8>) {
    let start = out.len();
    if path.first() == Some(&b'/') || path.is_empty() {
        remove_dot_segments(path, out);
    } else {
        // Rootless: remove the segments under a `/` and drop it again; a
        // first segment that came out empty is written behind `./`, so that
        // the path stays rootless (`.//a`, not `/a` nor `/.//a`).
        let mut rooted = Vec::with_capacity(path.len() + 1);
        rooted.push(b'/');
        rooted.extend_from_slice(path);
        remove_dot_segments(&rooted, out);
        if out[start..].starts_with(b"//") {
            out.insert(start, b'.');
        } else {
            out.remove(start);
        }
    }
    if !has_authority && out[start..].starts_with(b"//") {
        out.splice(start..start, *b"/.");
    }
}

/// Resolves `reference` against `base` (section 5.2) and appends the target
/// URI, recomposed (section 5.3), to `out`. `base` should be a URI (it has a
/// scheme); its fragment is ignored (5.2.1). `strict: false` applies the
/// backward-compatible rule that ignores a reference scheme equal to the
/// base's.
///
/// ```
/// use uriscan::{parse, resolve, Mode};
///
/// let base = parse(b"http://a/b/c/d;p?q", Mode::Uri)?;
/// for (r, t) in [("g", "http://a/b/c/g"), ("../g", "http://a/b/g"), ("?y", "http://a/b/c/d;p?y")] {
///     let mut out = Vec::new();
///     resolve(&base, &parse(r.as_bytes(), Mode::Reference)?, true, &mut out);
///     assert_eq!(out, t.as_bytes());
/// }
/// # Ok::<(), uriscan::Error>(())
/// ```
pub fn resolve(base: &Uri<'_>, reference: &Uri<'_>, strict: bool, out: &mut Vec<u8>) {
    let b = base.as_str().as_bytes();
    let r = reference.as_str().as_bytes();
    let (bs, rs) = (base.split(), reference.split());
    let r_scheme = rs.scheme_span().map(|s| get(r, s));
    let b_scheme = bs.scheme_span().map(|s| get(b, s));
    let r_scheme = match (r_scheme, b_scheme) {
        (Some(x), Some(y)) if !strict && x.eq_ignore_ascii_case(y) => None,
        (x, _) => x,
    };
    let r_path = get(r, rs.path_span());
    let r_query = rs.query_span().map(|s| get(r, s));
    // 5.2.2, with T.path written straight into `out` after what precedes it.
    let scheme;
    let authority;
    let path_source: (Vec<u8>, bool); // (T.path before 5.2.4, remove dots?)
    let query;
    if let Some(s) = r_scheme {
        scheme = Some(s);
        authority = rs.authority_span().map(|a| get(r, a));
        path_source = (r_path.to_vec(), true);
        query = r_query;
    } else {
        scheme = b_scheme;
        if let Some(a) = rs.authority_span() {
            authority = Some(get(r, a));
            path_source = (r_path.to_vec(), true);
            query = r_query;
        } else {
            authority = bs.authority_span().map(|a| get(b, a));
            let b_path = get(b, bs.path_span());
            if r_path.is_empty() {
                path_source = (b_path.to_vec(), false);
                query = r_query.or_else(|| bs.query_span().map(|q| get(b, q)));
            } else {
                if r_path[0] == b'/' {
                    path_source = (r_path.to_vec(), true);
                } else {
                    // 5.2.3 merge.
                    let mut merged = Vec::with_capacity(b_path.len() + r_path.len() + 1);
                    if authority.is_some() && b_path.is_empty() {
                        merged.push(b'/');
                    } else if let Some(i) = b_path.iter().rposition(|&c| c == b'/') {
                        merged.extend_from_slice(&b_path[..=i]);
                    }
                    merged.extend_from_slice(r_path);
                    path_source = (merged, true);
                }
                query = r_query;
            }
        }
    }
    // 5.3 recomposition.
    if let Some(s) = scheme {
        out.extend_from_slice(s);
        out.push(b':');
    }
    if let Some(a) = authority {
        out.extend_from_slice(b"//");
        out.extend_from_slice(a);
    }
    let (path, dots) = path_source;
    if dots {
        remove_dots_keeping_shape(&path, authority.is_some(), out);
    } else {
        out.extend_from_slice(&path);
    }
    if let Some(q) = query {
        out.push(b'?');
        out.extend_from_slice(q);
    }
    if let Some(f) = rs.fragment_span() {
        out.push(b'#');
        out.extend_from_slice(get(r, f));
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        /// The predicate against the mechanism it predicts.
        #[test]
        fn changes_keeping_shape_predicts_the_removal(
            pieces in prop::collection::vec(prop::sample::select(vec!["/", ".", "..", "a", "/.//", "./", "../"]), 0..10),
            has_authority in any::<bool>(),
        ) {
            // Paths a URI can hold: after an authority, empty or absolute;
            // without, not starting with `//`.
            let mut path = pieces.concat().into_bytes();
            if has_authority && path.first().is_some_and(|&b| b != b'/') {
                path.insert(0, b'/');
            }
            if !has_authority && path.starts_with(b"//") {
                path.splice(0..0, *b"/.");
            }
            let mut out = Vec::new();
            remove_dots_keeping_shape(&path, has_authority, &mut out);
            prop_assert_eq!(
                changes_keeping_shape(&path, has_authority),
                out != path,
                "{:?} -> {:?}",
                String::from_utf8_lossy(&path),
                String::from_utf8_lossy(&out)
            );
        }
    }
}
