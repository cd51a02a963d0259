//! UTF-8 validation, decoding, encoding, repair and counting, with one error model.
//!
//! ```
//! use utf8_codec::{errors, validate, ErrorKind};
//! # #[cfg(feature = "alloc")]
//! use utf8_codec::repair;
//!
//! let input = b"caf\xC3\xA9 \xED\xA0\x80!";
//! let err = validate(input).unwrap_err();
//! assert_eq!((err.valid_up_to(), err.error_len(), err.kind()), (6, Some(1), ErrorKind::Surrogate));
//! assert_eq!(errors(input).count(), 3);
//! # #[cfg(feature = "alloc")]
//! assert_eq!(repair(input), "café \u{FFFD}\u{FFFD}\u{FFFD}!");
//! ```
//!
//! # Error model
//!
//! Well-formed UTF-8 is exactly the byte sequences of Unicode Table 3-7:
//!
//! | code points        | byte 1 | byte 2    | byte 3 | byte 4 |
//! |--------------------|--------|-----------|--------|--------|
//! | U+0000..U+007F     | 00..7F |           |        |        |
//! | U+0080..U+07FF     | C2..DF | 80..BF    |        |        |
//! | U+0800..U+0FFF     | E0     | **A0**..BF| 80..BF |        |
//! | U+1000..U+CFFF     | E1..EC | 80..BF    | 80..BF |        |
//! | U+D000..U+D7FF     | ED     | 80..**9F**| 80..BF |        |
//! | U+E000..U+FFFF     | EE..EF | 80..BF    | 80..BF |        |
//! | U+10000..U+3FFFF   | F0     | **90**..BF| 80..BF | 80..BF |
//! | U+40000..U+FFFFF   | F1..F3 | 80..BF    | 80..BF | 80..BF |
//! | U+100000..U+10FFFF | F4     | 80..**8F**| 80..BF | 80..BF |
//!
//! Ill-formed input is cut into **maximal subparts** (Unicode chapter 3, "U+FFFD Substitution
//! of Maximal Subparts"): at an offending position, the longest prefix of a row above that
//! starts there, or the single byte if no prefix of length 1 or more does. Each maximal
//! subpart is one error ([`Utf8Error`]: offset, length 1 to 3, kind). This is the segmentation
//! of [`core::str::Utf8Error::error_len`], of the WHATWG decoder (encoding_rs) and of
//! CPython's `decode('utf-8', 'replace')`.
//!
//! The [`ErrorKind`] of a subpart is decided by its first byte `b0` and the byte after it:
//!
//! | kind | when | example |
//! |---|---|---|
//! | `overlong` | lead C0 or C1; E0 then 80..9F; F0 then 80..8F | `C1 81`, `E0 80 80` |
//! | `surrogate` | ED then A0..BF (would encode U+D800..U+DFFF) | `ED A0 80` |
//! | `out-of-range` | F4 then 90..BF; leads F5..FD (beyond U+10FFFF) | `F4 90 80 80`, `F5` |
//! | `invalid-byte` | FE or FF | `FF` |
//! | `unexpected-continuation` | 80..BF where a lead byte was expected | `80` |
//! | `truncated` | a valid prefix followed by a byte that cannot continue it | `E2 82 41` |
//! | `unexpected-end` | a valid prefix cut off by the end of the input | `F0 9F 98` at the end |
//!
//! So `E0 80 80` is three errors (overlong, then two unexpected continuations), as are
//! `ED A0 80`; `F4 90 80 80` is four. [`decode_loose`] tells what such a sequence would have
//! meant (`ED A0 80` would encode U+D800). In a stream ([`stream::Decoder`]),
//! `unexpected-end` exists only at the true end: a sequence split across chunks is completed
//! by the next one, and every split gives the same events.
//!
//! # What is here
//!
//! * [`validate`], [`is_valid`], [`valid_up_to`], [`errors`]: checking.
//! * [`Utf8Error`] and [`stream::StreamError`]: one error in a buffer or in a stream, two
//!   forms of one [`Subpart`] (offset, length, [`ErrorKind`]).
//! * [`decode`] (double-ended), [`decode_first`], [`decode_last`], [`floor_boundary`],
//!   [`ceil_boundary`], [`is_boundary`], [`decode_loose`]: decoding.
//! * [`Lossy`] (a non-allocating lossy `Display`) and [`char_indices`] (scalar values with
//!   their byte ranges, U+FFFD per maximal subpart): lossy views.
//! * [`encode`] (an [`Encoded`] is `Display`, `AsRef<str>`, `AsRef<[u8]>`), [`utf16_chars`],
//!   `utf16_to_string`: encoding.
//! * `utf8_to_utf16_lossy` (feature `alloc`), [`utf8_to_utf16_lossy_into`] (no allocation),
//!   [`utf16_len_lossy`]: UTF-8 to UTF-16, one U+FFFD per maximal subpart.
//! * `utf16_to_utf8_lossy` (feature `alloc`) and [`Utf16Decoder`] (UTF-16LE/BE bytes, in
//!   chunks, each error's offset; `Utf16Decoder::decode_to_vec_lossy` with `alloc`): UTF-16 to
//!   UTF-8, one U+FFFD per unpaired surrogate, as std and the WHATWG decoders.
//! * `repair`, `repair_with`, `repair_into` with `Practice` and `Action` (`Action::apply`
//!   for one substitute), `Repairer`: repair (feature `alloc`).
//! * [`stream::Decoder`], [`Counter`], and the `io` adapters (feature `std`): streams.
//! * [`count`], [`Counts`]: bytes, scalars, lines, sequence lengths, errors by kind.
//!
//! # Cargo features
//!
//! | feature | enables | needs |
//! |---|---|---|
//! | (none) | everything not listed below: validation, [`errors`], decoding, [`Lossy`], [`char_indices`], [`encode`], [`utf16_chars`], [`count`] and [`Counter`], the [`stream::Decoder`], [`Kernel`], [`utf8_to_utf16_lossy_into`], [`utf16_len_lossy`], [`Utf16Decoder`], and the `core::error::Error` impls | `core` only: `no_std`, allocation-free |
//! | `alloc` | `repair`, `repair_with`, `repair_into`, `Practice`, `Action`, `RepairOptions`, `Repairer`, `utf16_to_string`, `utf8_to_utf16_lossy`, `utf16_to_utf8_lossy`, `Utf16Decoder::decode_to_vec_lossy` | `alloc` (`String`, `Cow`) |
//! | `std` (default) | the `io` adapters (`RepairReader`, `RepairWriter`); `UTF8_CODEC_KERNEL` to force a kernel; on Linux, huge pages for large fresh outputs (below). Implies `alloc` | `std` (and `libc` on Linux) |
//!
//! Every feature set runs the crate's tests and doctests in CI. On docs.rs each item that
//! needs a feature is marked with it.
//!
//! # Performance
//!
//! Validation runs one kernel, chosen once and cached ([`Kernel`]): the lookup algorithm of
//! Keiser & Lemire ("Validating UTF-8 In Less Than One Instruction Per Byte", 2021), written
//! once over a small vector trait, with AVX-512BW, AVX2 and SSE4.2 versions on x86-64; an
//! SSE2 kernel for x86-64 CPUs and targets without SSSE3 (Table 3-7 by compares: SSE2 has no
//! `pshufb` for the algorithm's tables); and the scalar kernel (64-byte ASCII blocks skipped
//! by words, then `core::str::from_utf8`, so never slower than core) everywhere else. The
//! SIMD kernels only say whether a 64-byte block is valid; the exact error always comes from
//! the scalar decoder (or core's), re-run from the last character boundary before the
//! failing block, so every kernel gives the same answers. [`errors`], repair, the streaming
//! decoder and [`count`] all resume at kernel speed after each error. Counting valid runs is
//! vectorized too (bytes, scalars, lines and the length histogram in one pass over the cached
//! window) by the SSE4.2, AVX2, AVX-512 and NEON kernels; with the SSE2 kernel, counting, the
//! error scanner and repair use the scalar paths between its validation runs.
//! `UTF8_CODEC_KERNEL=scalar|sse2|sse4.2|avx2|avx512|neon` forces a kernel (with `std`), for
//! testing.
//!
//! Which kernels a build can use:
//!
//! | build | kernels | chosen |
//! |---|---|---|
//! | x86-64 with `std` (default) | scalar, SSE2, SSE4.2, AVX2, AVX-512 | at run time: the best the CPU has |
//! | x86-64 without `std`, default target (SSE2 only) | scalar, SSE2 | SSE2 |
//! | x86-64 without `std`, `-C target-feature=+sse4.2` / `+avx2` / `+avx512f,+avx512bw` or `-C target-cpu=...` | scalar, SSE2 and those the target features enable | at compile time: the best enabled |
//! | x86-64 without `std` or SSE2 (`x86_64-unknown-none`, `-C target-feature=-sse2`) | scalar | scalar |
//! | aarch64 (NEON enabled, as on every usual aarch64 target), with or without `std` | scalar, NEON | NEON (part of the baseline: no run-time check) |
//! | any other target | scalar | scalar |
//!
//! Without `std` there is no run-time CPU detection: a kernel is used only when the compile
//! time target features guarantee it. Every kernel is at least as fast as
//! `core::str::from_utf8` on ASCII, Latin, Cyrillic, CJK, emoji and mixed text (the SSE2
//! kernel 2-15 times as fast on non-ASCII text of a few MiB; the scalar kernel is core's
//! validator after an ASCII skip). The NEON kernel runs the same algorithms as the x86-64
//! vector kernels (validation, errors, counting, words, repair's one-pass copy) in 16-byte
//! vectors, and so does UTF-8 → UTF-16 (the AVX2 and AVX-512 kernels use AVX2's).
//! UTF-16 → UTF-8 ([`Utf16Decoder`], `utf16_to_utf8_lossy`) has a vector loop of its own with
//! SSE4.2, AVX2, AVX-512 with VBMI2 (without it the AVX-512 kernel uses AVX2's) and NEON: runs
//! of ASCII, of units below U+0800, of BMP characters and of surrogate pairs, and with SSE4.2,
//! AVX2 and AVX-512 any mix of lengths whose surrogates are paired; the rest (unpaired surrogates, and on NEON mixed
//! lengths with pairs) one scalar value at a time without branches on its length; with the
//! SSE2 and scalar kernels, a portable loop (ASCII four units a word).
//!
//! Short input costs little per call: [`is_valid`] and [`validate`] settle ASCII under 64
//! bytes with a few word loads and call the kernel through a cached pointer. The SSE4.2,
//! AVX2, AVX-512 and NEON kernels check 8 to 63 bytes in 16-byte vectors (the last one padded with
//! zeros by a shuffle, no copy) and from 64 bytes skip whole ASCII blocks before any setup
//! and check the tail as a last block overlapping the one before; [`is_valid`] (and
//! [`validate`] and [`valid_up_to`] up to 4 KiB) tests the blocks' errors once, at the end. The SSE2 kernel leaves input under 64 bytes to core's
//! validator.
//!
//! A fresh output of several MiB (`repair` of damaged input, `utf16_to_string`) costs more in
//! page faults than in copying: one per 4 KiB page. With `std` on Linux, outputs over 32 MiB
//! (each its own mapping with glibc) are advised for transparent huge pages (`madvise(MADV_HUGEPAGE)`, one fault per
//! 2 MiB; it takes effect where the kernel's THP mode is `madvise` or `always`; BENCHMARKS.md
//! has the figures). A buffer you pass in (`repair_into`) is left as it is.
//!
//! Measured with the repository's `cargo bench -p utf8-bench` (criterion; generated corpora)
//! and `cargo xtask bench-lib`: see `BENCHMARKS.md` at the repository root, which names the
//! CPU of each figure.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod count;
mod decode;
mod encode;
mod error;
#[cfg(feature = "alloc")]
mod huge_pages;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod io;
mod lossy;
#[cfg(doctest)]
mod must_use;
#[cfg(feature = "alloc")]
mod repair;
mod scalar;
mod simd;
pub mod stream;
mod utf16;
mod utf16_decode;
mod validate;
mod words;

pub use count::{Counter, Counts, count};
pub use decode::{
    Decode, Decoded, ceil_boundary, decode, decode_first, decode_last, decode_loose,
    floor_boundary, is_boundary,
};
#[cfg(feature = "alloc")]
pub use encode::utf16_to_string;
pub use encode::{EncodeError, EncodeErrorKind, Encoded, encode, utf16_chars};
pub use error::{ErrorKind, Subpart, Utf8Error};
pub use lossy::{CharIndices, Lossy, char_indices};
#[cfg(feature = "alloc")]
pub use repair::{Action, Practice, RepairOptions, Repairer, repair, repair_into, repair_with};
pub use simd::Kernel;
#[cfg(feature = "alloc")]
pub use utf16::utf8_to_utf16_lossy;
pub use utf16::{Utf16Progress, utf8_to_utf16_lossy_into, utf16_len_lossy};
#[cfg(feature = "alloc")]
pub use utf16_decode::utf16_to_utf8_lossy;
pub use utf16_decode::{Utf16Decoded, Utf16Decoder, Utf16Stop};
pub use validate::{Errors, errors, is_valid, valid_up_to, validate};
pub use words::{WordCounter, Words, count_words};
