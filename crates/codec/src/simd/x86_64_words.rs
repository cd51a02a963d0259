//! `#[target_feature]` entry points of word counting's vector pass
//! ([`words::word_blocks`]), beside `x86_64.rs` whose vector types they use.

use core::arch::x86_64::*;

use super::words::{self, BYTE_CLASSES, Classes, WordState, class};
use super::x86_64::{Avx2, Avx512, Sse};

/// The signature of the entry points: [`words::word_blocks`]'s.
///
/// # Safety
///
/// Call one only on a CPU with its kernel's ISA, under [`words::word_blocks`]'s contract.
pub(crate) type WordBlocks = unsafe fn(*const u8, &mut WordState, &mut [u64]);

/// Whether this CPU has AVX-512 VBMI (byte permutes across the whole register).
#[inline]
pub(crate) fn vbmi() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("avx512vbmi")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "avx512vbmi")
    }
}

/// Word counting's vector pass with SSE4.2 (see [`words::word_blocks`]).
/// # Safety
/// The CPU must support SSE4.2 and POPCNT; the contract of [`words::word_blocks`].
#[target_feature(enable = "sse4.2,popcnt")]
pub(crate) unsafe fn word_blocks_sse42(ptr: *const u8, st: &mut WordState, others: &mut [u64]) {
    // SAFETY: SSE4.2 is present and the ranges are valid (this function's contract).
    unsafe { words::word_blocks::<Sse>(ptr, st, others) }
}

/// Word counting's vector pass with AVX2 (see [`words::word_blocks`]).
/// # Safety
/// The CPU must support AVX2 and POPCNT; the contract of [`words::word_blocks`].
#[target_feature(enable = "avx2,popcnt")]
pub(crate) unsafe fn word_blocks_avx2(ptr: *const u8, st: &mut WordState, others: &mut [u64]) {
    // SAFETY: AVX2 is present and the ranges are valid (this function's contract).
    unsafe { words::word_blocks::<Avx2>(ptr, st, others) }
}

/// Word counting's vector pass with AVX-512F and AVX-512BW (see [`words::word_blocks`]).
/// # Safety
/// The CPU must support AVX-512F, AVX-512BW and POPCNT; the contract of
/// [`words::word_blocks`].
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
pub(crate) unsafe fn word_blocks_avx512(ptr: *const u8, st: &mut WordState, others: &mut [u64]) {
    // SAFETY: AVX-512F/BW are present and the ranges are valid (this function's contract).
    unsafe { words::word_blocks::<Avx512>(ptr, st, others) }
}

/// Word counting's vector pass with AVX-512 VBMI (see [`words::word_blocks`]): each byte's
/// classes from one 128-entry table ([`DUAL_CLASSES`], one `vpermi2b`) instead of compares
/// and nibble tables.
/// # Safety
/// The CPU must support AVX-512F, AVX-512BW, AVX-512VBMI and POPCNT; the contract of
/// [`words::word_blocks`].
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
pub(crate) unsafe fn word_blocks_vbmi(ptr: *const u8, st: &mut WordState, others: &mut [u64]) {
    // SAFETY: AVX-512F/BW/VBMI are present (this function's contract); each table is read 64
    // bytes at a time inside its 128 or 64 bytes.
    let t = unsafe {
        let at = |t: &[u8]| _mm512_loadu_si512(t.as_ptr().cast());
        [
            at(&DUAL_CLASSES[..64]),
            at(&DUAL_CLASSES[64..]),
            at(&SEP_SECOND),
            at(&SEP_THIRD),
            at(&EMOJI_WHOLE),
        ]
    };
    // SAFETY: the ranges are valid (this function's contract) and `classes_vbmi`'s contract
    // holds for every block `word_blocks_by` gives it (66 readable bytes, this ISA).
    unsafe { words::word_blocks_by(ptr, st, others, |b| classes_vbmi(&t, b)) }
}

/// The bits [`DUAL_CLASSES`] gives a byte from 0x80, and those of the separator tables
/// ([`SEP_SECOND`], [`SEP_THIRD`]): a separator begins where the three bytes' entries share
/// one (and the bytes after the lead are continuation bytes).
mod sep {
    /// E2 80 80..8A and E2 80 AF (U+2000..U+200A, U+202F).
    pub(super) const E2_80: u8 = 1;
    /// E2 81 9F and E2 81 A0 (U+205F, U+2060).
    pub(super) const E2_81: u8 = 2;
    /// E1 9A 80 (U+1680).
    pub(super) const E1: u8 = 4;
    /// E3 80 80 (U+3000).
    pub(super) const E3: u8 = 8;
    /// C2 A0 (U+00A0): every third byte has it.
    pub(super) const C2: u8 = 16;
    /// The three-byte separators.
    pub(super) const THREE: u8 = E2_80 | E2_81 | E1 | E3;
    /// Every separator.
    pub(super) const ANY: u8 = THREE | C2;
    /// A lead of [`WORD_LEADS`](super::super::words::WORD_LEADS), two- or three-byte: every
    /// character it leads begins a word.
    pub(super) const WHOLE: u8 = 32;
}

/// The bits [`DUAL_CLASSES`] gives a byte below 0x80: bits of their own, since the bytes from
/// 0x80 with the low bits of printable ASCII are the leads.
mod ascii {
    /// An ASCII blank (tab, newline, VT, FF, CR, space).
    pub(super) const BLANK: u8 = 64;
    /// Printable ASCII (0x21..0x7E).
    pub(super) const PRINT: u8 = 128;
}

/// The classes of a byte by its low 7 bits, read one way for a byte below 0x80 ([`ascii`])
/// and another for the byte from 0x80 with the same low bits ([`sep`]): the kernel tests each
/// only in the lanes it belongs to. [`BYTE_CLASSES`] in half the entries.
const DUAL_CLASSES: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        let (low, high) = (BYTE_CLASSES[i], BYTE_CLASSES[i | 0x80]);
        if low & class::BLANK != 0 {
            t[i] |= ascii::BLANK;
        }
        if low & class::PRINT != 0 {
            t[i] |= ascii::PRINT;
        }
        if high & (class::LEAD2 | class::LEAD3) != 0 {
            t[i] |= sep::WHOLE;
        }
        t[i] |= match i | 0x80 {
            0xC2 => sep::C2,
            0xE1 => sep::E1,
            0xE2 => sep::E2_80 | sep::E2_81,
            0xE3 => sep::E3,
            _ => 0,
        };
        i += 1;
    }
    t
};

/// The separator bits of a second byte, by its low 6 bits (a continuation byte's payload).
const SEP_SECOND: [u8; 64] = {
    let mut t = [0u8; 64];
    t[0x80 & 0x3F] = sep::E2_80 | sep::E3;
    t[0x81 & 0x3F] = sep::E2_81;
    t[0x9A & 0x3F] = sep::E1;
    t[0xA0 & 0x3F] = sep::C2;
    t
};

/// The separator bits of a third byte, by its low 6 bits.
const SEP_THIRD: [u8; 64] = {
    let mut t = [sep::C2; 64];
    let mut b = 0x80;
    while b <= 0x8A {
        t[b & 0x3F] |= sep::E2_80;
        b += 1;
    }
    t[0xAF & 0x3F] |= sep::E2_80;
    t[0x9F & 0x3F] |= sep::E2_81;
    t[0xA0 & 0x3F] |= sep::E2_81;
    t[0x80 & 0x3F] |= sep::E1 | sep::E3;
    t
};

/// The third bytes of `F0 9F xx yy` (U+1F000..U+1FFFF: emoji, symbols, playing cards)
/// whose 64 code points all begin a word (printable for glibc 2.36, none a separator), 0x80
/// in the entry of the byte's low 6 bits: U+1F300..U+1F6BF and the other whole blocks.
/// words/tests.rs holds it to `WORD_BITS` both ways.
pub(crate) const EMOJI_WHOLE: [u8; 64] = {
    let whole: [u8; 27] = [
        0x81, 0x84, 0x85, 0x8C, 0x8D, 0x8E, 0x8F, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,
        0x98, 0x99, 0x9A, 0x9C, 0x9E, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xAC, 0xAD,
    ];
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < whole.len() {
        t[(whole[i] & 0x3F) as usize] = 0x80;
        i += 1;
    }
    t
};

/// The [`Classes`] of the 64 bytes at `block`, looked up in `t` ([`DUAL_CLASSES`] in two
/// registers, [`SEP_SECOND`], [`SEP_THIRD`], [`EMOJI_WHOLE`]).
///
/// # Safety
///
/// Only on a CPU with AVX-512F, AVX-512BW and AVX-512VBMI; `block .. block + 66` must be
/// readable.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
unsafe fn classes_vbmi(t: &[__m512i; 5], block: *const u8) -> Classes {
    // SAFETY: the ISA is present and the loads read 64 bytes at `block`, `block + 1` and
    // `block + 2`, inside the readable range (this function's contract).
    unsafe {
        let v = _mm512_loadu_si512(block.cast());
        let k = |b: u8| _mm512_set1_epi8(b as i8);
        // vpermi2b indexes 128 entries by the low 7 bits: ASCII lanes and the others read
        // the same entry, each its own bits.
        let high = _mm512_movepi8_mask(v);
        let c = _mm512_permutex2var_epi8(t[0], v, t[1]);
        // Each test unmasked and its mask and-ed in a general register: masked tests chain
        // through the mask registers, which cost Zen 4 a third of the kernel's time.
        let has = |bit: u8| _mm512_test_epi8_mask(c, k(bit));
        let mut out = Classes {
            sep: has(ascii::BLANK) & !high,
            word: has(ascii::PRINT) & !high,
            carry: 0,
        };
        if high == 0 {
            return out;
        }
        let (v1, v2) = (
            _mm512_loadu_si512(block.add(1).cast()),
            _mm512_loadu_si512(block.add(2).cast()),
        );
        // Continuation bytes (0x80..0xBF) are the signed values below 0xC0; a lead below E0
        // (signed: below -32) needs one of them, the others two.
        let cont1 = _mm512_cmplt_epi8_mask(v1, k(0xC0));
        let cont2 = _mm512_cmplt_epi8_mask(v2, k(0xC0));
        let two = _mm512_cmplt_epi8_mask(v, k(0xE0));
        out.word |= has(sep::WHOLE) & high & cont1 & (two | cont2);
        // F0 9F xx yy in a whole block of [`EMOJI_WHOLE`], its fourth byte a continuation
        // byte (known from `cont1` two bytes on: the last two leads of the block stay
        // unvouched). Emoji begin words often in chat and social text; without this every
        // one is left to the caller's check.
        let f0_9f = _mm512_cmpeq_epi8_mask(v, k(0xF0)) & _mm512_cmpeq_epi8_mask(v1, k(0x9F));
        let whole = _mm512_movepi8_mask(_mm512_permutexvar_epi8(v2, t[4]));
        out.word |= f0_9f & whole & cont2 & cont1 >> 2;
        // The separators of `words::wide_separators` (C2 A0; E2 80 80..8A, E2 80 AF, E2 81
        // 9F, E2 81 A0; E1 9A 80; E3 80 80): each byte's separator bits by its position in
        // the sequence, and-ed. Without a branch on whether a block has a separator's lead:
        // in mixed text that branch is mispredicted often enough to cost a third of the pass.
        let cand = has(sep::ANY) & high & cont1;
        let second = _mm512_permutexvar_epi8(v1, t[2]);
        let third = _mm512_permutexvar_epi8(v2, t[3]);
        let all = _mm512_ternarylogic_epi32::<0x80>(c, second, third);
        let test = |bit: u8| _mm512_test_epi8_mask(all, k(bit));
        let sep2 = test(sep::C2) & cand;
        let sep3 = test(sep::THREE) & cand & cont2;
        out.add_wide_separators(sep2, sep3);
        out
    }
}

/// [`surely_words_avx512`] where `enabled` (the caller's kernel is AVX-512) and this CPU has
/// AVX-512F and AVX-512BW; `false`, `out` untouched, elsewhere.
pub(crate) fn surely_words_with(
    enabled: bool,
    bytes: &[u8],
    base: usize,
    offs: &[u32],
    bits: &[u64; 2048],
    out: &mut [u16],
) -> bool {
    #[cfg(feature = "std")]
    let avx512 =
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw");
    #[cfg(not(feature = "std"))]
    let avx512 = cfg!(target_feature = "avx512f") && cfg!(target_feature = "avx512bw");
    if !(enabled && avx512) {
        return false;
    }
    // SAFETY: the CPU has AVX-512F and AVX-512BW (checked above); any offsets are safe.
    unsafe { surely_words_avx512(bytes, base, offs, bits, out) };
    true
}

/// For each offset `at` of `offs` (16 a mask, offset `j` in bit `j % 16` of `out[j / 16]`):
/// whether the character at `bytes[base + at]` surely begins a word, as
/// `words::surely_word` tells: a well-formed sequence of a code point up to U+1FFFF whose bit
/// is set in `bits` (`words::WORD_BITS`). An offset whose four bytes from `base + at` are not
/// all inside `bytes` gets 0, as do the bits of the last mask past `offs.len()` (masks after
/// it are left as they were).
///
/// # Safety
///
/// The CPU must support AVX-512F and AVX-512BW. (Any offsets: an offset whose four bytes are
/// not inside `bytes` is never read; `out` gets as many masks as it has room for.)
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn surely_words_avx512(
    bytes: &[u8],
    base: usize,
    offs: &[u32],
    bits: &[u64; 2048],
    out: &mut [u16],
) {
    // The tables of `words::surely_word`, by the lead's high nibble: the shift that brings
    // the sequence's last byte to the bottom of the big-endian word, the payload, the marks
    // of the continuation bytes (and of a four-byte lead) and the smallest code point.
    // By length (as `surely_word`'s tables), spread over the lead's high nibble.
    const fn by_nibble(by_len: [u32; 5]) -> [u32; 16] {
        let mut t = [by_len[0]; 16];
        t[0xC] = by_len[2];
        t[0xD] = by_len[2];
        t[0xE] = by_len[3];
        t[0xF] = by_len[4];
        t
    }
    const SHIFT: [u32; 16] = by_nibble([0, 0, 16, 8, 0]);
    const PAYLOAD: [u32; 16] = by_nibble([0, 0, 0x7FF, 0xFFFF, 0x1F_FFFF]);
    const CONT: [u32; 16] = by_nibble([0, 0, 0xC0, 0xC0C0, 0xF8C0_C0C0]);
    const MARK: [u32; 16] = by_nibble([0, 0, 0x80, 0x8080, 0xF080_8080]);
    const MIN: [u32; 16] = by_nibble([!0, !0, 0x80, 0x800, 0x10000]);
    // Bytes of each 32-bit lane reversed: the lead in the top byte.
    const BSWAP: [u8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];
    // SAFETY: AVX-512F/BW are present (this function's contract); the table loads read 64
    // bytes of 64-byte arrays; a gather reads only its lanes in the mask: four bytes at
    // `bytes + base + at` where `base + at + 4 <= bytes.len()` (checked per lane below), and
    // a `u32` of `bits` at an index below 4096 (the code point clamped to U+1FFFF, over 32).
    unsafe {
        let table = |t: &[u32; 16]| _mm512_loadu_si512(t.as_ptr().cast());
        let (shift_t, payload_t, cont_t, mark_t, min_t) = (
            table(&SHIFT),
            table(&PAYLOAD),
            table(&CONT),
            table(&MARK),
            table(&MIN),
        );
        let bswap = _mm512_broadcast_i32x4(_mm_loadu_si128(BSWAP.as_ptr().cast()));
        // Offsets past this one would read past the end.
        let room = bytes.len().saturating_sub(base + 4);
        let limit = _mm512_set1_epi32(room.min(i32::MAX as usize) as i32);
        let start = bytes.as_ptr().wrapping_add(base);
        for (chunk, mask) in offs.chunks(16).zip(out.iter_mut()) {
            let n = chunk.len();
            let lanes: __mmask16 = if n == 16 { u16::MAX } else { (1u16 << n) - 1 };
            let at = _mm512_maskz_loadu_epi32(lanes, chunk.as_ptr().cast());
            let inside = lanes & _mm512_cmple_epu32_mask(at, limit);
            let le =
                _mm512_mask_i32gather_epi32::<1>(_mm512_setzero_si512(), inside, at, start.cast());
            let x = _mm512_shuffle_epi8(le, bswap);
            let nib = _mm512_srli_epi32::<28>(x);
            let t = _mm512_srlv_epi32(x, _mm512_permutexvar_epi32(nib, shift_t));
            let m = |a: __m512i, k: i32| _mm512_and_si512(a, _mm512_set1_epi32(k));
            let cp = _mm512_and_si512(
                _mm512_or_si512(
                    _mm512_or_si512(m(t, 0x3F), m(_mm512_srli_epi32::<2>(t), 0xFC0)),
                    _mm512_or_si512(
                        m(_mm512_srli_epi32::<4>(t), 0x3_F000),
                        m(_mm512_srli_epi32::<6>(t), 0x1C_0000),
                    ),
                ),
                _mm512_permutexvar_epi32(nib, payload_t),
            );
            let cont = _mm512_permutexvar_epi32(nib, cont_t);
            let well_formed = _mm512_cmpeq_epi32_mask(
                _mm512_and_si512(t, cont),
                _mm512_permutexvar_epi32(nib, mark_t),
            ) & _mm512_cmpge_epu32_mask(cp, _mm512_permutexvar_epi32(nib, min_t))
                & _mm512_cmplt_epu32_mask(cp, _mm512_set1_epi32(0x20000));
            let ok = inside & well_formed;
            let word = _mm512_mask_i32gather_epi32::<4>(
                _mm512_setzero_si512(),
                ok,
                _mm512_srli_epi32::<5>(cp),
                bits.as_ptr().cast(),
            );
            let bit = _mm512_srlv_epi32(word, m(cp, 31));
            *mask = ok & _mm512_test_epi32_mask(bit, _mm512_set1_epi32(1));
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use std::vec::Vec;

    use utf8_testkit::Rng;

    use super::*;

    /// Whether this CPU runs both the VBMI and the AVX-512 kernel (else the tests skip).
    fn vbmi_here() -> bool {
        let avx512 =
            std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw");
        if !(avx512 && vbmi()) {
            std::eprintln!("skipped: this CPU has no AVX-512 VBMI");
        }
        avx512 && vbmi()
    }

    /// Whether `v[i..]` begins with a character [`EMOJI_WHOLE`] vouches for: F0 9F, a third
    /// byte of a whole block, a continuation byte.
    fn whole_emoji(v: &[u8], i: usize) -> bool {
        matches!(v.get(i..i + 4), Some(&[0xF0, 0x9F, b2, b3])
            if EMOJI_WHOLE[usize::from(b2 & 0x3F)] != 0
                && (0x80..0xC0).contains(&b2)
                && (0x80..0xC0).contains(&b3))
    }

    /// Runs both kernels over the `blocks` 64-byte blocks at `v[at..]` from `start`: the VBMI
    /// kernel must end in the same state and leave unvouched the run starts the AVX-512 one
    /// leaves but those at a character of [`EMOJI_WHOLE`]. Returns how many of those it
    /// vouched for.
    fn compare(v: &[u8], at: usize, blocks: usize, start: WordState) -> usize {
        assert!(blocks <= 32 && at + 64 * blocks + 2 <= v.len());
        let (mut a, mut b) = (start, start);
        let (mut oa, mut ob) = ([0u64; 32], [0u64; 32]);
        // SAFETY: the callers check that this CPU has AVX-512F/BW/VBMI; `v` has
        // `64 * blocks + 2` readable bytes from `at` (asserted above).
        unsafe {
            word_blocks_vbmi(v[at..].as_ptr(), &mut a, &mut oa[..blocks]);
            word_blocks_avx512(v[at..].as_ptr(), &mut b, &mut ob[..blocks]);
        }
        assert_eq!(a, b, "{:02X?}", &v[at..]);
        let mut vouched = 0;
        for (blk, (&x, &y)) in oa.iter().zip(&ob).take(blocks).enumerate() {
            assert_eq!(x & !y, 0, "vouched for by AVX-512 only: {:02X?}", &v[at..]);
            let mut m = y & !x;
            while m != 0 {
                let i = at + 64 * blk + m.trailing_zeros() as usize;
                assert!(whole_emoji(v, i), "vouched for at {i}: {:02X?}", &v[i..]);
                vouched += 1;
                m &= m - 1;
            }
            // Every emoji run start the AVX-512 kernel leaves, with its 4th byte inside the
            // block's 66 bytes, the VBMI kernel vouches for.
            let mut m = y;
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                let i = at + 64 * blk + j;
                assert!(
                    j >= 62 || !whole_emoji(v, i) || x >> j & 1 == 0,
                    "{:02X?}",
                    &v[i..]
                );
                m &= m - 1;
            }
        }
        vouched
    }

    #[test]
    fn vbmi_classes_agree_with_the_nibble_tables() {
        // The VBMI kernel replaces the AVX-512 one where both run: each batch must end in the
        // same state with the same unvouched run starts.
        if !vbmi_here() {
            return;
        }
        let pieces: &[&[u8]] = &[
            b"word ",
            b"x",
            b"\t",
            b"\n",
            b"\x01",
            b"\x7F",
            b"\xFF",
            b"\x80",
            b"\xC3",
            b"\xE4\xB8",
            "é".as_bytes(),
            "ж".as_bytes(),
            "日本".as_bytes(),
            "カナ".as_bytes(),
            "😀".as_bytes(),
            "🙏🚀🤔🥰".as_bytes(),
            "🇯🇵".as_bytes(),
            "\u{1F02C}\u{1F0A0}".as_bytes(),
            b"\xF0\x9F\x98",
            b"\xF0\x9F",
            b"\xF0\x9F\x98\xC3",
            "\u{A0}".as_bytes(),
            "\u{2007}".as_bytes(),
            "\u{3000}".as_bytes(),
            "\u{1680}".as_bytes(),
            "\u{205F}".as_bytes(),
            "\u{2060}".as_bytes(),
            "\u{2028}".as_bytes(),
            "\u{85}".as_bytes(),
            "“”—".as_bytes(),
            "\u{378}".as_bytes(),
            b"\xE2\x80",
            b"\xE3\x80",
            b"\xC2",
        ];
        let mut rng = Rng::new(23);
        let mut vouched = 0;
        for round in 0..2000 {
            let mut v = Vec::new();
            while v.len() < 64 * 8 + 2 {
                v.extend_from_slice(rng.pick(pieces));
            }
            let blocks = (v.len() - 2) / 64;
            let start = WordState {
                count: 0,
                open: round % 2 == 0,
                carry: round % 3,
            };
            vouched += compare(&v, 0, blocks, start);
        }
        assert!(
            vouched > 1000,
            "only {vouched} emoji run starts vouched for"
        );
    }

    #[test]
    fn vbmi_separators_agree_on_every_sequence_of_three_bytes() {
        // Every second and third byte after each lead of a separator (and leads that are
        // none, or only alias one by their low bits), 21 sequences a block.
        if !vbmi_here() {
            return;
        }
        let mut v = Vec::new();
        for lead in [
            0xC2u8, 0xE1, 0xE2, 0xE3, 0xE0, 0xED, 0xC3, 0x42, 0x62, 0x82, 0xA2,
        ] {
            for pair in 0..=u16::MAX {
                let [b1, b2] = pair.to_be_bytes();
                if v.len() % 64 == 63 {
                    v.push(b' ');
                }
                v.extend_from_slice(&[lead, b1, b2]);
            }
        }
        v.resize(v.len().next_multiple_of(64 * 32) + 2, b' ');
        for at in (0..v.len() - 2).step_by(64 * 32) {
            compare(&v, at, 32, WordState::default());
        }
    }

    #[test]
    fn vbmi_vouches_for_every_whole_emoji_block() {
        // Every F0 9F xx yy after a space, 12 to a block: the VBMI kernel vouches for exactly
        // those of EMOJI_WHOLE (27 third bytes, 64 fourth bytes each), the AVX-512 kernel for
        // none, and both end in the same states.
        if !vbmi_here() {
            return;
        }
        let mut v = Vec::new();
        for pair in 0..=u16::MAX {
            let [b2, b3] = pair.to_be_bytes();
            if v.len() % 64 > 64 - 5 {
                v.resize(v.len().next_multiple_of(64), b' ');
            }
            v.extend_from_slice(&[b' ', 0xF0, 0x9F, b2, b3]);
        }
        v.resize(v.len().next_multiple_of(64 * 32) + 2, b' ');
        let vouched: usize = (0..v.len() - 2)
            .step_by(64 * 32)
            .map(|at| compare(&v, at, 32, WordState::default()))
            .sum();
        assert_eq!(vouched, 27 * 64);
    }
}
