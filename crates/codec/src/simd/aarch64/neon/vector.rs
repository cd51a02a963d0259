//! NEON primitives (16 bytes per vector) for the algorithms written over [`Vector`],
//! [`Short16`] and [`Utf16Lanes`].
//!
//! NEON is part of the aarch64 baseline: this module is compiled only where the target has it
//! (`target_feature = "neon"`, true of every aarch64 Linux, macOS and Windows target), so the
//! intrinsics need no run-time check.

use core::arch::aarch64::*;

use crate::simd::generic::Vector;
use crate::simd::short::Short16;
use crate::simd::utf16::Utf16Lanes;

/// 16 bytes in a NEON register.
#[derive(Clone, Copy)]
pub(crate) struct Neon(uint8x16_t);

/// The weight of each lane's bit in [`Vector::high_bit_mask`]: lane `i` of each half is bit
/// `i % 8` of that half's byte.
static BIT_WEIGHTS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

// SAFETY (whole impl): NEON is enabled at compile time for this module (see the module
// doc), so every register operation is available; loads are the caller's contract.
impl Vector for Neon {
    const LANES: usize = 16;
    const PREV_LOADS: bool = false;
    const FAR_PREV_LOADS: bool = false;
    const QUICK_COUNT: bool = false;
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: NEON register operation.
        Neon(unsafe { vdupq_n_u8(b) })
    }
    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> Self {
        // SAFETY: `t` has 16 readable bytes.
        Neon(unsafe { vld1q_u8(t.as_ptr()) })
    }
    #[inline(always)]
    unsafe fn load(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at `ptr`; `vld1q_u8` has no
        // alignment requirement beyond a byte's.
        Neon(unsafe { vld1q_u8(ptr) })
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: NEON register operation.
        Neon(unsafe { vandq_u8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        // SAFETY: NEON register operation.
        Neon(unsafe { vorrq_u8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: NEON register operation.
        Neon(unsafe { veorq_u8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn wrapping_add(self, o: Self) -> Self {
        // SAFETY: NEON register operation.
        Neon(unsafe { vaddq_u8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: NEON register operation (a per-byte shift: no mask needed).
        Neon(unsafe { vshrq_n_u8::<4>(self.0) })
    }
    #[inline(always)]
    unsafe fn low_nibbles(self) -> Self {
        // SAFETY: NEON register operations.
        Neon(unsafe { vandq_u8(self.0, vdupq_n_u8(0x0F)) })
    }
    #[inline(always)]
    unsafe fn lookup(self, table: Self) -> Self {
        // SAFETY: NEON register operation (`tbl`: indices 0..16 pick a byte of `table`).
        Neon(unsafe { vqtbl1q_u8(table.0, self.0) })
    }
    #[inline(always)]
    unsafe fn lookup_low(self, table: Self) -> Self {
        // SAFETY: NEON register operations; the mask leaves indices 0..16, or 0x80.. (which
        // `tbl` answers with 0).
        Neon(unsafe { vqtbl1q_u8(table.0, vandq_u8(self.0, vdupq_n_u8(0x8F))) })
    }
    #[inline(always)]
    unsafe fn saturating_sub(self, o: Self) -> Self {
        // SAFETY: NEON register operation.
        Neon(unsafe { vqsubq_u8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn signed_gt(self, o: Self) -> Self {
        // SAFETY: NEON register operations (reinterpretations are free).
        Neon(unsafe { vcgtq_s8(vreinterpretq_s8_u8(self.0), vreinterpretq_s8_u8(o.0)) })
    }
    #[inline(always)]
    unsafe fn prev1(self, prev: Self) -> Self {
        // SAFETY: NEON register operation: the last byte of `prev`, then the first 15 of `self`.
        Neon(unsafe { vextq_u8::<15>(prev.0, self.0) })
    }
    #[inline(always)]
    unsafe fn prev2(self, prev: Self) -> Self {
        // SAFETY: NEON register operation (enabled at compile time).
        Neon(unsafe { vextq_u8::<14>(prev.0, self.0) })
    }
    #[inline(always)]
    unsafe fn prev3(self, prev: Self) -> Self {
        // SAFETY: NEON register operation (enabled at compile time).
        Neon(unsafe { vextq_u8::<13>(prev.0, self.0) })
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: NEON register operation.
        unsafe { vmaxvq_u8(self.0) != 0 }
    }
    #[inline(always)]
    unsafe fn any_high_bit(self) -> bool {
        // SAFETY: NEON register operation.
        unsafe { vmaxvq_u8(self.0) >= 0x80 }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> Self {
        // SAFETY: NEON register operation.
        Neon(unsafe { vceqq_u8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn high_bit_mask(self) -> u64 {
        // SAFETY: NEON register operations; `BIT_WEIGHTS` has 16 readable bytes. Each lane
        // becomes its weight (0xFF where the high bit is set, by an arithmetic shift, and-ed
        // with the weight), and the weights of each half add up to its byte of the mask.
        unsafe {
            let set = vreinterpretq_u8_s8(vshrq_n_s8::<7>(vreinterpretq_s8_u8(self.0)));
            let bits = vandq_u8(set, vld1q_u8(BIT_WEIGHTS.as_ptr()));
            let lo = vaddv_u8(vget_low_u8(bits));
            let hi = vaddv_u8(vget_high_u8(bits));
            u64::from(lo) | u64::from(hi) << 8
        }
    }
    #[inline(always)]
    unsafe fn prefetch(_ptr: *const u8) {
        // Nothing: the aarch64 cores' hardware prefetchers follow a sequential scan, and
        // simdutf8's NEON kernel issues no prefetch either.
    }
}

// SAFETY (whole impl): as the `Vector` impl.
impl Short16 for Neon {
    #[inline(always)]
    unsafe fn from_word(w: u64) -> Self {
        // SAFETY: NEON register operations.
        Neon(unsafe { vcombine_u8(vcreate_u8(w), vdup_n_u8(0)) })
    }
    #[inline(always)]
    unsafe fn shuffle(self, idx: Self) -> Self {
        // SAFETY: NEON register operation (`tbl`: an index of 16 or more gives 0).
        Neon(unsafe { vqtbl1q_u8(self.0, idx.0) })
    }
}

/// The weight of each 32-bit lane's bit in [`Utf16Lanes::high_bits32`].
static LANE_WEIGHTS: [u32; 4] = [1, 2, 4, 8];

// SAFETY (whole impl): as the `Vector` impl.
impl Utf16Lanes for Neon {
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 16 readable bytes at `p` (the caller's contract).
        Neon(unsafe { vld1q_u8(p) })
    }
    #[inline(always)]
    unsafe fn store(self, q: *mut u16) {
        // SAFETY: 16 writable bytes at `q` (the caller's contract); `vst1q_u8` has no
        // alignment requirement beyond a byte's.
        unsafe { vst1q_u8(q.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn widen_lo(self) -> Self {
        // SAFETY: NEON register operations.
        Neon(unsafe { vreinterpretq_u8_u16(vmovl_u8(vget_low_u8(self.0))) })
    }
    #[inline(always)]
    unsafe fn widen_hi(self) -> Self {
        // SAFETY: NEON register operation.
        Neon(unsafe { vreinterpretq_u8_u16(vmovl_high_u8(self.0)) })
    }
    #[inline(always)]
    unsafe fn splat8(b: u8) -> Self {
        // SAFETY: NEON register operation.
        Neon(unsafe { vdupq_n_u8(b) })
    }
    #[inline(always)]
    unsafe fn splat16(x: u16) -> Self {
        // SAFETY: NEON register operation.
        Neon(unsafe { vreinterpretq_u8_u16(vdupq_n_u16(x)) })
    }
    #[inline(always)]
    unsafe fn splat32(x: u32) -> Self {
        // SAFETY: NEON register operation.
        Neon(unsafe { vreinterpretq_u8_u32(vdupq_n_u32(x)) })
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: `Vector::and` needs only NEON, enabled at compile time.
        unsafe { Vector::and(self, o) }
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        // SAFETY: `Vector::or` needs only NEON, enabled at compile time.
        unsafe { Vector::or(self, o) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: `Vector::xor` needs only NEON, enabled at compile time.
        unsafe { Vector::xor(self, o) }
    }
    #[inline(always)]
    unsafe fn max8(self, o: Self) -> Self {
        // SAFETY: NEON register operation.
        Neon(unsafe { vmaxq_u8(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn subs8(self, o: Self) -> Self {
        // SAFETY: `Vector::saturating_sub` needs only NEON, enabled at compile time.
        unsafe { self.saturating_sub(o) }
    }
    #[inline(always)]
    unsafe fn gt8(self, o: Self) -> Self {
        // SAFETY: `Vector::signed_gt` needs only NEON, enabled at compile time.
        unsafe { self.signed_gt(o) }
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: `Vector::any` needs only NEON, enabled at compile time.
        unsafe { Vector::any(self) }
    }
    #[inline(always)]
    unsafe fn any_high(self) -> bool {
        // SAFETY: `Vector::any_high_bit` needs only NEON, enabled at compile time.
        unsafe { self.any_high_bit() }
    }
    #[inline(always)]
    unsafe fn high_bits(self) -> u64 {
        // SAFETY: `Vector::high_bit_mask` needs only NEON, enabled at compile time.
        unsafe { self.high_bit_mask() }
    }
    #[inline(always)]
    unsafe fn shuffle(self, idx: Self) -> Self {
        // SAFETY: `Short16::shuffle` needs only NEON, enabled at compile time.
        unsafe { Short16::shuffle(self, idx) }
    }
    #[inline(always)]
    unsafe fn shl16<const N: i32>(self) -> Self {
        // SAFETY: NEON register operations.
        Neon(unsafe { vreinterpretq_u8_u16(vshlq_n_u16::<N>(vreinterpretq_u16_u8(self.0))) })
    }
    #[inline(always)]
    unsafe fn shr16<const N: i32>(self) -> Self {
        // SAFETY: NEON register operations.
        Neon(unsafe { vreinterpretq_u8_u16(vshrq_n_u16::<N>(vreinterpretq_u16_u8(self.0))) })
    }
    #[inline(always)]
    unsafe fn eq16(self, o: Self) -> Self {
        // SAFETY: NEON register operations.
        Neon(unsafe {
            vreinterpretq_u8_u16(vceqq_u16(
                vreinterpretq_u16_u8(self.0),
                vreinterpretq_u16_u8(o.0),
            ))
        })
    }
    #[inline(always)]
    unsafe fn shl32<const N: i32>(self) -> Self {
        // SAFETY: NEON register operations.
        Neon(unsafe { vreinterpretq_u8_u32(vshlq_n_u32::<N>(vreinterpretq_u32_u8(self.0))) })
    }
    #[inline(always)]
    unsafe fn shr32<const N: i32>(self) -> Self {
        // SAFETY: NEON register operations.
        Neon(unsafe { vreinterpretq_u8_u32(vshrq_n_u32::<N>(vreinterpretq_u32_u8(self.0))) })
    }
    #[inline(always)]
    unsafe fn sub32(self, o: Self) -> Self {
        // SAFETY: NEON register operations.
        Neon(unsafe {
            vreinterpretq_u8_u32(vsubq_u32(
                vreinterpretq_u32_u8(self.0),
                vreinterpretq_u32_u8(o.0),
            ))
        })
    }
    #[inline(always)]
    unsafe fn gt32(self, o: Self) -> Self {
        // SAFETY: NEON register operations.
        Neon(unsafe {
            vreinterpretq_u8_u32(vcgtq_s32(
                vreinterpretq_s32_u8(self.0),
                vreinterpretq_s32_u8(o.0),
            ))
        })
    }
    #[inline(always)]
    unsafe fn high_bits32(self) -> usize {
        // SAFETY: NEON register operations; `LANE_WEIGHTS` has 16 readable bytes. Each lane's
        // top bit moved to bit 0, times its weight, added up.
        unsafe {
            let top = vshrq_n_u32::<31>(vreinterpretq_u32_u8(self.0));
            vaddvq_u32(vmulq_u32(top, vld1q_u32(LANE_WEIGHTS.as_ptr()))) as usize
        }
    }
    #[inline(always)]
    unsafe fn pack32(self) -> Self {
        // SAFETY: NEON register operations: signed 32-bit lanes narrowed with unsigned
        // saturation, as `packusdw`.
        unsafe {
            let n = vqmovun_s32(vreinterpretq_s32_u8(self.0));
            Neon(vreinterpretq_u8_u16(vcombine_u16(n, n)))
        }
    }
    #[inline(always)]
    unsafe fn select(self, a: Self, b: Self) -> Self {
        // SAFETY: NEON register operation (a bitwise select: the mask is whole lanes).
        Neon(unsafe { vbslq_u8(self.0, b.0, a.0) })
    }
}
