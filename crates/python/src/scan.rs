//! Where the rows of a column with offsets stop being valid UTF-8: the values buffer from
//! the first row to the last is validated by the codec's kernel a window at a time, resumed
//! after each error, and a row is clean when it lies in a valid stretch and ends on a
//! character boundary.

use arrow_array::OffsetSizeTrait;

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
pub(crate) fn scan_damaged<O: OffsetSizeTrait>(
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
pub(crate) fn valid_until(values: &[u8], s: usize, end: usize) -> usize {
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
