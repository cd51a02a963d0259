//! The display width of lines, as GNU `wc -L` measures it.
//!
//! A tab moves to the next multiple of 8; a carriage return or a form feed starts the line
//! over (GNU counts the widest of the pieces); a character counts its `wcwidth` (East Asian
//! wide 2, combining marks, format and control characters 0), here from the `unicode-width`
//! crate; an invalid sequence counts 0.

use unicode_width::UnicodeWidthChar;

/// The widest line of a stream so far, and the width of the line being read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineWidths {
    /// Widest line (or piece between carriage returns and form feeds) ended so far.
    max: u64,
    /// Width of the current line.
    pos: u64,
}

impl LineWidths {
    /// Adds well-formed text.
    pub fn text(&mut self, s: &str) {
        let b = s.as_bytes();
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', b) {
            self.piece(&s[start..nl]);
            self.end();
            start = nl + 1;
        }
        self.piece(&s[start..]);
    }

    /// The widest line, the current one included.
    pub fn longest(&self) -> u64 {
        self.max.max(self.pos)
    }

    /// The widest of two inputs' (for totals).
    pub fn widest(a: &LineWidths, b: &LineWidths) -> LineWidths {
        LineWidths {
            max: a.longest().max(b.longest()),
            pos: 0,
        }
    }

    fn end(&mut self) {
        self.max = self.max.max(self.pos);
        self.pos = 0;
    }

    /// Text without a newline.
    fn piece(&mut self, s: &str) {
        // The common case: printable ASCII is one column a byte.
        if s.bytes().all(|b| (0x20..0x7F).contains(&b)) {
            self.pos += s.len() as u64;
            return;
        }
        for c in s.chars() {
            match c {
                '\t' => self.pos += 8 - self.pos % 8,
                '\r' | '\x0C' => self.end(),
                c => self.pos += c.width().unwrap_or(0) as u64,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn longest(s: &str) -> u64 {
        let mut w = LineWidths::default();
        w.text(s);
        w.longest()
    }

    #[test]
    fn as_gnu_wc() {
        // Each value below is what `LC_ALL=C.UTF-8 wc -L` (GNU coreutils 9.1) prints.
        assert_eq!(longest("a\tb\n日本\n"), 9);
        assert_eq!(longest("ab\tc\td\n"), 17);
        assert_eq!(longest("abc\rd\n"), 3);
        assert_eq!(longest("abcd\x0Ce\n"), 4);
        assert_eq!(longest("ab\x0Bcd\n"), 4);
        assert_eq!(longest("e\u{301}\n"), 1);
        assert_eq!(longest("a\x01b\n"), 2);
        assert_eq!(longest("\u{200B}\n"), 0);
        assert_eq!(longest("\x7Fx\n"), 1);
        assert_eq!(longest("\u{85}x\n"), 1);
        assert_eq!(longest("\u{FF41}\n"), 2);
        assert_eq!(longest("\u{1F600}\n"), 2);
        assert_eq!(longest("\n123456"), 6);
    }
}
