//! Searching one input line by line over chunked reads, in bounded memory.
//!
//! The buffer holds whole lines; matches are searched across the whole buffer at once and
//! only then mapped to their lines, so rare needles run at memchr speed. A line longer than
//! [`LONG_LINE`] is streamed when no whole line has to be printed (`-c`, `-l`, `-L`, `-q`,
//! `-o`): the window keeps only the bytes a match could still start in.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;

use super::buffer::{Buffer, Feed};
use super::config::Settings;
use super::matcher::Matcher;
use super::sink::{At, FileResult, Line, Sink, matches};
use crate::diag::ToolError;
use crate::engine::Scanner;
use crate::labels::Charset;
use crate::position::LineTracker;
use crate::transcode::{Bad, OffsetMap};

mod invalid;
mod long_line;
mod reading;

/// Bytes read (or revealed from a mapped window) at a time: GNU grep's 96 KiB reads. A NUL
/// makes the input binary from the first line that was not complete before the block that
/// holds it, as in GNU grep (exactly so while lines are shorter than about 4 KiB, which
/// keeps GNU grep's reads at 96 KiB).
pub const CHUNK: usize = 96 * 1024;
/// A line longer than this is streamed when its text is not printed.
pub const LONG_LINE: usize = 4 << 20;

/// The number of units (scalar values and maximal subparts) in `bytes`, which ends at a
/// unit boundary: `--column` counts them.
pub fn units(bytes: &[u8]) -> u64 {
    let c = utf8_codec::count(bytes);
    c.chars + c.errors
}

/// Whether a line too long to hold is streamed: its text is not printed (`-o` prints
/// matches only), and a match is much shorter than [`LONG_LINE`].
fn streamable(s: &Settings, m: &Matcher) -> bool {
    let locate = !s.printing() || (s.only && !s.json && !s.context && !s.invert);
    locate && m.max_match_len() * 2 + 64 < LONG_LINE
}

/// `--invalid=report`: where the input's lines and columns are, and what finds its
/// errors (the UTF-8 decoder; the transcoder's list for decoded text).
struct Report<'a> {
    scanner: Scanner,
    tracker: LineTracker,
    /// The data is reported up to here.
    fed: usize,
    /// Where the search started (past a byte order mark): the decoder counts from there.
    origin: u64,
    /// Decoded text: the transcoder's list of malformed sequences, and the encoding.
    malformed: Option<(&'a RefCell<VecDeque<Bad>>, Charset)>,
}

/// The context lines' state of a search.
#[derive(Default)]
struct Context {
    /// Lines of `-A`'s context still to show.
    after_left: usize,
    /// The number of the last line shown (a `--` goes before a line that does not follow it).
    last_printed: Option<u64>,
    /// `-B`'s lines (number, offset, bytes), the oldest first.
    before: VecDeque<(u64, u64, Vec<u8>)>,
    /// `-m` was reached: only its trailing context is left to show.
    draining: bool,
}

/// The search of one input, reporting to a [`Sink`].
pub struct FileSearch<'a> {
    s: &'a Settings,
    m: &'a Matcher,
    sink: &'a mut dyn Sink,
    /// The input's name in diagnostics.
    diag_name: &'a str,
    /// The bytes read and not yet searched past.
    data: Buffer,
    /// The input offset of `data`'s first byte.
    base: u64,
    /// The input is read to its end.
    eof: bool,
    /// A NUL was seen: the input is binary from the block that held it.
    binary: bool,
    /// Where in `data` the search for a line end goes on.
    unscanned: usize,
    /// The number of the next line.
    line_no: u64,
    /// What was found so far.
    res: FileResult,
    /// The state of `-A`, `-B` and `-m`'s trailing context.
    ctx: Context,
    /// The search is over (a file's answer known, `-m` reached, or cancelled).
    stop: bool,
    report: Option<Report<'a>>,
    /// Streaming a long line (its bytes are checked for NUL as they come).
    in_long_line: bool,
    /// Set by another thread searching another part of the same file: stop here.
    cancel: Option<&'a AtomicBool>,
    /// The data holds bytes read already, not searched yet: the first pass reads nothing.
    primed: bool,
    /// The input is text decoded from another encoding: where its offsets are in the file.
    map: Option<&'a RefCell<OffsetMap>>,
}

impl<'a> FileSearch<'a> {
    /// A search of the input named `diag_name` (in read errors), reporting to `sink`.
    pub fn new(
        s: &'a Settings,
        m: &'a Matcher,
        sink: &'a mut dyn Sink,
        diag_name: &'a str,
    ) -> FileSearch<'a> {
        FileSearch {
            s,
            m,
            sink,
            diag_name,
            data: Buffer::default(),
            base: 0,
            eof: false,
            binary: false,
            unscanned: 0,
            line_no: 1,
            res: FileResult::default(),
            ctx: Context::default(),
            stop: false,
            report: s.report.map(|engine| Report {
                scanner: Scanner::new(engine),
                tracker: LineTracker::new(),
                fed: 0,
                origin: 0,
                malformed: None,
            }),
            in_long_line: false,
            cancel: None,
            primed: false,
            map: None,
        }
    }

    /// Searches from offset `start` of the input on (the bytes before it were read: a
    /// byte order mark), offsets counted from the input's start.
    pub fn starting_at(mut self, start: u64) -> FileSearch<'a> {
        self.base = start;
        if let Some(r) = &mut self.report {
            r.origin = start;
        }
        self
    }

    /// The input is text decoded from `encoding` ([`crate::transcode::Transcoder`]): `map`
    /// gives offsets in the file (when they are shown), `malformed` lists the malformed
    /// sequences as they are decoded (for `--invalid=report`).
    pub fn decoded(
        mut self,
        encoding: Charset,
        map: Option<&'a RefCell<OffsetMap>>,
        malformed: &'a RefCell<VecDeque<Bad>>,
    ) -> FileSearch<'a> {
        self.map = map;
        if let Some(r) = &mut self.report {
            r.malformed = Some((malformed, encoding));
        }
        self
    }

    /// The offset in the file of offset `at` of the text searched.
    fn file_offset(&self, at: u64) -> u64 {
        self.map.map_or(at, |m| m.borrow_mut().file(at))
    }

    /// Searches an input that is binary from its start (a NUL came before it).
    pub fn binary(mut self) -> FileSearch<'a> {
        self.binary = true;
        self
    }

    /// Searches only `start..end` of a mapped file (`start` at the start of a line), and
    /// stops early once `cancel` is set: one part of a file split across threads.
    pub fn part(mut self, start: u64, end: u64, cancel: &'a AtomicBool) -> FileSearch<'a> {
        self.base = start;
        self.data.limit = end;
        self.cancel = Some(cancel);
        self
    }

    fn find_term(&self, hay: &[u8]) -> Option<usize> {
        if self.binary {
            memchr::memchr2(b'\n', 0, hay)
        } else {
            memchr::memchr(self.s.eol, hay)
        }
    }

    fn rfind_term(&self, hay: &[u8]) -> Option<usize> {
        if self.binary {
            memchr::memrchr2(b'\n', 0, hay)
        } else {
            memchr::memrchr(self.s.eol, hay)
        }
    }

    fn count_terms(&self, hay: &[u8]) -> u64 {
        if self.binary {
            memchr::memchr2_iter(b'\n', 0, hay).count() as u64
        } else {
            memchr::memchr_iter(self.s.eol, hay).count() as u64
        }
    }

    /// Searches the whole input.
    ///
    /// # Errors
    ///
    /// Reading (an input error) or writing (an output error) failed.
    pub fn run(mut self, mut feed: Feed<'_>) -> Result<FileResult, ToolError> {
        let _ = self.m.take_trouble();
        if self.s.max_count == Some(0) {
            self.sink.finish(&self.res)?;
            return Ok(self.res);
        }
        while !self.stop {
            if !self.eof && !std::mem::take(&mut self.primed) {
                self.read_more(&mut feed)?;
            }
            if self.binary && self.s.without_match {
                // GNU grep 3.8 (grep.c, grep): a binary file under -I has no match, from
                // the block that shows it binary on; what was printed before stays.
                self.res.selected = 0;
                self.res.binary_matched = false;
                self.stop = true;
                break;
            }
            let cut = if self.eof {
                self.data.len
            } else {
                match self.rfind_term(&self.data.bytes()[self.unscanned..self.data.len]) {
                    Some(i) => self.unscanned + i + 1,
                    None => {
                        let long = self.data.len >= LONG_LINE;
                        // Built only when the line is not streamed otherwise.
                        let scan = || (!self.s.printing()).then(|| self.m.line_scan()).flatten();
                        if long && streamable(self.s, self.m) {
                            self.in_long_line = true;
                            let r = self.long_line(&mut feed);
                            self.in_long_line = false;
                            r?;
                            self.unscanned = 0;
                        } else if let Some(scan) = long.then(scan).flatten() {
                            self.in_long_line = true;
                            let r = self.scan_long_line(&mut feed, scan);
                            self.in_long_line = false;
                            r?;
                            self.unscanned = 0;
                        } else {
                            self.unscanned = self.data.len;
                        }
                        continue;
                    }
                }
            };
            self.feed(cut);
            self.process(cut)?;
            self.discard(cut);
            self.unscanned = self.data.len;
            if self.eof && self.data.len == 0 {
                break;
            }
        }
        if !self.stop {
            self.finish_report();
        }
        // A backtracking engine's limits: GNU grep's `grep: FILE: exceeded PCRE's
        // backtracking limit` (exit status 2).
        if let Some(what) = self.m.take_trouble() {
            return Err(ToolError::Input {
                path: self.diag_name.to_string(),
                message: what.to_string(),
            });
        }
        self.res.saw_nul = self.binary;
        self.sink.finish(&self.res)?;
        Ok(self.res)
    }

    fn process(&mut self, cut: usize) -> Result<(), ToolError> {
        let mut pos = 0;
        while pos < cut && !self.stop {
            let next = self.next_match_line(pos, cut);
            let upto = next.map_or(cut, |n| n.0);
            self.pass(pos, upto)?;
            if self.stop {
                break;
            }
            match next {
                Some((ls, le, m)) => {
                    self.on_line(ls, le, le < cut, Some(m))?;
                    pos = if le < cut { le + 1 } else { cut };
                }
                None => pos = cut,
            }
        }
        Ok(())
    }

    /// The first line at or after `pos` with a match: (start, end without terminator, match).
    fn next_match_line(
        &mut self,
        pos: usize,
        cut: usize,
    ) -> Option<(usize, usize, (usize, usize))> {
        let mut from = pos;
        // `from == cut` is past the last terminator: no line starts there (an empty
        // pattern would match the empty "line" after the final newline).
        while from < cut {
            let (s, e) = if self.binary && self.m.line_anchors() {
                self.find_by_line(from, cut)?
            } else {
                self.m
                    .find_raw(&self.data.bytes()[from..cut])
                    .map(|(s, e)| (s + from, e + from))?
            };
            // An empty match after the last terminator (`^$`) is on no line.
            if s == cut && self.find_term(&self.data.bytes()[cut - 1..cut]).is_some() {
                return None;
            }
            let ls = self
                .rfind_term(&self.data.bytes()[pos..s])
                .map_or(pos, |i| pos + i + 1);
            let le = self
                .find_term(&self.data.bytes()[e..cut])
                .map_or(cut, |i| e + i);
            let line = &self.data.bytes()[ls..le];
            if !self.binary && !self.s.text && memchr::memchr(0, line).is_some() {
                // Not scanned before (see `scan_nul`): NUL ends lines from here on.
                self.binary = true;
                continue;
            }
            let found = if self.m.whole_line() {
                self.m.find_in(line, 0)
            } else if self.m.any_match() && e <= le {
                // The match found is the line's first from `s` (no -w to check).
                Some((s - ls, e - ls))
            } else {
                self.m.find_in(line, s - ls)
            };
            if let Some(m) = found {
                return Some((ls, le, m));
            }
            if le >= cut {
                return None;
            }
            from = le + 1;
        }
        None
    }

    /// The first raw match in the lines of `from..cut` searched one by one (a NUL ends a
    /// line of a binary input, where a regex's `^` and `$` do not see it).
    fn find_by_line(&self, from: usize, cut: usize) -> Option<(usize, usize)> {
        let mut p = from;
        while p < cut {
            let le = self
                .find_term(&self.data.bytes()[p..cut])
                .map_or(cut, |i| p + i);
            if let Some((s, e)) = self.m.find_raw(&self.data.bytes()[p..le]) {
                return Some((p + s, p + e));
            }
            p = le + 1;
        }
        None
    }

    /// Lines `pos..upto` have no match.
    fn pass(&mut self, pos: usize, upto: usize) -> Result<(), ToolError> {
        let each = self.s.invert
            || (self.s.printing()
                && (self.ctx.draining || self.ctx.after_left > 0 || self.s.before > 0));
        if !each {
            if self.s.printing() && self.s.numbered {
                self.line_no += self.count_terms(&self.data.bytes()[pos..upto]);
            }
            return Ok(());
        }
        let mut p = pos;
        while p < upto && !self.stop {
            let le = self
                .find_term(&self.data.bytes()[p..upto])
                .map_or(upto, |i| p + i);
            self.on_line(p, le, le < upto, None)?;
            p = le + 1;
        }
        Ok(())
    }

    fn max_reached(&self) -> bool {
        self.s.max_count.is_some_and(|m| self.res.selected >= m)
    }

    fn on_line(
        &mut self,
        ls: usize,
        le: usize,
        terminated: bool,
        m: Option<(usize, usize)>,
    ) -> Result<(), ToolError> {
        let selected = m.is_some() != self.s.invert;
        let quiet_binary = self.binary && !self.s.text;
        if self.ctx.draining {
            // GNU grep prints the trailing context after -m NUM, matching lines included.
            if self.ctx.after_left == 0 || quiet_binary {
                self.stop = true;
                return Ok(());
            }
            self.emit((ls, le), terminated, false, None)?;
            self.ctx.after_left -= 1;
            if self.ctx.after_left == 0 {
                self.stop = true;
            }
            self.line_no += 1;
            return Ok(());
        }
        if selected {
            self.res.selected += 1;
            if self.s.quiet || self.s.list {
                self.stop = true;
                return Ok(());
            }
            if self.s.count {
                if self.max_reached() {
                    self.stop = true;
                    self.res.resume_at =
                        Some(self.file_offset(self.base + le as u64 + u64::from(terminated)));
                }
                return Ok(());
            }
            if quiet_binary {
                self.res.binary_matched = true;
                self.stop = true;
                return Ok(());
            }
            while let Some((n, off, bytes)) = self.ctx.before.pop_front() {
                self.emit_owned(n, off, &bytes)?;
            }
            self.emit((ls, le), terminated, true, m)?;
            self.ctx.after_left = self.s.after;
            if self.max_reached() {
                self.res.resume_at =
                    Some(self.file_offset(self.base + le as u64 + u64::from(terminated)));
                self.ctx.draining = true;
                if self.s.after == 0 {
                    self.stop = true;
                }
            }
        } else if self.s.printing() && !quiet_binary {
            if self.ctx.after_left > 0 {
                self.emit((ls, le), terminated, false, None)?;
                self.ctx.after_left -= 1;
            } else if self.s.before > 0 {
                if self.ctx.before.len() == self.s.before {
                    self.ctx.before.pop_front();
                }
                let bytes = self.data.bytes()[ls..le].to_vec();
                let offset = self.file_offset(self.base + ls as u64);
                self.ctx.before.push_back((self.line_no, offset, bytes));
            }
        }
        self.line_no += 1;
        Ok(())
    }

    /// Shows line `n`: first a gap (`--`) when it does not follow the last line shown.
    fn separator(&mut self, n: u64) -> Result<(), ToolError> {
        if self.s.context && self.ctx.last_printed.is_none_or(|l| n > l + 1) {
            self.sink.gap()?;
        }
        self.ctx.last_printed = Some(n);
        Ok(())
    }

    /// A queued before-context line.
    fn emit_owned(&mut self, n: u64, offset: u64, bytes: &[u8]) -> Result<(), ToolError> {
        self.separator(n)?;
        let at = At {
            line: n,
            offset,
            column: None,
        };
        let line = Line {
            at,
            bytes,
            terminated: true,
            selected: false,
            marked: self.s.invert,
            first: None,
        };
        show(&mut *self.sink, self.s, self.m, &mut self.res, line, None)
    }

    fn emit(
        &mut self,
        (ls, le): (usize, usize),
        terminated: bool,
        selected: bool,
        m: Option<(usize, usize)>,
    ) -> Result<(), ToolError> {
        self.separator(self.line_no)?;
        let bytes = &self.data.bytes()[ls..le];
        let column = match m {
            Some((s, _)) if self.s.column => Some(units(&bytes[..s]) + 1),
            _ => None,
        };
        let start = self.base + ls as u64;
        let at = At {
            line: self.line_no,
            offset: self.file_offset(start),
            column,
        };
        let line = Line {
            at,
            bytes,
            terminated,
            selected,
            marked: selected != self.s.invert,
            first: m,
        };
        let map = self.map.map(|m| (m, start));
        show(&mut *self.sink, self.s, self.m, &mut self.res, line, map)
    }
}

/// Shows a line to the sink: whole, or its matches with `-o` (a selected one only),
/// counting the matches listed in `res`. `map`: the input is decoded text, this line at
/// the offset given in it (the line's own offset is already the file's).
fn show(
    sink: &mut dyn Sink,
    st: &Settings,
    m: &Matcher,
    res: &mut FileResult,
    line: Line<'_>,
    map: Option<(&RefCell<OffsetMap>, u64)>,
) -> Result<(), ToolError> {
    if st.json || !st.only {
        let k = sink.line(m, line)?;
        if line.selected {
            res.matches += k;
        }
    } else if line.marked {
        // GNU grep's -o (print_line_middle) prints the matches of the lines it shows that
        // match: the selected lines, or with -v the context lines (after `-`).
        let (mut upos, mut ucount) = (0, 0);
        for (s, e) in matches(m, line.bytes, line.first) {
            if st.column {
                ucount += units(&line.bytes[upos..s]);
                upos = s;
            }
            let offset = match map {
                Some((map, start)) => map.borrow_mut().file(start + s as u64),
                None => line.at.offset + s as u64,
            };
            let at = At {
                line: line.at.line,
                offset,
                column: st.column.then_some(ucount + 1),
            };
            sink.only(at, &line.bytes[s..e], line.selected)?;
            res.matches += u64::from(line.selected);
        }
    }
    Ok(())
}
