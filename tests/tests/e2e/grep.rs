//! utf8-grep end to end: differential against GNU grep (-F, and the default -G on literal
//! patterns, which runs the fixed-string search), the edges grep gets wrong
//! (invalid text, invalid needles), binary files, JSON and snapshots of what users see.

use std::path::Path;
use std::process::Command;

use insta::assert_snapshot;

use crate::util::{Outcome, TestCommand, corpus, tempdir, write};

fn grep(dir: &Path) -> TestCommand {
    TestCommand::new("utf8-grep", dir)
}

/// Whether GNU grep is installed.
fn have_gnu_grep() -> bool {
    Command::new("grep")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("GNU"))
}

/// A UTF-8 locale for GNU grep's -i and -w, if one exists.
fn utf8_locale() -> Option<String> {
    let out = Command::new("locale").arg("-a").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    ["C.utf8", "C.UTF-8", "en_US.utf8", "en_US.UTF-8"]
        .iter()
        .find(|l| text.lines().any(|x| x == **l))
        .map(|l| l.to_string())
}

fn gnu(dir: &Path, locale: &str, args: &[&str]) -> Outcome {
    let out = Command::new("grep")
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", locale)
        .env_remove("GREP_COLORS")
        .output()
        .expect("run grep");
    Outcome {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: out.stderr,
    }
}

fn ours(dir: &Path, args: &[&str]) -> Outcome {
    grep(dir).args(args).run()
}

/// Runs a python3 script with `input` on its standard input.
fn python3(script: &str, input: &[u8]) -> std::process::Output {
    Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().expect("stdin").write_all(input)?;
            c.wait_with_output()
        })
        .expect("python3")
}

/// Compares stdout and exit code with GNU grep -F for every option set and pattern.
fn differential(
    dir: &Path,
    locale: &str,
    option_sets: &[&[&str]],
    patterns: &[&[&str]],
    files: &[&str],
) -> usize {
    let mut n = 0;
    for opts in option_sets {
        for pats in patterns {
            let mut args: Vec<&str> = vec!["-F"];
            args.extend_from_slice(opts);
            args.extend_from_slice(pats);
            args.extend_from_slice(files);
            let want = gnu(dir, locale, &args);
            let got = ours(dir, &args);
            assert_eq!(
                (got.code, got.out()),
                (want.code, want.out()),
                "utf8-grep {args:?} differs from LC_ALL={locale} grep -F\n--- our stderr\n{}",
                got.err()
            );
            n += 1;
        }
    }
    n
}

fn corpus_files(dir: &Path) {
    write(dir, "a.txt", corpus(1, 40_000, false));
    write(dir, "b.txt", corpus(2, 20_000, false));
    // A final line without a newline, empty lines, words next to letters and digits.
    write(
        dir,
        "c.txt",
        "hello\n\nhello world\nhelloworld\nworld_hello\n9hello\nПривет мир\nмирный мир\nend hello",
    );
}

const PATTERNS: &[&[&str]] = &[
    &["hello"],
    &["world"],
    &["日本語"],
    &["Привет"],
    &["😀"],
    &["ok"],
    &["-e", "hello", "-e", "hello wor"],
    &["-e", "café", "-e", "テキスト", "-e", "o"],
    &["zzz-not-there"],
    &["мир"],
];

#[test]
fn same_as_gnu_grep_bytes() {
    if !have_gnu_grep() {
        eprintln!("same_as_gnu_grep_bytes: skipped: GNU grep is absent");
        return;
    }
    let dir = tempdir();
    corpus_files(dir.path());
    let sets: &[&[&str]] = &[
        &[],
        &["-n"],
        &["-c"],
        &["-v"],
        &["-v", "-c"],
        &["-l"],
        &["-L"],
        &["-b"],
        &["-o"],
        &["-o", "-b"],
        &["-o", "-n"],
        &["-n", "-b", "-H"],
        &["-h"],
        &["-x"],
        &["-x", "-v", "-n"],
        &["-m", "3"],
        &["-m", "2", "-c"],
        &["-m", "1", "-A", "2"],
        &["-n", "-A", "1"],
        &["-n", "-B", "2"],
        &["-C", "1"],
        &["-n", "-C", "2", "-v"],
        &["-o", "-C", "1"],
        &["--null", "-l"],
        &["--null", "-n"],
        &["--color=always"],
        &["--color=always", "-n", "-b", "-H"],
        &["--color=always", "-v", "-C", "1"],
        &["--color=always", "-o"],
        &["--color=always", "-l"],
        &["--color=always", "-c"],
        &["--label=LBL", "-H"],
    ];
    let mut n = 0;
    for files in [&["a.txt"][..], &["a.txt", "b.txt", "c.txt"][..]] {
        n += differential(dir.path(), "C", sets, PATTERNS, files);
    }
    assert!(n > 600);
}

#[test]
fn same_as_gnu_grep_utf8_locale() {
    if !have_gnu_grep() {
        eprintln!("same_as_gnu_grep_utf8_locale: skipped: GNU grep is absent");
        return;
    }
    let Some(locale) = utf8_locale() else {
        eprintln!("same_as_gnu_grep_utf8_locale: skipped: no UTF-8 locale (locale -a)");
        return;
    };
    let dir = tempdir();
    corpus_files(dir.path());
    write(
        dir.path(),
        "case.txt",
        "HELLO World\nhello world\nПРИВЕТ мир\nпривет МИР\nCAFÉ café\nÄÖÜ äöü\nnothing\n",
    );
    let sets: &[&[&str]] = &[
        &["-w"],
        &["-w", "-n", "-o"],
        &["-w", "-c"],
        &["-w", "-v"],
        &["-w", "-x"],
        &["-i"],
        &["-i", "-o"],
        &["-i", "-n", "-c"],
        &["-i", "-w"],
        &["-i", "-x"],
        &["-i", "-v", "-c"],
        &["-i", "--color=always"],
    ];
    let patterns: &[&[&str]] = &[
        &["hello"],
        &["HELLO"],
        &["мир"],
        &["ПРИВЕТ"],
        &["café"],
        &["äöü"],
        &["-e", "hello", "-e", "hello world"],
        &["-e", "world", "-e", "мир"],
        &["hello world"],
    ];
    differential(
        dir.path(),
        &locale,
        sets,
        patterns,
        &["a.txt", "c.txt", "case.txt"],
    );
}

#[test]
fn recursive_with_globs() {
    if !have_gnu_grep() {
        eprintln!("recursive_with_globs: skipped: GNU grep is absent");
        return;
    }
    let dir = tempdir();
    let d = dir.path();
    std::fs::create_dir_all(d.join("src/skip")).expect("mkdir");
    std::fs::create_dir_all(d.join("docs")).expect("mkdir");
    write(d, "src/a.rs", "fn hello() {}\n");
    write(d, "src/b.txt", "hello text\n");
    write(d, "src/skip/c.rs", "hello skipped\n");
    write(d, "docs/d.md", "# hello\n");
    let sorted = |o: &Outcome| {
        let mut l: Vec<String> = o.out().lines().map(String::from).collect();
        l.sort();
        (o.code, l)
    };
    for args in [
        &["-r", "hello"][..],
        &["-r", "hello", "src"],
        &["-r", "-n", "hello", "."],
        &["-r", "--include=*.rs", "hello"],
        &["-r", "--exclude=*.rs", "hello"],
        &["-r", "--exclude-dir=skip", "hello", "src"],
        &["-r", "-l", "hello"],
        &["-r", "-c", "hello", "docs"],
        &["-r", "-h", "hello"],
    ] {
        assert_eq!(
            sorted(&ours(d, args)),
            sorted(&gnu(d, "C", args)),
            "{args:?}"
        );
    }
}

#[test]
fn help() {
    let dir = tempdir();
    let o = grep(dir.path()).args(["--help"]).run();
    o.assert_code(0);
    assert_snapshot!("grep_help", o.snapshot());
}

fn invalid_fixture(dir: &Path) {
    write(
        dir,
        "bad.txt",
        b"ok line\nnaive caf\xC3\xA9 \xED\xA0\x80 surrogate caf\xC3\xA9\n\xFF\xFE caf\xC3\xA9 end\xF0\x9F\x98\nplain\n\xE2\x82caf\xC3\xA9",
    );
}

#[test]
fn invalid_text_never_hides_a_line() {
    let dir = tempdir();
    invalid_fixture(dir.path());
    let o = ours(dir.path(), &["-n", "café", "bad.txt"]);
    o.assert_code(0);
    assert_eq!(
        o.stdout,
        b"2:naive caf\xC3\xA9 \xED\xA0\x80 surrogate caf\xC3\xA9\n3:\xFF\xFE caf\xC3\xA9 end\xF0\x9F\x98\n5:\xE2\x82caf\xC3\xA9\n"
    );
    let o = ours(
        dir.path(),
        &["--column", "--repair-output", "café", "bad.txt"],
    );
    assert_snapshot!("grep_invalid_repair_column", o.snapshot());
    let o = ours(dir.path(), &["-c", "--invalid=report", "café", "bad.txt"]);
    o.assert_code(0);
    assert_snapshot!("grep_invalid_report", o.snapshot());
    // The -o text of a match next to invalid bytes is the match alone.
    let o = ours(dir.path(), &["-o", "-b", "café", "bad.txt"]);
    assert_eq!(o.out(), "14:café\n34:café\n43:café\n64:café\n");
    if have_gnu_grep() {
        assert_eq!(
            o.out(),
            gnu(dir.path(), "C", &["-o", "-b", "café", "bad.txt"]).out()
        );
    }
}

/// A pattern that is not UTF-8 matches its bytes, as GNU grep's does (`grep $'\\xff'`): such a
/// byte matches itself wherever it is, even inside a character (GNU grep 3.8 finds `\\xC3` in
/// `é`), with -F, -G and -E alike; a class or `.` never matches it. Compared with GNU grep in
/// a UTF-8 locale, with `-a` (it calls a file with an encoding error binary).
#[cfg(unix)]
#[test]
fn invalid_pattern_matches_its_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempdir();
    let text: &[u8] = b"caf\xC3\xA9\nx\xC3y\nz\xA9\n\xFF\n\xFF\xFF\nab\xED\xA0\x80\nabc\n\n";
    write(dir.path(), "t.txt", text);
    let cases: &[&[u8]] = &[
        b"\xFF",
        b"\xC3",
        b"\xA9",
        b"f\xC3",
        b"x\xC3.",
        b"^\xFF*$",
        b"[^a]\xA9",
        b"\\(\xC3\\)",
        b"[\xC3a]",
        b"[a-\xC3]",
        b"ab\xED\xA0\x80",
        b"\xFF\\{2\\}",
    ];
    let mut compared = 0;
    for pat in cases {
        for mode in ["-G", "-E", "-F"] {
            for extra in [
                &["-a", "-n"][..],
                &["-a", "-o"],
                &["-a", "-c"],
                &["-a", "-x"],
            ] {
                let mut args: Vec<&std::ffi::OsStr> = vec![mode.as_ref()];
                args.extend(extra.iter().map(std::ffi::OsStr::new));
                args.push(std::ffi::OsStr::from_bytes(pat));
                args.push("t.txt".as_ref());
                let o = grep(dir.path()).args(&args).run();
                assert_ne!(o.code, 2, "{args:?}: {}", o.err());
                if let Some(locale) = utf8_locale().filter(|_| have_gnu_grep()) {
                    let g = Command::new("grep")
                        .args(&args)
                        .current_dir(dir.path())
                        .env("LC_ALL", &locale)
                        .output()
                        .expect("run grep");
                    assert_eq!(
                        (o.code, o.stdout.as_slice()),
                        (g.status.code().unwrap_or(-1), g.stdout.as_slice()),
                        "utf8-grep {args:?} differs from GNU grep"
                    );
                    compared += 1;
                }
            }
        }
    }
    // Without GNU grep, the answers known from it.
    let o = ours(dir.path(), &["-a", "-c", "\u{FFFD}", "t.txt"]);
    assert_eq!(o.out(), "0\n");
    let o = grep(dir.path())
        .args([
            std::ffi::OsStr::from_bytes(b"-ac"),
            std::ffi::OsStr::from_bytes(b"\xC3"),
            "t.txt".as_ref(),
        ])
        .run();
    assert_eq!(o.out(), "2\n");
    if have_gnu_grep() && utf8_locale().is_some() {
        assert_eq!(compared, cases.len() * 12);
    }
    // -P takes a UTF-8 pattern only.
    let o = grep(dir.path())
        .args([
            "-P".as_ref(),
            std::ffi::OsStr::from_bytes(b"a\xFF"),
            "t.txt".as_ref(),
        ])
        .run();
    o.assert_code(2);
}

/// `utf8-grep -axv '.*'` lists exactly the lines that are not well-formed UTF-8 (std's
/// `str::from_utf8` refuses them), as GNU grep does in a UTF-8 locale, but for what glibc
/// decodes that Unicode does not (surrogates, code points past U+10FFFF: see grep_regex.rs);
/// `-c` counts them.
#[test]
fn lines_that_are_not_utf8() {
    let dir = tempdir();
    let mut text = crate::util::corpus(7, 200_000, true);
    text.extend_from_slice(b"\nnul\0inside\n\n\xC0\x80overlong\nlast \xE2\x82");
    write(dir.path(), "mixed.txt", &text);
    let lines: Vec<&[u8]> = text
        .strip_suffix(b"\n")
        .unwrap_or(&text)
        .split(|&b| b == b'\n')
        .collect();
    let bad: Vec<usize> = (1..=lines.len())
        .filter(|&n| std::str::from_utf8(lines[n - 1]).is_err())
        .collect();
    assert!(bad.len() > 10, "the corpus has errors");
    let o = ours(dir.path(), &["-naxv", ".*", "mixed.txt"]);
    o.assert_code(0);
    let numbers: Vec<usize> = o
        .out()
        .lines()
        .map(|l| l.split(':').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(numbers, bad);
    let o = ours(dir.path(), &["-caxv", ".*", "mixed.txt"]);
    assert_eq!(o.out(), format!("{}\n", bad.len()));
    // Byte for byte, the lines as they are.
    let o = ours(dir.path(), &["-axv", ".*", "mixed.txt"]);
    let want: Vec<u8> = bad
        .iter()
        .flat_map(|&n| lines[n - 1].iter().copied().chain([b'\n']))
        .collect();
    assert_eq!(o.stdout, want);
    if let Some(locale) = utf8_locale().filter(|_| have_gnu_grep()) {
        // Without the sequences glibc decodes and Unicode does not, GNU grep agrees.
        let glibc_only = |l: &&[u8]| {
            l.windows(2).any(|w| w[0] == 0xED && w[1] >= 0xA0)
                || l.windows(2).any(|w| w[0] == 0xF4 && w[1] >= 0x90)
                || l.iter().any(|&b| b >= 0xF5)
        };
        let plain: Vec<u8> = lines
            .iter()
            .filter(|l| !glibc_only(l))
            .flat_map(|l| l.iter().copied().chain([b'\n']))
            .collect();
        write(dir.path(), "plain.txt", &plain);
        for args in [
            &["-naxv", ".*", "plain.txt"][..],
            &["-caxv", ".*", "plain.txt"],
        ] {
            let g = gnu(dir.path(), &locale, args);
            let o = ours(dir.path(), args);
            assert_eq!((o.code, o.out()), (g.code, g.out()), "{args:?}");
        }
    }
}

#[test]
fn binary_files() {
    let dir = tempdir();
    write(dir.path(), "bin.dat", b"abc\0abc\nxyz abc\nend\n");
    let o = ours(dir.path(), &["abc", "bin.dat"]);
    o.assert_code(0);
    assert_snapshot!("grep_binary", o.snapshot());
    if have_gnu_grep() {
        for args in [
            &["abc", "bin.dat"][..],
            &["-c", "abc", "bin.dat"],
            &["-v", "-c", "abc", "bin.dat"],
            &["-l", "abc", "bin.dat"],
            &["-a", "-n", "abc", "bin.dat"],
            &["zzz", "bin.dat"],
            &["-o", "abc", "bin.dat"],
        ] {
            let want = gnu(dir.path(), "C", args);
            let got = ours(dir.path(), args);
            assert_eq!((got.code, got.out()), (want.code, want.out()), "{args:?}");
            assert_eq!(
                got.err().replace("utf8-grep", "grep"),
                want.err(),
                "{args:?}"
            );
        }
    }
}

#[test]
fn json_lines_parse() {
    let dir = tempdir();
    invalid_fixture(dir.path());
    let o = ours(dir.path(), &["--json", "-C", "1", "café", "bad.txt"]);
    o.assert_code(0);
    assert_snapshot!("grep_json", o.snapshot());
    if crate::util::have("python3") {
        let script = r#"
import json, sys
kinds = []
for line in sys.stdin:
    obj = json.loads(line)
    kinds.append(obj["type"])
    if obj["type"] in ("match", "context"):
        d = obj["data"]
        text = d["lines"]["text"]
        for m in d["submatches"]:
            assert text.encode()[m["start"]:m["end"]].decode() == m["match"]["text"], m
        for e in d["invalid"]:
            assert set(e) == {"offset", "len", "kind"}, e
print(" ".join(kinds))
"#;
        let out = python3(script, &o.stdout);
        assert!(out.status.success());
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "begin context match match context match end summary"
        );
    } else {
        eprintln!("json_lines_parse: python3 absent, JSON checked by snapshot only");
    }
}

#[test]
fn exit_status_and_quiet() {
    let dir = tempdir();
    write(dir.path(), "a.txt", "abc\n");
    ours(dir.path(), &["abc", "a.txt"]).assert_code(0);
    ours(dir.path(), &["zzz", "a.txt"]).assert_code(1);
    let o = ours(dir.path(), &["abc", "missing", "a.txt"]);
    o.assert_code(2);
    assert_eq!(o.out(), "a.txt:abc\n");
    assert_eq!(o.err(), "utf8-grep: missing: No such file or directory\n");
    // -q: a match wins over trouble; -s hides the message, not the status.
    ours(dir.path(), &["-q", "abc", "missing", "a.txt"]).assert_code(0);
    let o = ours(dir.path(), &["-s", "zzz", "missing", "a.txt"]);
    o.assert_code(2);
    assert_eq!(o.err(), "");
    // stdin, --label.
    let o = grep(dir.path())
        .args(["-H", "--label=in", "b"])
        .stdin("abc\n")
        .run();
    assert_eq!(o.out(), "in:abc\n");
    let o = grep(dir.path())
        .args(["-c", "b", "-", "a.txt"])
        .stdin("b\nb\n")
        .run();
    assert_eq!(o.out(), "(standard input):2\na.txt:1\n");
}

#[test]
fn closed_stdout_after_a_match_exits_0() {
    let dir = tempdir();
    let mut big = String::new();
    for i in 0..200_000 {
        big.push_str(&format!("line {i} match\n"));
    }
    write(dir.path(), "big.txt", &big);
    let o = grep(dir.path()).args(["match", "big.txt"]).run_head(10);
    o.assert_code(0);
    assert_eq!(o.err(), "");
}

#[test]
fn long_single_line_streams() {
    // 9 MiB without a newline: longer than the buffer threshold, so -c, -o and -l stream.
    let dir = tempdir();
    let unit = "日本語のテキスト café ";
    let mut s = String::new();
    while s.len() < 9 << 20 {
        s.push_str(unit);
    }
    s.push_str("needle");
    s.push_str(unit);
    s.push_str("\nsecond line needle\n");
    write(dir.path(), "long.txt", &s);
    let o = ours(dir.path(), &["-c", "needle", "long.txt"]);
    assert_eq!(o.out(), "2\n");
    let o = ours(dir.path(), &["-o", "-b", "-n", "needle", "long.txt"]);
    let at = s.find("needle").expect("needle");
    let second = s.rfind("needle").expect("needle");
    assert_eq!(o.out(), format!("1:{at}:needle\n2:{second}:needle\n"));
    let o = ours(dir.path(), &["-o", "--column", "-w", "café", "long.txt"]);
    let text = o.out();
    let lines: Vec<&str> = text.lines().collect();
    let per = unit.chars().count();
    assert_eq!(lines[0], format!("1:{}:café", 10));
    assert_eq!(lines[1], format!("1:{}:café", 10 + per));
    let o = ours(dir.path(), &["-c", "-v", "zzz", "long.txt"]);
    assert_eq!(o.out(), "2\n");
    let o = ours(dir.path(), &["-c", "-x", "second line needle", "long.txt"]);
    assert_eq!(o.out(), "1\n");
    if have_gnu_grep() {
        for args in [
            &["-c", "テキスト", "long.txt"][..],
            &["-o", "-b", "needle", "long.txt"],
            &["-l", "needle", "long.txt"],
            &["-c", "-e", "zz", "-e", "é n", "long.txt"],
        ] {
            let want = gnu(dir.path(), "C", args);
            assert_eq!(ours(dir.path(), args).out(), want.out(), "{args:?}");
        }
    }
}

/// A line too long to hold, streamed for `-o`, in a file binary before it ends (a NUL in a
/// line before it, later in it, or in the block where it ends): its matches are not printed,
/// the file "matches" (GNU grep 3.8 answers the same). Found by a review: the streamed
/// matches were printed.
#[test]
fn a_streamed_line_of_a_binary_file_shows_no_match() {
    let dir = tempdir();
    let mut bytes = b"a\0b\n".to_vec();
    bytes.extend(std::iter::repeat_n(b'x', 5 << 20));
    bytes.extend_from_slice(b" needle yy\n");
    write(dir.path(), "long.bin", &bytes);
    let o = ours(dir.path(), &["-o", "needle", "long.bin"]);
    assert_eq!(
        (o.code, o.out(), o.err()),
        (
            0,
            String::new(),
            "utf8-grep: long.bin: binary file matches\n".into()
        )
    );
    if have_gnu_grep() {
        let want = gnu(dir.path(), "C.UTF-8", &["-o", "needle", "long.bin"]);
        assert_eq!((want.code, want.out()), (0, String::new()));
    }
    let o = ours(dir.path(), &["-a", "-o", "needle", "long.bin"]);
    assert_eq!((o.code, o.out()), (0, "needle\n".into()));
    // A NUL later in the streamed line, or just after it in the block where it ends: the
    // whole line is binary (its matches are held until it ends); without one, they show.
    // (The NUL 200 KiB past the first match: in a later block than it.)
    let long = |tail: &[u8]| {
        let mut b = vec![b'x'; 5 << 20];
        b.extend_from_slice(b" needle ");
        b.extend(std::iter::repeat_n(b'y', 200 << 10));
        b.extend_from_slice(tail);
        b
    };
    let cases: [(&[u8], &str); 3] = [
        (b" \0 needle y\n", ""),
        (b"\nz\0\n", ""),
        (b" needle\nz\n", "needle\nneedle\n"),
    ];
    for (tail, want) in cases {
        write(dir.path(), "late.bin", long(tail));
        let o = ours(dir.path(), &["-o", "needle", "late.bin"]);
        let err = if want.is_empty() {
            "utf8-grep: late.bin: binary file matches\n"
        } else {
            ""
        };
        assert_eq!((o.code, o.out(), o.err()), (0, want.into(), err.into()));
        if have_gnu_grep() {
            let gnu = gnu(dir.path(), "C.UTF-8", &["-o", "needle", "late.bin"]);
            assert_eq!((gnu.code, gnu.out()), (0, want.into()));
        }
    }
}

#[test]
fn color_and_context_snapshot() {
    let dir = tempdir();
    write(
        dir.path(),
        "a.txt",
        "one\ntwo match\nthree\nfour\nfive\nsix match\nseven\n",
    );
    let o = ours(
        dir.path(),
        &["--color=always", "-n", "-C", "1", "match", "a.txt"],
    );
    assert_snapshot!("grep_color_context", o.snapshot());
    // NO_COLOR is honoured by auto, an explicit --color wins.
    let o = grep(dir.path())
        .env("NO_COLOR", "1")
        .args(["--color=always", "two", "a.txt"])
        .run();
    assert!(o.out().contains("\x1b[01;31m"));
    let o = grep(dir.path())
        .env("NO_COLOR", "1")
        .args(["--color=auto", "two", "a.txt"])
        .run();
    assert_eq!(o.out(), "two match\n");
}

/// Lines of `line NNNNNNN match` with some CJK, NUL bytes at `nuls`: about `len` bytes.
fn numbered_lines(len: usize, nuls: &[usize]) -> Vec<u8> {
    let mut data = Vec::with_capacity(len + 64);
    let mut i = 0;
    while data.len() < len {
        data.extend_from_slice(format!("line {i:07} match").as_bytes());
        for _ in 0..(i * 7) % 13 {
            data.extend_from_slice(" 日本語".as_bytes());
        }
        data.push(b'\n');
        i += 1;
    }
    for &at in nuls {
        data.insert(at, 0);
    }
    data
}

/// Compares stdout, stderr (program name aside) and exit code with GNU grep -F.
fn same_as_gnu_with_stderr(dir: &Path, args: &[&str]) {
    let want = gnu(dir, "C", args);
    let got = ours(dir, args);
    assert_eq!(
        (got.code, got.out(), got.err().replace("utf8-grep", "grep")),
        (want.code, want.out(), want.err()),
        "utf8-grep {args:?} differs from LC_ALL=C grep -F"
    );
}

/// Files of 4 MiB and more are mapped in 16 MiB windows; lines, matches and the switch to
/// binary at a NUL must not depend on where a window ends.
#[test]
fn mapped_files_same_as_gnu_grep() {
    if !have_gnu_grep() {
        eprintln!("mapped_files_same_as_gnu_grep: skipped: GNU grep is absent");
        return;
    }
    let dir = tempdir();
    let d = dir.path();
    let mut big = corpus(11, 34 << 20, false);
    big.extend_from_slice("\nlast line hello 日本語".as_bytes());
    write(d, "big.txt", &big);
    let sets: &[&[&str]] = &[
        &["-c"],
        &["-n"],
        &["-o", "-b"],
        &["-v", "-c"],
        &["-l"],
        &["-m", "5000", "-c"],
        &["-n", "-C", "1"],
    ];
    let patterns: &[&[&str]] = &[
        &["hello"],
        &["日本語"],
        &["-e", "world", "-e", "テキスト"],
        &["zzz-not-there"],
    ];
    differential(d, "C", sets, patterns, &["big.txt"]);
    // A NUL near each window edge, and at block (96 KiB) edges of GNU grep's reads.
    const W: usize = 16 << 20;
    for nul in [
        W - 5,
        W,
        W + 1000,
        2 * W + 3,
        98_304 * 200,
        98_304 * 200 - 1,
    ] {
        write(d, "nul.txt", numbered_lines(34 << 20, &[nul]));
        for args in [
            &["-n", "match", "nul.txt"][..],
            &["-c", "match", "nul.txt"],
            &["-c", "-v", "日本語", "nul.txt"],
            &["-o", "-b", "0199", "nul.txt"],
        ] {
            same_as_gnu_with_stderr(d, args);
        }
    }
}

/// Where a NUL turns a file binary: GNU grep checks each 96 KiB read, so lines completed
/// before the read holding the NUL are printed, the rest becomes "binary file matches".
/// `-c`, `-l` and `-q` select the same lines wherever the NUL is; a NUL inside a selected
/// line splits it (grep treats NUL as a line end in binary files).
#[test]
fn binary_switch_point_as_gnu_grep() {
    if !have_gnu_grep() {
        eprintln!("binary_switch_point_as_gnu_grep: skipped: GNU grep is absent");
        return;
    }
    let dir = tempdir();
    let d = dir.path();
    for len in [1 << 20, 6 << 20] {
        for nul in [
            0, 100, 98_303, 98_304, 98_310, 196_600, 196_610, 294_900, 900_000,
        ] {
            write(d, "nul.txt", numbered_lines(len, &[nul]));
            for args in [
                &["-n", "match", "nul.txt"][..],
                &["-b", "-A", "1", "0005", "nul.txt"],
                &["-c", "match", "nul.txt"],
                &["-v", "-c", "line", "nul.txt"],
                &["-o", "-n", "00054", "nul.txt"],
                &["-a", "-c", "match", "nul.txt"],
            ] {
                same_as_gnu_with_stderr(d, args);
            }
        }
    }
    // Several NULs on one selected line: -c counts its pieces that match.
    let mut data = numbered_lines(6 << 20, &[]);
    data.extend_from_slice(b"match\0match\0x\0match\n\0\0\nmatch\n");
    write(d, "nul.txt", &data);
    for args in [
        &["-c", "match", "nul.txt"][..],
        &["-c", "-v", "zzz", "nul.txt"],
        &["-c", "-x", "match", "nul.txt"],
        &["-l", "match", "nul.txt"],
    ] {
        same_as_gnu_with_stderr(d, args);
    }
    let o = ours(d, &["-c", "match", "nul.txt"]);
    let lines = o.out().trim().parse::<u64>().unwrap();
    assert!(lines > 3, "{lines}");
}

/// Whether ripgrep is installed.
fn have_rg() -> bool {
    crate::util::have("rg")
}

/// -i with several patterns is leftmost-longest even when folding changes lengths: `ſſ`
/// (4 bytes) is the longer pattern, but `sss` matches `ſſſ` (6 bytes) at the same start.
#[test]
fn ignore_case_several_patterns_leftmost_longest() {
    let dir = tempdir();
    let d = dir.path();
    write(
        d,
        "fold.txt",
        "ſſſ x\nsss\nſs\n\u{212A}\u{212A} x\nk\u{212A}\n",
    );
    let o = ours(d, &["-o", "-i", "-e", "sss", "-e", "ſſ", "fold.txt"]);
    assert_eq!(o.out(), "ſſſ\nsss\nſs\n");
    // The Kelvin sign (3 bytes) folds to k: `kk` matches KK (6 bytes), longer than K.
    let o = ours(d, &["-o", "-i", "-e", "\u{212A}", "-e", "kk", "fold.txt"]);
    assert_eq!(o.out(), "\u{212A}\u{212A}\nk\u{212A}\n");
    // -w retries shorter matches at the same start, longest first.
    let o = ours(d, &["-o", "-i", "-w", "-e", "sss", "-e", "ſ", "fold.txt"]);
    assert_eq!(o.out(), "ſſſ\nsss\n");
    let Some(locale) = utf8_locale().filter(|_| have_gnu_grep()) else {
        eprintln!(
            "ignore_case_several_patterns_leftmost_longest: GNU grep or a UTF-8 locale absent"
        );
        return;
    };
    // GNU grep folds ſ with s too (not the Kelvin sign with k: compared where it agrees).
    let sets: &[&[&str]] = &[
        &["-o", "-i"],
        &["-i", "-c"],
        &["-o", "-i", "-b"],
        &["-i", "--color=always"],
    ];
    let patterns: &[&[&str]] = &[
        &["-e", "sss", "-e", "ſſ"],
        &["-e", "ſſ", "-e", "s"],
        &["-e", "ss", "-e", "Sſs"],
    ];
    differential(d, &locale, sets, patterns, &["fold.txt"]);
}

/// A directory named without -r: GNU grep 3.8 says "Is a directory", exits 2, and counts it
/// as a file without matches (`dir:0` with -c, its name with -L).
#[test]
fn directory_without_recursive() {
    let dir = tempdir();
    let d = dir.path();
    std::fs::create_dir(d.join("sub")).unwrap();
    write(d, "t.txt", "abc\nxyz\n");
    let o = ours(d, &["-c", "x", "sub", "t.txt"]);
    o.assert_code(2);
    assert_snapshot!("grep_directory_count", o.snapshot());
    if have_gnu_grep() {
        for args in [
            &["-c", "x", "sub", "t.txt"][..],
            &["-c", "x", "sub"],
            &["-L", "x", "sub", "t.txt"],
            &["-l", "x", "sub", "t.txt"],
            &["x", "sub", "t.txt"],
            &["-s", "-c", "x", "sub"],
            &["-q", "x", "sub", "t.txt"],
        ] {
            same_as_gnu_with_stderr(d, args);
        }
    }
}

/// --column with -v: an inverted line has no match, so no column (ripgrep prints the same).
#[test]
fn column_with_invert() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "t.txt", "abc\nxyz\nabc abc\n日本 x\n");
    let o = ours(d, &["--column", "-v", "abc", "t.txt"]);
    assert_eq!(o.out(), "2:xyz\n4:日本 x\n");
    let o = ours(d, &["--column", "x", "t.txt"]);
    assert_eq!(o.out(), "2:1:xyz\n4:4:日本 x\n");
    if have_rg() {
        let rg = Command::new("rg")
            .args(["--no-config", "--column", "-v", "abc", "t.txt"])
            .current_dir(d)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&rg.stdout), "2:xyz\n4:日本 x\n");
    }
}

/// --json with -c, -l, -L: the one given last wins, as in ripgrep; -o does not change JSON.
#[test]
fn json_with_count_list_and_only_matching() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "t.txt", "abc\nxyz\nabc abc\n");
    let o = ours(d, &["--json", "-c", "abc", "t.txt"]);
    o.assert_code(0);
    assert_eq!(o.out(), "2\n");
    assert_eq!(ours(d, &["--json", "-l", "abc", "t.txt"]).out(), "t.txt\n");
    assert_eq!(ours(d, &["--json", "-L", "zzz", "t.txt"]).out(), "t.txt\n");
    let json = ours(d, &["--json", "abc", "t.txt"]);
    for args in [
        &["-c", "--json", "abc", "t.txt"][..],
        &["-l", "--json", "abc", "t.txt"],
        &["-L", "--json", "abc", "t.txt"],
        &["--json", "-o", "abc", "t.txt"],
        &["-o", "--json", "abc", "t.txt"],
    ] {
        let o = ours(d, args);
        o.assert_code(0);
        assert_eq!(o.out(), json.out(), "{args:?}");
    }
    assert!(
        json.out().contains("\"start\":4,\"end\":7"),
        "{}",
        json.out()
    );
    assert_snapshot!("grep_json_only_matching", json.snapshot());
    if have_rg() {
        for args in [
            &["--json", "-c", "abc", "t.txt"][..],
            &["--json", "-l", "abc", "t.txt"],
        ] {
            let rg = Command::new("rg")
                .arg("--no-config")
                .args(args)
                .current_dir(d)
                .output()
                .unwrap();
            assert_eq!(
                ours(d, args).out(),
                String::from_utf8_lossy(&rg.stdout),
                "{args:?}"
            );
        }
    }
}

/// Fuzz findings (grep_matcher, cargo xtask fuzz): an empty pattern among several under
/// `-w` (aho-corasick's leftmost-longest search skipped the empty match where a longer
/// pattern started to match), and an empty pattern under `-w`/`-x` matching the "line"
/// after the final newline. Expected answers are GNU grep's.
#[test]
fn empty_pattern_under_w_and_x() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "t.txt", "x, abx\nfoo\n");
    // The empty match between ',' and ' ' stands alone as a word.
    let o = grep(d).args(["-w", "-e", "", "-e", " abc", "t.txt"]).run();
    o.assert_code(0);
    assert_eq!(o.out(), "x, abx\n");
    let o = grep(d).args(["-w", "-e", "", "t.txt"]).run();
    o.assert_code(0);
    assert_eq!(o.out(), "x, abx\n");
    let o = grep(d).args(["-c", "-x", "-e", ""]).stdin("a\n").run();
    o.assert_code(1);
    assert_eq!(o.out(), "0\n");
    let o = grep(d).args(["-c", "-x", "-e", ""]).stdin("a\n\nb\n").run();
    o.assert_code(0);
    assert_eq!(o.out(), "1\n");
    let o = grep(d)
        .args(["-n", "-w", "-e", "", "-e", "zz"])
        .stdin("ab\n")
        .run();
    o.assert_code(1);
    assert_eq!(o.out(), "");
}

/// `--include` is an fnmatch pattern matched in time linear in the name (issue 18; a
/// backtracking matcher took exponential time here: 12 stars against 40 `a`s never ended,
/// where GNU grep and rg answer at once). The timeout is generous and only catches the
/// hang.
#[test]
fn include_glob_with_many_stars_answers() {
    use std::time::{Duration, Instant};
    let dir = tempdir();
    let d = dir.path();
    let name = "a".repeat(40);
    write(d, &name, "hello\n");
    write(d, "aab", "hello\n");
    let mut cmd = grep(d);
    let mut child = cmd
        .args(["-r", "--include=*a*a*a*a*a*a*a*a*a*a*a*a*b", "hello"])
        .command()
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn utf8-grep");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(15) {
            let _ = child.kill();
            panic!("utf8-grep --include='*a*a*...*b' hangs on a name of 40 'a's");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().expect("output");
    // Neither name has 12 `a`s followed by a `b`.
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

/// `--include`/`--exclude` are fnmatch(3) patterns, not globset's: `{a,b}` is literal,
/// `*` matches a leading `.`, `[!...]` negates, `\` escapes.
#[test]
fn include_exclude_follow_fnmatch() {
    let dir = tempdir();
    let d = dir.path();
    for name in ["{a,b}.txt", "a.txt", ".hidden.txt", "x.md", "*.md"] {
        write(d, name, "hello\n");
    }
    let files = |args: &[&str]| {
        let mut a = vec!["-r", "-l"];
        a.extend_from_slice(args);
        a.push("hello");
        let mut l: Vec<String> = ours(d, &a).out().lines().map(String::from).collect();
        l.sort();
        l
    };
    assert_eq!(files(&["--include={a,b}.txt"]), ["{a,b}.txt"]);
    assert_eq!(
        files(&["--include=*.txt"]),
        [".hidden.txt", "a.txt", "{a,b}.txt"]
    );
    assert_eq!(files(&["--include=[!.{]*"]), ["*.md", "a.txt", "x.md"]);
    assert_eq!(files(&["--include=\\*.md"]), ["*.md"]);
    assert_eq!(files(&["--exclude=*.txt", "--exclude=[a-z].md"]), ["*.md"]);
}

/// `--engine` chooses the validator behind `--invalid=report`; every engine reports the
/// same sequences at the same places (text and JSON), on stdin and on a file.
#[test]
fn engine_choice_gives_identical_invalid_reports() {
    let dir = tempdir();
    let d = dir.path();
    invalid_fixture(d);
    let mut text = corpus(7, 1 << 20, true);
    text.extend_from_slice(b"\n\xF0\x9F\x98");
    write(d, "big.txt", &text);
    for extra in [&[][..], &["--json"], &["-c"], &["-v", "-n"]] {
        let run = |engine: &str| {
            let mut args = vec!["--invalid=report", "--engine", engine];
            args.extend_from_slice(extra);
            args.extend_from_slice(&["caf", "bad.txt", "big.txt"]);
            ours(d, &args)
        };
        let scalar = run("scalar");
        assert!(
            scalar.err().contains("surrogate"),
            "{extra:?}: {}",
            scalar.err()
        );
        for engine in ["dfa", "auto"] {
            let other = run(engine);
            assert_eq!(
                (other.code, other.out(), other.err()),
                (scalar.code, scalar.out(), scalar.err()),
                "--engine {engine} {extra:?}"
            );
        }
    }
}

/// `--include` agrees with libc's fnmatch(3) (no flags, C locale, through python3's
/// ctypes) on generated patterns and names: the syntax GNU grep gives these options
/// (issue 22). ASCII only: in the C locale fnmatch and utf8-grep both match bytes.
#[test]
fn include_agrees_with_libc_fnmatch() {
    if !crate::util::have("python3") {
        eprintln!("include_agrees_with_libc_fnmatch: skipped: python3 is absent");
        return;
    }
    let mut rng = crate::util::Rng::new(22);
    let mut pick = |alphabet: &[u8], max: u64| -> String {
        let n = 1 + rng.below(max);
        (0..n)
            .map(|_| char::from(alphabet[rng.below(alphabet.len() as u64) as usize]))
            .collect()
    };
    let dir = tempdir();
    let d = dir.path();
    let mut names = Vec::new();
    while names.len() < 40 {
        let name = pick(b"ab.-[]!^{},:\\", 5);
        if name != "." && name != ".." && !names.contains(&name) {
            write(d, &name, "x\n");
            names.push(name);
        }
    }
    let patterns: Vec<String> = (0..100).map(|_| pick(b"ab.-[]!^{},:*?\\", 7)).collect();
    let script = r#"
import ctypes, sys
fnmatch = ctypes.CDLL(None).fnmatch
fnmatch.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int]
lines = sys.stdin.read().split("\n")
n = int(lines[0])
names, pats = lines[1:1 + n], lines[1 + n:]
for p in pats:
    print("/".join(sorted(x for x in names if fnmatch(p.encode(), x.encode(), 0) == 0)))
"#;
    let mut input = format!("{}\n{}\n", names.len(), names.join("\n"));
    input.push_str(&patterns.join("\n"));
    let out = python3(script, input.as_bytes());
    assert!(out.status.success());
    let want = String::from_utf8(out.stdout).expect("UTF-8");
    for (pat, want) in patterns.iter().zip(want.lines()) {
        let include = format!("--include={pat}");
        let o = ours(d, &["-r", "-l", &include, "x"]);
        let mut got: Vec<&str> = o
            .stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| std::str::from_utf8(l).expect("UTF-8"))
            .collect();
        got.sort();
        assert_eq!(got.join("/"), want, "--include={pat:?}");
    }
}

/// A repeated option is harmless and the last value wins, as getopt makes it in GNU grep
/// (issue 22, group 1: `-C 4 -C 1`, `-i -i`, `-m 1 -m 2` were usage errors).
#[test]
fn repeated_options_last_wins() {
    let dir = tempdir();
    write(dir.path(), "t.txt", "a1\nb\nc\nd\nA2\nb\na3\n");
    let cases: &[(&[&str], &str)] = &[
        (&["-i", "-i", "a", "t.txt"], "a1\nA2\na3\n"),
        (&["-m", "1", "-m", "2", "a", "t.txt"], "a1\na3\n"),
        (&["-m", "2", "-m", "1", "a", "t.txt"], "a1\n"),
        (&["-C", "4", "-C", "0", "d", "t.txt"], "d\n"),
        (&["-C", "0", "-C", "1", "d", "t.txt"], "c\nd\nA2\n"),
        (&["-c", "-c", "b", "t.txt"], "2\n"),
    ];
    for (args, want) in cases {
        let o = grep(dir.path()).args(*args).run();
        o.assert_code(0);
        assert_eq!(o.out(), *want, "utf8-grep {args:?}");
    }
}

/// `--invalid=report` validates the whole file beside the search, whatever is selected: with
/// `-c`, `-l` and `-m 1` every invalid sequence is listed, those of lines not counted too
/// (the man page says so); `-q` stops at the first match, after those before it (and maybe a
/// few more: what it read).
#[test]
fn invalid_report_lists_every_sequence_of_the_file() {
    let dir = tempdir();
    let d = dir.path();
    write(
        d,
        "inv.txt",
        b"bar \xFF one\nfoo \xFE two\nbar ok\nfoo \xC0\n",
    );
    let all = "utf8-grep: inv.txt:1:5: invalid-byte at byte 4 (FF): FF never appears in UTF-8\n\
               utf8-grep: inv.txt:2:5: invalid-byte at byte 14 (FE): FE never appears in UTF-8\n\
               utf8-grep: inv.txt:4:5: overlong at byte 31 (C0): C0 starts an overlong encoding\n";
    for (args, out) in [
        (&["-c", "foo"][..], "2\n"),
        (&["-l", "foo"][..], "inv.txt\n"),
        (&["-c", "-v", "foo"][..], "2\n"),
    ] {
        let o = grep(d)
            .args(args)
            .args(["--invalid=report", "inv.txt"])
            .run();
        o.assert_code(0);
        assert_eq!(o.out(), out, "{args:?}");
        assert_eq!(o.err(), all, "{args:?}");
    }
    let o = grep(d)
        .args(["-q", "--invalid=report", "foo", "inv.txt"])
        .run();
    o.assert_code(0);
    let first = all.lines().next().unwrap();
    assert!(
        o.err().starts_with(first) && all.starts_with(&o.err()),
        "{}",
        o.err()
    );
}
