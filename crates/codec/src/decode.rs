//! Decoding: forward and backward iterators, first/last unit, character boundaries.

use crate::error::Utf8Error;
use crate::scalar::{self, Unit};

/// What decoding yields for each unit of the input: a scalar value with its byte offset, or
/// the error for one maximal subpart.
pub type Decoded = Result<(usize, char), Utf8Error>;

#[inline]
fn to_decoded(offset: usize, unit: Unit) -> Decoded {
    match unit {
        Unit::Char(c, _) => Ok((offset, c)),
        Unit::Error(len, kind) => Err(Utf8Error::new(offset, len, kind)),
    }
}

/// Decodes `bytes` into scalar values and errors, each with its byte offset.
///
/// The iterator is double-ended: walking it from the back yields exactly the forward
/// sequence reversed, on any input (the segmentation into maximal subparts is
/// self-synchronizing). Joining the scalars, with one U+FFFD per error, gives
/// `repair`'s output.
///
/// ```
/// use utf8_codec::{decode, ErrorKind};
///
/// let units: Vec<_> = decode(b"a\xFF\xE2\x82\xAC").collect();
/// assert_eq!(units[0], Ok((0, 'a')));
/// assert_eq!(units[1].unwrap_err().kind(), ErrorKind::InvalidByte);
/// assert_eq!(units[2], Ok((2, '€')));
///
/// let backwards: Vec<_> = decode(b"a\xFF\xE2\x82\xAC").rev().collect();
/// assert_eq!(backwards, units.into_iter().rev().collect::<Vec<_>>());
/// ```
#[must_use = "iterators are lazy: the input is only decoded as the iterator is consumed"]
pub fn decode(bytes: &[u8]) -> Decode<'_> {
    Decode {
        bytes,
        front: 0,
        back: bytes.len(),
    }
}

/// The iterator returned by [`decode`].
#[must_use = "iterators are lazy: the input is only decoded as the iterator is consumed"]
#[derive(Clone, Debug)]
pub struct Decode<'a> {
    bytes: &'a [u8],
    front: usize,
    back: usize,
}

impl<'a> Decode<'a> {
    /// The part of the input not yet yielded from either end.
    ///
    /// ```
    /// let mut it = utf8_codec::decode(b"ab\xFF");
    /// it.next();
    /// assert_eq!(it.as_bytes(), b"b\xFF");
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn as_bytes(&self) -> &'a [u8] {
        &self.bytes[self.front..self.back]
    }
}

impl Iterator for Decode<'_> {
    type Item = Decoded;

    #[inline]
    fn next(&mut self) -> Option<Decoded> {
        if self.front >= self.back {
            return None;
        }
        let unit = scalar::unit_at(self.bytes, self.front);
        let offset = self.front;
        self.front += unit.len();
        Some(to_decoded(offset, unit))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n.div_ceil(4), Some(n))
    }
}

impl DoubleEndedIterator for Decode<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Decoded> {
        if self.front >= self.back {
            return None;
        }
        let start = scalar::unit_start_before(self.bytes, self.front, self.back);
        let unit = scalar::unit_at(self.bytes, start);
        self.back = start;
        Some(to_decoded(start, unit))
    }
}

impl core::iter::FusedIterator for Decode<'_> {}

/// Decodes the first unit of `bytes`: a scalar value or the error of the first maximal
/// subpart (offset 0). `None` for empty input.
///
/// ```
/// use utf8_codec::decode_first;
///
/// assert_eq!(decode_first("€uro".as_bytes()), Some(Ok('€')));
/// assert_eq!(decode_first(b"\xE2\x82").unwrap().unwrap_err().len(), 2);
/// assert_eq!(decode_first(b""), None);
/// ```
#[must_use = "the decoded scalar value or error is the only result"]
pub fn decode_first(bytes: &[u8]) -> Option<Result<char, Utf8Error>> {
    decode(bytes).next().map(|d| d.map(|(_, c)| c))
}

/// Decodes the last unit of `bytes`, exactly as the last item of a forward [`decode`] would
/// be, in constant time. Errors carry their offset in `bytes`.
///
/// ```
/// use utf8_codec::decode_last;
///
/// assert_eq!(decode_last("naïve ☃".as_bytes()), Some(Ok('☃')));
/// let err = decode_last(b"ok\xF0\x9F\x98").unwrap().unwrap_err();
/// assert_eq!((err.offset(), err.len()), (2, 3));
/// ```
#[must_use = "the decoded scalar value or error is the only result"]
pub fn decode_last(bytes: &[u8]) -> Option<Result<char, Utf8Error>> {
    decode(bytes).next_back().map(|d| d.map(|(_, c)| c))
}

/// The start of the unit (scalar value or maximal subpart) that contains byte `index`; `index`
/// itself when it is a boundary. Indexes past the end are clamped to `bytes.len()`.
///
/// Consistent with the segmentation of [`decode`] on any input, valid or not.
///
/// ```
/// use utf8_codec::floor_boundary;
///
/// let s = "a€b".as_bytes(); // € is bytes 1..4
/// assert_eq!(floor_boundary(s, 2), 1);
/// assert_eq!(floor_boundary(s, 4), 4);
/// assert_eq!(floor_boundary(b"\xE2\x82A", 1), 0); // inside a truncated subpart
/// ```
#[must_use = "the boundary is the only result"]
pub fn floor_boundary(bytes: &[u8], index: usize) -> usize {
    if index >= bytes.len() {
        return bytes.len();
    }
    // The unit containing `index` ends at or before index + 4 and starts at the last unit
    // start at or before `index`; walk forward from a synchronization point.
    let mut p = index;
    let lowest = index.saturating_sub(3);
    while p > lowest && scalar::is_continuation(bytes[p]) {
        p -= 1;
    }
    if scalar::is_continuation(bytes[p]) && p != 0 {
        // No lead byte among the 3 before: `index` is a lone continuation byte unless a unit
        // started further back reaches it, which cannot happen (units are at most 4 bytes).
        return index;
    }
    loop {
        let n = scalar::unit_at(bytes, p).len();
        if p + n > index {
            return p;
        }
        p += n;
    }
}

/// The end of the unit that contains byte `index` (the next boundary at or after `index`);
/// `index` itself when it is a boundary. Indexes past the end are clamped to `bytes.len()`.
///
/// ```
/// use utf8_codec::ceil_boundary;
///
/// let s = "a€b".as_bytes();
/// assert_eq!(ceil_boundary(s, 2), 4);
/// assert_eq!(ceil_boundary(s, 1), 1);
/// ```
#[must_use = "the boundary is the only result"]
pub fn ceil_boundary(bytes: &[u8], index: usize) -> usize {
    if index >= bytes.len() {
        return bytes.len();
    }
    let start = floor_boundary(bytes, index);
    if start == index {
        index
    } else {
        start + scalar::unit_at(bytes, start).len()
    }
}

/// Whether `index` is a boundary between units of the segmentation (`0` and `bytes.len()`
/// always are).
///
/// ```
/// assert!(utf8_codec::is_boundary("é".as_bytes(), 2));
/// assert!(!utf8_codec::is_boundary("é".as_bytes(), 1));
/// ```
#[must_use = "the verdict is the only result"]
pub fn is_boundary(bytes: &[u8], index: usize) -> bool {
    index <= bytes.len() && floor_boundary(bytes, index) == index
}

/// What a sequence at the start of `bytes` would mean under the original, pre-2003 definition
/// of UTF-8 (leads `C0..FD` announcing 2 to 6 bytes), if its lead is followed by the announced
/// number of continuation bytes: the value and the length. `None` otherwise, and for ASCII.
///
/// Diagnostics use it to say what an ill-formed sequence would have encoded: `ED A0 80` would
/// encode the surrogate U+D800, `C1 81` is an overlong U+0041, `F4 90 80 80` is U+110000.
///
/// ```
/// use utf8_codec::decode_loose;
///
/// assert_eq!(decode_loose(b"\xED\xA0\x80"), Some((0xD800, 3)));
/// assert_eq!(decode_loose(b"\xC1\x81"), Some((0x41, 2)));
/// assert_eq!(decode_loose(b"\xF4\x90\x80\x80"), Some((0x11_0000, 4)));
/// assert_eq!(decode_loose(b"\xE2\x82"), None); // too short
/// ```
#[must_use = "the decoded value is the only result"]
pub fn decode_loose(bytes: &[u8]) -> Option<(u32, usize)> {
    let b0 = *bytes.first()?;
    let (n, bits) = match b0 {
        0xC0..=0xDF => (2, b0 & 0x1F),
        0xE0..=0xEF => (3, b0 & 0x0F),
        0xF0..=0xF7 => (4, b0 & 0x07),
        0xF8..=0xFB => (5, b0 & 0x03),
        0xFC..=0xFD => (6, b0 & 0x01),
        _ => return None,
    };
    let trail = bytes.get(1..n)?;
    let mut v = u32::from(bits);
    for &b in trail {
        if !scalar::is_continuation(b) {
            return None;
        }
        v = (v << 6) | u32::from(b & 0x3F);
    }
    Some((v, n))
}
