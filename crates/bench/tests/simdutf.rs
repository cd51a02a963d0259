//! The codec's lossy UTF-8 to UTF-16 transcoder against the C++ simdutf library's valid-only
//! `convert_utf8_to_utf16le`, on every valid corpus of `utf8_testkit::corpus` (96 KiB each):
//! both forms (into a slice, appending to a `Vec`) write simdutf's units and replace nothing.
//! The codec's own tests hold the same forms to std and encoding_rs on these corpora and on
//! damaged input. Its UTF-16 to UTF-8 decoders likewise against simdutf's validating
//! `convert_utf16le_to_utf8`.
#![forbid(unsafe_code)]

use utf8_bench::simdutf;
use utf8_codec::{
    Utf16Decoder, Utf16Stop, utf8_to_utf16_lossy, utf8_to_utf16_lossy_into, utf16_to_utf8_lossy,
};
use utf8_testkit::corpus;

#[test]
fn agrees_with_simdutf_on_valid_text() {
    let mut checked = 0;
    for name in corpus::NAMES {
        let data = corpus::generate(name, 96 << 10);
        if std::str::from_utf8(&data).is_err() {
            continue;
        }
        checked += 1;
        let mut want = vec![0u16; data.len()];
        let n = simdutf::utf8_to_utf16le(&data, &mut want);
        assert!(n > 0, "{name}: simdutf rejected valid text");
        let mut got = vec![0u16; data.len()];
        let p = utf8_to_utf16_lossy_into(&data, &mut got);
        assert_eq!((p.read, p.replacements), (data.len(), 0), "{name}");
        assert_eq!(got[..p.written], want[..n], "{name}");
        let mut v = Vec::new();
        assert_eq!(utf8_to_utf16_lossy(&data, &mut v), 0, "{name}");
        assert_eq!(v[..], want[..n], "{name}");
    }
    assert_eq!(checked, corpus::VALID, "every valid corpus");
}

#[test]
fn utf16_decoder_agrees_with_simdutf_on_valid_text() {
    for name in &corpus::NAMES[..corpus::VALID] {
        let text = String::from_utf8(corpus::generate(name, 96 << 10)).unwrap();
        let units: Vec<u16> = text.encode_utf16().collect();
        let mut want = vec![0u8; 3 * units.len()];
        let n = simdutf::utf16le_to_utf8(&units, &mut want);
        assert_eq!(want[..n], *text.as_bytes(), "{name}: simdutf");
        let mut v = Vec::new();
        assert_eq!(utf16_to_utf8_lossy(&units, &mut v), 0, "{name}");
        assert_eq!(v[..], want[..n], "{name}");
        let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        let mut got = vec![0u8; n];
        let d = Utf16Decoder::new(false).decode(&bytes, &mut got, true);
        assert_eq!(
            (d.read, d.written, d.stop),
            (bytes.len(), n, Utf16Stop::InputEmpty)
        );
        assert_eq!(got, want[..n], "{name}");
    }
    // An unpaired surrogate: simdutf refuses, the codec replaces it.
    assert_eq!(simdutf::utf16le_to_utf8(&[0x61, 0xD800], &mut [0; 6]), 0);
}

#[test]
fn simdutf_rejects_invalid_text() {
    // The wrapper's other answer: 0 units for input simdutf finds invalid.
    let mut dst = [0u16; 8];
    assert_eq!(simdutf::utf8_to_utf16le(b"ab\xED\xA0\x80", &mut dst), 0);
    assert_eq!(simdutf::utf8_to_utf16le(b"ab\xC3\xA9", &mut dst), 3);
    assert_eq!(dst[..3], [0x61, 0x62, 0xE9]);
}
