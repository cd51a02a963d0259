//! Inputs of 8 to 63 bytes in 16-byte vectors, for every x86-64 kernel with SSSE3 (issue 23):
//! the lookup algorithm over whole vectors and one last vector padded with zeros by a
//! `pshufb` from an unaligned load that ends at the end of the input, so there is no copy and
//! no branch on the data. Zeros are ASCII, so a sequence cut off by the end is an error in the
//! padded vector too. Core's validator, which branches per character, costs several times as
//! much on a few bytes of mixed-script text.

use core::arch::x86_64::*;

use super::generic::{Tables, Vector, check};
use super::x86_64::Sse;
use crate::scalar;

/// Shuffle indices for the last `r` (1..=15) bytes of a 16-byte load that ends at the end of
/// the input, moved to the front with zeros after them: 16 bytes from `16 - r`.
static TAIL16: [u8; 32] = {
    let mut t = [0x80; 32];
    let mut i = 0;
    while i < 16 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// Shuffle indices for an 8-byte load that ends at the end of an input of `len` (8..=15)
/// bytes, moved to bytes `len - 8..len` with zeros elsewhere: 16 bytes from `24 - len`.
static TAIL8: [u8; 40] = {
    let mut t = [0x80; 40];
    let mut i = 0;
    while i < 8 {
        t[16 + i] = i as u8;
        i += 1;
    }
    t
};

/// Whether `bytes` (8 to 63 bytes long) is valid UTF-8.
///
/// # Safety
///
/// Only on a CPU with SSE4.1 and SSSE3; `bytes.len()` must be in `8..64`.
#[inline(always)]
pub(crate) unsafe fn is_valid_short(bytes: &[u8]) -> bool {
    let (len, ptr) = (bytes.len(), bytes.as_ptr());
    debug_assert!((8..64).contains(&len));
    // SAFETY: SSSE3 and SSE4.1 (the caller's contract). Loads: 8 bytes at 0 and at
    // `len - 8` (`len >= 8`); 16 bytes at `o` with `o + 16 <= len` and at `len - 16` when
    // `len >= 16`; 16 bytes of `TAIL16` from `16 - r` (`1 <= r <= 15`, so at most 31 + 1)
    // and of `TAIL8` from `24 - len` (`8 <= len <= 15`, so at most 16 + 16 <= 40).
    unsafe {
        let t = Tables::<Sse>::new();
        if len < 16 {
            let lo = _mm_loadl_epi64(ptr.cast());
            let hi = _mm_loadl_epi64(ptr.add(len - 8).cast());
            let idx = _mm_loadu_si128(TAIL8.as_ptr().add(24 - len).cast());
            // Bytes `len - 8..8` are in both halves, with the same values.
            let v = Sse(_mm_or_si128(lo, _mm_shuffle_epi8(hi, idx)));
            return !check(&t, v, t.zero).any();
        }
        let mut prev = t.zero;
        let mut error = t.zero;
        let mut o = 0;
        while o + 16 <= len {
            let input = Sse::load(ptr.add(o));
            error = error.or(check(&t, input, prev));
            prev = input;
            o += 16;
        }
        let r = len - o;
        if r == 0 {
            // The last vector is the input's end: a sequence cut off by it is caught here.
            return !error.any() && !prev.saturating_sub(t.incomplete).any_high_bit();
        }
        let hi = _mm_loadu_si128(ptr.add(len - 16).cast());
        let idx = _mm_loadu_si128(TAIL16.as_ptr().add(16 - r).cast());
        let last = Sse(_mm_shuffle_epi8(hi, idx));
        !error.or(check(&t, last, prev)).any()
    }
}

/// Whether `bytes`, under 8 bytes long, is valid UTF-8: its bytes in one word
/// ([`scalar::short_word`]), zero-padded in a vector.
///
/// # Safety
///
/// Only on a CPU with SSE4.1 and SSSE3.
#[inline(always)]
unsafe fn is_valid_tiny(bytes: &[u8]) -> bool {
    // SAFETY: SSSE3 and SSE4.1 (the caller's contract); register operations only.
    unsafe {
        let t = Tables::<Sse>::new();
        let v = Sse(_mm_cvtsi64_si128(scalar::short_word(bytes) as i64));
        !check(&t, v, t.zero).any()
    }
}

/// The length of the longest valid prefix of `bytes`, under 64 bytes long: [`is_valid_short`]
/// from 8 bytes, [`is_valid_tiny`] under, and for the exact answer after an error core's
/// validator.
///
/// # Safety
///
/// Only on a CPU with SSE4.1 and SSSE3.
#[inline(always)]
pub(crate) unsafe fn valid_up_to_short(bytes: &[u8]) -> usize {
    let len = bytes.len();
    // SAFETY: SSSE3 and SSE4.1 (the caller's contract); `is_valid_short` gets 8 to 63 bytes.
    let valid = unsafe {
        if len >= 8 {
            is_valid_short(bytes)
        } else {
            is_valid_tiny(bytes)
        }
    };
    if valid {
        return len;
    }
    core::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), str::len)
}
