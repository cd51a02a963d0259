//! Which encoding a stream of bytes is in: a byte order mark, valid UTF-8, or the guess of
//! `chardetng` (the detector Firefox uses) over a bounded prefix of the stream.
//!
//! `utf8-repair --from auto` decodes with [`guess`]; `utf8-repair` without `--from` and
//! `utf8-count --check` print a note when [`hint`] names an encoding. Both decide from the
//! first [`SNIFF_LEN`] bytes (or the whole input, when it is shorter); chardetng is given at
//! most [`DETECT_LEN`] bytes of them, with the ASCII that cannot change its guess left out
//! ([`excerpt`]).
//!
//! Damaged UTF-8 is told from legacy text by what its non-ASCII bytes form: text in a
//! legacy encoding almost never holds well-formed multi-byte UTF-8 sequences (a Latin-1
//! `é` is one byte `E9`, which starts no valid sequence when a letter follows it), while
//! UTF-8 with a few damaged bytes holds more valid sequences than errors. Input with at
//! least as many well-formed multi-byte characters as errors is taken as UTF-8.

use std::io::{self, Read};

use chardetng::EncodingDetector;

mod excerpt;
mod look;
use encoding_rs::{DecoderResult, Encoding, ISO_2022_JP, UTF_8};

use crate::labels::Charset;
pub use excerpt::{DETECT_LEN, excerpt};
pub use look::{LOOK_LEN, Look, look, read_first};

/// How many bytes of a stream are looked at before an encoding is chosen: 1 MiB.
pub const SNIFF_LEN: usize = 1 << 20;

/// What an encoding was chosen from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// A byte order mark (UTF-8, UTF-16LE or UTF-16BE).
    Bom,
    /// The prefix is valid UTF-8.
    Utf8,
    /// The prefix is UTF-8 damaged in fewer places than it has non-ASCII characters.
    DamagedUtf8,
    /// chardetng's guess.
    Detected,
    /// Named on the command line (`--from LABEL`).
    Given,
    /// No byte order mark, but NUL bytes in most odd (UTF-16LE) or most even (UTF-16BE)
    /// positions of the first block ([`look`]).
    NulPattern,
}

impl Evidence {
    /// The words for it in reports: `byte order mark`, `valid UTF-8`, `mostly valid UTF-8`,
    /// `detected`, `given`, `NUL pattern of UTF-16`.
    pub fn as_str(self) -> &'static str {
        match self {
            Evidence::Bom => "byte order mark",
            Evidence::Utf8 => "valid UTF-8",
            Evidence::DamagedUtf8 => "mostly valid UTF-8",
            Evidence::Detected => "detected",
            Evidence::Given => "given",
            Evidence::NulPattern => "NUL pattern of UTF-16",
        }
    }
}

/// An encoding and what it was chosen from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guess {
    /// The encoding to decode with.
    pub encoding: Charset,
    /// Why.
    pub evidence: Evidence,
}

/// What the UTF-8 decoder makes of a prefix.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Utf8Stats {
    /// Well-formed characters of two to four bytes.
    multibyte: usize,
    /// Maximal subparts that are not well-formed (a sequence cut by the end of an
    /// incomplete prefix is not counted).
    errors: usize,
}

impl Utf8Stats {
    fn of(prefix: &[u8], complete: bool) -> Utf8Stats {
        let mut s = Utf8Stats::default();
        let mut chunks = prefix.utf8_chunks().peekable();
        while let Some(c) = chunks.next() {
            s.multibyte += c.valid().bytes().filter(|&b| b >= 0xC0).count();
            let cut_by_end = !complete && chunks.peek().is_none();
            if !c.invalid().is_empty() && !cut_by_end {
                s.errors += 1;
            }
        }
        s
    }

    /// Valid, or damaged in fewer places than it has non-ASCII characters.
    fn looks_utf8(self) -> bool {
        self.multibyte >= self.errors
    }
}

/// The encoding of a stream that begins with `prefix` (`complete`: the whole stream).
///
/// A byte order mark decides; then the NUL pattern of UTF-16 ([`Look::Utf16`]); then
/// UTF-8 unless the prefix is not UTF-8 (see the module docs); then chardetng. Pure ASCII
/// with ISO-2022-JP escapes is ISO-2022-JP when chardetng says so (every other ASCII text
/// is UTF-8).
///
/// ```
/// use utf8_tools::detect::{guess, Evidence};
/// let g = guess(b"caf\xE9 na\xEFve \xABquote\xBB, d\xE9j\xE0 vu", true);
/// assert_eq!(g.encoding, encoding_rs::WINDOWS_1252);
/// assert_eq!(g.evidence, Evidence::Detected);
/// assert_eq!(guess("café".as_bytes(), true).encoding, encoding_rs::UTF_8);
/// ```
pub fn guess(prefix: &[u8], complete: bool) -> Guess {
    if let Some((encoding, _)) = Encoding::for_bom(prefix) {
        return Guess {
            encoding: encoding.into(),
            evidence: Evidence::Bom,
        };
    }
    if let Look::Utf16(encoding) = look(prefix) {
        return Guess {
            encoding: encoding.into(),
            evidence: Evidence::NulPattern,
        };
    }
    let utf8 = Guess {
        encoding: UTF_8.into(),
        evidence: Evidence::Utf8,
    };
    let detected = |encoding: &'static Encoding| Guess {
        encoding: encoding.into(),
        evidence: Evidence::Detected,
    };
    let stats = Utf8Stats::of(prefix, complete);
    if stats.errors == 0 {
        if prefix.is_ascii() && memchr::memchr(0x1B, prefix).is_some() {
            let (enc, _) = detector(prefix, complete).guess_assess(None, true);
            if enc == ISO_2022_JP {
                return detected(enc);
            }
        }
        return utf8;
    }
    if stats.looks_utf8() {
        return Guess {
            encoding: UTF_8.into(),
            evidence: Evidence::DamagedUtf8,
        };
    }
    detected(detector(prefix, complete).guess(None, false))
}

/// The encoding to suggest for a stream that begins with `prefix`, if any: UTF-16 by its
/// NUL pattern ([`Look::Utf16`]), or a legacy encoding when the prefix is not UTF-8 (not even damaged UTF-8), chardetng is confident of its guess, and
/// the prefix decodes as that encoding without a single malformed sequence.
///
/// ```
/// use utf8_tools::detect::hint;
/// let latin = b"caf\xE9 na\xEFve \xABquote\xBB, d\xE9j\xE0 vu";
/// assert_eq!(hint(latin, true), Some(encoding_rs::WINDOWS_1252));
/// assert_eq!(hint("café".as_bytes(), true), None); // valid UTF-8
/// assert_eq!(hint(b"caf\xC3\xA9, na\xC3\xAFve, \xFF", true), None); // damaged UTF-8
/// ```
pub fn hint(prefix: &[u8], complete: bool) -> Option<&'static Encoding> {
    match look(prefix) {
        Look::Utf16(enc) => return Some(enc),
        Look::Text => {}
        Look::Bom(_) | Look::Utf32Bom(_) | Look::Binary => return None,
    }
    if Utf8Stats::of(prefix, complete).looks_utf8() {
        return None;
    }
    let (enc, confident) = detector(prefix, complete).guess_assess(None, false);
    (confident && reads_as_text(enc, prefix, complete)).then_some(enc)
}

/// The note for invalid UTF-8 that starts with the byte order mark of another encoding,
/// after the program's name: what it is and (UTF-16) what to pass to read its text
/// (`try_with`, before the label); `None` for any other input.
///
/// ```
/// let m = utf8_tools::detect::bom_note("a.txt", b"\xFF\xFEh\0", "--from");
/// assert_eq!(m.as_deref(), Some("a.txt: UTF-16LE text (byte order mark), not UTF-8; try --from UTF-16LE"));
/// let m = utf8_tools::detect::bom_note("b.txt", b"\0\0\xFE\xFF\0\0\0h", "--from");
/// assert_eq!(m.as_deref(), Some("b.txt: UTF-32BE text (byte order mark), not UTF-8, which no tool here decodes"));
/// assert_eq!(utf8_tools::detect::bom_note("c.txt", b"\xEF\xBB\xBFh\xFF", "--from"), None);
/// ```
pub fn bom_note(name: &str, prefix: &[u8], try_with: &str) -> Option<String> {
    match look(prefix) {
        Look::Bom(enc) if enc != UTF_8 => Some(format!(
            "{name}: {} text (byte order mark), not UTF-8; try {try_with} {}",
            enc.name(),
            enc.name()
        )),
        Look::Utf32Bom(form) => Some(format!(
            "{name}: {form} text (byte order mark), not UTF-8, which no tool here decodes"
        )),
        _ => None,
    }
}

/// The note for an input that seems to be in `enc`, after the program's name:
/// `notes.txt: this looks like windows-1252 text; try --from windows-1252` (`try_with` is
/// what to type before the label).
///
/// ```
/// let m = utf8_tools::detect::hint_message("a.txt", encoding_rs::SHIFT_JIS, "--from");
/// assert_eq!(m, "a.txt: this looks like Shift_JIS text; try --from Shift_JIS");
/// ```
pub fn hint_message(name: &str, enc: &'static Encoding, try_with: &str) -> String {
    format!(
        "{name}: this looks like {} text; try {try_with} {}",
        enc.name(),
        enc.name()
    )
}

/// chardetng after the first [`DETECT_LEN`] bytes of the [`excerpt`] of `prefix`.
fn detector(prefix: &[u8], complete: bool) -> EncodingDetector {
    let mut bytes = Vec::with_capacity(prefix.len().min(DETECT_LEN));
    let whole = excerpt(prefix, DETECT_LEN, &mut bytes);
    let mut d = EncodingDetector::new();
    d.feed(&bytes, complete && whole);
    d
}

/// Whether `bytes` decode as `enc` without a malformed sequence (one cut by the end of an
/// incomplete prefix is allowed) into plausible text: most non-ASCII characters are letters
/// in words of one script ([`Words`]).
///
/// chardetng's confidence only says that its best candidate scored above zero, and a few
/// damaged UTF-8 bytes with no valid sequence beside them (`ok\xED\xA0\x80 line`) read as
/// letters in several code pages: as IBM866 that one is `okэаА`, a word of two scripts.
fn reads_as_text(enc: &'static Encoding, bytes: &[u8], complete: bool) -> bool {
    let mut decoder = enc.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(4096);
    let mut words = Words::default();
    let mut pos = 0;
    loop {
        out.clear();
        let (result, read) =
            decoder.decode_to_string_without_replacement(&bytes[pos..], &mut out, complete);
        pos += read;
        out.chars().for_each(|c| words.push(c));
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(..) => return false,
        }
    }
    words.end();
    words.plausible()
}

/// Non-ASCII characters of decoded text by kind: letters in words of one script, letters
/// in words that mix scripts (`endЁЯШ`), and the rest (punctuation, symbols).
#[derive(Debug, Default)]
struct Words {
    /// The script of the current word so far, if it has letters.
    script: Option<Script>,
    /// Whether the current word mixes scripts.
    mixed: bool,
    /// Non-ASCII letters in the current word.
    letters: usize,
    coherent: usize,
    incoherent: usize,
    /// Punctuation and spaces.
    other: usize,
    /// Symbols (currency, box drawing, ...) and C1 controls.
    junk: usize,
    /// Whether a C1 control (U+0080..U+009F) was seen: no legacy text has one.
    control: bool,
}

/// A script, coarsely: text in one legacy encoding is in one of these (and ASCII).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Hebrew,
    Arabic,
    Thai,
    /// Han, kana and Hangul, which Chinese, Japanese and Korean text mix.
    Cjk,
    Other,
}

impl Script {
    fn of(c: char) -> Option<Script> {
        Some(match c as u32 {
            0x300..=0x36F | 0x30..=0x39 | 0x591..=0x5C7 | 0x64B..=0x65F => return None,
            0x41..=0x5A | 0x61..=0x7A | 0xC0..=0x24F | 0x1E00..=0x1EFF => Script::Latin,
            0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
            0x400..=0x52F => Script::Cyrillic,
            0x590..=0x5FF | 0xFB1D..=0xFB4F => Script::Hebrew,
            0x600..=0x6FF | 0x750..=0x77F | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => Script::Arabic,
            0xE00..=0xE7F => Script::Thai,
            0x1100..=0x11FF | 0x3040..=0x30FF | 0x3130..=0x318F | 0x31F0..=0x31FF => Script::Cjk,
            0x3400..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF => Script::Cjk,
            _ => Script::Other,
        })
    }
}

impl Words {
    fn push(&mut self, c: char) {
        // Letters, digits and combining marks (Latin, Hebrew, Arabic and Thai ones).
        let in_word = c.is_alphanumeric()
            || matches!(c as u32, 0x300..=0x36F | 0x591..=0x5C7 | 0x64B..=0x65F | 0xE31..=0xE4E);
        if !in_word {
            self.end();
            match c as u32 {
                0..=0x7F => {}
                0x80..=0x9F => self.control = true,
                // Latin-1 punctuation, general punctuation, CJK and fullwidth punctuation.
                0xA0 | 0xA1 | 0xA7 | 0xAB | 0xB7 | 0xBB | 0xBF => self.other += 1,
                0x2000..=0x206F | 0x3000..=0x303F | 0xFF01..=0xFF0F | 0xFF1A..=0xFF20 => {
                    self.other += 1;
                }
                _ if c.is_whitespace() => self.other += 1,
                _ => self.junk += 1,
            }
            return;
        }
        if !c.is_ascii() {
            self.letters += 1;
        }
        if let Some(s) = Script::of(c) {
            match self.script {
                None => self.script = Some(s),
                Some(t) if t != s => self.mixed = true,
                Some(_) => {}
            }
        }
    }

    /// Ends the current word.
    fn end(&mut self) {
        if self.mixed {
            self.incoherent += self.letters;
        } else {
            self.coherent += self.letters;
        }
        (self.script, self.mixed, self.letters) = (None, false, 0);
    }

    /// Enough letters in one-script words to go by (four: one or two stray bytes in ASCII
    /// text are as likely damage as a legacy letter), at least twice as many as letters in
    /// words that mix scripts (Japanese mixes in Latin: 10-26% of the letters of the catalog
    /// samples), and at least half as many as the punctuation and symbols (French and
    /// German quote with guillemets: up to 47% of their non-ASCII characters).
    /// No C1 control, and symbols are rare (a quarter of the letters at most).
    fn plausible(&self) -> bool {
        self.coherent >= 4
            && self.coherent >= 2 * self.incoherent
            && 2 * self.coherent >= self.other
            && self.coherent >= 4 * self.junk
            && !self.control
    }
}

/// Reads from `reader` up to `limit` bytes and one more (to tell whether the stream goes
/// on): the bytes, and whether they are the whole stream.
pub fn read_prefix(reader: &mut impl Read, limit: usize) -> io::Result<(Vec<u8>, bool)> {
    let mut prefix = Vec::new();
    let n = reader.take(limit as u64).read_to_end(&mut prefix)?;
    if n < limit {
        return Ok((prefix, true));
    }
    // Exactly `limit` bytes: the stream may end here; one more read tells.
    let mut one = [0u8; 1];
    let more = loop {
        match reader.read(&mut one) {
            Ok(n) => break n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    };
    prefix.extend_from_slice(&one[..more]);
    Ok((prefix, more == 0))
}

/// A reader that keeps a copy of the first bytes it passes on (up to a limit), for a hint
/// once the stream has been read.
#[derive(Debug)]
pub struct Tee<R> {
    inner: R,
    kept: Vec<u8>,
    limit: usize,
    /// Whether the inner reader reached its end.
    ended: bool,
}

impl<R: Read> Tee<R> {
    /// Passes `inner` on, keeping its first `limit` bytes.
    pub fn new(inner: R, limit: usize) -> Tee<R> {
        Tee {
            inner,
            kept: Vec::new(),
            limit,
            ended: false,
        }
    }

    /// The bytes kept, and whether they are the whole stream.
    pub fn kept(&self) -> (&[u8], bool) {
        (&self.kept, self.ended && self.kept.len() < self.limit)
    }
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.ended = true;
        }
        let room = self.limit - self.kept.len();
        self.kept.extend_from_slice(&buf[..n.min(room)]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{
        EUC_KR, GBK, SHIFT_JIS, UTF_16BE, UTF_16LE, WINDOWS_1251, WINDOWS_1252, WINDOWS_1253,
    };

    fn encode(enc: &'static Encoding, s: &str) -> Vec<u8> {
        let (bytes, _, unmappable) = enc.encode(s);
        assert!(!unmappable, "{s} in {}", enc.name());
        bytes.into_owned()
    }

    const FRENCH: &str = "Le fichier « données.txt » n'a pas été trouvé ; vérifiez le chemin \
                          et réessayez. Déjà créé à côté.";
    const RUSSIAN: &str = "Не удалось открыть файл: нет такого файла или каталога. Проверьте \
                           путь и повторите попытку.";
    const GREEK: &str = "Δεν ήταν δυνατό το άνοιγμα του αρχείου: δεν υπάρχει τέτοιο αρχείο \
                         ή κατάλογος.";
    const JAPANESE: &str =
        "ファイルを開けませんでした。そのようなファイルやディレクトリはありません。";
    const CHINESE: &str = "无法打开文件：没有那个文件或目录。请检查路径后重试。";
    const KOREAN: &str =
        "파일을 열 수 없습니다: 그런 파일이나 디렉터리가 없습니다. 경로를 확인하십시오.";

    #[test]
    fn legacy_text_is_detected_and_hinted() {
        for (enc, text) in [
            (WINDOWS_1252, FRENCH),
            (WINDOWS_1251, RUSSIAN),
            (WINDOWS_1253, GREEK),
            (SHIFT_JIS, JAPANESE),
            (GBK, CHINESE),
            (EUC_KR, KOREAN),
        ] {
            let bytes = encode(enc, text);
            let g = guess(&bytes, true);
            assert_eq!(g.encoding, enc, "{}", enc.name());
            assert_eq!(g.evidence, Evidence::Detected);
            assert_eq!(hint(&bytes, true), Some(enc), "{}", enc.name());
        }
    }

    #[test]
    fn utf8_valid_or_damaged_is_utf8_and_never_hinted() {
        for text in [
            FRENCH,
            RUSSIAN,
            GREEK,
            JAPANESE,
            CHINESE,
            KOREAN,
            "plain ASCII",
        ] {
            let mut bytes = text.as_bytes().to_vec();
            assert_eq!(guess(&bytes, true).encoding, UTF_8);
            assert_eq!(guess(&bytes, true).evidence, Evidence::Utf8);
            assert_eq!(hint(&bytes, true), None);
            // A few damaged bytes: a stray byte, a truncated sequence, a lone continuation.
            let at = bytes.len() / 2;
            bytes.insert(at, 0xFF);
            bytes.insert(at / 2, 0x80);
            bytes.push(0xE3);
            if !text.is_ascii() {
                // (ASCII with stray bytes has no UTF-8 in it to tell it from legacy text.)
                assert_eq!(guess(&bytes, true).encoding, UTF_8, "{text}");
                assert_eq!(hint(&bytes, true), None, "{text}");
            }
        }
    }

    #[test]
    fn a_sequence_cut_by_the_end_of_the_prefix_is_not_an_error() {
        let s = "日本語".as_bytes();
        assert_eq!(Utf8Stats::of(&s[..4], false).errors, 0);
        assert_eq!(Utf8Stats::of(&s[..4], true).errors, 1);
        assert_eq!(guess(&s[..4], false).evidence, Evidence::Utf8);
    }

    #[test]
    fn damaged_utf8_without_valid_sequences_gets_no_hint() {
        // The repair tests' sample of every error kind (surrogate, overlong, too large,
        // truncated, stray bytes) reads as IBM866 letters, in words of two scripts.
        let bad = b"ok\xED\xA0\x80 line\nsecond \xC1\x81 \xF4\x90\x80\x80\n\xE2\x82A\xFF\x80 end\xF0\x9F\x98";
        assert_eq!(hint(bad, true), None);
        let mut w = Words::default();
        "okэаА endЁЯШ Жук «déjà» 日本語で"
            .chars()
            .for_each(|c| w.push(c));
        w.end();
        assert_eq!((w.coherent, w.incoherent, w.other), (9, 6, 2));
    }

    #[test]
    fn boms_decide() {
        assert_eq!(guess(b"\xFF\xFEa\0", true).encoding, UTF_16LE);
        assert_eq!(guess(b"\xFE\xFF\0a", true).encoding, UTF_16BE);
        let g = guess(b"\xEF\xBB\xBFabc", true);
        assert_eq!((g.encoding, g.evidence), (UTF_8.into(), Evidence::Bom));
        assert_eq!(hint(b"\xFF\xFEa\0", true), None);
    }

    #[test]
    fn iso_2022_jp_is_recognized_among_ascii() {
        let bytes = encode(ISO_2022_JP, JAPANESE);
        assert!(bytes.is_ascii());
        assert_eq!(guess(&bytes, true).encoding, ISO_2022_JP);
        // Other escapes (a terminal's colours) stay UTF-8.
        assert_eq!(guess(b"\x1b[31mred\x1b[0m", true).encoding, UTF_8);
    }

    #[test]
    fn prefixes_and_tees_keep_what_they_saw() {
        let data: Vec<u8> = (0..100u8).collect();
        let (p, end) = read_prefix(&mut &data[..], 100).unwrap();
        assert_eq!((p.len(), end), (100, true));
        let (p, end) = read_prefix(&mut &data[..], 40).unwrap();
        assert_eq!((p.len(), end), (41, false));
        let mut tee = Tee::new(&data[..], 30);
        let mut all = Vec::new();
        tee.read_to_end(&mut all).unwrap();
        assert_eq!(all, data);
        assert_eq!(tee.kept(), (&data[..30], false));
        let mut tee = Tee::new(&data[..], 300);
        io::copy(&mut tee, &mut io::sink()).unwrap();
        assert_eq!(tee.kept(), (&data[..], true));
    }
}
