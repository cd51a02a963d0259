//! The repair of a column with offsets: its buffers reused when no row is damaged, else one
//! new values buffer built in a single pass over the old one, each run of clean rows copied
//! whole (one copy, its offsets shifted) right after the validation kernel has read it, each
//! damaged row repaired on its own.

use std::sync::Arc;

use arrow_array::types::GenericBinaryType;
use arrow_array::{
    Array, ArrayRef, GenericByteArray, GenericStringArray, LargeStringArray, OffsetSizeTrait,
    StringArray,
};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use utf8_codec::{Action, Practice, RepairOptions};

use crate::scan::{is_continuation, scan_damaged, valid_until};

/// Repairs a column with offsets (see the module docs): string for binary and string, large
/// string for large ones and for a result whose 32-bit offsets would overflow.
pub fn repair_offsets<O: OffsetSizeTrait>(
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
        // boundaries) or the repair of a row (a `str`).
        return Arc::new(unsafe { StringArray::new_unchecked(offsets, values, nulls) });
    }
    // Large input, or a result past 32-bit offsets (then built again: a rare case).
    let (offsets, values) =
        rebuild::<O, i64>(offsets, values, options, first).expect("64-bit offsets suffice");
    // SAFETY: every row is clean bytes copied whole (valid UTF-8 between character
    // boundaries) or the repair of a row (a `str`); `rebuild` made the offsets.
    Arc::new(unsafe { LargeStringArray::new_unchecked(offsets, values, nulls) })
}

/// The output of [`rebuild`] as it grows.
struct Out<P> {
    values: Vec<u8>,
    offsets: Vec<P>,
    /// Scratch for [`repair_row`].
    scratch: String,
    /// The largest offset `P` holds.
    limit: usize,
}

impl<P: OffsetSizeTrait> Out<P> {
    /// Whether the values so far fit offsets of type `P`.
    fn fits(&self) -> bool {
        self.values.len() <= self.limit
    }

    /// Appends damaged row `row`, repaired; false once the values no longer fit.
    fn damaged(&mut self, row: &[u8], options: &RepairOptions<'_>) -> bool {
        repair_row(row, options, &mut self.values, &mut self.scratch);
        // Truncated past the limit: the caller gives the result up then.
        self.offsets
            .push(P::usize_as(self.values.len().min(self.limit)));
        self.fits()
    }
}

/// A damaged column rebuilt from its first damaged row `first` on (the rows before it are
/// clean): `None` if the result does not fit offsets of type `P`.
///
/// The values from one damaged row to the next are validated by the kernel (256 KiB at a
/// time, see [`valid_until`]), then the rows inside that valid stretch that end on a
/// character boundary are found in one walk of their offsets, their offsets shifted in one
/// loop, and the run of them copied as one slice while it is still in cache.
fn rebuild<O: OffsetSizeTrait, P: OffsetSizeTrait>(
    offsets: &[O],
    values: &[u8],
    options: &RepairOptions<'_>,
    first: usize,
) -> Option<(OffsetBuffer<P>, Buffer)> {
    let n = offsets.len() - 1;
    let start = offsets[0].as_usize();
    let end = offsets[n].as_usize();
    let span = end - start;
    let mut out = Out::<P> {
        values: advised_vec(span + span / 16 + 64),
        offsets: Vec::with_capacity(n + 1),
        scratch: String::new(),
        limit: if P::IS_LARGE {
            i64::MAX as usize
        } else {
            i32::MAX as usize
        },
    };
    out.offsets.push(P::usize_as(0));
    // Rows 0..first are clean: one run.
    let head = offsets[first].as_usize();
    out.values.extend_from_slice(&values[start..head]);
    if !out.fits() {
        return None;
    }
    out.offsets.extend(
        offsets[1..=first]
            .iter()
            .map(|o| P::usize_as(o.as_usize() - start)),
    );
    let row = |r: usize| &values[offsets[r].as_usize()..offsets[r + 1].as_usize()];
    if !out.damaged(row(first), options) {
        return None;
    }
    let mut r = first + 1;
    while r < n {
        let s = offsets[r].as_usize();
        // [s, v) is valid UTF-8 and v is a character boundary (or the first error).
        let v = valid_until(values, s, end);
        // The rows inside [s, v] are clean when they end on a character boundary (each
        // starts at s or where the row before ended, on one).
        let ends = &offsets[r + 1..];
        let clean = ends
            .iter()
            .position(|o| {
                let e = o.as_usize();
                e > v || (e < v && is_continuation(values[e]))
            })
            .unwrap_or(ends.len());
        // Their offsets, shifted, in one loop the compiler vectorizes.
        let base = out.values.len();
        out.offsets.extend(
            ends[..clean]
                .iter()
                .map(|o| P::usize_as(o.as_usize() - s + base)),
        );
        r += clean;
        if clean > 0 {
            out.values
                .extend_from_slice(&values[s..offsets[r].as_usize()]);
            if !out.fits() {
                return None;
            }
        }
        // Row r holds the error at v, or ends inside a character.
        if r < n {
            if !out.damaged(row(r), options) {
                return None;
            }
            r += 1;
        }
    }
    // SAFETY: the offsets start at 0, never decrease, and the last is the values' length
    // (every one was below the limit, checked as the values grew).
    let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(out.offsets)) };
    Some((offsets, Buffer::from_vec(out.values)))
}

/// Rows up to this long are repaired by the standard library's decoder ([`str::Utf8Chunks`],
/// the maximal subparts) when the options are those of `String::from_utf8_lossy`: on a short
/// row that costs less than setting up the codec's repair, which pays off on long input.
const SHORT_ROW: usize = 256;

/// Appends the repair of one damaged row to `out` (`scratch` is the codec's output buffer for
/// long rows and other options).
pub fn repair_row(
    row: &[u8],
    options: &RepairOptions<'_>,
    out: &mut Vec<u8>,
    scratch: &mut String,
) {
    if let (Practice::MaximalSubpart, Action::Replace(sub)) = (options.practice, options.action)
        && row.len() <= SHORT_ROW
    {
        for chunk in row.utf8_chunks() {
            out.extend_from_slice(chunk.valid().as_bytes());
            if !chunk.invalid().is_empty() {
                out.extend_from_slice(sub.as_bytes());
            }
        }
        return;
    }
    scratch.clear();
    utf8_codec::repair_into(row, options, scratch);
    out.extend_from_slice(scratch.as_bytes());
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
