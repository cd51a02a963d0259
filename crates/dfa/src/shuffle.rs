//! The DFA walked by transition functions instead of states: the fast path of the
//! [`Validator`] on x86-64 CPUs with AVX2 (the pair walk of `pairs.rs` elsewhere).
//!
//! A step of the pair walk loads the next state from a table indexed by the state the step
//! before loaded, so the walk is bound by the latency of that load. This walker keeps instead,
//! for each of the 16 state slots, the state a walk begun in it has reached: a 16-byte vector.
//! A pair of bytes maps it through the pair's transition function, itself a 16-byte vector
//! (one per pair of byte classes: 256 of them, 4 KiB): one `pshufb`. The function is loaded
//! from the bytes alone, so the loads leave the chain, which is one shuffle per pair. Each
//! 64-byte block is walked by four such chains of eight pairs from the identity, composed into
//! the block's function (three more shuffles), which maps the state in one more: the state
//! waits for one shuffle a block. The offsets of its 32 pairs' functions come from the block's
//! byte classes by two 16-bit shifts, stored a block ahead of the walk that reads them. The
//! tables are the pair walk's, so both walks are the same automaton.
//!
//! The byte classes of a block come from one of two places ([`Isa`]):
//! - with AVX-512 VBMI, the 256-entry class table itself (two `vpermi2b` and a blend);
//! - with AVX2, nibble tables: a byte's class is a function of its high nibble, except for the
//!   few high nibbles whose bytes fall into several classes (C, E and F in UTF-8: C0..C1 apart
//!   from C2..CF, E0 and ED from the other three-byte leads, F0, F1..F3, F4 and F5..FF); for
//!   those, a lookup by the low nibble, blended in where the high nibble matches.
//!
//! Which one follows `utf8_codec`'s active kernel (so `UTF8_CODEC_KERNEL=avx2` walks the AVX2
//! way on a CPU that has VBMI too; `sse4.2` or `scalar` leaves the pair walk).
//!
//! [`Validator`]: crate::Validator

use core::arch::x86_64::*;

use utf8_codec::Kernel;

use crate::pairs::Pairs;

/// High nibbles whose bytes fall into several classes, at most (UTF-8 has three).
const SPLIT: usize = 3;

/// How a [`Functions`] computes a block's byte classes: the instruction set it was checked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Isa {
    /// AVX-512F, AVX-512BW and AVX-512VBMI: the 256-entry class table by byte permutes.
    Vbmi,
    /// AVX2: the nibble tables.
    Avx2,
}

impl Isa {
    /// Whether this CPU has the instructions.
    fn is_available(self) -> bool {
        match self {
            Isa::Vbmi => {
                std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512vbmi")
            }
            Isa::Avx2 => std::is_x86_feature_detected!("avx2"),
        }
    }
}

/// The transition functions of the pairs of byte classes, and the classes.
pub(crate) struct Functions {
    /// The class of each byte.
    class: [u8; 256],
    /// By `class(b0) * 16 + class(b1)`: for each state slot `s`, the slot after both bytes.
    pairs: [[u8; 16]; 256],
    /// The class of each byte by its high nibble (for the nibbles not in `split`).
    by_high: [u8; 16],
    /// The high nibbles whose bytes fall into several classes (16, which no nibble is, for
    /// the unused ones).
    split: [u8; SPLIT],
    /// For each nibble of `split`: the class of its bytes by their low nibble.
    by_low: [[u8; 16]; SPLIT],
    /// The instruction set this CPU was found to have.
    isa: Isa,
}

impl Functions {
    /// The functions of `pairs`' automaton, walked the way `utf8_codec`'s active kernel
    /// allows: with VBMI under `avx512` on a CPU that has it, AVX2 under `avx2` or `avx512`;
    /// `None` under the other kernels. A `Functions` is the proof that [`Functions::walk`]
    /// may run here.
    pub(crate) fn new(pairs: &Pairs) -> Option<Functions> {
        match Kernel::active() {
            Kernel::Avx512 => {
                Functions::with(pairs, Isa::Vbmi).or_else(|| Functions::with(pairs, Isa::Avx2))
            }
            Kernel::Avx2 => Functions::with(pairs, Isa::Avx2),
            _ => None,
        }
    }

    /// The functions of `pairs`' automaton walked with `isa`, if this CPU has it (and, for
    /// AVX2, if at most three high nibbles have bytes of several classes).
    pub(crate) fn with(pairs: &Pairs, isa: Isa) -> Option<Functions> {
        if !isa.is_available() {
            return None;
        }
        let mut f = Functions {
            class: [0; 256],
            pairs: [[0; 16]; 256],
            by_high: [0; 16],
            split: [16; SPLIT],
            by_low: [[0; 16]; SPLIT],
            isa,
        };
        for b in 0..=255u8 {
            f.class[usize::from(b)] = pairs.class(b);
        }
        let mut splits = 0;
        for (high, row) in f.class.chunks_exact(16).enumerate() {
            f.by_high[high] = row[0];
            if row.iter().any(|&c| c != row[0]) {
                if splits == SPLIT {
                    if isa == Isa::Avx2 {
                        return None;
                    }
                    continue;
                }
                f.split[splits] = high as u8;
                f.by_low[splits].copy_from_slice(row);
                splits += 1;
            }
        }
        for (p, function) in f.pairs.iter_mut().enumerate() {
            for (s, next) in function.iter_mut().enumerate() {
                let (c0, c1) = ((p >> 4) as u8, (p & 15) as u8);
                *next = (pairs.step2_classes((s * 256) as u16, c0, c1) >> 8) as u8;
            }
        }
        Some(f)
    }

    /// The state slot reached from `from` after the whole 64-byte blocks of `bytes` (the bytes
    /// past the last whole block are left to the caller).
    pub(crate) fn walk(&self, from: u8, bytes: &[u8]) -> u8 {
        match self.isa {
            // SAFETY: a `Functions` with `Isa::Vbmi` is only built where AVX-512F, AVX-512BW
            // and AVX-512VBMI are present (`Functions::with`).
            Isa::Vbmi => unsafe { self.walk_vbmi(from, bytes) },
            // SAFETY: a `Functions` with `Isa::Avx2` is only built where AVX2 is present.
            Isa::Avx2 => unsafe { self.walk_avx2(from, bytes) },
        }
    }

    /// [`Functions::walk`] on a CPU with AVX-512 VBMI.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512F, AVX-512BW and AVX-512VBMI.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    unsafe fn walk_vbmi(&self, from: u8, bytes: &[u8]) -> u8 {
        // SAFETY: the ISA is present (this function's contract); the table loads read 64
        // bytes inside the 256 of `class`; each block load reads the 64 bytes of a 64-byte
        // chunk; the store writes the 64 bytes of `offsets`.
        unsafe {
            let at = |i: usize| _mm512_loadu_si512(self.class[i..].as_ptr().cast());
            let (c0, c1, c2, c3) = (at(0), at(64), at(128), at(192));
            self.walk_blocks(from, bytes, |block, offsets| {
                let v = _mm512_loadu_si512(block.as_ptr().cast());
                let classes = _mm512_mask_blend_epi8(
                    _mm512_movepi8_mask(v),
                    _mm512_permutex2var_epi8(c0, v, c1),
                    _mm512_permutex2var_epi8(c2, v, c3),
                );
                // Each 16-bit lane holds the classes of a pair (the first byte low): its
                // function's offset is class(b0) * 256 + class(b1) * 16 (classes are < 16).
                let off = _mm512_and_si512(
                    _mm512_or_si512(
                        _mm512_slli_epi16::<8>(classes),
                        _mm512_srli_epi16::<4>(classes),
                    ),
                    _mm512_set1_epi16(0xFF0),
                );
                _mm512_storeu_si512(offsets.as_mut_ptr().cast(), off);
            })
        }
    }

    /// [`Functions::walk`] on a CPU with AVX2.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    unsafe fn walk_avx2(&self, from: u8, bytes: &[u8]) -> u8 {
        // SAFETY: the ISA is present (this function's contract); each table load reads the 16
        // bytes of a 16-byte array; each block load reads 32 bytes of a 64-byte chunk; each
        // store writes 32 of the 64 bytes of `offsets`.
        unsafe {
            let table =
                |t: &[u8; 16]| _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast()));
            let by_high = table(&self.by_high);
            let by_low: [__m256i; SPLIT] = core::array::from_fn(|k| table(&self.by_low[k]));
            let split: [__m256i; SPLIT] =
                core::array::from_fn(|k| _mm256_set1_epi8(self.split[k] as i8));
            let nibble = _mm256_set1_epi8(0x0F);
            self.walk_blocks(from, bytes, |block, offsets| {
                for half in 0..2 {
                    let v = _mm256_loadu_si256(block[32 * half..].as_ptr().cast());
                    let high = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
                    let low = _mm256_and_si256(v, nibble);
                    let mut classes = _mm256_shuffle_epi8(by_high, high);
                    for k in 0..SPLIT {
                        classes = _mm256_blendv_epi8(
                            classes,
                            _mm256_shuffle_epi8(by_low[k], low),
                            _mm256_cmpeq_epi8(high, split[k]),
                        );
                    }
                    // As in `walk_vbmi`: class(b0) * 256 + class(b1) * 16 by pair.
                    let off = _mm256_and_si256(
                        _mm256_or_si256(
                            _mm256_slli_epi16::<8>(classes),
                            _mm256_srli_epi16::<4>(classes),
                        ),
                        _mm256_set1_epi16(0xFF0),
                    );
                    _mm256_storeu_si256(offsets[16 * half..].as_mut_ptr().cast(), off);
                }
            })
        }
    }

    /// The walk over the whole 64-byte blocks of `bytes` from slot `from`, the offsets of each
    /// block's 32 pair functions written by `offsets_of(block, offsets)`.
    ///
    /// # Safety
    ///
    /// Only inlined into a function whose target features include SSSE3 (`pshufb`);
    /// `offsets_of` must be safe to call there and write offsets that are multiples of 16
    /// below 4,096 (masked with `0xFF0`).
    #[inline(always)]
    unsafe fn walk_blocks(
        &self,
        from: u8,
        bytes: &[u8],
        offsets_of: impl Fn(&[u8], &mut [u16; 32]),
    ) -> u8 {
        // SAFETY: SSSE3 is present (this function's contract); each function load reads 16
        // bytes of `pairs` (4,096) at an offset `offsets_of` masked to a multiple of 16 below
        // 4,096 (with classes below 16, as `Pairs` asserts, the mask changes nothing); each
        // volatile read reads an aligned, initialized `u16` of a local array.
        unsafe {
            let identity = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            let table = self.pairs.as_ptr().cast::<u8>();
            let mut state = _mm_set1_epi8(from as i8);
            // The offsets of a block are written one block ahead of the walk that reads
            // them back a pair at a time: read at once, the loads waited for the 64-byte
            // store (it does not forward to them), and extracted from the register instead
            // (the compiler's choice for a local array), the extracts (`pextrw`, one port)
            // were the walk's bottleneck.
            let mut offsets = [[0u16; 32]; 2];
            let mut blocks = bytes.chunks_exact(64);
            if let Some(block) = blocks.next() {
                offsets_of(block, &mut offsets[0]);
            }
            for i in 0..bytes.len() / 64 {
                if let Some(block) = blocks.next() {
                    offsets_of(block, &mut offsets[(i + 1) & 1]);
                }
                let read = offsets[i & 1].as_ptr();
                let function = |j: usize| {
                    let o = core::ptr::read_volatile(read.add(j));
                    _mm_loadu_si128(table.add(usize::from(o)).cast())
                };
                // The block's function, composed apart from the state: the walk from one
                // block to the next waits for one shuffle, not for a chain of eight.
                let mut chain = [identity; 4];
                for j in 0..8 {
                    for (k, c) in chain.iter_mut().enumerate() {
                        *c = _mm_shuffle_epi8(function(8 * k + j), *c);
                    }
                }
                let first = _mm_shuffle_epi8(chain[1], chain[0]);
                let second = _mm_shuffle_epi8(chain[3], chain[2]);
                state = _mm_shuffle_epi8(_mm_shuffle_epi8(second, first), state);
            }
            _mm_cvtsi128_si32(state) as u8
        }
    }
}

#[cfg(test)]
mod tests {
    use regex_automata::Anchored;
    use regex_automata::dfa::Automaton;
    use regex_automata::util::start;

    use super::*;

    #[test]
    fn the_function_walk_ends_where_the_pair_walk_does() {
        // From every state slot, over blocks of every kind of byte: the same slot as stepping
        // the pairs one by one.
        let dfa = crate::generated::dfa();
        let anchored = start::Config::new().anchored(Anchored::Yes);
        let pairs = &Pairs::new(dfa, dfa.start_state(&anchored).expect("a start state"));
        let walkers: Vec<Functions> = [Isa::Vbmi, Isa::Avx2]
            .into_iter()
            .filter_map(|isa| Functions::with(pairs, isa))
            .collect();
        if walkers.is_empty() {
            eprintln!("skipped: this CPU has neither AVX2 nor AVX-512 VBMI");
            return;
        }
        assert!(
            !Isa::Avx2.is_available() || walkers.iter().any(|f| f.isa == Isa::Avx2),
            "the generated DFA's classes fit the AVX2 nibble tables"
        );
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut input = Vec::new();
        let pieces: [&[u8]; 11] = [
            b"a",
            b"\x01",
            "\u{40000}".as_bytes(),
            "é".as_bytes(),
            "世".as_bytes(),
            "🦀".as_bytes(),
            b"\x80",
            b"\xED\xA0",
            b"\xF4\x90",
            b"\xFF",
            b"\xE0",
        ];
        for round in 0..3000 {
            input.clear();
            while input.len() < 64 * (1 + round % 4) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Mostly valid text, sometimes a piece of an error.
                let k = if x.is_multiple_of(16) {
                    x >> 8
                } else {
                    x >> 8 & 3
                };
                input.extend_from_slice(pieces[(k % 11) as usize]);
            }
            let whole = input.len() / 64 * 64;
            for from in 0..16u8 {
                let mut s = u16::from(from) * 256;
                for pair in input[..whole].chunks_exact(2) {
                    s = pairs.step2(s, pair[0], pair[1]);
                }
                for f in &walkers {
                    assert_eq!(
                        f.walk(from, &input),
                        (s >> 8) as u8,
                        "{:?} {input:02X?}",
                        f.isa
                    );
                }
            }
        }
    }
}
