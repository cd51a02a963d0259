//! The codec per row of an Arrow column: binary and string arrays (32- and 64-bit offsets),
//! their view types, and dictionaries of any of these.
//!
//! Columns with offsets are checked as one buffer: the values buffer from the first row to the
//! last is validated in one pass of the codec's kernel, resumed after each error, and a row is
//! clean when it lies in a valid stretch and starts and ends on character boundaries. Only the
//! damaged rows are looked at one by one; a repair copies the runs of clean rows between them
//! whole, and returns the input's own buffers (typed as string) when no row is damaged.

use std::sync::Arc;

use arrow_array::builder::make_view;
use arrow_array::cast::AsArray;
use arrow_array::types::GenericBinaryType;
use arrow_array::{
    Array, ArrayRef, BinaryViewArray, BooleanArray, GenericByteArray, GenericStringArray,
    Int64Array, LargeBinaryArray, LargeStringArray, ListArray, OffsetSizeTrait, StringArray,
    StringViewArray, StructArray,
};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields};
use utf8_codec::RepairOptions;

/// The types a column may have, for error messages.
pub const ACCEPTED_TYPES: &str = "binary, large_binary, string, large_string, binary_view, \
                                  string_view, or a dictionary of one of these";

/// A column of byte strings, whatever its Arrow type.
pub enum Column {
    /// `binary` or `string` (32-bit offsets), read as bytes.
    Small(GenericByteArray<GenericBinaryType<i32>>),
    /// `large_binary` or `large_string`.
    Large(LargeBinaryArray),
    /// `binary_view` or `string_view`.
    View(BinaryViewArray),
    /// A dictionary: the values are a column, the keys pick a value per row.
    Dict {
        /// The dictionary array itself (for `with_values`).
        dict: ArrayRef,
        /// Each row's key, clamped into the values (arbitrary for null rows).
        keys: Vec<usize>,
        /// The keys' nulls.
        nulls: Option<NullBuffer>,
        /// The dictionary's values.
        values: Box<Column>,
    },
}

impl Column {
    /// Reads an Arrow array as a column, or says which types are accepted.
    pub fn new(array: &ArrayRef) -> Result<Column, String> {
        Ok(match array.data_type() {
            DataType::Binary => Column::Small(array.as_binary::<i32>().clone()),
            DataType::Utf8 => {
                let s = array.as_string::<i32>();
                Column::Small(GenericByteArray::new(
                    s.offsets().clone(),
                    s.values().clone(),
                    s.nulls().cloned(),
                ))
            }
            DataType::LargeBinary => Column::Large(array.as_binary::<i64>().clone()),
            DataType::LargeUtf8 => {
                let s = array.as_string::<i64>();
                Column::Large(GenericByteArray::new(
                    s.offsets().clone(),
                    s.values().clone(),
                    s.nulls().cloned(),
                ))
            }
            DataType::BinaryView => Column::View(array.as_binary_view().clone()),
            DataType::Utf8View => Column::View(array.as_string_view().clone().to_binary_view()),
            DataType::Dictionary(_, _) => {
                let dict = array.as_any_dictionary();
                let values = Column::new(dict.values())?;
                let keys = if dict.values().is_empty() {
                    vec![0; dict.len()]
                } else {
                    dict.normalized_keys()
                };
                let mut nulls = dict.keys().nulls().cloned();
                if dict.values().is_empty() && dict.keys().null_count() != dict.len() {
                    return Err("a dictionary with no values has non-null keys".into());
                }
                if nulls.is_none() && dict.values().is_empty() && !dict.is_empty() {
                    nulls = Some(NullBuffer::new_null(dict.len()));
                }
                Column::Dict {
                    dict: array.clone(),
                    keys,
                    nulls,
                    values: Box::new(values),
                }
            }
            other => {
                return Err(format!(
                    "expected an Arrow array of {ACCEPTED_TYPES}, got {other}"
                ));
            }
        })
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        match self {
            Column::Small(a) => a.len(),
            Column::Large(a) => a.len(),
            Column::View(a) => a.len(),
            Column::Dict { keys, .. } => keys.len(),
        }
    }

    fn nulls(&self) -> Option<&NullBuffer> {
        match self {
            Column::Small(a) => a.nulls(),
            Column::Large(a) => a.nulls(),
            Column::View(a) => a.nulls(),
            Column::Dict { nulls, .. } => nulls.as_ref(),
        }
    }

    /// The rows of this column that are not valid UTF-8 (null rows included: their bytes are
    /// looked at too), in order; not for dictionaries.
    fn damaged(&self) -> Vec<usize> {
        match self {
            Column::Small(a) => damaged_rows(a.value_offsets(), a.values()),
            Column::Large(a) => damaged_rows(a.value_offsets(), a.values()),
            Column::View(a) => (0..a.len())
                .filter(|&i| !utf8_codec::is_valid(a.value(i)))
                .collect(),
            Column::Dict { .. } => unreachable!("dictionaries are mapped through their values"),
        }
    }

    /// The bytes of row `i` (not for dictionaries).
    fn bytes(&self, i: usize) -> &[u8] {
        match self {
            Column::Small(a) => a.value(i),
            Column::Large(a) => a.value(i),
            Column::View(a) => a.value(i),
            Column::Dict { .. } => unreachable!("dictionaries are mapped through their values"),
        }
    }

    /// `clean(row)` for each row known to be valid UTF-8 and `dirty(row)` for the others,
    /// `None` for null rows. A dictionary maps its values once and picks by key.
    pub fn map_rows<T: Clone>(
        &self,
        clean: &impl Fn(&[u8]) -> T,
        dirty: &impl Fn(&[u8]) -> T,
    ) -> Vec<Option<T>> {
        if let Column::Dict {
            keys,
            nulls,
            values,
            ..
        } = self
        {
            let mapped = values.map_rows(clean, dirty);
            return keys
                .iter()
                .enumerate()
                .map(|(i, &k)| {
                    if nulls.as_ref().is_some_and(|n| n.is_null(i)) {
                        None
                    } else {
                        mapped.get(k).cloned().flatten()
                    }
                })
                .collect();
        }
        let n = self.len();
        let damaged = self.damaged();
        let nulls = self.nulls();
        let mut out = Vec::with_capacity(n);
        let mut d = damaged.iter().peekable();
        for i in 0..n {
            let is_damaged = d.next_if(|&&j| j == i).is_some();
            if nulls.is_some_and(|nb| nb.is_null(i)) {
                out.push(None);
            } else if is_damaged {
                out.push(Some(dirty(self.bytes(i))));
            } else {
                out.push(Some(clean(self.bytes(i))));
            }
        }
        out
    }

    /// The repaired column: string for binary and string, large string for large ones (and
    /// for a result whose 32-bit offsets would overflow), string view for views; a dictionary
    /// keeps its keys over repaired values.
    pub fn repair(&self, options: &RepairOptions<'_>) -> ArrayRef {
        match self {
            Column::Small(a) => repair_offsets(a, options, false),
            Column::Large(a) => repair_offsets(a, options, true),
            Column::View(a) => repair_views(a, options),
            Column::Dict { dict, values, .. } => {
                let repaired = values.repair(options);
                dict.as_any_dictionary().with_values(repaired)
            }
        }
    }
}

/// Whether byte `b` is a UTF-8 continuation byte (`80..BF`).
#[inline]
fn is_continuation(b: u8) -> bool {
    (b as i8) < -64
}

/// The rows, given by `offsets` into `values`, that are not valid UTF-8: one validation of the
/// buffer, resumed after each damaged row.
fn damaged_rows<O: OffsetSizeTrait>(offsets: &[O], values: &[u8]) -> Vec<usize> {
    let n = offsets.len() - 1;
    let end = offsets[n].as_usize();
    let mut damaged = Vec::new();
    let mut r = 0;
    while r < n {
        let s = offsets[r].as_usize();
        // [s, v) is valid UTF-8 and v is a character boundary (or the first error).
        let v = s + utf8_codec::valid_up_to(&values[s..end]);
        // Rows inside [s, v] are valid when they end on a character boundary: row r starts
        // at s or where row r - 1 ended, on a boundary.
        while r < n {
            let e = offsets[r + 1].as_usize();
            if e > v || (e < v && is_continuation(values[e])) {
                break;
            }
            r += 1;
        }
        if r < n {
            // Row r holds the error at v, or ends inside a character.
            damaged.push(r);
            r += 1;
        }
    }
    damaged
}

/// Repairs a column with offsets (see the module docs).
fn repair_offsets<O: OffsetSizeTrait>(
    a: &GenericByteArray<GenericBinaryType<O>>,
    options: &RepairOptions<'_>,
    large: bool,
) -> ArrayRef {
    let offsets = a.value_offsets();
    let values = a.values();
    let damaged = damaged_rows(offsets, values);
    if damaged.is_empty() {
        // SAFETY: every row is valid UTF-8 (damaged_rows found none that is not), and the
        // offsets and nulls are those of a valid binary array.
        let s = unsafe {
            GenericStringArray::<O>::new_unchecked(
                a.offsets().clone(),
                values.clone(),
                a.nulls().cloned(),
            )
        };
        return Arc::new(s);
    }
    let n = a.len();
    let first = offsets[0].as_usize();
    let span = offsets[n].as_usize() - first;
    let mut out: Vec<u8> = Vec::with_capacity(span + span / 8 + 16);
    let mut out_offsets: Vec<i64> = Vec::with_capacity(n + 1);
    out_offsets.push(0);
    let mut scratch = String::new();
    let mut run = 0; // the first row of the current run of clean rows
    let copy_run = |out: &mut Vec<u8>, out_offsets: &mut Vec<i64>, from: usize, to: usize| {
        // Rows from..to are clean: their bytes are copied as one slice, offsets shifted.
        let start = offsets[from].as_usize();
        let shift = out.len() as i64 - start as i64;
        out.extend_from_slice(&values[start..offsets[to].as_usize()]);
        out_offsets.extend(
            offsets[from + 1..=to]
                .iter()
                .map(|o| o.as_usize() as i64 + shift),
        );
    };
    for &d in &damaged {
        copy_run(&mut out, &mut out_offsets, run, d);
        scratch.clear();
        utf8_codec::repair_into(a.value(d), options, &mut scratch);
        out.extend_from_slice(scratch.as_bytes());
        out_offsets.push(out.len() as i64);
        run = d + 1;
    }
    copy_run(&mut out, &mut out_offsets, run, n);
    let values = Buffer::from_vec(out);
    let nulls = a.nulls().cloned();
    if large || values.len() > i32::MAX as usize {
        // SAFETY: the offsets start at 0, never decrease and end at the values' length.
        let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(out_offsets)) };
        // SAFETY: every row is clean bytes copied whole (valid UTF-8 between character
        // boundaries) or the output of the codec's repair (a `String`).
        Arc::new(unsafe { LargeStringArray::new_unchecked(offsets, values, nulls) })
    } else {
        let small: Vec<i32> = out_offsets.iter().map(|&o| o as i32).collect();
        // SAFETY: as above; every offset fits in i32 (the last, the largest, does).
        let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(small)) };
        // SAFETY: as above.
        Arc::new(unsafe { StringArray::new_unchecked(offsets, values, nulls) })
    }
}

/// Repairs a view column: the views of clean rows are kept (pointing into the input's
/// buffers), damaged rows get new views into one more buffer.
fn repair_views(a: &BinaryViewArray, options: &RepairOptions<'_>) -> ArrayRef {
    let damaged: Vec<usize> = (0..a.len())
        .filter(|&i| !utf8_codec::is_valid(a.value(i)))
        .collect();
    if damaged.is_empty() {
        // SAFETY: every row's bytes are valid UTF-8, and the views and buffers are those of a
        // valid binary view array.
        let s = unsafe {
            StringViewArray::new_unchecked(
                a.views().clone(),
                a.data_buffers().clone(),
                a.nulls().cloned(),
            )
        };
        return Arc::new(s);
    }
    let mut views: Vec<u128> = a.views().to_vec();
    let mut buffers: Vec<Buffer> = a.data_buffers().to_vec();
    let mut block: Vec<u8> = Vec::new();
    let mut scratch = String::new();
    for &i in &damaged {
        scratch.clear();
        utf8_codec::repair_into(a.value(i), options, &mut scratch);
        let s = scratch.as_bytes();
        if s.len() > 12 && block.len() + s.len() > i32::MAX as usize {
            buffers.push(Buffer::from_vec(std::mem::take(&mut block)));
        }
        let id = buffers.len() as u32;
        views[i] = make_view(s, id, block.len() as u32);
        if s.len() > 12 {
            block.extend_from_slice(s);
        }
    }
    if !block.is_empty() {
        buffers.push(Buffer::from_vec(block));
    }
    // SAFETY: clean rows keep views into the unchanged buffers (valid UTF-8 rows); each
    // damaged row's view is made by `make_view` over the codec's repair (a `String`), inline
    // or at its offset in the buffer pushed last.
    let s = unsafe {
        StringViewArray::new_unchecked(
            ScalarBuffer::from(views),
            buffers.into(),
            a.nulls().cloned(),
        )
    };
    Arc::new(s)
}

/// A boolean column from per-row results.
pub fn bools(rows: Vec<Option<bool>>) -> ArrayRef {
    Arc::new(BooleanArray::from(rows))
}

/// An int64 column from per-row results.
pub fn ints(rows: Vec<Option<i64>>) -> ArrayRef {
    Arc::new(Int64Array::from(rows))
}

/// One error of a row: offset, length, kind.
pub type RowError = (i64, i32, &'static str);

/// The errors of one row.
pub fn row_errors(bytes: &[u8]) -> Vec<RowError> {
    utf8_codec::errors(bytes)
        .map(|e| {
            (
                e.valid_up_to() as i64,
                e.error_len()
                    .map_or(bytes.len() - e.valid_up_to(), usize::from) as i32,
                e.kind().as_str(),
            )
        })
        .collect()
}

/// The type of an `errors` column: `list<struct<offset: int64, length: int32, kind: string>>`.
pub fn error_fields() -> Fields {
    Fields::from(vec![
        Field::new("offset", DataType::Int64, false),
        Field::new("length", DataType::Int32, false),
        Field::new("kind", DataType::Utf8, false),
    ])
}

/// A list-of-struct column from per-row errors.
pub fn errors_column(rows: Vec<Option<Vec<RowError>>>) -> Result<ArrayRef, String> {
    let total: usize = rows.iter().flatten().map(Vec::len).sum();
    if total > i32::MAX as usize {
        return Err(format!("{total} errors are too many for one list column"));
    }
    let mut offsets = Vec::with_capacity(rows.len() + 1);
    offsets.push(0i32);
    let mut off = Vec::with_capacity(total);
    let mut len = Vec::with_capacity(total);
    let mut kind = Vec::with_capacity(total);
    let mut valid = Vec::with_capacity(rows.len());
    for row in &rows {
        valid.push(row.is_some());
        for &(o, l, k) in row.iter().flatten() {
            off.push(o);
            len.push(l);
            kind.push(k);
        }
        offsets.push(off.len() as i32);
    }
    let fields = error_fields();
    let entries = StructArray::new(
        fields.clone(),
        vec![
            Arc::new(Int64Array::from(off)) as ArrayRef,
            Arc::new(arrow_array::Int32Array::from(len)),
            Arc::new(StringArray::from(kind)),
        ],
        None,
    );
    let item = Arc::new(Field::new("item", DataType::Struct(fields), false));
    let nulls = NullBuffer::from(valid);
    let nulls = (nulls.null_count() > 0).then_some(nulls);
    let list = ListArray::new(
        item,
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        Arc::new(entries),
        nulls,
    );
    Ok(Arc::new(list))
}

/// A struct column of int64 fields from per-row values (in the order of `names`).
pub fn struct_column(names: &[&str], rows: Vec<Option<Vec<i64>>>) -> ArrayRef {
    let fields: Fields = names
        .iter()
        .map(|n| Field::new(*n, DataType::Int64, false))
        .collect();
    let columns: Vec<ArrayRef> = (0..names.len())
        .map(|f| {
            Arc::new(Int64Array::from_iter_values(
                rows.iter().map(|r| r.as_ref().map_or(0, |v| v[f])),
            )) as ArrayRef
        })
        .collect();
    let nulls = NullBuffer::from_iter(rows.iter().map(Option::is_some));
    let nulls = (nulls.null_count() > 0).then_some(nulls);
    if names.is_empty() {
        return Arc::new(StructArray::new_empty_fields(rows.len(), nulls));
    }
    Arc::new(StructArray::new(fields, columns, nulls))
}

/// A `string` chunk as `large_string` (offsets widened), so that the chunks of one result
/// share a type when one of them needed 64-bit offsets.
pub fn widen(array: &ArrayRef) -> ArrayRef {
    match array.data_type() {
        DataType::Utf8 => {
            let s = array.as_string::<i32>();
            let offsets: Vec<i64> = s.value_offsets().iter().map(|&o| i64::from(o)).collect();
            // SAFETY: the offsets of a valid string array, widened: still monotonic and in
            // bounds of the same values.
            let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(offsets)) };
            // SAFETY: the same rows of a valid string array.
            Arc::new(unsafe {
                LargeStringArray::new_unchecked(offsets, s.values().clone(), s.nulls().cloned())
            })
        }
        _ => array.clone(),
    }
}
