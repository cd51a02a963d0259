//! The run of `utf8-count` from its validated [`Config`]: counts, `--check`, `--explain`.

use std::fmt::Write as _;
use std::io::{self, Read, Write as _};

use utf8_codec::ErrorKind;
use utf8_codec::stream::Event;

use super::config::Config;
use super::counter::KNOWN_SIZE_MAX;
pub(super) use super::counter::{Counter, PROGRAM};
use super::files0::{Inputs, Item};
use super::json::TallyJson;
use super::quote::{quoted, requote};
use super::tally::{Mode, Tally};
use crate::detect::{self, Tee};
use crate::diag::{Diag, ToolError};
use crate::engine::Scanner;
use crate::exit::Status;
use crate::input::{Chunks, Input, Kind, Source, stat_near};
use crate::output::Output;
use crate::position::LineTracker;
use crate::report::{ErrorReport, json_line};

/// Runs a validated command line: the counts (or `--check`, `--explain`) to standard output.
pub(super) fn run(mut cfg: Config, diag: &mut Diag) -> Result<(), ToolError> {
    let mut out = Output::stdout(cfg.line_buffered);
    let mut inputs = std::mem::take(&mut cfg.inputs);
    cfg.run(&mut inputs, &mut out, diag)?;
    out.flush()
}

impl Config {
    fn run(&self, inputs: &mut Inputs, out: &mut Output, diag: &mut Diag) -> Result<(), ToolError> {
        if self.check {
            self.run_check(inputs, out, diag)
        } else if self.explain {
            self.run_explain(inputs, out, diag)
        } else {
            self.run_count(inputs, out, diag)
        }
    }

    /// Runs `f` on each input in turn, its position (from 0) and the outputs; an invalid
    /// entry of a `--files0-from` list is reported and skipped, and the output of an input
    /// read from a stream is flushed before the next name is read. Returns the number of
    /// entries.
    pub(super) fn each_input(
        &self,
        inputs: &mut Inputs,
        out: &mut Output,
        diag: &mut Diag,
        mut f: impl FnMut(&Input, usize, &mut Output, &mut Diag) -> Result<(), ToolError>,
    ) -> Result<usize, ToolError> {
        let stream = inputs.is_stream();
        let mut n = 0;
        while let Some(item) = inputs.next_item() {
            n += 1;
            match item? {
                Item::Input(input) => f(&input, n - 1, out, diag)?,
                Item::Invalid(e) => {
                    out.flush()?;
                    diag.error(&e);
                }
            }
            if stream {
                out.flush()?;
            }
        }
        Ok(n)
    }

    /// The reader of an opened input: the bytes, or the bytes written in hex.
    pub(super) fn reader(&self, source: Source) -> Box<dyn Read> {
        self.counter().reader(source)
    }

    /// What counting one input needs of the configuration.
    pub(super) fn counter(&self) -> Counter {
        Counter {
            from: self.from,
            hex: self.hex,
            threads: self.threads,
            columns: self.columns,
            json: self.json,
            histogram: self.histogram,
        }
    }

    // ----- counting -----

    fn run_count(
        &self,
        inputs: &mut Inputs,
        out: &mut Output,
        diag: &mut Diag,
    ) -> Result<(), ToolError> {
        let (width, sizes) = self.width(inputs);
        let mode = Mode {
            engine: self.engine,
            line_stats: self.columns.longest_chars,
            widths: self.columns.longest,
            // --histogram and --json show every count.
            words: self.columns.words || self.histogram || self.json,
            counts: !(self.columns.words && self.columns.count() == 1)
                || self.histogram
                || self.json,
            lengths: self.histogram,
        };
        let mut total = Tally::default();
        let n = super::many::count_all(
            self,
            inputs,
            &sizes.small,
            mode,
            (out, diag),
            &mut total,
            width,
        )?;
        if self.total || (self.total_if_several && n > 1) {
            let label = self.each.then_some(&b"total"[..]);
            self.write_tally(out, &total, None, label, width)?;
        }
        Ok(())
    }

    /// Column width, as GNU `wc`: wide enough for the sum of the regular files' sizes, at
    /// least 7 when some input is not a regular file, 1 for a single number and with
    /// `--total=only` (GNU: no alignment to keep).
    /// A list of names read as it arrives gets no padding (GNU: no file is known in advance).
    /// Beside it, what the `stat` of each known input found ([`Sizes::small`]).
    fn width(&self, inputs: &Inputs) -> (usize, Sizes) {
        let known = inputs.known();
        if !self.each || inputs.is_stream() || (self.columns.count() == 1 && known.len() == 1) {
            return (1, Sizes::default());
        }
        // The sizes of a long list are read on every thread: one `stat` a file is much of
        // the time a small file takes.
        let threads = match self.threads {
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let chunk = known.len().div_ceil(threads.max(1)).max(4096);
        let parts: Vec<Sizes> = if chunk >= known.len() {
            vec![sizes(known)]
        } else {
            std::thread::scope(|s| {
                let parts: Vec<_> = known
                    .chunks(chunk)
                    .map(|items| s.spawn(move || sizes(items)))
                    .collect();
                parts
                    .into_iter()
                    .zip(known.chunks(chunk))
                    .map(|(h, items)| {
                        h.join().unwrap_or_else(|_| Sizes {
                            irregular: true,
                            small: vec![None; items.len()],
                            ..Sizes::default()
                        })
                    })
                    .collect()
            })
        };
        let mut all = Sizes::default();
        for p in parts {
            all.sum = all.sum.saturating_add(p.sum);
            all.irregular |= p.irregular;
            all.small.extend(p.small);
        }
        let digits = all.sum.max(1).ilog10() as usize + 1;
        let width = if all.irregular { digits.max(7) } else { digits };
        (width, all)
    }

    pub(super) fn write_tally(
        &self,
        out: &mut Output,
        t: &Tally,
        json_path: Option<&str>,
        label: Option<&[u8]>,
        width: usize,
    ) -> Result<(), ToolError> {
        let c = &t.counts;
        if self.json {
            let r = TallyJson::new(json_path, t, self.columns, self.histogram);
            let s = json_line(&r);
            return out.line(&s);
        }
        if self.histogram {
            return self.write_histogram(out, t, json_path.unwrap_or("total"));
        }
        let mut s = String::new();
        let values = [
            (self.columns.lines, c.lines),
            (self.columns.words, t.words.count()),
            (self.columns.chars, c.chars),
            (self.columns.bytes, c.bytes),
            (self.columns.errors, c.errors),
            (self.columns.longest, t.widths.longest()),
            (self.columns.longest_chars, t.lines.longest()),
        ];
        for (_, v) in values.iter().filter(|(on, _)| *on) {
            if !s.is_empty() {
                s.push(' ');
            }
            let _ = write!(s, "{v:>width$}");
        }
        let mut line = s.into_bytes();
        if let Some(label) = label {
            // The name's own bytes, as GNU wc writes them.
            line.push(b' ');
            line.extend_from_slice(label);
        }
        line.push(b'\n');
        out.write_all(&line)?;
        Ok(())
    }

    fn write_histogram(&self, out: &mut Output, t: &Tally, name: &str) -> Result<(), ToolError> {
        let c = &t.counts;
        let mut s = format!("{name}:\n");
        let mut row = |label: &str, n: u64| {
            let _ = writeln!(s, "  {label:<26}{n:>12}");
        };
        row("lines", c.lines);
        row("words", t.words.count());
        row("chars", c.chars);
        row("bytes", c.bytes);
        row("errors", c.errors);
        if self.columns.longest {
            row("longest line", t.widths.longest());
        }
        if self.columns.longest_chars {
            row("longest line (chars)", t.lines.longest());
        }
        for (i, n) in c.by_length.iter().enumerate() {
            row(&format!("{}-byte sequences", i + 1), *n);
        }
        for k in ErrorKind::ALL {
            row(k.as_str(), c.kind(k));
        }
        s.pop();
        out.line(&s)
    }

    // ----- --check -----

    fn run_check(
        &self,
        inputs: &mut Inputs,
        out: &mut Output,
        diag: &mut Diag,
    ) -> Result<(), ToolError> {
        self.each_input(inputs, out, diag, |input, _, out, diag| {
            let Some(source) = input.open_or_report_as(diag, |e| requote(e, input)) else {
                return Ok(());
            };
            let name = input.name();
            let mut tee = Tee::new(self.reader(source), detect::SNIFF_LEN);
            match self.first_error(&mut tee, &name) {
                Ok(None) => {}
                Ok(Some(line)) => {
                    diag.record(Status::False);
                    if self.json {
                        out.line(&line)?;
                    } else {
                        out.flush()?;
                        diag.raw_line(&line);
                    }
                    let (kept, complete) = tee.kept();
                    let bom = detect::bom_note(&name, kept, "utf8-count --from");
                    if let Some(note) = bom.filter(|_| self.hints) {
                        diag.line(format_args!("{note}"));
                    } else if let Some(enc) = detect::hint(kept, complete).filter(|_| self.hints) {
                        let try_with = "utf8-repair --from";
                        diag.line(format_args!(
                            "{}",
                            detect::hint_message(&name, enc, try_with)
                        ));
                    }
                }
                Err(e) => diag.error(&ToolError::input(quoted(input), &e)),
            }
            Ok(())
        })?;
        Ok(())
    }

    /// The report of the first error of a stream, formatted, or `None` when it is valid.
    fn first_error(&self, reader: impl Read, name: &str) -> io::Result<Option<String>> {
        let mut chunks = Chunks::new(reader);
        let mut scanner = Scanner::new(self.engine);
        let mut tracker = LineTracker::new();
        let mut found = None;
        let format = |e: &utf8_codec::stream::StreamError, after: &[u8], t: &LineTracker| {
            let r = ErrorReport::new(name, e, after, t.line(), t.column());
            if self.json {
                r.json()
            } else {
                r.text(PROGRAM, self.color_err)
            }
        };
        while let Some(chunk) = chunks.next_chunk()? {
            scanner.feed(chunk.data, |ev| {
                if found.is_some() {
                    return;
                }
                match ev {
                    Event::Str(s) => tracker.text(s.as_bytes()),
                    Event::Char(c) => tracker.char(c),
                    Event::Error(e) => {
                        let after = chunk.after(e.offset() + e.len() as u64);
                        found = Some(format(&e, after, &tracker));
                    }
                }
            });
            if found.is_some() {
                return Ok(found);
            }
        }
        scanner.finish(|ev| {
            if let Event::Error(e) = ev {
                found = Some(format(&e, &[], &tracker));
            }
        });
        Ok(found)
    }
}

/// What a `stat` of each known input found.
#[derive(Debug, Default)]
pub(super) struct Sizes {
    /// The sum of the regular files' sizes.
    sum: u64,
    /// Whether some input is not a regular file (standard input, a directory, a device).
    irregular: bool,
    /// Per input, in order: the size of a regular file smaller than
    /// [`KNOWN_SIZE_MAX`], which is counted without another `stat`; `None` for any other
    /// input (and for every input when no `stat` pass ran).
    pub small: Vec<Option<u64>>,
}

/// The sizes of `items` ([`Sizes`]); missing files count for nothing.
fn sizes(items: &[Item]) -> Sizes {
    let mut s = Sizes {
        small: Vec::with_capacity(items.len()),
        ..Sizes::default()
    };
    for item in items {
        let mut small = None;
        match item {
            Item::Input(Input::Path(p)) => match stat_near(p) {
                Ok(Kind::Regular(len)) => {
                    s.sum = s.sum.saturating_add(len);
                    small = (len < KNOWN_SIZE_MAX).then_some(len);
                }
                Ok(Kind::Other) => s.irregular = true,
                Err(_) => {}
            },
            Item::Input(Input::Stdin { .. }) => s.irregular = true,
            Item::Invalid(_) => {}
        }
        s.small.push(small);
    }
    s
}
