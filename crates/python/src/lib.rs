//! `utf8_tools`: the utf8-codec over Python bytes-like objects and Arrow arrays.
//!
//! Each function takes `bytes`, `bytearray`, `memoryview` (any contiguous buffer, read as
//! bytes) or an Arrow array or chunked array through the Arrow PyCapsule interface
//! (`__arrow_c_array__`, `__arrow_c_stream__`: pyarrow, Polars, DuckDB, nanoarrow, arro3). On
//! an array it works per row and returns an [`ffi::Array`] (a [`ffi::ChunkedArray`] for a
//! stream), nulls kept as nulls. The GIL is released while the codec runs, except that a
//! writable buffer (`bytearray`, a writable `memoryview`) is copied first, with the GIL held.
//! Every function takes `threads=` (1 by default): above 1, an array is cut into that many
//! slices and the chunks are shared among that many threads (the result is then a
//! `ChunkedArray`).

mod columns;
mod ffi;
mod rebuild;
mod rows;
mod scan;
mod text;

use std::borrow::Cow;

use arrow_array::{ArrayRef, new_empty_array};
use arrow_schema::DataType;
use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use utf8_codec::{Action, Practice, RepairOptions};

use columns::Column;
use ffi::Input;
use rows::CountField;

/// What `data` may be, for error messages.
const ACCEPTED: &str = "bytes, bytearray, memoryview or an Arrow array or chunked array \
                        (an object with __arrow_c_array__ or __arrow_c_stream__)";

/// The bytes of a bytes-like argument, read in place when they cannot change.
enum BytesArg<'py> {
    Bytes(Bound<'py, PyBytes>),
    ReadOnly(PyUntypedBuffer),
    Copied(Vec<u8>),
}

impl BytesArg<'_> {
    fn as_slice(&self) -> &[u8] {
        match self {
            BytesArg::Bytes(b) => b.as_bytes(),
            BytesArg::ReadOnly(buf) => {
                // SAFETY: the buffer is C-contiguous (checked when it was taken) and
                // read-only, and the `PyUntypedBuffer` held here keeps the exporter's memory
                // alive and unmoved until it is released.
                unsafe { std::slice::from_raw_parts(buf.buf_ptr().cast::<u8>(), buf.len_bytes()) }
            }
            BytesArg::Copied(v) => v,
        }
    }
}

/// A function's main argument: bytes, or an Arrow input.
enum Arg<'py> {
    Bytes(BytesArg<'py>),
    Arrow(Input),
}

fn arg<'py>(data: &Bound<'py, PyAny>, func: &str) -> PyResult<Arg<'py>> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(Arg::Bytes(BytesArg::Bytes(b.clone())));
    }
    if ffi::is_arrow(data)? {
        return Ok(Arg::Arrow(ffi::import(data)?));
    }
    if !data.is_instance_of::<PyString>()
        && let Ok(buf) = PyUntypedBuffer::get(data)
    {
        if !buf.is_c_contiguous() {
            return Err(PyTypeError::new_err(format!(
                "{func}() needs a contiguous buffer"
            )));
        }
        if buf.readonly() {
            return Ok(Arg::Bytes(BytesArg::ReadOnly(buf)));
        }
        // Writable: another thread could change it while the GIL is released. Copied with
        // the GIL held.
        // SAFETY: C-contiguous (checked above), alive while `buf` is held; read with the GIL
        // held, so no Python code changes it meanwhile.
        let copy = unsafe {
            std::slice::from_raw_parts(buf.buf_ptr().cast::<u8>(), buf.len_bytes()).to_vec()
        };
        return Ok(Arg::Bytes(BytesArg::Copied(copy)));
    }
    Err(PyTypeError::new_err(format!(
        "{func}() expected {ACCEPTED}, got {}",
        data.get_type().name()?
    )))
}

/// Runs `f` per chunk of an Arrow input with the GIL released, and wraps the result.
///
/// With `threads` above 1, the chunks are shared among that many threads, and a single
/// array is first cut into `threads` slices (zero-copy), so its result is a chunked array.
fn map_arrow<'py>(
    py: Python<'py>,
    func: &str,
    input: Input,
    threads: usize,
    f: impl Fn(&Column) -> Result<ArrayRef, String> + Send + Sync,
) -> PyResult<Bound<'py, PyAny>> {
    if threads == 0 {
        return Err(PyValueError::new_err(format!(
            "{func}(): threads must be at least 1"
        )));
    }
    let column =
        |a: &ArrayRef| Column::new(a).map_err(|e| PyTypeError::new_err(format!("{func}(): {e}")));
    let value_err = |e: String| PyValueError::new_err(format!("{func}(): {e}"));
    let (chunks, data_type) = match input {
        Input::Array(a) if threads == 1 || a.len() < 2 => {
            let col = column(&a)?;
            let out = py.detach(|| f(&col)).map_err(value_err)?;
            return Ok(Bound::new(py, ffi::Array::new(out))?.into_any());
        }
        Input::Array(a) => {
            let per = a.len().div_ceil(threads);
            let slices = (0..a.len())
                .step_by(per)
                .map(|off| a.slice(off, per.min(a.len() - off)))
                .collect();
            (slices, a.data_type().clone())
        }
        Input::Chunked(chunks, data_type) => (chunks, data_type),
    };
    let empty = new_empty_array(&data_type);
    let empty_col = column(&empty)?;
    let cols = chunks.iter().map(column).collect::<PyResult<Vec<_>>>()?;
    let (mut outs, mut out_type) = py
        .detach(|| {
            let out_type = f(&empty_col)?.data_type().clone();
            let outs = run_chunks(&cols, &f, threads)?;
            Ok::<_, String>((outs, out_type))
        })
        .map_err(value_err)?;
    if outs.iter().any(|o| o.data_type() == &DataType::LargeUtf8) && out_type == DataType::Utf8 {
        // One chunk overflowed 32-bit offsets: all chunks become large strings.
        outs = outs.iter().map(rows::widen).collect();
        out_type = DataType::LargeUtf8;
    }
    Ok(Bound::new(py, ffi::ChunkedArray::new(outs, out_type))?.into_any())
}

/// `f` of each chunk, in order, on `threads` threads (chunk i on thread i mod threads).
fn run_chunks(
    cols: &[Column],
    f: &(impl Fn(&Column) -> Result<ArrayRef, String> + Sync),
    threads: usize,
) -> Result<Vec<ArrayRef>, String> {
    if threads <= 1 || cols.len() <= 1 {
        return cols.iter().map(f).collect();
    }
    let threads = threads.min(cols.len());
    let mut parts: Vec<Vec<(usize, Result<ArrayRef, String>)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (t..cols.len())
                        .step_by(threads)
                        .map(|i| (i, f(&cols[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut outs: Vec<Option<ArrayRef>> = vec![None; cols.len()];
    for (i, r) in parts.drain(..).flatten() {
        outs[i] = Some(r?);
    }
    Ok(outs
        .into_iter()
        .map(|o| o.expect("every chunk ran"))
        .collect())
}

/// Whether `data` is well-formed UTF-8: a `bool`, or a boolean array (per row).
///
/// >>> import utf8_tools
/// >>> utf8_tools.is_valid(b"caf\xc3\xa9")
/// True
/// >>> utf8_tools.is_valid(b"caf\xe9")
/// False
/// >>> import pyarrow as pa
/// >>> pa.array(utf8_tools.is_valid(pa.array([b"ok", b"\xff", None]))).to_pylist()
/// [True, False, None]
#[pyfunction]
#[pyo3(signature = (data, *, threads = 1))]
fn is_valid<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    match arg(data, "is_valid")? {
        Arg::Bytes(b) => {
            let s = b.as_slice();
            let v = py.detach(|| utf8_codec::is_valid(s));
            Ok(v.into_pyobject(py)?.to_owned().into_any())
        }
        Arg::Arrow(input) => map_arrow(py, "is_valid", input, threads, |c| Ok(c.is_valid())),
    }
}

/// The length of the longest valid prefix of `data` (the offset of its first error): an
/// `int`, or an int64 array (per row).
///
/// >>> import utf8_tools
/// >>> utf8_tools.valid_up_to(b"ab\xffcd")
/// 2
/// >>> utf8_tools.valid_up_to(b"fine")
/// 4
#[pyfunction]
#[pyo3(signature = (data, *, threads = 1))]
fn valid_up_to<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    match arg(data, "valid_up_to")? {
        Arg::Bytes(b) => {
            let s = b.as_slice();
            let v = py.detach(|| utf8_codec::valid_up_to(s));
            Ok(v.into_pyobject(py)?.into_any())
        }
        Arg::Arrow(input) => map_arrow(py, "valid_up_to", input, threads, |c| {
            Ok(rows::valid_up_to(c))
        }),
    }
}

/// The errors of `data`, one per maximal subpart of ill-formed input (the segmentation of
/// CPython's decoder): a list of dicts `{"offset", "length", "kind"}`, or for an array a
/// column of `list<struct<offset: int64, length: int32, kind: string>>` (per row).
///
/// The kinds: overlong, surrogate, out-of-range, invalid-byte, unexpected-continuation,
/// truncated, unexpected-end.
///
/// >>> import utf8_tools
/// >>> utf8_tools.errors(b"a\xed\xa0\x80b\xe2\x82")
/// [{'offset': 1, 'length': 1, 'kind': 'surrogate'}, {'offset': 2, 'length': 1, 'kind': 'unexpected-continuation'}, {'offset': 3, 'length': 1, 'kind': 'unexpected-continuation'}, {'offset': 5, 'length': 2, 'kind': 'unexpected-end'}]
#[pyfunction]
#[pyo3(signature = (data, *, threads = 1))]
fn errors<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    match arg(data, "errors")? {
        Arg::Bytes(b) => {
            let s = b.as_slice();
            let errs = py.detach(|| rows::row_errors(s));
            let list = PyList::empty(py);
            for (offset, length, kind) in errs {
                let d = PyDict::new(py);
                d.set_item("offset", offset)?;
                d.set_item("length", length)?;
                d.set_item("kind", kind)?;
                list.append(d)?;
            }
            Ok(list.into_any())
        }
        Arg::Arrow(input) => map_arrow(py, "errors", input, threads, rows::errors),
    }
}

/// The practices `repair` takes.
const PRACTICES: &str = "'maximal-subpart', 'per-byte', 'per-sequence'";
/// The actions `repair` takes.
const ACTIONS: &str = "'replace', 'delete', 'escape'";

fn options<'r>(
    practice: &str,
    action: &str,
    replacement: Option<&'r str>,
) -> PyResult<RepairOptions<'r>> {
    let practice = match practice {
        "maximal-subpart" => Practice::MaximalSubpart,
        "per-byte" => Practice::PerByte,
        "per-sequence" => Practice::PerSequence,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown practice {other:?}: expected one of {PRACTICES}"
            )));
        }
    };
    let action = match (action, replacement) {
        ("replace", r) => Action::Replace(r.unwrap_or("\u{FFFD}")),
        ("delete", None) => Action::Delete,
        ("escape", None) => Action::Escape,
        ("delete" | "escape", Some(_)) => {
            return Err(PyValueError::new_err(format!(
                "replacement= goes with action='replace', not {action:?}"
            )));
        }
        (other, _) => {
            return Err(PyValueError::new_err(format!(
                "unknown action {other:?}: expected one of {ACTIONS}"
            )));
        }
    };
    Ok(RepairOptions { practice, action })
}

/// `data` decoded as UTF-8 with every ill-formed part replaced: a `str`, or a string array
/// (per row; `string` for binary and string input, `large_string` for large ones and for a
/// result whose 32-bit offsets would overflow, `string_view` for views; a dictionary keeps its
/// indices over repaired values).
///
/// `practice` cuts ill-formed input into substitutes: `"maximal-subpart"` (the default: one
/// per maximal subpart, as CPython, WHATWG and Rust), `"per-byte"`, `"per-sequence"`.
/// `action` says what a substitute becomes: `"replace"` (by `replacement`, U+FFFD by
/// default), `"delete"`, `"escape"` (`\xNN` per byte). With the defaults the result equals
/// `data.decode("utf-8", "replace")`; `"delete"` gives `decode("utf-8", "ignore")` and
/// `"escape"` gives `decode("utf-8", "backslashreplace")`.
///
/// >>> import utf8_tools
/// >>> utf8_tools.repair(b"caf\xe9 \xf0\x9f\x98")
/// 'caf\ufffd \ufffd'
/// >>> utf8_tools.repair(b"\xe0\x80\x80!", practice="per-sequence")
/// '\ufffd!'
/// >>> utf8_tools.repair(b"caf\xe9", action="escape")
/// 'caf\\xe9'
/// >>> import pyarrow as pa
/// >>> pa.array(utf8_tools.repair(pa.array([b"ok", b"\xff", None]))).to_pylist()
/// ['ok', '\ufffd', None]
#[pyfunction]
#[pyo3(signature = (data, *, practice = "maximal-subpart", action = "replace", replacement = None, threads = 1))]
fn repair<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    practice: &str,
    action: &str,
    replacement: Option<&str>,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let opts = options(practice, action, replacement)?;
    match arg(data, "repair")? {
        Arg::Bytes(b) => {
            let s = b.as_slice();
            let text = py.detach(|| utf8_codec::repair_with(s, &opts));
            Ok(PyString::new(py, &text).into_any())
        }
        Arg::Arrow(input) => map_arrow(py, "repair", input, threads, |c| Ok(c.repair(&opts))),
    }
}

fn count_fields(fields: Option<Vec<String>>) -> PyResult<Vec<CountField>> {
    let Some(fields) = fields else {
        return Ok(CountField::ALL.to_vec());
    };
    fields
        .iter()
        .map(|f| {
            CountField::ALL
                .into_iter()
                .find(|c| c.name() == f)
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "unknown count field {f:?}: expected some of 'lines', 'words', \
                         'chars', 'bytes', 'errors'"
                    ))
                })
        })
        .collect()
}

/// Counts in `data`: `lines` (newline bytes, as `wc -l`), `words` (as GNU `wc -w` in a UTF-8
/// locale), `chars` (well-formed scalar values; `chars + errors` is the length of the repaired
/// text), `bytes`, `errors` (maximal subparts). A dict, or for an array a struct column of
/// int64 fields (per row). `fields` picks some of them, in the order given.
///
/// >>> import utf8_tools
/// >>> utf8_tools.count("héllo wörld\n".encode() + b"\xff")
/// {'lines': 1, 'words': 2, 'chars': 12, 'bytes': 15, 'errors': 1}
/// >>> utf8_tools.count(b"a b c", fields=["words"])
/// {'words': 3}
#[pyfunction]
#[pyo3(signature = (data, *, fields = None, threads = 1))]
fn count<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    fields: Option<Vec<String>>,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let fields = count_fields(fields)?;
    match arg(data, "count")? {
        Arg::Bytes(b) => {
            let s = b.as_slice();
            let mut values = vec![0; fields.len()];
            py.detach(|| rows::count_row(s, &fields, false, &mut values));
            let d = PyDict::new(py);
            for (f, v) in fields.iter().zip(values) {
                d.set_item(f.name(), v)?;
            }
            Ok(d.into_any())
        }
        Arg::Arrow(input) => map_arrow(py, "count", input, threads, |c| {
            Ok(rows::counts(c, &fields))
        }),
    }
}

/// The encoding of `data` and how it was decided, as `--from auto` of utf8-grep and
/// utf8-count decides from its first 64 KiB: a byte order mark, then UTF-8 (valid, or damaged in fewer places than it
/// has non-ASCII characters), then chardetng's guess (from at most 1 KiB of those bytes, with
/// the ASCII that cannot change it left out); data that is not UTF-8 and holds a NUL
/// byte is binary. A dict `{"encoding": WHATWG name or None, "evidence": "byte order mark" |
/// "valid UTF-8" | "detected" | "binary"}`, or for an array a struct column (per row).
///
/// >>> import utf8_tools
/// >>> utf8_tools.detect("caf\u00e9".encode())
/// {'encoding': 'UTF-8', 'evidence': 'valid UTF-8'}
/// >>> utf8_tools.detect("d\u00e9j\u00e0 vu, na\u00efve caf\u00e9 cr\u00e8me br\u00fbl\u00e9e".encode("cp1252"))
/// {'encoding': 'windows-1252', 'evidence': 'detected'}
/// >>> utf8_tools.detect(b"\xff\xfeh\x00i\x00")
/// {'encoding': 'UTF-16LE', 'evidence': 'byte order mark'}
#[pyfunction]
#[pyo3(signature = (data, *, threads = 1))]
fn detect<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    match arg(data, "detect")? {
        Arg::Bytes(b) => {
            let s = b.as_slice();
            let (enc, why) = py.detach(|| text::detect(s));
            let d = PyDict::new(py);
            d.set_item("encoding", enc)?;
            d.set_item("evidence", why)?;
            Ok(d.into_any())
        }
        Arg::Arrow(input) => map_arrow(py, "detect", input, threads, |c| Ok(rows::detect(c))),
    }
}

/// `data` decoded as text: `encoding="auto"` decides as `detect` does, any other value is
/// what `utf8-repair --from` takes: a WHATWG label (`utf-8`, `windows-1252`, `shift_jis`,
/// `gb18030`, `utf-16le`, ...) or iconv's spelling (`CP932`, `UTF16LE`, ...), with
/// `iso-8859-1`/`latin1` and `ascii` as iconv and CPython read them (byte N is U+00NN; bytes
/// over 0x7F are errors). A byte order mark
/// overrides the label and is dropped. UTF-8 is repaired as `repair` does; other encodings'
/// malformed sequences become U+FFFD. A `str`, or a string array (per row).
///
/// >>> import utf8_tools
/// >>> utf8_tools.decode("caf\u00e9".encode("cp1252"), encoding="windows-1252")
/// 'caf\xe9'
/// >>> utf8_tools.decode(b"\xef\xbb\xbfhi \xff")
/// 'hi \ufffd'
#[pyfunction]
#[pyo3(signature = (data, encoding = "auto", *, threads = 1))]
fn decode<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    encoding: &str,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let from = text::Source::parse(encoding).map_err(PyValueError::new_err)?;
    match arg(data, "decode")? {
        Arg::Bytes(b) => {
            let s = b.as_slice();
            let text = py.detach(|| text::decode(from, s));
            Ok(PyString::new(py, &text).into_any())
        }
        Arg::Arrow(input) => map_arrow(py, "decode", input, threads, |c| {
            Ok(c.map_strings(&|b| text::decode(from, b)))
        }),
    }
}

/// `text` with its mojibake undone: UTF-8 that was decoded as windows-1252 or Latin-1 and
/// encoded again, once or several times (what ftfy's `fix_encoding` does), conservatively:
/// clean text in any language is left alone. A `str` for a `str`; for a string array, a
/// string array (per row; binary rows are decoded as UTF-8 first, repaired).
///
/// >>> import utf8_tools
/// >>> utf8_tools.fix_mojibake("caf\u00c3\u00a9 \u00e2\u20ac\u0153quotes\u00e2\u20ac\u009d")
/// 'caf\xe9 \u201cquotes\u201d'
/// >>> utf8_tools.fix_mojibake("na\u00efve")
/// 'na\xefve'
#[pyfunction]
#[pyo3(signature = (text, *, threads = 1))]
fn fix_mojibake<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(s) = text.cast::<PyString>() {
        let s = s.to_cow()?;
        let s: &str = &s;
        let fixed = py.detach(|| text::fix_mojibake(s));
        return Ok(PyString::new(py, &fixed).into_any());
    }
    if ffi::is_arrow(text)? {
        let input = ffi::import(text)?;
        return map_arrow(py, "fix_mojibake", input, threads, |c| {
            Ok(c.map_strings(&|b| Cow::Owned(text::fix_mojibake(&utf8_codec::repair(b)))))
        });
    }
    Err(PyTypeError::new_err(format!(
        "fix_mojibake() expected str or an Arrow string array or chunked array (an object \
         with __arrow_c_array__ or __arrow_c_stream__), got {}",
        text.get_type().name()?
    )))
}

/// UTF-8 validation, repair and counting over bytes and Arrow arrays.
#[pymodule]
fn utf8_tools(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(valid_up_to, m)?)?;
    m.add_function(wrap_pyfunction!(errors, m)?)?;
    m.add_function(wrap_pyfunction!(repair, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(detect, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(fix_mojibake, m)?)?;
    m.add_class::<ffi::Array>()?;
    m.add_class::<ffi::ChunkedArray>()?;
    Ok(())
}
