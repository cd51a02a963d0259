//! The `io` adapters count every error of the stream, the one cut short by the end included,
//! whatever the split of the input into writes or reads.
#![cfg(feature = "std")]

use std::io::{Read, Write};
use utf8_codec::io::{RepairReader, RepairWriter};

/// Five errors, the last an incomplete sequence cut by the end of the input.
const INPUT: &[u8] = b"a\xFFb\xC0c\x80d\xE2\x82e\xF0\x9F\x98";

/// The pieces of `bytes` cut at the offsets whose bit is set in `mask` (bit i: a cut after
/// byte i + 1).
fn pieces(bytes: &[u8], mask: u32) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..bytes.len() {
        if mask & (1 << (i - 1)) != 0 {
            out.push(&bytes[start..i]);
            start = i;
        }
    }
    out.push(&bytes[start..]);
    out
}

/// A reader that returns the given pieces, one per read.
struct Pieces<'a>(std::vec::IntoIter<&'a [u8]>);

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self.0.next() {
            Some(p) => {
                buf[..p.len()].copy_from_slice(p);
                Ok(p.len())
            }
            None => Ok(0),
        }
    }
}

#[test]
fn five_errors_the_last_cut_by_the_end_count_five_under_every_split() {
    let lossy = String::from_utf8_lossy(INPUT);
    assert_eq!(lossy.matches('\u{FFFD}').count(), 5);
    assert_eq!(utf8_codec::errors(INPUT).count(), 5);
    for mask in 0..1u32 << (INPUT.len() - 1) {
        let mut w = RepairWriter::new(Vec::new(), Default::default());
        for piece in pieces(INPUT, mask) {
            w.write_all(piece).unwrap();
        }
        assert_eq!(w.errors(), 4, "before the end, mask {mask:b}");
        let done = w.finish().unwrap();
        assert_eq!(done.errors, 5, "writer, mask {mask:b}");
        assert_eq!(done.inner, lossy.as_bytes(), "writer, mask {mask:b}");

        let mut r = RepairReader::new(Pieces(pieces(INPUT, mask).into_iter()), Default::default());
        let mut out = String::new();
        r.read_to_string(&mut out).unwrap();
        assert_eq!(r.errors(), 5, "reader, mask {mask:b}");
        assert_eq!(out, lossy, "reader, mask {mask:b}");
    }
}

#[test]
fn the_reader_count_is_final_whatever_the_size_of_the_reads() {
    for size in 1..=INPUT.len() + 1 {
        let mut r = RepairReader::new(INPUT, Default::default());
        let mut buf = vec![0; size];
        let mut out = Vec::new();
        loop {
            let n = r.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        assert_eq!(r.errors(), 5, "reads of {size}");
        assert_eq!(
            out,
            String::from_utf8_lossy(INPUT).as_bytes(),
            "reads of {size}"
        );
    }
}
