//! The Arrow PyCapsule interface: arrays in (`__arrow_c_array__`, `__arrow_c_stream__`) and
//! out (the [`Array`] and [`ChunkedArray`] classes), through arrow-rs's C data interface.

use std::ffi::{CStr, CString, c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema, from_ffi};
use arrow_array::ffi_stream::{ArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{ArrayRef, make_array};
use arrow_schema::{DataType, Field};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyCapsuleMethods, PyTuple};

const SCHEMA_NAME: &CStr = c"arrow_schema";
const ARRAY_NAME: &CStr = c"arrow_array";
const STREAM_NAME: &CStr = c"arrow_array_stream";

/// An Arrow input: one array, or the chunks of a stream (a chunked array, a Polars Series).
pub enum Input {
    /// From `__arrow_c_array__`.
    Array(ArrayRef),
    /// From `__arrow_c_stream__`: the chunks and their common type.
    Chunked(Vec<ArrayRef>, DataType),
}

/// Whether `obj` exports the Arrow PyCapsule interface.
pub fn is_arrow(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(obj.hasattr("__arrow_c_array__")? || obj.hasattr("__arrow_c_stream__")?)
}

/// Imports an object exporting `__arrow_c_array__` (preferred) or `__arrow_c_stream__`,
/// zero-copy: the arrays keep the producer's buffers alive until they are dropped.
pub fn import(obj: &Bound<'_, PyAny>) -> PyResult<Input> {
    if obj.hasattr("__arrow_c_array__")? {
        let pair = obj.call_method0("__arrow_c_array__")?;
        let pair = pair.cast::<PyTuple>().map_err(|_| {
            PyTypeError::new_err("__arrow_c_array__ must return a tuple of two PyCapsules")
        })?;
        if pair.len() != 2 {
            return Err(PyTypeError::new_err(
                "__arrow_c_array__ must return a tuple of two PyCapsules",
            ));
        }
        let schema = pair.get_item(0)?;
        let array = pair.get_item(1)?;
        let schema = capsule(&schema, SCHEMA_NAME)?;
        let array = capsule(&array, ARRAY_NAME)?;
        let schema_ptr = schema.pointer_checked(Some(SCHEMA_NAME))?;
        let array_ptr = array.pointer_checked(Some(ARRAY_NAME))?;
        // SAFETY: a capsule named "arrow_array" holds a valid FFI_ArrowArray (the PyCapsule
        // interface's contract); `from_raw` moves it out, leaving a released one behind, so
        // the capsule's destructor does not release it a second time.
        let ffi_array = unsafe { FFI_ArrowArray::from_raw(array_ptr.as_ptr().cast()) };
        // SAFETY: a capsule named "arrow_schema" holds a valid FFI_ArrowSchema, borrowed here
        // while `schema` (the capsule) is alive.
        let ffi_schema = unsafe { &*schema_ptr.as_ptr().cast::<FFI_ArrowSchema>() };
        // SAFETY: the array and the schema come from the same producer, which describes the
        // array's layout by the schema (the C data interface's contract).
        let data = unsafe { from_ffi(ffi_array, ffi_schema) }.map_err(arrow_err)?;
        return Ok(Input::Array(make_array(data)));
    }
    if obj.hasattr("__arrow_c_stream__")? {
        let stream = obj.call_method0("__arrow_c_stream__")?;
        let stream = capsule(&stream, STREAM_NAME)?;
        let ptr = stream.pointer_checked(Some(STREAM_NAME))?;
        // SAFETY: a capsule named "arrow_array_stream" holds a valid FFI_ArrowArrayStream;
        // `from_raw` moves it out and leaves a released one for the capsule's destructor.
        let reader =
            unsafe { ArrayStreamReader::from_raw(ptr.as_ptr().cast()) }.map_err(arrow_err)?;
        let data_type = arrow_array::ArrayReader::field(&reader).data_type().clone();
        let chunks = reader.collect::<Result<Vec<_>, _>>().map_err(arrow_err)?;
        return Ok(Input::Chunked(chunks, data_type));
    }
    Err(PyTypeError::new_err(
        "expected an object with __arrow_c_array__ or __arrow_c_stream__",
    ))
}

fn capsule<'a, 'py>(
    obj: &'a Bound<'py, PyAny>,
    name: &CStr,
) -> PyResult<&'a Bound<'py, PyCapsule>> {
    obj.cast::<PyCapsule>().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected a PyCapsule named {:?} from the Arrow PyCapsule interface",
            name
        ))
    })
}

/// An Arrow error as a Python `ValueError`.
pub fn arrow_err(e: arrow_schema::ArrowError) -> PyErr {
    PyValueError::new_err(format!("Arrow: {e}"))
}

fn export_array<'py>(py: Python<'py>, array: &ArrayRef) -> PyResult<Bound<'py, PyTuple>> {
    let field = Field::new("", array.data_type().clone(), true);
    let schema = FFI_ArrowSchema::try_from(&field).map_err(arrow_err)?;
    let ffi_array = FFI_ArrowArray::new(&array.to_data());
    let schema = PyCapsule::new_with_value(py, schema, SCHEMA_NAME)?;
    let ffi_array = PyCapsule::new_with_value(py, ffi_array, ARRAY_NAME)?;
    PyTuple::new(py, [schema, ffi_array])
}

fn export_schema<'py>(py: Python<'py>, data_type: &DataType) -> PyResult<Bound<'py, PyCapsule>> {
    let field = Field::new("", data_type.clone(), true);
    let schema = FFI_ArrowSchema::try_from(&field).map_err(arrow_err)?;
    PyCapsule::new_with_value(py, schema, SCHEMA_NAME)
}

fn export_stream<'py>(
    py: Python<'py>,
    chunks: Vec<ArrayRef>,
    data_type: DataType,
) -> PyResult<Bound<'py, PyCapsule>> {
    let private = Box::new(StreamData {
        chunks,
        next: 0,
        field: Field::new("", data_type, true),
        last_error: None,
    });
    // SAFETY: the callbacks below implement the C stream interface over `StreamData`, which
    // `private_data` owns until `release_stream` frees it once and marks the stream released.
    let stream = unsafe {
        FFI_ArrowArrayStream::new_unchecked(
            Some(get_schema),
            Some(get_next),
            Some(get_last_error),
            Some(release_stream),
            Box::into_raw(private).cast(),
        )
    };
    PyCapsule::new_with_value(py, stream, STREAM_NAME)
}

/// What an exported stream owns: its chunks, one handed out per `get_next`.
struct StreamData {
    chunks: Vec<ArrayRef>,
    next: usize,
    field: Field,
    last_error: Option<CString>,
}

/// EIO, the C stream interface's code for a failed call.
const EIO: c_int = 5;

/// The stream's private data.
///
/// # Safety
///
/// `stream` is a live stream made by [`export_stream`] (not released).
unsafe fn stream_data<'a>(stream: *mut FFI_ArrowArrayStream) -> &'a mut StreamData {
    // SAFETY: by the caller's contract, `private_data` is the `StreamData` box of a live stream.
    unsafe { &mut *(*stream).private_data().cast::<StreamData>() }
}

/// The Arrow C stream interface's `get_schema` callback of the streams [`export_stream`] makes.
///
/// # Safety
///
/// `stream` is such a live stream (the consumer's side of the interface's contract).
unsafe extern "C" fn get_schema(
    stream: *mut FFI_ArrowArrayStream,
    out: *mut FFI_ArrowSchema,
) -> c_int {
    // SAFETY: the consumer calls get_schema on the live stream it received.
    let data = unsafe { stream_data(stream) };
    let result = catch_unwind(AssertUnwindSafe(|| FFI_ArrowSchema::try_from(&data.field)));
    match result {
        Ok(Ok(schema)) => {
            // SAFETY: `out` points to a struct the consumer gives us to fill (its old content
            // is not a live schema: the interface says it is uninitialized or released).
            unsafe { std::ptr::write(out, schema) };
            0
        }
        Ok(Err(e)) => {
            data.last_error = CString::new(e.to_string()).ok();
            EIO
        }
        Err(_) => EIO,
    }
}

/// The Arrow C stream interface's `get_next` callback of the streams [`export_stream`] makes.
///
/// # Safety
///
/// `stream` is such a live stream (the consumer's side of the interface's contract).
unsafe extern "C" fn get_next(
    stream: *mut FFI_ArrowArrayStream,
    out: *mut FFI_ArrowArray,
) -> c_int {
    // SAFETY: the consumer calls get_next on the live stream it received.
    let data = unsafe { stream_data(stream) };
    let result = catch_unwind(AssertUnwindSafe(|| match data.chunks.get(data.next) {
        Some(chunk) => FFI_ArrowArray::new(&chunk.to_data()),
        None => FFI_ArrowArray::empty(),
    }));
    match result {
        Ok(array) => {
            data.next += 1;
            // SAFETY: `out` is the consumer's struct to fill (uninitialized or released); an
            // empty (released) array marks the end of the stream.
            unsafe { std::ptr::write(out, array) };
            0
        }
        Err(_) => EIO,
    }
}

/// The Arrow C stream interface's `get_last_error` callback of the streams [`export_stream`] makes.
///
/// # Safety
///
/// `stream` is such a live stream (the consumer's side of the interface's contract).
unsafe extern "C" fn get_last_error(stream: *mut FFI_ArrowArrayStream) -> *const c_char {
    // SAFETY: the consumer calls get_last_error on the live stream it received.
    let data = unsafe { stream_data(stream) };
    data.last_error
        .as_ref()
        .map_or(std::ptr::null(), |e| e.as_ptr())
}

/// The Arrow C stream interface's `release_stream` callback of the streams [`export_stream`] makes.
///
/// # Safety
///
/// `stream` is such a live stream (the consumer's side of the interface's contract).
unsafe extern "C" fn release_stream(stream: *mut FFI_ArrowArrayStream) {
    if stream.is_null() {
        return;
    }
    // SAFETY: `stream` is the live stream being released (once: release is cleared below).
    unsafe {
        let private = (*stream).private_data().cast::<StreamData>();
        if !private.is_null() {
            drop(Box::from_raw(private));
        }
        (*stream).set_private_data(std::ptr::null_mut());
        (*stream).set_release(None);
    }
}

/// An Arrow array made by utf8_tools: pass it to `pyarrow.array()`, `polars.Series()`,
/// `duckdb` or any library that takes the Arrow PyCapsule interface; nothing is copied.
#[pyclass(module = "utf8_tools", name = "Array", frozen)]
pub struct Array {
    array: ArrayRef,
}

impl Array {
    /// Wraps an arrow-rs array.
    pub fn new(array: ArrayRef) -> Array {
        Array { array }
    }
}

#[pymethods]
impl Array {
    /// Exports the array (a schema and an array PyCapsule). `requested_schema` is ignored:
    /// the array is given in its own type.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let _ = requested_schema;
        export_array(py, &self.array)
    }

    /// Exports the array as a stream of one chunk.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        export_stream(py, vec![self.array.clone()], self.array.data_type().clone())
    }

    /// Exports the array's type.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        export_schema(py, self.array.data_type())
    }

    fn __len__(&self) -> usize {
        self.array.len()
    }

    /// The Arrow type, as arrow-rs writes it (e.g. `Utf8`, `LargeUtf8`, `Utf8View`).
    #[getter]
    fn r#type(&self) -> String {
        self.array.data_type().to_string()
    }

    /// The number of null rows.
    #[getter]
    fn null_count(&self) -> usize {
        self.array.logical_null_count()
    }

    /// The same array as a `pyarrow.Array` (needs pyarrow; zero-copy).
    fn to_pyarrow<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let pa = slf.py().import("pyarrow")?;
        pa.call_method1("array", (slf,))
    }

    /// The values as Python objects (through pyarrow).
    fn to_pylist<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Array::to_pyarrow(slf)?.call_method0("to_pylist")
    }

    fn __repr__(&self) -> String {
        format!(
            "utf8_tools.Array(type={}, len={})",
            self.array.data_type(),
            self.array.len()
        )
    }
}

/// A chunked Arrow array made by utf8_tools (the result for a chunked input: a
/// `pyarrow.ChunkedArray`, a Polars Series); exports `__arrow_c_stream__`, so
/// `pyarrow.chunked_array()` and `polars.Series()` take it without copying.
#[pyclass(module = "utf8_tools", name = "ChunkedArray", frozen)]
pub struct ChunkedArray {
    chunks: Vec<ArrayRef>,
    data_type: DataType,
}

impl ChunkedArray {
    /// Wraps chunks of one type.
    pub fn new(chunks: Vec<ArrayRef>, data_type: DataType) -> ChunkedArray {
        ChunkedArray { chunks, data_type }
    }
}

#[pymethods]
impl ChunkedArray {
    /// Exports the chunks as a stream. `requested_schema` is ignored.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        export_stream(py, self.chunks.clone(), self.data_type.clone())
    }

    /// Exports the chunks' type.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        export_schema(py, &self.data_type)
    }

    fn __len__(&self) -> usize {
        self.chunks.iter().map(|c| c.len()).sum()
    }

    /// The number of chunks.
    #[getter]
    fn num_chunks(&self) -> usize {
        self.chunks.len()
    }

    /// Chunk `i` as an [`Array`].
    fn chunk(&self, i: usize) -> PyResult<Array> {
        self.chunks
            .get(i)
            .map(|c| Array::new(c.clone()))
            .ok_or_else(|| PyIndexError::new_err("chunk index out of range"))
    }

    /// The Arrow type of the chunks.
    #[getter]
    fn r#type(&self) -> String {
        self.data_type.to_string()
    }

    /// The same chunks as a `pyarrow.ChunkedArray` (needs pyarrow; zero-copy).
    fn to_pyarrow<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let pa = slf.py().import("pyarrow")?;
        pa.call_method1("chunked_array", (slf,))
    }

    /// The values as Python objects (through pyarrow).
    fn to_pylist<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        ChunkedArray::to_pyarrow(slf)?.call_method0("to_pylist")
    }

    fn __repr__(&self) -> String {
        format!(
            "utf8_tools.ChunkedArray(type={}, len={}, chunks={})",
            self.data_type,
            self.__len__(),
            self.chunks.len()
        )
    }
}
