//! Inputs: `-` and no FILE mean stdin, named files, `--files0-from`; opening them with one
//! diagnostic per failure; reading them in fixed-size chunks with a little lookahead.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::diag::{Diag, ToolError};

mod below;
pub use below::Root;
pub(crate) use below::{Kind, stat_near};

/// Bytes read per chunk: memory stays bounded whatever the input size.
pub const CHUNK_SIZE: usize = 256 * 1024;

/// Bytes kept after each chunk's data so that an error near its end can be explained.
pub const LOOKAHEAD: usize = 8;

/// The alignment of the buffers `read` fills: the kernel copies into a misaligned buffer at
/// about half the speed.
pub const READ_ALIGN: usize = 64;

/// The bytes of an OS string as the system gives them (a name that is not UTF-8 is written as
/// it is, as GNU tools write it); elsewhere than Unix, its lossy UTF-8.
///
/// ```
/// assert_eq!(&*utf8_tools::input::os_bytes("dir/f".as_ref()), b"dir/f");
/// ```
pub fn os_bytes(s: &OsStr) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(s.as_bytes())
    }
    #[cfg(not(unix))]
    {
        Cow::Owned(s.to_string_lossy().into_owned().into_bytes())
    }
}

/// Whether `path` names a directory (following links), however long it is on Unix (see
/// `longpath`).
///
/// ```
/// assert!(utf8_tools::input::is_dir("src".as_ref()));
/// ```
pub fn is_dir(path: &Path) -> bool {
    #[cfg(unix)]
    return crate::longpath::is_dir(path);
    #[cfg(not(unix))]
    path.is_dir()
}

/// A zeroed buffer of a fixed length whose first byte is at a multiple of [`READ_ALIGN`].
///
/// ```
/// use utf8_tools::input::{ReadBuf, READ_ALIGN};
/// let buf = ReadBuf::new(1000);
/// assert_eq!(buf.len(), 1000);
/// assert_eq!(buf.as_ptr() as usize % READ_ALIGN, 0);
/// ```
#[derive(Debug)]
pub struct ReadBuf {
    vec: Vec<u8>,
    at: usize,
}

impl ReadBuf {
    /// `len` zeroed bytes.
    pub fn new(len: usize) -> ReadBuf {
        let vec = vec![0; len + READ_ALIGN];
        let at = aligned_start(&vec);
        ReadBuf { vec, at }
    }
}

/// The first offset of `buf` at a multiple of [`READ_ALIGN`] in memory (at most
/// `READ_ALIGN`: `align_offset` may in principle give up, and the bytes are then merely
/// misaligned).
pub(crate) fn aligned_start(buf: &[u8]) -> usize {
    buf.as_ptr().align_offset(READ_ALIGN).min(READ_ALIGN)
}

impl std::ops::Deref for ReadBuf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.vec[self.at..self.vec.len() - READ_ALIGN + self.at]
    }
}

impl std::ops::DerefMut for ReadBuf {
    fn deref_mut(&mut self) -> &mut [u8] {
        let end = self.vec.len() - READ_ALIGN + self.at;
        &mut self.vec[self.at..end]
    }
}

std::thread_local! {
    /// Heaps of read buffers dropped on this thread, for the next input's buffers to reuse
    /// rather than zeroing new ones (with `-r` over many small files, zeroing a fresh 96 KiB
    /// per file took a tenth of the run).
    static SPARE: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The most heaps [`SPARE`] keeps (an input's search buffer and the first bytes sniffed).
const SPARES: usize = 2;

/// A heap of at least `len` bytes: one dropped earlier on this thread ([`give_back`]), or
/// a new zeroed one. Its bytes are whatever they were: read only what you write.
pub(crate) fn spare_heap(len: usize) -> Vec<u8> {
    let found = SPARE.with_borrow_mut(|s| {
        let i = s.iter().position(|v| v.len() >= len)?;
        Some(s.swap_remove(i))
    });
    found.unwrap_or_else(|| vec![0; len])
}

/// Keeps `heap` for [`spare_heap`] (up to [`SPARES`] of them, the largest).
pub(crate) fn give_back(heap: Vec<u8>) {
    if heap.is_empty() {
        return;
    }
    SPARE.with_borrow_mut(|s| {
        s.push(heap);
        if s.len() > SPARES {
            let smallest = (0..s.len()).min_by_key(|&i| s[i].len()).unwrap_or(0);
            s.swap_remove(smallest);
        }
    });
}

/// One input named on the command line (or by `--files0-from`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input; `named` when given as `-` (rather than by giving no FILE at all).
    Stdin {
        /// Whether the user typed `-`.
        named: bool,
    },
    /// A path.
    Path(PathBuf),
}

impl Input {
    /// How diagnostics and JSON name this input: `-` for stdin, else the path (lossily).
    ///
    /// ```
    /// use utf8_tools::input::Input;
    /// assert_eq!(Input::Stdin { named: false }.name(), "-");
    /// ```
    pub fn name(&self) -> String {
        match self {
            Input::Stdin { .. } => "-".to_string(),
            Input::Path(p) => p.to_string_lossy().into_owned(),
        }
    }

    /// Whether this is standard input.
    pub fn is_stdin(&self) -> bool {
        matches!(self, Input::Stdin { .. })
    }

    /// The bytes of the name: `-` for stdin, else the path's bytes as the system gives them
    /// (see [`os_bytes`]).
    ///
    /// ```
    /// use utf8_tools::input::Input;
    /// assert_eq!(&*Input::Path("a.txt".into()).raw_name(), b"a.txt");
    /// ```
    pub fn raw_name(&self) -> Cow<'_, [u8]> {
        match self {
            Input::Stdin { .. } => Cow::Borrowed(b"-"),
            Input::Path(p) => os_bytes(p.as_os_str()),
        }
    }

    /// Whether this is a path that names a directory, however long the path (see [`is_dir`]).
    pub fn is_dir(&self) -> bool {
        matches!(self, Input::Path(p) if is_dir(p))
    }

    /// [`Input::open`], or `None` with the error shown and recorded in `diag` (the loop over
    /// inputs goes on).
    pub fn open_or_report(&self, diag: &mut Diag) -> Option<Source> {
        self.open_or_report_as(diag, |e| e)
    }

    /// [`Input::open_or_report`], the error shown as `shown` makes it (a tool that quotes
    /// names its own way).
    pub fn open_or_report_as(
        &self,
        diag: &mut Diag,
        shown: impl FnOnce(ToolError) -> ToolError,
    ) -> Option<Source> {
        match self.open() {
            Ok(s) => Some(s),
            Err(e) => {
                diag.error(&shown(e));
                None
            }
        }
    }

    /// Opens the input for reading.
    ///
    /// # Errors
    ///
    /// [`ToolError::Input`] naming the path when it is missing, unreadable or a directory.
    pub fn open(&self) -> Result<Source, ToolError> {
        self.open_in(None)
    }

    /// [`Input::open`] of a path that a `stat` just found to be a regular file of `len`
    /// bytes: opened without a second `stat` (GNU `wc` reuses the `stat` of its width pass
    /// so), relative to its directory held open when the previous path looked up so on
    /// this thread was in the same directory. The source's [`Source::metadata`] is `None`;
    /// if the path changed in between, reading finds what it is now, as after any open.
    ///
    /// # Errors
    ///
    /// As [`Input::open`].
    pub fn open_known(&self, len: u64) -> Result<Source, ToolError> {
        match self {
            Input::Stdin { .. } => self.open(),
            Input::Path(path) => {
                let file = below::open_near(path).map_err(|e| ToolError::input(self.name(), &e))?;
                Ok(Source {
                    regular_len: Some(len),
                    reader: SourceReader::File(file),
                    metadata: None,
                    consumed: 0,
                    at_end: false,
                })
            }
        }
    }

    /// [`Input::open`], a path below `root` opened relative to it.
    ///
    /// # Errors
    ///
    /// As [`Input::open`].
    pub fn open_in(&self, root: Option<&Root>) -> Result<Source, ToolError> {
        match self {
            Input::Stdin { .. } => Ok(Source::stdin()),
            Input::Path(path) => {
                let file = match root.and_then(|r| r.open_below(path)) {
                    Some(r) => r,
                    None => File::open(path),
                };
                let file = match file {
                    // A path past PATH_MAX (from a deep `-r` walk): a piece at a time.
                    #[cfg(unix)]
                    Err(e) if crate::longpath::too_long(&e) => crate::longpath::open_file(path),
                    r => r,
                }
                .map_err(|e| ToolError::input(self.name(), &e))?;
                let meta = file
                    .metadata()
                    .map_err(|e| ToolError::input(self.name(), &e))?;
                if meta.is_dir() {
                    return Err(ToolError::Input {
                        path: self.name(),
                        message: "Is a directory".to_string(),
                    });
                }
                Ok(Source {
                    regular_len: meta.is_file().then_some(meta.len()),
                    reader: SourceReader::File(file),
                    metadata: Some(meta),
                    consumed: 0,
                    at_end: false,
                })
            }
        }
    }
}

/// The inputs named by FILE operands and `--files0-from`; stdin when there are none.
///
/// `files0_from` names a file (or `-`) holding NUL-separated names, as GNU `wc`; it cannot be
/// combined with FILE operands, and `-` cannot be named in it when it is read from stdin.
///
/// # Errors
///
/// [`ToolError::Usage`] for FILE operands with `--files0-from` or an empty name;
/// [`ToolError::Input`] when the list cannot be read.
///
/// ```
/// use utf8_tools::input::{inputs, Input};
/// assert_eq!(inputs(&[], None).unwrap(), [Input::Stdin { named: false }]);
/// let got = inputs(&["-".into(), "a".into()], None).unwrap();
/// assert_eq!(got[0], Input::Stdin { named: true });
/// ```
pub fn inputs(files: &[OsString], files0_from: Option<&OsStr>) -> Result<Vec<Input>, ToolError> {
    let operand = |f: &OsString| {
        if f == "-" {
            Input::Stdin { named: true }
        } else {
            Input::Path(PathBuf::from(f))
        }
    };
    let Some(list) = files0_from else {
        if files.is_empty() {
            return Ok(vec![Input::Stdin { named: false }]);
        }
        return Ok(files.iter().map(operand).collect());
    };
    if let Some(f) = files.first() {
        return Err(ToolError::Usage(format!(
            "extra operand '{}'\nfile operands cannot be combined with --files0-from",
            f.to_string_lossy()
        )));
    }
    let list_name = list.to_string_lossy().into_owned();
    let from_stdin = list == "-";
    let mut bytes = Vec::new();
    let read = if from_stdin {
        io::stdin().lock().read_to_end(&mut bytes)
    } else {
        File::open(list).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    read.map_err(|e| ToolError::input(format!("cannot open '{list_name}' for reading"), &e))?;
    let mut out = Vec::new();
    // Each NUL ends a name (GNU wc's readtokens0): a list of one NUL names one empty name.
    let body = bytes.strip_suffix(&[0]).unwrap_or(&bytes);
    if bytes.is_empty() {
        return Ok(out);
    }
    for (i, name) in body.split(|&b| b == 0).enumerate() {
        if name.is_empty() {
            return Err(ToolError::Usage(format!(
                "{list_name}:{}: invalid zero-length file name",
                i + 1
            )));
        }
        if from_stdin && name == b"-" {
            return Err(ToolError::Usage(format!(
                "when reading file names from stdin, no file name of '-' allowed ({list_name}:{})",
                i + 1
            )));
        }
        out.push(operand(&os_string(name.to_vec())));
    }
    Ok(out)
}

/// A file name from its bytes (lossily where names are not bytes).
#[cfg(unix)]
pub(crate) fn os_string(bytes: Vec<u8>) -> OsString {
    use std::os::unix::ffi::OsStringExt;
    OsString::from_vec(bytes)
}

/// A file name from its bytes (lossily where names are not bytes).
#[cfg(not(unix))]
pub(crate) fn os_string(bytes: Vec<u8>) -> OsString {
    OsString::from(String::from_utf8_lossy(&bytes).into_owned())
}

/// An opened input.
#[derive(Debug)]
pub struct Source {
    /// The length, when the input is a regular file (it may be split for parallel work).
    pub regular_len: Option<u64>,
    /// What to read from.
    pub reader: SourceReader,
    /// A named file's metadata, as it was when opened (`None` for stdin and after
    /// [`Input::open_known`]).
    pub metadata: Option<std::fs::Metadata>,
    /// Bytes of a named file read through [`Read`] so far.
    consumed: u64,
    /// A read of a regular file gave fewer bytes than asked and reached its size at open:
    /// its end, without the read that would give 0.
    at_end: bool,
}

/// The reader behind a [`Source`].
#[derive(Debug)]
pub enum SourceReader {
    /// A named file.
    File(File),
    /// Standard input.
    Stdin(io::Stdin),
}

impl Source {
    fn stdin() -> Source {
        Source {
            regular_len: None,
            reader: SourceReader::Stdin(io::stdin()),
            metadata: None,
            consumed: 0,
            at_end: false,
        }
    }

    /// Whether a read reached the end of a regular file (the next read gives 0 without a
    /// system call).
    pub fn ended(&self) -> bool {
        self.at_end
    }

    /// The file, when this is a named regular file (for positioned, parallel reads).
    pub fn regular_file(&self) -> Option<(&File, u64)> {
        match (&self.reader, self.regular_len) {
            (SourceReader::File(f), Some(len)) => Some((f, len)),
            _ => None,
        }
    }
}

impl Read for Source {
    /// Reads the input. After a read of a regular file that gave fewer bytes than asked and
    /// brought the bytes read to exactly its size at open (not 0: files of `/proc` say 0),
    /// the file is at its end without the read that would give 0: one system call less for
    /// each small file of a tree. (A read that filled the buffer proves nothing: the file
    /// may have grown since it was opened, and is read on.)
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.reader {
            SourceReader::File(f) => {
                if self.at_end {
                    return Ok(0);
                }
                let n = f.read(buf)?;
                self.consumed += n as u64;
                self.at_end = n < buf.len()
                    && self
                        .regular_len
                        .is_some_and(|len| len > 0 && self.consumed == len);
                Ok(n)
            }
            SourceReader::Stdin(s) => s.lock().read(buf),
        }
    }
}

/// The data bytes of the first buffer of [`Chunks`]: a read that fills the buffer doubles it,
/// up to [`CHUNK_SIZE`], so that a small input (most files of a source tree) costs a small
/// buffer, not a whole chunk's worth of fresh pages.
pub const FIRST_CHUNK: usize = 16 * 1024;

/// Reads a stream in chunks of at most [`CHUNK_SIZE`] bytes, keeping up to [`LOOKAHEAD`]
/// bytes after each chunk's data unconsumed so that errors near its end can be explained,
/// unless what was read ends in an ASCII byte: an error ends before it, and its explanation
/// needs no byte after it (loose decoding stops there). So a line typed or written into a
/// pipe is a chunk as soon as it is read. Its buffer starts at [`FIRST_CHUNK`] bytes and
/// doubles whenever a read fills it.
///
/// ```
/// use utf8_tools::input::Chunks;
/// let mut chunks = Chunks::new(&b"abc\xED\xA0\x80"[..]);
/// let mut all = Vec::new();
/// while let Some(c) = chunks.next_chunk()? {
///     all.extend_from_slice(c.data);
///     assert_eq!(c.after(c.base + 3), b"\xED\xA0\x80");
/// }
/// assert_eq!(all, b"abc\xED\xA0\x80");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Chunks<R> {
    reader: R,
    buf: ReadBuf,
    /// Bytes `buf[start..][..len]` hold data; `buf[start..][..consumed]` was handed out
    /// last time. The data is kept where the next read starts aligned.
    start: usize,
    len: usize,
    consumed: usize,
    /// Absolute offset of `buf[start]`.
    base: u64,
    eof: bool,
}

/// One chunk of a stream.
#[derive(Clone, Copy, Debug)]
pub struct Chunk<'a> {
    /// Absolute offset of `data[0]` in the stream.
    pub base: u64,
    /// The bytes to process now.
    pub data: &'a [u8],
    /// `data` followed by up to [`LOOKAHEAD`] bytes that will come in the next chunk.
    pub ahead: &'a [u8],
}

impl<'a> Chunk<'a> {
    /// The known bytes from absolute offset `offset` on (empty if not in this chunk).
    pub fn after(&self, offset: u64) -> &'a [u8] {
        offset
            .checked_sub(self.base)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.ahead.get(i..))
            .unwrap_or(&[])
    }
}

impl<R: Read> Chunks<R> {
    /// Chunks of `reader`, from offset 0.
    pub fn new(reader: R) -> Chunks<R> {
        Chunks {
            reader,
            buf: ReadBuf::new(FIRST_CHUNK + LOOKAHEAD + READ_ALIGN),
            start: 0,
            len: 0,
            consumed: 0,
            base: 0,
            eof: false,
        }
    }

    /// The next chunk, or `None` at the end of the stream.
    ///
    /// # Errors
    ///
    /// A read error other than `Interrupted`.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk<'_>>> {
        // Keep the unconsumed tail, ending where the next read starts aligned.
        let keep = self.len - self.consumed;
        let to = (READ_ALIGN - keep % READ_ALIGN) % READ_ALIGN;
        let from = self.start + self.consumed;
        let room = self.buf.len() - LOOKAHEAD - READ_ALIGN;
        if self.start + self.len == self.buf.len() && room < CHUNK_SIZE {
            // The last read filled the buffer: a large input.
            let mut bigger = ReadBuf::new((2 * room).min(CHUNK_SIZE) + LOOKAHEAD + READ_ALIGN);
            bigger[to..to + keep].copy_from_slice(&self.buf[from..from + keep]);
            self.buf = bigger;
        } else {
            self.buf.copy_within(from..from + keep, to);
        }
        self.start = to;
        self.base += self.consumed as u64;
        self.len = keep;
        self.consumed = 0;
        let ends_ascii = |c: &Self| c.len > 0 && c.buf[c.start + c.len - 1].is_ascii();
        while !self.eof && self.len <= LOOKAHEAD && !ends_ascii(self) {
            match self.reader.read(&mut self.buf[self.start + self.len..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let end = if self.eof || ends_ascii(self) {
            self.len
        } else {
            self.len - LOOKAHEAD
        };
        if end == 0 {
            return Ok(None);
        }
        self.consumed = end;
        Ok(Some(Chunk {
            base: self.base,
            data: &self.buf[self.start..self.start + end],
            ahead: &self.buf[self.start..self.start + self.len],
        }))
    }
}

#[cfg(test)]
mod tests;
