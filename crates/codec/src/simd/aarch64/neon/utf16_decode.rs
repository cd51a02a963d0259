//! The UTF-16 → UTF-8 vector transcoder of `simd/utf16_decode.rs` with NEON, 8 units a
//! step: the steps of `x86_64/sse42/utf16_decode.rs` (ASCII, all below U+0800, all
//! three-byte, no surrogate, four surrogate pairs, else one scalar value at a time), with
//! `tbl` for the shuffles and weighted horizontal adds for the lane masks. Little-endian only, as the NEON kernel is.
//!
//! A step needs 16 bytes of input and 32 of room; short of that the call ends and the caller's
//! scalar twin converts the rest. Every store is inside that room, every load inside `src`,
//! whatever the data.

use core::arch::aarch64::*;

use crate::simd::utf16_decode_tables::{PACK_1_2, PACK_1_2_3, Pack, units_one_by_one};

/// The weight of each 16-bit lane's bit in a mask of eight lanes.
static WEIGHTS16: [u16; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
/// The weight of each 32-bit lane's bit in a mask of four lanes.
static WEIGHTS32: [u32; 4] = [1, 2, 4, 8];

/// Eight units at `p`, in lane order (bytes swapped when `BE`).
///
/// # Safety
///
/// 16 readable bytes at `p`.
#[inline(always)]
unsafe fn load8<const BE: bool>(p: *const u8) -> uint16x8_t {
    // SAFETY: the caller's contract; NEON is enabled at compile time.
    unsafe {
        let b = vld1q_u8(p);
        vreinterpretq_u16_u8(if BE { vrev16q_u8(b) } else { b })
    }
}

/// Stores the bytes of `bytes` that `p` gathers at `q`; their number.
///
/// # Safety
///
/// 16 writable bytes at `q`.
#[inline(always)]
unsafe fn store_packed(q: *mut u8, bytes: uint8x16_t, p: &Pack) -> usize {
    // SAFETY: the caller's contract; `p.shuffle` has 16 readable bytes. An index of 0x80 is
    // out of the table's range: a zero byte.
    unsafe { vst1q_u8(q, vqtbl1q_u8(bytes, vld1q_u8(p.shuffle.as_ptr()))) };
    p.len
}

/// The UTF-8 of eight units all below U+0800 at `q`; its length.
///
/// # Safety
///
/// 16 writable bytes at `q`.
#[inline(always)]
unsafe fn two_byte8(v: uint16x8_t, q: *mut u8) -> usize {
    // SAFETY: the caller's contract; NEON register operations, and a load of the 16 bytes of
    // `WEIGHTS16`.
    unsafe {
        let ascii = vcltq_u16(v, vdupq_n_u16(0x80));
        let low = vshlq_n_u16::<8>(vandq_u16(v, vdupq_n_u16(0x3F)));
        let two = vorrq_u16(vorrq_u16(vshrq_n_u16::<6>(v), low), vdupq_n_u16(0x80C0));
        let bytes = vbslq_u16(ascii, v, two);
        let m = vaddvq_u16(vandq_u16(ascii, vld1q_u16(WEIGHTS16.as_ptr()))) as usize;
        store_packed(q, vreinterpretq_u8_u16(bytes), &PACK_1_2[m])
    }
}

/// The three-byte forms of the four units in the 32-bit lanes of `$c`, first byte lowest
/// (what [`three_byte4`] keeps of a unit of U+0800 or above, and all of [`all_three8`]): a
/// macro, so that it expands into its callers' `unsafe` blocks, NEON register operations.
macro_rules! three_bytes {
    ($c:expr) => {{
        let c = $c;
        let six = vdupq_n_u32(0x3F);
        let low = vandq_u32(c, six);
        let mid = vandq_u32(vshrq_n_u32::<6>(c), six);
        vorrq_u32(
            vorrq_u32(vshrq_n_u32::<12>(c), vshlq_n_u32::<8>(mid)),
            vorrq_u32(vshlq_n_u32::<16>(low), vdupq_n_u32(0x80_80E0)),
        )
    }};
}

/// The UTF-8 of four units (none a surrogate) in the 32-bit lanes of `c` at `q`; its length.
///
/// # Safety
///
/// 16 writable bytes at `q`.
#[inline(always)]
unsafe fn three_byte4(c: uint32x4_t, q: *mut u8) -> usize {
    // SAFETY: the caller's contract; NEON register operations, and a load of the 16 bytes of
    // `WEIGHTS32`.
    unsafe {
        let three = three_bytes!(c);
        let low = vandq_u32(c, vdupq_n_u32(0x3F));
        let two = vorrq_u32(
            vorrq_u32(vshrq_n_u32::<6>(c), vshlq_n_u32::<8>(low)),
            vdupq_n_u32(0x80C0),
        );
        let one = vcltq_u32(c, vdupq_n_u32(0x80));
        let upto2 = vcltq_u32(c, vdupq_n_u32(0x800));
        let bytes = vbslq_u32(one, c, vbslq_u32(upto2, two, three));
        let w = vld1q_u32(WEIGHTS32.as_ptr());
        let n1 = vaddvq_u32(vbicq_u32(w, one)) as usize;
        let n2 = vaddvq_u32(vbicq_u32(w, upto2)) as usize;
        store_packed(q, vreinterpretq_u8_u32(bytes), &PACK_1_2_3[n1 | (n2 << 4)])
    }
}

/// The bytes of [`all_three8`]'s three-byte forms in their 32-bit lanes, in order.
static GATHER3: [u8; 16] = [
    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80,
];

/// The UTF-8 of eight units, all U+0800 or above and none a surrogate, at `q`: 24 bytes, by
/// a fixed shuffle.
///
/// # Safety
///
/// 28 writable bytes at `q`.
#[inline(always)]
unsafe fn all_three8(v: uint16x8_t, q: *mut u8) {
    // SAFETY: the caller's contract: the stores end 16 and 28 bytes in; `GATHER3` has 16
    // readable bytes.
    unsafe {
        let gather = vld1q_u8(GATHER3.as_ptr());
        for (k, c) in [vmovl_u16(vget_low_u16(v)), vmovl_high_u16(v)]
            .into_iter()
            .enumerate()
        {
            let three = vreinterpretq_u8_u32(three_bytes!(c));
            vst1q_u8(q.add(12 * k), vqtbl1q_u8(three, gather));
        }
    }
}

/// The UTF-8 of eight units, none a surrogate, at `q`; its length.
///
/// # Safety
///
/// 28 writable bytes at `q`.
#[inline(always)]
unsafe fn three_byte8(v: uint16x8_t, q: *mut u8) -> usize {
    // SAFETY: the caller's contract: the first store ends 16 bytes in, the second at most
    // 12 + 16.
    unsafe {
        let n = three_byte4(vmovl_u16(vget_low_u16(v)), q);
        n + three_byte4(vmovl_high_u16(v), q.add(n))
    }
}

/// The UTF-8 of eight units at `q` when they are four surrogate pairs, each in a 32-bit
/// lane (16 bytes); whether they were.
///
/// # Safety
///
/// 16 writable bytes at `q`.
#[inline(always)]
unsafe fn pairs8(v: uint16x8_t, q: *mut u8) -> bool {
    // SAFETY: the caller's contract; NEON register operations.
    unsafe {
        let d = vreinterpretq_u32_u16(v);
        let tags = vandq_u32(d, vdupq_n_u32(0xFC00_FC00));
        if vminvq_u32(vceqq_u32(tags, vdupq_n_u32(0xDC00_D800))) != u32::MAX {
            return false;
        }
        // (lead << 10) + trail, less the surrogate offsets, plus 0x10000.
        let lead = vandq_u32(d, vdupq_n_u32(0xFFFF));
        let cp = vsubq_u32(
            vaddq_u32(vshlq_n_u32::<10>(lead), vshrq_n_u32::<16>(d)),
            vdupq_n_u32(0x35F_DC00),
        );
        let b0 = vshrq_n_u32::<18>(cp);
        let b1 = vandq_u32(vshrq_n_u32::<4>(cp), vdupq_n_u32(0x3F00));
        let b2 = vandq_u32(vshlq_n_u32::<10>(cp), vdupq_n_u32(0x3F_0000));
        let b3 = vandq_u32(vshlq_n_u32::<24>(cp), vdupq_n_u32(0x3F00_0000));
        let bytes = vorrq_u32(
            vorrq_u32(b0, b1),
            vorrq_u32(vorrq_u32(b2, b3), vdupq_n_u32(0x8080_80F0)),
        );
        vst1q_u8(q, vreinterpretq_u8_u32(bytes));
        true
    }
}

/// One step of eight units (sixteen when they and the next eight are ASCII) from byte `i`,
/// written at `dst + o`: the new (i, o), and false where it stopped before an unpaired
/// surrogate.
///
/// # Safety
///
/// `i + 16 <= src.len()`; `dst` writable for `o + 32` bytes.
#[inline(always)]
unsafe fn step8<const BE: bool>(
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
        let top = vmaxvq_u16(v);
        if top < 0x80 {
            if i + 32 <= src.len() {
                let w = load8::<BE>(p.add(16));
                if vmaxvq_u16(w) < 0x80 {
                    let low = vuzp1q_u8(vreinterpretq_u8_u16(v), vreinterpretq_u8_u16(w));
                    vst1q_u8(q, low);
                    return (i + 32, o + 16, true);
                }
            }
            vst1_u8(q, vmovn_u16(v));
            return (i + 16, o + 8, true);
        }
        if top < 0x800 {
            return (i + 16, o + two_byte8(v, q), true);
        }
        let sur = vceqq_u16(vandq_u16(v, vdupq_n_u16(0xF800)), vdupq_n_u16(0xD800));
        if vmaxvq_u16(sur) == 0 {
            if vminvq_u16(v) >= 0x800 {
                all_three8(v, q);
                return (i + 16, o + 24, true);
            }
            return (i + 16, o + three_byte8(v, q), true);
        }
        if pairs8(v, q) {
            return (i + 16, o + 16, true);
        }
        let (i, w, ok) = units_one_by_one::<BE>(src, i, i + 16, q);
        (i, o + w, ok)
    }
}

/// Transcodes a well-formed prefix of `src` (UTF-16, big-endian when `BE`) into the `room`
/// bytes at `dst` with NEON, leaving at most one step's input or room: (bytes read, bytes
/// written).
///
/// # Safety
///
/// `dst` must be writable for `room` bytes (NEON is enabled at compile time).
pub(super) unsafe fn transcode_neon<const BE: bool>(
    src: &[u8],
    dst: *mut u8,
    room: usize,
) -> (usize, usize) {
    let (mut i, mut o) = (0, 0);
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
