//! `utf8-repair`: repaired UTF-8 to stdout, `-o FILE` or `--in-place`, streaming in bounded
//! memory, with every substitution practice of the codec and any source encoding of
//! encoding_rs.
//!
//! * [`args`](RepairArgs): what was typed (clap);
//! * `config`: what the command line means, validated;
//! * `run`: the loop over inputs, to stdout, `-o FILE`, in place, or `--check`;
//! * `pipeline`: one input stream to one output stream (UTF-8 repair or `--from` transcoding),
//!   with the error reports;
//! * `atomic`: files written through a temporary file in the same directory, fsync and
//!   rename, with the original's mode, owner and group, and no temporary file left behind
//!   by SIGINT, SIGTERM or SIGHUP.

mod args;
mod atomic;
mod backup;
mod config;
mod pipeline;
mod reporter;
mod run;
mod unmojibake;

pub use args::{ActionArg, BomArg, PracticeArg, RepairArgs, ReportFormat};

use std::process::ExitCode;

use crate::output::run_tool;
use config::Config;

/// The clap command of `utf8-repair`, for man pages and completions.
///
/// ```
/// assert_eq!(utf8_tools::repair::command().get_name(), "utf8-repair");
/// ```
pub fn command() -> clap::Command {
    <RepairArgs as clap::CommandFactory>::command()
}

/// Runs `utf8-repair` with the process's arguments.
pub fn main() -> ExitCode {
    main_with(std::env::args_os())
}

/// Runs `utf8-repair` with the given arguments (the first is the program name).
pub fn main_with(args: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    crate::generate::main_with(run::PROGRAM, args, command, |args| {
        run_tool::<RepairArgs, Config>(run::PROGRAM, args, run::run)
    })
}
