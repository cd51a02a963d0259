//! Valid UTF-8 to UTF-16 in 16-byte vectors, written once over [`Utf16Lanes`] (Lemire &
//! Keiser, "Transcoding billions of Unicode characters per second with SIMD instructions",
//! 2021; simdutf's `convert_masked_utf8_to_utf16`), stamped out for AVX2
//! (`x86_64/avx2/utf16.rs`) and NEON (`aarch64/neon/mod.rs`).
//!
//! 64 bytes at a time: an all-ASCII block is widened; a block of one- and two-byte sequences
//! only is converted 16 bytes at a time without looking for where sequences end
//! ([`two_byte_block`]); any other block in steps of up to 16 bytes that start at a code point
//! boundary, chosen by the mask of bytes that end a code point: 16 ASCII bytes, 8 two-byte
//! sequences, 8 or 4 three-byte sequences, 4 four-byte sequences, or a shuffle from
//! `utf16_tables.rs` for any mix. A step never starts past byte 51 of the
//! block; the next block starts where the last step ended.
//!
//! The input must be valid UTF-8 for the units to be right (the caller has validated it);
//! memory safety does not depend on it: every step writes at most 16 units at the output
//! position, advances it by at most the bytes it consumes, and consumes nothing on a mask no
//! valid input gives, which ends the call.

use super::utf16_tables::{COMPRESS, INDEX, NONE, PACK, SHUFFLES};

/// The 128-bit primitives of the transcoder. Where an instruction set does a part of the
/// block in wider registers, it overrides the provided method for that part.
///
/// # Safety
///
/// Every method may be called only on a CPU that supports the implementing type's ISA;
/// loads need 16 readable bytes, stores 16 writable bytes, at their pointer.
pub(crate) trait Utf16Lanes: Copy {
    /// Unaligned load of 16 bytes.
    unsafe fn load(p: *const u8) -> Self;
    /// Unaligned store of the 16 bytes (8 units, little-endian) at `q`.
    unsafe fn store(self, q: *mut u16);
    /// The low 8 bytes zero-extended to 8 16-bit lanes.
    unsafe fn widen_lo(self) -> Self;
    /// The high 8 bytes zero-extended to 8 16-bit lanes.
    unsafe fn widen_hi(self) -> Self;
    /// All bytes `b`.
    unsafe fn splat8(b: u8) -> Self;
    /// All 16-bit lanes `x`.
    unsafe fn splat16(x: u16) -> Self;
    /// All 32-bit lanes `x`.
    unsafe fn splat32(x: u32) -> Self;
    /// Bitwise and.
    unsafe fn and(self, o: Self) -> Self;
    /// Bitwise or.
    unsafe fn or(self, o: Self) -> Self;
    /// Bitwise xor.
    unsafe fn xor(self, o: Self) -> Self;
    /// Per-byte unsigned maximum.
    unsafe fn max8(self, o: Self) -> Self;
    /// Per-byte unsigned saturating subtraction.
    unsafe fn subs8(self, o: Self) -> Self;
    /// Per-byte signed `self > o` as 0xFF / 0x00.
    unsafe fn gt8(self, o: Self) -> Self;
    /// Whether any byte is nonzero.
    unsafe fn any(self) -> bool;
    /// Whether any byte has its high bit set.
    unsafe fn any_high(self) -> bool;
    /// The high bit of every byte, byte `i` in bit `i`.
    unsafe fn high_bits(self) -> u64;
    /// The bytes of `self` picked by `idx`: lane `i` gets `self[idx[i]]` for an index under
    /// 16, 0 where the index has its high bit set (other indices are not used).
    unsafe fn shuffle(self, idx: Self) -> Self;
    /// Per-16-bit-lane shift left by `N` (0..=15).
    unsafe fn shl16<const N: i32>(self) -> Self;
    /// Per-16-bit-lane logical shift right by `N` (1..=16).
    unsafe fn shr16<const N: i32>(self) -> Self;
    /// Per-16-bit-lane `self == o` as all ones / zeros.
    unsafe fn eq16(self, o: Self) -> Self;
    /// Per-32-bit-lane shift left by `N` (0..=31).
    unsafe fn shl32<const N: i32>(self) -> Self;
    /// Per-32-bit-lane logical shift right by `N` (1..=32).
    unsafe fn shr32<const N: i32>(self) -> Self;
    /// Per-32-bit-lane wrapping subtraction.
    unsafe fn sub32(self, o: Self) -> Self;
    /// Per-32-bit-lane signed `self > o` as all ones / zeros.
    unsafe fn gt32(self, o: Self) -> Self;
    /// The high bit of every 32-bit lane, lane `i` in bit `i`.
    unsafe fn high_bits32(self) -> usize;
    /// The 32-bit lanes narrowed to 16 bits with unsigned saturation, in the low four lanes
    /// and again in the high four.
    unsafe fn pack32(self) -> Self;
    /// Per byte: `b` where `self` (a mask of whole lanes) is set, else `a`.
    unsafe fn select(self, a: Self, b: Self) -> Self;

    /// Stores the 16 bytes at `q` as 16 units.
    ///
    /// # Safety
    ///
    /// 32 writable bytes at `q`.
    #[inline(always)]
    unsafe fn store_widened(self, q: *mut u16) {
        // SAFETY: the caller's contract (the ISA, and 16 units writable at `q`).
        unsafe {
            self.widen_lo().store(q);
            self.widen_hi().store(q.add(8));
        }
    }

    /// The four vectors of the 64 bytes at `p`, if they are all ASCII: `None` otherwise.
    ///
    /// # Safety
    ///
    /// 64 readable bytes at `p`.
    #[inline(always)]
    unsafe fn ascii64(p: *const u8) -> Option<[Self; 4]> {
        // SAFETY: the caller's contract.
        unsafe {
            let v = [
                Self::load(p),
                Self::load(p.add(16)),
                Self::load(p.add(32)),
                Self::load(p.add(48)),
            ];
            let all = v[0].or(v[1]).or(v[2].or(v[3]));
            (!all.any_high()).then_some(v)
        }
    }

    /// Whether the 64 bytes at `p` hold no byte above 0xDF (one- and two-byte sequences
    /// only).
    ///
    /// # Safety
    ///
    /// 64 readable bytes at `p`.
    #[inline(always)]
    unsafe fn below_e0(p: *const u8) -> bool {
        // SAFETY: the caller's contract.
        unsafe {
            let m = Self::load(p)
                .max8(Self::load(p.add(16)))
                .max8(Self::load(p.add(32)).max8(Self::load(p.add(48))));
            !m.subs8(Self::splat8(0xDF)).any()
        }
    }

    /// The continuation bytes (0x80..=0xBF) among the 64 at `p`, byte `i` in bit `i`.
    ///
    /// # Safety
    ///
    /// 64 readable bytes at `p`.
    #[inline(always)]
    unsafe fn continuations64(p: *const u8) -> u64 {
        // SAFETY: the caller's contract.
        unsafe {
            // Continuation bytes are below -64 as signed bytes.
            let below = Self::splat8(0xC0);
            let mut m = 0;
            for k in 0..4 {
                m |= below.gt8(Self::load(p.add(16 * k))).high_bits() << (16 * k);
            }
            m
        }
    }

    /// The units of 16 bytes of one- and two-byte sequences, one 16-bit lane per byte, in two
    /// vectors (bytes 0-7, 8-15): a lead's lane combined with the byte after it (`next`, the
    /// same bytes loaded one later), an ASCII byte's lane the byte itself (continuation
    /// bytes' lanes are garbage, dropped by the caller).
    ///
    /// # Safety
    ///
    /// Only on a CPU with the ISA.
    #[inline(always)]
    unsafe fn two_byte_units(cur: Self, next: Self) -> [Self; 2] {
        // SAFETY: register operations only.
        unsafe {
            let half = |c: Self, n: Self| {
                let next_cont = n.and(Self::splat16(0xC0)).eq16(Self::splat16(0x80));
                let two = c
                    .shl16::<6>()
                    .and(Self::splat16(0x7C0))
                    .or(n.and(Self::splat16(0x3F)));
                next_cont.select(c, two)
            };
            [
                half(cur.widen_lo(), next.widen_lo()),
                half(cur.widen_hi(), next.widen_hi()),
            ]
        }
    }

    /// Eight three-byte sequences at `p` (bytes 0-11 and 12-23) to 8 units at `q` (units 8
    /// to 15 may be written too).
    ///
    /// # Safety
    ///
    /// 28 readable bytes at `p`, 16 writable units at `q`.
    #[inline(always)]
    unsafe fn three_byte_8(p: *const u8, q: *mut u16) {
        // SAFETY: the caller's contract; the two stores write units 0-7 and 4-11 of the 16.
        unsafe {
            let sh = Self::load(SH_THREE.as_ptr());
            three_bytes(Self::load(p).shuffle(sh)).store(q);
            three_bytes(Self::load(p.add(12)).shuffle(sh)).store(q.add(4));
        }
    }
}

/// Input bytes and output units that must be left for a block: a step starts at most 51
/// bytes into it and reads up to 28 bytes (79), writes at most 16 units at most 51 units in
/// (67).
pub(crate) const ROOM: usize = 80;

/// Byte-swapped pairs: 8 two-byte sequences, lead high.
static SH_TWO: [u8; 16] = [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14];
/// 4 four-byte sequences, lead highest.
static SH_FOUR: [u8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];
/// 4 three-byte sequences in 32-bit lanes, lead highest, the top byte zero.
static SH_THREE: [u8; 16] = [2, 1, 0, 0x80, 5, 4, 3, 0x80, 8, 7, 6, 0x80, 11, 10, 9, 0x80];

/// Transcodes a prefix of `src` into the `room` units at `dst` and returns (bytes read,
/// units written): whole blocks while [`ROOM`] bytes and units are left, ending at a code
/// point boundary when `src` is valid UTF-8. The caller converts the rest. Every one of the
/// units written (`dst[..written]`) has been stored to, whatever the input: the memory may
/// start uninitialized (a `Vec`'s spare capacity).
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `dst` must be valid for writing `room` units.
#[inline(always)]
pub(crate) unsafe fn transcode_valid<V: Utf16Lanes>(
    src: &[u8],
    dst: *mut u16,
    room: usize,
) -> (usize, usize) {
    let (mut i, mut o) = (0, 0);
    // Every step stores a contiguous run of units from `o` that covers the units it counts
    // (at most 16 from `o`): `dst[..o]` is always written.
    while src.len() - i >= ROOM && room - o >= ROOM {
        // SAFETY: `i + 80 <= src.len()`, so 64 bytes are readable at `i`; `o + 80 <= room`,
        // so 64 units are writable at `o`.
        unsafe {
            let p = src.as_ptr().add(i);
            if let Some(v) = V::ascii64(p) {
                let q = dst.add(o);
                for (k, v) in v.into_iter().enumerate() {
                    v.store_widened(q.add(16 * k));
                }
                i += 64;
                o += 64;
                continue;
            }
            // No byte above 0xDF: only one- and two-byte sequences (Latin, Cyrillic, Greek...).
            if V::below_e0(p) {
                // `i + 80 <= src.len()` and `o + 80 <= room`, what `two_byte_block` needs.
                let (used, wrote) = two_byte_block::<V>(p, dst.add(o));
                i += used;
                o += wrote;
                continue;
            }
        }
        // SAFETY: `i + 80 <= src.len()` (the loop's condition), so 64 bytes are readable at
        // `i`, all `continuations64` reads.
        let cont = unsafe { V::continuations64(src.as_ptr().add(i)) };
        // Bit k: byte k ends a code point (byte k + 1 starts one); bit 63 unknown, so 0.
        let mut ends = !cont >> 1;
        let stop = i + 52;
        while i < stop {
            // SAFETY: `i < stop <= start + 52` with `start + 80 <= src.len()`, so 28 bytes are
            // readable at `i`; every step so far wrote no more units than it read bytes, so
            // `o <= ostart + 51` and 16 units are writable at `o` (`ostart + 80 <= room`).
            let (used, wrote) = unsafe { step::<V>(src.as_ptr().add(i), ends, dst.add(o)) };
            if used == 0 {
                return (i, o);
            }
            i += used;
            o += wrote;
            ends >>= used;
        }
    }
    (i, o)
}

/// 64 bytes at `p` (a code point boundary) of one- and two-byte sequences only, 16 at a
/// time without looking for where sequences end: each byte becomes a 16-bit lane
/// ([`Utf16Lanes::two_byte_units`]), and the lanes of continuation bytes are dropped by a
/// shuffle from [`PACK`] (a fixed 16 bytes per step, so no step waits on the one before, as
/// the steps of [`step`] do). A lead at byte 63 takes its continuation at byte 64, which is
/// then consumed too. Returns (bytes consumed, units written): 64 or 65 bytes, at most 64
/// units, every one of them stored to.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; 80 bytes must be readable at `p` and 80 units writable at
/// `q`.
#[inline(always)]
unsafe fn two_byte_block<V: Utf16Lanes>(p: *const u8, q: *mut u16) -> (usize, usize) {
    let mut o = 0;
    for k in (0..64).step_by(16) {
        // SAFETY: bytes `k..k + 17 <= 65` are readable at `p` (the contract); `k0, k1 < 256`,
        // the length of PACK, whose rows are 16 bytes; `o <= k` (at most one unit per byte
        // so far), so the 8 units at `o` and the 8 at `o + popcount(k0) <= k + 8` lie within
        // the first 72 of the 80 writable units.
        unsafe {
            let (cur, next) = (V::load(p.add(k)), V::load(p.add(k + 1)));
            let [lo, hi] = V::two_byte_units(cur, next);
            // Lanes to keep: bytes that are not continuations (above -65 as signed bytes).
            let keep = cur.gt8(V::splat8(0xBF)).high_bits() as usize;
            let (k0, k1) = (keep & 0xFF, (keep >> 8) & 0xFF);
            lo.shuffle(V::load(PACK[k0].as_ptr())).store(q.add(o));
            o += k0.count_ones() as usize;
            hi.shuffle(V::load(PACK[k1].as_ptr())).store(q.add(o));
            o += k1.count_ones() as usize;
        }
    }
    // SAFETY: byte 64 is readable (the contract).
    let after = unsafe { *p.add(64) };
    (64 + usize::from((after as i8) < -64), o)
}

/// One step at `p` (a code point boundary) with `ends` the end-of-code-point mask from `p`:
/// returns (bytes consumed, units written), consumed 0 only on a mask valid UTF-8 never
/// gives; units written never exceed bytes consumed.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; 28 bytes must be readable at `p` and 16 units writable at
/// `q`.
#[inline(always)]
unsafe fn step<V: Utf16Lanes>(p: *const u8, ends: u64, q: *mut u16) -> (usize, usize) {
    // SAFETY: 16 readable bytes at `p` (the contract).
    let input = unsafe { V::load(p) };
    // SAFETY: a table row has 16 readable bytes.
    let shuffled = |t: &[u8; 16]| unsafe { input.shuffle(V::load(t.as_ptr())) };
    match ends & 0xFFFF {
        0xFFFF => {
            // SAFETY: 16 units are writable at `q` (the contract).
            unsafe { input.store_widened(q) };
            return (16, 16);
        }
        0xAAAA => {
            // SAFETY: register operations and 8 of the 16 writable units at `q`.
            unsafe { two_bytes(shuffled(&SH_TWO)).store(q) };
            return (16, 8);
        }
        0x8888 => {
            // SAFETY: register operations and 8 of the 16 writable units at `q`.
            let n = unsafe {
                let (units, n) = four_bytes(shuffled(&SH_FOUR));
                units.store(q);
                n
            };
            return (16, 4 + n);
        }
        _ => {}
    }
    if ends & 0xFF_FFFF == 0x92_4924 {
        // Eight three-byte sequences (CJK).
        // SAFETY: 28 bytes are readable at `p` and 16 units writable at `q` (the contract).
        unsafe { V::three_byte_8(p, q) };
        return (24, 8);
    }
    let mask = (ends & 0xFFF) as usize;
    if mask == 0x924 {
        // SAFETY: register operations and 8 of the 16 writable units at `q`.
        unsafe { three_bytes(shuffled(&SH_THREE)).store(q) };
        return (12, 4);
    }
    let [idx, used] = INDEX[mask];
    if idx == NONE {
        return (0, 0);
    }
    // `idx < 209`, the length of SHUFFLES.
    let perm = shuffled(&SHUFFLES[usize::from(idx)]);
    let used = usize::from(used);
    if idx < 64 {
        // SAFETY: register operations and 8 of the 16 writable units at `q`.
        unsafe { two_bytes(perm).store(q) };
        (used, 6)
    } else {
        // Four lanes of up to 3 bytes, or three of up to 4 (the fourth lane zero): one
        // branch for both, which alternate unpredictably in mixed text.
        let lanes = 4 - usize::from(idx >= 145);
        // SAFETY: register operations and 8 of the 16 writable units at `q`.
        let n = unsafe {
            let (units, n) = four_bytes(perm);
            units.store(q);
            n
        };
        (used, lanes + n)
    }
}

/// Sixteen-bit lanes holding a lead byte (high) and a continuation (low), or ASCII (low, high
/// zero): the code points.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
unsafe fn two_bytes<V: Utf16Lanes>(perm: V) -> V {
    // SAFETY: register operations only.
    unsafe {
        let ascii = perm.and(V::splat16(0x7F));
        let high = perm.and(V::splat16(0x1F00));
        ascii.or(high.shr16::<2>())
    }
}

/// Thirty-two-bit lanes of sequences of 1 to 3 bytes (last byte lowest): the code points,
/// packed to 16 bits in the low four lanes (and again in the high four).
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
unsafe fn three_bytes<V: Utf16Lanes>(perm: V) -> V {
    // SAFETY: register operations only.
    unsafe {
        let ascii = perm.and(V::splat32(0x7F));
        let middle = perm.and(V::splat32(0x3F00)).shr32::<2>();
        let high = perm.and(V::splat32(0x0F_0000)).shr32::<4>();
        ascii.or(middle).or(high).pack32()
    }
}

/// The UTF-16 of four 32-bit lanes of sequences of 1 to 4 bytes (last byte lowest; a zero
/// lane gives one zero unit), packed from the first unit, and how many lanes took two units
/// (those whose top byte is a lead byte of four: only a four-byte lane has a top byte).
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
unsafe fn four_bytes<V: Utf16Lanes>(perm: V) -> (V, usize) {
    // SAFETY: register operations, and a load of a 16-byte row of COMPRESS (`mask < 16`).
    unsafe {
        let ascii = perm.and(V::splat32(0x7F));
        let middle = perm.and(V::splat32(0x3F00)).shr32::<2>();
        // Bits 16-21: a continuation's six bits, or a three-byte lead's four with 0b10 above
        // them (from 1110), which the xor of bit 22 moved down to bit 21 clears.
        let third = perm.and(V::splat32(0x3F_0000));
        let fix = perm.and(V::splat32(0x40_0000)).shr32::<1>();
        let third = third.xor(fix).shr32::<4>();
        // The four-byte lead whole: 0xF0 << 18 = 0x3C0_0000 marks the lanes needing a pair.
        let top = perm.and(V::splat32(0xFF00_0000)).shr32::<6>();
        let cp = ascii.or(middle).or(third.or(top));
        let pair = cp.gt32(V::splat32(0x3C0_0000));
        let m = cp.sub32(V::splat32(0x1_0000));
        let high = m.shr32::<10>().and(V::splat32(0x3FF));
        let low = m.and(V::splat32(0x3FF)).shl32::<16>();
        let pairs = high.or(low).or(V::splat32(0xDC00_D800));
        let units = pair.select(cp, pairs);
        let mask = pair.high_bits32() & 0xF;
        let sh = V::load(COMPRESS[mask].as_ptr());
        (units.shuffle(sh), mask.count_ones() as usize)
    }
}

/// Widens the ASCII prefix of `src` to UTF-16 at `dst`, in whole 64-byte blocks (then 16 at
/// a time), up to the first block with a byte that is not ASCII; returns the bytes widened
/// (as many units written). One pass: the ASCII test and the widening read the same loads.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `dst` must be valid for writing `src.len()` units.
#[inline(always)]
pub(crate) unsafe fn widen_ascii<V: Utf16Lanes>(src: &[u8], dst: *mut u16) -> usize {
    let (len, p) = (src.len(), src.as_ptr());
    let mut i = 0;
    // SAFETY: loads read 64 (16) bytes at `i` with `i + 64 <= len` (`i + 16 <= len`); stores
    // write as many units at `dst + i`, within the `len` the caller's contract allows.
    unsafe {
        // The first 32 units, then on from where the output is 64-byte aligned, so that no
        // later store splits a cache line (the loads do instead, which costs less): the
        // units in between are written twice, with the same values.
        if len >= 96 {
            let (a, b) = (V::load(p), V::load(p.add(16)));
            if a.or(b).any_high() {
                return 0;
            }
            a.store_widened(dst);
            b.store_widened(dst.add(16));
            // Units to the next 64-byte boundary of the output: 0..=31 (`dst` is 2-aligned).
            i = ((64 - (dst as usize & 63)) / 2) & 31;
        }
        while i + 64 <= len {
            let Some(v) = V::ascii64(p.add(i)) else {
                break;
            };
            for (k, v) in v.into_iter().enumerate() {
                v.store_widened(dst.add(i + 16 * k));
            }
            i += 64;
        }
        while i + 16 <= len {
            let a = V::load(p.add(i));
            if a.any_high() {
                break;
            }
            a.store_widened(dst.add(i));
            i += 16;
        }
    }
    i
}

/// Appends to `out` the units of [`transcode_valid`] over `src`, written straight into the
/// spare capacity; returns the bytes converted.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) unsafe fn extend_valid<V: Utf16Lanes>(
    src: &[u8],
    out: &mut alloc::vec::Vec<u16>,
) -> usize {
    out.reserve(src.len());
    let spare = out.spare_capacity_mut();
    // SAFETY: V's ISA (this function's contract); `spare` is writable for its `spare.len()`
    // units.
    let (read, written) =
        unsafe { transcode_valid::<V>(src, spare.as_mut_ptr().cast(), spare.len()) };
    // SAFETY: `transcode_valid` stored to each of the first `written` units of the spare
    // capacity (its contract), which holds at least `written` units.
    unsafe { out.set_len(out.len() + written) };
    read
}

/// Appends to `out` the units of [`widen_ascii`] over `src`, written straight into the spare
/// capacity; returns the bytes widened.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) unsafe fn extend_ascii<V: Utf16Lanes>(
    src: &[u8],
    out: &mut alloc::vec::Vec<u16>,
) -> usize {
    out.reserve(src.len());
    let spare = out.spare_capacity_mut();
    // SAFETY: V's ISA (this function's contract); `spare` has room for `src.len()` units
    // (reserved just above), which is all the function may write.
    let n = unsafe { widen_ascii::<V>(src, spare.as_mut_ptr().cast()) };
    // SAFETY: the first `n` units of the spare capacity were written (initialized) by
    // `widen_ascii`, and `n <= src.len()` fit in it.
    unsafe { out.set_len(out.len() + n) };
    n
}
