//! Lossy UTF-8 to UTF-16 against std (`String::from_utf8_lossy(..).encode_utf16()`) and
//! encoding_rs (`UTF_8.new_decoder_without_bom_handling().decode_to_utf16`, the WHATWG
//! decoder, same maximal-subpart replacement): every input of up to two bytes here, every
//! three-byte input in release mode (`--ignored exhaustive`), random and damaged text by
//! proptest, the benchmarks' corpora of utf8-testkit, and the into-buffer form resumed
//! through buffers of every small size (the appending form with the `alloc` feature).

use proptest::prelude::*;
use utf8_codec::{Utf16Progress, utf8_to_utf16_lossy_into, utf16_len_lossy};

/// encoding_rs's UTF-16 for `bytes`, decoded as a complete input.
fn encoding_rs_utf16(bytes: &[u8]) -> Vec<u16> {
    let mut dec = encoding_rs::UTF_8.new_decoder_without_bom_handling();
    let mut out = vec![0u16; dec.max_utf16_buffer_length(bytes.len()).unwrap()];
    let (_, read, written, _) = dec.decode_to_utf16(bytes, &mut out, true);
    assert_eq!(read, bytes.len());
    out.truncate(written);
    out
}

/// Checks every form against std and encoding_rs; `oracle_rs` also asks encoding_rs (slow in
/// the exhaustive sweep, where std alone is the oracle and encoding_rs runs on a sample).
fn check(bytes: &[u8], oracle_rs: bool) {
    let lossy = String::from_utf8_lossy(bytes);
    let want: Vec<u16> = lossy.encode_utf16().collect();
    let in_input = bytes.windows(3).filter(|w| *w == b"\xEF\xBF\xBD").count();
    let want_replaced = lossy.matches('\u{FFFD}').count() - in_input;

    // Appending keeps what was there.
    #[cfg(feature = "alloc")]
    {
        let mut out = vec![7u16];
        let replaced = utf8_codec::utf8_to_utf16_lossy(bytes, &mut out);
        assert_eq!(out[0], 7, "{bytes:02X?}");
        assert_eq!(out[1..], want[..], "{bytes:02X?}");
        assert_eq!(replaced, want_replaced, "{bytes:02X?}");
    }
    assert_eq!(
        want_replaced,
        utf8_codec::errors(bytes).count(),
        "{bytes:02X?}"
    );
    assert_eq!(utf16_len_lossy(bytes), want.len(), "{bytes:02X?}");
    if oracle_rs {
        assert_eq!(
            encoding_rs_utf16(bytes),
            want,
            "{bytes:02X?}: std and encoding_rs"
        );
    }

    // Exactly enough room converts everything.
    let mut buf = vec![0u16; want.len()];
    let p = utf8_to_utf16_lossy_into(bytes, &mut buf);
    assert_eq!(
        p,
        Utf16Progress {
            read: bytes.len(),
            written: want.len(),
            replacements: want_replaced
        },
        "{bytes:02X?}"
    );
    assert_eq!(buf, want, "{bytes:02X?}");
}

/// Converts `bytes` through a buffer of `cap` units, resuming at each `read`, and checks
/// that the pieces join to the whole: every stop is at a unit boundary.
fn check_resumed(bytes: &[u8], cap: usize) {
    let want: Vec<u16> = String::from_utf8_lossy(bytes).encode_utf16().collect();
    let (mut got, mut rest, mut replaced) = (Vec::new(), bytes, 0);
    let mut buf = vec![0u16; cap];
    while !rest.is_empty() {
        let p = utf8_to_utf16_lossy_into(rest, &mut buf);
        // Only a pair that does not fit may stop a call with room left.
        assert!(
            p.read > 0 || cap < 2,
            "{bytes:02X?}: no progress with {cap} units"
        );
        if p.read == 0 {
            return; // one unit of room and a supplementary character next
        }
        assert!(p.written <= cap);
        got.extend_from_slice(&buf[..p.written]);
        replaced += p.replacements;
        rest = &rest[p.read..];
    }
    assert_eq!(got, want, "{bytes:02X?} through {cap} units");
    assert_eq!(replaced, utf8_codec::errors(bytes).count(), "{bytes:02X?}");
}

#[test]
fn every_input_of_up_to_two_bytes() {
    check(b"", true);
    for a in 0..=255u8 {
        check(&[a], true);
        for b in 0..=255u8 {
            check(&[a, b], true);
        }
    }
}

#[test]
#[ignore = "16.7 M inputs: run in release with `-- --ignored exhaustive`"]
fn exhaustive_every_three_byte_input_utf16() {
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                // encoding_rs on every lead and a sample of the rest keeps this under a minute.
                check(&[a, b, c], a >= 0x80 && c % 16 == 0);
            }
        }
    }
}

#[test]
fn runs_that_cross_the_ascii_chunk() {
    // Non-ASCII at every position of the 16-byte ASCII chunk and of the appending form's
    // 64- and 32-byte ASCII blocks (AVX2), then sequences of every length split by the
    // chunk edge, valid and broken.
    for pos in 0..140 {
        for seq in [
            &b"\xC3\xA9"[..],
            b"\xE4\xBD\xA0",
            b"\xF0\x9F\x98\x80",
            b"\xF0\x9F\x98",
            b"\xED\xA0\x80",
            b"\xFF",
            b"\xEF\xBF\xBD",
        ] {
            let mut v = vec![b'x'; pos];
            v.extend_from_slice(seq);
            v.extend_from_slice(&[b'y'; 20]);
            v.extend_from_slice(seq);
            check(&v, true);
            for cap in 1..6 {
                check_resumed(&v, cap);
            }
        }
    }
}

#[test]
fn long_text_with_errors_through_small_buffers() {
    let mut text = "Grüße aus Köln, 你好, 😀 and plain ASCII for a while. "
        .repeat(40)
        .into_bytes();
    for i in (7..text.len()).step_by(97) {
        text[i] = 0xF0;
    }
    check(&text, true);
    for cap in [1, 2, 3, 17, 64, 1000] {
        check_resumed(&text, cap);
    }
}

#[test]
fn every_benchmark_corpus() {
    // The nine corpora of utf8-testkit (the benchmarks' inputs, valid and damaged) at 96 KiB,
    // long enough for every kernel's vector transcoder to run its blocks.
    for name in utf8_testkit::corpus::NAMES {
        let data = utf8_testkit::corpus::generate(name, 96 << 10);
        check(&data, true);
        for cap in [37, 4096] {
            check_resumed(&data, cap);
        }
    }
}

/// Text in several scripts with bytes overwritten, cut, or inserted.
fn damaged() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(any::<char>(), 0..80),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
    )
        .prop_map(|(chars, edits)| {
            let mut v = chars.into_iter().collect::<String>().into_bytes();
            for (i, b) in edits {
                if v.is_empty() {
                    v.push(b);
                } else {
                    let i = i.index(v.len());
                    match b % 3 {
                        0 => v[i] = b,
                        1 => v.truncate(i),
                        _ => v.insert(i, b | 0x80),
                    }
                }
            }
            v
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_like_std_and_encoding_rs(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check(&bytes, true);
    }

    #[test]
    fn damaged_text_like_std_and_encoding_rs(bytes in damaged(), cap in 1usize..40) {
        check(&bytes, true);
        check_resumed(&bytes, cap);
    }
}

/// Fragments of every UTF-8 length and script mix, for inputs long enough (over 80 bytes)
/// to reach the vector transcoder's 64-byte blocks and each of its steps: ASCII runs, two-,
/// three- and four-byte runs, and mixes of them.
const FRAGMENTS: [&str; 10] = [
    "plain ASCII words, ",
    "Grüße aus Köln ",
    "Привет, мир ",
    "你好世界，",
    "😀🎉🚀",
    "ab€cd",
    "é",
    "日本",
    "x😀yé你",
    "统一码转换为十六位单元",
];

/// Long text from [`FRAGMENTS`] with a few bytes overwritten, cut or inserted.
fn long_mixed() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(0..FRAGMENTS.len(), 4..60),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
    )
        .prop_map(|(picks, edits)| {
            let mut v: Vec<u8> = picks.iter().flat_map(|&k| FRAGMENTS[k].bytes()).collect();
            for (i, b) in edits {
                let i = i.index(v.len());
                match b % 4 {
                    0 => v[i] = b,
                    1 => v[i] = b | 0x80,
                    2 => v.insert(i, b | 0x80),
                    _ => drop(v.remove(i)),
                }
            }
            v
        })
}

#[test]
fn an_error_at_every_offset_of_long_text() {
    // One ill-formed piece at every offset of 300 bytes of mixed text: every position in the
    // vector transcoder's blocks and steps, and the tail the scalar twin converts.
    let text: Vec<u8> = FRAGMENTS.concat().repeat(3).into_bytes();
    assert!(text.len() > 300);
    for bad in [
        &b"\xFF"[..],
        b"\xE4\xBD",
        b"\xF0\x9F\x98",
        b"\xED\xA0\x80",
        b"\xC0\xAF",
    ] {
        for at in 0..300 {
            let mut v = text.clone();
            v.splice(at..at, bad.iter().copied());
            check(&v, at % 16 == 0);
        }
    }
    for at in 0..300 {
        check(&text[at..], false);
        check(&text[..at], false);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn long_mixed_text_like_std_and_encoding_rs(bytes in long_mixed(), cap in 1usize..200) {
        check(&bytes, true);
        check_resumed(&bytes, cap);
    }
}

/// The appending form's ASCII widening writes from a 64-byte boundary of the output after
/// its first 32 units: every alignment of the output (0 to 40 units already in the `Vec`),
/// with a non-ASCII byte or an error anywhere in the first 200 bytes.
#[cfg(feature = "alloc")]
#[test]
fn ascii_prefix_at_every_alignment_of_the_output() {
    for before in 0..40 {
        for at in (0..200).step_by(7).chain([199]) {
            for x in [&b"\xC3\xA9"[..], b"\xFF"] {
                let mut v = vec![b'a'; 300];
                v[at..at + x.len()].copy_from_slice(x);
                let mut out = vec![7u16; before];
                let _ = utf8_codec::utf8_to_utf16_lossy(&v, &mut out);
                let want: Vec<u16> = String::from_utf8_lossy(&v).encode_utf16().collect();
                assert_eq!(out[..before], vec![7u16; before][..]);
                assert_eq!(out[before..], want[..], "{before} {at}");
            }
        }
    }
}

/// The slice form's ASCII prefix (widened straight into the buffer, as far as it has room)
/// ending at every offset near the vector blocks, before a two-byte character or an error,
/// through buffers smaller and larger than the prefix.
#[test]
fn ascii_prefix_through_buffers_of_every_size() {
    for at in (0..200)
        .step_by(5)
        .chain([31, 32, 33, 63, 64, 65, 95, 96, 97, 199])
    {
        for x in [&b"\xC3\xA9"[..], b"\xFF", b"\xF0\x9F\x98\x80"] {
            let mut v = vec![b'a'; 260];
            v[at..at + x.len()].copy_from_slice(x);
            check(&v, true);
            for cap in [1, 2, 31, 32, 33, 64, 96, 97, 128, 300] {
                check_resumed(&v, cap);
            }
        }
    }
}

/// Errors and sequences across the slice form's 16 KiB pieces (validated, then transcoded
/// while in the cache): every offset around the first cuts.
#[test]
fn errors_across_the_pieces() {
    let text = "Grüße, мир, 你好 😀 and some ASCII text too. ".repeat(1200);
    for cut in [16 << 10, 32 << 10] {
        for d in 0..8 {
            let mut v = text.clone().into_bytes();
            v[cut - 4 + d] = 0xE2;
            check(&v, true);
        }
    }
    check(text.as_bytes(), true);
}

/// Text of one- and two-byte sequences only (the transcoder's two-byte blocks), shifted by
/// every offset so that a lead byte ends a 64-byte block at every alignment, valid and with
/// an error in the middle.
#[test]
fn two_byte_text_at_every_shift() {
    let text = "Привет, мир! Grüße aus Köln, ελληνικά ÿ ".repeat(12);
    for shift in 0..70 {
        let mut v = vec![b'x'; shift];
        v.extend_from_slice(text.as_bytes());
        check(&v, true);
        let mid = v.len() / 2;
        v[mid] = 0xC3;
        v[mid + 1] = b'!';
        check(&v, true);
        check_resumed(&v, 100);
    }
}
