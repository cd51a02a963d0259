//! Lossy UTF-8 to UTF-16: one U+FFFD per maximal subpart, the crate's error model.
//!
//! The input is split by the error iterator ([`errors`], kernel speed between errors) into
//! valid runs and maximal subparts; a valid run is transcoded without checks by
//! [`transcode_valid`]: its bulk by the vector transcoder of `simd/` where the kernel has one
//! (AVX2, NEON: ASCII blocks widened, other sequences converted with shuffles; AVX-512 VBMI2:
//! each block's units built from byte permutes of the positions `vpcompressb` packs), the
//! rest (tails under 80 bytes, other CPUs) by a portable loop that widens 16 ASCII bytes at a time (the compiler
//! turns it into SSE2 / NEON unpacks) and decodes the rest one sequence at a time. Everything
//! here is safe code: a valid run that were not valid would give wrong units, never undefined
//! behaviour (the vector transcoder's bounds do not depend on the data either), and the tests
//! hold the output to std and encoding_rs.

use crate::count::count;
use crate::scalar::unit_cut;
#[cfg(feature = "alloc")]
use crate::simd::transcode::{extend_ascii, extend_valid_prefix};
use crate::simd::transcode::{transcode_valid_prefix, widen_ascii};
use crate::validate::errors;

/// What [`utf8_to_utf16_lossy_into`] did: bytes read, UTF-16 units written, and how many
/// maximal subparts it replaced by U+FFFD.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Utf16Progress {
    /// Bytes of input consumed: always a unit boundary (the end of a scalar value or of a
    /// maximal subpart), so the rest can be converted by a second call on `&bytes[read..]`.
    pub read: usize,
    /// UTF-16 code units written at the start of the output buffer.
    pub written: usize,
    /// Ill-formed subparts replaced by U+FFFD (a U+FFFD in the input is not counted).
    pub replacements: usize,
}

/// The largest piece [`utf8_to_utf16_lossy_into`] validates before transcoding it: the
/// piece and its units stay in the core's L2 cache between the two passes.
const WINDOW: usize = 16 << 10;

const HI16: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;

/// Transcodes `src`, which must be well-formed UTF-8 (it comes from the validator), into
/// `dst`, as far as whole scalar values fit. Returns (bytes read, units written).
///
/// Ill-formed input gives wrong units but cannot panic or overrun: every index is checked.
#[inline]
fn transcode_valid(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    let (mut i, mut o) = if src.len() >= 80 {
        transcode_valid_prefix(src, dst)
    } else {
        (0, 0)
    };
    loop {
        // ASCII: widen 16 bytes blindly, keep the units before the first non-ASCII byte.
        while let (Some(chunk), Some(out)) = (
            src.get(i..).and_then(<[u8]>::first_chunk::<16>),
            dst.get_mut(o..).and_then(<[u16]>::first_chunk_mut::<16>),
        ) {
            for (d, &s) in out.iter_mut().zip(chunk) {
                *d = u16::from(s);
            }
            let high = u128::from_le_bytes(*chunk) & HI16;
            if high != 0 {
                let ascii = (high.trailing_zeros() / 8) as usize;
                i += ascii;
                o += ascii;
                break;
            }
            i += 16;
            o += 16;
        }
        // One sequence at a time until the next ASCII run (or the end of either buffer).
        loop {
            let Some(&b0) = src.get(i) else {
                return (i, o);
            };
            let Some(slot) = dst.get_mut(o) else {
                return (i, o);
            };
            // The sequence's bytes, without a bounds check each when 4 are left.
            let q = match src.get(i..).and_then(<[u8]>::first_chunk::<4>) {
                Some(q) => *q,
                None => {
                    let mut q = [0x80; 4];
                    let tail = &src[i..];
                    q[..tail.len()].copy_from_slice(tail);
                    q
                }
            };
            let b = |k: usize| u32::from(q[k] & 0x3F);
            if b0 < 0x80 {
                *slot = u16::from(b0);
                i += 1;
                o += 1;
                break;
            } else if b0 < 0xE0 {
                *slot = ((u32::from(b0 & 0x1F) << 6) | b(1)) as u16;
                i += 2;
                o += 1;
            } else if b0 < 0xF0 {
                *slot = ((u32::from(b0 & 0x0F) << 12) | (b(1) << 6) | b(2)) as u16;
                i += 3;
                o += 1;
            } else {
                let c = (u32::from(b0 & 0x07) << 18) | (b(1) << 12) | (b(2) << 6) | b(3);
                let Some(pair) = dst.get_mut(o..o + 2) else {
                    return (i, o);
                };
                let c = c.wrapping_sub(0x1_0000);
                pair[0] = 0xD800 | ((c >> 10) & 0x3FF) as u16;
                pair[1] = 0xDC00 | (c & 0x3FF) as u16;
                i += 4;
                o += 2;
            }
        }
    }
}

/// Converts `bytes` to UTF-16 in `dst` without allocating, replacing each maximal subpart
/// by one U+FFFD: the longest prefix of `bytes` ending at a unit boundary whose UTF-16 fits.
///
/// All of `bytes` is converted when `dst` holds [`utf16_len_lossy`]`(bytes)` units, and
/// always when it holds `bytes.len()` units (no UTF-8 unit gives more UTF-16 units than it
/// has bytes). Otherwise [`Utf16Progress::read`] says where to resume. The input is taken as
/// complete: a sequence cut off at its end is an error (`unexpected-end`); for input that
/// arrives in chunks, feed [`stream::Decoder`](crate::stream::Decoder) instead.
///
/// Needs no feature (`core` only). `utf8_to_utf16_lossy` (feature `alloc`) is the appending
/// form.
///
/// ```
/// use utf8_codec::{utf8_to_utf16_lossy_into, Utf16Progress};
///
/// let mut buf = [0u16; 16];
/// let p = utf8_to_utf16_lossy_into(b"a\xF0\x9F\x98\x80\xE2\x82b", &mut buf);
/// assert_eq!(p, Utf16Progress { read: 8, written: 5, replacements: 1 });
/// assert_eq!(buf[..5], [0x61, 0xD83D, 0xDE00, 0xFFFD, 0x62]);
///
/// // Too small: stops at a unit boundary, never inside a surrogate pair.
/// let p = utf8_to_utf16_lossy_into("a😀".as_bytes(), &mut buf[..2]);
/// assert_eq!((p.read, p.written), (1, 1));
/// ```
#[must_use = "the progress says how much of the buffer holds output"]
pub fn utf8_to_utf16_lossy_into(bytes: &[u8], dst: &mut [u16]) -> Utf16Progress {
    // In pieces of at most [`WINDOW`] bytes and about the room left, each cut before a byte
    // that starts a unit: the error search never runs far past what fits (a piece of n bytes
    // gives at most n units), so a small buffer over a large input costs what it converts,
    // and the transcoder reads each piece again while it is still in the cache (one piece for
    // the whole input read it from memory twice). A piece that starts with ASCII has its
    // ASCII prefix widened straight into `dst` first, the ASCII test reading the same loads.
    let mut p = Utf16Progress::default();
    loop {
        let mut rest = &bytes[p.read..];
        if rest.first_chunk::<32>().is_some_and(|b| b.is_ascii()) {
            let n = widen_ascii(rest, &mut dst[p.written..]);
            p.read += n;
            p.written += n;
            rest = &rest[n..];
        }
        let room = dst.len() - p.written;
        let cap = (room + 4).min(WINDOW);
        let piece = match rest.len() > cap {
            true => &rest[..unit_cut(rest, cap)],
            false => rest,
        };
        let q = convert(piece, &mut dst[p.written..]);
        p.read += q.read;
        p.written += q.written;
        p.replacements += q.replacements;
        if q.read < piece.len() || p.read == bytes.len() {
            return p;
        }
    }
}

/// [`utf8_to_utf16_lossy_into`] on one piece, its errors found by the error iterator.
#[inline]
fn convert(bytes: &[u8], dst: &mut [u16]) -> Utf16Progress {
    let mut p = Utf16Progress::default();
    for e in errors(bytes) {
        let run = &bytes[p.read..e.offset()];
        let (r, w) = transcode_valid(run, &mut dst[p.written..]);
        p.read += r;
        p.written += w;
        if r < run.len() {
            return p;
        }
        let Some(slot) = dst.get_mut(p.written) else {
            return p;
        };
        *slot = 0xFFFD;
        p.read += e.len();
        p.written += 1;
        p.replacements += 1;
    }
    let (r, w) = transcode_valid(&bytes[p.read..], &mut dst[p.written..]);
    p.read += r;
    p.written += w;
    p
}

/// Appends the UTF-16 of `bytes` to `out`, one U+FFFD per maximal subpart, and returns the
/// number of subparts replaced (a U+FFFD that was in the input is not counted).
///
/// The units are exactly those of `String::from_utf8_lossy(bytes).encode_utf16()` (and of
/// encoding_rs's UTF-8 decoder into UTF-16), without the intermediate `String`. Valid runs
/// are found at the validation kernel's speed and converted with AVX2 or AVX-512 VBMI2 where
/// the CPU has it.
///
/// Needs the `alloc` feature; [`utf8_to_utf16_lossy_into`] is the allocation-free form.
///
/// ```
/// let mut out = Vec::new();
/// let replaced = utf8_codec::utf8_to_utf16_lossy(b"caf\xC3\xA9 \xED\xA0\x80 \xEF\xBF\xBD", &mut out);
/// assert_eq!(replaced, 3); // ED A0 80 is three maximal subparts; the U+FFFD was in the input
/// assert_eq!(String::from_utf16(&out)?, "café \u{FFFD}\u{FFFD}\u{FFFD} \u{FFFD}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn utf8_to_utf16_lossy(bytes: &[u8], out: &mut alloc::vec::Vec<u16>) -> usize {
    // A window of input at a time, cut before a unit start: its errors found, then its
    // valid runs transcoded while the window is in the cache, the vector transcoder writing
    // straight into the spare capacity (only the last bytes of a run, under 80, go through
    // a scratch buffer to the portable loop). A window that starts with ASCII has its
    // ASCII prefix (all of it, often) widened first, in one pass with the ASCII test.
    const WINDOW: usize = 4096;
    out.reserve(bytes.len());
    let (mut rest, mut replaced, mut scratch) = (bytes, 0, [0; 80]);
    while !rest.is_empty() {
        if rest.len() < 32 || rest.first_chunk::<32>().is_some_and(|b| b.is_ascii()) {
            rest = &rest[extend_ascii(rest, out)..];
        }
        let piece = match rest.len() > WINDOW {
            true => &rest[..unit_cut(rest, WINDOW)],
            false => rest,
        };
        rest = &rest[piece.len()..];
        let mut at = 0;
        for e in errors(piece) {
            extend_valid(&piece[at..e.offset()], out, &mut scratch);
            out.push(0xFFFD);
            replaced += 1;
            at = e.offset() + e.len();
        }
        extend_valid(&piece[at..], out, &mut scratch);
    }
    replaced
}

/// Appends the UTF-16 of `run`, which the validator found well-formed; the last bytes
/// (under 80: all of a short run) are converted into `scratch` and copied from there, a long
/// run without the vector transcoder into zero-filled room.
#[cfg(feature = "alloc")]
#[inline]
fn extend_valid(run: &[u8], out: &mut alloc::vec::Vec<u16>, scratch: &mut [u16; 80]) {
    if run.is_empty() {
        return;
    }
    let tail = &run[extend_valid_prefix(run, out)..];
    let read = if tail.len() < scratch.len() {
        let (read, written) = transcode_valid(tail, scratch);
        out.extend_from_slice(&scratch[..written]);
        read
    } else {
        let w = out.len();
        out.resize(w + tail.len(), 0);
        let (read, written) = transcode_valid(tail, &mut out[w..]);
        out.truncate(w + written);
        read
    };
    debug_assert_eq!(read, tail.len(), "as many units as bytes always suffice");
}

/// The number of UTF-16 code units [`utf8_to_utf16_lossy_into`] writes for `bytes`: one per
/// scalar value below U+10000 and per maximal subpart, two per scalar value above.
///
/// Needs no feature (`core` only).
///
/// ```
/// assert_eq!(utf8_codec::utf16_len_lossy("a😀é".as_bytes()), 4);
/// assert_eq!(utf8_codec::utf16_len_lossy(b"\xED\xA0\x80"), 3);
/// ```
#[must_use = "the length is the only result"]
pub fn utf16_len_lossy(bytes: &[u8]) -> usize {
    let c = count(bytes);
    (c.chars + c.by_length[3] + c.errors) as usize
}
