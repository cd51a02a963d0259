//! Counting one stream (or one part of it), in bounded memory, with any engine.

use std::io::{self, Read};

use utf8_codec::stream::{Event, StreamError};
use utf8_codec::{Counter, Counts, ErrorKind, WordCounter, Words};

use crate::detect::Guess;
use crate::engine::Engine;
use crate::engine::Scanner;
use crate::input::{CHUNK_SIZE, ReadBuf};
use crate::position::char_count;

use super::width::LineWidths;

/// Line lengths (in characters, each error counting one) of a stream or of a part of it,
/// kept so that parts counted apart can be joined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineStats {
    /// Length of the first line (meaningful once `newline` is true).
    first: u64,
    /// Whether a newline was seen.
    newline: bool,
    /// Longest line ended by a newline.
    max: u64,
    /// Length of the current (last) line so far.
    current: u64,
}

impl LineStats {
    /// Adds `n` characters to the current line.
    fn extend(&mut self, n: u64) {
        self.current += n;
    }

    /// Ends the current line.
    fn newline(&mut self) {
        if !self.newline {
            self.first = self.current;
            self.newline = true;
        }
        self.max = self.max.max(self.current);
        self.current = 0;
    }

    /// Adds well-formed text.
    fn text(&mut self, s: &[u8]) {
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', s) {
            self.extend(char_count(&s[start..nl]));
            self.newline();
            start = nl + 1;
        }
        self.extend(char_count(&s[start..]));
    }

    /// The longest line, the last one included even without a final newline.
    pub fn longest(&self) -> u64 {
        self.max.max(self.current)
    }

    /// Joins the stats of the part that follows.
    pub fn join(&mut self, next: &LineStats) {
        if !next.newline {
            self.current += next.current;
            return;
        }
        if !self.newline {
            self.first = self.current + next.first;
            self.newline = true;
        }
        self.max = self.max.max(self.current + next.first).max(next.max);
        self.current = next.current;
    }
}

/// The counts of one input, or of one part of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Bytes, characters, lines, sequence lengths, errors by kind.
    pub counts: Counts,
    /// Words, when asked for (`-w`, the default columns, `--json`, `--histogram`).
    pub words: Words,
    /// Line lengths in code points, when asked for (`--max-line-chars`).
    pub lines: LineStats,
    /// Line display widths, when asked for (`-L`; never measured on a file split in parts).
    pub widths: LineWidths,
    /// The encoding `--from` decided for the input, and why.
    pub encoding: Option<Guess>,
}

impl Tally {
    /// Adds the tally of the part that follows (or of another input, for totals).
    pub fn join(&mut self, next: &Tally) {
        self.counts += next.counts;
        // A word cut by the boundary counts once.
        self.words += next.words;
        self.lines.join(&next.lines);
        // Widths depend on the column a part starts at: files are not split for them.
        self.widths = LineWidths::widest(&self.widths, &next.widths);
    }

    /// Adds the tally of another input (for totals): line lengths are not joined, the
    /// longest line is the longest of either.
    pub fn add_input(&mut self, other: &Tally) {
        self.counts += other.counts;
        self.words.add_separate(&other.words);
        let longest = self.lines.longest().max(other.lines.longest());
        self.lines = LineStats {
            max: longest,
            ..LineStats::default()
        };
        self.widths = LineWidths::widest(&self.widths, &other.widths);
    }

    fn error(&mut self, e: &StreamError) {
        self.counts.bytes += e.len() as u64;
        self.counts.errors += 1;
        self.counts.by_kind[e.kind().index()] += 1;
        self.lines.extend(1);
    }

    fn valid(&mut self, s: &str, mode: Mode) {
        self.counts += utf8_codec::count(s.as_bytes());
        if mode.line_stats {
            self.lines.text(s.as_bytes());
        }
        if mode.widths {
            self.widths.text(s);
        }
    }

    /// The final error of a part that ends at a unit boundary inside the whole input is
    /// `truncated` (or as classified by the byte after it), not `unexpected-end`.
    fn reclassify(&mut self, e: &StreamError, next_byte: Option<u8>) {
        let Some(next) = next_byte else { return };
        if e.kind() != ErrorKind::UnexpectedEnd {
            return;
        }
        let kind = ErrorKind::of_prefix(e.bytes(), next);
        self.counts.by_kind[ErrorKind::UnexpectedEnd.index()] -= 1;
        self.counts.by_kind[kind.index()] += 1;
    }
}

/// How to count.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mode {
    pub engine: Engine,
    /// Whether line lengths in code points are needed (`--max-line-chars`).
    pub line_stats: bool,
    /// Whether line display widths are needed (`-L`).
    pub widths: bool,
    /// Whether words are needed.
    pub words: bool,
    /// Whether anything but words is needed (`-w` alone reads for words only).
    pub counts: bool,
    /// Whether sequences by length are needed (`--histogram`); the codec counts less without.
    pub lengths: bool,
}

/// Counts everything `reader` yields. `next_byte` is the byte that follows in the whole
/// input when `reader` is one part of it (it never continues the last unit of the part).
pub(crate) fn count_reader<R: Read>(
    mut reader: R,
    mode: Mode,
    next_byte: Option<u8>,
) -> io::Result<Tally> {
    // One buffer per thread, kept between files: over many small files, zeroing a new
    // buffer for each would cost more than reading it. Taken out while in use, so a
    // reader that itself counts (none does today) gets a buffer of its own.
    thread_local! {
        static BUF: std::cell::Cell<Option<ReadBuf>> = const { std::cell::Cell::new(None) };
    }
    let mut buf = BUF
        .with(|b| b.take())
        .unwrap_or_else(|| ReadBuf::new(CHUNK_SIZE));
    let mut counting = Counting::new(mode);
    let result = loop {
        match reader.read(&mut buf) {
            Ok(0) => break Ok(()),
            Ok(n) => counting.update(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => break Err(e),
        }
    };
    BUF.with(|b| b.set(Some(buf)));
    result.map(|()| counting.finish(next_byte))
}

/// Counts `file[start..end]` through mapped windows (no copy through `read`), as
/// [`count_reader`] counts a reader.
pub(crate) fn count_mapped(
    file: &std::fs::File,
    start: u64,
    end: u64,
    mode: Mode,
    next_byte: Option<u8>,
) -> io::Result<Tally> {
    let mut counting = Counting::new(mode);
    // Pieces that stay in the cache for the passes after the first; the codec's counter
    // alone makes one pass and gets each window whole (the kernels prefetch farther ahead
    // in an input that large).
    let piece = if counting.fast && !mode.words {
        crate::mmap::WINDOW
    } else {
        CHUNK_SIZE
    };
    crate::mmap::read_mapped(file, start, end, piece, |piece| {
        counting.update(piece);
        Ok(())
    })?;
    Ok(counting.finish(next_byte))
}

/// The counting of one stream, fed a chunk at a time.
struct Counting {
    mode: Mode,
    tally: Tally,
    /// The scalar engine without line lengths: the codec's counter alone.
    fast: bool,
    counter: Counter,
    scanner: Scanner,
    words: WordCounter,
}

impl Counting {
    fn new(mode: Mode) -> Counting {
        Counting {
            mode,
            tally: Tally::default(),
            fast: mode.engine == Engine::Scalar && !mode.line_stats && !mode.widths,
            counter: if mode.lengths {
                Counter::new()
            } else {
                Counter::without_lengths()
            },
            scanner: Scanner::new(mode.engine),
            words: WordCounter::new(),
        }
    }

    fn update(&mut self, chunk: &[u8]) {
        let mode = self.mode;
        if mode.words {
            // The chunk is still in the cache for the pass below.
            self.words.update(chunk);
        }
        if !mode.counts {
            return;
        }
        if self.fast {
            self.counter.update(chunk);
        } else {
            let tally = &mut self.tally;
            self.scanner.feed(chunk, |ev| match ev {
                Event::Str(s) => tally.valid(s, mode),
                Event::Char(c) => tally.valid(c.encode_utf8(&mut [0; 4]), mode),
                Event::Error(e) => tally.error(&e),
            });
        }
    }

    fn finish(self, next_byte: Option<u8>) -> Tally {
        let Counting {
            mode,
            mut tally,
            fast,
            mut counter,
            mut scanner,
            mut words,
        } = self;
        let mut last = None;
        if !mode.counts {
            // Words only: nothing else was counted.
        } else if fast {
            tally.counts = counter.finish_with(|e| last = Some(*e));
        } else {
            scanner.finish(|ev| {
                if let Event::Error(e) = ev {
                    tally.error(&e);
                    last = Some(e);
                }
            });
        }
        if let Some(e) = last {
            tally.reclassify(&e, next_byte);
        }
        tally.words = words.finish();
        tally
    }
}

/// Splits a regular file into `parts` ranges starting at unit boundaries and counts them
/// on as many threads (`program` and `name` for the message of a file that shrinks).
#[cfg(unix)]
pub(crate) fn count_parallel(
    file: &std::fs::File,
    (program, name): (&str, &str),
    len: u64,
    parts: usize,
    mode: Mode,
) -> io::Result<Tally> {
    use std::os::unix::fs::FileExt;

    let mut cuts = vec![0u64];
    for i in 1..parts as u64 {
        let p = (len as u128 * i as u128 / parts as u128) as u64;
        let q = sync_point(file, p, len)?;
        if q > *cuts.last().unwrap_or(&0) && q < len {
            cuts.push(q);
        }
    }
    cuts.push(len);
    let mut next_bytes = Vec::with_capacity(cuts.len());
    for &end in &cuts[1..] {
        next_bytes.push(if end < len {
            let mut b = [0u8; 1];
            file.read_exact_at(&mut b, end)?;
            Some(b[0])
        } else {
            None
        });
    }
    let results: Vec<io::Result<Tally>> = std::thread::scope(|s| {
        let handles: Vec<_> = cuts
            .windows(2)
            .zip(&next_bytes)
            .map(|(w, &next)| {
                let (start, end) = (w[0], w[1]);
                s.spawn(move || {
                    if end - start >= crate::mmap::MAP_MIN {
                        crate::mmap::on_shrink_say(program, name);
                        count_mapped(file, start, end, mode, next)
                    } else {
                        count_reader(
                            RangeReader {
                                file,
                                pos: start,
                                end,
                            },
                            mode,
                            next,
                        )
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(io::Error::other("a counting thread panicked")))
            })
            .collect()
    });
    let mut total = Tally::default();
    for r in results {
        total.join(&r?);
    }
    Ok(total)
}

/// The first unit boundary at or after `p`: a byte that is not a continuation byte starts a
/// unit (every unit's later bytes are continuation bytes), and so does the byte after three
/// continuation bytes (no unit has a lead followed by more than three).
#[cfg(unix)]
fn sync_point(file: &std::fs::File, p: u64, len: u64) -> io::Result<u64> {
    use std::os::unix::fs::FileExt;
    let mut b = [0u8; 3];
    let n = (len - p).min(3) as usize;
    file.read_exact_at(&mut b[..n], p)?;
    let skip = b[..n].iter().take_while(|&&x| x & 0xC0 == 0x80).count();
    Ok(p + skip as u64)
}

/// Reads `[pos, end)` of a file with positioned reads (threads share the file).
#[cfg(unix)]
struct RangeReader<'a> {
    file: &'a std::fs::File,
    pos: u64,
    end: u64,
}

#[cfg(unix)]
impl Read for RangeReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use std::os::unix::fs::FileExt;
        let want = (self.end - self.pos).min(buf.len() as u64) as usize;
        if want == 0 {
            return Ok(0);
        }
        let n = self.file.read_at(&mut buf[..want], self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}
