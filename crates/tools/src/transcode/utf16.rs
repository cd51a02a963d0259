//! UTF-16 (bytes in either order) decoded to UTF-8 as the WHATWG Encoding Standard decodes
//! it, and as encoding_rs does: each unpaired surrogate, and a byte left over at the end
//! (with a lead surrogate before it or not), is one malformed sequence. ASCII is taken
//! four units at a time; text outside ASCII goes to encoding_rs's decoder in runs it ends
//! holding nothing (not on a lead surrogate); surrogates it finds unpaired, and the units
//! cut by the ends of reads, are decoded here one at a time. On mostly-ASCII text that is
//! faster than encoding_rs alone, elsewhere the same.

use encoding_rs::DecoderResult;

/// A UTF-16 decoder's state between calls.
pub(super) struct Utf16 {
    /// Big-endian bytes.
    be: bool,
    /// The first byte of a unit whose second is still to come.
    odd: Option<u8>,
    /// A lead surrogate waiting for its trail.
    lead: Option<u16>,
    /// A unit read after a lead surrogate it did not complete: decoded next.
    pending: Option<u16>,
    /// encoding_rs's decoder, for the runs of text outside ASCII (where it is faster than
    /// a loop over units): it holds nothing between them.
    rs: encoding_rs::Decoder,
}

impl Utf16 {
    /// A decoder of big-endian (`be`) or little-endian bytes.
    pub fn new(be: bool) -> Utf16 {
        let enc = if be {
            encoding_rs::UTF_16BE
        } else {
            encoding_rs::UTF_16LE
        };
        Utf16 {
            be,
            odd: None,
            lead: None,
            pending: None,
            rs: enc.new_decoder_without_bom_handling(),
        }
    }

    fn unit(&self, a: u8, b: u8) -> u16 {
        if self.be {
            u16::from_be_bytes([a, b])
        } else {
            u16::from_le_bytes([a, b])
        }
    }

    /// Decodes `src` into `dst` as encoding_rs's `decode_to_utf8_without_replacement`
    /// does (`last`: `src` ends the input): what stopped it, bytes read, bytes written.
    /// A malformed sequence is `Malformed(length, bytes read after it)`.
    pub fn decode(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
    ) -> (DecoderResult, usize, usize) {
        let (mut i, mut w) = (0, 0);
        loop {
            if self.odd.is_none() && self.lead.is_none() && self.pending.is_none() {
                (i, w) = self.run(src, i, dst, w);
            }
            if dst.len() - w < 4 {
                return (DecoderResult::OutputFull, i, w);
            }
            let u = if let Some(u) = self.pending.take() {
                u
            } else if let Some(a) = self.odd {
                let Some(&b) = src.get(i) else { break };
                self.odd = None;
                i += 1;
                self.unit(a, b)
            } else if i + 2 <= src.len() {
                i += 2;
                self.unit(src[i - 2], src[i - 1])
            } else {
                if i < src.len() {
                    self.odd = Some(src[i]);
                    i += 1;
                }
                break;
            };
            if let Err(m) = self.one(u, dst, &mut w) {
                return (m, i, w);
            }
        }
        if last && (self.odd.is_some() || self.lead.is_some()) {
            let bad =
                u8::from(self.odd.take().is_some()) + 2 * u8::from(self.lead.take().is_some());
            return (DecoderResult::Malformed(bad, 0), i, w);
        }
        (DecoderResult::InputEmpty, i, w)
    }

    /// One unit, the slow way (`dst` has room for four bytes).
    fn one(&mut self, u: u16, dst: &mut [u8], w: &mut usize) -> Result<(), DecoderResult> {
        let surrogate = |u: u16, base: u16| (base..base + 0x400).contains(&u);
        match self.lead.take() {
            Some(l) if surrogate(u, 0xDC00) => {
                let c = 0x10000 + ((u32::from(l) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                *w += encode(c, &mut dst[*w..]);
            }
            Some(_) => {
                self.pending = Some(u);
                return Err(DecoderResult::Malformed(2, 2));
            }
            None if surrogate(u, 0xD800) => self.lead = Some(u),
            None if surrogate(u, 0xDC00) => return Err(DecoderResult::Malformed(2, 0)),
            None => *w += encode(u32::from(u), &mut dst[*w..]),
        }
        Ok(())
    }

    /// The fast loop from `src[i]` and `dst[w]`, nothing held: up to a lead surrogate it
    /// cannot hand to encoding_rs, a malformed sequence, the end of `src`, or eight bytes
    /// from the end of `dst`.
    fn run(&mut self, src: &[u8], mut i: usize, dst: &mut [u8], mut w: usize) -> (usize, usize) {
        // The bits that are 0 in four ASCII units, loaded as a little-endian u64.
        let (ascii, low) = if self.be {
            (0x80FF_80FF_80FF_80FF_u64, 1)
        } else {
            (0xFF80_FF80_FF80_FF80_u64, 0)
        };
        while i + 2 <= src.len() && dst.len() - w >= 8 {
            if let Some(q) = src.get(i..i + 8) {
                let x = u64::from_le_bytes(q.try_into().unwrap_or([0xFF; 8]));
                if x & ascii == 0 {
                    dst[w..w + 4].copy_from_slice(&[q[low], q[2 + low], q[4 + low], q[6 + low]]);
                    (i, w) = (i + 8, w + 4);
                    continue;
                }
            }
            // Text outside ASCII: up to 512 units by encoding_rs, with four bytes of room
            // for each unit, not ending on a lead surrogate: it ends holding nothing, or
            // stops at a malformed sequence, which is left to `one` (rs is reset).
            let mut end = i + ((512 * 2).min((dst.len() - w) / 4 * 2).min(src.len() - i) & !1);
            while end >= i + 2 && (0xD800..0xDC00).contains(&self.unit(src[end - 2], src[end - 1]))
            {
                end -= 2;
            }
            if end == i {
                // A lead surrogate: `one` pairs it or reports it.
                break;
            }
            let (r, read, written) =
                self.rs
                    .decode_to_utf8_without_replacement(&src[i..end], &mut dst[w..], false);
            w += written;
            if let DecoderResult::Malformed(bad, extra) = r {
                i += read - usize::from(bad) - usize::from(extra);
                self.rs = self.rs.encoding().new_decoder_without_bom_handling();
                break;
            }
            i += read;
        }
        (i, w)
    }
}

/// Writes the UTF-8 of scalar value `c` (not a surrogate) at the start of `out`: its
/// length.
fn encode(c: u32, out: &mut [u8]) -> usize {
    char::from_u32(c)
        .unwrap_or(char::REPLACEMENT_CHARACTER)
        .encode_utf8(out)
        .len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};
    use utf8_testkit::Rng;

    /// Decodes `bytes` split at `cuts` with either decoder, into `out` of `room` bytes at a
    /// time; the text (U+FFFD for each malformed sequence) and each malformed sequence's
    /// start.
    fn run(
        bytes: &[u8],
        cuts: &[usize],
        room: usize,
        mut step: impl FnMut(&[u8], &mut [u8], bool) -> (DecoderResult, usize, usize),
    ) -> (String, Vec<usize>) {
        let mut text = Vec::new();
        let mut bad = Vec::new();
        let mut out = vec![0u8; room];
        let mut start = 0;
        for (k, &end) in cuts.iter().chain([&bytes.len()]).enumerate() {
            let last = k == cuts.len();
            let mut p = start;
            loop {
                let (r, read, written) = step(&bytes[p..end], &mut out, last);
                p += read;
                text.extend_from_slice(&out[..written]);
                match r {
                    DecoderResult::InputEmpty => break,
                    DecoderResult::OutputFull => {}
                    DecoderResult::Malformed(b, x) => {
                        text.extend_from_slice("\u{FFFD}".as_bytes());
                        bad.push(p - usize::from(x) - usize::from(b));
                    }
                }
            }
            start = end;
        }
        (String::from_utf8(text).unwrap(), bad)
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
