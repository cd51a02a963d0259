//! Line and column of a position in a stream, as error reports give them.

/// Tracks LINE (1-based) and COLUMN (1-based, in characters of the repaired line: every
/// earlier error on the line counts as one) while a stream is decoded in order.
///
/// ```
/// use utf8_tools::position::LineTracker;
/// let mut t = LineTracker::new();
/// t.text("ab\ncé".as_bytes());
/// t.error();
/// assert_eq!((t.line(), t.column()), (2, 4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineTracker {
    line: u64,
    column: u64,
}

impl Default for LineTracker {
    fn default() -> LineTracker {
        LineTracker::new()
    }
}

/// The number of characters in well-formed UTF-8 `bytes` (bytes that are not continuation
/// bytes).
///
/// ```
/// assert_eq!(utf8_tools::position::char_count("né😀".as_bytes()), 3);
/// ```
pub fn char_count(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count() as u64
}

impl LineTracker {
    /// At line 1, column 1.
    pub const fn new() -> LineTracker {
        LineTracker { line: 1, column: 1 }
    }

    /// Advances over well-formed text.
    pub fn text(&mut self, valid: &[u8]) {
        match memchr::memrchr(b'\n', valid) {
            Some(last) => {
                self.line += memchr::memchr_iter(b'\n', valid).count() as u64;
                self.column = 1 + char_count(&valid[last + 1..]);
            }
            None => self.column += char_count(valid),
        }
    }

    /// Advances over one scalar value.
    pub fn char(&mut self, c: char) {
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
    }

    /// Advances over one error (one maximal subpart, one U+FFFD when repaired).
    pub fn error(&mut self) {
        self.column += 1;
    }

    /// The current line, 1-based.
    pub const fn line(&self) -> u64 {
        self.line
    }

    /// The current column, 1-based, in characters.
    pub const fn column(&self) -> u64 {
        self.column
    }
}
