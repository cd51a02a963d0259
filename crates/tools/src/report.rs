//! The one formatter for errors in the shared model (DESIGN.md, "Reporting an error").
//!
//! Text: `PROGRAM: PATH:LINE:COLUMN: KIND at byte OFFSET (SUBPART): explanation`.
//! JSON: `{"path": ..., "offset": ..., "len": ..., "kind": ..., "bytes": "ED", "line": 3,
//! "column": 17}`, written by serde_json ([`json_line`]).

use std::fmt::Write as _;
use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};
use utf8_codec::{ErrorKind, decode_loose, stream::StreamError};

use crate::color::ERROR_KIND;

/// Uppercase hex bytes separated by spaces: `ED A0 80`.
///
/// ```
/// assert_eq!(utf8_tools::report::hex(b"\xED\xA0\x80"), "ED A0 80");
/// ```
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{b:02X}");
    }
    s
}

/// The number of bytes a lead byte announces in the current definition of UTF-8 (2 to 4), or
/// 1 for anything else.
fn announced_len(b0: u8) -> usize {
    match b0 {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 1,
    }
}

/// What the sequence that starts with an error would have meant, for humans.
///
/// `subpart` is the maximal subpart; `after` is what follows it in the input (a few bytes
/// are enough; fewer, or none, at the end of the input). The answer never ends with a period.
///
/// ```
/// use utf8_codec::ErrorKind;
/// use utf8_tools::report::explain;
/// assert_eq!(explain(ErrorKind::Surrogate, b"\xED", b"\xA0\x80"),
///            "ED A0 80 would encode the surrogate U+D800");
/// assert_eq!(explain(ErrorKind::Overlong, b"\xC1", b"\x81"),
///            "C1 81 is an overlong encoding of U+0041");
/// assert_eq!(explain(ErrorKind::OutOfRange, b"\xF4", b"\x90\x80\x80"),
///            "F4 90 80 80 would encode U+110000, beyond U+10FFFF");
/// assert_eq!(explain(ErrorKind::Truncated, b"\xE2\x82", b"A"),
///            "E2 82 is cut short by 0x41 ('A'), which cannot continue it");
/// ```
pub fn explain(kind: ErrorKind, subpart: &[u8], after: &[u8]) -> String {
    let mut window = [0u8; 8];
    let n = (subpart.len() + after.len()).min(window.len());
    for (slot, b) in window.iter_mut().zip(subpart.iter().chain(after)) {
        *slot = *b;
    }
    let window = &window[..n];
    let loose = decode_loose(window);
    let sub = hex(subpart);
    match (kind, loose) {
        (ErrorKind::Overlong, Some((v, len))) => {
            format!(
                "{} is an overlong encoding of U+{v:04X}",
                hex(&window[..len])
            )
        }
        (ErrorKind::Surrogate, Some((v, len))) => {
            format!(
                "{} would encode the surrogate U+{v:04X}",
                hex(&window[..len])
            )
        }
        (ErrorKind::OutOfRange, Some((v, len))) => {
            format!(
                "{} would encode U+{v:04X}, beyond U+10FFFF",
                hex(&window[..len])
            )
        }
        (ErrorKind::InvalidByte, _) => format!("{sub} never appears in UTF-8"),
        (ErrorKind::UnexpectedContinuation, _) => {
            format!("{sub} is a continuation byte without a lead byte")
        }
        (ErrorKind::Truncated, _) => match after.first() {
            Some(&b) if (0x20..0x7F).contains(&b) => format!(
                "{sub} is cut short by 0x{b:02X} ('{}'), which cannot continue it",
                char::from(b)
            ),
            Some(b) => format!("{sub} is cut short by 0x{b:02X}, which cannot continue it"),
            None => format!("{sub} is cut short"),
        },
        (ErrorKind::UnexpectedEnd, _) => {
            let missing = announced_len(subpart[0]).saturating_sub(subpart.len());
            let s = if missing == 1 { "" } else { "s" };
            format!("{sub} is cut short by the end of the input ({missing} byte{s} missing)")
        }
        (ErrorKind::Overlong, None) => format!("{sub} starts an overlong encoding"),
        (ErrorKind::Surrogate, None) => format!("{sub} starts the encoding of a surrogate"),
        (ErrorKind::OutOfRange, None) => format!("{sub} starts a sequence beyond U+10FFFF"),
    }
}

/// `value` as one line of JSON Lines, without the newline, in the layout utf8-count and
/// utf8-repair have always written: `{"key": value, "key": value}` (a space after `:` and
/// `,`). Strings are escaped as the tools always did: `\"`, `\\`, `\n`, `\r`, `\t`, and
/// `\u00xx` (lowercase) for the other control characters and DEL, where serde_json alone
/// writes `\b`, `\f` and a raw DEL.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Row<'a> { path: Option<&'a str>, n: u64 }
/// let s = utf8_tools::report::json_line(&Row { path: Some("a\u{7F}\u{8}\"\n"), n: 2 });
/// assert_eq!(s, r#"{"path": "a\u007f\u0008\"\n", "n": 2}"#);
/// assert_eq!(utf8_tools::report::json_line(&Row { path: None, n: 0 }), r#"{"path": null, "n": 0}"#);
/// ```
pub fn json_line(value: &impl Serialize) -> String {
    to_json(value, Layout { spaced: true })
}

/// [`json_line`] without the spaces: `{"key":value,"key":[1,2]}`, as utf8-grep's `--json`
/// (ripgrep's layout), with the same escapes.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Row<'a> { text: &'a str, at: [u64; 2] }
/// let s = utf8_tools::report::json_compact(&Row { text: "\u{C}é", at: [1, 2] });
/// assert_eq!(s, r#"{"text":"\u000cé","at":[1,2]}"#);
/// ```
pub fn json_compact(value: &impl Serialize) -> String {
    to_json(value, Layout { spaced: false })
}

/// Writes [`json_compact`]'s text straight into `w`, without building a `String` first (for
/// output written a record at a time, as utf8-grep's `--json`).
///
/// # Errors
///
/// The first error of `w`.
pub fn write_json_compact(w: &mut impl io::Write, value: &impl Serialize) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(w, Layout { spaced: false });
    value.serialize(&mut ser).map_err(io::Error::from)
}

fn to_json(value: &impl Serialize, layout: Layout) -> String {
    let mut buf = Vec::with_capacity(128);
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, layout);
    // The tools' records are structs, maps with string keys, arrays, numbers and strings,
    // which always serialize; a Vec takes every write.
    value
        .serialize(&mut ser)
        .expect("a tool's JSON record serializes");
    String::from_utf8(buf).expect("serde_json writes UTF-8")
}

/// serde_json's compact layout, with a space after `:` and `,` between members when
/// `spaced` (arrays stay compact), and the tools' escapes.
struct Layout {
    spaced: bool,
}

impl Formatter for Layout {
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        match (first, self.spaced) {
            (true, _) => Ok(()),
            (false, true) => w.write_all(b", "),
            (false, false) => w.write_all(b","),
        }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(if self.spaced { b": " } else { b":" })
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut parts = fragment.split('\u{7F}');
        if let Some(first) = parts.next() {
            w.write_all(first.as_bytes())?;
        }
        for part in parts {
            w.write_all(b"\\u007f")?;
            w.write_all(part.as_bytes())?;
        }
        Ok(())
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        match escape {
            CharEscape::Backspace => w.write_all(b"\\u0008"),
            CharEscape::FormFeed => w.write_all(b"\\u000c"),
            other => CompactFormatter.write_char_escape(w, other),
        }
    }
}

/// Where an ill-formed sequence is: what every error line names, whatever the error.
#[derive(Clone, Copy, Debug)]
pub struct Located<'a> {
    /// The input as diagnostics name it (`-` for stdin).
    pub path: &'a str,
    /// 1-based line.
    pub line: u64,
    /// 1-based column in characters of the repaired line.
    pub column: u64,
    /// The 0-based byte offset of the sequence in the input.
    pub offset: u64,
    /// The sequence.
    pub bytes: &'a [u8],
}

impl Located<'_> {
    /// The text line of an error of `kind` here, without a newline: `PROGRAM:
    /// PATH:LINE:COLUMN: KIND at byte OFFSET (BYTES): WHY`. With `color`, the kind is bold
    /// red.
    ///
    /// ```
    /// use utf8_tools::report::Located;
    /// let at = Located { path: "a.txt", line: 2, column: 5, offset: 9, bytes: b"\x81" };
    /// assert_eq!(at.text("utf8-repair", false, "malformed", "not a valid Shift_JIS sequence"),
    ///     "utf8-repair: a.txt:2:5: malformed at byte 9 (81): not a valid Shift_JIS sequence");
    /// ```
    pub fn text(&self, program: &str, color: bool, kind: &str, why: &str) -> String {
        format!(
            "{program}: {}:{}:{}: {} at byte {} ({}): {why}",
            self.path,
            self.line,
            self.column,
            ERROR_KIND.paint(color, kind),
            self.offset,
            hex(self.bytes),
        )
    }
}

/// One error, located, ready to be shown in text or JSON.
#[derive(Clone, Copy, Debug)]
pub struct ErrorReport<'a> {
    /// The input as diagnostics name it (`-` for stdin).
    pub path: &'a str,
    /// The 0-based byte offset of the subpart in the input.
    pub offset: u64,
    /// Why the subpart is ill-formed.
    pub kind: ErrorKind,
    /// The maximal subpart (1 to 3 bytes).
    pub bytes: &'a [u8],
    /// The bytes after the subpart that are known (a few; empty at the end of input).
    pub after: &'a [u8],
    /// 1-based line of the subpart.
    pub line: u64,
    /// 1-based column in characters of the repaired line.
    pub column: u64,
}

impl<'a> ErrorReport<'a> {
    /// A report of a stream error, with what follows it, at a line and column.
    pub fn new(
        path: &'a str,
        err: &'a StreamError,
        after: &'a [u8],
        line: u64,
        column: u64,
    ) -> ErrorReport<'a> {
        ErrorReport {
            path,
            offset: err.offset(),
            kind: err.kind(),
            bytes: err.bytes(),
            after,
            line,
            column,
        }
    }

    /// The text line, without a newline: `PROGRAM: PATH:LINE:COLUMN: KIND at byte OFFSET
    /// (SUBPART): explanation`. With `color`, the kind is bold red.
    ///
    /// ```
    /// use utf8_codec::ErrorKind;
    /// use utf8_tools::report::ErrorReport;
    /// let r = ErrorReport { path: "notes.txt", offset: 4461, kind: ErrorKind::Surrogate,
    ///     bytes: b"\xED", after: b"\xA0\x80", line: 3, column: 17 };
    /// assert_eq!(r.text("utf8-count", false),
    ///     "utf8-count: notes.txt:3:17: surrogate at byte 4461 (ED): \
    ///      ED A0 80 would encode the surrogate U+D800");
    /// ```
    pub fn text(&self, program: &str, color: bool) -> String {
        let at = Located {
            path: self.path,
            line: self.line,
            column: self.column,
            offset: self.offset,
            bytes: self.bytes,
        };
        let why = explain(self.kind, self.bytes, self.after);
        at.text(program, color, self.kind.as_str(), &why)
    }

    /// The JSON object, one line without a newline.
    ///
    /// ```
    /// use utf8_codec::ErrorKind;
    /// use utf8_tools::report::ErrorReport;
    /// let r = ErrorReport { path: "notes.txt", offset: 4461, kind: ErrorKind::Surrogate,
    ///     bytes: b"\xED", after: b"", line: 3, column: 17 };
    /// assert_eq!(r.json(), r#"{"path": "notes.txt", "offset": 4461, "len": 1, "kind": "surrogate", "bytes": "ED", "line": 3, "column": 17}"#);
    /// ```
    pub fn json(&self) -> String {
        json_line(&ErrorJson {
            path: self.path,
            offset: self.offset,
            len: self.bytes.len(),
            kind: self.kind.as_str(),
            bytes: hex(self.bytes),
            line: self.line,
            column: self.column,
            encoding: None,
        })
    }
}

/// A sequence that is malformed in an encoding other than UTF-8 (`--from`), located.
#[derive(Clone, Copy, Debug)]
pub struct Malformed<'a> {
    /// Where it is: `offset` counts the bytes of the input as it is on disk, `line` and
    /// `column` the decoded text.
    pub at: Located<'a>,
    /// The name of the encoding it is not valid in (encoding_rs's `Encoding::name`, or
    /// `US-ASCII`).
    pub encoding: &'static str,
}

/// An error report in text and in JSON: [`ErrorReport`] (UTF-8's), [`Malformed`] (another
/// encoding's).
pub trait Report {
    /// The text line, without a newline; with `color`, the kind is bold red.
    fn text(&self, program: &str, color: bool) -> String;
    /// The JSON object, one line without a newline.
    fn json(&self) -> String;
}

impl Report for ErrorReport<'_> {
    fn text(&self, program: &str, color: bool) -> String {
        ErrorReport::text(self, program, color)
    }

    fn json(&self) -> String {
        ErrorReport::json(self)
    }
}

impl Report for Malformed<'_> {
    /// `PROGRAM: PATH:LINE:COLUMN: malformed at byte OFFSET (BYTES): not a valid ENCODING
    /// sequence`.
    ///
    /// ```
    /// use utf8_tools::report::{Located, Malformed, Report};
    /// let at = Located { path: "a.txt", line: 1, column: 2, offset: 1, bytes: b"\x81" };
    /// let m = Malformed { at, encoding: encoding_rs::SHIFT_JIS.name() };
    /// assert_eq!(m.text("utf8-grep", false),
    ///     "utf8-grep: a.txt:1:2: malformed at byte 1 (81): not a valid Shift_JIS sequence");
    /// assert!(m.json().contains(r#""kind": "malformed", "bytes": "81""#));
    /// ```
    fn text(&self, program: &str, color: bool) -> String {
        let why = format!("not a valid {} sequence", self.encoding);
        self.at.text(program, color, "malformed", &why)
    }

    fn json(&self) -> String {
        json_line(&ErrorJson {
            path: self.at.path,
            offset: self.at.offset,
            len: self.at.bytes.len(),
            kind: "malformed",
            bytes: hex(self.at.bytes),
            line: self.at.line,
            column: self.at.column,
            encoding: Some(self.encoding),
        })
    }
}

/// An error's JSON object, fields in DESIGN.md's order. `kind` is an [`ErrorKind`]'s name, or
/// `malformed` with the `encoding` of a `utf8-repair --from` input.
#[derive(Debug, Serialize)]
pub struct ErrorJson<'a> {
    /// The input as diagnostics name it.
    pub path: &'a str,
    /// The 0-based byte offset of the bytes in the input.
    pub offset: u64,
    /// How many bytes.
    pub len: usize,
    /// Why they are ill-formed.
    pub kind: &'a str,
    /// The bytes, as [`hex`] writes them.
    pub bytes: String,
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
    /// The encoding the bytes are not valid in (`utf8-repair --from` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<&'a str>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The escapes the tools wrote before serde_json, in `json_line` and `json_compact`
    /// alike: `\uXXXX` in lowercase hex for control characters and DEL but for `\n`, `\r`
    /// and `\t`; anything else as it is.
    #[test]
    fn json_line_escapes_strings_as_before() {
        for c in (0..0x800).filter_map(char::from_u32) {
            let escaped = match c {
                '"' => "\\\"".to_string(),
                '\\' => "\\\\".to_string(),
                '\n' => "\\n".to_string(),
                '\r' => "\\r".to_string(),
                '\t' => "\\t".to_string(),
                c if (c as u32) < 0x20 || c == '\u{7F}' => format!("\\u{:04x}", c as u32),
                c => c.to_string(),
            };
            let want = format!("\"a{escaped}b\"");
            assert_eq!(json_line(&format!("a{c}b")), want, "U+{:04X}", c as u32);
            assert_eq!(json_compact(&format!("a{c}b")), want, "U+{:04X}", c as u32);
            let mut streamed = Vec::new();
            write_json_compact(&mut streamed, &format!("a{c}b")).unwrap();
            assert_eq!(streamed, want.as_bytes(), "U+{:04X}", c as u32);
        }
    }
}
