//! The source of truth: Unicode Table 3-7 as one byte-level regular expression.

/// The nine well-formed byte sequences of Unicode Table 3-7 ("Well-Formed UTF-8 Byte
/// Sequences"), one alternative per row, repeated: the language of all well-formed UTF-8.
///
/// | row | code points        | byte 1   | byte 2       | byte 3 | byte 4 | alternative                        |
/// |-----|--------------------|----------|--------------|--------|--------|------------------------------------|
/// | 1   | U+0000..U+007F     | 00..7F   |              |        |        | `[\x00-\x7F]`                      |
/// | 2   | U+0080..U+07FF     | C2..DF   | 80..BF       |        |        | `[\xC2-\xDF][\x80-\xBF]`           |
/// | 3   | U+0800..U+0FFF     | E0       | **A0**..BF   | 80..BF |        | `\xE0[\xA0-\xBF][\x80-\xBF]`       |
/// | 4   | U+1000..U+CFFF     | E1..EC   | 80..BF       | 80..BF |        | `[\xE1-\xEC][\x80-\xBF]{2}`        |
/// | 5   | U+D000..U+D7FF     | ED       | 80..**9F**   | 80..BF |        | `\xED[\x80-\x9F][\x80-\xBF]`       |
/// | 6   | U+E000..U+FFFF     | EE..EF   | 80..BF       | 80..BF |        | `[\xEE-\xEF][\x80-\xBF]{2}`        |
/// | 7   | U+10000..U+3FFFF   | F0       | **90**..BF   | 80..BF | 80..BF | `\xF0[\x90-\xBF][\x80-\xBF]{2}`    |
/// | 8   | U+40000..U+FFFFF   | F1..F3   | 80..BF       | 80..BF | 80..BF | `[\xF1-\xF3][\x80-\xBF]{3}`        |
/// | 9   | U+100000..U+10FFFF | F4       | 80..**8F**   | 80..BF | 80..BF | `\xF4[\x80-\x8F][\x80-\xBF]{2}`    |
///
/// The pattern is meant for byte mode: `(?-u:...)` turns Unicode off for the whole
/// expression, so `\xC3` is the byte C3, not the character U+00C3. `cargo xtask gen-dfa`
/// compiles it with UTF-8 mode also off in the syntax and the Thompson NFA, anchored and
/// minimized, with [`MatchKind::All`] so that every well-formed prefix is a match.
///
/// [`MatchKind::All`]: https://docs.rs/regex-automata/0.4/regex_automata/enum.MatchKind.html
///
/// ```
/// assert!(utf8_dfa::UTF8_PATTERN.starts_with(r"(?-u:(?:"));
/// assert_eq!(utf8_dfa::TABLE_3_7_ROWS.len(), 9);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const UTF8_PATTERN: &str = concat!(
    r"(?-u:(?:",
    r"[\x00-\x7F]",
    r"|[\xC2-\xDF][\x80-\xBF]",
    r"|\xE0[\xA0-\xBF][\x80-\xBF]",
    r"|[\xE1-\xEC][\x80-\xBF]{2}",
    r"|\xED[\x80-\x9F][\x80-\xBF]",
    r"|[\xEE-\xEF][\x80-\xBF]{2}",
    r"|\xF0[\x90-\xBF][\x80-\xBF]{2}",
    r"|[\xF1-\xF3][\x80-\xBF]{3}",
    r"|\xF4[\x80-\x8F][\x80-\xBF]{2}",
    r")*)",
);

/// The nine rows of Unicode Table 3-7 one by one, each as the byte regex of one well-formed
/// sequence (the alternatives of [`UTF8_PATTERN`], in table order).
///
/// ```
/// let rows = utf8_dfa::TABLE_3_7_ROWS;
/// assert_eq!(rows[0], r"[\x00-\x7F]");
/// let joined = format!("(?-u:(?:{})*)", rows.join("|"));
/// assert_eq!(joined, utf8_dfa::UTF8_PATTERN);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const TABLE_3_7_ROWS: [&str; 9] = [
    r"[\x00-\x7F]",
    r"[\xC2-\xDF][\x80-\xBF]",
    r"\xE0[\xA0-\xBF][\x80-\xBF]",
    r"[\xE1-\xEC][\x80-\xBF]{2}",
    r"\xED[\x80-\x9F][\x80-\xBF]",
    r"[\xEE-\xEF][\x80-\xBF]{2}",
    r"\xF0[\x90-\xBF][\x80-\xBF]{2}",
    r"[\xF1-\xF3][\x80-\xBF]{3}",
    r"\xF4[\x80-\x8F][\x80-\xBF]{2}",
];
