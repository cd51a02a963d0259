//! The lossy views against std and bstr: `Lossy` prints what `String::from_utf8_lossy` holds,
//! `char_indices` gives bstr's ranges (every byte covered once, U+FFFD per maximal subpart),
//! on random bytes, mutated text and, when `../shared/conformance` is beside the repository,
//! every conformance vector and Markus Kuhn's stress test.

use bstr::ByteSlice;
use proptest::prelude::*;
use utf8_codec::{Lossy, char_indices};

/// Checks both views of `bytes` against std and bstr.
fn check(bytes: &[u8]) {
    let lossy = String::from_utf8_lossy(bytes);
    assert_eq!(Lossy(bytes).to_string(), lossy, "{bytes:02X?}");

    let ours: Vec<(usize, usize, char)> = char_indices(bytes).collect();
    let theirs: Vec<(usize, usize, char)> = bytes.char_indices().collect();
    assert_eq!(ours, theirs, "{bytes:02X?}");
    let mut back: Vec<_> = char_indices(bytes).rev().collect();
    back.reverse();
    assert_eq!(back, ours, "{bytes:02X?}: backwards");

    // Every byte once, in order; the characters are the lossy text's; a valid character's
    // range holds exactly its bytes, an error's range is one maximal subpart.
    let mut pos = 0;
    let mut errors = utf8_codec::errors(bytes);
    for &(start, end, c) in &ours {
        assert_eq!(start, pos, "{bytes:02X?}: gap or overlap at {start}");
        assert!(end > start, "{bytes:02X?}: empty range at {start}");
        match std::str::from_utf8(&bytes[start..end]) {
            Ok(s) => assert_eq!(s.chars().collect::<Vec<_>>(), [c], "{bytes:02X?}"),
            Err(_) => {
                assert_eq!(c, '\u{FFFD}', "{bytes:02X?}");
                let e = errors.next().expect("an error for each invalid range");
                assert_eq!(e.range(), start..end, "{bytes:02X?}");
            }
        }
        pos = end;
    }
    assert_eq!(pos, bytes.len(), "{bytes:02X?}: not covered to the end");
    assert!(
        errors.next().is_none(),
        "{bytes:02X?}: an error without its range"
    );
    assert_eq!(
        ours.iter().map(|&(_, _, c)| c).collect::<String>(),
        lossy,
        "{bytes:02X?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn random_bytes(v in prop::collection::vec(
        prop_oneof![4 => any::<u8>(), 2 => 0x80..=0xBFu8, 1 => 0xE0..=0xF4u8, 1 => 0x20..=0x7Eu8],
        0..300,
    )) {
        check(&v);
    }

    #[test]
    fn mutated_text(s in any::<String>(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut v = s.into_bytes();
        if !v.is_empty() {
            let i = at.index(v.len());
            v[i] = byte;
            check(&v[..i]);
        }
        check(&v);
    }
}

#[test]
fn long_text_with_sparse_errors() {
    let mut v = "grüße, 東京都 😀 plain ascii\n".repeat(200).into_bytes();
    for i in (7..v.len()).step_by(997) {
        v[i] = 0xFF;
    }
    v.extend_from_slice(b"\xF0\x9F\x98");
    check(&v);
}

/// The conformance material beside the repository, if present.
fn conformance_file(name: &str) -> Option<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance");
    let bytes = std::fs::read(dir.join(name)).ok();
    if bytes.is_none() {
        eprintln!("{name}: skipped: ../shared/conformance is absent");
    }
    bytes
}

#[test]
fn conformance_vectors_and_kuhns_stress_test() {
    if let Some(tsv) = conformance_file("vectors.tsv") {
        let text = String::from_utf8(tsv).expect("vectors.tsv is UTF-8");
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
        let col = header
            .iter()
            .position(|h| *h == "input_hex")
            .expect("input_hex");
        let mut rows = 0;
        for line in lines.filter(|l| !l.is_empty()) {
            let hex = line.split('\t').nth(col).expect("input_hex field");
            let input: Vec<u8> = hex
                .split_whitespace()
                .map(|t| u8::from_str_radix(t, 16).expect("hex byte"))
                .collect();
            check(&input);
            rows += 1;
        }
        assert!(rows > 0, "vectors.tsv has no rows");
    }
    if let Some(kuhn) = conformance_file("UTF-8-test.txt") {
        check(&kuhn);
        for line in kuhn.split(|&b| b == b'\n') {
            check(line);
        }
    }
}
