//! Word counting's bitmaps of code points, built at compile time from [`table::NONPRINTABLE`]
//! and the wide separators: a leaf that the scalar count (`words.rs`) and the kernels' vector
//! test of a run's first character (`simd/x86_64/*/surely.rs`) both read.

use super::table;

/// Whether `cp` (not ASCII) separates words: glibc's printable spaces and wc's no-break
/// spaces.
#[inline]
pub(crate) const fn is_wide_separator(cp: u32) -> bool {
    matches!(
        cp,
        0xA0 | 0x1680 | 0x2000..=0x200A | 0x202F | 0x205F | 0x2060 | 0x3000
    )
}

/// The code points below `64 * N` that glibc's `iswprint` accepts, one bit each (code point
/// `cp` in bit `cp % 64` of word `cp / 64`).
const fn printable<const N: usize>() -> [u64; N] {
    let mut bits = [u64::MAX; N];
    let end = 64 * N as u32;
    let mut r = 0;
    while r < table::NONPRINTABLE.len() {
        let (lo, hi) = table::NONPRINTABLE[r];
        let mut cp = lo;
        while cp <= hi && cp < end {
            bits[(cp >> 6) as usize] &= !(1 << (cp & 63));
            cp += 1;
        }
        r += 1;
    }
    bits
}

/// Printable code points of the BMP, one bit each, from [`table::NONPRINTABLE`].
pub(crate) static BMP_PRINTABLE: [u64; 1024] = printable();

/// Code points U+0000..U+1FFFF that begin a word, one bit each: printable and not a
/// separator (from [`table::NONPRINTABLE`] and [`is_wide_separator`]).
pub(crate) static WORD_BITS: [u64; 2048] = {
    let mut bits = printable::<2048>();
    let mut cp = 0;
    while cp < 0x3001 {
        if is_wide_separator(cp) || matches!(cp, 0x09..=0x0D | 0x20) {
            bits[(cp >> 6) as usize] &= !(1 << (cp & 63));
        }
        cp += 1;
    }
    bits
};
