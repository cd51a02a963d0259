//! Development tasks for the utf8-tools workspace, run as `cargo xtask <task>`.
//!
//! ```text
//! cargo xtask gen-dfa            rebuild crates/dfa/src/generated/ from utf8_dfa::UTF8_PATTERN
//! cargo xtask gen-dfa --check    fail (exit 1) when the committed files differ from a fresh build
//! cargo xtask dist [--target T]  release archive and SHA256SUMS (see `release`)
//! cargo xtask man [--out DIR]    man pages
//! cargo xtask completions [--out DIR]   shell completions
//! cargo xtask fuzz [--seconds N] [TARGET...]   the cargo-fuzz targets of fuzz/ (nightly)
//! cargo xtask bench [--mib N] [--runs N] [--only NAME,...] [--no-write]
//!                                the binaries against wc, rg, grep, uconv, iconv, python3
//! ```
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use utf8_dfa::{UTF8_PATTERN, build};

mod bench;
mod bench_lib;
mod completions;
mod dist;
mod fuzz;
mod man;
mod package_check;
mod release;

const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  gen-dfa [--check]   build the UTF-8 DFA into crates/dfa/src/generated/;
                      with --check, exit 1 if the committed files differ
{release}
{fuzz}
{bench}
{bench_lib}
  package-check       cargo package utf8-codec and utf8-dfa, unpack them and run
                      `cargo test` in the unpacked utf8-dfa alone
  help                print this message";

fn main() -> ExitCode {
    let raw: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if raw.first().is_some_and(|a| a == "__measure") {
        // Internal: `cargo xtask bench` times each command through this.
        return bench::measure_child(&raw[1..]);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["gen-dfa"] => report(build::write(&dfa_dir(), UTF8_PATTERN), "wrote"),
        ["gen-dfa", "--check"] => report(build::check(&dfa_dir(), UTF8_PATTERN), "fresh"),
        [task @ ("dist" | "man" | "completions"), rest @ ..] => release::run(task, rest, &root()),
        ["fuzz", rest @ ..] => fuzz::run(rest, &root()),
        ["bench", rest @ ..] => bench::run(rest, &root()),
        ["bench-lib", rest @ ..] => bench_lib::run(rest, &root()),
        ["package-check"] => match package_check::run(&root()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("xtask package-check: {e}");
                ExitCode::FAILURE
            }
        },
        ["help" | "--help" | "-h"] => {
            println!("{}", usage());
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!(
                "xtask: unknown or missing task: {}\n\n{}",
                args.join(" "),
                usage()
            );
            ExitCode::from(2)
        }
    }
}

fn usage() -> String {
    USAGE
        .replace("{release}", release::USAGE)
        .replace("{fuzz}", fuzz::USAGE)
        .replace("{bench}", bench::USAGE)
        .replace("{bench_lib}", bench_lib::USAGE)
}

fn report(result: Result<build::Stats, Box<dyn std::error::Error>>, verb: &str) -> ExitCode {
    match result {
        Ok(s) => {
            println!(
                "gen-dfa: {verb} {DFA_DIR}/{}: {} states, {} byte classes, stride {}, {} bytes per byte order",
                build::GENERATED_DIR,
                s.states,
                s.byte_classes,
                s.stride,
                s.blob_len
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("xtask gen-dfa: {e}");
            ExitCode::FAILURE
        }
    }
}

/// utf8-dfa's directory, relative to the workspace root.
const DFA_DIR: &str = "crates/dfa";

/// utf8-dfa's directory, where `gen-dfa` writes.
fn dfa_dir() -> PathBuf {
    root().join(DFA_DIR)
}

/// The workspace root: the parent of this package's directory.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}
