//! Offsets in decoded text mapped back to the file's ([`OffsetMap`]).

use std::collections::VecDeque;

use encoding_rs::{DecoderResult, UTF_8};

use super::single::AnyDecoder;
use crate::labels::Charset;

/// Where decoded text came from in the file: the start of each line held (decoded offset,
/// file offset) and the file's bytes from the oldest of them on. An offset inside a line
/// is found by decoding the line again from its start, a byte at a time near the offset.
///
/// A line starts with no decoder state for every encoding but ISO-2022-JP, whose escape
/// state may run on across a newline (RFC 1468 text returns to ASCII before each line
/// end, so in practice it does not).
pub struct OffsetMap {
    encoding: Charset,
    /// Line starts, increasing; the first is at or before every offset still asked for.
    marks: VecDeque<(u64, u64)>,
    /// The file's bytes from `src_off` on.
    src: Vec<u8>,
    src_off: u64,
    /// A decoder part way through a line, all it read given out: (it, decoded offset, file
    /// offset).
    cursor: Option<(AnyDecoder, u64, u64)>,
}

impl std::fmt::Debug for OffsetMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OffsetMap")
            .field("encoding", &self.encoding.name())
            .field("marks", &self.marks.len())
            .field("src", &self.src.len())
            .finish_non_exhaustive()
    }
}

impl Default for OffsetMap {
    fn default() -> OffsetMap {
        OffsetMap::new(UTF_8.into(), 0)
    }
}

/// Gives out what a decoder holds after a malformed sequence (the bytes it read after
/// it): how many bytes of text that makes.
fn flush(dec: &mut AnyDecoder) -> u64 {
    let mut out = [0u8; 32];
    let (_, _, written) = dec.decode(&[], &mut out, false);
    written as u64
}

/// File bytes held for one line before the map moves a decoder along it and lets the
/// bytes before go (a line longer than this costs a second decoding, not memory).
pub(super) const HOLD: usize = 8 << 20;

impl OffsetMap {
    /// The file's next bytes, decoded.
    pub(super) fn bytes(&mut self, bytes: &[u8]) {
        self.src.extend_from_slice(bytes);
    }

    /// A line starts at `decoded` in the text, `file` in the file.
    pub(super) fn line_start(&mut self, decoded: u64, file: u64) {
        self.marks.push_back((decoded, file));
    }

    /// How many of the file's bytes are held.
    #[cfg(test)]
    pub(super) fn held(&self) -> usize {
        self.src.len()
    }

    /// A map of text decoded from `encoding` whose first byte is at file offset `start`.
    pub(super) fn new(encoding: Charset, start: u64) -> OffsetMap {
        OffsetMap {
            encoding,
            marks: VecDeque::from([(0, start)]),
            src: Vec::new(),
            src_off: start,
            cursor: None,
        }
    }

    /// The file offset of the character at `decoded`: an offset in the decoded text at a
    /// character boundary, not before the last [`OffsetMap::forget_before`] and not before
    /// the last offset asked for on the same line.
    pub fn file(&mut self, decoded: u64) -> u64 {
        let k = self.marks.partition_point(|&(d, _)| d <= decoded).max(1) - 1;
        let (md, mf) = self.marks[k];
        if (md == decoded && mf >= self.src_off) || md > decoded {
            // (Before every line held only when asked out of order.)
            return mf;
        }
        let (mut dec, mut d, mut f) = match self.cursor.take() {
            Some(c) if c.1 <= decoded && (c.1 >= md || mf < self.src_off) => c,
            // (Only when asked out of order: the line's bytes are gone.)
            _ if mf < self.src_off => return mf,
            _ => (AnyDecoder::new(self.encoding), md, mf),
        };
        let mut scratch = [0u8; 4096];
        // In bulk while far from it, leaving room for a U+FFFD and a character.
        while decoded - d > 32 {
            let i = (f - self.src_off) as usize;
            let room = usize::try_from(decoded - d - 16).map_or(4096, |r| r.min(4096));
            let end = self.src.len().min(i + room);
            let (res, read, written) = dec.decode(&self.src[i..end], &mut scratch[..room], false);
            f += read as u64;
            d += written as u64;
            if let DecoderResult::Malformed(..) = res {
                d += 3 + flush(&mut dec);
            } else if read == 0 {
                break;
            }
        }
        // A byte at a time: the character at `decoded` starts where the output reached it;
        // when one byte gave more than one character, at that byte.
        let mut at = f;
        while d < decoded {
            let i = (f - self.src_off) as usize;
            if i >= self.src.len() {
                break;
            }
            let (res, read, written) = dec.decode(&self.src[i..=i], &mut scratch, false);
            f += read as u64;
            d += written as u64;
            at = if d > decoded { f - read as u64 } else { f };
            if let DecoderResult::Malformed(_, extra) = res {
                // The bytes read after the malformed sequence are the next character(s),
                // given out now.
                d += 3;
                let next = f - u64::from(extra);
                let after_fffd = d;
                d += flush(&mut dec);
                at = if decoded == after_fffd || d > decoded {
                    next
                } else {
                    f
                };
            }
        }
        self.cursor = Some((dec, d, f));
        at
    }

    /// Offsets before `decoded` will not be asked for again: the bytes only they needed
    /// are let go. A line longer than `HOLD` bytes is decoded up to `decoded` now, and
    /// only its bytes from there on are kept.
    pub fn forget_before(&mut self, decoded: u64) {
        let k = self.marks.partition_point(|&(d, _)| d <= decoded).max(1) - 1;
        self.marks.drain(..k);
        let (md, mf) = self.marks[0];
        let held = (self.src_off + self.src.len() as u64).saturating_sub(mf);
        if held > HOLD as u64 && md < decoded && mf >= self.src_off {
            self.file(decoded);
        }
        let mut keep = mf;
        if let Some(c) = &self.cursor
            && c.1 <= decoded
            && (c.1 >= md || mf < self.src_off)
        {
            // Offsets from `decoded` on are found from the cursor (or a later line).
            keep = c.2;
        }
        let cut = keep.saturating_sub(self.src_off) as usize;
        if cut > 0 && cut >= self.src.len() / 2 {
            self.src.drain(..cut);
            self.src_off = keep;
        }
    }
}
