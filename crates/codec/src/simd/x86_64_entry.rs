//! The x86-64 kernels' validation entry points, each an `unsafe fn` with `#[target_feature]`
//! that `simd/mod.rs` calls only after the matching run-time (or compile-time) check: under
//! 64 bytes the 16-byte path of `x86_64_short.rs`, from 64 bytes the block loop of `lean.rs`
//! (per block for `valid_up_to`, for `is_valid` with the errors of all blocks or-ed and
//! tested once at the end; AVX-512's in 256-bit vectors under [`AVX512_MIN`] bytes), and out
//! of line and cold the whole kernel from a unit boundary.

use super::x86_64::{Avx2, Avx512, Sse};
use super::{lean, x86_64_short};

/// The SSE4.2 kernel: the length of the longest valid prefix of `bytes`.
///
/// # Safety
///
/// The CPU must support SSE4.2.
#[target_feature(enable = "sse4.2")]
pub(crate) unsafe fn valid_up_to_sse42(bytes: &[u8]) -> usize {
    if bytes.len() < 64 {
        // SAFETY: SSE4.2 implies SSSE3 and SSE4.1 (this function's contract).
        return unsafe { x86_64_short::valid_up_to_short(bytes) };
    }
    // SAFETY: SSE4.2 is present (this function's contract), for the block loop and for
    // `finish_sse42`, which has the same contract (and gets `o <= bytes.len()`).
    unsafe { lean::valid_up_to_lean::<Sse, false>(bytes, |b, o| finish_sse42(b, o)) }
}

/// The SSE4.2 kernel for `is_valid`: the length of the longest valid prefix of `bytes`, with
/// the blocks' errors tested once at the end (invalid input costs a second pass, from
/// [`finish_sse42`]).
///
/// # Safety
///
/// The CPU must support SSE4.2.
#[target_feature(enable = "sse4.2")]
pub(crate) unsafe fn is_valid_sse42(bytes: &[u8]) -> usize {
    if bytes.len() < 64 {
        // SAFETY: SSE4.2 implies SSSE3 and SSE4.1 (this function's contract).
        return unsafe { x86_64_short::valid_up_to_short(bytes) };
    }
    // SAFETY: SSE4.2 is present (this function's contract), for the block loop and for
    // `finish_sse42`, which has the same contract (and gets `o <= bytes.len()`).
    unsafe { lean::valid_up_to_lean::<Sse, true>(bytes, |b, o| finish_sse42(b, o)) }
}

/// The whole SSE4.2 validation kernel from a unit boundary at most 3 bytes before `o` (see
/// [`lean::finish`]), out of line and cold: the entry points' error and odd-tail paths.
///
/// # Safety
///
/// The CPU must support SSE4.2; `o <= bytes.len()`.
#[target_feature(enable = "sse4.2")]
#[cold]
#[inline(never)]
unsafe fn finish_sse42(bytes: &[u8], o: usize) -> usize {
    // SAFETY: SSE4.2 is present and `o <= bytes.len()` (this function's contract).
    unsafe { lean::finish::<Sse>(bytes, o) }
}

/// The AVX2 kernel: the length of the longest valid prefix of `bytes`.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn valid_up_to_avx2(bytes: &[u8]) -> usize {
    if bytes.len() < 64 {
        // SAFETY: AVX2 implies SSSE3 and SSE4.1 (this function's contract).
        return unsafe { x86_64_short::valid_up_to_short(bytes) };
    }
    // SAFETY: AVX2 is present (this function's contract), for the block loop and for
    // `finish_avx2`, which has the same contract (and gets `o <= bytes.len()`).
    unsafe { lean::valid_up_to_lean::<Avx2, false>(bytes, |b, o| finish_avx2(b, o)) }
}

/// The AVX2 kernel for `is_valid`: the length of the longest valid prefix of `bytes`, with
/// the blocks' errors tested once at the end (invalid input costs a second pass, from
/// [`finish_avx2`]).
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn is_valid_avx2(bytes: &[u8]) -> usize {
    if bytes.len() < 64 {
        // SAFETY: AVX2 implies SSSE3 and SSE4.1 (this function's contract).
        return unsafe { x86_64_short::valid_up_to_short(bytes) };
    }
    // SAFETY: AVX2 is present (this function's contract), for the block loop and for
    // `finish_avx2`, which has the same contract (and gets `o <= bytes.len()`).
    unsafe { lean::valid_up_to_lean::<Avx2, true>(bytes, |b, o| finish_avx2(b, o)) }
}

/// The whole AVX2 validation kernel from a unit boundary at most 3 bytes before `o` (see
/// [`lean::finish`]), out of line and cold: the entry points' error and odd-tail paths.
///
/// # Safety
///
/// The CPU must support AVX2; `o <= bytes.len()`.
#[target_feature(enable = "avx2")]
#[cold]
#[inline(never)]
unsafe fn finish_avx2(bytes: &[u8], o: usize) -> usize {
    // SAFETY: AVX2 is present and `o <= bytes.len()` (this function's contract).
    unsafe { lean::finish::<Avx2>(bytes, o) }
}

/// The shortest input the AVX-512 entry points check in 512-bit vectors; shorter ones (from
/// 64 bytes) take the AVX2 block loop, whose setup is half as wide: on Zen 4, 64 bytes of
/// mixed text took 7.0 ns with the 512-bit loop against 5.5 with the 256-bit one (simdutf8,
/// AVX2: 5.6), and 128 bytes 10.6 against 9.0 (simdutf8 8.9) in the criterion benchmark of
/// 1,000 buffers, where the call is inlined into the caller's loop as a library user's is
/// (called through a pointer the 512-bit loop was the faster, 7.9 against 8.7 ns).
const AVX512_MIN: usize = 192;

/// The AVX-512F and AVX-512BW kernel: the length of the longest valid prefix of `bytes`.
///
/// # Safety
///
/// The CPU must support AVX-512F and AVX-512BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn valid_up_to_avx512(bytes: &[u8]) -> usize {
    if bytes.len() < 64 {
        // SAFETY: AVX-512F and AVX-512BW implies SSSE3 and SSE4.1 (this function's contract).
        return unsafe { x86_64_short::valid_up_to_short(bytes) };
    }
    if bytes.len() < AVX512_MIN {
        // SAFETY: AVX-512F implies AVX2 (this function's contract), for the block loop and
        // for `finish_avx2`, which has the same contract (and gets `o <= bytes.len()`).
        return unsafe { lean::valid_up_to_lean::<Avx2, false>(bytes, |b, o| finish_avx2(b, o)) };
    }
    // SAFETY: AVX-512F and AVX-512BW are present (this function's contract), for the block loop and for
    // `finish_avx512`, which has the same contract (and gets `o <= bytes.len()`).
    unsafe { lean::valid_up_to_lean::<Avx512, false>(bytes, |b, o| finish_avx512(b, o)) }
}

/// The AVX-512F and AVX-512BW kernel for `is_valid`: the length of the longest valid prefix of `bytes`, with
/// the blocks' errors tested once at the end (invalid input costs a second pass, from
/// [`finish_avx512`]).
///
/// # Safety
///
/// The CPU must support AVX-512F and AVX-512BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn is_valid_avx512(bytes: &[u8]) -> usize {
    if bytes.len() < 64 {
        // SAFETY: AVX-512F and AVX-512BW implies SSSE3 and SSE4.1 (this function's contract).
        return unsafe { x86_64_short::valid_up_to_short(bytes) };
    }
    if bytes.len() < AVX512_MIN {
        // SAFETY: AVX-512F implies AVX2 (this function's contract), for the block loop and
        // for `finish_avx2`, which has the same contract (and gets `o <= bytes.len()`).
        return unsafe { lean::valid_up_to_lean::<Avx2, true>(bytes, |b, o| finish_avx2(b, o)) };
    }
    // SAFETY: AVX-512F and AVX-512BW are present (this function's contract), for the block loop and for
    // `finish_avx512`, which has the same contract (and gets `o <= bytes.len()`).
    unsafe { lean::valid_up_to_lean::<Avx512, true>(bytes, |b, o| finish_avx512(b, o)) }
}

/// The whole AVX-512F and AVX-512BW validation kernel from a unit boundary at most 3 bytes before `o` (see
/// [`lean::finish`]), out of line and cold: the entry points' error and odd-tail paths.
///
/// # Safety
///
/// The CPU must support AVX-512F and AVX-512BW; `o <= bytes.len()`.
#[target_feature(enable = "avx512f,avx512bw")]
#[cold]
#[inline(never)]
unsafe fn finish_avx512(bytes: &[u8], o: usize) -> usize {
    // SAFETY: AVX-512F and AVX-512BW are present and `o <= bytes.len()` (this function's contract).
    unsafe { lean::finish::<Avx512>(bytes, o) }
}
