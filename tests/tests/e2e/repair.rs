//! utf8-repair end to end: oracles (CPython, `String::from_utf8_lossy`, encoding_rs, the
//! conformance files), every practice on hand-checked cases, in-place safety, snapshots.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use insta::assert_snapshot;

use crate::util::{
    Rng, TestCommand, corpus, have, leftovers, output_per_line, signal_after_temp_file, tempdir,
    write,
};

fn repair(dir: &Path) -> TestCommand {
    TestCommand::new("utf8-repair", dir)
}

const BAD: &[u8] =
    b"ok\xED\xA0\x80 line\nsecond \xC1\x81 \xF4\x90\x80\x80\n\xE2\x82A\xFF\x80 end\xF0\x9F\x98";

// ----- output, oracles -----

#[test]
fn help() {
    let dir = tempdir();
    let o = repair(dir.path()).args(["--help"]).run();
    o.assert_code(0);
    assert_snapshot!("repair_help", o.snapshot());
}

#[test]
fn valid_passes_through_byte_for_byte() {
    let dir = tempdir();
    let data = corpus(7, 300_000, false);
    let o = repair(dir.path()).stdin(&data).run();
    o.assert_code(0);
    assert!(o.stdout == data);
    assert!(o.stderr.is_empty());
}

#[test]
fn matches_from_utf8_lossy() {
    let dir = tempdir();
    for seed in 1..=4u64 {
        let data = corpus(seed, 150_000 + seed as usize * 777, true);
        write(dir.path(), "in.bin", &data);
        let o = repair(dir.path()).arg_file("in.bin").run();
        o.assert_code(0);
        assert!(
            o.stdout == String::from_utf8_lossy(&data).as_bytes(),
            "seed {seed}"
        );
    }
}

trait ArgFile {
    fn arg_file(&mut self, f: &str) -> &mut TestCommand;
}

impl ArgFile for TestCommand {
    fn arg_file(&mut self, f: &str) -> &mut TestCommand {
        self.args([f])
    }
}

/// CPython's decode with an error handler, re-encoded.
fn python(handler: &str, input: &[u8]) -> Option<Vec<u8>> {
    if !have("python3") {
        return None;
    }
    let mut child = Command::new("python3")
        .args([
            "-c",
            "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode('utf-8', sys.argv[1]).encode())",
            handler,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let input = input.to_vec();
    let t = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().ok()?;
    let _ = t.join();
    out.status.success().then_some(out.stdout)
}

#[test]
fn matches_cpython_replace_ignore_backslashreplace() {
    let dir = tempdir();
    let mut inputs = vec![
        BAD.to_vec(),
        corpus(11, 120_000, true),
        corpus(12, 5000, true),
    ];
    let mut rng = Rng::new(99);
    inputs.push((0..20_000).map(|_| rng.below(256) as u8).collect());
    if let Some(conf) = utf8_tests::conformance_dir() {
        inputs.push(std::fs::read(conf.join("UTF-8-test.txt")).unwrap());
    }
    for (i, data) in inputs.iter().enumerate() {
        write(dir.path(), "in.bin", data);
        for (handler, action) in [
            ("replace", "replace"),
            ("ignore", "delete"),
            ("backslashreplace", "escape"),
        ] {
            let Some(expected) = python(handler, data) else {
                eprintln!("matches_cpython: skipped: python3 absent");
                return;
            };
            let o = repair(dir.path())
                .args(["--action", action, "in.bin"])
                .run();
            o.assert_code(0);
            assert!(o.stdout == expected, "input {i}, {handler}");
        }
    }
}

#[test]
fn same_bytes_whatever_the_read_sizes() {
    let dir = tempdir();
    let data = corpus(21, 400_000, true);
    write(dir.path(), "in.bin", &data);
    for args in [
        &["--practice", "per-sequence"][..],
        &["--action", "escape"],
        &["--practice", "per-byte", "--replacement", "<?>"],
        &["--report=json"],
    ] {
        let whole = repair(dir.path()).args(args).args(["in.bin"]).run();
        whole.assert_code(0);
        // Standard input written in small random pieces, with pauses: reads of every size.
        let mut child = Command::new(utf8_tests::cli::bin("utf8-repair"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input = data.clone();
        let t = std::thread::spawn(move || {
            let mut rng = Rng::new(5);
            let mut pos = 0;
            while pos < input.len() {
                let n = (1 + rng.below(70_000) as usize).min(input.len() - pos);
                stdin.write_all(&input[pos..pos + n]).unwrap();
                stdin.flush().unwrap();
                pos += n;
                if rng.below(4) == 0 {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        });
        let out = child.wait_with_output().unwrap();
        t.join().unwrap();
        assert!(out.stdout == whole.stdout, "{args:?}");
        // Reports name the input differently (- vs in.bin) but are otherwise identical.
        let err = String::from_utf8_lossy(&out.stderr).replace("\"-\"", "\"in.bin\"");
        assert_eq!(err, whole.err(), "{args:?}");
    }
}

#[test]
fn several_files_are_concatenated() {
    let dir = tempdir();
    write(dir.path(), "a", b"a\xE2\x82");
    write(dir.path(), "b", b"\xACb\n");
    let o = repair(dir.path()).args(["a", "-", "b"]).stdin("é").run();
    o.assert_code(0);
    // A sequence split between two files is an error in each.
    assert_eq!(o.out(), "a\u{FFFD}é\u{FFFD}b\n");
}

// ----- conformance -----

#[test]
fn markus_kuhn_stress_test() {
    let Some(conf) = utf8_tests::conformance_dir_or_skip("repair::markus_kuhn_stress_test") else {
        return;
    };
    let dir = tempdir();
    let input = conf.join("UTF-8-test.txt");
    // The file holds a NUL (its U+0000 case), which makes it look binary: without
    // `--from utf-8` it is repaired with a warning (binary_files_are_refused_or_warned).
    let o = repair(dir.path()).args([&input]).run();
    o.assert_code(0);
    assert!(o.err().contains("looks like a binary file"), "{}", o.err());
    let o = repair(dir.path())
        .args(["--from".as_ref(), "utf-8".as_ref(), input.as_os_str()])
        .run();
    o.assert_code(0);
    assert!(o.stderr.is_empty());
    let expected = std::fs::read(conf.join("UTF-8-test.replaced.txt")).unwrap();
    assert!(o.stdout == expected, "UTF-8-test.replaced.txt");
    let o = repair(dir.path())
        .args([
            "--report=json".as_ref(),
            "--from=utf-8".as_ref(),
            input.as_os_str(),
        ])
        .run();
    o.assert_code(0);
    let rows = std::fs::read_to_string(conf.join("UTF-8-test.errors.tsv")).unwrap();
    let expected: Vec<String> = rows
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            format!(
                "\"offset\": {}, \"len\": {}, \"kind\": \"{}\", \"bytes\": \"{}\", \"line\": {}, ",
                f[0], f[1], f[2], f[3], f[4]
            )
        })
        .collect();
    let err = o.err();
    let got: Vec<&str> = err.lines().collect();
    assert_eq!(got.len(), expected.len());
    for (g, e) in got.iter().zip(&expected) {
        assert!(g.contains(e.as_str()), "{g}\nexpected {e}");
    }
}

#[test]
fn conformance_vectors() {
    let Some(conf) = utf8_tests::conformance_dir_or_skip("repair::conformance_vectors") else {
        return;
    };
    let dir = tempdir();
    // All vectors in one run: each on its own line would merge errors across lines, so each
    // vector goes to its own file and the files are repaired together (files never merge).
    let vectors = utf8_tests::vectors(&conf);
    let mut names = Vec::new();
    let mut expected = Vec::new();
    for (i, v) in vectors.iter().enumerate() {
        let name = format!("v{i}");
        write(dir.path(), &name, &v.input);
        names.push(name);
        expected.extend_from_slice(&v.replaced);
    }
    // UTF-8 test vectors, read as UTF-8 whatever their first bytes (some start with FF FE,
    // some hold NUL bytes).
    let o = repair(dir.path())
        .args(["--from", "utf-8"])
        .args(&names)
        .run();
    o.assert_code(0);
    assert!(o.stdout == expected);
}

// ----- practices and actions, hand-checked -----

#[test]
fn practices_and_actions() {
    let dir = tempdir();
    let cases: &[(&[u8], &str, &str, &str)] = &[
        // input, maximal-subpart, per-byte, per-sequence (with '?' as the replacement)
        (b"a\xE2\x82b", "a?b", "a??b", "a?b"),
        (b"\xE0\x80\x80!", "???!", "???!", "?!"),
        (b"\xED\xA0\x80", "???", "???", "?"),
        (b"\xF4\x90\x80\x80", "????", "????", "?"),
        (b"\xF8\x88\x80\x80\x80z", "?????z", "?????z", "?z"),
        (b"\xFC\x84\x80\x80\x80\x80", "??????", "??????", "?"),
        (b"\x80\x80\xFF\xFE", "????", "????", "????"),
        (b"\xC0\xAF", "??", "??", "?"),
        (b"\xF0\x9F\x98", "?", "???", "?"),
        (b"\xC2\x41", "?A", "?A", "?A"),
        // The Unicode Standard's example (chapter 3, U+FFFD substitution).
        (
            b"\xE1\x80\xE2\xF0\x91\x92\xF1\xBFA",
            "????A",
            "????????A",
            "????A",
        ),
    ];
    for &(input, maximal, per_byte, per_sequence) in cases {
        for (practice, expected) in [
            ("maximal-subpart", maximal),
            ("per-byte", per_byte),
            ("per-sequence", per_sequence),
        ] {
            let o = repair(dir.path())
                .args(["--practice", practice, "--replacement", "?"])
                .stdin(input)
                .run();
            o.assert_code(0);
            assert_eq!(o.out(), expected, "{input:02X?} {practice}");
        }
    }
    let run = |args: &[&str], input: &[u8]| {
        let o = repair(dir.path()).args(args).stdin(input).run();
        o.assert_code(0);
        o.out()
    };
    assert_eq!(run(&[], b"x\xC1\x81y"), "x\u{FFFD}\u{FFFD}y");
    assert_eq!(run(&["--action", "delete"], b"x\xC1\x81y"), "xy");
    assert_eq!(run(&["--action", "escape"], b"x\xC1\x81y"), "x\\xc1\\x81y");
    assert_eq!(
        run(
            &["--action", "escape", "--practice", "per-sequence"],
            b"\xE0\x80\x80"
        ),
        "\\xe0\\x80\\x80"
    );
    assert_eq!(run(&["--replacement", ""], b"a\xFFb"), "ab");
    assert_eq!(run(&["--replacement", "[bad]"], b"a\xFFb"), "a[bad]b");
}

#[test]
fn bom() {
    let dir = tempdir();
    let input = "\u{FEFF}x\u{FEFF}y".as_bytes();
    let run = |args: &[&str]| repair(dir.path()).args(args).stdin(input).run().stdout;
    assert_eq!(run(&[]), input);
    assert_eq!(run(&["--bom", "keep"]), input);
    assert_eq!(run(&["--bom", "strip"]), "x\u{FEFF}y".as_bytes());
}

// ----- --check and --report -----

#[test]
fn check() {
    let dir = tempdir();
    write(dir.path(), "bad.txt", BAD);
    write(dir.path(), "ok.txt", "fine\n");
    write(dir.path(), "late.txt", b"one\ntwo\nthr\xEEe\n");
    let o = repair(dir.path()).args(["--check", "ok.txt"]).run();
    o.assert_code(0);
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
    let o = repair(dir.path())
        .args(["--check", "bad.txt", "ok.txt", "late.txt"])
        .run();
    o.assert_code(1);
    assert!(o.stdout.is_empty());
    assert_snapshot!("repair_check", o.snapshot());
    let o = repair(dir.path())
        .args(["--check", "--json", "bad.txt", "ok.txt", "late.txt"])
        .run();
    o.assert_code(1);
    assert_snapshot!("repair_check_json", o.snapshot());
    // Trouble wins over "needs repair".
    let o = repair(dir.path())
        .args(["--check", "bad.txt", "missing.txt"])
        .run();
    o.assert_code(2);
}

#[test]
fn report() {
    let dir = tempdir();
    write(dir.path(), "bad.txt", BAD);
    write(dir.path(), "ok.txt", "fine\n");
    let o = repair(dir.path())
        .args(["--report", "bad.txt", "ok.txt"])
        .run();
    o.assert_code(0);
    assert_snapshot!("repair_report_text", o.snapshot());
    let o = repair(dir.path())
        .args(["--report=json", "bad.txt", "-"])
        .stdin(b"\xC0")
        .run();
    o.assert_code(0);
    assert_snapshot!("repair_report_json", o.snapshot());
}

/// Report lines are written a chunk at a time, not one `write` per error: all of them, and
/// in their order among the diagnostics (an input's lines, its summary, then what went wrong
/// with the next input).
#[test]
fn report_of_many_errors_keeps_its_order() {
    let dir = tempdir();
    write(dir.path(), "many.txt", b"ab\xFFcd\n".repeat(5_000));
    let o = repair(dir.path())
        .args(["--report", "many.txt", "missing.txt", "many.txt"])
        .run();
    o.assert_code(2);
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    // Per input: 5,000 reports, the legacy-encoding hint, the summary.
    assert_eq!(lines.len(), 2 * 5_002 + 1, "{}", &err[err.len() - 300..]);
    for (i, l) in lines[..5_000].iter().enumerate() {
        let want = format!(
            "utf8-repair: many.txt:{}:3: invalid-byte at byte {}",
            i + 1,
            6 * i + 2
        );
        assert!(l.starts_with(&want), "{l}");
    }
    assert!(lines[5_000].contains("try --from"), "{}", lines[5_000]);
    assert_eq!(
        lines[5_001],
        "utf8-repair: many.txt: 5000 errors repaired: 5000 invalid-byte"
    );
    assert!(lines[5_002].contains("missing.txt"), "{}", lines[5_002]);
    assert_eq!(lines[5_003..], lines[..5_002]);
    // --check --json: the first error of each input on standard output, through a pipe.
    let o = repair(dir.path())
        .args(["--check", "--json", "many.txt", "many.txt"])
        .run();
    o.assert_code(1);
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 2);
}

/// `--fix-mojibake` writes its lines as the text goes out; the error reports and the
/// `--from auto` line, written a chunk at a time, still come first (review of 63abca9).
#[test]
fn report_lines_precede_the_mojibake_lines() {
    let dir = tempdir();
    let o = repair(dir.path())
        .args(["--fix-mojibake", "--report"])
        .stdin(b"caf\xC3\x83\xC2\xA9 \xFF\n")
        .run();
    o.assert_code(0);
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(lines[0].contains("invalid-byte at byte 8"), "{err}");
    assert!(lines[1].contains("mojibake at byte 3"), "{err}");
    let o = repair(dir.path())
        .args(["--from", "auto", "--fix-mojibake", "--report"])
        .stdin(b"caf\xC3\x83\xC2\xA9\n")
        .run();
    o.assert_code(0);
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    assert!(err.starts_with("utf8-repair: -: decoded as UTF-8"), "{err}");
    assert!(err.contains("mojibake at byte 3"), "{err}");
}

#[test]
fn diagnostics() {
    let dir = tempdir();
    write(dir.path(), "bad.txt", BAD);
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let mut all = String::new();
    for args in [
        &["--from", "klingon"][..],
        &["--action", "delete", "--replacement", "x"],
        &["--practice", "best"],
        &["--in-place"],
        &["--in-place", "-"],
        &["--check", "--report", "bad.txt"],
        &["-o", "bad.txt", "bad.txt"],
        &["--backup", "bad.txt"],
        &["missing.txt", "bad.txt"],
        &["sub"],
        &["-i", "sub"],
    ] {
        let o = repair(dir.path()).args(args).run();
        o.assert_code(2);
        all.push_str(&format!(
            "$ utf8-repair {}\n{}\n",
            args.join(" "),
            o.snapshot()
        ));
    }
    assert_snapshot!("repair_diagnostics", all);
}

#[test]
fn output_errors() {
    let dir = tempdir();
    write(dir.path(), "bad.txt", BAD);
    if Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let mut c = repair(dir.path());
        c.args(["bad.txt"]);
        c.command().stdout(full);
        let out = c.command().stderr(Stdio::piped()).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "utf8-repair: write error: No space left on device\n"
        );
        let o = repair(dir.path())
            .args(["-o", "/dev/full", "bad.txt"])
            .run();
        o.assert_code(2);
        assert!(o.err().contains("No space left on device"), "{}", o.err());
    }
    // A closed pipe ends quietly.
    let data = corpus(3, 2_000_000, true);
    let o = repair(dir.path()).stdin(&data).run_head(10);
    assert!(o.stderr.is_empty(), "{}", o.err());
    assert!(o.code == 0 || o.code == -1, "{}", o.code);
}

// ----- --from -----

#[test]
fn from_encodings_match_encoding_rs() {
    let dir = tempdir();
    let text = "Grüße, naïve café — “quotes” €5 日本語テキスト ok\n";
    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    let w1252 = b"caf\xE9 \x80 \x93quoted\x94 \x81 \xFF\n".to_vec();
    cases.push(("windows-1252", w1252));
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(text);
    let mut sjis = sjis.into_owned();
    sjis.extend_from_slice(b" bad: \x82\x20 \xA0 end\x82");
    cases.push(("shift_jis", sjis));
    let mut utf16: Vec<u8> = vec![0xFF, 0xFE];
    for u in text.encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    utf16.extend_from_slice(&[0x00, 0xD8, 0x41, 0x00]); // a lone surrogate, then 'A'
    utf16.push(0x42); // an odd byte at the end
    cases.push(("utf-16le", utf16));
    for (label, bytes) in &cases {
        let enc = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let (expected, _, _) = enc.decode(bytes);
        write(dir.path(), "in.bin", bytes);
        let o = repair(dir.path()).args(["--from", label, "in.bin"]).run();
        o.assert_code(0);
        assert_eq!(o.out(), expected, "{label}");
        assert!(o.stderr.is_empty());
    }
    // A BOM overrides the label (encoding_rs' sniffing).
    write(dir.path(), "bom.bin", b"\xEF\xBB\xBFcaf\xC3\xA9");
    let o = repair(dir.path())
        .args(["--from", "windows-1252", "bom.bin"])
        .run();
    assert_eq!(o.out(), "café");
    // Large input, read in many pieces: the same as one decode.
    let long = text.repeat(20_000);
    let (big, _, _) = encoding_rs::SHIFT_JIS.encode(&long);
    write(dir.path(), "big.bin", &big);
    let o = repair(dir.path()).args(["--from", "sjis", "big.bin"]).run();
    let (expected, _, _) = encoding_rs::SHIFT_JIS.decode(&big);
    assert!(o.stdout == expected.as_bytes());
    // Malformed sequences: actions apply, reports name them.
    write(dir.path(), "bad.bin", &cases[1].1);
    let o = repair(dir.path())
        .args([
            "--from",
            "shift_jis",
            "--action",
            "escape",
            "--report",
            "bad.bin",
        ])
        .run();
    o.assert_code(0);
    assert!(
        o.out().ends_with(" bad: \\x82  \\xa0 end\\x82"),
        "{}",
        o.out()
    );
    assert_snapshot!("repair_from_report", o.err());
    let o = repair(dir.path())
        .args(["--from", "shift_jis", "--check", "bad.bin"])
        .run();
    o.assert_code(1);
}

// ----- -o and --in-place -----

#[test]
fn output_file() {
    let dir = tempdir();
    write(dir.path(), "bad.txt", BAD);
    let o = repair(dir.path()).args(["-o", "out.txt", "bad.txt"]).run();
    o.assert_code(0);
    assert!(o.stdout.is_empty());
    let got = std::fs::read(dir.path().join("out.txt")).unwrap();
    assert!(got == String::from_utf8_lossy(BAD).as_bytes());
    assert!(leftovers(dir.path()).is_empty());
    // The same file under another name (a hard link, a symlink) is refused too.
    std::fs::hard_link(dir.path().join("bad.txt"), dir.path().join("alias.txt")).unwrap();
    std::os::unix::fs::symlink("bad.txt", dir.path().join("sym.txt")).unwrap();
    for out in ["alias.txt", "sym.txt", "./bad.txt"] {
        let o = repair(dir.path()).args(["-o", out, "bad.txt"]).run();
        o.assert_code(2);
        assert!(o.err().contains("is also an input"), "{}", o.err());
    }
    // An input that cannot be read: the output is not written.
    let o = repair(dir.path())
        .args(["-o", "out2.txt", "bad.txt", "missing.txt"])
        .run();
    o.assert_code(2);
    assert!(!dir.path().join("out2.txt").exists());
    assert!(leftovers(dir.path()).is_empty());
}

fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

#[test]
fn in_place() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempdir();
    let d = dir.path();
    write(d, "bad.txt", BAD);
    std::fs::set_permissions(d.join("bad.txt"), std::fs::Permissions::from_mode(0o640)).unwrap();
    let o = repair(d).args(["-i", "bad.txt"]).run();
    o.assert_code(0);
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
    assert!(std::fs::read(d.join("bad.txt")).unwrap() == String::from_utf8_lossy(BAD).as_bytes());
    assert_eq!(mode(&d.join("bad.txt")), 0o640);
    assert!(leftovers(d).is_empty());

    // Backups: default suffix '~', or the one given with -S (repair_backups.rs has the rest).
    write(d, "b1.txt", b"x\xFF");
    write(d, "b2.txt", b"y\xFF");
    repair(d)
        .args(["-i", "--backup", "b1.txt"])
        .run()
        .assert_code(0);
    repair(d)
        .args(["-i", "-S", ".orig", "b2.txt"])
        .run()
        .assert_code(0);
    assert_eq!(std::fs::read(d.join("b1.txt~")).unwrap(), b"x\xFF");
    assert_eq!(std::fs::read(d.join("b2.txt.orig")).unwrap(), b"y\xFF");
    assert_eq!(
        std::fs::read_to_string(d.join("b2.txt")).unwrap(),
        "y\u{FFFD}"
    );

    // A symlink stays a symlink; its target is repaired.
    std::fs::create_dir(d.join("t")).unwrap();
    write(d, "t/target.txt", b"t\xC0");
    std::os::unix::fs::symlink("t/target.txt", d.join("link.txt")).unwrap();
    repair(d).args(["-i", "link.txt"]).run().assert_code(0);
    assert!(
        std::fs::symlink_metadata(d.join("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(d.join("t/target.txt")).unwrap(),
        "t\u{FFFD}"
    );
    assert!(leftovers(d).is_empty() && leftovers(&d.join("t")).is_empty());

    // Several hard links: refused, nothing changed; the other files are still repaired.
    write(d, "h.txt", b"h\xFF");
    std::fs::hard_link(d.join("h.txt"), d.join("h2.txt")).unwrap();
    write(d, "after.txt", b"a\xFF");
    let o = repair(d).args(["-i", "h.txt", "after.txt"]).run();
    o.assert_code(2);
    assert_eq!(std::fs::read(d.join("h.txt")).unwrap(), b"h\xFF");
    assert_eq!(
        std::fs::read_to_string(d.join("after.txt")).unwrap(),
        "a\u{FFFD}"
    );
    assert_snapshot!("repair_hard_link", o.snapshot());

    // Already valid: not touched at all (same inode, same mtime), even with a backup asked.
    write(d, "valid.txt", corpus(4, 100_000, false));
    let old = d.join("valid.txt");
    let t = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    std::fs::File::options()
        .write(true)
        .open(&old)
        .unwrap()
        .set_modified(t)
        .unwrap();
    let before = std::fs::metadata(&old).unwrap();
    repair(d)
        .args(["-i", "--backup", "valid.txt"])
        .run()
        .assert_code(0);
    let after = std::fs::metadata(&old).unwrap();
    assert_eq!((before.ino(), before.mtime()), (after.ino(), after.mtime()));
    assert!(!d.join("valid.txt~").exists());
    // ... but an output that differs (a BOM stripped) is written.
    write(d, "bom.txt", "\u{FEFF}ok");
    repair(d)
        .args(["-i", "--bom", "strip", "bom.txt"])
        .run()
        .assert_code(0);
    assert_eq!(std::fs::read_to_string(d.join("bom.txt")).unwrap(), "ok");
    assert!(leftovers(d).is_empty());
}

/// A large file with sparse errors, and what it repairs to.
fn large(d: &Path) -> (Vec<u8>, Vec<u8>) {
    let data = corpus(77, 12 << 20, true);
    let repaired = String::from_utf8_lossy(&data).into_owned().into_bytes();
    write(d, "big.txt", &data);
    (data, repaired)
}

#[test]
fn sigkill_leaves_original_or_repaired() {
    let dir = tempdir();
    let d = dir.path();
    let (data, repaired) = large(d);
    // One run to the end: the kills below fall anywhere in a run of that length.
    let start = Instant::now();
    repair(d).args(["-i", "big.txt"]).run().assert_code(0);
    let full = start.elapsed().as_millis() as u64 + 1;
    assert!(std::fs::read(d.join("big.txt")).unwrap() == repaired);
    write(d, "big.txt", &data);
    let mut rng = Rng::new(2024);
    let mut seen = [0usize; 2];
    for _ in 0..20 {
        let mut child = Command::new(utf8_tests::cli::bin("utf8-repair"))
            .args(["-i", "big.txt"])
            .current_dir(d)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(rng.below(full + full / 8)));
        let _ = child.kill();
        let _ = child.wait();
        let now = std::fs::read(d.join("big.txt")).unwrap();
        if now == data {
            seen[0] += 1;
        } else {
            assert!(now == repaired, "a mix of original and repaired");
            seen[1] += 1;
            write(d, "big.txt", &data);
        }
        for f in leftovers(d) {
            std::fs::remove_file(d.join(f)).unwrap();
        }
    }
    eprintln!(
        "sigkill: original {} times, repaired {} times",
        seen[0], seen[1]
    );
}

#[test]
fn sigint_sigterm_leave_no_temporary_file() {
    if !have("kill") && !Path::new("/bin/kill").exists() {
        eprintln!("sigint_sigterm: skipped: no kill command");
        return;
    }
    let dir = tempdir();
    let d = dir.path();
    let (data, _) = large(d);
    for (sig, out) in [("INT", false), ("TERM", false), ("TERM", true)] {
        let mut cmd = Command::new(utf8_tests::cli::bin("utf8-repair"));
        if out {
            cmd.args(["-o", "out.txt", "big.txt"]);
        } else {
            cmd.args(["-i", "big.txt"]);
        }
        let mut child = cmd
            .current_dir(d)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Signal once the temporary file exists (pass 1 compares first).
        let Some(status) = signal_after_temp_file(&mut child, d, sig) else {
            eprintln!("sigint_sigterm: finished before the signal; nothing to test");
            write(d, "big.txt", &data);
            continue;
        };
        assert!(
            status.code().is_none(),
            "{sig}: died of the signal: {status:?}"
        );
        assert!(leftovers(d).is_empty(), "{sig}: {:?}", leftovers(d));
        assert!(std::fs::read(d.join("big.txt")).unwrap() == data);
        assert!(!d.join("out.txt").exists());
    }
}

#[test]
fn report_json_schema() {
    let dir = tempdir();
    write(dir.path(), "bad.txt", BAD);
    write(dir.path(), "bad.sjis", b"ok \x82\x20 \xA0 end\x82");
    for (args, kind) in [
        (&["--report=json", "bad.txt"][..], None),
        (
            &["--from", "shift_jis", "--report=json", "bad.sjis"],
            Some("malformed"),
        ),
    ] {
        let o = repair(dir.path()).args(args).run();
        o.assert_code(0);
        let err = o.err();
        let lines: Vec<&str> = err.lines().collect();
        assert!(!lines.is_empty(), "{args:?}");
        for l in lines {
            let r: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}"));
            assert!(r.is_object(), "{l}");
            for field in ["path", "kind", "bytes"] {
                assert!(r[field].is_string(), "{field} in {l}");
            }
            for field in ["offset", "len", "line", "column"] {
                assert!(r[field].is_u64(), "{field} in {l}");
            }
            let len = r["len"].as_u64().unwrap() as usize;
            assert_eq!(r["bytes"].as_str().unwrap().split(' ').count(), len, "{l}");
            if let Some(kind) = kind {
                assert_eq!(r["kind"], kind, "{l}");
                assert_eq!(r["encoding"], "Shift_JIS", "{l}");
            } else {
                assert!(r.get("encoding").is_none(), "{l}");
            }
        }
    }
}

/// `--line-buffered`: each line is repaired and written out as it comes, into a pipe too
/// (`tail -f LOG | utf8-repair --line-buffered | ...`); without it a pipe gets the text when
/// the input ends. (A line ending in ASCII is processed at once, not held for the bytes
/// after it.)
#[test]
fn line_buffered_repairs_each_line_as_it_comes() {
    let lines: [&[u8]; 2] = [b"ab\xFFc\n", b"d\xE2\x82e\n"];
    let got = output_per_line("utf8-repair", &["--line-buffered"], &lines);
    let want: [&[u8]; 3] = [b"ab\xEF\xBF\xBDc\n", b"d\xEF\xBF\xBDe\n", b""];
    assert_eq!(got, want);
    let got = output_per_line("utf8-repair", &[], &lines[..1]);
    let want: [&[u8]; 2] = [b"", b"ab\xEF\xBF\xBDc\n"];
    assert_eq!(got, want);
}
