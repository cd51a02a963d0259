//! The streaming decoder: chunks of any size in, the whole-buffer answer out.

pub use crate::error::StreamError;
use crate::error::{ErrorKind, Utf8Error};
use crate::scalar;
use crate::simd::Available;
use crate::validate::ErrorScan;

/// What the streaming [`Decoder`] yields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// A run of valid text, borrowed from the chunk.
    Str(&'a str),
    /// One scalar value whose bytes were split across chunks.
    Char(char),
    /// One maximal subpart.
    Error(StreamError),
}

impl Event<'_> {
    /// The error, if this event is one.
    ///
    /// ```
    /// use utf8_codec::stream::Decoder;
    /// let mut dec = Decoder::new();
    /// assert_eq!(dec.decode(b"a\xFFb").filter_map(|e| e.error()).count(), 1);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn error(&self) -> Option<StreamError> {
        match self {
            Event::Error(e) => Some(*e),
            _ => None,
        }
    }
}

/// A UTF-8 decoder fed one chunk at a time.
///
/// # Contract
///
/// * [`decode`](Decoder::decode) takes a chunk of any size (empty and one byte included) and
///   returns an iterator over the [`Event`]s it completes. Drive it to the end before the next
///   call: the bytes of events not pulled are dropped, as if never fed.
/// * A sequence split across chunks is never an error: its first bytes (at most 3) are held
///   until the next chunk completes it ([`Event::Char`]) or shows that it cannot be
///   completed (an error with kind `truncated`, `overlong`, `surrogate` or `out-of-range`).
/// * [`finish`](Decoder::finish) marks the true end of the input: the held bytes, if any, are
///   one `unexpected-end` error. The decoder is then ready for a new stream, offsets from 0.
/// * Whatever the split, the concatenation of all events (and the one from `finish`) is exactly
///   what [`decode`](crate::decode) and [`errors`](crate::errors) give for the whole input,
///   with absolute `u64` offsets.
///
/// ```
/// use utf8_codec::stream::{Decoder, Event};
///
/// let mut dec = Decoder::new();
/// let mut text = String::new();
/// let mut errors = Vec::new();
/// for chunk in [&b"caf\xC3"[..], b"\xA9 \xE2\x82", b"A"] {
///     for event in dec.decode(chunk) {
///         match event {
///             Event::Str(s) => text.push_str(s),
///             Event::Char(c) => text.push(c),
///             Event::Error(e) => { text.push('\u{FFFD}'); errors.push(e.offset()); }
///         }
///     }
/// }
/// assert!(dec.finish().is_none());
/// assert_eq!(text, "café \u{FFFD}A");
/// assert_eq!(errors, [6]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Decoder {
    held: [u8; 4],
    held_len: u8,
    /// Absolute offset of the first byte not yet reported (the first held byte, if any).
    offset: u64,
}

impl Decoder {
    /// A decoder at the start of a stream.
    ///
    /// ```
    /// assert_eq!(utf8_codec::stream::Decoder::new().position(), 0);
    /// ```
    #[must_use = "a new decoder does nothing until it is fed"]
    pub const fn new() -> Decoder {
        Decoder {
            held: [0; 4],
            held_len: 0,
            offset: 0,
        }
    }

    /// Decodes the next chunk; see the [type's contract](Decoder#contract).
    ///
    /// ```
    /// use utf8_codec::stream::{Decoder, Event};
    /// let mut dec = Decoder::new();
    /// assert_eq!(dec.decode(b"\xE2\x82").count(), 0); // held
    /// assert_eq!(dec.decode(b"\xAC").collect::<Vec<_>>(), [Event::Char('€')]);
    /// ```
    #[must_use = "the events carry the chunk's text and errors: the bytes of events not pulled are dropped, as if never fed"]
    pub fn decode<'d, 'a>(&'d mut self, chunk: &'a [u8]) -> Events<'d, 'a> {
        Events {
            decoder: self,
            chunk,
            pos: 0,
            kernel: Available::active(),
            scan: ErrorScan::new(),
            pending: None,
        }
    }

    /// Ends the stream: the held bytes of an incomplete sequence, if any, are returned as an
    /// `unexpected-end` error. Resets the decoder for a new stream.
    ///
    /// ```
    /// use utf8_codec::{stream::Decoder, ErrorKind};
    /// let mut dec = Decoder::new();
    /// dec.decode(b"ab\xF0").for_each(drop);
    /// let err = dec.finish().unwrap();
    /// assert_eq!((err.offset(), err.kind()), (2, ErrorKind::UnexpectedEnd));
    /// assert!(dec.finish().is_none());
    /// ```
    #[must_use = "an incomplete sequence at the end of the stream is an error reported only here"]
    pub fn finish(&mut self) -> Option<StreamError> {
        let n = self.held_len;
        let err = (n > 0).then(|| {
            let bytes = [self.held[0], self.held[1], self.held[2]];
            StreamError::from_raw(self.offset, bytes, n, ErrorKind::UnexpectedEnd)
        });
        *self = Decoder::new();
        err
    }

    /// The number of bytes fed so far (held bytes included).
    ///
    /// ```
    /// let mut dec = utf8_codec::stream::Decoder::new();
    /// dec.decode(b"ab\xE2").for_each(drop);
    /// assert_eq!(dec.position(), 3);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn position(&self) -> u64 {
        self.offset + self.held_len as u64
    }

    /// Moves past `n` bytes that the caller has counted itself (nothing may be held).
    pub(crate) fn skip(&mut self, n: usize) {
        debug_assert_eq!(self.held_len, 0);
        self.offset += n as u64;
    }

    /// The bytes held back from the end of the last chunk (a valid but incomplete prefix).
    ///
    /// ```
    /// let mut dec = utf8_codec::stream::Decoder::new();
    /// dec.decode(b"ab\xE2\x82").for_each(drop);
    /// assert_eq!(dec.held(), b"\xE2\x82");
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn held(&self) -> &[u8] {
        &self.held[..usize::from(self.held_len)]
    }
}

/// The iterator returned by [`Decoder::decode`].
#[must_use = "the events carry the chunk's text and errors: the bytes of events not pulled are dropped, as if never fed"]
#[derive(Debug)]
pub struct Events<'d, 'a> {
    decoder: &'d mut Decoder,
    chunk: &'a [u8],
    pos: usize,
    kernel: Available,
    scan: ErrorScan,
    /// The next error of the chunk, once found, until the text before it is reported.
    pending: Option<Utf8Error>,
}

impl<'a> Events<'_, 'a> {
    /// How many bytes of the chunk the events pulled so far took (or hold).
    pub(crate) fn consumed(&self) -> usize {
        self.pos
    }

    /// Completes (or fails) the held prefix with bytes of the chunk.
    fn complete_held(&mut self) -> Option<Event<'a>> {
        let d = &mut *self.decoder;
        let b0 = d.held[0];
        let need = scalar::sequence_len(b0);
        while let Some(&b) = self.chunk.get(self.pos) {
            let k = usize::from(d.held_len);
            if !scalar::continues(b0, k, b) {
                let bytes = [d.held[0], d.held[1], d.held[2]];
                let kind = ErrorKind::of_prefix(&d.held[..k], b);
                let err = StreamError::from_raw(d.offset, bytes, d.held_len, kind);
                d.offset += u64::from(d.held_len);
                d.held_len = 0;
                return Some(Event::Error(err));
            }
            d.held[k] = b;
            d.held_len += 1;
            self.pos += 1;
            if k + 1 == need {
                let c = scalar::decode_valid(&d.held[..need]);
                d.offset += need as u64;
                d.held_len = 0;
                return Some(Event::Char(c));
            }
        }
        None
    }
}

impl<'a> Iterator for Events<'_, 'a> {
    type Item = Event<'a>;

    #[inline]
    fn next(&mut self) -> Option<Event<'a>> {
        if self.decoder.held_len > 0 {
            return self.complete_held();
        }
        if self.pos >= self.chunk.len() {
            return None;
        }
        let found = match self.pending.take() {
            Some(e) => Some(e),
            None => self.scan.next(self.kernel, self.chunk, self.pos),
        };
        let end = found.map_or(self.chunk.len(), |e| e.offset());
        if end > self.pos {
            let text = &self.chunk[self.pos..end];
            self.pending = found;
            self.pos = end;
            self.decoder.offset += text.len() as u64;
            // SAFETY: the error search found no error in `text`: it is well-formed UTF-8.
            return Some(Event::Str(unsafe { core::str::from_utf8_unchecked(text) }));
        }
        let err = found?;
        let (len, kind, rest) = (err.len(), err.kind(), &self.chunk[self.pos..]);
        let d = &mut *self.decoder;
        if kind == ErrorKind::UnexpectedEnd {
            // Only the end of this chunk, not of the stream: hold the prefix.
            d.held[..len].copy_from_slice(&rest[..len]);
            d.held_len = len as u8;
            self.pos = self.chunk.len();
            return None;
        }
        let mut bytes = [0; 3];
        bytes[..len].copy_from_slice(&rest[..len]);
        let err = StreamError::from_raw(d.offset, bytes, len as u8, kind);
        d.offset += len as u64;
        self.pos += len;
        Some(Event::Error(err))
    }
}
