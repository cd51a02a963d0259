//! The shuffle tables of the vector UTF-8 to UTF-16 transcoder (Lemire & Keiser,
//! "Transcoding billions of Unicode characters per second with SIMD instructions", 2021;
//! simdutf's `utf8_to_utf16` tables), computed by `const fn` at compile time instead of
//! being pasted in.
//!
//! A step of the transcoder looks at 12 bytes that start at a code point boundary and at the
//! 12-bit mask of the bytes that end a code point. [`INDEX`] maps that mask to a shuffle of
//! [`SHUFFLES`] and the number of bytes the step consumes:
//!
//! - `0..64`: six code points of 1 or 2 bytes, into six 16-bit lanes (the last byte of each
//!   in the low half), index `Σ (size_k - 1) << k`;
//! - `64..145`: four code points of 1 to 3 bytes, into four 32-bit lanes, index
//!   `64 + Σ (size_k - 1) * 3^k`;
//! - `145..209`: three code points of 1 to 4 bytes, into three 32-bit lanes, index
//!   `145 + Σ (size_k - 1) * 4^k`;
//! - [`NONE`] with 0 bytes consumed: a mask no valid UTF-8 gives (fewer than three code points
//!   end among the 12 bytes); the transcoder stops there.
//!
//! In every lane the sequence's last byte is the lowest byte and its lead byte the highest
//! used one; unused bytes are zero (shuffle index 0x80).

/// The index of no shuffle: the mask cannot come from valid UTF-8.
pub(crate) const NONE: u8 = 209;

/// `[shuffle index, bytes consumed]` by 12-bit end-of-code-point mask.
pub(crate) static INDEX: [[u8; 2]; 4096] = build_index();

/// The 209 shuffles of [`INDEX`] (for `pshufb` and `tbl`: 0x80 gives a zero byte).
pub(crate) static SHUFFLES: [[u8; 16]; 209] = build_shuffles();

/// By 4-bit mask of the 32-bit lanes holding a surrogate pair (high surrogate in the low
/// half, low surrogate in the high half; other lanes a code point below U+10000 in the low
/// half): the shuffle packing the lanes' units together, in order.
pub(crate) static COMPRESS: [[u8; 16]; 16] = build_compress();

/// By 8-bit mask of the 16-bit lanes to keep: the shuffle packing those lanes together, in
/// order, at the start (the two-byte path: a lane per input byte, the continuation bytes'
/// lanes dropped). The number of lanes kept is the mask's popcount.
pub(crate) static PACK: [[u8; 16]; 256] = build_pack();

const fn build_pack() -> [[u8; 16]; 256] {
    let mut t = [[0x80; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut lane, mut n) = (0, 0);
        while lane < 8 {
            if (mask >> lane) & 1 == 1 {
                t[mask][2 * n] = (2 * lane) as u8;
                t[mask][2 * n + 1] = (2 * lane + 1) as u8;
                n += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    t
}

const fn build_compress() -> [[u8; 16]; 16] {
    let mut t = [[0x80; 16]; 16];
    let mut mask = 0;
    while mask < 16 {
        let (mut lane, mut n) = (0, 0);
        while lane < 4 {
            let units = 1 + ((mask >> lane) & 1);
            let mut u = 0;
            while u < units {
                t[mask][2 * n] = (4 * lane + 2 * u) as u8;
                t[mask][2 * n + 1] = (4 * lane + 2 * u + 1) as u8;
                n += 1;
                u += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    t
}

/// The sizes of the code points whose last byte is a set bit of `mask` (12 bits), in order,
/// and how many there are.
const fn sizes(mask: usize) -> ([usize; 12], usize) {
    let (mut out, mut n, mut start, mut i) = ([0; 12], 0, 0, 0);
    while i < 12 {
        if (mask >> i) & 1 == 1 {
            out[n] = i + 1 - start;
            n += 1;
            start = i + 1;
        }
        i += 1;
    }
    (out, n)
}

/// Whether the first `k` of `n` sizes exist and are all at most `max`.
const fn fits(s: &[usize; 12], n: usize, k: usize, max: usize) -> bool {
    if n < k {
        return false;
    }
    let mut i = 0;
    while i < k {
        if s[i] > max {
            return false;
        }
        i += 1;
    }
    true
}

/// `base + Σ (s[i] - 1) * radix^i` over the first `k` sizes, and their sum.
const fn encode(s: &[usize; 12], k: usize, radix: usize, base: usize) -> [u8; 2] {
    let (mut idx, mut weight, mut sum, mut i) = (base, 1, 0, 0);
    while i < k {
        idx += (s[i] - 1) * weight;
        weight *= radix;
        sum += s[i];
        i += 1;
    }
    [idx as u8, sum as u8]
}

const fn build_index() -> [[u8; 2]; 4096] {
    let mut t = [[NONE, 0]; 4096];
    let mut mask = 0;
    while mask < 4096 {
        let (s, n) = sizes(mask);
        t[mask] = if fits(&s, n, 6, 2) {
            encode(&s, 6, 2, 0)
        } else if fits(&s, n, 4, 3) {
            encode(&s, 4, 3, 64)
        } else if fits(&s, n, 3, 4) {
            encode(&s, 3, 4, 145)
        } else {
            [NONE, 0]
        };
        mask += 1;
    }
    t
}

/// The shuffle placing `k` code points of the given sizes, each in a lane of `lane` bytes.
const fn shuffle(idx: usize, k: usize, radix: usize, lane: usize) -> [u8; 16] {
    let mut out = [0x80; 16];
    let (mut rest, mut pos, mut i) = (idx, 0, 0);
    while i < k {
        let size = rest % radix + 1;
        rest /= radix;
        let mut j = 0;
        while j < size {
            // Byte j of the lane is the sequence's byte size - 1 - j (last byte lowest).
            out[lane * i + j] = (pos + size - 1 - j) as u8;
            j += 1;
        }
        pos += size;
        i += 1;
    }
    out
}

const fn build_shuffles() -> [[u8; 16]; 209] {
    let mut t = [[0x80; 16]; 209];
    let mut i = 0;
    while i < 209 {
        t[i] = match i {
            0..64 => shuffle(i, 6, 2, 2),
            64..145 => shuffle(i - 64, 4, 3, 4),
            _ => shuffle(i - 145, 3, 4, 4),
        };
        i += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_masks() {
        // Six ASCII bytes: the first six ends, six bytes consumed, index 0.
        assert_eq!(INDEX[0xFFF], [0, 6]);
        // Two-byte sequences: 0xAAA has six of them, 12 bytes.
        assert_eq!(INDEX[0xAAA], [0b11_1111, 12]);
        // Three-byte sequences: four of them in 12 bytes.
        assert_eq!(INDEX[0x924], [64 + 2 * (1 + 3 + 9 + 27), 12]);
        // Four-byte sequences: three.
        assert_eq!(INDEX[0x888], [145 + 3 * (1 + 4 + 16), 12]);
        // No end in 12 bytes: not valid UTF-8.
        assert_eq!(INDEX[0], [NONE, 0]);
        // A three-byte sequence then a two-byte one: lanes of 32 bits.
        let [idx, used] = INDEX[0b10100 | 0xFE0];
        assert_eq!(used, 3 + 2 + 1 + 1);
        assert_eq!(
            SHUFFLES[idx as usize][..8],
            [2, 1, 0, 0x80, 4, 3, 0x80, 0x80]
        );
    }

    #[test]
    fn pack_keeps_the_masked_lanes_in_order() {
        assert_eq!(PACK[0xFF], core::array::from_fn(|i| i as u8));
        assert_eq!(PACK[0], [0x80; 16]);
        assert_eq!(PACK[0b1000_0101][..6], [0, 1, 4, 5, 14, 15]);
        assert_eq!(PACK[0b1000_0101][6..], [0x80; 10]);
    }

    #[test]
    fn compress_keeps_every_unit_in_order() {
        assert_eq!(COMPRESS[0][..8], [0, 1, 4, 5, 8, 9, 12, 13]);
        assert_eq!(
            COMPRESS[0b0101][..12],
            [0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13]
        );
        assert_eq!(COMPRESS[0b1111], core::array::from_fn(|i| i as u8));
    }

    #[test]
    fn every_valid_mask_consumes_what_it_places() {
        for (mask, &[idx, used]) in INDEX.iter().enumerate() {
            let (s, n) = sizes(mask);
            if idx == NONE {
                assert!(n < 3 || s[..3].iter().any(|&x| x > 4), "{mask:#x}");
                continue;
            }
            assert!((3..=12).contains(&used), "{mask:#x}");
            let sh = SHUFFLES[usize::from(idx)];
            let top = sh.iter().filter(|&&b| b < 16).max().copied();
            assert_eq!(top, Some(used - 1), "{mask:#x}");
        }
    }
}
