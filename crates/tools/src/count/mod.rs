//! `utf8-count`: like `wc`, correct on any bytes.
//!
//! Columns, always in this order: lines, words (as GNU `wc -w` in a UTF-8 locale: see
//! `utf8_codec::count_words`), chars (well-formed scalar values), bytes, errors
//! (maximal subparts), the longest line's display width with `-L` and its length in code
//! points with `--max-line-chars`. `chars + errors` is the length of
//! the repaired text in characters.
//!
//! * [`args`](CountArgs): what was typed (clap);
//! * `config`: what it means, validated (plain values);
//! * `run`: the counts, `--check` and `--explain` of a config; `tally`: counting one input,
//!   in parts on several threads for large files; `json`: the `--json` records;
//!   [`hex`](HexReader): `--hex` input; [`width`](LineWidths): the display width of `-L`.

mod args;
mod config;
mod counter;
mod explain;
mod files0;
mod hex;
mod json;
mod many;
mod quote;
mod run;
mod tally;
mod width;

pub use args::{CountArgs, TotalMode};
pub use hex::HexReader;
pub use tally::{LineStats, Tally};
pub use width::LineWidths;

use std::process::ExitCode;

use crate::output::run_tool;
use config::Config;

/// The clap command of `utf8-count`, for man pages and completions.
///
/// ```
/// assert_eq!(utf8_tools::count::command().get_name(), "utf8-count");
/// ```
pub fn command() -> clap::Command {
    <CountArgs as clap::CommandFactory>::command()
}

/// Runs `utf8-count` with the process's arguments.
pub fn main() -> ExitCode {
    main_with(std::env::args_os())
}

/// Runs `utf8-count` with the given arguments (the first is the program name).
pub fn main_with(args: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    crate::generate::main_with(run::PROGRAM, args, command, |args| {
        run_tool::<CountArgs, Config>(run::PROGRAM, args, run::run)
    })
}
