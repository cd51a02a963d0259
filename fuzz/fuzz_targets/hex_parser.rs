//! utf8-count's `--hex` parser (`utf8_tools::count::HexReader`) under any text and any read
//! sizes, against a naive whole-text parser.
// libfuzzer: -max_len=512
#![no_main]
#![forbid(unsafe_code)]

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use utf8_tools::count::HexReader;

/// A reader that hands out its bytes in the given chunk sizes.
struct Chunky<'a> {
    data: &'a [u8],
    lens: Vec<usize>,
    k: usize,
}

impl Read for Chunky<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let want = self.lens.get(self.k).copied().unwrap_or(usize::MAX);
        self.k += 1;
        let n = want.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Tokens separated by ASCII whitespace; each an even number (>= 2) of hex digits, with an
/// optional `0x`/`0X` prefix.
fn naive(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for tok in text
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
    {
        let digits = match tok {
            [b'0', b'x' | b'X', rest @ ..] => rest,
            _ => tok,
        };
        if digits.is_empty() || digits.len() % 2 != 0 {
            return None;
        }
        for pair in digits.chunks(2) {
            let s = std::str::from_utf8(pair).ok()?;
            if !pair.iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            out.push(u8::from_str_radix(s, 16).ok()?);
        }
    }
    Some(out)
}

fuzz_target!(|data: &[u8]| {
    let (ctl, text) = utf8_fuzz::split_control::<4>(data);
    let lens = utf8_fuzz::chunk_lens(&ctl, text.len(), usize::from(ctl[0] % 9) + 1);
    let mut got = Vec::new();
    let res = HexReader::new(Chunky {
        data: text,
        lens,
        k: 0,
    })
    .read_to_end(&mut got);
    match (res, naive(text)) {
        (Ok(_), Some(want)) => assert_eq!(got, want),
        (Err(e), None) => {
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
            assert!(e.to_string().starts_with("line "), "{e}");
        }
        (r, want) => panic!("HexReader {r:?} vs naive {want:?}"),
    }
});
