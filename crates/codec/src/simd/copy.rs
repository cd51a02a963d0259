//! Validate and copy in one pass, for repair of sparse errors, written once over [`Vector`]:
//! the block loop of `lean.rs` with each 64-byte block copied to the output as soon as it is
//! checked, while it is in L1, so that the input is read from memory once and the loads and
//! the stores of the copy overlap in one loop (validating a run and then copying it reads it
//! twice and runs the two one after the other). Each ISA stamps it out with its own `exact`
//! (`x86_64/avx2/mod.rs`, `aarch64/neon/mod.rs`).

use super::blocks::{BLOCK, Cursor, PREFETCH, Visit, blocks};
use super::generic::{Tables, Vector};

/// Appends the longest valid prefix of `bytes` to `out`, validated and copied in one pass
/// by [`copy_valid`] straight into the spare capacity; returns its length. `exact(bytes, o)`
/// is the valid prefix's length when every sequence ending before `o` has been checked.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `exact(bytes, o)` (for `o <= bytes.len()`) must return an
/// `n <= bytes.len()` with `bytes[..n]` well-formed (the `String` keeps what is copied).
#[inline(always)]
pub(crate) unsafe fn push_valid<V: Vector>(
    bytes: &[u8],
    out: &mut alloc::string::String,
    exact: impl FnOnce(&[u8], usize) -> usize,
) -> usize {
    out.reserve(bytes.len());
    // SAFETY: the bytes appended to the `String`'s vector are `bytes[..n]`, which the kernel
    // found well-formed: the `String` stays UTF-8.
    let v = unsafe { out.as_mut_vec() };
    let spare = v.spare_capacity_mut();
    // SAFETY: V's ISA (this function's contract); `spare` is writable for at least
    // `bytes.len()` bytes (reserved just above) and does not overlap `bytes` (a shared borrow,
    // while `out` is borrowed exclusively).
    let n = unsafe { copy_valid::<V>(bytes, spare.as_mut_ptr().cast(), exact) };
    // SAFETY: `copy_valid` wrote (initialized) the first `n <= bytes.len()` bytes of the
    // spare capacity, a copy of `bytes[..n]`, which is well-formed.
    unsafe { v.set_len(v.len() + n) };
    n
}

/// Copies the longest valid prefix of `bytes` to `dst` and returns its length `n`:
/// `dst[..n] == bytes[..n]` afterwards (bytes of `dst` after `n`, up to `bytes.len()`, may
/// have been written too). `exact(bytes, o)` is the valid prefix's length when every sequence
/// ending before `o` has been checked.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `dst` writable for `bytes.len()` bytes, not overlapping
/// `bytes`; `exact(bytes, o)` (for `o <= bytes.len()`) must return an `n <= bytes.len()`
/// (which is then returned) with `bytes[..n]` well-formed.
#[inline(always)]
pub(crate) unsafe fn copy_valid<V: Vector>(
    bytes: &[u8],
    dst: *mut u8,
    exact: impl FnOnce(&[u8], usize) -> usize,
) -> usize {
    let (len, ptr) = (bytes.len(), bytes.as_ptr());
    // SAFETY: V's ISA (the caller's contract). The loop copies to `dst + o` the blocks it
    // read at `ptr + o`, below `len`, which the caller allows.
    unsafe {
        let t = Tables::<V>::new();
        let mut c = Cursor::at(&t, 0);
        if blocks(&t, ptr, len, &mut c, &mut Copy(dst)) && c.o == len && !c.incomplete.any_high_bit()
        {
            return len;
        }
        copy_rest(bytes, dst, c.o, exact(bytes, c.o))
    }
}

/// The [`Visit`] of [`copy_valid`]: each block copied to the output as soon as it is checked.
struct Copy(*mut u8);

impl<V: Vector> Visit<V> for Copy {
    #[inline(always)]
    unsafe fn before(&mut self, o: usize) {
        // SAFETY: a prefetch reads nothing (its address may be past the end: `wrapping_add`
        // computes it without claiming it is in bounds); V's ISA (the trait's contract).
        // The output's line too: a store to a line not in the cache waits for it.
        unsafe { V::prefetch(self.0.wrapping_add(o + PREFETCH)) };
    }

    #[inline(always)]
    unsafe fn done(&mut self, ptr: *const u8, o: usize) {
        // SAFETY: `ptr + o .. + BLOCK` is readable (the trait's contract) and `copy_valid`'s
        // caller allows writing `dst + o .. + BLOCK` (`o + BLOCK` is at most the input's
        // length), which does not overlap the input. The block was just loaded: the copy
        // reads it from L1.
        unsafe { core::ptr::copy_nonoverlapping(ptr.add(o), self.0.add(o), BLOCK) };
    }
}

/// Copies `bytes[o..n]` to `dst + o` (nothing when `n <= o`: a sequence cut off at `o` was
/// copied before it was found wanting, which is allowed) and returns `n`.
///
/// # Safety
///
/// `dst` writable for `bytes.len()` bytes, not overlapping `bytes`; `n <= bytes.len()`.
#[inline(always)]
unsafe fn copy_rest(bytes: &[u8], dst: *mut u8, o: usize, n: usize) -> usize {
    if n > o {
        // SAFETY: `o < n <= bytes.len()`, so `n - o` bytes are readable at `bytes + o` and
        // writable at `dst + o` (the caller's contract), and the two do not overlap.
        unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr().add(o), dst.add(o), n - o) };
    }
    n
}
