//! `-w`: words as GNU wc 9 counts them in a UTF-8 locale, on any bytes.
//!
//! A word begins at a printable character that follows a separator or the start of the
//! input. Separators are the ASCII blanks (tab, newline, VT, FF, CR, space), the printable
//! characters glibc calls spaces (U+1680, U+2000..U+2006, U+2008..U+200A, U+205F, U+3000)
//! and the four no-break spaces wc adds (U+00A0, U+2007, U+202F, U+2060). Everything that
//! is not printable — control characters, U+0085, U+2028, U+2029, unassigned code points —
//! and every ill-formed sequence neither begins a word nor ends one: `a\x01b` and `a\xFFb`
//! are one word, `\xFF \xFE` none. (coreutils src/wc.c: a separator ends the word;
//! otherwise `iswprint` starts one; anything else changes nothing.)
//!
//! Printable is glibc's `iswprint`: an assigned code point that is neither a control (Cc)
//! nor a line or paragraph separator (Zl, Zp). Which code points are assigned comes from
//! regex-syntax's Unicode tables (`\P{Assigned}`), which may be a newer Unicode than the C
//! library's: a character assigned in between starts a word here and not in wc.
//!
//! Inside a word only separators matter, so a run of letters costs a table lookup per ASCII
//! byte and a range test per other character; the printable test runs on the first
//! character after a separator only.

use std::sync::OnceLock;

/// What a character does to words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Ends a word.
    Separator,
    /// Begins a word (after a separator) or continues one.
    Printable,
    /// Neither: controls, unassigned code points, ill-formed sequences.
    Other,
}

/// The kinds of ASCII bytes: 0 separator, 1 printable, 2 other.
const ASCII: [u8; 128] = {
    let mut t = [2u8; 128];
    let mut b = 0x21;
    while b < 0x7F {
        t[b] = 1;
        b += 1;
    }
    let mut b = 0x09;
    while b <= 0x0D {
        t[b] = 0;
        b += 1;
    }
    t[0x20] = 0;
    t
};

/// Whether `c` (not ASCII) separates words.
fn is_separator(c: u32) -> bool {
    matches!(
        c,
        0xA0 | 0x1680 | 0x2000..=0x200A | 0x202F | 0x205F | 0x2060 | 0x3000
    )
}

/// The code points that are not printable: unassigned, controls, U+2028 and U+2029. A
/// bitmap of the BMP and sorted ranges above it.
struct NotPrintable {
    bmp: Vec<u64>,
    astral: Vec<(u32, u32)>,
}

fn not_printable() -> &'static NotPrintable {
    static TABLE: OnceLock<NotPrintable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let hir = regex_syntax::parse(r"[\P{Assigned}\p{Cc}\p{Zl}\p{Zp}]")
            .expect("a valid Unicode class");
        let regex_syntax::hir::HirKind::Class(regex_syntax::hir::Class::Unicode(class)) =
            hir.kind()
        else {
            unreachable!("a bracketed class parses to a class")
        };
        let mut bmp = vec![0u64; 0x10000 / 64];
        let mut astral = Vec::new();
        for r in class.ranges() {
            let (lo, hi) = (u32::from(r.start()), u32::from(r.end()));
            for c in lo..=hi.min(0xFFFF) {
                bmp[c as usize / 64] |= 1 << (c % 64);
            }
            if hi > 0xFFFF {
                astral.push((lo.max(0x10000), hi));
            }
        }
        NotPrintable { bmp, astral }
    })
}

/// Whether `c` is printable, as glibc's `iswprint` in a UTF-8 locale.
///
/// ```
/// use utf8_tools::count::is_printable;
/// assert!(is_printable('a') && is_printable('日') && is_printable('\u{200B}'));
/// assert!(!is_printable('\u{85}') && !is_printable('\u{2028}') && !is_printable('\u{378}'));
/// ```
pub fn is_printable(c: char) -> bool {
    let c = c as u32;
    if c < 0x80 {
        return ASCII[c as usize] != 2;
    }
    let t = not_printable();
    if c < 0x10000 {
        return t.bmp[c as usize / 64] & (1 << (c % 64)) == 0;
    }
    let i = t.astral.partition_point(|&(_, hi)| hi < c);
    t.astral.get(i).is_none_or(|&(lo, _)| lo > c)
}

fn kind(c: u32) -> Kind {
    if c < 0x80 {
        return [Kind::Separator, Kind::Printable, Kind::Other][usize::from(ASCII[c as usize])];
    }
    if is_separator(c) {
        Kind::Separator
    } else if char::from_u32(c).is_some_and(is_printable) {
        Kind::Printable
    } else {
        Kind::Other
    }
}

/// The words of a stream or of a part of it, joinable with the part that follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Words {
    /// Words begun in this part (a part's first word may continue the previous part's
    /// last: [`Words::join`] counts it once).
    pub count: u64,
    /// Whether the first character that is not `Other` is printable (`None`: there is
    /// none).
    first_printable: Option<bool>,
    /// Whether the part ends inside a word.
    in_word: bool,
}

impl Words {
    /// A count of words with no part to join (a total over inputs).
    pub fn of_count(count: u64) -> Words {
        Words {
            count,
            ..Words::default()
        }
    }

    /// Adds the words of the part that follows: a word cut at the boundary is one.
    pub fn join(&mut self, next: &Words) {
        self.count += next.count;
        if self.in_word && next.first_printable == Some(true) {
            self.count -= 1;
        }
        if self.first_printable.is_none() {
            self.first_printable = next.first_printable;
        }
        if next.first_printable.is_some() {
            self.in_word = next.in_word;
        }
    }
}

/// Counts words in chunks of a stream (a character may be cut between chunks).
#[derive(Clone, Debug, Default)]
pub struct WordCounter {
    words: Words,
    /// The start of a character cut by the end of the last chunk.
    carry: [u8; 4],
    carry_len: usize,
}

/// How the bytes at a position decode: a scalar value and its length, an ill-formed
/// sequence's length (its maximal subpart), or a prefix cut by the end of the bytes.
enum Step {
    Char(u32, usize),
    Invalid(usize),
    Cut,
}

/// Decodes the sequence at `b[i]` (not ASCII), Unicode Table 3-7.
fn step(b: &[u8], i: usize) -> Step {
    let lead = b[i];
    let (len, lo, hi) = match lead {
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xF0 => (4, 0x90, 0xBF),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        _ => return Step::Invalid(1),
    };
    let mut c = u32::from(lead) & (0x7F >> len);
    for k in 1..len {
        let Some(&x) = b.get(i + k) else {
            return Step::Cut;
        };
        let (lo, hi) = if k == 1 { (lo, hi) } else { (0x80, 0xBF) };
        if x < lo || x > hi {
            return Step::Invalid(k);
        }
        c = c << 6 | u32::from(x & 0x3F);
    }
    Step::Char(c, len)
}

impl WordCounter {
    /// A counter at the start of a stream.
    pub fn new() -> WordCounter {
        WordCounter::default()
    }

    /// Counts the words of `chunk`, the next bytes of the stream.
    pub fn update(&mut self, chunk: &[u8]) {
        let mut chunk = chunk;
        if self.carry_len > 0 {
            // Complete the cut character from the first bytes of this chunk.
            let mut buf = [0u8; 8];
            let have = self.carry_len;
            buf[..have].copy_from_slice(&self.carry[..have]);
            let take = chunk.len().min(4);
            buf[have..have + take].copy_from_slice(&chunk[..take]);
            match step(&buf[..have + take], 0) {
                Step::Cut => {
                    self.carry[have..have + take].copy_from_slice(&chunk[..take]);
                    self.carry_len += take;
                    return;
                }
                Step::Char(c, len) => {
                    self.char(c);
                    chunk = &chunk[len - have..];
                }
                // The carried bytes are ill-formed: they change nothing, and the byte that
                // failed to continue them is read again below.
                Step::Invalid(len) => chunk = &chunk[len.saturating_sub(have)..],
            }
            self.carry_len = 0;
        }
        let end = self.scan(chunk);
        let rest = &chunk[end..];
        self.carry[..rest.len()].copy_from_slice(rest);
        self.carry_len = rest.len();
    }

    /// The words of the whole stream (a character cut by its end is ill-formed: nothing).
    pub fn finish(&self) -> Words {
        self.words
    }

    fn char(&mut self, c: u32) {
        let w = &mut self.words;
        let k = kind(c);
        if k != Kind::Other && w.first_printable.is_none() {
            w.first_printable = Some(k == Kind::Printable);
        }
        match k {
            Kind::Separator => w.in_word = false,
            Kind::Printable if !w.in_word => {
                w.in_word = true;
                w.count += 1;
            }
            _ => {}
        }
    }

    /// Counts the words of `b` from the current state; returns where a character cut by
    /// the end of `b` starts (`b.len()` if none is).
    fn scan(&mut self, b: &[u8]) -> usize {
        let mut i = 0;
        // Until the first character that is not `Other`, one at a time.
        while self.words.first_printable.is_none() && i < b.len() {
            if b[i] < 0x80 {
                self.char(u32::from(b[i]));
                i += 1;
                continue;
            }
            match step(b, i) {
                Step::Char(c, len) => {
                    self.char(c);
                    i += len;
                }
                Step::Invalid(len) => i += len,
                Step::Cut => return i,
            }
        }
        let mut in_word = self.words.in_word;
        let mut count = self.words.count;
        while i < b.len() {
            let x = b[i];
            if x < 0x80 {
                let k = ASCII[x as usize];
                count += u64::from(k == 1 && !in_word);
                in_word = k == 1 || (k == 2 && in_word);
                i += 1;
                continue;
            }
            match step(b, i) {
                Step::Char(c, len) => {
                    if is_separator(c) {
                        in_word = false;
                    } else if !in_word && char::from_u32(c).is_some_and(is_printable) {
                        in_word = true;
                        count += 1;
                    }
                    i += len;
                }
                Step::Invalid(len) => i += len,
                Step::Cut => break,
            }
        }
        self.words.in_word = in_word;
        self.words.count = count;
        i
    }
}

/// The words of `bytes`, as `wc -w` counts them in a UTF-8 locale.
///
/// ```
/// use utf8_tools::count::count_words;
/// assert_eq!(count_words(b"two words\n"), 2);
/// assert_eq!(count_words(b"a\x01b a\xFFb"), 2); // controls and bad bytes join
/// assert_eq!(count_words("a\u{2060}b a\u{2028}b".as_bytes()), 3); // U+2060 separates
/// assert_eq!(count_words(b"\xFF \xFE \x01"), 0);
/// ```
pub fn count_words(bytes: &[u8]) -> u64 {
    let mut w = WordCounter::new();
    w.update(bytes);
    w.finish().count
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain model of the rule, one decoded unit at a time (the codec's decoder).
    fn model(bytes: &[u8]) -> u64 {
        let (mut words, mut in_word) = (0, false);
        for unit in utf8_codec::decode(bytes) {
            let Ok((_, c)) = unit else { continue };
            match kind(c as u32) {
                Kind::Separator => in_word = false,
                Kind::Printable if !in_word => {
                    in_word = true;
                    words += 1;
                }
                _ => {}
            }
        }
        words
    }

    #[test]
    fn the_issue_cases() {
        let cases: &[(&[u8], u64)] = &[
            (b"a\x01b", 1),
            (b"a\xFFb", 1),
            (b"\xFF \xFE", 0),
            (b"\x01", 0),
            ("a\u{2028}b".as_bytes(), 1),
            ("a\u{2060}b".as_bytes(), 2),
            ("\u{200B}".as_bytes(), 1),
            ("a\u{A0}b\u{3000}c\u{1680}d\u{2007}e\u{202F}f".as_bytes(), 6),
            ("a\u{85}b \u{378}x".as_bytes(), 2), // NEL joins; unassigned U+0378 starts nothing
            (b"", 0),
            (b" \t\n\x0B\x0C\r ", 0),
        ];
        for &(bytes, want) in cases {
            assert_eq!(count_words(bytes), want, "{bytes:?}");
            assert_eq!(model(bytes), want, "model {bytes:?}");
        }
    }

    #[test]
    fn every_split_and_every_part_boundary_gives_the_same_count() {
        let text = "ünïcödé wörds — 日本語 テキスト\u{3000}x\u{2028}y a\u{1}b \u{85}z \
                    \u{1F600} end"
            .as_bytes()
            .iter()
            .copied()
            .chain(*b"\xFF \xE2\x82 \xF0\x9F\x98 q\xC3")
            .collect::<Vec<u8>>();
        let want = model(&text);
        assert_eq!(count_words(&text), want);
        for cut in 0..=text.len() {
            let mut w = WordCounter::new();
            w.update(&text[..cut]);
            w.update(&text[cut..]);
            assert_eq!(w.finish().count, want, "chunks cut at {cut}");
            // Parts counted apart (a part may start inside a character, as the parallel
            // count starts at a unit boundary: both must agree when the cut is one).
            if utf8_codec::is_boundary(&text, cut) {
                let mut a = WordCounter::new();
                a.update(&text[..cut]);
                let mut b = WordCounter::new();
                b.update(&text[cut..]);
                let mut joined = a.finish();
                joined.join(&b.finish());
                assert_eq!(joined.count, want, "parts cut at {cut}");
            }
        }
        // Byte by byte.
        let mut w = WordCounter::new();
        for b in &text {
            w.update(std::slice::from_ref(b));
        }
        assert_eq!(w.finish().count, want);
    }

    #[test]
    fn printable_matches_the_unicode_categories() {
        for c in [
            'a',
            'é',
            'Ж',
            '日',
            '\u{200B}',
            '\u{E000}',
            '\u{1F600}',
            '\u{AD}',
        ] {
            assert!(is_printable(c), "{c:?}");
        }
        for c in [
            '\0', '\u{7F}', '\u{85}', '\u{9F}', '\u{2028}', '\u{2029}', '\u{378}',
        ] {
            assert!(!is_printable(c), "{c:?}");
        }
        assert!(!is_printable('\u{10FFFF}') && !is_printable('\u{E0080}'));
    }
}
