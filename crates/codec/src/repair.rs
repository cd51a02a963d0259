//! Repair: substitution practices and actions over the one error stream.

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt::Write as _;

use crate::error::StreamError;
use crate::scalar;
use crate::simd::{self, Available};
use crate::stream::Event;
use crate::validate::{ErrorScan, Window, valid_prefix, validate};

/// How ill-formed input is cut into substitutes.
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Practice {
    /// One substitute per maximal subpart (Unicode's recommendation, WHATWG, CPython, Rust).
    #[default]
    MaximalSubpart,
    /// One substitute per byte of every ill-formed subpart.
    PerByte,
    /// After a lead byte `C0..FD` (the original UTF-8 definition, announcing 2 to 6 bytes),
    /// the trail bytes it announces, stopping before the first byte that is not `80..BF`, are
    /// one substitute. Stray trail bytes and `FE`/`FF` are one each.
    PerSequence,
}

impl Practice {
    /// The name used on command lines: `maximal-subpart`, `per-byte`, `per-sequence`.
    ///
    /// ```
    /// assert_eq!(utf8_codec::Practice::PerByte.as_str(), "per-byte");
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn as_str(self) -> &'static str {
        match self {
            Practice::MaximalSubpart => "maximal-subpart",
            Practice::PerByte => "per-byte",
            Practice::PerSequence => "per-sequence",
        }
    }
}

/// What a substitute becomes in the output.
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action<'r> {
    /// The given string (U+FFFD by default).
    Replace(&'r str),
    /// Nothing: the bytes are dropped.
    Delete,
    /// `\xNN` for each byte, lowercase hex, as Python's `backslashreplace`.
    Escape,
}

impl Default for Action<'_> {
    fn default() -> Self {
        Action::Replace("\u{FFFD}")
    }
}

impl Action<'_> {
    /// Appends what one substitute becomes to `out`: `bytes` are the ill-formed bytes it
    /// stands for (a maximal subpart, a byte, a sequence, or a malformed sequence of another
    /// encoding), used by [`Action::Escape`] only.
    ///
    /// This is how [`Repairer`] writes every substitute; a caller that cuts ill-formed input
    /// itself (a transcoder from another encoding, say) applies the same action with it.
    ///
    /// ```
    /// use utf8_codec::Action;
    ///
    /// let mut out = String::from("a");
    /// Action::Escape.apply(b"\xE2\x82", &mut out);
    /// Action::Replace("?").apply(b"\xFF", &mut out);
    /// Action::Delete.apply(b"\x80", &mut out);
    /// Action::default().apply(b"\xC0", &mut out);
    /// assert_eq!(out, "a\\xe2\\x82?\u{FFFD}");
    /// ```
    pub fn apply(self, bytes: &[u8], out: &mut String) {
        match self {
            Action::Replace(s) => out.push_str(s),
            Action::Delete => {}
            Action::Escape => {
                for b in bytes {
                    // Writing to a String cannot fail.
                    let _ = write!(out, "\\x{b:02x}");
                }
            }
        }
    }
}

/// A practice and an action: everything [`repair_with`] needs to know.
///
/// ```
/// use utf8_codec::{repair_with, Action, Practice, RepairOptions};
///
/// let opts = RepairOptions { practice: Practice::PerByte, action: Action::Replace("?") };
/// assert_eq!(repair_with(b"a\xE2\x82b", &opts), "a??b");
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RepairOptions<'r> {
    /// How ill-formed input is cut into substitutes.
    pub practice: Practice,
    /// What each substitute becomes.
    pub action: Action<'r>,
}

/// Repairs `bytes`: borrowed when already valid, otherwise one U+FFFD per maximal subpart.
///
/// The same output as [`String::from_utf8_lossy`].
///
/// ```
/// use std::borrow::Cow;
///
/// assert!(matches!(utf8_codec::repair(b"fine"), Cow::Borrowed("fine")));
/// assert_eq!(utf8_codec::repair(b"\xF0\x9F\x98 ok\xFF"), "\u{FFFD} ok\u{FFFD}");
/// ```
#[must_use = "the repaired text is the only result (borrowed when the input is valid)"]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn repair(bytes: &[u8]) -> Cow<'_, str> {
    repair_with(bytes, &RepairOptions::default())
}

/// Repairs `bytes` with a given practice and action; borrowed when already valid.
///
/// ```
/// use utf8_codec::{repair_with, Action, Practice, RepairOptions};
///
/// let input = b"\xE0\x80\x80!";
/// let with = |practice, action| repair_with(input, &RepairOptions { practice, action });
/// assert_eq!(with(Practice::MaximalSubpart, Action::default()), "\u{FFFD}\u{FFFD}\u{FFFD}!");
/// assert_eq!(with(Practice::PerSequence, Action::default()), "\u{FFFD}!");
/// assert_eq!(with(Practice::MaximalSubpart, Action::Escape), "\\xe0\\x80\\x80!");
/// assert_eq!(with(Practice::PerSequence, Action::Delete), "!");
/// ```
#[must_use = "the repaired text is the only result (borrowed when the input is valid)"]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn repair_with<'a>(bytes: &'a [u8], options: &RepairOptions<'_>) -> Cow<'a, str> {
    let k = Available::active();
    // The text before the first error is validated once: returned as it is when it is all of
    // `bytes`, else copied, and the search for errors goes on from its end.
    let head = valid_prefix(k, bytes);
    if head.len() == bytes.len() {
        return Cow::Borrowed(head);
    }
    let mut out = crate::huge_pages::string_with_capacity(bytes.len() + bytes.len() / 4 + 16);
    out.push_str(head);
    repair_rest(k, bytes, head.len(), options, &mut out);
    Cow::Owned(out)
}

/// Repairs `bytes` as [`repair_with`] does, appending the text to `out`: a caller that
/// repairs many inputs reuses one buffer instead of allocating a `String` for each.
///
/// ```
/// use utf8_codec::{repair_into, RepairOptions};
///
/// let mut out = String::new();
/// for input in [&b"caf\xC3\xA9 "[..], b"na\xEFve"] {
///     repair_into(input, &RepairOptions::default(), &mut out);
/// }
/// assert_eq!(out, "café na\u{FFFD}ve");
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn repair_into(bytes: &[u8], options: &RepairOptions<'_>, out: &mut String) {
    let k = Available::active();
    // Validated and copied in one pass where the kernel can (see `simd::push_valid_prefix`).
    let head = simd::push_valid_prefix(k, bytes, out);
    if head < bytes.len() {
        out.reserve(bytes.len() - head);
        repair_rest(k, bytes, head, options, out);
    }
}

/// Appends the repair of `bytes` from `pos`, a unit boundary, to `out`.
fn repair_rest(
    k: Available,
    bytes: &[u8],
    pos: usize,
    options: &RepairOptions<'_>,
    out: &mut String,
) {
    if let (Practice::MaximalSubpart, Action::Replace(sub)) = (options.practice, options.action)
        && sub.len() <= 4
    {
        replace_subparts(k, bytes, pos, sub, out);
        return;
    }
    let (mut scan, mut pos) = (ErrorScan::new(), pos);
    let mut repairer = Repairer::new(*options);
    loop {
        let (text, window) = scan.next_window(k, bytes, pos);
        if !text.is_empty() {
            repairer.push(Event::Str(text), out);
        }
        let Some(Window { start, end, errors }) = window else {
            break;
        };
        let mut at = 0;
        for &e in errors {
            let err = scalar::dense_error(start, e);
            let text = &bytes[start + at..err.offset()];
            if !text.is_empty() {
                // The window's bytes outside its errors are well-formed.
                repairer.push(Event::Str(validate(text).unwrap_or_default()), out);
            }
            repairer.push_error(StreamError::from_error(0, bytes, err), out);
            at = err.offset() + err.len() - start;
        }
        let text = &bytes[start + at..end];
        if !text.is_empty() {
            repairer.push(Event::Str(validate(text).unwrap_or_default()), out);
        }
        pos = end;
    }
    repairer.finish(out);
}

/// The common case of [`repair_with`], kept tight: `bytes` from `pos` (a unit boundary) with
/// every maximal subpart replaced by `sub` (at most 4 bytes), appended to `out`.
///
/// With a SIMD kernel the dense scanner looks at the next 64 bytes first: where they hold
/// errors its masks drive the replacement directly (no error entries, no kinds, no branch per
/// byte); where they are clean the kernel runs to the next error. Long stretches of text go
/// straight to `out` as `str`s; short ones and the repaired windows are gathered in a
/// [`Stage`] and checked by the validation kernel a few KiB at a time, which costs far less
/// than a `str` per piece where errors are dense. The last bytes (fewer than 64), and all of
/// them with the scalar kernel, go through [`ErrorScan`] windows.
fn replace_subparts(k: Available, bytes: &[u8], mut pos: usize, sub: &str, out: &mut String) {
    let mut with = [0; 4];
    with[..sub.len()].copy_from_slice(sub.as_bytes());
    let mut stage = Stage::new(k);
    // After a window with a single error (sparse errors) the kernel goes on without a look:
    // the text after one is most likely clean, and if not, the kernel stops at once.
    let mut probe = true;
    while let Some(block) = bytes.get(pos..).and_then(<[u8]>::first_chunk::<64>) {
        if probe {
            let Some(m) = k.dense(block) else {
                break;
            };
            if m.errors != 0 {
                let padded;
                let src = match bytes.get(pos..).and_then(<[u8]>::first_chunk::<80>) {
                    Some(src) => src,
                    None => {
                        let mut p = [0; 80];
                        p[..64].copy_from_slice(block);
                        padded = p;
                        &padded
                    }
                };
                stage.window(src, &m, (&with, sub.len()), out);
                pos += m.next;
                probe = m.errors & (m.errors - 1) != 0;
                continue;
            }
        }
        // Clean for 61 positions, or just after a single error: the kernel finds where the
        // text ends.
        // Validated and copied to `out` in one pass (after what the stage holds).
        stage.flush(out);
        let text = simd::push_valid_prefix(k, &bytes[pos..], out);
        debug_assert!(!probe || text >= simd::DENSE_SPAN);
        if text == 0 && probe {
            // Unreachable (the kernel and the scanner agree); the general path below
            // would still give the right answer.
            break;
        }
        pos += text;
        probe = true;
    }
    let mut scan = ErrorScan::new();
    let mut buf = [0; WINDOW_OUT];
    loop {
        let (text, window) = scan.next_window(k, bytes, pos);
        stage.text(text, out);
        let Some(w) = window else { break };
        let n = replace_in_window(bytes, (w.start, w.end), w.errors, sub, &mut buf);
        stage.bytes(&buf[..n], out);
        pos = w.end;
    }
    stage.flush(out);
}

/// How many bytes of repaired text [`replace_subparts`] gathers before checking them.
const STAGE: usize = 4096;

/// Room for a window of the dense scanner (at most 64 bytes) with every byte replaced by up
/// to 4, and 16 to spare.
const WINDOW_OUT: usize = 64 * 4 + 16;

/// Repaired text gathered as bytes: pieces of well-formed text (cut at unit boundaries) and
/// substitutes, appended to the output a few KiB at a time once the validation kernel has
/// checked them, so that no unsafe code is needed and the lossy fallback never runs.
struct Stage {
    /// The kernel that checks the gathered bytes.
    kernel: Available,
    buf: [u8; STAGE + WINDOW_OUT],
    /// Bytes gathered; below [`STAGE`] between calls (each call flushes when it reaches it),
    /// so there is room for a window.
    len: usize,
}

impl Stage {
    fn new(kernel: Available) -> Stage {
        Stage {
            kernel,
            buf: [0; STAGE + WINDOW_OUT],
            len: 0,
        }
    }

    /// Appends well-formed text: long text straight to `out`, short text to the stage.
    fn text(&mut self, text: &str, out: &mut String) {
        if text.len() >= 256 {
            self.flush(out);
            out.push_str(text);
        } else {
            self.bytes(text.as_bytes(), out);
        }
    }

    /// Appends well-formed bytes shorter than [`WINDOW_OUT`].
    fn bytes(&mut self, b: &[u8], out: &mut String) {
        self.buf[self.len..self.len + b.len()].copy_from_slice(b);
        self.len += b.len();
        if self.len >= STAGE {
            self.flush(out);
        }
    }

    /// Appends the first `m.next` bytes of `src`, a window of the dense scanner, with each
    /// error of `m` replaced by the first `n` bytes of `with`. Pieces of text are copied 16
    /// bytes at a time, whatever their length: `src` is the 64 bytes scanned and 16 more, read
    /// from the input where it has them (a padded copy would stall loads on its stores).
    #[inline]
    fn window(
        &mut self,
        src: &[u8; 80],
        m: &simd::DenseMasks,
        (with, n): (&[u8; 4], usize),
        out: &mut String,
    ) {
        let dst = &mut self.buf[self.len..self.len + WINDOW_OUT];
        let (mut o, mut p, mut errors) = (0, 0, m.errors);
        let copy = |dst: &mut [u8], o: usize, from: usize, to: usize| {
            // The first 16 bytes unconditionally: a branch on whether a piece is empty
            // would follow the data (in random bytes, half of them are).
            dst[o..][..16].copy_from_slice(&src[from..][..16]);
            let mut f = from + 16;
            while f < to {
                dst[o + f - from..][..16].copy_from_slice(&src[f..][..16]);
                f += 16;
            }
            o + to - from
        };
        while errors != 0 {
            let j = errors.trailing_zeros() as usize & 63;
            let len = 1 + (m.two >> j & 1) + (m.three >> j & 1);
            o = copy(dst, o, p, j.max(p));
            dst[o..o + 4].copy_from_slice(with);
            o += n;
            p = j + len as usize;
            errors &= errors - 1;
        }
        o = copy(dst, o, p, m.next.max(p));
        self.len += o;
        if self.len >= STAGE {
            self.flush(out);
        }
    }

    /// Appends the gathered bytes to `out`, checked by the validation kernel.
    fn flush(&mut self, out: &mut String) {
        let n = self.len;
        self.len = 0;
        if n < 64 {
            // Few bytes (a window between sparse errors): followed by 64 zero bytes, they
            // are a whole block for the kernel, which would otherwise leave them to the
            // scalar decoder. The zeros are ASCII: the valid prefix reaches `n` only if the
            // bytes before are well-formed and end with a complete unit.
            self.buf[n..n + 64].fill(0);
            let text = valid_prefix(self.kernel, &self.buf[..n + 64]);
            match text.get(..n) {
                Some(s) => out.push_str(s),
                None => out.push_str(&String::from_utf8_lossy(&self.buf[..n])),
            }
            return;
        }
        let staged = &self.buf[..n];
        match validate(staged) {
            Ok(s) => out.push_str(s),
            Err(_) => out.push_str(&String::from_utf8_lossy(staged)),
        }
    }
}

/// Writes `bytes[start..end]`, a window of the dense scanner, with each of its `errors`
/// (entries relative to `start`) replaced by `sub` (at most 4 bytes) to `buf`, and returns
/// the length written. The short pieces of text between dense errors are copied 16 bytes at
/// a time, whatever their length, so the copies do not branch on it.
#[inline]
fn replace_in_window(
    bytes: &[u8],
    (start, end): (usize, usize),
    errors: &[u32],
    sub: &str,
    buf: &mut [u8; WINDOW_OUT],
) -> usize {
    let mut with = [0u8; 4];
    with[..sub.len()].copy_from_slice(sub.as_bytes());
    let copy = |buf: &mut [u8; WINDOW_OUT], o: usize, from: usize, to: usize| {
        let text = bytes
            .get(from..from + 16)
            .and_then(|t| <[u8; 16]>::try_from(t).ok());
        if let (true, Some(text)) = (to - from <= 16, text) {
            buf[o..o + 16].copy_from_slice(&text);
        } else {
            buf[o..o + to - from].copy_from_slice(&bytes[from..to]);
        }
        o + to - from
    };
    let (mut o, mut p) = (0, start);
    for &e in errors {
        let (j, len) = (start + (e & 0xFF) as usize, (e >> 8 & 0xFF) as usize);
        o = copy(buf, o, p, j);
        buf[o..o + 4].copy_from_slice(&with);
        o += sub.len();
        p = j + len;
    }
    copy(buf, o, p, end)
}

/// Applies a practice and an action to the events of a [`Decoder`](crate::stream::Decoder), appending to a `String`.
///
/// This is the one place that turns errors into substitutes: [`repair_with`], the I/O
/// adapters and the `utf8-repair` binary all push their events through it. Call
/// [`finish`](Repairer::finish) after the last event: the per-sequence practice may hold a
/// substitute open until it sees the next byte.
///
/// ```
/// use utf8_codec::{stream::Decoder, Practice, RepairOptions, Repairer};
///
/// let mut out = String::new();
/// let mut rep = Repairer::new(RepairOptions { practice: Practice::PerSequence, ..Default::default() });
/// let mut dec = Decoder::new();
/// for chunk in [&b"x\xF8\x88"[..], b"\x80\x80\x80y"] {
///     dec.decode(chunk).for_each(|e| rep.push(e, &mut out));
/// }
/// dec.finish().into_iter().for_each(|e| rep.push_error(e, &mut out));
/// rep.finish(&mut out);
/// assert_eq!(out, "x\u{FFFD}y");
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
#[derive(Clone, Debug)]
pub struct Repairer<'r> {
    options: RepairOptions<'r>,
    /// An open per-sequence substitute: its bytes, their count, the count announced, and the
    /// offset just past it.
    open: Option<([u8; 6], usize, usize, u64)>,
}

impl<'r> Repairer<'r> {
    /// A repairer applying `options`.
    ///
    /// ```
    /// let rep = utf8_codec::Repairer::new(Default::default());
    /// # drop(rep);
    /// ```
    #[must_use = "a new repairer does nothing until it is given events"]
    pub fn new(options: RepairOptions<'r>) -> Repairer<'r> {
        Repairer {
            options,
            open: None,
        }
    }

    /// Appends the repaired form of one event to `out`.
    ///
    /// ```
    /// use utf8_codec::{stream::Event, Repairer};
    /// let mut out = String::new();
    /// Repairer::new(Default::default()).push(Event::Str("ok"), &mut out);
    /// assert_eq!(out, "ok");
    /// ```
    pub fn push(&mut self, event: Event<'_>, out: &mut String) {
        match event {
            Event::Str(s) => {
                self.close(out);
                out.push_str(s);
            }
            Event::Char(c) => {
                self.close(out);
                out.push(c);
            }
            Event::Error(e) => self.push_error(e, out),
        }
    }

    /// Appends the substitute(s) for one error to `out`.
    ///
    /// ```
    /// use utf8_codec::{stream::StreamError, Repairer, validate};
    /// let err = StreamError::from_error(0, b"\xFF", validate(b"\xFF").unwrap_err());
    /// let mut out = String::new();
    /// Repairer::new(Default::default()).push_error(err, &mut out);
    /// assert_eq!(out, "\u{FFFD}");
    /// ```
    pub fn push_error(&mut self, err: StreamError, out: &mut String) {
        let bytes = err.bytes();
        if let Some((buf, len, announced, end)) = &mut self.open {
            if err.offset() == *end && bytes[0] & 0xC0 == 0x80 && *len < *announced {
                buf[*len] = bytes[0];
                *len += 1;
                *end += 1;
                if *len == *announced {
                    self.close(out);
                }
                return;
            }
            self.close(out);
        }
        match self.options.practice {
            Practice::MaximalSubpart => self.options.action.apply(bytes, out),
            Practice::PerByte => bytes
                .iter()
                .for_each(|b| self.options.action.apply(&[*b], out)),
            Practice::PerSequence => {
                let announced = match bytes[0] {
                    0xC0..=0xDF => 2,
                    0xE0..=0xEF => 3,
                    0xF0..=0xF7 => 4,
                    0xF8..=0xFB => 5,
                    0xFC..=0xFD => 6,
                    _ => return self.options.action.apply(bytes, out),
                };
                let mut buf = [0; 6];
                buf[..bytes.len()].copy_from_slice(bytes);
                let end = err.offset() + bytes.len() as u64;
                self.open = Some((buf, bytes.len(), announced, end));
            }
        }
    }

    /// Closes a substitute still open (per-sequence practice); call after the last event.
    ///
    /// ```
    /// use utf8_codec::{stream::Decoder, Practice, RepairOptions, Repairer};
    /// let mut rep = Repairer::new(RepairOptions { practice: Practice::PerSequence, ..Default::default() });
    /// let mut out = String::new();
    /// Decoder::new().decode(b"\xC0").for_each(|e| rep.push(e, &mut out));
    /// assert_eq!(out, "");
    /// rep.finish(&mut out);
    /// assert_eq!(out, "\u{FFFD}");
    /// ```
    pub fn finish(&mut self, out: &mut String) {
        self.close(out);
    }

    fn close(&mut self, out: &mut String) {
        if let Some((buf, len, _, _)) = self.open.take() {
            self.options.action.apply(&buf[..len], out);
        }
    }
}
