//! utf8-repair speaks iconv: `-f`/`--from-code`, `-t`/`--to-code` (UTF-8 with `//IGNORE` or
//! `//TRANSLIT`), `-c`, `-l`/`--list`, and labels as glibc spells them. glibc's iconv and
//! CPython's codecs are the oracles where installed.

use std::path::Path;

use crate::util::{TestCommand, have, tempdir, write};

fn repair(dir: &Path) -> TestCommand {
    TestCommand::new("utf8-repair", dir)
}

/// `iconv ARGS FILE` in `dir`: its standard output, or `None` without iconv.
fn iconv(dir: &Path, args: &[&str]) -> Option<Vec<u8>> {
    if !have("iconv") {
        eprintln!("skipped the comparison with iconv: not installed");
        return None;
    }
    let o = TestCommand::program("iconv", dir).args(args).run();
    Some(o.stdout)
}

#[test]
fn iso_8859_1_is_every_byte_its_own_code_point() {
    let dir = tempdir();
    let d = dir.path();
    let all: Vec<u8> = (0..=255u8).collect();
    write(d, "all.bin", &all);
    let expected: String = all.iter().map(|&b| char::from(b)).collect();
    for label in [
        "ISO-8859-1",
        "iso-8859-1",
        "latin1",
        "ISO_8859-1",
        "L1",
        "CP819",
    ] {
        let o = repair(d).args(["-f", label, "all.bin"]).run();
        o.assert_code(0);
        assert_eq!(o.out(), expected, "{label}");
    }
    if let Some(theirs) = iconv(d, &["-f", "ISO-8859-1", "-t", "UTF-8", "all.bin"]) {
        assert_eq!(theirs, expected.as_bytes());
    }
    // windows-1252 keeps WHATWG's table: 0x80 is the euro sign.
    write(d, "euro.txt", b"\x80\n");
    let o = repair(d).args(["--from", "windows-1252", "euro.txt"]).run();
    assert_eq!(o.out(), "\u{20AC}\n");
    let o = repair(d).args(["--from-code=latin1", "euro.txt"]).run();
    assert_eq!(o.out(), "\u{80}\n");
}

#[test]
fn ascii_makes_bytes_over_0x7f_errors_and_c_omits_them() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "a.txt", b"caf\xE9 \x80ok\n");
    let o = repair(d)
        .args(["-f", "US-ASCII", "--report", "a.txt"])
        .run();
    o.assert_code(0);
    assert_eq!(o.out(), "caf\u{FFFD} \u{FFFD}ok\n");
    assert!(
        o.err()
            .contains("a.txt:1:4: malformed at byte 3 (E9): not a valid US-ASCII sequence"),
        "{}",
        o.err()
    );
    // -c: omitted, and exit 1 (POSIX: -c does not change the exit status of invalid input;
    // glibc 2.36's iconv -c exits 0 here, its -t UTF-8//IGNORE 1).
    for args in [
        &["-c", "-f", "ascii", "a.txt"][..],
        &["-f", "ascii", "-t", "UTF-8//IGNORE", "a.txt"],
    ] {
        let o = repair(d).args(args).run();
        o.assert_code(1);
        assert_eq!(o.out(), "caf ok\n", "{args:?}");
        if let Some(theirs) = iconv(d, &["-c", "-f", "ASCII", "-t", "UTF-8", "a.txt"]) {
            assert_eq!(o.stdout, theirs);
        }
    }
    // Nothing omitted: exit 0.
    write(d, "b.txt", b"plain\n");
    repair(d)
        .args(["-c", "-f", "ascii", "b.txt"])
        .run()
        .assert_code(0);
    // -c in place: the file loses the bytes, the status says so.
    let o = repair(d).args(["-c", "-f", "ascii", "-i", "a.txt"]).run();
    o.assert_code(1);
    assert_eq!(std::fs::read(d.join("a.txt")).unwrap(), b"caf ok\n");
}

#[test]
fn iconv_names_decode_as_iconv_decodes() {
    let dir = tempdir();
    let d = dir.path();
    let text = "日本語のテキスト、中文，한국어 and ASCII\n";
    let cases: &[(&str, &str, &'static encoding_rs::Encoding)] = &[
        ("CP932", "sjis.txt", encoding_rs::SHIFT_JIS),
        ("EUCJP", "eucjp.txt", encoding_rs::EUC_JP),
        ("CP936", "gbk.txt", encoding_rs::GBK),
        ("UTF16LE", "u16le.txt", encoding_rs::UTF_16LE),
        ("UCS-2LE", "ucs2.txt", encoding_rs::UTF_16LE),
    ];
    for &(label, file, enc) in cases {
        // Text each encoding can hold: Japanese for the Japanese ones, and so on.
        let sample = match label {
            "CP932" | "EUCJP" => "日本語のテキスト and ASCII\n",
            "CP936" => "中文的文本 and ASCII\n",
            _ => text,
        };
        let bytes: Vec<u8> = if enc == encoding_rs::UTF_16LE {
            sample.encode_utf16().flat_map(u16::to_le_bytes).collect()
        } else {
            let (b, _, bad) = enc.encode(sample);
            assert!(!bad);
            b.into_owned()
        };
        write(d, file, &bytes);
        let o = repair(d).args(["-f", label, "-t", "UTF-8", file]).run();
        o.assert_code(0);
        assert_eq!(o.out(), sample, "{label}");
        if let Some(theirs) = iconv(d, &["-f", label, "-t", "UTF-8", file]) {
            assert_eq!(o.stdout, theirs, "{label}: iconv");
        }
    }
}

#[test]
fn to_code_is_utf8_only_and_list_names_every_label() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "a.txt", "ok\n");
    for to in ["UTF-8", "utf8", "UTF-8//TRANSLIT", "UTF-8//IGNORE"] {
        let o = repair(d).args(["-t", to, "a.txt"]).run();
        o.assert_code(0);
        assert_eq!(o.out(), "ok\n", "{to}");
    }
    let o = repair(d).args(["-t", "LATIN1", "a.txt"]).run();
    o.assert_code(2);
    assert!(
        o.err()
            .starts_with("utf8-repair: -t LATIN1: the output is always UTF-8"),
        "{}",
        o.err()
    );
    let o = repair(d).args(["-l"]).run();
    o.assert_code(0);
    let list = o.out();
    for (group, label) in [
        ("Shift_JIS: ", "CP932"),
        ("UTF-16LE: ", "UCS-2LE"),
        ("GBK: ", "CP936"),
        ("EUC-JP: ", "EUCJP"),
        ("windows-1252: ", "cp1252"),
        ("ISO-8859-1 (", "latin1"),
        ("US-ASCII (", "us-ascii"),
    ] {
        assert!(
            list.lines()
                .any(|l| l.starts_with(group) && l.split(", ").any(|w| w.ends_with(label))),
            "{group}{label}:\n{list}"
        );
    }
    assert_eq!(repair(d).args(["--list"]).run().out(), list);
}

#[test]
fn grep_and_count_take_iconv_names() {
    let dir = tempdir();
    let d = dir.path();
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode("日本語\n");
    write(d, "sjis.txt", &bytes);
    let o = TestCommand::new("utf8-grep", d)
        .args(["--from", "CP932", "本", "sjis.txt"])
        .run();
    o.assert_code(0);
    assert_eq!(o.out(), "日本語\n");
    let o = TestCommand::new("utf8-count", d)
        .args(["-m", "--from", "SJIS", "sjis.txt"])
        .run();
    o.assert_code(0);
    assert_eq!(o.out().split_whitespace().next(), Some("4"));
}

/// utf8-grep and utf8-count read ISO-8859-1 and US-ASCII as iconv does, as utf8-repair
/// does: 0x80 is U+0080 (windows-1252 would make it `€`), and each byte over 0x7F of
/// ASCII is one error; offsets (`-b`, reports) count the file's bytes.
#[test]
fn grep_and_count_read_iso_8859_1_and_ascii_as_iconv_does() {
    let dir = tempdir();
    let d = dir.path();
    let text: Vec<u8> = [
        &b"caf\xE9 \x80 na\xEFve\n"[..],
        &(0x20..=0xFFu8).collect::<Vec<u8>>(),
        b"\n",
    ]
    .concat();
    write(d, "l1.txt", &text);
    let decoded: String = text.iter().map(|&b| char::from(b)).collect();
    let grep = |args: &[&str]| TestCommand::new("utf8-grep", d).args(args).run();
    let count = |args: &[&str]| TestCommand::new("utf8-count", d).args(args).run();
    for label in ["latin1", "ISO-8859-1", "ISO_8859-1", "l1", "CP819"] {
        let o = grep(&["--from", label, "", "l1.txt"]);
        o.assert_code(0);
        assert_eq!(o.out(), decoded, "{label}");
        if let Some(want) = iconv(d, &["-f", "ISO-8859-1", "-t", "UTF-8", "l1.txt"]) {
            assert_eq!(o.stdout, want, "{label} against iconv");
        }
    }
    let o = grep(&["--from", "latin1", "-b", "-o", "\u{80}\\|ï", "l1.txt"]);
    assert_eq!(
        o.out(),
        "5:\u{80}\n9:ï\n109:\u{80}\n220:ï\n",
        "offsets in the file"
    );
    let o = count(&["--from", "latin1", "-m", "-c", "l1.txt"]);
    o.assert_code(0);
    let n = text.len();
    assert_eq!(o.out(), format!("{n} {n} l1.txt\n"));
    // US-ASCII: every byte over 0x7F is an error, reported with its offset.
    let high = text.iter().filter(|&&b| b >= 0x80).count();
    let o = count(&["--from", "US-ASCII", "--json", "l1.txt"]);
    o.assert_code(0);
    assert!(
        o.out().contains(&format!("\"errors\": {high},")),
        "{}",
        o.out()
    );
    assert!(
        o.out().contains("\"encoding\": \"US-ASCII\""),
        "{}",
        o.out()
    );
    let o = grep(&["--from", "ascii", "--invalid=report", "-c", "caf", "l1.txt"]);
    o.assert_code(0);
    assert_eq!(o.out(), "1\n");
    let first = o.err().lines().next().unwrap_or_default().to_owned();
    assert_eq!(
        first,
        "utf8-grep: l1.txt:1:4: malformed at byte 3 (E9): not a valid US-ASCII sequence"
    );
    assert_eq!(o.err().lines().count(), high);
    // windows-1252 keeps WHATWG's table: 0x80 is the euro sign.
    let o = grep(&["--from", "windows-1252", "-o", "€", "l1.txt"]);
    assert_eq!(o.out(), "€\n€\n");
}
