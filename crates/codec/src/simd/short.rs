//! Inputs under 64 bytes in 16-byte vectors, written once over [`Short16`] for every kernel
//! with a byte shuffle (SSE4.2, AVX2 and AVX-512 on x86-64, NEON on aarch64): the lookup
//! algorithm over whole vectors and one last vector padded with zeros by a shuffle of a load
//! that ends at the end of the input, so there is no copy and no branch on the data. Zeros
//! are ASCII, so a sequence cut off by the end is an error in the padded vector too. Core's
//! validator, which branches per character, costs several times as much on a few bytes of
//! mixed-script text.

use super::generic::{Tables, Vector, check};
use crate::scalar;

/// The 16-byte primitives of the short path, beside [`Vector`]'s.
///
/// # Safety
///
/// As [`Vector`]: every method may be called only on a CPU that supports the implementing
/// type's ISA.
pub(crate) trait Short16: Vector {
    /// The 8 bytes of `w` (its low byte first) in the first 8 lanes, zeros in the rest.
    unsafe fn from_word(w: u64) -> Self;
    /// The bytes of `self` picked by the bytes of `idx`: lane `i` gets `self[idx[i]]` for an
    /// index under 16, or 0 where `idx[i]` has its high bit set (other indices are not used).
    unsafe fn shuffle(self, idx: Self) -> Self;
}

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

/// The first 8 bytes of `bytes` (at least 8 long) as a word, the first in the low byte.
#[inline(always)]
fn word(bytes: &[u8]) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(w)
}

/// Whether `bytes` (8 to 63 bytes long) is valid UTF-8.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `bytes.len()` must be in `8..64`.
#[inline(always)]
unsafe fn is_valid_short<V: Short16>(bytes: &[u8]) -> bool {
    let (len, ptr) = (bytes.len(), bytes.as_ptr());
    debug_assert!((8..64).contains(&len));
    // SAFETY: V's ISA (the caller's contract). Loads: 16 bytes at `o` with `o + 16 <= len`
    // and at `len - 16` when `len >= 16`; 16 bytes of `TAIL16` from `16 - r`
    // (`1 <= r <= 15`, so at most 31 + 1) and of `TAIL8` from `24 - len` (`8 <= len <= 15`,
    // so at most 16 + 16 <= 40).
    unsafe {
        let t = Tables::<V>::new();
        if len < 16 {
            let lo = V::from_word(word(bytes));
            let hi = V::from_word(word(&bytes[len - 8..]));
            let idx = V::load(TAIL8.as_ptr().add(24 - len));
            // Bytes `len - 8..8` are in both halves, with the same values.
            let v = lo.or(hi.shuffle(idx));
            return !check(&t, v, t.zero).any();
        }
        let mut prev = t.zero;
        let mut error = t.zero;
        let mut o = 0;
        while o + 16 <= len {
            let input = V::load(ptr.add(o));
            error = error.or(check(&t, input, prev));
            prev = input;
            o += 16;
        }
        let r = len - o;
        if r == 0 {
            // The last vector is the input's end: a sequence cut off by it is caught here.
            return !error.any() && !prev.saturating_sub(t.incomplete).any_high_bit();
        }
        let hi = V::load(ptr.add(len - 16));
        let idx = V::load(TAIL16.as_ptr().add(16 - r));
        !error.or(check(&t, hi.shuffle(idx), prev)).any()
    }
}

/// Whether `bytes`, under 8 bytes long, is valid UTF-8: its bytes in one word
/// ([`scalar::short_word`]), zero-padded in a vector.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
unsafe fn is_valid_tiny<V: Short16>(bytes: &[u8]) -> bool {
    // SAFETY: V's ISA (the caller's contract); register operations only.
    unsafe {
        let t = Tables::<V>::new();
        let v = V::from_word(scalar::short_word(bytes));
        !check(&t, v, t.zero).any()
    }
}

/// The length of the longest valid prefix of `bytes`, under 64 bytes long: [`is_valid_short`]
/// from 8 bytes, [`is_valid_tiny`] under, and for the exact answer after an error core's
/// validator.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
pub(crate) unsafe fn valid_up_to_short<V: Short16>(bytes: &[u8]) -> usize {
    let len = bytes.len();
    // SAFETY: V's ISA (the caller's contract); `is_valid_short` gets 8 to 63 bytes.
    let valid = unsafe {
        if len >= 8 {
            is_valid_short::<V>(bytes)
        } else {
            is_valid_tiny::<V>(bytes)
        }
    };
    if valid {
        return len;
    }
    core::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), str::len)
}
