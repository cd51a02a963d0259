//! The UTF-16 → UTF-8 vector transcoder of `simd/utf16_decode.rs` with AVX2, for the AVX2
//! and AVX-512 kernels: 16 units a step, classified in one 256-bit register, halves
//! converted in 128-bit ones by the SSE4.2 transcoder's functions (`sse42/utf16_decode.rs`,
//! whose module doc gives the classes), and its steps of 8 units where a step of 16 is not
//! all of one class (surrogates). ASCII goes 32 units at a time when the next step is ASCII
//! too.
//!
//! A step needs its input (32 bytes) and room for all its stores (64 bytes); short of that
//! the 128-bit loop goes on, then the caller's scalar twin converts the rest.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::simd::token;
use crate::simd::x86_64::sse42::utf16_decode::{all_three8, run128, step8, three_byte8, two_byte8};

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

/// The SSE4.2 transcoder (`run128`) with AVX2: 16 units a step where they are all of one
/// class.
///
/// # Safety
///
/// The CPU must support AVX2; `dst` must be writable for `room` bytes.
#[inline(always)]
unsafe fn transcode_avx2<const BE: bool>(src: &[u8], dst: *mut u8, room: usize) -> (usize, usize) {
    let (mut i, mut o) = (0, 0);
    while i + 32 <= src.len() && room - o >= 64 {
        // SAFETY: 32 readable bytes at `i` (64 checked for the second ASCII load), and 64
        // writable at `dst + o`, which every store stays within (two steps of eight units
        // write at most 28 bytes each, the second starting at most 28 bytes in).
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
            // Surrogates: two steps of eight (the first may end past the middle, after a
            // pair across it, or before an unpaired surrogate).
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
