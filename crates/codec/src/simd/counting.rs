//! Counting over the vector kernels: the dense scanner's windows ([`count_windows`], for
//! text with errors) and valid runs ([`count_valid`]), written once over [`Vector`]. Split
//! from `generic.rs` (the validation algorithm and the dense scanner it builds on).

use super::generic::{DenseMasks, Vector, dense};
use crate::scalar::{self, TextCounts};

/// What [`count_windows`] adds to: the valid text in the kernels' shape and the errors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WindowCounts {
    /// The valid text, as [`scalar::count_valid`] counts it.
    pub(crate) text: TextCounts,
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
        self.text += TextCounts::of_masks(
            m.ascii & span,
            [m.lead[0] & ok, m.lead[1] & ok, m.lead[2] & ok],
            m.newlines & span,
        );
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

/// Adds the counts of a valid run to `acc`, as [`scalar::count_valid`], a vector at a time.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
pub(crate) unsafe fn count_valid<V: Vector>(bytes: &[u8], acc: &mut TextCounts) {
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
        *acc += TextCounts {
            ascii: whole as u64 - non_ascii,
            lead2: ge_c0 - ge_e0,
            lead3: ge_e0 - ge_f0,
            lead4: ge_f0,
            newlines: lines,
        };
    }
    scalar::count_valid(&bytes[whole..], acc);
}
