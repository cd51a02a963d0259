//! The [`Validator`]: walking the DFA, fast (yes/no) and exact (where and why).
//!
//! # How the walk reads the DFA
//!
//! The DFA accepts `(row1|...|row9)*` anchored, with [`MatchKind::All`], so every well-formed
//! prefix of the input is a match. Matches arrive one byte late: the state entered on byte
//! `i` is a match state exactly when `bytes[..i]` is well-formed, and the end-of-input
//! transition reveals whether the whole input is. The dead state (id 0, absorbing) is entered
//! on byte `d` exactly when no well-formed string starts with `bytes[..=d]` and `bytes[..d]` is
//! not itself well-formed.
//!
//! So for the exact walk from a character boundary: let `v` be the last match position before
//! the walk dies at byte `d`. Then `v` is `valid_up_to`, and the maximal subpart at `v` is
//! `bytes[v..d]`: either `bytes[v..d]` is a proper prefix of one well-formed sequence that
//! `bytes[d]` cannot continue, or `d = v + 1` and `bytes[v]` starts no sequence at all (the
//! state after it is a match state with nowhere to go). Both cases give `len = d - v`. When the
//! input ends first and the end-of-input transition is not a match, the subpart is
//! `bytes[v..]`. Only the naming of the kind comes from the codec
//! ([`ErrorKind::classify`]); offsets and lengths come from the DFA alone.
//!
//! [`MatchKind::All`]: regex_automata::MatchKind::All

use core::fmt;
use core::iter::FusedIterator;
use std::sync::OnceLock;

use regex_automata::Anchored;
use regex_automata::dfa::Automaton;
use regex_automata::dfa::dense::DFA;
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use utf8_codec::{ErrorKind, Utf8Error};

use crate::generated;
use crate::pairs::Pairs;
#[cfg(target_arch = "x86_64")]
use crate::shuffle::Functions;

/// Independent chains walked side by side over one window of input.
const CHAINS: usize = 4;
/// Bytes of the first window split among the chains; each window that passes doubles the
/// next, up to [`WINDOW_MAX`] (errors are found soon after they start, long valid runs pay
/// little per-window overhead).
const WINDOW_MIN: usize = 256;
/// The largest window.
const WINDOW_MAX: usize = 4096;
/// Inputs (or rests) shorter than this are walked by one chain.
const SHORT: usize = 64;
/// Bytes walked exactly right after an error before the fast path takes over.
const PROBE: usize = 64;
/// Bytes per step of the ASCII skip.
const ASCII_BLOCK: usize = 128;

/// A UTF-8 validator that walks the generated DFA; cheap to copy.
///
/// All the free functions of this crate use the one shared `Validator` returned by
/// [`Validator::new`]; hold one yourself to skip a (cheap, lock-free) initialization check per
/// call, or to reach the raw [`DFA`](Validator::dfa).
///
/// Answers are exactly those of [`utf8_codec`] (and so of [`core::str::from_utf8`]) on every
/// input: the tests check every input up to three bytes, every four-byte input with a lead
/// `F0..F4`, the conformance vectors and random inputs.
///
/// ```
/// use utf8_dfa::Validator;
///
/// let v = Validator::new();
/// assert!(v.is_valid("Grüße, мир, 世界 🦀".as_bytes()));
/// assert_eq!(v.valid_up_to(b"ok\xF0\x9F"), 2);
/// assert_eq!(v.errors(b"\xED\xA0\x80").count(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Validator {
    dfa: &'static DFA<&'static [u32]>,
    start: StateID,
    /// The same DFA laid out two bytes per step, for the fast path.
    pairs: &'static Pairs,
    /// Its transition functions by pair of bytes, where this CPU and the active kernel walk
    /// them (AVX2, AVX-512 VBMI).
    #[cfg(target_arch = "x86_64")]
    functions: Option<&'static Functions>,
}

impl fmt::Debug for Validator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Validator")
            .field("states", &generated::STATES)
            .field("byte_classes", &generated::BYTE_CLASSES)
            .field("start", &self.start)
            .finish()
    }
}

impl Default for Validator {
    fn default() -> Validator {
        Validator::new()
    }
}

impl Validator {
    /// The shared validator. The first call deserializes the embedded DFA (zero-copy, with
    /// full validation of its tables); later calls return a copy of the same one.
    ///
    /// # Panics
    ///
    /// Never in practice: the embedded DFA is generated and checked by the tests. A corrupted
    /// build of the crate would panic here rather than misbehave.
    ///
    /// ```
    /// let v = utf8_dfa::Validator::new();
    /// assert_eq!(v.validate(b"abc"), Ok("abc"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new() -> Validator {
        static SHARED: OnceLock<Validator> = OnceLock::new();
        static PAIRS: OnceLock<Pairs> = OnceLock::new();
        #[cfg(target_arch = "x86_64")]
        static FUNCTIONS: OnceLock<Option<Functions>> = OnceLock::new();
        *SHARED.get_or_init(|| {
            let dfa = generated::dfa();
            let start = dfa
                .start_state(&start::Config::new().anchored(Anchored::Yes))
                .expect("the generated DFA has an anchored start state");
            let pairs = PAIRS.get_or_init(|| Pairs::new(dfa, start));
            Validator {
                dfa,
                start,
                pairs,
                #[cfg(target_arch = "x86_64")]
                functions: FUNCTIONS.get_or_init(|| Functions::new(pairs)).as_ref(),
            }
        })
    }

    /// The raw DFA, for walking it yourself with [`Automaton`]'s methods.
    ///
    /// ```
    /// use utf8_dfa::regex_automata::dfa::Automaton;
    ///
    /// let v = utf8_dfa::Validator::new();
    /// let dfa = v.dfa();
    /// let mut s = v.start_state();
    /// for &b in "é".as_bytes() {
    ///     s = dfa.next_state(s, b);
    /// }
    /// assert!(dfa.is_match_state(dfa.next_eoi_state(s)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn dfa(&self) -> &'static DFA<&'static [u32]> {
        self.dfa
    }

    /// The anchored start state of [`Validator::dfa`].
    ///
    /// ```
    /// use utf8_dfa::regex_automata::dfa::Automaton;
    ///
    /// let v = utf8_dfa::Validator::new();
    /// // A lone continuation byte can never start well-formed input.
    /// let s = v.dfa().next_state(v.start_state(), 0x80);
    /// assert!(v.dfa().is_dead_state(v.dfa().next_state(s, b'a')));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn start_state(&self) -> StateID {
        self.start
    }

    /// Checks that `bytes` is well-formed UTF-8 and returns it as `&str`, or the first error;
    /// the same answer as [`utf8_codec::validate`].
    ///
    /// # Errors
    ///
    /// The first maximal subpart of the input, as a [`Utf8Error`].
    ///
    /// ```
    /// use utf8_codec::ErrorKind;
    ///
    /// let v = utf8_dfa::Validator::new();
    /// assert_eq!(v.validate("naïve".as_bytes())?, "naïve");
    /// let err = v.validate(b"a\xE2\x82Z").unwrap_err();
    /// assert_eq!((err.valid_up_to(), err.error_len(), err.kind()), (1, Some(2), ErrorKind::Truncated));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn validate<'a>(&self, bytes: &'a [u8]) -> Result<&'a str, Utf8Error> {
        match self.first_error(bytes, 0, 0) {
            None => {
                // SAFETY: `first_error` found no error: the DFA, whose language is exactly
                // well-formed UTF-8 (Table 3-7, checked against regex-automata's own UTF-8
                // compilation by the lockstep test), accepted all of `bytes`.
                Ok(unsafe { core::str::from_utf8_unchecked(bytes) })
            }
            Some(err) => Err(err),
        }
    }

    /// Whether `bytes` is well-formed UTF-8.
    ///
    /// ```
    /// let v = utf8_dfa::Validator::new();
    /// assert!(v.is_valid(b"plain ASCII"));
    /// assert!(!v.is_valid(b"\xC0\xAF"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_valid(&self, bytes: &[u8]) -> bool {
        self.proven_prefix(bytes) == bytes.len()
    }

    /// The length of the longest well-formed prefix of `bytes`.
    ///
    /// ```
    /// let v = utf8_dfa::Validator::new();
    /// assert_eq!(v.valid_up_to("ab€".as_bytes()), 5);
    /// assert_eq!(v.valid_up_to(b"ab\xE2\x82"), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn valid_up_to(&self, bytes: &[u8]) -> usize {
        self.first_error(bytes, 0, 0)
            .map_or(bytes.len(), |e| e.valid_up_to())
    }

    /// Every error of `bytes`, in order: one [`Utf8Error`] per maximal subpart, the same items
    /// as [`utf8_codec::errors`].
    ///
    /// ```
    /// let v = utf8_dfa::Validator::new();
    /// let offsets: Vec<usize> = v.errors(b"\x80a\xFFb\xE2").map(|e| e.offset()).collect();
    /// assert_eq!(offsets, [0, 2, 4]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn errors<'a>(&self, bytes: &'a [u8]) -> Errors<'a> {
        Errors {
            validator: *self,
            bytes,
            pos: 0,
        }
    }

    /// One DFA transition.
    #[inline(always)]
    fn step(&self, s: StateID, b: u8) -> StateID {
        // SAFETY: `s` is the start state of `self.dfa` or was returned by a transition of
        // `self.dfa`, so it is a valid state id; `DFA::from_bytes` validated that every
        // transition of the table leads to a valid state id. With a valid id,
        // `id + class(b)` is below the table length (a state spans `stride` entries and
        // byte classes are below the stride), which is the contract of
        // `next_state_unchecked`.
        unsafe { self.dfa.next_state_unchecked(s, b) }
    }

    /// Whether `bytes` is well-formed when walked from the start state (a boundary).
    #[inline(always)]
    fn accepts(&self, bytes: &[u8]) -> bool {
        self.pairs.accepts(self.pairs.step_all(Pairs::START, bytes))
    }

    /// The fast path: a length `p` such that `bytes[..p]` is proven well-formed, `bytes.len()`
    /// when all of it is. When `p < bytes.len()` the input is not necessarily invalid at `p`;
    /// [`Validator::exact_from`] tells where it is.
    ///
    /// The input is cut into windows; ASCII runs between windows are skipped a block at a
    /// time; each window is split into [`CHAINS`] parts at bytes that are not continuation
    /// bytes, walked side by side from the start state (the loads of the chains overlap), and
    /// each part must end in a state whose end-of-input transition matches. The dead state
    /// is absorbing, so the chains test nothing inside the loop.
    fn proven_prefix(&self, bytes: &[u8]) -> usize {
        let n = bytes.len();
        let mut i = 0;
        let mut window = WINDOW_MIN;
        while i < n {
            i = skip_ascii(bytes, i);
            if n - i < SHORT {
                return if self.accepts(&bytes[i..]) { n } else { i };
            }
            let end = boundary_at(bytes, (i + window).min(n), n);
            if self
                .walk_functions(&bytes[i..end])
                .is_some_and(|s| self.pairs.accepts(s))
            {
                i = end;
                window = (window * 2).min(WINDOW_MAX);
                continue;
            }
            // The chains tell which part fails (or walk where the functions are not used).
            let part = (end - i) / CHAINS;
            let cuts: [usize; CHAINS + 1] = core::array::from_fn(|k| match k {
                0 => i,
                CHAINS => end,
                _ => boundary_at(bytes, i + k * part, end),
            });
            let parts: [&[u8]; CHAINS] = core::array::from_fn(|k| &bytes[cuts[k]..cuts[k + 1]]);
            let ends = self.walk_chains(parts);
            for (k, s) in ends.into_iter().enumerate() {
                if !self.pairs.accepts(s) {
                    return cuts[k];
                }
            }
            i = end;
            window = (window * 2).min(WINDOW_MAX);
        }
        n
    }

    /// The state (times 256) after `window`, walked from the start state by transition
    /// functions (`shuffle.rs`); `None` where this CPU does not walk them.
    #[inline]
    fn walk_functions(&self, window: &[u8]) -> Option<u16> {
        #[cfg(target_arch = "x86_64")]
        if let Some(f) = self.functions {
            let whole = window.len() - window.len() % 64;
            let s = u16::from(f.walk(0, &window[..whole])) * 256;
            return Some(self.pairs.step_all(s, &window[whole..]));
        }
        let _ = window;
        None
    }

    /// Walks each part from the start state, all parts interleaved eight bytes at a time;
    /// returns the end states.
    #[inline(always)]
    fn walk_chains<const N: usize>(&self, parts: [&[u8]; N]) -> [u16; N] {
        let (pairs, mut s) = (self.pairs, [Pairs::START; N]);
        let common = parts.iter().map(|p| p.len()).min().unwrap_or(0);
        let done = common - common % 8;
        for at in (0..done).step_by(8) {
            let w: [u64; N] = core::array::from_fn(|k| word(&parts[k][at..at + 8]));
            for t in (0..8).step_by(2) {
                for (sk, wk) in s.iter_mut().zip(&w) {
                    *sk = pairs.step2(*sk, (wk >> (8 * t)) as u8, (wk >> (8 * t + 8)) as u8);
                }
            }
        }
        for (sk, part) in s.iter_mut().zip(&parts) {
            *sk = pairs.step_all(*sk, &part[done..]);
        }
        s
    }

    /// The exact walk from the character boundary `from` over at most `limit` bytes.
    ///
    /// The loop only watches for the dead state (a branch that is almost never taken) and
    /// keeps the states after the last four bytes; the last character boundary is read off
    /// them afterwards, since it is never more than three bytes back (see the module docs).
    fn exact_walk(&self, bytes: &[u8], from: usize, limit: usize) -> Walk {
        let mut s = self.start;
        let mut ring = [self.start; 4];
        let end = from.saturating_add(limit).min(bytes.len());
        for (i, &b) in bytes[..end].iter().enumerate().skip(from) {
            s = self.step(s, b);
            ring[i & 3] = s;
            if self.dfa.is_dead_state(s) {
                let last = self.last_boundary(&ring, from, i, 3);
                return Walk::Error(error(bytes, last, i - last));
            }
        }
        if end < bytes.len() {
            Walk::Clean(self.last_boundary(&ring, from, end, 4))
        } else if self.dfa.is_match_state(self.dfa.next_eoi_state(s)) {
            Walk::Valid
        } else {
            let last = self.last_boundary(&ring, from, end, 3);
            Walk::Error(error(bytes, last, end - last))
        }
    }

    /// The last character boundary `p < upto` (and `p >= upto - back`) of a walk from the
    /// boundary `from`, where `ring[p & 3]` holds the state entered on byte `p`: that state
    /// is a match state exactly when `p` is a boundary (matches arrive one byte late).
    #[inline]
    fn last_boundary(&self, ring: &[StateID; 4], from: usize, upto: usize, back: usize) -> usize {
        let lowest = from.max(upto.saturating_sub(back));
        (lowest..upto)
            .rev()
            .find(|&p| p == from || self.dfa.is_match_state(ring[p & 3]))
            .unwrap_or(from)
    }

    /// The first error at or after the character boundary `from`.
    ///
    /// With `probe > 0` an exact walk over the next `probe` bytes comes first: right after an
    /// error, the next one is often close, and the fast path would walk a whole window to
    /// find it.
    #[inline]
    fn first_error(&self, bytes: &[u8], from: usize, probe: usize) -> Option<Utf8Error> {
        let from = match self.exact_walk(bytes, from, probe) {
            Walk::Error(e) => return Some(e),
            Walk::Valid => return None,
            Walk::Clean(boundary) => boundary,
        };
        let proven = from + self.proven_prefix(&bytes[from..]);
        match self.exact_walk(bytes, proven, usize::MAX) {
            Walk::Error(e) => Some(e),
            Walk::Valid => None,
            Walk::Clean(_) => unreachable!("an unlimited walk reaches the end"),
        }
    }
}

/// How an exact walk ended.
enum Walk {
    /// At the first error.
    Error(Utf8Error),
    /// At the end of the input, all of it well-formed from where the walk started.
    Valid,
    /// At its byte limit without an error; the last character boundary it saw.
    Clean(usize),
}

/// The error of the maximal subpart `bytes[offset..offset + len]` that the DFA delimited.
#[cold]
fn error(bytes: &[u8], offset: usize, len: usize) -> Utf8Error {
    let b0 = bytes[offset];
    let b1 = bytes.get(offset + 1).copied();
    let kind = ErrorKind::classify(b0, b1, offset + len == bytes.len());
    Utf8Error::new(offset, len, kind)
}

/// Eight bytes as a little-endian word (byte `t` is bits `8t..8t+8`).
#[inline(always)]
fn word(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    u64::from_le_bytes(a)
}

/// The first index at or after `i` that is not a continuation byte, looking at most three
/// bytes ahead and never past `end`. In well-formed input that is a character boundary; in
/// ill-formed input any index will do (a chain that starts inside a sequence fails, and the
/// exact walk then finds the error).
#[inline]
fn boundary_at(bytes: &[u8], i: usize, end: usize) -> usize {
    let mut j = i;
    while j < end && j < i + 3 && bytes[j] & 0xC0 == 0x80 {
        j += 1;
    }
    j
}

/// Skips whole blocks of ASCII from the character boundary `i`, 128 bytes at a time and
/// then 16 at a time; returns the new boundary (ASCII bytes are boundaries on both sides).
#[inline]
fn skip_ascii(bytes: &[u8], mut i: usize) -> usize {
    for block in bytes[i..].chunks_exact(ASCII_BLOCK) {
        if !is_ascii(block) {
            break;
        }
        i += ASCII_BLOCK;
    }
    for block in bytes[i..].chunks_exact(16) {
        if !is_ascii(block) {
            break;
        }
        i += 16;
    }
    i
}

/// Whether a block (a multiple of 8 bytes long) is all ASCII; the compiler turns the
/// word loop into vector ORs.
#[inline(always)]
fn is_ascii(block: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    block.chunks_exact(8).fold(0, |acc, w| acc | word(w)) & HIGH == 0
}

/// The iterator returned by [`errors`](crate::errors) and [`Validator::errors`]: one
/// [`Utf8Error`] per maximal subpart, in order.
///
/// ```
/// use utf8_codec::ErrorKind;
///
/// let mut it = utf8_dfa::errors(b"\xF4\x90\x80\x80");
/// assert_eq!(it.next().map(|e| e.kind()), Some(ErrorKind::OutOfRange));
/// assert_eq!(it.count(), 3); // three unexpected continuations follow
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Errors<'a> {
    validator: Validator,
    bytes: &'a [u8],
    pos: usize,
}

impl Iterator for Errors<'_> {
    type Item = Utf8Error;

    fn next(&mut self) -> Option<Utf8Error> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        let probe = if self.pos == 0 { 0 } else { PROBE };
        match self.validator.first_error(self.bytes, self.pos, probe) {
            None => {
                self.pos = self.bytes.len();
                None
            }
            Some(e) => {
                self.pos = e.offset() + e.len();
                Some(e)
            }
        }
    }
}

impl FusedIterator for Errors<'_> {}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::shuffle::Isa;

    #[test]
    fn the_function_walk_proves_what_the_chains_prove() {
        // On a CPU that walks the functions, `proven_prefix` with them and without them (the
        // chains alone) over valid text with errors injected: the same proven prefix (a window
        // the functions reject is cut by the chains), never past std's valid prefix.
        let without = Validator {
            functions: None,
            ..Validator::new()
        };
        for isa in [Isa::Vbmi, Isa::Avx2] {
            match Functions::with(without.pairs, isa) {
                Some(f) => {
                    let with = Validator {
                        functions: Some(Box::leak(Box::new(f))),
                        ..without
                    };
                    agree_on_damaged_text(&with, &without);
                }
                None => eprintln!("skipped {isa:?}: this CPU does not have it"),
            }
        }
    }

    /// `proven_prefix`, `is_valid` and `errors` of `with` and `without` over valid text with
    /// errors injected.
    fn agree_on_damaged_text(with: &Validator, without: &Validator) {
        let text = "Grüße, мир, 世界 🦀 a\tb ".repeat(400).into_bytes();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..3000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = 64 + (x % 9000) as usize;
            let mut input = text[..len].to_vec();
            for _ in 0..round % 4 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let at = (x % len as u64) as usize;
                input[at] = [0x80, 0xFF, 0xC0, 0xED, 0xF1, 0x01][(x >> 32) as usize % 6];
            }
            let a = with.proven_prefix(&input);
            assert_eq!(a, without.proven_prefix(&input), "{input:02X?}");
            let valid = std::str::from_utf8(&input).map_or_else(|e| e.valid_up_to(), |s| s.len());
            assert!(a <= valid, "proven past the first error: {input:02X?}");
            assert_eq!(with.is_valid(&input), without.is_valid(&input));
            assert_eq!(
                with.errors(&input).collect::<Vec<_>>(),
                without.errors(&input).collect::<Vec<_>>()
            );
        }
    }
}
