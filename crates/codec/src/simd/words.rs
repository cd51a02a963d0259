//! Word counting's vector pass: the byte classes of 64-byte blocks and the word starts they
//! give, written once over [`Vector`] and compiled per kernel (by `kernel_fns!` in
//! `x86_64/mod.rs`, and in `aarch64/neon/mod.rs`).
//! `words.rs` (the crate's) checks the run starts this pass cannot vouch for.

use core::hint::black_box;

use super::generic::Vector;

/// Lead bytes every well-formed character of which is printable and not a separator
/// (glibc 2.36): two-byte leads C3..CC, CF, D0..D3, D8..DB (Latin, Greek, Cyrillic,
/// Armenian, Arabic) and three-byte leads E4..E9 (CJK ideographs), EB, EC (Hangul), EE
/// (private use, all printable for glibc). As
/// nibble tables: row C is bit 0, row D bit 1, row E bit 2 (words.rs tests them). Bits 3
/// to 6 mark the leads of the non-ASCII separators, one each: C2, E1, E2, E3 (see
/// [`SEP_SECOND`]); bit 7 marks E3 again, for kana ([`KANA`]).
pub(crate) const WORD_LEADS: ([u8; 16], [u8; 16]) = {
    let mut hi = [0u8; 16];
    hi[0xC] = 1 | SEP_C2;
    hi[0xD] = 2;
    hi[0xE] = 4 | SEP_E1 | SEP_E2 | SEP_E3;
    let rows: [&[u8]; 3] = [
        &[3, 4, 5, 6, 7, 8, 9, 0xA, 0xB, 0xC, 0xF],
        &[0, 1, 2, 3, 8, 9, 0xA, 0xB],
        &[4, 5, 6, 7, 8, 9, 0xB, 0xC, 0xE],
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
    lo[2] |= SEP_C2 | SEP_E2;
    lo[1] |= SEP_E1;
    lo[3] |= SEP_E3;
    hi[0xE] |= KANA;
    lo[3] |= KANA;
    (hi, lo)
};

/// [`WORD_LEADS`]'s bits of the separators' leads: C2 (U+00A0), E1 (U+1680), E2 (U+2000..
/// U+200A, U+202F, U+205F, U+2060), E3 (U+3000).
const SEP_C2: u8 = 1 << 3;
const SEP_E1: u8 = 1 << 4;
const SEP_E2: u8 = 1 << 5;
const SEP_E3: u8 = 1 << 6;
/// The separators' bits of [`WORD_LEADS`] and [`SEP_SECOND`].
pub(crate) const SEP_LEADS: u8 = SEP_C2 | SEP_E1 | SEP_E2 | SEP_E3;
/// [`WORD_LEADS`]'s and [`SEP_SECOND`]'s bit of kana: lead E3, second byte 81..83
/// (U+3040..U+30FF). With a third byte from 99 (U+3059..U+307F, U+3099..U+30BF,
/// U+30D9..U+30FF) every one begins a word; below, U+3040, U+3097 and U+3098 do not.
const KANA: u8 = 1 << 7;

/// Nibble tables of the second bytes of the separators, with the bits of their leads in
/// [`WORD_LEADS`]: A0 (after C2), 9A (after E1), 80 or 81 (after E2), 80 (after E3). A lead
/// and the byte after it whose entries share a bit of [`SEP_LEADS`] may begin a separator;
/// only then does a block look for separators byte by byte (kana and most symbols, whose
/// leads are E2 and E3, do not; CJK punctuation, E3 80 as U+3000, does). Also [`KANA`]'s
/// second bytes, 81..83.
pub(crate) const SEP_SECOND: ([u8; 16], [u8; 16]) = {
    let mut hi = [0u8; 16];
    hi[0x8] = SEP_E2 | SEP_E3;
    hi[0x9] = SEP_E1;
    hi[0xA] = SEP_C2;
    hi[0x8] |= KANA;
    let mut lo = [0u8; 16];
    lo[0x0] = SEP_C2 | SEP_E2 | SEP_E3;
    lo[0x1] = SEP_E2 | KANA;
    lo[0x2] = KANA;
    lo[0x3] = KANA;
    lo[0xA] = SEP_E1;
    (hi, lo)
};

/// The ASCII blanks by their low nibble (tab, newline, VT, FF, CR at 9..=13, space at 0),
/// and 0xFF, which no ASCII byte equals, elsewhere: a byte `b` is a blank exactly when the
/// entry of its low nibble equals it (non-ASCII bytes look up 0, see [`Vector::lookup_low`]).
const BLANKS: [u8; 16] = {
    let mut t = [0xFF; 16];
    t[0] = b' ';
    let mut b = 0x09;
    while b <= 0x0D {
        t[b as usize] = b;
        b += 1;
    }
    t
};

/// The word state between blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WordState {
    /// Run starts so far (words, once the pending starts are vouched for).
    pub(crate) count: u64,
    /// The last byte is inside a run of non-separators.
    pub(crate) open: bool,
    /// Bytes of the next block that are continuation bytes of a separator begun in this one.
    pub(crate) carry: u64,
}

/// The byte classes of one 64-byte block (byte `i` in bit `i`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Classes {
    /// Separator bytes: ASCII blanks and every byte of the non-ASCII separators that begin
    /// in the block (their continuation bytes past it in `carry`).
    pub(crate) sep: u64,
    /// Bytes that surely begin a word when a run starts there: printable ASCII, the
    /// leads of [`WORD_LEADS`] followed by the continuation bytes they need, and kana with
    /// a third byte from 99 ([`KANA`]) (a kernel may vouch for more: VBMI's tables in
    /// `x86_64/avx512/vbmi.rs`).
    pub(crate) word: u64,
    /// Separator bytes of the next block.
    pub(crate) carry: u64,
}

/// The bits of [`BYTE_CLASSES`].
#[cfg(target_arch = "x86_64")]
pub(crate) mod class {
    /// An ASCII blank: tab, newline, VT, FF, CR, space.
    pub(crate) const BLANK: u8 = 1;
    /// Printable ASCII (0x21..0x7E).
    pub(crate) const PRINT: u8 = 2;
    /// A two-byte lead of [`WORD_LEADS`](super::WORD_LEADS).
    pub(crate) const LEAD2: u8 = 4;
    /// A three-byte lead of [`WORD_LEADS`](super::WORD_LEADS).
    pub(crate) const LEAD3: u8 = 8;
    /// The lead of a non-ASCII separator: C2, E1, E2, E3.
    pub(crate) const SEP_LEAD: u8 = 16;
}

/// The class bits ([`class`]) of every byte value, for kernels that look a byte up in a
/// 256-entry table (AVX-512 VBMI); the same classes the nibble tables of [`classes`] give
/// (kana apart, which those test as a pair of bytes: VBMI has sequence tables of its own).
#[cfg(target_arch = "x86_64")]
pub(crate) const BYTE_CLASSES: [u8; 256] = {
    let (hi, lo) = WORD_LEADS;
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let row = hi[b >> 4] & lo[b & 15];
        let mut c = 0;
        if matches!(b, 0x09..=0x0D | 0x20) {
            c |= class::BLANK;
        }
        if matches!(b, 0x21..=0x7E) {
            c |= class::PRINT;
        }
        if row & 3 != 0 {
            c |= class::LEAD2;
        }
        if row & 4 != 0 {
            c |= class::LEAD3;
        }
        if row & SEP_LEADS != 0 {
            c |= class::SEP_LEAD;
        }
        t[b] = c;
        b += 1;
    }
    t
};

/// The [`Classes`] of the 64 bytes at `block`.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `block .. block + 66` must be readable (a separator is
/// recognized at its lead from the two bytes after it).
#[inline(always)]
unsafe fn classes<V: Vector>(block: *const u8) -> Classes {
    // SAFETY: V's ISA is present (the caller's contract); every load reads `V::LANES` bytes
    // at `block + i + d` with `i + V::LANES <= 64` and `d <= 2`, inside the readable range.
    unsafe {
        let k = |b: u8| V::splat(b);
        let blank_t = V::table(&BLANKS);
        // ASCII classes and whether any byte is not ASCII: all most blocks of English need.
        let (mut blank, mut print, mut high) = (0u64, 0u64, k(0));
        let mut i = 0;
        while i < 64 {
            let v = V::load(block.add(i));
            let is_blank = v.lookup_low(blank_t).eq(v);
            // 0x21..=0x7E move to -128..=-35 as `i8`, every other byte above.
            let is_print = k(0xDE).signed_gt(v.wrapping_add(k(0x5F)));
            // Opaque masks: LLVM otherwise merges the compares of the lanes into a vector of
            // booleans it rebuilds bit by bit.
            blank |= black_box(is_blank.high_bit_mask()) << i;
            print |= black_box(is_print.high_bit_mask()) << i;
            high = high.or(v);
            i += V::LANES;
        }
        let mut c = Classes {
            sep: blank,
            word: print,
            carry: 0,
        };
        if !high.any_high_bit() {
            return c;
        }
        // The leads that surely begin a word when their continuation bytes follow, combined
        // with those bytes in the vectors (one mask per vector for every word byte, where
        // moving each class to a general register apart took five), and whether a separator
        // may begin here.
        let (mut lead_words, mut cand) = (0u64, k(0));
        let (hi_t, lo_t) = (V::table(&WORD_LEADS.0), V::table(&WORD_LEADS.1));
        let (hi_s, lo_s) = (V::table(&SEP_SECOND.0), V::table(&SEP_SECOND.1));
        let zero = k(0);
        let mut i = 0;
        while i < 64 {
            let p = block.add(i);
            let v = V::load(p);
            let row = v
                .high_nibbles()
                .lookup(hi_t)
                .and(v.low_nibbles().lookup(lo_t));
            let v1 = V::load(p.add(1));
            // Continuation bytes (0x80..0xBF) are the signed values below 0xC0.
            let cont1 = k(0xC0).signed_gt(v1);
            let v2 = V::load(p.add(2));
            let cont2 = k(0xC0).signed_gt(v2);
            // Row bits 0-1: a two-byte word lead; bit 2: a three-byte one (0xFF where unset).
            let not2 = row.and(k(3)).eq(zero);
            let not3 = row.and(k(4)).eq(zero);
            let lead2 = not2.xor(k(0xFF)).and(cont1);
            let lead3 = not3.xor(k(0xFF)).and(cont1).and(cont2);
            // A separator's lead followed by its second byte, or kana.
            let second = v1
                .high_nibbles()
                .lookup(hi_s)
                .and(v1.low_nibbles().lookup(lo_s));
            let pair = row.and(second);
            // Kana with a third byte 99..BF (every code point printable).
            let kana = pair.and(cont2).and(v2.signed_gt(k(0x98)));
            lead_words |= black_box(lead2.or(lead3).or(kana).high_bit_mask()) << i;
            cand = cand.or(pair);
            i += V::LANES;
        }
        c.word |= lead_words;
        if !cand.and(k(SEP_LEADS)).any() {
            return c;
        }
        let (sep2, sep3) = wide_separators::<V>(block);
        c.add_wide_separators(sep2, sep3);
        c
    }
}

impl Classes {
    /// Adds the separators that begin at the bits of `sep2` (two bytes) and `sep3` (three
    /// bytes), their continuation bytes past the block to `carry`.
    #[inline(always)]
    pub(crate) fn add_wide_separators(&mut self, sep2: u64, sep3: u64) {
        self.sep |= sep2 | sep2 << 1 | sep3 | sep3 << 1 | sep3 << 2;
        self.carry =
            ((u128::from(sep2) << 1 | u128::from(sep3) << 1 | u128::from(sep3) << 2) >> 64) as u64;
    }
}

/// The non-ASCII separators that begin in the 64-byte block at `block`: the leads of the
/// two-byte ones (U+00A0) and of the three-byte ones.
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `block .. block + 66` must be readable.
#[inline(always)]
unsafe fn wide_separators<V: Vector>(block: *const u8) -> (u64, u64) {
    // SAFETY: V's ISA is present (the caller's contract); every load reads `V::LANES` bytes
    // at `block + i + d` with `i + V::LANES <= 64` and `d <= 2`, inside the readable range.
    unsafe {
        let k = |b: u8| V::splat(b);
        let (mut sep2, mut sep3) = (0u64, 0u64);
        let mut i = 0;
        while i < 64 {
            let p = block.add(i);
            let (v, v1, v2) = (V::load(p), V::load(p.add(1)), V::load(p.add(2)));
            let (v1_80, v2_80) = (v1.eq(k(0x80)), v2.eq(k(0x80)));
            let s2 = v.eq(k(0xC2)).and(v1.eq(k(0xA0)));
            // E2 80 80..8A (signed: 0x80..0x8A are below 0x8B), E2 80 AF; E2 81 9F, E2 81 A0;
            // E1 9A 80; E3 80 80.
            let e2_80 = v1_80.and(k(0x8B).signed_gt(v2).or(v2.eq(k(0xAF))));
            let e2_81 = v1.eq(k(0x81)).and(v2.eq(k(0x9F)).or(v2.eq(k(0xA0))));
            let s3 = v
                .eq(k(0xE2))
                .and(e2_80.or(e2_81))
                .or(v.eq(k(0xE1)).and(v1.eq(k(0x9A))).and(v2_80))
                .or(v.eq(k(0xE3)).and(v1_80).and(v2_80));
            sep2 |= black_box(s2.high_bit_mask()) << i;
            sep3 |= black_box(s3.high_bit_mask()) << i;
            i += V::LANES;
        }
        (sep2, sep3)
    }
}

/// Counts the run starts of the `others.len()` 64-byte blocks at `ptr` into `st`: a run of
/// non-separators is a word when it holds a printable character, and the pass counts them
/// all. Writes to `others[b]` the run starts of block `b` whose first character it cannot
/// vouch for (byte `i` in bit `i`): the caller looks further into those runs and takes back
/// the ones without a printable character. Returns the blocks that have any (block `b` in bit
/// `b`; `others` has at most 32 elements).
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `ptr .. ptr + 64 * others.len() + 2` must be readable.
#[inline(always)]
pub(crate) unsafe fn word_blocks<V: Vector>(
    ptr: *const u8,
    st: &mut WordState,
    others: &mut [u64],
) -> u32 {
    // SAFETY: the caller's contract is `word_blocks_by`'s, and `classes::<V>`'s holds for
    // every block it is given.
    unsafe { word_blocks_by(ptr, st, others, |b| classes::<V>(b)) }
}

/// [`word_blocks`] with the byte classes of each block from `classes`.
///
/// # Safety
///
/// `classes` must be safe to call on any block `ptr + 64 * b` with `b < others.len()`;
/// `ptr .. ptr + 64 * others.len() + 2` must be readable.
#[inline(always)]
pub(crate) unsafe fn word_blocks_by(
    ptr: *const u8,
    st: &mut WordState,
    others: &mut [u64],
    classes: impl Fn(*const u8) -> Classes,
) -> u32 {
    // One bit of the answer a block.
    assert!(others.len() <= 32, "at most 32 blocks a call");
    let (mut count, mut open, mut carry) = (st.count, st.open, st.carry);
    let mut busy = 0;
    for (b, o) in others.iter_mut().enumerate() {
        // SAFETY: the caller's contract covers `ptr + 64 * b .. + 66`.
        let c = classes(unsafe { ptr.add(64 * b) });
        let non = !(c.sep | carry);
        // Run starts: a non-separator after a separator, or at 0 unless a word is open (then
        // the byte before is inside that word).
        let starts = non & !(non << 1 | u64::from(open));
        *o = starts & !c.word;
        busy |= u32::from(*o != 0) << b;
        count += u64::from(starts.count_ones());
        open = non >> 63 != 0;
        carry = c.carry;
    }
    *st = WordState { count, open, carry };
    busy
}
