//! The UTF-16 → UTF-8 vector transcoder of `simd/utf16_decode.rs` with SSE4.2, 8 units a
//! step, after simdutf's `sse_convert_utf16_to_utf8`; its steps are also the AVX2
//! transcoder's (`avx2/utf16_decode.rs`) where a step of 16 units is not all of one class:
//!
//! * ASCII: packed to bytes, 16 units at a time when the next step is ASCII too;
//! * all units below U+0800: each unit's one or two bytes built in a 16-bit lane, gathered by
//!   a shuffle of [`PACK_1_2`] chosen by the mask of ASCII units;
//! * no surrogate: each unit's one to three bytes built in a 32-bit lane, four at a time,
//!   gathered by a shuffle of [`PACK_1_2_3`] (by a fixed one where all take three);
//! * four surrogate pairs, each in a 32-bit lane: four bytes each, nothing to gather;
//! * any lengths, pairs among them, none unpaired ([`any8`]): each unit's one to three bytes
//!   built in a 32-bit lane (a lead gives the first three bytes of its pair's four, a trail
//!   the last), gathered by a shuffle of [`PACK_ANY`], the last pair allowed to cross the
//!   step's end (the step then reads a ninth unit);
//! * anything else (unpaired surrogates, or the input's end within a unit of the step's):
//!   one scalar value at a time, without branching on its length, to the end of the step,
//!   the last pair allowed to cross it; an unpaired surrogate ends the call, left to the
//!   caller.
//!
//! A step needs its input (16 bytes) and room for all its stores (32 bytes); short of that
//! the call ends and the caller's scalar twin converts the rest. Every store is inside that
//! room, every load inside `src`, whatever the data.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::simd::token;
use crate::simd::utf16_decode_tables::{PACK_1_2, PACK_1_2_3, PACK_ANY, Pack, units_one_by_one};

/// Eight units at `p`, in lane order (bytes swapped when `BE`).
///
/// # Safety
///
/// SSSE3; 16 readable bytes at `p`.
#[inline(always)]
unsafe fn load8<const BE: bool>(p: *const u8) -> __m128i {
    // SAFETY: the caller's contract.
    unsafe {
        let v = _mm_loadu_si128(p.cast());
        match BE {
            true => _mm_shuffle_epi8(
                v,
                _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
            ),
            false => v,
        }
    }
}

/// Stores the bytes of `bytes` that `p` gathers at `q`; their number.
///
/// # Safety
///
/// SSSE3; 16 writable bytes at `q`.
#[inline(always)]
pub(in crate::simd::x86_64) unsafe fn store_packed(q: *mut u8, bytes: __m128i, p: &Pack) -> usize {
    // SAFETY: the caller's contract; `p.shuffle` is 16 bytes, aligned to 16 (`Pack`).
    unsafe {
        let shuffle = _mm_load_si128(p.shuffle.as_ptr().cast());
        _mm_storeu_si128(q.cast(), _mm_shuffle_epi8(bytes, shuffle));
    }
    p.len
}

/// The UTF-8 of eight units all below U+0800 at `q`; its length.
///
/// # Safety
///
/// SSE4.1; 16 writable bytes at `q`.
#[inline(always)]
pub(in crate::simd::x86_64) unsafe fn two_byte8(v: __m128i, q: *mut u8) -> usize {
    // SAFETY: the caller's contract.
    unsafe {
        let ascii = _mm_cmplt_epi16(v, _mm_set1_epi16(0x80));
        let low = _mm_slli_epi16::<8>(_mm_and_si128(v, _mm_set1_epi16(0x3F)));
        let two = _mm_or_si128(
            _mm_or_si128(_mm_srli_epi16::<6>(v), low),
            _mm_set1_epi16(0x80C0_u16 as i16),
        );
        let bytes = _mm_blendv_epi8(two, v, ascii);
        let m = _mm_movemask_epi8(_mm_packs_epi16(ascii, ascii)) as usize & 0xFF;
        store_packed(q, bytes, &PACK_1_2[m])
    }
}

/// The three-byte UTF-8 of the units in the 32-bit lanes of `c`, lead byte low.
///
/// # Safety
///
/// SSE2.
#[inline(always)]
unsafe fn three_words(c: __m128i) -> __m128i {
    // SAFETY: the caller's contract.
    unsafe {
        let six = _mm_set1_epi32(0x3F);
        let low = _mm_and_si128(c, six);
        let mid = _mm_and_si128(_mm_srli_epi32::<6>(c), six);
        _mm_or_si128(
            _mm_or_si128(_mm_srli_epi32::<12>(c), _mm_slli_epi32::<8>(mid)),
            _mm_or_si128(_mm_slli_epi32::<16>(low), _mm_set1_epi32(0x80_80E0)),
        )
    }
}

/// The UTF-8 of four units (none a surrogate) in the 32-bit lanes of `c` at `q`; its length.
///
/// # Safety
///
/// SSE4.1; 16 writable bytes at `q`.
#[inline(always)]
unsafe fn three_byte4(c: __m128i, q: *mut u8) -> usize {
    // SAFETY: the caller's contract.
    unsafe {
        let low = _mm_and_si128(c, _mm_set1_epi32(0x3F));
        let three = three_words(c);
        let two = _mm_or_si128(
            _mm_or_si128(_mm_srli_epi32::<6>(c), _mm_slli_epi32::<8>(low)),
            _mm_set1_epi32(0x80C0),
        );
        let one = _mm_cmplt_epi32(c, _mm_set1_epi32(0x80));
        let upto2 = _mm_cmplt_epi32(c, _mm_set1_epi32(0x800));
        let bytes = _mm_blendv_epi8(_mm_blendv_epi8(three, two, upto2), c, one);
        let n1 = !_mm_movemask_ps(_mm_castsi128_ps(one)) & 0xF;
        let n2 = !_mm_movemask_ps(_mm_castsi128_ps(upto2)) & 0xF;
        store_packed(q, bytes, &PACK_1_2_3[(n1 | (n2 << 4)) as usize])
    }
}

/// The UTF-8 of eight units, all U+0800 or above and none a surrogate, at `q`: 24 bytes, by
/// a fixed shuffle.
///
/// # Safety
///
/// SSE4.1; 28 writable bytes at `q`.
#[inline(always)]
pub(in crate::simd::x86_64) unsafe fn all_three8(v: __m128i, q: *mut u8) {
    // SAFETY: the caller's contract: the stores end 16 and 28 bytes in.
    unsafe {
        let gather = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
        let a = three_words(_mm_cvtepu16_epi32(v));
        let b = three_words(_mm_cvtepu16_epi32(_mm_srli_si128::<8>(v)));
        _mm_storeu_si128(q.cast(), _mm_shuffle_epi8(a, gather));
        _mm_storeu_si128(q.add(12).cast(), _mm_shuffle_epi8(b, gather));
    }
}

/// The UTF-8 of eight units, none a surrogate, at `q`; its length.
///
/// # Safety
///
/// SSE4.1; 28 writable bytes at `q`.
#[inline(always)]
pub(in crate::simd::x86_64) unsafe fn three_byte8(v: __m128i, q: *mut u8) -> usize {
    // SAFETY: the caller's contract: the first store ends 16 bytes in, the second at most
    // 12 + 16.
    unsafe {
        let n = three_byte4(_mm_cvtepu16_epi32(v), q);
        n + three_byte4(_mm_cvtepu16_epi32(_mm_srli_si128::<8>(v)), q.add(n))
    }
}

/// The UTF-8 of eight units at `q` when they are four surrogate pairs, each in a 32-bit
/// lane (16 bytes); whether they were.
///
/// # Safety
///
/// SSE4.1; 16 writable bytes at `q`.
#[inline(always)]
unsafe fn pairs8(v: __m128i, q: *mut u8) -> bool {
    // SAFETY: the caller's contract.
    unsafe {
        let tags = _mm_and_si128(v, _mm_set1_epi32(0xFC00_FC00_u32 as i32));
        let paired = _mm_cmpeq_epi32(tags, _mm_set1_epi32(0xDC00_D800_u32 as i32));
        if _mm_movemask_ps(_mm_castsi128_ps(paired)) != 0xF {
            return false;
        }
        // (lead << 10) + trail, less the surrogate offsets, plus 0x10000.
        let lead = _mm_and_si128(v, _mm_set1_epi32(0xFFFF));
        let cp = _mm_sub_epi32(
            _mm_add_epi32(_mm_slli_epi32::<10>(lead), _mm_srli_epi32::<16>(v)),
            _mm_set1_epi32(0x35F_DC00),
        );
        let b0 = _mm_srli_epi32::<18>(cp);
        let b1 = _mm_and_si128(_mm_srli_epi32::<4>(cp), _mm_set1_epi32(0x3F00));
        let b2 = _mm_and_si128(_mm_slli_epi32::<10>(cp), _mm_set1_epi32(0x3F_0000));
        let b3 = _mm_and_si128(_mm_slli_epi32::<24>(cp), _mm_set1_epi32(0x3F00_0000));
        let bytes = _mm_or_si128(
            _mm_or_si128(b0, b1),
            _mm_or_si128(_mm_or_si128(b2, b3), _mm_set1_epi32(0x8080_80F0_u32 as i32)),
        );
        _mm_storeu_si128(q.cast(), bytes);
        true
    }
}

/// The UTF-8 of eight units of any lengths at `q`, surrogate pairs among them, the last unit's
/// trail included where it is a lead (the first unit of `n`, the units one further on, is
/// that trail then): (units read, bytes written), or `None`, with nothing written, where
/// a surrogate in `v` is unpaired or the first is a trail.
///
/// Each unit's bytes are built in a 16-bit lane as `x86_64`'s two-byte and three-byte steps
/// do, from the unit or, for a lead, from its scalar value shifted right by six (whose
/// three-byte form is the first three bytes of the four, `0xE0` made `0xF0`); a trail gives
/// the last byte of its pair, the one that depends on it alone. Every unit thus takes one to
/// three bytes of its 32-bit lane, gathered by [`PACK_ANY`] by two bits of kind.
///
/// # Safety
///
/// SSE4.1; 32 writable bytes at `q`.
#[inline(always)]
pub(in crate::simd::x86_64) unsafe fn any8(
    v: __m128i,
    n: __m128i,
    q: *mut u8,
) -> Option<(usize, usize)> {
    // SAFETY: the caller's contract: the first store ends 16 bytes in, the second at most
    // 12 + 16, the trail byte at most 25.
    unsafe {
        let fc00 = _mm_set1_epi16(0xFC00_u16 as i16);
        let tag = _mm_and_si128(v, fc00);
        let lead = _mm_cmpeq_epi16(tag, _mm_set1_epi16(0xD800_u16 as i16));
        let trail = _mm_cmpeq_epi16(tag, _mm_set1_epi16(0xDC00_u16 as i16));
        let dc00 = _mm_set1_epi16(0xDC00_u16 as i16);
        let next_trail = _mm_cmpeq_epi16(_mm_and_si128(n, fc00), dc00);
        // Paired: a lead where the next unit is a trail, and no trail first.
        let at_start = _mm_setr_epi16(-1, 0, 0, 0, 0, 0, 0, 0);
        let bad = _mm_or_si128(
            _mm_xor_si128(lead, next_trail),
            _mm_and_si128(trail, at_start),
        );
        if _mm_testz_si128(bad, bad) == 0 {
            return None;
        }
        let zero = _mm_setzero_si128();
        let ascii = _mm_cmpeq_epi16(_mm_and_si128(v, _mm_set1_epi16(0xFF80_u16 as i16)), zero);
        let upto2 = _mm_cmpeq_epi16(_mm_and_si128(v, _mm_set1_epi16(0xF800_u16 as i16)), zero);
        // Low byte of each lane: ASCII or trail; high byte: below U+0800.
        let kinds = _mm_blendv_epi8(upto2, _mm_or_si128(ascii, trail), _mm_set1_epi16(0xFF));
        let m = _mm_movemask_epi8(kinds) as usize;
        // For a lead, (scalar value >> 6) = (lead << 4) + (trail >> 6) less the surrogate
        // offsets, plus 0x400, in 16 bits.
        let shifted = _mm_add_epi16(
            _mm_add_epi16(_mm_slli_epi16::<4>(v), _mm_srli_epi16::<6>(n)),
            _mm_set1_epi16(0x8090_u16 as i16),
        );
        let w = _mm_blendv_epi8(v, shifted, lead);
        // Low byte: the ASCII byte; high: the last byte.
        let dup = _mm_setr_epi8(0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14);
        let last = _mm_or_si128(
            _mm_and_si128(_mm_shuffle_epi8(w, dup), _mm_set1_epi16(0x3F7F)),
            _mm_set1_epi16(0x8000_u16 as i16),
        );
        // Low byte: `0xE0 | w >> 12`; high: `0xC0 | (w >> 6) & 0x3F`, then `0x80 | ...` where
        // it is the second of three, and `0xF0 | ...` for a lead.
        let parts = _mm_maddubs_epi16(
            _mm_and_si128(_mm_srli_epi16::<4>(w), _mm_set1_epi16(0x0FFC)),
            _mm_set1_epi16(0x0140),
        );
        let flip = _mm_or_si128(
            _mm_andnot_si128(upto2, _mm_set1_epi16(0x4000)),
            _mm_and_si128(lead, _mm_set1_epi16(0x10)),
        );
        let first = _mm_xor_si128(_mm_or_si128(parts, _mm_set1_epi16(0xC0E0_u16 as i16)), flip);
        let a = store_packed(q, _mm_unpacklo_epi16(last, first), &PACK_ANY[m & 0xFF]);
        let b = store_packed(q.add(a), _mm_unpackhi_epi16(last, first), &PACK_ANY[m >> 8]);
        // The last unit's trail, when the last unit is a lead.
        let t = _mm_extract_epi16::<7>(n) as u16;
        let paired = usize::from(t & 0xFC00 == 0xDC00);
        q.add(a + b).write(0x80 | (t & 0x3F) as u8);
        Some((8 + paired, a + b + paired))
    }
}

/// One step of eight units (sixteen when they and the next eight are ASCII, nine after a pair
/// across its end) from byte `i`,
/// written at `dst + o`: the new (i, o), and false where it stopped before an unpaired
/// surrogate.
///
/// # Safety
///
/// SSE4.2; `i + 16 <= src.len()`; `dst` writable for `o + 32` bytes.
#[inline(always)]
pub(in crate::simd::x86_64) unsafe fn step8<const BE: bool>(
    src: &[u8],
    i: usize,
    dst: *mut u8,
    o: usize,
) -> (usize, usize, bool) {
    // SAFETY: the caller's contract: 16 readable bytes at `i` (32 checked for the second
    // ASCII load), and every store within the 32 bytes at `dst + o` (the functions' own
    // contracts say how many each writes).
    unsafe {
        let p = src.as_ptr().add(i);
        let q = dst.add(o);
        let v = load8::<BE>(p);
        if _mm_testz_si128(v, _mm_set1_epi16(0xFF80_u16 as i16)) == 1 {
            if i + 32 <= src.len() {
                let w = load8::<BE>(p.add(16));
                if _mm_testz_si128(w, _mm_set1_epi16(0xFF80_u16 as i16)) == 1 {
                    _mm_storeu_si128(q.cast(), _mm_packus_epi16(v, w));
                    return (i + 32, o + 16, true);
                }
            }
            _mm_storel_epi64(q.cast(), _mm_packus_epi16(v, v));
            return (i + 16, o + 8, true);
        }
        if _mm_testz_si128(v, _mm_set1_epi16(0xF800_u16 as i16)) == 1 {
            return (i + 16, o + two_byte8(v, q), true);
        }
        let f800 = _mm_set1_epi16(0xF800_u16 as i16);
        let sur = _mm_cmpeq_epi16(_mm_and_si128(v, f800), _mm_set1_epi16(0xD800_u16 as i16));
        if _mm_testz_si128(sur, sur) == 1 {
            let below = _mm_subs_epu16(_mm_set1_epi16(0x800), v);
            if _mm_testz_si128(below, below) == 1 {
                all_three8(v, q);
                return (i + 16, o + 24, true);
            }
            return (i + 16, o + three_byte8(v, q), true);
        }
        if pairs8(v, q) {
            return (i + 16, o + 16, true);
        }
        if i + 18 <= src.len()
            && let Some((units, w)) = any8(v, load8::<BE>(p.add(2)), q)
        {
            return (i + 2 * units, o + w, true);
        }
        let (i, w, ok) = units_one_by_one::<BE>(src, i, i + 16, q);
        (i, o + w, ok)
    }
}

/// The SSE4.2 loop from byte `i` of `src` and byte `o` of the output.
///
/// # Safety
///
/// SSE4.2; `dst` writable for `room` bytes; `o <= room`.
#[inline(always)]
pub(in crate::simd::x86_64) unsafe fn run128<const BE: bool>(
    src: &[u8],
    dst: *mut u8,
    room: usize,
    mut i: usize,
    mut o: usize,
) -> (usize, usize) {
    while i + 16 <= src.len() && room - o >= 32 {
        // SAFETY: the loop's condition is `step8`'s contract.
        let (i2, o2, ok) = unsafe { step8::<BE>(src, i, dst, o) };
        (i, o) = (i2, o2);
        if !ok {
            break;
        }
    }
    (i, o)
}

token_fns! { token::Sse42, "sse4.2":
    /// Transcodes a well-formed prefix of `src` (UTF-16, big-endian when `BE`) into `dst`,
    /// leaving at most one step's input or room: (bytes read, bytes written).
    fn utf16_decode<const BE: bool>(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        let (q, room) = (dst.as_mut_ptr().cast::<u8>(), dst.len());
        // SAFETY: SSE4.2 is enabled (the function's target features); `dst` is writable for
        // its length, and the transcoder writes only initialized bytes.
        unsafe { run128::<BE>(src, q, room, 0, 0) }
    }
}
