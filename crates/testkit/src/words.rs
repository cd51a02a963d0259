//! Test data for word counting (utf8-codec's `count_words`, `utf8-count -w`): what is not a
//! word character, for random texts of words and what lies between them.

/// Bytes that end a word or stand between words, none of them a word character: ASCII and
/// Unicode separators (the spaces GNU wc 9 counts in a UTF-8 locale among them), controls,
/// characters that are not printable, and ill-formed sequences (stray continuation bytes,
/// sequences cut short, surrogates, overlongs, beyond U+10FFFF).
///
/// ```
/// for piece in utf8_testkit::words::NOT_WORDS {
///     if let Ok(s) = std::str::from_utf8(piece) {
///         assert!(s.chars().all(|c| c.is_whitespace() || c.is_control() || !c.is_alphanumeric()));
///     }
/// }
/// ```
pub const NOT_WORDS: &[&[u8]] = &[
    b" ",
    b"\t",
    b"\n",
    b"\r",
    b"\r\n",
    b"\x0B",
    b"\x0C",
    b"\x00",
    b"\x01",
    b"\x1B",
    b"\x7F",
    "\u{85}".as_bytes(),
    "\u{9F}".as_bytes(),
    "\u{A0}".as_bytes(),
    "\u{1680}".as_bytes(),
    "\u{2000}".as_bytes(),
    "\u{2002}".as_bytes(),
    "\u{2006}".as_bytes(),
    "\u{2007}".as_bytes(),
    "\u{2008}".as_bytes(),
    "\u{200A}".as_bytes(),
    "\u{2028}".as_bytes(),
    "\u{2029}".as_bytes(),
    "\u{202F}".as_bytes(),
    "\u{205F}".as_bytes(),
    "\u{2060}".as_bytes(),
    "\u{3000}".as_bytes(),
    b"\xFF",
    b"\xFE",
    b"\x80",
    b"\xBF\xBF",
    b"\xC0\xAF",
    b"\xC2",
    b"\xE2",
    b"\xE2\x80",
    b"\xE3\x80",
    b"\xED\xA0\x80",
    b"\xF0\x9F\x98",
    b"\xF4\x90\x80\x80",
];
