//! Legacy encodings and mojibake, from the utf8-tools library: what `--from auto`,
//! `--from LABEL` and `--fix-mojibake` do, per input or per row.

use std::borrow::Cow;

use utf8_tools::detect::Guess;
use utf8_tools::labels::{self, Charset, Label};
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

/// What `decode`'s `encoding=` names.
#[derive(Clone, Copy)]
pub enum Source {
    /// `auto` or a label the tools' `--from` takes (WHATWG's, iconv's spellings).
    From(FromArg),
    /// ISO-8859-1 as iconv and CPython read it: byte N is U+00NN.
    Latin1,
    /// US-ASCII: bytes over 0x7F are errors (U+FFFD each, as CPython's `ascii`/`replace`).
    Ascii,
}

impl Source {
    /// Parses `encoding=`: the tools' `--from` (their message for a wrong label), with
    /// ISO-8859-1 and ASCII in iconv's (and CPython's) meaning, which utf8-repair has too.
    pub fn parse(label: &str) -> Result<Source, String> {
        match labels::resolve(label) {
            Some(Label::Latin1) => Ok(Source::Latin1),
            Some(Label::Ascii) => Ok(Source::Ascii),
            _ => FromArg::parse(label).map(Source::From),
        }
    }
}

/// `data` decoded as text from `source`: UTF-8 (repaired, one U+FFFD per maximal subpart)
/// when that is what it decides, else by encoding_rs from the decided encoding (its
/// malformed sequences as U+FFFD); a byte order mark is dropped. ISO-8859-1 and ASCII map
/// bytes as CPython's `latin-1` and `ascii` (with `replace`) do.
pub fn decode(source: Source, data: &[u8]) -> Cow<'_, str> {
    let from = match source {
        Source::From(from) => from,
        Source::Latin1 => return Cow::Owned(data.iter().map(|&b| char::from(b)).collect()),
        Source::Ascii => {
            return Cow::Owned(
                data.iter()
                    .map(|&b| {
                        if b.is_ascii() {
                            char::from(b)
                        } else {
                            '\u{FFFD}'
                        }
                    })
                    .collect(),
            );
        }
    };
    match reading(from, data) {
        Reading::Bytes { skip, .. } => utf8_codec::repair(&data[skip as usize..]),
        Reading::Decoded(g) => {
            let bom = Reading::bom_len(g) as usize;
            match g.encoding {
                Charset::Whatwg(enc) => enc.decode_without_bom_handling(&data[bom..]).0,
                Charset::Latin1 => decode(Source::Latin1, &data[bom..]),
                Charset::Ascii => decode(Source::Ascii, &data[bom..]),
            }
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
