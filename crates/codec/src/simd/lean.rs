//! The kernels' path from 64 bytes for [`validate`](fn@crate::validate) and
//! [`is_valid`](crate::is_valid), where input is usually valid and often short:
//! what a call costs before and after its blocks is kept to a few instructions.
//!
//! [`ascii_short`] and [`ascii_prefix`] skip whole ASCII blocks first, with no setup, and
//! answer ASCII input by themselves; the entry points ([`entry`], stamped out per kernel in
//! `x86_64/` and `aarch64/neon/mod.rs`) hand anything else
//! to [`check_from`], out of line, which checks 64-byte blocks with the lookup algorithm of
//! `generic.rs`. A tail under one block is checked as the last 64 bytes of the input,
//! overlapping the block before, with the three bytes before it loaded as they are (no copy
//! into a padded buffer). Anything else (an error, an input too short for that) goes to
//! [`finish`], the whole kernel out of line, from a unit boundary at most 3 bytes before the
//! block that failed: the exact answer always comes from there.

use super::blocks::{BLOCK, Check, Cursor, blocks, high};
use super::counting;
use super::generic::{Tables, Vector, check, check3};
use crate::scalar;

/// Inputs from this length are validated with the block loop's far prefetch and, where the
/// ISA wants it, shifts in place of loads of the bytes before a vector (`FAR_CHECK_PREFETCH`,
/// `Vector::FAR_PREV_LOADS`): from 16 MiB an input comes from memory, where the far prefetch
/// and the shifts win, while up to 8 MiB, which the cache still holds, the loads are faster
/// (and in L2 much faster): BENCHMARKS.md, "Loads of the bytes before a block". Counting,
/// which keeps its loads, goes far from a lower length (`counting::FAR_MIN`). (The x86-64 kernels': NEON
/// prefetches nothing and shifts in every block.)
#[cfg(target_arch = "x86_64")]
pub(crate) const FAR_MIN: usize = 16 << 20;

/// Inputs up to this length are scanned for ASCII in at most two tests, and checked from their
/// start, every block in full.
pub(crate) const SHORT: usize = 256;

/// The length of the longest valid prefix of `bytes` (64 bytes or more), as
/// [`scalar::valid_up_to`], where the bytes before `o` are ASCII (`o` is where
/// [`ascii_prefix`] stopped, or 0). Inputs up to [`SHORT`] bytes are checked from the start,
/// every block in full and with one test of their errors; longer ones from `o`, skipping
/// ASCII blocks.
/// `exact(bytes, o)` is [`finish`] for the same ISA, out of line, so that the paths here that
/// call it end in a jump and the rest needs no saved registers. With `BASIC` (for
/// [`is_valid`](crate::is_valid)) the errors of every block are or-ed and tested once, at the
/// end, and an error found there is located by a second pass, `exact(bytes, 0)`: two
/// instructions less per block where the input is valid. With `FAR` (for inputs of
/// [`FAR_MIN`] bytes or more) the block loop is `Check`'s far one.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `bytes.len() >= 64` and `o <= bytes.len()`.
#[inline(always)]
pub(crate) unsafe fn check_from<V: Vector, const BASIC: bool, const FAR: bool>(
    bytes: &[u8],
    o: usize,
    exact: impl FnOnce(&[u8], usize) -> usize,
) -> usize {
    let (len, ptr, n) = (bytes.len(), bytes.as_ptr(), V::LANES);
    debug_assert!(len >= BLOCK && o <= len);
    let exact = |o: usize| exact(bytes, o);
    // SAFETY: the caller's contract (V's ISA, `len >= BLOCK`). Every load reads `n` bytes at
    // `ptr + at` with `at + n <= len` (block loads: `o + k + n <= o + BLOCK <= len`; the tail
    // block starts at `len - BLOCK >= 3`, and its loads 1..=3 bytes earlier start at or after
    // 0); a prefetch reads nothing (its address may be past the end: `wrapping_add` computes
    // it without claiming it is in bounds).
    unsafe {
        // The start of the last whole block (`len >= BLOCK`): a block at `o` is whole when
        // `o <= end`.
        let end = len - BLOCK;
        let t = Tables::<V>::new();
        let mut c = Cursor::at(&t, 0);
        if len <= SHORT {
            // Short inputs check every block in full from the start, the first with nothing
            // before it, with no prefetch, and test the errors once (a second pass of at most
            // `SHORT` bytes locates one).
            blocks(&t, ptr, len, &mut c, &mut Check::<true, false>);
            if c.error.any() {
                return exact(0);
            }
        } else {
            c.o = o;
            // The block the scan stopped at, not ASCII: checked without a second ASCII test
            // (a tenth of what one block costs), with nothing before it.
            if !blocks(&t, ptr, len.min(o + BLOCK), &mut c, &mut Check::<BASIC, false>)
                || !blocks(&t, ptr, len, &mut c, &mut Check::<BASIC, true, FAR>)
            {
                return exact(c.o);
            }
            if BASIC && c.error.any() {
                return exact(0);
            }
        }
        let (o, incomplete) = (c.o, c.incomplete);
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
        if !high::<V>(ptr.add(p), 1).or(incomplete).any_high_bit() {
            return len;
        }
        let first = V::load(ptr.add(p));
        let (b1, b2, b3) = (
            V::load(ptr.add(p - 1)),
            V::load(ptr.add(p - 2)),
            V::load(ptr.add(p - 3)),
        );
        let mut error = check3(&t, first, b1, b2, b3);
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

/// Whether `bytes` (64 to [`SHORT`] bytes) is all ASCII, tested in `A`'s vectors (AVX2's for
/// the AVX-512 kernel, whose one 512-bit load and mask register cost more on short input).
/// The first block first, so that mixed text pays one test; then the rest in one more: of
/// nothing at 64 bytes, of the last block up to 128, of the second block and the last two,
/// overlapping, up to 256, with no branch on the length per block.
///
/// # Safety
///
/// Only on a CPU with `A`'s ISA; `BLOCK <= bytes.len() <= SHORT`.
#[inline(always)]
pub(crate) unsafe fn ascii_short<A: Vector>(bytes: &[u8]) -> bool {
    let (len, ptr) = (bytes.len(), bytes.as_ptr());
    debug_assert!((BLOCK..=SHORT).contains(&len));
    // SAFETY: A's ISA (the caller's contract). Each `high(at, n)` reads `at..at + n * BLOCK`
    // within `0..len`: the first block (`len >= BLOCK`), the last at `len - BLOCK`, or from
    // 129 bytes the second at `BLOCK` and two at `len - 2 * BLOCK`.
    unsafe {
        if high::<A>(ptr, 1).any_high_bit() {
            return false;
        }
        let rest = if len == BLOCK {
            return true;
        } else if len <= 2 * BLOCK {
            high::<A>(ptr.add(len - BLOCK), 1)
        } else {
            high::<A>(ptr.add(BLOCK), 1).or(high::<A>(ptr.add(len - 2 * BLOCK), 2))
        };
        !rest.any_high_bit()
    }
}

/// Where the ASCII bytes at the start of `bytes` (more than [`SHORT`] bytes) end, as
/// [`check_from`] needs it: `bytes.len()` if all are ASCII, else the start of a block from
/// which on the kernel checks (every byte before it is ASCII), tested in `A`'s vectors (see
/// [`ascii_short`]). A first block that is not ASCII stops the scan at once; after it, two
/// blocks to a test, then one, then the last 64 bytes, overlapping the block before.
///
/// # Safety
///
/// Only on a CPU with `A`'s ISA; `bytes.len() > SHORT`.
#[inline(always)]
pub(crate) unsafe fn ascii_prefix<A: Vector>(bytes: &[u8]) -> usize {
    let (len, ptr) = (bytes.len(), bytes.as_ptr());
    debug_assert!(len > SHORT);
    // SAFETY: A's ISA (the caller's contract). Each `high(at, n)` reads `at..at + n * BLOCK`
    // within `0..len`: the first block (`len > BLOCK`), pairs at `o` with
    // `o + 2 * BLOCK <= len`, blocks at `o <= end` and the last one at `end`.
    unsafe {
        if high::<A>(ptr, 1).any_high_bit() {
            return 0;
        }
        let end = len - BLOCK;
        let mut o = BLOCK;
        while o + 2 * BLOCK <= len && !high::<A>(ptr.add(o), 2).any_high_bit() {
            o += 2 * BLOCK;
        }
        while o <= end && !high::<A>(ptr.add(o), 1).any_high_bit() {
            o += BLOCK;
        }
        if o > end && (o == len || !high::<A>(ptr.add(end), 1).any_high_bit()) {
            // All ASCII, the last block overlapping the one before when it is short.
            return len;
        }
        o
    }
}

/// An entry point: `short` under 64 bytes, from 64 the ASCII scan in `A`'s vectors
/// ([`ascii_short`] up to [`SHORT`] bytes, [`ascii_prefix`] after), and
/// `check` from where the scan stopped (from the start in a short input).
///
/// # Safety
///
/// Only on a CPU with `A`'s ISA. `short` gets input under 64 bytes, and `check` input of
/// 64 bytes or more with an offset `o < bytes.len()` before which every byte is ASCII.
#[inline(always)]
pub(crate) unsafe fn entry<A: Vector>(
    bytes: &[u8],
    short: impl FnOnce(&[u8]) -> usize,
    check: impl FnOnce(&[u8], usize) -> usize,
) -> usize {
    if bytes.len() < 64 {
        return short(bytes);
    }
    if bytes.len() <= SHORT {
        // SAFETY: A's ISA (the caller's contract), and 64 to `SHORT` bytes.
        if unsafe { ascii_short::<A>(bytes) } {
            return bytes.len();
        }
        return check(bytes, 0);
    }
    // SAFETY: A's ISA (the caller's contract), and more than `SHORT` bytes.
    let o = unsafe { ascii_prefix::<A>(bytes) };
    if o == bytes.len() {
        return o;
    }
    check(bytes, o)
}

/// The exact answer for `bytes` where every sequence that ends before `o` has been checked:
/// the whole kernel (`counting::valid_up_to`) from the unit boundary at most 3 bytes before
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
    p + unsafe { counting::valid_up_to::<V>(&bytes[p..]) }
}
