//! Property tests against std, encoding_rs and the naive oracles, on random bytes and on
//! valid text with mutations; every split of a stream; reverse == forward reversed.

mod common;

use common::*;
use proptest::prelude::*;
#[cfg(feature = "alloc")]
use utf8_codec::{Action, Practice, RepairOptions};

/// Random bytes biased towards the interesting ones; long enough for the dense-error
/// scanners (windows of 64 bytes) to take part.
fn bytes() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        4 => any::<u8>(),
        2 => 0x80..=0xBFu8,
        2 => prop::sample::select(vec![0xC0u8, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xF8, 0xFC, 0xFE, 0xFF]),
        1 => 0x20..=0x7Eu8,
    ];
    prop::collection::vec(byte, 0..300)
}

/// Valid text of any script with a few bytes overwritten, inserted or removed.
fn mutated() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<String>(),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3u8), 0..4),
    )
        .prop_map(|(s, edits)| {
            let mut v = s.into_bytes();
            for (at, byte, op) in edits {
                let i = if v.is_empty() { 0 } else { at.index(v.len()) };
                match op {
                    0 if !v.is_empty() => v[i] = byte,
                    1 => v.insert(i, byte),
                    _ if !v.is_empty() => {
                        v.remove(i);
                    }
                    _ => v.push(byte),
                }
            }
            v
        })
}

fn input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![bytes(), mutated()]
}

/// Sorted, deduplicated cut points inside `0..=len`.
fn with_cuts() -> impl Strategy<Value = (Vec<u8>, Vec<usize>)> {
    input().prop_flat_map(|v| {
        let n = v.len();
        (Just(v), prop::collection::vec(0..=n, 0..8)).prop_map(|(v, mut cuts)| {
            cuts.sort_unstable();
            cuts.dedup();
            (v, cuts)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn validate_agrees_with_std(v in input()) {
        match (std::str::from_utf8(&v), utf8_codec::validate(&v)) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => {
                prop_assert_eq!(a.valid_up_to(), b.valid_up_to());
                prop_assert_eq!(a.error_len(), b.error_len());
            }
            (a, b) => prop_assert!(false, "std {:?} codec {:?}", a, b),
        }
    }

    #[test]
    fn errors_agree_with_std_chunks_and_kind_table(v in input()) {
        prop_assert_eq!(codec_errors(&v), oracle_errors(&v));
    }

    #[test]
    fn repair_agrees_with_std_and_encoding_rs(v in input()) {
        #[cfg(feature = "alloc")]
        {
            let ours = utf8_codec::repair(&v);
            prop_assert_eq!(&ours, &String::from_utf8_lossy(&v));
            let (theirs, _) = encoding_rs::UTF_8.decode_without_bom_handling(&v);
            prop_assert_eq!(&ours, &theirs);
        }
        let (theirs_valid_up_to, ours_valid_up_to) =
            (encoding_rs::Encoding::utf8_valid_up_to(&v), utf8_codec::valid_up_to(&v));
        prop_assert_eq!(theirs_valid_up_to, ours_valid_up_to);
    }

    #[test]
    fn decode_forward_and_backward(v in input()) {
        let fwd = codec_units(utf8_codec::decode(&v));
        prop_assert_eq!(&fwd, &oracle_units(&v));
        let mut back = codec_units(utf8_codec::decode(&v).rev());
        back.reverse();
        prop_assert_eq!(&back, &fwd);
    }

    #[test]
    fn decode_from_both_ends_meets_in_the_middle(v in input(), take_front in 0..40usize) {
        let mut it = utf8_codec::decode(&v);
        let mut front: Vec<_> = it.by_ref().take(take_front).collect();
        let mut back: Vec<_> = it.rev().collect();
        back.reverse();
        front.extend(back);
        prop_assert_eq!(front, utf8_codec::decode(&v).collect::<Vec<_>>());
    }

    #[test]
    fn every_split_of_a_stream_gives_the_same_answer((v, cuts) in with_cuts()) {
        let (text, errs) = stream_run(&v, &cuts);
        prop_assert_eq!(text, String::from_utf8_lossy(&v));
        prop_assert_eq!(errs, whole_errors(&v));
    }

    #[test]
    fn one_byte_chunks(v in input()) {
        let cuts: Vec<usize> = (1..v.len()).collect();
        let (text, errs) = stream_run(&v, &cuts);
        prop_assert_eq!(text, String::from_utf8_lossy(&v));
        prop_assert_eq!(errs, whole_errors(&v));
    }

    #[test]
    fn counter_over_any_split_equals_count((v, cuts) in with_cuts()) {
        // `update` counts all but the last unit of a chunk in one pass; `update_with` goes
        // by the decoder's events: both must give the counts of the whole.
        // A counter without lengths counts the rest alike.
        let mut counter = utf8_codec::Counter::new();
        let mut by_events = utf8_codec::Counter::new();
        let mut lean = utf8_codec::Counter::without_lengths();
        let mut errors = 0;
        let mut start = 0;
        for &end in cuts.iter().chain(std::iter::once(&v.len())) {
            counter.update(&v[start..end]);
            by_events.update_with(&v[start..end], |_| errors += 1);
            lean.update(&v[start..end]);
            start = end;
        }
        let whole = utf8_codec::count(&v);
        prop_assert_eq!(lean.finish(), utf8_codec::Counts { by_length: [0; 4], ..whole });
        prop_assert_eq!(counter.finish(), whole);
        prop_assert_eq!(by_events.finish_with(|_| errors += 1), whole);
        prop_assert_eq!(errors, whole.errors);
        prop_assert_eq!(whole, naive_counts(&v));
    }

    #[test]
    fn counter_mixing_update_and_update_with_reports_whole_input_errors(
        (v, cuts) in with_cuts(),
        which in any::<u16>(),
    ) {
        // `update` counts without reporting; the errors `update_with` and `finish_with` report
        // after it must still carry offsets in the whole input.
        let mut counter = utf8_codec::Counter::new();
        let mut seen = Vec::new();
        let mut start = 0;
        for (i, &end) in cuts.iter().chain(std::iter::once(&v.len())).enumerate() {
            if which >> (i % 16) & 1 == 1 {
                counter.update(&v[start..end]);
            } else {
                counter.update_with(&v[start..end], |e| seen.push((e.offset() as usize, e.len(), e.kind())));
            }
            start = end;
        }
        let counts = counter.finish_with(|e| seen.push((e.offset() as usize, e.len(), e.kind())));
        prop_assert_eq!(counts, naive_counts(&v));
        let all = oracle_errors(&v);
        for e in &seen {
            prop_assert!(all.contains(e), "{:?} is not an error of the input: {:?}", e, all);
        }
    }

    #[test]
    #[cfg(feature = "alloc")]
    fn practices_and_actions_agree_with_naive(v in input()) {
        let fffd = |_: &[u8]| "\u{FFFD}".to_string();
        for (practice, naive) in [
            (Practice::MaximalSubpart, (|b, s| naive_maximal(b, s)) as Naive),
            (Practice::PerByte, |b, s| naive_per_byte(b, s)),
            (Practice::PerSequence, |b, s| naive_per_sequence(b, s)),
        ] {
            let with = |action| utf8_codec::repair_with(&v, &RepairOptions { practice, action });
            // `repair_into` appends the same text to what the buffer holds.
            for action in [Action::default(), Action::Escape, Action::Delete, Action::Replace("?")] {
                let mut out = String::from("kept ");
                utf8_codec::repair_into(&v, &RepairOptions { practice, action }, &mut out);
                prop_assert_eq!(out, format!("kept {}", with(action)));
            }
            prop_assert_eq!(with(Action::default()), naive(&v, &fffd));
            prop_assert_eq!(with(Action::Escape), naive(&v, &escape));
            prop_assert_eq!(with(Action::Delete), naive(&v, &|_| String::new()));
            // Substitutes of every length the fast path of maximal subparts takes (0..=4).
            for sub in ["", "?", "\u{A7}", "\u{1F600}"] {
                prop_assert_eq!(with(Action::Replace(sub)), naive(&v, &|_| sub.to_string()));
            }
        }
    }

    #[test]
    #[cfg(feature = "alloc")]
    fn repairer_over_any_split_equals_repair_with((v, cuts) in with_cuts(), p in 0..3usize, a in 0..3usize) {
        use utf8_codec::{stream::{Decoder, Event}, Repairer};
        let practice = [Practice::MaximalSubpart, Practice::PerByte, Practice::PerSequence][p];
        let action = [Action::Replace("?"), Action::Delete, Action::Escape][a];
        let opts = RepairOptions { practice, action };
        let mut rep = Repairer::new(opts);
        let mut dec = Decoder::new();
        let mut out = String::new();
        let mut start = 0;
        for &end in cuts.iter().chain(std::iter::once(&v.len())) {
            dec.decode(&v[start..end]).for_each(|e| rep.push(e, &mut out));
            start = end;
        }
        if let Some(e) = dec.finish() {
            rep.push(Event::Error(e), &mut out);
        }
        rep.finish(&mut out);
        prop_assert_eq!(out, utf8_codec::repair_with(&v, &opts));
    }

    #[test]
    #[cfg(feature = "std")]
    fn io_adapters_equal_repair_with((v, cuts) in with_cuts()) {
        use std::io::{Read, Write};
        let opts = RepairOptions { practice: Practice::PerSequence, action: Action::Escape };
        let expected = utf8_codec::repair_with(&v, &opts).into_owned();
        let mut w = utf8_codec::io::RepairWriter::new(Vec::new(), opts);
        let mut start = 0;
        for &end in cuts.iter().chain(std::iter::once(&v.len())) {
            w.write_all(&v[start..end]).unwrap();
            start = end;
        }
        prop_assert_eq!(String::from_utf8(w.finish().unwrap().inner).unwrap(), expected.clone());
        // A reader that returns one byte at a time.
        struct OneByte<'a>(&'a [u8]);
        impl Read for OneByte<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let Some((&b, rest)) = self.0.split_first() else { return Ok(0) };
                if buf.is_empty() { return Ok(0) }
                buf[0] = b;
                self.0 = rest;
                Ok(1)
            }
        }
        let mut s = String::new();
        utf8_codec::io::RepairReader::new(OneByte(&v), opts).read_to_string(&mut s).unwrap();
        prop_assert_eq!(s, expected);
    }

    #[test]
    fn boundaries_are_consistent_with_decode(v in input()) {
        let starts: Vec<usize> = utf8_codec::decode(&v)
            .map(|d| d.map_or_else(|e| e.offset(), |(o, _)| o))
            .collect();
        for i in 0..=v.len() {
            let is_start = i == v.len() || starts.contains(&i);
            prop_assert_eq!(utf8_codec::is_boundary(&v, i), is_start);
            let f = utf8_codec::floor_boundary(&v, i);
            let c = utf8_codec::ceil_boundary(&v, i);
            prop_assert!(f <= i && i <= c);
            prop_assert!(utf8_codec::is_boundary(&v, f) && utf8_codec::is_boundary(&v, c));
            prop_assert!(!starts.iter().any(|&s| f < s && s < c), "a boundary between {} and {}", f, c);
        }
    }

    #[test]
    fn encode_agrees_with_char(value in prop_oneof![0..0x11_0000u32, 0xD800..0xE000u32, 0x11_0000..u32::MAX]) {
        match (char::from_u32(value), utf8_codec::encode(value)) {
            (Some(c), Ok(e)) => {
                let mut buf = [0; 4];
                prop_assert_eq!(e.as_bytes(), c.encode_utf8(&mut buf).as_bytes());
                prop_assert_eq!(utf8_codec::decode_first(&e), Some(Ok(c)));
            }
            (None, Err(e)) => {
                prop_assert_eq!(e.value(), value);
                let kind = if (0xD800..0xE000).contains(&value) {
                    utf8_codec::EncodeErrorKind::Surrogate
                } else {
                    utf8_codec::EncodeErrorKind::OutOfRange
                };
                prop_assert_eq!(e.kind(), kind);
            }
            (c, e) => prop_assert!(false, "char {:?} encode {:?}", c, e),
        }
    }

    #[test]
    #[cfg(feature = "alloc")]
    fn utf16_agrees_with_std(units in prop::collection::vec(prop_oneof![any::<u16>(), 0xD800..0xE000u16], 0..32)) {
        prop_assert_eq!(utf8_codec::utf16_to_string(&units), String::from_utf16_lossy(&units));
        let le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        let (theirs, _) = encoding_rs::UTF_16LE.decode_without_bom_handling(&le);
        prop_assert_eq!(utf8_codec::utf16_to_string(&units), theirs);
    }

    #[test]
    fn decode_loose_inverts_the_old_encoding(value in 0..0x8000_0000u32) {
        // The original UTF-8 (RFC 2279) form of any 31-bit value, shortest length.
        let n = match value { 0..=0x7F => 1, 0x80..=0x7FF => 2, 0x800..=0xFFFF => 3,
            0x1_0000..=0x1F_FFFF => 4, 0x20_0000..=0x3FF_FFFF => 5, _ => 6 };
        let mut bytes = vec![0u8; n];
        let mut v = value;
        for i in (1..n).rev() { bytes[i] = 0x80 | (v & 0x3F) as u8; v >>= 6; }
        bytes[0] = if n == 1 { v as u8 } else { ((0xFF00u16 >> n) as u8) | v as u8 };
        let expected = if n == 1 { None } else { Some((value, n)) };
        prop_assert_eq!(utf8_codec::decode_loose(&bytes), expected);
    }
}

/// Long inputs, 1 to 21 KB: stretches of random bytes between runs of hundreds of valid
/// characters, so that repair's staging buffer fills and flushes, and long text goes to the
/// output directly, with every substitute length its fast path takes (run by `.ci/run` under
/// each kernel).
#[test]
#[cfg(feature = "alloc")]
fn long_repairs_agree_with_naive() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let words = ["grüße ", "привет ", "東京都 ", "😀 ", "plain ascii\n"];
    for case in 0..60 {
        let mut v = Vec::new();
        let size = 1_000 + (next() % 20_000) as usize;
        while v.len() < size {
            if next() % 3 == 0 {
                let n = next() % 700;
                v.extend((0..n).map(|_| next() as u8));
            } else {
                let n = 1 + next() % 200;
                for _ in 0..n {
                    v.extend_from_slice(words[(next() % 5) as usize].as_bytes());
                }
            }
        }
        for sub in ["", "?", "\u{A7}", "\u{FFFD}", "\u{1F600}"] {
            let opts = RepairOptions {
                practice: Practice::MaximalSubpart,
                action: Action::Replace(sub),
            };
            let got = utf8_codec::repair_with(&v, &opts);
            assert!(
                got == naive_maximal(&v, |_| sub.to_string()),
                "case {case}, {sub:?}"
            );
        }
    }
}

/// A counter without lengths (the kernel's leaner count, through the active kernel: CI runs
/// this file with each) against `count`, on long runs of every script with a sequence or an
/// error placed at every position around two block boundaries, and after 64 KiB of text; and
/// the same cut at every length around the boundaries (a block that ends inside a sequence
/// the end cuts short: the count taken back from a block that ran past the valid prefix), and
/// around the ends of the AVX-512 count's segments.
#[test]
fn counter_without_lengths_counts_as_count_around_blocks() {
    let check = |v: &[u8], what: &dyn std::fmt::Debug| {
        let mut lean = utf8_codec::Counter::without_lengths();
        lean.update(v);
        let want = utf8_codec::Counts {
            by_length: [0; 4],
            ..utf8_codec::count(v)
        };
        assert_eq!(lean.finish(), want, "{what:?}");
        assert_eq!(
            want,
            utf8_codec::Counts {
                by_length: [0; 4],
                ..naive_counts(v)
            }
        );
    };
    for fill in ["a", "é\n", "€", "😀", "日本\n", "Grüße, Привет, 你好 😀\n"] {
        let run = fill.repeat(65_536 / fill.len() + 1);
        for x in [
            &b"\xE2\x82\xAC"[..],
            b"\xF0\x9F\x98\x80",
            b"\n",
            b"\xE2\x82",
            b"\xFF",
            b"\xF0\x9F\x98",
            b"\xC3",
            b"\xED\xA0\x80",
        ] {
            for at in (56..=72).chain(120..=130) {
                let mut v = fill.repeat(200).into_bytes();
                v.truncate(192);
                v[at..at + x.len()].copy_from_slice(x);
                check(&v, &(fill, x, at));
                for k in (60..=70).chain(124..=134) {
                    check(&v[..k], &(fill, x, at, k));
                }
                let mut long = run.as_bytes()[..65_536].to_vec();
                long.extend_from_slice(&v);
                check(&long, &(fill, x, at, "after 64 KiB"));
            }
            // Around the end of the first 8 KiB (checked block by block) and of two of the
            // 1 KiB segments after it that the AVX-512 count checks with their errors tested
            // once (a segment with an error is checked again, block by block).
            for at in (8_192 - 6..8_192 + 6)
                .chain(16_384 - 6..16_384 + 6)
                .chain(32_768 - 6..32_768 + 6)
            {
                let mut long = run.as_bytes()[..40_000].to_vec();
                long[at..at + x.len()].copy_from_slice(x);
                check(&long, &(fill, x, at, "around a segment's end"));
            }
        }
    }
}

#[test]
fn counter_offsets_stay_absolute_after_update() {
    let mut c = utf8_codec::Counter::new();
    c.update(b"a\xFFb\xE2");
    let mut offsets = vec![];
    c.update_with(b"\x82x\x80", |e| offsets.push(e.offset()));
    assert_eq!(offsets, [3, 6]);
    c.update(b"yz\xF0\x9F");
    let mut last = None;
    let counts = c.finish_with(|e| last = Some(e.offset()));
    assert_eq!(last, Some(9));
    assert_eq!(counts.errors, 4);
}
