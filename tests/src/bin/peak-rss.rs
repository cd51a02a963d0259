//! `peak-rss REPORT PROGRAM [ARG...]`: runs PROGRAM with this process's stdin, stdout and
//! stderr, waits for it, and writes `CODE PEAK_KIB` to the file REPORT: its exit code (128 +
//! the signal number when a signal ended it) and its peak resident set size in KiB, from
//! `getrusage(RUSAGE_CHILDREN)`. The child is this process's only child, so the maximum
//! over waited-for children that call reports is the child's own peak. Exits with the same
//! code; 125 when PROGRAM cannot be run. The measurement is `utf8_testkit::rss`, the same
//! one `cargo xtask bench` times its commands with.
//!
//! The resource tests (`tests/tests/e2e/resources.rs`) spawn one `peak-rss` per measured run:
//! a test process's own `RUSAGE_CHILDREN` would mix in every other test's children.
#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let [report, program, rest @ ..] = args.as_slice() else {
        eprintln!("usage: peak-rss REPORT PROGRAM [ARG...]");
        return ExitCode::from(125);
    };
    let m = match utf8_testkit::rss::run(program, rest) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("peak-rss: {e}");
            return ExitCode::from(125);
        }
    };
    if let Err(e) = std::fs::write(report, format!("{} {}\n", m.code, m.peak_kib)) {
        eprintln!("peak-rss: cannot write {}: {e}", report.to_string_lossy());
        return ExitCode::from(125);
    }
    ExitCode::from(u8::try_from(m.code).unwrap_or(125))
}
