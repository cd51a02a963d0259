//! The AVX2 vector type: the primitives of the generic algorithms (`Vector`) in 256-bit
//! registers.

use core::arch::x86_64::*;

use crate::simd::generic::Vector;

/// 32 bytes in an AVX2 register.
#[derive(Clone, Copy)]
pub(crate) struct Avx2(__m256i);

// Every method is only called from the AVX2 entry points, which run only on CPUs with AVX2.
impl Vector for Avx2 {
    const LANES: usize = 32;
    const PREV_LOADS: bool = true;
    const FAR_PREV_LOADS: bool = true;
    const QUICK_COUNT: bool = false;
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: AVX2 checked by the entry point's caller.
        Avx2(unsafe { _mm256_set1_epi8(b as i8) })
    }
    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> Self {
        // SAFETY: `t` has 16 readable bytes; AVX2 checked by the entry point's caller.
        Avx2(unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast())) })
    }
    #[inline(always)]
    unsafe fn load(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 32 readable bytes at `ptr`.
        Avx2(unsafe { _mm256_loadu_si256(ptr.cast()) })
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: AVX2 register operation.
        Avx2(unsafe { _mm256_and_si256(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        // SAFETY: AVX2 register operation.
        Avx2(unsafe { _mm256_or_si256(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: AVX2 register operation.
        Avx2(unsafe { _mm256_xor_si256(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn wrapping_add(self, o: Self) -> Self {
        // SAFETY: AVX2 register operation.
        Avx2(unsafe { _mm256_add_epi8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: AVX2 register operations.
        Avx2(unsafe { _mm256_and_si256(_mm256_srli_epi16(self.0, 4), _mm256_set1_epi8(0x0F)) })
    }
    #[inline(always)]
    unsafe fn low_nibbles(self) -> Self {
        // SAFETY: AVX2 register operations.
        Avx2(unsafe { _mm256_and_si256(self.0, _mm256_set1_epi8(0x0F)) })
    }
    #[inline(always)]
    unsafe fn lookup(self, table: Self) -> Self {
        // SAFETY: AVX2 register operation (per-128-bit-lane shuffle; tables are broadcast).
        Avx2(unsafe { _mm256_shuffle_epi8(table.0, self.0) })
    }
    #[inline(always)]
    unsafe fn lookup_low(self, table: Self) -> Self {
        // SAFETY: `lookup`'s contract is this method's (the ISA); the shuffle itself reads
        // the low nibble and zeroes a byte whose high bit is set.
        unsafe { self.lookup(table) }
    }
    #[inline(always)]
    unsafe fn saturating_sub(self, o: Self) -> Self {
        // SAFETY: AVX2 register operation.
        Avx2(unsafe { _mm256_subs_epu8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn signed_gt(self, o: Self) -> Self {
        // SAFETY: AVX2 register operation.
        Avx2(unsafe { _mm256_cmpgt_epi8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn prev1(self, prev: Self) -> Self {
        // SAFETY: AVX2 register operations. The permute builds [prev.hi, self.lo] so that
        // the per-lane alignr sees the 16 bytes before each lane.
        Avx2(unsafe {
            _mm256_alignr_epi8::<15>(self.0, _mm256_permute2x128_si256::<0x21>(prev.0, self.0))
        })
    }
    #[inline(always)]
    unsafe fn prev2(self, prev: Self) -> Self {
        // SAFETY: AVX2 register operations (the permute and the per-lane alignr, as in
        // `prev1`).
        Avx2(unsafe {
            _mm256_alignr_epi8::<14>(self.0, _mm256_permute2x128_si256::<0x21>(prev.0, self.0))
        })
    }
    #[inline(always)]
    unsafe fn prev3(self, prev: Self) -> Self {
        // SAFETY: AVX2 register operations (the permute and the per-lane alignr, as in
        // `prev1`).
        Avx2(unsafe {
            _mm256_alignr_epi8::<13>(self.0, _mm256_permute2x128_si256::<0x21>(prev.0, self.0))
        })
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: AVX register operation.
        unsafe { _mm256_testz_si256(self.0, self.0) == 0 }
    }
    #[inline(always)]
    unsafe fn any_high_bit(self) -> bool {
        // SAFETY: AVX2 register operation.
        unsafe { _mm256_movemask_epi8(self.0) != 0 }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> Self {
        // SAFETY: AVX2 register operation.
        Avx2(unsafe { _mm256_cmpeq_epi8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn high_bit_mask(self) -> u64 {
        // SAFETY: AVX2 register operation; the mask has 32 meaningful bits.
        unsafe { u64::from(_mm256_movemask_epi8(self.0) as u32) }
    }
    #[inline(always)]
    unsafe fn prefetch(ptr: *const u8) {
        // SAFETY: SSE; a prefetch is a hint and does not fault on any address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr.cast()) }
    }
}
