//! The AVX-512 vector type: the primitives of the generic algorithms (`Vector`) in 512-bit
//! registers, with AVX-512F and AVX-512BW.

use core::arch::x86_64::*;

use crate::simd::generic::Vector;

/// 64 bytes in an AVX-512 register.
#[derive(Clone, Copy)]
pub(crate) struct Avx512(__m512i);

// Every method is only called from the AVX-512 entry points, which run only on CPUs with
// AVX-512F and AVX-512BW.
impl Vector for Avx512 {
    const LANES: usize = 64;
    const PREV_LOADS: bool = true;
    const FAR_PREV_LOADS: bool = false;
    const QUICK_COUNT: bool = true;
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: AVX-512F checked by the entry point's caller.
        Avx512(unsafe { _mm512_set1_epi8(b as i8) })
    }
    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> Self {
        // SAFETY: `t` has 16 readable bytes; AVX-512F checked by the entry point's caller.
        Avx512(unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(t.as_ptr().cast())) })
    }
    #[inline(always)]
    unsafe fn load(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 64 readable bytes at `ptr`.
        Avx512(unsafe { _mm512_loadu_si512(ptr.cast()) })
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: AVX-512F register operation.
        Avx512(unsafe { _mm512_and_si512(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        // SAFETY: AVX-512F register operation.
        Avx512(unsafe { _mm512_or_si512(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: AVX-512F register operation.
        Avx512(unsafe { _mm512_xor_si512(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn wrapping_add(self, o: Self) -> Self {
        // SAFETY: AVX-512BW register operation.
        Avx512(unsafe { _mm512_add_epi8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: AVX-512BW/F register operations.
        Avx512(unsafe { _mm512_and_si512(_mm512_srli_epi16::<4>(self.0), _mm512_set1_epi8(0x0F)) })
    }
    #[inline(always)]
    unsafe fn low_nibbles(self) -> Self {
        // SAFETY: AVX-512F register operations.
        Avx512(unsafe { _mm512_and_si512(self.0, _mm512_set1_epi8(0x0F)) })
    }
    #[inline(always)]
    unsafe fn lookup(self, table: Self) -> Self {
        // SAFETY: AVX-512BW register operation (per-128-bit-lane shuffle; tables are
        // broadcast).
        Avx512(unsafe { _mm512_shuffle_epi8(table.0, self.0) })
    }
    #[inline(always)]
    unsafe fn lookup_low(self, table: Self) -> Self {
        // SAFETY: `lookup`'s contract is this method's (the ISA); the shuffle itself reads
        // the low nibble and zeroes a byte whose high bit is set.
        unsafe { self.lookup(table) }
    }
    #[inline(always)]
    unsafe fn saturating_sub(self, o: Self) -> Self {
        // SAFETY: AVX-512BW register operation.
        Avx512(unsafe { _mm512_subs_epu8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn signed_gt(self, o: Self) -> Self {
        // SAFETY: AVX-512BW register operations.
        Avx512(unsafe { _mm512_movm_epi8(_mm512_cmpgt_epi8_mask(self.0, o.0)) })
    }
    #[inline(always)]
    unsafe fn prev1(self, prev: Self) -> Self {
        // SAFETY: AVX-512F/BW register operations; see `lanes_before`.
        Avx512(unsafe { _mm512_alignr_epi8::<15>(self.0, lanes_before(self.0, prev.0)) })
    }
    #[inline(always)]
    unsafe fn prev2(self, prev: Self) -> Self {
        // SAFETY: AVX-512F/BW register operations; see `lanes_before`.
        Avx512(unsafe { _mm512_alignr_epi8::<14>(self.0, lanes_before(self.0, prev.0)) })
    }
    #[inline(always)]
    unsafe fn prev3(self, prev: Self) -> Self {
        // SAFETY: AVX-512F/BW register operations; see `lanes_before`.
        Avx512(unsafe { _mm512_alignr_epi8::<13>(self.0, lanes_before(self.0, prev.0)) })
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: AVX-512BW register operation.
        unsafe { _mm512_test_epi8_mask(self.0, self.0) != 0 }
    }
    #[inline(always)]
    unsafe fn any_high_bit(self) -> bool {
        // SAFETY: AVX-512BW register operation.
        unsafe { _mm512_movepi8_mask(self.0) != 0 }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> Self {
        // SAFETY: AVX-512BW register operations.
        Avx512(unsafe { _mm512_movm_epi8(_mm512_cmpeq_epi8_mask(self.0, o.0)) })
    }
    #[inline(always)]
    unsafe fn high_bit_mask(self) -> u64 {
        // SAFETY: AVX-512BW register operation.
        unsafe { _mm512_movepi8_mask(self.0) }
    }
    #[inline(always)]
    unsafe fn prefetch(ptr: *const u8) {
        // SAFETY: SSE; a prefetch is a hint and does not fault on any address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr.cast()) }
    }
}

/// The 128-bit lanes before each lane of `input`: `[prev.3, input.0, input.1, input.2]`, so
/// that a per-lane `alignr` with it shifts bytes across lanes and from `prev`.
///
/// # Safety
///
/// Only on a CPU with AVX-512F.
#[inline(always)]
unsafe fn lanes_before(input: __m512i, prev: __m512i) -> __m512i {
    // SAFETY: AVX-512F register operations. Indices 0..8 pick 64-bit words of `prev`, 8..16
    // of `input`.
    unsafe {
        let idx = _mm512_setr_epi64(6, 7, 8, 9, 10, 11, 12, 13);
        _mm512_permutex2var_epi64(prev, idx, input)
    }
}
