//! The kernels' entry path for [`validate`](crate::validate) and [`is_valid`](crate::is_valid),
//! where input is usually valid and often short (issue 23): what a call costs before and
//! after its blocks is kept to a few instructions.
//!
//! Whole ASCII blocks are skipped first, with no setup (after an ASCII first block, two
//! blocks to a test: ASCII of 192 and 256 bytes went from 3.58 and 4.53 ns to 3.37 and 4.14
//! on Zen 4, simdutf8 3.2 and 4.0); then one loop checks 64-byte blocks
//! with the lookup algorithm of `generic.rs`, stopping at the first block with an error; a
//! tail under one block is checked as the last 64 bytes of the input, overlapping the block
//! before, with the three bytes before it loaded as they are (no copy into a padded buffer).
//! Anything else (an error, an input too short for that) goes to [`finish`], the whole kernel
//! out of line, from a unit boundary at most 3 bytes before the block that failed: the exact
//! answer always comes from there.

use super::generic::{self, Tables, Vector, check, check3};
use crate::scalar;

/// Bytes per block.
const BLOCK: usize = 64;

/// Inputs up to this length check every block after the first non-ASCII one in full.
const SHORT: usize = 256;

/// How far ahead to ask for the cache line (see `generic::validate_and_count`).
const PREFETCH: usize = 2048;

/// The length of the longest valid prefix of `bytes` (64 bytes or more, else `exact`
/// answers), as [`scalar::valid_up_to`]. `exact(bytes, o)` is [`finish`] for the same ISA,
/// out of line, so that the paths here that call it end in a jump and the rest needs no
/// saved registers. With `BASIC` (for [`is_valid`](crate::is_valid)) the errors of every
/// block are or-ed and tested once, at the end, and an error found there is located by a
/// second pass, `exact(bytes, 0)`: two instructions less per block where the input is valid.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
pub(crate) unsafe fn valid_up_to_lean<V: Vector, const BASIC: bool>(
    bytes: &[u8],
    exact: impl FnOnce(&[u8], usize) -> usize,
) -> usize {
    let (len, ptr, n) = (bytes.len(), bytes.as_ptr(), V::LANES);
    if len < BLOCK {
        return exact(bytes, 0);
    }
    let exact = |o: usize| exact(bytes, o);
    // SAFETY: the caller's contract (V's ISA). Every load reads `n` bytes at `ptr + at` with
    // `at + n <= len` (pair tests: 128 bytes at `o` with `o + 2 * BLOCK <= len`; block
    // loads: `o + k + n <= o + BLOCK <= len`; the tail block starts at `len - BLOCK >= 3`, and its loads 1..=3 bytes earlier start at or after 0); a prefetch
    // reads nothing (its address may be past the end: `wrapping_add` computes it without
    // claiming it is in bounds).
    unsafe {
        let load_or = |at: usize, mut high: V| {
            let mut k = 0;
            while k < BLOCK {
                high = high.or(V::load(ptr.add(at + k)));
                k += n;
            }
            high
        };
        // The start of the last whole block (`len >= BLOCK`): a block at `o` is whole when
        // `o <= end`.
        let end = len - BLOCK;
        let mut o = 0;
        // ASCII blocks, before any setup: after an ASCII first block two at a time, then one.
        if !V::block_has_high(ptr) {
            o = BLOCK;
            while o + 2 * BLOCK <= len && !V::pair_has_high(ptr.add(o)) {
                o += 2 * BLOCK;
            }
            while o <= end && !V::block_has_high(ptr.add(o)) {
                o += BLOCK;
            }
        }
        if o > end && (o == len || !V::block_has_high(ptr.add(end))) {
            // All ASCII, the last block overlapping the one before when it is short.
            return len;
        }
        let t = Tables::<V>::new();
        // The high bit set where the last block checked ends inside a sequence: or-ed into
        // the ASCII test, so that an ASCII block after one is checked in full, which reports
        // the sequence as too short.
        let mut incomplete = t.zero;
        // The last vector of the last block (only its last 3 bytes matter, and ASCII is as
        // good as none).
        let mut prev = t.zero;
        // The errors of the blocks since the last test: one block's, or with `BASIC` all.
        let mut error = t.zero;
        if o <= end {
            // The block the scan stopped at, known not to be ASCII: checked without a second
            // ASCII test (a tenth of what one block costs).
            (error, prev) = block(&t, ptr.add(o), error, prev);
            if !BASIC && error.any() {
                return exact(o);
            }
            incomplete = prev.saturating_sub(t.incomplete);
            o += BLOCK;
        }
        // Short inputs check every block in full: an ASCII block among others would be a
        // branch on the data, mispredicted as often as not in mixed text.
        let skip_ascii = len > SHORT;
        while o <= end {
            V::prefetch(ptr.wrapping_add(o + PREFETCH));
            if skip_ascii && !load_or(o, incomplete).any_high_bit() {
                prev = t.zero;
                o += BLOCK;
                continue;
            }
            // With `!BASIC` the errors so far are zero (a block with errors returned), but the
            // compiler cannot know.
            (error, prev) = block(&t, ptr.add(o), if BASIC { error } else { t.zero }, prev);
            if !BASIC && error.any() {
                return exact(o);
            }
            incomplete = prev.saturating_sub(t.incomplete);
            o += BLOCK;
        }
        if BASIC && error.any() {
            return exact(0);
        }
        if o == len {
            return if incomplete.any_high_bit() {
                exact(o)
            } else {
                len
            };
        }
        // The tail: the last 64 bytes, from `p`; its bytes before `o` were checked, so the
        // ASCII test counts for the rest.
        let p = end;
        if p < 3 {
            return exact(o);
        }
        if !load_or(p, incomplete).any_high_bit() {
            return len;
        }
        let first = V::load(ptr.add(p));
        let (b1, b2, b3) = (
            V::load(ptr.add(p - 1)),
            V::load(ptr.add(p - 2)),
            V::load(ptr.add(p - 3)),
        );
        error = check3(&t, first, b1, b2, b3);
        let mut last = first;
        let mut k = n;
        while k < BLOCK {
            let input = V::load(ptr.add(p + k));
            error = error.or(check(&t, input, last));
            last = input;
            k += n;
        }
        if error.any() || last.saturating_sub(t.incomplete).any_high_bit() {
            return exact(o);
        }
        len
    }
}

/// The errors of the block at `ptr` (after `prev`) or-ed into `error`, and its last vector.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `ptr..ptr + BLOCK` must be readable.
#[inline(always)]
unsafe fn block<V: Vector>(t: &Tables<V>, ptr: *const u8, mut error: V, mut prev: V) -> (V, V) {
    let mut k = 0;
    while k < BLOCK {
        // SAFETY: V's ISA and `k + LANES <= BLOCK` readable bytes (the caller's contract).
        unsafe {
            let input = V::load(ptr.add(k));
            error = error.or(check(t, input, prev));
            prev = input;
        }
        k += V::LANES;
    }
    (error, prev)
}

/// The exact answer for `bytes` where every sequence that ends before `o` has been checked:
/// the whole kernel (`generic::valid_up_to`) from the unit boundary at most 3 bytes before
/// `o`.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `o <= bytes.len()`.
#[inline(always)]
pub(crate) unsafe fn finish<V: Vector>(bytes: &[u8], o: usize) -> usize {
    let p = (o.saturating_sub(3)..o)
        .rev()
        .find(|&q| !scalar::is_continuation(bytes[q]))
        .unwrap_or(o);
    // SAFETY: the caller's contract (V's ISA).
    p + unsafe { generic::valid_up_to::<V>(&bytes[p..]) }
}
