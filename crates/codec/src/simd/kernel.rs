//! The kernels, by name: what `UTF8_CODEC_KERNEL` and `Kernel::from_name` read. What a
//! kernel needs of the CPU is in `token.rs`, what it does in `mod.rs` (`Ops`).

/// A validation kernel: the portable scalar decoder or a SIMD implementation.
///
/// Every kernel gives the same answers; they differ only in speed. [`Kernel::active`] is the
/// one the crate's functions use.
///
/// ```
/// use utf8_codec::Kernel;
///
/// let text = "Grüße aus Köln, 你好 ".repeat(10);
/// for kernel in Kernel::available() {
///     assert_eq!(kernel.valid_up_to(text.as_bytes()), Some(text.len()));
/// }
/// assert!(Kernel::available().any(|k| k == Kernel::active()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kernel {
    /// Portable: whole 64-byte ASCII blocks skipped by words, then `core::str::from_utf8`
    /// (never slower than core); the only kernel off x86-64 and aarch64, and of an x86-64
    /// build without `std` whose target features do not include SSE2.
    Scalar,
    /// SSE2 (x86-64), 16 bytes per vector, Table 3-7 checked by compares (SSE2 has no
    /// `pshufb` for the lookup algorithm): validation only, the other functions use the
    /// scalar paths with it. The kernel of the default x86-64 target without `std`.
    Sse2,
    /// SSE4.2 (x86-64), 16 bytes per vector.
    Sse42,
    /// AVX2 (x86-64), 32 bytes per vector.
    Avx2,
    /// AVX-512F with AVX-512BW (x86-64), 64 bytes per vector.
    Avx512,
    /// NEON (aarch64), 16 bytes per vector: part of the aarch64 baseline, so available on
    /// every aarch64 target that enables it at compile time (all the usual ones do).
    Neon,
}

/// Every kernel, slowest first.
pub(crate) const ALL: [Kernel; 6] = [
    Kernel::Scalar,
    Kernel::Sse2,
    Kernel::Sse42,
    Kernel::Avx2,
    Kernel::Avx512,
    Kernel::Neon,
];

impl Kernel {
    /// The name used by `UTF8_CODEC_KERNEL` and `--engine`-style options: `scalar`, `sse2`,
    /// `sse4.2`, `avx2`, `avx512`, `neon`.
    ///
    /// ```
    /// assert_eq!(utf8_codec::Kernel::Avx2.name(), "avx2");
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            Kernel::Sse2 => "sse2",
            Kernel::Sse42 => "sse4.2",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
            Kernel::Neon => "neon",
        }
    }

    /// The kernel with this name, if there is one.
    ///
    /// ```
    /// use utf8_codec::Kernel;
    /// assert_eq!(Kernel::from_name("sse4.2"), Some(Kernel::Sse42));
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn from_name(name: &str) -> Option<Kernel> {
        ALL.into_iter().find(|k| k.name() == name)
    }
}
