//! `--json`: JSON Lines in ripgrep's shape (`begin`, `match`/`context`, `end` per input,
//! one `summary`), serialized by serde_json from the types below; text is always valid
//! UTF-8 (lines repaired), invalid sequences are listed with their original offsets.

use std::borrow::Cow;
use std::io::Write;

use serde::Serialize;
use utf8_codec::repair;

use super::matcher::Matcher;
use super::sink::{At, Dest, FileResult, Line, Sink, matches, report_invalid};
use crate::detect::Guess;
use crate::diag::ToolError;
use crate::engine::{Engine, errors};
use crate::output::Output;
use crate::report::{self, Report};

/// One line of `--json` output.
#[derive(Serialize)]
#[serde(tag = "type", content = "data", rename_all = "lowercase")]
enum Message<'a> {
    Begin {
        path: Text<'a>,
        /// The encoding the input was decoded from, when `--from` or a byte order mark
        /// decided one.
        #[serde(skip_serializing_if = "Option::is_none")]
        encoding: Option<&'static str>,
        /// Why: `byte order mark`, `valid UTF-8`, `detected` or `given`.
        #[serde(skip_serializing_if = "Option::is_none")]
        decided_by: Option<&'static str>,
    },
    Match(LineData<'a>),
    Context(LineData<'a>),
    End(End<'a>),
    Summary {
        stats: SummaryStats,
    },
}

#[derive(Serialize)]
struct Text<'a> {
    text: &'a str,
}

#[derive(Serialize)]
struct Owned<'a> {
    text: Cow<'a, str>,
}

#[derive(Serialize)]
struct LineData<'a> {
    path: Text<'a>,
    lines: Text<'a>,
    line_number: u64,
    absolute_offset: u64,
    submatches: Vec<Submatch<'a>>,
    invalid: Vec<Invalid>,
}

#[derive(Serialize)]
struct Submatch<'a> {
    #[serde(rename = "match")]
    matched: Owned<'a>,
    start: usize,
    end: usize,
}

#[derive(Serialize)]
struct Invalid {
    offset: usize,
    len: usize,
    kind: &'static str,
}

#[derive(Serialize)]
struct End<'a> {
    path: Text<'a>,
    binary: bool,
    stats: FileStats,
}

#[derive(Serialize)]
struct FileStats {
    matched_lines: u64,
    matches: u64,
    bytes_searched: u64,
}

#[derive(Serialize)]
struct SummaryStats {
    searches: u64,
    searches_with_match: u64,
    matched_lines: u64,
    matches: u64,
    bytes_searched: u64,
}

fn write(out: &mut Output, message: &Message<'_>) -> Result<(), ToolError> {
    report::write_json_compact(&mut *out, message)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// The `summary` line after every input.
///
/// # Errors
///
/// Writing failed.
pub fn summary(
    out: &mut Output,
    files: u64,
    with_match: u64,
    r: &FileResult,
) -> Result<(), ToolError> {
    let stats = SummaryStats {
        searches: files,
        searches_with_match: with_match,
        matched_lines: r.selected,
        matches: r.matches,
        bytes_searched: r.bytes,
    };
    write(out, &Message::Summary { stats })
}

/// The sink of `--json` for one input: `begin` before its first line, `end` after it when
/// a line was written.
pub struct JsonSink<'a> {
    /// Where to write (the name is the one of diagnostics).
    pub dest: Dest<'a>,
    /// The engine that finds the invalid sequences of each line.
    pub engine: Engine,
    /// Whether `begin` is written.
    pub begun: bool,
    /// The input's encoding and why, when one was decided.
    pub encoding: Option<Guess>,
}

impl Sink for JsonSink<'_> {
    fn line(&mut self, m: &Matcher, line: Line<'_>) -> Result<u64, ToolError> {
        let path = self.dest.name;
        if !self.begun {
            self.begun = true;
            write(
                self.dest.out,
                &Message::Begin {
                    path: Text { text: path },
                    encoding: self.encoding.map(|g| g.encoding.name()),
                    decided_by: self.encoding.map(|g| g.evidence.as_str()),
                },
            )?;
        }
        let text = repair(line.bytes);
        let mut full = text.clone().into_owned();
        if line.terminated {
            full.push('\n');
        }
        let tb = text.as_bytes();
        // Matches are listed in lines that are selected (context lines of -v).
        let submatches: Vec<Submatch<'_>> = if line.marked {
            matches(m, tb, None)
                .map(|(start, end)| Submatch {
                    matched: Owned {
                        text: String::from_utf8_lossy(&tb[start..end]),
                    },
                    start,
                    end,
                })
                .collect()
        } else {
            Vec::new()
        };
        let found = submatches.len() as u64;
        let data = LineData {
            path: Text { text: path },
            lines: Text { text: &full },
            line_number: line.at.line,
            absolute_offset: line.at.offset,
            submatches,
            invalid: errors(self.engine, line.bytes)
                .map(|e| Invalid {
                    offset: e.offset(),
                    len: e.len(),
                    kind: e.kind().as_str(),
                })
                .collect(),
        };
        let msg = if line.selected {
            Message::Match(data)
        } else {
            Message::Context(data)
        };
        write(self.dest.out, &msg)?;
        Ok(found)
    }

    fn only(&mut self, _at: At, _text: &[u8], _selected: bool) -> Result<(), ToolError> {
        Ok(())
    }

    fn gap(&mut self) -> Result<(), ToolError> {
        Ok(())
    }

    fn invalid(&mut self, report: &dyn Report) {
        report_invalid(&mut self.dest, report, true, false);
    }

    fn finish(&mut self, r: &FileResult) -> Result<(), ToolError> {
        if !self.begun {
            return Ok(());
        }
        let end = End {
            path: Text {
                text: self.dest.name,
            },
            binary: r.binary_matched,
            stats: FileStats {
                matched_lines: r.selected,
                matches: r.matches,
                bytes_searched: r.bytes,
            },
        };
        write(self.dest.out, &Message::End(end))
    }
}
