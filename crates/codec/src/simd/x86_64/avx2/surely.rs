//! The vector test of the characters that begin the run starts word counting's block pass
//! cannot vouch for (`words.rs`'s `surely_word`) with AVX2, 8 at a time: a gather of four
//! bytes per offset, the code point decoded in 32-bit lanes, and a gather of its bit in the
//! printable table. Its tables are also AVX-512's (`avx512/surely.rs`).

use core::arch::x86_64::*;

use crate::simd::token;
use crate::words::bits::WORD_BITS;

/// `surely_word`'s tables by the lead's high nibble, from its tables by length (the shift
/// that brings the sequence's last byte to the bottom of the big-endian word, the payload,
/// the marks of the continuation bytes and of a four-byte lead, the smallest code point).
const fn by_nibble(by_len: [u32; 5]) -> [u32; 16] {
    let mut t = [by_len[0]; 16];
    t[0xC] = by_len[2];
    t[0xD] = by_len[2];
    t[0xE] = by_len[3];
    t[0xF] = by_len[4];
    t
}
pub(in crate::simd::x86_64) const SHIFT: [u32; 16] = by_nibble([0, 0, 16, 8, 0]);
pub(in crate::simd::x86_64) const PAYLOAD: [u32; 16] = by_nibble([0, 0, 0x7FF, 0xFFFF, 0x1F_FFFF]);
pub(in crate::simd::x86_64) const CONT: [u32; 16] = by_nibble([0, 0, 0xC0, 0xC0C0, 0xF8C0_C0C0]);
pub(in crate::simd::x86_64) const MARK: [u32; 16] = by_nibble([0, 0, 0x80, 0x8080, 0xF080_8080]);
pub(in crate::simd::x86_64) const MIN: [u32; 16] = by_nibble([!0, !0, 0x80, 0x800, 0x10000]);
/// Bytes of each 32-bit lane reversed: the lead in the top byte.
pub(in crate::simd::x86_64) const BSWAP: [u8; 16] =
    [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];

/// The upper half of a nibble table (nibbles 8 to 15), for AVX2's eight-entry permutes: every
/// nibble below 8 (ASCII, no sequence) reads entry 0, which holds what nibbles 8 to 11 (a
/// continuation byte, no sequence either) hold.
const fn upper(t: [u32; 16]) -> [u32; 8] {
    let mut u = [0; 8];
    let mut i = 0;
    while i < 8 {
        u[i] = t[8 + i];
        i += 1;
    }
    u
}

token_fns! { token::Avx2, "avx2":
    /// For each offset `at` of `offs` (16 a mask, offset `j` in bit `j % 16` of `out[j / 16]`):
    /// whether the character at `bytes[base + at]` surely begins a word, as
    /// `words::surely_word` tells (see `avx512/surely.rs`), eight offsets at a time (two to a
    /// mask of `out`).
    fn surely_words(bytes: &[u8], base: usize, offs: &[u32], out: &mut [u16]) {
        const SHIFT8: [u32; 8] = upper(SHIFT);
        const PAYLOAD8: [u32; 8] = upper(PAYLOAD);
        const CONT8: [u32; 8] = upper(CONT);
        const MARK8: [u32; 8] = upper(MARK);
        const MIN8: [u32; 8] = upper(MIN);
        /// Lane `i` set in the first `n` lanes: 8 entries of all ones, then 8 of zeros, from
        /// `8 - n`.
        const FIRST: [i32; 16] = [-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0];
        // SAFETY: AVX2 is enabled (the function's target features); the table loads read 32 bytes
        // of 32-byte arrays and 32 bytes of `FIRST` from `8 - n` (`1 <= n <= 8`); a masked load
        // reads only the first `n` offsets of `chunk` (`n = chunk.len()`); a gather reads only its
        // lanes in the mask: four bytes at `bytes + base + at` where `base + at + 4 <= bytes.len()`
        // (checked per lane below), and a `u32` of `WORD_BITS` at an index below 4096 (the code point
        // below U+20000 in the mask, over 32).
        unsafe {
            let table = |t: &[u32; 8]| _mm256_loadu_si256(t.as_ptr().cast());
            let (shift_t, payload_t, cont_t, mark_t, min_t) = (
                table(&SHIFT8),
                table(&PAYLOAD8),
                table(&CONT8),
                table(&MARK8),
                table(&MIN8),
            );
            let bswap = _mm256_broadcastsi128_si256(_mm_loadu_si128(BSWAP.as_ptr().cast()));
            // Offsets past this one would read past the end.
            let room = bytes.len().saturating_sub(base + 4);
            let limit = _mm256_set1_epi32(room.min(i32::MAX as usize) as i32);
            let start = bytes.as_ptr().wrapping_add(base);
            let m = |a: __m256i, k: i32| _mm256_and_si256(a, _mm256_set1_epi32(k));
            for (chunk, mask) in offs.chunks(16).zip(out.iter_mut()) {
                let mut bits16 = 0u16;
                for (half, chunk) in chunk.chunks(8).enumerate() {
                    let n = chunk.len();
                    let lanes = _mm256_loadu_si256(FIRST.as_ptr().add(8 - n).cast());
                    let at = _mm256_maskload_epi32(chunk.as_ptr().cast(), lanes);
                    // `at <= limit`, unsigned (offsets of 2^31 and more are past any limit).
                    let below = _mm256_cmpeq_epi32(_mm256_min_epu32(at, limit), at);
                    let inside = _mm256_and_si256(lanes, below);
                    let le = _mm256_mask_i32gather_epi32::<1>(
                        _mm256_setzero_si256(),
                        start.cast(),
                        at,
                        inside,
                    );
                    let x = _mm256_shuffle_epi8(le, bswap);
                    // The nibble's entry: 0 for nibbles 0 to 8, `nib - 8` above.
                    let nib = _mm256_srli_epi32::<28>(x);
                    let idx = _mm256_sub_epi32(
                        _mm256_max_epi32(nib, _mm256_set1_epi32(8)),
                        _mm256_set1_epi32(8),
                    );
                    let t = _mm256_srlv_epi32(x, _mm256_permutevar8x32_epi32(shift_t, idx));
                    let cp = _mm256_and_si256(
                        _mm256_or_si256(
                            _mm256_or_si256(m(t, 0x3F), m(_mm256_srli_epi32::<2>(t), 0xFC0)),
                            _mm256_or_si256(
                                m(_mm256_srli_epi32::<4>(t), 0x3_F000),
                                m(_mm256_srli_epi32::<6>(t), 0x1C_0000),
                            ),
                        ),
                        _mm256_permutevar8x32_epi32(payload_t, idx),
                    );
                    let marks = _mm256_cmpeq_epi32(
                        _mm256_and_si256(t, _mm256_permutevar8x32_epi32(cont_t, idx)),
                        _mm256_permutevar8x32_epi32(mark_t, idx),
                    );
                    // `cp >= min`, unsigned; `cp < 0x20000` (cp has at most 21 bits: signed works).
                    let min = _mm256_permutevar8x32_epi32(min_t, idx);
                    let at_least = _mm256_cmpeq_epi32(_mm256_max_epu32(cp, min), cp);
                    let small = _mm256_cmpgt_epi32(_mm256_set1_epi32(0x20000), cp);
                    let ok = _mm256_and_si256(
                        inside,
                        _mm256_and_si256(marks, _mm256_and_si256(at_least, small)),
                    );
                    let word = _mm256_mask_i32gather_epi32::<4>(
                        _mm256_setzero_si256(),
                        WORD_BITS.as_ptr().cast(),
                        _mm256_srli_epi32::<5>(cp),
                        ok,
                    );
                    let bit =
                        _mm256_and_si256(_mm256_srlv_epi32(word, m(cp, 31)), _mm256_set1_epi32(1));
                    let set = _mm256_and_si256(ok, _mm256_cmpeq_epi32(bit, _mm256_set1_epi32(1)));
                    let lanes8 = _mm256_movemask_ps(_mm256_castsi256_ps(set)) as u16;
                    bits16 |= lanes8 << (8 * half);
                }
                *mask = bits16;
            }
        }
    }
}
