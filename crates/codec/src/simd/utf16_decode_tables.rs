//! What the UTF-16 → UTF-8 vector transcoders (`x86_64/sse42/utf16_decode.rs`,
//! `x86_64/avx2/utf16_decode.rs`, `aarch64/neon/utf16_decode.rs`) share: their shuffles,
//! built at compile time (each gathers the
//! bytes of UTF-8 a step computed in fixed-width lanes into one run, as simdutf's
//! `pack_1_2_utf8_bytes` and `pack_1_2_3_utf8_bytes` tables do), and the step that converts
//! one unit at a time where a vector step cannot.

use super::utf16_units::{is_lead, is_trail, pair, unit};

/// The least input for which a transcoder entry point does anything: one step of eight
/// units.
pub(crate) const MIN_INPUT: usize = 16;
/// The least room for which a transcoder entry point does anything: one such step's stores.
pub(crate) const MIN_ROOM: usize = 32;

/// A shuffle (index `0x80`: a zero byte, past the end of the run) and the run's length.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(crate) struct Pack {
    /// The source byte of each output byte.
    pub(crate) shuffle: [u8; 16],
    /// How many output bytes are meaningful.
    pub(crate) len: usize,
}

/// For eight units in 16-bit lanes, each holding its UTF-8 (one byte, or two: lead byte low):
/// entry `m` keeps one byte of lane `i` where bit `i` of `m` is set (an ASCII unit), both
/// bytes where it is clear.
pub(crate) static PACK_1_2: [Pack; 256] = pack_1_2();

/// For four units in 32-bit lanes, each holding its UTF-8 (one, two or three bytes, lead byte
/// low): entry `n1 | n2 << 4` keeps 1 byte of lane `i`, plus one where bit `i` of `n1` is set
/// (the unit is U+0080 or above) and one more where bit `i` of `n2` is (U+0800 or above).
pub(crate) static PACK_1_2_3: [Pack; 256] = pack_1_2_3();

/// For four units in 32-bit lanes as the x86 any-length step builds them (byte 0: the unit
/// itself where it is ASCII; byte 1: the last byte of its UTF-8, of its pair's for a trail
/// surrogate; byte 2: the first byte of three or four; byte 3: the first of two, or the second
/// of three or four), entry `m` holds two bits per unit `i`, bit `2i` (ASCII or trail
/// surrogate) and bit `2i + 1` (below U+0800), and keeps byte 0 of lane `i` where both are
/// set (ASCII), bytes 3 and 1 where only the second is (two bytes), bytes 2, 3 and 1 where
/// neither is (three bytes, or the first three of a pair's four from its lead), byte 1 where
/// only the first is (a trail: the last byte of its pair's four).
#[cfg(target_arch = "x86_64")]
pub(crate) static PACK_ANY: [Pack; 256] = pack_any();

/// Converts the units of `src` from byte `i` one at a time up to byte `stop` or, for a pair
/// across it, two past; writes at `q`. Returns (where it stopped, bytes written, whether it
/// reached `stop`: not at an unpaired surrogate or a lead at the end of `src`).
///
/// Without a branch on the data but for the rare unpaired surrogate: each scalar value's
/// UTF-8 is built in a word of four bytes (selected by masks from its four possible forms),
/// stored whole, and the output advanced by its length. Text that changes script at every
/// character (where a branch per length would be mispredicted every time) costs what any
/// other does.
///
/// # Safety
///
/// `q` writable for 32 bytes; `i <= stop <= src.len()` and `stop <= i + 16`.
#[inline(always)]
pub(crate) unsafe fn units_one_by_one<const BE: bool>(
    src: &[u8],
    mut i: usize,
    stop: usize,
    q: *mut u8,
) -> (usize, usize, bool) {
    let unit = |k: usize| unit::<BE>(src[k], src[k + 1]);
    let mask = |b: bool| 0u32.wrapping_sub(u32::from(b));
    let mut o = 0;
    while i + 1 < stop {
        let u = unit(i);
        let next = match i + 4 <= src.len() {
            true => unit(i + 2),
            false => 0,
        };
        let paired = is_lead(u) & is_trail(next);
        if (is_lead(u) | is_trail(u)) & !paired {
            return (i, o, false);
        }
        let p = mask(paired);
        let c = (pair(u, next) & p) | (u32::from(u) & !p);
        let (low, mid, high) = (
            0x80 | (c & 0x3F),
            0x80 | ((c >> 6) & 0x3F),
            0x80 | ((c >> 12) & 0x3F),
        );
        let two = (0xC0 | (c >> 6)) | (low << 8);
        let three = (0xE0 | (c >> 12)) | (mid << 8) | (low << 16);
        let four = (0xF0 | (c >> 18)) | (high << 8) | (mid << 16) | (low << 24);
        let (m1, m2, m3) = (mask(c < 0x80), mask(c < 0x800), mask(c < 0x1_0000));
        let mut w = (four & !m3) | (three & m3);
        w = (w & !m2) | (two & m2);
        w = (w & !m1) | (c & m1);
        let len = 1 + usize::from(c >= 0x80) + usize::from(c >= 0x800) + usize::from(paired);
        // SAFETY: the output so far is at most three bytes per unit converted (four per pair
        // of two): at most 21 before the step's last unit (or last pair, which may end two
        // bytes past `stop`), so each four-byte store ends within 25 of the 32 bytes.
        unsafe { q.add(o).cast::<[u8; 4]>().write_unaligned(w.to_le_bytes()) };
        o += len;
        i += 2 + 2 * usize::from(paired);
    }
    (i, o, true)
}

/// The start of each table: every shuffle all zero bytes, every run empty.
const NO_PACKS: [Pack; 256] = [Pack {
    shuffle: [0x80; 16],
    len: 0,
}; 256];

const fn pack_1_2() -> [Pack; 256] {
    let mut t = NO_PACKS;
    let mut m = 0;
    while m < 256 {
        let (mut k, mut i) = (0, 0);
        while i < 8 {
            t[m].shuffle[k] = 2 * i as u8;
            k += 1;
            if (m >> i) & 1 == 0 {
                t[m].shuffle[k] = 2 * i as u8 + 1;
                k += 1;
            }
            i += 1;
        }
        t[m].len = k;
        m += 1;
    }
    t
}

const fn pack_1_2_3() -> [Pack; 256] {
    let mut t = NO_PACKS;
    let mut m = 0;
    while m < 256 {
        let (mut k, mut i) = (0, 0);
        while i < 4 {
            let n = 1 + ((m >> i) & 1) + ((m >> (i + 4)) & 1);
            let mut j = 0;
            while j < n {
                t[m].shuffle[k] = (4 * i + j) as u8;
                k += 1;
                j += 1;
            }
            i += 1;
        }
        t[m].len = k;
        m += 1;
    }
    t
}

#[cfg(target_arch = "x86_64")]
const fn pack_any() -> [Pack; 256] {
    let mut t = NO_PACKS;
    let mut m = 0;
    while m < 256 {
        let (mut k, mut i) = (0, 0);
        while i < 4 {
            let bytes: &[u8] = match (m >> (2 * i)) & 3 {
                0b11 => &[0],
                0b10 => &[3, 1],
                0b00 => &[2, 3, 1],
                _ => &[1],
            };
            let mut j = 0;
            while j < bytes.len() {
                t[m].shuffle[k] = 4 * i as u8 + bytes[j];
                k += 1;
                j += 1;
            }
            i += 1;
        }
        t[m].len = k;
        m += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_gather_each_lane_in_order() {
        // Four ASCII units then four two-byte ones.
        let p = PACK_1_2[0x0F];
        assert_eq!(p.len, 12);
        assert_eq!(p.shuffle[..12], [0, 2, 4, 6, 8, 9, 10, 11, 12, 13, 14, 15]);
        // One, two, three and three bytes.
        let p = PACK_1_2_3[0b1110 | 0b1100 << 4];
        assert_eq!(p.len, 9);
        assert_eq!(p.shuffle[..9], [0, 4, 5, 8, 9, 10, 12, 13, 14]);
        assert_eq!(p.shuffle[9], 0x80);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_any_length_table_gathers_each_kind() {
        // ASCII, a lead, its trail, two bytes.
        let p = PACK_ANY[0b10_01_00_11];
        assert_eq!(p.len, 7);
        assert_eq!(p.shuffle[..7], [0, 6, 7, 5, 9, 15, 13]);
        assert_eq!(p.shuffle[7], 0x80);
    }
}
