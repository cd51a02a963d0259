//! One input stream to one output stream: UTF-8 repaired through the codec's [`Repairer`],
//! or another encoding transcoded through encoding_rs, in fixed-size reads, with every
//! error reported as it is repaired.
//!
//! Memory is bounded: reads are [`CHUNK_SIZE`] bytes, and the repaired text is written out
//! whenever it reaches [`FLUSH_AT`] bytes (one event adds at most one chunk, or one
//! substitute per byte of an error).

use std::io::{self, Cursor, Read, Write};

use encoding_rs::{DecoderResult, Encoding};
use utf8_codec::stream::Event;
use utf8_codec::{RepairOptions, Repairer};

use super::reporter::Reporter;
use super::unmojibake::Unmojibake;
use crate::detect::{self, Tee};
use crate::engine::Engine;
use crate::engine::Scanner;
use crate::input::{CHUNK_SIZE, Chunks, ReadBuf};
use crate::position::LineTracker;

/// Repaired text is written out when it reaches this many bytes.
const FLUSH_AT: usize = 64 * 1024;

/// How one stream is turned into UTF-8.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pipeline<'a> {
    /// Practice and action for ill-formed UTF-8.
    pub options: RepairOptions<'a>,
    /// The validator that finds the errors.
    pub engine: Engine,
    /// Remove a UTF-8 byte order mark at the start.
    pub strip_bom: bool,
    /// What the input is decoded from.
    pub source: Decoding,
    /// Whether to look for a legacy encoding in UTF-8 input with errors (a hint).
    pub hints: bool,
    /// `--fix-mojibake`: undo UTF-8 decoded as windows-1252 or Latin-1 in the output.
    pub fix_mojibake: bool,
}

/// What a stream is decoded from (`--from`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decoding {
    /// UTF-8, repaired by the codec.
    Utf8,
    /// Another encoding, transcoded by encoding_rs (a byte order mark overrides it).
    From(&'static Encoding),
    /// `--from auto`: chosen from the first [`detect::SNIFF_LEN`] bytes.
    Auto,
}

/// Why a stream stopped.
#[derive(Debug)]
pub(super) enum Failure {
    /// Reading the input failed.
    Input(io::Error),
    /// Writing the output (or the `--check --json` lines) failed.
    Output(io::Error),
}

/// What a stream held.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Findings {
    /// Errors found (maximal subparts, or malformed sequences of the source encoding).
    pub errors: u64,
    /// The legacy encoding UTF-8 input with errors seems to be in ([`detect::hint`]).
    pub hint: Option<&'static Encoding>,
}

impl Pipeline<'_> {
    /// Converts `reader` to `out`, reporting errors to `reporter`; stops early when the
    /// reporter says so (`--check`).
    pub fn run(
        &self,
        reader: impl Read,
        name: &str,
        out: &mut dyn Write,
        reporter: Option<&mut Reporter>,
    ) -> Result<Findings, Failure> {
        if !self.fix_mojibake {
            return self.decode(reader, name, out, reporter);
        }
        let report = reporter.as_deref().and_then(|r| r.fix_report(name));
        let mut fixer = Unmojibake::new(out, report);
        let tally = self.decode(reader, name, &mut fixer, reporter)?;
        fixer.finish().map_err(Failure::Output)?;
        Ok(tally)
    }

    /// [`Pipeline::run`] before the mojibake is fixed.
    fn decode(
        &self,
        reader: impl Read,
        name: &str,
        out: &mut dyn Write,
        reporter: Option<&mut Reporter>,
    ) -> Result<Findings, Failure> {
        match self.source {
            Decoding::From(enc) => self.transcode(reader, enc, name, out, reporter),
            Decoding::Utf8 if self.hints => {
                let mut tee = Tee::new(reader, detect::SNIFF_LEN);
                let mut tally = self.repair(&mut tee, name, out, reporter)?;
                if tally.errors > 0 {
                    let (kept, complete) = tee.kept();
                    tally.hint = detect::hint(kept, complete);
                }
                Ok(tally)
            }
            Decoding::Utf8 => self.repair(reader, name, out, reporter),
            Decoding::Auto => {
                let mut reader = reader;
                let (prefix, complete) =
                    detect::read_prefix(&mut reader, detect::SNIFF_LEN).map_err(Failure::Input)?;
                let guess = detect::guess(&prefix, complete);
                let mut reporter = reporter;
                if let Some(r) = reporter.as_deref_mut() {
                    r.decoded(name, guess);
                }
                let reader = Cursor::new(prefix).chain(reader);
                if guess.encoding == encoding_rs::UTF_8 {
                    self.repair(reader, name, out, reporter)
                } else {
                    self.transcode(reader, guess.encoding, name, out, reporter)
                }
            }
        }
    }

    fn repair(
        &self,
        reader: impl Read,
        name: &str,
        out: &mut dyn Write,
        mut reporter: Option<&mut Reporter>,
    ) -> Result<Findings, Failure> {
        let mut chunks = Chunks::new(reader);
        let mut scanner = Scanner::new(self.engine);
        let mut st = State {
            repairer: Repairer::new(self.options),
            // Grows with the chunks (to at most FLUSH_AT + one chunk).
            buf: String::new(),
            tracker: LineTracker::new(),
            tally: Findings::default(),
            at_start: true,
            strip_bom: self.strip_bom,
            track: reporter.is_some(),
            stop: false,
            failed: None,
        };
        while let Some(chunk) = chunks.next_chunk().map_err(Failure::Input)? {
            scanner.feed(chunk.data, |ev| {
                st.event(ev, |o| chunk.after(o), name, &mut reporter, out);
            });
            // The chunk's reports now, not at the end (a slow pipe shows its errors as they
            // come), and before its text: `--fix-mojibake` reports as the text goes out.
            if let Some(r) = reporter.as_deref_mut() {
                r.flush();
            }
            st.write(out)?;
            if st.stop {
                return Ok(st.tally);
            }
        }
        scanner.finish(|ev| st.event(ev, |_| &[], name, &mut reporter, out));
        st.repairer.finish(&mut st.buf);
        if let Some(r) = reporter.as_deref_mut() {
            r.flush();
        }
        st.write(out)?;
        if let Some(r) = reporter {
            r.failed().map_err(Failure::Output)?;
        }
        Ok(st.tally)
    }

    fn transcode(
        &self,
        mut reader: impl Read,
        enc: &'static Encoding,
        name: &str,
        out: &mut dyn Write,
        mut reporter: Option<&mut Reporter>,
    ) -> Result<Findings, Failure> {
        let mut decoder = enc.new_decoder();
        let mut input = ReadBuf::new(CHUNK_SIZE);
        // A few bytes of the previous read: a malformed sequence may start there.
        let mut prev = [0u8; 8];
        let mut prev_len = 0usize;
        let mut text = String::with_capacity(FLUSH_AT + 64);
        let mut tracked = 0usize;
        let mut tracker = LineTracker::new();
        let mut tally = Findings::default();
        let mut base = 0u64;
        loop {
            let n = loop {
                match reader.read(&mut input) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(Failure::Input(e)),
                }
            };
            let last = n == 0;
            let mut pos = 0usize;
            loop {
                let (result, read) =
                    decoder.decode_to_string_without_replacement(&input[pos..n], &mut text, last);
                pos += read;
                match result {
                    DecoderResult::InputEmpty => break,
                    DecoderResult::OutputFull => {
                        if reporter.is_some() {
                            tracker.text(&text.as_bytes()[tracked..]);
                        }
                        tracked = 0;
                        out.write_all(text.as_bytes()).map_err(Failure::Output)?;
                        text.clear();
                    }
                    DecoderResult::Malformed(bad, extra) => {
                        let (bad, extra) = (usize::from(bad), usize::from(extra));
                        // The sequence ends `extra` bytes before `pos`, which may be in an
                        // earlier read (ISO-2022-JP's `ESC $` then the end: fuzz finding,
                        // from_labels): `back` bytes before this read's start.
                        let back = extra.saturating_sub(pos);
                        let end = pos.saturating_sub(extra);
                        let mut bytes = Vec::with_capacity(bad);
                        if end >= bad {
                            bytes.extend_from_slice(&input[end - bad..end]);
                        } else {
                            let prev_end = prev_len.saturating_sub(back);
                            let from_prev = (bad - end).min(prev_end);
                            bytes.extend_from_slice(&prev[prev_end - from_prev..prev_end]);
                            bytes.extend_from_slice(&input[..end]);
                        }
                        tally.errors += 1;
                        if let Some(r) = reporter.as_deref_mut() {
                            tracker.text(&text.as_bytes()[tracked..]);
                            let offset =
                                (base + end as u64).saturating_sub((back + bytes.len()) as u64);
                            r.malformed(name, enc, offset, &bytes, &tracker);
                            tracker.error();
                        }
                        // The action as the codec applies it (practices cut UTF-8 only).
                        self.options.action.apply(&bytes, &mut text);
                        tracked = text.len();
                        if text.len() >= FLUSH_AT {
                            if let Some(r) = reporter.as_deref_mut() {
                                r.flush();
                            }
                            out.write_all(text.as_bytes()).map_err(Failure::Output)?;
                            text.clear();
                            tracked = 0;
                        }
                        if reporter.as_deref().is_some_and(Reporter::stop) {
                            return Ok(tally);
                        }
                    }
                }
            }
            if last {
                break;
            }
            // Keep the last bytes of this read.
            let keep = n.min(prev.len());
            if keep == prev.len() {
                prev.copy_from_slice(&input[n - keep..n]);
                prev_len = keep;
            } else {
                let total = (prev_len + keep).min(prev.len());
                let mut merged = [0u8; 8];
                let from_old = total - keep;
                merged[..from_old].copy_from_slice(&prev[prev_len - from_old..prev_len]);
                merged[from_old..total].copy_from_slice(&input[..keep]);
                prev = merged;
                prev_len = total;
            }
            base += n as u64;
            if let Some(r) = reporter.as_deref_mut() {
                r.flush();
            }
        }
        if let Some(r) = reporter.as_deref_mut() {
            r.flush();
        }
        out.write_all(text.as_bytes()).map_err(Failure::Output)?;
        if let Some(r) = reporter {
            r.failed().map_err(Failure::Output)?;
        }
        Ok(tally)
    }
}

/// The state of one UTF-8 stream while the scanner's events arrive.
struct State<'r> {
    repairer: Repairer<'r>,
    buf: String,
    tracker: LineTracker,
    tally: Findings,
    at_start: bool,
    strip_bom: bool,
    /// Whether lines and columns are needed.
    track: bool,
    stop: bool,
    failed: Option<io::Error>,
}

impl State<'_> {
    fn event<'a>(
        &mut self,
        ev: Event<'_>,
        after: impl Fn(u64) -> &'a [u8],
        name: &str,
        reporter: &mut Option<&mut Reporter>,
        out: &mut dyn Write,
    ) {
        if self.stop || self.failed.is_some() {
            return;
        }
        let at_start = std::mem::replace(&mut self.at_start, false);
        match ev {
            Event::Str(s) => {
                let s = match s.strip_prefix('\u{FEFF}') {
                    Some(rest) if at_start && self.strip_bom => rest,
                    _ => s,
                };
                if self.track {
                    self.tracker.text(s.as_bytes());
                }
                self.repairer.push(Event::Str(s), &mut self.buf);
            }
            Event::Char(c) => {
                if at_start && self.strip_bom && c == '\u{FEFF}' {
                    return;
                }
                if self.track {
                    self.tracker.char(c);
                }
                self.repairer.push(Event::Char(c), &mut self.buf);
            }
            Event::Error(e) => {
                self.tally.errors += 1;
                if let Some(r) = reporter.as_deref_mut() {
                    let follow = after(e.offset() + e.len() as u64);
                    r.error(name, &e, follow, &self.tracker);
                    self.stop = r.stop();
                }
                self.tracker.error();
                self.repairer.push_error(e, &mut self.buf);
            }
        }
        if self.buf.len() >= FLUSH_AT {
            // Reports first: the text's own (`--fix-mojibake`) follow them.
            if let Some(r) = reporter.as_deref_mut() {
                r.flush();
            }
            if let Err(e) = out.write_all(self.buf.as_bytes()) {
                self.failed = Some(e);
            }
            self.buf.clear();
        }
    }

    /// Writes the text held and reports an earlier write failure.
    fn write(&mut self, out: &mut dyn Write) -> Result<(), Failure> {
        if let Some(e) = self.failed.take() {
            return Err(Failure::Output(e));
        }
        if !self.buf.is_empty() {
            out.write_all(self.buf.as_bytes())
                .map_err(Failure::Output)?;
            self.buf.clear();
        }
        Ok(())
    }
}
