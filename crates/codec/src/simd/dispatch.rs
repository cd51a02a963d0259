//! The active kernel's entry points for [`validate`](fn@crate::validate),
//! [`valid_up_to`](crate::valid_up_to) and [`is_valid`](crate::is_valid), cached as function
//! pointers on the first call (as memchr's `unsafe_ifunc!`), so that a call costs a length
//! test, a load and an indirect call: short ASCII is settled here, inlined into the caller,
//! and the rest by one of three entry points (under 64 bytes, and from 64 for each function).

use core::sync::atomic::{AtomicPtr, Ordering};

use super::Kernel;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
use super::aarch64;
#[cfg(target_arch = "x86_64")]
use super::x86_64::{entry as x86_64_entry, sse2 as x86_64_sse2};
use crate::scalar;

/// The length of the longest valid prefix of `bytes`, by the active kernel, for
/// [`validate`](fn@crate::validate) and [`valid_up_to`](crate::valid_up_to), where the input is
/// usually valid: input under a block that is all ASCII is settled by a few word loads,
/// anything else goes straight to the kernel, whose entry has its own paths for short input
/// and tails (`short.rs`, `lean.rs`). Up to [`ONE_TEST`] bytes, by the entry point of
/// [`is_valid`] (its answer is exact too): the blocks' errors tested once, at the end, which
/// measured faster than a test per block on short mixed text, for a second pass of at most
/// that many bytes where there is an error. No dense probe, which pays only where
/// errors are dense ([`probe`](super::probe), for the error iterator).
#[inline(always)]
pub(crate) fn valid_up_to(bytes: &[u8]) -> usize {
    let f = if bytes.len() <= ONE_TEST {
        &IS_VALID
    } else {
        &VALID_UP_TO
    };
    entry(f, bytes)
}

/// The longest input [`valid_up_to`] checks with one test of the blocks' errors.
const ONE_TEST: usize = 4096;

/// Whether `bytes` is valid UTF-8, for [`is_valid`](crate::is_valid): as [`valid_up_to`], by
/// the kernel's entry point that tests the errors of all blocks once, at the end.
#[inline(always)]
pub(crate) fn is_valid(bytes: &[u8]) -> bool {
    entry(&IS_VALID, bytes) == bytes.len()
}

/// [`valid_up_to`] and [`is_valid`]: short ASCII and other input under 4 bytes here, other
/// input under 64 bytes by the kernel's short entry point ([`SHORT`]), the rest by the entry
/// point in `f`.
#[inline(always)]
fn entry(mut f: &AtomicPtr<()>, bytes: &[u8]) -> usize {
    if bytes.len() < 64 {
        f = &SHORT;
        match bytes.first_chunk::<8>().map(|w| u64::from_le_bytes(*w)) {
            // Under 8 bytes: ASCII here, and under 4 one sequence at most (a scalar check
            // takes two thirds of the time of the kernel's call, which sets up its tables),
            // the rest by the kernel (a vector check of the word where there is one, else
            // core's validator).
            None if scalar::is_ascii_short(bytes) => return bytes.len(),
            None if bytes.len() < 4 => return scalar::valid_up_to_tiny(bytes),
            None => {}
            // Text whose first word is not ASCII goes to the kernel at once: the whole ASCII
            // test would be spent on it.
            Some(w) if w & 0x8080_8080_8080_8080 != 0 => {}
            Some(_) if scalar::is_ascii_short(bytes) => return bytes.len(),
            Some(_) => {}
        }
    }
    let f = f.load(Ordering::Relaxed);
    // SAFETY: `VALID_UP_TO`, `IS_VALID` and `SHORT` only ever hold a `KernelFn` (their
    // initial values and what `init_entries` stores), one whose kernel is available: `init_*`,
    // or the entry points of `Kernel::active()`, chosen among available kernels.
    unsafe { core::mem::transmute::<*mut (), KernelFn>(f)(bytes) }
}

/// A kernel's entry point: the length of the longest valid prefix of its argument.
///
/// # Safety
///
/// Callable only where the kernel is available (the CPU has its target features).
type KernelFn = unsafe fn(&[u8]) -> usize;

/// The entry points of [`Kernel::active`] for [`valid_up_to`] and [`is_valid`], cached as
/// pointers (as memchr's `unsafe_ifunc!`) so that a call costs a load and an indirect call,
/// not a match on the kernel; `init_*` until the first call.
static VALID_UP_TO: AtomicPtr<()> = AtomicPtr::new(init_valid_up_to as KernelFn as *mut ());
/// See [`VALID_UP_TO`].
static IS_VALID: AtomicPtr<()> = AtomicPtr::new(init_is_valid as KernelFn as *mut ());
/// The entry point for input under 64 bytes, for both: a function of its own (see
/// `x86_64/entry.rs`, `aarch64/mod.rs`), and a short call skips the long entry's length
/// test.
static SHORT: AtomicPtr<()> = AtomicPtr::new(init_short as KernelFn as *mut ());

/// Caches the active kernel's entry points; returns them (`valid_up_to`, `is_valid`, short).
fn init_entries() -> (KernelFn, KernelFn, KernelFn) {
    let f: (KernelFn, KernelFn, KernelFn) = match Kernel::active() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => (
            x86_64_entry::valid_up_to_avx512,
            x86_64_entry::is_valid_avx512,
            x86_64_entry::short_avx2,
        ),
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => (
            x86_64_entry::valid_up_to_avx2,
            x86_64_entry::is_valid_avx2,
            x86_64_entry::short_avx2,
        ),
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse42 => (
            x86_64_entry::valid_up_to_sse42,
            x86_64_entry::is_valid_sse42,
            x86_64_entry::short_sse42,
        ),
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse2 => (
            x86_64_sse2::valid_up_to_sse2,
            x86_64_sse2::valid_up_to_sse2,
            x86_64_sse2::valid_up_to_sse2,
        ),
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        Kernel::Neon => (
            aarch64::valid_up_to_neon,
            aarch64::is_valid_neon,
            aarch64::short_neon,
        ),
        _ => (
            scalar::valid_up_to_core,
            scalar::valid_up_to_core,
            scalar::valid_up_to_core,
        ),
    };
    VALID_UP_TO.store(f.0 as *mut (), Ordering::Relaxed);
    IS_VALID.store(f.1 as *mut (), Ordering::Relaxed);
    SHORT.store(f.2 as *mut (), Ordering::Relaxed);
    f
}

/// The first call through [`VALID_UP_TO`].
///
/// # Safety
///
/// None needed (the `unsafe` is the type of [`KernelFn`]).
unsafe fn init_valid_up_to(bytes: &[u8]) -> usize {
    // SAFETY: the entry point of the active kernel, which is available.
    unsafe { init_entries().0(bytes) }
}

/// The first call through [`IS_VALID`].
///
/// # Safety
///
/// None needed (the `unsafe` is the type of [`KernelFn`]).
unsafe fn init_is_valid(bytes: &[u8]) -> usize {
    // SAFETY: the entry point of the active kernel, which is available.
    unsafe { init_entries().1(bytes) }
}

/// The first call through [`SHORT`].
///
/// # Safety
///
/// None needed (the `unsafe` is the type of [`KernelFn`]).
unsafe fn init_short(bytes: &[u8]) -> usize {
    // SAFETY: the entry point of the active kernel, which is available.
    unsafe { init_entries().2(bytes) }
}
