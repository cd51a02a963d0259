//! Random inputs against the codec and std.

use proptest::prelude::*;

use crate::common::assert_agrees;

/// Pieces that make errors likely: valid characters of every length and row edge, lone
/// leads, continuation bytes, truncated sequences and bytes that never appear.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        any::<char>().prop_map(|c| c.to_string().into_bytes()),
        "[a-z ]{1,40}".prop_map(String::into_bytes),
        any::<u8>().prop_map(|b| vec![b]),
        (any::<char>(), 1..4usize).prop_map(|(c, cut)| {
            let b = c.to_string().into_bytes();
            let cut = cut.min(b.len().saturating_sub(1)).max(1).min(b.len());
            b[..cut].to_vec()
        }),
        prop::sample::select(vec![
            b"\xED\xA0\x80".to_vec(),
            b"\xF4\x90\x80\x80".to_vec(),
            b"\xE0\x80\x80".to_vec(),
            b"\xC0\xAF".to_vec(),
            b"\xFF".to_vec(),
            b"\x80\xBF".to_vec(),
        ]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes(input in prop::collection::vec(any::<u8>(), 0..300)) {
        assert_agrees(&input);
    }

    #[test]
    fn random_pieces(pieces in prop::collection::vec(piece(), 0..400)) {
        let input: Vec<u8> = pieces.concat();
        assert_agrees(&input);
    }

    #[test]
    fn random_valid_strings(s in any::<String>(), pad in 0..9000usize) {
        let mut input = crate::common::mixed_text(pad);
        input.extend_from_slice(s.as_bytes());
        prop_assert!(utf8_dfa::validate(&input).is_ok());
        assert_agrees(&input);
    }
}
