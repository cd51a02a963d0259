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
    Array, ArrayRef, BinaryViewArray, BooleanArray, GenericByteArray, GenericStringArray,
    LargeBinaryArray, LargeStringArray, OffsetSizeTrait, StringArray, StringViewArray,
};
use arrow_buffer::{BooleanBufferBuilder, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::DataType;
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
        // SAFETY: as above; every offset fits in i32 (the last, the largest, does).
        let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(small)) };
        // SAFETY: as above.
        Arc::new(unsafe { StringArray::new_unchecked(offsets, values, nulls) })
    }
}

/// Whether byte `b` is a UTF-8 continuation byte (`80..BF`).
#[inline]
pub(crate) fn is_continuation(b: u8) -> bool {
    (b as i8) < -64
}

/// The rows, given by `offsets` into `values`, that are not valid UTF-8: one validation of the
/// buffer, resumed after each damaged row.
pub(crate) fn damaged_rows<O: OffsetSizeTrait>(offsets: &[O], values: &[u8]) -> Vec<usize> {
    let mut damaged = Vec::new();
    scan_damaged(offsets, values, 0, |d| {
        damaged.push(d);
        true
    });
    damaged
}

/// Calls `f(row)` for each row from `from` on that is not valid UTF-8, in order, while it
/// returns true: one validation of the buffer, resumed after each damaged row (so that `f`
/// finds the rows before it just read, in cache).
fn scan_damaged<O: OffsetSizeTrait>(
    offsets: &[O],
    values: &[u8],
    from: usize,
    mut f: impl FnMut(usize) -> bool,
) {
    let n = offsets.len() - 1;
    let end = offsets[n].as_usize();
    let mut r = from;
    while r < n {
        let s = offsets[r].as_usize();
        // [s, v) is valid UTF-8 and v is a character boundary (or the first error).
        let v = valid_until(values, s, end);
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
            if !f(r) {
                return;
            }
            r += 1;
        }
    }
}

/// How much of a column's values one validation call looks at: errors are usually near, and
/// on tens of MiB the codec's kernel takes its far loop, which prefetches well past a near
/// error (measured on 1 M rows with 1% damaged: 10k such calls cost more than the copying).
const WINDOW: usize = 256 << 10;

/// The end of the valid UTF-8 from `s` (a character boundary) in `values[..end]`: `end`, or
/// the offset of the first error. Checked a window at a time; a stop in the last three bytes
/// of a window may be a character cut by the window, so the next window starts there.
fn valid_until(values: &[u8], s: usize, end: usize) -> usize {
    let mut v = s;
    loop {
        let w = (v + WINDOW).min(end);
        let stop = v + utf8_codec::valid_up_to(&values[v..w]);
        if w == end || (stop < w && w - stop >= 4) {
            return stop;
        }
        // The whole window was valid, or it ends inside a character: on from there (a
        // character boundary; the next window is 256 KiB, so this advances).
        v = stop;
    }
}

/// Repairs a column with offsets (see the module docs).
fn repair_offsets<O: OffsetSizeTrait>(
    a: &GenericByteArray<GenericBinaryType<O>>,
    options: &RepairOptions<'_>,
    large: bool,
) -> ArrayRef {
    let offsets = a.value_offsets();
    let values = a.values();
    let mut first = None;
    scan_damaged(offsets, values, 0, |d| {
        first = Some(d);
        false
    });
    let Some(first) = first else {
        // SAFETY: every row is valid UTF-8 (the scan found none that is not), and the
        // offsets and nulls are those of a valid binary array.
        let s = unsafe {
            GenericStringArray::<O>::new_unchecked(
                a.offsets().clone(),
                values.clone(),
                a.nulls().cloned(),
            )
        };
        return Arc::new(s);
    };
    let nulls = a.nulls().cloned();
    if !large && let Some((offsets, values)) = rebuild::<O, i32>(offsets, values, options, first) {
        // SAFETY: every row is clean bytes copied whole (valid UTF-8 between character
        // boundaries) or the output of the codec's repair (a `String`).
        return Arc::new(unsafe { StringArray::new_unchecked(offsets, values, nulls) });
    }
    // Large input, or a result past 32-bit offsets (then built again: a rare case).
    let (offsets, values) =
        rebuild::<O, i64>(offsets, values, options, first).expect("64-bit offsets suffice");
    // SAFETY: as above.
    Arc::new(unsafe { LargeStringArray::new_unchecked(offsets, values, nulls) })
}

/// A damaged column rebuilt from its first damaged row `first` on: each run of clean rows is
/// copied whole right after the scan has read it (in cache), each damaged row repaired;
/// `None` if the result does not fit offsets of type `P`.
fn rebuild<O: OffsetSizeTrait, P: OffsetSizeTrait>(
    offsets: &[O],
    values: &[u8],
    options: &RepairOptions<'_>,
    first: usize,
) -> Option<(OffsetBuffer<P>, Buffer)> {
    let n = offsets.len() - 1;
    let span = offsets[n].as_usize() - offsets[0].as_usize();
    let limit = if P::IS_LARGE {
        i64::MAX as usize
    } else {
        i32::MAX as usize
    };
    let mut out = advised_vec(span + span / 16 + 64);
    let mut out_offsets: Vec<P> = Vec::with_capacity(n + 1);
    out_offsets.push(P::usize_as(0));
    let mut scratch = String::new();
    let mut run = 0; // the first row of the current run of clean rows
    let mut fits = true;
    let mut damaged = |d: usize, out: &mut Vec<u8>, out_offsets: &mut Vec<P>| {
        copy_run(offsets, values, run, d, out, out_offsets);
        scratch.clear();
        let row = &values[offsets[d].as_usize()..offsets[d + 1].as_usize()];
        utf8_codec::repair_into(row, options, &mut scratch);
        out.extend_from_slice(scratch.as_bytes());
        fits &= out.len() <= limit;
        out_offsets.push(P::usize_as(out.len().min(limit)));
        run = d + 1;
        fits
    };
    damaged(first, &mut out, &mut out_offsets);
    scan_damaged(offsets, values, first + 1, |d| {
        damaged(d, &mut out, &mut out_offsets)
    });
    copy_run(offsets, values, run, n, &mut out, &mut out_offsets);
    if !fits || out.len() > limit {
        return None;
    }
    // SAFETY: the offsets start at 0, never decrease, and the last is `out.len()`.
    let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(out_offsets)) };
    Some((offsets, Buffer::from_vec(out)))
}

/// Copies rows `from..to` (clean) as one slice, their offsets shifted; stops adding once
/// an offset would pass `P`'s range (the caller sees the length and gives up).
fn copy_run<O: OffsetSizeTrait, P: OffsetSizeTrait>(
    offsets: &[O],
    values: &[u8],
    from: usize,
    to: usize,
    out: &mut Vec<u8>,
    out_offsets: &mut Vec<P>,
) {
    let start = offsets[from].as_usize();
    let base = out.len();
    out.extend_from_slice(&values[start..offsets[to].as_usize()]);
    if !P::IS_LARGE && out.len() > i32::MAX as usize {
        return;
    }
    out_offsets.extend(
        offsets[from + 1..=to]
            .iter()
            .map(|o| P::usize_as(o.as_usize() - start + base)),
    );
}

/// Buffers longer than this are advised as huge pages (as the codec's own outputs): above
/// glibc's largest mmap threshold (32 MiB), so each is its own mapping, unmapped when freed,
/// and the advice leaves with it.
const MIN_ADVISED: usize = (32 << 20) + 1;

/// An empty vector with room for `capacity` bytes, about to be written once; from
/// [`MIN_ADVISED`] bytes on Linux backed by transparent huge pages where the kernel offers
/// them (one page fault per 2 MiB instead of per 4 KiB: most of a fresh copy's cost).
fn advised_vec(capacity: usize) -> Vec<u8> {
    let v: Vec<u8> = Vec::with_capacity(capacity);
    #[cfg(target_os = "linux")]
    if v.capacity() >= MIN_ADVISED {
        const HUGE: usize = 2 << 20;
        let addr = v.as_ptr() as usize;
        let start = addr.next_multiple_of(HUGE);
        let end = (addr + v.capacity()) & !(HUGE - 1);
        if end > start {
            // SAFETY: madvise(MADV_HUGEPAGE) on whole 2 MiB pages inside the vector's own
            // allocation: it changes how the kernel backs those pages, never their contents
            // or mapping; a failure (no THP) is ignored.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    v
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
