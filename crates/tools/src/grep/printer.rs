//! How selected lines, context lines, matches, counts and names are written in text:
//! GNU grep's layout and colors. [`TextSink`] is the [`Sink`] of every mode but `--json`.
//! [`replay`] writes what a search captured on another thread.

use std::io::Write;
use std::sync::Arc;

use utf8_codec::repair;

use super::matcher::Matcher;
use super::sink::{At, Dest, FileResult, Line, Sink, matches, report_invalid};
use crate::capture::Captured;
use crate::diag::{Diag, ToolError};
use crate::output::Output;
use crate::report::Report;

/// The output options shared by every file.
#[derive(Debug, Clone)]
pub struct Style {
    /// Print file names (`-H`, several files, `-r`).
    pub with_filename: bool,
    /// `-n` (or `--column`).
    pub line_number: bool,
    /// `-b`.
    pub byte_offset: bool,
    /// `--null`.
    pub null: bool,
    /// Color, in the palette's colors.
    pub color: bool,
    /// `--repair-output`.
    pub repair: bool,
    /// `-T`: a tab between a prefix and a line that is not empty.
    pub initial_tab: bool,
    /// `-T`: the width line numbers and byte offsets are padded to, with spaces (0: none).
    pub offset_width: usize,
    /// The byte that ends an output line: a newline, or NUL under `-z`.
    pub eol: u8,
    /// What is printed between context groups (`--`; none with `--no-group-separator`).
    pub group_separator: Option<Arc<[u8]>>,
    /// The colors of each piece.
    pub palette: Arc<Palette>,
    /// `-v` (the palette's `rv` swaps the line colors then).
    pub invert: bool,
}

/// The SGR parameters of each piece of colored output, as GNU grep's `GREP_COLORS` names
/// them (`ms=01;31:mc=01;31:sl=:cx=:fn=35:ln=32:bn=32:se=36` by default), each rendered
/// once into the sequences that start and end it (an empty one prints none).
#[derive(Debug, Clone)]
pub struct Palette {
    pens: [(String, String); 8],
    /// `rv`: under `-v`, `sl` and `cx` swap.
    rv: bool,
}

/// The pieces of colored output, in the order of [`Palette`]'s pens.
#[derive(Debug, Clone, Copy)]
enum Piece {
    /// `ms`: a match in a selected line.
    Match,
    /// `mc`: a match in a context line.
    ContextMatch,
    /// `sl`: the rest of a selected line.
    SelectedLine,
    /// `cx`: the rest of a context line.
    ContextLine,
    /// `fn`.
    FileName,
    /// `ln`.
    LineNumber,
    /// `bn`.
    ByteOffset,
    /// `se`: `:`, `-` and the group separator.
    Separator,
}

impl Palette {
    /// GNU grep 3.8's colors: its defaults, then `GREP_COLOR` (deprecated, for `mt`), then
    /// `GREP_COLORS` (given as the values of those variables); and the deprecation warning
    /// when `GREP_COLOR` decided a color, worded as GNU grep's.
    ///
    /// ```
    /// use utf8_tools::grep::Palette;
    /// let (p, warning) = Palette::from_env(Some("36"), Some("ln=35:ne"));
    /// assert_eq!(
    ///     warning.as_deref(),
    ///     Some("warning: GREP_COLOR='36' is deprecated; use GREP_COLORS='mt=36'")
    /// );
    /// assert_eq!(p.sequences("ms"), Some(("\x1b[36m", "\x1b[m")));
    /// assert_eq!(p.sequences("sl"), Some(("", "")));
    /// ```
    pub fn from_env(
        grep_color: Option<&str>,
        grep_colors: Option<&str>,
    ) -> (Palette, Option<String>) {
        let mut v: [String; 8] =
            ["01;31", "01;31", "", "", "35", "32", "32", "36"].map(String::from);
        let mut from_legacy = [false; 2];
        if let Some(c) = grep_color
            .filter(|c| !c.is_empty() && c.bytes().all(|b| b == b';' || b.is_ascii_digit()))
        {
            v[0] = c.to_string();
            v[1] = c.to_string();
            from_legacy = [true; 2];
        }
        let (mut rv, mut ne) = (false, false);
        if let Some(spec) = grep_colors.filter(|s| !s.is_empty()) {
            // GNU's parse_grep_colors: NAME=VAL or NAME (a boolean) separated by ':'; VAL
            // of digits and ';' only; anything malformed ends the parse there, what came
            // before applied.
            for cap in spec.split(':') {
                let (name, val) = match cap.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (cap, None),
                };
                if name.is_empty() && val.is_some() {
                    break;
                }
                if let Some(val) = val
                    && !val.bytes().all(|b| b == b';' || b.is_ascii_digit())
                {
                    break;
                }
                let slot = ["ms", "mc", "sl", "cx", "fn", "ln", "bn", "se"]
                    .iter()
                    .position(|&n| n == name);
                match (name, val) {
                    ("mt", Some(val)) => {
                        v[0] = val.to_string();
                        v[1] = val.to_string();
                        from_legacy = [false; 2];
                    }
                    ("rv", _) => rv = true,
                    ("ne", _) => ne = true,
                    (_, Some(val)) => {
                        if let Some(i) = slot {
                            v[i] = val.to_string();
                            if i < 2 {
                                from_legacy[i] = false;
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        let el = if ne { "" } else { "\x1b[K" };
        let pens = v.map(|val| {
            if val.is_empty() {
                (String::new(), String::new())
            } else {
                (format!("\x1b[{val}m{el}"), format!("\x1b[m{el}"))
            }
        });
        let warning = (from_legacy[0] || from_legacy[1]).then(|| {
            let c = grep_color.unwrap_or_default();
            format!("warning: GREP_COLOR='{c}' is deprecated; use GREP_COLORS='mt={c}'")
        });
        (Palette { pens, rv }, warning)
    }

    /// The sequences that start and end the piece GNU grep names `name` (`ms`, `mc`, `sl`,
    /// `cx`, `fn`, `ln`, `bn`, `se`).
    pub fn sequences(&self, name: &str) -> Option<(&str, &str)> {
        let i = ["ms", "mc", "sl", "cx", "fn", "ln", "bn", "se"]
            .iter()
            .position(|&n| n == name)?;
        Some((&self.pens[i].0, &self.pens[i].1))
    }
}

impl Default for Palette {
    fn default() -> Palette {
        Palette::from_env(None, None).0
    }
}

/// Writes GNU grep style output.
#[derive(Debug)]
pub struct Printer {
    /// The options.
    pub style: Style,
    /// Whether anything was printed (for `--` between context groups).
    pub printed_any: bool,

    buf: Vec<u8>,
}

impl Printer {
    /// A printer with these options.
    pub fn new(style: Style) -> Printer {
        Printer {
            style,
            printed_any: false,
            buf: Vec::with_capacity(4096),
        }
    }

    /// Starts `piece`'s color (nothing without color or for an empty one).
    #[inline]
    fn start(&mut self, piece: Piece) {
        if self.style.color {
            let on = &self.style.palette.pens[piece as usize].0;
            self.buf.extend_from_slice(on.as_bytes());
        }
    }

    /// Ends `piece`'s color.
    #[inline]
    fn end(&mut self, piece: Piece) {
        if self.style.color {
            let off = &self.style.palette.pens[piece as usize].1;
            self.buf.extend_from_slice(off.as_bytes());
        }
    }

    #[inline]
    fn colored(&mut self, piece: Piece, text: &[u8]) {
        self.start(piece);
        self.buf.extend_from_slice(text);
        self.end(piece);
    }

    fn sep(&mut self, sep: u8) {
        self.colored(Piece::Separator, &[sep]);
    }

    /// A line number or byte offset, padded to `-T`'s width (inside its color, as GNU
    /// grep's `%*d`).
    fn number(&mut self, piece: Piece, n: u64) {
        let mut buf = [0; 20];
        let digits = decimal(n, &mut buf);
        self.start(piece);
        let pad = self.style.offset_width.saturating_sub(digits.len());
        self.buf.extend(std::iter::repeat_n(b' ', pad));
        self.buf.extend_from_slice(digits);
        self.end(piece);
    }

    /// The prefix of a line (`-H`, `-n`, `--column`, `-b`) and `-T`'s tab before a line of
    /// `len` bytes.
    fn prefix(&mut self, name: &[u8], at: At, sep: u8, len: usize) {
        let (with_filename, null, line_number, byte_offset) = (
            self.style.with_filename,
            self.style.null,
            self.style.line_number,
            self.style.byte_offset,
        );
        if with_filename {
            self.colored(Piece::FileName, name);
            if null {
                self.buf.push(0);
            } else {
                self.sep(sep);
            }
        }
        if line_number {
            self.number(Piece::LineNumber, at.line);
            self.sep(sep);
        }
        if let Some(c) = at.column {
            self.colored(Piece::LineNumber, decimal(c, &mut [0; 20]));
            self.sep(sep);
        }
        if byte_offset {
            self.number(Piece::ByteOffset, at.offset);
            self.sep(sep);
        }
        // GNU grep 3.8 (grep.c, print_line_head): a tab after a prefix, before a line
        // that is not empty.
        if self.style.initial_tab && (with_filename || line_number || byte_offset) && len > 0 {
            self.buf.push(b'\t');
        }
    }

    fn text(&mut self, bytes: &[u8]) {
        if self.style.repair {
            self.buf.extend_from_slice(repair(bytes).as_bytes());
        } else {
            self.buf.extend_from_slice(bytes);
        }
    }

    fn flush_to(&mut self, out: &mut Output) -> Result<(), ToolError> {
        out.write_all(&self.buf)?;
        self.buf.clear();
        self.printed_any = true;
        Ok(())
    }

    /// `--` (or `--group-separator`'s) between context groups, and a newline (always one,
    /// under `-z` too, as GNU grep); nothing with `--no-group-separator`.
    pub fn group_separator(&mut self, out: &mut Output) -> Result<(), ToolError> {
        let Some(sep) = self.style.group_separator.clone() else {
            return Ok(());
        };
        self.colored(Piece::Separator, &sep);
        self.buf.push(b'\n');
        self.flush_to(out)
    }

    /// A whole line (without its terminator): selected (`:`) or context (`-`).
    pub fn line(
        &mut self,
        out: &mut Output,
        m: &Matcher,
        name: &[u8],
        line: Line<'_>,
    ) -> Result<(), ToolError> {
        let Line {
            at,
            bytes: line,
            selected,
            marked,
            first,
            ..
        } = line;
        let sep = if selected { b':' } else { b'-' };
        let at = if selected {
            at
        } else {
            At { column: None, ..at }
        };
        self.prefix(name, at, sep, line.len());
        // GNU grep 3.8's prline: the line's color (sl, cx; swapped under -v by rv) around
        // the text between matches and after the last, the match color around each match.
        let palette = self.style.palette.clone();
        let line_piece = if selected ^ (self.style.invert && palette.rv) {
            Piece::SelectedLine
        } else {
            Piece::ContextLine
        };
        let match_piece = if selected {
            Piece::Match
        } else {
            Piece::ContextMatch
        };
        let has = |p: Piece| !palette.pens[p as usize].0.is_empty();
        if self.style.color && (has(line_piece) || (marked && has(match_piece))) {
            let repaired;
            // Repair moves the offsets of the match found in the line.
            let (text, first): (&[u8], _) = if self.style.repair {
                repaired = repair(line).into_owned();
                (repaired.as_bytes(), None)
            } else {
                (line, first)
            };
            let mut last = 0;
            if marked && has(match_piece) {
                for (s, e) in matches(m, text, first) {
                    self.start(line_piece);
                    self.buf.extend_from_slice(&text[last..s]);
                    self.colored(match_piece, &text[s..e]);
                    last = e;
                }
            }
            if has(line_piece) {
                let tail = text[last..].strip_suffix(b"\r").unwrap_or(&text[last..]);
                if !tail.is_empty() {
                    let n = tail.len();
                    self.colored(line_piece, &text[last..last + n]);
                    last += n;
                }
            }
            self.buf.extend_from_slice(&text[last..]);
        } else {
            self.text(line);
        }
        self.buf.push(self.style.eol);
        self.flush_to(out)
    }

    /// One match of `-o`, in a selected line (`:` after the prefix) or a context line (`-`).
    pub fn only(
        &mut self,
        out: &mut Output,
        name: &[u8],
        at: At,
        text: &[u8],
        selected: bool,
    ) -> Result<(), ToolError> {
        self.prefix(name, at, if selected { b':' } else { b'-' }, text.len());
        let piece = if selected {
            Piece::Match
        } else {
            Piece::ContextMatch
        };
        if self.style.repair {
            let repaired = repair(text);
            self.colored(piece, repaired.as_bytes());
        } else {
            self.colored(piece, text);
        }
        self.buf.push(self.style.eol);
        self.flush_to(out)
    }

    /// `-c`: `[NAME:]COUNT`.
    pub fn count(&mut self, out: &mut Output, name: &[u8], n: u64) -> Result<(), ToolError> {
        if self.style.with_filename {
            self.colored(Piece::FileName, name);
            if self.style.null {
                self.buf.push(0);
            } else {
                self.sep(b':');
            }
        }
        self.buf.extend_from_slice(decimal(n, &mut [0; 20]));
        self.buf.push(b'\n');
        self.flush_to(out)
    }

    /// `-l`/`-L`: the name, then a newline (a NUL with `--null`).
    pub fn name(&mut self, out: &mut Output, name: &[u8]) -> Result<(), ToolError> {
        self.colored(Piece::FileName, name);
        self.buf.push(if self.style.null { 0 } else { b'\n' });
        self.flush_to(out)
    }
}

/// The decimal digits of `n`, written at the end of `buf` (line numbers, offsets and counts
/// are printed for every line or input: no allocation for each).
fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

/// What the text sink writes for an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Lines (or `-o` matches) as they are found.
    Lines,
    /// `-c`: the count of selected lines.
    Count,
    /// `-l`: the name, if a line is selected.
    Matching,
    /// `-L`: the name, if no line is selected.
    NonMatching,
    /// `-q`: nothing.
    Quiet,
}

/// The text [`Sink`] of one input, writing through the run's [`Printer`].
pub struct TextSink<'a> {
    /// The printer (its state spans inputs).
    pub printer: &'a mut Printer,
    /// Where to write.
    pub dest: Dest<'a>,
    /// The name as printed: a file name's own bytes, as GNU grep and ripgrep write it
    /// (`dest.name`, lossy, is for diagnostics).
    pub raw_name: &'a [u8],
    /// What is written.
    pub mode: Mode,
    /// Color the kind of invalid-sequence reports.
    pub report_color: bool,
}

impl Sink for TextSink<'_> {
    fn line(&mut self, m: &Matcher, line: Line<'_>) -> Result<u64, ToolError> {
        self.printer.line(self.dest.out, m, self.raw_name, line)?;
        Ok(0)
    }

    fn only(&mut self, at: At, text: &[u8], selected: bool) -> Result<(), ToolError> {
        self.printer
            .only(self.dest.out, self.raw_name, at, text, selected)
    }

    fn gap(&mut self) -> Result<(), ToolError> {
        if self.printer.printed_any {
            self.printer.group_separator(self.dest.out)?;
        } else {
            // Another printer may have printed something: say where the `--` would go.
            self.dest.out.leading_gap();
        }
        Ok(())
    }

    fn invalid(&mut self, report: &dyn Report) {
        report_invalid(&mut self.dest, report, false, self.report_color);
    }

    fn finish(&mut self, r: &FileResult) -> Result<(), ToolError> {
        match self.mode {
            Mode::Count => self
                .printer
                .count(self.dest.out, self.raw_name, r.selected)?,
            Mode::Matching if r.selected > 0 => self.printer.name(self.dest.out, self.raw_name)?,
            Mode::NonMatching if r.selected == 0 => {
                self.printer.name(self.dest.out, self.raw_name)?
            }
            _ => {}
        }
        if r.binary_matched {
            self.dest.out.flush()?;
            self.dest
                .diag
                .line(format_args!("{}: binary file matches", self.dest.name));
        }
        Ok(())
    }
}

/// Writes what an input wrote: standard output and its diagnostics, interleaved as they
/// were written (standard output is flushed before each diagnostic, as it was then), and
/// the `--` before its first group when something was printed before.
pub(super) fn replay(
    c: Captured,
    printer: &mut Printer,
    out: &mut Output,
    diag: &Diag,
) -> Result<(), ToolError> {
    if c.leading_gap && printer.printed_any {
        printer.group_separator(out)?;
    }
    printer.printed_any |= !c.out.is_empty();
    let mut from = 0;
    for (at, line) in &c.err {
        out.write_all(&c.out[from..*at])?;
        out.flush()?;
        diag.raw_line(line);
        from = *at;
    }
    out.write_all(&c.out[from..])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The digits are those `to_string` writes, at every length.
    #[test]
    fn decimal_writes_what_to_string_writes() {
        let mut n = 1u64;
        for k in 0..20 {
            for m in [n - 1, n, n + 7, n.saturating_mul(9).saturating_add(8)] {
                assert_eq!(
                    super::decimal(m, &mut [0; 20]),
                    m.to_string().as_bytes(),
                    "{k}"
                );
            }
            n = n.saturating_mul(10);
        }
        assert_eq!(
            super::decimal(u64::MAX, &mut [0; 20]),
            b"18446744073709551615"
        );
    }
}
