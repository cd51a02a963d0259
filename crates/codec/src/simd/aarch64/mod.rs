//! The aarch64 kernels: NEON's ([`neon`]), the one instruction set there.

mod neon;
