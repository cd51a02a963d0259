//! Runs a program and measures it as a whole process: exit code, wall time and peak resident
//! set size (feature `rss`). The one implementation behind the `peak-rss` helper of the
//! resource tests and `cargo xtask bench`'s `__measure` task.
//!
//! The peak comes from `getrusage(RUSAGE_CHILDREN)`, the maximum over the waited-for children
//! of the calling process: the measured program must be its only child, so the caller is a
//! small process of its own (a test process's children would mix in every other test's).

use std::ffi::OsStr;
use std::os::unix::process::ExitStatusExt;
use std::process::Command;
use std::time::{Duration, Instant};

use nix::sys::resource::{UsageWho, getrusage};

/// What one run of a program gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Measured {
    /// Its exit code, or 128 + the signal that ended it.
    pub code: i32,
    /// Wall time from spawn to exit.
    pub wall: Duration,
    /// Peak resident set size in KiB.
    pub peak_kib: u64,
}

/// Runs `program` with `args` and this process's standard streams, and waits for it.
///
/// # Errors
///
/// A message when the program cannot be run or `getrusage` fails.
pub fn run<S: AsRef<OsStr>>(program: &OsStr, args: &[S]) -> Result<Measured, String> {
    let start = Instant::now();
    let status = Command::new(program)
        .args(args)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", program.to_string_lossy()))?;
    let wall = start.elapsed();
    let code = status
        .code()
        .or(status.signal().map(|s| 128 + s))
        .unwrap_or(125);
    let usage = getrusage(UsageWho::RUSAGE_CHILDREN).map_err(|e| format!("getrusage: {e}"))?;
    // Linux reports KiB, macOS bytes.
    let peak_kib = if cfg!(target_os = "macos") {
        usage.max_rss() / 1024
    } else {
        usage.max_rss()
    };
    Ok(Measured {
        code,
        wall,
        peak_kib: u64::try_from(peak_kib).unwrap_or(0),
    })
}
