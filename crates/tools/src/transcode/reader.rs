//! The reader of the UTF-8 that a file in another encoding decodes to ([`Transcoder`]), the
//! malformed sequences it lists ([`Bad`]), and where lines start in such a file
//! ([`LineStarts`]).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Read};

use encoding_rs::{DecoderResult, UTF_16BE, UTF_16LE};

use super::offsets::OffsetMap;
use super::single::AnyDecoder;
use super::utf16;
use crate::labels::Charset;
use crate::mmap::{WINDOW, Window};

/// Where lines start in a file in `encoding`, for splitting it across threads: just after
/// a newline, where every decoder but ISO-2022-JP's holds nothing (UTF-16: a `0x000A`
/// unit at an even offset; the ASCII-compatible encodings: a `0x0A` byte, which none of
/// their multi-byte sequences holds). `None` for ISO-2022-JP, whose escapes carry state
/// across lines.
#[derive(Clone, Copy, Debug)]
pub struct LineStarts(Option<bool>);

impl LineStarts {
    /// The line starts of bytes searched as they are: after each `0x0A`.
    pub const BYTES: LineStarts = LineStarts(None);

    /// The line starts of `encoding`, if a file in it can be split.
    pub fn of(encoding: Charset) -> Option<LineStarts> {
        let Some(e) = encoding.whatwg() else {
            // ISO-8859-1 and US-ASCII: a byte is a character.
            return Some(LineStarts(None));
        };
        if e == UTF_16LE || e == UTF_16BE {
            Some(LineStarts(Some(e == UTF_16BE)))
        } else if e.is_ascii_compatible() && e != encoding_rs::ISO_2022_JP {
            Some(LineStarts(None))
        } else {
            None
        }
    }

    /// The offset just after the first newline of `bytes` (at file offset `at`), if any.
    pub fn after(self, bytes: &[u8], at: u64) -> Option<usize> {
        memchr::memchr_iter(b'\n', bytes).find_map(|i| {
            let even = (at + i as u64).is_multiple_of(2);
            match self.0 {
                None => Some(i + 1),
                Some(false) if even && bytes.get(i + 1) == Some(&0) => Some(i + 2),
                Some(true) if !even && i > 0 && bytes[i - 1] == 0 => Some(i + 1),
                Some(_) => None,
            }
        })
    }
}

/// Bytes read from the source at a time.
const READ: usize = 16 * 1024;

/// A reader of the UTF-8 that another encoding's bytes decode to, through encoding_rs;
/// each malformed sequence becomes U+FFFD and is counted. With an [`OffsetMap`], it
/// records where lines start in the file and keeps the bytes a later [`OffsetMap::file`]
/// needs.
pub struct Transcoder<'m, R> {
    input: Input<'m, R>,
    decoder: Decoding,
    /// The bytes of the input not yet decoded: `input`'s `[at..end]`.
    at: usize,
    end: usize,
    /// Bytes at the start still to drop (a byte order mark).
    skip: usize,
    eof: bool,
    done: bool,
    /// File offset of the byte at `at`.
    pos: u64,
    /// Decoded bytes made so far.
    out: u64,
    /// Decoded bytes that did not fit the last read: `spill[spill_at..]`.
    spill: Vec<u8>,
    spill_at: usize,
    errors: u64,
    map: Option<&'m RefCell<OffsetMap>>,
    /// Where malformed sequences are listed, when they are reported.
    bad: Option<&'m RefCell<VecDeque<Bad>>>,
    /// The last bytes decoded, from file offset `tail_off` (a malformed sequence may have
    /// begun in an earlier read).
    tail: Vec<u8>,
    tail_off: u64,
}

/// A malformed sequence of the encoding, as [`Transcoder::reporting`] lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bad {
    /// Where its U+FFFD is in the decoded text.
    pub decoded: u64,
    /// Where it is in the file.
    pub offset: u64,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// A decoder: this module's for UTF-16 (the same text as encoding_rs's), else
/// encoding_rs's or ISO-8859-1's and US-ASCII's ([`AnyDecoder`]).
struct Decoding {
    /// Where its lines start (ISO-2022-JP's: after any `0x0A`, its escape state aside).
    lines: LineStarts,
    utf16: Option<utf16::Utf16>,
    other: AnyDecoder,
}

impl Decoding {
    fn new(encoding: Charset) -> Decoding {
        let utf16 = (encoding == UTF_16LE || encoding == UTF_16BE)
            .then(|| utf16::Utf16::new(encoding == UTF_16BE));
        Decoding {
            lines: LineStarts::of(encoding).unwrap_or(LineStarts::BYTES),
            utf16,
            other: AnyDecoder::new(encoding),
        }
    }

    /// As encoding_rs's `decode_to_utf8_without_replacement`.
    fn decode(&mut self, src: &[u8], dst: &mut [u8], last: bool) -> (DecoderResult, usize, usize) {
        match &mut self.utf16 {
            Some(d) => d.decode(src, dst, last),
            None => self.other.decode(src, dst, last),
        }
    }
}

/// Where a [`Transcoder`]'s bytes come from.
enum Input<'f, R> {
    /// `read` calls into a buffer.
    Read(R, Vec<u8>),
    /// Windows of a regular file (no copy through read(2)): the one mapped, the offset of
    /// the next byte, and where to stop.
    Map(&'f std::fs::File, Option<Window>, u64, u64),
}

impl<R> Input<'_, R> {
    fn bytes(&self) -> &[u8] {
        match self {
            Input::Read(_, buf) => buf,
            Input::Map(_, Some(w), _, _) => w.bytes(),
            Input::Map(_, None, _, _) => &[],
        }
    }
}

/// The UTF-8 of U+FFFD.
const FFFD: &[u8] = "\u{FFFD}".as_bytes();

impl<'m, R: Read> Transcoder<'m, R> {
    /// Decodes `inner` from `encoding`; its first `skip` bytes (a byte order mark) are not
    /// text. With `map`, offsets in the file can be asked for ([`OffsetMap::file`]).
    pub fn new(
        inner: R,
        encoding: Charset,
        skip: u64,
        map: Option<&'m RefCell<OffsetMap>>,
    ) -> Transcoder<'m, R> {
        Transcoder::new_with(Input::Read(inner, vec![0; READ]), encoding, skip, map)
    }

    /// Decodes the regular file `file` as [`Transcoder::new`] does, reading it through
    /// mapped windows ([`crate::mmap`]: the caller says what a SIGBUS means).
    pub fn mapped(
        file: &'m std::fs::File,
        encoding: Charset,
        skip: u64,
        map: Option<&'m RefCell<OffsetMap>>,
    ) -> Transcoder<'m, R> {
        Transcoder::new_with(Input::Map(file, None, 0, u64::MAX), encoding, skip, map)
    }

    /// Decodes `file[start..end]`, which starts a line ([`LineStarts`]), through
    /// mapped windows: one part of a file split across threads (offsets count from
    /// `start`).
    pub fn mapped_part(
        file: &'m std::fs::File,
        encoding: Charset,
        (start, end): (u64, u64),
    ) -> Transcoder<'m, R> {
        let mut t = Transcoder::new_with(Input::Map(file, None, start, end), encoding, 0, None);
        t.pos = start;
        t
    }

    fn new_with(
        input: Input<'m, R>,
        encoding: Charset,
        skip: u64,
        map: Option<&'m RefCell<OffsetMap>>,
    ) -> Transcoder<'m, R> {
        if let Some(m) = map {
            *m.borrow_mut() = OffsetMap::new(encoding, skip);
        }
        Transcoder {
            input,
            decoder: Decoding::new(encoding),
            at: 0,
            end: 0,
            skip: usize::try_from(skip).unwrap_or(usize::MAX),
            eof: false,
            done: false,
            pos: 0,
            out: 0,
            spill: Vec::new(),
            spill_at: 0,
            errors: 0,
            map,
            bad: None,
            tail: Vec::new(),
            tail_off: 0,
        }
    }

    /// Lists each malformed sequence in `to` as it is decoded (the reader of the text
    /// takes them from the front).
    pub fn reporting(mut self, to: &'m RefCell<VecDeque<Bad>>) -> Self {
        self.bad = Some(to);
        self
    }

    /// Malformed sequences met so far.
    pub fn errors(&self) -> u64 {
        self.errors
    }

    /// Bytes of the file read so far.
    pub fn bytes_read(&self) -> u64 {
        self.pos + (self.end - self.at) as u64
    }

    fn fill(&mut self) -> io::Result<()> {
        let (from, to) = match &mut self.input {
            Input::Read(inner, buf) => loop {
                match inner.read(buf) {
                    Ok(n) => break (0, n),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            },
            Input::Map(file, window, next, stop) => {
                *window = None;
                // The size now: a file that shrank ends here, one that grew is read on.
                let size = file.metadata()?.len().min(*stop);
                if *next >= size {
                    (0, 0)
                } else {
                    let off = *next - *next % crate::mmap::page_size() as u64;
                    let len = usize::try_from(size - off).map_or(WINDOW, |l| l.min(WINDOW));
                    *window = Some(Window::new(file, off, len)?);
                    let at = (*next - off) as usize;
                    *next = off + len as u64;
                    (at, len)
                }
            }
        };
        (self.at, self.end) = (from, to);
        self.eof = from == to;
        let drop = self.skip.min(to - from);
        self.skip -= drop;
        self.at += drop;
        self.pos += drop as u64;
        Ok(())
    }

    /// The length of `src` up to and including its first newline, if it has one.
    fn line_end(&self, src: &[u8]) -> Option<usize> {
        self.decoder.lines.after(src, self.pos)
    }

    /// Decodes into `buf` (at least 16 bytes) from `w` on; the bytes written in all.
    fn decode_into(&mut self, buf: &mut [u8], mut w: usize) -> io::Result<usize> {
        loop {
            if self.at == self.end {
                if self.done || (w > 0 && !self.eof) {
                    return Ok(w);
                }
                if !self.eof {
                    self.fill()?;
                    if !self.eof {
                        continue;
                    }
                }
                if buf.len() - w < 16 {
                    return Ok(w);
                }
            }
            let src = &self.input.bytes()[self.at..self.end];
            let (piece, line) = match self.map {
                Some(_) => self.line_end(src).map_or((src.len(), false), |i| (i, true)),
                None => (src.len(), false),
            };
            let last = self.eof;
            let start = self.pos;
            let (res, read, written) = self.decoder.decode(&src[..piece], &mut buf[w..], last);
            if let (Some(list), DecoderResult::Malformed(bad, extra)) = (self.bad, &res) {
                let (bad, extra) = (u64::from(*bad), u64::from(*extra));
                let end = start + read as u64 - extra;
                let bytes = (end - bad..end)
                    .filter_map(|o| match o.checked_sub(start) {
                        Some(i) => src.get(i as usize).copied(),
                        None => self
                            .tail
                            .get(o.checked_sub(self.tail_off)? as usize)
                            .copied(),
                    })
                    .collect();
                list.borrow_mut().push_back(Bad {
                    decoded: self.out + written as u64,
                    offset: end - bad,
                    bytes,
                });
            }
            if self.bad.is_some() {
                // The last eight bytes decoded.
                let keep = read.min(8);
                let old = (8 - keep).min(self.tail.len());
                self.tail.drain(..self.tail.len() - old);
                self.tail.extend_from_slice(&src[read - keep..read]);
                self.tail_off = start + read as u64 - self.tail.len() as u64;
            }
            if let Some(m) = self.map {
                m.borrow_mut().bytes(&src[..read]);
            }
            self.at += read;
            self.pos += read as u64;
            w += written;
            self.out += written as u64;
            match res {
                DecoderResult::InputEmpty => {
                    if last {
                        self.done = true;
                    } else if line && let Some(m) = self.map {
                        m.borrow_mut().line_start(self.out, self.pos);
                    }
                }
                DecoderResult::OutputFull => return Ok(w),
                DecoderResult::Malformed(..) => {
                    self.errors += 1;
                    let room = (buf.len() - w).min(3);
                    buf[w..w + room].copy_from_slice(&FFFD[..room]);
                    self.spill.extend_from_slice(&FFFD[room..]);
                    w += room;
                    self.out += 3;
                    if room < 3 {
                        return Ok(w);
                    }
                }
            }
        }
    }
}

impl<R: Read> Read for Transcoder<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.spill_at < self.spill.len() {
            let n = buf.len().min(self.spill.len() - self.spill_at);
            buf[..n].copy_from_slice(&self.spill[self.spill_at..self.spill_at + n]);
            self.spill_at += n;
            if self.spill_at == self.spill.len() {
                self.spill.clear();
                self.spill_at = 0;
            }
            return Ok(n);
        }
        if buf.is_empty() {
            return Ok(0);
        }
        if buf.len() < 16 {
            // encoding_rs wants room for a character or two: a small read goes through
            // a buffer of its own.
            let mut small = [0u8; 64];
            let n = self.decode_into(&mut small, 0)?;
            let k = n.min(buf.len());
            buf[..k].copy_from_slice(&small[..k]);
            self.spill.extend_from_slice(&small[k..n]);
            return Ok(k);
        }
        self.decode_into(buf, 0)
    }
}
