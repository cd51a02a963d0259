//! The DFA walked by transition functions instead of states, with AVX-512 VBMI: the fast path
//! of the [`Validator`] on CPUs that have it (x86-64 only; the pair walk of `pairs.rs`
//! elsewhere).
//!
//! A step of the pair walk loads the next state from a table indexed by the state the step
//! before loaded, so the walk is bound by the latency of that load. This walker keeps instead,
//! for each of the 16 state slots, the state a walk begun in it has reached: a 16-byte vector.
//! A pair of bytes maps it through the pair's transition function, itself a 16-byte vector
//! (one per pair of byte classes: 256 of them, 4 KiB): one `pshufb`. The function is loaded
//! from the bytes alone, so the loads leave the chain, which is one shuffle per pair. Each
//! 64-byte block is walked by four such chains of eight pairs from the identity, composed at
//! the end of the block (three more shuffles); the block's byte classes come from one
//! 256-entry table (two `vpermi2b` and a blend), the offsets of its 32 pairs' functions from
//! two 16-bit shifts. The tables are the pair walk's, so both walks are the same automaton.
//!
//! [`Validator`]: crate::Validator

use core::arch::x86_64::*;

use crate::pairs::Pairs;

/// The transition functions of the pairs of byte classes, and the classes.
pub(crate) struct Functions {
    /// The class of each byte.
    class: [u8; 256],
    /// By `class(b0) * 16 + class(b1)`: for each state slot `s`, the slot after both bytes.
    pairs: [[u8; 16]; 256],
}

impl Functions {
    /// The functions of `pairs`' automaton, on a CPU that can walk them (AVX-512 VBMI);
    /// `None` elsewhere. A `Functions` is the proof that [`Functions::walk`] may run here.
    pub(crate) fn new(pairs: &Pairs) -> Option<Functions> {
        let available = std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi");
        if !available {
            return None;
        }
        let mut f = Functions {
            class: [0; 256],
            pairs: [[0; 16]; 256],
        };
        for b in 0..=255u8 {
            f.class[usize::from(b)] = pairs.class(b);
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
        // SAFETY: a `Functions` is only built where AVX-512F, AVX-512BW and AVX-512VBMI are
        // present (`Functions::new`).
        unsafe { self.walk_vbmi(from, bytes) }
    }

    /// [`Functions::walk`] on a CPU with the instructions.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512F, AVX-512BW and AVX-512VBMI.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    unsafe fn walk_vbmi(&self, from: u8, bytes: &[u8]) -> u8 {
        let identity = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        // SAFETY: the ISA is present (this function's contract); the table loads read 64
        // bytes inside the 256 of `class`; each block load reads 64 bytes of a 64-byte chunk
        // of `bytes`; the store writes the 64 bytes of `offsets`; each function load reads 16
        // bytes of `pairs` (4,096) at an offset masked to a multiple of 16 below 4,096 (with
        // classes below 16, as `Pairs` asserts, the mask changes nothing).
        unsafe {
            let at = |i: usize| _mm512_loadu_si512(self.class[i..].as_ptr().cast());
            let (c0, c1, c2, c3) = (at(0), at(64), at(128), at(192));
            let table = self.pairs.as_ptr().cast::<u8>();
            let mut state = _mm_set1_epi8(from as i8);
            let mut offsets = [0u16; 32];
            for block in bytes.chunks_exact(64) {
                let v = _mm512_loadu_si512(block.as_ptr().cast());
                let classes = _mm512_mask_blend_epi8(
                    _mm512_movepi8_mask(v),
                    _mm512_permutex2var_epi8(c0, v, c1),
                    _mm512_permutex2var_epi8(c2, v, c3),
                );
                // Each 16-bit lane holds the classes of a pair (the first byte low): its
                // function's offset is class(b0) * 256 + class(b1) * 16 (classes are < 16).
                let off = _mm512_or_si512(
                    _mm512_slli_epi16::<8>(classes),
                    _mm512_srli_epi16::<4>(classes),
                );
                _mm512_storeu_si512(offsets.as_mut_ptr().cast(), off);
                let function =
                    |j: usize| _mm_loadu_si128(table.add(usize::from(offsets[j]) & 0xFF0).cast());
                let mut chain = [state, identity, identity, identity];
                for j in 0..8 {
                    for (k, c) in chain.iter_mut().enumerate() {
                        *c = _mm_shuffle_epi8(function(8 * k + j), *c);
                    }
                }
                let first = _mm_shuffle_epi8(chain[1], chain[0]);
                let second = _mm_shuffle_epi8(chain[3], chain[2]);
                state = _mm_shuffle_epi8(second, first);
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
        let Some(f) = Functions::new(pairs) else {
            eprintln!("skipped: this CPU has no AVX-512 VBMI");
            return;
        };
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
                assert_eq!(f.walk(from, &input), (s >> 8) as u8, "{input:02X?}");
            }
        }
    }
}
