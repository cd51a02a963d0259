//! `cargo xtask test [--rust-only]`: every test of the repository, as CI runs them.
//!
//! 1. `cargo test --workspace`: the Rust crates, the end-to-end tests of the binaries and
//!    the doctests (the quick Rust-only subset, also runnable alone).
//! 2. `bash crates/python/ci.sh`: the Python package, which is outside the Cargo workspace,
//!    linted, installed with `pip` into a venv under the target directory (pyarrow, Polars,
//!    DuckDB, PySpark and Ray with it; `UTF8_TOOLS_ENGINES=0` leaves out the last two), and
//!    its pytest suite, run against real local sessions of each engine.
//!
//! `--rust-only` stops after the first.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::workspace::{self, Result};

/// The usage lines for `cargo xtask help`.
pub const USAGE: &str =
    "  test [--rust-only]  every test: cargo test --workspace, then the Python package's
                      suite (crates/python/ci.sh: a venv, pip install, pytest with
                      pyarrow, Polars, DuckDB, PySpark and Ray)";

/// Runs the tests; prints each step and how long it took.
///
/// # Errors
///
/// When a step fails.
pub fn run(root: &Path, rust_only: bool) -> Result<()> {
    let started = Instant::now();
    println!("xtask test: cargo test --workspace");
    workspace::status(
        workspace::cargo(root).args(["test", "--workspace"]),
        "cargo test --workspace",
    )?;
    if rust_only {
        println!("xtask test: --rust-only: the Python package's suite is left out");
    } else {
        println!(
            "xtask test: bash crates/python/ci.sh ({} s in)",
            started.elapsed().as_secs()
        );
        workspace::status(
            Command::new("bash")
                .arg(root.join("crates/python/ci.sh"))
                .current_dir(root),
            "crates/python/ci.sh",
        )?;
    }
    println!("xtask test: passed in {} s", started.elapsed().as_secs());
    Ok(())
}
