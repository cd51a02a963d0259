//! utf8-dfa's integration tests: one binary, one module per proof.

mod common;
mod conformance;
mod exhaustive;
#[path = "../../../../xtask/src/gen_dfa.rs"]
#[allow(dead_code)]
mod gen_dfa;
mod generated;
mod lockstep;
mod random;
