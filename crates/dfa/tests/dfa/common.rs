//! The oracle comparison every test uses.

use utf8_codec::Utf8Error;

/// Asserts that utf8-dfa agrees with std (valid_up_to, error_len) and with utf8-codec
/// (validate, is_valid, valid_up_to and the full error list) on `input`.
#[track_caller]
pub fn assert_agrees(input: &[u8]) {
    let dfa = utf8_dfa::validate(input);
    let codec = utf8_codec::validate(input);
    assert_eq!(
        dfa, codec,
        "validate differs from the codec on {input:02X?}"
    );
    match std::str::from_utf8(input) {
        Ok(s) => assert_eq!(dfa, Ok(s), "std accepts {input:02X?}"),
        Err(e) => {
            let d = dfa.expect_err("std rejects the input");
            assert_eq!(
                (d.valid_up_to(), d.error_len()),
                (e.valid_up_to(), e.error_len()),
                "std differs on {input:02X?}"
            );
        }
    }
    assert_eq!(utf8_dfa::is_valid(input), codec.is_ok(), "{input:02X?}");
    assert_eq!(
        utf8_dfa::valid_up_to(input),
        utf8_codec::valid_up_to(input),
        "{input:02X?}"
    );
    let ours: Vec<Utf8Error> = utf8_dfa::errors(input).collect();
    let theirs: Vec<Utf8Error> = utf8_codec::errors(input).collect();
    assert_eq!(ours, theirs, "errors differ on {input:02X?}");
}

/// A deterministic well-formed text of at least `len` bytes mixing ASCII, Latin, Greek,
/// Cyrillic, CJK, the edges of every row of Table 3-7 and emoji.
pub fn mixed_text(len: usize) -> Vec<u8> {
    const WORDS: &[&str] = &[
        "hello",
        " ",
        "Grüße",
        ", ",
        "κόσμε",
        "\n",
        "мир",
        "世界",
        "🦀",
        "\u{7F}",
        "\u{80}",
        "\u{7FF}",
        "\u{800}",
        "\u{FFF}",
        "\u{1000}",
        "\u{CFFF}",
        "\u{D000}",
        "\u{D7FF}",
        "\u{E000}",
        "\u{FFFF}",
        "\u{10000}",
        "\u{3FFFF}",
        "\u{40000}",
        "\u{FFFFF}",
        "\u{100000}",
        "\u{10FFFF}",
        "日本語のテキスト",
        "Ελληνικά",
        "😀👍🏽",
        "abc def ",
    ];
    let mut out = Vec::with_capacity(len + 64);
    let mut x: u32 = 0x9E37_79B9;
    while out.len() < len {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        out.extend_from_slice(WORDS[x as usize % WORDS.len()].as_bytes());
    }
    out
}
