//! The kernels: their selection at run time, and the helpers that run one (each taking an
//! [`Available`]). Outside `simd/`, only `words.rs` names `target_arch` (for its tests of the
//! VBMI tables).
//!
//! The choice is made once, on first use, and cached in an atomic: the best kernel the CPU
//! supports, or the one named by the environment variable `UTF8_CODEC_KERNEL` (`scalar`, `sse2`,
//! `sse4.2`, `avx2`, `avx512`, `neon`; with the `std` feature) when that one is available, so a
//! test suite can be run through each path.

use core::sync::atomic::{AtomicU8, Ordering};

use crate::scalar::{self, TextCounts};

/// The items between the braces, compiled where a vector kernel exists: x86-64, and aarch64
/// with NEON.
macro_rules! with_vectors {
    ($($item:item)*) => {
        $(
            #[cfg(any(target_arch = "x86_64", all(target_arch = "aarch64", target_feature = "neon")))]
            $item
        )*
    };
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod aarch64;
mod blocks;
mod counting;
pub(crate) mod dispatch;
mod generic;
pub(crate) mod transcode;
pub(crate) mod utf16_decode;
pub(crate) mod utf16_units;
mod words;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;
with_vectors! {
    #[cfg(feature = "alloc")]
    mod copy;
    mod lean;
    mod short;
    mod utf16;
    mod utf16_decode_tables;
    mod utf16_tables;
}

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

const ALL: [Kernel; 6] = [
    Kernel::Scalar,
    Kernel::Sse2,
    Kernel::Sse42,
    Kernel::Avx2,
    Kernel::Avx512,
    Kernel::Neon,
];
const UNSET: u8 = u8::MAX;
static ACTIVE: AtomicU8 = AtomicU8::new(UNSET);

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

    /// Whether this CPU can run the kernel (checked at run time with `std`, from the
    /// compile-time target features without it).
    ///
    /// ```
    /// assert!(utf8_codec::Kernel::Scalar.is_available());
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Scalar => true,
            // Little-endian only: the UTF-16 stores write 16-bit units as bytes in lane order.
            Kernel::Neon => cfg!(all(
                target_arch = "aarch64",
                target_feature = "neon",
                target_endian = "little"
            )),
            #[cfg(all(target_arch = "x86_64", feature = "std"))]
            Kernel::Sse2 => std::is_x86_feature_detected!("sse2"),
            #[cfg(all(target_arch = "x86_64", feature = "std"))]
            Kernel::Sse42 => std::is_x86_feature_detected!("sse4.2"),
            #[cfg(all(target_arch = "x86_64", feature = "std"))]
            Kernel::Avx2 => std::is_x86_feature_detected!("avx2"),
            // AVX2 too: the kernel's short paths, its copy and its UTF-16 transcoder are AVX2's
            // (every CPU with AVX-512 has it, but a virtual machine may hide it).
            #[cfg(all(target_arch = "x86_64", feature = "std"))]
            Kernel::Avx512 => {
                std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx2")
            }
            #[cfg(all(target_arch = "x86_64", not(feature = "std")))]
            Kernel::Sse2 => cfg!(target_feature = "sse2"),
            #[cfg(all(target_arch = "x86_64", not(feature = "std")))]
            Kernel::Sse42 => cfg!(target_feature = "sse4.2"),
            #[cfg(all(target_arch = "x86_64", not(feature = "std")))]
            Kernel::Avx2 => cfg!(target_feature = "avx2"),
            #[cfg(all(target_arch = "x86_64", not(feature = "std")))]
            Kernel::Avx512 => cfg!(all(
                target_feature = "avx512f",
                target_feature = "avx512bw",
                target_feature = "avx2"
            )),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// Every kernel this CPU can run, slowest first.
    ///
    /// ```
    /// assert_eq!(utf8_codec::Kernel::available().next(), Some(utf8_codec::Kernel::Scalar));
    /// ```
    #[must_use = "iterators are lazy and do nothing unless consumed"]
    pub fn available() -> impl Iterator<Item = Kernel> {
        ALL.into_iter().filter(|k| k.is_available())
    }

    /// The kernel the crate's functions use: chosen on first use and cached.
    ///
    /// ```
    /// assert!(utf8_codec::Kernel::active().is_available());
    /// ```
    #[must_use = "returns a value and changes nothing"]
    #[inline]
    pub fn active() -> Kernel {
        match ACTIVE.load(Ordering::Relaxed) {
            UNSET => Kernel::init(),
            i => ALL[usize::from(i) % ALL.len()],
        }
    }

    /// The first call's choice, out of line so that [`Kernel::active`] inlines to a load.
    #[cold]
    #[inline(never)]
    fn init() -> Kernel {
        let k = Kernel::choose();
        ACTIVE.store(k as u8, Ordering::Relaxed);
        k
    }

    fn choose() -> Kernel {
        #[cfg(feature = "std")]
        if let Some(k) = std::env::var("UTF8_CODEC_KERNEL")
            .ok()
            .and_then(|name| Kernel::from_name(&name))
            .filter(|k| k.is_available())
        {
            return k;
        }
        Kernel::available().last().unwrap_or(Kernel::Scalar)
    }

    /// The length of the longest valid prefix of `bytes` computed by this kernel, or `None`
    /// if this CPU cannot run it. For testing and benchmarking kernels side by side; the
    /// crate's functions use [`Kernel::active`].
    ///
    /// ```
    /// use utf8_codec::Kernel;
    /// assert_eq!(Kernel::Scalar.valid_up_to(b"ok\xFF"), Some(2));
    /// ```
    #[must_use = "the length of the valid prefix is the only result (`None` if this kernel is not available)"]
    pub fn valid_up_to(self, bytes: &[u8]) -> Option<usize> {
        Available::new(self).map(|k| run(k, bytes))
    }
}

/// A kernel this CPU can run: the proof that its `#[target_feature]` code may be reached.
///
/// The crate's functions that run a kernel take one of these, never a bare [`Kernel`]: the
/// only ways to get one are [`Available::new`], which checks [`Kernel::is_available`], and
/// [`Available::active`], the cached choice (made among available kernels), so safe code
/// cannot reach an instruction set the CPU lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Available(Kernel);

impl Available {
    /// `k`, if this CPU can run it.
    #[inline]
    pub(crate) fn new(k: Kernel) -> Option<Available> {
        k.is_available().then_some(Available(k))
    }

    /// [`Kernel::active`], which is chosen among the available kernels.
    #[inline]
    pub(crate) fn active() -> Available {
        Available(Kernel::active())
    }
}

/// Runs kernel `k`.
#[inline(always)]
fn run(k: Available, bytes: &[u8]) -> usize {
    match k.0 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `k` is available (an `Available` is the proof).
        Kernel::Avx512 => unsafe { x86_64::entry::valid_up_to_avx512(bytes) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Avx2 => unsafe { x86_64::entry::valid_up_to_avx2(bytes) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Sse42 => unsafe { x86_64::entry::valid_up_to_sse42(bytes) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Sse2 => unsafe { x86_64::sse2::valid_up_to_sse2(bytes) },
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        Kernel::Neon => aarch64::valid_up_to_neon(bytes),
        _ => scalar::valid_up_to_core(bytes),
    }
}

/// [`dispatch::valid_up_to`] with kernel `k`.
#[inline]
pub(crate) fn valid_up_to_with(k: Available, bytes: &[u8]) -> usize {
    probe(k, bytes).unwrap_or_else(|| run(k, bytes))
}

/// [`valid_up_to_with`] without the probe, for a caller that has just probed.
#[inline]
pub(crate) fn kernel_valid_up_to(k: Available, bytes: &[u8]) -> usize {
    run(k, bytes)
}

/// Appends the longest valid prefix of `bytes` to `out` and returns its length, as
/// [`kernel_valid_up_to`] and a copy would, but in one pass (`copy.rs`) where the kernel has
/// it (AVX2, used by the AVX2 and AVX-512 kernels, and NEON) and there is at least one block
/// of input.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn push_valid_prefix(
    k: Available,
    bytes: &[u8],
    out: &mut alloc::string::String,
) -> usize {
    if bytes.len() >= 64 {
        match k.0 {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 | Kernel::Avx512 => {
                // SAFETY: AVX2 is available: `k` is (an `Available` is the proof), and the
                // AVX-512 kernel is available only with AVX2 (`is_available`).
                return unsafe { x86_64::entry::push_valid_avx2(bytes, out) };
            }
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Kernel::Neon => return aarch64::push_valid_neon(bytes, out),
            _ => {}
        }
    }
    let n = run(k, bytes);
    // SAFETY: the kernel returns the length of a well-formed prefix.
    out.push_str(unsafe { core::str::from_utf8_unchecked(&bytes[..n]) });
    n
}

/// The length of the valid prefix of `bytes` when it is settled for less than a kernel call
/// costs: input shorter than a block (the scalar decoder), or an error among the first
/// [`DENSE_SPAN`] positions (the dense scanner, which does not branch on the data: a scalar
/// probe would mispredict on every change of script). Where errors are dense, as in random
/// bytes, the next one is usually there.
#[inline]
pub(crate) fn probe(k: Available, bytes: &[u8]) -> Option<usize> {
    let Some(block) = bytes.first_chunk::<64>() else {
        return Some(scalar::valid_up_to(bytes));
    };
    match dense_with(k, block) {
        Some(m) => (m.errors != 0).then(|| m.errors.trailing_zeros() as usize),
        None => {
            let n = scalar::valid_up_to(&bytes[..PROBE]);
            (n + 4 <= PROBE).then_some(n)
        }
    }
}

/// How many bytes the scalar kernel's probe decodes before the kernel is called.
const PROBE: usize = 16;

pub(crate) use counting::WindowCounts;
pub(crate) use generic::{DENSE_SPAN, DenseMasks};
pub(crate) use words::WordState;
#[cfg(test)]
pub(crate) use words::{SEP_LEADS, SEP_SECOND, WORD_LEADS};

/// Counts the dense scanner's windows of `bytes` from `o`, a unit boundary, into `c` with
/// kernel `k`, up to and including the first with at most one error, and returns
/// where they end (a unit boundary; `o` when fewer than 64 bytes are left); `None` for the
/// scalar kernel.
#[inline]
pub(crate) fn count_windows_with(
    k: Available,
    bytes: &[u8],
    o: usize,
    c: &mut WindowCounts,
) -> Option<usize> {
    match k.0 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `k` is available (an `Available` is the proof).
        Kernel::Avx512 => Some(unsafe { x86_64::vectors::count_windows_avx512(bytes, o, c) }),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `k` is available (an `Available` is the proof).
        Kernel::Avx2 => Some(unsafe { x86_64::vectors::count_windows_avx2(bytes, o, c) }),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Sse42 => Some(unsafe { x86_64::vectors::count_windows_sse42(bytes, o, c) }),
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        Kernel::Neon => Some(aarch64::count_windows_neon(bytes, o, c)),
        _ => None,
    }
}

/// Validates `bytes` and counts its valid prefix in the same pass with kernel `k`: the valid
/// length and the length `c` of the prefix whose counts were added to `acc`, within 3 bytes
/// of the valid length, either side; without `LENGTHS`, as [`TextCounts::lean`] puts them.
/// The scalar kernel counts nothing (`c` is 0).
#[inline]
pub(crate) fn validate_and_count_with<const LENGTHS: bool>(
    k: Available,
    bytes: &[u8],
    acc: &mut TextCounts,
) -> (usize, usize) {
    // The x86-64 kernels count a large input with the block loop's far prefetch.
    #[cfg(target_arch = "x86_64")]
    let far = bytes.len() >= counting::FAR_MIN;
    match k.0 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `k` is available (an `Available` is the proof).
        Kernel::Avx512 if far => unsafe {
            x86_64::entry::validate_and_count_avx512::<LENGTHS, true>(bytes, acc)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Avx512 => unsafe {
            x86_64::entry::validate_and_count_avx512::<LENGTHS, false>(bytes, acc)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Avx2 if far => unsafe {
            x86_64::entry::validate_and_count_avx2::<LENGTHS, true>(bytes, acc)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Avx2 => unsafe {
            x86_64::entry::validate_and_count_avx2::<LENGTHS, false>(bytes, acc)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Sse42 => unsafe { x86_64::entry::validate_and_count_sse42::<LENGTHS>(bytes, acc) },
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        Kernel::Neon => aarch64::validate_and_count_neon::<LENGTHS>(bytes, acc),
        _ => (scalar::valid_up_to(bytes), 0),
    }
}

/// The dense scanner's masks for a block that starts at a unit boundary, by kernel `k`;
/// `None` for the scalar kernel, which has its own dense scanner
/// ([`scalar::scan_errors`]).
#[inline]
pub(crate) fn dense_with(k: Available, block: &[u8; 64]) -> Option<DenseMasks> {
    match k.0 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `k` is available (an `Available` is the proof).
        Kernel::Avx512 => Some(unsafe { x86_64::vectors::dense_avx512(block) }),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `k` is available (an `Available` is the proof).
        Kernel::Avx2 => Some(unsafe { x86_64::vectors::dense_avx2(block) }),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Sse42 => Some(unsafe { x86_64::vectors::dense_sse42(block) }),
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        Kernel::Neon => Some(aarch64::dense_neon(block)),
        _ => None,
    }
}

/// Adds the counts of a valid run of text to `acc`
/// with kernel `k`.
#[inline]
pub(crate) fn count_valid_with(k: Available, bytes: &[u8], acc: &mut TextCounts) {
    match k.0 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `k` is available (an `Available` is the proof).
        Kernel::Avx512 => unsafe { x86_64::vectors::count_valid_avx512(bytes, acc) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `k` is available (an `Available` is the proof).
        Kernel::Avx2 => unsafe { x86_64::vectors::count_valid_avx2(bytes, acc) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Sse42 => unsafe { x86_64::vectors::count_valid_sse42(bytes, acc) },
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        Kernel::Neon => aarch64::count_valid_neon(bytes, acc),
        _ => scalar::count_valid(bytes, acc),
    }
}

/// Counts the run starts of the 64-byte blocks of `bytes` from `o`, one per element of
/// `others`, into `st` with kernel `k`, as [`words::word_blocks`]: the run starts
/// of each block whose first character it cannot vouch for go to `others`, and the blocks
/// that have any in the bits of the answer (`others` has at most 32 elements); `None`
/// (nothing done) for the portable kernels.
///
/// # Panics
///
/// If `bytes` has fewer than `o + 64 * others.len() + 2` bytes.
#[inline]
pub(crate) fn word_blocks_with(
    k: Available,
    bytes: &[u8],
    o: usize,
    st: &mut WordState,
    others: &mut [u64],
) -> Option<u32> {
    assert!(
        o + 64 * others.len() + 2 <= bytes.len(),
        "word blocks past the end"
    );
    let _ = (bytes, o, &st, &others);
    #[cfg(target_arch = "x86_64")]
    {
        let ptr = bytes[o..].as_ptr();
        // AVX-512 uses VBMI's byte permutes where the CPU has them.
        let f: x86_64::words::WordBlocks = match k.0 {
            Kernel::Avx512 if x86_64::words::vbmi() => x86_64::words::word_blocks_vbmi,
            Kernel::Avx512 => x86_64::words::word_blocks_avx512,
            Kernel::Avx2 => x86_64::words::word_blocks_avx2,
            Kernel::Sse42 => x86_64::words::word_blocks_sse42,
            _ => return None,
        };
        // SAFETY: `f` is the entry point of kernel `k`, which is available (an `Available` is
        // the proof); the assert above keeps every read inside `bytes`.
        Some(unsafe { f(ptr, st, others) })
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    {
        if k.0 != Kernel::Neon {
            return None;
        }
        // SAFETY: the assert above keeps every read inside `bytes`.
        Some(unsafe { aarch64::word_blocks_neon(bytes[o..].as_ptr(), st, others) })
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon")
    )))]
    {
        let _ = k;
        None
    }
}

/// [`surely_word`](crate::words) of the character at `bytes[base + at]` for each offset `at`
/// of `offs`, 16 a mask (offset `j` in bit `j % 16` of `out[j / 16]`), where kernel `k` has a
/// vector test of it (AVX-512 and AVX2: `x86_64/surely.rs`); `false`, `out` untouched,
/// elsewhere.
#[inline]
pub(crate) fn surely_words_with(
    k: Available,
    bytes: &[u8],
    base: usize,
    offs: &[u32],
    bits: &[u64; 2048],
    out: &mut [u16],
) -> bool {
    match k.0 {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => {
            // SAFETY: the CPU has AVX-512F and AVX-512BW (an `Available` is the proof); any
            // offsets are safe.
            unsafe { x86_64::surely::surely_words_avx512(bytes, base, offs, bits, out) };
            true
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            // SAFETY: the CPU has AVX2 (an `Available` is the proof); any offsets are safe.
            unsafe { x86_64::surely::surely_words_avx2(bytes, base, offs, bits, out) };
            true
        }
        _ => {
            let _ = (bytes, base, offs, bits, out);
            false
        }
    }
}
