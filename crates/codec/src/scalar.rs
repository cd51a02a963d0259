//! The portable decoder: Table 3-7 as code, the ASCII skip and the validation kernel.
//!
//! Everything else in the crate is built on three functions here: [`unit_at`] (the unit, a
//! scalar value or a maximal subpart, that starts at an index), [`valid_up_to`] (the length of
//! the longest valid prefix; the one kernel a later SIMD path replaces) and
//! [`unit_start_before`] (self-synchronization backwards).

use crate::error::{ErrorKind, Utf8Error};

/// One unit of the segmentation: a scalar value or a maximal subpart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    /// A well-formed sequence of `len` bytes.
    Char(char, usize),
    /// A maximal subpart of `len` bytes.
    Error(usize, ErrorKind),
}

impl Unit {
    #[inline]
    pub(crate) fn len(self) -> usize {
        match self {
            Unit::Char(_, n) | Unit::Error(n, _) => n,
        }
    }
}

/// The length of the well-formed sequence announced by lead byte `b0` (Table 3-7), or 0 when
/// `b0` cannot start one.
#[inline]
pub(crate) const fn sequence_len(b0: u8) -> usize {
    match b0 {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 0,
    }
}

/// The range allowed for the second byte after lead `b0` (Table 3-7).
#[inline]
pub(crate) const fn second_byte_range(b0: u8) -> (u8, u8) {
    match b0 {
        0xE0 => (0xA0, 0xBF),
        0xED => (0x80, 0x9F),
        0xF0 => (0x90, 0xBF),
        0xF4 => (0x80, 0x8F),
        _ => (0x80, 0xBF),
    }
}

/// Whether `b` may stand at index `i` (1..=3) of a sequence that starts with `b0`.
#[inline]
pub(crate) const fn continues(b0: u8, i: usize, b: u8) -> bool {
    if i == 1 {
        let (lo, hi) = second_byte_range(b0);
        lo <= b && b <= hi
    } else {
        b & 0xC0 == 0x80
    }
}

/// Whether `b` is a continuation byte `80..BF`.
#[inline]
pub(crate) const fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// Decodes the scalar value of a well-formed sequence (no checks).
#[inline]
pub(crate) fn decode_valid(seq: &[u8]) -> char {
    let v = match seq.len() {
        1 => u32::from(seq[0]),
        2 => (u32::from(seq[0] & 0x1F) << 6) | u32::from(seq[1] & 0x3F),
        3 => {
            (u32::from(seq[0] & 0x0F) << 12)
                | (u32::from(seq[1] & 0x3F) << 6)
                | u32::from(seq[2] & 0x3F)
        }
        _ => {
            (u32::from(seq[0] & 0x07) << 18)
                | (u32::from(seq[1] & 0x3F) << 12)
                | (u32::from(seq[2] & 0x3F) << 6)
                | u32::from(seq[3] & 0x3F)
        }
    };
    // Table 3-7 admits only scalar values, so this never falls back.
    char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The unit that starts at `bytes[i]` (`i < bytes.len()`), classified against the whole of
/// `bytes`: a subpart that reaches `bytes.len()` is `unexpected-end`.
#[inline]
pub(crate) fn unit_at(bytes: &[u8], i: usize) -> Unit {
    let b0 = bytes[i];
    if b0 < 0x80 {
        return Unit::Char(b0 as char, 1);
    }
    let n = sequence_len(b0);
    let next = bytes.get(i + 1).copied();
    if n == 0 {
        return Unit::Error(1, ErrorKind::classify(b0, next, false));
    }
    let mut k = 1;
    while k < n {
        match bytes.get(i + k) {
            None => return Unit::Error(k, ErrorKind::UnexpectedEnd),
            Some(&b) if continues(b0, k, b) => k += 1,
            Some(_) => return Unit::Error(k, ErrorKind::classify(b0, next, false)),
        }
    }
    Unit::Char(decode_valid(&bytes[i..i + n]), n)
}

/// How many positions the dense scanner looks at per call: also the capacity it needs for
/// the errors it finds (at most one per position).
pub(crate) const DENSE: usize = 64;

/// First bytes that the dense scanner tells apart, one representative each: every byte of a
/// class announces the same length, allows the same second bytes and gives errors of the same
/// kinds (ASCII, continuation, `C0 C1`, `F5..FD`, `FE FF`, other leads of 2, 3 and 4 bytes,
/// `E0`, `ED`, `F0`, `F4`).
const CLASS_BYTES: [u8; 12] = [
    0x41, 0x80, 0xC0, 0xF5, 0xFF, 0xC2, 0xE1, 0xF1, 0xE0, 0xED, 0xF0, 0xF4,
];

/// The index in [`CLASS_BYTES`] of the class of first byte `b0`.
const fn class_of(b0: u8) -> u8 {
    match b0 {
        0x00..=0x7F => 0,
        0x80..=0xBF => 1,
        0xC0 | 0xC1 => 2,
        0xF5..=0xFD => 3,
        0xFE | 0xFF => 4,
        0xC2..=0xDF => 5,
        0xE0 => 8,
        0xED => 9,
        0xF0 => 10,
        0xF4 => 11,
        0xE1..=0xEF => 6,
        0xF1..=0xF3 => 7,
    }
}

/// By first byte: its class (see [`CLASS_BYTES`]) in the high nibble, the length of the
/// sequence it announces ([`sequence_len`]) in the low one.
static LEAD: [u8; 256] = {
    let mut t = [0; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = class_of(b as u8) << 4 | sequence_len(b as u8) as u8;
        b += 1;
    }
    t
};

/// By `class << 4 | second byte >> 4`: bit 0, whether the second byte continues the
/// sequence; bits 1 and 2, whether the sequence has a third and a fourth byte; bits 4..8, the
/// [`ErrorKind::index`] of an error there that does not reach the end of the input. Every
/// range Table 3-7 and [`ErrorKind::classify`] tell apart on the second byte starts and ends
/// on a nibble boundary, so the high nibble is all they need of it.
static PAIRS: [u8; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 16 * CLASS_BYTES.len() {
        let (b0, b1) = (CLASS_BYTES[i >> 4], (i as u8) << 4);
        let n = sequence_len(b0);
        let kind = ErrorKind::classify(b0, Some(b1), false).index() as u8;
        t[i] = (n >= 2 && continues(b0, 1, b1)) as u8
            | ((n >= 3) as u8) << 1
            | ((n >= 4) as u8) << 2
            | kind << 4;
        i += 1;
    }
    t
};

/// Finds every error among the units that start in `from..limit`, where errors are dense.
///
/// `from` must be a unit boundary, `from < limit`, `limit - from <= DENSE` and
/// `limit + 3 <= bytes.len()`, so every unit looked at lies wholly inside `bytes` and none is
/// `unexpected-end`. Writes the errors to `out[..n]`, each as `index from `from` | len << 8 |
/// kind index << 16` (see [`dense_error`]), and returns `n` with the first unit boundary at
/// or after `limit`.
///
/// Random bytes make the branches of [`unit_at`] unpredictable, so this decides every
/// position the same way, without branching on the data: the unit a position would start is
/// worked out from the four bytes there with two table lookups, and whether it does start one
/// (the previous unit ends there) only selects what is kept.
#[inline]
pub(crate) fn scan_errors(
    bytes: &[u8],
    from: usize,
    limit: usize,
    out: &mut [u32; DENSE],
) -> (usize, usize) {
    let mut next = 0;
    let mut n = 0;
    for (j, w) in bytes[from..limit + 3].windows(4).enumerate() {
        let [b0, b1, b2, b3] = <[u8; 4]>::try_from(w).unwrap_or([0; 4]);
        let lead = LEAD[usize::from(b0)];
        let pair = PAIRS[usize::from(lead & 0xF0 | b1 >> 4)];
        // How many bytes of the sequence announced are there: 1 to its length.
        let m1 = pair & 1;
        let m2 = m1 & pair >> 1 & u8::from(is_continuation(b2));
        let m3 = m2 & pair >> 2 & u8::from(is_continuation(b3));
        let k = 1 + m1 + m2 + m3;
        // At most one error per position, and fewer than DENSE positions are behind this one.
        out[n & (DENSE - 1)] = j as u32 | u32::from(k) << 8 | u32::from(pair >> 4) << 16;
        let starts = j >= next;
        n += usize::from(starts & (k != lead & 0x0F));
        next = if starts { j + usize::from(k) } else { next };
    }
    (n, from + next)
}

/// The [`ErrorKind::index`] of an error that starts with `b0 b1` and does not reach the end
/// of the input.
#[inline]
pub(crate) fn pair_kind(b0: u8, b1: u8) -> u8 {
    PAIRS[usize::from(LEAD[usize::from(b0)] & 0xF0 | b1 >> 4)] >> 4
}

/// The error of an entry written by [`scan_errors`] called with `from`.
#[inline]
pub(crate) fn dense_error(from: usize, entry: u32) -> Utf8Error {
    Utf8Error::from_raw(
        from + (entry & 0xFF) as usize,
        (entry >> 8) as u8,
        ErrorKind::ALL[(entry >> 16) as usize & 7],
    )
}

const HI: u64 = 0x8080_8080_8080_8080;

/// Whether `bytes`, under 64 bytes long, is all ASCII: from 16 bytes four 16-byte words
/// or-ed together (at 0, 16, 32 and the last 16 bytes, overlapping where the input is
/// shorter: no loop), from 8 bytes two 8-byte words, bytewise under 8 bytes. Cheaper per
/// call than the ASCII skip of [`valid_up_to`] on short input.
#[inline]
pub(crate) fn is_ascii_short(bytes: &[u8]) -> bool {
    let n = bytes.len();
    debug_assert!(n < 64);
    if n >= 16 {
        let last = n - 16;
        let word = |i: usize| match bytes.get(i.min(last)..).and_then(<[u8]>::first_chunk) {
            Some(w) => u128::from_le_bytes(*w),
            None => 0,
        };
        let hi = u128::from(HI) << 64 | u128::from(HI);
        return (word(0) | word(16) | word(32) | word(last)) & hi == 0;
    }
    if n >= 8 {
        let word = |i: usize| match bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
            Some(w) => u64::from_le_bytes(*w),
            None => 0,
        };
        return (word(0) | word(n - 8)) & HI == 0;
    }
    if n >= 4 {
        return short_word(bytes) & HI == 0;
    }
    bytes.iter().fold(0, |a, &b| a | b) < 0x80
}

/// The bytes of `bytes`, under 8 bytes long, in a little-endian word with zeros after them:
/// two overlapping loads (or three single bytes under 4), no loop.
#[inline]
pub(crate) fn short_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    debug_assert!(n < 8);
    let w4 = |b: Option<&[u8; 4]>| u64::from(u32::from_le_bytes(b.copied().unwrap_or([0; 4])));
    if n >= 4 {
        // Bytes `n - 4..4` are in both words, with the same values.
        w4(bytes.first_chunk()) | w4(bytes.last_chunk()) << (8 * (n - 4))
    } else if let (Some(&a), Some(&z)) = (bytes.first(), bytes.last()) {
        let m = bytes.get(n / 2).copied().unwrap_or(0);
        u64::from(a) | u64::from(m) << (8 * (n / 2)) | u64::from(z) << (8 * (n - 1))
    } else {
        0
    }
}

/// The length of the longest prefix of `bytes` that is well-formed UTF-8.
///
/// This is the validation kernel: the one function a faster implementation replaces. Its
/// answer is always a character boundary.
#[inline]
pub(crate) fn valid_up_to(bytes: &[u8]) -> usize {
    let len = bytes.len();
    let mut i = 0;
    while i < len {
        let b0 = bytes[i];
        if b0 < 0x80 {
            // ASCII skip, 16 bytes at a time.
            while let Some(block) = bytes.get(i..i + 16) {
                let (a, b) = block.split_at(8);
                let a = u64::from_le_bytes(a.try_into().unwrap_or([0; 8]));
                let b = u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
                if (a | b) & HI != 0 {
                    break;
                }
                i += 16;
            }
            while i < len && bytes[i] < 0x80 {
                i += 1;
            }
            continue;
        }
        let n = sequence_len(b0);
        if n == 0 || i + n > len {
            return i;
        }
        if !continues(b0, 1, bytes[i + 1])
            || (n > 2 && !is_continuation(bytes[i + 2]))
            || (n > 3 && !is_continuation(bytes[i + 3]))
        {
            return i;
        }
        i += n;
    }
    len
}

/// [`valid_up_to`] of under 4 bytes: at most one sequence of 2 or 3 bytes, no ASCII skip.
#[inline(always)]
pub(crate) fn valid_up_to_tiny(bytes: &[u8]) -> usize {
    let len = bytes.len();
    let mut i = 0;
    while i < len {
        let b0 = bytes[i];
        let n = sequence_len(b0);
        if n == 0
            || i + n > len
            || (n > 1 && !continues(b0, 1, bytes[i + 1]))
            || (n > 2 && !is_continuation(bytes[i + 2]))
        {
            return i;
        }
        i += n;
    }
    len
}

/// An index in `k - 3..=k` (`4 <= k < bytes.len()`) before which every segmentation of
/// `bytes` has a unit boundary: `k` when `bytes[k]` is not a continuation byte, else the
/// last byte before it that is not (a unit only has continuation bytes after its first), else
/// `k` (no unit holding `bytes[k]` can start 3 continuation bytes earlier). Cutting there
/// splits no unit, so each piece keeps the whole input's segmentation and valid prefix.
#[inline]
pub(crate) fn unit_cut(bytes: &[u8], k: usize) -> usize {
    (k - 3..=k)
        .rev()
        .find(|&q| !is_continuation(bytes[q]))
        .unwrap_or(k)
}

/// The scalar kernel: [`valid_up_to`]'s answer, at least as fast as `core::str::from_utf8`:
/// whole 64-byte blocks of ASCII are skipped 8 words at a time (the compiler
/// turns the or of the words into SSE2 on x86-64, NEON on aarch64), and the rest from the
/// first other block goes to core's validator. (Handing core a chunk at a time, to skip later
/// ASCII runs here too, measured slower than core on non-ASCII text.)
#[inline]
pub(crate) fn valid_up_to_core(bytes: &[u8]) -> usize {
    let mut o = 0;
    while let Some(block) = bytes.get(o..).and_then(<[u8]>::first_chunk::<64>) {
        let mut high = 0;
        for w in block.chunks_exact(8) {
            high |= u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        }
        if high & HI != 0 {
            break;
        }
        o += 64;
    }
    let rest = &bytes[o..];
    o + core::str::from_utf8(rest).map_or_else(|e| e.valid_up_to(), str::len)
}

/// The start of the unit that ends at `end`, given that both `front` and `end` are unit
/// boundaries with `front < end <= bytes.len()`.
///
/// Every byte that is not a continuation byte starts a unit (a maximal subpart never contains
/// one after its first byte), and a unit is at most 4 bytes long: so the unit ending at `end`
/// starts at or after the last non-continuation byte among the 4 before `end`, and forward
/// decoding from there finds it. With no such byte, `bytes[end - 1]` is a unit of its own.
#[inline]
pub(crate) fn unit_start_before(bytes: &[u8], front: usize, end: usize) -> usize {
    let lowest = front.max(end.saturating_sub(4));
    let mut p = end - 1;
    while p > lowest && is_continuation(bytes[p]) {
        p -= 1;
    }
    if is_continuation(bytes[p]) && p != front {
        return end - 1;
    }
    loop {
        let n = unit_at(bytes, p).len();
        if p + n >= end {
            return p;
        }
        p += n;
    }
}

/// What the kernels count over valid text, byte classes that add up: ASCII bytes, leads of
/// 2, 3 and 4 bytes (one of the four per scalar value) and newlines. Counts are per byte, so
/// the counts of a run split anywhere add up to the run's, and a piece counted too many can
/// be subtracted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TextCounts {
    /// ASCII bytes (one-byte scalar values); in counts without lengths, every scalar value
    /// (see [`lean`](TextCounts::lean)).
    pub(crate) ascii: u64,
    /// Leads of two-byte sequences.
    pub(crate) lead2: u64,
    /// Leads of three-byte sequences.
    pub(crate) lead3: u64,
    /// Leads of four-byte sequences.
    pub(crate) lead4: u64,
    /// Newline bytes.
    pub(crate) newlines: u64,
}

impl TextCounts {
    /// The counts of bit masks over the same bytes (a set bit a byte of that class).
    #[inline(always)]
    pub(crate) fn of_masks(ascii: u64, lead: [u64; 3], newlines: u64) -> TextCounts {
        let n = |m: u64| u64::from(m.count_ones());
        TextCounts {
            ascii: n(ascii),
            lead2: n(lead[0]),
            lead3: n(lead[1]),
            lead4: n(lead[2]),
            newlines: n(newlines),
        }
    }

    /// The same counts without lengths, as the kernels count when lengths are not asked for:
    /// every scalar value in `ascii` (only [`chars`](TextCounts::chars) and `newlines`
    /// mean anything then).
    #[inline(always)]
    pub(crate) fn lean(self) -> TextCounts {
        TextCounts::without_lengths(self.chars(), self.newlines)
    }

    /// `chars` scalar values and `newlines` newlines without lengths (see
    /// [`lean`](TextCounts::lean)).
    #[inline(always)]
    pub(crate) fn without_lengths(chars: u64, newlines: u64) -> TextCounts {
        TextCounts {
            ascii: chars,
            newlines,
            ..TextCounts::default()
        }
    }

    /// Scalar values: one per ASCII byte or lead.
    #[inline]
    pub(crate) fn chars(&self) -> u64 {
        self.ascii + self.lead2 + self.lead3 + self.lead4
    }

    /// Scalar values by length in bytes (1 to 4).
    #[inline]
    pub(crate) fn by_length(&self) -> [u64; 4] {
        [self.ascii, self.lead2, self.lead3, self.lead4]
    }
}

impl core::ops::AddAssign for TextCounts {
    #[inline(always)]
    fn add_assign(&mut self, o: TextCounts) {
        self.ascii += o.ascii;
        self.lead2 += o.lead2;
        self.lead3 += o.lead3;
        self.lead4 += o.lead4;
        self.newlines += o.newlines;
    }
}

impl core::ops::SubAssign for TextCounts {
    #[inline(always)]
    fn sub_assign(&mut self, o: TextCounts) {
        self.ascii -= o.ascii;
        self.lead2 -= o.lead2;
        self.lead3 -= o.lead3;
        self.lead4 -= o.lead4;
        self.newlines -= o.newlines;
    }
}

/// Adds the counts of a valid UTF-8 run to `acc`, a word at a time.
#[inline]
pub(crate) fn count_valid(bytes: &[u8], acc: &mut TextCounts) {
    let mut words = bytes.chunks_exact(8);
    // No branch on the data: between dense errors the pieces are short and of every script.
    for w in words.by_ref() {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        let (c6, c5, c4) = (w << 1, w << 2, w << 3);
        acc.ascii += u64::from((!w & HI).count_ones());
        acc.lead2 += u64::from((w & c6 & !c5 & HI).count_ones());
        acc.lead3 += u64::from((w & c6 & c5 & !c4 & HI).count_ones());
        acc.lead4 += u64::from((w & c6 & c5 & c4 & HI).count_ones());
        // Exact zero-byte test of w ^ '\n' per byte (no carries across bytes).
        let x = w ^ 0x0A0A_0A0A_0A0A_0A0A;
        let t = ((x & !HI).wrapping_add(!HI)) | x;
        acc.newlines += u64::from((!t & HI).count_ones());
    }
    for &b in words.remainder() {
        acc.ascii += u64::from(b < 0x80);
        acc.lead2 += u64::from(b & 0xE0 == 0xC0);
        acc.lead3 += u64::from(b & 0xF0 == 0xE0);
        acc.lead4 += u64::from(b >= 0xF0);
        acc.newlines += u64::from(b == b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_valid_matches_naive() {
        let text = "line one\nдва\n三\n😀 four\n\n".repeat(7);
        let mut acc = TextCounts::default();
        count_valid(text.as_bytes(), &mut acc);
        let by_len = |n| text.chars().filter(|c| c.len_utf8() == n).count() as u64;
        assert_eq!(
            acc.by_length(),
            [by_len(1), by_len(2), by_len(3), by_len(4)]
        );
        assert_eq!(acc.newlines, 35);
    }

    #[test]
    fn unit_start_before_finds_lone_continuations() {
        let b = b"\x80\x80\x80\x80\x80";
        assert_eq!(unit_start_before(b, 0, 5), 4);
        assert_eq!(unit_start_before(b"\xF0\x9F\x98\x80", 0, 4), 0);
        assert_eq!(unit_start_before(b"\xF0\x9F\x98\x80\x80", 0, 5), 4);
    }

    #[test]
    fn is_ascii_short_sees_every_high_byte() {
        // Every length under 64, all ASCII and with one high byte at each position: the
        // overlapping words must cover every byte.
        for n in 0..64 {
            let mut v = [b'a'; 64];
            assert!(is_ascii_short(&v[..n]), "{n}");
            for i in 0..n {
                v[i] = 0x80;
                assert!(!is_ascii_short(&v[..n]), "{n} {i}");
                v[i] = 0x7F;
                assert!(is_ascii_short(&v[..n]), "{n} {i}");
                v[i] = b'a';
            }
        }
    }
}
