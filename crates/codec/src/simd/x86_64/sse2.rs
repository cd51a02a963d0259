//! The SSE2 kernel, for the baseline x86-64 target: a build without `std` knows
//! only its compile-time target features, and SSE2 is all the default x86-64 target has.
//!
//! SSE2 has no `pshufb`, so the lookup algorithm's nibble tables are out; this kernel checks
//! Table 3-7 with compares instead, 16 bytes at a time, each byte against the 3 before it
//! (shifted in from the vector before):
//!
//! - a byte must be a continuation (`80..BF`) exactly where the byte 1 before is a lead of 2
//!   or more bytes (`>= C0`), the byte 2 before one of 3 or more (`>= E0`) or the byte 3
//!   before one of 4 (`>= F0`): each a saturating subtraction, nonzero where it holds;
//! - `C0`, `C1` and `F5..FF` are errors wherever they are;
//! - after `E0` the next byte is at least `A0`, after `ED` at most `9F`, after `F0` at least
//!   `90`, after `F4` at most `8F` (the only second bytes Table 3-7 restricts further).
//!
//! About 40 instructions per 16 bytes with no branch on the data, against core's decoder,
//! which branches per character. Whole ASCII blocks are skipped by one test. Where a block
//! has an error, or at a tail that no whole block overlaps, core's validator gives the exact
//! answer from the unit boundary before it.

use core::arch::x86_64::*;

use crate::simd::blocks::BLOCK;
use crate::simd::dispatch::Entries;
use crate::simd::token;

/// The constants, in registers.
#[derive(Clone, Copy)]
struct Consts {
    zero: __m128i,
    bf: __m128i,
    df: __m128i,
    ef: __m128i,
    c0: __m128i,
    f4: __m128i,
    fe: __m128i,
    a0: __m128i,
    n90: __m128i,
    e0: __m128i,
    ed: __m128i,
    f0: __m128i,
    /// `generic::INCOMPLETE_HIGH`'s last 16 bytes: the high bit set, after a saturating
    /// subtraction from the last vector of a block, where a sequence is incomplete.
    incomplete: __m128i,
}

impl Consts {
    #[target_feature(enable = "sse2")]
    #[inline]
    fn new() -> Consts {
        let s = |b: u8| _mm_set1_epi8(b as i8);
        let mut last = [0xFF; 16];
        last[13..].copy_from_slice(&[0xF0 - 0x80, 0xE0 - 0x80, 0xC0 - 0x80]);
        Consts {
            zero: _mm_setzero_si128(),
            bf: s(0xBF),
            df: s(0xDF),
            ef: s(0xEF),
            c0: s(0xC0),
            f4: s(0xF4),
            fe: s(0xFE),
            a0: s(0xA0),
            n90: s(0x90),
            e0: s(0xE0),
            ed: s(0xED),
            f0: s(0xF0),
            // SAFETY: `last` has 16 readable bytes.
            incomplete: unsafe { _mm_loadu_si128(last.as_ptr().cast()) },
        }
    }
}

/// Nonzero bytes where `v` (with `prev`, the 16 bytes before it) breaks a rule of Table 3-7
/// that a byte and the 3 before it decide.
#[target_feature(enable = "sse2")]
#[inline]
fn check(c: &Consts, v: __m128i, prev: __m128i) -> __m128i {
    // The bytes 1, 2 and 3 before each byte of `v`.
    let p1 = _mm_or_si128(_mm_slli_si128::<1>(v), _mm_srli_si128::<15>(prev));
    let p2 = _mm_or_si128(_mm_slli_si128::<2>(v), _mm_srli_si128::<14>(prev));
    let p3 = _mm_or_si128(_mm_slli_si128::<3>(v), _mm_srli_si128::<13>(prev));
    // Nonzero where a continuation must come: after a lead of 2 or more bytes (or C0, C1,
    // F5..FF, errors of their own), 3 or more, 4.
    let need = _mm_or_si128(
        _mm_subs_epu8(p1, c.bf),
        _mm_or_si128(_mm_subs_epu8(p2, c.df), _mm_subs_epu8(p3, c.ef)),
    );
    // 80..BF are the bytes below C0 as signed bytes.
    let cont = _mm_cmpgt_epi8(c.c0, v);
    // 0xFF where "no continuation needed" equals "is a continuation": an error either way.
    let mismatch = _mm_cmpeq_epi8(_mm_cmpeq_epi8(need, c.zero), cont);
    // C0, C1; F5..FF.
    let bad = _mm_or_si128(
        _mm_cmpeq_epi8(_mm_and_si128(v, c.fe), c.c0),
        _mm_subs_epu8(v, c.f4),
    );
    // Second bytes: 80..9F and 80..8F (signed compares: continuations are negative).
    let below_a0 = _mm_cmpgt_epi8(c.a0, v);
    let below_90 = _mm_cmpgt_epi8(c.n90, v);
    let overlong = _mm_or_si128(
        _mm_and_si128(_mm_cmpeq_epi8(p1, c.e0), below_a0),
        _mm_and_si128(_mm_cmpeq_epi8(p1, c.f0), below_90),
    );
    let too_high = _mm_or_si128(
        _mm_andnot_si128(below_a0, _mm_cmpeq_epi8(p1, c.ed)),
        _mm_andnot_si128(below_90, _mm_cmpeq_epi8(p1, c.f4)),
    );
    _mm_or_si128(
        _mm_or_si128(mismatch, bad),
        _mm_or_si128(overlong, too_high),
    )
}

/// The errors of the 64 bytes at `ptr`, with `prev` the 16 bytes before; returns them (nonzero
/// bytes) and the last vector.
///
/// # Safety
///
/// `ptr..ptr + 64` must be readable.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn check_block(c: &Consts, ptr: *const u8, prev: __m128i) -> (__m128i, __m128i) {
    // SAFETY: 64 readable bytes at `ptr` (the caller's contract).
    unsafe {
        let v0 = _mm_loadu_si128(ptr.cast());
        let v1 = _mm_loadu_si128(ptr.add(16).cast());
        let v2 = _mm_loadu_si128(ptr.add(32).cast());
        let v3 = _mm_loadu_si128(ptr.add(48).cast());
        let e = _mm_or_si128(
            _mm_or_si128(check(c, v0, prev), check(c, v1, v0)),
            _mm_or_si128(check(c, v2, v1), check(c, v3, v2)),
        );
        (e, v3)
    }
}

/// The or of the 64 bytes at `ptr` and `extra`.
///
/// # Safety
///
/// `ptr..ptr + 64` must be readable.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn or_block(ptr: *const u8, extra: __m128i) -> __m128i {
    // SAFETY: 64 readable bytes at `ptr` (the caller's contract).
    unsafe {
        let a = _mm_or_si128(
            _mm_loadu_si128(ptr.cast()),
            _mm_loadu_si128(ptr.add(16).cast()),
        );
        let b = _mm_or_si128(
            _mm_loadu_si128(ptr.add(32).cast()),
            _mm_loadu_si128(ptr.add(48).cast()),
        );
        _mm_or_si128(_mm_or_si128(a, b), extra)
    }
}

/// The length of the longest valid prefix of `bytes`, as `scalar::valid_up_to`.
#[target_feature(enable = "sse2")]
fn valid_up_to_sse2(bytes: &[u8]) -> usize {
    let (len, ptr) = (bytes.len(), bytes.as_ptr());
    if len < BLOCK {
        return core_valid_up_to(bytes);
    }
    let end = len - BLOCK;
    // SAFETY: SSE2 (this function's target features). Blocks read 64 bytes at `o <= end`, so
    // `o + 64 <= len`; the tail block reads 64 bytes at `end` and 16 at `end - 16 >= 0`.
    unsafe {
        let c = Consts::new();
        let mut prev = c.zero;
        // The high bit set where the last block ends inside a sequence (see `generic.rs`).
        let mut incomplete = c.zero;
        let mut o = 0;
        while o <= end {
            if _mm_movemask_epi8(or_block(ptr.add(o), incomplete)) == 0 {
                prev = c.zero;
                o += BLOCK;
                continue;
            }
            let (e, last) = check_block(&c, ptr.add(o), prev);
            if _mm_movemask_epi8(_mm_cmpeq_epi8(e, c.zero)) != 0xFFFF {
                return finish(bytes, o);
            }
            prev = last;
            incomplete = _mm_subs_epu8(last, c.incomplete);
            o += BLOCK;
        }
        if o == len {
            return if _mm_movemask_epi8(incomplete) == 0 {
                len
            } else {
                finish(bytes, o)
            };
        }
        // The tail: the last 64 bytes, overlapping the block before, with the 16 bytes before
        // them loaded as they are.
        if end < 16 {
            return finish(bytes, o);
        }
        if _mm_movemask_epi8(or_block(ptr.add(end), incomplete)) == 0 {
            return len;
        }
        let (e, last) = check_block(&c, ptr.add(end), _mm_loadu_si128(ptr.add(end - 16).cast()));
        let cut = _mm_subs_epu8(last, c.incomplete);
        if _mm_movemask_epi8(_mm_cmpeq_epi8(e, c.zero)) != 0xFFFF || _mm_movemask_epi8(cut) != 0 {
            return finish(bytes, o);
        }
        len
    }
}

/// The exact answer where every sequence that ends before `o` is valid: core's validator from
/// the unit boundary at most 3 bytes before `o`.
#[cold]
#[inline(never)]
fn finish(bytes: &[u8], o: usize) -> usize {
    let p = (o.saturating_sub(3)..o)
        .rev()
        .find(|&q| bytes[q] & 0xC0 != 0x80)
        .unwrap_or(o);
    p + core_valid_up_to(&bytes[p..])
}

/// `core::str::from_utf8`'s valid length.
#[inline]
fn core_valid_up_to(bytes: &[u8]) -> usize {
    core::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), str::len)
}

impl token::Sse2 {
    /// The SSE2 kernel's entry points (see [`Entries`]): one for all three.
    #[inline(always)]
    pub(super) fn entries(self) -> Entries {
        // SAFETY: `self` proves the instruction set of the three, all they need.
        unsafe { Entries::new([valid_up_to_sse2; 3]) }
    }
}
