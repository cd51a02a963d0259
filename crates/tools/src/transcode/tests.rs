use super::*;
use encoding_rs::{
    BIG5, EUC_JP, EUC_KR, GBK, SHIFT_JIS, UTF_16BE, UTF_16LE, WINDOWS_1251, WINDOWS_1252,
};
use std::cell::RefCell;

/// One piece of a test file: a character, or bytes that are malformed in the encoding
/// (decoded as one U+FFFD each).
enum Piece {
    Text(&'static str),
    Bad(&'static [u8]),
}

/// The byte order mark a test file in `enc` begins with: UTF-16's (the caller skips it, as
/// the tools do), none in other encodings.
fn bom(enc: &'static Encoding) -> &'static [u8] {
    match enc {
        e if e == UTF_16LE => b"\xFF\xFE",
        e if e == UTF_16BE => b"\xFE\xFF",
        _ => b"",
    }
}

/// The file's bytes (after its [`bom`]), its decoded text, and each decoded character's
/// (decoded offset, file offset), built a piece at a time (the oracle).
fn build(enc: &'static Encoding, pieces: &[Piece]) -> (Vec<u8>, String, Vec<(u64, u64)>) {
    let mut file = bom(enc).to_vec();
    let mut text = String::new();
    let mut at = Vec::new();
    for p in pieces {
        match p {
            Piece::Text(s) => {
                for c in s.chars() {
                    at.push((text.len() as u64, file.len() as u64));
                    file.extend_from_slice(&encode(enc, c));
                    text.push(c);
                }
            }
            Piece::Bad(b) => {
                at.push((text.len() as u64, file.len() as u64));
                file.extend_from_slice(b);
                text.push('\u{FFFD}');
            }
        }
    }
    (file, text, at)
}

/// `c` in `enc` (encoding_rs encodes UTF-16 as UTF-8, as the WHATWG standard does).
fn encode(enc: &'static Encoding, c: char) -> Vec<u8> {
    let mut units = [0u16; 2];
    let units = c.encode_utf16(&mut units);
    if enc == UTF_16LE {
        return units.iter().flat_map(|u| u.to_le_bytes()).collect();
    }
    if enc == UTF_16BE {
        return units.iter().flat_map(|u| u.to_be_bytes()).collect();
    }
    let mut b = [0u8; 4];
    let (bytes, _, bad) = enc.encode(c.encode_utf8(&mut b));
    assert!(!bad, "{c} in {}", enc.name());
    bytes.into_owned()
}

fn cases() -> Vec<(&'static Encoding, Vec<Piece>)> {
    use Piece::{Bad, Text};
    vec![
        (WINDOWS_1252, vec![Text("café naïve\n« déjà »\n\nend")]),
        (WINDOWS_1251, vec![Text("Привет, мир\nфайл\n")]),
        (
            SHIFT_JIS,
            vec![
                Text("日本語のテキスト\nｶﾀｶﾅ abc\n"),
                Bad(b"\x81"),
                Text(" a\n終わり"),
            ],
        ),
        (
            EUC_JP,
            vec![Text("日本語\nかな\n"), Bad(b"\x8E"), Text("x\n")],
        ),
        (GBK, vec![Text("中文文本\n第二行 abc\n")]),
        (BIG5, vec![Text("中文\n繁體字\n")]),
        (EUC_KR, vec![Text("한국어\n텍스트\n")]),
        (
            UTF_16LE,
            vec![
                Text("wörld 😀\nline two\n"),
                Bad(b"\x00\xD8"),
                Text("x\n\n日本\n"),
            ],
        ),
        (UTF_16BE, vec![Text("wörld\n😀 two\nthree")]),
    ]
}

fn decode_all(t: &mut impl Read, size: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; size];
    loop {
        let n = t.read(&mut buf).unwrap();
        if n == 0 {
            return out;
        }
        out.extend_from_slice(&buf[..n]);
    }
}

/// A reader that gives at most `n` bytes a call (every split of the input).
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.len().min(self.1).min(buf.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn transcodes_as_encoding_rs_in_any_reads() {
    for (enc, pieces) in cases() {
        let (file, text, _) = build(enc, &pieces);
        let errors = pieces.iter().filter(|p| matches!(p, Piece::Bad(_))).count() as u64;
        let (std, _) = enc.decode_with_bom_removal(&file);
        assert_eq!(std, text, "{}", enc.name());
        for (trickle, size) in [
            (1, 1),
            (3, 7),
            (5, 16),
            (64 << 10, 17),
            (64 << 10, 64 << 10),
        ] {
            for mapped in [false, true] {
                let map = RefCell::new(OffsetMap::default());
                let mut t = Transcoder::new(
                    Trickle(&file, trickle),
                    enc.into(),
                    bom(enc).len() as u64,
                    mapped.then_some(&map),
                );
                let out = decode_all(&mut t, size);
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    text,
                    "{} {trickle} {size}",
                    enc.name()
                );
                assert_eq!(t.errors(), errors, "{}", enc.name());
                assert_eq!(t.bytes_read(), file.len() as u64);
            }
        }
    }
}

#[test]
fn offsets_map_back_to_the_file() {
    for (enc, pieces) in cases() {
        let (file, _, at) = build(enc, &pieces);
        for trickle in [1, 2, 5, 1 << 20] {
            let map = RefCell::new(OffsetMap::default());
            let mut t = Transcoder::new(
                Trickle(&file, trickle),
                enc.into(),
                bom(enc).len() as u64,
                Some(&map),
            );
            decode_all(&mut t, 4096);
            // In order, as the searcher asks; every third line forgotten before it.
            let mut m = map.borrow_mut();
            for (i, &(d, f)) in at.iter().enumerate() {
                if i % 3 == 0 {
                    m.forget_before(d);
                }
                assert_eq!(
                    m.file(d),
                    f,
                    "{} char {i} at {d}, reads of {trickle}",
                    enc.name()
                );
            }
        }
    }
}

#[test]
fn a_long_line_keeps_bounded_bytes_and_exact_offsets() {
    let line: String = "añb€".repeat(1 << 20) + "\n";
    let file = {
        let mut f = b"\xFF\xFE".to_vec();
        for u in line.encode_utf16() {
            f.extend_from_slice(&u.to_le_bytes());
        }
        f
    };
    let map = RefCell::new(OffsetMap::default());
    let mut t = Transcoder::new(&file[..], UTF_16LE.into(), 2, Some(&map));
    let mut buf = vec![0u8; 1 << 16];
    let mut decoded = 0u64;
    loop {
        let n = t.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        decoded += n as u64;
        // A searcher that keeps only the last read.
        let mut m = map.borrow_mut();
        let keep_from = decoded - n as u64;
        m.forget_before(keep_from);
        // Every `a` of the read is 4 UTF-16 units after the one before ("añb€": 7 bytes).
        let a = keep_from.div_ceil(7) * 7;
        if a < decoded {
            assert_eq!(m.file(a), 2 + a / 7 * 8);
        }
        assert!(m.held() < 3 * offsets::HOLD, "{}", m.held());
    }
}

#[test]
fn decisions() {
    let utf8 = |skip, evidence| Reading::Bytes {
        skip,
        guess: Some(Guess {
            encoding: UTF_8.into(),
            evidence,
        }),
    };
    assert_eq!(
        decide(FromArg::Bytes, b"\xFF\xFEa\0", true),
        (Reading::Bytes {
            skip: 0,
            guess: None
        })
    );
    assert_eq!(
        decide(FromArg::Label(WINDOWS_1252.into()), b"\xEF\xBB\xBFx", true),
        (utf8(3, Evidence::Bom))
    );
    assert_eq!(
        decide(FromArg::Auto, "é".as_bytes(), true),
        (utf8(0, Evidence::Utf8))
    );
    // A character cut by the end of the first block is still UTF-8.
    assert_eq!(
        decide(FromArg::Auto, &"é".as_bytes()[..1], false),
        (utf8(0, Evidence::Utf8))
    );
    let latin = b"caf\xE9 na\xEFve \xABquote\xBB, d\xE9j\xE0 vu";
    assert_eq!(
        decide(FromArg::Auto, latin, true),
        (Reading::Decoded(Guess {
            encoding: WINDOWS_1252.into(),
            evidence: Evidence::Detected
        }))
    );
    assert_eq!(
        decide(FromArg::Label(SHIFT_JIS.into()), b"abc", true),
        (Reading::Decoded(Guess {
            encoding: SHIFT_JIS.into(),
            evidence: Evidence::Given
        }))
    );
    // Not UTF-8, with a NUL: a binary file, searched as its bytes.
    assert_eq!(
        decide(FromArg::Auto, b"caf\xE9\0", true),
        Reading::Bytes {
            skip: 0,
            guess: None
        }
    );
}

/// ISO-8859-1 and US-ASCII as iconv reads them, in any reads and any buffer sizes: every
/// byte its code point (or, for ASCII, a byte over 0x7F one U+FFFD and one error), and each
/// character's offset in the decoded text maps back to its byte.
#[test]
fn iso_8859_1_and_ascii_in_any_reads_with_offsets() {
    let file: Vec<u8> = (0..=255u8)
        .chain(b"\nna\xEFve \x80\n".iter().copied())
        .collect();
    for charset in [Charset::Latin1, Charset::Ascii] {
        let ascii = charset == Charset::Ascii;
        let chars: Vec<char> = file
            .iter()
            .map(|&b| match b {
                0x80.. if ascii => '\u{FFFD}',
                _ => char::from(b),
            })
            .collect();
        let text: String = chars.iter().collect();
        let errors = if ascii {
            file.iter().filter(|&&b| b >= 0x80).count()
        } else {
            0
        };
        for (trickle, size) in [(1, 1), (3, 7), (5, 16), (1 << 16, 17), (1 << 16, 1 << 16)] {
            let map = RefCell::new(OffsetMap::default());
            let mut t = Transcoder::new(Trickle(&file, trickle), charset, 0, Some(&map));
            let out = decode_all(&mut t, size);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                text,
                "{charset:?} {trickle} {size}"
            );
            assert_eq!(t.errors(), errors as u64);
            let mut m = map.borrow_mut();
            let mut decoded = 0u64;
            for (i, c) in chars.iter().enumerate() {
                assert_eq!(
                    m.file(decoded),
                    i as u64,
                    "{charset:?} char {i}, reads of {trickle}"
                );
                decoded += c.len_utf8() as u64;
            }
        }
    }
}
