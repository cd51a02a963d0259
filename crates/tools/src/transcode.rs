//! Files in other encodings read as the UTF-8 they decode to: what `--from` asks for
//! ([`FromArg`]), what is decided for one input from its first bytes ([`decide`]), and the
//! reader that transcodes through encoding_rs ([`Transcoder`]) while keeping what maps
//! offsets in the decoded text back to the file's ([`OffsetMap`]).
//!
//! utf8-grep and utf8-count share it: a file is searched or counted as its decoded text,
//! and the offsets they print (`-b`, `--json`) count bytes of the file as it is on disk.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Read};

use encoding_rs::{Decoder, DecoderResult, Encoding, UTF_8, UTF_16BE, UTF_16LE};

use crate::detect::{self, Evidence, Guess};
use crate::mmap::{WINDOW, Window};

/// What `--from` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FromArg {
    /// The bytes as they are (`--from utf-8`; utf8-count without `--from`).
    Bytes,
    /// A byte order mark decides (UTF-8, UTF-16LE, UTF-16BE); without one, the bytes as
    /// they are (utf8-grep without `--from`).
    Sniff,
    /// One encoding (a byte order mark overrides it).
    Label(&'static Encoding),
    /// A byte order mark, then valid UTF-8, then chardetng's guess ([`detect::guess`]).
    Auto,
}

impl FromArg {
    /// The value of `--from`: `auto` or any WHATWG label (`utf-8` is [`FromArg::Bytes`]).
    ///
    /// # Errors
    ///
    /// The label names no encoding: the usage message.
    ///
    /// ```
    /// use utf8_tools::transcode::FromArg;
    /// assert_eq!(FromArg::parse("AUTO"), Ok(FromArg::Auto));
    /// assert_eq!(FromArg::parse("latin1"), Ok(FromArg::Label(encoding_rs::WINDOWS_1252)));
    /// assert_eq!(FromArg::parse("utf8"), Ok(FromArg::Bytes));
    /// assert!(FromArg::parse("klingon").is_err());
    /// ```
    pub fn parse(label: &str) -> Result<FromArg, String> {
        if label.eq_ignore_ascii_case("auto") {
            return Ok(FromArg::Auto);
        }
        match Encoding::for_label(label.as_bytes()) {
            Some(enc) if enc == UTF_8 => Ok(FromArg::Bytes),
            Some(enc) => Ok(FromArg::Label(enc)),
            None => Err(format!(
                "unknown encoding '{label}' (expected auto or a WHATWG label such as utf-8, \
                 windows-1252, iso-8859-2, shift_jis, gb18030 or utf-16le)"
            )),
        }
    }

    /// How many first bytes of an input [`decide`] needs: a byte order mark's, or (for
    /// `auto`) a block that shows whether the input is UTF-8 ([`AUTO_FIRST`]).
    pub fn prefix_len(self) -> usize {
        match self {
            FromArg::Bytes => 0,
            FromArg::Sniff | FromArg::Label(_) => 3,
            FromArg::Auto => AUTO_FIRST,
        }
    }
}

/// `--from auto` decides from this many first bytes (chardetng, the detector Firefox uses,
/// decides from far fewer).
pub const AUTO_FIRST: usize = 64 * 1024;

/// How one input is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// The bytes as they are from offset `skip` on (3 past a UTF-8 byte order mark), and
    /// the encoding when one was decided (UTF-8).
    Bytes {
        /// Bytes at the start that are not text (a UTF-8 byte order mark).
        skip: u64,
        /// UTF-8 and why, when `--from` decided it.
        guess: Option<Guess>,
    },
    /// Decoded from an encoding other than UTF-8 ([`Transcoder`]).
    Decoded(Guess),
}

impl Reading {
    /// The length of the byte order mark that decided `g`, if one did.
    pub fn bom_len(g: Guess) -> u64 {
        match g.evidence {
            Evidence::Bom if g.encoding == UTF_8 => 3,
            Evidence::Bom => 2,
            _ => 0,
        }
    }

    /// The encoding decided and why, if one was.
    pub fn guess(self) -> Option<Guess> {
        match self {
            Reading::Bytes { guess, .. } => guess,
            Reading::Decoded(g) => Some(g),
        }
    }
}

/// How an input that begins with `prefix` (the whole input when `complete`) is read,
/// for `from`. For [`FromArg::Auto`], a prefix that is not UTF-8 and holds a NUL byte is a
/// binary file, read as its bytes (chardetng would guess a legacy encoding for it).
///
/// ```
/// use utf8_tools::transcode::{decide, FromArg, Reading};
/// let r = decide(FromArg::Sniff, b"\xFF\xFEh\0i\0", true);
/// assert!(matches!(r, Reading::Decoded(g) if g.encoding == encoding_rs::UTF_16LE));
/// let r = decide(FromArg::Sniff, b"\xEF\xBB\xBFhi", true);
/// assert!(matches!(r, Reading::Bytes { skip: 3, .. }));
/// let r = decide(FromArg::Sniff, b"plain", true);
/// assert_eq!(r, Reading::Bytes { skip: 0, guess: None });
/// let r = decide(FromArg::Auto, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff", true);
/// assert_eq!(r, Reading::Bytes { skip: 0, guess: None });
/// ```
pub fn decide(from: FromArg, prefix: &[u8], complete: bool) -> Reading {
    let bom = Encoding::for_bom(prefix).map(|(encoding, _)| Guess {
        encoding,
        evidence: Evidence::Bom,
    });
    let read = |g: Guess| {
        if g.encoding == UTF_8 {
            let skip = if g.evidence == Evidence::Bom { 3 } else { 0 };
            Reading::Bytes {
                skip,
                guess: Some(g),
            }
        } else {
            Reading::Decoded(g)
        }
    };
    match (from, bom) {
        (FromArg::Bytes, _) => Reading::Bytes {
            skip: 0,
            guess: None,
        },
        (_, Some(g)) => read(g),
        (FromArg::Sniff, None) => Reading::Bytes {
            skip: 0,
            guess: None,
        },
        (FromArg::Label(encoding), None) => read(Guess {
            encoding,
            evidence: Evidence::Given,
        }),
        (FromArg::Auto, None) => {
            if utf8_prefix(prefix, complete) {
                read(Guess {
                    encoding: UTF_8,
                    evidence: Evidence::Utf8,
                })
            } else if memchr::memchr(0, prefix).is_some() {
                Reading::Bytes {
                    skip: 0,
                    guess: None,
                }
            } else {
                read(detect::guess(prefix, complete))
            }
        }
    }
}

/// How one input is read for `from` ([`decide`]), from its first bytes: read from `file` at
/// offset 0 without moving it (a large regular file, which is then mapped), else from
/// `reader`, and then given back to be read before the rest, with whether they are all of
/// it.
///
/// From a stream, `read` is called only until the bytes decide: one call for a file that
/// has no byte order mark (a line typed into a pipe is not held back), up to
/// [`AUTO_FIRST`] bytes for `auto`.
///
/// # Errors
///
/// Reading failed.
pub fn sniff(
    from: FromArg,
    reader: &mut dyn Read,
    file: Option<&std::fs::File>,
) -> io::Result<(Reading, Kept, bool)> {
    let mut kept = Kept::new();
    let n = from.prefix_len();
    if n == 0 {
        let bytes = Reading::Bytes {
            skip: 0,
            guess: None,
        };
        return Ok((bytes, kept, false));
    }
    #[cfg(unix)]
    if let Some(f) = file {
        use std::os::unix::fs::FileExt;
        let mut got = 0;
        while got <= n {
            match f.read_at(&mut kept.buf[got..=n], got as u64) {
                Ok(0) => break,
                Ok(k) => got += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let reading = decide(from, &kept.buf[..got.min(n)], got <= n);
        return Ok((reading, kept, false));
    }
    let _ = file;
    let mut eof = false;
    while !eof && !decided(from, kept.held(), n) {
        // As much as one read gives: the search reads no more of a small file.
        let k = loop {
            match reader.read(&mut kept.buf[kept.len..]) {
                Ok(k) => break k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        kept.len += k;
        eof = k == 0;
    }
    let reading = decide(from, &kept.held()[..kept.len.min(n)], eof);
    Ok((reading, kept, eof))
}

/// The first bytes of a stream that [`sniff`] read, to be read again before the rest.
/// Its buffer goes back to the thread when it is dropped: zeroed once per thread, not
/// once per input (with `-r` over many small files, zeroing costs more than the read).
#[derive(Debug)]
pub struct Kept {
    buf: Vec<u8>,
    len: usize,
    pos: usize,
}

std::thread_local! {
    static SPARE: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Kept {
    fn new() -> Kept {
        let mut buf = SPARE.take();
        if buf.len() < KEPT {
            buf = vec![0; KEPT];
        }
        Kept {
            buf,
            len: 0,
            pos: 0,
        }
    }

    /// The bytes kept.
    pub fn held(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Drops the first `n` bytes (a byte order mark): the ones left, and how many were
    /// dropped.
    pub fn skip(&mut self, n: u64) -> u64 {
        let k = usize::try_from(n)
            .unwrap_or(usize::MAX)
            .min(self.len - self.pos);
        self.pos += k;
        k as u64
    }
}

impl Read for Kept {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = out.len().min(self.len - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        SPARE.set(std::mem::take(&mut self.buf));
    }
}

/// [`Kept`]'s buffer: one read of the search (96 KiB), more than [`AUTO_FIRST`].
const KEPT: usize = 96 * 1024;

/// Whether the first bytes of a stream, `kept`, are enough for [`decide`] (`n` from
/// [`FromArg::prefix_len`]): `n` of them, or (but for `auto`) a first byte that starts no
/// byte order mark.
fn decided(from: FromArg, kept: &[u8], n: usize) -> bool {
    let no_bom = |b: &[u8]| !b.is_empty() && !matches!(b[0], 0xEF | 0xFE | 0xFF);
    kept.len() >= n || (from != FromArg::Auto && no_bom(kept))
}

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
    pub fn of(encoding: &'static Encoding) -> Option<LineStarts> {
        if encoding == UTF_16LE || encoding == UTF_16BE {
            Some(LineStarts(Some(encoding == UTF_16BE)))
        } else if encoding.is_ascii_compatible() && encoding != encoding_rs::ISO_2022_JP {
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

/// Whether `prefix` is valid UTF-8 (but for a character cut by its end, when more
/// follows).
fn utf8_prefix(prefix: &[u8], complete: bool) -> bool {
    match utf8_codec::validate(prefix) {
        Ok(_) => true,
        // Only a sequence cut by the end of the prefix.
        Err(e) => {
            !complete
                && e.kind() == utf8_codec::ErrorKind::UnexpectedEnd
                && e.offset() + e.len() == prefix.len()
        }
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
/// encoding_rs's.
struct Decoding {
    encoding: &'static Encoding,
    utf16: Option<utf16::Utf16>,
    other: Decoder,
}

impl Decoding {
    fn new(encoding: &'static Encoding) -> Decoding {
        let utf16 = (encoding == UTF_16LE || encoding == UTF_16BE)
            .then(|| utf16::Utf16::new(encoding == UTF_16BE));
        Decoding {
            encoding,
            utf16,
            other: encoding.new_decoder_without_bom_handling(),
        }
    }

    /// As encoding_rs's `decode_to_utf8_without_replacement`.
    fn decode(&mut self, src: &[u8], dst: &mut [u8], last: bool) -> (DecoderResult, usize, usize) {
        match &mut self.utf16 {
            Some(d) => d.decode(src, dst, last),
            None => self
                .other
                .decode_to_utf8_without_replacement(src, dst, last),
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
        encoding: &'static Encoding,
        skip: u64,
        map: Option<&'m RefCell<OffsetMap>>,
    ) -> Transcoder<'m, R> {
        Transcoder::new_with(Input::Read(inner, vec![0; READ]), encoding, skip, map)
    }

    /// Decodes the regular file `file` as [`Transcoder::new`] does, reading it through
    /// mapped windows ([`crate::mmap`]: the caller says what a SIGBUS means).
    pub fn mapped(
        file: &'m std::fs::File,
        encoding: &'static Encoding,
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
        encoding: &'static Encoding,
        (start, end): (u64, u64),
    ) -> Transcoder<'m, R> {
        let mut t = Transcoder::new_with(Input::Map(file, None, start, end), encoding, 0, None);
        t.pos = start;
        t
    }

    fn new_with(
        input: Input<'m, R>,
        encoding: &'static Encoding,
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
        match LineStarts::of(self.decoder.encoding) {
            Some(l) => l.after(src, self.pos),
            None => memchr::memchr(b'\n', src).map(|i| i + 1),
        }
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
                m.borrow_mut().src.extend_from_slice(&src[..read]);
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
                        m.borrow_mut().marks.push_back((self.out, self.pos));
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

/// Where decoded text came from in the file: the start of each line held (decoded offset,
/// file offset) and the file's bytes from the oldest of them on. An offset inside a line
/// is found by decoding the line again from its start, a byte at a time near the offset.
///
/// A line starts with no decoder state for every encoding but ISO-2022-JP, whose escape
/// state may run on across a newline (RFC 1468 text returns to ASCII before each line
/// end, so in practice it does not).
pub struct OffsetMap {
    encoding: &'static Encoding,
    /// Line starts, increasing; the first is at or before every offset still asked for.
    marks: VecDeque<(u64, u64)>,
    /// The file's bytes from `src_off` on.
    src: Vec<u8>,
    src_off: u64,
    /// A decoder part way through a line, all it read given out: (it, decoded offset, file
    /// offset).
    cursor: Option<(Decoder, u64, u64)>,
}

impl std::fmt::Debug for OffsetMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OffsetMap")
            .field("encoding", &self.encoding.name())
            .field("marks", &self.marks.len())
            .field("src", &self.src.len())
            .finish_non_exhaustive()
    }
}

impl Default for OffsetMap {
    fn default() -> OffsetMap {
        OffsetMap::new(UTF_8, 0)
    }
}

/// Gives out what a decoder holds after a malformed sequence (the bytes it read after
/// it): how many bytes of text that makes.
fn flush(dec: &mut Decoder) -> u64 {
    let mut out = [0u8; 32];
    let (_, _, written) = dec.decode_to_utf8_without_replacement(&[], &mut out, false);
    written as u64
}

/// File bytes held for one line before the map moves a decoder along it and lets the
/// bytes before go (a line longer than this costs a second decoding, not memory).
const HOLD: usize = 8 << 20;

impl OffsetMap {
    fn new(encoding: &'static Encoding, start: u64) -> OffsetMap {
        OffsetMap {
            encoding,
            marks: VecDeque::from([(0, start)]),
            src: Vec::new(),
            src_off: start,
            cursor: None,
        }
    }

    /// The file offset of the character at `decoded`: an offset in the decoded text at a
    /// character boundary, not before the last [`OffsetMap::forget_before`] and not before
    /// the last offset asked for on the same line.
    pub fn file(&mut self, decoded: u64) -> u64 {
        let k = self.marks.partition_point(|&(d, _)| d <= decoded).max(1) - 1;
        let (md, mf) = self.marks[k];
        if (md == decoded && mf >= self.src_off) || md > decoded {
            // (Before every line held only when asked out of order.)
            return mf;
        }
        let (mut dec, mut d, mut f) = match self.cursor.take() {
            Some(c) if c.1 <= decoded && (c.1 >= md || mf < self.src_off) => c,
            // (Only when asked out of order: the line's bytes are gone.)
            _ if mf < self.src_off => return mf,
            _ => (self.encoding.new_decoder_without_bom_handling(), md, mf),
        };
        let mut scratch = [0u8; 4096];
        // In bulk while far from it, leaving room for a U+FFFD and a character.
        while decoded - d > 32 {
            let i = (f - self.src_off) as usize;
            let room = usize::try_from(decoded - d - 16).map_or(4096, |r| r.min(4096));
            let end = self.src.len().min(i + room);
            let (res, read, written) = dec.decode_to_utf8_without_replacement(
                &self.src[i..end],
                &mut scratch[..room],
                false,
            );
            f += read as u64;
            d += written as u64;
            if let DecoderResult::Malformed(..) = res {
                d += 3 + flush(&mut dec);
            } else if read == 0 {
                break;
            }
        }
        // A byte at a time: the character at `decoded` starts where the output reached it;
        // when one byte gave more than one character, at that byte.
        let mut at = f;
        while d < decoded {
            let i = (f - self.src_off) as usize;
            if i >= self.src.len() {
                break;
            }
            let (res, read, written) =
                dec.decode_to_utf8_without_replacement(&self.src[i..=i], &mut scratch, false);
            f += read as u64;
            d += written as u64;
            at = if d > decoded { f - read as u64 } else { f };
            if let DecoderResult::Malformed(_, extra) = res {
                // The bytes read after the malformed sequence are the next character(s),
                // given out now.
                d += 3;
                let next = f - u64::from(extra);
                let after_fffd = d;
                d += flush(&mut dec);
                at = if decoded == after_fffd || d > decoded {
                    next
                } else {
                    f
                };
            }
        }
        self.cursor = Some((dec, d, f));
        at
    }

    /// Offsets before `decoded` will not be asked for again: the bytes only they needed
    /// are let go. A line longer than [`HOLD`] bytes is decoded up to `decoded` now, and
    /// only its bytes from there on are kept.
    pub fn forget_before(&mut self, decoded: u64) {
        let k = self.marks.partition_point(|&(d, _)| d <= decoded).max(1) - 1;
        self.marks.drain(..k);
        let (md, mf) = self.marks[0];
        let held = (self.src_off + self.src.len() as u64).saturating_sub(mf);
        if held > HOLD as u64 && md < decoded && mf >= self.src_off {
            self.file(decoded);
        }
        let mut keep = mf;
        if let Some(c) = &self.cursor
            && c.1 <= decoded
            && (c.1 >= md || mf < self.src_off)
        {
            // Offsets from `decoded` on are found from the cursor (or a later line).
            keep = c.2;
        }
        let cut = keep.saturating_sub(self.src_off) as usize;
        if cut > 0 && cut >= self.src.len() / 2 {
            self.src.drain(..cut);
            self.src_off = keep;
        }
    }
}

#[cfg(test)]
mod tests;
mod utf16;
