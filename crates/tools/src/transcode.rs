//! Files in other encodings read as the UTF-8 they decode to: what `--from` asks for
//! ([`FromArg`]), what is decided for one input from its first bytes ([`decide`]), and the
//! reader that transcodes through encoding_rs ([`Transcoder`]) while keeping what maps
//! offsets in the decoded text back to the file's ([`OffsetMap`]).
//!
//! utf8-grep and utf8-count share it: a file is searched or counted as its decoded text,
//! and the offsets they print (`-b`, `--json`) count bytes of the file as it is on disk.

use std::io::{self, Read};

use encoding_rs::{Encoding, UTF_8};

use crate::detect::{self, Evidence, Guess};
use crate::input::READ_ALIGN;
use crate::labels::{self, Charset, Label};

/// What `--from` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FromArg {
    /// The bytes as they are (`--from utf-8`; utf8-count without `--from`).
    Bytes,
    /// A byte order mark decides (UTF-8, UTF-16LE, UTF-16BE); without one, the bytes as
    /// they are (utf8-grep without `--from`).
    Sniff,
    /// One encoding (a byte order mark overrides it).
    Label(Charset),
    /// A byte order mark, then valid UTF-8, then chardetng's guess ([`detect::guess`]).
    Auto,
}

impl FromArg {
    /// The value of `--from`: `auto`, any WHATWG label or glibc iconv spelling
    /// ([`labels::resolve`]; `utf-8` is [`FromArg::Bytes`]), ISO-8859-1 and ASCII with
    /// iconv's meaning ([`Charset::Latin1`], [`Charset::Ascii`]).
    ///
    /// # Errors
    ///
    /// The label names no encoding: the usage message.
    ///
    /// ```
    /// use utf8_tools::transcode::FromArg;
    /// assert_eq!(FromArg::parse("AUTO"), Ok(FromArg::Auto));
    /// use utf8_tools::labels::Charset;
    /// assert_eq!(FromArg::parse("cp1252"), Ok(FromArg::Label(encoding_rs::WINDOWS_1252.into())));
    /// assert_eq!(FromArg::parse("CP932"), Ok(FromArg::Label(encoding_rs::SHIFT_JIS.into())));
    /// assert_eq!(FromArg::parse("latin1"), Ok(FromArg::Label(Charset::Latin1)));
    /// assert_eq!(FromArg::parse("US-ASCII"), Ok(FromArg::Label(Charset::Ascii)));
    /// assert!(FromArg::parse("UTF-32").is_err());
    /// assert_eq!(FromArg::parse("utf8"), Ok(FromArg::Bytes));
    /// assert!(FromArg::parse("klingon").is_err());
    /// ```
    pub fn parse(label: &str) -> Result<FromArg, String> {
        if label.eq_ignore_ascii_case("auto") {
            return Ok(FromArg::Auto);
        }
        match labels::resolve(label) {
            Some(Label::Whatwg(enc)) if enc == UTF_8 => Ok(FromArg::Bytes),
            Some(Label::Whatwg(enc)) => Ok(FromArg::Label(enc.into())),
            Some(Label::Latin1) => Ok(FromArg::Label(Charset::Latin1)),
            Some(Label::Ascii) => Ok(FromArg::Label(Charset::Ascii)),
            Some(Label::Unsupported(name)) => Err(format!(
                "--from {label}: {name} is not decoded here (convert it first: iconv -f {name} \
                 -t UTF-8)"
            )),
            None => Err(format!(
                "unknown encoding '{label}' (expected auto, a WHATWG label such as utf-8, \
                 windows-1252, iso-8859-2, shift_jis, gb18030 or utf-16le, or an iconv name \
                 such as CP932 or UTF16LE; utf8-repair --list lists them all)"
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
/// for `from`. For [`FromArg::Auto`], a prefix with the NUL pattern of UTF-16
/// ([`detect::Look::Utf16`]) is UTF-16, and one that is not UTF-8 and holds a NUL byte
/// otherwise is a binary file, read as its bytes (chardetng would guess a legacy encoding
/// for it).
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
        encoding: encoding.into(),
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
            if let detect::Look::Utf16(encoding) = detect::look(prefix) {
                read(Guess {
                    encoding: encoding.into(),
                    evidence: Evidence::NulPattern,
                })
            } else if utf8_prefix(prefix, complete) && !maybe_iso_2022_jp(prefix) {
                read(Guess {
                    encoding: UTF_8.into(),
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
            match f.read_at(&mut kept.room()[got..=n], got as u64) {
                Ok(0) => break,
                Ok(k) => got += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let reading = decide(from, &kept.room()[..got.min(n)], got <= n);
        return Ok((reading, kept, false));
    }
    let _ = file;
    let mut eof = false;
    while !eof && !decided(from, kept.held(), n) {
        // As much as one read gives: the search reads no more of a small file.
        let k = loop {
            match reader.read(kept.room()) {
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

/// The first bytes of a stream that [`sniff`] read, to be read again before the rest (or
/// taken as they are: [`Kept::into_heap`]). They start at a multiple of [`READ_ALIGN`] in
/// the buffer (the kernel copies into a misaligned buffer at about half the speed), which
/// goes back to the thread when it is dropped (`crate::input::give_back`).
#[derive(Debug)]
pub struct Kept {
    buf: Vec<u8>,
    start: usize,
    len: usize,
    pos: usize,
}

impl Kept {
    fn new() -> Kept {
        let buf = crate::input::spare_heap(KEPT + READ_ALIGN);
        let start = crate::input::aligned_start(&buf);
        Kept {
            buf,
            start,
            len: 0,
            pos: 0,
        }
    }

    /// The bytes kept.
    pub fn held(&self) -> &[u8] {
        &self.buf[self.start..self.start + self.len]
    }

    /// The buffer, and where in it the bytes kept are.
    pub fn into_heap(mut self) -> (Vec<u8>, std::ops::Range<usize>) {
        let at = self.start..self.start + self.len;
        (std::mem::take(&mut self.buf), at)
    }

    /// Where the next read goes.
    fn room(&mut self) -> &mut [u8] {
        &mut self.buf[self.start + self.len..self.start + KEPT]
    }
}

impl Read for Kept {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = out.len().min(self.len - self.pos);
        let from = self.start + self.pos;
        out[..n].copy_from_slice(&self.buf[from..from + n]);
        self.pos += n;
        Ok(n)
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        crate::input::give_back(std::mem::take(&mut self.buf));
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

/// Whether `prefix` is ASCII holding an escape: ISO-2022-JP text is, and [`detect::guess`]
/// tells it from ASCII.
fn maybe_iso_2022_jp(prefix: &[u8]) -> bool {
    memchr::memchr(0x1B, prefix).is_some() && prefix.is_ascii()
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

pub use offsets::OffsetMap;
pub use reader::{Bad, LineStarts, Transcoder};

mod offsets;
mod reader;
mod single;
#[cfg(test)]
mod tests;
mod utf16;
