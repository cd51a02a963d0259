//! What of a prefix chardetng is given: the prefix without the ASCII stretches that cannot
//! change its scores, at most [`DETECT_LEN`] bytes of it.
//!
//! chardetng (0.1.17) scores a byte only together with a non-ASCII byte next to it: every
//! rule of its candidates skips a pair of ASCII bytes (for a Latin encoding, a case change
//! is penalized and the ordinal state machine gives its bonus only next to a non-ASCII
//! byte), and no ASCII byte is unmapped in any of its single-byte encodings. After a space
//! or line feed that follows an ASCII byte, each candidate that is still in the running is
//! in the same state as after any other such byte (no word, no case, no pending lead byte:
//! neither byte is ever a trail byte in a multi-byte encoding), and ASCII bytes up to the
//! next space or line feed add nothing to any score and end in that state again. So the
//! bytes after the first such space or line feed of an ASCII stretch, up to and including
//! its last one, are left out: the scores, and so the guess, stay what the whole prefix
//! gives. Nothing is left out before the first non-ASCII byte: chardetng skips that ASCII
//! itself, but for the escapes of ISO-2022-JP, whose candidate is out of the running after
//! the first non-ASCII byte.

/// How many bytes of excerpt chardetng decides from at most: 1 KiB, about 150 words of
/// Cyrillic or Greek, 500 CJK characters, or 120 words holding a letter outside ASCII in a
/// Latin script.
pub const DETECT_LEN: usize = 1024;

/// Whether a space or line feed: a byte after which chardetng's candidates are in one
/// state when the byte before it is ASCII (see the module docs).
fn resets(b: u8) -> bool {
    b == b' ' || b == b'\n'
}

/// Writes into `out` (cleared first) the bytes of `prefix` chardetng decides from, at most
/// `limit` of them (see the module docs): whether they are all of it (the excerpt was not
/// cut at `limit`).
///
/// ```
/// use utf8_tools::detect::excerpt;
/// let mut out = Vec::new();
/// let whole = excerpt(b"plain words \xE9t\xE9 and then some more words d\xE9j\xE0 vu", 100, &mut out);
/// assert_eq!(out, b"plain words \xE9t\xE9 and d\xE9j\xE0 vu");
/// assert!(whole);
/// assert!(!excerpt(b"d\xE9j\xE0 vu", 3, &mut out));
/// assert_eq!(out, b"d\xE9j");
/// ```
pub fn excerpt(prefix: &[u8], limit: usize, out: &mut Vec<u8>) -> bool {
    out.clear();
    let Some(first) = non_ascii(prefix, 0) else {
        out.extend_from_slice(&prefix[..prefix.len().min(limit)]);
        return prefix.len() <= limit;
    };
    out.extend_from_slice(&prefix[..=first]);
    let mut pos = first + 1;
    while pos < prefix.len() && out.len() < limit {
        let next = non_ascii(prefix, pos).unwrap_or(prefix.len());
        let gap = &prefix[pos..next];
        // The first space or line feed after an ASCII byte of the gap, and the last one.
        let first_reset = gap.iter().skip(1).position(|&b| resets(b)).map(|i| i + 1);
        let last_reset = first_reset.and_then(|i| {
            let after = &gap[i + 1..];
            memchr::memrchr2(b' ', b'\n', after).map(|j| i + 1 + j)
        });
        match (first_reset, last_reset) {
            (Some(i), Some(j)) => {
                out.extend_from_slice(&gap[..=i]);
                out.extend_from_slice(&gap[j + 1..]);
            }
            _ => out.extend_from_slice(gap),
        }
        out.extend_from_slice(&prefix[next..prefix.len().min(next + 1)]);
        pos = next + 1;
    }
    if out.len() > limit {
        out.truncate(limit);
        return false;
    }
    pos >= prefix.len()
}

/// The offset of the first non-ASCII byte of `bytes` from `from` on.
fn non_ascii(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = &bytes[from..];
    let n = encoding_rs::Encoding::ascii_valid_up_to(rest);
    (n < rest.len()).then_some(from + n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chardetng::EncodingDetector;
    use encoding_rs::{
        BIG5, EUC_JP, EUC_KR, Encoding, GBK, ISO_8859_5, KOI8_U, SHIFT_JIS, WINDOWS_874,
        WINDOWS_1250, WINDOWS_1251, WINDOWS_1252, WINDOWS_1253, WINDOWS_1254, WINDOWS_1255,
        WINDOWS_1256, WINDOWS_1257,
    };

    fn guesses(bytes: &[u8], last: bool) -> [(&'static Encoding, bool); 2] {
        let mut d = EncodingDetector::new();
        d.feed(bytes, last);
        [d.guess_assess(None, false), d.guess_assess(None, true)]
    }

    /// Text of one script with English, numbers, punctuation and ordinals between its
    /// words, in several spacings: what the excerpt leaves out must not change a guess.
    fn mixed(words: &str) -> Vec<String> {
        let english = "the file  was not found. N. 1 and N.o 2, Mr. X and IV,\n  see: /usr/share";
        let mut out = vec![words.to_string()];
        out.push(format!("{english} {words} {english}\n{words}\n\n{english}"));
        out.push(format!("{words}, {english}; {words}: ({english}) {words}!"));
        let interleaved: Vec<String> = words
            .split(' ')
            .flat_map(|w| [w.to_string(), "and ALL CAPS Then lower".to_string()])
            .collect();
        out.push(interleaved.join(" "));
        out.push(interleaved.join("\n"));
        out.push(format!("  {}  ", interleaved.join("  ")));
        out
    }

    #[test]
    fn the_excerpt_gives_the_guesses_of_the_whole() {
        let texts: [(&'static Encoding, &str); 16] = [
            (
                WINDOWS_1252,
                "Déjà vu: le fichier « données » n'a pas été créé ; n.º 3 ª",
            ),
            (WINDOWS_1252, "Größe der Datei überprüfen © Straße"),
            (
                WINDOWS_1250,
                "Nie można otworzyć pliku żółć. Hibás fájlnév: árvíztűrő tükörfúrógép",
            ),
            (
                WINDOWS_1251,
                "Не удалось открыть файл: нет такого файла или каталога",
            ),
            (
                KOI8_U,
                "Не удалось открыть файл: нет такого файла или каталога",
            ),
            (ISO_8859_5, "Не може да се отвори файлът: няма такъв файл"),
            (WINDOWS_1253, "Δεν ήταν δυνατό το άνοιγμα του αρχείου"),
            (
                WINDOWS_1254,
                "Dosya açılamadı: böyle bir dosya ya da dizin yok",
            ),
            (
                WINDOWS_1255,
                "לא ניתן לפתוח את הקובץ: אין קובץ או תיקייה כזו",
            ),
            (WINDOWS_1256, "تعذر فتح الملف: لا يوجد ملف أو دليل بهذا الاسم"),
            (
                WINDOWS_1257,
                "Nepavyko atverti failo: nėra tokio failo ar katalogo. Šąžūė",
            ),
            (WINDOWS_874, "ไม่สามารถเปิดแฟ้มได้ ไม่มีแฟ้มหรือไดเรกทอรีดังกล่าว"),
            (SHIFT_JIS, "ファイルを開けません ﾃｽﾄ でした"),
            (EUC_JP, "ファイルを開けません 日本語 でした"),
            (GBK, "无法打开文件 没有那个文件或目录"),
            (BIG5, "無法開啟檔案 沒有此一檔案或目錄"),
        ];
        let korean = (
            EUC_KR,
            "파일을 열 수 없습니다 그런 파일이나 디렉터리가 없습니다",
        );
        let mut out = Vec::new();
        let mut left_out = 0;
        for (enc, words) in texts.into_iter().chain([korean]) {
            for text in mixed(words) {
                let (bytes, _, unmappable) = enc.encode(&text);
                assert!(!unmappable, "{text} in {}", enc.name());
                assert!(excerpt(&bytes, usize::MAX, &mut out));
                left_out += bytes.len() - out.len();
                for last in [true, false] {
                    let want = guesses(&bytes, last);
                    assert_eq!(guesses(&out, last), want, "{} {text}", enc.name());
                }
                // Cut anywhere, the excerpt of the part still gives its guesses.
                for cut in (1..bytes.len()).step_by(13) {
                    excerpt(&bytes[..cut], usize::MAX, &mut out);
                    assert_eq!(
                        guesses(&out, false),
                        guesses(&bytes[..cut], false),
                        "{} {text} cut at {cut}",
                        enc.name()
                    );
                }
            }
        }
        assert!(left_out > 1000, "{left_out}");
        // Damaged UTF-8 among ASCII.
        let damaged =
            b"ok \xC3\xA9t\xC3\xA9 and a long English line\n\xFF then more words \x80 end";
        excerpt(damaged, usize::MAX, &mut out);
        assert!(out.len() < damaged.len());
        assert_eq!(guesses(&out, true), guesses(damaged, true));
    }

    #[test]
    fn what_is_kept() {
        let mut out = Vec::new();
        // ASCII before the first non-ASCII byte is all kept (ISO-2022-JP's escapes).
        let ascii = b"\x1b$B$3$s\x1b(B and words";
        assert!(excerpt(ascii, 100, &mut out));
        assert_eq!(out, ascii);
        assert!(!excerpt(ascii, 4, &mut out));
        assert_eq!(out, &ascii[..4]);
        // A stretch without two spaces, or whose only space follows the non-ASCII byte, is kept.
        for kept in [&b"\xE9t\xE9 x\xE9"[..], b"\xE9 ab \xE9", b"\xE9\n\nab\xE9"] {
            excerpt(kept, 100, &mut out);
            assert_eq!(out, kept);
        }
        // Left out: after the first space or line feed that follows an ASCII byte, up to
        // and including the last one before the next non-ASCII byte.
        excerpt(
            b"\xE9t\xE9 one two\nthree four\xE9 end words",
            100,
            &mut out,
        );
        assert_eq!(out, b"\xE9t\xE9 one four\xE9 end words");
        excerpt(b"x\xE9, and, also:\n\n(\xE9)", 100, &mut out);
        assert_eq!(out, b"x\xE9, (\xE9)");
        assert!(excerpt(b"", 0, &mut out));
        assert!(out.is_empty());
    }
}
