//! The `#[must_use]` checks, as doctests (compiled only by `cargo test --doc`): a statement
//! that drops a result carrying data or a verdict must not compile under
//! `#![deny(unused_must_use)]`, so removing one of the attributes fails a test.

/// The `#[must_use]` checks: each statement below drops a result that carries data or a
/// verdict and must not compile under `#![deny(unused_must_use)]`. The first example runs
/// the same calls with their results bound, so each failure below is the lint's.
///
/// ```
/// #![deny(unused_must_use)]
/// use utf8_codec::{count, decode, encode, errors, is_valid, validate, stream::Decoder, Counter};
/// let mut dec = Decoder::new();
/// let _ = dec.decode(b"chunk");
/// let _ = dec.finish();
/// let _ = is_valid(b"x");
/// let _ = validate(b"x");
/// let _ = count(b"x");
/// let _ = errors(b"x");
/// let _ = decode(b"x");
/// let _ = encode(0x41);
/// let _ = Counter::new().finish();
/// let _ = utf8_codec::char_indices(b"x");
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// let mut dec = utf8_codec::stream::Decoder::new();
/// dec.decode(b"chunk");
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// let mut dec = utf8_codec::stream::Decoder::new();
/// dec.finish();
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// utf8_codec::is_valid(b"x");
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// utf8_codec::validate(b"x");
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// utf8_codec::count(b"x");
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// utf8_codec::errors(b"x");
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// utf8_codec::decode(b"x");
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// utf8_codec::encode(0x41);
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// utf8_codec::Counter::new().finish();
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// utf8_codec::char_indices(b"x");
/// ```
#[cfg(doctest)]
pub struct MustUseChecks;

/// The `#[must_use]` checks of the `alloc` items, as [`MustUseChecks`].
///
/// ```
/// #![deny(unused_must_use)]
/// let _ = utf8_codec::repair(b"x");
/// let _ = utf8_codec::repair_with(b"x", &Default::default());
/// let _ = utf8_codec::utf16_to_string(&[0x41]);
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// utf8_codec::repair(b"x");
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// utf8_codec::repair_with(b"x", &Default::default());
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// utf8_codec::utf16_to_string(&[0x41]);
/// ```
#[cfg(all(doctest, feature = "alloc"))]
pub struct MustUseChecksAlloc;

/// The `#[must_use]` checks of the `io` adapters, as [`MustUseChecks`]: the final count of
/// `io::RepairWriter::finish` cannot be dropped unread, even once the `io::Result` is
/// unwrapped.
///
/// ```
/// #![deny(unused_must_use)]
/// let w = utf8_codec::io::RepairWriter::new(Vec::new(), Default::default());
/// let _ = w.finish().unwrap();
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// let w = utf8_codec::io::RepairWriter::new(Vec::new(), Default::default());
/// w.finish().unwrap();
/// ```
#[cfg(all(doctest, feature = "std"))]
pub struct MustUseChecksStd;
