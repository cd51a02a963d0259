//! The x86-64 kernels' validation entry points, each an `unsafe fn` with `#[target_feature]`
//! reached only through a method of the token of its instruction set (at the end).
//!
//! Each kernel has four functions, apart so that the layout of one path cannot slow another
//! (a call of a few nanoseconds costs about a cycle more for each fetch window its path
//! takes, so paths that share a function move each other's time):
//!
//! - `short_*`: under 64 bytes, the 16-byte path of `short.rs` (the callers' inlined
//!   entry sends short input here directly);
//! - `valid_up_to_*` and `is_valid_*`: from 64 bytes, the ASCII scan of
//!   [`lean::ascii_short`] or [`lean::ascii_prefix`], small and with no setup, which answers
//!   ASCII input by itself;
//! - `check_*`: the rest, out of line, the block loop of [`lean::check_from`] (per block for
//!   `valid_up_to`, for `is_valid` with the errors of all blocks or-ed and tested once at the
//!   end; AVX-512's in 256-bit vectors under [`AVX512_MIN`] bytes);
//! - `finish_*`: out of line and cold, the whole kernel from a unit boundary, for errors and
//!   odd tails.
//!
//! And validate-and-copy for repair (`copy.rs`), in AVX2 for the AVX2 and AVX-512 kernels;
//! validate-and-count (`counting.rs`), far from [`counting::FAR_MIN`] bytes in a function
//! of its own.

use super::vectors::{Avx2, Avx512, Sse};
use crate::scalar::TextCounts;
#[cfg(feature = "alloc")]
use crate::simd::copy;
use crate::simd::counting;
use crate::simd::dispatch::Entries;
use crate::simd::lean::{self, entry};
use crate::simd::short;
use crate::simd::token;

/// The SSE4.2 kernel under 64 bytes: the 16-byte path of `short.rs`.
#[target_feature(enable = "sse4.2")]
#[inline(never)]
fn short_sse42(bytes: &[u8]) -> usize {
    // SAFETY: SSE4.2 implies SSSE3 and SSE4.1 (this function's target features).
    unsafe { short::valid_up_to_short::<Sse>(bytes) }
}

/// The SSE4.2 kernel: the length of the longest valid prefix of `bytes`.
#[target_feature(enable = "sse4.2")]
fn valid_up_to_sse42(bytes: &[u8]) -> usize {
    // SAFETY: SSE4.2 is present (this function's target features), which the three need.
    unsafe { entry::<Sse>(bytes, |b| short_sse42(b), |b, o| check_sse42::<false>(b, o)) }
}

/// The SSE4.2 kernel for `is_valid`: the length of the longest valid prefix of `bytes`, with
/// the blocks' errors tested once at the end (invalid input costs a second pass, from
/// [`finish_sse42`]).
#[target_feature(enable = "sse4.2")]
fn is_valid_sse42(bytes: &[u8]) -> usize {
    // SAFETY: SSE4.2 is present (this function's target features), which the three need.
    unsafe { entry::<Sse>(bytes, |b| short_sse42(b), |b, o| check_sse42::<true>(b, o)) }
}

/// The SSE4.2 block loop from `o` (see [`lean::check_from`]).
///
/// # Safety
///
/// The CPU must support SSE4.2; `bytes.len() >= 64`, `o <= bytes.len()`, and the bytes
/// before `o` are ASCII.
#[target_feature(enable = "sse4.2")]
#[inline(never)]
unsafe fn check_sse42<const BASIC: bool>(bytes: &[u8], o: usize) -> usize {
    // SAFETY: SSE4.2 is present (this function's contract), for the block loop and for
    // `finish_sse42`, which has the same contract (and gets `o <= bytes.len()`).
    unsafe { lean::check_from::<Sse, BASIC, false>(bytes, o, |b, o| finish_sse42(b, o)) }
}

/// The whole SSE4.2 validation kernel from a unit boundary at most 3 bytes before `o` (see
/// [`lean::finish`]), out of line and cold: the block loop's error and odd-tail paths.
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

/// The AVX2 and AVX-512 kernels under 64 bytes: as [`short_sse42`], with VEX encodings.
#[target_feature(enable = "avx2")]
#[inline(never)]
fn short_avx2(bytes: &[u8]) -> usize {
    // SAFETY: AVX2 implies SSSE3 and SSE4.1 (this function's target features).
    unsafe { short::valid_up_to_short::<Sse>(bytes) }
}

/// The AVX2 kernel: the length of the longest valid prefix of `bytes`.
#[target_feature(enable = "avx2")]
fn valid_up_to_avx2(bytes: &[u8]) -> usize {
    // SAFETY: AVX2 is present (this function's target features), which the three need.
    unsafe { entry::<Avx2>(bytes, |b| short_avx2(b), |b, o| check_avx2::<false>(b, o)) }
}

/// The AVX2 kernel for `is_valid`: the length of the longest valid prefix of `bytes`, with
/// the blocks' errors tested once at the end (invalid input costs a second pass, from
/// [`finish_avx2`]).
#[target_feature(enable = "avx2")]
fn is_valid_avx2(bytes: &[u8]) -> usize {
    // SAFETY: AVX2 is present (this function's target features), which the three need.
    unsafe { entry::<Avx2>(bytes, |b| short_avx2(b), |b, o| check_avx2::<true>(b, o)) }
}

/// The AVX2 block loop from `o` (see [`lean::check_from`]), far from [`lean::FAR_MIN`] bytes.
///
/// # Safety
///
/// The CPU must support AVX2; `bytes.len() >= 64`, `o <= bytes.len()`, and the bytes before
/// `o` are ASCII.
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn check_avx2<const BASIC: bool>(bytes: &[u8], o: usize) -> usize {
    // SAFETY: AVX2 is present (this function's contract), for the block loop and for
    // `finish_avx2`, which has the same contract (and gets `o <= bytes.len()`).
    unsafe {
        if bytes.len() >= lean::FAR_MIN {
            lean::check_from::<Avx2, BASIC, true>(bytes, o, |b, o| finish_avx2(b, o))
        } else {
            lean::check_from::<Avx2, BASIC, false>(bytes, o, |b, o| finish_avx2(b, o))
        }
    }
}

/// The whole AVX2 validation kernel from a unit boundary at most 3 bytes before `o` (see
/// [`lean::finish`]), out of line and cold: the block loop's error and odd-tail paths.
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
    unsafe { entry::<Avx2>(bytes, |b| short_avx2(b), |b, o| check_avx512::<false>(b, o)) }
}

/// The AVX-512F and AVX-512BW kernel for `is_valid`: the length of the longest valid prefix
/// of `bytes`, with the blocks' errors tested once at the end (invalid input costs a second
/// pass, from [`finish_avx512`]).
#[target_feature(enable = "avx512f,avx512bw")]
fn is_valid_avx512(bytes: &[u8]) -> usize {
    // SAFETY: AVX-512F and AVX-512BW are present (this function's target features), and they imply
    // AVX2: the three can run.
    unsafe { entry::<Avx2>(bytes, |b| short_avx2(b), |b, o| check_avx512::<true>(b, o)) }
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
        // for `finish_avx2`, which has the same contract (and gets `o <= bytes.len()`).
        return unsafe {
            lean::check_from::<Avx2, BASIC, false>(bytes, o, |b, o| finish_avx2(b, o))
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

/// Appends the longest valid prefix of `bytes` to `out`, validated and copied in one pass
/// (see [`copy::push_valid`]); returns its length. For the AVX2 and AVX-512 kernels.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
fn push_valid_avx2(bytes: &[u8], out: &mut alloc::string::String) -> usize {
    // SAFETY: AVX2 is present (this function's target features); `finish_avx2` has the same ISA
    // contract, gets `o <= bytes.len()` and returns the length of the valid prefix
    // (`lean::finish`), at most `bytes.len()`, as `push_valid` requires.
    unsafe { copy::push_valid::<Avx2>(bytes, out, |b, o| finish_avx2(b, o)) }
}

/// The SSE4.2 kernel, validating and counting in one pass (lengths too with `LENGTHS`).
#[target_feature(enable = "sse4.2,popcnt")]
fn validate_and_count_sse42<const LENGTHS: bool>(
    bytes: &[u8],
    acc: &mut TextCounts,
) -> (usize, usize) {
    // SAFETY: SSE4.2 (and POPCNT, which every SSE4.2 CPU has) is present (this function's target features).
    unsafe { counting::validate_and_count::<Sse, true, LENGTHS, false>(bytes, acc) }
}

/// The AVX2 kernel, validating and counting in one pass (lengths too with `LENGTHS`; with
/// `FAR`, for an input of [`counting::FAR_MIN`] bytes or more, with the block loop's far
/// prefetch: a function apart from the near one, since one function holding both kept
/// registers for both loops and measured slower in L2).
#[target_feature(enable = "avx2,popcnt")]
fn validate_and_count_avx2<const LENGTHS: bool, const FAR: bool>(
    bytes: &[u8],
    acc: &mut TextCounts,
) -> (usize, usize) {
    // SAFETY: AVX2 (and POPCNT, which every AVX2 CPU has) is present (this function's target features).
    unsafe { counting::validate_and_count::<Avx2, true, LENGTHS, FAR>(bytes, acc) }
}

/// The AVX-512F and AVX-512BW kernel, validating and counting in one pass (lengths too with
/// `LENGTHS`; far with `FAR`, as [`validate_and_count_avx2`]).
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
fn validate_and_count_avx512<const LENGTHS: bool, const FAR: bool>(
    bytes: &[u8],
    acc: &mut TextCounts,
) -> (usize, usize) {
    // SAFETY: AVX-512F/BW (and POPCNT, which every such CPU has) are present (this function's target features).
    unsafe { counting::validate_and_count::<Avx512, true, LENGTHS, FAR>(bytes, acc) }
}

impl token::Sse42 {
    /// The SSE4.2 kernel's entry points (see [`Entries`]).
    #[inline(always)]
    pub(super) fn entries(self) -> Entries {
        // SAFETY: `self` proves the instruction set of the three, all they need.
        unsafe { Entries::new([valid_up_to_sse42, is_valid_sse42, short_sse42]) }
    }

    /// The SSE4.2 kernel, validating and counting in one pass.
    #[inline(always)]
    pub(super) fn validate_and_count<const LENGTHS: bool>(
        self,
        bytes: &[u8],
        acc: &mut TextCounts,
    ) -> (usize, usize) {
        // SAFETY: `self` proves SSE4.2 and POPCNT, all `validate_and_count_sse42` needs.
        unsafe { validate_and_count_sse42::<LENGTHS>(bytes, acc) }
    }
}

impl token::Avx2 {
    /// The AVX2 kernel's entry points (see [`Entries`]).
    #[inline(always)]
    pub(super) fn entries(self) -> Entries {
        // SAFETY: `self` proves the instruction set of the three, all they need.
        unsafe { Entries::new([valid_up_to_avx2, is_valid_avx2, short_avx2]) }
    }

    /// Validate-and-copy of the AVX2 and AVX-512 kernels (see [`push_valid_avx2`]).
    #[cfg(feature = "alloc")]
    #[inline(always)]
    pub(super) fn push_valid(self, bytes: &[u8], out: &mut alloc::string::String) -> usize {
        // SAFETY: `self` proves AVX2, all `push_valid_avx2` needs.
        unsafe { push_valid_avx2(bytes, out) }
    }

    /// The AVX2 kernel, validating and counting in one pass, far from
    /// [`counting::FAR_MIN`] bytes.
    #[inline(always)]
    pub(super) fn validate_and_count<const LENGTHS: bool>(
        self,
        bytes: &[u8],
        acc: &mut TextCounts,
    ) -> (usize, usize) {
        let far = bytes.len() >= counting::FAR_MIN;
        // SAFETY: `self` proves AVX2 and POPCNT, all either form of
        // `validate_and_count_avx2` needs.
        unsafe {
            if far {
                validate_and_count_avx2::<LENGTHS, true>(bytes, acc)
            } else {
                validate_and_count_avx2::<LENGTHS, false>(bytes, acc)
            }
        }
    }
}

impl token::Avx512 {
    /// The AVX-512 kernel's entry points (see [`Entries`]): its own from 64 bytes, AVX2's
    /// under.
    #[inline(always)]
    pub(super) fn entries(self) -> Entries {
        // SAFETY: `self` proves the instruction set of the three, all they need.
        unsafe { Entries::new([valid_up_to_avx512, is_valid_avx512, short_avx2]) }
    }

    /// The AVX-512 kernel, validating and counting in one pass, far from
    /// [`counting::FAR_MIN`] bytes.
    #[inline(always)]
    pub(super) fn validate_and_count<const LENGTHS: bool>(
        self,
        bytes: &[u8],
        acc: &mut TextCounts,
    ) -> (usize, usize) {
        let far = bytes.len() >= counting::FAR_MIN;
        // SAFETY: `self` proves AVX-512F, AVX-512BW and POPCNT, all either form of
        // `validate_and_count_avx512` needs.
        unsafe {
            if far {
                validate_and_count_avx512::<LENGTHS, true>(bytes, acc)
            } else {
                validate_and_count_avx512::<LENGTHS, false>(bytes, acc)
            }
        }
    }
}
