//! The kernels: their selection at run time, and what a kernel does, as [`Ops`] of the token
//! that proves the CPU runs it (`token.rs`), reached through an [`Available`]. Outside
//! `simd/`, only `words.rs` names `target_arch` (for its tests of the VBMI tables).
//!
//! The choice is made once, on first use, and cached in an atomic: the best kernel the CPU
//! supports, or the one named by the environment variable `UTF8_CODEC_KERNEL` (`scalar`, `sse2`,
//! `sse4.2`, `avx2`, `avx512`, `neon`; with the `std` feature) when that one is available, so a
//! test suite can be run through each path.

use core::mem::MaybeUninit;

use crate::scalar::{self, TextCounts};

/// The items between the braces, compiled where a vector kernel exists: x86-64, and aarch64
/// with NEON.
macro_rules! with_vectors {
    ($($item:item)*) => {
        $(
            #[cfg(any(target_arch = "x86_64", all(target_arch = "aarch64", target_feature = "neon")))]
            $item
        )*
    };
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod aarch64;
mod blocks;
mod counting;
pub(crate) mod dispatch;
mod generic;
mod kernel;
mod token;
pub(crate) mod transcode;
pub(crate) mod utf16_decode;
pub(crate) mod utf16_units;
mod words;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;
with_vectors! {
    #[cfg(feature = "alloc")]
    mod copy;
    mod lean;
    mod short;
    mod utf16;
    mod utf16_decode_tables;
    mod utf16_tables;
}

use kernel::ALL;
pub use kernel::Kernel;
pub(crate) use token::Available;
use token::on_token;

impl Kernel {
    /// Whether this CPU can run the kernel (checked at run time with `std`, from the
    /// compile-time target features without it): whether it has every instruction set the
    /// kernel uses (the AVX-512 kernel's short paths, copy and UTF-16 transcoders are AVX2's,
    /// so it needs AVX2 too; NEON's needs a little-endian target).
    ///
    /// ```
    /// assert!(utf8_codec::Kernel::Scalar.is_available());
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn is_available(self) -> bool {
        Available::new(self).is_some()
    }

    /// Every kernel this CPU can run, slowest first.
    ///
    /// ```
    /// assert_eq!(utf8_codec::Kernel::available().next(), Some(utf8_codec::Kernel::Scalar));
    /// ```
    #[must_use = "iterators are lazy and do nothing unless consumed"]
    pub fn available() -> impl Iterator<Item = Kernel> {
        ALL.into_iter().filter(|k| k.is_available())
    }

    /// The kernel the crate's functions use: chosen on first use and cached.
    ///
    /// ```
    /// assert!(utf8_codec::Kernel::active().is_available());
    /// ```
    #[must_use = "returns a value and changes nothing"]
    #[inline]
    pub fn active() -> Kernel {
        Available::active().kernel()
    }

    /// The length of the longest valid prefix of `bytes` computed by this kernel, or `None`
    /// if this CPU cannot run it. For testing and benchmarking kernels side by side; the
    /// crate's functions use [`Kernel::active`].
    ///
    /// ```
    /// use utf8_codec::Kernel;
    /// assert_eq!(Kernel::Scalar.valid_up_to(b"ok\xFF"), Some(2));
    /// ```
    #[must_use = "the length of the valid prefix is the only result (`None` if this kernel is not available)"]
    pub fn valid_up_to(self, bytes: &[u8]) -> Option<usize> {
        Available::new(self).map(|k| k.valid_up_to(bytes))
    }
}

/// What a kernel does, as methods of its token (`token.rs`): safe, since a token exists only
/// on a CPU that has its instruction set. The defaults are the portable paths (or "nothing
/// done"), for the kernels without a vector form of the function.
pub(crate) trait Ops: Copy {
    /// The kernel's validation entry points, as pointers, for `dispatch.rs`: a pointer to a
    /// `#[target_feature]` function is handed out only by its token, so the pointers a
    /// caller holds are those of a kernel this CPU runs.
    fn entries(self) -> dispatch::Entries;

    /// The length of the longest valid prefix of `bytes`: the `valid_up_to` entry point (a
    /// direct call once inlined, the token's entries being constants).
    #[inline(always)]
    fn valid_up_to(self, bytes: &[u8]) -> usize {
        self.entries().valid_up_to(bytes)
    }

    /// The dense scanner's masks for a block that starts at a unit boundary; `None` for the
    /// portable kernels (the scalar one has its own dense scanner, [`scalar::scan_errors`]).
    #[inline(always)]
    fn dense(self, block: &[u8; 64]) -> Option<DenseMasks> {
        let _ = block;
        None
    }

    /// Adds the counts of a valid run of text to `acc`.
    #[inline(always)]
    fn count_valid(self, bytes: &[u8], acc: &mut TextCounts) {
        scalar::count_valid(bytes, acc);
    }

    /// Validates `bytes` and counts its valid prefix in the same pass: the valid length and
    /// the length `c` of the prefix whose counts were added to `acc`, within 3 bytes of the
    /// valid length, either side; without `LENGTHS`, as [`TextCounts::lean`] puts them. The
    /// portable kernels count nothing (`c` is 0).
    #[inline(always)]
    fn validate_and_count<const LENGTHS: bool>(
        self,
        bytes: &[u8],
        acc: &mut TextCounts,
    ) -> (usize, usize) {
        let _ = acc;
        (scalar::valid_up_to(bytes), 0)
    }

    /// Counts the dense scanner's windows of `bytes` from `o`, a unit boundary, into `c`, up
    /// to and including the first with at most one error, and returns where they end (a unit
    /// boundary; `o` when fewer than 64 bytes are left); `None` for the portable kernels.
    #[inline(always)]
    fn count_windows(self, bytes: &[u8], o: usize, c: &mut WindowCounts) -> Option<usize> {
        let _ = (bytes, o, c);
        None
    }

    /// Word counting's vector pass over the 64-byte blocks at the start of `bytes`, one per
    /// element of `others` (see [`words::word_blocks`]); `None` (nothing done) for the
    /// portable kernels.
    ///
    /// # Panics
    ///
    /// If `others` has more than 32 elements or `bytes` fewer than `64 * others.len() + 2`
    /// bytes (the vector kernels check; see [`word_span`]).
    #[inline(always)]
    fn word_blocks(self, bytes: &[u8], st: &mut WordState, others: &mut [u64]) -> Option<u32> {
        let _ = (bytes, st, others);
        None
    }

    /// [`surely_word`](crate::words) of the character at `bytes[base + at]` for each offset
    /// `at` of `offs`, 16 a mask (offset `j` in bit `j % 16` of `out[j / 16]`), where the
    /// kernel has a vector test of it (AVX-512 and AVX2); `false`, `out` untouched, elsewhere.
    #[inline(always)]
    fn surely_words(self, bytes: &[u8], base: usize, offs: &[u32], out: &mut [u16]) -> bool {
        let _ = (bytes, base, offs, out);
        false
    }

    /// Appends the longest valid prefix of `bytes` (at least 64 bytes) to `out`, validated
    /// and copied in one pass (`copy.rs`), and returns its length; `None` (nothing done) where
    /// the kernel has no such pass.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn push_valid(self, bytes: &[u8], out: &mut alloc::string::String) -> Option<usize> {
        let _ = (bytes, out);
        None
    }

    /// Transcodes a prefix of `src`, valid UTF-8, into `dst` with the vector transcoder of
    /// `utf16.rs`, and returns (bytes read, units written), a code point boundary; `(0, 0)`
    /// without one.
    #[inline(always)]
    fn transcode_valid(self, src: &[u8], dst: &mut [u16]) -> (usize, usize) {
        let _ = (src, dst);
        (0, 0)
    }

    /// Writes to `dst` the UTF-16 of an ASCII prefix of `src` (at most `dst.len()` bytes) and
    /// returns its length, with the vector transcoder of `utf16.rs`; 0 without one.
    #[inline(always)]
    fn widen_ascii(self, src: &[u8], dst: &mut [u16]) -> usize {
        let _ = (src, dst);
        0
    }

    /// Appends to `out` the units of [`transcode_valid`](Ops::transcode_valid) over `src`;
    /// returns the bytes converted.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn extend_valid(self, src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
        let _ = (src, out);
        0
    }

    /// Appends to `out` the units of [`widen_ascii`](Ops::widen_ascii) over `src`; returns
    /// the bytes widened.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn extend_ascii(self, src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
        let _ = (src, out);
        0
    }

    /// The vector UTF-16 → UTF-8 transcoder (`utf16_decode.rs`) over a prefix of `src`
    /// (big-endian when `be`), as long as `src` has at least `MIN_INPUT` bytes and `dst`
    /// `MIN_ROOM` (`utf16_decode_tables.rs`): (bytes read, bytes written); `(0, 0)` without
    /// one, or short of either.
    #[inline(always)]
    fn utf16_decode(self, src: &[u8], be: bool, dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        let _ = (src, be, dst);
        (0, 0)
    }
}

impl Ops for token::Scalar {
    #[inline(always)]
    fn entries(self) -> dispatch::Entries {
        dispatch::Entries::safe([scalar::valid_up_to_core; 3])
    }
}

/// The checks of [`Ops::word_blocks`] on its arguments, which make its reads safe: at most 32
/// blocks, and `bytes` has `64 * others.len() + 2` bytes.
///
/// # Panics
///
/// If either fails.
#[inline(always)]
fn word_span(bytes: &[u8], others: &[u64]) {
    assert!(
        others.len() <= 32 && 64 * others.len() + 2 <= bytes.len(),
        "word blocks past the end"
    );
}

impl Available {
    /// [`Ops::valid_up_to`] of the kernel: the block loop without a probe, for a caller that
    /// has just probed.
    #[inline(always)]
    pub(crate) fn valid_up_to(self, bytes: &[u8]) -> usize {
        on_token!(self, t => Ops::valid_up_to(t, bytes))
    }

    /// [`Ops::entries`] of the kernel.
    #[inline(always)]
    pub(crate) fn entries(self) -> dispatch::Entries {
        on_token!(self, t => Ops::entries(t))
    }

    /// [`dispatch::valid_up_to`] with this kernel: the [`probe`], then the kernel.
    #[inline]
    pub(crate) fn probed_valid_up_to(self, bytes: &[u8]) -> usize {
        probe(self, bytes).unwrap_or_else(|| self.valid_up_to(bytes))
    }

    /// [`Ops::dense`] of the kernel.
    #[inline]
    pub(crate) fn dense(self, block: &[u8; 64]) -> Option<DenseMasks> {
        on_token!(self, t => Ops::dense(t, block))
    }

    /// [`Ops::count_valid`] of the kernel.
    #[inline]
    pub(crate) fn count_valid(self, bytes: &[u8], acc: &mut TextCounts) {
        on_token!(self, t => Ops::count_valid(t, bytes, acc))
    }

    /// [`Ops::validate_and_count`] of the kernel.
    #[inline]
    pub(crate) fn validate_and_count<const LENGTHS: bool>(
        self,
        bytes: &[u8],
        acc: &mut TextCounts,
    ) -> (usize, usize) {
        on_token!(self, t => Ops::validate_and_count::<LENGTHS>(t, bytes, acc))
    }

    /// [`Ops::count_windows`] of the kernel.
    #[inline]
    pub(crate) fn count_windows(
        self,
        bytes: &[u8],
        o: usize,
        c: &mut WindowCounts,
    ) -> Option<usize> {
        on_token!(self, t => Ops::count_windows(t, bytes, o, c))
    }

    /// Counts the run starts of the 64-byte blocks of `bytes` from `o`, one per element of
    /// `others`, into `st`, as [`words::word_blocks`]: the run starts of each block whose
    /// first character it cannot vouch for go to `others`, and the blocks that have any in the
    /// bits of the answer (`others` has at most 32 elements); `None` (nothing done) for the
    /// portable kernels.
    ///
    /// # Panics
    ///
    /// If `bytes` has fewer than `o + 64 * others.len() + 2` bytes.
    #[inline]
    pub(crate) fn word_blocks(
        self,
        bytes: &[u8],
        o: usize,
        st: &mut WordState,
        others: &mut [u64],
    ) -> Option<u32> {
        let bytes = &bytes[o..];
        word_span(bytes, others);
        on_token!(self, t => Ops::word_blocks(t, bytes, st, others))
    }

    /// [`Ops::surely_words`] of the kernel.
    #[inline]
    pub(crate) fn surely_words(
        self,
        bytes: &[u8],
        base: usize,
        offs: &[u32],
        out: &mut [u16],
    ) -> bool {
        on_token!(self, t => Ops::surely_words(t, bytes, base, offs, out))
    }

    /// [`Ops::transcode_valid`] of the kernel.
    #[inline]
    pub(crate) fn transcode_valid(self, src: &[u8], dst: &mut [u16]) -> (usize, usize) {
        on_token!(self, t => Ops::transcode_valid(t, src, dst))
    }

    /// [`Ops::widen_ascii`] of the kernel.
    #[inline]
    pub(crate) fn widen_ascii(self, src: &[u8], dst: &mut [u16]) -> usize {
        on_token!(self, t => Ops::widen_ascii(t, src, dst))
    }

    /// [`Ops::extend_valid`] of the kernel.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn extend_valid(self, src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
        on_token!(self, t => Ops::extend_valid(t, src, out))
    }

    /// [`Ops::extend_ascii`] of the kernel.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn extend_ascii(self, src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
        on_token!(self, t => Ops::extend_ascii(t, src, out))
    }

    /// [`Ops::utf16_decode`] of the kernel.
    #[inline]
    pub(crate) fn utf16_decode(
        self,
        src: &[u8],
        be: bool,
        dst: &mut [MaybeUninit<u8>],
    ) -> (usize, usize) {
        on_token!(self, t => Ops::utf16_decode(t, src, be, dst))
    }
}

/// Appends the longest valid prefix of `bytes` to `out` and returns its length, as
/// [`Available::valid_up_to`] and a copy would, but in one pass (`copy.rs`) where the kernel
/// has it (AVX2, used by the AVX2 and AVX-512 kernels, and NEON) and there is at least one
/// block of input.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn push_valid_prefix(
    k: Available,
    bytes: &[u8],
    out: &mut alloc::string::String,
) -> usize {
    if bytes.len() >= 64
        && let Some(n) = on_token!(k, t => Ops::push_valid(t, bytes, out))
    {
        return n;
    }
    let n = k.valid_up_to(bytes);
    // SAFETY: `valid_up_to` returns the length of a well-formed prefix.
    out.push_str(unsafe { core::str::from_utf8_unchecked(&bytes[..n]) });
    n
}

/// The length of the valid prefix of `bytes` when it is settled for less than a kernel call
/// costs: input shorter than a block (the scalar decoder), or an error among the first
/// [`DENSE_SPAN`] positions (the dense scanner, which does not branch on the data: a scalar
/// probe would mispredict on every change of script). Where errors are dense, as in random
/// bytes, the next one is usually there.
#[inline]
pub(crate) fn probe(k: Available, bytes: &[u8]) -> Option<usize> {
    let Some(block) = bytes.first_chunk::<64>() else {
        return Some(scalar::valid_up_to(bytes));
    };
    match k.dense(block) {
        Some(m) => (m.errors != 0).then(|| m.errors.trailing_zeros() as usize),
        None => {
            let n = scalar::valid_up_to(&bytes[..PROBE]);
            (n + 4 <= PROBE).then_some(n)
        }
    }
}

/// How many bytes the scalar kernel's probe decodes before the kernel is called.
const PROBE: usize = 16;

pub(crate) use counting::WindowCounts;
pub(crate) use generic::{DENSE_SPAN, DenseMasks};
pub(crate) use words::WordState;
#[cfg(test)]
pub(crate) use words::{SEP_LEADS, SEP_SECOND, WORD_LEADS};
