//! The x86-64 kernels, one module per instruction set, each with its vector types, their
//! trait implementations and its entry points, the algorithms of `simd/` stamped out for
//! them: [`sse2`] (a kernel of its own, no trait), [`sse42`], [`avx2`] and [`avx512`] (with
//! VBMI's word classifier, a capability of its own, in `avx512/vbmi.rs`, and VBMI2's UTF-8 →
//! UTF-16 and UTF-16 → UTF-8 transcoders, another, in `avx512/utf16.rs` and
//! `avx512/utf16_decode.rs`).
//!
//! Every `#[target_feature]` function is private to its file and reached only through a safe
//! method of the token of its instruction set (`simd/token.rs`): most are the body of such a
//! method, written by `token_fns!` (the shapes all kernels share by `kernel_fns!` and
//! `validation_fns!`). Here, each kernel's token gathers those methods as its [`Ops`]
//! (`forward_ops!`).

/// Safe methods of the token `$token`, one for each `fn` given: the method calls a function
/// of its own with the parameters, generics and body given, compiled for `$features`
/// (`#[target_feature]`), the instruction set the token proves. That function is safe (its
/// arguments are references and values, so the features are its whole contract) and private
/// to the method; its body gives the reason of each of its own `unsafe` blocks.
macro_rules! token_fns {
    ($token:ty, $features:literal: $(
        $(#[$attr:meta])*
        fn $name:ident $(<$(const $c:ident: $ct:ty),+>)? ($($arg:ident: $ty:ty),* $(,)?)
            $(-> $ret:ty)? $body:block
    )*) => {
        impl $token {
            $(
                $(#[$attr])*
                #[inline(always)]
                pub(in crate::simd::x86_64) fn $name $(<$(const $c: $ct),+>)? (
                    self,
                    $($arg: $ty),*
                ) $(-> $ret)? {
                    #[target_feature(enable = $features)]
                    fn imp $(<$(const $c: $ct),+>)? ($($arg: $ty),*) $(-> $ret)? $body
                    // SAFETY: `self` proves that this CPU has the target features of `imp`
                    // (`$features` of the token's instruction set), a safe function: its
                    // whole contract.
                    unsafe { imp $(::<$($c),+>)? ($($arg),*) }
                }
            )*
        }
    };
}

/// The token methods every vector kernel of x86-64 stamps out from the generic algorithms
/// for its vector type `$v`: the dense scanner (compiled for `$isa`), counting, the counted
/// windows, validate-and-count (`validate_and_count_in`, far or near as the block loop
/// wants; `validate_and_count` chooses, far from `counting::FAR_MIN` bytes where `$far`)
/// and word counting's block pass (compiled for `$isa_popcnt`, the ISA with POPCNT, which
/// every CPU with these instruction sets has).
macro_rules! kernel_fns {
    ($token:ty, $v:ty, $isa:literal, $isa_popcnt:literal, far: $far:tt) => {
        token_fns! { $token, $isa:
            /// The dense scanner's masks of `block` (see `generic::dense`).
            fn dense(block: &[u8; 64]) -> $crate::simd::DenseMasks {
                // SAFETY: the vector's instruction set is enabled (the function's target
                // features); `block` has 64 readable bytes.
                unsafe { $crate::simd::generic::dense::<$v>(block.as_ptr()) }
            }
        }
        token_fns! { $token, $isa_popcnt:
            /// Adds the counts of a valid run of text to `acc` (see
            /// `counting::count_valid`).
            fn count_valid(bytes: &[u8], acc: &mut $crate::scalar::TextCounts) {
                // SAFETY: the vector's instruction set and POPCNT are enabled (the
                // function's target features).
                unsafe { $crate::simd::counting::count_valid::<$v>(bytes, acc) }
            }

            /// The dense scanner's windows, counted (see `counting::count_windows`).
            fn count_windows(
                bytes: &[u8],
                o: usize,
                c: &mut $crate::simd::WindowCounts,
            ) -> usize {
                // SAFETY: the vector's instruction set and POPCNT are enabled (the
                // function's target features).
                unsafe { $crate::simd::counting::count_windows::<$v>(bytes, o, c) }
            }

            /// Validates and counts in one pass (lengths too with `LENGTHS`, the block
            /// loop's far prefetch with `FAR`; see `counting::validate_and_count`).
            fn validate_and_count_in<const LENGTHS: bool, const FAR: bool>(
                bytes: &[u8],
                acc: &mut $crate::scalar::TextCounts,
            ) -> (usize, usize) {
                // SAFETY: the vector's instruction set and POPCNT are enabled (the
                // function's target features).
                unsafe {
                    $crate::simd::counting::validate_and_count::<$v, true, LENGTHS, FAR>(
                        bytes, acc,
                    )
                }
            }
        }
        impl $token {
            /// Word counting's vector pass over the blocks at the start of `bytes` (see
            /// `words::word_blocks`), its arguments checked here, inlined into the caller.
            ///
            /// # Panics
            ///
            /// If `others` has more than 32 elements or `bytes` fewer than
            /// `64 * others.len() + 2`.
            #[inline(always)]
            pub(in crate::simd::x86_64) fn word_blocks(
                self,
                bytes: &[u8],
                st: &mut $crate::simd::WordState,
                others: &mut [u64],
            ) -> u32 {
                /// The pass over the blocks at `ptr`.
                ///
                /// # Safety
                ///
                /// The CPU must have `$isa_popcnt`; the contract of `words::word_blocks`.
                #[target_feature(enable = $isa_popcnt)]
                unsafe fn imp(
                    ptr: *const u8,
                    st: &mut $crate::simd::WordState,
                    others: &mut [u64],
                ) -> u32 {
                    // SAFETY: the vector's instruction set and POPCNT are enabled and the
                    // ranges are valid (this function's contract).
                    unsafe { $crate::simd::words::word_blocks::<$v>(ptr, st, others) }
                }
                $crate::simd::word_span(bytes, others);
                // SAFETY: `self` proves the instruction set and POPCNT; the check above keeps
                // every read inside `bytes`.
                unsafe { imp(bytes.as_ptr(), st, others) }
            }
        }
        impl $token {
            /// Validates and counts in one pass, with the block loop's far prefetch from
            /// `counting::FAR_MIN` bytes where the kernel has it: a function apart from the
            /// near one, since one function holding both loops keeps registers for both.
            #[inline(always)]
            pub(in crate::simd::x86_64) fn validate_and_count<const LENGTHS: bool>(
                self,
                bytes: &[u8],
                acc: &mut $crate::scalar::TextCounts,
            ) -> (usize, usize) {
                if kernel_fns!(@far $far, bytes) {
                    self.validate_and_count_in::<LENGTHS, true>(bytes, acc)
                } else {
                    self.validate_and_count_in::<LENGTHS, false>(bytes, acc)
                }
            }
        }
    };
    (@far true, $bytes:ident) => {
        $bytes.len() >= $crate::simd::counting::FAR_MIN
    };
    (@far false, $bytes:ident) => {
        false
    };
}

/// The validation entry points of a kernel whose vector type is `$v` and whose short path
/// is `short.rs`'s in 16-byte vectors (`sse42::vector::Sse`), compiled for `$isa`,
/// and its token's `entries` method, which hands them out. Four functions, apart so that the
/// layout of one path cannot slow another (a short call costs about a cycle more for each
/// fetch window its path takes, so paths that share a function move each other's time):
///
/// - `short`: under 64 bytes, the 16-byte path of `short.rs` (the callers' inlined entry
///   sends short input here directly);
/// - `valid_up_to` and `is_valid`: from 64 bytes, the ASCII scan of `lean::entry`, small
///   and with no setup, which answers ASCII input by itself;
/// - `check`: the rest, out of line, the block loop of `lean::check_from` (per block for
///   `valid_up_to`, for `is_valid` with the errors of all blocks or-ed and tested once at the
///   end; far from `lean::FAR_MIN` bytes where `$far`);
/// - `finish`: out of line and cold, the whole kernel from a unit boundary, for errors and
///   odd tails.
///
/// The functions are items of the module that invokes the macro: the AVX2 kernel's
/// validate-and-copy (`avx2/mod.rs`) calls its `finish`.
macro_rules! validation_fns {
    ($token:ty, $v:ty, $isa:literal, far: $far:tt) => {
        /// Under 64 bytes: the 16-byte path of `short.rs`.
        #[target_feature(enable = $isa)]
        #[inline(never)]
        fn short(bytes: &[u8]) -> usize {
            // SAFETY: the instruction set implies SSSE3 and SSE4.1 (this function's target
            // features), all `valid_up_to_short` needs.
            unsafe {
                $crate::simd::short::valid_up_to_short::<
                    $crate::simd::x86_64::sse42::vector::Sse,
                >(bytes)
            }
        }

        /// The length of the longest valid prefix of `bytes`.
        #[target_feature(enable = $isa)]
        fn valid_up_to(bytes: &[u8]) -> usize {
            // SAFETY: the instruction set is enabled (this function's target features),
            // which the three need.
            unsafe {
                $crate::simd::lean::entry::<$v>(bytes, |b| short(b), |b, o| check::<false>(b, o))
            }
        }

        /// For `is_valid`: the length of the longest valid prefix of `bytes`, with the
        /// blocks' errors tested once at the end (invalid input costs a second pass, from
        /// `finish`).
        #[target_feature(enable = $isa)]
        fn is_valid(bytes: &[u8]) -> usize {
            // SAFETY: the instruction set is enabled (this function's target features),
            // which the three need.
            unsafe {
                $crate::simd::lean::entry::<$v>(bytes, |b| short(b), |b, o| check::<true>(b, o))
            }
        }

        /// The block loop from `o` (see `lean::check_from`).
        ///
        /// # Safety
        ///
        /// The CPU must have the instruction set; `bytes.len() >= 64`, `o <= bytes.len()`,
        /// and the bytes before `o` are ASCII.
        #[target_feature(enable = $isa)]
        #[inline(never)]
        unsafe fn check<const BASIC: bool>(bytes: &[u8], o: usize) -> usize {
            // SAFETY: the instruction set is present (this function's contract), for the
            // block loop and for `finish`, which has the same contract (and gets
            // `o <= bytes.len()`).
            unsafe {
                let fin = |b: &[u8], o| finish(b, o);
                if kernel_fns!(@far $far, bytes) {
                    $crate::simd::lean::check_from::<$v, BASIC, true>(bytes, o, fin)
                } else {
                    $crate::simd::lean::check_from::<$v, BASIC, false>(bytes, o, fin)
                }
            }
        }

        /// The whole validation kernel from a unit boundary at most 3 bytes before `o` (see
        /// `lean::finish`), out of line and cold: the block loop's error and odd-tail
        /// paths.
        ///
        /// # Safety
        ///
        /// The CPU must have the instruction set; `o <= bytes.len()`.
        #[target_feature(enable = $isa)]
        #[cold]
        #[inline(never)]
        unsafe fn finish(bytes: &[u8], o: usize) -> usize {
            // SAFETY: the instruction set is present and `o <= bytes.len()` (this function's
            // contract).
            unsafe { $crate::simd::lean::finish::<$v>(bytes, o) }
        }

        impl $token {
            /// The kernel's entry points (see `dispatch::Entries`).
            #[inline(always)]
            pub(in crate::simd::x86_64) fn entries(self) -> $crate::simd::dispatch::Entries {
                // SAFETY: `self` proves the instruction set of the three, all they need.
                unsafe {
                    $crate::simd::dispatch::Entries::new([valid_up_to, is_valid, short])
                }
            }
        }
    };
}

/// `impl Ops for $token`: each method named forwarded to the token's method of that name,
/// then each named after a `$via:` to the method of the token `self.$via()` (the AVX-512
/// kernel's AVX2 token), or with `vbmi2_or_avx2:` of its VBMI2 token where the CPU has
/// VBMI2, else of its AVX2 token; wrapped as [`Ops`] wants it; the items after the braces as
/// they are.
macro_rules! forward_ops {
    ($token:ty { $($m:ident),* $(,)? $(; $via:ident: $($vm:ident),* $(,)?)* } $($extra:tt)*) => {
        impl Ops for $token {
            $(forward_ops!(@$m);)*
            $($(forward_ops!(@$vm $via);)*)*
            $($extra)*
        }
    };
    // `$e` with `$t` the token that a method forwards to: `$s` itself, the VBMI2 token or the
    // AVX2 one (each arm compiled for its own), or `$s.$v()`.
    (@on $s:ident, $t:ident => $e:expr) => {{
        let $t = $s;
        $e
    }};
    (@on $s:ident vbmi2_or_avx2, $t:ident => $e:expr) => {
        match $s.vbmi2() {
            Some($t) => $e,
            None => {
                let $t = $s.avx2();
                $e
            }
        }
    };
    (@on $s:ident $v:ident, $t:ident => $e:expr) => {{
        let $t = $s.$v();
        $e
    }};
    (@entries $($v:ident)?) => {
        #[inline(always)]
        fn entries(self) -> Entries {
            forward_ops!(@on self $($v)?, t => t.entries())
        }
    };
    (@dense $($v:ident)?) => {
        #[inline(always)]
        fn dense(self, block: &[u8; 64]) -> Option<DenseMasks> {
            Some(forward_ops!(@on self $($v)?, t => t.dense(block)))
        }
    };
    (@count_valid $($v:ident)?) => {
        #[inline(always)]
        fn count_valid(self, bytes: &[u8], acc: &mut TextCounts) {
            forward_ops!(@on self $($v)?, t => t.count_valid(bytes, acc));
        }
    };
    (@validate_and_count $($v:ident)?) => {
        #[inline(always)]
        fn validate_and_count<const LENGTHS: bool>(
            self,
            bytes: &[u8],
            acc: &mut TextCounts,
        ) -> (usize, usize) {
            forward_ops!(@on self $($v)?, t => t.validate_and_count::<LENGTHS>(bytes, acc))
        }
    };
    (@count_windows $($v:ident)?) => {
        #[inline(always)]
        fn count_windows(self, bytes: &[u8], o: usize, c: &mut WindowCounts) -> Option<usize> {
            Some(forward_ops!(@on self $($v)?, t => t.count_windows(bytes, o, c)))
        }
    };
    (@word_blocks $($v:ident)?) => {
        #[inline(always)]
        fn word_blocks(self, bytes: &[u8], st: &mut WordState, others: &mut [u64]) -> Option<u32> {
            Some(forward_ops!(@on self $($v)?, t => t.word_blocks(bytes, st, others)))
        }
    };
    (@surely_words $($v:ident)?) => {
        #[inline(always)]
        fn surely_words(self, bytes: &[u8], base: usize, offs: &[u32], out: &mut [u16]) -> bool {
            forward_ops!(@on self $($v)?, t => t.surely_words(bytes, base, offs, out));
            true
        }
    };
    (@push_valid $($v:ident)?) => {
        #[cfg(feature = "alloc")]
        #[inline(always)]
        fn push_valid(self, bytes: &[u8], out: &mut alloc::string::String) -> Option<usize> {
            Some(forward_ops!(@on self $($v)?, t => t.push_valid(bytes, out)))
        }
    };
    (@transcode_valid $($v:ident)?) => {
        #[inline(always)]
        fn transcode_valid(self, src: &[u8], dst: &mut [u16]) -> (usize, usize) {
            forward_ops!(@on self $($v)?, t => t.transcode_valid(src, dst))
        }
    };
    (@widen_ascii $($v:ident)?) => {
        #[inline(always)]
        fn widen_ascii(self, src: &[u8], dst: &mut [u16]) -> usize {
            forward_ops!(@on self $($v)?, t => t.widen_ascii(src, dst))
        }
    };
    (@extend_valid $($v:ident)?) => {
        #[cfg(feature = "alloc")]
        #[inline(always)]
        fn extend_valid(self, src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
            forward_ops!(@on self $($v)?, t => t.extend_valid(src, out))
        }
    };
    (@extend_ascii $($v:ident)?) => {
        #[cfg(feature = "alloc")]
        #[inline(always)]
        fn extend_ascii(self, src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
            forward_ops!(@on self $($v)?, t => t.extend_ascii(src, out))
        }
    };
    (@utf16_decode $($v:ident)?) => {
        #[inline(always)]
        fn utf16_decode(
            self,
            src: &[u8],
            be: bool,
            dst: &mut [MaybeUninit<u8>],
        ) -> (usize, usize) {
            if src.len() < MIN_INPUT || dst.len() < MIN_ROOM {
                return (0, 0);
            }
            if be {
                forward_ops!(@on self $($v)?, t => t.utf16_decode::<true>(src, dst))
            } else {
                forward_ops!(@on self $($v)?, t => t.utf16_decode::<false>(src, dst))
            }
        }
    };
}

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse2;
pub(crate) mod sse42;

use core::mem::MaybeUninit;

use super::dispatch::Entries;
use super::token::{Avx2, Avx512, Sse2, Sse42};
use super::utf16_decode_tables::{MIN_INPUT, MIN_ROOM};
use super::{DenseMasks, Ops, WindowCounts, WordState};
use crate::scalar::TextCounts;

forward_ops!(Sse2 { entries });

forward_ops!(Sse42 {
    entries,
    dense,
    count_valid,
    validate_and_count,
    count_windows,
    word_blocks,
    utf16_decode,
});

forward_ops!(Avx2 {
    entries,
    dense,
    count_valid,
    validate_and_count,
    count_windows,
    word_blocks,
    surely_words,
    push_valid,
    transcode_valid,
    widen_ascii,
    extend_valid,
    extend_ascii,
    utf16_decode,
});

// The AVX-512 kernel: its own validation, counting, dense scanner and word passes (VBMI's
// where the CPU has it), its UTF-8 -> UTF-16 and UTF-16 -> UTF-8 transcoders where the CPU has
// VBMI2 (else AVX2's), and AVX2's short path and copy.
forward_ops!(Avx512 {
    entries,
    dense,
    count_valid,
    validate_and_count,
    count_windows,
    surely_words;
    avx2: push_valid;
    vbmi2_or_avx2: transcode_valid, widen_ascii, extend_valid, extend_ascii, utf16_decode,
}
    #[inline(always)]
    fn word_blocks(self, bytes: &[u8], st: &mut WordState, others: &mut [u64]) -> Option<u32> {
        // The VBMI token's pass where the CPU has it, else the AVX-512BW one of `kernel_fns!`.
        Some(match self.vbmi() {
            Some(vbmi) => vbmi.word_blocks(bytes, st, others),
            None => self.word_blocks(bytes, st, others),
        })
    }
);
