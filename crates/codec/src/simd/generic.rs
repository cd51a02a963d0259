//! The lookup algorithm (Keiser & Lemire, "Validating UTF-8 In Less Than One Instruction Per
//! Byte", 2021), written once over [`Vector`]; each ISA module supplies the primitives.
//!
//! The kernel only answers "is this 64-byte block valid, given the three bytes before it?".
//! Where it says no, or at the tail, the scalar decoder takes over from the last character
//! boundary before the block, so the exact answer always comes from the scalar twin.

/// The vector primitives the algorithm needs. Every method is `unsafe` because it may only run
/// on a CPU with the implementing ISA; callers are the ISA's entry points (`#[target_feature]`
/// ones reached only through the token of their instruction set, or NEON's, compiled only
/// where the target has it: see `simd/token.rs`).
///
/// # Safety
///
/// Every method may be called only on a CPU that supports the implementing type's ISA
/// (SSE4.2, AVX2, AVX-512BW or NEON); [`load`](Vector::load) also needs `LANES` readable
/// bytes.
pub(crate) trait Vector: Copy {
    /// Bytes per vector (16, 32 or 64); 64 must be a multiple.
    const LANES: usize;
    /// Whether the block loop loads the bytes before a vector from memory (1, 2 and 3 bytes
    /// back) rather than shifting them in from the vector before: on x86-64, where the
    /// shifts take the ALU ports the lookup algorithm needs (AVX2: a permute and three
    /// `vpalignr` a vector) and loads have ports of their own; not with NEON, whose `ext`
    /// is one instruction each (the loop's instructions are counted against simdutf8's).
    const PREV_LOADS: bool;
    /// [`PREV_LOADS`](Vector::PREV_LOADS) where validation checks a large input (see
    /// `lean::FAR_MIN`), whose blocks mostly come from memory: not with AVX-512, whose loads
    /// of the bytes before a block all straddle two cache lines and, on lines still on their
    /// way from memory, wait for both: far slower than the shifts there (BENCHMARKS.md,
    /// "Loads of the bytes before a block").
    const FAR_PREV_LOADS: bool;
    /// Whether the count without lengths checks input past its first 8 KiB in 1 KiB
    /// segments with the errors tested once and the counts added straight to the totals
    /// (`counting.rs`), instead of block by block: with one vector a block (AVX-512), where
    /// the test and the block's totals are a larger share of the work (measured faster in
    /// L2; with AVX2 the extra live registers made it slower).
    const QUICK_COUNT: bool;
    /// All bytes `b`.
    unsafe fn splat(b: u8) -> Self;
    /// A 16-byte table repeated in every 128-bit lane.
    unsafe fn table(t: &[u8; 16]) -> Self;
    /// Unaligned load of `LANES` bytes.
    ///
    /// # Safety
    ///
    /// `ptr..ptr + LANES` must be readable.
    unsafe fn load(ptr: *const u8) -> Self;
    /// Bitwise and.
    unsafe fn and(self, o: Self) -> Self;
    /// Bitwise or.
    unsafe fn or(self, o: Self) -> Self;
    /// Bitwise xor.
    unsafe fn xor(self, o: Self) -> Self;
    /// Per-byte `self >> 4`.
    unsafe fn high_nibbles(self) -> Self;
    /// Per-byte `self & 0x0F`.
    unsafe fn low_nibbles(self) -> Self;
    /// Per-byte lookup of `self` (values 0..16) in `table` (see [`Vector::table`]).
    unsafe fn lookup(self, table: Self) -> Self;
    /// Per-byte lookup of the low nibble of `self` in `table`, or 0 where `self` has its
    /// high bit set (bits 4 to 6 play no part): `pshufb` as it is, NEON's `tbl` after a mask.
    unsafe fn lookup_low(self, table: Self) -> Self;
    /// Per-byte wrapping addition.
    unsafe fn wrapping_add(self, o: Self) -> Self;
    /// Per-byte unsigned saturating subtraction.
    unsafe fn saturating_sub(self, o: Self) -> Self;
    /// Per-byte signed `self > o` as 0xFF / 0x00.
    unsafe fn signed_gt(self, o: Self) -> Self;
    /// The vector shifted by `N` bytes (1..=3) towards higher indices, with the last `N` bytes
    /// of `prev` shifted in.
    unsafe fn prev1(self, prev: Self) -> Self;
    /// See [`Vector::prev1`].
    unsafe fn prev2(self, prev: Self) -> Self;
    /// See [`Vector::prev1`].
    unsafe fn prev3(self, prev: Self) -> Self;
    /// Whether any byte is nonzero.
    unsafe fn any(self) -> bool;
    /// Whether any byte has its high bit set.
    unsafe fn any_high_bit(self) -> bool;
    /// Per-byte `self == o` as 0xFF / 0x00.
    unsafe fn eq(self, o: Self) -> Self;
    /// The high bit of every byte, byte `i` in bit `i`.
    unsafe fn high_bit_mask(self) -> u64;
    /// A hint to bring the cache line at `ptr` into the cache; never faults, whatever `ptr`.
    unsafe fn prefetch(ptr: *const u8);
}

const TOO_SHORT: u8 = 1 << 0;
const TOO_LONG: u8 = 1 << 1;
const OVERLONG_3: u8 = 1 << 2;
const TOO_LARGE: u8 = 1 << 3;
const SURROGATE: u8 = 1 << 4;
const OVERLONG_2: u8 = 1 << 5;
const TOO_LARGE_1000: u8 = 1 << 6;
const OVERLONG_4: u8 = 1 << 6;
const TWO_CONTS: u8 = 1 << 7;
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// Classes of the byte before, by its high nibble.
const BYTE_1_HIGH: [u8; 16] = [
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

/// Classes of the byte before, by its low nibble.
const BYTE_1_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
];

/// Classes of the current byte, by its high nibble (the high bit, `TWO_CONTS`, exactly for
/// continuation bytes: counting relies on it).
pub(crate) const BYTE_2_HIGH: [u8; 16] = [
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
];

/// The tables and constants, loaded once per call.
#[derive(Clone, Copy)]
pub(crate) struct Tables<V> {
    b1_high: V,
    b1_low: V,
    b2_high: V,
    third: V,
    fourth: V,
    /// All zeros.
    pub(crate) zero: V,
    high_bit: V,
    /// `INCOMPLETE_HIGH`'s last `LANES` bytes.
    pub(crate) incomplete: V,
}

/// Subtracted with saturation from the last vector of a block, leaves the high bit set
/// exactly in the bytes that start a sequence too long for the bytes left (`F0..` in the
/// third last byte, `E0..` in the second last, `C0..` in the last): one instruction, and the
/// result can be or-ed into the next block's ASCII test. A vector of `n` lanes loads the last
/// `n` bytes. A static, so that a call does not build it on the stack.
pub(crate) static INCOMPLETE_HIGH: [u8; 64] = {
    let mut a = [0xFF; 64];
    a[61] = 0xF0 - 0x80;
    a[62] = 0xE0 - 0x80;
    a[63] = 0xC0 - 0x80;
    a
};

impl<V: Vector> Tables<V> {
    /// The tables, in registers.
    ///
    /// # Safety
    ///
    /// Only on a CPU with `V`'s ISA.
    #[inline(always)]
    pub(crate) unsafe fn new() -> Tables<V> {
        let n = V::LANES;
        // SAFETY: the caller runs on a CPU with V's ISA; `INCOMPLETE_HIGH` has 64 >= n readable
        // bytes from `64 - n`.
        unsafe {
            Tables {
                b1_high: V::table(&BYTE_1_HIGH),
                b1_low: V::table(&BYTE_1_LOW),
                b2_high: V::table(&BYTE_2_HIGH),
                third: V::splat(0xE0 - 1),
                fourth: V::splat(0xF0 - 1),
                zero: V::splat(0),
                high_bit: V::splat(0x80),
                incomplete: V::load(INCOMPLETE_HIGH.as_ptr().add(64 - n)),
            }
        }
    }
}

/// Nonzero bytes where `input` (with `prev` before it) breaks a rule of Table 3-7.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
pub(crate) unsafe fn check<V: Vector>(t: &Tables<V>, input: V, prev: V) -> V {
    // SAFETY: the caller runs on a CPU with V's ISA; these are register operations only.
    unsafe {
        check3(
            t,
            input,
            input.prev1(prev),
            input.prev2(prev),
            input.prev3(prev),
        )
    }
}

/// [`check`] given the vectors that start 1, 2 and 3 bytes before `input`, loaded from memory
/// as they are (the block loop's vectors on x86-64, the overlapping tail of `lean.rs`).
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA.
#[inline(always)]
pub(crate) unsafe fn check3<V: Vector>(t: &Tables<V>, input: V, prev1: V, prev2: V, prev3: V) -> V {
    // SAFETY: the caller runs on a CPU with V's ISA; these are register operations only.
    unsafe {
        let special = prev1
            .high_nibbles()
            .lookup(t.b1_high)
            .and(prev1.low_nibbles().lookup(t.b1_low))
            .and(input.high_nibbles().lookup(t.b2_high));
        let must_be_continuation = prev2
            .saturating_sub(t.third)
            .or(prev3.saturating_sub(t.fourth))
            .signed_gt(t.zero)
            .and(t.high_bit);
        must_be_continuation.xor(special)
    }
}

/// What the dense scanner learns from 64 bytes that start at a unit boundary, bit `j` for the
/// byte at `j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DenseMasks {
    /// The units that start in the first [`DENSE_SPAN`] positions and are errors.
    pub(crate) errors: u64,
    /// Of those, the ones at least 2 bytes long.
    pub(crate) two: u64,
    /// Of those, the ones 3 bytes long.
    pub(crate) three: u64,
    /// The first unit boundary at or after [`DENSE_SPAN`] (at most 64).
    pub(crate) next: usize,
    /// ASCII bytes.
    pub(crate) ascii: u64,
    /// Bytes C0..=DF, E0..=EF and F0..=FF: leads of 2, 3 and 4 bytes where not errors.
    pub(crate) lead: [u64; 3],
    /// Newline bytes.
    pub(crate) newlines: u64,
}

/// How many positions [`dense`] decides: every unit that starts in the first 61 of 64 bytes
/// ends inside them.
pub(crate) const DENSE_SPAN: usize = 61;

/// The errors of 64 bytes that start at a unit boundary, without a branch on the data.
///
/// Every byte that is not a continuation starts a unit. A continuation byte at `i` is
/// absorbed into the unit before it when the pair `(i - 1, i)` is a valid start of a sequence
/// (`V`: a lead and a second byte in its range, as the lookup algorithm's special cases tell),
/// or `(i - 2, i - 1)` is one and the lead announces 3 or 4 bytes, or `(i - 3, i - 2)` is one,
/// the lead announces 4 and `i - 1` continues. Otherwise it is a unit of its own. A unit is
/// complete when it is ASCII or its lead has all the bytes it announces: those bit masks give
/// every error, and its length, at once.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `ptr..ptr + 64` must be readable.
#[inline(always)]
pub(crate) unsafe fn dense<V: Vector>(ptr: *const u8) -> DenseMasks {
    let n = V::LANES;
    let (mut high, mut cont, mut below_e0, mut below_f0, mut pair_ok) = (0u64, 0u64, 0, 0, 0);
    let mut newlines = 0u64;
    // SAFETY: this function runs only on a CPU with V's ISA (caller's contract); the loads read
    // `n` bytes at `ptr + k` for `k + n <= 64`, readable by the caller's contract.
    unsafe {
        let (b1_high, b1_low, b2_high) = (
            V::table(&BYTE_1_HIGH),
            V::table(&BYTE_1_LOW),
            V::table(&BYTE_2_HIGH),
        );
        let (c0, e0, f0, zero) = (V::splat(0xC0), V::splat(0xE0), V::splat(0xF0), V::splat(0));
        let newline = V::splat(b'\n');
        // Before the unit boundary nothing reaches into the block: ASCII stands in for it.
        let mut prev = zero;
        let mut k = 0;
        while k < 64 {
            let input = V::load(ptr.add(k));
            let prev1 = input.prev1(prev);
            let special = prev1
                .high_nibbles()
                .lookup(b1_high)
                .and(prev1.low_nibbles().lookup(b1_low))
                .and(input.high_nibbles().lookup(b2_high));
            // Signed compares: bytes 80..FF are negative.
            high |= input.high_bit_mask() << k;
            cont |= c0.signed_gt(input).high_bit_mask() << k;
            below_e0 |= e0.signed_gt(input).high_bit_mask() << k;
            below_f0 |= f0.signed_gt(input).high_bit_mask() << k;
            pair_ok |= special.eq(zero).high_bit_mask() << k;
            newlines |= input.eq(newline).high_bit_mask() << k;
            prev = input;
            k += n;
        }
    }
    let lead = high & !cont;
    let (lead2, lead3, lead4) = (
        lead & below_e0,
        lead & !below_e0 & below_f0,
        lead & !below_f0,
    );
    let lead3_up = lead3 | lead4;
    // Bit i: bytes i - 1 and i start a sequence.
    let v = (lead << 1) & cont & pair_ok;
    let absorbed = cont & (v | (lead3_up << 2 & v << 1) | (lead4 << 3 & v << 2 & cont << 1));
    let starts = !absorbed;
    let second = v >> 1;
    let third = second & cont >> 2;
    let complete = !high | (lead2 & second) | (lead3 & third) | (lead4 & third & cont >> 3);
    let errors = starts & !complete & ((1 << DENSE_SPAN) - 1);
    let later = starts >> DENSE_SPAN;
    DenseMasks {
        errors,
        two: errors & second,
        three: errors & lead3_up & third,
        next: if later == 0 {
            64
        } else {
            DENSE_SPAN + later.trailing_zeros() as usize
        },
        ascii: !high,
        lead: [lead2, lead3, lead4],
        newlines,
    }
}
