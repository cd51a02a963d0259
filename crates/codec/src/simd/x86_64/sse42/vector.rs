//! The SSE4.2 vector type: the primitives of the generic algorithms (`Vector`) and of the
//! short path (`Short16`) in 128-bit registers. The AVX2 and AVX-512 kernels take it for
//! their short path, in VEX encodings.

use core::arch::x86_64::*;

use crate::simd::generic::Vector;
use crate::simd::short::Short16;

/// 16 bytes in an SSE register.
#[derive(Clone, Copy)]
pub(crate) struct Sse(pub(crate) __m128i);

// SAFETY (whole impl): every method is only called from the SSE4.2 entry points, which run
// only on CPUs with SSE4.2 (and so SSSE3/SSE4.1), and from the other x86-64 kernels' entry
// points (the short path of `short.rs`), whose ISAs imply both; loads are the caller's
// contract.
impl Vector for Sse {
    const LANES: usize = 16;
    const PREV_LOADS: bool = true;
    const FAR_PREV_LOADS: bool = true;
    const QUICK_COUNT: bool = false;
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: SSE2 is baseline on x86_64.
        Sse(unsafe { _mm_set1_epi8(b as i8) })
    }
    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> Self {
        // SAFETY: `t` has 16 readable bytes.
        Sse(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
    }
    #[inline(always)]
    unsafe fn load(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at `ptr`.
        Sse(unsafe { _mm_loadu_si128(ptr.cast()) })
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Sse(unsafe { _mm_and_si128(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Sse(unsafe { _mm_or_si128(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Sse(unsafe { _mm_xor_si128(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn wrapping_add(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Sse(unsafe { _mm_add_epi8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: SSE2 register operations.
        Sse(unsafe { _mm_and_si128(_mm_srli_epi16(self.0, 4), _mm_set1_epi8(0x0F)) })
    }
    #[inline(always)]
    unsafe fn low_nibbles(self) -> Self {
        // SAFETY: SSE2 register operations.
        Sse(unsafe { _mm_and_si128(self.0, _mm_set1_epi8(0x0F)) })
    }
    #[inline(always)]
    unsafe fn lookup(self, table: Self) -> Self {
        // SAFETY: SSSE3, implied by the SSE4.2 check of the entry point.
        Sse(unsafe { _mm_shuffle_epi8(table.0, self.0) })
    }
    #[inline(always)]
    unsafe fn lookup_low(self, table: Self) -> Self {
        // SAFETY: `lookup`'s contract is this method's (the ISA); the shuffle itself reads
        // the low nibble and zeroes a byte whose high bit is set.
        unsafe { self.lookup(table) }
    }
    #[inline(always)]
    unsafe fn saturating_sub(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Sse(unsafe { _mm_subs_epu8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn signed_gt(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Sse(unsafe { _mm_cmpgt_epi8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn prev1(self, prev: Self) -> Self {
        // SAFETY: SSSE3, implied by the SSE4.2 check of the entry point.
        Sse(unsafe { _mm_alignr_epi8::<15>(self.0, prev.0) })
    }
    #[inline(always)]
    unsafe fn prev2(self, prev: Self) -> Self {
        // SAFETY: SSSE3, implied by the SSE4.2 check of the entry point.
        Sse(unsafe { _mm_alignr_epi8::<14>(self.0, prev.0) })
    }
    #[inline(always)]
    unsafe fn prev3(self, prev: Self) -> Self {
        // SAFETY: SSSE3, implied by the SSE4.2 check of the entry point.
        Sse(unsafe { _mm_alignr_epi8::<13>(self.0, prev.0) })
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: SSE4.1, implied by the SSE4.2 check of the entry point.
        unsafe { _mm_testz_si128(self.0, self.0) == 0 }
    }
    #[inline(always)]
    unsafe fn any_high_bit(self) -> bool {
        // SAFETY: SSE2 register operation.
        unsafe { _mm_movemask_epi8(self.0) != 0 }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> Self {
        // SAFETY: SSE2 register operation.
        Sse(unsafe { _mm_cmpeq_epi8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn high_bit_mask(self) -> u64 {
        // SAFETY: SSE2 register operation; the mask has 16 meaningful bits.
        unsafe { u64::from(_mm_movemask_epi8(self.0) as u16) }
    }
    #[inline(always)]
    unsafe fn prefetch(ptr: *const u8) {
        // SAFETY: SSE; a prefetch is a hint and does not fault on any address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr.cast()) }
    }
}

// SAFETY (whole impl): as the `Vector` impl.
impl Short16 for Sse {
    #[inline(always)]
    unsafe fn from_word(w: u64) -> Self {
        // SAFETY: SSE2 register operation.
        Sse(unsafe { _mm_cvtsi64_si128(w as i64) })
    }
    #[inline(always)]
    unsafe fn shuffle(self, idx: Self) -> Self {
        // SAFETY: SSSE3, implied by the SSE4.2 check of the entry point.
        Sse(unsafe { _mm_shuffle_epi8(self.0, idx.0) })
    }
}
