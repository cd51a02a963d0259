//! The UTF-8 → UTF-16 transcoder of `simd/utf16.rs` with AVX2, for the AVX2 kernel and the
//! AVX-512 one on a CPU without VBMI2: its 128-bit primitives in VEX encoding, and the parts of a block done in 256-bit
//! registers (the ASCII test of 64 bytes and the widening, the two-byte test and lanes, the
//! continuation mask, eight three-byte sequences at once).

use core::arch::x86_64::*;

use crate::simd::token;
use crate::simd::utf16::{self, Utf16Lanes};

/// 16 bytes in an SSE register, used only where AVX2 is available.
#[derive(Clone, Copy)]
pub(crate) struct Avx2Lanes(__m128i);

// SAFETY (whole impl): every method is only called from the functions compiled for AVX2
// below, which run only on CPUs with AVX2 (and so SSE4.1 and SSSE3);
// loads and stores are the caller's contract.
impl Utf16Lanes for Avx2Lanes {
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 16 readable bytes at `p` (the caller's contract).
        Avx2Lanes(unsafe { _mm_loadu_si128(p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, q: *mut u16) {
        // SAFETY: 16 writable bytes at `q` (the caller's contract).
        unsafe { _mm_storeu_si128(q.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn widen_lo(self) -> Self {
        // SAFETY: SSE4.1 register operation.
        Avx2Lanes(unsafe { _mm_cvtepu8_epi16(self.0) })
    }
    #[inline(always)]
    unsafe fn widen_hi(self) -> Self {
        // SAFETY: SSE4.1 and SSE2 register operations.
        Avx2Lanes(unsafe { _mm_cvtepu8_epi16(_mm_srli_si128::<8>(self.0)) })
    }
    #[inline(always)]
    unsafe fn splat8(b: u8) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_set1_epi8(b as i8) })
    }
    #[inline(always)]
    unsafe fn splat16(x: u16) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_set1_epi16(x as i16) })
    }
    #[inline(always)]
    unsafe fn splat32(x: u32) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_set1_epi32(x as i32) })
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_and_si128(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_or_si128(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_xor_si128(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn max8(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_max_epu8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn subs8(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_subs_epu8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn gt8(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_cmpgt_epi8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: SSE4.1 register operation.
        unsafe { _mm_testz_si128(self.0, self.0) == 0 }
    }
    #[inline(always)]
    unsafe fn any_high(self) -> bool {
        // SAFETY: SSE2 register operation.
        unsafe { _mm_movemask_epi8(self.0) != 0 }
    }
    #[inline(always)]
    unsafe fn high_bits(self) -> u64 {
        // SAFETY: SSE2 register operation; the mask has 16 meaningful bits.
        unsafe { u64::from(_mm_movemask_epi8(self.0) as u16) }
    }
    #[inline(always)]
    unsafe fn shuffle(self, idx: Self) -> Self {
        // SAFETY: SSSE3 register operation.
        Avx2Lanes(unsafe { _mm_shuffle_epi8(self.0, idx.0) })
    }
    #[inline(always)]
    unsafe fn shl16<const N: i32>(self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_slli_epi16::<N>(self.0) })
    }
    #[inline(always)]
    unsafe fn shr16<const N: i32>(self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_srli_epi16::<N>(self.0) })
    }
    #[inline(always)]
    unsafe fn eq16(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_cmpeq_epi16(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn shl32<const N: i32>(self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_slli_epi32::<N>(self.0) })
    }
    #[inline(always)]
    unsafe fn shr32<const N: i32>(self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_srli_epi32::<N>(self.0) })
    }
    #[inline(always)]
    unsafe fn sub32(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_sub_epi32(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn gt32(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Avx2Lanes(unsafe { _mm_cmpgt_epi32(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn high_bits32(self) -> usize {
        // SAFETY: SSE register operations (a cast is free).
        unsafe { _mm_movemask_ps(_mm_castsi128_ps(self.0)) as usize }
    }
    #[inline(always)]
    unsafe fn pack32(self) -> Self {
        // SAFETY: SSE4.1 register operation.
        Avx2Lanes(unsafe { _mm_packus_epi32(self.0, self.0) })
    }
    #[inline(always)]
    unsafe fn select(self, a: Self, b: Self) -> Self {
        // SAFETY: SSE4.1 register operation.
        Avx2Lanes(unsafe { _mm_blendv_epi8(a.0, b.0, self.0) })
    }

    #[inline(always)]
    unsafe fn store_widened(self, q: *mut u16) {
        // SAFETY: AVX2 register operation; 32 writable bytes at `q` (the caller's contract).
        unsafe { _mm256_storeu_si256(q.cast(), _mm256_cvtepu8_epi16(self.0)) }
    }

    #[inline(always)]
    unsafe fn ascii64(p: *const u8) -> Option<[Self; 4]> {
        // SAFETY: AVX2 register operations; 64 readable bytes at `p` (the caller's contract).
        unsafe {
            let (a, b) = (
                _mm256_loadu_si256(p.cast()),
                _mm256_loadu_si256(p.add(32).cast()),
            );
            if _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0 {
                return None;
            }
            Some([
                Avx2Lanes(_mm256_castsi256_si128(a)),
                Avx2Lanes(_mm256_extracti128_si256::<1>(a)),
                Avx2Lanes(_mm256_castsi256_si128(b)),
                Avx2Lanes(_mm256_extracti128_si256::<1>(b)),
            ])
        }
    }

    #[inline(always)]
    unsafe fn below_e0(p: *const u8) -> bool {
        // SAFETY: AVX2 register operations; 64 readable bytes at `p` (the caller's contract).
        unsafe {
            let (a, b) = (
                _mm256_loadu_si256(p.cast()),
                _mm256_loadu_si256(p.add(32).cast()),
            );
            let high = _mm256_subs_epu8(_mm256_max_epu8(a, b), _mm256_set1_epi8(0xDFu8 as i8));
            _mm256_testz_si256(high, high) == 1
        }
    }

    #[inline(always)]
    unsafe fn continuations64(p: *const u8) -> u64 {
        // SAFETY: AVX2 register operations; 64 readable bytes at `p` (the caller's contract).
        unsafe {
            let (a, b) = (
                _mm256_loadu_si256(p.cast()),
                _mm256_loadu_si256(p.add(32).cast()),
            );
            // Continuation bytes are 0x80..=0xBF, below -64 as signed bytes.
            let below = _mm256_set1_epi8(-64);
            let cont_a = _mm256_movemask_epi8(_mm256_cmpgt_epi8(below, a)) as u32;
            let cont_b = _mm256_movemask_epi8(_mm256_cmpgt_epi8(below, b)) as u32;
            u64::from(cont_a) | (u64::from(cont_b) << 32)
        }
    }

    #[inline(always)]
    unsafe fn two_byte_units(cur: Self, next: Self) -> [Self; 2] {
        // SAFETY: AVX2 register operations.
        unsafe {
            let (c, n) = (_mm256_cvtepu8_epi16(cur.0), _mm256_cvtepu8_epi16(next.0));
            let next_cont = _mm256_cmpeq_epi16(
                _mm256_and_si256(n, _mm256_set1_epi16(0xC0)),
                _mm256_set1_epi16(0x80),
            );
            let two = _mm256_or_si256(
                _mm256_and_si256(_mm256_slli_epi16::<6>(c), _mm256_set1_epi16(0x7C0)),
                _mm256_and_si256(n, _mm256_set1_epi16(0x3F)),
            );
            let units = _mm256_blendv_epi8(c, two, next_cont);
            [
                Avx2Lanes(_mm256_castsi256_si128(units)),
                Avx2Lanes(_mm256_extracti128_si256::<1>(units)),
            ]
        }
    }

    #[inline(always)]
    unsafe fn three_byte_8(p: *const u8, q: *mut u16) {
        // SAFETY: AVX2 register operations; 28 readable bytes at `p` and 16 writable units at
        // `q` (the caller's contract), of which 8 are written.
        unsafe {
            // Bytes 0-11 and 12-23 in the two halves.
            let (lo, hi) = (_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(12).cast()));
            let sh = _mm256_setr_epi8(
                2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1, //
                2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1,
            );
            let perm = _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), sh);
            let ascii = _mm256_and_si256(perm, _mm256_set1_epi32(0x7F));
            let middle = _mm256_srli_epi32::<2>(_mm256_and_si256(perm, _mm256_set1_epi32(0x3F00)));
            let high = _mm256_srli_epi32::<4>(_mm256_and_si256(perm, _mm256_set1_epi32(0x0F_0000)));
            let cp = _mm256_or_si256(_mm256_or_si256(ascii, middle), high);
            let packed = _mm256_permute4x64_epi64::<0b1000>(_mm256_packus_epi32(cp, cp));
            _mm_storeu_si128(q.cast(), _mm256_castsi256_si128(packed));
        }
    }
}

token_fns! { token::Avx2, "avx2":
    /// Transcodes a prefix of valid UTF-8 `src` into `dst` (see `utf16::transcode_valid`):
    /// (bytes read, units written).
    fn transcode_valid(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
        // SAFETY: AVX2 is enabled (the function's target features); `dst` is writable for its
        // length.
        unsafe { utf16::transcode_valid::<Avx2Lanes>(src, dst.as_mut_ptr(), dst.len()) }
    }

    /// Widens the ASCII prefix of `src` (at most `dst.len()` bytes) to UTF-16 at `dst` (see
    /// `utf16::widen_ascii`); returns the bytes widened.
    fn widen_ascii(src: &[u8], dst: &mut [u16]) -> usize {
        let src = &src[..src.len().min(dst.len())];
        // SAFETY: AVX2 is enabled (the function's target features); `dst` has room for
        // `src.len()` units (`src` was cut to its length), which is all it may write.
        unsafe { utf16::widen_ascii::<Avx2Lanes>(src, dst.as_mut_ptr()) }
    }

    /// Appends to `out` the units of `transcode_valid` over `src` (see
    /// `utf16::extend_valid`); returns the bytes converted.
    #[cfg(feature = "alloc")]
    fn extend_valid(src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
        // SAFETY: AVX2 is enabled (the function's target features).
        unsafe { utf16::extend_valid::<Avx2Lanes>(src, out) }
    }

    /// Appends to `out` the units of `widen_ascii` over `src` (see `utf16::extend_ascii`);
    /// returns the bytes widened.
    #[cfg(feature = "alloc")]
    fn extend_ascii(src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
        // SAFETY: AVX2 is enabled (the function's target features).
        unsafe { utf16::extend_ascii::<Avx2Lanes>(src, out) }
    }
}
