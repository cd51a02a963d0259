//! encode / decode round trips for every u32, and UTF-16 (lone surrogates become U+FFFD, as
//! std's from_utf16_lossy).
// libfuzzer: -max_len=1024
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use utf8_codec::EncodeErrorKind;

fuzz_target!(|data: &[u8]| {
    for w in data.chunks(4) {
        let mut b = [0u8; 4];
        b[..w.len()].copy_from_slice(w);
        // Spread the values over the whole u32 range and near the interesting edges.
        for v in [u32::from_le_bytes(b), u32::from_le_bytes(b) % 0x11_0800] {
            match (utf8_codec::encode(v), char::from_u32(v)) {
                (Ok(e), Some(c)) => {
                    let mut buf = [0; 4];
                    assert_eq!(e.as_bytes(), c.encode_utf8(&mut buf).as_bytes());
                    assert_eq!(e.as_str().chars().next(), Some(c));
                    assert_eq!(utf8_codec::decode_first(e.as_bytes()), Some(Ok(c)));
                    assert_eq!(utf8_codec::decode_last(e.as_bytes()), Some(Ok(c)));
                }
                (Err(err), None) => {
                    let want = if (0xD800..=0xDFFF).contains(&v) {
                        EncodeErrorKind::Surrogate
                    } else {
                        EncodeErrorKind::OutOfRange
                    };
                    assert_eq!(err.kind(), want, "{v:#x}");
                }
                (a, b) => panic!("encode({v:#x}): {a:?} vs std {b:?}"),
            }
        }
    }
    // Decoding any bytes and encoding the scalars back gives the valid parts byte for byte.
    let mut back = Vec::new();
    for u in utf8_codec::decode(data) {
        match u {
            Ok((o, c)) => {
                let e = utf8_codec::encode(u32::from(c)).unwrap();
                assert_eq!(&data[o..o + e.len()], e.as_bytes());
                back.extend_from_slice(&e);
            }
            Err(e) => back.extend_from_slice(&data[e.range()]),
        }
    }
    assert_eq!(back, data);

    let units: Vec<u16> = data
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect();
    let want = String::from_utf16_lossy(&units);
    assert_eq!(utf8_codec::utf16_chars(&units).collect::<String>(), want);
    assert_eq!(utf8_codec::utf16_to_string(&units), want);
});
