//! One input stream to one output stream: UTF-8 repaired through the codec's [`Repairer`],
//! or another encoding transcoded through encoding_rs, in fixed-size reads, with every
//! error reported as it is repaired.
//!
//! Memory is bounded: reads are [`CHUNK_SIZE`] bytes, and the repaired text is written out
//! whenever it reaches [`FLUSH_AT`] bytes (one event adds at most one chunk, or one
//! substitute per byte of an error).

use std::io::{self, Cursor, Read, Write};

use encoding_rs::{DecoderResult, Encoding, UTF_8};
use utf8_codec::stream::Event;
use utf8_codec::{RepairOptions, Repairer};

use super::reporter::Reporter;
use super::unmojibake::Unmojibake;
use crate::detect::{self, Evidence, Guess, Look, Tee};
use crate::engine::Engine;
use crate::engine::Scanner;
use crate::input::{CHUNK_SIZE, Chunks, ReadBuf};
use crate::labels::Charset;
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
    /// Whether an input that looks like UTF-16 without a byte order mark or like a binary
    /// file ([`Look::Utf16`], [`Look::Binary`]) is refused ([`Failure::Refused`]) rather
    /// than repaired as UTF-8 with a warning: when the output replaces a file.
    pub refuse_suspects: bool,
}

/// What a stream is decoded from (`--from`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decoding {
    /// No `--from`: the first bytes decide ([`detect::look`]). A UTF-16 byte order mark
    /// means UTF-16 (converted), a UTF-32 one is refused, NUL bytes make the input suspect
    /// ([`Pipeline::refuse_suspects`]); anything else is UTF-8, repaired by the codec.
    Sniff,
    /// `--from utf-8`: UTF-8 repaired by the codec, whatever the first bytes look like.
    Utf8,
    /// Another encoding, transcoded by encoding_rs (a byte order mark overrides it).
    From(&'static Encoding),
    /// `--from auto`: chosen from the first [`detect::SNIFF_LEN`] bytes.
    Auto,
    /// ISO-8859-1 as iconv reads it: byte N is U+00NN.
    Latin1,
    /// US-ASCII as iconv reads it: each byte over 0x7F is an error.
    Ascii,
}

/// Why a stream stopped.
#[derive(Debug)]
pub(super) enum Failure {
    /// Reading the input failed.
    Input(io::Error),
    /// Writing the output (or the `--check --json` lines) failed.
    Output(io::Error),
    /// The input is not text this run may write out (a UTF-32 byte order mark; UTF-16
    /// without one or a binary file when [`Pipeline::refuse_suspects`]): why, and what to
    /// pass. Nothing was written.
    Refused(String),
}

/// What a stream held.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Findings {
    /// Errors found (maximal subparts, or malformed sequences of the source encoding).
    pub errors: u64,
    /// The legacy encoding UTF-8 input with errors seems to be in ([`detect::hint`]).
    pub hint: Option<&'static Encoding>,
    /// The encoding a byte order mark or `--from auto` chose, when it is not UTF-8: the
    /// input was converted.
    pub converted: Option<Guess>,
    /// What the input looked like when it was repaired as UTF-8 although it seems not to
    /// be text ([`Look::Utf16`] or [`Look::Binary`]): a warning is due.
    pub suspect: Option<Look>,
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
        let mut reporter = reporter;
        let report = reporter.as_deref().and_then(|r| r.fix_report(name));
        let mut fixer = Unmojibake::new(out, report);
        let tally = self.decode(reader, name, &mut fixer, reporter.as_deref_mut())?;
        let fixed = fixer.finish().map_err(Failure::Output)?;
        if let Some(r) = reporter {
            r.fixed(fixed);
        }
        Ok(tally)
    }

    /// [`Pipeline::run`] before the mojibake is fixed.
    fn decode(
        &self,
        mut reader: impl Read,
        name: &str,
        out: &mut dyn Write,
        mut reporter: Option<&mut Reporter>,
    ) -> Result<Findings, Failure> {
        match self.source {
            Decoding::From(enc) => self.transcode(reader, enc, name, out, reporter),
            Decoding::Utf8 => self.repair(reader, name, out, reporter),
            Decoding::Latin1 => self.bytewise(reader, false, name, out, reporter),
            Decoding::Ascii => self.bytewise(reader, true, name, out, reporter),
            Decoding::Sniff => {
                let (first, _) = detect::read_first(&mut reader).map_err(Failure::Input)?;
                let look = detect::look(&first);
                let reader = Cursor::new(first).chain(reader);
                match look {
                    Look::Bom(encoding) if encoding != UTF_8 => {
                        let guess = Guess {
                            encoding: encoding.into(),
                            evidence: Evidence::Bom,
                        };
                        self.convert(reader, guess, name, out, reporter)
                    }
                    Look::Text | Look::Bom(_) if self.hints => {
                        let mut tee = Tee::new(reader, detect::SNIFF_LEN);
                        let mut tally = self.repair(&mut tee, name, out, reporter)?;
                        if tally.errors > 0 {
                            let (kept, complete) = tee.kept();
                            tally.hint = detect::hint(kept, complete);
                        }
                        Ok(tally)
                    }
                    Look::Text | Look::Bom(_) => self.repair(reader, name, out, reporter),
                    _ => self.suspect(look, reader, name, out, reporter),
                }
            }
            Decoding::Auto => {
                let (prefix, complete) =
                    detect::read_prefix(&mut reader, detect::SNIFF_LEN).map_err(Failure::Input)?;
                let look = detect::look(&prefix);
                let guess = detect::guess(&prefix, complete);
                let reader = Cursor::new(prefix).chain(reader);
                if matches!(look, Look::Utf32Bom(_) | Look::Binary) {
                    return self.suspect(look, reader, name, out, reporter);
                }
                if guess.encoding != UTF_8 {
                    return self.convert(reader, guess, name, out, reporter);
                }
                if let Some(r) = reporter.as_deref_mut() {
                    r.decoded(name, guess);
                }
                self.repair(reader, name, out, reporter)
            }
        }
    }

    /// ISO-8859-1 (each byte its own code point) or, with `ascii`, US-ASCII (each byte over
    /// 0x7F one malformed sequence), as iconv decodes them.
    fn bytewise(
        &self,
        mut reader: impl Read,
        ascii: bool,
        name: &str,
        out: &mut dyn Write,
        mut reporter: Option<&mut Reporter>,
    ) -> Result<Findings, Failure> {
        let mut input = ReadBuf::new(CHUNK_SIZE);
        let mut text = String::with_capacity(FLUSH_AT + CHUNK_SIZE * 2);
        let (mut tracker, mut tracked) = (LineTracker::new(), 0usize);
        let mut tally = Findings::default();
        let mut base = 0u64;
        loop {
            let n = read_some(&mut reader, &mut input)?;
            if n == 0 {
                break;
            }
            let mut rest = &input[..n];
            while !rest.is_empty() {
                let run = rest.iter().position(|&b| b >= 0x80).unwrap_or(rest.len());
                // (Bytes under 0x80 are ASCII, which is UTF-8.)
                text.push_str(std::str::from_utf8(&rest[..run]).unwrap_or_default());
                let Some(&b) = rest.get(run) else { break };
                if !ascii {
                    text.push(char::from(b));
                } else {
                    tally.errors += 1;
                    if let Some(r) = reporter.as_deref_mut() {
                        tracker.text(&text.as_bytes()[tracked..]);
                        let offset = base + (n - rest.len() + run) as u64;
                        r.malformed(name, "US-ASCII", offset, &[b], &tracker);
                        tracker.error();
                    }
                    self.options.action.apply(&[b], &mut text);
                    tracked = text.len();
                    if reporter.as_deref().is_some_and(Reporter::stop) {
                        return Ok(tally);
                    }
                }
                rest = &rest[run + 1..];
            }
            base += n as u64;
            if text.len() >= FLUSH_AT {
                if let Some(r) = reporter.as_deref_mut() {
                    tracker.text(&text.as_bytes()[tracked..]);
                    r.flush();
                }
                out.write_all(text.as_bytes()).map_err(Failure::Output)?;
                (text, tracked) = (String::with_capacity(text.capacity()), 0);
            }
        }
        finish(reporter, || {
            out.write_all(text.as_bytes()).map_err(Failure::Output)
        })?;
        Ok(tally)
    }

    /// An input in `guess.encoding`, not UTF-8, converted (and said so in the report).
    fn convert(
        &self,
        reader: impl Read,
        guess: Guess,
        name: &str,
        out: &mut dyn Write,
        mut reporter: Option<&mut Reporter>,
    ) -> Result<Findings, Failure> {
        if let Some(r) = reporter.as_deref_mut() {
            r.decoded(name, guess);
        }
        let mut tally = match guess.encoding {
            Charset::Whatwg(enc) => self.transcode(reader, enc, name, out, reporter)?,
            Charset::Latin1 => self.bytewise(reader, false, name, out, reporter)?,
            Charset::Ascii => self.bytewise(reader, true, name, out, reporter)?,
        };
        tally.converted = Some(guess);
        Ok(tally)
    }

    /// An input that seems not to be UTF-8 text (`look`): refused, or repaired as UTF-8
    /// with [`Findings::suspect`] set. A UTF-32 byte order mark is always refused.
    fn suspect(
        &self,
        look: Look,
        reader: impl Read,
        name: &str,
        out: &mut dyn Write,
        reporter: Option<&mut Reporter>,
    ) -> Result<Findings, Failure> {
        if let Look::Utf32Bom(_) = look {
            return Err(Failure::Refused(suspect_message(look, true)));
        }
        if self.refuse_suspects {
            return Err(Failure::Refused(suspect_message(look, true)));
        }
        let mut tally = self.repair(reader, name, out, reporter)?;
        tally.suspect = Some(look);
        Ok(tally)
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
        finish(reporter, || st.write(out))?;
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
            let n = read_some(&mut reader, &mut input)?;
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
                            r.malformed(name, enc.name(), offset, &bytes, &tracker);
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
        finish(reporter, || {
            out.write_all(text.as_bytes()).map_err(Failure::Output)
        })?;
        Ok(tally)
    }
}

/// The end of one input: the reports still held, then the rest of its text (`write`), then
/// whether writing the reports failed.
fn finish(
    mut reporter: Option<&mut Reporter>,
    write: impl FnOnce() -> Result<(), Failure>,
) -> Result<(), Failure> {
    if let Some(r) = reporter.as_deref_mut() {
        r.flush();
    }
    write()?;
    if let Some(r) = reporter {
        r.failed().map_err(Failure::Output)?;
    }
    Ok(())
}

/// One read of `reader` into `buf`, again when interrupted.
fn read_some(reader: &mut impl Read, buf: &mut [u8]) -> Result<usize, Failure> {
    loop {
        match reader.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Failure::Input(e)),
        }
    }
}

/// What is wrong with an input that looks like `look` (UTF-16 without a byte order mark,
/// a binary file, UTF-32), and what to pass: why it was `refused`, or (not refused) the
/// warning that it was repaired as UTF-8 anyway. The program's name and the input's go
/// before it.
///
/// ```text
/// looks like UTF-16LE without a byte order mark (NUL bytes in most odd positions); not
/// changed: pass --from utf-16le to convert it to UTF-8, or --from utf-8 to repair its
/// bytes as UTF-8
/// ```
pub(super) fn suspect_message(look: Look, refused: bool) -> String {
    let (what, label) = match look {
        Look::Utf32Bom(name) => {
            return format!(
                "starts with a {name} byte order mark, and UTF-32 is not decoded here; not \
                 changed: convert it first (iconv -f {name} -t UTF-8), or pass --from utf-8 \
                 to repair its bytes as UTF-8"
            );
        }
        Look::Utf16(enc) => {
            let (name, parity) = if enc == encoding_rs::UTF_16LE {
                ("UTF-16LE", "odd")
            } else {
                ("UTF-16BE", "even")
            };
            (
                format!(
                    "looks like {name} without a byte order mark (NUL bytes in most {parity} \
                     positions)"
                ),
                Some(name.to_ascii_lowercase()),
            )
        }
        _ => (
            format!(
                "looks like a binary file (a NUL byte in its first {} KiB)",
                detect::LOOK_LEN / 1024
            ),
            None,
        ),
    };
    match (refused, label) {
        (true, Some(l)) => format!(
            "{what}; not changed: pass --from {l} to convert it to UTF-8, or --from utf-8 to \
             repair its bytes as UTF-8"
        ),
        (true, None) => {
            format!("{what}; not changed: pass --from utf-8 to repair its bytes as UTF-8")
        }
        (false, Some(l)) => {
            format!("{what}; repaired as UTF-8 anyway: pass --from {l} to convert it")
        }
        (false, None) => format!("{what}; repaired as UTF-8 anyway"),
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
