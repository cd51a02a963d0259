//! Valid UTF-8 to UTF-16 with AVX2 (Lemire & Keiser, "Transcoding billions of Unicode
//! characters per second with SIMD instructions", 2021; simdutf's
//! `haswell/avx2_convert_utf8_to_utf16.cpp` and `convert_masked_utf8_to_utf16`).
//!
//! 64 bytes at a time: an all-ASCII block is widened with four `vpmovzxbw`; any other block
//! is converted in steps of up to 16 bytes that start at a code point boundary, chosen by the
//! mask of bytes that end a code point: 16 ASCII bytes, 8 two-byte sequences, 8 or 4
//! three-byte sequences, 4 four-byte sequences, or a shuffle from [`utf16_tables`](super::utf16_tables) for any mix. A step
//! never starts past byte 51 of the block; the next block starts where the last step ended.
//!
//! The input must be valid UTF-8 for the units to be right (the caller has validated it);
//! memory safety does not depend on it: every step writes at most 16 units at the output
//! position, advances it by at most the bytes it consumes, and consumes nothing on a mask no
//! valid input gives, which ends the call.

use core::arch::x86_64::*;

use super::utf16_tables::{COMPRESS, INDEX, NONE, PACK, SHUFFLES};

/// Input bytes and output units that must be left for a block: a step starts at most 51
/// bytes into it and reads up to 28 bytes (79), writes at most 16 units at most 51 units in
/// (67).
const ROOM: usize = 80;

/// Transcodes a prefix of `src` into the `room` units at `dst` and returns (bytes read,
/// units written): whole blocks while [`ROOM`] bytes and units are left, ending at a code
/// point boundary when `src` is valid UTF-8. The caller converts the rest. Every one of the
/// units written (`dst[..written]`) has been stored to, whatever the input: the memory may
/// start uninitialized (a `Vec`'s spare capacity).
///
/// # Safety
///
/// The CPU must support AVX2; `dst` must be valid for writing `room` units.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn transcode_valid_avx2(
    src: &[u8],
    dst: *mut u16,
    room: usize,
) -> (usize, usize) {
    let (mut i, mut o) = (0, 0);
    // Every step stores a contiguous run of units from `o` that covers the units it counts
    // (at most 16 from `o`): `dst[..o]` is always written.
    while src.len() - i >= ROOM && room - o >= ROOM {
        // SAFETY: `i + 80 <= src.len()`, so 64 bytes are readable at `i`.
        let (a, b) = unsafe {
            let p = src.as_ptr().add(i);
            (
                _mm256_loadu_si256(p.cast()),
                _mm256_loadu_si256(p.add(32).cast()),
            )
        };
        if _mm256_movemask_epi8(_mm256_or_si256(a, b)) == 0 {
            // SAFETY: `o + 80 <= room`: 64 units are writable at `o`.
            unsafe {
                let q = dst.add(o).cast::<__m256i>();
                _mm256_storeu_si256(q, _mm256_cvtepu8_epi16(_mm256_castsi256_si128(a)));
                _mm256_storeu_si256(
                    q.add(1),
                    _mm256_cvtepu8_epi16(_mm256_extracti128_si256(a, 1)),
                );
                _mm256_storeu_si256(q.add(2), _mm256_cvtepu8_epi16(_mm256_castsi256_si128(b)));
                _mm256_storeu_si256(
                    q.add(3),
                    _mm256_cvtepu8_epi16(_mm256_extracti128_si256(b, 1)),
                );
            }
            i += 64;
            o += 64;
            continue;
        }
        // No byte above 0xDF: only one- and two-byte sequences (Latin, Cyrillic, Greek, ...).
        let high = _mm256_subs_epu8(_mm256_max_epu8(a, b), _mm256_set1_epi8(0xDFu8 as i8));
        if _mm256_testz_si256(high, high) == 1 {
            // SAFETY: `i + 80 <= src.len()` and `o + 80 <= room` (the loop's condition), what
            // `two_byte_block` needs.
            let (used, wrote) = unsafe { two_byte_block(src.as_ptr().add(i), dst.add(o)) };
            i += used;
            o += wrote;
            continue;
        }
        // Continuation bytes are 0x80..=0xBF, below -64 as signed bytes.
        let below = _mm256_set1_epi8(-64);
        let cont_a = _mm256_movemask_epi8(_mm256_cmpgt_epi8(below, a)) as u32;
        let cont_b = _mm256_movemask_epi8(_mm256_cmpgt_epi8(below, b)) as u32;
        let cont = u64::from(cont_a) | (u64::from(cont_b) << 32);
        // Bit k: byte k ends a code point (byte k + 1 starts one); bit 63 unknown, so 0.
        let mut ends = !cont >> 1;
        let stop = i + 52;
        while i < stop {
            // SAFETY: `i < stop <= start + 52` with `start + 80 <= src.len()`, so 28 bytes are
            // readable at `i`; every step so far wrote no more units than it read bytes, so
            // `o <= ostart + 51` and 16 units are writable at `o` (`ostart + 80 <= room`).
            let (used, wrote) = unsafe { step(src.as_ptr().add(i), ends, dst.add(o)) };
            if used == 0 {
                return (i, o);
            }
            i += used;
            o += wrote;
            ends >>= used;
        }
    }
    (i, o)
}

/// 64 bytes at `p` (a code point boundary) of one- and two-byte sequences only, 16 at a
/// time without looking for where sequences end: each byte becomes a 16-bit lane, a lead's
/// lane combined with the byte after it (from a second load one byte later), and the lanes
/// of continuation bytes are dropped by a shuffle from [`PACK`] (a fixed 16 bytes per step,
/// so no step waits on the one before, as the steps of [`step`] do). A lead at byte 63
/// takes its continuation at byte 64, which is then consumed too. Returns (bytes consumed,
/// units written): 64 or 65 bytes, at most 64 units, every one of them stored to.
///
/// # Safety
///
/// The CPU must support AVX2; 80 bytes must be readable at `p` and 80 units writable at `q`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn two_byte_block(p: *const u8, q: *mut u16) -> (usize, usize) {
    let mut o = 0;
    for k in (0..64).step_by(16) {
        // SAFETY: bytes `k..k + 17 <= 65` are readable at `p` (the contract).
        let (cur, next) = unsafe {
            (
                _mm_loadu_si128(p.add(k).cast()),
                _mm_loadu_si128(p.add(k + 1).cast()),
            )
        };
        let (c, n) = (_mm256_cvtepu8_epi16(cur), _mm256_cvtepu8_epi16(next));
        let next_cont = _mm256_cmpeq_epi16(
            _mm256_and_si256(n, _mm256_set1_epi16(0xC0)),
            _mm256_set1_epi16(0x80),
        );
        let two = _mm256_or_si256(
            _mm256_and_si256(_mm256_slli_epi16::<6>(c), _mm256_set1_epi16(0x7C0)),
            _mm256_and_si256(n, _mm256_set1_epi16(0x3F)),
        );
        let units = _mm256_blendv_epi8(c, two, next_cont);
        // Lanes to keep: bytes that are not continuations (above -65 as signed bytes).
        let keep = _mm_movemask_epi8(_mm_cmpgt_epi8(cur, _mm_set1_epi8(-65))) as usize;
        let (k0, k1) = (keep & 0xFF, (keep >> 8) & 0xFF);
        // SAFETY: `k0, k1 < 256`, the length of PACK, whose rows are 16 bytes.
        let (s0, s1) = unsafe {
            (
                _mm_loadu_si128(PACK[k0].as_ptr().cast()),
                _mm_loadu_si128(PACK[k1].as_ptr().cast()),
            )
        };
        let lo = _mm_shuffle_epi8(_mm256_castsi256_si128(units), s0);
        let hi = _mm_shuffle_epi8(_mm256_extracti128_si256::<1>(units), s1);
        // SAFETY: `o <= k` (at most one unit per byte so far), so the 8 units at `o` and the
        // 8 at `o + popcount(k0) <= k + 8` lie within the first 72 of the 80 writable units.
        unsafe {
            _mm_storeu_si128(q.add(o).cast(), lo);
            o += k0.count_ones() as usize;
            _mm_storeu_si128(q.add(o).cast(), hi);
            o += k1.count_ones() as usize;
        }
    }
    // SAFETY: byte 64 is readable (the contract).
    let after = unsafe { *p.add(64) };
    (64 + usize::from((after as i8) < -64), o)
}

/// One step at `p` (a code point boundary) with `ends` the end-of-code-point mask from `p`:
/// returns (bytes consumed, units written), consumed 0 only on a mask valid UTF-8 never
/// gives; units written never exceed bytes consumed.
///
/// # Safety
///
/// The CPU must support AVX2; 28 bytes must be readable at `p` and 16 units writable at `q`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn step(p: *const u8, ends: u64, q: *mut u16) -> (usize, usize) {
    // SAFETY: 16 readable bytes at `p` (the contract).
    let input = unsafe { _mm_loadu_si128(p.cast()) };
    match ends & 0xFFFF {
        0xFFFF => {
            // SAFETY: 16 units are writable at `q` (the contract); AVX2 is present.
            unsafe { _mm256_storeu_si256(q.cast(), _mm256_cvtepu8_epi16(input)) };
            return (16, 16);
        }
        0xAAAA => {
            let sh = _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
            // SAFETY: 8 of the 16 writable units at `q` (the contract).
            unsafe { _mm_storeu_si128(q.cast(), two_bytes(_mm_shuffle_epi8(input, sh))) };
            return (16, 8);
        }
        0x8888 => {
            let sh = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
            let (units, n) = four_bytes(_mm_shuffle_epi8(input, sh));
            // SAFETY: 8 of the 16 writable units at `q` (the contract).
            unsafe { _mm_storeu_si128(q.cast(), units) };
            return (16, 4 + n);
        }
        _ => {}
    }
    if ends & 0xFF_FFFF == 0x92_4924 {
        // Eight three-byte sequences (CJK): bytes 0-11 and 12-23 in the two halves.
        // SAFETY: 28 bytes are readable at `p` (the contract).
        let hi = unsafe { _mm_loadu_si128(p.add(12).cast()) };
        let sh = _mm256_setr_epi8(
            2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1, //
            2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1,
        );
        let perm = _mm256_shuffle_epi8(_mm256_set_m128i(hi, input), sh);
        let ascii = _mm256_and_si256(perm, _mm256_set1_epi32(0x7F));
        let middle = _mm256_srli_epi32::<2>(_mm256_and_si256(perm, _mm256_set1_epi32(0x3F00)));
        let high = _mm256_srli_epi32::<4>(_mm256_and_si256(perm, _mm256_set1_epi32(0x0F_0000)));
        let cp = _mm256_or_si256(_mm256_or_si256(ascii, middle), high);
        let packed = _mm256_permute4x64_epi64::<0b1000>(_mm256_packus_epi32(cp, cp));
        // SAFETY: 8 of the 16 writable units at `q` (the contract).
        unsafe { _mm_storeu_si128(q.cast(), _mm256_castsi256_si128(packed)) };
        return (24, 8);
    }
    let mask = (ends & 0xFFF) as usize;
    if mask == 0x924 {
        let sh = _mm_setr_epi8(2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1);
        // SAFETY: 8 of the 16 writable units at `q` (the contract).
        unsafe { _mm_storeu_si128(q.cast(), three_bytes(_mm_shuffle_epi8(input, sh))) };
        return (12, 4);
    }
    let [idx, used] = INDEX[mask];
    if idx == NONE {
        return (0, 0);
    }
    // SAFETY: `idx < 209`, the length of SHUFFLES, whose rows are 16 bytes.
    let sh = unsafe { _mm_loadu_si128(SHUFFLES[usize::from(idx)].as_ptr().cast()) };
    let perm = _mm_shuffle_epi8(input, sh);
    let used = usize::from(used);
    if idx < 64 {
        // SAFETY: 8 of the 16 writable units at `q` (the contract).
        unsafe { _mm_storeu_si128(q.cast(), two_bytes(perm)) };
        (used, 6)
    } else {
        // Four lanes of up to 3 bytes, or three of up to 4 (the fourth lane zero): one
        // branch for both, which alternate unpredictably in mixed text.
        let lanes = 4 - usize::from(idx >= 145);
        let (units, n) = four_bytes(perm);
        // SAFETY: 8 of the 16 writable units at `q` (the contract).
        unsafe { _mm_storeu_si128(q.cast(), units) };
        (used, lanes + n)
    }
}

/// Sixteen-bit lanes holding a lead byte (high) and a continuation (low), or ASCII (low, high
/// zero): the code points.
#[target_feature(enable = "avx2")]
#[inline]
fn two_bytes(perm: __m128i) -> __m128i {
    let ascii = _mm_and_si128(perm, _mm_set1_epi16(0x7F));
    let high = _mm_and_si128(perm, _mm_set1_epi16(0x1F00));
    _mm_or_si128(ascii, _mm_srli_epi16::<2>(high))
}

/// Thirty-two-bit lanes of sequences of 1 to 3 bytes (last byte lowest): the code points,
/// packed to 16 bits in the low four lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn three_bytes(perm: __m128i) -> __m128i {
    let ascii = _mm_and_si128(perm, _mm_set1_epi32(0x7F));
    let middle = _mm_srli_epi32::<2>(_mm_and_si128(perm, _mm_set1_epi32(0x3F00)));
    let high = _mm_srli_epi32::<4>(_mm_and_si128(perm, _mm_set1_epi32(0x0F_0000)));
    let cp = _mm_or_si128(_mm_or_si128(ascii, middle), high);
    _mm_packus_epi32(cp, cp)
}

/// The UTF-16 of four 32-bit lanes of sequences of 1 to 4 bytes (last byte lowest; a zero
/// lane gives one zero unit), packed from the first unit, and how many lanes took two units
/// (those whose top byte is a lead byte of four: only a four-byte lane has a top byte).
#[target_feature(enable = "avx2")]
#[inline]
fn four_bytes(perm: __m128i) -> (__m128i, usize) {
    let ascii = _mm_and_si128(perm, _mm_set1_epi32(0x7F));
    let middle = _mm_srli_epi32::<2>(_mm_and_si128(perm, _mm_set1_epi32(0x3F00)));
    // Bits 16-21: a continuation's six bits, or a three-byte lead's four with 0b10 above
    // them (from 1110), which the xor of bit 22 moved down to bit 21 clears.
    let third = _mm_and_si128(perm, _mm_set1_epi32(0x3F_0000));
    let fix = _mm_srli_epi32::<1>(_mm_and_si128(perm, _mm_set1_epi32(0x40_0000)));
    let third = _mm_srli_epi32::<4>(_mm_xor_si128(third, fix));
    // The four-byte lead whole: 0xF0 << 18 = 0x3C0_0000 marks the lanes needing a pair.
    let top = _mm_srli_epi32::<6>(_mm_and_si128(perm, _mm_set1_epi32(0xFF00_0000u32 as i32)));
    let cp = _mm_or_si128(_mm_or_si128(ascii, middle), _mm_or_si128(third, top));
    let pair = _mm_cmpgt_epi32(cp, _mm_set1_epi32(0x3C0_0000));
    let m = _mm_sub_epi32(cp, _mm_set1_epi32(0x1_0000));
    let high = _mm_and_si128(_mm_srli_epi32::<10>(m), _mm_set1_epi32(0x3FF));
    let low = _mm_slli_epi32::<16>(_mm_and_si128(m, _mm_set1_epi32(0x3FF)));
    let pairs = _mm_or_si128(
        _mm_or_si128(high, low),
        _mm_set1_epi32(0xDC00_D800u32 as i32),
    );
    let units = _mm_blendv_epi8(cp, pairs, pair);
    let mask = _mm_movemask_ps(_mm_castsi128_ps(pair)) as usize & 0xF;
    // SAFETY: `mask < 16`, the length of COMPRESS, whose rows are 16 bytes.
    let sh = unsafe { _mm_loadu_si128(COMPRESS[mask].as_ptr().cast()) };
    (_mm_shuffle_epi8(units, sh), mask.count_ones() as usize)
}

/// Widens the ASCII prefix of `src` to UTF-16 at `dst`, in whole 64-byte blocks (then 32),
/// up to the first block with a byte that is not ASCII; returns the bytes widened (as many
/// units written). One pass: the ASCII test and the widening read the same loads.
///
/// # Safety
///
/// The CPU must support AVX2; `dst` must be valid for writing `src.len()` units.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn widen_ascii_avx2(src: &[u8], dst: *mut u16) -> usize {
    let (len, p) = (src.len(), src.as_ptr());
    let mut i = 0;
    // SAFETY: loads read 64 (32) bytes at `i` with `i + 64 <= len` (`i + 32 <= len`); stores
    // write as many units at `dst + i`, within the `len` the caller's contract allows.
    unsafe {
        let widen = |v: __m256i, at: usize| {
            let lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v));
            let hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(v));
            _mm256_storeu_si256(dst.add(at).cast(), lo);
            _mm256_storeu_si256(dst.add(at + 16).cast(), hi);
        };
        // The first 32 units, then on from where the output is 64-byte aligned, so that no
        // later store splits a cache line (the loads do instead, which costs less): the
        // units in between are written twice, with the same values.
        if len >= 96 {
            let a = _mm256_loadu_si256(p.cast());
            if _mm256_movemask_epi8(a) != 0 {
                return 0;
            }
            widen(a, 0);
            // Units to the next 64-byte boundary of the output: 0..=31 (`dst` is 2-aligned).
            i = ((64 - (dst as usize & 63)) / 2) & 31;
        }
        while i + 64 <= len {
            let a = _mm256_loadu_si256(p.add(i).cast());
            let b = _mm256_loadu_si256(p.add(i + 32).cast());
            if _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0 {
                break;
            }
            widen(a, i);
            widen(b, i + 32);
            i += 64;
        }
        if i + 32 <= len {
            let a = _mm256_loadu_si256(p.add(i).cast());
            if _mm256_movemask_epi8(a) == 0 {
                widen(a, i);
                i += 32;
            }
        }
    }
    i
}

/// Appends to `out` the units of [`transcode_valid_avx2`] over `src`, written straight into
/// the spare capacity; returns the bytes converted.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn extend_valid_avx2(src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
    out.reserve(src.len());
    let spare = out.spare_capacity_mut();
    // SAFETY: AVX2 (this function's contract); `spare` is writable for its `spare.len()` units.
    let (read, written) =
        unsafe { transcode_valid_avx2(src, spare.as_mut_ptr().cast(), spare.len()) };
    // SAFETY: `transcode_valid_avx2` stored to each of the first `written` units of the spare
    // capacity (its contract), which holds at least `written` units.
    unsafe { out.set_len(out.len() + written) };
    read
}

/// Appends to `out` the units of [`widen_ascii_avx2`] over `src`, written straight into the
/// spare capacity; returns the bytes widened.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn extend_ascii_avx2(src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
    out.reserve(src.len());
    let spare = out.spare_capacity_mut();
    // SAFETY: AVX2 (this function's contract); `spare` has room for `src.len()` units
    // (reserved just above), which is all the function may write.
    let n = unsafe { widen_ascii_avx2(src, spare.as_mut_ptr().cast()) };
    // SAFETY: the first `n` units of the spare capacity were written (initialized) by
    // `widen_ascii_avx2`, and `n <= src.len()` fit in it.
    unsafe { out.set_len(out.len() + n) };
    n
}
