//! What was typed on the command line of `utf8-count`.

use std::ffi::OsString;

use clap::{Parser, ValueEnum};

use crate::args::CommonArgs;

const AFTER_HELP: &str = "\
Columns are always printed in the order lines, chars, bytes, errors, longest line.
\"chars\" counts well-formed scalar values; every maximal subpart of ill-formed input is
one error, so chars + errors is the length of the repaired text in characters.

Exit status: 0 success; 1 invalid input under --check; 2 trouble (usage, unreadable
input, write error).";

/// Count lines, characters, bytes and invalid UTF-8 sequences, correctly on any bytes.
#[derive(Parser, Debug, Clone)]
#[command(
    name = "utf8-count",
    version = crate::VERSION,
    long_version = crate::LONG_VERSION,
    about = "Count lines, characters, bytes and invalid UTF-8 sequences, correctly on any bytes",
    after_help = AFTER_HELP,
    max_term_width = 100,
    // getopt's rule: a repeated option is harmless, the last value wins.
    args_override_self = true
)]
pub struct CountArgs {
    /// Print the newline count.
    #[arg(short = 'l', long)]
    pub lines: bool,

    /// Print the count of well-formed scalar values (code points).
    #[arg(short = 'm', long)]
    pub chars: bool,

    /// Print the byte count.
    #[arg(short = 'c', long)]
    pub bytes: bool,

    /// Print the count of invalid sequences (maximal subparts).
    #[arg(short = 'e', long)]
    pub errors: bool,

    /// Print the length of the longest line in code points (each error counts one).
    #[arg(short = 'L', long)]
    pub max_line_length: bool,

    /// When to print a line with the totals: auto (several inputs), always, only, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = TotalMode::Auto)]
    pub total: TotalMode,

    /// Also count sequences by length (1 to 4 bytes) and errors by kind.
    #[arg(long, conflicts_with_all = ["lines", "chars", "bytes", "errors"])]
    pub histogram: bool,

    /// Print nothing for valid input; name the first error of each invalid input; exit 1
    /// if any input is invalid.
    #[arg(long, conflicts_with_all = [
        "explain", "histogram", "lines", "chars", "bytes", "errors", "max_line_length", "total",
    ])]
    pub check: bool,

    /// Print one line per scalar value or error: offset, bytes in hex, U+XXXX or the error.
    #[arg(long, conflicts_with_all = [
        "histogram", "lines", "chars", "bytes", "errors", "max_line_length", "total",
    ])]
    pub explain: bool,

    /// Read the input written as hex bytes ("ED BF 80", "0xED 0xBF", "EDBF80").
    #[arg(long)]
    pub hex: bool,

    /// Count large regular files with N threads (default: all cores for files of 32 MiB
    /// or more).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,

    /// Read the input file names from the NUL-separated list in F ('-' for stdin).
    #[arg(long, value_name = "F")]
    pub files0_from: Option<OsString>,

    /// Files to read; '-' or none means standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub common: CommonArgs,
}

/// The value of `--total`, as GNU `wc`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TotalMode {
    /// A total when there are several inputs.
    Auto,
    /// Always a total.
    Always,
    /// Only the total (without the word "total").
    Only,
    /// Never a total.
    Never,
}
