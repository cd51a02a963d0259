//! The vector test of the characters that begin the run starts word counting's block pass
//! cannot vouch for (`words.rs`'s `surely_word`) with AVX-512, 16 at a time: a gather of four
//! bytes per offset, the code point decoded in 32-bit lanes, and a gather of its bit in the
//! printable table (the tables are AVX2's, `avx2/surely.rs`).

use core::arch::x86_64::*;

use crate::simd::token;
use crate::simd::x86_64::avx2::surely::{BSWAP, CONT, MARK, MIN, PAYLOAD, SHIFT};
use crate::words::bits::WORD_BITS;

token_fns! { token::Avx512, "avx512f,avx512bw":
    /// For each offset `at` of `offs` (16 a mask, offset `j` in bit `j % 16` of `out[j / 16]`):
    /// whether the character at `bytes[base + at]` surely begins a word, as
    /// `words::surely_word` tells: a well-formed sequence of a code point up to U+1FFFF whose bit
    /// is set in `words::bits::WORD_BITS`. An offset whose four bytes from `base + at` are not
    /// all inside `bytes` gets 0, as do the bits of the last mask past `offs.len()` (masks after
    /// it are left as they were).
    fn surely_words(bytes: &[u8], base: usize, offs: &[u32], out: &mut [u16]) {
        // SAFETY: AVX-512F/BW are enabled (the function's target features); the table loads read 64
        // bytes of 64-byte arrays; a gather reads only its lanes in the mask: four bytes at
        // `bytes + base + at` where `base + at + 4 <= bytes.len()` (checked per lane below), and
        // a `u32` of `WORD_BITS` at an index below 4096 (the code point clamped to U+1FFFF, over 32).
        unsafe {
            let table = |t: &[u32; 16]| _mm512_loadu_si512(t.as_ptr().cast());
            let (shift_t, payload_t, cont_t, mark_t, min_t) = (
                table(&SHIFT),
                table(&PAYLOAD),
                table(&CONT),
                table(&MARK),
                table(&MIN),
            );
            let bswap = _mm512_broadcast_i32x4(_mm_loadu_si128(BSWAP.as_ptr().cast()));
            // Offsets past this one would read past the end.
            let room = bytes.len().saturating_sub(base + 4);
            let limit = _mm512_set1_epi32(room.min(i32::MAX as usize) as i32);
            let start = bytes.as_ptr().wrapping_add(base);
            for (chunk, mask) in offs.chunks(16).zip(out.iter_mut()) {
                let n = chunk.len();
                let lanes: __mmask16 = if n == 16 { u16::MAX } else { (1u16 << n) - 1 };
                let at = _mm512_maskz_loadu_epi32(lanes, chunk.as_ptr().cast());
                let inside = lanes & _mm512_cmple_epu32_mask(at, limit);
                let le =
                    _mm512_mask_i32gather_epi32::<1>(
                        _mm512_setzero_si512(),
                        inside,
                        at,
                        start.cast(),
                    );
                let x = _mm512_shuffle_epi8(le, bswap);
                let nib = _mm512_srli_epi32::<28>(x);
                let t = _mm512_srlv_epi32(x, _mm512_permutexvar_epi32(nib, shift_t));
                let m = |a: __m512i, k: i32| _mm512_and_si512(a, _mm512_set1_epi32(k));
                let cp = _mm512_and_si512(
                    _mm512_or_si512(
                        _mm512_or_si512(m(t, 0x3F), m(_mm512_srli_epi32::<2>(t), 0xFC0)),
                        _mm512_or_si512(
                            m(_mm512_srli_epi32::<4>(t), 0x3_F000),
                            m(_mm512_srli_epi32::<6>(t), 0x1C_0000),
                        ),
                    ),
                    _mm512_permutexvar_epi32(nib, payload_t),
                );
                let cont = _mm512_permutexvar_epi32(nib, cont_t);
                let well_formed = _mm512_cmpeq_epi32_mask(
                    _mm512_and_si512(t, cont),
                    _mm512_permutexvar_epi32(nib, mark_t),
                ) & _mm512_cmpge_epu32_mask(cp, _mm512_permutexvar_epi32(nib, min_t))
                    & _mm512_cmplt_epu32_mask(cp, _mm512_set1_epi32(0x20000));
                let ok = inside & well_formed;
                let word = _mm512_mask_i32gather_epi32::<4>(
                    _mm512_setzero_si512(),
                    ok,
                    _mm512_srli_epi32::<5>(cp),
                    WORD_BITS.as_ptr().cast(),
                );
                let bit = _mm512_srlv_epi32(word, m(cp, 31));
                *mask = ok & _mm512_test_epi32_mask(bit, _mm512_set1_epi32(1));
            }
        }
    }
}
