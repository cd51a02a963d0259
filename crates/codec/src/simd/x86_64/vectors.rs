//! SSE4.2, AVX2 and AVX-512BW primitives for the generic algorithm, and their entry points.
//!
//! Each entry point is an `unsafe fn` with `#[target_feature]`, reached only through a method
//! of the token of its instruction set (at the end).

use core::arch::x86_64::*;

use crate::scalar::TextCounts;
use crate::simd::counting;
use crate::simd::generic::{self, Vector};
use crate::simd::short::Short16;
use crate::simd::token;

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

/// The SSE4.2 counting kernel.
#[target_feature(enable = "sse4.2,popcnt")]
fn count_valid_sse42(bytes: &[u8], acc: &mut TextCounts) {
    // SAFETY: SSE4.2 (and POPCNT, which every SSE4.2 CPU has) is present (this function's
    // contract).
    unsafe { counting::count_valid::<Sse>(bytes, acc) }
}

/// The AVX2 counting kernel.
#[target_feature(enable = "avx2,popcnt")]
fn count_valid_avx2(bytes: &[u8], acc: &mut TextCounts) {
    // SAFETY: AVX2 (and POPCNT, which every AVX2 CPU has) is present (this function's
    // contract).
    unsafe { counting::count_valid::<Avx2>(bytes, acc) }
}

/// The AVX-512 counting kernel.
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
fn count_valid_avx512(bytes: &[u8], acc: &mut TextCounts) {
    // SAFETY: AVX-512F/BW (and POPCNT, which every such CPU has) are present (this function's
    // contract).
    unsafe { counting::count_valid::<Avx512>(bytes, acc) }
}

/// The SSE4.2 dense scanner.
#[target_feature(enable = "sse4.2")]
fn dense_sse42(block: &[u8; 64]) -> generic::DenseMasks {
    // SAFETY: SSE4.2 is present (this function's target features); `block` has 64 readable bytes.
    unsafe { generic::dense::<Sse>(block.as_ptr()) }
}

/// The AVX2 dense scanner.
#[target_feature(enable = "avx2")]
fn dense_avx2(block: &[u8; 64]) -> generic::DenseMasks {
    // SAFETY: AVX2 is present (this function's target features); `block` has 64 readable bytes.
    unsafe { generic::dense::<Avx2>(block.as_ptr()) }
}

/// The AVX-512 dense scanner.
#[target_feature(enable = "avx512f,avx512bw")]
fn dense_avx512(block: &[u8; 64]) -> generic::DenseMasks {
    // SAFETY: AVX-512F and AVX-512BW are present (this function's target features); `block` has 64
    // readable bytes.
    unsafe { generic::dense::<Avx512>(block.as_ptr()) }
}

/// The dense scanner's windows with SSE4.2, counted (see [`counting::count_windows`]).
#[target_feature(enable = "sse4.2,popcnt")]
fn count_windows_sse42(bytes: &[u8], o: usize, c: &mut counting::WindowCounts) -> usize {
    // SAFETY: SSE4.2 (and POPCNT, which every SSE4.2 CPU has) is present (this function's target features).
    unsafe { counting::count_windows::<Sse>(bytes, o, c) }
}

/// The dense scanner's windows with AVX2, counted (see [`counting::count_windows`]).
#[target_feature(enable = "avx2,popcnt")]
fn count_windows_avx2(bytes: &[u8], o: usize, c: &mut counting::WindowCounts) -> usize {
    // SAFETY: AVX2 (and POPCNT, which every AVX2 CPU has) is present (this function's target features).
    unsafe { counting::count_windows::<Avx2>(bytes, o, c) }
}

/// The dense scanner's windows with AVX-512F and AVX-512BW, counted (see
/// [`counting::count_windows`]).
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
fn count_windows_avx512(bytes: &[u8], o: usize, c: &mut counting::WindowCounts) -> usize {
    // SAFETY: AVX-512F/BW (and POPCNT, which every such CPU has) are present (this function's target features).
    unsafe { counting::count_windows::<Avx512>(bytes, o, c) }
}

impl token::Sse42 {
    /// The SSE4.2 counting kernel.
    #[inline(always)]
    pub(super) fn count_valid(self, bytes: &[u8], acc: &mut TextCounts) {
        // SAFETY: `self` proves SSE4.2 and POPCNT, all `count_valid_sse42` needs.
        unsafe { count_valid_sse42(bytes, acc) }
    }

    /// The SSE4.2 dense scanner.
    #[inline(always)]
    pub(super) fn dense(self, block: &[u8; 64]) -> generic::DenseMasks {
        // SAFETY: `self` proves SSE4.2, all `dense_sse42` needs.
        unsafe { dense_sse42(block) }
    }

    /// The dense scanner's windows with SSE4.2, counted.
    #[inline(always)]
    pub(super) fn count_windows(
        self,
        bytes: &[u8],
        o: usize,
        c: &mut counting::WindowCounts,
    ) -> usize {
        // SAFETY: `self` proves SSE4.2 and POPCNT, all `count_windows_sse42` needs.
        unsafe { count_windows_sse42(bytes, o, c) }
    }
}

impl token::Avx2 {
    /// The AVX2 counting kernel.
    #[inline(always)]
    pub(super) fn count_valid(self, bytes: &[u8], acc: &mut TextCounts) {
        // SAFETY: `self` proves AVX2 and POPCNT, all `count_valid_avx2` needs.
        unsafe { count_valid_avx2(bytes, acc) }
    }

    /// The AVX2 dense scanner.
    #[inline(always)]
    pub(super) fn dense(self, block: &[u8; 64]) -> generic::DenseMasks {
        // SAFETY: `self` proves AVX2, all `dense_avx2` needs.
        unsafe { dense_avx2(block) }
    }

    /// The dense scanner's windows with AVX2, counted.
    #[inline(always)]
    pub(super) fn count_windows(
        self,
        bytes: &[u8],
        o: usize,
        c: &mut counting::WindowCounts,
    ) -> usize {
        // SAFETY: `self` proves AVX2 and POPCNT, all `count_windows_avx2` needs.
        unsafe { count_windows_avx2(bytes, o, c) }
    }
}

impl token::Avx512 {
    /// The AVX-512 counting kernel.
    #[inline(always)]
    pub(super) fn count_valid(self, bytes: &[u8], acc: &mut TextCounts) {
        // SAFETY: `self` proves AVX-512F, AVX-512BW and POPCNT, all `count_valid_avx512`
        // needs.
        unsafe { count_valid_avx512(bytes, acc) }
    }

    /// The AVX-512 dense scanner.
    #[inline(always)]
    pub(super) fn dense(self, block: &[u8; 64]) -> generic::DenseMasks {
        // SAFETY: `self` proves AVX-512F and AVX-512BW, all `dense_avx512` needs.
        unsafe { dense_avx512(block) }
    }

    /// The dense scanner's windows with AVX-512F and AVX-512BW, counted.
    #[inline(always)]
    pub(super) fn count_windows(
        self,
        bytes: &[u8],
        o: usize,
        c: &mut counting::WindowCounts,
    ) -> usize {
        // SAFETY: `self` proves AVX-512F, AVX-512BW and POPCNT, all `count_windows_avx512`
        // needs.
        unsafe { count_windows_avx512(bytes, o, c) }
    }
}
