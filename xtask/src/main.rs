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

mod bench;
mod bench_lib;
mod completions;
mod dist;
mod fuzz;
mod gen_dfa;
mod man;
#[path = "../../crates/dfa/src/patterns.rs"]
#[allow(dead_code)] // only UTF8_PATTERN is needed here
mod patterns;
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
        ["gen-dfa"] => report(gen_dfa::write(&root(), patterns::UTF8_PATTERN), "wrote"),
        ["gen-dfa", "--check"] => report(gen_dfa::check(&root(), patterns::UTF8_PATTERN), "fresh"),
        [task @ ("dist" | "man" | "completions"), rest @ ..] => release::run(task, rest, &root()),
        ["fuzz", rest @ ..] => fuzz::run(rest, &root()),
        ["bench", rest @ ..] => bench::run(rest, &root()),
        ["bench-lib", rest @ ..] => bench_lib::run(rest, &root()),
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

fn report(result: Result<gen_dfa::Stats, Box<dyn std::error::Error>>, verb: &str) -> ExitCode {
    match result {
        Ok(s) => {
            println!(
                "gen-dfa: {verb} {}: {} states, {} byte classes, stride {}, {} bytes per byte order",
                gen_dfa::GENERATED_DIR,
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

/// The workspace root: the parent of this package's directory.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}
