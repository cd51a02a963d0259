//! The active kernel's UTF-8 → UTF-16 transcoder of valid runs (`utf16.rs`, stamped out for
//! AVX2 in `x86_64/avx2/utf16.rs` and for NEON in `aarch64/neon/mod.rs`), for the crate's
//! `utf16.rs`: each function converts what the transcoder can and leaves the rest to the
//! caller's scalar twin; without a transcoder it converts nothing. The kernel's token
//! ([`Available::active`]) decides which: AVX2's for the AVX2 kernel, and for the AVX-512
//! kernel on a CPU without VBMI2; the AVX-512 kernel's own with VBMI2
//! (`x86_64/avx512/utf16.rs`); NEON's.

use super::Available;

/// Transcodes a prefix of `src`, valid UTF-8, into `dst` with the active kernel's vector
/// transcoder when it has one (AVX2's `utf16.rs`, used by the AVX2 kernel and by AVX-512
/// without VBMI2; AVX-512 VBMI2's; NEON's), and returns (bytes read, units written), a code
/// point boundary; `(0, 0)` otherwise. The caller converts the rest (every tail under 80
/// bytes or units) with the scalar twin.
#[inline]
pub(crate) fn transcode_valid_prefix(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    Available::active().transcode_valid(src, dst)
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
    Available::active().extend_valid(src, out)
}

/// Writes to `dst` the UTF-16 of an ASCII prefix of `src` and returns its length (as many
/// units written): with a vector transcoder (the active kernel AVX2, AVX-512 or NEON) whole
/// blocks of 64 bytes, then of 16, up to the first block with a byte that is not ASCII, as
/// far as `dst` has room, in one pass; otherwise nothing. The prefix always ends before a
/// byte that starts a unit.
#[inline]
pub(crate) fn widen_ascii(src: &[u8], dst: &mut [u16]) -> usize {
    Available::active().widen_ascii(src, dst)
}

/// Appends to `out` the UTF-16 of the ASCII prefix of `src` and returns its length: with a
/// vector transcoder (the active kernel AVX2, AVX-512 or NEON) in whole blocks of 64 bytes,
/// then of 16, and the rest when all of `src` is ASCII, one pass; otherwise all of `src` when
/// it is ASCII, or nothing. The prefix always ends before a byte that starts a unit.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn extend_ascii(src: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
    let n = Available::active().extend_ascii(src, out);
    let rest = &src[n..];
    if rest.is_ascii() {
        out.extend(rest.iter().map(|&b| u16::from(b)));
        return src.len();
    }
    n
}
