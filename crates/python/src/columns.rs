//! The codec per row of an Arrow column: binary and string arrays (32- and 64-bit offsets),
//! their view types, and dictionaries of any of these.
//!
//! Columns with offsets are checked as one buffer: the values buffer from the first row to the
//! last is validated in one pass of the codec's kernel, resumed after each error, and a row is
//! clean when it lies in a valid stretch and starts and ends on character boundaries. Only the
//! damaged rows are looked at one by one; a repair copies the runs of clean rows between them
//! whole, and returns the input's own buffers (typed as string) when no row is damaged.

use std::borrow::Cow;
use std::sync::Arc;

use arrow_array::builder::{StringViewBuilder, make_view};
use arrow_array::cast::AsArray;
use arrow_array::types::GenericBinaryType;
use arrow_array::{
    Array, ArrayRef, BinaryViewArray, BooleanArray, GenericByteArray, LargeBinaryArray,
    LargeStringArray, OffsetSizeTrait, StringArray, StringViewArray,
};
use arrow_buffer::{BooleanBufferBuilder, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::DataType;
use utf8_codec::RepairOptions;

use crate::scan::damaged_rows;

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

    /// The rows' logical nulls (for a dictionary: null keys and keys of null values).
    pub fn logical_nulls(&self) -> Option<NullBuffer> {
        match self {
            Column::Dict {
                keys,
                nulls,
                values,
                ..
            } => {
                let vnulls = values.logical_nulls();
                if nulls.is_none() && vnulls.is_none() {
                    return None;
                }
                let valid = keys.iter().enumerate().map(|(i, &k)| {
                    !nulls.as_ref().is_some_and(|n| n.is_null(i))
                        && !vnulls.as_ref().is_some_and(|n| n.is_null(k))
                });
                let nb = NullBuffer::from_iter(valid);
                (nb.null_count() > 0).then_some(nb)
            }
            _ => self.nulls().cloned().filter(|n| n.null_count() > 0),
        }
    }

    /// Calls `f(Some((bytes, clean)))` for each row in order, `clean` when the row is known
    /// to be valid UTF-8 (without looking at it again), and `f(None)` for null rows.
    pub fn for_each_row(&self, mut f: impl FnMut(Option<(&[u8], bool)>)) {
        if let Column::Dict {
            keys,
            nulls,
            values,
            ..
        } = self
        {
            let mut bad = vec![false; values.len()];
            for d in values.damaged() {
                bad[d] = true;
            }
            let vnulls = values.nulls();
            for (i, &k) in keys.iter().enumerate() {
                if nulls.as_ref().is_some_and(|n| n.is_null(i))
                    || vnulls.is_some_and(|n| n.is_null(k))
                {
                    f(None);
                } else {
                    f(Some((values.bytes(k), !bad[k])));
                }
            }
            return;
        }
        let damaged = self.damaged();
        let nulls = self.nulls();
        let mut d = damaged.iter().peekable();
        for i in 0..self.len() {
            let is_damaged = d.next_if(|&&j| j == i).is_some();
            if nulls.is_some_and(|nb| nb.is_null(i)) {
                f(None);
            } else {
                f(Some((self.bytes(i), !is_damaged)));
            }
        }
    }

    /// Whether each row is valid UTF-8 (null rows: false, masked by the nulls).
    pub fn is_valid(&self) -> ArrayRef {
        let values = if let Column::Dict { .. } = self {
            let mut b = BooleanBufferBuilder::new(self.len());
            self.for_each_row(|row| b.append(row.is_some_and(|(_, clean)| clean)));
            b.finish()
        } else {
            let mut b = BooleanBufferBuilder::new(self.len());
            b.append_n(self.len(), true);
            for d in self.damaged() {
                b.set_bit(d, false);
            }
            b.finish()
        };
        Arc::new(BooleanArray::new(values, self.logical_nulls()))
    }

    /// A string column of `f` of each row's bytes (nulls kept): `string` for binary and
    /// string input (`large_string` past 32-bit offsets), `large_string` for large ones,
    /// `string_view` for views; a dictionary keeps its keys over `f` of its values.
    pub fn map_strings<F>(&self, f: &F) -> ArrayRef
    where
        F: Fn(&[u8]) -> Cow<'_, str>,
    {
        match self {
            Column::Small(a) => strings_by_offsets(a, f, false),
            Column::Large(a) => strings_by_offsets(a, f, true),
            Column::View(a) => {
                let mut b = StringViewBuilder::with_capacity(a.len());
                for i in 0..a.len() {
                    if a.is_null(i) {
                        b.append_null();
                    } else {
                        b.append_value(f(a.value(i)));
                    }
                }
                Arc::new(b.finish())
            }
            Column::Dict { dict, values, .. } => {
                dict.as_any_dictionary().with_values(values.map_strings(f))
            }
        }
    }

    /// The repaired column: string for binary and string, large string for large ones (and
    /// for a result whose 32-bit offsets would overflow), string view for views; a dictionary
    /// keeps its keys over repaired values.
    pub fn repair(&self, options: &RepairOptions<'_>) -> ArrayRef {
        match self {
            Column::Small(a) => crate::rebuild::repair_offsets(a, options, false),
            Column::Large(a) => crate::rebuild::repair_offsets(a, options, true),
            Column::View(a) => repair_views(a, options),
            Column::Dict { dict, values, .. } => {
                let repaired = values.repair(options);
                dict.as_any_dictionary().with_values(repaired)
            }
        }
    }
}

/// [`Column::map_strings`] over a column with offsets.
fn strings_by_offsets<O: OffsetSizeTrait, F>(
    a: &GenericByteArray<GenericBinaryType<O>>,
    f: &F,
    large: bool,
) -> ArrayRef
where
    F: Fn(&[u8]) -> Cow<'_, str>,
{
    let mut out: Vec<u8> = Vec::new();
    let mut offsets: Vec<i64> = Vec::with_capacity(a.len() + 1);
    offsets.push(0);
    for i in 0..a.len() {
        if !a.is_null(i) {
            out.extend_from_slice(f(a.value(i)).as_bytes());
        }
        offsets.push(out.len() as i64);
    }
    let nulls = a.nulls().cloned();
    let values = Buffer::from_vec(out);
    if large || values.len() > i32::MAX as usize {
        // SAFETY: offsets from 0, never decreasing, ending at the values' length.
        let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(offsets)) };
        // SAFETY: every row is a `str` (Rust strings are UTF-8).
        Arc::new(unsafe { LargeStringArray::new_unchecked(offsets, values, nulls) })
    } else {
        let small: Vec<i32> = offsets.iter().map(|&o| o as i32).collect();
        // SAFETY: the same offsets (from 0, never decreasing, ending at the values'
        // length), each of which fits in i32 since the last, the largest, does.
        let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(small)) };
        // SAFETY: every row is a `str` (Rust strings are UTF-8), between the offsets
        // just built.
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
    let mut fixed = Vec::new();
    for &i in &damaged {
        fixed.clear();
        crate::rebuild::repair_row(a.value(i), options, &mut fixed, &mut scratch);
        let s = &fixed[..];
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
    // damaged row's view is made by `make_view` over its repair (valid UTF-8), inline
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
