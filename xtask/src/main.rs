//! Development tasks for the utf8-tools workspace, run as `cargo xtask <task>`.
//!
//! ```text
//! cargo xtask gen-dfa            rebuild crates/dfa/src/generated/ from utf8_dfa::UTF8_PATTERN
//! cargo xtask gen-dfa --check    fail (exit 1) when the committed files differ from a fresh build
//! cargo xtask dist [--target T]  release archive and SHA256SUMS (see `release`)
//! cargo xtask man [--out DIR]    man pages
//! cargo xtask completions [--out DIR]   shell completions
//! cargo xtask fuzz [--seconds N] [--jobs N] [TARGET...]   the cargo-fuzz targets of fuzz/ (nightly)
//! cargo xtask bench [--mib N] [--runs N] [--only NAME,...] [--no-write]
//!                                the binaries against wc, rg, grep, uconv, iconv, python3
//! cargo xtask bench-lib [--mib N] [--no-run] [--no-write]   the codec's criterion benches
//! cargo xtask package-check      the packaged utf8-dfa tests itself
//! cargo xtask test [--rust-only] every test: the workspace's, then the Python package's
//! ```
//!
//! Layers, each importing only those below it: `main` (the command line) → `release`,
//! `bench`, `bench_lib`, `fuzz`, `package_check`, `test` → `dist` → `man`, `completions` →
//! `tool`, `machine`, `markdown` → `workspace`.
#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser};
use utf8_dfa::{UTF8_PATTERN, build};

mod bench;
mod bench_lib;
mod chart;
mod completions;
mod dist;
mod fuzz;
mod machine;
mod man;
mod markdown;
mod package_check;
mod release;
mod test;
mod tool;
mod workspace;

/// `cargo xtask help`: every task and its options.
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
{test}
  help                print this message";

/// The tasks.
#[derive(Debug, Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    disable_help_subcommand = true
)]
enum Task {
    /// Build the UTF-8 DFA into crates/dfa/src/generated/.
    GenDfa {
        /// Exit 1 if the committed files differ from a fresh build.
        #[arg(long)]
        check: bool,
    },
    /// The release archive and its checksum.
    Dist(release::DistArgs),
    /// The man pages.
    Man(release::OutArgs),
    /// The shell completions.
    Completions(release::OutArgs),
    /// The cargo-fuzz targets of fuzz/.
    Fuzz(fuzz::Args),
    /// The binaries against their peers.
    #[command(override_usage = bench::options::USAGE_LINE, args_override_self = true)]
    Bench(bench::options::Args),
    /// The codec's criterion benchmarks.
    #[command(
        override_usage = "cargo xtask bench-lib [--mib N] [--no-run] [--no-write]",
        args_override_self = true
    )]
    BenchLib(bench_lib::Args),
    /// Package utf8-codec and utf8-dfa and test the unpacked utf8-dfa alone.
    PackageCheck,
    /// Every test: the workspace's, then the Python package's suite.
    Test {
        /// Only `cargo test --workspace`.
        #[arg(long)]
        rust_only: bool,
    },
    /// Print every task and its options.
    Help,
    /// Internal: `cargo xtask bench` times each command through this.
    #[command(name = "__measure", hide = true)]
    Measure {
        /// Where to write `CODE NANOS PEAK_KIB`.
        report: PathBuf,
        /// The program and its arguments.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<OsString>,
    },
}

fn main() -> ExitCode {
    if let Some(code) = fuzz::rustc_wrapper() {
        return code;
    }
    let task = match parse(std::env::args_os()) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let root = root();
    let result = match task {
        Task::GenDfa { check: false } => {
            gen_dfa(build::write(&dfa_dir(&root), UTF8_PATTERN), "wrote")
        }
        Task::GenDfa { check: true } => {
            gen_dfa(build::check(&dfa_dir(&root), UTF8_PATTERN), "fresh")
        }
        Task::Dist(args) => release::dist(&root, &args).map_err(|e| ("dist", e)),
        Task::Man(args) => release::pages(&root, "man", &args).map_err(|e| ("man", e)),
        Task::Completions(args) => {
            release::pages(&root, "completions", &args).map_err(|e| ("completions", e))
        }
        Task::Fuzz(args) => return fuzz::run(&args, &root),
        Task::Bench(args) => bench::run(&root, &args.into()).map_err(|e| ("bench", e)),
        Task::BenchLib(args) => bench_lib::run(&root, &args.into()).map_err(|e| ("bench-lib", e)),
        Task::PackageCheck => package_check::run(&root).map_err(|e| ("package-check", e)),
        Task::Test { rust_only } => test::run(&root, rust_only).map_err(|e| ("test", e)),
        Task::Help => {
            println!("{}", usage());
            Ok(())
        }
        Task::Measure { report, command } => {
            return bench::runner::measure_child(&report, &command);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err((task, e)) => {
            eprintln!("xtask {task}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The task on the command line; on a usage error, clap's message, the task's usage line
/// (`usage: cargo xtask TASK ...`) and exit status 2.
fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Task, ExitCode> {
    let args: Vec<OsString> = args.into_iter().collect();
    let mut cmd = Task::command().override_help(usage());
    let matches = match cmd.try_get_matches_from_mut(&args) {
        Ok(m) => m,
        Err(e) if !e.use_stderr() => e.exit(), // --help
        Err(e) => {
            let text = e.render().to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error"));
            let task = args.get(1).and_then(|a| a.to_str());
            let line = match task.and_then(|t| cmd.find_subcommand_mut(t)) {
                Some(sub) => sub.render_usage().to_string(),
                None => "Usage: cargo xtask <task> (cargo xtask help lists them)".to_owned(),
            };
            eprintln!("{}", line.replacen("Usage:", "usage:", 1));
            return Err(ExitCode::from(2));
        }
    };
    Task::from_arg_matches(&matches).map_err(|e| e.exit())
}

fn usage() -> String {
    USAGE
        .replace("{release}", release::USAGE)
        .replace("{fuzz}", fuzz::USAGE)
        .replace("{bench}", bench::USAGE)
        .replace("{bench_lib}", bench_lib::USAGE)
        .replace("{test}", test::USAGE)
}

/// What a failed task returns: its name and the error.
type Failure = (&'static str, Box<dyn std::error::Error>);

/// Prints what `gen-dfa` did.
fn gen_dfa(result: workspace::Result<build::Stats>, verb: &str) -> Result<(), Failure> {
    let s = result.map_err(|e| ("gen-dfa", e))?;
    println!(
        "gen-dfa: {verb} {DFA_DIR}/{}: {} states, {} byte classes, stride {}, {} bytes per byte order",
        build::GENERATED_DIR,
        s.states,
        s.byte_classes,
        s.stride,
        s.blob_len
    );
    Ok(())
}

/// utf8-dfa's directory, relative to the workspace root.
const DFA_DIR: &str = "crates/dfa";

/// utf8-dfa's directory, where `gen-dfa` writes.
fn dfa_dir(root: &Path) -> PathBuf {
    root.join(DFA_DIR)
}

/// The workspace root: the parent of this package's directory.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}
