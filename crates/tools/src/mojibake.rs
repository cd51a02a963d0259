//! Undoing mojibake: UTF-8 that was decoded as windows-1252 or Latin-1 and encoded again
//! (`café` saved as `cafÃ©`, `“quotes”` as `â€œquotesâ€\u{9D}`), once or several times —
//! what ftfy's `fix_encoding` does, and nothing else.
//!
//! Each character of such text stands for one byte of the original UTF-8: the Latin-1
//! characters and C1 controls for themselves, the 27 windows-1252 punctuation letters
//! (`€`, `‚`, `ƒ`, ... `Ÿ`) for bytes 0x80-0x9F. A run of characters whose bytes form one
//! well-formed multi-byte UTF-8 sequence is replaced by the character it encodes, when that
//! character is plausible text. Passes repeat while they change something (double and
//! triple mojibake), three at most.
//!
//! Conservative, as ftfy is (its `badness` heuristic and its false-positive tests taught
//! these rules; ftfy/badness.py, tests/test-cases/*.json):
//!
//! * a two-byte sequence is fixed only into the letters of the languages whose mojibake is
//!   common — Latin-1 and Latin Extended-A (`Ã©` → `é`, `Å‚` → `ł`), Romanian's and
//!   Azerbaijani's letters of Latin Extended-B in a word (`È™i` → `și`), Greek, Cyrillic,
//!   Hebrew, Arabic — and into combining marks and modifier letters; never into IPA or
//!   NKo: clean `CAFÉ…` (`É` 0xC9, `…` 0x85) would read as `Ʌ`, and clean `Fuß“` as the
//!   NKo letter U+07D3;
//! * a Greek, Cyrillic, Hebrew or Arabic letter comes from a pair that an uppercase Latin
//!   letter followed by punctuation also spells (clean Spanish `Ñ…` is Cyrillic `х`,
//!   Catalan `Ó…` is `Ӆ`), so these are fixed only once a line of the text (this one or an
//!   earlier one) had two of the class side by side: mojibake of a Russian word is made of
//!   such pairs, clean text has them alone;
//! * a combining mark (U+0300-U+036F: decomposed text, `eÌ\u{81}` is `e` U+0301) or a
//!   modifier letter (U+02B0-U+02FF: `GeÊ»ez` is `Geʻez`) comes from `Ì Í Ê Ë` and a
//!   second character, which clean text has too (Italian `COSÌ…` is U+0305, Czech `PÍŠE`
//!   U+034A), so it is fixed where ftfy's `badness` calls the pair mojibake — a C1 control
//!   or one of ftfy's `bad` signs after the capital, a lowercase letter before it,
//!   punctuation inside a word (the rules and their sources in `mojibake/marks.rs`) — and
//!   otherwise only in a line that holds other mojibake or two marks side by side, or after
//!   such a line, as ftfy decodes a whole text once any of it is bad;
//! * a three- or four-byte sequence (`â€œ`, `æ—¥`) is fixed only into the blocks of living
//!   scripts, punctuation and symbols, CJK and emoji: clean `á`, no-break space, `–`
//!   spells Mongolian U+1816.
//!
//! A stream is fixed a line at a time, so any split of a stream into writes gives the same
//! text. A line longer than 64 KiB is fixed in
//! pieces that end after an ASCII character: every character of mojibake is non-ASCII, so
//! no piece cuts one.

use std::fmt;

mod candidate;
mod marks;

use candidate::{Candidate, Class};
use marks::Verdict;

/// One run of mojibake replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// Byte offset of the run in the text given to the fixer.
    pub offset: u64,
    /// The run as it was.
    pub before: String,
    /// What it became.
    pub after: String,
}

impl fmt::Display for Fix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "mojibake at byte {}: {} -> {}",
            self.offset,
            self.before.escape_debug(),
            self.after.escape_debug()
        )
    }
}

/// The byte a character stands for in UTF-8 decoded as windows-1252 or Latin-1: itself up
/// to U+00FF (Latin-1, and the C1 controls windows-1252 decoders give its five unassigned
/// bytes), or the windows-1252 byte of one of its 27 characters at 0x80-0x9F.
fn byte_of(c: char) -> Option<u8> {
    let b = match c {
        '\0'..='\u{FF}' => return Some(c as u8),
        '€' => 0x80,
        '‚' => 0x82,
        'ƒ' => 0x83,
        '„' => 0x84,
        '…' => 0x85,
        '†' => 0x86,
        '‡' => 0x87,
        'ˆ' => 0x88,
        '‰' => 0x89,
        'Š' => 0x8A,
        '‹' => 0x8B,
        'Œ' => 0x8C,
        'Ž' => 0x8E,
        '‘' => 0x91,
        '’' => 0x92,
        '“' => 0x93,
        '”' => 0x94,
        '•' => 0x95,
        '–' => 0x96,
        '—' => 0x97,
        '˜' => 0x98,
        '™' => 0x99,
        'š' => 0x9A,
        '›' => 0x9B,
        'œ' => 0x9C,
        'ž' => 0x9E,
        'Ÿ' => 0x9F,
        _ => return None,
    };
    Some(b)
}

/// The windows-1252 character of a C1 control (`None` for the five bytes windows-1252
/// leaves unassigned, and for every other character).
fn from_c1(c: char) -> Option<char> {
    if !('\u{80}'..='\u{9F}').contains(&c) {
        return None;
    }
    let byte = [c as u8];
    let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&byte);
    text.chars().next().filter(|&d| d != c)
}

/// Whether `c`, encoded in `len` bytes from characters whose last is `last`, is a plausible
/// result, and its class. A C1 control is one when it came from a C1 control: the middle
/// step of double mojibake of windows-1252's unassigned bytes (`”` is E2 80 9D: once
/// `â€` U+009D, twice `Ã¢â‚¬Â` U+009D, whose `Â` U+009D is U+009D again).
fn plausible(c: char, len: usize, last: char) -> Option<Class> {
    let u = c as u32;
    match len {
        2 => match u {
            0x80..=0x9F if ('\u{80}'..='\u{9F}').contains(&last) => Some(Class::Alone),
            // (and ƒ ˆ ˜, windows-1252 letters: the middle step of double mojibake)
            0xA0..=0x17F | 0x192 | 0x2C6 | 0x2DC => Some(Class::Alone),
            // Vietnamese's horned letters
            0x1A0 | 0x1A1 | 0x1AF | 0x1B0 => Some(Class::Alone),
            // Romanian's comma-below letters and Azerbaijani's schwa, in words only
            // ([`in_word`])
            0x18F | 0x218..=0x21B | 0x259 => Some(Class::Alone),
            // modifier letters and combining marks
            0x2B0..=0x36F => Some(Class::Mark),
            0x370..=0x3FF => Some(Class::Greek),
            0x400..=0x4FF => Some(Class::Cyrillic),
            0x591..=0x5F4 => Some(Class::Hebrew),
            0x600..=0x6FF => Some(Class::Arabic),
            _ => None,
        },
        3 => matches!(
            u,
            // Indic, Thai, Lao, Tibetan, Myanmar, Georgian, Hangul Jamo, Ethiopic
            0x900..=0x139F
            // Khmer; Latin Extended Additional (Vietnamese) and Greek Extended
            | 0x1780..=0x17FF | 0x1E00..=0x1FFF
            // punctuation, currency, letterlike, arrows, math, box drawing, dingbats...
            | 0x2000..=0x2BFF
            // CJK radicals, punctuation, kana, ideographs; Hangul; compatibility forms
            | 0x2E80..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFB00..=0xFB4F
            | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF | 0xFFFD
        )
        .then_some(Class::Alone),
        // Emoji and symbols, historic scripts, CJK extensions.
        _ => matches!(u, 0x10000..=0x3FFFF).then_some(Class::Alone),
    }
}

/// The candidates of one pass over `chars` into `found`; `allowed` holds the classes that
/// earlier lines allowed, `keep` is scratch space.
fn candidates(
    chars: &[char],
    allowed: &mut Vec<Class>,
    found: &mut Vec<Candidate>,
    keep: &mut Vec<bool>,
) {
    found.clear();
    let mut i = 0;
    while i < chars.len() {
        let lead = byte_of(chars[i]).unwrap_or(0);
        let len = match lead {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => {
                i += 1;
                continue;
            }
        };
        let mut bytes = [lead, 0, 0, 0];
        let ok = i + len <= chars.len()
            && (1..len).all(|k| match byte_of(chars[i + k]) {
                Some(b @ 0x80..=0xBF) => {
                    bytes[k] = b;
                    true
                }
                _ => false,
            });
        let decoded = ok
            .then(|| std::str::from_utf8(&bytes[..len]).ok())
            .flatten()
            .and_then(|s| s.chars().next());
        let last = chars[(i + len - 1).min(chars.len() - 1)];
        let class = |d| match plausible(d, len, last) {
            Some(Class::Alone)
                if ok && (suspicious(chars, i, len, d) || !in_word(chars, i, len, d)) =>
            {
                Some(Class::Suspicious)
            }
            c => c,
        };
        match decoded.and_then(|d| class(d).map(|c| (d, c))) {
            Some((decoded, class)) => {
                found.push(Candidate {
                    at: i,
                    len,
                    decoded,
                    class,
                });
                i += len;
            }
            None => i += 1,
        }
    }
    // Letters of other scripts only where two of the class stood side by side in this line
    // or an earlier one (mojibake of a word in that script), marks there too; a fix of
    // class `Alone` marks the line as holding mojibake, which suspicious ones then join.
    let pair = |class| {
        found
            .windows(2)
            .any(|w| w[0].class == class && w[1].class == class && w[0].at + w[0].len == w[1].at)
    };
    for c in found.iter() {
        let learn = match c.class {
            Class::Suspicious | Class::Alone => false,
            class => pair(class),
        };
        if learn && !allowed.contains(&c.class) {
            allowed.push(c.class);
        }
    }
    let next_to_another = |k: usize| {
        let c = &found[k];
        (k > 0 && found[k - 1].at + found[k - 1].len == c.at)
            || found.get(k + 1).is_some_and(|n| c.at + c.len == n.at)
    };
    // Combining marks and modifier letters by their own context ([`marks`]); one that is
    // mojibake wherever it stands marks the line as holding mojibake, as a fix of class
    // `Alone` does.
    keep.clear();
    let mut trusted = false;
    for k in 0..found.len() {
        let (kept, sure) = match found[k].class {
            Class::Alone => (true, true),
            Class::Mark => match marks::verdict(chars, found, k) {
                Verdict::Sure => (true, true),
                Verdict::InWord => (true, false),
                Verdict::Unsure => (false, false),
            },
            _ => (false, false),
        };
        keep.push(kept);
        trusted |= sure;
    }
    for k in 0..found.len() {
        keep[k] = keep[k]
            || match found[k].class {
                Class::Suspicious => next_to_another(k) || trusted,
                Class::Mark => trusted || allowed.contains(&Class::Mark),
                class => allowed.contains(&class),
            };
    }
    // A text that held mojibake of its own holds it in the marks of the lines after too, as
    // ftfy decodes a whole text once any of it is bad (decomposed Italian `EÌ€` is `È`).
    if trusted && !allowed.contains(&Class::Mark) {
        allowed.push(Class::Mark);
    }
    let mut k = 0;
    found.retain(|_| {
        k += 1;
        keep[k - 1]
    });
}

/// Whether the letters beyond Latin Extended-A that `plausible` admits (Romanian `ș ț Ș Ț`,
/// Azerbaijani `ə Ə`), which would become `decoded` from the `len` characters at `chars[i]`,
/// stand in a word: a lowercase letter before or after them. Standing alone or among
/// capitals they read as clean text as easily, as ftfy 6.3.1 judges them: `CAFÉ™` (C9 99,
/// `ə`), `PÈ™` (C8 99, `ș`) stay, `È™i` is `și`. Every other result is in a word.
fn in_word(chars: &[char], i: usize, len: usize, decoded: char) -> bool {
    if !matches!(decoded as u32, 0x18F | 0x218..=0x21B | 0x259) {
        return true;
    }
    let lower = |c: Option<&char>| c.is_some_and(|c| c.is_lowercase());
    lower(i.checked_sub(1).and_then(|k| chars.get(k))) || lower(chars.get(i + len))
}

/// Whether the sequence of `len` characters at `chars[i]`, which would become `decoded`,
/// reads as clean text as easily as mojibake (ftfy's negative and synthetic cases). The
/// leads `Ã` and `Â` (bytes C3 and C2) and `â€` (E2 80, the start of all punctuation) are
/// never suspicious; others are when:
///
/// * a no-break space is among the characters, after a letter: Finnish `SELKÄ` + NBSP
///   would be `Ġ`, French `créé` + NBSP + `»` would be `頻` (but `Ã` + NBSP is `à` and
///   `Å` + NBSP `Š`, and Korean `할` alone is `í•` + NBSP);
/// * the result is a lowercase letter among capitals: `AHÅ™` (`ř`), leetspeak `MÄ£ÄM`
///   (`ģ`);
/// * the characters after the lead are all punctuation, and three characters follow a
///   letter or end a word (`Brontë…”` would end in `녔`), or two stand alone (an Ångström
///   sign and a dash, `10 Å—`, is `ŗ`; in a word, `Ä›` is Czech `ě`).
///
/// And `Ã’` followed by a letter is an apostrophe after `Ã` (`a lot of Ã’s`), not `Ò`.
fn suspicious(chars: &[char], i: usize, len: usize, decoded: char) -> bool {
    let lead = chars[i];
    let rest = &chars[i + 1..i + len];
    let next = chars.get(i + len).copied();
    if lead == 'Ã' && rest == ['’'] {
        return next.is_some_and(|c| c.is_ascii_alphabetic());
    }
    if matches!(lead, 'Ã' | 'Â') || (lead == 'â' && rest[0] == '€') {
        return false;
    }
    let after_letter = i > 0 && chars[i - 1].is_alphabetic();
    // All capitals around: the letter before is a capital after a capital or the start, and
    // so is the letter after (`MÄ£ÄM`), or the two before are (`AHÅ™`); a capital starting
    // a word (`IÅ¡valytas`) is not.
    let upper = |k: Option<usize>| {
        k.and_then(|k| chars.get(k))
            .is_some_and(|c| c.is_uppercase())
    };
    let after_upper = upper(i.checked_sub(1))
        && (upper(i.checked_sub(2)) || next.is_some_and(char::is_uppercase));
    let punct = |c: &char| "…“”‘’‚„—–™»«®•‹›".contains(*c);
    let nbsp = rest.contains(&'\u{A0}') && !(len == 2 && lead == 'Å');
    (nbsp && after_letter)
        || (after_upper && decoded.is_lowercase())
        || (rest.iter().all(punct) && {
            let word_ends = !next.is_some_and(char::is_alphabetic);
            // Two characters count only standing alone: `Ä›` in a Czech word is `ě`.
            // Vietnamese letters (`á»«` is `ừ`) are three characters of that shape.
            let vietnamese = ('\u{1E00}'..='\u{1EFF}').contains(&decoded);
            match len {
                2 => !after_letter && word_ends,
                _ => !vietnamese && (after_letter || word_ends),
            }
        })
}

/// A character of the text being fixed, with the byte range of the original text it
/// stands for.
#[derive(Clone, Copy, Debug)]
struct Piece {
    c: char,
    start: usize,
    end: usize,
    /// Made by a fix.
    fixed: bool,
}

/// The buffers of [`fix`], kept from line to line, and the classes earlier lines allowed.
#[derive(Debug, Default)]
struct Work {
    allowed: Vec<Class>,
    pieces: Vec<Piece>,
    next: Vec<Piece>,
    chars: Vec<char>,
    found: Vec<Candidate>,
    keep: Vec<bool>,
    /// Whether to describe the fixes ([`Fix`]).
    record: bool,
}

impl Work {
    /// One pass over the pieces; whether it replaced anything.
    fn pass(&mut self) -> bool {
        self.chars.clear();
        self.chars.extend(self.pieces.iter().map(|p| p.c));
        candidates(
            &self.chars,
            &mut self.allowed,
            &mut self.found,
            &mut self.keep,
        );
        if self.found.is_empty() {
            return false;
        }
        let pieces = &self.pieces;
        self.next.clear();
        let mut copied = 0;
        for c in &self.found {
            self.next.extend_from_slice(&pieces[copied..c.at]);
            self.next.push(Piece {
                c: c.decoded,
                start: pieces[c.at].start,
                end: pieces[c.at + c.len - 1].end,
                fixed: true,
            });
            copied = c.at + c.len;
        }
        self.next.extend_from_slice(&pieces[copied..]);
        std::mem::swap(&mut self.pieces, &mut self.next);
        true
    }

    /// Appends `text` fixed a line at a time to `out`, and its fixes (when recording) to
    /// `fixes`, with offsets from `base`.
    fn fix_lines(&mut self, text: &str, base: u64, out: &mut String, fixes: &mut Vec<Fix>) {
        let mut at = base;
        for line in text.split_inclusive('\n') {
            self.fix_line(line, at, out, fixes);
            at += line.len() as u64;
        }
    }

    fn fix_line(&mut self, text: &str, base: u64, out: &mut String, fixes: &mut Vec<Fix>) {
        // A sequence starts with a character for a byte of 0xC2-0xF4 followed by one for
        // 0x80-0xBF, and C1 controls are fixed alone: without either, no fix (most clean
        // text: `é` is 0xE9, but ASCII or a space follows it).
        let mut prev_lead = false;
        let needs_work = text.chars().any(|c| {
            let b = byte_of(c).unwrap_or(0);
            let hit =
                (prev_lead && (0x80..=0xBF).contains(&b)) || (0x80..=0x9F).contains(&(c as u32));
            prev_lead = (0xC2..=0xF4).contains(&b);
            hit
        });
        if !needs_work {
            out.push_str(text);
            return;
        }
        self.pieces.clear();
        self.pieces.extend(text.char_indices().map(|(i, c)| Piece {
            c,
            start: i,
            end: i + c.len_utf8(),
            fixed: false,
        }));
        for _ in 0..3 {
            if !self.pass() {
                break;
            }
        }
        // C1 controls left: windows-1252 text decoded as Latin-1 (`parlé` U+0085 for
        // `parlé…`), as ftfy's fix_c1_controls does.
        for p in self.pieces.iter_mut() {
            if let Some(c) = from_c1(p.c) {
                (p.c, p.fixed) = (c, true);
            }
        }
        out.extend(self.pieces.iter().map(|p| p.c));
        if !self.record {
            return;
        }
        let first = fixes.len();
        let mut prev_end = usize::MAX;
        for p in self.pieces.iter().filter(|p| p.fixed) {
            let joins = fixes.len() > first && prev_end == p.start;
            match fixes.last_mut() {
                Some(f) if joins => {
                    f.before.push_str(&text[p.start..p.end]);
                    f.after.push(p.c);
                }
                _ => fixes.push(Fix {
                    offset: base + p.start as u64,
                    before: text[p.start..p.end].to_string(),
                    after: p.c.to_string(),
                }),
            }
            prev_end = p.end;
        }
    }
}

/// `text` with its mojibake undone (each line on its own, three passes at most), and the
/// fixes: each run of adjacent fixed characters, with its offset from `base`.
///
/// ```
/// use utf8_tools::mojibake::fix;
/// let (text, fixes) = fix("cafÃ© â€œquotesâ€\u{9D} ÃƒÂ©tÃƒÂ©", 0);
/// assert_eq!(text, "café “quotes” été");
/// assert_eq!(fixes[0].to_string(), "mojibake at byte 3: Ã© -> é");
/// // Clean text is left alone, in any language.
/// for clean in ["CAFÉ… Fuß“ AÑO…", "Привет, мир", "日本語", "naïve «déjà»"] {
///     assert_eq!(fix(clean, 0).0, clean);
/// }
/// ```
pub fn fix(text: &str, base: u64) -> (String, Vec<Fix>) {
    let mut work = Work {
        record: true,
        ..Work::default()
    };
    let (mut out, mut fixes) = (String::with_capacity(text.len()), Vec::new());
    work.fix_lines(text, base, &mut out, &mut fixes);
    (out, fixes)
}

/// Streams text through [`fix`] a line at a time (lines over 64 KiB in pieces that end
/// after an ASCII character).
#[derive(Debug, Default)]
pub struct Fixer {
    held: String,
    work: Work,
    /// Bytes of text taken so far, fixed or held.
    offset: u64,
}

/// Text held back at most, waiting for the end of its line.
const MAX_HELD: usize = 64 * 1024;

impl Fixer {
    /// A fixer at the start of a stream; `describe`: whether [`Fixer::push`] and
    /// [`Fixer::finish`] return the fixes (or only fix).
    pub fn new(describe: bool) -> Fixer {
        Fixer {
            work: Work {
                record: describe,
                ..Work::default()
            },
            ..Fixer::default()
        }
    }

    /// Adds `text`; appends to `out` what can be fixed already, and returns its fixes.
    pub fn push(&mut self, text: &str, out: &mut String) -> Vec<Fix> {
        if self.held.is_empty()
            && let Some(i) = memchr::memrchr(b'\n', text.as_bytes())
        {
            // The whole lines of `text` need no copy.
            let fixes = self.emit(&text[..=i], out);
            self.held.push_str(&text[i + 1..]);
            return fixes;
        }
        self.held.push_str(text);
        let cut = match memchr::memrchr(b'\n', self.held.as_bytes()) {
            Some(i) => i + 1,
            None if self.held.len() <= MAX_HELD => return Vec::new(),
            None => match self.held.bytes().rposition(|b| b.is_ascii()) {
                Some(i) => i + 1,
                None => {
                    let mut i = self.held.len() - 4;
                    while !self.held.is_char_boundary(i) {
                        i -= 1;
                    }
                    i
                }
            },
        };
        let rest = self.held.split_off(cut);
        let piece = std::mem::replace(&mut self.held, rest);
        self.emit(&piece, out)
    }

    /// Fixes what is held: the end of the stream.
    pub fn finish(&mut self, out: &mut String) -> Vec<Fix> {
        let piece = std::mem::take(&mut self.held);
        self.emit(&piece, out)
    }

    fn emit(&mut self, piece: &str, out: &mut String) -> Vec<Fix> {
        let mut fixes = Vec::new();
        self.work.fix_lines(piece, self.offset, out, &mut fixes);
        self.offset += piece.len() as u64;
        fixes
    }
}

#[cfg(test)]
mod tests;
