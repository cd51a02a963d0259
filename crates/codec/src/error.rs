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
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One maximal subpart of ill-formed input: where it is, how long, and why.
///
/// Returned by [`validate`](crate::validate) for the first error and yielded by
/// [`errors`](crate::errors) for every one. [`valid_up_to`](Utf8Error::valid_up_to) and
/// [`error_len`](Utf8Error::error_len) have exactly the meaning of
/// [`core::str::Utf8Error`]'s methods; [`offset`](Utf8Error::offset),
/// [`len`](Utf8Error::len) and [`kind`](Utf8Error::kind) add the detail.
///
/// ```
/// let err = utf8_codec::validate(b"ab\xF0\x9F\x98").unwrap_err();
/// assert_eq!(err.valid_up_to(), 2);
/// assert_eq!(err.error_len(), None); // the input ended inside a sequence
/// assert_eq!(err.len(), 3);
/// assert_eq!(err.to_string(), "unexpected-end at byte 2 (3 bytes)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Utf8Error {
    offset: usize,
    len: u8,
    kind: ErrorKind,
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
    pub const fn new(offset: usize, len: usize, kind: ErrorKind) -> Utf8Error {
        assert!(
            len >= 1 && len <= 3,
            "a maximal subpart is 1 to 3 bytes long"
        );
        assert!(
            len == 1 || matches!(kind, ErrorKind::Truncated | ErrorKind::UnexpectedEnd),
            "only truncated and unexpected-end subparts are longer than one byte"
        );
        Utf8Error {
            offset,
            len: len as u8,
            kind,
        }
    }

    /// An error from parts the caller knows to be consistent (no checks).
    #[inline]
    pub(crate) const fn from_raw(offset: usize, len: u8, kind: ErrorKind) -> Utf8Error {
        Utf8Error { offset, len, kind }
    }

    /// The length of the input before this error that [`validate`](crate::validate) found
    /// valid; for the items of [`errors`](crate::errors), the offset of this error (the same
    /// as [`offset`](Utf8Error::offset)).
    ///
    /// ```
    /// assert_eq!(utf8_codec::validate(b"ok\xFF").unwrap_err().valid_up_to(), 2);
    /// ```
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
    pub const fn error_len(&self) -> Option<usize> {
        match self.kind {
            ErrorKind::UnexpectedEnd => None,
            _ => Some(self.len as usize),
        }
    }

    /// The 0-based byte offset of the maximal subpart in the input.
    ///
    /// ```
    /// let e = utf8_codec::errors(b"a\x80b\x80").nth(1).unwrap();
    /// assert_eq!(e.offset(), 3);
    /// ```
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The length of the maximal subpart in bytes, 1 to 3 (also for `unexpected-end`).
    ///
    /// ```
    /// assert_eq!(utf8_codec::validate(b"\xF0\x9F\x98").unwrap_err().len(), 3);
    /// ```
    #[allow(clippy::len_without_is_empty)] // a subpart is never empty
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Why the subpart is ill-formed.
    ///
    /// ```
    /// use utf8_codec::ErrorKind;
    /// assert_eq!(utf8_codec::validate(b"\xC1\x81").unwrap_err().kind(), ErrorKind::Overlong);
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The byte range of the subpart in the input.
    ///
    /// ```
    /// let input = b"x\xE2\x82y";
    /// let e = utf8_codec::validate(input).unwrap_err();
    /// assert_eq!(&input[e.range()], b"\xE2\x82");
    /// ```
    pub const fn range(&self) -> core::ops::Range<usize> {
        self.offset..self.offset + self.len as usize
    }
}

impl fmt::Display for Utf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.len == 1 { "" } else { "s" };
        write!(
            f,
            "{} at byte {} ({} byte{})",
            self.kind, self.offset, self.len, plural
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Utf8Error {}
