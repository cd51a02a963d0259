//! `--fix-mojibake`: the repaired text passes through [`crate::mojibake::Fixer`] on its way
//! out, a line at a time; with `--report`, each fix is a line on standard error.

use std::io::{self, Write};

use crate::mojibake::{Fix, Fixer};
use crate::report::json_line;

/// Where fixes are reported: `PROGRAM: PATH: mojibake at byte N: BEFORE -> AFTER`, or a
/// JSON object per fix.
#[derive(Debug)]
pub(super) struct FixReport<'a> {
    pub program: &'static str,
    pub name: &'a str,
    pub json: bool,
}

/// A writer of UTF-8 text that undoes mojibake before passing it on to `inner`.
pub(super) struct Unmojibake<'w, 'a> {
    inner: &'w mut dyn Write,
    fixer: Fixer,
    /// The start of a character cut by the end of the last write.
    partial: Vec<u8>,
    out: String,
    report: Option<FixReport<'a>>,
    /// Fixes made so far (counted only when reported).
    fixed: u64,
}

impl<'w, 'a> Unmojibake<'w, 'a> {
    pub fn new(inner: &'w mut dyn Write, report: Option<FixReport<'a>>) -> Self {
        Unmojibake {
            inner,
            fixer: Fixer::new(report.is_some()),
            partial: Vec::new(),
            out: String::new(),
            report,
            fixed: 0,
        }
    }

    /// Fixes and writes what is held: the end of the stream. How many fixes were reported.
    pub fn finish(&mut self) -> io::Result<u64> {
        if !self.partial.is_empty() {
            return Err(io::Error::other("repaired text ends inside a character"));
        }
        let fixes = self.fixer.finish(&mut self.out);
        self.drain(&fixes)?;
        Ok(self.fixed)
    }

    fn drain(&mut self, fixes: &[Fix]) -> io::Result<()> {
        self.fixed += fixes.len() as u64;
        if let Some(r) = &self.report {
            crate::diag::flush_before_diagnostic();
            let mut err = io::stderr().lock();
            for f in fixes {
                let line = if r.json {
                    json_line(&FixJson {
                        path: r.name,
                        offset: f.offset,
                        kind: "mojibake",
                        before: &f.before,
                        after: &f.after,
                    })
                } else {
                    format!("{}: {}: {f}", r.program, r.name)
                };
                let _ = writeln!(err, "{line}");
            }
        }
        self.inner.write_all(self.out.as_bytes())?;
        self.out.clear();
        Ok(())
    }
}

impl Write for Unmojibake<'_, '_> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.partial.is_empty()
            && let Ok(text) = std::str::from_utf8(data)
        {
            let fixes = self.fixer.push(text, &mut self.out);
            self.drain(&fixes)?;
            return Ok(data.len());
        }
        self.partial.extend_from_slice(data);
        let valid = match std::str::from_utf8(&self.partial) {
            Ok(s) => s.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => return Err(io::Error::other("repaired text is not UTF-8")),
        };
        let rest = self.partial.split_off(valid);
        let text = std::mem::replace(&mut self.partial, rest);
        // `text` is the valid prefix checked above.
        let text = String::from_utf8(text).map_err(io::Error::other)?;
        let fixes = self.fixer.push(&text, &mut self.out);
        self.drain(&fixes)?;
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The `--report=json` object of one fix.
#[derive(serde::Serialize)]
struct FixJson<'a> {
    path: &'a str,
    offset: u64,
    kind: &'static str,
    before: &'a str,
    after: &'a str,
}
