//! How selected lines, context lines, matches, counts and names are written in text:
//! GNU grep's layout and colors. [`TextSink`] is the [`Sink`] of every mode but `--json`.
//! [`replay`] writes what a search captured on another thread.

use std::io::Write;

use utf8_codec::repair;

use super::matcher::Matcher;
use super::sink::{At, Dest, FileResult, Line, Sink, matches, report_invalid};
use crate::capture::Captured;
use crate::color::{GREP_FILE_NAME, GREP_MATCH, GREP_NUMBER, GREP_SEPARATOR, Paint};
use crate::diag::{Diag, ToolError};
use crate::output::Output;
use crate::report::Report;

/// The output options shared by every file.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Print file names (`-H`, several files, `-r`).
    pub with_filename: bool,
    /// `-n` (or `--column`).
    pub line_number: bool,
    /// `-b`.
    pub byte_offset: bool,
    /// `--null`.
    pub null: bool,
    /// Color as GNU grep's defaults.
    pub color: bool,
    /// `--repair-output`.
    pub repair: bool,
}

/// Writes GNU grep style output.
#[derive(Debug)]
pub struct Printer {
    /// The options.
    pub style: Style,
    /// Whether anything was printed (for `--` between context groups).
    pub printed_any: bool,

    buf: Vec<u8>,
    pens: Pens,
}

/// Which colour a piece of output takes.
#[derive(Debug, Clone, Copy)]
enum Piece {
    Match,
    FileName,
    Number,
    Separator,
}

/// The colour module's sequences for each [`Piece`], rendered once: the module formats
/// them at each call, which doubled the cost of printing in colour.
#[derive(Debug)]
struct Pens([(String, &'static str); 4]);

impl Pens {
    fn new() -> Pens {
        let pen = |p: Paint| (p.on().to_string(), p.off());
        Pens([
            pen(GREP_MATCH),
            pen(GREP_FILE_NAME),
            pen(GREP_NUMBER),
            pen(GREP_SEPARATOR),
        ])
    }
}

impl Printer {
    /// A printer with these options.
    pub fn new(style: Style) -> Printer {
        Printer {
            style,
            printed_any: false,
            buf: Vec::with_capacity(4096),
            pens: Pens::new(),
        }
    }

    #[inline]
    fn colored(&mut self, piece: Piece, text: &[u8]) {
        if self.style.color {
            let (on, off) = &self.pens.0[piece as usize];
            self.buf.extend_from_slice(on.as_bytes());
            self.buf.extend_from_slice(text);
            self.buf.extend_from_slice(off.as_bytes());
        } else {
            self.buf.extend_from_slice(text);
        }
    }

    fn sep(&mut self, sep: u8) {
        self.colored(Piece::Separator, &[sep]);
    }

    fn prefix(&mut self, name: &[u8], at: At, sep: u8) {
        let s = self.style;
        if s.with_filename {
            self.colored(Piece::FileName, name);
            if s.null {
                self.buf.push(0);
            } else {
                self.sep(sep);
            }
        }
        if s.line_number {
            self.colored(Piece::Number, decimal(at.line, &mut [0; 20]));
            self.sep(sep);
        }
        if let Some(c) = at.column {
            self.colored(Piece::Number, decimal(c, &mut [0; 20]));
            self.sep(sep);
        }
        if s.byte_offset {
            self.colored(Piece::Number, decimal(at.offset, &mut [0; 20]));
            self.sep(sep);
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

    /// `--` between context groups.
    pub fn group_separator(&mut self, out: &mut Output) -> Result<(), ToolError> {
        self.colored(Piece::Separator, b"--");
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
        self.prefix(name, at, sep);
        let highlight = self.style.color && marked;
        if highlight {
            let repaired;
            // Repair moves the offsets of the match found in the line.
            let (text, first): (&[u8], _) = if self.style.repair {
                repaired = repair(line).into_owned();
                (repaired.as_bytes(), None)
            } else {
                (line, first)
            };
            let mut last = 0;
            for (s, e) in matches(m, text, first) {
                self.buf.extend_from_slice(&text[last..s]);
                self.colored(Piece::Match, &text[s..e]);
                last = e;
            }
            self.buf.extend_from_slice(&text[last..]);
        } else {
            self.text(line);
        }
        self.buf.push(b'\n');
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
        self.prefix(name, at, if selected { b':' } else { b'-' });
        if self.style.repair {
            let repaired = repair(text);
            self.colored(Piece::Match, repaired.as_bytes());
        } else {
            self.colored(Piece::Match, text);
        }
        self.buf.push(b'\n');
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
