//! Tokens that prove the CPU: one zero-sized type per capability, whose only constructor is
//! the check that this CPU has it (`is_x86_feature_detected!` with `std`, the compile-time
//! target features without it; NEON is enabled at compile time wherever its token exists).
//! Holding one is the proof that code compiled for its instruction set may run, so its
//! methods (the [`Ops`] of each kernel's token, in `x86_64/mod.rs` and `aarch64/neon/mod.rs`) are
//! safe: they are the only callers of the `#[target_feature]` entry points.
//!
//! [`Available`] is a kernel with its token: the one match from a [`Kernel`] to a token
//! ([`Available::new`]), and the active kernel's, cached ([`Available::active`]).

use core::sync::atomic::{AtomicU8, Ordering};

use super::kernel::{ALL, Kernel};

/// Whether this CPU has every x86-64 feature named (run-time detection with `std`).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
macro_rules! has {
    ($($f:tt),+) => { $(std::is_x86_feature_detected!($f))&&+ };
}

/// Whether the target enables every x86-64 feature named (without `std` there is no
/// run-time detection).
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
macro_rules! has {
    ($($f:tt),+) => { $(cfg!(target_feature = $f))&&+ };
}

/// The scalar kernel's token: it needs no instruction set beyond the target's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scalar;

/// Proof that this CPU has SSE2.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sse2(());

#[cfg(target_arch = "x86_64")]
impl Sse2 {
    /// The token, if this CPU has SSE2.
    #[inline]
    pub(crate) fn new() -> Option<Sse2> {
        has!("sse2").then_some(Sse2(()))
    }
}

/// Proof that this CPU has SSE4.2 and what the SSE4.2 kernel also uses: SSSE3, SSE4.1 and
/// POPCNT.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sse42(());

#[cfg(target_arch = "x86_64")]
impl Sse42 {
    /// The token, if this CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
    #[inline]
    pub(crate) fn new() -> Option<Sse42> {
        Sse2::new()?;
        has!("ssse3", "sse4.1", "sse4.2", "popcnt").then_some(Sse42(()))
    }
}

/// Proof that this CPU has AVX2, and everything [`Sse42`] proves.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The token, if this CPU has AVX and AVX2 besides what [`Sse42::new`] checks.
    #[inline]
    pub(crate) fn new() -> Option<Avx2> {
        Sse42::new()?;
        has!("avx", "avx2").then_some(Avx2(()))
    }
}

/// Proof that this CPU has the set the AVX-512 kernel needs: AVX-512F and AVX-512BW, and
/// everything [`Avx2`] proves (its short paths, its copy and its UTF-16 transcoders are
/// AVX2's, UTF-8 → UTF-16 only without VBMI2; every CPU with AVX-512 has AVX2, but a virtual
/// machine may hide it).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx512(());

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// The token, if this CPU has AVX-512F and AVX-512BW besides what [`Avx2::new`] checks.
    #[inline]
    pub(crate) fn new() -> Option<Avx512> {
        Avx2::new()?;
        has!("avx512f", "avx512bw").then_some(Avx512(()))
    }

    /// The AVX2 token: [`Avx512::new`] checked everything [`Avx2::new`] does.
    #[inline]
    pub(crate) fn avx2(self) -> Avx2 {
        Avx2(())
    }

    /// The VBMI token, if this CPU also has AVX-512 VBMI.
    #[inline]
    pub(crate) fn vbmi(self) -> Option<Avx512Vbmi> {
        has!("avx512vbmi").then_some(Avx512Vbmi(()))
    }

    /// The VBMI2 token, if this CPU also has AVX-512 VBMI2 and what its transcoder uses
    /// besides: AVX-512 VBMI and VL, BMI1, BMI2 and LZCNT.
    #[inline]
    pub(crate) fn vbmi2(self) -> Option<Avx512Vbmi2> {
        has!(
            "avx512vbmi",
            "avx512vbmi2",
            "avx512vl",
            "bmi1",
            "bmi2",
            "lzcnt"
        )
        .then_some(Avx512Vbmi2(()))
    }
}

/// Proof that this CPU has AVX-512 VBMI (byte permutes across the whole register), and
/// everything [`Avx512`] proves.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx512Vbmi(());

#[cfg(target_arch = "x86_64")]
impl Avx512Vbmi {
    /// The token, if this CPU has AVX-512 VBMI besides what [`Avx512::new`] checks (the
    /// kernel gets its own from [`Avx512::vbmi`]).
    #[cfg(test)]
    #[inline]
    pub(crate) fn new() -> Option<Avx512Vbmi> {
        Avx512::new()?.vbmi()
    }

    /// The AVX-512 token: a VBMI token is made only from one.
    #[cfg(test)]
    #[inline]
    pub(crate) fn avx512(self) -> Avx512 {
        Avx512(())
    }
}

/// Proof that this CPU has AVX-512 VBMI2 (byte compress and expand), VBMI (byte permutes
/// across the whole register) and VL, BMI1, BMI2 and LZCNT, and everything [`Avx512`]
/// proves: the set of the UTF-8 → UTF-16 transcoder in `x86_64/avx512/utf16.rs`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx512Vbmi2(());

#[cfg(target_arch = "x86_64")]
impl Avx512Vbmi2 {
    /// The token, if this CPU has what [`Avx512::vbmi2`] checks besides what [`Avx512::new`]
    /// does (the kernel gets its own from [`Avx512::vbmi2`]).
    #[cfg(test)]
    #[inline]
    pub(crate) fn new() -> Option<Avx512Vbmi2> {
        Avx512::new()?.vbmi2()
    }
}

/// Proof that this CPU has NEON: the type exists only where the target enables NEON at
/// compile time, so every CPU that runs the code has it.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Neon(());

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
impl Neon {
    /// The token (`cfg(target_feature = "neon")` is the check).
    #[inline]
    pub(crate) fn new() -> Option<Neon> {
        Some(Neon(()))
    }
}

/// A kernel this CPU can run, with the token that proves it: what the crate's functions take
/// to run a kernel, never a bare [`Kernel`]. The only ways to get one are [`Available::new`]
/// and [`Available::active`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Available {
    /// The portable kernel.
    Scalar(Scalar),
    /// The SSE2 kernel.
    #[cfg(target_arch = "x86_64")]
    Sse2(Sse2),
    /// The SSE4.2 kernel.
    #[cfg(target_arch = "x86_64")]
    Sse42(Sse42),
    /// The AVX2 kernel.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// The AVX-512 kernel.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
    /// The NEON kernel.
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    Neon(Neon),
}

/// `$e` with `$t` bound to the token of the [`Available`] `$k`: the one match from a kernel
/// to its token, each arm monomorphized for its token's [`Ops`](super::Ops).
macro_rules! on_token {
    ($k:expr, $t:ident => $e:expr) => {
        match $k {
            $crate::simd::Available::Scalar($t) => $e,
            #[cfg(target_arch = "x86_64")]
            $crate::simd::Available::Sse2($t) => $e,
            #[cfg(target_arch = "x86_64")]
            $crate::simd::Available::Sse42($t) => $e,
            #[cfg(target_arch = "x86_64")]
            $crate::simd::Available::Avx2($t) => $e,
            #[cfg(target_arch = "x86_64")]
            $crate::simd::Available::Avx512($t) => $e,
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            $crate::simd::Available::Neon($t) => $e,
        }
    };
}
pub(crate) use on_token;

/// The cached choice of [`Available::active`]: [`UNSET`] until the first call, then the
/// [`Kernel`] of an [`Available`] made by [`Available::new`] (the tokens are zero-sized, so
/// the kernel is all there is to keep).
static ACTIVE: AtomicU8 = AtomicU8::new(UNSET);
const UNSET: u8 = u8::MAX;

impl Available {
    /// Kernel `k` with its token, if this CPU can run it.
    #[inline]
    pub(crate) fn new(k: Kernel) -> Option<Available> {
        Some(match k {
            Kernel::Scalar => Available::Scalar(Scalar),
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => Available::Sse2(Sse2::new()?),
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse42 => Available::Sse42(Sse42::new()?),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => Available::Avx2(Avx2::new()?),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => Available::Avx512(Avx512::new()?),
            // Little-endian only: the UTF-16 stores write 16-bit units as bytes in lane order.
            #[cfg(all(
                target_arch = "aarch64",
                target_feature = "neon",
                target_endian = "little"
            ))]
            Kernel::Neon => Available::Neon(Neon::new()?),
            _ => return None,
        })
    }

    /// The kernel.
    #[inline]
    pub(crate) fn kernel(self) -> Kernel {
        match self {
            Available::Scalar(_) => Kernel::Scalar,
            #[cfg(target_arch = "x86_64")]
            Available::Sse2(_) => Kernel::Sse2,
            #[cfg(target_arch = "x86_64")]
            Available::Sse42(_) => Kernel::Sse42,
            #[cfg(target_arch = "x86_64")]
            Available::Avx2(_) => Kernel::Avx2,
            #[cfg(target_arch = "x86_64")]
            Available::Avx512(_) => Kernel::Avx512,
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Available::Neon(_) => Kernel::Neon,
        }
    }

    /// The kernel the crate's functions use: [`Available::choose`]'s on the first call, cached.
    #[inline]
    pub(crate) fn active() -> Available {
        let i = ACTIVE.load(Ordering::Relaxed);
        // Each token is made here without its check because `ACTIVE` holds a kernel only
        // after `Available::new` made its token (in `init`).
        match i {
            UNSET => Available::init(),
            #[cfg(target_arch = "x86_64")]
            i if i == Kernel::Sse2 as u8 => Available::Sse2(Sse2(())),
            #[cfg(target_arch = "x86_64")]
            i if i == Kernel::Sse42 as u8 => Available::Sse42(Sse42(())),
            #[cfg(target_arch = "x86_64")]
            i if i == Kernel::Avx2 as u8 => Available::Avx2(Avx2(())),
            #[cfg(target_arch = "x86_64")]
            i if i == Kernel::Avx512 as u8 => Available::Avx512(Avx512(())),
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            i if i == Kernel::Neon as u8 => Available::Neon(Neon(())),
            _ => Available::Scalar(Scalar),
        }
    }

    /// The kernel named by `UTF8_CODEC_KERNEL` if this CPU runs it, else the best one it runs.
    fn choose() -> Available {
        #[cfg(feature = "std")]
        if let Some(k) = std::env::var("UTF8_CODEC_KERNEL")
            .ok()
            .and_then(|name| Kernel::from_name(&name))
            .and_then(Available::new)
        {
            return k;
        }
        ALL.into_iter()
            .rev()
            .find_map(Available::new)
            .unwrap_or(Available::Scalar(Scalar))
    }

    /// The first call's choice, out of line so that [`Available::active`] inlines to a load
    /// and a match.
    #[cold]
    #[inline(never)]
    fn init() -> Available {
        let k = Available::choose();
        ACTIVE.store(k.kernel() as u8, Ordering::Relaxed);
        k
    }
}

#[cfg(all(test, target_arch = "x86_64", feature = "std"))]
mod tests {
    extern crate std;
    use super::*;

    /// Each token exists exactly when the CPU has its features (checked here one by one,
    /// apart from the constructors' chains).
    #[test]
    fn tokens_follow_the_cpu() {
        use std::is_x86_feature_detected as cpu;
        let avx2 = cpu!("sse4.2") && cpu!("popcnt") && cpu!("avx2");
        let avx512 = avx2 && cpu!("avx512f") && cpu!("avx512bw");
        assert_eq!(Sse2::new().is_some(), cpu!("sse2"));
        assert_eq!(Sse42::new().is_some(), cpu!("sse4.2") && cpu!("popcnt"));
        assert_eq!(Avx2::new().is_some(), avx2);
        assert_eq!(Avx512::new().is_some(), avx512);
        assert_eq!(Avx512Vbmi::new().is_some(), avx512 && cpu!("avx512vbmi"));
        let vbmi2 = cpu!("avx512vbmi2") && cpu!("avx512vbmi") && cpu!("avx512vl");
        let bits = cpu!("bmi1") && cpu!("bmi2") && cpu!("lzcnt");
        assert_eq!(Avx512Vbmi2::new().is_some(), avx512 && vbmi2 && bits);
        for k in Kernel::available() {
            assert_eq!(Available::new(k).map(Available::kernel), Some(k));
        }
        assert_eq!(Available::active().kernel(), Kernel::active());
    }
}
