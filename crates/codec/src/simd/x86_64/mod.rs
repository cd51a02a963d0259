//! The x86-64 kernels: the SSE4.2, AVX2 and AVX-512 primitives of the generic algorithms
//! ([`vectors`]) and their `#[target_feature]` entry points, and what exists for x86-64
//! alone: the SSE2 kernel ([`sse2`]), AVX-512 VBMI's word classifier (in [`words`]) and the
//! AVX2 UTF-8 → UTF-16 transcoder ([`utf16_avx2`]), and the SSE4.2 and AVX2 UTF-16 → UTF-8
//! transcoder ([`utf16_decode`]).
//!
//! Every entry point is a private `unsafe fn`, reached only through a safe method of the
//! token of its instruction set (`simd/token.rs`), defined beside it; here, each kernel's
//! token gathers those methods as its [`Ops`].

pub(crate) mod entry;
pub(crate) mod sse2;
pub(crate) mod surely;
pub(crate) mod utf16_avx2;
pub(crate) mod utf16_decode;
pub(crate) mod vectors;
pub(crate) mod words;

use core::mem::MaybeUninit;

use super::dispatch::Entries;
use super::token::{Avx2, Avx512, Sse2, Sse42};
use super::{DenseMasks, Ops, WindowCounts, WordState};
use crate::scalar::TextCounts;

impl Ops for Sse2 {
    #[inline(always)]
    fn entries(self) -> Entries {
        Sse2::entries(self)
    }
}

impl Ops for Sse42 {
    #[inline(always)]
    fn entries(self) -> Entries {
        Sse42::entries(self)
    }
    #[inline(always)]
    fn dense(self, block: &[u8; 64]) -> Option<DenseMasks> {
        Some(Sse42::dense(self, block))
    }
    #[inline(always)]
    fn count_valid(self, bytes: &[u8], acc: &mut TextCounts) {
        Sse42::count_valid(self, bytes, acc);
    }
    #[inline(always)]
    fn validate_and_count<const LENGTHS: bool>(
        self,
        bytes: &[u8],
        acc: &mut TextCounts,
    ) -> (usize, usize) {
        Sse42::validate_and_count::<LENGTHS>(self, bytes, acc)
    }
    #[inline(always)]
    fn count_windows(self, bytes: &[u8], o: usize, c: &mut WindowCounts) -> Option<usize> {
        Some(Sse42::count_windows(self, bytes, o, c))
    }
    #[inline(always)]
    fn word_blocks(self, bytes: &[u8], st: &mut WordState, others: &mut [u64]) -> Option<u32> {
        Some(Sse42::word_blocks(self, bytes, st, others))
    }
    #[inline(always)]
    fn utf16_decode(self, src: &[u8], be: bool, dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        Sse42::utf16_decode(self, src, be, dst)
    }
}

impl Ops for Avx2 {
    #[inline(always)]
    fn entries(self) -> Entries {
        Avx2::entries(self)
    }
    #[inline(always)]
    fn dense(self, block: &[u8; 64]) -> Option<DenseMasks> {
        Some(Avx2::dense(self, block))
    }
    #[inline(always)]
    fn count_valid(self, bytes: &[u8], acc: &mut TextCounts) {
        Avx2::count_valid(self, bytes, acc);
    }
    #[inline(always)]
    fn validate_and_count<const LENGTHS: bool>(
        self,
        bytes: &[u8],
        acc: &mut TextCounts,
    ) -> (usize, usize) {
        Avx2::validate_and_count::<LENGTHS>(self, bytes, acc)
    }
    #[inline(always)]
    fn count_windows(self, bytes: &[u8], o: usize, c: &mut WindowCounts) -> Option<usize> {
        Some(Avx2::count_windows(self, bytes, o, c))
    }
    #[inline(always)]
    fn word_blocks(self, bytes: &[u8], st: &mut WordState, others: &mut [u64]) -> Option<u32> {
        Some(Avx2::word_blocks(self, bytes, st, others))
    }
    #[inline(always)]
    fn surely_words(
        self,
        bytes: &[u8],
        base: usize,
        offs: &[u32],
        bits: &[u64; 2048],
        out: &mut [u16],
    ) -> bool {
        Avx2::surely_words(self, bytes, base, offs, bits, out);
        true
    }
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn push_valid(self, bytes: &[u8], out: &mut alloc::string::String) -> Option<usize> {
        Some(Avx2::push_valid(self, bytes, out))
    }
    #[inline(always)]
    fn transcode_valid(self, src: &[u8], dst: &mut [u16]) -> (usize, usize) {
        Avx2::transcode_valid(self, src, dst)
    }
    #[inline(always)]
    fn widen_ascii(self, src: &[u8], dst: &mut [u16]) -> usize {
        Avx2::widen_ascii(self, src, dst)
    }
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn extend_valid(self, src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
        Avx2::extend_valid(self, src, out)
    }
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn extend_ascii(self, src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
        Avx2::extend_ascii(self, src, out)
    }
    #[inline(always)]
    fn utf16_decode(self, src: &[u8], be: bool, dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        Avx2::utf16_decode(self, src, be, dst)
    }
}

/// The AVX-512 kernel: its own validation, counting, dense scanner and word passes (VBMI's
/// where the CPU has it), and AVX2's short path, copy and transcoders.
impl Ops for Avx512 {
    #[inline(always)]
    fn entries(self) -> Entries {
        Avx512::entries(self)
    }
    #[inline(always)]
    fn dense(self, block: &[u8; 64]) -> Option<DenseMasks> {
        Some(Avx512::dense(self, block))
    }
    #[inline(always)]
    fn count_valid(self, bytes: &[u8], acc: &mut TextCounts) {
        Avx512::count_valid(self, bytes, acc);
    }
    #[inline(always)]
    fn validate_and_count<const LENGTHS: bool>(
        self,
        bytes: &[u8],
        acc: &mut TextCounts,
    ) -> (usize, usize) {
        Avx512::validate_and_count::<LENGTHS>(self, bytes, acc)
    }
    #[inline(always)]
    fn count_windows(self, bytes: &[u8], o: usize, c: &mut WindowCounts) -> Option<usize> {
        Some(Avx512::count_windows(self, bytes, o, c))
    }
    #[inline(always)]
    fn word_blocks(self, bytes: &[u8], st: &mut WordState, others: &mut [u64]) -> Option<u32> {
        Some(match self.vbmi() {
            Some(vbmi) => vbmi.word_blocks(bytes, st, others),
            None => self.word_blocks_bw(bytes, st, others),
        })
    }
    #[inline(always)]
    fn surely_words(
        self,
        bytes: &[u8],
        base: usize,
        offs: &[u32],
        bits: &[u64; 2048],
        out: &mut [u16],
    ) -> bool {
        Avx512::surely_words(self, bytes, base, offs, bits, out);
        true
    }
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn push_valid(self, bytes: &[u8], out: &mut alloc::string::String) -> Option<usize> {
        Ops::push_valid(self.avx2(), bytes, out)
    }
    #[inline(always)]
    fn transcode_valid(self, src: &[u8], dst: &mut [u16]) -> (usize, usize) {
        self.avx2().transcode_valid(src, dst)
    }
    #[inline(always)]
    fn widen_ascii(self, src: &[u8], dst: &mut [u16]) -> usize {
        self.avx2().widen_ascii(src, dst)
    }
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn extend_valid(self, src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
        self.avx2().extend_valid(src, out)
    }
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn extend_ascii(self, src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
        self.avx2().extend_ascii(src, out)
    }
    #[inline(always)]
    fn utf16_decode(self, src: &[u8], be: bool, dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        self.avx2().utf16_decode(src, be, dst)
    }
}
