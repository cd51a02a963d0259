//! Validation and the error iterator.

use crate::error::Utf8Error;
use crate::scalar::{self, Unit};
use crate::simd;

/// Checks that `bytes` is well-formed UTF-8 and returns it as `&str`, or the first error.
///
/// Same answer as [`core::str::from_utf8`] (`valid_up_to`, `error_len`), plus the
/// [`kind`](Utf8Error::kind) of the first maximal subpart.
///
/// # Errors
///
/// The first maximal subpart of the input, as a [`Utf8Error`].
///
/// ```
/// use utf8_codec::{validate, ErrorKind};
///
/// assert_eq!(validate("héllo".as_bytes()), Ok("héllo"));
///
/// let err = validate(b"caf\xC3").unwrap_err();
/// assert_eq!((err.valid_up_to(), err.error_len()), (3, None));
/// assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn validate(bytes: &[u8]) -> Result<&str, Utf8Error> {
    let n = simd::valid_up_to(bytes);
    if n == bytes.len() {
        // SAFETY: `valid_up_to` returned the whole length, so every byte of `bytes` belongs to
        // a well-formed sequence of Table 3-7; the tests hold it to `core::str::from_utf8`.
        Ok(unsafe { core::str::from_utf8_unchecked(bytes) })
    } else {
        Err(error_at(bytes, n))
    }
}

/// Whether `bytes` is well-formed UTF-8.
///
/// ```
/// assert!(utf8_codec::is_valid("✓".as_bytes()));
/// assert!(!utf8_codec::is_valid(b"\xFF"));
/// ```
pub fn is_valid(bytes: &[u8]) -> bool {
    simd::valid_up_to(bytes) == bytes.len()
}

/// The length of the longest prefix of `bytes` that is well-formed UTF-8 (a character
/// boundary).
///
/// ```
/// assert_eq!(utf8_codec::valid_up_to(b"ab\xE2\x82"), 2);
/// ```
pub fn valid_up_to(bytes: &[u8]) -> usize {
    simd::valid_up_to(bytes)
}

/// The error that starts at `offset`, where the caller knows a maximal subpart starts.
#[inline]
pub(crate) fn error_at(bytes: &[u8], offset: usize) -> Utf8Error {
    match scalar::unit_at(bytes, offset) {
        Unit::Error(len, kind) => Utf8Error::new(offset, len, kind),
        Unit::Char(..) => unreachable!("valid_up_to stops only before an error"),
    }
}

/// Every error of `bytes`, in order: one [`Utf8Error`] per maximal subpart.
///
/// Valid stretches between errors are skipped by the validation kernel, so this is nearly as
/// fast as [`validate`] on mostly valid input.
///
/// ```
/// use utf8_codec::{errors, ErrorKind};
///
/// let found: Vec<(usize, usize, ErrorKind)> = errors(b"a\xE0\x80\x80b\xF0\x9F\x98")
///     .map(|e| (e.offset(), e.len(), e.kind()))
///     .collect();
/// assert_eq!(found, [
///     (1, 1, ErrorKind::Overlong),
///     (2, 1, ErrorKind::UnexpectedContinuation),
///     (3, 1, ErrorKind::UnexpectedContinuation),
///     (5, 3, ErrorKind::UnexpectedEnd),
/// ]);
/// ```
pub fn errors(bytes: &[u8]) -> Errors<'_> {
    Errors { bytes, pos: 0 }
}

/// The iterator returned by [`errors`].
#[derive(Clone, Debug)]
pub struct Errors<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Iterator for Errors<'_> {
    type Item = Utf8Error;

    #[inline]
    fn next(&mut self) -> Option<Utf8Error> {
        let rest = self.bytes.get(self.pos..)?;
        let at = self.pos + simd::valid_up_to(rest);
        if at == self.bytes.len() {
            self.pos = at;
            return None;
        }
        let err = error_at(self.bytes, at);
        self.pos = at + err.len();
        Some(err)
    }
}

impl core::iter::FusedIterator for Errors<'_> {}
