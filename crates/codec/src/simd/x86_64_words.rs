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
/// classes from one 256-entry table ([`BYTE_CLASSES`], two `vpermi2b` and a blend) instead of
/// compares and nibble tables.
/// # Safety
/// The CPU must support AVX-512F, AVX-512BW, AVX-512VBMI and POPCNT; the contract of
/// [`words::word_blocks`].
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
pub(crate) unsafe fn word_blocks_vbmi(ptr: *const u8, st: &mut WordState, others: &mut [u64]) {
    // SAFETY: AVX-512F/BW/VBMI are present (this function's contract); `BYTE_CLASSES` has
    // 256 readable bytes.
    let t = unsafe {
        let at = |i: usize| _mm512_loadu_si512(BYTE_CLASSES[i..].as_ptr().cast());
        [at(0), at(64), at(128), at(192)]
    };
    // SAFETY: the ranges are valid (this function's contract) and `classes_vbmi`'s contract
    // holds for every block `word_blocks_by` gives it (66 readable bytes, this ISA).
    unsafe { words::word_blocks_by(ptr, st, others, |b| classes_vbmi(&t, b)) }
}

/// The [`Classes`] of the 64 bytes at `block`, looked up in `t` ([`BYTE_CLASSES`] in four
/// registers).
///
/// # Safety
///
/// Only on a CPU with AVX-512F, AVX-512BW and AVX-512VBMI; `block .. block + 66` must be
/// readable.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
unsafe fn classes_vbmi(t: &[__m512i; 4], block: *const u8) -> Classes {
    // SAFETY: the ISA is present and the loads read 64 bytes at `block`, `block + 1` and
    // `block + 2`, inside the readable range (this function's contract).
    unsafe {
        let v = _mm512_loadu_si512(block.cast());
        let has = |c: __m512i, bit: u8| _mm512_test_epi8_mask(c, _mm512_set1_epi8(bit as i8));
        // Bytes below 0x80 from the first two tables, the rest from the last two: vpermi2b
        // indexes 128 entries by the low 7 bits.
        let high = _mm512_movepi8_mask(v);
        let low_half = _mm512_permutex2var_epi8(t[0], v, t[1]);
        let high_half = _mm512_permutex2var_epi8(t[2], v, t[3]);
        let c = _mm512_mask_blend_epi8(high, low_half, high_half);
        let mut out = Classes {
            sep: has(c, class::BLANK),
            word: has(c, class::PRINT),
            carry: 0,
        };
        if high == 0 {
            return out;
        }
        let (v1, v2) = (
            _mm512_loadu_si512(block.add(1).cast()),
            _mm512_loadu_si512(block.add(2).cast()),
        );
        // Continuation bytes (0x80..0xBF) are the signed values below 0xC0.
        let below_c0 = _mm512_set1_epi8(0xC0u8 as i8);
        let cont1 = _mm512_cmplt_epi8_mask(v1, below_c0);
        let cont2 = _mm512_cmplt_epi8_mask(v2, below_c0);
        out.word |= has(c, class::LEAD2) & cont1 | has(c, class::LEAD3) & cont1 & cont2;
        // The separators of `words::wide_separators`, as mask registers: C2 A0; E2 80 80..8A,
        // E2 80 AF, E2 81 9F, E2 81 A0; E1 9A 80; E3 80 80.
        let eq = |x: __m512i, b: u8| _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(b as i8));
        let (v1_80, v2_80) = (eq(v1, 0x80), eq(v2, 0x80));
        let sep2 = eq(v, 0xC2) & eq(v1, 0xA0);
        let below_8b = _mm512_cmplt_epi8_mask(v2, _mm512_set1_epi8(0x8Bu8 as i8));
        let e2 = v1_80 & (below_8b | eq(v2, 0xAF)) | eq(v1, 0x81) & (eq(v2, 0x9F) | eq(v2, 0xA0));
        let sep3 =
            eq(v, 0xE2) & e2 | eq(v, 0xE1) & eq(v1, 0x9A) & v2_80 | eq(v, 0xE3) & v1_80 & v2_80;
        out.add_wide_separators(sep2, sep3);
        out
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use std::vec::Vec;

    use utf8_testkit::Rng;

    use super::*;

    #[test]
    fn vbmi_classes_agree_with_the_nibble_tables() {
        // The VBMI kernel replaces the AVX-512 one where both run: each batch must end in the
        // same state with the same unvouched run starts.
        let avx512 =
            std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw");
        if !(avx512 && vbmi()) {
            std::eprintln!("skipped: this CPU has no AVX-512 VBMI");
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
            let (mut a, mut b) = (start, start);
            let (mut oa, mut ob) = ([0u64; 8], [0u64; 8]);
            // SAFETY: this CPU has AVX-512F/BW/VBMI (checked above); `v` has
            // `64 * blocks + 2` readable bytes.
            unsafe {
                word_blocks_vbmi(v.as_ptr(), &mut a, &mut oa[..blocks]);
                word_blocks_avx512(v.as_ptr(), &mut b, &mut ob[..blocks]);
            }
            assert_eq!((a, oa), (b, ob), "{v:02X?}");
        }
    }
}
