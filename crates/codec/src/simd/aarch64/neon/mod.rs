//! The NEON kernel: its vector type ([`vector`]) and its entry points, each the generic
//! algorithm of `generic.rs`, `lean.rs`, `short.rs`, `counting.rs`, `copy.rs`, `words.rs` and
//! `utf16.rs` stamped out for [`Neon`]; and the UTF-16 → UTF-8 transcoder
//! ([`utf16_decode`]), NEON's own.
//!
//! NEON is enabled at compile time wherever this module is compiled
//! (`target_feature = "neon"`), so no caller can reach its code on a CPU without it; the
//! kernel's functions are the [`Ops`] of its token ([`token::Neon`]).

mod utf16_decode;
mod vector;

use crate::scalar::TextCounts;
#[cfg(feature = "alloc")]
use crate::simd::copy;
use crate::simd::counting::{self, WindowCounts};
use crate::simd::dispatch::Entries;
use crate::simd::generic::{self, DenseMasks};
use crate::simd::lean::{self, entry};
use crate::simd::short;
use crate::simd::utf16;
use crate::simd::utf16_decode_tables::{MIN_INPUT, MIN_ROOM};
use crate::simd::words::{self, WordState};
use crate::simd::{Ops, token, word_span};
use core::mem::MaybeUninit;
use vector::Neon;

/// Under 64 bytes: the 16-byte path of `short.rs`.
#[inline(never)]
fn short_neon(bytes: &[u8]) -> usize {
    // SAFETY: NEON is enabled at compile time (the module's cfg).
    unsafe { short::valid_up_to_short::<Neon>(bytes) }
}

/// The length of the longest valid prefix of `bytes`: [`lean::entry`] with the block loop
/// tested per block.
fn valid_up_to_neon(bytes: &[u8]) -> usize {
    // SAFETY: NEON is enabled at compile time (the module's cfg), which the three need.
    unsafe { entry::<Neon>(bytes, short_neon, check_neon::<false>) }
}

/// As [`valid_up_to_neon`], with the blocks' errors tested once at the end (invalid input
/// costs a second pass, from [`finish_neon`]): for `is_valid`.
fn is_valid_neon(bytes: &[u8]) -> usize {
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

impl Ops for token::Neon {
    #[inline(always)]
    fn entries(self) -> Entries {
        Entries::safe([valid_up_to_neon, is_valid_neon, short_neon])
    }
    #[inline(always)]
    fn dense(self, block: &[u8; 64]) -> Option<DenseMasks> {
        // SAFETY: `self` proves NEON; `block` has 64 readable bytes.
        Some(unsafe { generic::dense::<Neon>(block.as_ptr()) })
    }
    #[inline(always)]
    fn count_valid(self, bytes: &[u8], acc: &mut TextCounts) {
        // SAFETY: `self` proves NEON, all `count_valid` needs.
        unsafe { counting::count_valid::<Neon>(bytes, acc) }
    }
    #[inline(always)]
    fn validate_and_count<const LENGTHS: bool>(
        self,
        bytes: &[u8],
        acc: &mut TextCounts,
    ) -> (usize, usize) {
        // SAFETY: `self` proves NEON, all `validate_and_count` needs.
        unsafe { counting::validate_and_count::<Neon, true, LENGTHS, false>(bytes, acc) }
    }
    #[inline(always)]
    fn count_windows(self, bytes: &[u8], o: usize, c: &mut WindowCounts) -> Option<usize> {
        // SAFETY: `self` proves NEON, all `count_windows` needs.
        Some(unsafe { counting::count_windows::<Neon>(bytes, o, c) })
    }
    #[inline(always)]
    fn word_blocks(self, bytes: &[u8], st: &mut WordState, others: &mut [u64]) -> Option<u32> {
        word_span(bytes, others);
        // SAFETY: `self` proves NEON; the check above keeps every read inside `bytes`.
        Some(unsafe { words::word_blocks::<Neon>(bytes.as_ptr(), st, others) })
    }
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn push_valid(self, bytes: &[u8], out: &mut alloc::string::String) -> Option<usize> {
        // SAFETY: `self` proves NEON; `finish_neon` (`lean::finish`) returns the length of
        // the valid prefix, at most `bytes.len()`, as `push_valid` requires.
        Some(unsafe { copy::push_valid::<Neon>(bytes, out, finish_neon) })
    }
    #[inline(always)]
    fn transcode_valid(self, src: &[u8], dst: &mut [u16]) -> (usize, usize) {
        // SAFETY: `self` proves NEON; `dst` is writable for its length.
        unsafe { utf16::transcode_valid::<Neon>(src, dst.as_mut_ptr(), dst.len()) }
    }
    #[inline(always)]
    fn widen_ascii(self, src: &[u8], dst: &mut [u16]) -> usize {
        let src = &src[..src.len().min(dst.len())];
        // SAFETY: `self` proves NEON; `dst` has room for `src.len()` units (`src` was cut to
        // its length).
        unsafe { utf16::widen_ascii::<Neon>(src, dst.as_mut_ptr()) }
    }
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn extend_valid(self, src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
        // SAFETY: `self` proves NEON, all `extend_valid` needs.
        unsafe { utf16::extend_valid::<Neon>(src, out) }
    }
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn extend_ascii(self, src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
        // SAFETY: `self` proves NEON, all `extend_ascii` needs.
        unsafe { utf16::extend_ascii::<Neon>(src, out) }
    }
    #[inline(always)]
    fn utf16_decode(self, src: &[u8], be: bool, dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        if src.len() < MIN_INPUT || dst.len() < MIN_ROOM {
            return (0, 0);
        }
        let (q, room) = (dst.as_mut_ptr().cast::<u8>(), dst.len());
        // SAFETY: `self` proves NEON; `dst` is writable for its length, and the transcoder
        // writes only initialized bytes.
        unsafe {
            if be {
                utf16_decode::transcode_neon::<true>(src, q, room)
            } else {
                utf16_decode::transcode_neon::<false>(src, q, room)
            }
        }
    }
}
