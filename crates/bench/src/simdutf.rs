//! The C++ simdutf library's valid-only UTF-8 to UTF-16 transcoder behind a safe function: its
//! Rust binding is an `unsafe fn` over raw pointers.

/// simdutf's UTF-16 (little-endian) of the valid UTF-8 `bytes`, written at the start of `dst`:
/// the number of units written, or 0 when simdutf finds `bytes` invalid (then `dst` holds
/// nothing meaningful).
///
/// # Panics
///
/// When `dst` is shorter than `bytes`: simdutf writes at most one unit per byte and checks
/// no bound itself.
pub fn utf8_to_utf16le(bytes: &[u8], dst: &mut [u16]) -> usize {
    assert!(dst.len() >= bytes.len(), "room for one unit per byte");
    // SAFETY: `bytes` is readable for `bytes.len()` bytes and `dst` writable for at least as
    // many units (asserted just above), the most UTF-16 units simdutf writes for that many
    // bytes; the two do not overlap (one is shared, the other exclusive).
    unsafe { ::simdutf::convert_utf8_to_utf16le(bytes.as_ptr(), bytes.len(), dst.as_mut_ptr()) }
}
