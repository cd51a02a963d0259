//! The x86-64 kernels: the SSE4.2, AVX2 and AVX-512 primitives of the generic algorithms
//! ([`vectors`]) and their `#[target_feature]` entry points, and what exists for x86-64
//! alone: the SSE2 kernel ([`sse2`]), AVX-512 VBMI's word classifier (in [`words`]) and the
//! AVX2 UTF-8 → UTF-16 transcoder ([`utf16_avx2`]), and the SSE4.2 and AVX2 UTF-16 → UTF-8
//! transcoder ([`utf16_decode`]).
//!
//! Every entry point is an `unsafe fn`: `simd/mod.rs` calls one only with a
//! [`simd::Available`](super::Available) of its kernel.

pub(crate) mod entry;
pub(crate) mod sse2;
pub(crate) mod surely;
pub(crate) mod utf16_avx2;
pub(crate) mod utf16_decode;
pub(crate) mod vectors;
pub(crate) mod words;
