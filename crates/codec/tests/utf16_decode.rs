//! Lossy UTF-16 to UTF-8 against std (`String::from_utf16_lossy`) and encoding_rs (the WHATWG
//! UTF-16LE/BE decoders): every pair and every triple of interesting units at every offset of
//! a buffer wider than the vector steps, among fillers of each length class (so that each
//! kernel's ASCII, two-byte, three-byte and surrogate-pair paths meet them); random units by
//! proptest, the byte decoder fed in random chunks into outputs of random sizes (the same
//! text and the same error offsets for every split); the benchmarks' corpora. Run through
//! each kernel with `UTF8_CODEC_KERNEL`.

use proptest::prelude::*;
use utf8_codec::{Utf16Decoder, Utf16Stop};
use utf8_testkit::pieces::{Stop, decode_in_pieces};

/// Units at the edges of each UTF-8 length and surrogate range.
const INTERESTING: [u16; 18] = [
    0x0000, 0x0041, 0x007F, 0x0080, 0x00E9, 0x07FF, 0x0800, 0x4E2D, 0xD7FF, 0xD800, 0xDBFF, 0xDC00,
    0xDFFF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF, 0xD83D,
];

/// Filler runs of each class: ASCII, two-byte, one to three bytes, three-byte only,
/// surrogate pairs, and a mix.
const FILLERS: [&[u16]; 6] = [
    &[0x61],
    &[0x430, 0xE9],
    &[0x4E2D, 0x61, 0x800],
    &[0x4E2D, 0x800, 0xFFFF],
    &[0xD83D, 0xDE00],
    &[0x61, 0x430, 0x4E2D, 0xD83D, 0xDE00],
];

/// The buffer width: past two AVX2 steps of 16 units, and odd.
const WIDTH: usize = 41;

/// The number of unpaired surrogates in `units`.
fn unpaired(units: &[u16]) -> usize {
    char::decode_utf16(units.iter().copied())
        .filter(Result::is_err)
        .count()
}

fn bytes_of(units: &[u16], be: bool) -> Vec<u8> {
    units
        .iter()
        .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
        .collect()
}

/// encoding_rs's text and error offsets for `bytes` decoded as one chunk.
fn encoding_rs_decode(bytes: &[u8], be: bool) -> (String, Vec<u64>) {
    let enc = if be {
        encoding_rs::UTF_16BE
    } else {
        encoding_rs::UTF_16LE
    };
    let mut dec = enc.new_decoder_without_bom_handling();
    let mut out = vec![0u8; dec.max_utf8_buffer_length(bytes.len()).unwrap() + 3];
    let (mut text, mut bad, mut p) = (Vec::new(), Vec::new(), 0);
    loop {
        let (r, read, written) =
            dec.decode_to_utf8_without_replacement(&bytes[p..], &mut out, true);
        p += read;
        text.extend_from_slice(&out[..written]);
        match r {
            encoding_rs::DecoderResult::InputEmpty => break,
            encoding_rs::DecoderResult::OutputFull => unreachable!("room for all of it"),
            encoding_rs::DecoderResult::Malformed(b, x) => {
                bad.push((p - usize::from(b) - usize::from(x)) as u64);
                text.extend_from_slice("\u{FFFD}".as_bytes());
            }
        }
    }
    (String::from_utf8(text).unwrap(), bad)
}

/// Our decoder's text and error offsets for `bytes` cut at `cuts` (sorted), into outputs of
/// `room` bytes at a time.
fn ours_decode(bytes: &[u8], be: bool, cuts: &[usize], room: usize) -> (String, Vec<u64>) {
    let mut dec = Utf16Decoder::new(be);
    let got = decode_in_pieces(bytes, cuts, room, |piece, _, out, last| {
        let d = dec.decode(piece, out, last);
        let stop = match d.stop {
            Utf16Stop::InputEmpty => Stop::InputEmpty,
            Utf16Stop::OutputFull => {
                assert!(room < 4 || d.written > 0 || d.read > 0);
                Stop::OutputFull
            }
            Utf16Stop::Malformed { offset, len } => {
                assert!((1..=3).contains(&len));
                assert!(offset + u64::from(len) <= dec.position());
                Stop::Malformed(offset)
            }
        };
        (stop, d.read, d.written)
    });
    assert_eq!(dec.position(), bytes.len() as u64);
    got
}

/// Every form against std on `units`, and the byte decoder in one chunk in both orders.
fn check(units: &[u16]) {
    let want = String::from_utf16_lossy(units);
    #[cfg(feature = "alloc")]
    {
        let mut out = b"x".to_vec();
        let replaced = utf8_codec::utf16_to_utf8_lossy(units, &mut out);
        assert_eq!(&out[1..], want.as_bytes(), "{units:04X?}");
        assert_eq!(replaced, unpaired(units), "{units:04X?}");
    }
    for be in [false, true] {
        let bytes = bytes_of(units, be);
        let mut out = vec![0u8; units.len() * 3];
        let mut dec = Utf16Decoder::new(be);
        let (mut p, mut w, mut bad) = (0, 0, 0);
        loop {
            let d = dec.decode(&bytes[p..], &mut out[w..], true);
            p += d.read;
            w += d.written;
            match d.stop {
                Utf16Stop::InputEmpty => break,
                Utf16Stop::OutputFull => panic!("{units:04X?}: full with room for all"),
                Utf16Stop::Malformed { len, .. } => {
                    assert_eq!(len, 2);
                    out[w..w + 3].copy_from_slice("\u{FFFD}".as_bytes());
                    w += 3;
                    bad += 1;
                }
            }
        }
        assert_eq!(&out[..w], want.as_bytes(), "{units:04X?} be {be}");
        assert_eq!(bad, unpaired(units), "{units:04X?}");
    }
}

/// `pattern` at every offset of a buffer of `filler`.
fn check_everywhere(pattern: &[u16]) {
    for filler in FILLERS {
        let base: Vec<u16> = filler.iter().copied().cycle().take(WIDTH).collect();
        for at in 0..=WIDTH - pattern.len() {
            let mut units = base.clone();
            units[at..at + pattern.len()].copy_from_slice(pattern);
            check(&units);
            check(&units[..at + pattern.len()]);
        }
    }
}

#[test]
fn every_pair_of_interesting_units_at_every_offset() {
    for a in INTERESTING {
        for b in INTERESTING {
            check_everywhere(&[a, b]);
        }
    }
}

#[test]
fn every_triple_of_interesting_units_at_every_offset() {
    for a in INTERESTING {
        for b in INTERESTING {
            for c in INTERESTING {
                check_everywhere(&[a, b, c]);
            }
        }
    }
}

/// The AVX-512 kernel's steps of 32 units: every pair of interesting units at every position
/// around the ends of its first three steps in 128 units of each filler, whole and cut just
/// after the pair: pairs and unpaired surrogates across each step's end, and a lead last in a
/// step (which waits for the next, where its trail is).
#[test]
fn every_pair_of_interesting_units_across_32_unit_steps() {
    for filler in FILLERS {
        let base: Vec<u16> = filler.iter().copied().cycle().take(128).collect();
        for a in INTERESTING {
            for b in INTERESTING {
                for at in (28..36).chain(60..68).chain(92..100) {
                    let mut units = base.clone();
                    units[at] = a;
                    units[at + 1] = b;
                    check(&units);
                    check(&units[..at + 2]);
                }
            }
        }
    }
}

/// Runs of surrogate pairs after 0 to 3 ASCII units, a unit inserted into them or put in
/// place of one at each of the first 100 positions: steps of 32 units that are all pairs in
/// step and out of step (a lead last, then the pairs one unit on), an unpaired surrogate in
/// every position of a step, and a pair cut by the end of the input.
#[test]
fn pair_runs_shifted_across_32_unit_steps() {
    let pairs: Vec<u16> = [0xD83D, 0xDE00].into_iter().cycle().take(161).collect();
    for shift in 0..4 {
        let mut base = vec![0x41u16; shift];
        base.extend(&pairs);
        for at in 0..100 {
            for x in [0x41, 0x4E2D, 0xD800, 0xDC00] {
                let mut units = base.clone();
                units.insert(at, x);
                check(&units);
                let mut units = base.clone();
                units[at] = x;
                check(&units);
            }
        }
    }
}

#[test]
fn every_single_unit() {
    for u in 0..=u16::MAX {
        check(&[u]);
        check(&[0x61, u, 0x62]);
    }
}

#[test]
fn corpora_as_std_and_encoding_rs() {
    for name in &utf8_testkit::corpus::NAMES[..utf8_testkit::corpus::VALID] {
        let text = String::from_utf8(utf8_testkit::corpus::generate(name, 1 << 16)).unwrap();
        let units: Vec<u16> = text.encode_utf16().collect();
        check(&units);
        for be in [false, true] {
            let bytes = bytes_of(&units, be);
            assert_eq!(ours_decode(&bytes, be, &[], 4096).0, text, "{name}");
            assert_eq!(encoding_rs_decode(&bytes, be).0, text, "{name}");
        }
    }
}

#[test]
fn odd_bytes_and_cut_leads_at_the_end() {
    // A lone byte; a lead and a byte: one malformed sequence each (WHATWG).
    for (bytes, want) in [
        (&[0x41][..], vec![(0, 1)]),
        (&[0x41, 0x00, 0x42], vec![(2, 1)]),
        (&[0x3D, 0xD8], vec![(0, 2)]),
        (&[0x3D, 0xD8, 0x00], vec![(0, 3)]),
        (&[0x3D, 0xD8, 0x3D, 0xD8, 0x00], vec![(0, 2), (2, 3)]),
    ] {
        let mut dec = Utf16Decoder::new(false);
        let mut got = Vec::new();
        let mut p = 0;
        loop {
            let d = dec.decode(&bytes[p..], &mut [0u8; 16], true);
            p += d.read;
            match d.stop {
                Utf16Stop::Malformed { offset, len } => got.push((offset, len)),
                _ => break,
            }
        }
        assert_eq!(got, want, "{bytes:02X?}");
        assert_eq!(
            ours_decode(bytes, false, &[], 16),
            encoding_rs_decode(bytes, false)
        );
    }
}

/// One scalar value of each UTF-8 length, the pair's values varied by `k`: one, two and three
/// bytes, and a surrogate pair (four).
fn of_length(len: usize, k: usize) -> Vec<u16> {
    match len {
        1 => vec![0x20 + (k % 0x60) as u16],
        2 => vec![0x80 + (k * 0x35 % 0x780) as u16],
        3 => vec![0xE000 + (k * 0x1F3 % 0x2000) as u16],
        _ => vec![
            0xD800 + (k * 0x77 % 0x400) as u16,
            0xDC00 + (k * 0x135 % 0x400) as u16,
        ],
    }
}

/// Every sequence of scalar values of every length that starts within `n` units and ends at
/// or past them (a pair last may end one unit past).
fn length_patterns(n: usize) -> Vec<Vec<u16>> {
    let mut done = Vec::new();
    let mut open = vec![Vec::new()];
    while let Some(p) = open.pop() {
        if p.len() >= n {
            done.push(p);
            continue;
        }
        for len in 1..=4 {
            let mut q = p.clone();
            q.extend(of_length(len, done.len() + open.len()));
            open.push(q);
        }
    }
    done
}

#[test]
fn every_length_pattern_of_a_step_at_every_alignment() {
    // Eight units: every combination of lengths in one 128-bit lane (two shuffles of four),
    // pairs across its middle and its end; at the start of a step, one unit on, across the
    // middle and the ends of the first and second steps of 16, and at a rotating offset in
    // each, among ASCII, pairs, and a mix.
    let patterns = length_patterns(8);
    assert!(patterns.len() > 10_000);
    for filler in [FILLERS[0], FILLERS[4], FILLERS[5]] {
        let base: Vec<u16> = filler.iter().copied().cycle().take(WIDTH + 9).collect();
        for (k, pattern) in patterns.iter().enumerate() {
            for at in [0, 1, 7, 15, 31, k % 17, 16 + k % 19] {
                let mut units = base.clone();
                units[at..at + pattern.len()].copy_from_slice(pattern);
                check(&units);
            }
        }
    }
}

#[test]
fn every_surrogate_pair_at_every_alignment() {
    // All 2^20 pairs, a BMP unit or none between them, so that leads and trails take every
    // position of every step, with pairs across every step's end.
    let mut units = Vec::new();
    for lead in 0xD800..0xDC00u16 {
        for trail in 0xDC00..0xE000u16 {
            units.extend([lead, trail]);
            match (lead ^ trail) % 7 {
                0 => units.push(0x41),
                1 => units.push(0x4E2D),
                2 => units.push(0x3B1),
                _ => {}
            }
        }
    }
    let want = String::from_utf16_lossy(&units);
    #[cfg(feature = "alloc")]
    {
        let mut out = Vec::new();
        assert_eq!(utf8_codec::utf16_to_utf8_lossy(&units, &mut out), 0);
        assert!(out == want.as_bytes());
    }
    for be in [false, true] {
        let bytes = bytes_of(&units, be);
        let mut out = vec![0u8; want.len()];
        let d = Utf16Decoder::new(be).decode(&bytes, &mut out, true);
        assert_eq!(
            (d.stop, d.read, d.written),
            (Utf16Stop::InputEmpty, bytes.len(), want.len())
        );
        assert!(out == want.as_bytes());
    }
}

#[test]
fn mixed_text_into_every_room_size() {
    // The output ends in each step's room, with a pair's last byte pending or not.
    // An ASCII run first, for the ASCII loop's own end in the room.
    let text = String::from_utf8(utf8_testkit::corpus::generate("mixed", 3000)).unwrap();
    let mut units: Vec<u16> = "ASCII ".repeat(50).encode_utf16().collect();
    units.extend(text.encode_utf16());
    units.insert(1800, 0xDC00);
    let want = String::from_utf16_lossy(&units);
    for be in [false, true] {
        let bytes = bytes_of(&units, be);
        for room in 4..160 {
            assert_eq!(ours_decode(&bytes, be, &[], room).0, want, "room {room}");
        }
    }
}

/// Units mostly from one class at a time, so that whole vector steps of each class occur.
fn units() -> impl Strategy<Value = Vec<u16>> {
    let unit = prop_oneof![
        4 => 0u16..0x80,
        2 => 0x80u16..0x800,
        2 => 0x800u16..0xD800,
        1 => 0xE000u16..=0xFFFF,
        1 => 0xD800u16..0xE000,
        1 => prop::sample::select(INTERESTING.to_vec()),
    ];
    let pair = (0xD800u16..0xDC00, 0xDC00u16..0xE000).prop_map(|(l, t)| vec![l, t]);
    let run = prop_oneof![
        3 => (unit.clone(), 1usize..40).prop_map(|(u, n)| vec![u; n]),
        3 => prop::collection::vec(unit, 1..40),
        2 => prop::collection::vec(pair, 1..20).prop_map(|v| v.concat()),
    ];
    prop::collection::vec(run, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_units_as_std(units in units()) {
        check(&units);
    }

    #[test]
    fn byte_decoder_as_encoding_rs_in_any_split(
        units in units(),
        be in any::<bool>(),
        odd in any::<bool>(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
        room in prop_oneof![Just(4usize), 5usize..40, Just(4096)],
    ) {
        let mut bytes = bytes_of(&units, be);
        if odd {
            bytes.push(0x41);
        }
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
        cuts.sort_unstable();
        let want = encoding_rs_decode(&bytes, be);
        prop_assert_eq!(ours_decode(&bytes, be, &[], 4096), want.clone());
        prop_assert_eq!(ours_decode(&bytes, be, &cuts, room), want.clone());
        if !odd {
            prop_assert_eq!(&want.0, &String::from_utf16_lossy(&units));
        }
        #[cfg(feature = "alloc")]
        {
            let mut dec = Utf16Decoder::new(be);
            let (mut out, mut replaced, mut start) = (Vec::new(), 0, 0);
            for (k, &end) in cuts.iter().chain([&bytes.len()]).enumerate() {
                replaced += dec.decode_to_vec_lossy(&bytes[start..end], &mut out, k == cuts.len());
                start = end;
            }
            prop_assert_eq!(String::from_utf8(out).unwrap(), want.0);
            prop_assert_eq!(replaced, want.1.len());
        }
    }
}
