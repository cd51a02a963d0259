//! Counting: bytes, scalar values, lines, sequence lengths and errors by kind.

use core::ops::AddAssign;

use crate::error::{ErrorKind, StreamError};
use crate::scalar::{self, TextCounts};
use crate::simd::{self, Available, Kernel};
use crate::stream::{Decoder, Event};
use crate::validate::ErrorScan;

/// Counts over some input, valid or not.
///
/// `chars + errors` is the length in characters of the repaired text (each maximal subpart
/// becomes one U+FFFD). Counts add up: the counts of two pieces of a stream split at a unit
/// boundary sum to the counts of the whole (use [`Counter`] for arbitrary splits).
///
/// ```
/// let c = utf8_codec::count("a€\n😀\n".as_bytes());
/// assert_eq!((c.bytes, c.chars, c.lines, c.errors), (10, 5, 2, 0));
/// assert_eq!(c.by_length, [3, 0, 1, 1]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Bytes of input.
    pub bytes: u64,
    /// Well-formed scalar values.
    pub chars: u64,
    /// Newline bytes (`\n`, as `wc -l`).
    pub lines: u64,
    /// Well-formed sequences of length 1, 2, 3 and 4 (index 0 is length 1).
    pub by_length: [u64; 4],
    /// Maximal subparts (errors).
    pub errors: u64,
    /// Errors by kind, indexed by [`ErrorKind::index`].
    pub by_kind: [u64; 7],
}

impl Counts {
    /// The number of errors of one kind.
    ///
    /// ```
    /// use utf8_codec::{count, ErrorKind};
    /// assert_eq!(count(b"\xFF\xFE\x80").kind(ErrorKind::InvalidByte), 2);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn kind(&self, kind: ErrorKind) -> u64 {
        self.by_kind[kind.index()]
    }

    /// Adds the counts of a valid run of text.
    fn add_valid(&mut self, s: &[u8]) {
        self.add_valid_with(Available::active(), s);
    }

    /// Adds the counts of a valid run of text, counted by kernel `k` (available).
    fn add_valid_with(&mut self, k: Available, s: &[u8]) {
        let mut acc = TextCounts::default();
        if s.len() < 64 {
            // Between dense errors: not worth a kernel call.
            scalar::count_valid(s, &mut acc);
        } else {
            k.count_valid(s, &mut acc);
        }
        self.add_acc(&acc, s.len());
    }

    /// Adds the kernels' counts of `n` bytes of valid text.
    fn add_acc(&mut self, acc: &TextCounts, n: usize) {
        self.bytes += n as u64;
        self.chars += acc.chars();
        self.lines += acc.newlines;
        for (total, n) in self.by_length.iter_mut().zip(acc.by_length()) {
            *total += n;
        }
    }

    /// Validates and counts the longest valid prefix of `rest` with kernel `k` (available),
    /// and returns its length; `by_length` is not kept up (the kernel counts less) unless
    /// `lengths`.
    fn add_text(&mut self, k: Available, rest: &[u8], lengths: bool) -> usize {
        if let Some(n) = simd::probe(k, rest) {
            self.add_valid_with(k, &rest[..n]);
            return n;
        }
        self.add_run(k, rest, lengths)
    }

    /// [`add_text`](Counts::add_text) without the probe, for a caller that has just probed.
    fn add_run(&mut self, k: Available, rest: &[u8], lengths: bool) -> usize {
        let mut acc = TextCounts::default();
        let (n, counted) = if lengths {
            k.validate_and_count::<true>(rest, &mut acc)
        } else {
            k.validate_and_count::<false>(rest, &mut acc)
        };
        if counted <= n {
            self.add_acc(&acc, counted);
            self.add_valid_with(k, &rest[counted..n]);
        } else {
            // The last counted block ended inside a sequence that is an error: take its
            // first bytes back out (counts are per byte, so they subtract).
            let mut over = TextCounts::default();
            scalar::count_valid(&rest[n..counted], &mut over);
            acc -= if lengths { over } else { over.lean() };
            self.add_acc(&acc, n);
        }
        n
    }

    /// Adds what the dense scanner's windows counted over `n` bytes.
    fn add_windows(&mut self, b: &simd::WindowCounts, n: usize) {
        self.add_acc(&b.text, n);
        for (total, k) in self.by_kind.iter_mut().zip(b.kinds) {
            *total += k;
            self.errors += k;
        }
    }

    /// Adds what a stream decoder reported.
    fn add_event(&mut self, event: &Event<'_>) {
        match event {
            Event::Str(s) => self.add_valid(s.as_bytes()),
            Event::Char(c) => self.add_valid(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Event::Error(e) => self.add_error(e.len(), e.kind()),
        }
    }

    /// Adds one error.
    fn add_error(&mut self, len: usize, kind: ErrorKind) {
        self.bytes += len as u64;
        self.errors += 1;
        self.by_kind[kind.index()] += 1;
    }
}

impl AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.bytes += o.bytes;
        self.chars += o.chars;
        self.lines += o.lines;
        self.errors += o.errors;
        for (a, b) in self.by_length.iter_mut().zip(o.by_length) {
            *a += b;
        }
        for (a, b) in self.by_kind.iter_mut().zip(o.by_kind) {
            *a += b;
        }
    }
}

/// Counts bytes, scalar values, lines, sequence lengths and errors by kind in `bytes`.
///
/// ```
/// use utf8_codec::{count, ErrorKind};
///
/// let c = count(b"ok\xED\xA0\x80\n");
/// assert_eq!((c.chars, c.errors, c.lines), (3, 3, 1));
/// assert_eq!(c.kind(ErrorKind::Surrogate), 1);
/// assert_eq!(c.kind(ErrorKind::UnexpectedContinuation), 2);
/// ```
#[must_use = "the counts are the only result"]
pub fn count(bytes: &[u8]) -> Counts {
    count_with(Available::active(), bytes, true)
}

impl Kernel {
    /// [`count`](crate::count) computed with this kernel, or `None` if this CPU cannot run it.
    ///
    /// ```
    /// use utf8_codec::Kernel;
    /// let input = "très\n".repeat(40);
    /// for k in Kernel::available() {
    ///     assert_eq!(k.count(input.as_bytes()), Some(utf8_codec::count(input.as_bytes())));
    /// }
    /// ```
    #[must_use = "the counts are the only result (`None` if this kernel is not available)"]
    pub fn count(self, bytes: &[u8]) -> Option<Counts> {
        Available::new(self).map(|k| count_with(k, bytes, true))
    }
}

/// [`count`] with kernel `k`, a kernel this CPU can run; `by_length` left as the kernels
/// leave it (not the lengths) unless `lengths`.
fn count_with(k: Available, bytes: &[u8], lengths: bool) -> Counts {
    let mut counts = Counts::default();
    let mut at = 0;
    // The kernel validates and counts text up to the next error; with a SIMD kernel, the dense
    // scanner then counts windows from there (text and errors, from its masks) while errors
    // are dense, and so on to the last bytes.
    let mut windows = simd::WindowCounts::default();
    let mut in_windows = 0;
    loop {
        at += counts.add_run(k, &bytes[at..], lengths);
        match k.count_windows(bytes, at, &mut windows) {
            // Fewer than 64 bytes left, or the scalar kernel.
            Some(end) if end == at => break,
            None => break,
            Some(end) => {
                in_windows += end - at;
                at = end;
            }
        }
    }
    counts.add_windows(&windows, in_windows);
    // The last bytes (fewer than 64), or all after the first error with the scalar kernel.
    let mut scan = ErrorScan::new();
    while at < bytes.len() {
        // A stretch of text, validated and counted in one pass.
        at += counts.add_text(k, &bytes[at..], lengths);
        if at == bytes.len() {
            break;
        }
        // An error: the dense scanner reads the errors of the next few dozen bytes.
        let (_, window) = scan.next_window(k, bytes, at);
        let Some(w) = window else { break };
        let mut p = w.start;
        for &e in w.errors {
            let e = scalar::dense_error(w.start, e);
            counts.add_valid_with(k, &bytes[p..e.offset()]);
            counts.add_error(e.len(), e.kind());
            p = e.offset() + e.len();
        }
        counts.add_valid_with(k, &bytes[p..w.end]);
        at = w.end;
    }
    counts
}

/// Counts a stream fed in chunks of any size; the result equals [`count`] of the whole.
///
/// ```
/// use utf8_codec::{count, Counter};
///
/// let input = "Grüße, 世界\n".as_bytes();
/// let mut counter = Counter::new();
/// for chunk in input.chunks(3) {
///     counter.update(chunk);
/// }
/// assert_eq!(counter.finish(), count(input));
/// ```
#[derive(Clone)]
pub struct Counter {
    decoder: Decoder,
    counts: Counts,
    /// Whether `counts.by_length` is kept (else it is zero when given out).
    lengths: bool,
}

impl core::fmt::Debug for Counter {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The counts as given out (without lengths, `by_length` is not kept up inside).
        f.debug_struct("Counter")
            .field("decoder", &self.decoder)
            .field("counts", &self.counts())
            .field("lengths", &self.lengths)
            .finish()
    }
}

impl Default for Counter {
    fn default() -> Counter {
        Counter {
            decoder: Decoder::default(),
            counts: Counts::default(),
            lengths: true,
        }
    }
}

impl Counter {
    /// A counter at the start of a stream.
    ///
    /// ```
    /// assert_eq!(utf8_codec::Counter::new().finish().bytes, 0);
    /// ```
    #[must_use = "a new counter does nothing until it is fed"]
    pub fn new() -> Counter {
        Counter::default()
    }

    /// A counter at the start of a stream that does not count sequence lengths: its
    /// [`Counts::by_length`] is always zero, and every other count is [`Counter::new`]'s.
    /// Valid text is counted with fewer instructions (one byte class a vector instead of
    /// three), for a caller that shows no lengths.
    ///
    /// ```
    /// use utf8_codec::{count, Counter};
    ///
    /// let input = ["Grüße, 世界\n".as_bytes(), b"\xF0\x9F"].concat();
    /// let mut counter = Counter::without_lengths();
    /// counter.update(&input);
    /// let counts = counter.finish();
    /// assert_eq!((counts.chars, counts.lines, counts.errors), (10, 1, 1));
    /// assert_eq!(counts.by_length, [0; 4]);
    /// assert_eq!(counts, utf8_codec::Counts { by_length: [0; 4], ..count(&input) });
    /// ```
    #[must_use = "a new counter does nothing until it is fed"]
    pub fn without_lengths() -> Counter {
        Counter {
            lengths: false,
            ..Counter::default()
        }
    }

    /// Counts the next chunk, all but its last unit in one pass of the validation kernel. It
    /// reports no errors (see [`update_with`](Counter::update_with)); the offsets that later
    /// calls report are still those of the whole stream.
    ///
    /// ```
    /// let mut c = utf8_codec::Counter::new();
    /// c.update(b"\xE2\x82");
    /// c.update(b"\xAC");
    /// assert_eq!(c.finish().chars, 1);
    /// ```
    pub fn update(&mut self, chunk: &[u8]) {
        // A sequence held from the last chunk first.
        let mut pos = 0;
        if !self.decoder.held().is_empty() {
            let mut events = self.decoder.decode(chunk);
            let event = events.next();
            pos = events.consumed();
            if let Some(event) = event {
                self.counts.add_event(&event);
            }
            if !self.decoder.held().is_empty() {
                return;
            }
        }
        let rest = &chunk[pos..];
        if rest.is_empty() {
            return;
        }
        // All but the last unit in one pass of the kernel (the last one may go on in the next
        // chunk): as for whole input, except that a sequence cut by `last` is followed by a
        // byte that does not continue it there, not by the end.
        let last = scalar::unit_start_before(rest, 0, rest.len());
        let mut part = count_with(Available::active(), &rest[..last], self.lengths);
        let end = ErrorKind::UnexpectedEnd.index();
        if part.by_kind[end] > 0 {
            // The unit that ends at `last`, a valid prefix followed by the byte at `last`.
            let start = scalar::unit_start_before(rest, 0, last);
            let kind = ErrorKind::of_prefix(&rest[start..last], rest[last]);
            part.by_kind[end] -= 1;
            part.by_kind[kind.index()] += 1;
        }
        self.counts += part;
        self.decoder.skip(last);
        for event in self.decoder.decode(&rest[last..]) {
            self.counts.add_event(&event);
        }
    }

    /// Counts the next chunk and calls `on_error` for each error completed by it.
    ///
    /// ```
    /// let mut c = utf8_codec::Counter::new();
    /// let mut offsets = vec![];
    /// c.update_with(b"a\x80b\xFF", |e| offsets.push(e.offset()));
    /// assert_eq!(offsets, [1, 3]);
    /// ```
    pub fn update_with(&mut self, chunk: &[u8], mut on_error: impl FnMut(&StreamError)) {
        for event in self.decoder.decode(chunk) {
            match event {
                Event::Error(e) => {
                    self.counts.add_error(e.len(), e.kind());
                    on_error(&e);
                }
                event => self.counts.add_event(&event),
            }
        }
    }

    /// The counts so far, not counting bytes held at the end of the last chunk.
    ///
    /// ```
    /// let mut c = utf8_codec::Counter::new();
    /// c.update(b"ab\xE2");
    /// assert_eq!(c.counts().bytes, 2);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn counts(&self) -> Counts {
        let mut counts = self.counts;
        if !self.lengths {
            counts.by_length = [0; 4];
        }
        counts
    }

    /// Ends the stream (held bytes become an `unexpected-end` error) and returns the counts.
    ///
    /// ```
    /// let mut c = utf8_codec::Counter::new();
    /// c.update(b"ab\xE2");
    /// assert_eq!(c.finish().errors, 1);
    /// ```
    #[must_use = "the final counts, the error at the end of the stream included, are only returned here"]
    pub fn finish(&mut self) -> Counts {
        self.finish_with(|_| {})
    }

    /// As [`finish`](Counter::finish), calling `on_error` for the final error, if any.
    ///
    /// ```
    /// let mut c = utf8_codec::Counter::new();
    /// c.update(b"\xF0\x9F");
    /// let mut last = None;
    /// let counts = c.finish_with(|e| last = Some(e.offset()));
    /// assert_eq!((last, counts.errors), (Some(0), 1));
    /// ```
    #[must_use = "the final counts, the error at the end of the stream included, are only returned here"]
    pub fn finish_with(&mut self, mut on_error: impl FnMut(&StreamError)) -> Counts {
        if let Some(e) = self.decoder.finish() {
            self.counts.add_error(e.len(), e.kind());
            on_error(&e);
        }
        let counts = self.counts();
        self.counts = Counts::default();
        counts
    }
}
