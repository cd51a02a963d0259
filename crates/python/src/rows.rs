//! The per-row answers other than repair: where each row stops being valid, its errors, its
//! counts, its encoding, and the widening of results to large types.

use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, Int64Array, LargeStringArray, ListArray, OffsetSizeTrait, StringArray,
    StructArray,
};
use arrow_buffer::{OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields};

use crate::columns::Column;
use crate::scan::{damaged_rows, is_continuation};

/// The length of each row's valid prefix, as int64.
pub fn valid_up_to(col: &Column) -> ArrayRef {
    let mut v = Vec::with_capacity(col.len());
    col.for_each_row(|row| {
        v.push(match row {
            Some((b, true)) => b.len() as i64,
            Some((b, false)) => utf8_codec::valid_up_to(b) as i64,
            None => 0,
        })
    });
    Arc::new(Int64Array::new(ScalarBuffer::from(v), col.logical_nulls()))
}

/// One error of a row: offset, length, kind.
pub type RowError = (i64, i32, &'static str);

/// The errors of one row.
pub fn row_errors(bytes: &[u8]) -> Vec<RowError> {
    let mut v = Vec::new();
    push_errors(bytes, &mut |e| v.push(e));
    v
}

fn push_errors(bytes: &[u8], f: &mut impl FnMut(RowError)) {
    for e in utf8_codec::errors(bytes) {
        let len = e
            .error_len()
            .map_or(bytes.len() - e.valid_up_to(), usize::from);
        f((e.valid_up_to() as i64, len as i32, e.kind().as_str()));
    }
}

/// The type of an `errors` column's entries: `struct<offset: int64, length: int32, kind:
/// string>`.
pub fn error_fields() -> Fields {
    Fields::from(vec![
        Field::new("offset", DataType::Int64, false),
        Field::new("length", DataType::Int32, false),
        Field::new("kind", DataType::Utf8, false),
    ])
}

/// Each row's errors: a `list<struct<offset, length, kind>>` column.
pub fn errors(col: &Column) -> Result<ArrayRef, String> {
    let mut offsets: Vec<i32> = Vec::with_capacity(col.len() + 1);
    offsets.push(0);
    let mut off = Vec::new();
    let mut len = Vec::new();
    let mut kind = Vec::new();
    let mut total: usize = 0;
    col.for_each_row(|row| {
        if let Some((b, false)) = row {
            push_errors(b, &mut |(o, l, k)| {
                off.push(o);
                len.push(l);
                kind.push(k);
            });
            total = off.len();
        }
        offsets.push(total.min(i32::MAX as usize) as i32);
    });
    if total > i32::MAX as usize {
        return Err(format!("{total} errors are too many for one list column"));
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
    let list = ListArray::new(
        item,
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        Arc::new(entries),
        col.logical_nulls(),
    );
    Ok(Arc::new(list))
}

/// A count `count` can give.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum CountField {
    /// Newline bytes.
    Lines,
    /// Words, as GNU `wc -w`.
    Words,
    /// Well-formed scalar values.
    Chars,
    /// Bytes.
    Bytes,
    /// Maximal subparts.
    Errors,
}

impl CountField {
    /// Every field, in the default order.
    pub const ALL: [CountField; 5] = [
        CountField::Lines,
        CountField::Words,
        CountField::Chars,
        CountField::Bytes,
        CountField::Errors,
    ];

    /// The field's name.
    pub fn name(self) -> &'static str {
        match self {
            CountField::Lines => "lines",
            CountField::Words => "words",
            CountField::Chars => "chars",
            CountField::Bytes => "bytes",
            CountField::Errors => "errors",
        }
    }
}

/// The counts of one row, in the order of `fields`: `clean` says the row is known to be valid
/// UTF-8.
pub fn count_row(b: &[u8], fields: &[CountField], clean: bool, out: &mut [i64]) {
    use CountField::*;
    let counts = (!clean && fields.iter().any(|f| matches!(f, Lines | Chars | Errors)))
        .then(|| utf8_codec::count(b));
    for (o, f) in out.iter_mut().zip(fields) {
        *o = match (f, &counts) {
            (Bytes, _) => b.len() as i64,
            (Words, _) => utf8_codec::count_words(b).count() as i64,
            (Lines, Some(c)) => c.lines as i64,
            (Chars, Some(c)) => c.chars as i64,
            (Errors, Some(c)) => c.errors as i64,
            (Lines, None) => b.iter().filter(|&&x| x == b'\n').count() as i64,
            (Chars, None) => chars_of_valid(b) as i64,
            (Errors, None) => 0,
        };
    }
}

/// The scalar values in valid UTF-8 `b`: one per byte that is not a continuation byte,
/// counted eight bytes at a time (a continuation byte has bit 7 set and bit 6 clear).
fn chars_of_valid(b: &[u8]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = b.chunks_exact(8);
    let mut continuations = 0;
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("chunks of 8"));
        // Bit 7 of each byte of `w << 1` is bit 6 of the same byte of `w`.
        continuations += (w & !(w << 1) & HIGH).count_ones() as usize;
    }
    continuations += words
        .remainder()
        .iter()
        .filter(|&&x| is_continuation(x))
        .count();
    b.len() - continuations
}

/// The scalar values of each row of a column with offsets: a clean row's bytes less its
/// continuation bytes, read off a running count of them over the values, so that no row costs
/// a call or a loop of its own; damaged rows are counted by the codec.
///
/// The values are read [`CHUNK`] bytes at a time: first a bit mask of the continuation bytes
/// of each 64-byte block and the count before each block, then, for each row ending in the
/// chunk, the count before its end is the block's plus the bits of the mask below it.
fn chars_by_offsets<O: OffsetSizeTrait>(offsets: &[O], values: &[u8], out: &mut Vec<i64>) {
    let damaged = damaged_rows(offsets, values);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has POPCNT (detected just above), the one feature the function
        // is compiled for.
        unsafe { chars_popcnt(offsets, values, out) };
    } else {
        chars_of_rows(offsets, values, out);
    }
    #[cfg(not(target_arch = "x86_64"))]
    chars_of_rows(offsets, values, out);
    for d in damaged {
        let row = &values[offsets[d].as_usize()..offsets[d + 1].as_usize()];
        out[d] = utf8_codec::count(row).chars as i64;
    }
}

/// [`chars_of_rows`] compiled with the POPCNT instruction (a bit count per row).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn chars_popcnt<O: OffsetSizeTrait>(offsets: &[O], values: &[u8], out: &mut Vec<i64>) {
    chars_of_rows(offsets, values, out);
}

/// How many bytes of values [`chars_of_rows`] masks at a time: its tables (12 bytes per 64)
/// stay in the L1 cache.
const CHUNK: usize = 64 << 10;

/// Each row's bytes less its continuation bytes, pushed to `out` (see [`chars_by_offsets`]).
#[inline(always)]
fn chars_of_rows<O: OffsetSizeTrait>(offsets: &[O], values: &[u8], out: &mut Vec<i64>) {
    let n = offsets.len() - 1;
    let start = offsets[0].as_usize();
    let bytes = &values[start..offsets[n].as_usize()];
    out.reserve(n);
    // Per block of the chunk (and one past its end): the continuation bytes' mask, and how
    // many there are in the chunk before the block.
    let mut masks = vec![0u64; CHUNK / 64 + 1];
    let mut before = vec![0u32; CHUNK / 64 + 1];
    let (mut row, mut done) = (0, 0); // rows pushed; continuation bytes before the chunk
    let (mut s, mut at_s) = (0, 0); // the row's start, and the continuation bytes before it
    for (c, chunk) in bytes.chunks(CHUNK).enumerate() {
        let blocks = chunk.len().div_ceil(64);
        let mut total = 0;
        for (b, block) in chunk.chunks(64).enumerate() {
            let m = continuation_mask(block);
            masks[b] = m;
            before[b] = total;
            total += m.count_ones();
        }
        masks[blocks] = 0;
        before[blocks] = total;
        let base = c * CHUNK;
        let end = base + chunk.len();
        while row < n {
            let e = offsets[row + 1].as_usize() - start;
            if e > end {
                break;
            }
            let (b, bit) = ((e - base) / 64, (e - base) % 64);
            let below = (masks[b] & ((1u64 << bit) - 1)).count_ones();
            let at_e = done + (before[b] + below) as usize;
            out.push((e - s - (at_e - at_s)) as i64);
            (s, at_s) = (e, at_e);
            row += 1;
        }
        done += total as usize;
    }
    // Rows past the last chunk: empty ones at the end (or all rows of an empty buffer).
    out.extend(std::iter::repeat_n(0, n - row));
}

/// Bit i set where `block[i]` (at most 64 bytes) is a continuation byte: eight bytes at a
/// time, each byte's bit 7 set where it is one (bit 7 set, bit 6 clear), the eight bits then
/// gathered into the top byte by one multiplication.
#[inline(always)]
fn continuation_mask(block: &[u8]) -> u64 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut full = [0u8; 64];
    let block: &[u8; 64] = match block.try_into() {
        Ok(b) => b,
        Err(_) => {
            // The last block of the values: zeros (not continuation bytes) after it.
            full[..block.len()].copy_from_slice(block);
            &full
        }
    };
    let mut m = 0;
    for (i, w) in block.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(w.try_into().expect("chunks of 8"));
        // Bit 7 of each byte of `w << 1` is bit 6 of the same byte of `w`.
        let marks = w & !(w << 1) & HIGH;
        m |= (marks.wrapping_mul(0x0002_0408_1020_4081) >> 56) << (8 * i);
    }
    m
}

/// Each row's counts: a struct column of int64 fields, in the order of `fields`.
pub fn counts(col: &Column, fields: &[CountField]) -> ArrayRef {
    let mut columns: Vec<Vec<i64>> = fields
        .iter()
        .map(|_| Vec::with_capacity(col.len()))
        .collect();
    let mut row = vec![0i64; fields.len()];
    if fields == [CountField::Chars] {
        // The common single count, without the per-field loop; on offsets, straight from
        // them (null rows counted too, masked by the nulls).
        let c = &mut columns[0];
        match col {
            Column::Small(a) => chars_by_offsets(a.value_offsets(), a.values(), c),
            Column::Large(a) => chars_by_offsets(a.value_offsets(), a.values(), c),
            _ => col.for_each_row(|r| {
                c.push(match r {
                    Some((b, true)) => chars_of_valid(b) as i64,
                    Some((b, false)) => utf8_codec::count(b).chars as i64,
                    None => 0,
                })
            }),
        }
    } else {
        col.for_each_row(|r| {
            match r {
                Some((b, clean)) => count_row(b, fields, clean, &mut row),
                None => row.fill(0),
            }
            for (c, &v) in columns.iter_mut().zip(&row) {
                c.push(v);
            }
        });
    }
    let nulls = col.logical_nulls();
    if fields.is_empty() {
        return Arc::new(StructArray::new_empty_fields(col.len(), nulls));
    }
    let schema: Fields = fields
        .iter()
        .map(|f| Field::new(f.name(), DataType::Int64, false))
        .collect();
    let arrays = columns
        .into_iter()
        .map(|c| Arc::new(Int64Array::new(ScalarBuffer::from(c), None)) as ArrayRef)
        .collect();
    Arc::new(StructArray::new(schema, arrays, nulls))
}

/// What `detect` says of each row: a `struct<encoding: string, evidence: string>` column
/// (`encoding` null for binary data).
pub fn detect(col: &Column) -> ArrayRef {
    let mut enc = StringBuilder::new();
    let mut why = StringBuilder::new();
    col.for_each_row(|row| match row {
        Some((b, _)) => {
            let (e, w) = crate::text::detect(b);
            enc.append_option(e);
            why.append_value(w);
        }
        None => {
            enc.append_null();
            why.append_value("");
        }
    });
    let fields = Fields::from(vec![
        Field::new("encoding", DataType::Utf8, true),
        Field::new("evidence", DataType::Utf8, false),
    ]);
    Arc::new(StructArray::new(
        fields,
        vec![Arc::new(enc.finish()), Arc::new(why.finish())],
        col.logical_nulls(),
    ))
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
