//! The C++ simdutf library's valid-only UTF-8 to UTF-16 transcoder and its validating UTF-16LE
//! to UTF-8 transcoder behind safe functions: their Rust bindings are `unsafe fn`s over raw
//! pointers.

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

/// simdutf's UTF-8 of the UTF-16LE `units` (its validating `convert_utf16le_to_utf8`),
/// written at the start of `dst`: the number of bytes written, or 0 when simdutf finds an
/// unpaired surrogate (then `dst` holds nothing meaningful).
///
/// # Panics
///
/// When `dst` is shorter than three bytes per unit: simdutf writes at most that many and
/// checks no bound itself.
pub fn utf16le_to_utf8(units: &[u16], dst: &mut [u8]) -> usize {
    assert!(
        dst.len() >= 3 * units.len(),
        "room for three bytes per unit"
    );
    // SAFETY: `units` is readable for `units.len()` aligned units and `dst` writable for at
    // least three bytes each (asserted just above), the most UTF-8 simdutf writes for them
    // (a surrogate pair, two units, gives four); the two do not overlap.
    unsafe { ::simdutf::convert_utf16le_to_utf8(units.as_ptr(), units.len(), dst.as_mut_ptr()) }
}
