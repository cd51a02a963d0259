//! The AVX2 kernel, 32 bytes per vector: its vector type ([`vector`]), its validation entry
//! points and validate-and-copy, the generic algorithms stamped out for it, the vector test
//! of word counting's unvouched run starts ([`surely`]), and its UTF-8 → UTF-16 ([`utf16`])
//! and UTF-16 → UTF-8 ([`utf16_decode`]) transcoders. The AVX-512 kernel takes its copy and
//! transcoders (through [`Avx512::avx2`](token::Avx512::avx2)), UTF-8 → UTF-16 only on a CPU
//! without VBMI2.

pub(crate) mod surely;
pub(crate) mod utf16;
pub(crate) mod utf16_decode;
pub(crate) mod vector;

use vector::Avx2;

use crate::simd::token;

validation_fns!(token::Avx2, Avx2, "avx2", far: true);
kernel_fns!(token::Avx2, Avx2, "avx2", "avx2,popcnt", far: true);

token_fns! { token::Avx2, "avx2":
    /// Appends the longest valid prefix of `bytes` to `out`, validated and copied in one pass
    /// (see `copy::push_valid`); returns its length. For the AVX2 and AVX-512 kernels.
    #[cfg(feature = "alloc")]
    fn push_valid(bytes: &[u8], out: &mut alloc::string::String) -> usize {
        // SAFETY: AVX2 is enabled (the function's target features); `finish` has the same ISA
        // contract, gets `o <= bytes.len()` and returns the length of the valid prefix
        // (`lean::finish`), at most `bytes.len()`, as `push_valid` requires.
        unsafe { crate::simd::copy::push_valid::<Avx2>(bytes, out, |b, o| finish(b, o)) }
    }
}
