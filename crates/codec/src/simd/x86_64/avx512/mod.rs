//! The AVX-512 kernel (AVX-512F and AVX-512BW), 64 bytes per vector: its vector type
//! ([`vector`]), its validation entry points ([`entry`]), the generic algorithms stamped out
//! for it, the vector test of word counting's unvouched run starts ([`surely`]), and word
//! counting's pass with VBMI ([`vbmi`]), a capability of its own (`token::Avx512Vbmi`), and
//! the UTF-8 → UTF-16 transcoder with VBMI and VBMI2 ([`utf16`], `token::Avx512Vbmi2`) and
//! the UTF-16 → UTF-8 one with the same ([`utf16_decode`]). Its copy, and its transcoders on a
//! CPU without VBMI2, are AVX2's.

mod entry;
pub(crate) mod surely;
pub(crate) mod utf16;
mod utf16_decode;
pub(crate) mod vbmi;
pub(crate) mod vector;

use vector::Avx512;

use crate::simd::token;

kernel_fns!(
    token::Avx512,
    Avx512,
    "avx512f,avx512bw",
    "avx512f,avx512bw,popcnt",
    far: true
);
