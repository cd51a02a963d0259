//! Oracles shared by the codec's integration tests: std's `utf8_chunks` for the segmentation,
//! the kind rule written out from DESIGN.md's table, and naive implementations of every
//! practice, action and count.
#![allow(dead_code)]

use utf8_codec::ErrorKind;

/// A decoded unit in a comparable shape: a scalar with its offset, or (offset, len, kind).
pub type Unit = Result<(usize, char), (usize, usize, ErrorKind)>;
/// A stream error in a comparable shape: (offset, len, kind, bytes).
pub type StreamErr = (u64, usize, ErrorKind, Vec<u8>);
/// A naive repair: input and substitute function to output.
pub type Naive = fn(&[u8], &dyn Fn(&[u8]) -> String) -> String;

/// Every maximal subpart as (offset, len), from std's `utf8_chunks`.
pub fn std_subparts(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut pos = 0;
    for chunk in bytes.utf8_chunks() {
        pos += chunk.valid().len();
        let n = chunk.invalid().len();
        if n > 0 {
            out.push((pos, n));
            pos += n;
        }
    }
    out
}

/// The kind of the subpart at `offset..offset+len`, from DESIGN.md's table, spelled out
/// independently of the codec's `classify`.
pub fn oracle_kind(bytes: &[u8], offset: usize, len: usize) -> ErrorKind {
    let b0 = bytes[offset];
    let b1 = bytes.get(offset + 1).copied();
    let in_range = |b: Option<u8>, lo: u8, hi: u8| b.is_some_and(|b| (lo..=hi).contains(&b));
    if (0x80..=0xBF).contains(&b0) {
        ErrorKind::UnexpectedContinuation
    } else if b0 == 0xC0 || b0 == 0xC1 {
        ErrorKind::Overlong
    } else if (0xF5..=0xFD).contains(&b0) {
        ErrorKind::OutOfRange
    } else if b0 >= 0xFE {
        ErrorKind::InvalidByte
    } else if (b0 == 0xE0 && in_range(b1, 0x80, 0x9F)) || (b0 == 0xF0 && in_range(b1, 0x80, 0x8F)) {
        ErrorKind::Overlong
    } else if b0 == 0xED && in_range(b1, 0xA0, 0xBF) {
        ErrorKind::Surrogate
    } else if b0 == 0xF4 && in_range(b1, 0x90, 0xBF) {
        ErrorKind::OutOfRange
    } else if offset + len == bytes.len() {
        ErrorKind::UnexpectedEnd
    } else {
        ErrorKind::Truncated
    }
}

/// Every error as (offset, len, kind) by the oracles.
pub fn oracle_errors(bytes: &[u8]) -> Vec<(usize, usize, ErrorKind)> {
    std_subparts(bytes)
        .into_iter()
        .map(|(o, n)| (o, n, oracle_kind(bytes, o, n)))
        .collect()
}

/// Every error as (offset, len, kind) by the codec.
pub fn codec_errors(bytes: &[u8]) -> Vec<(usize, usize, ErrorKind)> {
    utf8_codec::errors(bytes)
        .map(|e| (e.offset(), e.len(), e.kind()))
        .collect()
}

/// What `utf8_codec::decode` should yield, built from std's chunks and the kind oracle.
pub fn oracle_units(bytes: &[u8]) -> Vec<Unit> {
    let mut out = Vec::new();
    let mut pos = 0;
    for chunk in bytes.utf8_chunks() {
        for (i, c) in chunk.valid().char_indices() {
            out.push(Ok((pos + i, c)));
        }
        pos += chunk.valid().len();
        let n = chunk.invalid().len();
        if n > 0 {
            out.push(Err((pos, n, oracle_kind(bytes, pos, n))));
            pos += n;
        }
    }
    out
}

/// The codec's decode, in the oracle's shape.
pub fn codec_units<I>(it: I) -> Vec<Unit>
where
    I: Iterator<Item = utf8_codec::Decoded>,
{
    it.map(|d| d.map_err(|e| (e.offset(), e.len(), e.kind())))
        .collect()
}

/// Naive per-byte repair: one substitute per byte of each subpart.
pub fn naive_per_byte(bytes: &[u8], sub: impl Fn(&[u8]) -> String) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&sub(std::slice::from_ref(b)));
        }
    }
    out
}

/// Naive per-sequence repair, written from DESIGN.md's definition on the raw bytes: at an
/// ill-formed position, a lead C0..FD announcing n bytes takes up to n-1 following 80..BF
/// bytes; anything else is one byte.
pub fn naive_per_sequence(bytes: &[u8], sub: impl Fn(&[u8]) -> String) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let valid = match std::str::from_utf8(rest) {
            Ok(s) => s.len(),
            Err(e) => e.valid_up_to(),
        };
        out.push_str(std::str::from_utf8(&rest[..valid]).unwrap());
        i += valid;
        if i == bytes.len() {
            break;
        }
        let n = utf8_testkit::oracle::per_sequence_len(&bytes[i..]);
        out.push_str(&sub(&bytes[i..i + n]));
        i += n;
    }
    out
}

/// Python's backslashreplace for a run of bytes.
pub fn escape(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\x{b:02x}")).collect()
}

/// Naive maximal-subpart repair with any substitute.
pub fn naive_maximal(bytes: &[u8], sub: impl Fn(&[u8]) -> String) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            out.push_str(&sub(chunk.invalid()));
        }
    }
    out
}

/// Naive counts from std and the oracles.
pub fn naive_counts(bytes: &[u8]) -> utf8_codec::Counts {
    let mut c = utf8_codec::Counts {
        bytes: bytes.len() as u64,
        lines: bytes.iter().filter(|&&b| b == b'\n').count() as u64,
        ..Default::default()
    };
    for chunk in bytes.utf8_chunks() {
        for ch in chunk.valid().chars() {
            c.chars += 1;
            c.by_length[ch.len_utf8() - 1] += 1;
        }
    }
    for (_, _, kind) in oracle_errors(bytes) {
        c.errors += 1;
        c.by_kind[kind.index()] += 1;
    }
    c
}

/// Feeds `bytes` to a stream decoder cut at `cuts` (sorted offsets) and returns the repaired
/// text and the errors as (offset, len, kind, bytes).
pub fn stream_run(bytes: &[u8], cuts: &[usize]) -> (String, Vec<StreamErr>) {
    use utf8_codec::stream::{Decoder, Event};
    let mut dec = Decoder::new();
    let mut text = String::new();
    let mut errs = Vec::new();
    let mut push = |e: utf8_codec::stream::StreamError, text: &mut String| {
        text.push('\u{FFFD}');
        errs.push((e.offset(), e.len(), e.kind(), e.bytes().to_vec()));
    };
    let mut start = 0;
    for &end in cuts.iter().chain(std::iter::once(&bytes.len())) {
        for ev in dec.decode(&bytes[start..end]) {
            match ev {
                Event::Str(s) => text.push_str(s),
                Event::Char(c) => text.push(c),
                Event::Error(e) => push(e, &mut text),
            }
        }
        start = end;
    }
    if let Some(e) = dec.finish() {
        push(e, &mut text);
    }
    (text, errs)
}

/// The errors of the whole buffer in the stream's shape.
pub fn whole_errors(bytes: &[u8]) -> Vec<StreamErr> {
    utf8_codec::errors(bytes)
        .map(|e| {
            (
                e.offset() as u64,
                e.len(),
                e.kind(),
                bytes[e.range()].to_vec(),
            )
        })
        .collect()
}
