//! AWS Elastic Load Balancing access logs: Application Load Balancers and
//! Classic Load Balancers.
//!
//! Space-separated fields; some are in double quotes (with `\"` and `\\`
//! escapes) and may hold spaces. An ALB line starts with the connection's
//! type (`http`, `https`, `h2`, `grpcs`, `ws`, `wss`), then the time; a Classic
//! line starts with the time. Then the load balancer, `client:port`,
//! `target:port`, three times, two status codes, two byte counts and the
//! quoted request line, `"GET https://example.com:443/p?q HTTP/1.1"`, whose
//! URL is absolute (scheme, host and port as the client reached the
//! balancer). The URIs of a line:
//!
//! 1. The request's URL; none when the request is `"- - - "` (a TCP/TLS
//!    listener's connection, or a request the balancer could not parse).
//! 2. ALB only: `redirect_url` (the 24th field), the `Location` of a
//!    redirect action, when not `-`.
//!
//! The other quoted fields (user agent, trace id, TLS SNI domain, certificate
//! ARN, actions, error reason, target lists) hold no URI.

use super::{quoted, split_request, LogUri};

/// The connection types that start an ALB line.
const TYPES: [&[u8]; 6] = [b"http", b"https", b"h2", b"grpcs", b"ws", b"wss"];

/// The index of the request among an ALB line's fields (a Classic line's is
/// one less) and of `redirect_url`.
const ALB_REQUEST: usize = 12;
const ALB_REDIRECT: usize = 23;

pub(super) fn parse_line<'a>(line: &'a [u8], out: &mut Vec<LogUri<'a>>) -> bool {
    let alb = !line.first().is_some_and(u8::is_ascii_digit);
    let shift = usize::from(!alb);
    let mut pos = 0;
    let mut index = 0;
    let mut request = None;
    let mut redirect = None;
    // One field per turn; the loop ends after the last one of interest.
    while index <= ALB_REDIRECT {
        if pos > line.len() {
            break;
        }
        let (value, start, end) = if line.get(pos) == Some(&b'"') {
            match quoted(line, pos) {
                Some(q) => q,
                None => return false,
            }
        } else {
            let end = memchr::memchr(b' ', &line[pos..]).map_or(line.len(), |i| pos + i);
            (line[pos..end].into(), pos, end)
        };
        if end < line.len() && line[end] != b' ' {
            return false;
        }
        let is_quoted = start > 0 && line[start - 1] == b'"';
        let ok = match index + shift {
            0 => TYPES.contains(&&value[..]),
            1 => value.ends_with(b"Z") && value.contains(&b'T'),
            3 => &value[..] == b"-" || value.contains(&b':'),
            ALB_REQUEST => is_quoted,
            _ => true,
        };
        if !ok {
            return false;
        }
        if index + shift == ALB_REQUEST {
            request = Some((value, start));
        } else if alb && index == ALB_REDIRECT && is_quoted && &value[..] != b"-" {
            redirect = Some((value, start));
        }
        index += 1;
        pos = end + 1;
    }
    // The request and the user agent after it are there in every version.
    let Some((request, start)) = request.filter(|_| index + shift > ALB_REQUEST + 1) else {
        return false;
    };
    if let (Some(m), Some(t)) = split_request(&request) {
        if &request[m] != b"-" {
            let at = start + t.start;
            let uri = match request {
                std::borrow::Cow::Borrowed(r) => r[t].into(),
                std::borrow::Cow::Owned(r) => r[t].to_vec().into(),
            };
            out.push(LogUri {
                at,
                uri,
                known_valid: false,
                origin_form: false,
            });
        }
    }
    if let Some((uri, at)) = redirect {
        out.push(LogUri {
            at,
            uri,
            known_valid: false,
            origin_form: false,
        });
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uris(line: &[u8]) -> Option<Vec<String>> {
        let mut out = Vec::new();
        parse_line(line, &mut out).then(|| {
            out.iter()
                .map(|u| {
                    assert!(u.at < line.len());
                    String::from_utf8_lossy(&u.uri).into_owned()
                })
                .collect()
        })
    }

    #[test]
    fn alb() {
        let line = br#"https 2024-05-01T10:00:00.123456Z app/web-lb/50dc6c495c0c9188 [2001:db8::7]:2817 10.0.0.1:80 0.000 0.001 0.000 301 - 34 366 "GET https://www.example.com:443/old?a=1 HTTP/1.1" "curl/8.4.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/t/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "www.example.com" "arn:aws:acm:us-east-2:123456789012:certificate/12345678" 1 2024-05-01T10:00:00.100000Z "redirect" "https://www.example.com:443/new?a=1" "-" "-" "-" "-" "-" TID_1"#;
        assert_eq!(
            uris(line),
            Some(vec![
                "https://www.example.com:443/old?a=1".into(),
                "https://www.example.com:443/new?a=1".into()
            ])
        );
        // A TCP connection's request.
        let line = br#"https 2024-05-01T10:00:00.123456Z app/web-lb/1 1.2.3.4:5 - -1 -1 -1 400 - 0 0 "- - - " "-" - - - "-" "-" "-" - 2024-05-01T10:00:00.100000Z "-" "-" "-" "-" "-" "-" "-""#;
        assert_eq!(uris(line), Some(vec![]));
        // Cut after the request: no user agent.
        let cut = br#"http 2024-05-01T10:00:00Z app/l/1 1.2.3.4:5 - 0 0 0 200 200 1 1 "GET http://h:80/ HTTP/1.1""#;
        assert_eq!(uris(cut), None);
        // Not quoted where the request stands.
        let bad = b"http 2024-05-01T10:00:00Z app/l/1 1.2.3.4:5 - 0 0 0 200 200 1 1 GET x y";
        assert_eq!(uris(bad), None);
        assert_eq!(uris(b"ftp 2024-05-01T10:00:00Z a 1.2.3.4:5"), None);
        assert_eq!(uris(b""), None);
    }

    /// Each field the reader checks, changed alone in a line that is
    /// otherwise of the format (a line shorter than the request proves
    /// nothing about the fields before it).
    #[test]
    fn each_checked_field_decides() {
        let good = r#"http 2024-05-01T10:00:00Z app/l/1 1.2.3.4:5 - 0 0 0 200 200 1 1 "GET http://h:80/ HTTP/1.1" "ua""#;
        assert_eq!(uris(good.as_bytes()), Some(vec!["http://h:80/".into()]));
        // Where the URL stands in the line.
        let mut out = Vec::new();
        assert!(parse_line(good.as_bytes(), &mut out));
        assert_eq!(Some(out[0].at), good.find("http://h:80/"));
        for (from, to) in [
            // The connection's type.
            ("http 2024", "ftp 2024"),
            // The time.
            ("2024-05-01T10:00:00Z", "2024-05-01"),
            ("2024-05-01T10:00:00Z", "2024-05-01T10:00:00"),
            // The client, `ip:port` or `-`.
            ("1.2.3.4:5", "1.2.3.4"),
            // A quoted field ends at a space.
            ("HTTP/1.1\" \"ua\"", "HTTP/1.1\"x \"ua\""),
        ] {
            let bad = good.replacen(from, to, 1);
            assert_ne!(bad, good);
            assert_eq!(uris(bad.as_bytes()), None, "{bad}");
        }
        let line = good.replacen("1.2.3.4:5", "-", 1);
        assert_eq!(uris(line.as_bytes()), Some(vec!["http://h:80/".into()]));
        // Fields are what lies between spaces: a space after the request
        // leaves an empty last field, the user agent's place.
        let cut = good.replacen(" \"ua\"", " ", 1);
        assert_eq!(uris(cut.as_bytes()), Some(vec!["http://h:80/".into()]));
        let cut = good.replacen(" \"ua\"", "", 1);
        assert_eq!(uris(cut.as_bytes()), None);
        // A Classic line needs as much: its request and a user agent.
        let classic = r#"2024-05-01T23:39:43.945958Z lb 1.2.3.4:5 - 0 0 0 200 200 0 29 "GET http://h:80/ HTTP/1.1" "ua""#;
        assert_eq!(uris(classic.as_bytes()), Some(vec!["http://h:80/".into()]));
        let cut = classic.replacen(" \"ua\"", "", 1);
        assert_eq!(uris(cut.as_bytes()), None);
    }

    #[test]
    fn classic() {
        let line = br#"2024-05-01T23:39:43.945958Z my-lb 192.168.131.39:2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 29 "GET http://www.example.com:80/a%20b?\"q\" HTTP/1.1" "curl/7.38.0" - -"#;
        assert_eq!(
            uris(line),
            Some(vec![r#"http://www.example.com:80/a%20b?"q""#.into()])
        );
    }
}
