//! Counting over the vector kernels, written once over [`Vector`]: validation and counting
//! in one pass of the block loop ([`validate_and_count`], with the dense scanner after the
//! block that fails), the dense scanner's windows ([`count_windows`], for text with errors)
//! and valid runs ([`count_valid`]). `generic.rs` holds the validation algorithm and the
//! dense scanner they build on.

use super::blocks::{BLOCK, Check, Cursor, FAR_PREFETCH, PREFETCH, Visit, blocks};
use super::generic::{BYTE_2_HIGH, DenseMasks, Tables, Vector, dense};
use crate::scalar::{self, TextCounts};

/// The length of the longest valid prefix of `bytes`, as [`scalar::valid_up_to`].
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
pub(crate) unsafe fn valid_up_to<V: Vector>(bytes: &[u8]) -> usize {
    // SAFETY: the caller's contract.
    unsafe { validate_and_count::<V, false, false, false>(bytes, &mut TextCounts::default()).0 }
}

/// Validation and, with `COUNT`, counting in the same pass: returns the length of the longest
/// valid prefix and the length `c` of the prefix whose counts were added to `acc`
/// (as [`scalar::count_valid`] counts, or without `LENGTHS` as [`TextCounts::lean`] puts
/// them: fewer compares a vector), with `FAR` (for a large input) the block loop's far
/// prefetch; `c` is a block boundary within 3 bytes of the valid length, either side of it (a
/// block can end inside a sequence that turns out to be an error).
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
pub(crate) unsafe fn validate_and_count<
    V: Vector,
    const COUNT: bool,
    const LENGTHS: bool,
    const FAR: bool,
>(
    bytes: &[u8],
    acc: &mut TextCounts,
) -> (usize, usize) {
    // SAFETY: this function runs only on a CPU with V's ISA (caller's contract); the block
    // loop reads `bytes` and a local block, and `dense` reads 64 bytes at `ptr + p` with
    // `p + 64 <= bytes.len()`.
    unsafe {
        let t = Tables::<V>::new();
        let ptr = bytes.as_ptr();
        let mut c = Cursor::at(&t, 0);
        let mut counts = Count::<V, COUNT, LENGTHS, false, FAR>::new();
        // `c` is at a block that failed.
        let mut failed = false;
        if COUNT && !LENGTHS && V::QUICK_COUNT && bytes.len() >= QUICK_FROM + SEGMENT {
            // The first bytes block by block (text with errors calls again after each, and
            // an error there costs nothing more), then segments checked with their errors
            // tested once, at the end, and counted straight into the totals; the segment with
            // an error, and what follows, again block by block below, from the state saved at
            // its start.
            failed = !blocks(&t, ptr, QUICK_FROM, &mut c, &mut counts);
            if !failed {
                let mut quick = Count::<V, true, false, true, FAR>::new();
                quick.totals = counts.totals;
                while c.o + SEGMENT <= bytes.len() {
                    let (start, totals) = (c, quick.totals);
                    blocks(&t, ptr, c.o + SEGMENT, &mut c, &mut quick);
                    if c.error.any() {
                        (c, quick.totals) = (start, totals);
                        break;
                    }
                }
                counts.totals = quick.totals;
            }
        }
        if !failed {
            blocks(&t, ptr, bytes.len(), &mut c, &mut counts);
        }
        let Cursor {
            o,
            incomplete: prev_incomplete,
            ..
        } = c;
        let totals = counts.totals;
        // The tail (under one block) as simdutf8 checks it: copied into a zero-padded block
        // and checked in full with `prev`, so valid text needs no scalar pass. Zeros are
        // ASCII, so a sequence cut off by the end of the input is an error in the copy too.
        // Not when counting, whose counted prefix must end within 3 bytes of the answer.
        if !COUNT && o == bytes.len() && !prev_incomplete.any_high_bit() {
            // Every block passed and the last one ends no sequence early.
            return (o, o);
        }
        if !COUNT && o < bytes.len() && bytes.len() - o < BLOCK {
            let mut buf = [0u8; BLOCK];
            buf[..bytes.len() - o].copy_from_slice(&bytes[o..]);
            // The block loop over the copy, from where it stopped (`prev`, `incomplete`).
            let mut tail = Cursor {
                o: 0,
                error: t.zero,
                ..c
            };
            if blocks(
                &t,
                buf.as_ptr(),
                BLOCK,
                &mut tail,
                &mut Check::<false, true>,
            ) {
                return (bytes.len(), o);
            }
        }
        // Every sequence that ends before `o` has been checked. One that straddles `o` starts
        // at the last lead among the 3 bytes before it: finish exactly from there, with the
        // dense scanner when the error is among the 61 positions it decides (the usual case
        // after a failed block; if not, once more from where it stopped), else with the
        // scalar decoder (near the end of the input).
        let mut p = (o.saturating_sub(3)..o)
            .rev()
            .find(|&q| !scalar::is_continuation(bytes[q]))
            .unwrap_or(o);
        if COUNT && !LENGTHS {
            // Non-continuation bytes and newlines: the bytes from `p` to `o` count as they
            // are, as below.
            let [chars, _, _, lines] = totals;
            *acc += TextCounts::without_lengths(chars, lines);
        } else if COUNT {
            let [ge_c0, ge_e0, ge_f0, lines] = totals;
            // Every unit before `p` is a valid sequence (it ends in a block that passed), and
            // a lead of 2, 3 or 4 bytes (>= C0, >= E0, >= F0) brings 1, 2 or 3 continuation
            // bytes: 2 * ge_c0 + ge_e0 + ge_f0 non-ASCII bytes there. The bytes from `p` to
            // `o` (at most 3, perhaps of an error the next block reports) count as they are.
            let mut cut = TextCounts::default();
            scalar::count_valid(&bytes[p..o], &mut cut);
            let before = 2 * (ge_c0 - cut.lead2 - cut.lead3 - cut.lead4)
                + (ge_e0 - cut.lead3 - cut.lead4)
                + (ge_f0 - cut.lead4);
            let non_ascii = before + (o - p) as u64 - cut.ascii;
            *acc += TextCounts {
                ascii: o as u64 - non_ascii,
                lead2: ge_c0 - ge_e0,
                lead3: ge_e0 - ge_f0,
                lead4: ge_f0,
                newlines: lines,
            };
        }
        let first = p;
        while p + 64 <= bytes.len() && p < o + BLOCK {
            let m = dense::<V>(ptr.add(p));
            if m.errors != 0 {
                let err = p + m.errors.trailing_zeros() as usize;
                if COUNT && p == first {
                    // The counted blocks end at `o`, within 3 bytes of `p`: count the text
                    // from `o` to the error, or take back the bytes of the error before `o`,
                    // from the masks (counts are per byte), so that all of it is counted.
                    // Positions a..b (all within the 61 the scanner decides, so below 64).
                    let below = |x: usize| (1u64 << (x - p)) - 1;
                    let span = |a: usize, b: usize| below(b) & !below(a);
                    let (range, add) = if err >= o {
                        (span(o, err), true)
                    } else {
                        (span(err, o), false)
                    };
                    let lead = m.lead.map(|l| l & range);
                    let mut d = TextCounts::of_masks(m.ascii & range, lead, m.newlines & range);
                    if !LENGTHS {
                        d = d.lean();
                    }
                    if add {
                        *acc += d;
                    } else {
                        *acc -= d;
                    }
                    return (err, err);
                }
                return (err, o);
            }
            p += m.next;
        }
        (p + scalar::valid_up_to(&bytes[p..]), o)
    }
}

/// Inputs from this length are counted (by the x86-64 kernels) with the block loop's far
/// prefetch, which costs nothing where the input is in the cache: lower than validation's
/// `lean::FAR_MIN`, which also gives up AVX-512's loads of the bytes before a block. (The
/// pieces utf8-count hands its counter for several passes each, 256 KiB, stay under it.)
#[cfg(target_arch = "x86_64")]
pub(crate) const FAR_MIN: usize = 1 << 20;

/// Bytes a segment of [`validate_and_count`] checks with its errors tested once (where
/// [`Vector::QUICK_COUNT`]): a segment with an error is checked twice.
const SEGMENT: usize = 1024;
/// Bytes [`validate_and_count`] checks block by block before its first segment.
const QUICK_FROM: usize = 8192;
const _: () = assert!(SEGMENT.is_multiple_of(BLOCK) && QUICK_FROM.is_multiple_of(BLOCK));

/// The [`Visit`] of [`validate_and_count`]: with `COUNT`, the counts of each block, kept
/// until it is known to be valid (a block that fails is counted by the dense scanner); with
/// `QUICK` (and `COUNT` without `LENGTHS`), every block's counts straight into the totals
/// and the errors tested once, after the loop; with `FAR`, the block loop's far prefetch.
struct Count<V, const COUNT: bool, const LENGTHS: bool, const QUICK: bool, const FAR: bool> {
    /// Counts of the blocks known to be valid (bytes >= C0, >= E0, >= F0, newlines; without
    /// `LENGTHS`, bytes that are not continuations and newlines), in registers; `acc` is
    /// written once at the end.
    totals: [u64; 4],
    /// The same of the block being checked. (With `LENGTHS`, its non-ASCII bytes follow
    /// from the leads.)
    block: [u32; 4],
    /// 0xDF, 0xEF, newline in every byte.
    df: V,
    ef: V,
    newline: V,
    /// The validation's table of a byte's classes by its high nibble, whose high bit marks
    /// the continuation bytes: the same lookup as the check's, which the compiler computes
    /// once for both (a compare less a vector than testing the bytes themselves).
    b2: V,
}

// The high bit of `BYTE_2_HIGH` marks exactly the high nibbles of continuation bytes.
const _: () = {
    let mut i = 0;
    while i < 16 {
        assert!((BYTE_2_HIGH[i] & 0x80 != 0) == matches!(i, 8..=11));
        i += 1;
    }
};

impl<V: Vector, const COUNT: bool, const LENGTHS: bool, const QUICK: bool, const FAR: bool>
    Count<V, COUNT, LENGTHS, QUICK, FAR>
{
    /// Nothing counted.
    ///
    /// # Safety
    ///
    /// Only on a CPU with `V`'s ISA.
    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: the caller's contract.
        unsafe {
            Count {
                totals: [0; 4],
                block: [0; 4],
                df: V::splat(0xDF),
                ef: V::splat(0xEF),
                newline: V::splat(b'\n'),
                b2: V::table(&BYTE_2_HIGH),
            }
        }
    }
}

impl<V: Vector, const COUNT: bool, const LENGTHS: bool, const QUICK: bool, const FAR: bool> Visit<V>
    for Count<V, COUNT, LENGTHS, QUICK, FAR>
{
    const BASIC: bool = QUICK;
    const AHEAD: usize = if FAR { FAR_PREFETCH } else { PREFETCH };
    // Measured slower with AVX2 on mixed-script text (and no faster on ASCII): an ASCII
    // block costs a compare and a popcount here, a checked one four more of each (one more
    // without `LENGTHS`: faster in L2 then, but still slower on a 256 MiB file).
    const STREAKS: bool = !COUNT;

    #[inline(always)]
    unsafe fn ascii(&mut self, block: *const u8) {
        if COUNT {
            if !LENGTHS {
                self.totals[0] += BLOCK as u64;
            }
            let mut k = 0;
            while k < BLOCK {
                // SAFETY: V's ISA and `block .. block + 64` readable (the trait's contract).
                let nl = unsafe { V::load(block.add(k)).eq(self.newline).high_bit_mask() };
                self.totals[3] += u64::from(nl.count_ones());
                k += V::LANES;
            }
        }
    }

    #[inline(always)]
    unsafe fn vector(&mut self, input: V) {
        if COUNT && !LENGTHS {
            // SAFETY: V's ISA (the trait's contract); register operations only. The bytes that
            // are not continuations (ASCII and leads).
            unsafe {
                let cont = input.high_nibbles().lookup(self.b2).high_bit_mask();
                let chars = V::LANES as u32 - cont.count_ones();
                let lines = input.eq(self.newline).high_bit_mask().count_ones();
                if QUICK {
                    self.totals[0] += u64::from(chars);
                    self.totals[3] += u64::from(lines);
                } else {
                    self.block[0] += chars;
                    self.block[3] += lines;
                }
            }
        } else if COUNT {
            // SAFETY: V's ISA (the trait's contract); register operations only. Leads are
            // the non-ASCII bytes that are not continuations; signed compares: non-ASCII
            // bytes are negative, so mask out ASCII.
            unsafe {
                let h = input.high_bit_mask();
                let cont = input.high_nibbles().lookup(self.b2).high_bit_mask();
                self.block[0] += (!cont & h).count_ones();
                self.block[1] += (input.signed_gt(self.df).high_bit_mask() & h).count_ones();
                self.block[2] += (input.signed_gt(self.ef).high_bit_mask() & h).count_ones();
                self.block[3] += input.eq(self.newline).high_bit_mask().count_ones();
            }
        }
    }

    #[inline(always)]
    fn valid(&mut self) {
        if COUNT {
            for (t, b) in self.totals.iter_mut().zip(&mut self.block) {
                *t += u64::from(*b);
                *b = 0;
            }
        }
    }
}

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
