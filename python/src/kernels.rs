//! The kernels: each turns rows of a string column into an Arrow array by
//! calling the uriscan library once per row (`check`, `normalize`, `surt`
//! and `resolve` parse their rows once per run of rows, through
//! [`staged`]). Null in gives null out.
//! String results have the input's offset width (`large_string` in gives
//! `large_string` out; `string` and `string_view` give `string`).

use std::ops::Range;
use std::sync::Arc;

use arrow_array::builder::{BooleanBuilder, GenericListBuilder, GenericStringBuilder};
use arrow_array::{ArrayRef, BooleanArray, OffsetSizeTrait, StructArray};
use arrow_buffer::{BooleanBuffer, BooleanBufferBuilder, NullBuffer};
use arrow_schema::{ArrowError, DataType, Field, Fields};
use uriscan::{Error, Mode, Normalizer, Uri, UriBuf};

use crate::arrays::Texts;
use crate::staged::{self, Parsed};

/// Calls `f` with the offset type of the column's string results.
macro_rules! by_offsets {
    ($texts:expr, $f:ident($($arg:expr),*)) => {
        if $texts.large() {
            $f::<i64>($($arg),*)
        } else {
            $f::<i32>($($arg),*)
        }
    };
}

/// The message of `e` with the byte offset it points at, as `split`'s
/// `error` and `InvalidUri` give it.
pub fn message(e: &Error) -> String {
    format!("{e} at byte {}", e.offset())
}

/// Appends `bytes` as a string. Every output of a kernel is ASCII or comes
/// from UTF-8 input, so the lossy branch is a guard that costs one check.
fn append<O: OffsetSizeTrait>(b: &mut GenericStringBuilder<O>, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(s) => b.append_value(s),
        Err(_) => b.append_value(String::from_utf8_lossy(bytes)),
    }
}

/// `Some(bytes)` or null.
fn append_opt<O: OffsetSizeTrait>(b: &mut GenericStringBuilder<O>, bytes: Option<&[u8]>) {
    match bytes {
        Some(bytes) => append(b, bytes),
        None => b.append_null(),
    }
}

/// The error for string results past what 32-bit offsets address.
fn too_large() -> ArrowError {
    ArrowError::ComputeError(
        "the results pass 2 GiB, more than a string array holds: cast the input to large_string"
            .into(),
    )
}

/// A string column from each row's parse under `mode`, by the window pass
/// over the rows staged as lines: `f(text, parsed, out)` writes a row's
/// result into `out` (empty on entry) and says whether there is one (false:
/// null). With `n`, the URIs carry the notes `n` reads.
pub fn strings(
    texts: &Texts<'_>,
    rows: Range<usize>,
    mode: Mode,
    n: Option<&Normalizer>,
    f: impl FnMut(&[u8], Parsed<'_>, &mut Vec<u8>) -> bool,
) -> Result<ArrayRef, ArrowError> {
    by_offsets!(texts, strings_of(texts, rows, mode, n, f))
}

fn strings_of<O: OffsetSizeTrait>(
    texts: &Texts<'_>,
    rows: Range<usize>,
    mode: Mode,
    n: Option<&Normalizer>,
    mut f: impl FnMut(&[u8], Parsed<'_>, &mut Vec<u8>) -> bool,
) -> Result<ArrayRef, ArrowError> {
    let mut b = GenericStringBuilder::<O>::with_capacity(rows.len(), texts.bytes(rows.clone()));
    let (mut out, mut total, mut row, end) = (Vec::new(), 0usize, rows.start, rows.end);
    staged::each_parsed(texts, rows, mode, n, |parsed| {
        let i = row;
        row += 1;
        let Some(parsed) = parsed else {
            return b.append_null();
        };
        if total > O::MAX_OFFSET {
            // The error is returned below; the pass runs on to the end
            // (a column past 2 GiB of results is no common case).
            return;
        }
        out.clear();
        // (A URI's bytes are its row's; an invalid row's text is looked up.)
        let text = match &parsed {
            Ok(uri) => uri.as_str().as_bytes(),
            Err(_) => texts.get(i).unwrap_or_default(),
        };
        if f(text, parsed, &mut out) {
            total += out.len();
            if total > O::MAX_OFFSET {
                return;
            }
            append(&mut b, &out);
        } else {
            b.append_null();
        }
    });
    // (An invalid row's text is looked up by its number: one call a row.)
    debug_assert_eq!(row, end, "a result for every row");
    if total > O::MAX_OFFSET {
        return Err(too_large());
    }
    Ok(Arc::new(b.finish()))
}

/// Whether each row is a URI reference, URI or absolute URI (`mode`), by
/// the window pass over the rows staged as lines.
pub fn check(texts: &Texts<'_>, rows: Range<usize>, mode: Mode) -> Result<ArrayRef, ArrowError> {
    let nulls = texts.nulls(rows.clone());
    let mut valid = Bits::with_capacity(rows.len());
    staged::each_parsed(texts, rows, mode, None, |r| {
        valid.push(matches!(r, Some(Ok(_))))
    });
    Ok(Arc::new(BooleanArray::new(valid.finish(), nulls)))
}

/// A bitmap built a word at a time: a row's bit costs a shift and an OR,
/// where `BooleanBuilder` checks its capacity and keeps a null bitmap per
/// row (a tenth of `check`'s time).
struct Bits {
    done: BooleanBufferBuilder,
    word: u64,
    len: usize,
}

impl Bits {
    fn with_capacity(n: usize) -> Bits {
        Bits {
            done: BooleanBufferBuilder::new(n),
            word: 0,
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, bit: bool) {
        self.word |= u64::from(bit) << self.len;
        self.len += 1;
        if self.len == 64 {
            self.done.append_word(self.word, 64);
            (self.word, self.len) = (0, 0);
        }
    }

    fn finish(mut self) -> BooleanBuffer {
        self.done.append_word(self.word, self.len);
        self.done.finish()
    }
}

/// The names of `split`'s fields, in order; `valid` is boolean, the others strings.
pub const SPLIT_FIELDS: [&str; 10] = [
    "valid",
    "error",
    "scheme",
    "authority",
    "userinfo",
    "host",
    "port",
    "path",
    "query",
    "fragment",
];

/// Each row's validity, error and components, as `uriscan split` gives
/// them: an invalid row keeps the components of RFC 3986 Appendix B's
/// split (scheme, authority, path, query, fragment) and has no userinfo,
/// host or port.
pub fn split(texts: &Texts<'_>, rows: Range<usize>, mode: Mode) -> Result<ArrayRef, ArrowError> {
    by_offsets!(texts, split_of(texts, rows, mode))
}

fn split_of<O: OffsetSizeTrait>(
    texts: &Texts<'_>,
    rows: Range<usize>,
    mode: Mode,
) -> Result<ArrayRef, ArrowError> {
    let n = rows.len();
    let mut valid = BooleanBuilder::with_capacity(n);
    let mut parts: [GenericStringBuilder<O>; 9] =
        std::array::from_fn(|_| GenericStringBuilder::with_capacity(n, 0));
    let mut present = Vec::with_capacity(n);
    let mut total = 0usize;
    for i in rows {
        let Some(text) = texts.get_str(i) else {
            valid.append_null();
            parts.iter_mut().for_each(|p| p.append_null());
            present.push(false);
            continue;
        };
        present.push(true);
        // (Strings all the way: a valid URI's components are ASCII, and
        // Appendix B cuts at ASCII delimiters, which are char boundaries.)
        let (error, fields) = match uriscan::parse(text.as_bytes(), mode) {
            Ok(uri) => (None, components(&uri)),
            Err(e) => {
                let s = uriscan::split(text.as_bytes());
                let part = |r: Option<Range<usize>>| r.map(|r| &text[r]);
                let fields = [
                    part(s.scheme()),
                    part(s.authority()),
                    None,
                    None,
                    None,
                    Some(&text[s.path()]),
                    part(s.query()),
                    part(s.fragment()),
                ];
                (Some(message(&e)), fields)
            }
        };
        // No column gets more than the text or the error from a row.
        total += text.len().max(error.as_ref().map_or(0, String::len));
        if total > O::MAX_OFFSET {
            return Err(too_large());
        }
        valid.append_value(error.is_none());
        parts[0].append_option(error);
        for (p, f) in parts[1..].iter_mut().zip(fields) {
            p.append_option(f);
        }
    }
    let mut columns: Vec<ArrayRef> = vec![Arc::new(valid.finish())];
    columns.extend(parts.iter_mut().map(|p| Arc::new(p.finish()) as ArrayRef));
    let fields: Fields = columns
        .iter()
        .zip(SPLIT_FIELDS)
        .map(|(c, name)| Field::new(name, c.data_type().clone(), true))
        .collect();
    let nulls = NullBuffer::from(present);
    Ok(Arc::new(StructArray::try_new(
        fields,
        columns,
        Some(nulls),
    )?))
}

/// Scheme, authority, userinfo, host, port, path, query and fragment of a
/// valid URI.
fn components<'a>(uri: &Uri<'a>) -> [Option<&'a str>; 8] {
    [
        uri.scheme(),
        uri.authority(),
        uri.userinfo(),
        uri.host(),
        uri.port(),
        Some(uri.path()),
        uri.query(),
        uri.fragment(),
    ]
}

/// `normalize`'s row: `n`'s normal form, none where the text is not
/// valid.
pub fn normalized(n: &Normalizer) -> impl Fn(&[u8], Parsed<'_>, &mut Vec<u8>) -> bool + Sync + '_ {
    move |_, parsed, out| match parsed {
        Ok(uri) => {
            n.normalize(&uri, out);
            true
        }
        Err(_) => false,
    }
}

/// `surt`'s row: the SURT key of any text, URI or not (`uriscan normalize
/// --profile surt --invalid key`).
pub fn surt_key(surt: &Normalizer) -> impl Fn(&[u8], Parsed<'_>, &mut Vec<u8>) -> bool + Sync + '_ {
    // (The key of a text the library would reject is written as the CLI
    // writes it: a string, never a null.)
    move |text, parsed, out| {
        match parsed {
            Ok(uri) => surt.normalize(&uri, out),
            Err(_) => {
                uriscan::surt_key(text, out);
            }
        }
        true
    }
}

/// `resolve`'s row: the text resolved against `base`, none where it is
/// not valid.
pub fn resolved(
    base: &UriBuf,
    strict: bool,
) -> impl Fn(&[u8], Parsed<'_>, &mut Vec<u8>) -> bool + Sync + '_ {
    move |_, parsed, out| match parsed {
        Ok(uri) => {
            uriscan::resolve(&base.as_uri(), &uri, strict, out);
            true
        }
        Err(_) => false,
    }
}

/// The URIs found in each row's text, in order: the valid ones, or all
/// candidates with `all`; `schemeless` also finds `example.com/path`
/// (given as `http://example.com/path`).
pub fn extract(
    texts: &Texts<'_>,
    rows: Range<usize>,
    schemeless: bool,
    all: bool,
) -> Result<ArrayRef, ArrowError> {
    by_offsets!(texts, extract_of(texts, rows, schemeless, all))
}

fn extract_of<O: OffsetSizeTrait>(
    texts: &Texts<'_>,
    rows: Range<usize>,
    schemeless: bool,
    all: bool,
) -> Result<ArrayRef, ArrowError> {
    let n = rows.len();
    let mut b = GenericListBuilder::<i32, _>::with_capacity(GenericStringBuilder::<O>::new(), n);
    let (mut total, mut mapped) = (0usize, Vec::new());
    for i in rows {
        let Some(text) = texts.get(i) else {
            b.append_null();
            continue;
        };
        for found in uriscan::extract(text).schemeless(schemeless) {
            if all || is_valid_find(&found.uri, &mut mapped) {
                // (Not the text's length: `http://` is added to a schemeless find.)
                total += found.uri.len();
                if total > O::MAX_OFFSET {
                    return Err(too_large());
                }
                append(b.values(), &found.uri);
            }
        }
        b.append(true);
    }
    Ok(Arc::new(b.finish()))
}

/// Whether a find is valid as `uriscan extract` judges it: a URI, or an IRI
/// or a URI with bytes browsers take whose mapping to a URI is one
/// (`uriscan::found_to_uri`; it is given as found).
fn is_valid_find(uri: &[u8], mapped: &mut Vec<u8>) -> bool {
    if uriscan::parse(uri, Mode::Uri).is_ok() {
        return true;
    }
    mapped.clear();
    uriscan::found_to_uri(uri, mapped).is_ok() && uriscan::parse(mapped, Mode::Uri).is_ok()
}

/// Each access-log line's `method`, `target` and `referer`, unescaped
/// (`uriscan::parse_log_line`); a null row where the line is not of the
/// format.
pub fn extract_log(
    texts: &Texts<'_>,
    rows: Range<usize>,
    combined: bool,
) -> Result<ArrayRef, ArrowError> {
    by_offsets!(texts, extract_log_of(texts, rows, combined))
}

fn extract_log_of<O: OffsetSizeTrait>(
    texts: &Texts<'_>,
    rows: Range<usize>,
    combined: bool,
) -> Result<ArrayRef, ArrowError> {
    let n = rows.len();
    let mut parts: [GenericStringBuilder<O>; 3] =
        std::array::from_fn(|_| GenericStringBuilder::with_capacity(n, 0));
    let mut present = Vec::with_capacity(n);
    let mut total = 0usize;
    for i in rows {
        let line = texts.get(i);
        // Unescaping only shortens a field.
        total += line.map_or(0, <[u8]>::len);
        if total > O::MAX_OFFSET {
            return Err(too_large());
        }
        let fields = line.and_then(|line| uriscan::parse_log_line(line, combined));
        present.push(fields.is_some());
        let [method, target, referer] = &mut parts;
        match fields {
            Some(f) => {
                append_opt(method, f.method);
                append_opt(target, f.target.as_deref());
                append_opt(referer, f.referer.as_deref());
            }
            None => [method, target, referer]
                .into_iter()
                .for_each(|p| p.append_null()),
        }
    }
    let columns: Vec<ArrayRef> = parts
        .iter_mut()
        .map(|p| Arc::new(p.finish()) as ArrayRef)
        .collect();
    let string = if texts.large() {
        DataType::LargeUtf8
    } else {
        DataType::Utf8
    };
    let fields: Fields = ["method", "target", "referer"]
        .into_iter()
        .map(|name| Field::new(name, string.clone(), true))
        .collect();
    Ok(Arc::new(StructArray::try_new(
        fields,
        columns,
        Some(NullBuffer::from(present)),
    )?))
}
