//! Deterministic test data shared by the utf8-tools workspace's benches, end-to-end tests,
//! `cargo xtask bench` and the fuzz targets: one random generator ([`Rng`]), the codec
//! benchmark's corpora ([`corpus`]), naive references written from the definitions
//! ([`oracle`]), a streaming decoder fed in pieces ([`pieces`]), what is not a word
//! character ([`words`]) and, with the `rss` feature, one way to measure a program's peak
//! resident set size (the `rss` module).
//!
//! Dev only (`publish = false`), std only without `rss`. A published crate's *tests* must not
//! depend on it (they must build from the crate alone); its benches may.
#![forbid(unsafe_code)]

pub mod corpus;
pub mod oracle;
pub mod pieces;
mod rng;
#[cfg(feature = "rss")]
pub mod rss;
pub mod words;

pub use rng::Rng;
