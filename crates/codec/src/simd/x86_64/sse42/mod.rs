//! The SSE4.2 kernel (with SSSE3, SSE4.1 and POPCNT), 16 bytes per vector: its vector type
//! ([`vector`]), its validation entry points, the generic algorithms stamped out for it, and
//! its UTF-16 → UTF-8 transcoder ([`utf16_decode`]), whose 128-bit steps the AVX2 one takes
//! too.

pub(crate) mod utf16_decode;
pub(crate) mod vector;

use vector::Sse;

use crate::simd::token;

validation_fns!(token::Sse42, Sse, "sse4.2", far: false);
kernel_fns!(token::Sse42, Sse, "sse4.2", "sse4.2,popcnt", far: false);
