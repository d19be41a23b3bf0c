//! An authority's parts (`[ userinfo "@" ] host [ ":" port ]`, section
//! 3.2), as offsets into the input: what [`super::check`] and stage 2 find,
//! and what [`crate::Uri`] reads its sub-components from.

use super::host::{name_kind, HostKind};
use super::split::Span;

/// The parts of an authority, as offsets into the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Authority {
    start: usize,
    host_start: usize,
    host_end: usize,
    end: usize,
    /// The host kind and the flags `USERINFO` and `PORT`: one word, not
    /// several bytes (see the same choice in `Split`).
    info: usize,
}

/// In place of a host kind: a `reg-name` or `IPv4address`, which of the
/// two told by [`name_kind`] on the host's bytes when asked
/// ([`Authority::host_kind`]). Validity does not depend on it (an
/// `IPv4address` is a `reg-name` too), so a corpus pass that only checks
/// never looks.
const NAME: usize = HostKind::ALL.len();
const USERINFO: usize = 1 << 8;
const PORT: usize = 1 << 9;
impl Authority {
    /// The parts of no authority (a URI without one holds this).
    pub(crate) const NONE: Authority = Authority {
        start: 0,
        host_start: 0,
        host_end: 0,
        end: 0,
        info: NAME,
    };

    /// An authority without userinfo: a `reg-name` or `IPv4address` host
    /// `[start, host_end)`, then `:` and a port up to `end` when `has_port`.
    #[inline(always)]
    pub(crate) fn plain(start: usize, host_end: usize, end: usize, has_port: bool) -> Authority {
        Authority::new(start, [start, host_end], end, None, has_port)
    }

    /// The authority `[start, end)` whose host is `[host[0], host[1])`, an
    /// IP literal of kind `literal` or else a `reg-name` or `IPv4address`:
    /// a userinfo and its `@` before the host when `host[0] > start`, and
    /// `:` and a port after it when `has_port`.
    #[inline(always)]
    pub(crate) fn new(
        start: usize,
        host: [usize; 2],
        end: usize,
        literal: Option<HostKind>,
        has_port: bool,
    ) -> Authority {
        Authority {
            start,
            host_start: host[0],
            host_end: host[1],
            end,
            info: literal.map_or(NAME, |k| k as usize)
                | if host[0] > start { USERINFO } else { 0 }
                | if has_port { PORT } else { 0 },
        }
    }

    /// The kind of the host, whose authority is in `input`.
    #[inline]
    pub(crate) fn host_kind(&self, input: &[u8]) -> HostKind {
        match self.info & 0xff {
            NAME => name_kind(&input[self.host().range()]),
            k => HostKind::ALL[k],
        }
    }

    /// The userinfo, without its `@`.
    pub(crate) fn userinfo(&self) -> Option<Span> {
        (self.info & USERINFO != 0).then(|| Span::new(self.start, self.host_start - 1))
    }

    /// The host.
    pub(crate) fn host(&self) -> Span {
        Span::new(self.host_start, self.host_end)
    }

    /// The port, without its `:`.
    pub(crate) fn port(&self) -> Option<Span> {
        (self.info & PORT != 0).then(|| Span::new(self.host_end + 1, self.end))
    }
}
