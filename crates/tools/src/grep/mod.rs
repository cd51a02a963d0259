//! `utf8-grep`: fixed-string and regular-expression search on raw bytes, without decoding.
//!
//! UTF-8 is self-synchronizing: a valid UTF-8 pattern found in valid UTF-8 text starts and
//! ends on character boundaries, so no decoding is needed to search. Only `-w` (the
//! characters next to a match), `--column`, `--repair-output`, `--json` and
//! `--invalid=report` decode anything.

mod args;
mod argv;
mod buffer;
mod class_run;
mod config;
#[cfg(unix)]
mod deep;
mod filters;
mod glob;
mod job;
mod json;
mod longest;
mod many;
mod matcher;
mod one_input;
mod parallel;
mod pcre;
mod posix;
mod printer;
mod regex;
mod run;
mod search;
mod sink;
mod split;
mod walk;

pub use args::{BinaryFiles, DeviceAction, DirAction, GrepArgs, InvalidMode};
pub use argv::{bare_color_is_auto, expand_context_digits};
pub use glob::{Globs, glob_match};
pub use matcher::{MatchOptions, Matcher, is_word_char};
pub use posix::{Syntax, Translation, translate, translate_bytes};
pub use printer::Palette;
pub use regex::Dialect;

use std::process::ExitCode;

/// The clap command of `utf8-grep`, for man pages and completions.
///
/// ```
/// assert_eq!(utf8_tools::grep::command().get_name(), "utf8-grep");
/// ```
pub fn command() -> clap::Command {
    <GrepArgs as clap::CommandFactory>::command()
}

/// Runs `utf8-grep` with the process's arguments.
pub fn main() -> ExitCode {
    main_with(std::env::args_os())
}

/// Runs `utf8-grep` with the given arguments (the first is the program name).
pub fn main_with(args: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    crate::generate::main_with(job::PROGRAM, args, command, run::run)
}
