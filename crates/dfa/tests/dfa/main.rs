//! utf8-dfa's integration tests: one binary, one module per proof.

mod common;
mod conformance;
mod exhaustive;
// The generator, compiled here from this crate's own source so that the tests need no
// feature (the `build` feature exposes the same file as `utf8_dfa::build`).
#[path = "../../src/build.rs"]
#[allow(dead_code)]
mod build;
mod generated;
mod lockstep;
mod random;
