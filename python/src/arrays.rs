//! Arrow in, Arrow out: the values a function is given (one `str`, a list,
//! an Arrow array or a stream of them) as borrowed string columns, a
//! kernel run over each column (on a rayon pool of `threads` when it is
//! large), and the results handed back to Python as pyarrow objects.
//!
//! Arrow buffers are read in place through the C data interface
//! (pyo3-arrow): no string is copied on the way in. A Python list is the
//! exception: its strings are copied into one Arrow array first.

use std::ops::Range;
use std::sync::Arc;

use arrow_array::{
    new_empty_array, Array, ArrayRef, GenericStringArray, LargeStringArray, OffsetSizeTrait,
    StringArray, StringViewArray,
};
use arrow_buffer::NullBuffer;
use arrow_schema::{ArrowError, DataType, Field};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use pyo3_arrow::input::AnyArray;
use pyo3_arrow::{PyArray, PyChunkedArray};
use rayon::prelude::*;

/// A kernel: the results of rows `rows` of a string column, as one Arrow
/// array of `rows.len()` values.
pub type Kernel<'k> = dyn Fn(&Texts<'_>, Range<usize>) -> Result<ArrayRef, ArrowError> + Sync + 'k;

/// What a function was given.
pub enum Input {
    /// One `str`: the caller wants one value back, not an array.
    One(String),
    /// Arrow columns.
    Many(Columns),
}

/// One or more string columns.
pub enum Columns {
    /// An Arrow array (or a Python list, turned into one): one array out.
    Array(ArrayRef),
    /// A stream of arrays (a `ChunkedArray`, a Polars `Series`): a
    /// `ChunkedArray` out, chunk for chunk, of the stream's type.
    Chunked(Vec<ArrayRef>, DataType),
}

impl Input {
    /// Reads `values`: a `str`, an object with `__arrow_c_array__` or
    /// `__arrow_c_stream__`, or a sequence of `str` and `None`.
    pub fn from_py(values: &Bound<'_, PyAny>) -> PyResult<Input> {
        if values.is_instance_of::<PyString>() {
            return Ok(Input::One(values.extract()?));
        }
        let py = values.py();
        if values.hasattr(pyo3::intern!(py, "__arrow_c_array__"))?
            || values.hasattr(pyo3::intern!(py, "__arrow_c_stream__"))?
        {
            return Ok(Input::Many(match values.extract::<AnyArray>()? {
                AnyArray::Array(a) => Columns::Array(a.into_inner().0),
                AnyArray::Stream(s) => {
                    let (chunks, field) = s.into_chunked_array()?.into_inner();
                    Columns::Chunked(chunks, field.data_type().clone())
                }
            }));
        }
        match values.extract::<Vec<Option<String>>>() {
            Ok(list) => Ok(Input::Many(Columns::Array(Arc::new(StringArray::from(
                list,
            ))))),
            Err(_) => Err(PyTypeError::new_err(format!(
                "expected a str, a pyarrow Array or ChunkedArray of strings, an object with \
                 __arrow_c_array__ or __arrow_c_stream__, or a list of str; got {}",
                values.get_type().name()?
            ))),
        }
    }
}

/// A string column, borrowed from its Arrow array.
#[derive(Clone, Copy)]
pub enum Texts<'a> {
    Utf8(&'a StringArray),
    Large(&'a LargeStringArray),
    View(&'a StringViewArray),
    /// An array of type `null` (`pa.array([None, None])`), of this length.
    Null(usize),
}

impl<'a> Texts<'a> {
    /// The column of `array`, `None` when it holds no strings.
    pub fn of(array: &'a dyn Array) -> Option<Texts<'a>> {
        let any = array.as_any();
        match array.data_type() {
            DataType::Utf8 => any.downcast_ref().map(Texts::Utf8),
            DataType::LargeUtf8 => any.downcast_ref().map(Texts::Large),
            DataType::Utf8View => any.downcast_ref().map(Texts::View),
            DataType::Null => Some(Texts::Null(array.len())),
            _ => None,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Texts::Utf8(a) => a.len(),
            Texts::Large(a) => a.len(),
            Texts::View(a) => a.len(),
            Texts::Null(len) => *len,
        }
    }

    /// The null bitmap of rows `rows`, `None` when none is null.
    pub fn nulls(&self, rows: Range<usize>) -> Option<NullBuffer> {
        let nulls = match self {
            Texts::Utf8(a) => a.nulls(),
            Texts::Large(a) => a.nulls(),
            Texts::View(a) => a.nulls(),
            Texts::Null(_) => return Some(NullBuffer::new_null(rows.len())),
        };
        nulls.map(|n| n.slice(rows.start, rows.len()))
    }

    /// Row `i`, `None` when null.
    #[inline]
    pub fn get_str(&self, i: usize) -> Option<&'a str> {
        match self {
            Texts::Utf8(a) => a.is_valid(i).then(|| a.value(i)),
            Texts::Large(a) => a.is_valid(i).then(|| a.value(i)),
            Texts::View(a) => a.is_valid(i).then(|| a.value(i)),
            Texts::Null(_) => None,
        }
    }

    /// Row `i`'s bytes, `None` when null.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        self.get_str(i).map(str::as_bytes)
    }

    /// The bytes of the strings of `rows`: what a string result of about
    /// the input's size reserves.
    pub fn bytes(&self, rows: Range<usize>) -> usize {
        match self {
            Texts::View(a) => rows.map(|i| a.views()[i] as u32 as usize).sum(),
            _ => self.values(rows).map_or(0, <[u8]>::len),
        }
    }

    /// The bytes of rows `rows` back to back, as the values buffer holds
    /// them (a null row's too, usually none): for `string` and
    /// `large_string`; `None` for the others.
    pub fn values(&self, rows: Range<usize>) -> Option<&'a [u8]> {
        match self {
            Texts::Utf8(a) => Some(values_of(a, rows)),
            Texts::Large(a) => Some(values_of(a, rows)),
            Texts::View(_) | Texts::Null(_) => None,
        }
    }

    /// Whether the column is a `string_view`, whose rows' bytes are not
    /// back to back.
    pub fn is_view(&self) -> bool {
        matches!(self, Texts::View(_))
    }

    /// Whether string results should have 64-bit offsets: only for a
    /// `large_string` column, whose data may pass 2 GiB.
    pub fn large(&self) -> bool {
        matches!(self, Texts::Large(_))
    }
}

/// [`Texts::values`] of a `string` or `large_string` array.
fn values_of<O: OffsetSizeTrait>(a: &GenericStringArray<O>, rows: Range<usize>) -> &[u8] {
    let o = a.value_offsets();
    &a.value_data()[o[rows.start].as_usize()..o[rows.end].as_usize()]
}

/// Row `i` of a `string` or `large_string` array, `None` when null:
/// [`Texts::get`] for a loop that knows the array's type.
#[inline]
pub fn row_of<'a, O: OffsetSizeTrait>(
    a: &'a GenericStringArray<O>,
) -> impl Fn(usize) -> Option<&'a [u8]> + 'a {
    move |i| a.is_valid(i).then(|| a.value(i).as_bytes())
}

/// Below this many rows a column is not worth handing out to threads.
const PARALLEL_MIN: usize = 8192;

/// Runs `kernel` over every column with the GIL released, on `threads`
/// threads, and returns the pyarrow result.
pub fn run(
    py: Python<'_>,
    columns: Columns,
    threads: usize,
    kernel: &Kernel<'_>,
) -> PyResult<Py<PyAny>> {
    if threads == 0 {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    // The type is checked while the GIL is held, to raise a TypeError.
    let data_type = match &columns {
        Columns::Array(a) => a.data_type(),
        Columns::Chunked(_, data_type) => data_type,
    };
    if !matches!(
        data_type,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View | DataType::Null
    ) {
        return Err(PyTypeError::new_err(format!(
            "expected an array of string, large_string or string_view, got {data_type}"
        )));
    }
    let output = py.detach(|| -> Result<Columns, ArrowError> {
        let pool = (threads > 1)
            .then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build())
            .transpose()
            .map_err(|e| ArrowError::ComputeError(e.to_string()))?;
        let column = |a: &ArrayRef| -> Result<ArrayRef, ArrowError> {
            let texts = Texts::of(a.as_ref()).expect("a string type, checked above");
            map_column(&texts, pool.as_ref(), kernel)
        };
        Ok(match &columns {
            Columns::Array(a) => Columns::Array(column(a)?),
            Columns::Chunked(chunks, data_type) => {
                // The output's type, even when there are no chunks.
                let empty = column(&new_empty_array(data_type))?;
                let chunks = chunks.iter().map(column).collect::<Result<Vec<_>, _>>()?;
                Columns::Chunked(chunks, empty.data_type().clone())
            }
        })
    });
    match output.map_err(|e| PyValueError::new_err(e.to_string()))? {
        Columns::Array(a) => Ok(PyArray::from_array_ref(a).to_pyarrow(py)?.unbind()),
        Columns::Chunked(chunks, data_type) => {
            let field = Arc::new(Field::new("", data_type, true));
            Ok(PyChunkedArray::try_new(chunks, field)?
                .into_pyarrow(py)?
                .unbind())
        }
    }
}

/// One column: in one piece, or, on a pool, in ranges of rows whose
/// results are concatenated in order.
fn map_column(
    texts: &Texts<'_>,
    pool: Option<&rayon::ThreadPool>,
    kernel: &Kernel<'_>,
) -> Result<ArrayRef, ArrowError> {
    let n = texts.len();
    let Some(pool) = pool.filter(|_| n >= PARALLEL_MIN) else {
        return kernel(texts, 0..n);
    };
    // A few ranges per thread, so that a thread that gets short lines
    // does not wait for one that gets long ones.
    let pieces = (pool.current_num_threads() * 4)
        .min(n / (PARALLEL_MIN / 4))
        .max(1);
    let step = n.div_ceil(pieces);
    let ranges: Vec<Range<usize>> = (0..n).step_by(step).map(|s| s..(s + step).min(n)).collect();
    let parts = pool.install(|| {
        ranges
            .into_par_iter()
            .map(|r| kernel(texts, r))
            .collect::<Result<Vec<_>, _>>()
    })?;
    let parts: Vec<&dyn Array> = parts.iter().map(|a| a.as_ref()).collect();
    arrow_select::concat::concat(&parts)
}
