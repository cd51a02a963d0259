//! The error model: [`ErrorKind`], [`Utf8Error`] and the classification rules.

use core::fmt;

/// Why a maximal subpart is ill-formed.
///
/// The kind is decided by the first byte of the subpart and the byte after it (see the
/// [crate docs](crate#error-model)). [`Display`](fmt::Display) and [`ErrorKind::as_str`] give
/// the stable kebab-case identifiers that every binary and JSON report uses.
///
/// ```
/// use utf8_codec::{errors, ErrorKind};
///
/// let kinds: Vec<ErrorKind> = errors(b"\xED\xA0\x80").map(|e| e.kind()).collect();
/// assert_eq!(kinds[0], ErrorKind::Surrogate);
/// assert_eq!(kinds[0].to_string(), "surrogate");
/// assert_eq!(kinds[1..], [ErrorKind::UnexpectedContinuation; 2]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorKind {
    /// Lead `C0` or `C1`; `E0` followed by `80..9F`; `F0` followed by `80..8F`: a longer form
    /// of a code point that has a shorter one.
    Overlong,
    /// `ED` followed by `A0..BF`: would encode a surrogate code point U+D800..U+DFFF.
    Surrogate,
    /// `F4` followed by `90..BF`, or a lead `F5..FD`: would exceed U+10FFFF.
    OutOfRange,
    /// `FE` or `FF`: bytes that never appear in any form of UTF-8.
    InvalidByte,
    /// A continuation byte `80..BF` where a lead byte was expected.
    UnexpectedContinuation,
    /// A valid prefix (1 to 3 bytes) followed by a byte that cannot continue it.
    Truncated,
    /// A valid prefix cut off by the end of the input.
    UnexpectedEnd,
}

impl ErrorKind {
    /// Every kind, in the order of the table in the crate docs.
    ///
    /// ```
    /// assert_eq!(utf8_codec::ErrorKind::ALL.len(), 7);
    /// ```
    pub const ALL: [ErrorKind; 7] = [
        ErrorKind::Overlong,
        ErrorKind::Surrogate,
        ErrorKind::OutOfRange,
        ErrorKind::InvalidByte,
        ErrorKind::UnexpectedContinuation,
        ErrorKind::Truncated,
        ErrorKind::UnexpectedEnd,
    ];

    /// The stable kebab-case name, as used in diagnostics and JSON.
    ///
    /// ```
    /// assert_eq!(utf8_codec::ErrorKind::OutOfRange.as_str(), "out-of-range");
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Overlong => "overlong",
            ErrorKind::Surrogate => "surrogate",
            ErrorKind::OutOfRange => "out-of-range",
            ErrorKind::InvalidByte => "invalid-byte",
            ErrorKind::UnexpectedContinuation => "unexpected-continuation",
            ErrorKind::Truncated => "truncated",
            ErrorKind::UnexpectedEnd => "unexpected-end",
        }
    }

    /// A one-line description for humans, lowercase, no final period.
    ///
    /// ```
    /// use utf8_codec::ErrorKind;
    /// assert_eq!(ErrorKind::InvalidByte.description(), "byte that never appears in UTF-8");
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn description(self) -> &'static str {
        match self {
            ErrorKind::Overlong => "overlong encoding of a shorter sequence",
            ErrorKind::Surrogate => "encoding of a UTF-16 surrogate",
            ErrorKind::OutOfRange => "sequence beyond U+10FFFF",
            ErrorKind::InvalidByte => "byte that never appears in UTF-8",
            ErrorKind::UnexpectedContinuation => "continuation byte without a lead byte",
            ErrorKind::Truncated => {
                "incomplete sequence followed by a byte that cannot continue it"
            }
            ErrorKind::UnexpectedEnd => "incomplete sequence at the end of the input",
        }
    }

    /// The position of this kind in [`ErrorKind::ALL`], handy for per-kind counters.
    ///
    /// ```
    /// use utf8_codec::ErrorKind;
    /// assert_eq!(ErrorKind::ALL[ErrorKind::Truncated.index()], ErrorKind::Truncated);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses a kind from its kebab-case name.
    ///
    /// ```
    /// use utf8_codec::ErrorKind;
    /// assert_eq!(ErrorKind::from_name("surrogate"), Some(ErrorKind::Surrogate));
    /// assert_eq!(ErrorKind::from_name("Surrogate"), None);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// Classifies a maximal subpart from its first byte `b0`, the byte after `b0` in the input
    /// (`b1`, `None` at the end of the input) and whether the subpart reaches the end of the
    /// input.
    ///
    /// This is the rule of the [crate docs](crate#error-model), exposed so that other
    /// validators (such as `utf8-dfa`) report in the same model. `b0` must start a maximal
    /// subpart, i.e. the caller has found an ill-formed sequence there.
    ///
    /// ```
    /// use utf8_codec::ErrorKind;
    /// assert_eq!(ErrorKind::classify(0xE0, Some(0x80), false), ErrorKind::Overlong);
    /// assert_eq!(ErrorKind::classify(0xE2, Some(0x41), false), ErrorKind::Truncated);
    /// assert_eq!(ErrorKind::classify(0xE2, Some(0x82), true), ErrorKind::UnexpectedEnd);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn classify(b0: u8, b1: Option<u8>, reaches_end: bool) -> ErrorKind {
        match (b0, b1) {
            (0x80..=0xBF, _) => ErrorKind::UnexpectedContinuation,
            (0xC0 | 0xC1, _) => ErrorKind::Overlong,
            (0xF5..=0xFD, _) => ErrorKind::OutOfRange,
            (0xFE | 0xFF, _) => ErrorKind::InvalidByte,
            (0xE0, Some(0x80..=0x9F)) | (0xF0, Some(0x80..=0x8F)) => ErrorKind::Overlong,
            (0xED, Some(0xA0..=0xBF)) => ErrorKind::Surrogate,
            (0xF4, Some(0x90..=0xBF)) => ErrorKind::OutOfRange,
            _ if reaches_end => ErrorKind::UnexpectedEnd,
            _ => ErrorKind::Truncated,
        }
    }

    /// The kind of an error whose bytes are `prefix`, a valid but incomplete sequence (1 to 3
    /// bytes, such as an `unexpected-end` error holds), once the byte after it turns out to be
    /// `next`, which does not continue it. As [`classify`](ErrorKind::classify) says: by the
    /// first byte and the byte after it, which is `next` when `prefix` is a lone lead byte.
    ///
    /// For input counted in parts cut at unit boundaries: the error at the end of a part is
    /// `unexpected-end` there, and this kind in the whole input, where `next` follows.
    ///
    /// # Panics
    ///
    /// Panics if `prefix` is empty.
    ///
    /// ```
    /// use utf8_codec::ErrorKind;
    /// assert_eq!(ErrorKind::of_prefix(b"\xE2\x82", b'A'), ErrorKind::Truncated);
    /// assert_eq!(ErrorKind::of_prefix(b"\xE0", 0x80), ErrorKind::Overlong);
    /// assert_eq!(ErrorKind::of_prefix(b"\xF4", 0x90), ErrorKind::OutOfRange);
    /// assert_eq!(ErrorKind::of_prefix(b"\xF4\x8F", 0x41), ErrorKind::Truncated);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn of_prefix(prefix: &[u8], next: u8) -> ErrorKind {
        let b1 = if prefix.len() > 1 { prefix[1] } else { next };
        ErrorKind::classify(prefix[0], Some(b1), false)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One maximal subpart of ill-formed input: where it is, how long, and why; the one shape of
/// [`Utf8Error`] and [`StreamError`], which share its accessors and its `Display`.
///
/// `O` is the offset: `usize` in one buffer, `u64` in a stream. `B` is what the error keeps of
/// its bytes: nothing (`()`) when the caller still has the input, a copy (`[u8; 3]`) when the
/// chunk it came from may be gone. Use the two aliases; this type only names what they share.
///
/// ```
/// use utf8_codec::{stream::Decoder, validate, ErrorKind};
///
/// let err = validate(b"ok\xED\xA0").unwrap_err();
/// let in_stream = Decoder::new().decode(b"ok\xED\xA0").find_map(|e| e.error()).unwrap();
/// assert_eq!((err.offset(), err.len(), err.kind()), (2, 1, ErrorKind::Surrogate));
/// assert_eq!((in_stream.offset(), in_stream.len(), in_stream.kind()), (2, 1, ErrorKind::Surrogate));
/// assert_eq!(err.to_string(), in_stream.to_string());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Subpart<O, B> {
    offset: O,
    bytes: B,
    len: u8,
    kind: ErrorKind,
}

/// One maximal subpart of ill-formed input: where it is, how long, and why.
///
/// Returned by [`validate`](crate::validate) for the first error and yielded by
/// [`errors`](crate::errors) for every one. [`valid_up_to`](Utf8Error::valid_up_to) and
/// [`error_len`](Utf8Error::error_len) have exactly the meaning of
/// [`core::str::Utf8Error`]'s methods; [`offset`](Subpart::offset),
/// [`len`](Subpart::len) and [`kind`](Subpart::kind) add the detail.
///
/// ```
/// let err = utf8_codec::validate(b"ab\xF0\x9F\x98").unwrap_err();
/// assert_eq!(err.valid_up_to(), 2);
/// assert_eq!(err.error_len(), None); // the input ended inside a sequence
/// assert_eq!(err.len(), 3);
/// assert_eq!(err.to_string(), "unexpected-end at byte 2 (3 bytes)");
/// ```
pub type Utf8Error = Subpart<usize, ()>;

/// An error found by the streaming [`Decoder`](crate::stream::Decoder): a maximal subpart with
/// its absolute offset in the whole stream and a copy of its bytes (the chunk it came from may
/// be gone).
///
/// ```
/// use utf8_codec::{stream::{Decoder, Event}, ErrorKind};
///
/// let mut dec = Decoder::new();
/// let events: Vec<_> = dec.decode(b"ok\xED\xA0").collect();
/// let Event::Error(err) = events[1] else { panic!() };
/// assert_eq!((err.offset(), err.bytes(), err.kind()), (2, &b"\xED"[..], ErrorKind::Surrogate));
/// ```
pub type StreamError = Subpart<u64, [u8; 3]>;

impl<O: Copy, B> Subpart<O, B> {
    /// The 0-based byte offset of the maximal subpart: in the input for a [`Utf8Error`], from
    /// the start of the stream for a [`StreamError`].
    ///
    /// ```
    /// let e = utf8_codec::errors(b"a\x80b\x80").nth(1).unwrap();
    /// assert_eq!(e.offset(), 3);
    ///
    /// let mut dec = utf8_codec::stream::Decoder::new();
    /// dec.decode(b"0123").for_each(drop);
    /// let err = dec.decode(b"\x80").find_map(|e| e.error()).unwrap();
    /// assert_eq!(err.offset(), 4);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn offset(&self) -> O {
        self.offset
    }

    /// The length of the maximal subpart in bytes, 1 to 3 (also for `unexpected-end`).
    ///
    /// ```
    /// assert_eq!(utf8_codec::validate(b"\xF0\x9F\x98").unwrap_err().len(), 3);
    ///
    /// let mut dec = utf8_codec::stream::Decoder::new();
    /// dec.decode(b"\xF0\x9F").for_each(drop);
    /// assert_eq!(dec.finish().unwrap().len(), 2);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    #[allow(clippy::len_without_is_empty)] // a subpart is never empty
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Why the subpart is ill-formed.
    ///
    /// ```
    /// use utf8_codec::ErrorKind;
    /// assert_eq!(utf8_codec::validate(b"\xC1\x81").unwrap_err().kind(), ErrorKind::Overlong);
    ///
    /// let mut dec = utf8_codec::stream::Decoder::new();
    /// dec.decode(b"\xF0\x9F").for_each(drop);
    /// assert_eq!(dec.finish().unwrap().kind(), ErrorKind::UnexpectedEnd);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl Utf8Error {
    /// Builds an error from its parts, for validators other than this crate's that report in
    /// the same model (such as `utf8-dfa`).
    ///
    /// # Panics
    ///
    /// Panics if `len` is not in `1..=3`, or if `kind` is `UnexpectedContinuation`,
    /// `InvalidByte` or `Overlong`/`OutOfRange`/`Surrogate` with `len != 1` (those subparts are
    /// always one byte).
    ///
    /// ```
    /// use utf8_codec::{ErrorKind, Utf8Error};
    /// let e = Utf8Error::new(4, 1, ErrorKind::InvalidByte);
    /// assert_eq!((e.offset(), e.len(), e.kind()), (4, 1, ErrorKind::InvalidByte));
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn new(offset: usize, len: usize, kind: ErrorKind) -> Utf8Error {
        assert!(
            len >= 1 && len <= 3,
            "a maximal subpart is 1 to 3 bytes long"
        );
        assert!(
            len == 1 || matches!(kind, ErrorKind::Truncated | ErrorKind::UnexpectedEnd),
            "only truncated and unexpected-end subparts are longer than one byte"
        );
        Utf8Error::from_raw(offset, len as u8, kind)
    }

    /// An error from parts the caller knows to be consistent (no checks).
    #[inline]
    pub(crate) const fn from_raw(offset: usize, len: u8, kind: ErrorKind) -> Utf8Error {
        Subpart {
            offset,
            bytes: (),
            len,
            kind,
        }
    }

    /// The length of the input before this error that [`validate`](crate::validate) found
    /// valid; for the items of [`errors`](crate::errors), the offset of this error (the same
    /// as [`offset`](Subpart::offset)).
    ///
    /// ```
    /// assert_eq!(utf8_codec::validate(b"ok\xFF").unwrap_err().valid_up_to(), 2);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn valid_up_to(&self) -> usize {
        self.offset
    }

    /// As [`core::str::Utf8Error::error_len`]: `Some(len)` for an ill-formed subpart, `None`
    /// when the input ended inside a sequence that was valid so far (kind
    /// [`ErrorKind::UnexpectedEnd`]).
    ///
    /// ```
    /// assert_eq!(utf8_codec::validate(b"\xE2\x82A").unwrap_err().error_len(), Some(2));
    /// assert_eq!(utf8_codec::validate(b"\xE2\x82").unwrap_err().error_len(), None);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn error_len(&self) -> Option<usize> {
        match self.kind {
            ErrorKind::UnexpectedEnd => None,
            _ => Some(self.len as usize),
        }
    }

    /// The byte range of the subpart in the input.
    ///
    /// ```
    /// let input = b"x\xE2\x82y";
    /// let e = utf8_codec::validate(input).unwrap_err();
    /// assert_eq!(&input[e.range()], b"\xE2\x82");
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn range(&self) -> core::ops::Range<usize> {
        self.offset..self.offset + self.len as usize
    }
}

impl StreamError {
    /// Builds a stream error from an in-memory [`Utf8Error`] of `input`, whose first byte is at
    /// absolute offset `base`.
    ///
    /// # Panics
    ///
    /// Panics if `err` does not lie within `input`.
    ///
    /// ```
    /// use utf8_codec::{stream::StreamError, validate};
    /// let input = b"abc\xFF";
    /// let e = StreamError::from_error(1000, input, validate(input).unwrap_err());
    /// assert_eq!((e.offset(), e.bytes()), (1003, &b"\xFF"[..]));
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn from_error(base: u64, input: &[u8], err: Utf8Error) -> StreamError {
        let mut bytes = [0; 3];
        bytes[..err.len()].copy_from_slice(&input[err.range()]);
        StreamError::from_raw(base + err.offset() as u64, bytes, err.len, err.kind)
    }

    /// A stream error from parts the caller knows to be consistent (no checks): `len` (1 to
    /// 3) of `bytes` are the subpart's.
    #[inline]
    pub(crate) const fn from_raw(
        offset: u64,
        bytes: [u8; 3],
        len: u8,
        kind: ErrorKind,
    ) -> StreamError {
        Subpart {
            offset,
            bytes,
            len,
            kind,
        }
    }

    /// The bytes of the subpart.
    ///
    /// ```
    /// let mut dec = utf8_codec::stream::Decoder::new();
    /// dec.decode(b"\xF0\x9F").for_each(drop);
    /// assert_eq!(dec.finish().unwrap().bytes(), b"\xF0\x9F");
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

impl<O: fmt::Display, B> fmt::Display for Subpart<O, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.len == 1 { "" } else { "s" };
        write!(
            f,
            "{} at byte {} ({} byte{})",
            self.kind, self.offset, self.len, plural
        )
    }
}

impl<O: fmt::Debug, B> Subpart<O, B> {
    /// The `Debug` form of a struct named `name` with these fields, `bytes` (when given)
    /// after the offset: what `derive(Debug)` gave the two types when they were apart.
    fn debug_as(
        &self,
        f: &mut fmt::Formatter<'_>,
        name: &str,
        bytes: Option<&[u8; 3]>,
    ) -> fmt::Result {
        let mut d = f.debug_struct(name);
        d.field("offset", &self.offset);
        if let Some(bytes) = bytes {
            d.field("bytes", bytes);
        }
        d.field("len", &self.len).field("kind", &self.kind).finish()
    }
}

impl fmt::Debug for Utf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.debug_as(f, "Utf8Error", None)
    }
}

impl fmt::Debug for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.debug_as(f, "StreamError", Some(&self.bytes))
    }
}

impl core::error::Error for Utf8Error {}

impl core::error::Error for StreamError {}
