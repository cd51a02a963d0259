//! Words as GNU `wc -w` (coreutils 9) counts them in a UTF-8 locale, on any bytes.
//!
//! The rule (coreutils `src/wc.c`, `wc_lines`/`wc` with `MB_CUR_MAX > 1`): a word begins at a
//! printable character (`iswprint`) that follows a separator or the start of the input.
//! Separators are the ASCII blanks (tab, newline, VT, FF, CR, space), the printable
//! characters glibc calls spaces (U+1680, U+2000..U+2006, U+2008..U+200A, U+205F, U+3000) and
//! the no-break spaces wc adds unless `POSIXLY_CORRECT` is set (`iswnbspace`: U+00A0, U+2007,
//! U+202F, U+2060). Everything else that is not printable (controls, U+0085, U+2028, U+2029,
//! unassigned code points) and every ill-formed byte neither begins nor ends a word: wc skips
//! a byte `mbrtowc` rejects without touching its state.
//!
//! "Printable" is glibc 2.36's table for C.UTF-8 and en_US.UTF-8 (Unicode 14), in
//! `words/table.rs`, written by this script:
//!
//! ```text
//! libc = ctypes.CDLL(ctypes.util.find_library("c")); libc.setlocale(6, b"C.UTF-8")
//! ranges of cp in 0..0x110000 where libc.iswprint(cp) == 0
//! ```
//!
//! So a maximal run of non-separators (characters, unprintable ones and ill-formed bytes) is
//! one word exactly when it holds a printable character. Fast path: the vector kernel marks
//! separators (ASCII blanks from masks, the non-ASCII ones from their lead and the two bytes
//! after it) and the bytes that surely begin a printable character (printable ASCII, the
//! leads of scripts with no unprintable character, followed by their continuation bytes, most
//! kana; with AVX-512 VBMI also the whole 64-code-point blocks of other three-byte leads, the
//! rest of the kana and emoji) for 64 bytes at a time, and counts every run. A run whose
//! first character the masks cannot vouch for is decoded and looked up; if that character is
//! not printable either, the run is read on until a printable character (a word after all)
//! or a separator (not a word: taken back).

pub(crate) mod bits;
mod table;

use core::ops::AddAssign;

use crate::simd::{Available, Kernel, WordState};
use bits::{BMP_PRINTABLE, WORD_BITS, is_wide_separator};

/// Words of some input, or of one part of it: parts counted apart join with `+=` (a word
/// split between two parts counts once).
///
/// ```
/// use utf8_codec::count_words;
/// assert_eq!(count_words(b"one two\xFFthree\n").count(), 2);
/// let mut w = count_words(b"spl");
/// w += count_words(b"it here");
/// assert_eq!(w.count(), 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Words {
    /// Words begun.
    count: u64,
    /// The first character that is a separator or printable is printable (a word was begun
    /// before any separator: it continues a word the part before may have left open).
    first_open: bool,
    /// A separator or a printable character was seen.
    touched: bool,
    /// A printable character was seen since the last separator.
    open: bool,
}

impl Words {
    /// The number of words.
    ///
    /// ```
    /// assert_eq!(utf8_codec::count_words("a\u{2060}b a\u{2028}b".as_bytes()).count(), 3);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Adds the words of another, separate input (for totals): no word joins across.
    ///
    /// ```
    /// let mut w = utf8_codec::count_words(b"ab");
    /// w.add_separate(&utf8_codec::count_words(b"cd"));
    /// assert_eq!(w.count(), 2);
    /// ```
    pub fn add_separate(&mut self, other: &Words) {
        *self = Words {
            count: self.count + other.count,
            ..Words::default()
        };
    }

    /// Applies one character's class.
    #[inline]
    fn apply(&mut self, class: Class) {
        match class {
            Class::Sep => {
                self.open = false;
                self.touched = true;
            }
            Class::Print => {
                if !self.open {
                    self.count += 1;
                    self.first_open |= !self.touched;
                    self.open = true;
                }
                self.touched = true;
            }
            Class::Other => {}
        }
    }
}

impl AddAssign for Words {
    /// Appends the words of the part that follows.
    fn add_assign(&mut self, next: Words) {
        let joined = u64::from(self.open && next.first_open);
        *self = Words {
            count: self.count + next.count - joined,
            first_open: if self.touched {
                self.first_open
            } else {
                next.first_open
            },
            open: if next.touched { next.open } else { self.open },
            touched: self.touched || next.touched,
        };
    }
}

/// Counts the words in `bytes` (valid UTF-8 or not), as GNU `wc -w` in a UTF-8 locale.
///
/// ```
/// use utf8_codec::count_words;
/// assert_eq!(count_words(b"a\x01b").count(), 1);
/// assert_eq!(count_words(b"a\xFFb").count(), 1);
/// assert_eq!(count_words(b"\xFF \xFE").count(), 0);
/// assert_eq!(count_words("a\u{A0}b \u{200B}".as_bytes()).count(), 3);
/// ```
#[must_use = "the counts are the only result"]
pub fn count_words(bytes: &[u8]) -> Words {
    let mut w = Words::default();
    words_with(Available::active(), &mut w, bytes, true);
    w
}

impl Kernel {
    /// [`count_words`](crate::count_words) computed with this kernel, or `None` if this CPU
    /// cannot run it.
    ///
    /// ```
    /// use utf8_codec::Kernel;
    /// let input = "très bien, 世界\u{3000}x ".repeat(40);
    /// for k in Kernel::available() {
    ///     assert_eq!(k.count_words(input.as_bytes()).unwrap().count(), 160);
    /// }
    /// ```
    #[must_use = "the counts are the only result (`None` if this kernel is not available)"]
    pub fn count_words(self, bytes: &[u8]) -> Option<Words> {
        Available::new(self).map(|k| {
            let mut w = Words::default();
            words_with(k, &mut w, bytes, true);
            w
        })
    }
}

/// Counts the words of a stream fed in chunks of any size; the result equals
/// [`count_words`] of the whole.
///
/// ```
/// use utf8_codec::{WordCounter, count_words};
/// let input = "Grüße\u{3000}世界 x".as_bytes();
/// let mut c = WordCounter::new();
/// for chunk in input.chunks(1) {
///     c.update(chunk);
/// }
/// assert_eq!(c.finish(), count_words(input));
/// ```
#[derive(Clone, Debug, Default)]
pub struct WordCounter {
    words: Words,
    /// The start of a sequence cut by the end of the last chunk.
    held: [u8; 4],
    held_len: usize,
}

impl WordCounter {
    /// A counter at the start of a stream.
    ///
    /// ```
    /// assert_eq!(utf8_codec::WordCounter::new().finish().count(), 0);
    /// ```
    #[must_use = "a new counter does nothing until it is fed"]
    pub fn new() -> WordCounter {
        WordCounter::default()
    }

    /// Counts the next chunk.
    ///
    /// ```
    /// let mut c = utf8_codec::WordCounter::new();
    /// c.update(b"a\xE2\x80");
    /// c.update(b"\x80b");
    /// assert_eq!(c.finish().count(), 2);
    /// ```
    pub fn update(&mut self, chunk: &[u8]) {
        let mut chunk = chunk;
        while self.held_len > 0 && !chunk.is_empty() {
            // Complete the held sequence with up to 3 bytes of the chunk, decide its first
            // character (or ill-formed byte) and go on after it.
            let mut buf = [0u8; 7];
            let n = self.held_len;
            let take = chunk.len().min(3);
            buf[..n].copy_from_slice(&self.held[..n]);
            buf[n..n + take].copy_from_slice(&chunk[..take]);
            match step(&buf[..n + take], 0, false) {
                Some((class, len)) => {
                    self.words.apply(class);
                    if len >= n {
                        chunk = &chunk[len - n..];
                        self.held_len = 0;
                    } else {
                        // An ill-formed byte: the rest of the held bytes come first.
                        self.held.copy_within(len..n, 0);
                        self.held_len = n - len;
                    }
                }
                None => {
                    // Still a prefix: the chunk was shorter than the sequence.
                    self.held[n..n + take].copy_from_slice(&chunk[..take]);
                    self.held_len = n + take;
                    return;
                }
            }
        }
        // Held bytes left with an empty chunk stay held.
        if self.held_len > 0 {
            return;
        }
        let done = words_with(Available::active(), &mut self.words, chunk, false);
        let rest = &chunk[done..];
        self.held[..rest.len()].copy_from_slice(rest);
        self.held_len = rest.len();
    }

    /// Ends the stream and returns the words. Held bytes are a valid prefix cut by the end:
    /// ill-formed, neither word nor separator.
    ///
    /// ```
    /// let mut c = utf8_codec::WordCounter::new();
    /// c.update(b"ab \xE2\x80");
    /// assert_eq!(c.finish().count(), 1);
    /// ```
    #[must_use = "the words are only returned here"]
    pub fn finish(&mut self) -> Words {
        self.held_len = 0;
        core::mem::take(&mut self.words)
    }
}

/// What a character does to the word state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Ends a word.
    Sep,
    /// Begins a word after a separator.
    Print,
    /// Neither: not printable, or an ill-formed byte.
    Other,
}

/// Whether `cp` is printable for glibc's `iswprint` in a UTF-8 locale.
#[inline(always)]
fn is_printable(cp: u32) -> bool {
    if cp < 0x10000 {
        BMP_PRINTABLE[(cp >> 6) as usize] & (1 << (cp & 63)) != 0
    } else {
        table::NONPRINTABLE
            .binary_search_by(|&(lo, hi)| {
                if hi < cp {
                    core::cmp::Ordering::Less
                } else if lo > cp {
                    core::cmp::Ordering::Greater
                } else {
                    core::cmp::Ordering::Equal
                }
            })
            .is_err()
    }
}

/// Whether the character at `bytes[a]` (not ASCII; `a + 2 < bytes.len()`) surely begins a
/// word: a well-formed character up to U+1FFFF found in [`WORD_BITS`]; `false` means "ask
/// [`step`]".
#[inline(always)]
fn surely_word(bytes: &[u8], a: usize) -> bool {
    let x = match bytes.get(a..a + 4) {
        Some(&[b0, b1, b2, b3]) => u32::from_be_bytes([b0, b1, b2, b3]),
        _ => u32::from_be_bytes([bytes[a], bytes[a + 1], bytes[a + 2], 0]),
    };
    // Without branches: the scripts of a text mix unpredictably. The sequence's length from
    // its lead (0 for a byte that cannot lead one), then its last byte shifted to the bottom.
    const LEN: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 3, 4];
    const MIN: [u32; 5] = [u32::MAX, 0, 0x80, 0x800, 0x10000];
    const PAYLOAD: [u32; 5] = [0, 0, 0x7FF, 0xFFFF, 0x1F_FFFF];
    // The continuation bytes' marks, and a four-byte lead's (F0..F7: F8 and F9 have the low
    // bits of F0 and F1 and must not read as them).
    const CONT: [u32; 5] = [0, 0, 0xC0, 0xC0C0, 0xF8C0_C0C0];
    const MARK: [u32; 5] = [0, 0, 0x80, 0x8080, 0xF080_8080];
    let n = usize::from(LEN[(x >> 28) as usize]);
    let t = x >> ((32 - 8 * n as u32) & 31);
    let cp =
        ((t & 0x3F) | (t >> 2 & 0xFC0) | (t >> 4 & 0x3_F000) | (t >> 6 & 0x1C_0000)) & PAYLOAD[n];
    let i = cp.min(0x1FFFF);
    (t & CONT[n] == MARK[n])
        & (cp >= MIN[n])
        & (cp < 0x20000)
        & (WORD_BITS[(i >> 6) as usize] & (1 << (i & 63)) != 0)
}

/// The class of the character (or ill-formed byte) at `bytes[i]` and its length; `None`
/// when a valid prefix is cut by the end of `bytes` and `last` is false (the rest may follow).
#[inline(always)]
fn step(bytes: &[u8], i: usize, last: bool) -> Option<(Class, usize)> {
    let b = bytes[i];
    if b < 0x80 {
        let class = match b {
            b'\t'..=b'\r' | b' ' => Class::Sep,
            0x21..=0x7E => Class::Print,
            _ => Class::Other,
        };
        return Some((class, 1));
    }
    // Table 3-7: the length, the range of the second byte, the payload of the lead.
    let (len, lo, hi, mut cp) = match b {
        0xC2..=0xDF => (2, 0x80, 0xBF, u32::from(b & 0x1F)),
        0xE0 => (3, 0xA0, 0xBF, 0),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF, u32::from(b & 0x0F)),
        0xED => (3, 0x80, 0x9F, 0xD),
        0xF0 => (4, 0x90, 0xBF, 0),
        0xF1..=0xF3 => (4, 0x80, 0xBF, u32::from(b & 0x07)),
        0xF4 => (4, 0x80, 0x8F, 4),
        _ => return Some((Class::Other, 1)),
    };
    for k in 1..len {
        let Some(&c) = bytes.get(i + k) else {
            return if last { Some((Class::Other, 1)) } else { None };
        };
        let (l, h) = if k == 1 { (lo, hi) } else { (0x80, 0xBF) };
        if c < l || c > h {
            return Some((Class::Other, 1));
        }
        cp = cp << 6 | u32::from(c & 0x3F);
    }
    let class = if is_wide_separator(cp) {
        Class::Sep
    } else if is_printable(cp) {
        Class::Print
    } else {
        Class::Other
    };
    Some((class, len))
}

/// Whether the run of non-separators that begins at `bytes[at]` holds a printable
/// character; `None` when it reaches the end of `bytes` (or, unless `last`, a sequence cut by
/// it) without one.
fn has_printable(bytes: &[u8], mut at: usize, last: bool) -> Option<bool> {
    while at < bytes.len() {
        match step(bytes, at, last)? {
            (Class::Print, _) => return Some(true),
            (Class::Sep, _) => return Some(false),
            (Class::Other, len) => at += len,
        }
    }
    None
}

/// Runs the exact state machine over the characters of `bytes` that start before `until`;
/// returns where it stopped: after the last character, or at a prefix cut by the end of
/// `bytes` when `last` is false.
fn scalar(w: &mut Words, bytes: &[u8], mut i: usize, until: usize, last: bool) -> usize {
    while i < until {
        match step(bytes, i, last) {
            Some((class, len)) => {
                w.apply(class);
                i += len;
            }
            None => break,
        }
    }
    i
}

/// Takes back the run counted at `bytes[at]` (`at + 2 < bytes.len()`) unless it
/// holds a printable character; a run that reaches the end of `bytes` without one leaves no
/// word open (`dangling`).
#[inline(always)]
fn take_back(st: &mut WordState, dangling: &mut bool, bytes: &[u8], at: usize, last: bool) {
    if !surely_word(bytes, at) {
        take_back_unless_printable(st, dangling, bytes, at, last);
    }
}

/// [`take_back`] for a run whose first character [`surely_word`] could not vouch for.
fn take_back_unless_printable(
    st: &mut WordState,
    dangling: &mut bool,
    bytes: &[u8],
    at: usize,
    last: bool,
) {
    match has_printable(bytes, at, last) {
        Some(true) => {}
        Some(false) => st.count -= 1,
        None => {
            st.count -= 1;
            *dangling = true;
        }
    }
}

/// The most doubtful run starts a batch checks one at a time where the kernel has a vector
/// test of them (measured with the VBMI kernel, whose tables leave few; the AVX-512 kernel
/// without VBMI, which leaves many more, shares it unmeasured).
const VECTOR_MIN: usize = 4;

/// Blocks of 64 bytes per kernel call (at most 32: one bit each in a `u32`).
const BATCH: usize = 32;
const _: () = assert!(BATCH <= 32);

/// Counts the words of `bytes` into `w` with kernel `k` (available); returns how many bytes
/// were consumed: all, or all but a sequence cut by the end when `last` is false.
fn words_with(k: Available, w: &mut Words, bytes: &[u8], last: bool) -> usize {
    let mut p = 0;
    // Until something that is not transparent is seen, the scalar loop keeps `first_open`.
    while !w.touched && p < bytes.len() {
        match step(bytes, p, last) {
            Some((class, len)) => {
                w.apply(class);
                p += len;
            }
            None => return p,
        }
    }
    let mut st = WordState {
        count: w.count,
        open: w.open,
        carry: 0,
    };
    // The run starts of each block of a batch whose first character the kernel cannot vouch
    // for.
    let mut others = [0u64; BATCH];
    // A run without a printable character so far reaches the end of `bytes`: no word is open.
    let mut dangling = false;
    // The offsets of a batch's doubtful run starts (up to four a block; set before they are
    // read, so made once: zeroing them per batch was a memset call each).
    let mut doubtful = [0u32; 4 * BATCH];
    let mut sure = [0u16; 4 * BATCH / 16];
    loop {
        let n = (bytes.len().saturating_sub(p + 2) / 64).min(BATCH);
        // The kernel counted every run; a run is a word when it holds a printable character,
        // which the table vouches for at most runs' first character. The others are looked
        // into until a printable character or a separator. Their offsets are gathered first,
        // from the blocks that have any (`busy`, one bit each, from the kernel), four a block
        // without branches (more in a block go by the loop at once), then checked in one
        // loop: a loop per block over a varying number of starts would mispredict its exit
        // about once a block.
        if n == 0 {
            break;
        }
        let Some(mut busy) = k.word_blocks(bytes, p, &mut st, &mut others[..n]) else {
            break;
        };
        if busy == 0 {
            // Every run's first character was vouched for (a batch of English, of code, of
            // Cyrillic or CJK text, mostly).
            p += 64 * n;
            continue;
        }
        let mut len = 0;
        while busy != 0 {
            let b = busy.trailing_zeros() as usize;
            busy &= busy - 1;
            let mut m = others[b];
            for _ in 0..4 {
                doubtful[len] = 64 * b as u32 + m.trailing_zeros();
                len += usize::from(m != 0);
                m &= m.wrapping_sub(1);
            }
            while m != 0 {
                let at = p + 64 * b + m.trailing_zeros() as usize;
                take_back(&mut st, &mut dangling, bytes, at, last);
                m &= m - 1;
            }
        }
        let batch = &doubtful[..len];
        // The first characters 16 at a time where the kernel has a vector test of them and
        // there are enough of them to pay for its setup: where the kernel's tables cover
        // most of a text (the VBMI kernel on the bench's mixed text: one or two a batch, flags)
        // one at a time is faster.
        if len > VECTOR_MIN && k.surely_words(bytes, p, batch, &mut sure) {
            for (c, &vouched) in sure.iter().enumerate().take(len.div_ceil(16)) {
                let lanes = (len - 16 * c).min(16);
                let mut unsure = !vouched & (u32::MAX >> (32 - lanes)) as u16;
                while unsure != 0 {
                    let at = p + doubtful[16 * c + unsure.trailing_zeros() as usize] as usize;
                    take_back_unless_printable(&mut st, &mut dangling, bytes, at, last);
                    unsure &= unsure - 1;
                }
            }
        } else {
            for &at in batch {
                take_back(&mut st, &mut dangling, bytes, p + at as usize, last);
            }
        }
        p += 64 * n;
    }
    (w.count, w.open) = (st.count, st.open && !dangling);
    // Bytes still carried are continuation bytes of a separator: the scalar machine skips
    // them as it skips any continuation byte.
    scalar(w, bytes, p, bytes.len(), last)
}

#[cfg(test)]
mod tests;
#[cfg(all(test, target_arch = "x86_64"))]
mod vbmi_tests;
