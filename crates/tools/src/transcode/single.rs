//! ISO-8859-1 and US-ASCII as iconv reads them ([`Single`]: byte N is U+00NN, or bytes over
//! 0x7F are errors), behind encoding_rs's decoder interface, and the decoder of any
//! [`Charset`] ([`AnyDecoder`]).

use encoding_rs::{Decoder, DecoderResult};

use crate::labels::Charset;

/// A decoder of ISO-8859-1 (every byte a character) or US-ASCII (bytes over 0x7F each one
/// malformed sequence). It holds nothing between calls.
#[derive(Clone, Copy, Debug)]
pub(super) struct Single {
    ascii: bool,
}

impl Single {
    /// Decodes `src` into `dst` as encoding_rs's `decode_to_utf8_without_replacement`
    /// does: what stopped it, bytes read, bytes written. A malformed sequence (US-ASCII's
    /// byte over 0x7F) is `Malformed(1, 0)`, read with it.
    pub(super) fn decode(self, src: &[u8], dst: &mut [u8]) -> (DecoderResult, usize, usize) {
        let (mut i, mut w) = (0, 0);
        while i < src.len() {
            let run = src[i..]
                .iter()
                .position(|&b| b >= 0x80)
                .unwrap_or(src.len() - i);
            let n = run.min(dst.len() - w);
            dst[w..w + n].copy_from_slice(&src[i..i + n]);
            (i, w) = (i + n, w + n);
            if n < run {
                return (DecoderResult::OutputFull, i, w);
            }
            let Some(&b) = src.get(i) else { break };
            if self.ascii {
                return (DecoderResult::Malformed(1, 0), i + 1, w);
            }
            if dst.len() - w < 2 {
                return (DecoderResult::OutputFull, i, w);
            }
            dst[w] = 0xC0 | (b >> 6);
            dst[w + 1] = 0x80 | (b & 0x3F);
            (i, w) = (i + 1, w + 2);
        }
        (DecoderResult::InputEmpty, i, w)
    }
}

/// The decoder of a [`Charset`]: encoding_rs's, or [`Single`].
pub(super) enum AnyDecoder {
    Rs(Decoder),
    Single(Single),
}

impl AnyDecoder {
    /// A decoder of `charset`, with no byte order mark handling.
    pub(super) fn new(charset: Charset) -> AnyDecoder {
        match charset {
            Charset::Whatwg(e) => AnyDecoder::Rs(e.new_decoder_without_bom_handling()),
            Charset::Latin1 => AnyDecoder::Single(Single { ascii: false }),
            Charset::Ascii => AnyDecoder::Single(Single { ascii: true }),
        }
    }

    /// As encoding_rs's `decode_to_utf8_without_replacement`.
    pub(super) fn decode(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
    ) -> (DecoderResult, usize, usize) {
        match self {
            AnyDecoder::Rs(d) => d.decode_to_utf8_without_replacement(src, dst, last),
            AnyDecoder::Single(s) => s.decode(src, dst),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes `src` through `dst`s of `room` bytes, as the readers call it: the text and
    /// the offsets of the malformed sequences.
    fn all(charset: Charset, src: &[u8], room: usize) -> (Vec<u8>, Vec<usize>) {
        let mut d = AnyDecoder::new(charset);
        let (mut out, mut bad, mut i) = (Vec::new(), Vec::new(), 0);
        let mut buf = vec![0; room];
        loop {
            let (res, read, written) = d.decode(&src[i..], &mut buf, true);
            out.extend_from_slice(&buf[..written]);
            i += read;
            match res {
                DecoderResult::InputEmpty => return (out, bad),
                DecoderResult::OutputFull => assert!(read + written > 0 || room < 2),
                DecoderResult::Malformed(1, 0) => {
                    bad.push(i - 1);
                    out.extend_from_slice("\u{FFFD}".as_bytes());
                }
                DecoderResult::Malformed(..) => panic!("{res:?}"),
            }
        }
    }

    #[test]
    fn latin1_maps_every_byte_to_its_code_point() {
        let bytes: Vec<u8> = (0..=255).collect();
        let want: String = bytes.iter().map(|&b| char::from(b)).collect();
        for room in [2, 3, 7, 64, 1024] {
            let (out, bad) = all(Charset::Latin1, &bytes, room);
            assert_eq!(String::from_utf8(out).unwrap(), want, "room {room}");
            assert!(bad.is_empty());
        }
    }

    #[test]
    fn ascii_makes_each_high_byte_one_error() {
        let src = b"ab\x80c\xFF\xFEd";
        for room in [2, 3, 64] {
            let (out, bad) = all(Charset::Ascii, src, room);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                "ab\u{FFFD}c\u{FFFD}\u{FFFD}d",
                "room {room}"
            );
            assert_eq!(bad, [2, 4, 5]);
        }
    }
}
