//! `#[target_feature]` entry points of word counting's byte classes
//! ([`counting::word_masks`]), beside `x86_64.rs` whose vector types they use.

use super::counting;
use super::x86_64::{Avx2, Avx512, Sse};

/// Word counting's byte classes with SSE4.2 (see [`counting::word_masks`]).
/// # Safety
/// The CPU must support SSE4.2; `ptr .. ptr + 64 * out.len() + 2` must be readable.
#[target_feature(enable = "sse4.2")]
pub(crate) unsafe fn word_masks_sse42(ptr: *const u8, out: &mut [counting::WordMasks]) {
    // SAFETY: SSE4.2 is present and the range is readable (this function's contract).
    unsafe { counting::word_masks::<Sse>(ptr, out) }
}

/// Word counting's byte classes with AVX2 (see [`counting::word_masks`]).
/// # Safety
/// The CPU must support AVX2; `ptr .. ptr + 64 * out.len() + 2` must be readable.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn word_masks_avx2(ptr: *const u8, out: &mut [counting::WordMasks]) {
    // SAFETY: AVX2 is present and the range is readable (this function's contract).
    unsafe { counting::word_masks::<Avx2>(ptr, out) }
}

/// Word counting's byte classes with AVX-512F and AVX-512BW (see [`counting::word_masks`]).
/// # Safety
/// The CPU must support AVX-512F and AVX-512BW; `ptr .. ptr + 64 * out.len() + 2` must be
/// readable.
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn word_masks_avx512(ptr: *const u8, out: &mut [counting::WordMasks]) {
    // SAFETY: AVX-512F/BW are present and the range is readable (this function's contract).
    unsafe { counting::word_masks::<Avx512>(ptr, out) }
}
