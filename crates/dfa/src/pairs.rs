//! The DFA's transition function two bytes at a time, for the fast path of the
//! [`Validator`]: one table load per pair of bytes and chain, no `unsafe`.
//!
//! The walk is bound by latency: each step's table load needs the state the step before
//! loaded. Two bytes per load halve that chain. The 13 states and 14 byte classes of the
//! generated DFA fit in 16 x 16: a state's row has 256 entries, one per pair of classes, and
//! the state is kept premultiplied by 256 so that a step is an `or`, a mask and a load (the
//! two class loads do not depend on the state). The tables are derived once, on first use,
//! from the generated DFA's own transitions (`Automaton::next_state`): the same automaton,
//! laid out for walking.
//!
//! [`Validator`]: crate::Validator

use std::vec::Vec;

use regex_automata::dfa::Automaton;
use regex_automata::util::primitives::StateID;

/// State and class slots: the generated DFA's 13 states and 14 classes rounded up to a power
/// of two, so that a masked index is always in bounds.
const SLOTS: usize = 16;

/// The transition function by (state, class of a byte, class of the next byte), states
/// numbered from the start state (0) in the order a breadth-first walk reaches them.
pub(crate) struct Pairs {
    /// The class of each byte (bytes with the same transitions from every state share one).
    class: [u8; 256],
    /// By `state * 256 + class(b0) * 16 + class(b1)`: the state after both bytes, times 256.
    two: [u16; SLOTS * 256],
    /// By `state * 16 + class(b)`: the state after one byte, times 256.
    one: [u16; SLOTS * SLOTS],
    /// Bit `k`: state `k`'s end-of-input transition is a match, so a walk from a boundary
    /// that ends in it has read well-formed input.
    accepting: u16,
}

impl Pairs {
    /// The start state, times 256.
    pub(crate) const START: u16 = 0;

    /// Lays out `dfa` from its anchored start state `start`.
    ///
    /// # Panics
    ///
    /// If more than 16 states are reachable from `start` or the bytes fall into more than 16
    /// classes (the generated DFA has 13 and 14; its tests check both counts).
    pub(crate) fn new<A: Automaton>(dfa: &A, start: StateID) -> Pairs {
        let mut ids: Vec<StateID> = Vec::from([start]);
        let mut k = 0;
        while k < ids.len() {
            for b in 0..=255 {
                let t = dfa.next_state(ids[k], b);
                if !ids.contains(&t) {
                    ids.push(t);
                }
            }
            k += 1;
        }
        assert!(ids.len() <= SLOTS, "{} states do not fit", ids.len());
        let index = |t: StateID| ids.iter().position(|&x| x == t).unwrap_or(0);
        // Classes: bytes whose transitions agree from every state; one representative each.
        let column =
            |b: u8| -> Vec<usize> { ids.iter().map(|&s| index(dfa.next_state(s, b))).collect() };
        let (mut class, mut reps) = ([0; 256], Vec::<u8>::new());
        for b in 0..=255u8 {
            let c = match reps.iter().position(|&r| column(r) == column(b)) {
                Some(c) => c,
                None => {
                    reps.push(b);
                    reps.len() - 1
                }
            };
            class[usize::from(b)] = c as u8;
        }
        assert!(
            reps.len() <= SLOTS,
            "{} byte classes do not fit",
            reps.len()
        );
        let (mut two, mut one, mut accepting) = ([0; SLOTS * 256], [0; SLOTS * SLOTS], 0);
        for (k, &s) in ids.iter().enumerate() {
            for (c0, &b0) in reps.iter().enumerate() {
                let t = dfa.next_state(s, b0);
                one[k * SLOTS + c0] = (index(t) * 256) as u16;
                for (c1, &b1) in reps.iter().enumerate() {
                    two[k * 256 + c0 * SLOTS + c1] = (index(dfa.next_state(t, b1)) * 256) as u16;
                }
            }
            if dfa.is_match_state(dfa.next_eoi_state(s)) {
                accepting |= 1 << k;
            }
        }
        Pairs {
            class,
            two,
            one,
            accepting,
        }
    }

    /// Two transitions from `s` (times 256): on `b0`, then on `b1`.
    #[inline(always)]
    pub(crate) fn step2(&self, s: u16, b0: u8, b1: u8) -> u16 {
        self.step2_classes(s, self.class(b0), self.class(b1))
    }

    /// The class of byte `b` (below 16).
    #[inline(always)]
    pub(crate) fn class(&self, b: u8) -> u8 {
        self.class[usize::from(b)]
    }

    /// Two transitions from `s` (times 256): on a byte of class `c0`, then on one of class
    /// `c1` (classes below 16).
    #[inline(always)]
    pub(crate) fn step2_classes(&self, s: u16, c0: u8, c1: u8) -> u16 {
        let pair = usize::from(c0) << 4 | usize::from(c1);
        self.two[(usize::from(s) | pair) & (SLOTS * 256 - 1)]
    }

    /// One transition from `s` (times 256) on `b`.
    #[inline(always)]
    pub(crate) fn step(&self, s: u16, b: u8) -> u16 {
        let c = usize::from(self.class[usize::from(b)]);
        self.one[(usize::from(s) >> 4 | c) & (SLOTS * SLOTS - 1)]
    }

    /// The transitions from `s` (times 256) on each byte of `bytes` in turn.
    #[inline(always)]
    pub(crate) fn step_all(&self, s: u16, bytes: &[u8]) -> u16 {
        bytes.iter().fold(s, |s, &b| self.step(s, b))
    }

    /// Whether a walk from a boundary that ends in `s` read well-formed input.
    #[inline(always)]
    pub(crate) fn accepts(&self, s: u16) -> bool {
        (self.accepting >> (s >> 8)) & 1 == 1
    }
}
