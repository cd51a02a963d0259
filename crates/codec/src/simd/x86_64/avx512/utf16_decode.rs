//! The UTF-16 → UTF-8 vector transcoder of `simd/utf16_decode.rs` with AVX-512 VBMI2, the
//! capability of its own token (`token::Avx512Vbmi2`): 32 units a step in one 512-bit
//! register, after the idea of Clausecker & Lemire, "Transcoding Unicode Characters with
//! AVX-512 Instructions" (2023), simdutf's Ice Lake `utf16_to_utf8`. A step is one of:
//!
//! * ASCII: the units narrowed to bytes (`vpmovwb`);
//! * all units below U+0800: each unit's one or two bytes built in its 16-bit lane (lead byte
//!   low), the bytes to keep (both where the unit is not ASCII) packed by `vpcompressb`;
//! * sixteen surrogate pairs, each in a 32-bit lane: four bytes each, nothing to pack;
//! * anything else ([`wide`]): the units widened to 32-bit lanes, a lead surrogate combined
//!   there with its trail into the scalar value; each lane's four possible bytes cut out by
//!   `vpmultishiftqb` (the value's bits from 18, 12, 6 and 0), tagged for its length, and
//!   those its length keeps (none for a trail: its pair's four are its lead's) packed by
//!   `vpcompressb`, sixteen lanes at a time.
//!
//! A pair is never split across steps: a lead last in the step waits for the next, which then
//! takes 31 units. A step with an unpaired surrogate converts the units before it and ends
//! the call there (the caller replaces it). Its stores are whole vectors: a step needs its
//! input (64 bytes) and room for its stores (128 bytes); short of that the SSE4.2 loop goes
//! on, then the caller's scalar twin converts the rest.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::simd::token;
use crate::simd::x86_64::sse42::utf16_decode::run128;

/// The bit offsets `vpmultishiftqb` cuts each byte of a 32-bit lane from, for both lanes of a
/// 64-bit element: bits 18, 12, 6 and 0 of the lane, first byte first.
const FIELDS: i64 = 0x2026_2C32_0006_0C12;

/// `2k` in byte `k` (`2k + 1` for big-endian units): the `vpermt2b` indices of the low byte
/// of each unit of two registers.
static PICK: [[u8; 64]; 2] = {
    let mut t = [[0; 64]; 2];
    let mut k = 0;
    while k < 64 {
        t[0][k] = 2 * k as u8;
        t[1][k] = 2 * k as u8 + 1;
        k += 1;
    }
    t
};

/// Sixteen 32-bit lanes' UTF-8 cut from their values `x` (`vpmultishiftqb` of [`FIELDS`],
/// six bits a byte) and tagged by `tags`, ASCII lanes (`ascii`) their value in the last byte.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
#[inline]
fn cut(x: __m512i, tags: __m512i, ascii: u16) -> __m512i {
    let bytes = _mm512_multishift_epi64_epi8(_mm512_set1_epi64(FIELDS), x);
    let tagged = _mm512_ternarylogic_epi32::<0xEA>(bytes, _mm512_set1_epi32(0x3F3F_3F3F), tags);
    _mm512_mask_slli_epi32::<24>(tagged, ascii, x)
}

/// Any step but ASCII's: the UTF-8 of the units of `v` in `keep` (a run from the first),
/// written at `q`; `lead` and `trail` are the kept units that are lead and trail surrogates,
/// each such lead followed by its trail among them. Returns the bytes written.
///
/// # Safety
///
/// The CPU must have the features enabled here; 128 writable bytes at `q`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
#[inline]
unsafe fn wide(v: __m512i, keep: u32, lead: u32, trail: u32, q: *mut u8) -> usize {
    // The units not kept become NUL, ASCII, and give no byte (below).
    let v = _mm512_maskz_mov_epi16(keep, v);
    let ascii = _mm512_cmplt_epu16_mask(v, _mm512_set1_epi16(0x80));
    let upto2 = _mm512_cmplt_epu16_mask(v, _mm512_set1_epi16(0x800));
    let mut lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v));
    let mut hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(v));
    let (lead_lo, lead_hi) = (lead as u16, (lead >> 16) as u16);
    if lead != 0 {
        // (lead << 10) + trail, less the surrogate offsets, plus 0x10000, the trail being
        // the next lane (the first of `hi` for the last of `lo`; a lead is never last).
        let offset = _mm512_set1_epi32(0xFCA0_2400_u32 as i32);
        let next_lo = _mm512_add_epi32(_mm512_alignr_epi32::<1>(hi, lo), offset);
        let next_hi = _mm512_add_epi32(_mm512_alignr_epi32::<1>(lo, hi), offset);
        lo = _mm512_mask_add_epi32(lo, lead_lo, _mm512_slli_epi32::<10>(lo), next_lo);
        hi = _mm512_mask_add_epi32(hi, lead_hi, _mm512_slli_epi32::<10>(hi), next_hi);
    }
    // Tags by length: three bytes (the first of the four cut is dropped), two (the first two
    // dropped), four.
    let three = _mm512_set1_epi32(0x8080_E000_u32 as i32);
    let two = _mm512_set1_epi32(0x80C0_0000_u32 as i32);
    let four = _mm512_set1_epi32(0x8080_80F0_u32 as i32);
    let tags_lo = _mm512_mask_mov_epi32(
        _mm512_mask_mov_epi32(three, upto2 as u16, two),
        lead_lo,
        four,
    );
    let tags_hi = _mm512_mask_mov_epi32(
        _mm512_mask_mov_epi32(three, (upto2 >> 16) as u16, two),
        lead_hi,
        four,
    );
    let bytes_lo = cut(lo, tags_lo, ascii as u16);
    let bytes_hi = cut(hi, tags_hi, (ascii >> 16) as u16);
    // The bytes kept: the last of every lane that gives any, the others where they are not
    // zero (a byte of a shorter length's lane is zero before the first it keeps, and no
    // byte is 0xFF, so the lanes that give none drop all four).
    let gives = keep & !trail;
    let (some, none) = (_mm512_set1_epi32(0x0001_0101), _mm512_set1_epi32(-1));
    let want_lo =
        _mm512_cmpge_epu8_mask(bytes_lo, _mm512_mask_blend_epi32(gives as u16, none, some));
    let want_hi = _mm512_cmpge_epu8_mask(
        bytes_hi,
        _mm512_mask_blend_epi32((gives >> 16) as u16, none, some),
    );
    let n = want_lo.count_ones() as usize;
    // SAFETY: 128 writable bytes at `q` (the contract): the first store writes 64, the second
    // 64 at most 64 bytes on (sixteen lanes give at most 64 bytes).
    unsafe {
        _mm512_storeu_si512(q.cast(), _mm512_maskz_compress_epi8(want_lo, bytes_lo));
        _mm512_storeu_si512(
            q.add(n).cast(),
            _mm512_maskz_compress_epi8(want_hi, bytes_hi),
        );
    }
    n + want_hi.count_ones() as usize
}

/// The transcoder's loop over `src` into the `room` bytes at `dst`, then the SSE4.2 loop:
/// (bytes read, bytes written), stopping before an unpaired surrogate.
///
/// # Safety
///
/// The CPU must have the features enabled here; `dst` must be writable for `room` bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
#[inline]
unsafe fn transcode<const BE: bool>(src: &[u8], dst: *mut u8, room: usize) -> (usize, usize) {
    let (len, p) = (src.len(), src.as_ptr());
    let (mut i, mut o) = (0, 0);
    let swap = _mm512_set4_epi32(0x0E0F_0C0D, 0x0A0B_0809, 0x0607_0405, 0x0203_0001);
    let (ff80, f800, fc00) = (
        _mm512_set1_epi16(0xFF80_u16 as i16),
        _mm512_set1_epi16(0xF800_u16 as i16),
        _mm512_set1_epi16(0xFC00_u16 as i16),
    );
    let d800 = _mm512_set1_epi16(0xD800_u16 as i16);
    // The ASCII loop's test of units as they are in memory, and the byte of each it keeps:
    // the low one, first or second in memory, of the two registers' 64 units.
    let raw_high = match BE {
        true => _mm512_set1_epi16(0x80FF_u16 as i16),
        false => ff80,
    };
    // SAFETY: the load reads the 64 bytes of `PICK`.
    let pick = unsafe { _mm512_loadu_si512(PICK[usize::from(BE)].as_ptr().cast()) };
    while len - i >= 64 && room - o >= 128 {
        // SAFETY: `i + 64 <= len`: the 64 bytes at `i` are inside `src`.
        let v = unsafe { _mm512_loadu_si512(p.add(i).cast()) };
        let v = match BE {
            true => _mm512_shuffle_epi8(v, swap),
            false => v,
        };
        let high = _mm512_test_epi16_mask(v, ff80);
        if high == 0 {
            // SAFETY: `o + 128 <= room`: the store writes bytes `o..o + 32` of `dst`.
            unsafe { _mm256_storeu_si256(dst.add(o).cast(), _mm512_cvtepi16_epi8(v)) };
            (i, o) = (i + 64, o + 32);
            // More ASCII: a loop of its own, 64 units a step, so that a long run goes without
            // the other classes' tests; the units as they are in memory, their ASCII bytes
            // picked by `vpermt2b`.
            while len - i >= 128 && room - o >= 128 {
                // SAFETY: `i + 128 <= len`: the 128 bytes at `i` are inside `src`.
                let (a, b) = unsafe {
                    let q = p.add(i);
                    (
                        _mm512_loadu_si512(q.cast()),
                        _mm512_loadu_si512(q.add(64).cast()),
                    )
                };
                if _mm512_test_epi16_mask(_mm512_or_si512(a, b), raw_high) != 0 {
                    break;
                }
                let bytes = _mm512_permutex2var_epi8(a, pick, b);
                // SAFETY: `o + 128 <= room`: the store writes bytes `o..o + 64` of `dst`.
                unsafe { _mm512_storeu_si512(dst.add(o).cast(), bytes) };
                (i, o) = (i + 128, o + 64);
            }
            continue;
        }
        if _mm512_test_epi16_mask(v, f800) == 0 {
            // Lead byte low, 0xC0 | u >> 6; continuation high, 0x80 | u & 0x3F.
            let parts = _mm512_ternarylogic_epi32::<0xA8>(
                _mm512_slli_epi16::<8>(v),
                _mm512_srli_epi16::<6>(v),
                _mm512_set1_epi16(0x3F3F),
            );
            let w = _mm512_mask_add_epi16(v, high, parts, _mm512_set1_epi16(0x80C0_u16 as i16));
            // Every low byte, and the high ones that are not zero (those of ASCII units are).
            let want = _mm512_cmpge_epu8_mask(w, _mm512_set1_epi16(0x100));
            // SAFETY: `o + 128 <= room`: the store writes bytes `o..o + 64` of `dst`.
            unsafe { _mm512_storeu_si512(dst.add(o).cast(), _mm512_maskz_compress_epi8(want, w)) };
            (i, o) = (i + 64, o + 32 + high.count_ones() as usize);
            continue;
        }
        let sur = _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, f800), d800);
        if sur == 0 {
            // SAFETY: `o + 128 <= room`: `wide` writes the 128 bytes at `o`.
            let n = unsafe { wide(v, u32::MAX, 0, 0, dst.add(o)) };
            (i, o) = (i + 64, o + n);
            continue;
        }
        let lead = _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, fc00), d800);
        let trail = sur & !lead;
        if lead == 0x5555_5555 && trail == 0xAAAA_AAAA {
            // Sixteen pairs, each a 32-bit lane, lead low: its four bytes.
            let cp = _mm512_add_epi32(
                _mm512_slli_epi32::<10>(_mm512_and_si512(v, _mm512_set1_epi32(0xFFFF))),
                _mm512_add_epi32(
                    _mm512_srli_epi32::<16>(v),
                    _mm512_set1_epi32(0xFCA0_2400_u32 as i32),
                ),
            );
            let bytes = cut(cp, _mm512_set1_epi32(0x8080_80F0_u32 as i32), 0);
            // SAFETY: `o + 128 <= room`: the store writes bytes `o..o + 64` of `dst`.
            unsafe { _mm512_storeu_si512(dst.add(o).cast(), bytes) };
            (i, o) = (i + 64, o + 64);
            continue;
        }
        // A lead last waits for the next step, where its trail is; a trail first is unpaired
        // (no step ends between a lead and its trail).
        let whole = u32::MAX >> (lead >> 31);
        let unpaired = (lead & whole & !(trail >> 1)) | (trail & !(lead << 1));
        let keep = match unpaired {
            0 => whole,
            u => (1 << u.trailing_zeros()) - 1,
        };
        // SAFETY: `o + 128 <= room`: `wide` writes the 128 bytes at `o`; the kept leads have
        // their trails kept (the first unpaired surrogate ends what is kept).
        let n = unsafe { wide(v, keep, lead & keep, trail & keep, dst.add(o)) };
        (i, o) = (i + 2 * keep.count_ones() as usize, o + n);
        if unpaired != 0 {
            return (i, o);
        }
    }
    // SAFETY: the features imply SSE4.2; `dst` is writable for `room` bytes and `o <= room`.
    unsafe { run128::<BE>(src, dst, room, i, o) }
}

impl token::Avx512Vbmi2 {
    /// Transcodes a well-formed prefix of `src` (UTF-16, big-endian when `BE`) into `dst`,
    /// leaving at most one step's input or room: (bytes read, bytes written).
    #[inline(always)]
    pub(in crate::simd::x86_64) fn utf16_decode<const BE: bool>(
        self,
        src: &[u8],
        dst: &mut [MaybeUninit<u8>],
    ) -> (usize, usize) {
        let (q, room) = (dst.as_mut_ptr().cast::<u8>(), dst.len());
        // SAFETY: `self` proves the CPU's features (`token::Avx512::vbmi2`); `dst` is
        // writable for its length, and the transcoder writes only initialized bytes.
        unsafe { transcode::<BE>(src, q, room) }
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    extern crate std;
    use core::mem::MaybeUninit;
    use std::vec;
    use std::vec::Vec;

    use utf8_testkit::Rng;

    use crate::simd::token::Avx512Vbmi2;
    use crate::simd::utf16_decode::transcode_scalar;

    /// Units at the edges of each length and of the surrogate ranges.
    const EDGES: [u16; 14] = [
        0x00, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x4E2D, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF,
        0xFFFF,
    ];

    /// Fillers of each step's class: ASCII, two bytes, three, pairs, and a mix of all.
    const FILLERS: [&[u16]; 5] = [
        &[0x61],
        &[0x430, 0x62],
        &[0x4E2D, 0x800, 0x63],
        &[0xD83D, 0xDE00],
        &[0x61, 0xD83D, 0xDE00, 0x430, 0x4E2D],
    ];

    /// `f` over `room` bytes of 0xAA as a buffer of `MaybeUninit`: (bytes read, the bytes
    /// written, the buffer after them).
    fn into_room(
        room: usize,
        f: impl FnOnce(&mut [MaybeUninit<u8>]) -> (usize, usize),
    ) -> (usize, Vec<u8>, Vec<u8>) {
        let mut buf = vec![0xAAu8; room];
        // SAFETY: `MaybeUninit<u8>` has the layout of `u8`; the transcoders write only
        // initialized bytes, so `buf` stays initialized.
        let view =
            unsafe { &mut *(core::ptr::from_mut::<[u8]>(&mut buf) as *mut [MaybeUninit<u8>]) };
        let (r, w) = f(view);
        (r, buf[..w].to_vec(), buf[w..].to_vec())
    }

    /// The units as bytes, big-endian when `be`.
    fn bytes_of(units: &[u16], be: bool) -> Vec<u8> {
        units
            .iter()
            .flat_map(|u| match be {
                true => u.to_be_bytes(),
                false => u.to_le_bytes(),
            })
            .collect()
    }

    /// The transcoder on `units` in both byte orders against its scalar twin, with room for
    /// all and with `room`: what it read is converted as the twin converts it, the twin goes
    /// on from there to the same end, and with room for all it leaves under one step of the
    /// SSE4.2 loop.
    fn check(t: Avx512Vbmi2, units: &[u16], room: usize) {
        for be in [false, true] {
            let src = bytes_of(units, be);
            let twin = |src: &[u8], dst: &mut [MaybeUninit<u8>]| match be {
                true => transcode_scalar::<true>(src, dst),
                false => transcode_scalar::<false>(src, dst),
            };
            let (all, want, _) = into_room(3 * units.len(), |d| twin(&src, d));
            for room in [3 * units.len() + 128, room] {
                let (r, got, _) = into_room(room, |d| match be {
                    true => t.utf16_decode::<true>(&src, d),
                    false => t.utf16_decode::<false>(&src, d),
                });
                let (r2, part, _) = into_room(3 * units.len(), |d| twin(&src[..r], d));
                assert_eq!((r2, &part), (r, &got), "{units:04X?} be {be} room {room}");
                let (r3, rest, _) = into_room(3 * units.len(), |d| twin(&src[r..], d));
                assert_eq!(r + r3, all, "{units:04X?} be {be} room {room}");
                assert_eq!(
                    [got, rest].concat(),
                    want,
                    "{units:04X?} be {be} room {room}"
                );
                if room >= 3 * units.len() + 128 {
                    assert!(all - r < 18, "{units:04X?} be {be}: read {r} of {all}");
                }
            }
        }
    }

    /// Every pair of [`EDGES`] at every position around the ends of the first two steps,
    /// among each filler, the input ending in the second step or past it: pairs and unpaired
    /// surrogates across each step's end, a lead last in a step.
    #[test]
    fn edges_across_the_ends_of_steps() {
        let Some(t) = Avx512Vbmi2::new() else { return };
        for filler in FILLERS {
            let base: Vec<u16> = filler.iter().copied().cycle().take(100).collect();
            for a in EDGES {
                for b in EDGES {
                    for at in (26..38).chain(56..68) {
                        let mut units = base.clone();
                        units[at] = a;
                        units[at + 1] = b;
                        for len in [at + 2, 64, 65, 70, 96, 100] {
                            let len = len.max(at + 2);
                            check(t, &units[..len], 200);
                        }
                    }
                }
            }
        }
    }

    /// Random mixes of ASCII, two- and three-byte units, pairs and unpaired surrogates, each
    /// favouring a few classes, 0 to 300 units, into room for all and less.
    #[test]
    fn random_mixes() {
        let Some(t) = Avx512Vbmi2::new() else { return };
        let mut rng = Rng::new(0x5EED_16D8);
        let ranges: [(u64, u64); 5] = [
            (0, 0x7F),
            (0x80, 0x7FF),
            (0x800, 0xD7FF),
            (0xD800, 0xDBFF),
            (0xDC00, 0xDFFF),
        ];
        for _ in 0..20_000 {
            let mut weights: [u64; 5] = core::array::from_fn(|_| rng.below(4));
            // Unpaired surrogates are rare in text: most strings have none.
            if rng.below(4) != 0 {
                weights[4] = 0;
            }
            let total = weights.iter().sum::<u64>().max(1);
            let n = rng.below(301) as usize;
            let mut units = Vec::new();
            while units.len() < n {
                let mut x = rng.below(total);
                let mut k = 0;
                while k < 4 && x >= weights[k] {
                    x -= weights[k];
                    k += 1;
                }
                let (lo, hi) = ranges[k];
                units.push((lo + rng.below(hi - lo + 1)) as u16);
                if k == 3 && weights[4] == 0 {
                    units.push(0xDC00 + rng.below(0x400) as u16);
                }
            }
            check(t, &units, rng.below(3 * n as u64 + 1) as usize);
        }
    }
}
