//! utf8-count's `--json` records, serialized by serde ([`crate::report::json_line`]).

use serde::{Serialize, Serializer};
use utf8_codec::{Counts, ErrorKind};

use super::config::Columns;
use super::tally::Tally;

/// One input's counts, or the total (`path` null).
#[derive(Debug, Serialize)]
pub(super) struct TallyJson<'a> {
    path: Option<&'a str>,
    lines: u64,
    words: u64,
    chars: u64,
    bytes: u64,
    errors: u64,
    /// With `-L`: the display width of the longest line.
    #[serde(skip_serializing_if = "Option::is_none")]
    max_line_length: Option<u64>,
    /// With `--max-line-chars`: the longest line in code points.
    #[serde(skip_serializing_if = "Option::is_none")]
    max_line_chars: Option<u64>,
    /// With `--histogram`: sequences by length, `"1"` to `"4"`.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "by_length")]
    by_length: Option<&'a Counts>,
    /// With `--histogram`: errors by kind, every kind named.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "by_kind")]
    by_kind: Option<&'a Counts>,
    /// With `--from`: the encoding the input was decoded from.
    #[serde(skip_serializing_if = "Option::is_none")]
    encoding: Option<&'static str>,
    /// With `--from`: what decided it (`byte order mark`, `valid UTF-8`, `detected`,
    /// `given`).
    #[serde(skip_serializing_if = "Option::is_none")]
    decided_by: Option<&'static str>,
}

impl<'a> TallyJson<'a> {
    /// The record of `t`, with the optional fields `columns` and `histogram` ask for.
    pub fn new(path: Option<&'a str>, t: &'a Tally, columns: Columns, histogram: bool) -> Self {
        let c = &t.counts;
        TallyJson {
            path,
            lines: c.lines,
            words: t.words.count(),
            chars: c.chars,
            bytes: c.bytes,
            errors: c.errors,
            max_line_length: columns.longest.then(|| t.widths.longest()),
            max_line_chars: columns.longest_chars.then(|| t.lines.longest()),
            by_length: histogram.then_some(c),
            by_kind: histogram.then_some(c),
            encoding: t.encoding.map(|g| g.encoding.name()),
            decided_by: t.encoding.map(|g| g.evidence.as_str()),
        }
    }
}

fn by_length<S: Serializer>(c: &Option<&Counts>, s: S) -> Result<S::Ok, S::Error> {
    let lengths = c.map_or(&[0; 4], |c| &c.by_length);
    s.collect_map((1..).map(|n: u8| n.to_string()).zip(lengths))
}

fn by_kind<S: Serializer>(c: &Option<&Counts>, s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(
        ErrorKind::ALL
            .iter()
            .map(|k| (k.as_str(), c.map_or(0, |c| c.kind(*k)))),
    )
}

/// One scalar value of `--explain --json`.
#[derive(Debug, Serialize)]
pub(super) struct ScalarJson<'a> {
    /// The input.
    pub path: &'a str,
    /// Its 0-based byte offset.
    pub offset: u64,
    /// Its length in bytes.
    pub len: usize,
    /// Its bytes in hex.
    pub bytes: String,
    /// `U+XXXX`.
    pub scalar: String,
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
}
