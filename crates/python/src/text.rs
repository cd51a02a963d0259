//! Legacy encodings and mojibake, from the utf8-tools library: what `--from auto`,
//! `--from LABEL` and `--fix-mojibake` do, per input or per row.

use std::borrow::Cow;

use encoding_rs::Encoding;
use utf8_tools::detect::Guess;
use utf8_tools::mojibake::Fixer;
use utf8_tools::transcode::{AUTO_FIRST, FromArg, Reading, decide};

/// What `detect` says of one input: the encoding's WHATWG name (`None` for binary data: not
/// UTF-8 and holding a NUL byte, read as bytes) and what decided it.
pub fn detect(data: &[u8]) -> (Option<&'static str>, &'static str) {
    match reading(FromArg::Auto, data) {
        Reading::Bytes { guess: None, .. } => (None, "binary"),
        r => {
            let g: Guess = r.guess().expect("a decided reading has a guess");
            (Some(g.encoding.name()), g.evidence.as_str())
        }
    }
}

/// How `data` is read for `from`, decided from its first [`AUTO_FIRST`] bytes as the tools
/// decide.
fn reading(from: FromArg, data: &[u8]) -> Reading {
    let n = data.len().min(AUTO_FIRST);
    decide(from, &data[..n], n == data.len())
}

/// `data` decoded as text: UTF-8 (repaired, one U+FFFD per maximal subpart) when that is what
/// `from` decides, else by encoding_rs from the decided encoding (its malformed sequences as
/// U+FFFD); a byte order mark is dropped.
pub fn decode(from: FromArg, data: &[u8]) -> Cow<'_, str> {
    match reading(from, data) {
        Reading::Bytes { skip, .. } => utf8_codec::repair(&data[skip as usize..]),
        Reading::Decoded(g) => {
            let bom = Reading::bom_len(g) as usize;
            let enc: &'static Encoding = g.encoding;
            enc.decode_without_bom_handling(&data[bom..]).0
        }
    }
}

/// `text` with its mojibake undone (UTF-8 decoded as windows-1252 or Latin-1, once or more).
pub fn fix_mojibake(text: &str) -> String {
    let mut fixer = Fixer::new(false);
    let mut out = String::with_capacity(text.len());
    fixer.push(text, &mut out);
    fixer.finish(&mut out);
    out
}
