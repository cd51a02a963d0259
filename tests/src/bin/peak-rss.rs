//! `peak-rss REPORT PROGRAM [ARG...]`: runs PROGRAM with this process's stdin, stdout and
//! stderr, waits for it, and writes `CODE PEAK_KIB` to the file REPORT: its exit code (128 +
//! the signal number when a signal ended it) and its peak resident set size in KiB, from
//! `getrusage(RUSAGE_CHILDREN)`. The child is this process's only child, so the maximum
//! over waited-for children that call reports is the child's own peak. Exits with the same
//! code; 125 when PROGRAM cannot be run.
//!
//! The resource tests (`tests/tests/e2e/resources.rs`) spawn one `peak-rss` per measured run:
//! a test process's own `RUSAGE_CHILDREN` would mix in every other test's children.
#![forbid(unsafe_code)]

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitCode};

use nix::sys::resource::{UsageWho, getrusage};

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let [report, program, rest @ ..] = args.as_slice() else {
        eprintln!("usage: peak-rss REPORT PROGRAM [ARG...]");
        return ExitCode::from(125);
    };
    let status = match Command::new(program).args(rest).status() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("peak-rss: cannot run {}: {e}", program.to_string_lossy());
            return ExitCode::from(125);
        }
    };
    let code = match (status.code(), status.signal()) {
        (Some(c), _) => c,
        (None, Some(sig)) => 128 + sig,
        (None, None) => 125,
    };
    let usage = match getrusage(UsageWho::RUSAGE_CHILDREN) {
        Ok(u) => u,
        Err(e) => {
            eprintln!("peak-rss: getrusage: {e}");
            return ExitCode::from(125);
        }
    };
    // Linux reports ru_maxrss in KiB.
    let peak_kib = usage.max_rss();
    if let Err(e) = std::fs::write(report, format!("{code} {peak_kib}\n")) {
        eprintln!("peak-rss: cannot write {}: {e}", report.to_string_lossy());
        return ExitCode::from(125);
    }
    ExitCode::from(u8::try_from(code).unwrap_or(125))
}
