//! Lossy UTF-16 to UTF-8: one U+FFFD per unpaired surrogate, as `String::from_utf16_lossy`,
//! and over bytes in either order, resumable, as the WHATWG UTF-16LE/BE decoders (and
//! encoding_rs) decode them.
//!
//! Well-formed runs go to the kernels' transcoder (`simd/utf16_decode.rs`: a vector loop
//! where the active kernel has one, then the scalar twin); this module handles what it stops
//! at: unpaired surrogates, a lead surrogate or an odd byte cut off by the end of a chunk, and
//! a full output buffer.

use crate::simd::utf16_decode::transcode_into;
#[cfg(feature = "alloc")]
use crate::simd::utf16_decode::{extend, unit_bytes};
use crate::simd::utf16_units::{is_lead, is_trail, pair};

/// The UTF-8 of U+FFFD.
#[cfg(feature = "alloc")]
const FFFD: &[u8] = "\u{FFFD}".as_bytes();

/// Appends the UTF-8 of `units` to `out`, each unpaired surrogate replaced by U+FFFD, and
/// returns the number of U+FFFD written for them (a U+FFFD in the input is not counted).
///
/// The bytes are exactly those of `String::from_utf16_lossy(units)`, without the
/// intermediate `String`; runs of ASCII, of BMP characters and of surrogate pairs are
/// converted with SSE4.2, AVX2 or AVX-512 (with VBMI2) where the CPU has them.
///
/// Needs the `alloc` feature; [`Utf16Decoder`] converts into a slice without it.
///
/// ```
/// let units = [0x63, 0x61, 0x66, 0xE9, 0xD83D, 0xDE00, 0xD800, 0x21, 0xDC00];
/// let mut out = Vec::new();
/// let replaced = utf8_codec::utf16_to_utf8_lossy(&units, &mut out);
/// assert_eq!(replaced, 2); // the lone lead D800 and the lone trail DC00
/// assert_eq!(out, "café😀\u{FFFD}!\u{FFFD}".as_bytes());
/// assert_eq!(out, String::from_utf16_lossy(&units).as_bytes());
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn utf16_to_utf8_lossy(units: &[u16], out: &mut alloc::vec::Vec<u8>) -> usize {
    // In windows of units, so that the room reserved (three bytes a unit) stays near what is
    // written; a window never ends between the two units of a pair.
    const WINDOW: usize = 1 << 14;
    let be = cfg!(target_endian = "big");
    let (mut i, mut replaced) = (0, 0);
    while i < units.len() {
        let mut end = units.len().min(i + WINDOW);
        if end < units.len() && is_lead(units[end - 1]) {
            end += 1;
        }
        let read = extend(unit_bytes(&units[i..end]), be, out) / 2;
        i += read;
        if i < end {
            // The transcoder stops early only before an unpaired surrogate (it had room).
            debug_assert!(is_lead(units[i]) || is_trail(units[i]));
            out.extend_from_slice(FFFD);
            replaced += 1;
            i += 1;
        }
    }
    replaced
}

/// Why [`Utf16Decoder::decode`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Utf16Stop {
    /// All of the input was read (a unit or a lead surrogate cut off by its end is held for
    /// the next call, or reported at the end of the stream).
    InputEmpty,
    /// The output has no room for the next scalar value (up to four bytes): call again with
    /// more room and the rest of the input.
    OutputFull,
    /// A malformed sequence, to be replaced by one U+FFFD (the decoder writes nothing for it):
    /// an unpaired surrogate (`len` 2), a byte left over at the end of the stream (1), or a
    /// lead surrogate and a byte left over at the end (3). It ends at or before the input
    /// read so far; the output written so far comes before its U+FFFD.
    Malformed {
        /// Its first byte's offset in the stream (counted from the decoder's first byte).
        offset: u64,
        /// Its length in bytes: 1, 2 or 3.
        len: u8,
    },
}

/// What one call of [`Utf16Decoder::decode`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Utf16Decoded {
    /// Bytes of input consumed (the rest is to be passed again).
    pub read: usize,
    /// Bytes of UTF-8 written at the start of the output.
    pub written: usize,
    /// Why it returned.
    pub stop: Utf16Stop,
}

/// A UTF-16LE or UTF-16BE decoder to UTF-8 over a stream of byte chunks, as the WHATWG
/// Encoding Standard (and encoding_rs) decode them: each unpaired surrogate is one malformed
/// sequence, and so is a byte left over at the end of the stream (with a lead surrogate
/// before it or not); a byte order mark is text (U+FEFF), not skipped.
///
/// State is kept between calls (an odd byte, a lead surrogate waiting for its trail), so
/// every way of cutting the stream into chunks gives the same text and the same errors at the
/// same offsets. [`decode`](Utf16Decoder::decode) needs no feature (`core` only);
/// [`decode_to_vec_lossy`](Utf16Decoder::decode_to_vec_lossy) needs `alloc`.
///
/// ```
/// use utf8_codec::{Utf16Decoder, Utf16Stop};
///
/// // "a", a lone lead surrogate, "é", in UTF-16LE, cut inside a unit.
/// let stream = [0x61, 0x00, 0x00, 0xD8, 0xE9, 0x00];
/// let mut dec = Utf16Decoder::new(false);
/// let mut buf = [0u8; 16];
/// let d = dec.decode(&stream[..3], &mut buf, false);
/// assert_eq!((d.read, d.written, d.stop), (3, 1, Utf16Stop::InputEmpty));
/// let d = dec.decode(&stream[3..], &mut buf[1..], true);
/// assert_eq!(d.stop, Utf16Stop::Malformed { offset: 2, len: 2 });
/// let d2 = dec.decode(&stream[3 + d.read..], &mut buf[1 + d.written..], true);
/// assert_eq!(d2.stop, Utf16Stop::InputEmpty);
/// assert_eq!(&buf[..1 + d.written + d2.written], "aé".as_bytes());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Utf16Decoder {
    /// Big-endian bytes.
    be: bool,
    /// The first byte of a unit whose second is still to come.
    odd: Option<u8>,
    /// A lead surrogate waiting for its trail (in `held`).
    lead: bool,
    /// That lead surrogate.
    held: u16,
    /// Where that lead surrogate starts in the stream.
    lead_at: u64,
    /// Bytes consumed so far.
    pos: u64,
}

impl Utf16Decoder {
    /// A decoder of big-endian (`big_endian`) or little-endian UTF-16 bytes.
    ///
    /// ```
    /// let dec = utf8_codec::Utf16Decoder::new(true);
    /// assert!(dec.is_big_endian());
    /// ```
    #[must_use = "a decoder does nothing until it is fed"]
    pub const fn new(big_endian: bool) -> Utf16Decoder {
        Utf16Decoder {
            be: big_endian,
            odd: None,
            lead: false,
            held: 0,
            lead_at: 0,
            pos: 0,
        }
    }

    /// Whether the decoder reads big-endian bytes.
    ///
    /// ```
    /// assert!(!utf8_codec::Utf16Decoder::new(false).is_big_endian());
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn is_big_endian(&self) -> bool {
        self.be
    }

    /// The number of bytes consumed so far (the sum of [`Utf16Decoded::read`]), the offset in
    /// the stream of the next byte to pass.
    ///
    /// ```
    /// let mut dec = utf8_codec::Utf16Decoder::new(false);
    /// let _ = dec.decode(b"a\0b", &mut [0; 8], false);
    /// assert_eq!(dec.position(), 3);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn position(&self) -> u64 {
        self.pos
    }

    /// Decodes `src` into `dst`, `last` saying whether `src` ends the stream; returns how
    /// much was read and written and why it stopped. At a [`Utf16Stop::Malformed`] the caller
    /// writes the replacement (or not) and calls again with `&src[read..]`; at
    /// [`Utf16Stop::OutputFull`], with more room. A call on an empty `src` with `last` ends
    /// the stream (reports what is held, if anything); after that the decoder starts a new
    /// stream whose offsets go on from [`position`](Utf16Decoder::position).
    ///
    /// Only `dst[..written]` holds the text: the vector kernels store whole vectors and
    /// may leave other bytes of `dst` changed past it.
    ///
    /// ```
    /// use utf8_codec::{Utf16Decoder, Utf16Stop};
    ///
    /// let mut dec = Utf16Decoder::new(true);
    /// let mut buf = [0u8; 8];
    /// let d = dec.decode(&[0xD8, 0x3D, 0xDE, 0x00, 0x00], &mut buf, true);
    /// assert_eq!((d.read, d.written), (5, 4));
    /// assert_eq!(d.stop, Utf16Stop::Malformed { offset: 4, len: 1 });
    /// assert_eq!(&buf[..4], "😀".as_bytes());
    /// ```
    #[must_use = "the result says how much was read and written"]
    pub fn decode(&mut self, src: &[u8], dst: &mut [u8], last: bool) -> Utf16Decoded {
        let (mut read, mut written) = (0, 0);
        let stop = self.run(src, dst, last, &mut read, &mut written);
        self.pos += read as u64;
        Utf16Decoded {
            read,
            written,
            stop,
        }
    }

    /// Decodes `src` as [`decode`](Utf16Decoder::decode) does and appends the UTF-8 to `out`,
    /// each malformed sequence replaced by U+FFFD; returns the number replaced. All of `src`
    /// is read (with `last`, the stream is ended).
    ///
    /// Needs the `alloc` feature.
    ///
    /// ```
    /// let mut dec = utf8_codec::Utf16Decoder::new(false);
    /// let mut out = Vec::new();
    /// assert_eq!(dec.decode_to_vec_lossy(&[0x3D, 0xD8], &mut out, false), 0);
    /// assert_eq!(dec.decode_to_vec_lossy(&[0x00, 0xDE, 0x41], &mut out, true), 1);
    /// assert_eq!(out, "😀\u{FFFD}".as_bytes());
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn decode_to_vec_lossy(
        &mut self,
        src: &[u8],
        out: &mut alloc::vec::Vec<u8>,
        last: bool,
    ) -> usize {
        // Runs straight into the spare capacity while nothing is held; the units around
        // an error, or cut by the chunk's end, through a small buffer.
        let (mut i, mut replaced) = (0, 0);
        loop {
            if self.odd.is_none() && !self.lead {
                let r = extend(&src[i..], self.be, out);
                i += r;
                self.pos += r as u64;
            }
            let mut buf = [0u8; 8];
            let d = self.decode(&src[i..], &mut buf, last);
            out.extend_from_slice(&buf[..d.written]);
            i += d.read;
            match d.stop {
                Utf16Stop::InputEmpty => return replaced,
                Utf16Stop::OutputFull => {}
                Utf16Stop::Malformed { .. } => {
                    out.extend_from_slice(FFFD);
                    replaced += 1;
                }
            }
        }
    }

    fn unit(&self, a: u8, b: u8) -> u16 {
        match self.be {
            true => u16::from_be_bytes([a, b]),
            false => u16::from_le_bytes([a, b]),
        }
    }

    /// [`decode`](Utf16Decoder::decode), with `i` and `w` (read, written) kept up to date.
    fn run(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
        i: &mut usize,
        w: &mut usize,
    ) -> Utf16Stop {
        // A unit whose first byte came before: completed by `src[0]`.
        if let Some(a) = self.odd {
            let Some(&b) = src.first() else {
                return self.end(last, 0);
            };
            let u = self.unit(a, b);
            if self.lead {
                if !is_trail(u) {
                    // The lead is unpaired; `u` is decoded next, its byte held as it is.
                    self.lead = false;
                    return malformed(self.lead_at, 2);
                }
                let Some(out) = dst.first_chunk_mut::<4>() else {
                    return Utf16Stop::OutputFull;
                };
                put(char_of(pair(self.held, u)), out);
                (self.lead, *w) = (false, 4);
            } else if is_lead(u) {
                (self.lead, self.lead_at, self.held) = (true, self.pos - 1, u);
            } else if is_trail(u) {
                (self.odd, *i) = (None, 1);
                return malformed(self.pos - 1, 2);
            } else {
                let c = char_of(u32::from(u));
                let Some(out) = dst.get_mut(..c.len_utf8()) else {
                    return Utf16Stop::OutputFull;
                };
                *w = put(c, out);
            }
            (self.odd, *i) = (None, 1);
        }
        loop {
            if self.lead {
                match &src[*i..] {
                    [] => return self.end(last, *i),
                    &[x] => {
                        self.odd = Some(x);
                        *i += 1;
                        return self.end(last, *i);
                    }
                    &[a, b, ..] => {
                        let t = self.unit(a, b);
                        if !is_trail(t) {
                            self.lead = false;
                            return malformed(self.lead_at, 2);
                        }
                        let Some(out) = dst[*w..].first_chunk_mut::<4>() else {
                            return Utf16Stop::OutputFull;
                        };
                        put(char_of(pair(self.held, t)), out);
                        self.lead = false;
                        *i += 2;
                        *w += 4;
                    }
                }
            }
            let (r, n) = transcode_into(&src[*i..], self.be, &mut dst[*w..]);
            *i += r;
            *w += n;
            let rest = &src[*i..];
            let &[a, b, ..] = rest else {
                if let &[x] = rest {
                    self.odd = Some(x);
                    *i += 1;
                }
                return self.end(last, *i);
            };
            let u = self.unit(a, b);
            let at = self.pos + *i as u64;
            if is_lead(u) {
                let Some(&[c, d]) = rest.get(2..4) else {
                    // Its trail is not here yet: held.
                    (self.lead, self.lead_at, self.held) = (true, at, u);
                    *i += 2;
                    continue;
                };
                if is_trail(self.unit(c, d)) {
                    // A pair the transcoder had no room for.
                    return Utf16Stop::OutputFull;
                }
                *i += 2;
                return malformed(at, 2);
            }
            if is_trail(u) {
                *i += 2;
                return malformed(at, 2);
            }
            // A scalar value the transcoder had no room for.
            return Utf16Stop::OutputFull;
        }
    }

    /// The end of `src` reached (`i` bytes of it read): the stream's end when `last`, where
    /// what is held is one malformed sequence.
    fn end(&mut self, last: bool, i: usize) -> Utf16Stop {
        if !last || (self.odd.is_none() && !self.lead) {
            return Utf16Stop::InputEmpty;
        }
        let len = u8::from(self.odd.is_some()) + 2 * u8::from(self.lead);
        let offset = match self.lead {
            true => self.lead_at,
            false => self.pos + i as u64 - 1,
        };
        (self.odd, self.lead) = (None, false);
        malformed(offset, len)
    }
}

/// A [`Utf16Stop::Malformed`].
const fn malformed(offset: u64, len: u8) -> Utf16Stop {
    Utf16Stop::Malformed { offset, len }
}

/// The character of scalar value `c` (never a surrogate here).
fn char_of(c: u32) -> char {
    char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// Writes the UTF-8 of `c` at the start of `out` (which has room): its length.
fn put(c: char, out: &mut [u8]) -> usize {
    c.encode_utf8(out).len()
}
