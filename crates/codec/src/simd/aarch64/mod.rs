//! The aarch64 kernel: NEON's primitives ([`neon`]) and its entry points, each the generic
//! algorithm of `generic.rs`, `lean.rs`, `short.rs`, `counting.rs`, `copy.rs`, `words.rs` and
//! `utf16.rs` stamped out for [`Neon`]; and the UTF-16 → UTF-8 transcoder
//! ([`utf16_decode`]), NEON's own.
//!
//! NEON is enabled at compile time wherever this module is compiled
//! (`target_feature = "neon"`), so the entry points are safe functions: no caller can reach
//! them on a CPU without it.

mod neon;
pub(crate) mod utf16_decode;

#[cfg(feature = "alloc")]
use super::copy;
use super::counting::{self, WindowCounts};
use super::generic::{self, DenseMasks};
use super::lean::{self, entry};
use super::short;
use super::utf16;
use super::words::{self, WordState};
use crate::scalar::TextCounts;
pub(crate) use neon::Neon;

/// Under 64 bytes: the 16-byte path of `short.rs`.
#[inline(never)]
pub(crate) fn short_neon(bytes: &[u8]) -> usize {
    // SAFETY: NEON is enabled at compile time (the module's cfg).
    unsafe { short::valid_up_to_short::<Neon>(bytes) }
}

/// The length of the longest valid prefix of `bytes`: [`lean::entry`] with the block loop
/// tested per block.
pub(crate) fn valid_up_to_neon(bytes: &[u8]) -> usize {
    // SAFETY: NEON is enabled at compile time (the module's cfg), which the three need.
    unsafe { entry::<Neon>(bytes, short_neon, check_neon::<false>) }
}

/// As [`valid_up_to_neon`], with the blocks' errors tested once at the end (invalid input
/// costs a second pass, from [`finish_neon`]): for `is_valid`.
pub(crate) fn is_valid_neon(bytes: &[u8]) -> usize {
    // SAFETY: NEON is enabled at compile time (the module's cfg), which the three need.
    unsafe { entry::<Neon>(bytes, short_neon, check_neon::<true>) }
}

/// The block loop from `o` (see [`lean::check_from`]): `bytes.len() >= 64`,
/// `o <= bytes.len()`, and the bytes before `o` are ASCII (else the answer may be wrong,
/// never unsound).
#[inline(never)]
fn check_neon<const BASIC: bool>(bytes: &[u8], o: usize) -> usize {
    assert!(bytes.len() >= 64 && o <= bytes.len());
    // SAFETY: NEON is enabled at compile time; the lengths are checked just above.
    unsafe { lean::check_from::<Neon, BASIC, false>(bytes, o, finish_neon) }
}

/// The whole kernel from a unit boundary at most 3 bytes before `o` (see [`lean::finish`]),
/// out of line and cold: the block loop's error and odd-tail paths. `o <= bytes.len()`.
#[cold]
#[inline(never)]
fn finish_neon(bytes: &[u8], o: usize) -> usize {
    // SAFETY: NEON is enabled at compile time; `finish` indexes `bytes` with bounds checks.
    unsafe { lean::finish::<Neon>(bytes, o) }
}

/// Adds the counts of a valid run of text to `acc` (see [`counting::count_valid`]).
pub(crate) fn count_valid_neon(bytes: &[u8], acc: &mut TextCounts) {
    // SAFETY: NEON is enabled at compile time.
    unsafe { counting::count_valid::<Neon>(bytes, acc) }
}

/// The dense scanner's masks for a block that starts at a unit boundary.
pub(crate) fn dense_neon(block: &[u8; 64]) -> DenseMasks {
    // SAFETY: NEON is enabled at compile time; `block` has 64 readable bytes.
    unsafe { generic::dense::<Neon>(block.as_ptr()) }
}

/// Validates and counts in one pass, lengths too with `LENGTHS` (see
/// [`counting::validate_and_count`]).
pub(crate) fn validate_and_count_neon<const LENGTHS: bool>(
    bytes: &[u8],
    acc: &mut TextCounts,
) -> (usize, usize) {
    // SAFETY: NEON is enabled at compile time.
    unsafe { counting::validate_and_count::<Neon, true, LENGTHS, false>(bytes, acc) }
}

/// The dense scanner's windows, counted (see [`counting::count_windows`]).
pub(crate) fn count_windows_neon(bytes: &[u8], o: usize, c: &mut WindowCounts) -> usize {
    // SAFETY: NEON is enabled at compile time.
    unsafe { counting::count_windows::<Neon>(bytes, o, c) }
}

/// Word counting's vector pass (see [`words::word_blocks`]).
///
/// # Safety
///
/// The contract of [`words::word_blocks`] (the ranges it reads).
pub(crate) unsafe fn word_blocks_neon(
    ptr: *const u8,
    st: &mut WordState,
    others: &mut [u64],
) -> u32 {
    // SAFETY: NEON is enabled at compile time; the ranges are the caller's contract.
    unsafe { words::word_blocks::<Neon>(ptr, st, others) }
}

/// Appends the longest valid prefix of `bytes` to `out`, validated and copied in one pass
/// (see [`copy::push_valid`]); returns its length.
#[cfg(feature = "alloc")]
pub(crate) fn push_valid_neon(bytes: &[u8], out: &mut alloc::string::String) -> usize {
    // SAFETY: NEON is enabled at compile time; `finish_neon` (`lean::finish`) returns the
    // length of the valid prefix, at most `bytes.len()`, as `push_valid` requires.
    unsafe { copy::push_valid::<Neon>(bytes, out, finish_neon) }
}

/// Transcodes a prefix of valid UTF-8 `src` into `dst` (see [`utf16::transcode_valid`]):
/// (bytes read, units written).
pub(crate) fn transcode_valid_neon(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: NEON is enabled at compile time; `dst` is writable for its length.
    unsafe { utf16::transcode_valid::<Neon>(src, dst.as_mut_ptr(), dst.len()) }
}

/// Widens the ASCII prefix of `src` (at most `dst.len()` bytes) to UTF-16 at `dst` (see
/// [`utf16::widen_ascii`]); returns the bytes widened.
pub(crate) fn widen_ascii_neon(src: &[u8], dst: &mut [u16]) -> usize {
    let src = &src[..src.len().min(dst.len())];
    // SAFETY: NEON is enabled at compile time; `dst` has room for `src.len()` units.
    unsafe { utf16::widen_ascii::<Neon>(src, dst.as_mut_ptr()) }
}

/// Appends to `out` the units of [`transcode_valid_neon`] over `src`; returns the bytes
/// converted.
#[cfg(feature = "alloc")]
pub(crate) fn extend_valid_neon(src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
    // SAFETY: NEON is enabled at compile time.
    unsafe { utf16::extend_valid::<Neon>(src, out) }
}

/// Appends to `out` the units of [`widen_ascii_neon`] over `src`; returns the bytes widened.
#[cfg(feature = "alloc")]
pub(crate) fn extend_ascii_neon(src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
    // SAFETY: NEON is enabled at compile time.
    unsafe { utf16::extend_ascii::<Neon>(src, out) }
}
