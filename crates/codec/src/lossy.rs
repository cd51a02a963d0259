//! Lossy views of bytes that need no allocation: a `Display` and `char_indices`, both with one
//! U+FFFD per maximal subpart.

use core::fmt::{self, Write as _};

use crate::decode::{Decode, Decoded, decode};
use crate::stream::{Decoder, Event};

/// Displays bytes as text with one U+FFFD per maximal subpart, without allocating: what
/// `String::from_utf8_lossy` would hold, written piece by piece.
///
/// The valid runs are found at kernel speed and written as borrowed `&str`s. Formatting flags
/// (width, fill, precision) are ignored.
///
/// ```
/// use utf8_codec::Lossy;
///
/// let bytes = b"caf\xC3\xA9 \xE2\x82 ok \xF0\x9F";
/// assert_eq!(format!("[{}]", Lossy(bytes)), "[café \u{FFFD} ok \u{FFFD}]");
/// assert_eq!(Lossy(bytes).to_string(), String::from_utf8_lossy(bytes));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lossy<'a>(pub &'a [u8]);

impl fmt::Display for Lossy<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut decoder = Decoder::new();
        for event in decoder.decode(self.0) {
            match event {
                Event::Str(s) => f.write_str(s)?,
                Event::Char(c) => f.write_char(c)?,
                Event::Error(_) => f.write_char(char::REPLACEMENT_CHARACTER)?,
            }
        }
        match decoder.finish() {
            Some(_) => f.write_char(char::REPLACEMENT_CHARACTER),
            None => Ok(()),
        }
    }
}

/// The scalar values of `bytes` with their byte ranges `(start, end, char)`, U+FFFD for each
/// maximal subpart, whose range is the subpart's bytes (as bstr's `char_indices`).
///
/// The ranges cover every byte once, in order, so `end - start` is the length of the
/// character for a valid one. Double-ended, like [`decode`].
///
/// ```
/// let got: Vec<_> = utf8_codec::char_indices(b"a\xE2\x82\xACb\xE2\x82c\xFF").collect();
/// assert_eq!(
///     got,
///     [(0, 1, 'a'), (1, 4, '€'), (4, 5, 'b'), (5, 7, '\u{FFFD}'), (7, 8, 'c'), (8, 9, '\u{FFFD}')]
/// );
/// let back: Vec<_> = utf8_codec::char_indices(b"a\xFF").rev().collect();
/// assert_eq!(back, [(1, 2, '\u{FFFD}'), (0, 1, 'a')]);
/// ```
#[must_use = "iterators are lazy: the input is only decoded as the iterator is consumed"]
pub fn char_indices(bytes: &[u8]) -> CharIndices<'_> {
    CharIndices(decode(bytes))
}

/// The iterator returned by [`char_indices`].
#[must_use = "iterators are lazy: the input is only decoded as the iterator is consumed"]
#[derive(Clone, Debug)]
pub struct CharIndices<'a>(Decode<'a>);

impl<'a> CharIndices<'a> {
    /// The part of the input not yet yielded from either end.
    ///
    /// ```
    /// let mut it = utf8_codec::char_indices(b"ab\xFF");
    /// it.next();
    /// assert_eq!(it.as_bytes(), b"b\xFF");
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0.as_bytes()
    }
}

/// A unit of [`decode`] as a range and a character.
#[inline]
fn ranged(unit: Decoded) -> (usize, usize, char) {
    match unit {
        Ok((start, c)) => (start, start + c.len_utf8(), c),
        Err(e) => (
            e.offset(),
            e.offset() + e.len(),
            char::REPLACEMENT_CHARACTER,
        ),
    }
}

impl Iterator for CharIndices<'_> {
    type Item = (usize, usize, char);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize, char)> {
        self.0.next().map(ranged)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for CharIndices<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<(usize, usize, char)> {
        self.0.next_back().map(ranged)
    }
}

impl core::iter::FusedIterator for CharIndices<'_> {}
