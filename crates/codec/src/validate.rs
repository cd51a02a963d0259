//! Validation and the error iterator.

use crate::error::Utf8Error;
use crate::scalar::{self, DENSE, Unit};
use crate::simd::{self, Available, Kernel};

/// Checks that `bytes` is well-formed UTF-8 and returns it as `&str`, or the first error.
///
/// Same answer as [`core::str::from_utf8`] (`valid_up_to`, `error_len`), plus the
/// [`kind`](Utf8Error::kind) of the first maximal subpart.
///
/// # Errors
///
/// The first maximal subpart of the input, as a [`Utf8Error`].
///
/// ```
/// use utf8_codec::{validate, ErrorKind};
///
/// assert_eq!(validate("héllo".as_bytes()), Ok("héllo"));
///
/// let err = validate(b"caf\xC3").unwrap_err();
/// assert_eq!((err.valid_up_to(), err.error_len()), (3, None));
/// assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use = "the verdict is the result: `Ok` holds the text, `Err` the first error"]
#[inline]
pub fn validate(bytes: &[u8]) -> Result<&str, Utf8Error> {
    let n = simd::dispatch::valid_up_to(bytes);
    if n == bytes.len() {
        // SAFETY: `valid_up_to` returned the whole length, so every byte of `bytes` belongs to
        // a well-formed sequence of Table 3-7; the tests hold it to `core::str::from_utf8`.
        Ok(unsafe { core::str::from_utf8_unchecked(bytes) })
    } else {
        Err(error_at(bytes, n))
    }
}

/// Whether `bytes` is well-formed UTF-8.
///
/// ```
/// assert!(utf8_codec::is_valid("✓".as_bytes()));
/// assert!(!utf8_codec::is_valid(b"\xFF"));
/// ```
#[must_use = "the verdict is the only result"]
#[inline]
pub fn is_valid(bytes: &[u8]) -> bool {
    simd::dispatch::is_valid(bytes)
}

/// The length of the longest prefix of `bytes` that is well-formed UTF-8 (a character
/// boundary).
///
/// ```
/// assert_eq!(utf8_codec::valid_up_to(b"ab\xE2\x82"), 2);
/// ```
#[must_use = "the length of the valid prefix is the only result"]
#[inline]
pub fn valid_up_to(bytes: &[u8]) -> usize {
    simd::dispatch::valid_up_to(bytes)
}

/// The error that starts at `offset`, where the caller knows a maximal subpart starts.
#[inline]
pub(crate) fn error_at(bytes: &[u8], offset: usize) -> Utf8Error {
    match scalar::unit_at(bytes, offset) {
        Unit::Error(len, kind) => Utf8Error::new(offset, len, kind),
        Unit::Char(..) => unreachable!("valid_up_to stops only before an error"),
    }
}

/// Every error of `bytes`, in order: one [`Utf8Error`] per maximal subpart.
///
/// Valid stretches between errors are skipped by the validation kernel, so this is nearly as
/// fast as [`validate`] on mostly valid input; where errors are dense a branch-free scanner
/// takes over.
///
/// ```
/// use utf8_codec::{errors, ErrorKind};
///
/// let found: Vec<(usize, usize, ErrorKind)> = errors(b"a\xE0\x80\x80b\xF0\x9F\x98")
///     .map(|e| (e.offset(), e.len(), e.kind()))
///     .collect();
/// assert_eq!(found, [
///     (1, 1, ErrorKind::Overlong),
///     (2, 1, ErrorKind::UnexpectedContinuation),
///     (3, 1, ErrorKind::UnexpectedContinuation),
///     (5, 3, ErrorKind::UnexpectedEnd),
/// ]);
/// ```
#[must_use = "iterators are lazy: the errors are only found as the iterator is consumed"]
pub fn errors(bytes: &[u8]) -> Errors<'_> {
    errors_with(Available::active(), bytes)
}

/// [`errors`] with kernel `k`, a kernel this CPU can run.
fn errors_with(k: Available, bytes: &[u8]) -> Errors<'_> {
    Errors {
        bytes,
        kernel: k,
        scan: ErrorScan::new(),
    }
}

impl Kernel {
    /// [`errors`](crate::errors) computed with this kernel, or `None` if this CPU cannot run
    /// it.
    ///
    /// ```
    /// use utf8_codec::Kernel;
    /// let input = b"\xFF\x80ok\xE2\x82".repeat(30);
    /// let want: Vec<_> = utf8_codec::errors(&input).collect();
    /// for k in Kernel::available() {
    ///     assert_eq!(k.errors(&input).map(Iterator::collect::<Vec<_>>), Some(want.clone()));
    /// }
    /// ```
    #[must_use = "the iterator over the errors is the only result (`None` if this kernel is not available)"]
    pub fn errors(self, bytes: &[u8]) -> Option<Errors<'_>> {
        Available::new(self).map(|k| errors_with(k, bytes))
    }
}

/// The iterator returned by [`errors`].
#[must_use = "iterators are lazy: the errors are only found as the iterator is consumed"]
#[derive(Clone, Debug)]
pub struct Errors<'a> {
    bytes: &'a [u8],
    kernel: Available,
    scan: ErrorScan,
}

impl Iterator for Errors<'_> {
    type Item = Utf8Error;

    #[inline]
    fn next(&mut self) -> Option<Utf8Error> {
        self.scan.next(self.kernel, self.bytes, 0)
    }
}

impl core::iter::FusedIterator for Errors<'_> {}

/// A stretch of input with errors, from [`ErrorScan::next_window`].
pub(crate) struct Window<'s> {
    /// Where it starts: an error.
    pub(crate) start: usize,
    /// Where it ends: a unit boundary.
    pub(crate) end: usize,
    /// Its errors, as `scalar::scan_errors` entries relative to `start`.
    pub(crate) errors: &'s [u32],
}

/// The longest valid prefix of `bytes` found by kernel `k` (available) without a probe: for
/// a caller that has just probed, or that expects a long valid run.
#[cfg(feature = "alloc")]
pub(crate) fn valid_prefix(k: Available, bytes: &[u8]) -> &str {
    let text = &bytes[..k.valid_up_to(bytes)];
    // SAFETY: the kernel returns the length of a well-formed prefix.
    unsafe { core::str::from_utf8_unchecked(text) }
}

/// The search for errors behind [`errors`], the stream decoder and the general path of
/// [`repair_with`](crate::repair_with): the dense scanner looks at the next 64 bytes first
/// and, where they are clean, the kernel skips to the next error; the errors of the [`DENSE`]
/// bytes from there are read at once, as more are likely.
#[derive(Clone, Debug)]
pub(crate) struct ErrorScan {
    /// Errors found ahead, `found[head..tail]`, as entries of `scalar::scan_errors` called
    /// with `base`.
    found: [u32; DENSE],
    base: usize,
    head: u8,
    tail: u8,
    /// Where the search goes on once `found` is used up: a unit boundary.
    resume: usize,
}

impl ErrorScan {
    pub(crate) const fn new() -> ErrorScan {
        ErrorScan {
            found: [0; DENSE],
            base: 0,
            head: 0,
            tail: 0,
            resume: 0,
        }
    }

    /// The next error of `bytes` at or after `from` (a unit boundary no earlier than the end
    /// of the last error returned), searching with kernel `k` (available). An error that
    /// reaches the end of `bytes` is `unexpected-end`.
    #[inline]
    pub(crate) fn next(&mut self, k: Available, bytes: &[u8], from: usize) -> Option<Utf8Error> {
        if self.head >= self.tail {
            self.fill(k, bytes, from)?;
        }
        let e = self.found[usize::from(self.head)];
        self.head += 1;
        Some(scalar::dense_error(self.base, e))
    }

    /// The well-formed text from `from` (the end of the last window, or 0) to the next window
    /// with errors, and that window: its start (an error), its end (a unit boundary) and its
    /// errors as `scalar::scan_errors` entries relative to the start. The bytes of a window
    /// outside its errors are well-formed UTF-8. Not to be mixed with
    /// [`next`](ErrorScan::next).
    #[inline]
    pub(crate) fn next_window<'a>(
        &mut self,
        k: Available,
        bytes: &'a [u8],
        from: usize,
    ) -> (&'a str, Option<Window<'_>>) {
        let found = self.fill(k, bytes, from).is_some();
        let end = if found { self.base } else { bytes.len() };
        let text = &bytes[from.min(end)..end];
        // SAFETY: the error search found no error between `from`, a unit boundary, and `end`:
        // `text` is well-formed UTF-8.
        let text = unsafe { core::str::from_utf8_unchecked(text) };
        self.head = self.tail;
        let window = found.then(|| Window {
            start: self.base,
            end: self.resume,
            errors: &self.found[..usize::from(self.tail)],
        });
        (text, window)
    }

    /// Finds the next window with errors: the dense scanner looks at the 61 positions from
    /// `from` first (where errors are dense the window is there); if they are clean the kernel
    /// skips to the first error and the dense scanner reads the 61 positions from there.
    #[inline]
    fn fill(&mut self, k: Available, bytes: &[u8], from: usize) -> Option<()> {
        let from = self.resume.max(from);
        let rest = bytes.get(from..)?;
        let probe = rest
            .first_chunk::<64>()
            .and_then(|b| Some((from, b, k.dense(b)?)));
        let (p, block, m) = match probe {
            Some(found) if found.2.errors != 0 => found,
            _ => {
                let at = match probe {
                    // Clean for 61 positions: straight to the kernel.
                    Some(_) => from + k.valid_up_to(rest),
                    None => from + k.probed_valid_up_to(rest),
                };
                if at == bytes.len() {
                    self.resume = at;
                    return None;
                }
                let block = bytes.get(at..).and_then(<[u8]>::first_chunk::<64>);
                match block.and_then(|b| Some((at, b, k.dense(b)?))) {
                    Some(found) => found,
                    None => {
                        self.base = at;
                        self.fill_near_end(bytes, at);
                        return Some(());
                    }
                }
            }
        };
        // Entries relative to the first error, where the window starts.
        let (mut errors, first) = (m.errors, m.errors.trailing_zeros());
        let mut i = 0;
        while errors != 0 {
            let j = errors.trailing_zeros();
            let len = 1 + (m.two >> j & 1) + (m.three >> j & 1);
            let at = j as usize & 63;
            let kind = scalar::pair_kind(block[at], block.get(at + 1).copied().unwrap_or(0));
            self.found[i] = (j - first) | (len as u32) << 8 | u32::from(kind) << 16;
            i += 1;
            errors &= errors - 1;
        }
        self.base = p + first as usize;
        self.resume = p + m.next;
        self.head = 0;
        self.tail = i as u8;
        Some(())
    }

    /// [`fill`](ErrorScan::fill) for an error at `at` with fewer than 64 bytes after it, or
    /// with the scalar kernel.
    fn fill_near_end(&mut self, bytes: &[u8], at: usize) {
        let n;
        let limit = bytes.len().saturating_sub(3).min(at + simd::DENSE_SPAN);
        if limit <= at {
            // Too near the end for the dense scanners: one error, classified against the
            // whole of `bytes`.
            let e = error_at(bytes, at);
            self.found[0] = (e.len() as u32) << 8 | (e.kind().index() as u32) << 16;
            n = 1;
            self.resume = at + e.len();
        } else {
            let next;
            (n, next) = scalar::scan_errors(bytes, at, limit, &mut self.found);
            self.resume = next;
        }
        debug_assert!(n >= 1 && self.found[0] & 0xFF == 0);
        self.head = 0;
        self.tail = n as u8;
    }
}
