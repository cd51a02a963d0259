//! UTF-8 validation by a DFA compiled from the nine rows of Unicode Table 3-7.
//!
//! A second, independent validator for the utf8-tools workspace. Its source of truth is one
//! byte-level regular expression, [`UTF8_PATTERN`], that spells out the well-formed byte
//! sequences of Unicode Table 3-7 row by row (the same patterns web servers have long used to
//! check UTF-8 with a regex). regex-automata compiles it, ahead of time, into a minimized dense
//! DFA that is embedded in this crate and loaded zero-copy on first use; this crate depends on
//! regex-automata for searching only, with no regex compiler. Errors are reported in the
//! shared error model of [`utf8_codec`]: the same [`Utf8Error`] values, the same maximal
//! subparts, on every input.
//!
//! ```
//! use utf8_codec::ErrorKind;
//!
//! assert_eq!(utf8_dfa::validate("Grüße 🦀".as_bytes())?, "Grüße 🦀");
//!
//! let input = b"caf\xC3\xA9 \xED\xA0\x80!";
//! let err = utf8_dfa::validate(input).unwrap_err();
//! assert_eq!((err.valid_up_to(), err.error_len(), err.kind()), (6, Some(1), ErrorKind::Surrogate));
//! assert!(utf8_dfa::errors(input).eq(utf8_codec::errors(input)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The table
//!
//! | row | code points        | byte 1 | byte 2     | byte 3 | byte 4 |
//! |-----|--------------------|--------|------------|--------|--------|
//! | 1   | U+0000..U+007F     | 00..7F |            |        |        |
//! | 2   | U+0080..U+07FF     | C2..DF | 80..BF     |        |        |
//! | 3   | U+0800..U+0FFF     | E0     | **A0**..BF | 80..BF |        |
//! | 4   | U+1000..U+CFFF     | E1..EC | 80..BF     | 80..BF |        |
//! | 5   | U+D000..U+D7FF     | ED     | 80..**9F** | 80..BF |        |
//! | 6   | U+E000..U+FFFF     | EE..EF | 80..BF     | 80..BF |        |
//! | 7   | U+10000..U+3FFFF   | F0     | **90**..BF | 80..BF | 80..BF |
//! | 8   | U+40000..U+FFFFF   | F1..F3 | 80..BF     | 80..BF | 80..BF |
//! | 9   | U+100000..U+10FFFF | F4     | 80..**8F** | 80..BF | 80..BF |
//!
//! [`UTF8_PATTERN`] is `(?-u:(?:row1|row2|...|row9)*)`, each row as in [`TABLE_3_7_ROWS`].
//!
//! # The DFA
//!
//! `cargo xtask gen-dfa` (the [`build`] module, feature `build`) builds it with
//! regex-automata's dense DFA builder in byte mode
//! (Unicode and UTF-8 mode off in the syntax, UTF-8 mode off in the Thompson NFA, so `\xC3`
//! is the byte C3), with every well-formed prefix a match (`MatchKind::All`), anchored starts
//! only, minimized, and writes it serialized little- and big-endian to `src/generated/`.
//! A test runs `cargo xtask gen-dfa --check` and fails when the committed files differ from a
//! fresh build; another walks this DFA in lockstep with the one regex-automata derives from
//! its own UTF-8 compilation of "any scalar value" (`(?s:.)*`) and finds the same language.
//!
//! | | |
//! |---|---|
//! | states (reachable, dead state included) | 13 ([`STATES`]) |
//! | byte classes | 14 ([`BYTE_CLASSES`]): `00-7F 80-8F 90-9F A0-BF C0-C1 C2-DF E0 E1-EC ED EE-EF F0 F1-F3 F4 F5-FF` |
//! | transition table stride | 16 ([`STRIDE`]) |
//! | serialized size | 1720 bytes per byte order ([`BLOB_LEN`]) |
//!
//! The 13 states: the start (a boundary), nine states "at a boundary, then one byte" (ASCII,
//! lead of a 2-, 3- or 4-byte sequence, each of the four special leads E0 ED F0 F4, and a
//! byte that starts nothing), two "inside a sequence after a continuation byte", and the dead
//! state. There are more than the 9 of a textbook UTF-8 automaton because regex-automata
//! reports matches one byte late, which splits states by whether the previous position was a
//! boundary.
//!
//! # Error model
//!
//! Exactly [`utf8_codec`]'s: [`validate`] gives [`core::str::from_utf8`]'s `valid_up_to` and
//! `error_len` plus a [`kind`](Utf8Error::kind); [`errors`] yields one [`Utf8Error`] per
//! maximal subpart. Offsets and lengths are read off the DFA (see [`Validator`]); only the
//! kind's name is decided by [`utf8_codec::ErrorKind::classify`].
//!
//! # Performance
//!
//! The hot loop steps the DFA two bytes at a time: the same transition function laid out
//! once, on first use, as a table by state and pair of byte classes (`pairs.rs`: 16 x 256
//! entries of `u16`, derived from the generated DFA's `next_state`), one table load per two
//! bytes and chain, safe code; the exact walk that locates errors steps the generated DFA
//! itself (`next_state_unchecked`). ASCII runs are skipped 128 (then 16) bytes at a time; the rest is cut into windows (256 bytes, doubling up to 4 KiB), each
//! split at non-continuation bytes into four parts that are walked side by side so that their
//! table loads overlap, and each part must end at a character boundary. Nothing is tested
//! inside the loop: the dead state is absorbing. When a part fails, an exact walk over it
//! finds the error.
//!
//! On x86-64 CPUs with AVX2 a window is walked by transition functions instead
//! (`shuffle.rs`): for each of the 16 state slots the state a walk begun there has reached, a
//! 16-byte vector that each pair of bytes maps through its function (a `pshufb`, the
//! function loaded from the bytes alone, not from the state): the chain is one shuffle per pair
//! instead of one dependent load. The same automaton (its functions are read off the pair
//! table); a window whose end state does not accept is walked again by the four chains to
//! find the failing part. A block's byte classes come from the 256-entry class table by byte
//! permutes with AVX-512 VBMI, from nibble tables with AVX2. The walk follows utf8-codec's
//! active kernel: `UTF8_CODEC_KERNEL=avx2` walks the AVX2 way on a CPU with VBMI, and
//! `sse4.2` or `scalar` keeps the pair walk.
//!
//! The repository's `cargo bench -p utf8-bench --bench validate` measures the validator beside
//! std, utf8-codec and simdutf8 on 64 KiB corpora of several scripts; BENCHMARKS.md has the
//! figures, by kernel. The codec's SIMD kernels are much faster and remain the production path. This
//! crate's job is to be the independent second opinion.
//!
//! # Cargo features
//!
//! - `build` (off by default): the [`build`] module, the generator of the embedded DFA, with
//!   regex-automata's DFA compiler. Only `cargo xtask gen-dfa` needs it; the validator never
//!   does.
//!
//! The crate needs `std` (the DFA is loaded once through [`std::sync::OnceLock`]).
#![deny(missing_docs)]

#[cfg(feature = "build")]
pub mod build;
#[rustfmt::skip]
mod generated;
mod pairs;
mod patterns;
#[cfg(target_arch = "x86_64")]
mod shuffle;
mod validator;

pub use patterns::{TABLE_3_7_ROWS, UTF8_PATTERN};
pub use regex_automata;
pub use utf8_codec::{ErrorKind, Utf8Error};
pub use validator::{Errors, Validator};

/// States of the generated DFA reachable from its anchored start state, the dead state
/// included.
///
/// ```
/// assert_eq!(utf8_dfa::STATES, 13);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const STATES: usize = generated::STATES;

/// Equivalence classes of bytes in the generated DFA (bytes in one class have the same
/// transitions everywhere), not counting the end-of-input class.
///
/// ```
/// use utf8_dfa::regex_automata::dfa::Automaton;
///
/// let dfa = utf8_dfa::Validator::new().dfa();
/// assert_eq!(dfa.byte_classes().alphabet_len(), utf8_dfa::BYTE_CLASSES + 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const BYTE_CLASSES: usize = generated::BYTE_CLASSES;

/// Transitions per state in the generated DFA's table (classes plus end of input, rounded up
/// to a power of two).
///
/// ```
/// assert_eq!(utf8_dfa::Validator::new().dfa().stride(), utf8_dfa::STRIDE);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const STRIDE: usize = generated::STRIDE;

/// Size in bytes of the embedded serialized DFA (each byte order has one of this size).
///
/// ```
/// assert!(utf8_dfa::BLOB_LEN < 4096);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const BLOB_LEN: usize = generated::BLOB_LEN;

/// Checks that `bytes` is well-formed UTF-8 and returns it as `&str`, or the first error.
///
/// The same answer as [`utf8_codec::validate`] and [`core::str::from_utf8`] (`valid_up_to`,
/// `error_len`), plus the [`kind`](Utf8Error::kind) of the first maximal subpart.
///
/// # Errors
///
/// The first maximal subpart of the input, as a [`Utf8Error`].
///
/// ```
/// use utf8_dfa::ErrorKind;
///
/// assert_eq!(utf8_dfa::validate("héllo".as_bytes())?, "héllo");
///
/// let err = utf8_dfa::validate(b"caf\xC3").unwrap_err();
/// assert_eq!((err.valid_up_to(), err.error_len()), (3, None));
/// assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn validate(bytes: &[u8]) -> Result<&str, Utf8Error> {
    Validator::new().validate(bytes)
}

/// Whether `bytes` is well-formed UTF-8.
///
/// ```
/// assert!(utf8_dfa::is_valid("✓".as_bytes()));
/// assert!(!utf8_dfa::is_valid(b"\xFF"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn is_valid(bytes: &[u8]) -> bool {
    Validator::new().is_valid(bytes)
}

/// The length of the longest well-formed prefix of `bytes` (a character boundary).
///
/// ```
/// assert_eq!(utf8_dfa::valid_up_to(b"ab\xE2\x82"), 2);
/// assert_eq!(utf8_dfa::valid_up_to(b"ab"), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn valid_up_to(bytes: &[u8]) -> usize {
    Validator::new().valid_up_to(bytes)
}

/// Every error of `bytes`, in order: one [`Utf8Error`] per maximal subpart, the same items as
/// [`utf8_codec::errors`].
///
/// ```
/// use utf8_dfa::ErrorKind;
///
/// let found: Vec<(usize, usize, ErrorKind)> = utf8_dfa::errors(b"a\xE0\x80\x80b\xF0\x9F\x98")
///     .map(|e| (e.offset(), e.len(), e.kind()))
///     .collect();
/// assert_eq!(found, [
///     (1, 1, ErrorKind::Overlong),
///     (2, 1, ErrorKind::UnexpectedContinuation),
///     (3, 1, ErrorKind::UnexpectedContinuation),
///     (5, 3, ErrorKind::UnexpectedEnd),
/// ]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn errors(bytes: &[u8]) -> Errors<'_> {
    Validator::new().errors(bytes)
}
