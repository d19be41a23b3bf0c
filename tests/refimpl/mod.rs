//! RFC 3986 sections 5.2.2 to 5.3, transcribed line by line on strings, with
//! the steps labelled as in the RFC. The test oracle of `uriscan::resolve`.
//! Components come from the Appendix B split (`None` = undefined), by the
//! RFC's own regular expression, not by `uriscan::split`: an oracle that
//! calls the code it judges cannot see that code's faults.

use std::sync::OnceLock;

use regex::bytes::Regex;

use crate::split::{appendix_b, by_regex};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    pub scheme: Option<String>,
    pub authority: Option<String>,
    pub path: String,
    pub query: Option<String>,
    pub fragment: Option<String>,
}

pub fn parts(s: &str) -> Parts {
    static APPENDIX_B: OnceLock<Regex> = OnceLock::new();
    // (The components end at ASCII delimiters, so each is a `str` slice.)
    let [scheme, authority, path, query, fragment] =
        by_regex(APPENDIX_B.get_or_init(appendix_b), s.as_bytes())
            .map(|r| r.map(|r| s[r].to_string()));
    Parts {
        scheme,
        authority,
        path: path.unwrap_or_default(),
        query,
        fragment,
    }
}

/// 5.2.4.
pub fn remove_dot_segments(path: &str) -> String {
    // 1. The input buffer is initialized with the now-appended path
    //    components and the output buffer is initialized to the empty string.
    let mut input = path.to_string();
    let mut output = String::new();
    // 2. While the input buffer is not empty, loop as follows:
    while !input.is_empty() {
        if input.starts_with("../") {
            // 2A
            input.drain(..3);
        } else if input.starts_with("./") {
            // 2A
            input.drain(..2);
        } else if input.starts_with("/./") {
            // 2B
            input.replace_range(..3, "/");
        } else if input == "/." {
            // 2B
            input = "/".to_string();
        } else if input.starts_with("/../") {
            // 2C
            input.replace_range(..4, "/");
            let cut = output.rfind('/').unwrap_or(0);
            output.truncate(cut);
        } else if input == "/.." {
            // 2C
            input = "/".to_string();
            let cut = output.rfind('/').unwrap_or(0);
            output.truncate(cut);
        } else if input == "." || input == ".." {
            // 2D
            input.clear();
        } else {
            // 2E
            let start = usize::from(input.starts_with('/'));
            let end = input[start..].find('/').map_or(input.len(), |i| start + i);
            output.push_str(&input[..end]);
            input.drain(..end);
        }
    }
    // 3. Finally, the output buffer is returned as the result.
    output
}

/// 5.2.3.
pub fn merge(base: &Parts, r_path: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        format!("/{r_path}")
    } else {
        match base.path.rfind('/') {
            Some(i) => format!("{}{r_path}", &base.path[..=i]),
            None => r_path.to_string(),
        }
    }
}

/// 5.2.2, strict or not.
pub fn transform(base: &Parts, r: &Parts, strict: bool) -> Parts {
    let mut r = r.clone();
    if !strict
        && r.scheme.as_deref().map(str::to_ascii_lowercase)
            == base.scheme.as_deref().map(str::to_ascii_lowercase)
    {
        r.scheme = None;
    }
    let mut t = Parts::default();
    if r.scheme.is_some() {
        t.scheme = r.scheme.clone();
        t.authority = r.authority.clone();
        t.path = remove_dot_segments(&r.path);
        t.query = r.query.clone();
    } else {
        if r.authority.is_some() {
            t.authority = r.authority.clone();
            t.path = remove_dot_segments(&r.path);
            t.query = r.query.clone();
        } else {
            if r.path.is_empty() {
                t.path = base.path.clone();
                if r.query.is_some() {
                    t.query = r.query.clone();
                } else {
                    t.query = base.query.clone();
                }
            } else {
                if r.path.starts_with('/') {
                    t.path = remove_dot_segments(&r.path);
                } else {
                    t.path = merge(base, &r.path);
                    t.path = remove_dot_segments(&t.path);
                }
                t.query = r.query.clone();
            }
            t.authority = base.authority.clone();
        }
        t.scheme = base.scheme.clone();
    }
    t.fragment = r.fragment.clone();
    t
}

/// 5.3.
pub fn recompose(t: &Parts) -> String {
    let mut result = String::new();
    if let Some(s) = &t.scheme {
        result.push_str(s);
        result.push(':');
    }
    if let Some(a) = &t.authority {
        result.push_str("//");
        result.push_str(a);
    }
    result.push_str(&t.path);
    if let Some(q) = &t.query {
        result.push('?');
        result.push_str(q);
    }
    if let Some(f) = &t.fragment {
        result.push('#');
        result.push_str(f);
    }
    result
}

pub fn resolve(base: &str, reference: &str, strict: bool) -> String {
    recompose(&transform(&parts(base), &parts(reference), strict))
}
