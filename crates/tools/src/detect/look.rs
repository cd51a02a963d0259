//! What the first bytes of an input say it is before it is read as text: a byte order
//! mark, or the NUL bytes that UTF-16 and binary files hold and text does not.

use std::io::{self, Read};

use encoding_rs::Encoding;

/// How many first bytes of an input [`look`] looks at: the first block.
pub const LOOK_LEN: usize = 32 * 1024;

/// What the first bytes of an input say it is, before it is read as text: a byte order
/// mark, or the NUL bytes that UTF-16 and binary files hold and text never does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// A byte order mark of UTF-8, UTF-16LE or UTF-16BE.
    Bom(&'static Encoding),
    /// A UTF-32 byte order mark (`FF FE 00 00` little-endian, `00 00 FE FF` big-endian),
    /// named: encoding_rs, and so no tool here, decodes UTF-32.
    Utf32Bom(&'static str),
    /// No byte order mark, and NUL bytes in most odd positions (UTF-16LE: the high byte of
    /// an ASCII character comes second) or most even positions (UTF-16BE), and in at most
    /// a quarter of the others.
    Utf16(&'static Encoding),
    /// A NUL byte otherwise: a binary file, by grep's rule.
    Binary,
    /// None of those.
    Text,
}

/// What an input that begins with `prefix` looks like ([`Look`]), from its first
/// [`LOOK_LEN`] bytes. A prefix of fewer than 4 bytes is taken as the whole input.
///
/// ```
/// use utf8_tools::detect::{look, Look};
/// assert_eq!(look(b"\xFF\xFEh\0i\0"), Look::Bom(encoding_rs::UTF_16LE));
/// assert_eq!(look(b"\xFF\xFE\0\0h\0\0\0"), Look::Utf32Bom("UTF-32LE"));
/// assert_eq!(look(b"h\0i\0\n\0"), Look::Utf16(encoding_rs::UTF_16LE));
/// assert_eq!(look(b"\0h\0i"), Look::Utf16(encoding_rs::UTF_16BE));
/// assert_eq!(look(b"\x7FELF\x02\x01\x01\0\0\0\0\0"), Look::Binary);
/// assert_eq!(look("café\n".as_bytes()), Look::Text);
/// ```
pub fn look(prefix: &[u8]) -> Look {
    let block = &prefix[..prefix.len().min(LOOK_LEN)];
    match block {
        [0xFF, 0xFE, 0, 0, ..] => return Look::Utf32Bom("UTF-32LE"),
        [0, 0, 0xFE, 0xFF, ..] => return Look::Utf32Bom("UTF-32BE"),
        _ => {}
    }
    if let Some((enc, _)) = Encoding::for_bom(block) {
        return Look::Bom(enc);
    }
    if memchr::memchr(0, block).is_none() {
        return Look::Text;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for pair in block.chunks(2) {
        even += usize::from(pair[0] == 0);
        odd += usize::from(pair.get(1) == Some(&0));
    }
    // Positions of each parity: even ones are one more when the length is odd.
    let odd_places = block.len() / 2;
    let even_places = block.len() - odd_places;
    // Most of one parity, and few of the other: UTF-32 without a byte order mark has NUL
    // in every odd place and in half the even ones.
    let most = |nuls: usize, places: usize| places > 0 && 2 * nuls > places;
    let few = |nuls: usize, places: usize| 4 * nuls <= places;
    if most(odd, odd_places) && few(even, even_places) {
        Look::Utf16(encoding_rs::UTF_16LE)
    } else if most(even, even_places) && few(odd, odd_places) && block.len() >= 2 {
        Look::Utf16(encoding_rs::UTF_16BE)
    } else {
        Look::Binary
    }
}

/// Reads the first bytes of a stream for [`look`]: what one read gives (at most
/// [`LOOK_LEN`] bytes), and more reads only until there are 4 (a byte order mark's longest)
/// or the stream ends, so that a line typed into a pipe is not held back. The bytes, and
/// whether the stream ended.
pub fn read_first(reader: &mut impl Read) -> io::Result<(Vec<u8>, bool)> {
    let mut first = vec![0u8; LOOK_LEN];
    let mut len = 0;
    let mut ended = false;
    while len < 4 && !ended {
        match reader.read(&mut first[len..]) {
            Ok(0) => ended = true,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    first.truncate(len);
    Ok((first, ended))
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{UTF_8, UTF_16BE, UTF_16LE};

    fn utf16(s: &str, le: bool) -> Vec<u8> {
        let to = |u: u16| if le { u.to_le_bytes() } else { u.to_be_bytes() };
        s.encode_utf16().flat_map(to).collect()
    }

    #[test]
    fn boms_and_nul_patterns() {
        assert_eq!(look(b"\xEF\xBB\xBFabc"), Look::Bom(UTF_8));
        assert_eq!(look(b"\xFE\xFF\0h"), Look::Bom(UTF_16BE));
        assert_eq!(look(b"\0\0\xFE\xFF\0\0\0h"), Look::Utf32Bom("UTF-32BE"));
        let text = "Grüße, 日本語 and plain ASCII words\r\n";
        assert_eq!(look(&utf16(text, true)), Look::Utf16(UTF_16LE));
        assert_eq!(look(&utf16(text, false)), Look::Utf16(UTF_16BE));
        // Cut to an odd length, and a single character.
        let le = utf16(text, true);
        assert_eq!(look(&le[..le.len() - 1]), Look::Utf16(UTF_16LE));
        assert_eq!(look(b"a\0"), Look::Utf16(UTF_16LE));
        // NUL everywhere, a lone NUL, a NUL in text: binary.
        assert_eq!(look(&[0; 64]), Look::Binary);
        assert_eq!(look(b"\0"), Look::Binary);
        assert_eq!(look(b"key=value\0next=line\n"), Look::Binary);
        // UTF-32 without a byte order mark: NUL in every odd place and half the even ones.
        let u32le: Vec<u8> = "abc"
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        assert_eq!(look(&u32le), Look::Binary);
        // CJK-only UTF-16 has no NUL: not recognized (it is read as UTF-8 with errors).
        assert_eq!(look(&utf16("日本語のテキスト", true)), Look::Text);
        assert_eq!(look(b""), Look::Text);
    }

    #[test]
    fn only_the_first_block_counts() {
        let mut bytes = vec![b'a'; LOOK_LEN];
        bytes.push(0);
        assert_eq!(look(&bytes), Look::Text);
        bytes[LOOK_LEN - 1] = 0;
        assert_eq!(look(&bytes), Look::Binary);
    }

    #[test]
    fn first_reads_stop_at_four_bytes() {
        /// Gives its bytes one at a time.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(out.len()).min(1);
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let (first, ended) = read_first(&mut Trickle(b"abcdefgh")).unwrap();
        assert_eq!((first.as_slice(), ended), (&b"abcd"[..], false));
        let (first, ended) = read_first(&mut Trickle(b"ab")).unwrap();
        assert_eq!((first.as_slice(), ended), (&b"ab"[..], true));
        let (first, ended) = read_first(&mut &b"0123456789"[..]).unwrap();
        assert_eq!((first.len(), ended), (10, false));
    }
}
