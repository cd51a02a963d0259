//! The UTF-16 → UTF-8 vector transcoder of `simd/utf16_decode.rs` with AVX2, for the AVX2
//! kernel and the AVX-512 one on a CPU without VBMI2: 16 units a step, classified in one 256-bit register; steps of one
//! class converted as 128-bit halves by the SSE4.2 transcoder's functions
//! (`sse42/utf16_decode.rs`, whose module doc gives the classes), eight surrogate pairs in
//! 32-bit lanes at once ([`pairs16`]), and any mix of lengths whose surrogates are all paired
//! in 256-bit registers ([`any16`], the SSE4.2 `any8` twice as wide: text that changes
//! length at every character, surrogate pairs included, stays in the vector loop). A pair
//! across a step's end is written in two parts, the first three bytes with its lead, the
//! last with its trail at the start of the next step. Only unpaired surrogates, and the
//! input's end within a unit of a step's, take the SSE4.2 transcoder's steps of 8 units.
//! ASCII goes 32 units at a time when the next step is ASCII too.
//!
//! A step needs its input (32 bytes) and room for all its stores (64 bytes); short of that
//! the 128-bit loop goes on, then the caller's scalar twin converts the rest.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::simd::token;
use crate::simd::utf16_decode_tables::PACK_ANY;
use crate::simd::x86_64::sse42::utf16_decode::{
    all_three8, run128, step8, store_packed, three_byte8, two_byte8,
};

/// Sixteen units at `p`, in lane order.
///
/// # Safety
///
/// AVX2; 32 readable bytes at `p`.
#[inline(always)]
unsafe fn load16<const BE: bool>(p: *const u8) -> __m256i {
    // SAFETY: the caller's contract.
    unsafe {
        let v = _mm256_loadu_si256(p.cast());
        match BE {
            true => _mm256_shuffle_epi8(
                v,
                _mm256_setr_epi8(
                    1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, //
                    1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
                ),
            ),
            false => v,
        }
    }
}

/// The UTF-8 of sixteen units at `q` when they are eight surrogate pairs, each in a 32-bit
/// lane (32 bytes); whether they were.
///
/// # Safety
///
/// AVX2; 32 writable bytes at `q`.
#[inline(always)]
unsafe fn pairs16(v: __m256i, q: *mut u8) -> bool {
    // SAFETY: the caller's contract.
    unsafe {
        let tags = _mm256_and_si256(v, _mm256_set1_epi32(0xFC00_FC00_u32 as i32));
        let paired = _mm256_cmpeq_epi32(tags, _mm256_set1_epi32(0xDC00_D800_u32 as i32));
        if _mm256_movemask_epi8(paired) != -1 {
            return false;
        }
        // (lead << 10) + trail, less the surrogate offsets, plus 0x10000.
        let lead = _mm256_and_si256(v, _mm256_set1_epi32(0xFFFF));
        let cp = _mm256_sub_epi32(
            _mm256_add_epi32(_mm256_slli_epi32::<10>(lead), _mm256_srli_epi32::<16>(v)),
            _mm256_set1_epi32(0x35F_DC00),
        );
        let b0 = _mm256_srli_epi32::<18>(cp);
        let b1 = _mm256_and_si256(_mm256_srli_epi32::<4>(cp), _mm256_set1_epi32(0x3F00));
        let b2 = _mm256_and_si256(_mm256_slli_epi32::<10>(cp), _mm256_set1_epi32(0x3F_0000));
        let b3 = _mm256_and_si256(_mm256_slli_epi32::<24>(cp), _mm256_set1_epi32(0x3F00_0000));
        let tag = _mm256_set1_epi32(0x8080_80F0_u32 as i32);
        let bytes = _mm256_or_si256(
            _mm256_or_si256(b0, b1),
            _mm256_or_si256(_mm256_or_si256(b2, b3), tag),
        );
        _mm256_storeu_si256(q.cast(), bytes);
        true
    }
}

/// The SSE4.2 transcoder's any-length step (`any8`, whose doc gives the method) over sixteen
/// units `v`, `n` being the sixteen one unit further on, except that a lead last gives only
/// its three bytes: the next step's first unit, its trail, gives the fourth. `carry` says
/// that the first unit is such a trail. Returns (bytes written, whether the last unit is a
/// lead), or `None`, with nothing written, where a surrogate in `v` is unpaired (a trail
/// first without `carry`).
///
/// # Safety
///
/// AVX2; 64 writable bytes at `q`.
#[inline(always)]
unsafe fn any16(v: __m256i, n: __m256i, q: *mut u8, carry: bool) -> Option<(usize, bool)> {
    // SAFETY: the caller's contract: each of the four stores writes 16 bytes after at most
    // 12 from each before it, so the last ends at most 52 bytes in.
    unsafe {
        let fc00 = _mm256_set1_epi16(0xFC00_u16 as i16);
        let dc00 = _mm256_set1_epi16(0xDC00_u16 as i16);
        let tag = _mm256_and_si256(v, fc00);
        let lead = _mm256_cmpeq_epi16(tag, _mm256_set1_epi16(0xD800_u16 as i16));
        let trail = _mm256_cmpeq_epi16(tag, dc00);
        let next_trail = _mm256_cmpeq_epi16(_mm256_and_si256(n, fc00), dc00);
        let zero = _mm256_setzero_si256();
        let ff80 = _mm256_set1_epi16(0xFF80_u16 as i16);
        let f800 = _mm256_set1_epi16(0xF800_u16 as i16);
        let ascii = _mm256_cmpeq_epi16(_mm256_and_si256(v, ff80), zero);
        let upto2 = _mm256_cmpeq_epi16(_mm256_and_si256(v, f800), zero);
        // Low byte of each lane: ASCII or trail; high byte: below U+0800.
        let low = _mm256_set1_epi16(0xFF);
        let kinds = _mm256_blendv_epi8(upto2, _mm256_or_si256(ascii, trail), low);
        let m = _mm256_movemask_epi8(kinds) as u32 as usize;
        // Paired: a lead where the next unit is a trail, and a trail first only after a lead.
        let unpaired = _mm256_xor_si256(lead, next_trail);
        if _mm256_testz_si256(unpaired, unpaired) == 0 || (m & 3 == 1 && !carry) {
            return None;
        }
        let shifted = _mm256_add_epi16(
            _mm256_add_epi16(_mm256_slli_epi16::<4>(v), _mm256_srli_epi16::<6>(n)),
            _mm256_set1_epi16(0x8090_u16 as i16),
        );
        let w = _mm256_blendv_epi8(v, shifted, lead);
        let dup = _mm256_setr_epi8(
            0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, //
            0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14,
        );
        let last = _mm256_or_si256(
            _mm256_and_si256(_mm256_shuffle_epi8(w, dup), _mm256_set1_epi16(0x3F7F)),
            _mm256_set1_epi16(0x8000_u16 as i16),
        );
        let parts = _mm256_maddubs_epi16(
            _mm256_and_si256(_mm256_srli_epi16::<4>(w), _mm256_set1_epi16(0x0FFC)),
            _mm256_set1_epi16(0x0140),
        );
        let flip = _mm256_or_si256(
            _mm256_andnot_si256(upto2, _mm256_set1_epi16(0x4000)),
            _mm256_and_si256(lead, _mm256_set1_epi16(0x10)),
        );
        let c0e0 = _mm256_set1_epi16(0xC0E0_u16 as i16);
        let first = _mm256_xor_si256(_mm256_or_si256(parts, c0e0), flip);
        // Units 0-3 and 8-11, and 4-7 and 12-15.
        let (lo, hi) = (
            _mm256_unpacklo_epi16(last, first),
            _mm256_unpackhi_epi16(last, first),
        );
        let a = store_packed(q, _mm256_castsi256_si128(lo), &PACK_ANY[m & 0xFF]);
        let b = store_packed(
            q.add(a),
            _mm256_castsi256_si128(hi),
            &PACK_ANY[(m >> 8) & 0xFF],
        );
        let lo = _mm256_extracti128_si256::<1>(lo);
        let c = store_packed(q.add(a + b), lo, &PACK_ANY[(m >> 16) & 0xFF]);
        let hi = _mm256_extracti128_si256::<1>(hi);
        let d = store_packed(q.add(a + b + c), hi, &PACK_ANY[m >> 24]);
        Some((a + b + c + d, _mm256_movemask_epi8(lead) < 0))
    }
}

/// The last byte of the four of a pair whose trail is the unit at byte `i` of `src`, the
/// first three having been written with its lead.
///
/// # Panics
///
/// When `src` has no unit at `i` (never: the step that wrote the lead read the trail).
#[inline(always)]
fn trail_byte<const BE: bool>(src: &[u8], i: usize) -> u8 {
    0x80 | (src[i + usize::from(BE)] & 0x3F)
}

/// The SSE4.2 transcoder (`run128`) with AVX2: 16 units a step where they are all of one
/// class or free of unpaired surrogates (`any16`).
///
/// # Safety
///
/// The CPU must support AVX2; `dst` must be writable for `room` bytes.
#[inline(always)]
unsafe fn transcode_avx2<const BE: bool>(src: &[u8], dst: *mut u8, room: usize) -> (usize, usize) {
    // `carry`: the unit at `i` is the trail of a pair whose lead's three bytes are written.
    let (mut i, mut o, mut carry) = (0, 0, false);
    while i + 32 <= src.len() && room - o >= 64 {
        // SAFETY: 32 readable bytes at `i` (64 checked for the second ASCII load, 34 for the
        // load one unit on; the ASCII loop checks its own 64 and 64 bytes of room before each
        // step), and 64 writable at `dst + o`, which every store stays within
        // (`any16` writes at most 52 bytes; the trail byte before two steps of eight moves
        // them one byte on, and two steps of eight units write at most 28 bytes each, the
        // second starting at most 29 bytes in). With `carry` the first unit is a trail, which
        // none of the steps for one class takes.
        unsafe {
            let p = src.as_ptr().add(i);
            let q = dst.add(o);
            let v = load16::<BE>(p);
            let ascii = _mm256_set1_epi16(0xFF80_u16 as i16);
            if _mm256_testz_si256(v, ascii) == 1 {
                if i + 64 <= src.len() {
                    let w = load16::<BE>(p.add(32));
                    if _mm256_testz_si256(w, ascii) == 1 {
                        let packed =
                            _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(v, w));
                        _mm256_storeu_si256(q.cast(), packed);
                        (i, o) = (i + 64, o + 32);
                        // More ASCII: a loop of its own, so that a long run goes without the
                        // other classes' tests.
                        while i + 64 <= src.len() && room - o >= 64 {
                            let p = src.as_ptr().add(i);
                            let (v, w) = (load16::<BE>(p), load16::<BE>(p.add(32)));
                            if _mm256_testz_si256(_mm256_or_si256(v, w), ascii) == 0 {
                                break;
                            }
                            let packed = _mm256_packus_epi16(v, w);
                            let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
                            _mm256_storeu_si256(dst.add(o).cast(), packed);
                            (i, o) = (i + 64, o + 32);
                        }
                        continue;
                    }
                }
                let (lo, hi) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
                _mm_storeu_si128(q.cast(), _mm_packus_epi16(lo, hi));
                (i, o) = (i + 32, o + 16);
                continue;
            }
            let (lo, hi) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            let f800 = _mm256_set1_epi16(0xF800_u16 as i16);
            if _mm256_testz_si256(v, f800) == 1 {
                let n = two_byte8(lo, q);
                (i, o) = (i + 32, o + n + two_byte8(hi, q.add(n)));
                continue;
            }
            let d800 = _mm256_set1_epi16(0xD800_u16 as i16);
            let sur = _mm256_cmpeq_epi16(_mm256_and_si256(v, f800), d800);
            if _mm256_testz_si256(sur, sur) == 1 {
                let below = _mm256_subs_epu16(_mm256_set1_epi16(0x800), v);
                if _mm256_testz_si256(below, below) == 1 {
                    all_three8(lo, q);
                    all_three8(hi, q.add(24));
                    (i, o) = (i + 32, o + 48);
                    continue;
                }
                let n = three_byte8(lo, q);
                (i, o) = (i + 32, o + n + three_byte8(hi, q.add(n)));
                continue;
            }
            if pairs16(v, q) {
                (i, o) = (i + 32, o + 32);
                continue;
            }
            if i + 34 <= src.len()
                && let Some((w, c)) = any16(v, load16::<BE>(p.add(2)), q, carry)
            {
                (i, o, carry) = (i + 32, o + w, c);
                continue;
            }
            // An unpaired surrogate, or the end too near: the pair begun, then two steps of
            // eight (the first may end past the middle, after a pair across it, or before an
            // unpaired surrogate).
            if carry {
                q.write(trail_byte::<BE>(src, i));
                (i, o, carry) = (i + 2, o + 1, false);
            }
            let (i2, o2, ok) = step8::<BE>(src, i, dst, o);
            if !ok {
                return (i2, o2);
            }
            (i, o) = (i2, o2);
            if i + 16 <= src.len() {
                let (i2, o2, ok) = step8::<BE>(src, i, dst, o);
                if !ok {
                    return (i2, o2);
                }
                (i, o) = (i2, o2);
            }
        }
    }
    if carry {
        // SAFETY: the last step left at least 12 of its 64 bytes of room (`any16` writes at
        // most 52), so the byte at `o` is writable.
        unsafe { dst.add(o).write(trail_byte::<BE>(src, i)) };
        (i, o) = (i + 2, o + 1);
    }
    // SAFETY: AVX2 implies SSE4.2; `dst` is writable for `room` bytes and `o <= room`.
    unsafe { run128::<BE>(src, dst, room, i, o) }
}

token_fns! { token::Avx2, "avx2":
    /// Transcodes a well-formed prefix of `src` (UTF-16, big-endian when `BE`) into `dst`,
    /// leaving at most one step's input or room: (bytes read, bytes written).
    fn utf16_decode<const BE: bool>(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        let (q, room) = (dst.as_mut_ptr().cast::<u8>(), dst.len());
        // SAFETY: AVX2 is enabled (the function's target features); `dst` is writable for
        // its length, and the transcoder writes only initialized bytes.
        unsafe { transcode_avx2::<BE>(src, q, room) }
    }
}
