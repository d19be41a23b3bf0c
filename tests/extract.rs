//! Extraction from free text: tricky cases, and precision and recall on a
//! generated text whose inserted URIs are known.

use uriscan::{extract, parse, Mode};

use crate::gen::Rng;

fn found(text: &str) -> Vec<String> {
    extract(text.as_bytes())
        .map(|f| String::from_utf8(f.uri.into_owned()).unwrap())
        .collect()
}

#[test]
fn tricky_cases() {
    let cases: &[(&str, &[&str])] = &[
        (
            "(see http://en.wikipedia.org/wiki/Foo_(bar))",
            &["http://en.wikipedia.org/wiki/Foo_(bar)"],
        ),
        ("(see http://example.com/x)", &["http://example.com/x"]),
        ("[http://example.com/a[1]]", &["http://example.com/a[1]"]),
        ("{http://example.com/}", &["http://example.com/"]),
        ("Go to http://example.com/a.", &["http://example.com/a"]),
        ("Really? http://example.com/a?!", &["http://example.com/a"]),
        ("'http://example.com/q'", &["http://example.com/q"]),
        ("\"http://example.com/q\"", &["http://example.com/q"]),
        (
            "list: http://a.example/,http://b.example/;",
            &["http://a.example/,http://b.example/"],
        ),
        (
            "[text](https://md.example/page) and ![img](http://i.example/p.png)",
            &["https://md.example/page", "http://i.example/p.png"],
        ),
        (
            "<a href=\"http://html.example/x?y=1\">x</a>",
            &["http://html.example/x?y=1"],
        ),
        (
            "{\"url\":\"https:\\/\\/json.example\\/a\\/b?c=d\"}",
            &["https://json.example/a/b?c=d"],
        ),
        ("<http://example.com/a b\tc>", &["http://example.com/abc"]),
        ("<URL:http://example.com/x>", &["http://example.com/x"]),
        // Each bracketed URI drops its own whitespace, and only its own.
        (
            "<http://a.example/x y> <http://b.example/z>, <http://c.example/>  <URL:http://d.example/\r\n1>",
            &["http://a.example/xy", "http://b.example/z", "http://c.example/", "http://d.example/1"],
        ),
        // Appendix C's own example: brackets hold a URI across a line break.
        (
            "Looking at the header of the current RFC, <http://www.ietf.org/rfc/\nrfc2396.txt>",
            &["http://www.ietf.org/rfc/rfc2396.txt"],
        ),
        // Not URI characters between the brackets: delimited as usual.
        (
            "<http://example.com/a \"quoted\"> x",
            &["http://example.com/a"],
        ),
        (
            "http://start.example/ text http://end.example/",
            &["http://start.example/", "http://end.example/"],
        ),
        (
            "mailto:me@example.com, urn:isbn:0451450523.",
            &["mailto:me@example.com", "urn:isbn:0451450523"],
        ),
        (
            "tel:+1-816-555-1212 news:comp.lang.rust data:text/plain,hi",
            &[
                "tel:+1-816-555-1212",
                "news:comp.lang.rust",
                "data:text/plain,hi",
            ],
        ),
        ("time 12:30, ratio 1:2, key:value, C:\\dir", &[]),
        (
            "`http://code.example/x` and http://a.example/`b`",
            &["http://code.example/x", "http://a.example/"],
        ),
        (
            "ftp://files.example/pub/file.txt*",
            &["ftp://files.example/pub/file.txt"],
        ),
        ("xhttp://weird.example/", &["xhttp://weird.example/"]),
        ("1http://digit.example/", &["http://digit.example/"]),
        ("http://a.example/é", &["http://a.example/é"]),
        ("HTTP://UPPER.EXAMPLE/", &["HTTP://UPPER.EXAMPLE/"]),
        ("http://", &[]),
        ("http:// space", &[]),
    ];
    for (text, expected) in cases {
        assert_eq!(found(text), *expected, "{text}");
    }
}

/// A bracketed URI is copied only to drop its whitespace: one without any
/// is the text's own bytes, whatever a URI before it held.
#[test]
fn bracketed_uris_are_copied_only_for_whitespace() {
    use std::borrow::Cow;
    let text = b"<http://a.example/x y> <http://b.example/z> <URL:http://c.example/\n1> <http://d.example/>";
    let got: Vec<_> = extract(text).map(|f| f.uri).collect();
    assert_eq!(got.len(), 4);
    for (uri, want, copied) in [
        (&got[0], &b"http://a.example/xy"[..], true),
        (&got[1], b"http://b.example/z", false),
        (&got[2], b"http://c.example/1", true),
        (&got[3], b"http://d.example/", false),
    ] {
        assert_eq!(&**uri, want);
        assert_eq!(
            matches!(uri, Cow::Owned(_)),
            copied,
            "{:?}",
            String::from_utf8_lossy(want)
        );
    }
}

/// Appendix C's `<URL:...>` prefix is matched in any case; whitespace inside
/// the brackets tells whether the bracket rule applied (without it the URI
/// would end at the space).
#[test]
fn url_prefix_in_brackets_is_case_insensitive() {
    for prefix in ["URL:", "url:", "Url:", "uRl:"] {
        let text = format!("see <{prefix}http://example.com/a b\nc> now");
        assert_eq!(found(&text), ["http://example.com/abc"], "{text:?}");
    }
    // Not a `URL:` prefix: `<URI:` is no bracket, so the URI ends at the space.
    assert_eq!(
        found("<URI:http://example.com/a b>"),
        ["http://example.com/a"]
    );
}

/// A JSON-escaped `http:\/\/` needs at least one byte after the escaped
/// slashes, exactly as a plain `http://` does: the shortest candidate found
/// is `http:\/\/x`, and `http:\/\/` (one byte shorter) is none.
#[test]
fn json_escaped_candidate_minimum_length() {
    assert_eq!(found(r#"{"u":"http:\/\/x"}"#), ["http://x"]);
    assert_eq!(found(r"http:\/\/x"), ["http://x"]);
    assert_eq!(found(r#"{"u":"http:\/\/"}"#), Vec::<String>::new());
    assert_eq!(found(r"http:\/\/"), Vec::<String>::new());
    // Trailing punctuation is cut first, so nothing is left after `\/\/`.
    assert_eq!(found(r"http:\/\/."), Vec::<String>::new());
    // The same boundary unescaped.
    assert_eq!(found("http://x"), ["http://x"]);
    assert_eq!(found("http://"), Vec::<String>::new());
}

/// One rule of docs/EXTRACT.md's table per group: each input and the URIs
/// it must give. Cases marked with a peer come from its test suite
/// (linkify: robinst/linkify tests/url.rs, marked "(linkify)"; then the
/// groups marked linkify-it, test/fixtures/links.txt, and URLExtract,
/// lipoja/URLExtract tests/unit/test_find_urls.py), as facts about what
/// people expect.
#[test]
fn delimiting_rules() {
    let cases: &[(&str, &[&str])] = &[
        // C0 a scheme without `//` starts a URI only where what follows it
        // is that scheme's syntax: code and prose that look like one
        // (found in Debian changelogs and Python package metadata) are not.
        (
            "due to Data::Dumper changes; audit_rule_data::buf; std::io; Mailto::x",
            &[],
        ),
        ("<function f(data:int) -> int> with tel:str and mailto:name", &[]),
        ("urn:int, urn:x:y, urn:-a:b, urn:ab-:c, urn:ab:", &[]),
        ("data:text, data:text/,x data:/plain,x data:a b,c", &[]),
        (
            "data:,hi data:;base64,aGk= data:image/svg+xml;utf8,x DATA:text/plain;charset=utf-8,%41",
            &[
                "data:,hi",
                "data:;base64,aGk=",
                "data:image/svg+xml;utf8,x",
                "DATA:text/plain;charset=utf-8,%41",
            ],
        ),
        (
            "mailto:?subject=hi mailto:a@b.example tel:*100 tel:(555)1234 tel:911 urn:ietf:rfc:3986 urn:a-b:c",
            &[
                "mailto:?subject=hi",
                "mailto:a@b.example",
                "tel:*100",
                "tel:(555)1234",
                "tel:911",
                "urn:ietf:rfc:3986",
                "urn:a-b:c",
            ],
        ),
        // C1 whitespace, controls and bytes outside the alphabet end a URI (linkify).
        ("http://example.org/\tbar", &["http://example.org/"]),
        ("http://example.org/<>", &["http://example.org/"]),
        ("http://example.org/foo|bar", &["http://example.org/foo"]),
        // ... and the `$` of a placeholder's `${` (JavaScript, shell) with it:
        // a template is no URI, and `http://$` none at all.
        (
            "`https://npm.im/${pkg.name}` `http://${host}/` \"https://$${x}\" http://a.com/$",
            &["https://npm.im/", "https://$", "http://a.com/$"],
        ),
        // A placeholder for the host after a userinfo leaves no host: no URI.
        (
            "`git+ssh://git@${host}/r.git` `ssh://u@${h}:22/x` `http://u@h/${p}`",
            &["http://u@h/"],
        ),
        // (An opaque URI has no userinfo: its `@` is part of it.)
        ("write to mailto:user@ now", &["mailto:user@"]),
        ("http://example.org/\u{7F}", &["http://example.org/"]),
        // C1b a URI right after a terminal colour code starts past it
        // (its final letter and digits are scheme characters); the ESC
        // of the next code ends it. A colour code that lost its ESC
        // (`[32m`: digits and a final `m`) counts too, at both ends of a
        // URI that follows one; `[m` and `;32m` without ESC and `[` are text.
        (
            "\x1b[32mhttp://a.com/x\x1b[0m \x1b[1;38;5;208mhttps://b.com/\x1b[m",
            &["http://a.com/x", "https://b.com/"],
        ),
        ("\x1b[Khttp://a.com/ [32mhttp://b.com/ x;32mhttp://c.com/", &["http://a.com/", "http://b.com/", "mhttp://c.com/"]),
        (
            "[32mhttp://a.com/x[0m. [1;31mhttps://b.org/p?q=1[0m [mhttp://c.com/",
            &["http://a.com/x", "https://b.org/p?q=1", "mhttp://c.com/"],
        ),
        // Only a URI after a colour code loses a closing one (`[0m` is
        // kept, and judged, elsewhere); `[3m` then `mailto:`.
        (
            "see http://a.com/x[0m [2001:db8::1] [3mmailto:a@b.com",
            &["http://a.com/x[0m", "mailto:a@b.com"],
        ),
        // Between the code and the scheme, what is no letter (a list's
        // number) is skipped, as before any scheme.
        ("\x1b[32m1.http://a.com/x\x1b[0m", &["http://a.com/x"]),
        // C2 trailing punctuation, alone and combined (linkify).
        ("http://example.org/..", &["http://example.org/"]),
        ("http://example.org/:", &["http://example.org/"]),
        ("https://example.org/**", &["https://example.org/"]),
        ("http://a.com/x?!.", &["http://a.com/x"]),
        ("http://a.com/x...", &["http://a.com/x"]),
        ("http://example.org/!/a", &["http://example.org/!/a"]),
        ("http://example.org/./", &["http://example.org/./"]),
        // C2b Markdown emphasis: the closer that matches the opener before
        // the URI goes, then trailing punctuation; other `_` and `~` stay.
        ("_http://a.com/x_ and __http://b.com/y__", &["http://a.com/x", "http://b.com/y"]),
        ("~~http://a.com/x~~, ***http://b.com/y***", &["http://a.com/x", "http://b.com/y"]),
        ("_http://a.com/x._ _http://b.com/y_.", &["http://a.com/x", "http://b.com/y"]),
        ("__http://a.com/x_ http://b.com/y_", &["http://a.com/x_", "http://b.com/y_"]),
        ("_http://a.com/__init__", &["http://a.com/__init_"]),
        ("~http://a.com/~user~", &["http://a.com/~user"]),
        // C3 brackets: balanced ones stay, the first unbalanced closer ends it (linkify).
        ("http://example.org/a(b)", &["http://example.org/a(b)"]),
        ("((http://example.org/))", &["http://example.org/"]),
        ("[(http://example.org/)]", &["http://example.org/"]),
        ("(http://example.org/).", &["http://example.org/"]),
        ("(http://example.org/.)", &["http://example.org/"]),
        ("http://example.org/(.", &["http://example.org/"]),
        ("http://example.org/]()", &["http://example.org/"]),
        // A closer that ends the last byte of an 8-byte word (counted from
        // the `:`) after seven bytes with no bracket.
        ("(http://a.com/bbbbbbb)", &["http://a.com/bbbbbbb"]),
        (
            "(http://one.org/)(http://two.org/)",
            &["http://one.org/", "http://two.org/"],
        ),
        ("{http://a.com/x}", &["http://a.com/x"]),
        ("http://a.com/x>", &["http://a.com/x"]),
        // C4 Markdown.
        (
            "[http://x.com/a](http://y.com/b)",
            &["http://x.com/a", "http://y.com/b"],
        ),
        (
            "[link](http://a.com/wiki/Foo_(bar)).",
            &["http://a.com/wiki/Foo_(bar)"],
        ),
        (
            "![img](http://a.com/i.png \"title\")",
            &["http://a.com/i.png"],
        ),
        // C4 BBCode: a closing tag `[/...]` ends the URI.
        (
            "[url]http://a.com/x[/url] [img]http://a.com/i.png?s=[1][/img]",
            &["http://a.com/x", "http://a.com/i.png?s=[1]"],
        ),
        // C5 quotes: a URI after a quote ends at the next one (linkify).
        ("'https://example.org''", &["https://example.org"]),
        ("http://example.org/it's", &["http://example.org/it's"]),
        ("http://example.org/\"a", &["http://example.org/"]),
        ("x = 'http://q.com/a'.format(1)", &["http://q.com/a"]),
        ("url('http://a.com/b.css');", &["http://a.com/b.css"]),
        ("f('http://a.com/it's')", &["http://a.com/it's"]),
        // C6 HTML: attributes and element text, with `&amp;` and numeric
        // references to URI characters decoded there (linkify html() gives
        // the link text's span as written; its URI is decoded).
        ("http://example.org\"/>", &["http://example.org"]),
        ("http://example.org</p>", &["http://example.org"]),
        (
            "<a href=\"http://h.com/?a=1&amp;b=2\">http://h.com/?a=1&amp;b=2</a>",
            &["http://h.com/?a=1&b=2", "http://h.com/?a=1&b=2"],
        ),
        (
            "<a href=\"http://m.org/c?q=l&#x26;s=2\">x</a> <a href='http://r.org/G%3C&#39;_&#0000038;x&#x25;41'>",
            &["http://m.org/c?q=l&s=2", "http://r.org/G%3C'_&x&#x25;41"],
        ),
        (
            "{\"html\":\"<a href=\\\"https://a.com/?b=1&amp;c=2\\\">\"}",
            &["https://a.com/?b=1&c=2"],
        ),
        ("<img src='http://i.com/a.png'/>", &["http://i.com/a.png"]),
        // C6 an HTML reference to a character that ends a URI ends it:
        // text escaped for HTML (a quote, brackets, a no-break or
        // zero-width space, by name or number); one to a URI character is
        // left as written.
        (
            "&lt;a href=&quot;http://a.com/x&quot;&gt;link&lt;/a&gt;",
            &["http://a.com/x"],
        ),
        ("see &lt;http://b.com/y&gt; ok", &["http://b.com/y"]),
        ("<p>http://c.com/z&nbsp;more</p>", &["http://c.com/z"]),
        ("http://e.com/a&#8203;b http://e.com/c&#x200b;d", &["http://e.com/a", "http://e.com/c"]),
        ("http://f.com/?a=1&#60;b &#X3E;", &["http://f.com/?a=1"]),
        ("http://g.com/&QUOT;x http://g.com/y&hellip;", &["http://g.com/", "http://g.com/y"]),
        ("'http://h.com/a&quot;'", &["http://h.com/a"]),
        ("'http://h.com/b&gt; and no closing quote", &["http://h.com/b"]),
        ("http://a.com/(x&quot;)", &["http://a.com/(x"]),
        (
            "http://k.com/?a=1&amp;b=2&#47;c&#38;d&lt",
            &["http://k.com/?a=1&amp;b=2&#47;c&#38;d&lt"],
        ),
        ("http://k.com/p;q&lt;r;s", &["http://k.com/p;q"]),
        // A numeric reference has 1 to 7 digits: `&#;` and 8 digits are
        // none, 7 (leading zeros) are.
        ("http://k.com/a&#;b&#00000060;c", &["http://k.com/a&#;b&#00000060;c"]),
        ("http://k.com/a&#0000060;b", &["http://k.com/a"]),
        // C6b a reference to trailing punctuation at a URI's end trails as
        // that punctuation does (Django's and Jinja's `'`); inside, it stays.
        (
            "go(&#39;http://a.com/x&#39;) go(&#x27;http://b.com/y&#X27;)",
            &["http://a.com/x", "http://b.com/y"],
        ),
        ("&apos;http://a.com/x.&apos;&#46; http://a.com/x;&#39;", &["http://a.com/x", "http://a.com/x"]),
        ("http://a.com/it&#39;s http://a.com/&#39;s&#39;", &["http://a.com/it&#39;s", "http://a.com/&#39;s"]),
        ("http://a.com/x&#39;a&#97;", &["http://a.com/x&#39;a&#97"]),
        // Only a reference to such punctuation: before a trailing `;`, one
        // to a URI character (`&amp;`) or an `&` of no reference stays.
        (
            "http://a.com/?a=1&amp; http://a.com/?b&c;",
            &["http://a.com/?a=1&amp", "http://a.com/?b&c"],
        ),
        // C7 JSON strings and source code.
        ("{\"u\":\"http://j.com/x\",\"v\":1}", &["http://j.com/x"]),
        ("{\"u\":\"http:\\/\\/j.com\\/x\"}", &["http://j.com/x"]),
        ("fetch(\"http://api.com/v1\");", &["http://api.com/v1"]),
        // C7 string escapes of URI characters continue a URI, undone: Go's
        // `&`, Gson's `=`, .NET's `+`, Python's non-ASCII (a surrogate pair
        // for the emoji); an escape of a character that ends a URI (`<`),
        // or that C2/C3 judge by position (`.`, `'`), ends it at the `\`.
        (
            "{\"url\":\"http://x.com/?a=1\\u0026b\\u003d2\\u002B3\"}",
            &["http://x.com/?a=1&b=2+3"],
        ),
        (
            "{\"u\":\"http://m\\u00fcller.de/\\u00FCber?e=\\ud83d\\ude00\"}",
            &["http://müller.de/über?e=\u{1F600}"],
        ),
        (
            "\"msg\":\"GET http:\\/\\/y.com\\/p?q=1\\u0026r=2 done\"",
            &["http://y.com/p?q=1&r=2"],
        ),
        ("\"http://a.com/x\\u003cb\"", &["http://a.com/x"]),
        ("see http://a.com/x\\u002e", &["http://a.com/x"]),
        ("'http://a.com/it\\u0027s'", &["http://a.com/it"]),
        // So do markup's escaped `-` and `_`: troff's `\-` (man pages),
        // Markdown's and reStructuredText's `\_`; not an escaped backslash
        // before them, nor an escaped `.` (C2 judges it by position).
        (
            "\\fIhttp://en.wikipedia.org/wiki/Classless_Inter\\-Domain_Routing\\fR.",
            &["http://en.wikipedia.org/wiki/Classless_Inter-Domain_Routing"],
        ),
        (
            "see http://c.org/user\\_manual/glossary.html#surt and http://a.com/x\\\\-y",
            &["http://c.org/user_manual/glossary.html#surt", "http://a.com/x"],
        ),
        ("http://a.com/x\\.", &["http://a.com/x"]),
        // Not an escape that continues: a lone surrogate, too few hex
        // digits, an escaped backslash, another escape.
        ("\"http://a.com/x\\ud83d\"", &["http://a.com/x"]),
        ("\"http://a.com/x\\u26\"", &["http://a.com/x"]),
        ("\"http://a.com/x\\\\u0026\"", &["http://a.com/x"]),
        ("\"http://a.com/x\\n\"", &["http://a.com/x"]),
        // C7b a scheme right after a string escape starts past it: JSON's
        // `\n` and `\t`, Go's `<` (`\u003c`), `&`, a quote, a surrogate
        // pair, JavaScript's `\x3c`; not after an escaped backslash.
        (
            "{\"msg\":\"line\\nhttp://b.com/x\\thttp://c.com/\"}",
            &["http://b.com/x", "http://c.com/"],
        ),
        (
            "{\"msg\":\"see \\u003chttp://b.com/x\\u003e now\"}",
            &["http://b.com/x"],
        ),
        (
            "a\\u0026http://b.com/ \\u201chttp://c.com/\\u201d",
            &["http://b.com/", "http://c.com/"],
        ),
        ("\\ud83d\\ude00http://e.com/", &["http://e.com/"]),
        ("'\\x3chttp://e.com/\\x3e'", &["http://e.com/"]),
        ("C:\\\\nhttp://b.com/", &["nhttp://b.com/"]),
        // ... and after troff's markup in man pages: a font change
        // (`\fB`, `\f5`, `\f(CW`) or a two-letter character or string
        // (`\(dq`, `\*(Aq`); `(` alone, or after an escaped backslash, is text.
        (
            "see \\fBhttp://a.com/x\\fR, \\f5gs://bucket/o\\fR \\f(CWhttp://c.com/\\fP",
            &["http://a.com/x", "gs://bucket/o", "http://c.com/"],
        ),
        (
            "\\(dqhttp://a.com/x\\(dq \\*(Aqhttp://b.com/y\\*(Aq (abhttp://c.com/)",
            &["http://a.com/x", "http://b.com/y", "abhttp://c.com/"],
        ),
        ("\\\\(abhttp://c.com/", &["abhttp://c.com/"]),
        // Each of JSON's escapes of a letter: `\r`, `\b` and `\f` too.
        (
            "a\\rhttp://a.com/ b\\bhttp://b.com/ c\\fhttp://c.com/",
            &["http://a.com/", "http://b.com/", "http://c.com/"],
        ),
        // After an escape, what is no letter (a list's number) is
        // skipped, as before any scheme.
        ("{\"msg\":\"steps\\n1.http://a.com/x\"}", &["http://a.com/x"]),
        ("// see http://c.com/doc.", &["http://c.com/doc"]),
        ("let u = `http://t.com/${id}`;", &["http://t.com/"]),
        // C8 chat: Slack's `<url|label>`, CJK and full-width punctuation.
        ("<http://s.com/a|label>", &["http://s.com/a"]),
        ("见（http://a.com/x）。", &["http://a.com/x"]),
        ("「http://b.com/y」と", &["http://b.com/y"]),
        ("http://c.com/z，然后", &["http://c.com/z"]),
        ("http://d.com/e…", &["http://d.com/e"]),
        ("“http://e.com/f”", &["http://e.com/f"]),
        ("«http://f.com/g»", &["http://f.com/g"]),
        // C8b: other scripts' sentence punctuation trails as C2's does: at
        // the end it goes (with C2's around it), inside it stays.
        (
            "راجع https://ar.wikipedia.org/wiki/مصر، ثم https://a.com/x؟ و https://b.com/y؛",
            &[
                "https://ar.wikipedia.org/wiki/مصر",
                "https://a.com/x",
                "https://b.com/y",
            ],
        ),
        (
            "https://ar.wikipedia.org/wiki/الرياض،_السعودية ok",
            &["https://ar.wikipedia.org/wiki/الرياض،_السعودية"],
        ),
        (
            "देखें https://hi.wikipedia.org/wiki/भारत। और http://c.com/z.॥",
            &["https://hi.wikipedia.org/wiki/भारत", "http://c.com/z"],
        ),
        (
            "Δείτε https://el.wikipedia.org/wiki/Αθήνα\u{37E} ή http://d.com/e\u{387}",
            &["https://el.wikipedia.org/wiki/Αθήνα", "http://d.com/e"],
        ),
        ("http://e.com/f։ http://g.com/h።", &["http://e.com/f", "http://g.com/h"]),
        // The en dash and the hyphens join words in titles; at the end they
        // go, and the em dash ends a URI anywhere (C8).
        (
            "https://en.wikipedia.org/wiki/Fisher–Yates_shuffle and http://a.com/x– or http://b.com/y—z",
            &[
                "https://en.wikipedia.org/wiki/Fisher–Yates_shuffle",
                "http://a.com/x",
                "http://b.com/y",
            ],
        ),
        // Escaped (Python's `json.dumps`), they continue a URI anywhere.
        (
            "{\"u\":\"https://ar.wikipedia.org/wiki/\\u0645\\u0635\\u0631\\u060c_x\", \"v\":\"https://en.wikipedia.org/wiki/Fisher\\u2013Yates\"}",
            &[
                "https://ar.wikipedia.org/wiki/مصر،_x",
                "https://en.wikipedia.org/wiki/Fisher–Yates",
            ],
        ),
        // C9 IRIs: ucschar continues a URI (linkify international()).
        ("http://üñîçøðé.com/ä", &["http://üñîçøðé.com/ä"]),
        (
            "http://example.org/\u{1F600}",
            &["http://example.org/\u{1F600}"],
        ),
        (
            "see https://ja.wikipedia.org/wiki/日本 and more",
            &["https://ja.wikipedia.org/wiki/日本"],
        ),
        ("http://müller.de/über, danke", &["http://müller.de/über"]),
        ("http://例え.テスト/パス", &["http://例え.テスト/パス"]),
        ("http://a.com/x\u{85}y", &["http://a.com/x"]),
        // C10 angle brackets (Appendix C), with IRIs.
        ("<http://例え.テスト/a b>", &["http://例え.テスト/ab"]),
        ("<http://a.example/ü b>", &["http://a.example/üb"]),
        // linkify-it, test/fixtures/links.txt.
        (
            "(Scoped http://example.com/foo_bar)",
            &["http://example.com/foo_bar"],
        ),
        (
            "[Scoped like http://example.com/foo_bar]",
            &["http://example.com/foo_bar"],
        ),
        ("http://example.com/foo_bar...", &["http://example.com/foo_bar"]),
        ("http://example.com/foo_bar/.", &["http://example.com/foo_bar/"]),
        ("http://foo.com/blah_blah_[other]", &["http://foo.com/blah_blah_[other]"]),
        ("http://foo.com/blah_blah_I'm_king", &["http://foo.com/blah_blah_I'm_king"]),
        (
            "http://www.kmart.com/bestway-10'-x-30inch-steel-pro-frame-pool/p-004W007538417001P",
            &["http://www.kmart.com/bestway-10'-x-30inch-steel-pro-frame-pool/p-004W007538417001P"],
        ),
        (
            "http://index-of.es/Android/Professional.Android.2.Application.Development.(Wrox,.2010,.0470565527).pdf",
            &["http://index-of.es/Android/Professional.Android.2.Application.Development.(Wrox,.2010,.0470565527).pdf"],
        ),
        ("http://✪df.ws/123", &["http://✪df.ws/123"]),
        (
            "http://www.bürgerentscheid-krankenhäuser.de",
            &["http://www.bürgerentscheid-krankenhäuser.de"],
        ),
        ("｜http://google.com｜bar", &["http://google.com"]),
        // URLExtract, tests/unit/test_find_urls.py.
        ("Dot after TLD: http://janlipovsky.cz.", &["http://janlipovsky.cz"]),
        (
            "URL https://example.com/@eon01/asdsd-dummy",
            &["https://example.com/@eon01/asdsd-dummy"],
        ),
        (
            "<a href=\"https://www.example.com/path/\">example1</a>",
            &["https://www.example.com/path/"],
        ),
        (
            "https://bladomain.com/bla/?cid=74530889&h=bladomain.com",
            &["https://bladomain.com/bla/?cid=74530889&h=bladomain.com"],
        ),
        ("* test link -https://www.example.com", &["https://www.example.com"]),
        (
            "https://www.test.org/paper/apostrophe'in-url",
            &["https://www.test.org/paper/apostrophe'in-url"],
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(found(text), *expected, "{text:?}");
    }
}

/// The mapping of `--to-uri`, on the issue's examples.
#[test]
fn iri_to_uri_examples() {
    let map = |s: &str| {
        let mut out = Vec::new();
        uriscan::iri_to_uri(s.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    };
    for f in
        extract("see https://ja.wikipedia.org/wiki/日本 and http://例え.テスト/パス".as_bytes())
    {
        let uri = map(std::str::from_utf8(&f.uri).unwrap());
        assert!(parse(uri.as_bytes(), Mode::Uri).is_ok(), "{uri}");
    }
    assert_eq!(
        map("http://例え.テスト/パス"),
        "http://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9"
    );
}

/// `found_to_uri` encodes every `#` of the fragment, also those it starts
/// with (`##`), with nothing else to encode after them or only after them
/// (the first byte it changes is then a `#` right after the fragment's own).
#[test]
fn found_to_uri_encodes_the_hashes_a_fragment_starts_with() {
    for (found, uri) in [
        ("http://a/##", "http://a/#%23"),
        ("http://a/##x", "http://a/#%23x"),
        ("http://a/x###y#", "http://a/x#%23%23y%23"),
        ("mailto:a@b##", "mailto:a@b#%23"),
        ("http://a/#x#", "http://a/#x%23"),
    ] {
        let mut out = b"kept".to_vec();
        uriscan::found_to_uri(found.as_bytes(), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("kept{uri}"),
            "{found}"
        );
    }
}

#[test]
fn precision_and_recall_on_generated_text() {
    let (text, inserted) = crate::mixed_text::generate(42, 4000);
    let got = found(&text);
    // Hits: URLs found that were inserted, each inserted one counted once.
    let mut left = std::collections::HashMap::new();
    for w in &inserted {
        *left.entry(w.as_str()).or_insert(0usize) += 1;
    }
    let mut hits = 0;
    for g in &got {
        if let Some(n) = left.get_mut(g.as_str()).filter(|n| **n > 0) {
            *n -= 1;
            hits += 1;
        }
    }
    let precision = hits as f64 / got.len() as f64;
    let recall = hits as f64 / inserted.len() as f64;
    eprintln!(
        "extraction: precision {precision:.4}, recall {recall:.4} on {} URLs",
        inserted.len()
    );
    assert!(
        precision >= 0.995 && recall >= 0.995,
        "precision {precision} recall {recall}"
    );
}

#[test]
fn log_request_lines() {
    let line = |req: &str| format!("h - - [d] \"{req}\" 200 1 \"-\" \"ua\"");
    let target = |req: &str| {
        let l = line(req);
        uriscan::parse_log_line(l.as_bytes(), true)
            .unwrap()
            .target
            .map(|t| String::from_utf8(t.into_owned()).unwrap())
    };
    assert_eq!(target("GET /a?b HTTP/1.1"), Some("/a?b".into()));
    assert_eq!(target("GET /a b HTTP/1.1"), Some("/a b".into()));
    // Authority-form, as a network-path reference: an authority, not a
    // scheme `h.example` and a path `443`.
    assert_eq!(
        target("CONNECT h.example:443 HTTP/1.1"),
        Some("//h.example:443".into())
    );
    assert_eq!(
        target("CONNECT [::1]:8443 HTTP/1.1"),
        Some("//[::1]:8443".into())
    );
    assert_eq!(
        target("CONNECT \\x68.example:443 HTTP/1.1"),
        Some("//h.example:443".into())
    );
    let connect = target("CONNECT h.example:443 HTTP/1.1").unwrap();
    let uri = uriscan::parse(connect.as_bytes(), uriscan::Mode::Reference).unwrap();
    assert_eq!(
        (uri.scheme(), uri.host(), uri.port(), uri.path()),
        (None, Some("h.example"), Some("443"), "")
    );
    assert_eq!(
        target("GET h.example:443 HTTP/1.1"),
        Some("h.example:443".into())
    );
    assert_eq!(target("OPTIONS * HTTP/1.1"), Some("*".into()));
    assert_eq!(target("/bare"), Some("/bare".into()));
    assert_eq!(target("-"), None);
    assert_eq!(target("GET /\\x41\\\"q HTTP/1.1"), Some("/A\"q".into()));
    let l = line("GET /p HTTP/1.0");
    let f = uriscan::parse_log_line(l.as_bytes(), true).unwrap();
    assert_eq!(f.method, Some(&b"GET"[..]));
    assert_eq!(&l.as_bytes()[f.target_at..f.target_at + 2], b"/p");
    assert_eq!(f.referer, None);
    assert!(uriscan::parse_log_line(b"h - - [d] \"GET / HTTP/1.0\" 200", true).is_none());
    assert!(uriscan::parse_log_line(b"not a log line", false).is_none());
}

fn found_schemeless(text: &str) -> Vec<String> {
    extract(text.as_bytes())
        .schemeless(true)
        .map(|f| String::from_utf8(f.uri.into_owned()).unwrap())
        .collect()
}

#[test]
fn schemeless_cases() {
    let cases: &[(&str, &[&str])] = &[
        ("example.com", &["http://example.com"]),
        ("Visit Example.COM today.", &["http://Example.COM"]),
        (
            "(see en.wikipedia.org/wiki/Foo_(bar))",
            &["http://en.wikipedia.org/wiki/Foo_(bar)"],
        ),
        (
            "x.example.org:8080/p?q=1#f,",
            &["http://x.example.org:8080/p?q=1#f"],
        ),
        ("at example.com:443.", &["http://example.com:443"]),
        // Code: a call or an index whose last name is a top-level domain
        // too is no domain; with a path, or in brackets, it is one.
        (
            ">>> trio.run(main); expression.search({}); r.data[0] (example.com) [example.org]",
            &["http://example.com", "http://example.org"],
        ),
        ("example.com/run(x)", &["http://example.com/run(x)"]),
        // A placeholder's `${` ends a domain's path as a URI's (C1).
        ("`example.com/a/${id}`", &["http://example.com/a/"]),
        ("\"example.co.uk/a\"", &["http://example.co.uk/a"]),
        // A string escape in the path, undone as for URIs with a scheme.
        (
            "{\"u\":\"example.com/a?b=1\\u0026c=\\u00e9\"}",
            &["http://example.com/a?b=1&c=é"],
        ),
        // A domain's path that runs into a URI with a scheme ends where
        // that one starts, past a string escape (C7b).
        (
            "example.com/a\\u0026http://b.com/",
            &["http://example.com/a&", "http://b.com/"],
        ),
        // A domain right after a string escape of whitespace or an opener
        // starts past it (C7b); not after other escapes or an escaped `\`.
        (
            "{\"m\":\"x\\nexample.com/a \\u003cwww.example.org\\u003e\"}",
            &["http://example.com/a", "http://www.example.org"],
        ),
        ("x\\u0026example.com/ x\\\\nexample.com/a", &[]),
        // After a terminal colour code (C1b), with its ESC or without.
        (
            "\x1b[32mexample.com/x\x1b[0m \x1b[1;32mwww.example.org\x1b[0m",
            &["http://example.com/x", "http://www.example.org"],
        ),
        (
            "[32mexample.com/x[0m [1;32mwww.example.org[0m x;32mexample.com",
            &[
                "http://example.com/x",
                "http://www.example.org",
                "http://32mexample.com",
            ],
        ),
        (
            "www.example.rs and example.rs/x",
            &["http://www.example.rs", "http://example.rs/x"],
        ),
        // File names, versions, abbreviations, e-mail, paths: none.
        ("main.rs setup.py README.md", &[]),
        ("e.g. i.e. v1.2.3 3.14 U.S.A.", &[]),
        ("mail bob@example.com", &[]),
        ("a/b.com c:d.com x_y.com", &[]),
        ("example.invalidtld/x example.", &[]),
        ("-bad-.com bad-.com a..com", &[]),
        ("-bad.com x.-bad.com", &[]),
        // A name that runs on into `_` or `@` is none; one before a `:`
        // that starts no port is one.
        ("x example.com_y example.org@z", &[]),
        (
            "at example.com: see example.org:/ or example.net:x",
            &[
                "http://example.com",
                "http://example.org:/",
                "http://example.net",
            ],
        ),
        // Dots that end a sentence end the domain, one or several.
        (
            "see example.com. Or example.org.., x.example.net...",
            &[
                "http://example.com",
                "http://example.org",
                "http://x.example.net",
            ],
        ),
        // A domain inside a URI with a scheme belongs to that URI.
        (
            "http://example.com/a.b.com then b.org",
            &["http://example.com/a.b.com", "http://b.org"],
        ),
        (
            "a.com http://b.com/ c.com",
            &["http://a.com", "http://b.com/", "http://c.com"],
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(&found_schemeless(text), expected, "{text:?}");
    }
    // Off by default.
    assert!(found("example.com/x").is_empty());
    // A label has at most 63 bytes (RFC 1034 section 3.1).
    let label = "a".repeat(63);
    for host in [format!("{label}.com"), format!("x.{label}.com")] {
        assert_eq!(found_schemeless(&host), [format!("http://{host}")]);
        assert!(found_schemeless(&host.replace(&label, &format!("{label}b"))).is_empty());
    }
}

#[test]
fn schemeless_precision_and_recall_on_generated_text() {
    let corpus =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/sample.txt"))
            .unwrap();
    // Web URLs with a public top-level domain and no userinfo, written
    // without their scheme. Chosen by their bytes, not by uriscan's parser
    // (the code under test): RFC 3986's characters only but the brackets
    // (of IPv6 hosts, which have no domain), every `%` the start of an
    // escape, and (below) a port of digits.
    let uri_chars = |l: &&str| {
        let b = l.as_bytes();
        b.iter().enumerate().all(|(i, &c)| {
            c.is_ascii_alphanumeric()
                || b"-._~:/?#@!$&'()*+,;=".contains(&c)
                || (c == b'%'
                    && b.len() > i + 2
                    && b[i + 1..i + 3].iter().all(u8::is_ascii_hexdigit))
        })
    };
    let hosts: Vec<String> = corpus
        .lines()
        .filter(uri_chars)
        .filter_map(|l| l.strip_prefix("https://").or(l.strip_prefix("http://")))
        .filter(|rest| {
            let authority = rest.split(['/', '?', '#']).next().unwrap();
            let (host, port) = authority.split_once(':').unwrap_or((authority, ""));
            !rest.contains('@')
                && port.bytes().all(|c| c.is_ascii_digit())
                && [".com", ".org", ".io", ".de", ".uk", ".jp"]
                    .iter()
                    .any(|t| host.ends_with(t))
        })
        .filter(|l| !l.ends_with(['.', ',', ':', ';', '!', '?', '\'', '*', ')', ']', '}']))
        .map(str::to_string)
        .collect();
    assert!(hosts.len() > 1000, "{}", hosts.len());
    let words = [
        "the",
        "crawler",
        "found",
        "main.rs",
        "setup.py",
        "README.md",
        "e.g.",
        "v1.2.3",
        "bob@example.com",
        "12:30",
        "3.14",
        "U.S.",
        "see",
        "(note)",
        "key:value",
    ];
    let mut r = Rng(7);
    let mut text = String::new();
    let mut inserted = Vec::new();
    for i in 0..3000 {
        for _ in 0..r.below(8) {
            text.push_str(words[r.below(words.len())]);
            text.push(' ');
        }
        let u = &hosts[i % hosts.len()];
        let wrapped = match r.below(7) {
            0 => format!("{u} "),
            1 => format!("({u}) "),
            2 => format!("{u}. "),
            3 => format!("<{u}> "),
            4 => format!("[link]({u}) "),
            5 => format!("<a href=\"{u}\">x</a> "),
            _ => format!("'{u}', "),
        };
        text.push_str(&wrapped);
        inserted.push(format!("http://{u}"));
        if r.below(5) == 0 {
            text.push('\n');
        }
    }
    let got = found_schemeless(&text);
    let hits = got.iter().filter(|g| inserted.contains(g)).count();
    let precision = hits as f64 / got.len() as f64;
    let recall =
        got.iter().zip(&inserted).filter(|(a, b)| a == b).count() as f64 / inserted.len() as f64;
    eprintln!(
        "schemeless extraction: precision {precision:.4}, recall {recall:.4} on {} domains",
        inserted.len()
    );
    assert_eq!(
        got.len(),
        inserted.len(),
        "one URI found per domain inserted"
    );
    assert!(
        precision >= 0.999 && recall >= 0.999,
        "precision {precision} recall {recall}"
    );
}

/// `Extract::parse` (from the masks the search classified, when it can)
/// gives what `parse` gives, on every URI found, in every mode: on the
/// generated mixed text, on the generated benchmark text at several
/// offsets (so URIs cross block and group boundaries everywhere), and on
/// random bytes weighted towards URIs.
#[test]
fn parse_from_the_masks_agrees_with_parse() {
    // The split, the authority's parts and the host's kind.
    let parts = |u: &uriscan::Uri<'_>| {
        let s = u.split();
        (
            u.as_str().to_owned(),
            [s.scheme(), s.authority(), s.query(), s.fragment()],
            s.path(),
            [u.userinfo(), u.host(), u.port()].map(|p| p.map(str::to_owned)),
            u.host_range(),
            u.host_kind(),
        )
    };
    let check = |text: &[u8]| {
        for schemeless in [false, true] {
            let mut found = extract(text).schemeless(schemeless);
            while let Some(f) = found.next() {
                for mode in [Mode::Uri, Mode::Reference, Mode::Absolute] {
                    let expected = parse(&f.uri, mode).map(|u| parts(&u));
                    let got = found.parse(&f, mode).map(|u| parts(&u));
                    assert_eq!(
                        got,
                        expected,
                        "{:?} in {mode:?}",
                        String::from_utf8_lossy(&f.uri)
                    );
                }
            }
        }
    };
    check(crate::mixed_text::generate(7, 3000).0.as_bytes());
    let corpus = crate::gen::corpus_of(crate::gen::Kind::Text, 3, 1 << 18);
    for skip in [0, 1, 17, 63, 64, 100, 511] {
        check(&corpus[skip..]);
    }
    let mut r = Rng(11);
    let parts: [&[u8]; 12] = [
        b"http://",
        b"https://a.example",
        b"/",
        b"%4",
        b"%zz",
        b"@",
        b"#",
        b"?q=1",
        b"[::1]",
        b":80",
        b"a",
        b"\xc3\xa9",
    ];
    for _ in 0..200 {
        let mut text = Vec::new();
        while text.len() < 1500 {
            match r.below(8) {
                0 => text.push(b" \n)'<>\"("[r.below(8)]),
                1 => text.push(r.below(256) as u8),
                _ => text.extend_from_slice(parts[r.below(parts.len())]),
            }
        }
        check(&text);
    }
}
