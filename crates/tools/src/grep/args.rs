//! What was typed on the command line of `utf8-grep`.

use std::ffi::OsString;

use clap::{ArgAction, Parser, ValueEnum};

use crate::args::CommonArgs;

const AFTER_HELP: &str = "\
PATTERN is a regular expression in GNU grep's basic syntax (-G, grep's default) unless -F
(fixed strings), -E or -P says otherwise; a pattern with no special character is searched
as a fixed string, on raw bytes without decoding. A pattern holding newlines is several
patterns. Fixed strings and -G/-E match leftmost-longest (POSIX), -P leftmost-first (Perl).
A regular expression matches whole characters only, never part of one nor an ill-formed
sequence, and never across lines; back-references (\\1) are not supported. Bytes of a
pattern that are not UTF-8 match themselves, as in GNU grep (`utf8-grep $'\\xff'`), so
`utf8-grep -axv '.*'` lists the lines that are not well-formed UTF-8.

Invalid UTF-8 in the text never hides a line: lines are printed as they are (or repaired
with --repair-output). A file holding NUL bytes is binary unless -a: as in GNU grep, lines
are printed until the 96 KiB block holding the first NUL, then \"binary file matches\".

Regular files of 4 MiB and more are mapped into memory in 16 MiB windows; if such a file
shrinks while it is searched, utf8-grep stops with exit status 2.

Exit status: 0 if a line is selected, 1 if none is, 2 on trouble (usage, unreadable input,
write error) unless -q found a match.";

/// Search for regular expressions or fixed strings in UTF-8 text, on raw bytes, correctly
/// on any bytes.
#[derive(Parser, Debug, Clone)]
// Version, help width and getopt's rule for repeated options: `CommonArgs`, flattened below.
#[command(
    name = "utf8-grep",
    about = "Search for regular expressions or fixed strings in UTF-8 text, on raw bytes, \
             correctly on any bytes",
    after_help = AFTER_HELP,
    disable_help_flag = true,
    // getopt_long's rule: an unambiguous prefix of a long option is that option.
    infer_long_args = true
)]
pub struct GrepArgs {
    /// The pattern (unless -e or -f is given).
    #[arg(value_name = "PATTERN")]
    pub pattern: Option<OsString>,

    /// Files or directories to search ('-' for stdin; none: stdin, or '.' with -r).
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,

    /// Use PATTERNS (may be repeated; newlines separate patterns).
    #[arg(short = 'e', long = "regexp", value_name = "PATTERNS", action = ArgAction::Append, allow_hyphen_values = true)]
    pub regexp: Vec<OsString>,

    /// Take patterns from FILE, one per line.
    #[arg(short = 'f', long = "file", value_name = "FILE", action = ArgAction::Append, allow_hyphen_values = true)]
    pub file: Vec<OsString>,

    /// PATTERNS are fixed strings.
    #[arg(short = 'F', long = "fixed-strings")]
    pub fixed_strings: bool,

    /// PATTERNS are POSIX basic regular expressions, with GNU's extensions (the default, as
    /// grep's).
    #[arg(short = 'G', long = "basic-regexp")]
    pub basic_regexp: bool,

    /// PATTERNS are POSIX extended regular expressions, with GNU's extensions.
    #[arg(short = 'E', long = "extended-regexp")]
    pub extended_regexp: bool,

    /// PATTERNS are regular expressions in the syntax of Rust's regex crate (as ripgrep's).
    #[arg(short = 'P', long = "perl-regexp")]
    pub perl_regexp: bool,

    /// Ignore case (Unicode simple case folding).
    #[arg(short = 'i', long = "ignore-case")]
    pub ignore_case: bool,

    /// Match only whole words (word characters: Unicode letters, digits, '_').
    #[arg(short = 'w', long = "word-regexp")]
    pub word_regexp: bool,

    /// Match only whole lines.
    #[arg(short = 'x', long = "line-regexp")]
    pub line_regexp: bool,

    /// Select non-matching lines.
    #[arg(short = 'v', long = "invert-match")]
    pub invert_match: bool,

    /// Print only a count of selected lines per file (with --json, the one given last wins,
    /// as in ripgrep).
    #[arg(short = 'c', long = "count", overrides_with = "json")]
    pub count: bool,

    /// Print only the names of files with selected lines (with --json, the one given last
    /// wins).
    #[arg(short = 'l', long = "files-with-matches", overrides_with = "json")]
    pub files_with_matches: bool,

    /// Print only the names of files without selected lines (with --json, the one given
    /// last wins).
    #[arg(short = 'L', long = "files-without-match", overrides_with = "json")]
    pub files_without_match: bool,

    /// Print the line number with each output line.
    #[arg(short = 'n', long = "line-number")]
    pub line_number: bool,

    /// Print the 0-based byte offset with each output line (of the match with -o).
    #[arg(short = 'b', long = "byte-offset")]
    pub byte_offset: bool,

    /// Print LINE:COLUMN: (implies -n); COLUMN is the 1-based column of the first match in
    /// code points, each invalid sequence counting as one.
    #[arg(long)]
    pub column: bool,

    /// Print only the matched parts of selected lines, one per line (--json always prints
    /// whole lines with their matches listed).
    #[arg(short = 'o', long = "only-matching")]
    pub only_matching: bool,

    /// Stop reading a file after NUM selected lines.
    #[arg(
        short = 'm',
        long = "max-count",
        value_name = "NUM",
        allow_hyphen_values = true
    )]
    pub max_count: Option<u64>,

    /// Print nothing; exit 0 on the first match, even if an error occurred.
    #[arg(short = 'q', long = "quiet", visible_alias = "silent")]
    pub quiet: bool,

    /// Suppress messages about nonexistent or unreadable files.
    #[arg(short = 's', long = "no-messages")]
    pub no_messages: bool,

    /// Print the file name with each match.
    #[arg(short = 'H', long = "with-filename", overrides_with = "no_filename")]
    pub with_filename: bool,

    /// Never print file names.
    #[arg(short = 'h', long = "no-filename", overrides_with = "with_filename")]
    pub no_filename: bool,

    /// Name standard input LABEL in the output.
    #[arg(long, value_name = "LABEL", allow_hyphen_values = true)]
    pub label: Option<String>,

    /// Print a NUL byte after file names instead of ':' (or a newline with -l/-L).
    #[arg(short = 'Z', long = "null")]
    pub null: bool,

    /// Print NUM lines of trailing context.
    #[arg(
        short = 'A',
        long = "after-context",
        value_name = "NUM",
        allow_hyphen_values = true
    )]
    pub after_context: Option<usize>,

    /// Print NUM lines of leading context.
    #[arg(
        short = 'B',
        long = "before-context",
        value_name = "NUM",
        allow_hyphen_values = true
    )]
    pub before_context: Option<usize>,

    /// Print NUM lines of output context.
    #[arg(
        short = 'C',
        long = "context",
        value_name = "NUM",
        allow_hyphen_values = true
    )]
    pub context: Option<usize>,

    /// Search directories recursively (symbolic links inside are not followed; devices,
    /// FIFOs and sockets inside are skipped).
    #[arg(short = 'r', long = "recursive")]
    pub recursive: bool,

    /// Search directories recursively, following every symbolic link (a link back to a
    /// directory being searched is a warning, not followed again).
    #[arg(short = 'R', long = "dereference-recursive")]
    pub dereference_recursive: bool,

    /// Search only files whose base name matches GLOB (a FILE operand: whose name or a part
    /// of it after a '/' does). With several --include and --exclude, the last that matches
    /// a file decides; a file none matches is searched unless the first is --include.
    #[arg(long, value_name = "GLOB", action = ArgAction::Append, allow_hyphen_values = true)]
    pub include: Vec<String>,

    /// Skip files whose base name matches GLOB (a FILE operand: whose name or a part of it
    /// after a '/' does).
    #[arg(long, value_name = "GLOB", action = ArgAction::Append, allow_hyphen_values = true)]
    pub exclude: Vec<String>,

    /// --include (true) and --exclude (false) patterns in command-line order (filled from
    /// clap's indices after parsing).
    #[arg(skip)]
    pub file_filters: Vec<(bool, String)>,

    /// Skip directories whose base name matches GLOB (a FILE operand under -r: whose name or
    /// a part of it after a '/' does); a trailing '/' in GLOB is ignored.
    #[arg(long = "exclude-dir", value_name = "GLOB", action = ArgAction::Append, allow_hyphen_values = true)]
    pub exclude_dir: Vec<String>,

    /// Search the files of -r on N threads (default: the number of cores); the output is
    /// the same for every N, in the order of the walk.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,

    /// Search files in ENCODING (any WHATWG label: utf-16le, shift_jis, gbk, big5,
    /// euc-kr, windows-1251, windows-1252, ...) as the UTF-8 they decode to; a byte order
    /// mark overrides it. `auto` decides for each file: a byte order mark, valid UTF-8, or
    /// the guess of the chardetng detector. Without --from, a file that begins with a
    /// UTF-8, UTF-16LE or UTF-16BE byte order mark is decoded, any other is searched as
    /// its bytes; `--from utf-8` searches every file as its bytes. Lines and columns count
    /// the decoded text, byte offsets (-b, --json) the file's bytes.
    #[arg(long, value_name = "ENCODING")]
    pub from: Option<String>,

    /// Search binary files (holding NUL bytes) as text.
    #[arg(short = 'a', long = "text")]
    pub text: bool,

    /// Print lines with each invalid sequence replaced by U+FFFD.
    #[arg(long = "repair-output")]
    pub repair_output: bool,

    /// What to do with invalid UTF-8 in the searched text: ignore it, or report each
    /// invalid sequence on stderr in the shared format.
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = InvalidMode::Ignore)]
    pub invalid: InvalidMode,

    /// Print help.
    #[arg(long, action = ArgAction::Help)]
    pub help: Option<bool>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub common: CommonArgs,
}

/// The value of `--invalid`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvalidMode {
    /// Search invalid text silently.
    Ignore,
    /// List every invalid sequence on stderr (`PROGRAM: PATH:LINE:COLUMN: KIND ...`).
    Report,
}

/// Short options of utf8-grep that take a value: the rest of their word, or the next word.
const SHORT_WITH_VALUE: &[char] = &['e', 'f', 'm', 'A', 'B', 'C', 'j'];

/// GNU grep's `-NUM` (`--context=NUM`): digits among the short options of a word are a
/// context length (`-5`, `-12`, `-n2` is `-n -2`), as getopt sees them in grep's option
/// string; digits that are the value of `-e`, `-m`, `-A` ... (`-m5`, `-e 5`) are left alone.
/// Words after `--` are operands.
///
/// ```
/// use utf8_tools::grep::expand_context_digits;
/// let args = |v: &[&str]| v.iter().map(|s| s.into()).collect::<Vec<std::ffi::OsString>>();
/// assert_eq!(
///     expand_context_digits(args(&["utf8-grep", "-2", "-n5", "-m3", "-e", "-7", "x"])),
///     args(&["utf8-grep", "--context=2", "-n", "--context=5", "-m3", "-e", "-7", "x"])
/// );
/// ```
pub fn expand_context_digits(args: Vec<OsString>) -> Vec<OsString> {
    let mut out = Vec::with_capacity(args.len());
    let mut value_next = false;
    let mut operands = false;
    for (i, arg) in args.into_iter().enumerate() {
        let word = arg.to_str().map(str::to_owned);
        let expandable = i > 0 && !operands && !value_next;
        value_next = false;
        let Some(word) = word.filter(|w| expandable && w.starts_with('-') && w.len() > 1) else {
            out.push(arg);
            continue;
        };
        if word == "--" {
            operands = true;
            out.push(arg);
            continue;
        }
        if let Some(name) = word.strip_prefix("--") {
            // A long option that takes its value from the next word.
            value_next = !name.contains('=')
                && [
                    "regexp",
                    "file",
                    "max-count",
                    "label",
                    "after-context",
                    "before-context",
                    "context",
                    "include",
                    "exclude",
                    "exclude-dir",
                    "invalid",
                    "engine",
                    "threads",
                ]
                .iter()
                .any(|long| long.starts_with(name));
            out.push(arg);
            continue;
        }
        let mut flags = String::new();
        let mut digits = String::new();
        let mut value = None;
        for (k, c) in word.char_indices().skip(1) {
            if c.is_ascii_digit() {
                digits.push(c);
            } else if SHORT_WITH_VALUE.contains(&c) {
                value = Some(&word[k..]);
                break;
            } else {
                flags.push(c);
            }
        }
        if digits.is_empty() {
            value_next = value.is_some_and(|v| v.len() == 1);
            out.push(arg);
            continue;
        }
        if !flags.is_empty() {
            out.push(format!("-{flags}").into());
        }
        out.push(format!("--context={digits}").into());
        if let Some(v) = value {
            value_next = v.len() == 1;
            out.push(format!("-{v}").into());
        }
    }
    out
}

/// The `--include` (true) and `--exclude` (false) patterns of `m`, in the order given.
pub(super) fn file_filters_in_order(m: &clap::ArgMatches) -> Vec<(bool, String)> {
    let mut all: Vec<(usize, bool, String)> = Vec::new();
    for (id, include) in [("include", true), ("exclude", false)] {
        if let (Some(at), Some(values)) = (m.indices_of(id), m.get_many::<String>(id)) {
            all.extend(at.zip(values).map(|(i, v)| (i, include, v.clone())));
        }
    }
    all.sort_by_key(|&(i, ..)| i);
    all.into_iter().map(|(_, inc, v)| (inc, v)).collect()
}
