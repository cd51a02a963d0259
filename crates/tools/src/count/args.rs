//! What was typed on the command line of `utf8-count`.

use std::ffi::{OsStr, OsString};
use std::marker::PhantomData;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Arg, Command, Parser, ValueEnum};

use crate::args::CommonArgs;

const AFTER_HELP: &str = "\
Columns are always printed in the order lines, words, chars, bytes, errors, longest line
(display width, -L), longest line (code points, --max-line-chars); the default is lines,
words, chars, bytes, errors.
Words are counted as GNU wc 9 counts them in a UTF-8 locale: a word begins at a printable
character after a separator (ASCII blanks, U+00A0, U+1680, U+2000..U+200A, U+202F,
U+205F, U+2060, U+3000) or the start; controls, other characters that are not printable and
invalid sequences neither begin nor end a word.
\"chars\" counts well-formed scalar values; every maximal subpart of ill-formed input is
one error, so chars + errors is the length of the repaired text in characters.

Exit status: 0 success; 1 invalid input under --check; 2 trouble (usage, unreadable
input, write error).";

/// Count lines, words, characters, bytes and invalid UTF-8 sequences, correctly on any bytes.
#[derive(Parser, Debug, Clone)]
// The about line is the doc comment; version, help width and getopt's rules for options:
// `CommonArgs`, flattened below.
#[command(name = "utf8-count", after_help = AFTER_HELP)]
pub struct CountArgs {
    /// Print the newline count.
    #[arg(short = 'l', long)]
    pub lines: bool,

    /// Print the word count, as GNU wc in a UTF-8 locale (see below).
    #[arg(short = 'w', long)]
    pub words: bool,

    /// Print the count of well-formed scalar values (code points).
    #[arg(short = 'm', long)]
    pub chars: bool,

    /// Print the byte count.
    #[arg(short = 'c', long)]
    pub bytes: bool,

    /// Print the count of invalid sequences (maximal subparts).
    #[arg(short = 'e', long)]
    pub errors: bool,

    /// Print the display width of the longest line, as GNU wc: a tab moves to the next
    /// multiple of 8, East Asian wide characters take 2 columns, combining marks, control
    /// characters and invalid sequences 0; a carriage return or form feed starts over.
    #[arg(short = 'L', long)]
    pub max_line_length: bool,

    /// Print the length of the longest line in code points (each error counts one).
    #[arg(long)]
    pub max_line_chars: bool,

    /// When to print a line with the totals: auto (several inputs), always, only, never.
    /// Each value may be abbreviated to an unambiguous prefix, as GNU's (`--total=al`).
    #[arg(
        long,
        value_name = "WHEN",
        value_parser = Argmatch::<TotalMode>::new(),
        default_value = "auto"
    )]
    pub total: TotalMode,

    /// Also count sequences by length (1 to 4 bytes) and errors by kind.
    #[arg(long, conflicts_with_all = ["lines", "words", "chars", "bytes", "errors"])]
    pub histogram: bool,

    /// Print nothing for valid input; name the first error of each invalid input; exit 1
    /// if any input is invalid.
    #[arg(long, conflicts_with_all = [
        "explain", "histogram", "lines", "words", "chars", "bytes", "errors", "max_line_length",
        "max_line_chars", "total",
    ])]
    pub check: bool,

    /// With --check: no hint. An invalid input that reads cleanly as a legacy encoding gets
    /// a note after its error naming it ("this looks like windows-1252 text; try
    /// utf8-repair --from windows-1252").
    #[arg(short = 'q', long, requires = "check")]
    pub quiet: bool,

    /// Print one line per scalar value or error: offset, bytes in hex, U+XXXX or the error.
    #[arg(long, conflicts_with_all = [
        "histogram", "lines", "words", "chars", "bytes", "errors", "max_line_length",
        "max_line_chars", "total",
    ])]
    pub explain: bool,

    /// Read the input written as hex bytes ("ED BF 80", "0xED 0xBF", "EDBF80").
    #[arg(long)]
    pub hex: bool,

    /// Count files in ENCODING (any WHATWG label: utf-16le, shift_jis, gbk, big5,
    /// windows-1252, ...) as the UTF-8 they decode to: lines, words and characters of the
    /// decoded text (a byte order mark is not one), bytes of the file, and each malformed
    /// sequence as an error; a byte order mark overrides it. `auto` decides for each file:
    /// a byte order mark, valid UTF-8, or the guess of the chardetng detector. Without
    /// --from, every file is counted as its bytes, as wc counts them.
    #[arg(long, value_name = "ENCODING", conflicts_with_all = ["hex", "check", "explain"])]
    pub from: Option<String>,

    /// Count with N threads: a large regular file split across them (default: all cores
    /// for files of 32 MiB or more), and many files at once (default: all cores), each
    /// file's line in the order given.
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

/// The value parser of GNU's argmatch: a value of `E`, or an unambiguous prefix of one
/// (`--total=al` is `always`); an ambiguous or unknown value is a usage error that lists the
/// valid ones, worded as GNU's.
#[derive(Clone, Copy, Debug)]
pub struct Argmatch<E>(PhantomData<E>);

impl<E> Argmatch<E> {
    /// The parser.
    pub fn new() -> Self {
        Argmatch(PhantomData)
    }
}

impl<E> Default for Argmatch<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: ValueEnum + Clone + Send + Sync + 'static> TypedValueParser for Argmatch<E> {
    type Value = E;

    fn parse_ref(&self, cmd: &Command, arg: Option<&Arg>, value: &OsStr) -> Result<E, clap::Error> {
        let given = value.to_string_lossy();
        let named = |v: &E| v.to_possible_value().map(|p| p.get_name().to_string());
        let variants = E::value_variants();
        if let Some(v) = variants
            .iter()
            .find(|v| named(v).as_deref() == Some(&*given))
        {
            return Ok(v.clone());
        }
        let mut matches = variants
            .iter()
            .filter(|v| !given.is_empty() && named(v).is_some_and(|n| n.starts_with(&*given)));
        let first = matches.next();
        let problem = match (first, matches.next()) {
            (Some(v), None) => return Ok(v.clone()),
            (Some(_), Some(_)) => "ambiguous",
            (None, _) => "invalid",
        };
        let option = arg
            .and_then(Arg::get_long)
            .map_or_else(|| "value".to_string(), |l| format!("--{l}"));
        let mut message =
            format!("{problem} argument '{given}' for '{option}'\nValid arguments are:");
        for name in variants.iter().filter_map(named) {
            message.push_str(&format!("\n  - '{name}'"));
        }
        message.push_str("\n\nFor more information, try '--help'.\n");
        Err(clap::Error::raw(ErrorKind::InvalidValue, message).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            E::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value),
        ))
    }
}
