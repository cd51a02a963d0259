//! The active kernel's entry points for [`validate`](fn@crate::validate),
//! [`valid_up_to`](crate::valid_up_to) and [`is_valid`](crate::is_valid), inlined into the
//! caller: a length test, short ASCII settled here, and the rest by one of the three entry
//! points of the active kernel (under 64 bytes, and from 64 for each function), as pointers
//! its token hands out ([`Entries`]), cached on the first call (as memchr's `unsafe_ifunc!`):
//! a load and an indirect call, which measured faster from 64 bytes than a match on the
//! token calling each kernel's entry directly (the figures are in CHANGELOG.md).

use core::sync::atomic::{AtomicPtr, Ordering};

use super::Available;
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
    if bytes.len() <= ONE_TEST {
        entry::<true>(bytes)
    } else {
        entry::<false>(bytes)
    }
}

/// The longest input [`valid_up_to`] checks with one test of the blocks' errors.
const ONE_TEST: usize = 4096;

/// Whether `bytes` is valid UTF-8, for [`is_valid`](crate::is_valid): as [`valid_up_to`], by
/// the kernel's entry point that tests the errors of all blocks once, at the end.
#[inline(always)]
pub(crate) fn is_valid(bytes: &[u8]) -> bool {
    entry::<true>(bytes) == bytes.len()
}

/// [`valid_up_to`] and [`is_valid`]: short ASCII and other input under 4 bytes here, other
/// input under 64 bytes by the kernel's short entry point, the rest by its `is_valid` entry
/// point with `ONCE`, else its `valid_up_to`: each cached as a pointer ([`CACHE`]).
#[inline(always)]
fn entry<const ONCE: bool>(bytes: &[u8]) -> usize {
    let mut i = if ONCE { IS_VALID } else { VALID_UP_TO };
    if bytes.len() < 64 {
        i = SHORT;
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
    let f = CACHE[i].load(Ordering::Relaxed);
    // SAFETY: `CACHE` holds only `KernelFn`s (its initial values and what `init` stores), each
    // a safe function or an entry point of `Available::active()`'s `Entries`, which this CPU
    // runs.
    unsafe { core::mem::transmute::<*mut (), KernelFn>(f)(bytes) }
}

/// The active kernel's [`Entries`], cached as pointers so that a call costs a load and an
/// indirect call (as memchr's `unsafe_ifunc!`); until the first call, functions that fill
/// the cache.
static CACHE: [AtomicPtr<()>; 3] = [
    AtomicPtr::new(init::<VALID_UP_TO> as fn(&[u8]) -> usize as *mut ()),
    AtomicPtr::new(init::<IS_VALID> as fn(&[u8]) -> usize as *mut ()),
    AtomicPtr::new(init::<SHORT> as fn(&[u8]) -> usize as *mut ()),
];

/// The first call through `CACHE[I]`: fills the cache, then calls entry point `I`.
fn init<const I: usize>(bytes: &[u8]) -> usize {
    let e = Available::active().entries();
    for (c, f) in CACHE.iter().zip(e.0) {
        c.store(f as *mut (), Ordering::Relaxed);
    }
    e.call(I, bytes)
}

/// A kernel's entry point: the length of the longest valid prefix of its argument.
///
/// # Safety
///
/// Callable only where the kernel is available (the CPU has its target features).
type KernelFn = unsafe fn(&[u8]) -> usize;

/// The index in [`Entries`] of the entry point for `valid_up_to` from 64 bytes.
const VALID_UP_TO: usize = 0;
/// The index in [`Entries`] of the entry point for `is_valid` from 64 bytes.
const IS_VALID: usize = 1;
/// The index in [`Entries`] of the entry point for both under 64 bytes: a function of its
/// own (see `validation_fns!` in `x86_64/mod.rs`, and `aarch64/neon/mod.rs`), and a short
/// call skips the long entry's length test.
const SHORT: usize = 2;

/// A kernel's three validation entry points ([`VALID_UP_TO`], [`IS_VALID`], [`SHORT`]), as
/// pointers: made by its token ([`Ops::entries`](super::Ops::entries)), the only holder of
/// pointers to its `#[target_feature]` functions, so calling them is safe.
#[derive(Clone, Copy)]
pub(crate) struct Entries([KernelFn; 3]);

impl Entries {
    /// The entry points `f`.
    ///
    /// # Safety
    ///
    /// This CPU must run every function of `f` (have their target features).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) unsafe fn new(f: [KernelFn; 3]) -> Entries {
        Entries(f)
    }

    /// Entry points that are safe functions.
    #[inline(always)]
    pub(crate) fn safe(f: [fn(&[u8]) -> usize; 3]) -> Entries {
        Entries(f.map(|f| f as KernelFn))
    }

    /// The `valid_up_to` entry point on `bytes`.
    #[inline(always)]
    pub(crate) fn valid_up_to(self, bytes: &[u8]) -> usize {
        self.call(VALID_UP_TO, bytes)
    }

    /// Entry point `i` on `bytes`.
    #[inline(always)]
    fn call(self, i: usize, bytes: &[u8]) -> usize {
        // SAFETY: `Entries::new`'s contract, or safe functions (`Entries::safe`): this CPU
        // runs every entry point of `self`.
        unsafe { self.0[i](bytes) }
    }
}
