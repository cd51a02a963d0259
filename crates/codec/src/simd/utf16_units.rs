//! The UTF-16 unit classes shared by the UTF-16 → UTF-8 transcoders (the scalar twin in
//! `utf16_decode.rs`, the kernels) and the crate's `utf16_decode.rs`.

/// Whether `u` is a lead (high) surrogate, U+D800..U+DBFF.
#[inline(always)]
pub(crate) const fn is_lead(u: u16) -> bool {
    u & 0xFC00 == 0xD800
}

/// Whether `u` is a trail (low) surrogate, U+DC00..U+DFFF.
#[inline(always)]
pub(crate) const fn is_trail(u: u16) -> bool {
    u & 0xFC00 == 0xDC00
}

/// The unit of bytes `a`, `b` in the order `BE` says.
#[inline(always)]
pub(crate) const fn unit<const BE: bool>(a: u8, b: u8) -> u16 {
    if BE {
        u16::from_be_bytes([a, b])
    } else {
        u16::from_le_bytes([a, b])
    }
}

/// The scalar value of a lead surrogate `l` and a trail surrogate `t`.
#[inline(always)]
pub(crate) const fn pair(l: u16, t: u16) -> u32 {
    0x1_0000 + (((l as u32) & 0x3FF) << 10) + ((t as u32) & 0x3FF)
}
