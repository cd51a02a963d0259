//! utf8-repair never destroys a file it does not understand: UTF-16 with a byte order mark
//! is converted losslessly, UTF-16 without one and binary files are refused when the output
//! replaces a file (`-i`, `-o`) and warned about on standard output, a UTF-32 byte order
//! mark is refused. Every case checks the file's bytes after the run.

use std::path::Path;

use crate::util::{TestCommand, leftovers, tempdir, write};

fn repair(dir: &Path) -> TestCommand {
    TestCommand::new("utf8-repair", dir)
}

/// Text with ASCII, Latin, CJK and a character outside the BMP (a surrogate pair).
const TEXT: &str = "Notes: café, 日本語, 😀 and plain words\r\nsecond line\n";

/// `s` in UTF-16, little- or big-endian, after `bom` when given.
fn utf16(s: &str, le: bool, bom: bool) -> Vec<u8> {
    let to = |u: u16| if le { u.to_le_bytes() } else { u.to_be_bytes() };
    let bom = bom.then_some(0xFEFF);
    bom.into_iter()
        .chain(s.encode_utf16())
        .flat_map(to)
        .collect()
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

#[test]
fn utf16_with_a_bom_becomes_the_same_text_in_utf8() {
    for (le, label) in [(true, "UTF-16LE"), (false, "UTF-16BE")] {
        let dir = tempdir();
        let d = dir.path();
        let bytes = utf16(TEXT, le, true);
        // The oracle: encoding_rs's own decoding of the file, BOM removed.
        let enc = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let (oracle, had_errors) = enc.decode_with_bom_removal(&bytes);
        assert!(!had_errors);
        assert_eq!(oracle, TEXT);
        write(d, "notes.txt", &bytes);
        let o = repair(d).args(["--report", "-i", "notes.txt"]).run();
        o.assert_code(0);
        assert_eq!(read(d, "notes.txt"), TEXT.as_bytes(), "{label}");
        assert!(
            o.err()
                .contains(&format!("notes.txt: decoded as {label} (byte order mark)")),
            "{}",
            o.err()
        );
        assert!(o.err().contains("notes.txt: no errors"), "{}", o.err());
        assert!(leftovers(d).is_empty());
        // To standard output and to -o: the same text.
        write(d, "again.txt", &bytes);
        let o = repair(d).args(["again.txt"]).run();
        o.assert_code(0);
        assert_eq!(o.stdout, TEXT.as_bytes());
        assert!(o.stderr.is_empty(), "{}", o.err());
        let o = repair(d).args(["-o", "out.txt", "again.txt"]).run();
        o.assert_code(0);
        assert_eq!(read(d, "out.txt"), TEXT.as_bytes());
        assert_eq!(read(d, "again.txt"), bytes);
    }
}

#[test]
fn utf16_with_a_bom_and_a_lone_surrogate_is_repaired_and_reported() {
    let dir = tempdir();
    let d = dir.path();
    // BOM, "a", a lone high surrogate D800, "b".
    write(d, "u16.txt", b"\xFF\xFEa\x00\x00\xD8b\x00");
    let o = repair(d).args(["--report", "-i", "u16.txt"]).run();
    o.assert_code(0);
    assert_eq!(read(d, "u16.txt"), "a\u{FFFD}b".as_bytes());
    assert!(o.err().contains("1 error repaired"), "{}", o.err());
}

#[test]
fn from_utf8_keeps_reading_the_bytes_as_they_are() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "bom.txt", b"\xFF\xFEh\x00i\x00");
    let o = repair(d).args(["--from", "utf-8", "-i", "bom.txt"]).run();
    o.assert_code(0);
    assert_eq!(read(d, "bom.txt"), b"\xEF\xBF\xBD\xEF\xBF\xBDh\x00i\x00");
    write(d, "le.txt", utf16(TEXT, true, false));
    let o = repair(d).args(["--from=utf-8", "-i", "le.txt"]).run();
    o.assert_code(0);
    // Repaired as UTF-8 bytes, as asked (the oracle: std's lossy decoding).
    let bytes = utf16(TEXT, true, false);
    assert_eq!(
        read(d, "le.txt"),
        String::from_utf8_lossy(&bytes).as_bytes()
    );
}

#[test]
fn utf16_without_a_bom_is_refused_in_place_and_by_o() {
    for (le, label) in [(true, "utf-16le"), (false, "utf-16be")] {
        let dir = tempdir();
        let d = dir.path();
        // With a lone surrogate at the end, which the conversion repairs.
        let mut bytes = utf16(TEXT, le, false);
        bytes.extend_from_slice(if le { b"\x00\xD8" } else { b"\xD8\x00" });
        write(d, "notes.txt", &bytes);
        for args in [&["-i", "notes.txt"][..], &["-o", "out.txt", "notes.txt"]] {
            let o = repair(d).args(args).run();
            o.assert_code(2);
            let err = o.err();
            let first = err.lines().next().unwrap();
            assert!(
                first.starts_with("utf8-repair: notes.txt: looks like UTF-16")
                    && first.contains(&format!("pass --from {label} to convert it")),
                "{err}"
            );
            assert_eq!(read(d, "notes.txt"), bytes, "{args:?}");
            assert!(!d.join("out.txt").exists());
            assert_eq!(leftovers(d), Vec::<String>::new());
        }
        // What the message says to pass converts it.
        let o = repair(d).args(["--from", label, "-i", "notes.txt"]).run();
        o.assert_code(0);
        let mut expected = TEXT.as_bytes().to_vec();
        expected.extend_from_slice("\u{FFFD}".as_bytes());
        assert_eq!(read(d, "notes.txt"), expected);
    }
}

#[test]
fn utf16_without_a_bom_to_stdout_is_repaired_with_a_warning_and_check_hints() {
    let dir = tempdir();
    let d = dir.path();
    let bytes = utf16(TEXT, true, false);
    write(d, "notes.txt", &bytes);
    let o = repair(d).args(["notes.txt"]).run();
    o.assert_code(0);
    assert_eq!(o.stdout, String::from_utf8_lossy(&bytes).as_bytes());
    assert!(
        o.err().starts_with(
            "utf8-repair: notes.txt: warning: looks like UTF-16LE without a byte order mark"
        ) && o.err().contains("pass --from utf-16le"),
        "{}",
        o.err()
    );
    let o = repair(d).args(["-q", "notes.txt"]).run();
    o.assert_code(0);
    assert!(o.stderr.is_empty());
    let o = repair(d).args(["--check", "notes.txt"]).run();
    o.assert_code(1);
    assert!(o.err().contains("try --from utf-16le"), "{}", o.err());
    assert_eq!(read(d, "notes.txt"), bytes);
}

#[test]
fn binary_files_are_refused_or_warned() {
    let dir = tempdir();
    let d = dir.path();
    // An ELF header, then bytes that are not UTF-8.
    let bytes = b"\x7FELF\x02\x01\x01\x00\x00\x00\x00\x00\xFF\xFE\xC3\x28".to_vec();
    write(d, "prog", &bytes);
    for args in [
        &["-i", "prog"][..],
        &["-o", "out", "prog"],
        &["--from", "auto", "-i", "prog"],
    ] {
        let o = repair(d).args(args).run();
        o.assert_code(2);
        assert!(
            o.err()
                .starts_with("utf8-repair: prog: looks like a binary file"),
            "{args:?}: {}",
            o.err()
        );
        assert_eq!(read(d, "prog"), bytes);
        assert!(!d.join("out").exists());
        assert!(leftovers(d).is_empty());
    }
    let o = repair(d).args(["prog"]).run();
    o.assert_code(0);
    assert_eq!(o.stdout, String::from_utf8_lossy(&bytes).as_bytes());
    assert!(
        o.err().contains("warning: looks like a binary file"),
        "{}",
        o.err()
    );
    // --check: the hint, and the status of the errors.
    let o = repair(d).args(["--check", "prog"]).run();
    o.assert_code(1);
    assert!(
        o.err().contains("prog: looks like a binary file"),
        "{}",
        o.err()
    );
    // What the message says to pass repairs it.
    let o = repair(d).args(["--from", "utf-8", "-i", "prog"]).run();
    o.assert_code(0);
    assert_eq!(read(d, "prog"), String::from_utf8_lossy(&bytes).as_bytes());
}

#[test]
fn a_utf32_bom_is_refused_everywhere() {
    let dir = tempdir();
    let d = dir.path();
    let le: Vec<u8> = "\u{FEFF}hi\n"
        .chars()
        .flat_map(|c| (c as u32).to_le_bytes())
        .collect();
    let be: Vec<u8> = "\u{FEFF}hi\n"
        .chars()
        .flat_map(|c| (c as u32).to_be_bytes())
        .collect();
    for (bytes, name) in [(le, "UTF-32LE"), (be, "UTF-32BE")] {
        write(d, "u32.txt", &bytes);
        for args in [
            &["-i", "u32.txt"][..],
            &["u32.txt"],
            &["-o", "out", "u32.txt"],
            &["--from", "auto", "u32.txt"],
        ] {
            let o = repair(d).args(args).run();
            o.assert_code(2);
            assert!(o.stdout.is_empty(), "{args:?}");
            assert!(
                o.err().starts_with(&format!(
                    "utf8-repair: u32.txt: starts with a {name} byte order mark"
                )),
                "{}",
                o.err()
            );
            assert_eq!(read(d, "u32.txt"), bytes);
            assert!(!d.join("out").exists());
        }
    }
}

#[test]
fn from_auto_recognizes_utf16_without_a_bom() {
    for (le, label) in [(true, "UTF-16LE"), (false, "UTF-16BE")] {
        let dir = tempdir();
        let d = dir.path();
        write(d, "notes.txt", utf16(TEXT, le, false));
        let o = repair(d)
            .args(["--from", "auto", "--report", "-i", "notes.txt"])
            .run();
        o.assert_code(0);
        assert_eq!(read(d, "notes.txt"), TEXT.as_bytes());
        assert!(
            o.err().contains(&format!(
                "notes.txt: decoded as {label} (NUL pattern of UTF-16)"
            )),
            "{}",
            o.err()
        );
    }
}

#[test]
fn a_file_that_reads_as_a_legacy_encoding_is_not_rewritten_in_place() {
    let dir = tempdir();
    let d = dir.path();
    let (bytes, _, bad) = encoding_rs::SHIFT_JIS.encode("あいう 日本語のテキスト\n");
    assert!(!bad);
    write(d, "sj.txt", &bytes);
    let o = repair(d).args(["-i", "sj.txt"]).run();
    o.assert_code(2);
    assert_eq!(
        o.err(),
        "utf8-repair: sj.txt: this looks like Shift_JIS text; not changed: pass --from \
         Shift_JIS to convert it to UTF-8, or --from utf-8 to repair its bytes as UTF-8\n"
    );
    assert_eq!(read(d, "sj.txt"), bytes.as_ref());
    assert!(leftovers(d).is_empty());
    let o = repair(d)
        .args(["-i", "--from", "Shift_JIS", "sj.txt"])
        .run();
    o.assert_code(0);
    assert_eq!(read(d, "sj.txt"), "あいう 日本語のテキスト\n".as_bytes());
}
