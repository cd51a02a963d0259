//! The three substitution practices and every action on hand-checked cases.
//!
//! Expected outputs are written by hand from DESIGN.md's definitions, with "#" standing for
//! one substitute. Repair needs the `alloc` feature.
#![cfg(feature = "alloc")]

use utf8_codec::{Action, Practice, RepairOptions, repair_with};

fn rep(input: &[u8], practice: Practice) -> String {
    repair_with(
        input,
        &RepairOptions {
            practice,
            action: Action::Replace("#"),
        },
    )
    .into_owned()
}

/// (input, maximal-subpart, per-byte, per-sequence)
#[rustfmt::skip] // a table: one case a line
const CASES: &[(&[u8], &str, &str, &str)] = &[
    (b"abc", "abc", "abc", "abc"),
    (b"\x80", "#", "#", "#"),
    (b"\x80\xBF", "##", "##", "##"),
    (b"\xFF\xFE", "##", "##", "##"),
    (b"\xC0\x80", "##", "##", "#"),
    (b"\xC1\xBF\x80", "###", "###", "##"),
    (b"\xE0\x80\x80", "###", "###", "#"),
    (b"\xE0\x80\x80\x80", "####", "####", "##"),
    (b"\xED\xA0\x80", "###", "###", "#"),
    (b"\xED\xA0\x80\xED\xB0\x80", "######", "######", "##"),
    (b"\xF4\x90\x80\x80", "####", "####", "#"),
    (b"\xF5\x80\x80\x80", "####", "####", "#"),
    (b"\xF8\x88\x80\x80\x80", "#####", "#####", "#"),
    (b"\xFC\x84\x80\x80\x80\x80", "######", "######", "#"),
    (b"\xFC\x84\x80\x80\x80\x80\x80", "#######", "#######", "##"),
    (b"\xE2\x82", "#", "##", "#"),
    (b"\xE2\x82A", "#A", "##A", "#A"),
    (b"\xF0\x9F\x98", "#", "###", "#"),
    (b"\xF0\x9F\x98\xF0\x9F\x98\x80", "#\u{1F600}", "###\u{1F600}", "#\u{1F600}"),
    (b"\xC2\xC2\xA9", "#\u{A9}", "#\u{A9}", "#\u{A9}"),
    (b"\xF8\x88A\x80", "##A#", "##A#", "#A#"),
    (b"\xE0\xC0\x80", "###", "###", "##"),
    // Unicode Table 3-8 (5.2): 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64
    (b"a\xF1\x80\x80\xE1\x80\xC2b\x80c\x80\xBFd", "a###b#c##d", "a######b#c##d", "a###b#c##d"),
];

#[test]
fn practices_on_hand_checked_cases() {
    for &(input, maximal, per_byte, per_sequence) in CASES {
        assert_eq!(
            rep(input, Practice::MaximalSubpart),
            maximal,
            "maximal {input:02X?}"
        );
        assert_eq!(
            rep(input, Practice::PerByte),
            per_byte,
            "per-byte {input:02X?}"
        );
        assert_eq!(
            rep(input, Practice::PerSequence),
            per_sequence,
            "per-sequence {input:02X?}"
        );
    }
}

#[test]
fn actions_on_hand_checked_cases() {
    let input = b"x\xE0\x80\x80y\xE2\x82";
    let with = |practice, action| repair_with(input, &RepairOptions { practice, action });
    assert_eq!(
        with(Practice::MaximalSubpart, Action::default()),
        "x\u{FFFD}\u{FFFD}\u{FFFD}y\u{FFFD}"
    );
    assert_eq!(with(Practice::MaximalSubpart, Action::Delete), "xy");
    assert_eq!(
        with(Practice::MaximalSubpart, Action::Escape),
        r"x\xe0\x80\x80y\xe2\x82"
    );
    assert_eq!(
        with(Practice::PerSequence, Action::Replace("<bad>")),
        "x<bad>y<bad>"
    );
    assert_eq!(with(Practice::PerByte, Action::Replace("")), "xy");
    assert_eq!(
        with(Practice::PerByte, Action::Escape),
        r"x\xe0\x80\x80y\xe2\x82"
    );
}

#[test]
fn valid_input_is_borrowed_under_every_option() {
    for practice in [
        Practice::MaximalSubpart,
        Practice::PerByte,
        Practice::PerSequence,
    ] {
        for action in [Action::default(), Action::Delete, Action::Escape] {
            let out = repair_with("ünïcødé ✓".as_bytes(), &RepairOptions { practice, action });
            assert!(matches!(out, std::borrow::Cow::Borrowed("ünïcødé ✓")));
        }
    }
}

#[test]
fn explanations_of_the_design_examples() {
    use utf8_codec::decode_loose;
    assert_eq!(decode_loose(b"\xED\xA0\x80"), Some((0xD800, 3)));
    assert_eq!(decode_loose(b"\xE0\x80\x80"), Some((0, 3)));
    assert_eq!(decode_loose(b"\xC1\x81"), Some((0x41, 2)));
    assert_eq!(decode_loose(b"\xF4\x90\x80\x80"), Some((0x11_0000, 4)));
    assert_eq!(decode_loose(b"\xF2\x80\x9F\xA2"), Some((0x807E2, 4)));
    assert_eq!(decode_loose(b"\xFE"), None);
    assert_eq!(decode_loose(b"\x80"), None);
}

/// Long text repaired into a buffer (validated and copied in one pass, block by block):
/// an ill-formed subpart, or a sequence cut off, at every offset around the first block
/// edges, and at the very end, against std's `from_utf8_lossy`.
#[test]
fn repair_into_with_an_error_near_every_block_edge() {
    let text = "Grüße, мир, 你好 😀 plain ASCII for a while, then more. ".repeat(20);
    let check = |v: &[u8]| {
        let mut out = String::from("kept ");
        utf8_codec::repair_into(v, &RepairOptions::default(), &mut out);
        assert_eq!(
            out,
            format!("kept {}", String::from_utf8_lossy(v)),
            "{v:02X?}"
        );
    };
    check(text.as_bytes());
    for at in (0..200).chain(1000..1100) {
        for bad in [&b"\xFF"[..], b"\xE2\x82", b"\xF0\x9F\x98", b"\xC3"] {
            let mut v = text.as_bytes()[..at].to_vec();
            v.extend_from_slice(bad);
            check(&v);
            v.extend_from_slice(&text.as_bytes()[at..]);
            check(&v);
        }
    }
    // All ASCII blocks, then a sequence cut off by a block edge.
    for at in 60..70 {
        let mut v = vec![b'a'; 300];
        v[at..at + 3].copy_from_slice("€".as_bytes());
        check(&v);
        v[at + 2] = b'b';
        check(&v);
    }
}
