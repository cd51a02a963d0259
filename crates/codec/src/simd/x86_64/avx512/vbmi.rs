//! Word counting's vector pass with AVX-512 VBMI (see `words::word_blocks`), the capability
//! of its own token (`token::Avx512Vbmi`, made from the AVX-512 one): each byte's classes
//! from byte permutes of tables instead of compares and nibble tables.

use core::arch::x86_64::*;

use crate::simd::words::{self, BYTE_CLASSES, Classes, WordState, class};
use crate::simd::{token, word_span};

/// Word counting's vector pass with AVX-512 VBMI (see `words::word_blocks`) over the blocks
/// at `ptr`: each byte's classes from byte permutes of tables ([`ASCII`], [`LEAD`],
/// [`SECOND`], [`THIRD`] and [`LEAD2`], [`SECOND2`], [`THIRD2`]).
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512BW, AVX-512VBMI and POPCNT; the contract of
/// `words::word_blocks`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
unsafe fn word_blocks_vbmi(ptr: *const u8, st: &mut WordState, others: &mut [u64]) -> u32 {
    // The two halves of the 128-byte tables as 64-byte arrays.
    let (ascii, third) = (ASCII.as_chunks::<64>().0, THIRD.as_chunks::<64>().0);
    // SAFETY: AVX-512F/BW/VBMI are present (this function's contract); each load reads the
    // 64 bytes of a 64-byte array.
    let t = unsafe {
        let at = |t: &[u8; 64]| _mm512_loadu_si512(t.as_ptr().cast());
        Tables {
            ascii: [at(&ascii[0]), at(&ascii[1])],
            lead: at(&LEAD),
            second: at(&SECOND),
            third: [at(&third[0]), at(&third[1])],
            lead2: at(&LEAD2),
            second2: at(&SECOND2),
            third2: at(&THIRD2),
        }
    };
    // SAFETY: the ranges are valid (this function's contract) and `classes_vbmi`'s contract
    // holds for every block `word_blocks_by` gives it (66 readable bytes, this ISA).
    unsafe { words::word_blocks_by(ptr, st, others, |b| classes_vbmi(&t, b)) }
}

impl token::Avx512Vbmi {
    /// Word counting's vector pass with AVX-512 VBMI over the blocks at the start of `bytes`.
    ///
    /// # Panics
    ///
    /// If `others` has more than 32 elements or `bytes` fewer than `64 * others.len() + 2`.
    #[inline(always)]
    pub(in crate::simd::x86_64) fn word_blocks(
        self,
        bytes: &[u8],
        st: &mut WordState,
        others: &mut [u64],
    ) -> u32 {
        word_span(bytes, others);
        // SAFETY: `self` proves AVX-512F, AVX-512BW, AVX-512VBMI and POPCNT; the check above
        // keeps every read inside `bytes`.
        unsafe { word_blocks_vbmi(bytes.as_ptr(), st, others) }
    }
}

/// The sequences the VBMI kernel recognizes, one bit each: a sequence is at a byte whose
/// [`LEAD`] entry, whose next byte's [`SECOND`] entry and whose byte after that's [`THIRD`]
/// entry all have its bit (the tables are indexed so that a byte that cannot be there reads
/// an entry without it).
mod seq {
    /// E2 80 80..8A and E2 80 AF (U+2000..U+200A, U+202F): separators.
    pub(super) const E2_80: u8 = 1;
    /// E2 81 9F and E2 81 A0 (U+205F, U+2060): separators.
    pub(super) const E2_81: u8 = 2;
    /// E1 9A 80 (U+1680): a separator.
    pub(super) const E1: u8 = 4;
    /// E3 80 80 (U+3000): a separator.
    pub(super) const E3: u8 = 8;
    /// C2 A0 (U+00A0): a separator; every [`THIRD`](super::THIRD) entry has it.
    pub(super) const C2: u8 = 16;
    /// The three-byte separators.
    pub(super) const THREE: u8 = E2_80 | E2_81 | E1 | E3;
    /// A two-byte lead of [`WORD_LEADS`](crate::simd::words::WORD_LEADS) and a
    /// continuation byte: a word character. Also [`ASCII`](super::ASCII)'s bit of printable
    /// ASCII, in entries no lead shares.
    pub(super) const WORD2: u8 = 32;
    /// A three-byte lead of `WORD_LEADS` and two continuation bytes: a word character.
    pub(super) const WORD3: u8 = 64;
    /// F0 9F and a third byte of [`EMOJI_WHOLE`](super::EMOJI_WHOLE): an emoji when a
    /// continuation byte follows.
    pub(super) const EMOJI: u8 = 128;
    /// The sequences that begin a word.
    pub(super) const WORD: u8 = WORD2 | WORD3 | EMOJI;
}

/// [`ASCII`]'s bit of the ASCII blanks (tab, newline, VT, FF, CR, space).
const BLANK: u8 = 1;

/// The VBMI kernel's tables in registers.
struct Tables {
    /// [`ASCII`].
    ascii: [__m512i; 2],
    /// [`LEAD`].
    lead: __m512i,
    /// [`SECOND`].
    second: __m512i,
    /// [`THIRD`].
    third: [__m512i; 2],
    /// [`LEAD2`].
    lead2: __m512i,
    /// [`SECOND2`].
    second2: __m512i,
    /// [`THIRD2`].
    third2: __m512i,
}

/// The ASCII classes, indexed by the byte (a byte from 0x80 by 0x80, whose low 7 bits read
/// entry 0, NUL's): [`BLANK`], and printable ASCII (0x21..0x7E) as [`seq::WORD2`].
const ASCII: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        let c = BYTE_CLASSES[i];
        if c & class::BLANK != 0 {
            t[i] |= BLANK;
        }
        if c & class::PRINT != 0 {
            t[i] |= seq::WORD2;
        }
        i += 1;
    }
    t
};

/// The [`seq`] bits of a lead byte, by its low 6 bits (the byte minus 0xC0, saturated: the
/// bytes below 0xC0 read C0's entry, which is zero).
const LEAD: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let c = BYTE_CLASSES[0xC0 | i];
        if c & class::LEAD2 != 0 {
            t[i] |= seq::WORD2;
        }
        if c & class::LEAD3 != 0 {
            t[i] |= seq::WORD3;
        }
        t[i] |= match 0xC0 | i {
            0xC2 => seq::C2,
            0xE1 => seq::E1,
            0xE2 => seq::E2_80 | seq::E2_81,
            0xE3 => seq::E3,
            0xF0 => seq::EMOJI,
            _ => 0,
        };
        i += 1;
    }
    t
};

/// The [`seq`] bits of a second byte, by its low 6 bits (the byte xor 0x80, clamped to 0x40
/// for the bytes that are not continuation bytes: the entries from 64 are zero).
const SECOND: [u8; 64] = {
    let mut t = [seq::WORD2 | seq::WORD3; 64];
    t[0x80 & 0x3F] |= seq::E2_80 | seq::E3;
    t[0x81 & 0x3F] |= seq::E2_81;
    t[0x9A & 0x3F] |= seq::E1;
    t[0xA0 & 0x3F] |= seq::C2;
    t[0x9F & 0x3F] |= seq::EMOJI;
    t
};

/// The [`seq`] bits of a third byte: a continuation byte by its low 6 bits, any other byte
/// in entry 64 (the byte xor 0x80, clamped to 0x40).
const THIRD: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 64 {
        t[i] = seq::C2 | seq::WORD2 | seq::WORD3 | EMOJI_WHOLE[i];
        i += 1;
    }
    t[64] = seq::C2 | seq::WORD2;
    let mut b = 0x80;
    while b <= 0x8A {
        t[b & 0x3F] |= seq::E2_80;
        b += 1;
    }
    t[0xAF & 0x3F] |= seq::E2_80;
    t[0x9F & 0x3F] |= seq::E2_81;
    t[0xA0 & 0x3F] |= seq::E2_81;
    t[0x80 & 0x3F] |= seq::E1 | seq::E3;
    t
};

/// The third bytes of `F0 9F xx yy` (U+1F000..U+1FFFF: emoji, symbols, playing cards)
/// whose 64 code points all begin a word (printable for glibc 2.36, none a separator),
/// [`seq::EMOJI`] in the entry of the byte's low 6 bits: U+1F300..U+1F6BF and the other whole
/// blocks. words/tests.rs holds it to `WORD_BITS` both ways.
pub(crate) const EMOJI_WHOLE: [u8; 64] = {
    let whole: [u8; 27] = [
        0x81, 0x84, 0x85, 0x8C, 0x8D, 0x8E, 0x8F, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,
        0x98, 0x99, 0x9A, 0x9C, 0x9E, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xAC, 0xAD,
    ];
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < whole.len() {
        t[(whole[i] & 0x3F) as usize] = seq::EMOJI;
        i += 1;
    }
    t
};

/// The second set of sequences ([`LEAD2`], [`SECOND2`], [`THIRD2`]): three-byte characters
/// of the leads whose 64-code-point blocks are not all words, block by block, and kana.
mod seq2 {
    /// The leads with a bit of their own, in bit order: the blocks of each lead whose 64
    /// code points all begin a word are [`WHOLE_BLOCKS`](super::WHOLE_BLOCKS) (E3 shares its
    /// bit with EF).
    pub(super) const LEADS: [u8; 6] = [0xE0, 0xE1, 0xE2, 0xE3, 0xEA, 0xED];
    /// E3 80 81..BF and E3 81 81..BF: CJK punctuation (U+3001..U+303F) and hiragana
    /// (U+3041..U+307F); U+3000 is a separator, U+3040 unassigned.
    pub(super) const KANA1: u8 = 64;
    /// E3 82 80..96 and E3 82 99..BF: hiragana and katakana (U+3080..U+3096,
    /// U+3099..U+30BF); U+3097 and U+3098 are unassigned.
    pub(super) const KANA2: u8 = 128;
}

/// For each lead E0..EF, the second bytes (bit `b & 0x3F`) of its 64-code-point blocks all
/// of whose characters begin a word (glibc 2.36: printable, none a separator; E0's second
/// bytes from A0, ED's below A0). words/tests.rs holds it to `WORD_BITS` both ways.
pub(crate) const WHOLE_BLOCKS: [u64; 16] = [
    1 << 0x23 | 1 << 0x24 | 1 << 0x25 | 1 << 0x3C,
    0x0ff0_5000_43ff_01f7,
    0x7107_9fff_fffc_ffb0,
    0xffff_ffff_ffff_fe28,
    !0,
    !0,
    !0,
    !0,
    !0,
    !0,
    0xffff_4454_76f3_ffff,
    !0,
    !0,
    0x3fff_ffff,
    !0,
    0x243f_45ff_ffff_ffff,
];

// The bytes below 0xC0 read entry 0 of the lead tables (C0 leads nothing), the bytes from
// 0x80 entry 0 of the ASCII table (NUL: neither blank nor printable).
const _: () = assert!(LEAD[0] == 0 && LEAD2[0] == 0 && ASCII[0] == 0);

/// The [`seq2`] bits of a lead byte, indexed as [`LEAD`].
const LEAD2: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < seq2::LEADS.len() {
        t[(seq2::LEADS[i] & 0x3F) as usize] |= 1 << i;
        i += 1;
    }
    t[0xEF & 0x3F] |= 1 << 3;
    t[0xE3 & 0x3F] |= seq2::KANA1 | seq2::KANA2;
    t
};

/// The [`seq2`] bits of a second byte, indexed as [`SECOND`].
const SECOND2: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut s = 0;
    while s < 64 {
        let mut i = 0;
        while i < seq2::LEADS.len() {
            let mut whole = WHOLE_BLOCKS[(seq2::LEADS[i] & 0xF) as usize];
            if seq2::LEADS[i] == 0xE3 {
                whole &= WHOLE_BLOCKS[0xF];
            }
            if whole >> s & 1 != 0 {
                t[s] |= 1 << i;
            }
            i += 1;
        }
        s += 1;
    }
    t[0x80 & 0x3F] |= seq2::KANA1;
    t[0x81 & 0x3F] |= seq2::KANA1;
    t[0x82 & 0x3F] |= seq2::KANA2;
    t
};

/// The [`seq2`] bits of a third byte, by its low 6 bits (a byte that is not a continuation
/// byte reads entry 64, which is zero: every sequence of the set has three bytes).
const THIRD2: [u8; 64] = {
    let mut t = [(1 << seq2::LEADS.len()) - 1; 64];
    let mut b = 0x80;
    while b <= 0xBF {
        if b >= 0x81 {
            t[b & 0x3F] |= seq2::KANA1;
        }
        if b <= 0x96 || b >= 0x99 {
            t[b & 0x3F] |= seq2::KANA2;
        }
        b += 1;
    }
    t
};

/// The [`Classes`] of the 64 bytes at `block`, looked up in `t`.
///
/// Each byte's sequences are the and of three lookups (its own, the next byte's, the one
/// after), in two sets of eight, tested once at the end: two masks a block moved to general
/// registers (four in a block with a non-ASCII separator) where testing each condition apart
/// would move eight (a mask move takes longer than a test). The second set vouches for the
/// three-byte characters the first leaves to the caller.
///
/// # Safety
///
/// Only on a CPU with AVX-512F, AVX-512BW and AVX-512VBMI; `block .. block + 66` must be
/// readable.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
unsafe fn classes_vbmi(t: &Tables, block: *const u8) -> Classes {
    // SAFETY: the ISA is present and the loads read 64 bytes at `block`, `block + 1` and
    // `block + 2`, and the 63 at `block + 3` (the last lane masked off: no fault), inside the
    // readable range (this function's contract).
    unsafe {
        let v = _mm512_loadu_si512(block.cast());
        let k = |b: u8| _mm512_set1_epi8(b as i8);
        let high = _mm512_movepi8_mask(v);
        // Bytes from 0x80 read entry 0 (NUL: neither blank nor printable).
        let ascii = _mm512_permutex2var_epi8(t.ascii[0], _mm512_min_epu8(v, k(0x80)), t.ascii[1]);
        let blank = _mm512_test_epi8_mask(ascii, k(BLANK));
        if high == 0 {
            return Classes {
                sep: blank,
                word: _mm512_test_epi8_mask(ascii, k(seq::WORD2)),
                carry: 0,
            };
        }
        let (v1, v2) = (
            _mm512_loadu_si512(block.add(1).cast()),
            _mm512_loadu_si512(block.add(2).cast()),
        );
        let v3 = _mm512_maskz_loadu_epi8(u64::MAX >> 1, block.add(3).cast());
        // The index of each table: the byte's low 6 bits where it may be there (a lead from
        // 0xC0, a continuation byte); elsewhere 0 for a lead (C0 is none) and 0x40 for the
        // others, whose 64 entries are all used.
        let ixl = _mm512_subs_epu8(v, k(0xC0));
        let index = |x: __m512i| _mm512_min_epu8(_mm512_xor_si512(x, k(0x80)), k(0x40));
        let zero = _mm512_setzero_si512();
        let (ix1, ix2) = (index(v1), index(v2));
        let all = _mm512_ternarylogic_epi32::<0x80>(
            _mm512_permutexvar_epi8(ixl, t.lead),
            _mm512_permutex2var_epi8(t.second, ix1, zero),
            _mm512_permutex2var_epi8(t.third[0], ix2, t.third[1]),
        );
        let all2 = _mm512_ternarylogic_epi32::<0x80>(
            _mm512_permutexvar_epi8(ixl, t.lead2),
            _mm512_permutex2var_epi8(t.second2, ix1, zero),
            _mm512_permutex2var_epi8(t.third2, ix2, zero),
        );
        // An emoji needs a fourth byte, a continuation byte (0x80..0xBF: bit 7 set, bit 6
        // clear): bit 7 of `v3 & !(v3 + v3)`; the other sequences need none (0x7F).
        let fourth = _mm512_ternarylogic_epi32::<0xBA>(v3, _mm512_add_epi8(v3, v3), k(0x7F));
        // (all & fourth) | ascii: the ASCII lanes' `all` is zero, the others' `ascii`.
        let words = _mm512_ternarylogic_epi32::<0xEA>(all, fourth, ascii);
        // (words & WORD) | all2: a word begins where any bit is left.
        let words = _mm512_ternarylogic_epi32::<0xEA>(words, k(seq::WORD), all2);
        let mut out = Classes {
            sep: blank,
            word: _mm512_test_epi8_mask(words, words),
            carry: 0,
        };
        // Most blocks have no non-ASCII separator: a test and a branch instead of moving two
        // masks to general registers (each move slower than a test).
        if _mm512_test_epi8_mask(all, k(seq::C2 | seq::THREE)) != 0 {
            out.add_wide_separators(
                _mm512_test_epi8_mask(all, k(seq::C2)),
                _mm512_test_epi8_mask(all, k(seq::THREE)),
            );
        }
        out
    }
}

/// Whether this CPU runs both the VBMI and the AVX-512 word kernel (AVX-512F, AVX-512BW and
/// AVX-512VBMI, and the AVX2 the AVX-512 kernel needs).
#[cfg(test)]
pub(crate) fn vbmi_and_avx512_here() -> bool {
    token::Avx512Vbmi::new().is_some()
}

/// The VBMI and the AVX-512 kernel's end states and unvouched run starts (the first
/// `blocks` masks) over the `blocks` 64-byte blocks at `v[at..]` from `start`; `None` on a
/// CPU without [`vbmi_and_avx512_here`].
///
/// # Panics
///
/// If `blocks > 32` or `v` has fewer than `at + 64 * blocks + 2` bytes.
#[cfg(test)]
pub(crate) fn vbmi_and_avx512(
    v: &[u8],
    at: usize,
    blocks: usize,
    start: WordState,
) -> Option<[(WordState, [u64; 32]); 2]> {
    assert!(blocks <= 32 && at + 64 * blocks + 2 <= v.len());
    let t = token::Avx512Vbmi::new()?;
    let (mut a, mut b) = ((start, [0u64; 32]), (start, [0u64; 32]));
    let _ = t.word_blocks(&v[at..], &mut a.0, &mut a.1[..blocks]);
    let _ = t
        .avx512()
        .word_blocks(&v[at..], &mut b.0, &mut b.1[..blocks]);
    Some([a, b])
}
