//! What was typed on the command line of `utf8-repair`.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use utf8_codec::Practice;

use crate::args::CommonArgs;

const AFTER_HELP: &str = "\
Valid input passes through byte for byte. By default every maximal subpart of ill-formed
input (the Unicode, WHATWG, CPython and Rust segmentation) becomes one U+FFFD.

Without --from, a file that starts with a UTF-16 byte order mark is converted to UTF-8
(the same text, without the mark); one with a UTF-32 mark is refused. A file with NUL
bytes in most odd or most even positions of its first 32 KiB (UTF-16 without a mark), or
with any other NUL there (a binary file), is refused by --in-place and -o, left as it is,
with what to pass (--from utf-16le, --from utf-16be, or --from utf-8 to repair its bytes
as UTF-8); to standard output it is repaired as UTF-8 with a warning.

Labels: --from (-f) takes WHATWG's labels and glibc iconv's names (CP932, UTF16LE,
EUCJP, CP936, UCS-2LE, ...); --list prints every one, grouped by encoding. Where the two
disagree, iconv's meaning wins: iso-8859-1, latin1, l1, cp819 and their spellings decode
each byte to U+0000..U+00FF, and ascii, us-ascii, ansi_x3.4-1968 make each byte over 0x7F an
error; windows-1252 and cp1252 keep the web's table (0x80 is the euro sign), which --from
auto chooses too. -t takes UTF-8 only (with //IGNORE, as -c, or //TRANSLIT); -c omits what
cannot be decoded and exits 1 when it omitted something (POSIX; glibc 2.36's iconv -c exits
0).

--in-place writes a temporary file in the file's directory, fsyncs it and renames it over
the original, keeping its mode, owner and group: an interrupted run leaves either the
original or the repaired file. A symlink stays a symlink (its target is repaired); a file
with several hard links is refused; a file that needs no change is not touched at all.
-o FILE is written the same way (a device such as /dev/stdout is written directly).

Exit status: 0 success (whether or not anything was repaired); 1 an input needs repair
under --check, or -c omitted something; 2 trouble (usage, unreadable input, write error, refused file).";

/// Repair invalid UTF-8, or transcode any encoding to UTF-8, streaming and safely.
#[derive(Parser, Debug, Clone)]
// The about line is the doc comment; version, help width and getopt's rules for options:
// `CommonArgs`, flattened below.
#[command(name = "utf8-repair", after_help = AFTER_HELP)]
pub struct RepairArgs {
    /// Write the repaired text to FILE (atomically: temporary file, fsync, rename) instead
    /// of standard output. Several inputs are concatenated.
    #[arg(
        short = 'o',
        long,
        value_name = "FILE",
        conflicts_with_all = ["in_place", "check"],
        allow_hyphen_values = true
    )]
    pub output: Option<PathBuf>,

    /// Repair each FILE in place (atomically); files that need no change are left untouched.
    #[arg(short = 'i', long, conflicts_with = "check")]
    pub in_place: bool,

    /// Keep the original of each file replaced by --in-place or -o, as cp, mv and install
    /// do: CONTROL is none (off), numbered (t: FILE.~N~), existing (nil: numbered if FILE
    /// has numbered backups, else simple) or simple (never: FILE followed by the suffix);
    /// without CONTROL, $VERSION_CONTROL, else existing.
    #[arg(long, value_name = "CONTROL", num_args = 0..=1, require_equals = true, default_missing_value = "")]
    pub backup: Option<String>,

    /// Like --backup without CONTROL.
    #[arg(short = 'b')]
    pub backup_default: bool,

    /// The suffix of simple backups (default: $SIMPLE_BACKUP_SUFFIX, else '~'); implies
    /// --backup.
    #[arg(short = 'S', long, value_name = "SUFFIX", allow_hyphen_values = true)]
    pub suffix: Option<OsString>,

    /// How ill-formed input is cut into substitutes: one per maximal subpart, one per byte,
    /// or one per sequence announced by a lead byte (C0..FD, up to 6 bytes).
    #[arg(long, value_enum, value_name = "PRACTICE", default_value_t = PracticeArg::MaximalSubpart)]
    pub practice: PracticeArg,

    /// What each substitute becomes: the replacement string, nothing, or \xNN for each byte
    /// (as Python's backslashreplace).
    #[arg(long, value_enum, value_name = "ACTION", default_value_t = ActionArg::Replace)]
    pub action: ActionArg,

    /// The replacement string (default U+FFFD); implies --action replace.
    #[arg(long, value_name = "STRING", allow_hyphen_values = true)]
    pub replacement: Option<String>,

    /// Write nothing; name the first error of each input that needs repair; exit 1 if any
    /// does.
    #[arg(long)]
    pub check: bool,

    /// Report every repaired error on standard error, as text (with a summary by kind) or
    /// JSON lines (--json alone means --report=json; standard output carries the text).
    #[arg(long, value_enum, value_name = "FORMAT", num_args = 0..=1, require_equals = true, default_missing_value = "text")]
    pub report: Option<ReportFormat>,

    /// Decode the input from ENCODING (any WHATWG label: windows-1252, iso-8859-2,
    /// shift_jis, euc-kr, gb18030, utf-16le, ...; or iconv's name: CP932, UTF16LE, EUCJP,
    /// CP936, ...; --list lists them); a byte order mark overrides it. iso-8859-1, latin1
    /// and ascii mean what they mean to iconv (every byte its own code point; bytes over 0x7F
    /// are errors), windows-1252 what it means to the web.
    /// `utf-8` reads the bytes as UTF-8 whatever they look like. `auto` chooses from the
    /// first MiB of each input: a byte order mark, the NUL bytes of UTF-16, UTF-8 (valid,
    /// or damaged in fewer places than it has non-ASCII characters), or the guess of the
    /// chardetng detector; `--report` says which.
    #[arg(
        short = 'f',
        long,
        visible_alias = "from-code",
        value_name = "ENCODING"
    )]
    pub from: Option<String>,

    /// The encoding of the output, as iconv's -t: always UTF-8, so only UTF-8's names are
    /// taken (UTF-8, UTF8, ...), with iconv's //IGNORE (as -c) or //TRANSLIT (nothing to
    /// transliterate into UTF-8) after it.
    #[arg(short = 't', long = "to-code", value_name = "ENCODING")]
    pub to_code: Option<String>,

    /// Omit what cannot be decoded (as --action delete), and exit 1 when something was
    /// omitted, as iconv -c does.
    #[arg(short = 'c')]
    pub omit: bool,

    /// List every encoding label --from takes (WHATWG's and iconv's), grouped by encoding,
    /// and exit.
    #[arg(short = 'l', long)]
    pub list: bool,

    /// Print no hints: without --from, an input that is not UTF-8 but reads cleanly as a
    /// legacy encoding gets a note on standard error naming it ("this looks like
    /// windows-1252 text; try --from windows-1252"), and one that looks like UTF-16 or
    /// binary, repaired to standard output, a warning.
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Undo mojibake: UTF-8 text that was decoded as windows-1252 or Latin-1 and encoded
    /// again, once or several times (an e-acute shown as A-tilde and a copyright sign
    /// becomes an e-acute again), as Python's ftfy fix_encoding does, and nothing else. Conservative:
    /// clean text in any language is left alone. After --from and the repair; --report
    /// lists each fix.
    #[arg(long)]
    pub fix_mojibake: bool,

    /// What to do with a byte order mark at the start of UTF-8 input: keep it or strip it.
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = BomArg::Keep)]
    pub bom: BomArg,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub common: CommonArgs,

    /// Files to read; '-' or none means standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,
}

/// The value of `--practice`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PracticeArg {
    /// One substitute per maximal subpart (Unicode's recommendation, WHATWG, CPython, Rust).
    MaximalSubpart,
    /// One substitute per byte of every ill-formed subpart.
    PerByte,
    /// One substitute per sequence announced by a lead byte C0..FD.
    PerSequence,
}

impl From<PracticeArg> for Practice {
    fn from(p: PracticeArg) -> Practice {
        match p {
            PracticeArg::MaximalSubpart => Practice::MaximalSubpart,
            PracticeArg::PerByte => Practice::PerByte,
            PracticeArg::PerSequence => Practice::PerSequence,
        }
    }
}

/// The value of `--action`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionArg {
    /// The replacement string (U+FFFD unless --replacement).
    Replace,
    /// Nothing: the bytes are dropped.
    Delete,
    /// \xNN for each byte, lowercase hex.
    Escape,
}

/// The value of `--report`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    /// `utf8-repair: PATH:LINE:COLUMN: KIND at byte OFFSET (SUBPART): explanation`, then a
    /// summary by kind.
    Text,
    /// One JSON object per error.
    Json,
}

/// The value of `--bom`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BomArg {
    /// Pass a UTF-8 byte order mark through.
    Keep,
    /// Remove a UTF-8 byte order mark at the start of each input.
    Strip,
}
