//! Normalization, RFC 3986 section 6.2.2 (syntax-based) and 6.2.3
//! (scheme-based), and the named profiles crawlers key URLs with.
//!
//! Profile `rfc3986` (the default), in this order, so that normalizing twice
//! changes nothing:
//!
//! 1. percent-encodings of unreserved characters are decoded (`%7E` -> `~`,
//!    `%41` -> `A`); the others get uppercase hex digits (`%2f` -> `%2F`);
//! 2. the scheme and the host are lowercased (ASCII letters only: a
//!    percent-encoding in a host keeps its uppercase hex, `%c3` -> `%C3`);
//! 3. a URI with a scheme has the dot segments of its path removed (5.2.4,
//!    after step 1, so `%2E%2E` segments go too); a rootless path stays
//!    rootless (`foo:a/../b` -> `foo:b`; a first segment left empty is
//!    written behind `./`: `s:.//a` stays `s:.//a`) and a path with no
//!    authority never starts with `//` (it is written `/.//`). A relative reference keeps its
//!    dot segments: they change what it resolves to;
//! 4. for `http`, `https`, `ws`, `wss` and `ftp`: an empty port or the
//!    scheme's default port (80, 443, 80, 443, 21, compared by value, so
//!    `:080` too) is dropped, and an empty path after an authority becomes
//!    `/`.
//!
//! Nothing else: an empty query `?` or fragment `#` stays, userinfo stays,
//! IPv6 literals are not compressed, other schemes' ports are untouched.
//!
//! Profile `web` gives the key of w3lib's `canonicalize_url` (what Scrapy
//! and other Python crawlers key requests with), byte for byte on RFC 3986
//! references but where that would not be one (see `web.rs` and
//! `docs/WEB.md`): lowercase scheme and host, default ports kept, path
//! escapes decoded but for `%25 %2F %3B %3F` (and `;params` kept verbatim),
//! dot segments removed from a path starting with `/`, the query read as a
//! form and written back sorted and form-encoded (`key=value`, `+` for a
//! space), no fragment.
//!
//! Profile `surt` writes the SURT key (Sort-friendly URI Reordering
//! Transform) of web archives exactly as the Internet Archive's Python `surt`
//! library 0.3.1 does with its default options, surprises included (see
//! `surt.rs` and `docs/SURT.md`): no scheme, no userinfo, no fragment; the
//! host's labels reversed and joined with `,` (IPv4 addresses too, after
//! reading integer, octal and short forms), a leading `www`, `www1`... label
//! removed, then `)`; a non-default port kept; escapes decoded repeatedly and
//! re-encoded; path, query and host lowercased; dot segments and empty
//! segments removed, a trailing `/` dropped; session ids removed; query
//! parameters sorted. So `http://www.archive.org/goo/?a=2&b&a=1` ->
//! `org,archive)/goo?a=1&a=2&b`. Of the switches only `drop_params` applies
//! to it (to the key's query). [`surt_key`] keys any line, a URI or not.

mod resolve;
mod surt;
mod swar;
mod web;
pub use resolve::{remove_dot_segments, resolve};

use crate::classes::{self, hex_value, pct_is_normal};
use crate::grammar::check::port_value;
use crate::simd::{Backend, NormalMarks};
#[cfg(test)]
use crate::stage2::DEFAULT_PORTS;
use crate::stage2::DEFAULT_PORT_WORDS;
use crate::uri::Uri;
use resolve::{changes_keeping_shape, remove_dots_keeping_shape};
use web::QueryKnown;

/// A named set of normalization steps (see the module documentation).
///
/// ```
/// use uriscan::{parse, Mode, Normalizer, Profile};
///
/// let uri = parse(b"HTTP://www.Example.com:80/a/../b/?z=1&a=2#top", Mode::Uri)?;
/// let key = |profile| {
///     let mut out = Vec::new();
///     Normalizer::new(profile).normalize(&uri, &mut out);
///     String::from_utf8(out).unwrap()
/// };
/// assert_eq!(key(Profile::Rfc3986), "http://www.example.com/b/?z=1&a=2#top");
/// assert_eq!(key(Profile::Web), "http://www.example.com:80/b/?a=2&z=1");
/// assert_eq!(key(Profile::Surt), "com,example)/b?a=2&z=1");
/// assert_eq!(Profile::default(), Profile::Rfc3986);
/// # Ok::<(), uriscan::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// RFC 3986 sections 6.2.2 and 6.2.3, nothing else.
    #[default]
    Rfc3986,
    /// The key of w3lib's `canonicalize_url` (Scrapy's request
    /// fingerprints): sorted, form-encoded query, no fragment.
    Web,
    /// The SURT key of web archives.
    Surt,
}

impl Profile {
    /// `rfc3986`, `web` or `surt`.
    ///
    /// ```
    /// use uriscan::Profile;
    ///
    /// assert_eq!(
    ///     [Profile::Rfc3986, Profile::Web, Profile::Surt].map(Profile::name),
    ///     ["rfc3986", "web", "surt"],
    /// );
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Profile::Rfc3986 => "rfc3986",
            Profile::Web => "web",
            Profile::Surt => "surt",
        }
    }
}

/// A normalization: a [`Profile`] and the switches a pipeline adds to it.
///
/// ```
/// use uriscan::{parse, Mode, Normalizer, Profile};
///
/// let mut n = Normalizer::new(Profile::Web);
/// n.drop_params(["utm_*", "fbclid"]);
/// let uri = parse(b"HTTP://Example.COM/a/./b?utm_source=x&b=2&a=1#top", Mode::Uri)?;
/// let mut out = Vec::new();
/// n.normalize(&uri, &mut out);
/// assert_eq!(out, b"http://example.com/a/b?a=1&b=2");
/// # Ok::<(), uriscan::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Normalizer {
    profile: Profile,
    /// Drop the fragment.
    pub strip_fragment: bool,
    /// Sort the query parameters by key, then value (stable; the raw bytes,
    /// or in `web` the decoded form's).
    pub sort_query: bool,
    /// Remove a leading `www.` label from the host.
    pub strip_www: bool,
    /// Drop an empty query (`?` with nothing after it, or nothing left).
    pub drop_empty_query: bool,
    /// Remove trailing `.`s from the host (keeping at least one byte); off
    /// in every profile.
    pub strip_trailing_dot: bool,
    drop: Vec<Vec<u8>>,
    /// The classifier of `is_normal`'s pass, chosen once.
    backend: Backend,
}

impl Default for Normalizer {
    /// The `rfc3986` normalization.
    fn default() -> Normalizer {
        Normalizer::new(Profile::Rfc3986)
    }
}

impl Normalizer {
    /// The normalization of `profile`, with its switches set as it says.
    ///
    /// ```
    /// use uriscan::{parse, Mode, Normalizer, Profile};
    ///
    /// let web = Normalizer::new(Profile::Web);
    /// assert!(web.strip_fragment && web.sort_query && web.drop_empty_query);
    /// assert!(!web.strip_www && !web.strip_trailing_dot);
    /// assert!(Normalizer::new(Profile::Surt).strip_www);
    /// let plain = Normalizer::new(Profile::Rfc3986);
    /// assert!(!plain.strip_fragment && !plain.sort_query && !plain.strip_www);
    /// assert_eq!(plain, Normalizer::default());
    ///
    /// // The switches can be changed afterwards.
    /// let mut n = Normalizer::new(Profile::Rfc3986);
    /// n.strip_fragment = true;
    /// let mut out = Vec::new();
    /// n.normalize(&parse(b"http://a/#top", Mode::Uri)?, &mut out);
    /// assert_eq!(out, b"http://a/");
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    pub fn new(profile: Profile) -> Normalizer {
        let web = profile != Profile::Rfc3986;
        Normalizer {
            profile,
            strip_fragment: web,
            sort_query: web,
            strip_www: profile == Profile::Surt,
            drop_empty_query: web,
            strip_trailing_dot: false,
            drop: Vec::new(),
            backend: Backend::current(),
        }
    }

    /// The profile.
    ///
    /// ```
    /// use uriscan::{Normalizer, Profile};
    ///
    /// let mut n = Normalizer::new(Profile::Web);
    /// assert_eq!(n.profile(), Profile::Web);
    /// // Changing a switch keeps the profile.
    /// n.sort_query = false;
    /// assert_eq!(n.profile(), Profile::Web);
    /// ```
    #[must_use]
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Whether this normalizer reads the notes that
    /// [`Uris::for_normalizer`] takes on each URI: the `surt` profile,
    /// whose keys are never URIs, has no use for them
    /// ([`Uris::for_normalizer_of`]).
    ///
    /// [`Uris::for_normalizer`]: crate::batch::Uris::for_normalizer
    /// [`Uris::for_normalizer_of`]: crate::batch::Uris::for_normalizer_of
    pub(crate) fn uses_notes(&self) -> bool {
        self.profile != Profile::Surt
    }

    /// Also drop the query parameters whose key matches one of `globs`
    /// (`*` matches any run of bytes: `utm_*`, `fbclid`).
    ///
    /// ```
    /// use uriscan::{parse, Mode, Normalizer, Profile};
    ///
    /// let mut n = Normalizer::new(Profile::Rfc3986);
    /// n.drop_params(["utm_*", "gclid"]);
    /// let mut out = Vec::new();
    /// let uri = parse(b"http://a/p?utm_source=x&id=7&gclid=1&utm=2", Mode::Uri)?;
    /// n.normalize(&uri, &mut out);
    /// // `utm` is no match for `utm_*`; the order of the others stays.
    /// assert_eq!(out, b"http://a/p?id=7&utm=2");
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    pub fn drop_params<I, S>(&mut self, globs: I)
    where
        I: IntoIterator<Item = S>,
        S: AsRef<[u8]>,
    {
        self.drop
            .extend(globs.into_iter().map(|g| g.as_ref().to_vec()));
    }

    /// Appends the normalized form of `uri` to `out`. A URI that is already
    /// normal ([`Normalizer::is_normal`]) is copied as it is.
    ///
    /// ```
    /// use uriscan::{parse, Mode, Normalizer, Profile};
    ///
    /// let n = Normalizer::new(Profile::Rfc3986);
    /// let mut out = Vec::new();
    /// n.normalize(&parse(b"HTTP://a/%7euser/./x", Mode::Uri)?, &mut out);
    /// out.push(b'\n');
    /// // Appends: what `out` held stays.
    /// n.normalize(&parse(b"http://a/b", Mode::Uri)?, &mut out);
    /// assert_eq!(out, b"http://a/~user/x\nhttp://a/b");
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    pub fn normalize(&self, uri: &Uri<'_>, out: &mut Vec<u8>) {
        match self.look(uri) {
            None => out.extend_from_slice(uri.bytes()),
            Some(query) => self.rewrite(uri, out, query),
        }
    }

    /// The normalized form of `uri`: `uri`'s own bytes when it is already
    /// normal (no copy), else written into `scratch` (cleared first).
    ///
    /// ```
    /// use uriscan::{parse, Mode, Normalizer, Profile};
    ///
    /// let n = Normalizer::new(Profile::Rfc3986);
    /// let mut scratch = Vec::new();
    /// let normal = parse(b"http://example.com/a", Mode::Uri)?;
    /// assert_eq!(n.normalized(&normal, &mut scratch), b"http://example.com/a");
    /// assert!(scratch.is_empty());
    /// let other = parse(b"HTTP://example.com:80", Mode::Uri)?;
    /// assert_eq!(n.normalized(&other, &mut scratch), b"http://example.com/");
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[inline]
    pub fn normalized<'s, 'u: 's>(&self, uri: &Uri<'u>, scratch: &'s mut Vec<u8>) -> &'s [u8] {
        // Most URIs of a crawl's list, from the corpus pass: no call.
        if self.profile == Profile::Rfc3986 && uri.notes().is_normal() && self.is_plain() {
            return uri.bytes();
        }
        self.normalized_in_general(uri, scratch)
    }

    /// [`Normalizer::normalized`] but for its shortcut: a call of its own,
    /// so that a caller's loop that inlines the shortcut stays small.
    #[inline(never)]
    fn normalized_in_general<'s, 'u: 's>(
        &self,
        uri: &Uri<'u>,
        scratch: &'s mut Vec<u8>,
    ) -> &'s [u8] {
        let Some(query) = self.look(uri) else {
            return uri.bytes();
        };
        scratch.clear();
        self.rewrite(uri, scratch, query);
        scratch
    }

    /// `None` when `uri` is normal ([`Normalizer::is_normal`]), else what
    /// the look found that the rewrite need not look at again (the `web`
    /// profile's query).
    #[inline]
    fn look(&self, uri: &Uri<'_>) -> Option<QueryKnown> {
        match self.profile {
            Profile::Web => self.web_verdict(uri),
            // A key is never a URI: no look at the notes.
            Profile::Surt => Some(QueryKnown::Unknown),
            Profile::Rfc3986 => (!self.is_normal(uri)).then_some(QueryKnown::Unknown),
        }
    }

    /// [`Normalizer::normalize`] step by step, with no shortcut but what
    /// a look already found (`query`).
    fn rewrite(&self, uri: &Uri<'_>, out: &mut Vec<u8>, query: QueryKnown) {
        if self.profile == Profile::Surt {
            let keyed = surt::key_uri(uri, out);
            if let (Some(at), false) = (keyed.query, self.drop.is_empty()) {
                if !self.retain_params(out, at) {
                    out.pop(); // the `?` of a query left empty
                }
            }
            return;
        }
        if self.profile == Profile::Web {
            return self.web(uri, out, query);
        }
        self.rfc3986(uri, out);
    }

    /// Whether normalizing `uri` would give `uri` itself: then a pipeline
    /// can write the input and skip [`Normalizer::normalize`] (no copy, no
    /// allocation). Always `false` for the `surt` profile, whose keys are
    /// never URIs. A URI from [`Uris::for_normalizer`] carries what the
    /// corpus pass saw of it (with section 6 alone, the answer for most
    /// such URIs then takes a few instructions); any other URI takes a
    /// pass of its own over the bytes.
    ///
    /// [`Uris::for_normalizer`]: crate::batch::Uris::for_normalizer
    ///
    /// ```
    /// use uriscan::{parse, Mode, Normalizer, Profile};
    ///
    /// let n = Normalizer::new(Profile::Rfc3986);
    /// assert!(n.is_normal(&parse(b"http://example.com/a%2Fb?q#f", Mode::Uri)?));
    /// assert!(!n.is_normal(&parse(b"http://Example.com/", Mode::Uri)?));
    /// assert!(!n.is_normal(&parse(b"http://example.com:80/", Mode::Uri)?));
    /// assert!(!n.is_normal(&parse(b"http://example.com/a/../b", Mode::Uri)?));
    /// assert!(!n.is_normal(&parse(b"http://example.com/%7e", Mode::Uri)?));
    /// # Ok::<(), uriscan::Error>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn is_normal(&self, uri: &Uri<'_>) -> bool {
        if self.profile == Profile::Web {
            // Its escapes and query follow other rules than section 6's.
            return self.web_is_normal(uri);
        }
        // The corpus pass may have seen that `uri` has none of what the
        // general case looks for (`Uris::for_normalizer`): then only its
        // port and the start of its path are left to look at.
        let notes = uri.notes();
        if notes.has_bad_pct() {
            return false;
        }
        if notes.is_plain() && self.is_plain() {
            return notes.is_normal() || plain_is_normal(uri);
        }
        self.is_normal_in_general(uri)
    }

    /// Whether this is section 6's normalization alone, with no switch
    /// on: `rfc3986`, or `web` with its switches turned off.
    #[inline(always)]
    fn is_plain(&self) -> bool {
        self.profile != Profile::Surt
            && !(self.strip_fragment
                | self.sort_query
                | self.strip_www
                | self.drop_empty_query
                | self.strip_trailing_dot)
            && self.drop.is_empty()
    }

    /// [`Normalizer::is_normal`] of any URI.
    #[inline(never)]
    fn is_normal_in_general(&self, uri: &Uri<'_>) -> bool {
        if self.profile == Profile::Surt {
            return false;
        }
        let split = uri.split();
        // Uppercase letters may not be in the scheme and host: one pass over
        // the bytes finds them with what else is rare in a normal URI,
        // unless the corpus pass found none.
        let m = if uri.notes().is_plain() {
            Marks {
                pct_normal: true,
                slash_dot: false,
                upper: false,
            }
        } else {
            marks(self.backend, uri.bytes(), split.path_span().start)
        };
        if !m.pct_normal {
            return false;
        }
        let scheme = split.scheme_span().map(|s| uri.raw(s));
        if m.upper && scheme.is_some_and(|s| s.iter().any(u8::is_ascii_uppercase)) {
            return false;
        }
        if let Some(parts) = uri.parts() {
            let host = uri.raw(parts.host());
            // Uppercase letters outside percent-encodings (whose hex digits
            // are uppercase, as checked).
            if m.upper && has_upper_outside_pct(host) {
                return false;
            }
            if (self.strip_www && strips_www(host))
                || (self.strip_trailing_dot && host.len() > 1 && host.ends_with(b"."))
            {
                return false;
            }
        }
        if !port_and_path_are_normal(uri, scheme.and_then(default_port), m.slash_dot) {
            return false;
        }
        if let Some(q) = split.query_span().map(|q| uri.raw(q)) {
            if self.drop_empty_query && q.is_empty() {
                return false;
            }
            if self.sort_query || !self.drop.is_empty() {
                let mut params = q.split(|&b| b == b'&');
                if params
                    .clone()
                    .any(|p| self.drop.iter().any(|g| glob(g, key(p))))
                {
                    return false;
                }
                if self.sort_query {
                    let mut prev = params.next().unwrap_or_default();
                    for p in params {
                        if (key(prev), value(prev)) > (key(p), value(p)) {
                            return false;
                        }
                        prev = p;
                    }
                }
            }
        }
        !(self.strip_fragment && split.fragment_span().is_some())
    }

    /// Whether the query parameter `param` is one of `drop_params`.
    fn dropped(&self, param: &[u8]) -> bool {
        self.drop.iter().any(|g| glob(g, key(param)))
    }

    /// Removes, in place, the parameters of `drop_params` from the
    /// `&`-separated query `out[start..]` (the rfc3986 and web profiles'
    /// query and a SURT key's alike); whether any parameter is left.
    fn retain_params(&self, out: &mut Vec<u8>, start: usize) -> bool {
        let end = out.len();
        let (mut read, mut write, mut kept) = (start, start, false);
        loop {
            let stop = memchr::memchr(b'&', &out[read..end]).map_or(end, |i| read + i);
            if !self.dropped(&out[read..stop]) {
                // INVARIANT: `write` <= `read`, so nothing unread is
                // overwritten.
                if kept {
                    out[write] = b'&';
                    write += 1;
                }
                out.copy_within(read..stop, write);
                write += stop - read;
                kept = true;
            }
            if stop == end {
                break;
            }
            read = stop + 1;
        }
        out.truncate(write);
        kept
    }

    fn rfc3986(&self, uri: &Uri<'_>, out: &mut Vec<u8>) {
        let split = uri.split();
        let scheme = split.scheme_span().map(|s| uri.raw(s));
        if let Some(s) = scheme {
            let at = out.len();
            out.extend_from_slice(s);
            out[at..].make_ascii_lowercase();
            out.push(b':');
        }
        let default_port = scheme.and_then(default_port);
        if let Some(parts) = uri.parts() {
            out.extend_from_slice(b"//");
            if let Some(u) = parts.userinfo() {
                pct_normalize(uri.raw(u), out, false);
                out.push(b'@');
            }
            self.write_host(uri, out);
            if let Some(p) = parts.port().map(|p| uri.raw(p)) {
                let keep = match default_port {
                    Some(d) => !p.is_empty() && port_value(p) != Some(d),
                    None => true,
                };
                if keep {
                    out.push(b':');
                    out.extend_from_slice(p);
                }
            }
        }
        self.write_path(uri, out, default_port.is_some());
        self.write_query(uri, out);
        if let (Some(f), false) = (split.fragment_span(), self.strip_fragment) {
            out.push(b'#');
            pct_normalize(uri.raw(f), out, false);
        }
    }

    fn write_host(&self, uri: &Uri<'_>, out: &mut Vec<u8>) {
        let mut host = uri.parts().map_or(&b""[..], |p| uri.raw(p.host()));
        if self.strip_www && strips_www(host) {
            host = &host[4..];
        }
        let at = out.len();
        pct_normalize(host, out, true);
        while self.strip_trailing_dot && out.len() > at + 1 && out.last() == Some(&b'.') {
            out.pop();
        }
    }

    fn write_path(&self, uri: &Uri<'_>, out: &mut Vec<u8>, special: bool) {
        let path = uri.raw(uri.split().path_span());
        let has_authority = uri.parts().is_some();
        let at = out.len();
        pct_normalize(path, out, false);
        if !uri.is_relative() && changes_keeping_shape(&out[at..], has_authority) {
            let decoded = out.split_off(at);
            remove_dots_keeping_shape(&decoded, has_authority, out);
        }
        if special && has_authority && out.len() == at {
            out.push(b'/');
        }
    }

    fn write_query(&self, uri: &Uri<'_>, out: &mut Vec<u8>) {
        let Some(q) = uri.split().query_span().map(|q| uri.raw(q)) else {
            return;
        };
        let at = out.len();
        out.push(b'?');
        pct_normalize(q, out, false);
        if self.sort_query {
            let normalized = out.split_off(at + 1);
            let mut params: Vec<&[u8]> = normalized
                .split(|&b| b == b'&')
                .filter(|p| !self.dropped(p))
                .collect();
            params.sort_by(|a, b| key(a).cmp(key(b)).then_with(|| value(a).cmp(value(b))));
            for (i, p) in params.iter().enumerate() {
                if i > 0 {
                    out.push(b'&');
                }
                out.extend_from_slice(p);
            }
        } else if !self.drop.is_empty() {
            self.retain_params(out, at + 1);
        }
        if self.drop_empty_query && out.len() == at + 1 {
            out.pop();
        }
    }
}

/// Appends to `out` the SURT key of any line (a URI or not), as the Python
/// `surt` library 0.3.1 gives it with its default options: the key of
/// [`Profile::Surt`] for the lines that are URIs, and the library's key for
/// the others (what a crawl log needs to be keyed completely). Returns
/// `false` for the lines on which that library raises an exception (a port
/// that is not a number up to 65535, a line of blanks); their key is then
/// the one it would give with the port kept (escaped like a path), or `-`. See
/// `docs/SURT.md`.
///
/// ```
/// use uriscan::surt_key;
///
/// let key = |line: &[u8]| {
///     let mut out = Vec::new();
///     assert!(surt_key(line, &mut out));
///     String::from_utf8(out).unwrap()
/// };
/// assert_eq!(key(b"http://www.archive.org/goo/?a=2&b&a=1"), "org,archive)/goo?a=1&a=2&b");
/// // Not a URI: a space, a `|` and no scheme.
/// assert_eq!(key(b"Example.com/a b|c"), "com,example)/a%20b|c");
/// assert_eq!(key(b"http://127.1/"), "1,0,0,127)/");
/// let mut out = Vec::new();
/// assert!(!surt_key(b"http://example.com:99999/", &mut out));
/// ```
pub fn surt_key(line: &[u8], out: &mut Vec<u8>) -> bool {
    // A URI reference's key from its parse, by the profile's fast path
    // (the same bytes, a third of the work); any other line by the
    // library's steps.
    match crate::parse(line, crate::Mode::Reference) {
        Ok(uri) => surt::key_uri(&uri, out).exact,
        Err(_) => surt::key(line, out).exact,
    }
}

/// Appends the `rfc3986` normalization of `uri` to `out` (see the module
/// documentation).
///
/// ```
/// use uriscan::{normalize, parse, Mode};
///
/// let mut a = Vec::new();
/// let mut b = Vec::new();
/// normalize(&parse(b"example://a/b/c/%7Bfoo%7D", Mode::Uri)?, &mut a);
/// normalize(&parse(b"eXAMPLE://a/./b/../b/%63/%7bfoo%7d", Mode::Uri)?, &mut b);
/// assert_eq!(a, b);
/// assert_eq!(a, b"example://a/b/c/%7Bfoo%7D");
/// # Ok::<(), uriscan::Error>(())
/// ```
pub fn normalize(uri: &Uri<'_>, out: &mut Vec<u8>) {
    Normalizer::new(Profile::Rfc3986).normalize(uri, out);
}

/// [`Normalizer::is_normal`] of the `rfc3986` normalization for a URI with
/// normal percent-encodings, no uppercase letter in its scheme and host, and
/// no `/.` (`Notes::PLAIN`): only the port and the path are left to look at.
#[inline(always)]
fn plain_is_normal(uri: &Uri<'_>) -> bool {
    // A lowercase scheme, as the pass saw.
    let scheme = uri.split().scheme_span().map(|s| uri.raw(s));
    port_and_path_are_normal(uri, scheme.and_then(lowercase_default_port), false)
}

/// Whether the port and the path of `uri`, whose scheme's default port is
/// `default` and which has a `/.` when `slash_dot`, are in normal form: with
/// a default port and an authority, no empty port, no default port and no
/// empty path; and no dot segment to remove.
#[inline(always)]
fn port_and_path_are_normal(uri: &Uri<'_>, default: Option<u32>, slash_dot: bool) -> bool {
    let split = uri.split();
    let path = uri.raw(split.path_span());
    if let (Some(parts), Some(d)) = (uri.parts(), default) {
        let default_port = parts
            .port()
            .is_some_and(|p| p.range().is_empty() || port_value(uri.raw(p)) == Some(d));
        if path.is_empty() || default_port {
            return false;
        }
    }
    // A dot segment needs a `/.` or a leading `.`, which are rare.
    uri.is_relative()
        || !(slash_dot || path.first() == Some(&b'.'))
        || !changes_keeping_shape(path, split.authority_span().is_some())
}

/// The default port of `scheme` (any case).
fn default_port(scheme: &[u8]) -> Option<u32> {
    /// A scheme of up to 8 bytes as one lowercase word: `| 0x20` lowercases
    /// a letter and leaves the other scheme bytes (digits, `+ - .`) as they
    /// are.
    const fn word(s: &[u8]) -> u64 {
        let mut w = 0;
        let mut i = 0;
        while i < s.len() {
            w |= ((s[i] | 0x20) as u64) << (8 * i);
            i += 1;
        }
        w
    }
    if !(2..=5).contains(&scheme.len()) {
        return None;
    }
    let w = word(scheme);
    DEFAULT_PORT_WORDS
        .iter()
        .find(|&&(s, _)| s == w)
        .map(|&(_, port)| port)
}

/// [`default_port`] of a lowercase `scheme`: a `match` on the bytes, which
/// costs less than the table (tested to agree with it).
#[inline(always)]
fn lowercase_default_port(scheme: &[u8]) -> Option<u32> {
    match scheme {
        b"http" | b"ws" => Some(80),
        b"https" | b"wss" => Some(443),
        b"ftp" => Some(21),
        _ => None,
    }
}

/// What is rare in a normal URI `s`: a `%`, a `/.` (a dot segment needs
/// one, or a path starting with `.`), and an uppercase letter in the first
/// `upper_end` bytes (scheme and authority); found in one pass of the SIMD
/// classifier's [`Backend::normal_marks`], a 64-byte block at a time, whose
/// `%` positions are then checked where they are.
#[derive(Clone, Copy)]
struct Marks {
    /// Every percent-encoding is in uppercase and of a byte that is not
    /// `unreserved`.
    pct_normal: bool,
    slash_dot: bool,
    upper: bool,
}

#[inline(always)]
fn marks(backend: Backend, s: &[u8], upper_end: usize) -> Marks {
    let (mut pct_normal, mut slash_dot, mut upper, mut slash_before) = (true, 0, 0, 0);
    // Two blocks at a time: a URI is one or two.
    let mut m = [NormalMarks::default(); 2];
    for (j, part) in s.chunks(128).enumerate() {
        backend.normal_marks(part, &mut m);
        for (i, m) in m.iter().enumerate().take(part.len().div_ceil(64)) {
            let k = 2 * j + i;
            slash_dot |= m.slash & m.dot >> 1 | slash_before & m.dot;
            slash_before = m.slash >> 63;
            let upper_here = upper_end.saturating_sub(64 * k);
            upper |= m.upper
                & if upper_here >= 64 {
                    !0
                } else {
                    (1 << upper_here) - 1
                };
            let mut pct = m.pct;
            while pct != 0 {
                let i = 64 * k + pct.trailing_zeros() as usize;
                pct &= pct - 1;
                pct_normal &= s
                    .get(i + 1..i + 3)
                    .is_some_and(|e| pct_is_normal(e[0], e[1]));
            }
        }
    }
    Marks {
        pct_normal,
        slash_dot: slash_dot != 0,
        upper: upper != 0,
    }
}

/// Whether `host`, whose percent-encodings are well formed, has an
/// uppercase letter outside them (their hex digits may be uppercase).
fn has_upper_outside_pct(host: &[u8]) -> bool {
    let mut i = 0;
    while i < host.len() {
        match host[i] {
            b'%' => i += 3,
            b if b.is_ascii_uppercase() => return true,
            _ => i += 1,
        }
    }
    false
}

/// Appends `src`, valid for its component, with the percent-encodings of
/// unreserved characters decoded and the others in uppercase; with `lower`,
/// ASCII letters (decoded ones included) are lowercased.
fn pct_normalize(src: &[u8], out: &mut Vec<u8>, lower: bool) {
    // The common case, copied whole: nothing to decode or to lowercase.
    if !src
        .iter()
        .any(|&b| b == b'%' || (lower && b.is_ascii_uppercase()))
    {
        out.extend_from_slice(src);
        return;
    }
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        if b == b'%' && i + 2 < src.len() {
            let v = hex_value(src[i + 1]) << 4 | hex_value(src[i + 2]);
            if classes::is(v, classes::UNRESERVED) {
                out.push(if lower { v.to_ascii_lowercase() } else { v });
            } else {
                out.extend_from_slice(&[
                    b'%',
                    src[i + 1].to_ascii_uppercase(),
                    src[i + 2].to_ascii_uppercase(),
                ]);
            }
            i += 3;
        } else {
            out.push(if lower { b.to_ascii_lowercase() } else { b });
            i += 1;
        }
    }
}

/// Whether `host` starts with a `www.` label that `strip_www` removes (one
/// that leaves a name with a dot).
fn strips_www(host: &[u8]) -> bool {
    host.len() > 4 && host[..4].eq_ignore_ascii_case(b"www.") && host[4..].contains(&b'.')
}

fn key(param: &[u8]) -> &[u8] {
    param.split(|&b| b == b'=').next().unwrap_or(param)
}

fn value(param: &[u8]) -> &[u8] {
    match param.iter().position(|&b| b == b'=') {
        Some(i) => &param[i + 1..],
        None => b"",
    }
}

/// Whether `text` matches `pattern`, where `*` matches any run of bytes.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    match pattern.iter().position(|&b| b == b'*') {
        None => pattern == text,
        Some(star) => {
            let (head, rest) = (&pattern[..star], &pattern[star + 1..]);
            text.starts_with(head) && (head.len()..=text.len()).any(|i| glob(rest, &text[i..]))
        }
    }
}

#[cfg(test)]
mod tests;
