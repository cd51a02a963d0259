//! `#[target_feature]` entry points of word counting's vector pass
//! ([`words::word_blocks`]), beside `x86_64.rs` whose vector types they use.

use super::words::{self, WordState};
use super::x86_64::{Avx2, Avx512, Sse};

/// Word counting's vector pass with SSE4.2 (see [`words::word_blocks`]).
/// # Safety
/// The CPU must support SSE4.2 and POPCNT; the contract of [`words::word_blocks`].
#[target_feature(enable = "sse4.2,popcnt")]
pub(crate) unsafe fn word_blocks_sse42(
    ptr: *const u8,
    st: &mut WordState,
    before: &mut [WordState],
    pending: &mut [u32],
) -> usize {
    // SAFETY: SSE4.2 is present and the ranges are valid (this function's contract).
    unsafe { words::word_blocks::<Sse>(ptr, st, before, pending) }
}

/// Word counting's vector pass with AVX2 (see [`words::word_blocks`]).
/// # Safety
/// The CPU must support AVX2 and POPCNT; the contract of [`words::word_blocks`].
#[target_feature(enable = "avx2,popcnt")]
pub(crate) unsafe fn word_blocks_avx2(
    ptr: *const u8,
    st: &mut WordState,
    before: &mut [WordState],
    pending: &mut [u32],
) -> usize {
    // SAFETY: AVX2 is present and the ranges are valid (this function's contract).
    unsafe { words::word_blocks::<Avx2>(ptr, st, before, pending) }
}

/// Word counting's vector pass with AVX-512F and AVX-512BW (see [`words::word_blocks`]).
/// # Safety
/// The CPU must support AVX-512F, AVX-512BW and POPCNT; the contract of
/// [`words::word_blocks`].
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
pub(crate) unsafe fn word_blocks_avx512(
    ptr: *const u8,
    st: &mut WordState,
    before: &mut [WordState],
    pending: &mut [u32],
) -> usize {
    // SAFETY: AVX-512F/BW are present and the ranges are valid (this function's contract).
    unsafe { words::word_blocks::<Avx512>(ptr, st, before, pending) }
}
