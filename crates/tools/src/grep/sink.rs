//! What the searcher reports, and to whom: the [`Sink`] trait between the searcher
//! ([`super::search`]) and the printers ([`super::printer`] for text, `-c`, `-l`, `-L`, `-q`;
//! [`super::json`] for `--json`), as ripgrep's grep-searcher and grep-printer split them.
//! The searcher finds lines and matches; a sink decides what of them is written, and how.

use super::matcher::Matcher;
use crate::diag::{Diag, ToolError};
use crate::output::Output;
use crate::report::Report;

/// Where a line (or a match of `-o`) is: its number, absolute offset and column.
#[derive(Debug, Clone, Copy)]
pub struct At {
    /// 1-based line number.
    pub line: u64,
    /// Absolute 0-based byte offset.
    pub offset: u64,
    /// 1-based column, with `--column`.
    pub column: Option<u64>,
}

/// A line the searcher shows: selected, or context around a selected line.
#[derive(Debug, Clone, Copy)]
pub struct Line<'b> {
    /// Where it is.
    pub at: At,
    /// Its bytes, without the terminator.
    pub bytes: &'b [u8],
    /// Whether a newline ended it (not so for the last line of an input without one).
    pub terminated: bool,
    /// Selected (`:` in text) or context (`-`).
    pub selected: bool,
    /// Its matches are shown (coloured, listed by `--json`): a selected line, or with `-v`
    /// a context line.
    pub marked: bool,
    /// Its first match (`marked` lines), where the search already found it.
    pub first: Option<(usize, usize)>,
}

/// What searching one input found.
#[derive(Debug, Default, Clone, Copy)]
pub struct FileResult {
    /// Selected lines.
    pub selected: u64,
    /// Matches (JSON submatches and `-o` parts).
    pub matches: u64,
    /// A binary file had a selected line (not printed).
    pub binary_matched: bool,
    /// Bytes read.
    pub bytes: u64,
    /// A NUL was seen (the input is binary from there on).
    pub saw_nul: bool,
    /// With `-m NUM`, where the input stopped: the offset just after the NUMth selected line
    /// (GNU grep leaves a seekable standard input there, trailing context or not).
    pub resume_at: Option<u64>,
}

impl FileResult {
    /// Adds what a part of the same input found (`resume_at` is not summed: a split search
    /// has no `-m`).
    pub fn add(&mut self, part: &FileResult) {
        self.selected += part.selected;
        self.matches += part.matches;
        self.bytes += part.bytes;
        self.binary_matched |= part.binary_matched;
        self.saw_nul |= part.saw_nul;
    }
}

/// Where a sink writes for one input.
pub struct Dest<'a> {
    /// Standard output.
    pub out: &'a mut Output,
    /// Diagnostics: invalid sequences, binary files.
    pub diag: &'a Diag,
    /// The input's name: as printed in text, as diagnostics name it in JSON.
    pub name: &'a str,
}

/// The receiver of one input's search events, in input order.
pub trait Sink {
    /// A line to show; answers the number of matches it listed (JSON's submatches).
    ///
    /// # Errors
    ///
    /// Writing failed.
    fn line(&mut self, m: &Matcher, line: Line<'_>) -> Result<u64, ToolError>;

    /// One match of `-o`.
    ///
    /// # Errors
    ///
    /// Writing failed.
    fn only(&mut self, at: At, text: &[u8], selected: bool) -> Result<(), ToolError>;

    /// Lines were skipped between two groups of context (`--` in text).
    ///
    /// # Errors
    ///
    /// Writing failed.
    fn gap(&mut self) -> Result<(), ToolError>;

    /// An invalid sequence under `--invalid=report`.
    fn invalid(&mut self, report: &dyn Report);

    /// The input is searched through (not called when reading it failed).
    ///
    /// # Errors
    ///
    /// Writing failed.
    fn finish(&mut self, result: &FileResult) -> Result<(), ToolError>;
}

/// Writes an invalid-sequence report on stderr, as JSON or text (kind in color), after
/// what was written to standard output so far (a terminal shows the report beside the
/// line it concerns).
pub fn report_invalid(dest: &mut Dest<'_>, report: &dyn Report, json: bool, color: bool) {
    // A failed flush is met again, and reported, at the next write.
    let _ = dest.out.flush();
    if json {
        dest.diag.raw_line(&report.json());
    } else {
        dest.diag.raw_line(&report.text(dest.diag.program(), color));
    }
}

/// The matches of `m` in `line`, empty ones skipped, as `(start, end)` (only the first with
/// `-x`); `first`: the line's first match, when the caller found it already.
pub fn matches<'m, 'b>(
    m: &'m Matcher,
    line: &'b [u8],
    first: Option<(usize, usize)>,
) -> impl Iterator<Item = (usize, usize)> + use<'m, 'b> {
    let mut known = first;
    let mut from = Some(0);
    std::iter::from_fn(move || {
        loop {
            let (s, e) = match known.take() {
                Some(found) => found,
                None => m.find_in(line, from?)?,
            };
            from = if m.whole_line() {
                None
            } else if e > s {
                Some(e)
            } else {
                Some(s + 1)
            };
            if e > s {
                return Some((s, e));
            }
        }
    })
}
