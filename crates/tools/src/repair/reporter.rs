//! utf8-repair's error reports in DESIGN.md's format, for `--report` (every error and a
//! summary line per input) and `--check` (the first error of each input), in text or JSON.

use std::fmt::Write as _;
use std::io::{self, Write};

use utf8_codec::ErrorKind;
use utf8_codec::stream::StreamError;

use super::unmojibake::FixReport;
use crate::detect::Guess;
use crate::position::LineTracker;
use crate::report::{ErrorReport, Located, Malformed, Report, json_line};

/// Where reports go.
#[derive(Debug)]
pub(super) enum ReportTo {
    /// Standard error (`--report`, text `--check`).
    Stderr,
    /// Standard output (`--check --json`, as `utf8-count --check --json`).
    Stdout,
}

/// Writes error reports in DESIGN.md's format: every error (`--report`), or only the first
/// of each input (`--check`).
#[derive(Debug)]
pub(super) struct Reporter {
    program: &'static str,
    json: bool,
    color: bool,
    first_only: bool,
    to: ReportTo,
    /// Errors of the current input, by kind, and malformed sequences of other encodings.
    by_kind: [u64; ErrorKind::ALL.len()],
    malformed: u64,
    /// Mojibake fixed in the current input (`--fix-mojibake`).
    fixes: u64,
    failed: Option<io::Error>,
    /// Lines not yet written: one write per chunk of input (or per [`REPORT_FLUSH_AT`]
    /// bytes), not one per error. 300,000 errors took 300,000 `write` calls and 0.50 s.
    pending: Vec<u8>,
}

/// The bytes of report lines kept before they are written.
const REPORT_FLUSH_AT: usize = 32 * 1024;

impl Reporter {
    pub fn new(
        program: &'static str,
        json: bool,
        color: bool,
        first_only: bool,
        to: ReportTo,
    ) -> Reporter {
        Reporter {
            program,
            json,
            color,
            first_only,
            to,
            by_kind: [0; ErrorKind::ALL.len()],
            malformed: 0,
            fixes: 0,
            failed: None,
            pending: Vec::new(),
        }
    }

    /// What `--fix-mojibake` reports of its fixes in `name`: nothing under `--check`.
    pub fn fix_report<'n>(&self, name: &'n str) -> Option<FixReport<'n>> {
        (!self.first_only).then_some(FixReport {
            program: self.program,
            name,
            json: self.json,
        })
    }

    /// Whether the stream can stop: `--check` has seen its first error.
    pub fn stop(&self) -> bool {
        self.first_only && self.count() > 0
    }

    fn count(&self) -> u64 {
        self.by_kind.iter().sum::<u64>() + self.malformed
    }

    pub(super) fn error(&mut self, name: &str, e: &StreamError, after: &[u8], t: &LineTracker) {
        self.by_kind[e.kind().index()] += 1;
        let r = ErrorReport::new(name, e, after, t.line(), t.column());
        let line = if self.json {
            r.json()
        } else {
            r.text(self.program, self.color)
        };
        self.emit(line);
    }

    pub(super) fn malformed(
        &mut self,
        name: &str,
        enc: &'static str,
        offset: u64,
        bytes: &[u8],
        t: &LineTracker,
    ) {
        self.malformed += 1;
        let at = Located {
            path: name,
            line: t.line(),
            column: t.column(),
            offset,
            bytes,
        };
        let m = Malformed { at, encoding: enc };
        let line = if self.json {
            m.json()
        } else {
            m.text(self.program, self.color)
        };
        self.emit(line);
    }

    fn emit(&mut self, line: String) {
        self.pending.extend_from_slice(line.as_bytes());
        self.pending.push(b'\n');
        if self.pending.len() >= REPORT_FLUSH_AT {
            self.flush();
        }
    }

    /// Writes the pending lines; the first write error on standard output is kept for
    /// [`Reporter::failed`] (on standard error there is nowhere to say it).
    pub fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let r = match self.to {
            ReportTo::Stderr => {
                crate::diag::flush_before_diagnostic();
                io::stderr().lock().write_all(&self.pending)
            }
            ReportTo::Stdout => {
                let mut out = io::stdout().lock();
                out.write_all(&self.pending).and_then(|()| out.flush())
            }
        };
        self.pending.clear();
        if let Err(e) = r
            && matches!(self.to, ReportTo::Stdout)
            && self.failed.is_none()
        {
            self.failed = Some(e);
        }
    }

    /// A write error of the reports on standard output, if any.
    pub fn failed(&mut self) -> io::Result<()> {
        self.flush();
        match self.failed.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Counts `n` mojibake fixes of the current input for its summary line.
    pub fn fixed(&mut self, n: u64) {
        self.fixes += n;
    }

    /// Says which encoding `--from auto` chose for an input.
    pub(super) fn decoded(&mut self, name: &str, guess: Guess) {
        if self.first_only {
            return;
        }
        let line = if self.json {
            json_line(&DecodedJson {
                path: name,
                encoding: guess.encoding.name(),
                decided_by: guess.evidence.as_str(),
            })
        } else {
            format!(
                "{}: {name}: decoded as {} ({})",
                self.program,
                guess.encoding.name(),
                guess.evidence.as_str()
            )
        };
        self.emit(line);
    }

    /// Ends the report of one input: the summary line of a text `--report`; resets the counts.
    pub fn end_input(&mut self, name: &str) {
        let total = self.count();
        if !self.json && !self.first_only {
            let mut s = format!("{}: {name}: ", self.program);
            if total == 0 {
                s.push_str("no errors");
            } else {
                let plural = if total == 1 { "" } else { "s" };
                let _ = write!(s, "{total} error{plural} repaired:");
                let mut sep = " ";
                for k in ErrorKind::ALL {
                    let n = self.by_kind[k.index()];
                    if n > 0 {
                        let _ = write!(s, "{sep}{n} {}", k.as_str());
                        sep = ", ";
                    }
                }
                if self.malformed > 0 {
                    let _ = write!(s, "{sep}{} malformed", self.malformed);
                }
            }
            if self.fixes > 0 {
                let plural = if self.fixes == 1 { "" } else { "es" };
                let _ = write!(s, "; {} mojibake fix{plural}", self.fixes);
            }
            self.emit(s);
        }
        self.flush();
        self.by_kind = [0; ErrorKind::ALL.len()];
        self.malformed = 0;
        self.fixes = 0;
    }
}

impl Drop for Reporter {
    /// Writes what is pending (an input that failed half-way has its reports before the
    /// diagnostic that says so).
    fn drop(&mut self) {
        self.flush();
    }
}

/// The `--report=json` line of the encoding `--from auto` chose.
#[derive(serde::Serialize)]
struct DecodedJson<'a> {
    path: &'a str,
    encoding: &'static str,
    decided_by: &'static str,
}
