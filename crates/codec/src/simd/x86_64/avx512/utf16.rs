//! Valid UTF-8 to UTF-16 with AVX-512 VBMI and VBMI2, the capability of its own token
//! (`token::Avx512Vbmi2`, made from the AVX-512 one): the idea of Clausecker & Lemire,
//! "Transcoding Unicode Characters with AVX-512 Instructions" (2023), simdutf's Ice Lake
//! `utf8_to_utf16`, without its validation (the input comes from the validator).
//!
//! The input is read in 64-byte blocks at fixed offsets. An all-ASCII block is widened
//! (`vpmovzxbw`). In any other, the masks of the block's bytes say which end a UTF-16 unit:
//! the last byte of a code point, and the third byte of a four-byte sequence (its high
//! surrogate's). `vpcompressb` packs the positions of those bytes, and each unit is built in a
//! 16-bit lane from three byte permutes (`vpermb`, `vpermi2b`) of the block and the one
//! before it: its last byte, the byte before it where that one is not ASCII, and the byte two
//! before where that one leads a three- or four-byte sequence, each with its tag bits cleared
//! beforehand; the lanes of surrogates get their tags from masks. A code point may start in
//! one block and end in the next: its unit is built in the block of its end, the permutes
//! reaching back into the previous block. Each block stores its units (at most 64) unmasked,
//! with room left for them.
//!
//! The input must be valid UTF-8 for the units to be right; memory safety does not depend on
//! it: every block reads 64 bytes and one more inside the input, and stores at most 64 units
//! at the output position, which advances by at most 64.

use core::arch::x86_64::*;

use crate::simd::token;

/// `64 + k` in byte `k`: what `vpcompressb` packs, the positions of the unit ends of a block
/// as indices of `vpermi2b` into the previous block (0-63) and the block (64-127).
static POSITIONS: [u8; 64] = {
    let mut t = [0; 64];
    let mut k = 0;
    while k < 64 {
        t[k] = 64 + k as u8;
        k += 1;
    }
    t
};

/// The even bytes (the low byte of each 16-bit lane): where the permutes write.
const EVEN: u64 = 0x5555_5555_5555_5555;

/// The byte sources of a block for [`units`]: the bytes with their tag bits cleared (two for a
/// lead or continuation byte; a lead keeps a bit or two of its length above its payload,
/// which the shifts of [`units`] push out of the lane), those that come before a byte that is
/// not ASCII (zero elsewhere), and the leads of three- and four-byte sequences (zero
/// elsewhere).
#[derive(Clone, Copy)]
struct Sources {
    cleared: __m512i,
    before: __m512i,
    leads: __m512i,
}

/// Transcodes a prefix of `src` into the `room` units at `dst` and returns (bytes read, units
/// written): whole blocks while a block and one byte are left to read and 64 units of room,
/// less the last code point when it runs on past the last block; a code point boundary when
/// `src` is valid UTF-8. Every one of the units written has been stored to.
///
/// # Safety
///
/// The CPU must have the features enabled here; `dst` must be valid for writing `room` units.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
#[inline]
unsafe fn transcode(src: &[u8], dst: *mut u16, room: usize) -> (usize, usize) {
    let (len, p) = (src.len(), src.as_ptr());
    let (mut i, mut o) = (0, 0);
    // SAFETY: the load reads the 64 bytes of `POSITIONS`.
    let positions = unsafe { _mm512_loadu_si512(POSITIONS.as_ptr().cast()) };
    let (c0, e0, f0) = (
        _mm512_set1_epi8(0xC0u8 as i8),
        _mm512_set1_epi8(0xE0u8 as i8),
        _mm512_set1_epi8(0xF0u8 as i8),
    );
    let zero = _mm512_setzero_si512();
    // The previous block's sources and four-byte leads: none before the first (it starts at a
    // code point boundary), nor after an ASCII block.
    let mut prev = Sources {
        cleared: zero,
        before: zero,
        leads: zero,
    };
    let mut prev4 = 0u64;
    while len - i > 64 && room - o >= 64 {
        // SAFETY: `i + 65 <= len`: the 64 bytes at `i` and the one after are inside `src`.
        let (v, next) = unsafe { (_mm512_loadu_si512(p.add(i).cast()), *p.add(i + 64)) };
        let high = _mm512_movepi8_mask(v);
        if high == 0 {
            // SAFETY: `o + 64 <= room`: the two stores write units `o..o + 64` of `dst`.
            unsafe {
                let q = dst.add(o);
                _mm512_storeu_si512(q.cast(), _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)));
                let hi = _mm512_extracti64x4_epi64::<1>(v);
                _mm512_storeu_si512(q.add(32).cast(), _mm512_cvtepu8_epi16(hi));
            }
            prev = Sources {
                cleared: zero,
                before: zero,
                leads: zero,
            };
            prev4 = 0;
            i += 64;
            o += 64;
            continue;
        }
        // Continuation bytes are below -64 as signed bytes.
        let cont = _mm512_cmplt_epi8_mask(v, c0);
        let lead34 = _mm512_cmpge_epu8_mask(v, e0);
        let lead4 = _mm512_cmpge_epu8_mask(v, f0);
        // The ends of high surrogates (two after a four-byte lead) and of low ones (three
        // after), from this block's leads and the previous block's last three.
        let hi_ends = (lead4 << 2) | (prev4 >> 62);
        let lo_ends = (lead4 << 3) | (prev4 >> 61);
        // A byte ends a code point where the next one starts another (byte 64 for byte 63).
        let next_starts = u64::from((next as i8) >= -64);
        let ends = (!cont >> 1) | (next_starts << 63) | hi_ends;
        let next_high = u64::from(next >= 0x80);
        let cleared = _mm512_andnot_si512(_mm512_maskz_mov_epi8(high, c0), v);
        let cur = Sources {
            cleared,
            before: _mm512_maskz_mov_epi8((high >> 1) | (next_high << 63), cleared),
            leads: _mm512_maskz_mov_epi8(lead34, cleared),
        };
        let at = _mm512_maskz_compress_epi8(ends, positions);
        let n = ends.count_ones() as usize;
        let (mhi, mlo) = match (hi_ends | lo_ends) != 0 {
            true => (_pext_u64(hi_ends, ends), _pext_u64(lo_ends, ends)),
            false => (0, 0),
        };
        let lanes = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(at));
        let w = units(lanes, &prev, &cur, mhi as u32, mlo as u32);
        // SAFETY: `o + 64 <= room`: the store writes units `o..o + 32` of `dst`.
        unsafe { _mm512_storeu_si512(dst.add(o).cast(), w) };
        if n > 32 {
            let lanes = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(at));
            let w = units(lanes, &prev, &cur, (mhi >> 32) as u32, (mlo >> 32) as u32);
            // SAFETY: `o + 64 <= room`: the store writes units `o + 32..o + 64` of `dst`.
            unsafe { _mm512_storeu_si512(dst.add(o + 32).cast(), w) };
        }
        prev = cur;
        prev4 = lead4;
        i += 64;
        o += n;
    }
    // The last code point may run on past the last block: its bytes, and its one unit written
    // (the high surrogate of a four-byte sequence whose third byte ends the block), are left
    // to the caller.
    if i > 0 && i < len && (src[i] as i8) < -64 {
        let mut s = i - 1;
        while s > i - 3 && (src[s] as i8) < -64 {
            s -= 1;
        }
        if s == i - 3 && src[s] >= 0xF0 {
            o = o.saturating_sub(1);
        }
        i = s;
    }
    (i, o)
}

/// The units of the lanes `at` (16-bit positions from [`POSITIONS`] of unit ends in the
/// block `cur`, after `prev`), with `hi` and `lo` the lanes of high and low surrogates: the
/// last byte of each, the byte before (where it is not ASCII) shifted by 6 and the one two
/// before (where it leads a three- or four-byte sequence) by 12; a low surrogate is tagged
/// 0xDC00 (its two bits above the ten of the code point are in the tag already), a high one
/// shifted down by 4 takes 0xD800 less the 0x40 of the code point's 0x10000.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
#[inline]
fn units(at: __m512i, prev: &Sources, cur: &Sources, hi: u32, lo: u32) -> __m512i {
    let one = _mm512_set1_epi16(1);
    let at1 = _mm512_sub_epi16(at, one);
    let at2 = _mm512_sub_epi16(at1, one);
    let last = _mm512_maskz_permutexvar_epi8(EVEN, at, cur.cleared);
    let second = _mm512_maskz_permutex2var_epi8(EVEN, prev.before, at1, cur.before);
    let third = _mm512_maskz_permutex2var_epi8(EVEN, prev.leads, at2, cur.leads);
    let w = _mm512_ternarylogic_epi32::<0xFE>(
        last,
        _mm512_slli_epi16::<6>(second),
        _mm512_slli_epi16::<12>(third),
    );
    if hi | lo == 0 {
        return w;
    }
    let w = _mm512_mask_mov_epi16(
        w,
        lo,
        _mm512_or_si512(w, _mm512_set1_epi16(0xDC00u16 as i16)),
    );
    _mm512_mask_add_epi16(
        w,
        hi,
        _mm512_srli_epi16::<4>(w),
        _mm512_set1_epi16(0xD7C0u16 as i16),
    )
}

/// Widens the ASCII prefix of `src` to UTF-16 at `dst` and returns its length: 64 bytes at a
/// time, the last block with masked loads and stores, so the prefix ends exactly before the
/// first byte that is not ASCII (or at the end).
///
/// # Safety
///
/// The CPU must have the features enabled here; `dst` must be valid for writing `src.len()`
/// units.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
#[inline]
unsafe fn widen(src: &[u8], dst: *mut u16) -> usize {
    let (len, p) = (src.len(), src.as_ptr());
    let mut i = 0;
    if len >= 96 {
        // SAFETY: `len >= 96`: the first 32 bytes are inside `src`.
        let a = unsafe { _mm256_loadu_si256(p.cast()) };
        if _mm256_movemask_epi8(a) == 0 {
            // The first 32 units, then on from where the output is 64-byte aligned, so that no
            // later store splits a cache line: the units in between are written twice, the
            // same.
            // SAFETY: `len >= 96`: `dst` is writable for the 32 units stored.
            unsafe { _mm512_storeu_si512(dst.cast(), _mm512_cvtepu8_epi16(a)) };
            // Units to the next 64-byte boundary of the output: 0..=31 (`dst` is 2-aligned).
            i = ((64 - (dst as usize & 63)) / 2) & 31;
        }
    }
    while i + 64 <= len {
        // SAFETY: `i + 64 <= len`: 64 bytes readable at `i`, 64 units writable at `i`.
        let high = unsafe {
            let v = _mm512_loadu_si512(p.add(i).cast());
            let q = dst.add(i);
            _mm512_storeu_si512(q.cast(), _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)));
            let hi = _mm512_extracti64x4_epi64::<1>(v);
            _mm512_storeu_si512(q.add(32).cast(), _mm512_cvtepu8_epi16(hi));
            _mm512_movepi8_mask(v)
        };
        if high != 0 {
            return i + high.trailing_zeros() as usize;
        }
        i += 64;
    }
    // Under 64 bytes left: masked, the bytes past the end neither read nor written.
    let inside = (1u64 << (len - i)) - 1;
    // SAFETY: the load reads only the `len - i` bytes left (a masked load does not touch the
    // others); `p + i` is inside `src` or at its end.
    let v = unsafe { _mm512_maskz_loadu_epi8(inside, p.add(i).cast()) };
    let ascii = (_mm512_movepi8_mask(v) | !inside).trailing_zeros() as usize;
    let keep = (1u64 << ascii) - 1;
    // SAFETY: the stores write the first `ascii <= len - i` units at `i`, inside `dst`; the
    // second is made only when its first unit is among them.
    unsafe {
        let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
        _mm512_mask_storeu_epi16(dst.add(i).cast(), keep as u32, lo);
        if ascii > 32 {
            let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
            _mm512_mask_storeu_epi16(dst.add(i + 32).cast(), (keep >> 32) as u32, hi);
        }
    }
    i + ascii
}

impl token::Avx512Vbmi2 {
    /// Transcodes a prefix of valid UTF-8 `src` into `dst`: (bytes read, units written), a
    /// code point boundary; the rest (under a block and a byte, or when under 64 units of room
    /// are left) is the caller's.
    #[inline(always)]
    pub(in crate::simd::x86_64) fn transcode_valid(
        self,
        src: &[u8],
        dst: &mut [u16],
    ) -> (usize, usize) {
        // SAFETY: `self` proves the CPU's features (`token::Avx512::vbmi2`); `dst` is
        // writable for its length.
        unsafe { transcode(src, dst.as_mut_ptr(), dst.len()) }
    }

    /// Widens the ASCII prefix of `src` (at most `dst.len()` bytes) to UTF-16 at `dst`;
    /// returns the bytes widened, up to the first byte that is not ASCII.
    #[inline(always)]
    pub(in crate::simd::x86_64) fn widen_ascii(self, src: &[u8], dst: &mut [u16]) -> usize {
        let src = &src[..src.len().min(dst.len())];
        // SAFETY: `self` proves the CPU's features; `dst` has room for `src.len()` units
        // (`src` was cut to its length).
        unsafe { widen(src, dst.as_mut_ptr()) }
    }

    /// Appends to `out` the units of [`transcode_valid`](Self::transcode_valid) over `src`,
    /// written straight into the spare capacity; returns the bytes converted.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    pub(in crate::simd::x86_64) fn extend_valid(
        self,
        src: &[u8],
        out: &mut alloc::vec::Vec<u16>,
    ) -> usize {
        // SAFETY: `self` proves the CPU's features; `transcode` writes only within the room
        // it is given and stores to each of the units it counts (its contract).
        unsafe { append(out, src.len(), |q, room| transcode(src, q, room)) }
    }

    /// Appends to `out` the units of [`widen_ascii`](Self::widen_ascii) over `src`, written
    /// straight into the spare capacity; returns the bytes widened.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    pub(in crate::simd::x86_64) fn extend_ascii(
        self,
        src: &[u8],
        out: &mut alloc::vec::Vec<u16>,
    ) -> usize {
        // SAFETY: `self` proves the CPU's features; the room is at least the `src.len()` units
        // reserved, all `widen` may write, and it writes each of the `n` it returns.
        unsafe {
            append(out, src.len(), |q, _| {
                let n = widen(src, q);
                (n, n)
            })
        }
    }
}

/// Appends to `out` what `f` writes into its spare capacity, `reserve` units reserved first:
/// `f` gets the spare capacity's start and length and returns (its result, the units it
/// wrote from the start).
///
/// # Safety
///
/// `f` must write only within the length it gets, and each of the units it says it wrote.
#[cfg(feature = "alloc")]
#[inline(always)]
unsafe fn append<R>(
    out: &mut alloc::vec::Vec<u16>,
    reserve: usize,
    f: impl FnOnce(*mut u16, usize) -> (R, usize),
) -> R {
    out.reserve(reserve);
    let spare = out.spare_capacity_mut();
    let (r, written) = f(spare.as_mut_ptr().cast(), spare.len());
    // SAFETY: `f` initialized the first `written` units of the spare capacity (this
    // function's contract), which holds at least that many.
    unsafe { out.set_len(out.len() + written) };
    r
}

#[cfg(all(test, feature = "std"))]
mod tests {
    extern crate std;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    use utf8_testkit::Rng;

    use crate::simd::token::Avx512Vbmi2;

    /// Chars at the edges of each length and of the surrogate gap.
    const EDGES: [char; 15] = [
        '\0',
        'a',
        '\x7F',
        '\u{80}',
        'é',
        '\u{7FF}',
        '\u{800}',
        '中',
        '\u{D7FF}',
        '\u{E000}',
        '\u{FFFD}',
        '\u{FFFF}',
        '\u{10000}',
        '😀',
        '\u{10FFFF}',
    ];

    /// Checks the transcoder on `s` with `room` units of output against std: what it read is a
    /// char boundary whose units are what it wrote, and it stopped only where it must (under a
    /// block and a byte left, less the code point across the block's end, or under 64 units
    /// of room). The appending form too when `room` is the length.
    fn check(t: Avx512Vbmi2, s: &str, room: usize) {
        let mut dst = vec![0xAAAA; room];
        let (read, written) = t.transcode_valid(s.as_bytes(), &mut dst);
        assert!(s.is_char_boundary(read), "{s:?} {room}: read {read}");
        let want: Vec<u16> = s[..read].encode_utf16().collect();
        assert_eq!(dst[..written], want[..], "{s:?} {room}");
        if room >= s.len() {
            assert!(s.len() - read <= 67, "{s:?}: read {read}");
            let mut out = vec![7u16];
            assert_eq!(t.extend_valid(s.as_bytes(), &mut out), read, "{s:?}");
            assert_eq!(out[0], 7);
            assert_eq!(out[1..], want[..], "{s:?}");
        } else {
            assert!(
                s.len() - read <= 67 || room - written < 64 + 2,
                "{s:?} {room}"
            );
        }
    }

    /// Every string of one to three [`EDGES`] at each offset of 141 in 200 bytes of ASCII
    /// padding: across the first two block ends.
    #[test]
    fn edges_at_every_offset() {
        let Some(t) = Avx512Vbmi2::new() else { return };
        let mut strings = Vec::new();
        for a in EDGES {
            strings.push(String::from(a));
            for b in EDGES {
                strings.push([a, b].iter().collect());
                for c in EDGES {
                    strings.push([a, b, c].iter().collect());
                }
            }
        }
        for s in &strings {
            for at in 0..=140 {
                let mut text = "x".repeat(at);
                text.push_str(s);
                // Past the last block (which ends at byte 192), and across it (at byte 128).
                for len in [200, 150] {
                    let mut text = text.clone();
                    text.push_str(&"y".repeat(len - text.len().min(len)));
                    check(t, &text, text.len());
                }
            }
        }
    }

    /// Every scalar value, starting at bytes 61 and 62 of a block of ASCII or of two-byte
    /// sequences: every length across the block's end, a four-byte sequence's high surrogate
    /// ending the block or starting the next; with a block after it, and as the last block.
    #[test]
    fn every_scalar_across_a_block_end() {
        let Some(t) = Avx512Vbmi2::new() else { return };
        let mut buf = [0u8; 4];
        for (pad, at) in [("a", 61), ("a", 62), ("é", 31), ("\u{10}é", 31)] {
            let head = pad.repeat(at / pad.len());
            for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
                for tail in [70, 30] {
                    let mut text = head.clone();
                    text.push_str(c.encode_utf8(&mut buf));
                    text.push_str(&"z".repeat(tail));
                    check(t, &text, text.len());
                }
            }
        }
    }

    /// Random mixes of one- to four-byte chars, 0 to 300 of them, with room for all and less.
    #[test]
    fn random_mixes() {
        let Some(t) = Avx512Vbmi2::new() else { return };
        let mut rng = Rng::new(0x5EED_0016);
        let ranges: [(u64, u64); 4] = [
            (0, 0x7F),
            (0x80, 0x7FF),
            (0x800, 0xFFFF),
            (0x1_0000, 0x10_FFFF),
        ];
        for _ in 0..20_000 {
            // Each string favours a few of the lengths, as text does.
            let weights: [u64; 4] = core::array::from_fn(|_| rng.below(4));
            let total = weights.iter().sum::<u64>().max(1);
            let n = rng.below(301);
            let mut s = String::new();
            while (s.chars().count() as u64) < n {
                let mut x = rng.below(total);
                let mut k = 0;
                while k < 3 && x >= weights[k] {
                    x -= weights[k];
                    k += 1;
                }
                let (lo, hi) = ranges[k];
                if let Some(c) = char::from_u32((lo + rng.below(hi - lo + 1)) as u32) {
                    s.push(c);
                }
            }
            check(t, &s, s.len());
            check(t, &s, rng.below(s.len() as u64 + 1) as usize);
        }
    }

    /// The ASCII widening stops exactly before the first byte that is not ASCII, at every
    /// position and output alignment, and never writes past the room it is given.
    #[test]
    fn widen_stops_at_the_first_non_ascii_byte() {
        let Some(t) = Avx512Vbmi2::new() else { return };
        for len in 0..260 {
            for stop in (0..=len).filter(|&k| k < 4 || k % 7 == 0 || k + 4 > len || k == len) {
                let mut src = vec![b'q'; len];
                if stop < len {
                    src[stop] = 0xC3;
                }
                for shift in [0, 1, 13, 31] {
                    let mut dst = vec![0xAAAAu16; len + 40];
                    let n = t.widen_ascii(&src, &mut dst[shift..shift + len]);
                    assert_eq!(n, stop, "len {len}, stop {stop}, shift {shift}");
                    assert!(dst[shift..shift + n].iter().all(|&u| u == u16::from(b'q')));
                    assert!(dst[shift + len..].iter().all(|&u| u == 0xAAAA));
                    let mut out = vec![1u16];
                    assert_eq!(t.extend_ascii(&src, &mut out), stop);
                    assert_eq!(out.len(), stop + 1);
                }
            }
        }
    }
}
