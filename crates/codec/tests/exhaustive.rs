//! Exhaustive sweeps: every input of 0 to 3 bytes through every API against std and the
//! oracles; every 4-byte input with lead F0..F4 in release mode (`--ignored exhaustive`).

mod common;

use common::*;
#[cfg(feature = "alloc")]
use utf8_codec::{Action, Practice, RepairOptions};

/// The cheap checks, allocation-free on valid input: validate vs std, errors vs
/// `utf8_chunks` and the kind oracle, repair vs `from_utf8_lossy`, decode_last vs the forward
/// walk.
fn check_core(bytes: &[u8]) {
    match (std::str::from_utf8(bytes), utf8_codec::validate(bytes)) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => {
            assert_eq!(
                (a.valid_up_to(), a.error_len()),
                (b.valid_up_to(), b.error_len()),
                "{bytes:02X?}"
            );
            let len = a.error_len().unwrap_or(bytes.len() - a.valid_up_to());
            assert_eq!(b.len(), len, "{bytes:02X?}");
            assert_eq!(
                b.kind(),
                oracle_kind(bytes, b.offset(), len),
                "{bytes:02X?}"
            );
        }
        (a, b) => panic!("{bytes:02X?}: std {a:?}, codec {b:?}"),
    }
    assert_eq!(
        utf8_codec::valid_up_to(bytes),
        std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), str::len)
    );
    assert_eq!(
        utf8_codec::is_valid(bytes),
        std::str::from_utf8(bytes).is_ok(),
        "{bytes:02X?}"
    );
    let mut errs = utf8_codec::errors(bytes);
    let mut pos = 0;
    for chunk in bytes.utf8_chunks() {
        pos += chunk.valid().len();
        let n = chunk.invalid().len();
        if n > 0 {
            let e = errs
                .next()
                .unwrap_or_else(|| panic!("{bytes:02X?}: missing error"));
            assert_eq!((e.offset(), e.len()), (pos, n), "{bytes:02X?}");
            assert_eq!(e.kind(), oracle_kind(bytes, pos, n), "{bytes:02X?}");
            pos += n;
        }
    }
    assert!(errs.next().is_none(), "{bytes:02X?}: extra error");
    #[cfg(feature = "alloc")]
    assert_eq!(
        utf8_codec::repair(bytes),
        String::from_utf8_lossy(bytes),
        "{bytes:02X?}"
    );
    assert_eq!(
        utf8_codec::decode_last(bytes),
        utf8_codec::decode(bytes)
            .collect::<Vec<_>>()
            .pop()
            .map(|d| d.map(|(_, c)| c)),
        "{bytes:02X?}"
    );
}

/// Everything else: decode both ways, boundaries, counts, the lossy views against std and
/// bstr, every split of the stream, every practice and action.
fn check_full(bytes: &[u8]) {
    check_core(bytes);
    let units = oracle_units(bytes);
    assert_eq!(
        codec_units(utf8_codec::decode(bytes)),
        units,
        "{bytes:02X?}"
    );
    let mut back = codec_units(utf8_codec::decode(bytes).rev());
    back.reverse();
    assert_eq!(back, units, "{bytes:02X?}");

    let starts: Vec<usize> = units
        .iter()
        .map(|u| match u {
            Ok((o, _)) | Err((o, _, _)) => *o,
        })
        .collect();
    let bounds = utf8_testkit::oracle::floors_and_ceilings(&starts, bytes.len());
    for (i, &(floor, ceil)) in bounds.iter().enumerate() {
        assert_eq!(
            utf8_codec::floor_boundary(bytes, i),
            floor,
            "{bytes:02X?} @{i}"
        );
        assert_eq!(
            utf8_codec::ceil_boundary(bytes, i),
            ceil,
            "{bytes:02X?} @{i}"
        );
    }

    assert_eq!(
        utf8_codec::count(bytes),
        naive_counts(bytes),
        "{bytes:02X?}"
    );

    let whole = whole_errors(bytes);
    let lossy = String::from_utf8_lossy(bytes);
    assert_eq!(utf8_codec::Lossy(bytes).to_string(), lossy, "{bytes:02X?}");
    let ranges: Vec<_> = utf8_codec::char_indices(bytes).collect();
    assert_eq!(
        ranges,
        bstr::ByteSlice::char_indices(bytes).collect::<Vec<_>>(),
        "{bytes:02X?}"
    );
    let mut back: Vec<_> = utf8_codec::char_indices(bytes).rev().collect();
    back.reverse();
    assert_eq!(back, ranges, "{bytes:02X?}");
    let n = bytes.len();
    for mask in 0u32..(1 << n.saturating_sub(1)) {
        let cuts: Vec<usize> = (1..n).filter(|i| mask & (1 << (i - 1)) != 0).collect();
        let (text, errs) = stream_run(bytes, &cuts);
        assert_eq!(text, lossy, "{bytes:02X?} cut at {cuts:?}");
        assert_eq!(errs, whole, "{bytes:02X?} cut at {cuts:?}");
    }

    #[cfg(feature = "alloc")]
    check_practices(bytes);
}

/// Every practice and action against the naive repairs.
#[cfg(feature = "alloc")]
fn check_practices(bytes: &[u8]) {
    let fffd = |_: &[u8]| "\u{FFFD}".to_string();
    let cases: [(Practice, Naive); 3] = [
        (Practice::MaximalSubpart, |b, s| naive_maximal(b, s)),
        (Practice::PerByte, |b, s| naive_per_byte(b, s)),
        (Practice::PerSequence, |b, s| naive_per_sequence(b, s)),
    ];
    for (practice, naive) in cases {
        let with = |action| utf8_codec::repair_with(bytes, &RepairOptions { practice, action });
        assert_eq!(
            with(Action::default()),
            naive(bytes, &fffd),
            "{practice:?} {bytes:02X?}"
        );
        assert_eq!(
            with(Action::Escape),
            naive(bytes, &escape),
            "{practice:?} {bytes:02X?}"
        );
        assert_eq!(
            with(Action::Delete),
            naive(bytes, &|_| String::new()),
            "{bytes:02X?}"
        );
        assert_eq!(
            with(Action::Replace("<?>")),
            naive(bytes, &|_| "<?>".into())
        );
    }
}

/// Every continuation byte, the bytes around the continuation range, and one byte of every
/// other class (ASCII, 2/3/4-byte leads including the special ones, never-valid bytes).
const INTERESTING: &[u8] = &[
    0x00, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xA1, 0xAF, 0xB0, 0xBF, 0xC0, 0xC1, 0xC2,
    0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFB, 0xFC,
    0xFD, 0xFE, 0xFF,
];

#[test]
fn every_input_of_up_to_two_bytes_full() {
    check_full(b"");
    for a in 0..=255u8 {
        check_full(&[a]);
        for b in 0..=255u8 {
            check_full(&[a, b]);
        }
    }
}

/// Runs `check` on every 3-byte input whose first byte is in `leads`.
fn sweep3(leads: std::ops::RangeInclusive<u8>, check: fn(&[u8])) {
    for a in leads {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                check(&[a, b, c]);
            }
        }
    }
}

#[test]
fn every_three_byte_input_core_ascii_leads() {
    sweep3(0x00..=0x7F, check_core);
}

#[test]
fn every_three_byte_input_core_continuation_leads() {
    sweep3(0x80..=0xBF, check_core);
}

#[test]
fn every_three_byte_input_core_other_leads() {
    sweep3(0xC0..=0xFF, check_core);
}

#[test]
fn every_three_byte_input_full_for_non_ascii_leads() {
    // The full suite (streams at every split, practices, boundaries) where the first two
    // bytes are not ASCII, and the third is a continuation byte or one of each other class:
    // the inputs where sequences interact. (`check_core` covers all 3-byte inputs.)
    for a in 0x80..=0xFFu8 {
        for b in 0x80..=0xFFu8 {
            for &c in INTERESTING {
                check_full(&[a, b, c]);
            }
        }
    }
}

#[test]
#[ignore = "release-mode sweep: cargo test --release -- --ignored exhaustive"]
fn exhaustive_every_four_byte_input_with_lead_f0_to_f4() {
    let handles: Vec<_> = (0xF0..=0xF4u8)
        .map(|a| {
            std::thread::spawn(move || {
                for b in 0..=255u8 {
                    for c in 0..=255u8 {
                        for d in 0..=255u8 {
                            check_core(&[a, b, c, d]);
                        }
                    }
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("sweep thread panicked");
    }
}

#[test]
#[ignore = "release-mode sweep: cargo test --release -- --ignored exhaustive"]
fn exhaustive_four_byte_streams_and_practices_with_lead_f0_to_f4() {
    // Full checks where bytes 2..4 are continuation or boundary bytes: the inputs where
    // a 4-byte sequence can be split, truncated or grouped per sequence.
    for a in 0xF0..=0xF4u8 {
        for b in 0..=255u8 {
            for &c in INTERESTING {
                for &d in INTERESTING {
                    check_full(&[a, b, c, d]);
                }
            }
        }
    }
}
