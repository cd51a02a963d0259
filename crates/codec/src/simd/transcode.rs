//! The active kernel's UTF-8 → UTF-16 transcoder of valid runs (`utf16.rs`, stamped out for
//! AVX2 in `x86_64/utf16_avx2.rs` and for NEON in `aarch64/mod.rs`), for the crate's
//! `utf16.rs`: each function converts what the transcoder can and leaves the rest to the
//! caller's scalar twin; without a transcoder it converts nothing.

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
use super::aarch64;
#[cfg(target_arch = "x86_64")]
use super::x86_64;
use super::{Available, Kernel};

/// Whether the AVX2 UTF-16 transcoder is used: the active kernel is AVX2 or AVX-512 (which
/// is available only with AVX2: `is_available`).
#[cfg(target_arch = "x86_64")]
#[inline]
fn utf16_avx2() -> bool {
    matches!(Available::active().0, Kernel::Avx2 | Kernel::Avx512)
}

/// Whether the NEON UTF-16 transcoder is used: the active kernel is NEON.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
#[inline]
fn utf16_neon() -> bool {
    Available::active().0 == Kernel::Neon
}

/// Transcodes a prefix of `src`, valid UTF-8, into `dst` with the vector transcoder of
/// `utf16.rs` when the active kernel has one (AVX2, used by the AVX2 and AVX-512 kernels, and
/// NEON), and returns (bytes read, units written), a code point boundary; `(0, 0)` otherwise.
/// The caller converts the rest (every tail under 80 bytes or units) with the scalar twin.
#[inline]
pub(crate) fn transcode_valid_prefix(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    #[cfg(target_arch = "x86_64")]
    if utf16_avx2() {
        // SAFETY: AVX2 is available (checked just above); `dst` is writable for its length.
        return unsafe {
            x86_64::utf16_avx2::transcode_valid_avx2(src, dst.as_mut_ptr(), dst.len())
        };
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    if utf16_neon() {
        return aarch64::transcode_valid_neon(src, dst);
    }
    let _ = (src, dst);
    (0, 0)
}

/// [`transcode_valid_prefix`] appending to `out`, the transcoder writing straight into the
/// spare capacity (no zero fill); returns the bytes converted, 0 without the transcoder.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn extend_valid_prefix(src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
    // Under a block and its room (`utf16.rs`'s `ROOM`) the transcoder converts nothing.
    if src.len() < 80 {
        return 0;
    }
    #[cfg(target_arch = "x86_64")]
    if utf16_avx2() {
        // SAFETY: AVX2 is available (checked just above).
        return unsafe { x86_64::utf16_avx2::extend_valid_avx2(src, out) };
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    if utf16_neon() {
        return aarch64::extend_valid_neon(src, out);
    }
    let _ = (src, out);
    0
}

/// Writes to `dst` the UTF-16 of an ASCII prefix of `src` and returns its length (as many
/// units written): with a vector transcoder (the active kernel AVX2, AVX-512 or NEON) whole
/// blocks of 64 bytes, then of 16, up to the first block with a byte that is not ASCII, as
/// far as `dst` has room, in one pass; otherwise nothing. The prefix always ends before a
/// byte that starts a unit.
#[inline]
pub(crate) fn widen_ascii(src: &[u8], dst: &mut [u16]) -> usize {
    let src = &src[..src.len().min(dst.len())];
    #[cfg(target_arch = "x86_64")]
    if utf16_avx2() {
        // SAFETY: AVX2 is available (checked just above); `dst` has room for `src.len()`
        // units (`src` was cut to its length), which is all the function may write.
        return unsafe { x86_64::utf16_avx2::widen_ascii_avx2(src, dst.as_mut_ptr()) };
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    if utf16_neon() {
        return aarch64::widen_ascii_neon(src, dst);
    }
    let _ = (src, dst);
    0
}

/// Appends to `out` the UTF-16 of the ASCII prefix of `src` and returns its length: with a
/// vector transcoder (the active kernel AVX2, AVX-512 or NEON) in whole blocks of 64 bytes,
/// then of 16, and the rest when all of `src` is ASCII, one pass; otherwise all of `src` when
/// it is ASCII, or nothing. The prefix always ends before a byte that starts a unit.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn extend_ascii(src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
    let n = vector_extend_ascii(src, out);
    let rest = &src[n..];
    if rest.is_ascii() {
        out.extend(rest.iter().map(|&b| u16::from(b)));
        return src.len();
    }
    n
}

/// The vector part of [`extend_ascii`]: 0 without a vector transcoder.
#[cfg(feature = "alloc")]
#[inline]
fn vector_extend_ascii(src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
    #[cfg(target_arch = "x86_64")]
    if utf16_avx2() {
        // SAFETY: AVX2 is available (checked just above).
        return unsafe { x86_64::utf16_avx2::extend_ascii_avx2(src, out) };
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    if utf16_neon() {
        return aarch64::extend_ascii_neon(src, out);
    }
    let _ = (src, out);
    0
}
