//! The AVX-512 kernel's validation entry points, reached only through its token's
//! `entries` (at the end): as `validation_fns!` writes them for the other kernels (see
//! `x86_64/mod.rs`), but with AVX2's vectors for the ASCII scan at every length and for the
//! block loop under [`AVX512_MIN`] bytes, and so with the AVX2 kernel's short path and
//! [`finish_narrow`] beside its own `finish_avx512`.

use super::vector::Avx512;
use crate::simd::dispatch::Entries;
use crate::simd::lean::{self, entry};
use crate::simd::short;
use crate::simd::token;
use crate::simd::x86_64::avx2::vector::Avx2;
use crate::simd::x86_64::sse42::vector::Sse;

/// Under 64 bytes: the 16-byte path of `short.rs`, in VEX encodings (as the AVX2 kernel's).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn short(bytes: &[u8]) -> usize {
    // SAFETY: AVX2 implies SSSE3 and SSE4.1 (this function's target features).
    unsafe { short::valid_up_to_short::<Sse>(bytes) }
}

/// The whole validation kernel in AVX2 vectors from a unit boundary at most 3 bytes before
/// `o` (see [`lean::finish`]), out of line and cold: the error and odd-tail paths of the
/// block loop under [`AVX512_MIN`] bytes.
///
/// # Safety
///
/// The CPU must support AVX2; `o <= bytes.len()`.
#[target_feature(enable = "avx2")]
#[cold]
#[inline(never)]
unsafe fn finish_narrow(bytes: &[u8], o: usize) -> usize {
    // SAFETY: AVX2 is present and `o <= bytes.len()` (this function's contract).
    unsafe { lean::finish::<Avx2>(bytes, o) }
}

/// The shortest input the AVX-512 kernel checks in 512-bit vectors; shorter ones (from 64
/// bytes) take the AVX2 block loop, whose setup is half as wide and which measured faster
/// there (BENCHMARKS.md). The ASCII scan is in 256-bit vectors at every length, for the same
/// reason.
const AVX512_MIN: usize = 192;

/// The AVX-512F and AVX-512BW kernel: the length of the longest valid prefix of `bytes`.
#[target_feature(enable = "avx512f,avx512bw")]
fn valid_up_to_avx512(bytes: &[u8]) -> usize {
    // SAFETY: AVX-512F and AVX-512BW are present (this function's target features), and they imply
    // AVX2: the three can run.
    unsafe { entry::<Avx2>(bytes, |b| short(b), |b, o| check_avx512::<false>(b, o)) }
}

/// The AVX-512F and AVX-512BW kernel for `is_valid`: the length of the longest valid prefix
/// of `bytes`, with the blocks' errors tested once at the end (invalid input costs a second
/// pass, from [`finish_avx512`]).
#[target_feature(enable = "avx512f,avx512bw")]
fn is_valid_avx512(bytes: &[u8]) -> usize {
    // SAFETY: AVX-512F and AVX-512BW are present (this function's target features), and they imply
    // AVX2: the three can run.
    unsafe { entry::<Avx2>(bytes, |b| short(b), |b, o| check_avx512::<true>(b, o)) }
}

/// The AVX-512 block loop from `o` (see [`lean::check_from`]), in 256-bit vectors under
/// [`AVX512_MIN`] bytes, far from [`lean::FAR_MIN`].
///
/// # Safety
///
/// The CPU must support AVX-512F and AVX-512BW; `bytes.len() >= 64`, `o <= bytes.len()`,
/// and the bytes before `o` are ASCII.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline(never)]
unsafe fn check_avx512<const BASIC: bool>(bytes: &[u8], o: usize) -> usize {
    if bytes.len() < AVX512_MIN {
        // SAFETY: AVX-512F implies AVX2 (this function's contract), for the block loop and
        // for `finish_narrow`, which has the same contract (and gets `o <= bytes.len()`).
        return unsafe {
            lean::check_from::<Avx2, BASIC, false>(bytes, o, |b, o| finish_narrow(b, o))
        };
    }
    // SAFETY: AVX-512F and AVX-512BW are present (this function's contract), for the block
    // loop and for `finish_avx512`, which has the same contract (and gets `o <= bytes.len()`).
    unsafe {
        if bytes.len() >= lean::FAR_MIN {
            lean::check_from::<Avx512, BASIC, true>(bytes, o, |b, o| finish_avx512(b, o))
        } else {
            lean::check_from::<Avx512, BASIC, false>(bytes, o, |b, o| finish_avx512(b, o))
        }
    }
}

/// The whole AVX-512F and AVX-512BW validation kernel from a unit boundary at most 3 bytes
/// before `o` (see [`lean::finish`]), out of line and cold: the block loop's error and
/// odd-tail paths.
///
/// # Safety
///
/// The CPU must support AVX-512F and AVX-512BW; `o <= bytes.len()`.
#[target_feature(enable = "avx512f,avx512bw")]
#[cold]
#[inline(never)]
unsafe fn finish_avx512(bytes: &[u8], o: usize) -> usize {
    // SAFETY: AVX-512F and AVX-512BW are present and `o <= bytes.len()` (this function's
    // contract).
    unsafe { lean::finish::<Avx512>(bytes, o) }
}

impl token::Avx512 {
    /// The AVX-512 kernel's entry points (see [`Entries`]): its own from 64 bytes, AVX2's
    /// short path under.
    #[inline(always)]
    pub(in crate::simd::x86_64) fn entries(self) -> Entries {
        // SAFETY: `self` proves the instruction set of the three (AVX-512F, AVX-512BW and
        // AVX2), all they need.
        unsafe { Entries::new([valid_up_to_avx512, is_valid_avx512, short]) }
    }
}
