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
sequence, and never across lines. Back-references (\\1) in -G and -E are decided by PCRE2 on
the lines the automaton finds (with -o and colour a match is PCRE2's leftmost-first one, which
can differ from POSIX's leftmost-longest), as -P is; PCRE2's match limit ends the search of a
file with \"exceeded PCRE's backtracking limit\", status 2.
Bytes of a pattern that are not UTF-8 match themselves, as in GNU grep (`utf8-grep
$'\\xff'`), so `utf8-grep -axv '.*'` lists the lines that are not well-formed UTF-8.

Invalid UTF-8 in the text never hides a line: lines are printed as they are (or repaired
with --repair-output). A file holding NUL bytes is binary unless -a or -z: as in GNU grep,
lines are printed until the 96 KiB block holding the first NUL, then \"binary file
matches\" (-I: the file does not match). Unlike GNU grep, encoding errors never make a
file binary. --color alone means --color=auto, as in GNU grep.

Regular files of 4 MiB and more are mapped into memory in 16 MiB windows; if such a file
shrinks while it is searched, utf8-grep stops with exit status 2.

Exit status: 0 if a line is selected, 1 if none is, 2 on trouble (usage, unreadable input,
write error) unless -q found a match.";

/// Search for regular expressions or fixed strings in UTF-8 text, on raw bytes, correctly
/// on any bytes.
#[derive(Parser, Debug, Clone)]
// Version, help width and getopt's rules for options: `CommonArgs`, flattened below.
#[command(
    name = "utf8-grep",
    about = "Search for regular expressions or fixed strings in UTF-8 text, on raw bytes, \
             correctly on any bytes",
    after_help = AFTER_HELP,
    disable_help_flag = true
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

    /// PATTERN is a Perl-compatible regular expression (PCRE2, as GNU grep 3.8's -P: one
    /// pattern; look-around, \K, back-references; \d \w \s ASCII only).
    #[arg(short = 'P', long = "perl-regexp")]
    pub perl_regexp: bool,

    /// Ignore case (Unicode simple case folding); -y is GNU grep's obsolete synonym.
    #[arg(
        short = 'i',
        short_alias = 'y',
        long = "ignore-case",
        overrides_with = "no_ignore_case"
    )]
    pub ignore_case: bool,

    /// Do not ignore case (undoes an earlier -i).
    #[arg(long = "no-ignore-case", overrides_with = "ignore_case")]
    pub no_ignore_case: bool,

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

    /// Stop reading a file after NUM selected lines (a negative NUM: no limit, as GNU grep).
    #[arg(
        short = 'm',
        long = "max-count",
        value_name = "NUM",
        allow_hyphen_values = true
    )]
    pub max_count: Option<i64>,

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

    /// Lines end with a NUL byte, not a newline, in the input and the output (a NUL then
    /// does not make a file binary).
    #[arg(short = 'z', long = "null-data")]
    pub null_data: bool,

    /// Print a tab after the prefix of file name, line number and byte offset (when there
    /// is one), before a line that is not empty.
    #[arg(short = 'T', long = "initial-tab")]
    pub initial_tab: bool,

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

    /// Print SEP between groups of context lines (default `--`).
    #[arg(
        long = "group-separator",
        value_name = "SEP",
        allow_hyphen_values = true,
        overrides_with = "no_group_separator"
    )]
    pub group_separator: Option<OsString>,

    /// Print nothing between groups of context lines.
    #[arg(long = "no-group-separator", overrides_with = "group_separator")]
    pub no_group_separator: bool,

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

    /// What `-a`, `-I` and `--binary-files` ask, the last given winning (filled after
    /// parsing).
    #[arg(skip)]
    pub binary_mode: BinaryFiles,

    /// What `-r`, `-R` and `-d` ask of directories named as FILE, the last given winning
    /// (filled after parsing).
    #[arg(skip)]
    pub dir_action: Option<DirAction>,

    /// Skip files whose base name matches one of the globs in FILE, one a line.
    #[arg(long = "exclude-from", value_name = "FILE", action = ArgAction::Append, allow_hyphen_values = true)]
    pub exclude_from: Vec<OsString>,

    /// What to do with a directory named as FILE: read it (an error, "Is a directory"),
    /// skip it, or recurse into it (as -r).
    #[arg(short = 'd', long = "directories", value_enum, value_name = "ACTION")]
    pub directories: Option<DirAction>,

    /// What to do with a device, FIFO or socket named as FILE: read it, or skip it
    /// (those met under -r are always skipped).
    #[arg(short = 'D', long = "devices", value_enum, value_name = "ACTION")]
    pub devices: Option<DeviceAction>,

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

    /// Search binary files (holding NUL bytes) as text (--binary-files=text).
    #[arg(short = 'a', long = "text")]
    pub text: bool,

    /// A binary file holds no match (--binary-files=without-match).
    #[arg(short = 'I')]
    pub without_match: bool,

    /// What a binary file is searched as: binary (lines until the first NUL, then "binary
    /// file matches"), text (as -a) or without-match (as -I: no line from the block of its
    /// first NUL on, and the file does not match). A binary file is one holding a NUL byte;
    /// encoding errors never make a file binary here (unlike GNU grep, which calls a file
    /// with one binary), since finding them is this tool's job.
    #[arg(long = "binary-files", value_enum, value_name = "TYPE")]
    pub binary_files: Option<BinaryFiles>,

    /// Accepted for GNU grep's sake; does nothing on POSIX systems.
    #[arg(short = 'U', long = "binary")]
    pub binary: bool,

    /// Print lines with each invalid sequence replaced by U+FFFD.
    #[arg(long = "repair-output")]
    pub repair_output: bool,

    /// What to do with invalid UTF-8 in the searched text: ignore it, or report each
    /// invalid sequence on stderr in the shared format.
    ///
    /// `report` validates each file beside the search: it lists every invalid sequence of
    /// the file, in selected lines or not, so with -c, -l, -L and -m the file is still read
    /// to its end and its count or name comes with all its errors, not only those of the
    /// lines counted (the invalid sequences of each selected line are in --json's output).
    /// -q stops at the first match, after reporting those before it (and those of the
    /// rest of the block it read).
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = InvalidMode::Ignore)]
    pub invalid: InvalidMode,

    /// Print help.
    #[arg(long, action = ArgAction::Help)]
    pub help: Option<bool>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub common: CommonArgs,
}

/// The value of `--binary-files` (and of `-a`, `-I`, the last given winning).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BinaryFiles {
    /// Lines until the block holding the first NUL, then "binary file matches".
    #[default]
    Binary,
    /// Search it as text.
    Text,
    /// No match in it.
    WithoutMatch,
}

/// The value of `-d`/`--directories`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirAction {
    /// Read it: an error ("Is a directory").
    Read,
    /// Skip it silently.
    Skip,
    /// Search the files under it, as -r.
    Recurse,
}

/// The value of `-D`/`--devices`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceAction {
    /// Read it.
    Read,
    /// Skip it.
    Skip,
}

/// The value of `--invalid`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvalidMode {
    /// Search invalid text silently.
    Ignore,
    /// List every invalid sequence on stderr (`PROGRAM: PATH:LINE:COLUMN: KIND ...`).
    Report,
}

/// The `--include` (true) and `--exclude` (false) patterns of `m`, in the order given, each
/// line of an `--exclude-from` FILE an `--exclude` where the option is.
///
/// # Errors
///
/// [`ToolError::Input`] for an `--exclude-from` FILE that cannot be read.
pub(super) fn file_filters_in_order(
    m: &clap::ArgMatches,
) -> Result<Vec<(bool, String)>, crate::diag::ToolError> {
    let mut all: Vec<(usize, bool, String)> = Vec::new();
    for (id, include) in [("include", true), ("exclude", false)] {
        if let (Some(at), Some(values)) = (m.indices_of(id), m.get_many::<String>(id)) {
            all.extend(at.zip(values).map(|(i, v)| (i, include, v.clone())));
        }
    }
    if let (Some(at), Some(files)) = (
        m.indices_of("exclude_from"),
        m.get_many::<OsString>("exclude_from"),
    ) {
        for (i, f) in at.zip(files) {
            let bytes = std::fs::read(f)
                .map_err(|e| crate::diag::ToolError::input(f.to_string_lossy().into_owned(), &e))?;
            let text = String::from_utf8_lossy(&bytes);
            all.extend(
                text.lines()
                    .filter(|l| !l.is_empty())
                    .map(|l| (i, false, l.to_string())),
            );
        }
    }
    all.sort_by_key(|&(i, ..)| i);
    Ok(all.into_iter().map(|(_, inc, v)| (inc, v)).collect())
}

/// What `-a`, `-I` and `--binary-files` ask of `m`, the one given last winning.
pub(super) fn binary_files_in_order(m: &clap::ArgMatches) -> BinaryFiles {
    let last = |id: &str| given_last(m, id);
    let mut best: Option<(usize, BinaryFiles)> = None;
    let mut consider = |at: Option<usize>, what: BinaryFiles| {
        if let Some(at) = at
            && best.is_none_or(|(b, _)| at > b)
        {
            best = Some((at, what));
        }
    };
    consider(last("text"), BinaryFiles::Text);
    consider(last("without_match"), BinaryFiles::WithoutMatch);
    if let Some(v) = m.get_one::<BinaryFiles>("binary_files") {
        consider(last("binary_files"), *v);
    }
    best.map_or(BinaryFiles::Binary, |(_, b)| b)
}

/// Whether `-r`, `-R` or `-d` asks to recurse into directories named as FILE, the one
/// given last winning (`-r -d read` reads them).
pub(super) fn recurse_in_order(m: &clap::ArgMatches) -> Option<DirAction> {
    let last = |id: &str| given_last(m, id);
    let r = [last("recursive"), last("dereference_recursive")]
        .into_iter()
        .flatten()
        .max();
    let d = last("directories").zip(m.get_one::<DirAction>("directories").copied());
    match (r, d) {
        (Some(r), Some((d, action))) if d > r => Some(action),
        (Some(_), _) => Some(DirAction::Recurse),
        (None, d) => d.map(|(_, a)| a),
    }
}

/// Where the option `id` was last given on the command line (`None` for a default).
fn given_last(m: &clap::ArgMatches, id: &str) -> Option<usize> {
    (m.value_source(id) == Some(clap::parser::ValueSource::CommandLine))
        .then(|| m.indices_of(id).and_then(Iterator::max))
        .flatten()
}
