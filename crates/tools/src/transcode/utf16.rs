//! UTF-16 (bytes in either order) decoded to UTF-8 as the WHATWG Encoding Standard decodes
//! it, and as encoding_rs does: each unpaired surrogate, and a byte left over at the end
//! (with a lead surrogate before it or not), is one malformed sequence. The decoding is
//! utf8-codec's [`Utf16Decoder`] (vector kernels over runs of ASCII, of BMP characters and
//! of surrogate pairs); this module gives its results in encoding_rs's terms, which the
//! transcoder's other decoders speak.

use encoding_rs::DecoderResult;
use utf8_codec::{Utf16Decoder, Utf16Stop};

/// A UTF-16 decoder's state between calls.
pub(super) struct Utf16 {
    /// The codec's decoder: an odd byte and a lead surrogate are held there.
    dec: Utf16Decoder,
}

impl Utf16 {
    /// A decoder of big-endian (`be`) or little-endian bytes.
    pub fn new(be: bool) -> Utf16 {
        Utf16 {
            dec: Utf16Decoder::new(be),
        }
    }

    /// Decodes `src` into `dst` as encoding_rs's `decode_to_utf8_without_replacement`
    /// does (`last`: `src` ends the input): what stopped it, bytes read, bytes written.
    /// A malformed sequence is `Malformed(length, bytes read after it)`, those bytes counted
    /// back from the end of what has been read (they may have come in an earlier call).
    pub fn decode(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
    ) -> (DecoderResult, usize, usize) {
        let d = self.dec.decode(src, dst, last);
        let res = match d.stop {
            Utf16Stop::InputEmpty => DecoderResult::InputEmpty,
            Utf16Stop::OutputFull => DecoderResult::OutputFull,
            Utf16Stop::Malformed { offset, len } => {
                // At most the odd byte after a lead surrogate that its unit did not pair.
                let extra = self.dec.position() - offset - u64::from(len);
                DecoderResult::Malformed(len, extra as u8)
            }
        };
        (res, d.read, d.written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};
    use utf8_testkit::Rng;
    use utf8_testkit::pieces::{Stop, decode_in_pieces};

    /// Decodes `bytes` split at `cuts` with either decoder, into `out` of `room` bytes at a
    /// time; the text (U+FFFD for each malformed sequence) and each malformed sequence's
    /// start.
    fn run(
        bytes: &[u8],
        cuts: &[usize],
        room: usize,
        mut step: impl FnMut(&[u8], &mut [u8], bool) -> (DecoderResult, usize, usize),
    ) -> (String, Vec<u64>) {
        decode_in_pieces(bytes, cuts, room, |piece, at, out, last| {
            let (r, read, written) = step(piece, out, last);
            let stop = match r {
                DecoderResult::InputEmpty => Stop::InputEmpty,
                DecoderResult::OutputFull => Stop::OutputFull,
                DecoderResult::Malformed(b, x) => {
                    Stop::Malformed((at + read - usize::from(b) - usize::from(x)) as u64)
                }
            };
            (stop, read, written)
        })
    }

    #[test]
    fn decodes_as_encoding_rs_in_any_split() {
        let mut rng = Rng::new(16);
        let pick = [
            0x41u16, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x65E5, 0xFFFD, 0xFFFF, 0xD800, 0xDBFF,
            0xDC00, 0xDFFF, 0x0A,
        ];
        for case in 0..4000 {
            let n = rng.below(40) as usize;
            let mut units: Vec<u16> = Vec::new();
            for _ in 0..n {
                let u = if rng.below(3) == 0 {
                    pick[rng.below(pick.len() as u64) as usize]
                } else {
                    rng.below(0x10000) as u16
                };
                // Runs of ASCII, for the four-at-a-time path.
                if rng.below(4) == 0 {
                    units.extend(std::iter::repeat_n(b'a' as u16, rng.below(12) as usize));
                }
                units.push(u);
            }
            for (enc, be) in [(UTF_16LE, false), (UTF_16BE, true)] {
                let mut bytes: Vec<u8> = units
                    .iter()
                    .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
                    .collect();
                if case % 5 == 0 {
                    bytes.push(0x41);
                }
                let mut cuts: Vec<usize> = (0..rng.below(4))
                    .map(|_| rng.below(bytes.len() as u64 + 1) as usize)
                    .collect();
                cuts.sort_unstable();
                let room = [8, 9, 13, 64][case % 4];
                let ours = {
                    let mut d = Utf16::new(be);
                    run(&bytes, &cuts, room, |s, o, l| d.decode(s, o, l))
                };
                let theirs = {
                    let mut d = Encoding::new_decoder_without_bom_handling(enc);
                    run(&bytes, &cuts, room.max(16), |s, o, l| {
                        d.decode_to_utf8_without_replacement(s, o, l)
                    })
                };
                assert_eq!(ours.0, theirs.0, "{units:04X?} {be} {cuts:?}");
                assert_eq!(ours.1, theirs.1, "{units:04X?} {be} {cuts:?}");
                if bytes.len().is_multiple_of(2) {
                    let want = String::from_utf16_lossy(&units);
                    assert_eq!(ours.0, want);
                }
            }
        }
    }
}
