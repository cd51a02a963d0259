//! `utf8-count --explain`: one line per unit of each input (a scalar value or an error, at
//! its byte offset, line and column), with what a damaged sequence would have meant.

use std::fmt::Write as _;
use std::io::{self, Read};

use utf8_codec::stream::Event;

use super::config::Config;
use super::files0::Inputs;
use super::json::ScalarJson;
use super::quote::{quoted, requote};
use crate::color::ERROR_KIND;
use crate::diag::{Diag, ToolError};
use crate::engine::Scanner;
use crate::input::Chunks;
use crate::output::Output;
use crate::position::LineTracker;
use crate::report::{ErrorReport, explain, hex, json_line};

impl Config {
    /// `--explain`: every input, a line per unit.
    pub(super) fn run_explain(
        &self,
        inputs: &mut Inputs,
        out: &mut Output,
        diag: &mut Diag,
    ) -> Result<(), ToolError> {
        let several = inputs.is_stream() || inputs.known().len() > 1;
        self.each_input(inputs, out, diag, |input, i, out, diag| {
            let Some(source) = input.open_or_report_as(diag, |e| requote(e, input)) else {
                return Ok(());
            };
            let name = input.name();
            if several && !self.json {
                if i > 0 {
                    out.line("")?;
                }
                out.line(&format!("==> {name} <=="))?;
            }
            match self.explain_stream(self.reader(source), &name, out) {
                Ok(()) => Ok(()),
                Err(ExplainError::Input(e)) => {
                    diag.error(&ToolError::input(quoted(input), &e));
                    Ok(())
                }
                Err(ExplainError::Output(e)) => Err(e),
            }
        })?;
        Ok(())
    }

    fn explain_stream(
        &self,
        reader: impl Read,
        name: &str,
        out: &mut Output,
    ) -> Result<(), ExplainError> {
        let mut chunks = Chunks::new(reader);
        let mut scanner = Scanner::new(self.engine);
        let mut ex = Explainer {
            cfg: self,
            name,
            pos: 0,
            tracker: LineTracker::new(),
            line: String::new(),
            failed: None,
        };
        while let Some(chunk) = chunks.next_chunk().map_err(ExplainError::Input)? {
            scanner.feed(chunk.data, |ev| ex.event(ev, |o| chunk.after(o), out));
            if let Some(e) = ex.failed.take() {
                return Err(ExplainError::Output(e));
            }
        }
        scanner.finish(|ev| ex.event(ev, |_| &[], out));
        match ex.failed.take() {
            Some(e) => Err(ExplainError::Output(e)),
            None => Ok(()),
        }
    }
}

enum ExplainError {
    Input(io::Error),
    Output(ToolError),
}

/// Writes one line per unit for `--explain`.
struct Explainer<'c> {
    cfg: &'c Config,
    name: &'c str,
    /// Absolute offset of the next unit.
    pos: u64,
    tracker: LineTracker,
    line: String,
    failed: Option<ToolError>,
}

impl Explainer<'_> {
    fn event<'a>(&mut self, ev: Event<'_>, after: impl Fn(u64) -> &'a [u8], out: &mut Output) {
        if self.failed.is_some() {
            return;
        }
        match ev {
            Event::Str(s) => {
                for c in s.chars() {
                    self.scalar(c, out);
                }
            }
            Event::Char(c) => self.scalar(c, out),
            Event::Error(e) => {
                let end = e.offset() + e.len() as u64;
                let follow = after(end);
                self.line.clear();
                if self.cfg.json {
                    let r = ErrorReport::new(
                        self.name,
                        &e,
                        follow,
                        self.tracker.line(),
                        self.tracker.column(),
                    );
                    self.line.push_str(&r.json());
                } else {
                    let _ = write!(
                        self.line,
                        "{:>8}  {:<11}  {}: {}",
                        e.offset(),
                        hex(e.bytes()),
                        ERROR_KIND.paint(self.cfg.color_out, e.kind()),
                        explain(e.kind(), e.bytes(), follow)
                    );
                }
                self.tracker.error();
                self.pos = end;
                self.emit(out);
            }
        }
    }

    fn scalar(&mut self, c: char, out: &mut Output) {
        let mut buf = [0u8; 4];
        let bytes = c.encode_utf8(&mut buf).as_bytes();
        self.line.clear();
        if self.cfg.json {
            self.line = json_line(&ScalarJson {
                path: self.name,
                offset: self.pos,
                len: bytes.len(),
                bytes: hex(bytes),
                scalar: format!("U+{:04X}", c as u32),
                line: self.tracker.line(),
                column: self.tracker.column(),
            });
        } else {
            let _ = write!(
                self.line,
                "{:>8}  {:<11}  U+{:04X}",
                self.pos,
                hex(bytes),
                c as u32
            );
            if c.is_control() {
                self.line.push_str(" (control)");
            } else {
                let _ = write!(self.line, " '{c}'");
            }
        }
        self.pos += bytes.len() as u64;
        self.tracker.char(c);
        self.emit(out);
    }

    fn emit(&mut self, out: &mut Output) {
        if let Err(e) = out.line(&self.line) {
            self.failed = Some(e);
        }
    }
}
