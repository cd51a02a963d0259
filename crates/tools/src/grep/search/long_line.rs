//! A line too long to hold, streamed when its text is not printed (`-c`, `-l`, `-L`, `-q`,
//! `-o`): the window keeps only the bytes a match could still start in; where a match has
//! no bound on its length, a regular expression's automaton decides the line a piece at a
//! time and keeps nothing (`-c`, `-l`, `-L`, `-q`). The matches `-o` prints are held until
//! the line ends (up to [`HOLD`] bytes of them): a NUL later in the line makes all of it
//! binary, as in GNU grep, which holds the whole line.

use utf8_codec::floor_boundary;

use super::FileSearch;
use super::units;
use crate::diag::ToolError;
use crate::grep::buffer::Feed;
use crate::grep::longest::LineScan;
use crate::grep::sink::{At, Sink};

/// Bytes of `-o` matches a streamed line holds until it ends (or a NUL makes it binary);
/// past them, they are printed as they are found.
const HOLD: usize = 8 << 20;

impl FileSearch<'_> {
    /// Streams a line that does not fit: `buf[..len]` is its start and holds no terminator.
    pub(super) fn long_line(&mut self, feed: &mut Feed<'_>) -> Result<(), ToolError> {
        let keep = self.m.max_match_len() + 8;
        let mut matched = false;
        let mut scan = 0;
        let mut term_from = self.data.len;
        // Units of the line before `buf[upos]`.
        let mut units_before = 0u64;
        let mut upos = 0;
        // The matches found and not printed yet, and their bytes.
        let hold = self.s.only && !self.s.text;
        let mut held = Held::default();
        loop {
            if hold && matched && self.binary {
                // A NUL in the line (or in the block where it ends): binary from its start.
                self.binary_line_matched();
                return Ok(());
            }
            let term = self
                .find_term(&self.data.bytes()[term_from..self.data.len])
                .map(|i| term_from + i);
            let complete = term.is_some() || self.eof;
            let limit = term.unwrap_or(self.data.len);
            if (!matched || self.s.only) && !self.m.whole_line() {
                let safe = if complete {
                    limit
                } else {
                    limit.saturating_sub(keep)
                };
                while let Some((s, e)) = self.m.find_in(&self.data.bytes()[..limit], scan) {
                    if !complete && s >= safe {
                        break;
                    }
                    matched = true;
                    scan = if e > s { e } else { s + 1 };
                    if !self.s.only {
                        break;
                    }
                    if !self.s.invert && e > s {
                        if hold && self.binary {
                            // Binary already (a NUL before): the match is not shown.
                            self.binary_line_matched();
                            return Ok(());
                        }
                        if self.s.column {
                            units_before += units(&self.data.bytes()[upos..s]);
                            upos = s;
                        }
                        let at = At {
                            line: self.line_no,
                            offset: self.file_offset(self.base + s as u64),
                            column: self.s.column.then_some(units_before + 1),
                        };
                        self.res.matches += 1;
                        let text = &self.data.bytes()[s..e];
                        if hold && held.bytes() < HOLD {
                            held.push(at, text);
                        } else {
                            held.print(self.sink)?;
                            self.sink.only(at, text, true)?;
                        }
                    }
                }
                if !complete {
                    scan = scan.max(safe);
                }
            } else if self.m.whole_line() {
                // Longer than any match: not one with `-x`, so nothing needs keeping.
                scan = limit;
            }
            if complete {
                held.print(self.sink)?;
                self.end_long_line(matched, limit);
                return Ok(());
            }
            if matched && !self.s.invert && (self.s.quiet || self.s.list) {
                self.res.selected += 1;
                self.stop = true;
                return Ok(());
            }
            let want = if matched && !self.s.only {
                self.data.len
            } else {
                scan.min(self.data.len).saturating_sub(keep)
            };
            let d = floor_boundary(self.data.bytes(), want);
            if d > 0 {
                if self.s.column {
                    units_before += units(&self.data.bytes()[upos.min(d)..d]);
                    upos = upos.saturating_sub(d);
                }
                self.feed(d);
                self.discard(d);
                scan -= d.min(scan);
            }
            term_from = self.data.len;
            self.read_more(feed)?;
        }
    }

    /// Decides a line that does not fit with `scan`, a piece at a time, holding none of it:
    /// `buf[..len]` is its start and holds no terminator.
    pub(super) fn scan_long_line(
        &mut self,
        feed: &mut Feed<'_>,
        mut scan: LineScan<'_>,
    ) -> Result<(), ToolError> {
        let mut from = 0;
        loop {
            let term = self
                .find_term(&self.data.bytes()[from..self.data.len])
                .map(|i| from + i);
            let limit = term.unwrap_or(self.data.len);
            let early = scan.feed(&self.data.bytes()[from..limit]);
            if term.is_some() || self.eof {
                self.end_long_line(scan.finish(), limit);
                return Ok(());
            }
            if early == Some(true) && !self.s.invert && (self.s.quiet || self.s.list) {
                self.res.selected += 1;
                self.stop = true;
                return Ok(());
            }
            let d = self.data.len;
            self.feed(d);
            self.discard(d);
            from = 0;
            self.read_more(feed)?;
        }
    }

    /// A streamed line of an input that is binary holds a match: it is selected, not shown,
    /// the input "matches" and the search ends (as `on_line` does for a held line).
    fn binary_line_matched(&mut self) {
        self.res.selected += 1;
        self.res.binary_matched = true;
        self.stop = true;
    }

    /// Ends a streamed line whose terminator (or the end of input) is at `buf[limit]`: counts
    /// it as selected when `matched` differs from `-v`, stops where `-q`, `-l`, `-L` or `-m`
    /// say so, and lets go of it and its terminator.
    fn end_long_line(&mut self, matched: bool, limit: usize) {
        if matched != self.s.invert {
            self.res.selected += 1;
            if self.s.quiet || self.s.list || self.max_reached() {
                self.stop = true;
            }
        }
        self.line_no += 1;
        let d = (limit + 1).min(self.data.len);
        self.feed(d);
        self.discard(d);
    }
}

/// The `-o` matches of a streamed line not printed yet: their texts one after another, and
/// where each is and ends.
#[derive(Default)]
struct Held {
    text: Vec<u8>,
    ends: Vec<(At, usize)>,
}

impl Held {
    /// Bytes held, counting each match's place.
    fn bytes(&self) -> usize {
        self.text.len() + self.ends.len() * size_of::<(At, usize)>()
    }

    fn push(&mut self, at: At, text: &[u8]) {
        self.text.extend_from_slice(text);
        self.ends.push((at, self.text.len()));
    }

    /// Prints the matches held, in order, and holds none.
    fn print(&mut self, sink: &mut dyn Sink) -> Result<(), ToolError> {
        let mut from = 0;
        for &(at, end) in &self.ends {
            sink.only(at, &self.text[from..end], true)?;
            from = end;
        }
        self.text.clear();
        self.ends.clear();
        Ok(())
    }
}
