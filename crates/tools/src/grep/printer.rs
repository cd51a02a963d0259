//! How selected lines, context lines, matches, counts and names are written: GNU grep's
//! layout and colors, or JSON Lines in ripgrep's shape (text always valid UTF-8).

use std::fmt::Write as _;
use std::io::Write;

use utf8_codec::{count, errors, repair};

use super::matcher::Matcher;
use crate::diag::ToolError;
use crate::output::Output;
use crate::report::json_string;

const MATCH_ON: &str = "\x1b[01;31m\x1b[K";
const OFF: &str = "\x1b[m\x1b[K";
const FILE_ON: &str = "\x1b[35m\x1b[K";
const NUM_ON: &str = "\x1b[32m\x1b[K";
const SEP_ON: &str = "\x1b[36m\x1b[K";

/// The output options shared by every file.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Print file names (`-H`, several files, `-r`).
    pub with_filename: bool,
    /// `-n` (or `--column`).
    pub line_number: bool,
    /// `--column`.
    pub column: bool,
    /// `-b`.
    pub byte_offset: bool,
    /// `--null`.
    pub null: bool,
    /// Color as GNU grep's defaults.
    pub color: bool,
    /// `--repair-output`.
    pub repair: bool,
    /// `-v` (matches are colored in context lines then).
    pub invert: bool,
}

/// The number of units (scalar values and maximal subparts) in `bytes`, which ends at a
/// unit boundary.
pub fn units(bytes: &[u8]) -> u64 {
    let c = count(bytes);
    c.chars + c.errors
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

/// Where a line is: its number, absolute offset and the units before it on its line.
#[derive(Debug, Clone, Copy)]
pub struct At {
    /// 1-based line number.
    pub line: u64,
    /// Absolute 0-based byte offset.
    pub offset: u64,
    /// 1-based column, when known.
    pub column: Option<u64>,
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

    fn colored(&mut self, on: &str, text: &[u8]) {
        if self.style.color {
            self.buf.extend_from_slice(on.as_bytes());
            self.buf.extend_from_slice(text);
            self.buf.extend_from_slice(OFF.as_bytes());
        } else {
            self.buf.extend_from_slice(text);
        }
    }

    fn sep(&mut self, sep: u8) {
        self.colored(SEP_ON, &[sep]);
    }

    fn prefix(&mut self, name: &str, at: At, sep: u8) {
        let s = self.style;
        if s.with_filename {
            self.colored(FILE_ON, name.as_bytes());
            if s.null {
                self.buf.push(0);
            } else {
                self.sep(sep);
            }
        }
        if s.line_number {
            self.colored(NUM_ON, at.line.to_string().as_bytes());
            self.sep(sep);
        }
        if let (true, Some(c)) = (s.column, at.column) {
            self.colored(NUM_ON, c.to_string().as_bytes());
            self.sep(sep);
        }
        if s.byte_offset {
            self.colored(NUM_ON, at.offset.to_string().as_bytes());
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
        self.colored(SEP_ON, b"--");
        self.buf.push(b'\n');
        self.flush_to(out)
    }

    /// A whole line (without its terminator): selected (`:`) or context (`-`).
    pub fn line(
        &mut self,
        out: &mut Output,
        m: &Matcher,
        name: &str,
        at: At,
        line: &[u8],
        selected: bool,
    ) -> Result<(), ToolError> {
        let sep = if selected { b':' } else { b'-' };
        let at = if selected {
            at
        } else {
            At { column: None, ..at }
        };
        self.prefix(name, at, sep);
        let highlight = self.style.color && (selected != self.style.invert);
        if highlight {
            let repaired;
            let text: &[u8] = if self.style.repair {
                repaired = repair(line).into_owned();
                repaired.as_bytes()
            } else {
                line
            };
            let mut from = 0;
            let mut last = 0;
            while let Some((s, e)) = m.find_in(text, from) {
                if e > s {
                    self.buf.extend_from_slice(&text[last..s]);
                    self.colored(MATCH_ON, &text[s..e]);
                    last = e;
                    from = e;
                } else {
                    from = s + 1;
                }
                if m.whole_line() {
                    break;
                }
            }
            self.buf.extend_from_slice(&text[last..]);
        } else {
            self.text(line);
        }
        self.buf.push(b'\n');
        self.flush_to(out)
    }

    /// One match of `-o`.
    pub fn only(
        &mut self,
        out: &mut Output,
        name: &str,
        at: At,
        text: &[u8],
    ) -> Result<(), ToolError> {
        self.prefix(name, at, b':');
        if self.style.color {
            self.buf.extend_from_slice(MATCH_ON.as_bytes());
            self.text(text);
            self.buf.extend_from_slice(OFF.as_bytes());
        } else {
            self.text(text);
        }
        self.buf.push(b'\n');
        self.flush_to(out)
    }

    /// `-c`: `[NAME:]COUNT`.
    pub fn count(&mut self, out: &mut Output, name: &str, n: u64) -> Result<(), ToolError> {
        if self.style.with_filename {
            self.colored(FILE_ON, name.as_bytes());
            if self.style.null {
                self.buf.push(0);
            } else {
                self.sep(b':');
            }
        }
        self.buf.extend_from_slice(n.to_string().as_bytes());
        self.buf.push(b'\n');
        self.flush_to(out)
    }

    /// `-l`/`-L`: the name, then a newline (a NUL with `--null`).
    pub fn name(&mut self, out: &mut Output, name: &str) -> Result<(), ToolError> {
        self.colored(FILE_ON, name.as_bytes());
        self.buf.push(if self.style.null { 0 } else { b'\n' });
        self.flush_to(out)
    }
}

/// The JSON Lines writer of `--json`.
#[derive(Debug, Default)]
pub struct JsonPrinter;

fn path_obj(s: &mut String, path: &str) {
    s.push_str("{\"text\":");
    json_string(s, path);
    s.push('}');
}

impl JsonPrinter {
    /// `{"type":"begin",...}`.
    pub fn begin(out: &mut Output, path: &str) -> Result<(), ToolError> {
        let mut s = String::from("{\"type\":\"begin\",\"data\":{\"path\":");
        path_obj(&mut s, path);
        s.push_str("}}");
        out.line(&s)
    }

    /// A match or context line, with its submatches (byte offsets in the repaired text)
    /// and its invalid sequences (byte offsets in the original line).
    #[allow(clippy::too_many_arguments)]
    pub fn line(
        out: &mut Output,
        m: &Matcher,
        path: &str,
        at: At,
        line: &[u8],
        terminated: bool,
        selected: bool,
        find_matches: bool,
    ) -> Result<u64, ToolError> {
        let text = repair(line);
        let kind = if selected { "match" } else { "context" };
        let mut s = format!("{{\"type\":\"{kind}\",\"data\":{{\"path\":");
        path_obj(&mut s, path);
        s.push_str(",\"lines\":{\"text\":");
        let mut full = text.clone().into_owned();
        if terminated {
            full.push('\n');
        }
        json_string(&mut s, &full);
        let _ = write!(
            s,
            "}},\"line_number\":{},\"absolute_offset\":{}",
            at.line, at.offset
        );
        s.push_str(",\"submatches\":[");
        let mut found = 0;
        if find_matches {
            let tb = text.as_bytes();
            let mut from = 0;
            let mut first = true;
            while let Some((a, b)) = m.find_in(tb, from) {
                if b > a {
                    found += 1;
                    if !first {
                        s.push(',');
                    }
                    first = false;
                    s.push_str("{\"match\":{\"text\":");
                    json_string(&mut s, &String::from_utf8_lossy(&tb[a..b]));
                    let _ = write!(s, "}},\"start\":{a},\"end\":{b}}}");
                    from = b;
                } else {
                    from = a + 1;
                }
                if m.whole_line() {
                    break;
                }
            }
        }
        s.push_str("],\"invalid\":[");
        for (i, e) in errors(line).enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(
                s,
                "{{\"offset\":{},\"len\":{},\"kind\":\"{}\"}}",
                e.offset(),
                e.len(),
                e.kind().as_str()
            );
        }
        s.push_str("]}}");
        out.line(&s)?;
        Ok(found)
    }

    /// `{"type":"end",...}` with the file's stats.
    pub fn end(
        out: &mut Output,
        path: &str,
        binary: bool,
        lines: u64,
        matches: u64,
        bytes: u64,
    ) -> Result<(), ToolError> {
        let mut s = String::from("{\"type\":\"end\",\"data\":{\"path\":");
        path_obj(&mut s, path);
        let _ = write!(
            s,
            ",\"binary\":{binary},\"stats\":{{\"matched_lines\":{lines},\"matches\":{matches},\"bytes_searched\":{bytes}}}}}}}"
        );
        out.line(&s)
    }

    /// `{"type":"summary",...}`.
    pub fn summary(
        out: &mut Output,
        files: u64,
        files_matched: u64,
        lines: u64,
        matches: u64,
        bytes: u64,
    ) -> Result<(), ToolError> {
        out.line(&format!(
            "{{\"type\":\"summary\",\"data\":{{\"stats\":{{\"searches\":{files},\"searches_with_match\":{files_matched},\"matched_lines\":{lines},\"matches\":{matches},\"bytes_searched\":{bytes}}}}}}}"
        ))
    }
}
