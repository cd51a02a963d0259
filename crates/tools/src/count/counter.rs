//! Counting one input as `utf8-count` is configured to ([`Counter`]): its bytes as they are
//! (a regular file mapped, or split across threads when large), or the text another
//! encoding decodes to.

use std::io::{self, Read};

use super::hex::HexReader;
use super::tally::{self, Mode, Tally};
#[cfg(doc)]
use crate::input::Input;
use crate::input::Source;
use crate::transcode::{FromArg, Reading, Transcoder, sniff};

/// The name in diagnostics and reports.
pub(super) const PROGRAM: &str = "utf8-count";

/// Files this large are split across all cores by default.
const AUTO_PARALLEL_MIN: u64 = 32 << 20;
/// Smallest part when splitting by default, and with an explicit `--threads`.
const AUTO_PART_MIN: u64 = 8 << 20;
const EXPLICIT_PART_MIN: u64 = 4 << 10;
/// Regular files smaller than this are never split nor mapped: the size a `stat` found
/// just before opening one is all counting it needs ([`Input::open_known`]).
pub(super) const KNOWN_SIZE_MAX: u64 = 2 * EXPLICIT_PART_MIN;

/// The counts of the text read from `reader` as `reading` says: past a UTF-8 byte order
/// mark, or decoded from another encoding (each malformed sequence an error, not a
/// character; the bytes those of the file).
fn decoded(reading: Reading, mut reader: impl Read, mode: Mode) -> io::Result<Tally> {
    let mut t = match reading {
        Reading::Bytes { skip, .. } => {
            io::copy(&mut (&mut reader).take(skip), &mut io::sink())?;
            let mut t = tally::count_reader(reader, mode, None)?;
            t.counts.bytes += skip;
            t
        }
        Reading::Decoded(g) => {
            let mut text = Transcoder::new(reader, g.encoding, Reading::bom_len(g), None);
            let mut t = tally::count_reader(&mut text, mode, None)?;
            // Each malformed sequence was decoded as one U+FFFD.
            t.counts.chars -= text.errors();
            if mode.lengths {
                t.counts.by_length[2] -= text.errors();
            }
            t.counts.errors += text.errors();
            t.counts.bytes = text.bytes_read();
            t
        }
    };
    t.encoding = reading.guess();
    Ok(t)
}

/// What counting one input needs of the configuration ([`Config::counter`]): plain values,
/// shared by the threads that count many files at once (`many.rs`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Counter {
    pub(super) from: FromArg,
    pub(super) hex: bool,
    pub(super) threads: Option<usize>,
    pub(super) columns: super::config::Columns,
    pub(super) json: bool,
    pub(super) histogram: bool,
}

impl Counter {
    /// The reader of an opened input: the bytes, or the bytes written in hex.
    pub(super) fn reader(&self, source: Source) -> Box<dyn Read> {
        if self.hex {
            Box::new(HexReader::new(source))
        } else {
            Box::new(source)
        }
    }

    pub(super) fn count_source(
        &self,
        mut source: Source,
        mode: Mode,
        name: &str,
    ) -> io::Result<Tally> {
        if self.from != FromArg::Bytes {
            let (reading, kept, whole) = match source.regular_file() {
                Some((file, len)) if len >= crate::mmap::MAP_MIN => {
                    sniff(self.from, &mut io::empty(), Some(file))?
                }
                _ => sniff(self.from, &mut source, None)?,
            };
            let rest = if whole { 0 } else { u64::MAX };
            match reading {
                Reading::Bytes { skip: 0, guess } if kept.held().is_empty() => {
                    let mut t = self.count_bytes(source, mode, name)?;
                    t.encoding = guess;
                    return Ok(t);
                }
                _ => return decoded(reading, kept.chain(source.take(rest)), mode),
            }
        }
        self.count_bytes(source, mode, name)
    }

    /// The counts of the bytes of `source`, as `wc` counts them.
    fn count_bytes(&self, source: Source, mode: Mode, name: &str) -> io::Result<Tally> {
        // `-c` alone: a regular file's size answers, as GNU wc's (a size of 0 may be a file
        // that only reading measures, as in /proc).
        if self.bytes_only()
            && !self.hex
            && let Some((_, len)) = source.regular_file()
            && len > 0
        {
            let mut t = Tally::default();
            t.counts.bytes = len;
            return Ok(t);
        }
        #[cfg(unix)]
        if !self.hex
            && !mode.widths
            && let Some((file, len)) = source.regular_file()
        {
            let parts = self.parts(len);
            if parts > 1 {
                return tally::count_parallel(file, (PROGRAM, name), len, parts, mode);
            }
            // Large files are mapped (no copy through read(2)), to their end as it is then.
            if len >= crate::mmap::MAP_MIN {
                crate::mmap::on_shrink_say(PROGRAM, name);
                return tally::count_mapped(file, 0, u64::MAX, mode, None);
            }
        }
        if self.hex {
            tally::count_reader(HexReader::new(source), mode, None)
        } else {
            tally::count_reader(source, mode, None)
        }
    }

    /// Whether the byte count is all that is shown (`-c` alone, no `--json`, no
    /// `--histogram`).
    fn bytes_only(&self) -> bool {
        self.columns.bytes && self.columns.count() == 1 && !self.json && !self.histogram
    }

    /// How many parts to count a regular file of `len` bytes in.
    fn parts(&self, len: u64) -> usize {
        let (threads, min_part) = match self.threads {
            Some(n) => (n, EXPLICIT_PART_MIN),
            None if len >= AUTO_PARALLEL_MIN => (
                std::thread::available_parallelism().map_or(1, |n| n.get()),
                AUTO_PART_MIN,
            ),
            None => (1, AUTO_PART_MIN),
        };
        let by_size = usize::try_from(len / min_part).unwrap_or(usize::MAX).max(1);
        threads.min(by_size)
    }
}
