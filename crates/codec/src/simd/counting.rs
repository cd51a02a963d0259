//! Counting over the vector kernels: the dense scanner's windows ([`count_windows`], for
//! text with errors) and valid runs ([`count_valid`]), written once over [`Vector`]. Split
//! from `generic.rs` (the validation algorithm and the dense scanner it builds on).

use super::generic::{DenseMasks, Vector, dense};
use crate::scalar;

/// What [`count_windows`] adds to: the valid text in the kernels' shape and the errors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WindowCounts {
    /// `[ascii, lead2, lead3, lead4, newlines]` of the valid text, as [`scalar::count_valid`].
    pub(crate) text: [u64; 5],
    /// Errors by [`ErrorKind::index`](crate::ErrorKind::index) (the last slot stays 0).
    pub(crate) kinds: [u64; 8],
}

impl WindowCounts {
    /// Adds the first `m.next` bytes of `block`, a window of the dense scanner, from its
    /// masks: no branch per byte, one table lookup per error for its kind.
    #[inline(always)]
    fn add_window(&mut self, block: &[u8; 64], m: &DenseMasks) {
        let span = u64::MAX >> (64 - m.next);
        let ok = span & !m.errors;
        let text = [
            m.ascii & span,
            m.lead[0] & ok,
            m.lead[1] & ok,
            m.lead[2] & ok,
            m.newlines & span,
        ];
        for (total, class) in self.text.iter_mut().zip(text) {
            *total += u64::from(class.count_ones());
        }
        let mut e = m.errors;
        while e != 0 {
            let j = e.trailing_zeros() as usize & 63;
            // An error starts in the first DENSE_SPAN positions: its second byte is in the block.
            let kind = scalar::pair_kind(block[j], block[(j + 1) & 63]);
            self.kinds[usize::from(kind) & 7] += 1;
            e &= e - 1;
        }
    }
}

/// Counts the windows of the dense scanner from `o`, a unit boundary, into `c` (text and
/// errors by kind, from the masks), up to and including the first with at most one error
/// (where errors are dense, a kernel call would stop again at once), and returns where the
/// last one ends, a unit boundary: `o` itself only when fewer than 64 bytes are left.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
pub(crate) unsafe fn count_windows<V: Vector>(
    bytes: &[u8],
    mut o: usize,
    c: &mut WindowCounts,
) -> usize {
    while let Some(block) = bytes.get(o..).and_then(<[u8]>::first_chunk::<64>) {
        // SAFETY: the caller runs on a CPU with V's ISA; `block` has 64 readable bytes.
        let m = unsafe { dense::<V>(block.as_ptr()) };
        c.add_window(block, &m);
        o += m.next;
        if m.errors & m.errors.wrapping_sub(1) == 0 {
            // At most one error: the text after it is likely clean.
            break;
        }
    }
    o
}

/// Adds the counts of a valid run to `acc` (`[ascii, lead2, lead3, lead4, newlines]`), as
/// [`scalar::count_valid`], a vector at a time.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
pub(crate) unsafe fn count_valid<V: Vector>(bytes: &[u8], acc: &mut [u64; 5]) {
    let n = V::LANES;
    let whole = bytes.len() - bytes.len() % n;
    // SAFETY: this function runs only on a CPU with V's ISA (caller's contract); every load
    // reads `n` bytes at `ptr + i` with `i + n <= whole <= bytes.len()`.
    unsafe {
        let (c0, df, ef, nl) = (
            V::splat(0xBF),
            V::splat(0xDF),
            V::splat(0xEF),
            V::splat(b'\n'),
        );
        let ptr = bytes.as_ptr();
        let (mut non_ascii, mut ge_c0, mut ge_e0, mut ge_f0, mut lines) = (0u64, 0, 0, 0, 0);
        let mut i = 0;
        while i < whole {
            let v = V::load(ptr.add(i));
            lines += u64::from(v.eq(nl).high_bit_mask().count_ones());
            let high = v.high_bit_mask();
            if high != 0 {
                non_ascii += u64::from(high.count_ones());
                // Signed compares: non-ASCII bytes are negative, so mask out ASCII.
                ge_c0 += u64::from((v.signed_gt(c0).high_bit_mask() & high).count_ones());
                ge_e0 += u64::from((v.signed_gt(df).high_bit_mask() & high).count_ones());
                ge_f0 += u64::from((v.signed_gt(ef).high_bit_mask() & high).count_ones());
            }
            i += n;
        }
        acc[0] += whole as u64 - non_ascii;
        acc[1] += ge_c0 - ge_e0;
        acc[2] += ge_e0 - ge_f0;
        acc[3] += ge_f0;
        acc[4] += lines;
    }
    scalar::count_valid(&bytes[whole..], acc);
}

/// The byte classes word counting needs of a 64-byte block (byte `i` in bit `i`), found
/// from vector compares; `words.rs` turns them into word starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WordMasks {
    /// ASCII blanks: tab, newline, VT, FF, CR, space.
    pub(crate) blank: u64,
    /// Printable ASCII (`!` to `~`).
    pub(crate) print: u64,
    /// Lead bytes that surely begin a printable character that is not a separator: the
    /// leads of [`WORD_LEADS`] followed by the continuation bytes they need.
    pub(crate) word_lead: u64,
    /// Lead bytes of the two-byte separator U+00A0 (`C2 A0`).
    pub(crate) sep2: u64,
    /// Lead bytes of the three-byte separators: U+1680, U+2000..U+200A, U+202F, U+205F,
    /// U+2060, U+3000.
    pub(crate) sep3: u64,
}

/// Lead bytes every well-formed character of which is printable and not a separator
/// (glibc 2.36): two-byte leads C3..CC, CF, D0..D3, D8..DB (Latin, Greek, Cyrillic,
/// Armenian, Arabic) and three-byte leads E4..E9 (CJK ideographs), EB, EC (Hangul). As
/// nibble tables: row C is bit 0, row D bit 1, row E bit 2 (words.rs tests them).
pub(crate) const WORD_LEADS: ([u8; 16], [u8; 16]) = {
    let mut hi = [0u8; 16];
    hi[0xC] = 1;
    hi[0xD] = 2;
    hi[0xE] = 4;
    let rows: [&[u8]; 3] = [
        &[3, 4, 5, 6, 7, 8, 9, 0xA, 0xB, 0xC, 0xF],
        &[0, 1, 2, 3, 8, 9, 0xA, 0xB],
        &[4, 5, 6, 7, 8, 9, 0xB, 0xC],
    ];
    let mut lo = [0u8; 16];
    let mut r = 0;
    while r < 3 {
        let mut i = 0;
        while i < rows[r].len() {
            lo[rows[r][i] as usize] |= 1 << r;
            i += 1;
        }
        r += 1;
    }
    (hi, lo)
};

/// The [`WordMasks`] of the 64-byte blocks at `ptr`, `ptr + 64`, … into `out`, one per
/// element.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `ptr .. ptr + 64 * out.len() + 2` must be readable (the
/// separators are recognized at their lead byte from the two bytes after it).
#[inline(always)]
pub(crate) unsafe fn word_masks<V: Vector>(ptr: *const u8, out: &mut [WordMasks]) {
    // SAFETY: V's ISA is present (the caller's contract); every load reads `V::LANES` bytes
    // at `ptr + 64 * b + i + d` with `i + V::LANES <= 64` and `d <= 2`, inside the readable
    // range the caller promises.
    unsafe {
        let k = |b: u8| V::splat(b);
        let (sp, tab, cr, bang, del) = (k(b' '), k(0x08), k(0x0E), k(0x20), k(0x7F));
        let (c2, e1, e2, e3) = (k(0xC2), k(0xE1), k(0xE2), k(0xE3));
        let (x80, x81, x8b, x9a, x9f, xa0, xaf) = (
            k(0x80),
            k(0x81),
            k(0x8B),
            k(0x9A),
            k(0x9F),
            k(0xA0),
            k(0xAF),
        );
        let (hi_t, lo_t) = (V::table(&WORD_LEADS.0), V::table(&WORD_LEADS.1));
        let (xc0, zero, four) = (k(0xC0), k(0), k(4));
        for (b, m) in out.iter_mut().enumerate() {
            let mut w = WordMasks::default();
            let mut i = 0;
            while i < 64 {
                let p = ptr.add(64 * b + i);
                let v = V::load(p);
                let blank = v.eq(sp).or(v.signed_gt(tab).and(cr.signed_gt(v)));
                let print = v.signed_gt(bang).and(del.signed_gt(v));
                // Opaque masks: LLVM otherwise merges the compares of both halves into a
                // vector of booleans it rebuilds byte by byte.
                w.blank |= core::hint::black_box(blank.high_bit_mask()) << i;
                w.print |= core::hint::black_box(print.high_bit_mask()) << i;
                let (v1, v2) = (V::load(p.add(1)), V::load(p.add(2)));
                // Continuation bytes (0x80..0xBF) are the signed values below 0xC0.
                let (c1, c2_) = (xc0.signed_gt(v1), xc0.signed_gt(v2));
                let row = v
                    .high_nibbles()
                    .lookup(hi_t)
                    .and(v.low_nibbles().lookup(lo_t));
                let two_byte = row.signed_gt(zero).and(four.signed_gt(row)).and(c1);
                let three_byte = row.eq(four).and(c1).and(c2_);
                w.word_lead |= core::hint::black_box(two_byte.or(three_byte).high_bit_mask()) << i;
                let (is_c2, is_e1, is_e2, is_e3) = (v.eq(c2), v.eq(e1), v.eq(e2), v.eq(e3));
                // No branch on whether a lead is there: in mixed text the guess fails often.
                let (v1_80, v2_80) = (v1.eq(x80), v2.eq(x80));
                let sep2 = is_c2.and(v1.eq(xa0));
                // E2 80 80..8A (signed: 0x80..0x8A are below 0x8B), E2 80 AF; E2 81 9F,
                // E2 81 A0; E1 9A 80; E3 80 80.
                let e2_80 = v1_80.and(x8b.signed_gt(v2).or(v2.eq(xaf)));
                let e2_81 = v1.eq(x81).and(v2.eq(x9f).or(v2.eq(xa0)));
                let sep3 = is_e2
                    .and(e2_80.or(e2_81))
                    .or(is_e1.and(v1.eq(x9a)).and(v2_80))
                    .or(is_e3.and(v1_80).and(v2_80));
                w.sep2 |= sep2.high_bit_mask() << i;
                w.sep3 |= sep3.high_bit_mask() << i;
                i += V::LANES;
            }
            *m = w;
        }
    }
}
