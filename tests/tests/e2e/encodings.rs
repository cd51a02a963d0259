//! utf8-grep and utf8-count on files in other encodings (`--from`, and utf8-grep's byte
//! order mark sniffing): one tree holding the same text in UTF-8, UTF-8 with a byte order
//! mark, UTF-16LE and UTF-16BE with one, and eight legacy encodings, each legacy file the
//! lines its encoding can encode.

use std::collections::BTreeMap;
use std::path::Path;

use encoding_rs::{
    BIG5, EUC_JP, EUC_KR, Encoding, GBK, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1251,
    WINDOWS_1252,
};

use crate::util::{TestCommand, count, tempdir, write};

fn grep(dir: &Path) -> TestCommand {
    TestCommand::new("utf8-grep", dir)
}

const LATIN: &str = "Le fichier « données.txt » n'a pas été trouvé ; vérifiez le chemin.\n\
                     Déjà créé à côté, l'été dernier : très bien.\n\
                     Grüße aus München, Straße und Größe.\n";
const RUSSIAN: &str = "Не удалось открыть файл: нет такого файла или каталога.\n\
                       Проверьте путь к файлу и повторите попытку.\n";
const JAPANESE: &str = "ファイルを開けませんでした。そのようなファイルやディレクトリはありません。\n\
                        日本語のテキストを検索します。\n";
const CHINESE: &str = "无法打开文件：没有那个文件或目录。请检查路径后重试。\n\
                       中文文本搜索测试，这是第二行。\n";
const TRADITIONAL: &str = "無法開啟檔案：沒有該檔案或目錄。請檢查路徑後重試。\n\
                           繁體中文文字搜尋測試，這是第二行。\n";
const KOREAN: &str = "파일을 열 수 없습니다: 그런 파일이나 디렉터리가 없습니다.\n\
                      경로를 확인하십시오. 파일 이름을 다시 입력하십시오.\n";
const ASCII: &str = "plain ASCII line, data.txt\n";

/// The words searched for: one in each script, and one in ASCII.
const WORDS: &[&str] = &["été", "файла", "ファイル", "文件", "檔案", "파일", "txt"];

/// Each file of the tree: its name, encoding, byte order mark, and text.
fn tree() -> Vec<(&'static str, &'static Encoding, &'static [u8], String)> {
    let all = [
        LATIN,
        RUSSIAN,
        JAPANESE,
        CHINESE,
        TRADITIONAL,
        KOREAN,
        ASCII,
    ]
    .concat();
    let with_ascii = |t: &str| format!("{ASCII}{t}{ASCII}");
    vec![
        ("utf8.txt", UTF_8, b"", all.clone()),
        ("utf8-bom.txt", UTF_8, b"\xEF\xBB\xBF", all.clone()),
        ("utf16le.txt", UTF_16LE, b"\xFF\xFE", all.clone()),
        ("utf16be.txt", UTF_16BE, b"\xFE\xFF", all),
        ("gbk.txt", GBK, b"", with_ascii(CHINESE)),
        ("big5.txt", BIG5, b"", with_ascii(TRADITIONAL)),
        ("sjis.txt", SHIFT_JIS, b"", with_ascii(JAPANESE)),
        ("eucjp.txt", EUC_JP, b"", with_ascii(JAPANESE)),
        ("euckr.txt", EUC_KR, b"", with_ascii(KOREAN)),
        ("cp1251.txt", WINDOWS_1251, b"", with_ascii(RUSSIAN)),
        ("cp1252.txt", WINDOWS_1252, b"", with_ascii(LATIN)),
    ]
}

/// `text` in `enc` (encoding_rs encodes UTF-16 as UTF-8, as the WHATWG standard does).
fn encode(enc: &'static Encoding, text: &str) -> Vec<u8> {
    let units = text.encode_utf16();
    if enc == UTF_16LE {
        return units.flat_map(u16::to_le_bytes).collect();
    }
    if enc == UTF_16BE {
        return units.flat_map(u16::to_be_bytes).collect();
    }
    let (bytes, _, unmappable) = enc.encode(text);
    assert!(!unmappable, "{text} in {}", enc.name());
    bytes.into_owned()
}

fn write_tree(d: &Path) -> Vec<(&'static str, &'static Encoding, Vec<u8>, String)> {
    tree()
        .into_iter()
        .map(|(name, enc, bom, text)| {
            let mut bytes = bom.to_vec();
            bytes.extend_from_slice(&encode(enc, &text));
            write(d, &format!("tree/{name}"), &bytes);
            (name, enc, bytes, text)
        })
        .collect()
}

#[test]
fn a_tree_of_mixed_encodings_is_searched_as_text() {
    let dir = tempdir();
    let d = dir.path();
    let files = write_tree(d);
    for word in WORDS {
        // Every file's count: the lines of its text holding the word.
        let mut want: Vec<String> = files
            .iter()
            .map(|(name, _, _, text)| {
                let n = text.lines().filter(|l| l.contains(word)).count();
                format!("tree/{name}:{n}")
            })
            .collect();
        want.sort();
        let mut runs = Vec::new();
        for threads in ["1", "2", "4"] {
            let o = grep(d)
                .args(["-r", "--from", "auto", "-c", "-j", threads, word, "tree"])
                .run();
            o.assert_code(0);
            let mut got: Vec<String> = o.out().lines().map(str::to_string).collect();
            runs.push(got.clone());
            got.sort();
            assert_eq!(got, want, "{word}");
        }
        // The same order with every thread count.
        assert!(runs.windows(2).all(|w| w[0] == w[1]), "{word}: {runs:?}");
    }
}

#[test]
fn byte_offsets_point_at_the_match_in_the_file() {
    let dir = tempdir();
    let d = dir.path();
    let files = write_tree(d);
    let by_name: BTreeMap<String, _> = files
        .iter()
        .map(|(name, enc, bytes, _)| (format!("tree/{name}"), (*enc, bytes)))
        .collect();
    for word in WORDS {
        let o = grep(d)
            .args(["-r", "--from", "auto", "-o", "-b", word, "tree"])
            .run();
        o.assert_code(0);
        let mut seen = 0;
        for line in o.out().lines() {
            let mut parts = line.splitn(3, ':');
            let (name, offset, text) = (
                parts.next().unwrap(),
                parts.next().unwrap().parse::<usize>().unwrap(),
                parts.next().unwrap(),
            );
            // The match printed as UTF-8, at the offset of its bytes in the file.
            assert_eq!(text, *word, "{line}");
            let (enc, bytes) = by_name[name];
            let want = encode(enc, word);
            assert_eq!(
                &bytes[offset..offset + want.len()],
                &want[..],
                "{line}: {}",
                enc.name()
            );
            seen += 1;
        }
        assert!(seen >= 4, "{word}: {}", o.out());
        // Lines (-b without -o): the offset of the line's first byte, after a newline or
        // the byte order mark.
        let o = grep(d)
            .args(["-r", "--from", "auto", "-b", word, "tree"])
            .run();
        for line in o.out().lines() {
            let mut parts = line.splitn(3, ':');
            let name = parts.next().unwrap();
            let offset: usize = parts.next().unwrap().parse().unwrap();
            let (enc, bytes) = by_name[name];
            let bom = Encoding::for_bom(bytes).map_or(0, |(_, n)| n);
            let unit = if enc == UTF_16LE || enc == UTF_16BE {
                2
            } else {
                1
            };
            let newline = encode(enc, "\n");
            assert!(
                offset == bom || bytes[offset - unit..offset] == newline[..],
                "{line}"
            );
        }
    }
}

#[test]
fn byte_order_marks_are_sniffed_unless_from_utf8() {
    let dir = tempdir();
    let d = dir.path();
    write_tree(d);
    // Without --from: the UTF-16 files and the UTF-8 ones (a byte order mark is not
    // searched, nor printed); the legacy files are bytes.
    let o = grep(d)
        .args(["-c", "été", "tree/utf16le.txt", "tree/utf16be.txt"])
        .run();
    assert_eq!(o.out(), "tree/utf16le.txt:2\ntree/utf16be.txt:2\n");
    let o = grep(d).args(["-n", "données", "tree/utf8-bom.txt"]).run();
    assert_eq!(
        o.out(),
        "1:Le fichier « données.txt » n'a pas été trouvé ; vérifiez le chemin.\n"
    );
    let o = grep(d).args(["-c", "été", "tree/cp1252.txt"]).run();
    assert_eq!(o.out(), "0\n");
    // --from utf-8: every file as its bytes, a byte order mark included.
    let o = grep(d)
        .args(["--from", "utf-8", "-c", "été", "tree/utf16le.txt"])
        .run();
    assert_eq!(o.out(), "0\n");
    let o = grep(d)
        .args(["--from", "utf-8", "-b", "-o", "Le", "tree/utf8-bom.txt"])
        .run();
    assert_eq!(o.out(), "3:Le\n");
    let o = grep(d)
        .args(["--from", "utf-8", "^Le", "tree/utf8-bom.txt"])
        .run();
    o.assert_code(1);
    // A label names the encoding of files with no byte order mark.
    let o = grep(d)
        .args(["--from", "windows-1252", "-c", "été", "tree/cp1252.txt"])
        .run();
    assert_eq!(o.out(), "2\n");
    let o = grep(d).args(["--from", "klingon", "x", "tree"]).run();
    o.assert_code(2);
    assert!(
        o.err().contains("unknown encoding 'klingon'"),
        "{}",
        o.err()
    );
}

#[test]
fn json_names_the_encoding_and_offsets_are_the_files() {
    let dir = tempdir();
    let d = dir.path();
    write_tree(d);
    let o = grep(d)
        .args([
            "--json",
            "--from",
            "auto",
            "файла",
            "tree/cp1251.txt",
            "tree/utf16be.txt",
        ])
        .run();
    o.assert_code(0);
    let msgs: Vec<serde_json::Value> = o
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let begins: Vec<_> = msgs.iter().filter(|m| m["type"] == "begin").collect();
    assert_eq!(begins[0]["data"]["encoding"], "windows-1251");
    assert_eq!(begins[0]["data"]["decided_by"], "detected");
    assert_eq!(begins[1]["data"]["encoding"], "UTF-16BE");
    assert_eq!(begins[1]["data"]["decided_by"], "byte order mark");
    let first = msgs.iter().find(|m| m["type"] == "match").unwrap();
    // cp1251.txt: the ASCII line, then the Russian one (one byte a letter).
    assert_eq!(first["data"]["absolute_offset"], ASCII.len());
    assert_eq!(first["data"]["submatches"][0]["match"]["text"], "файла");
}

#[test]
fn count_from_auto_counts_the_decoded_text() {
    let dir = tempdir();
    let d = dir.path();
    let files = write_tree(d);
    for (name, enc, bytes, text) in &files {
        write(d, "plain.txt", text);
        let fields = |o: &crate::util::Outcome| -> serde_json::Value {
            serde_json::from_str(o.out().lines().next().unwrap()).unwrap()
        };
        let want = fields(&count(d).args(["--json", "plain.txt"]).run());
        let o = count(d)
            .args(["--json", "--from", "auto", &format!("tree/{name}")])
            .run();
        o.assert_code(0);
        let got = fields(&o);
        for k in ["lines", "words", "chars", "errors"] {
            assert_eq!(got[k], want[k], "{name} {k}");
        }
        assert_eq!(got["bytes"], bytes.len(), "{name}");
        assert_eq!(got["encoding"], enc.name(), "{name}");
        // Without --from, wc's view of the bytes.
        let o = count(d).args(["--json", &format!("tree/{name}")]).run();
        assert_eq!(fields(&o)["bytes"], bytes.len());
        assert!(fields(&o).get("encoding").is_none());
    }
}

#[test]
fn count_reports_malformed_sequences_as_errors() {
    let dir = tempdir();
    let d = dir.path();
    // Shift_JIS: a lead byte before a space, then text.
    let o = count(d)
        .args(["--from", "shift_jis", "--json"])
        .stdin(b"a\x81 b\n\x83n\n")
        .run();
    let v: serde_json::Value = serde_json::from_str(o.out().trim()).unwrap();
    assert_eq!(
        (&v["lines"], &v["chars"], &v["bytes"], &v["errors"]),
        (&2.into(), &6.into(), &8.into(), &1.into()),
        "{v}"
    );
    // A UTF-16 byte order mark read from a pipe, and an odd byte at the end.
    let o = count(d)
        .args(["--from", "auto", "-l", "-m", "-c", "-e"])
        .stdin(b"\xFF\xFEh\0i\0\n\0!")
        .run();
    assert_eq!(o.out(), "      1       3       9       1\n");
}

#[test]
fn invalid_report_names_the_encodings_malformed_sequences_where_they_are_in_the_file() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "sj.txt", b"ok \x81 x\nline2 \x82\x20 \x83n\n");
    let o = grep(d)
        .args([
            "--from",
            "shift_jis",
            "--invalid=report",
            "-c",
            "x",
            "sj.txt",
        ])
        .run();
    assert_eq!(o.out(), "1\n");
    assert_eq!(
        o.err(),
        "utf8-grep: sj.txt:1:4: malformed at byte 3 (81): not a valid Shift_JIS sequence\n\
         utf8-grep: sj.txt:2:7: malformed at byte 13 (82): not a valid Shift_JIS sequence\n"
    );
    // An unpaired surrogate in UTF-16 (a byte order mark decides), and an odd byte at the
    // end; JSON names the encoding.
    write(d, "u16.txt", b"\xFF\xFEa\x00\x00\xD8\n\x00b\x00!");
    let o = grep(d)
        .args(["--invalid=report", "-c", "--json", "b", "u16.txt"])
        .run();
    let errs: Vec<serde_json::Value> = o
        .err()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(errs.len(), 2, "{}", o.err());
    assert_eq!(
        (
            &errs[0]["offset"],
            &errs[0]["bytes"],
            &errs[0]["line"],
            &errs[0]["column"]
        ),
        (&4.into(), &"00 D8".into(), &1.into(), &2.into())
    );
    assert_eq!(errs[0]["encoding"], "UTF-16LE");
    assert_eq!(
        (&errs[1]["offset"], &errs[1]["bytes"]),
        (&10.into(), &"21".into())
    );
}

#[test]
fn max_count_and_context_work_on_decoded_text() {
    let dir = tempdir();
    let d = dir.path();
    let text = "zéro\nun été\ndeux\ntrois été\nquatre\n";
    let mut bytes = b"\xFE\xFF".to_vec();
    bytes.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    write(d, "be.txt", &bytes);
    // Line starts in the file: 2 (after the mark), then 2 + 2 × the UTF-16 units before.
    let at = |line: usize| {
        2 + 2 * text
            .split_inclusive('\n')
            .take(line)
            .map(|l| l.encode_utf16().count())
            .sum::<usize>()
    };
    let o = grep(d)
        .args(["-n", "-b", "-m1", "-A1", "-B1", "été", "be.txt"])
        .run();
    assert_eq!(
        o.out(),
        format!("1-{}-zéro\n2:{}:un été\n3-{}-deux\n", at(0), at(1), at(2))
    );
    let o = grep(d).args(["-c", "-v", "été", "be.txt"]).run();
    assert_eq!(o.out(), "3\n");
    // -o -b: the match's own offset, past "un " (three units).
    let o = grep(d).args(["-o", "-b", "-m1", "été", "be.txt"]).run();
    assert_eq!(o.out(), format!("{}:été\n", at(1) + 6));
}

/// ISO-2022-JP is ASCII with escapes: `--from auto` decodes it in utf8-grep and utf8-count
/// as utf8-repair does, and ASCII whose escapes are a terminal's colours stays UTF-8.
#[test]
fn iso_2022_jp_is_detected_among_ascii() {
    let dir = tempdir();
    let d = dir.path();
    let jis = encode(encoding_rs::ISO_2022_JP, JAPANESE);
    assert!(jis.is_ascii() && jis.contains(&0x1B));
    std::fs::write(d.join("jis.txt"), &jis).unwrap();
    std::fs::write(d.join("colours.txt"), b"\x1b[31mred\x1b[0m ok\n").unwrap();
    let o = grep(d)
        .args(["--from", "auto", "-c", "ファイル", "jis.txt"])
        .run();
    o.assert_code(0);
    assert_eq!(o.out(), "1\n");
    let o = grep(d)
        .args(["--from", "auto", "-c", "red", "colours.txt"])
        .run();
    assert_eq!(o.out(), "1\n");
    let json = |f: &str| -> serde_json::Value {
        let o = count(d).args(["--json", "--from", "auto", f]).run();
        o.assert_code(0);
        serde_json::from_str(o.out().lines().next().unwrap()).unwrap()
    };
    let got = json("jis.txt");
    assert_eq!(got["encoding"], "ISO-2022-JP");
    assert_eq!(got["chars"], JAPANESE.chars().count());
    assert_eq!(json("colours.txt")["chars"], 16);
}
