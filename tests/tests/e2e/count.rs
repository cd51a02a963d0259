//! utf8-count end to end.

use std::path::Path;

use insta::assert_snapshot;

use crate::util::{corpus, count, have, output_per_line, tempdir, write};

/// Three small inputs: ASCII, mixed scripts, and every kind of error.
fn fixtures(dir: &Path) {
    write(dir, "ascii.txt", "hello\nworld\n");
    write(dir, "mixed.txt", "héllo wörld\n日本語\n😀 ok\n");
    write(
        dir,
        "bad.txt",
        b"ok\xED\xA0\x80 line\nsecond \xC1\x81 \xF4\x90\x80\x80\n\xE2\x82A\xFF\x80 end\xF0\x9F\x98",
    );
}

#[test]
fn help() {
    let dir = tempdir();
    let o = count(dir.path()).arg_help();
    assert_snapshot!("count_help", o.snapshot());
}

trait ArgHelp {
    fn arg_help(&mut self) -> crate::util::Outcome;
}

impl ArgHelp for crate::util::TestCommand {
    fn arg_help(&mut self) -> crate::util::Outcome {
        self.args(["--help"]).run()
    }
}

#[test]
fn normal_output() {
    let dir = tempdir();
    fixtures(dir.path());
    let o = count(dir.path())
        .args(["ascii.txt", "mixed.txt", "bad.txt"])
        .run();
    o.assert_code(0);
    assert_snapshot!("count_normal", o.snapshot());
}

#[test]
fn column_selection_and_order() {
    let dir = tempdir();
    fixtures(dir.path());
    // Flags in any order give the fixed column order lines, chars, bytes, errors, longest.
    let a = count(dir.path())
        .args(["-e", "-L", "-c", "-l", "-m", "bad.txt"])
        .run();
    let b = count(dir.path()).args(["-lmceL", "bad.txt"]).run();
    assert_eq!(a.out(), b.out());
    assert_snapshot!("count_columns", a.snapshot());
    let o = count(dir.path()).args(["-e", "bad.txt"]).run();
    assert_eq!(o.out(), "13 bad.txt\n");
    let o = count(dir.path()).args(["-m"]).stdin("añb").run();
    assert_eq!(o.out(), "3\n");
}

#[test]
fn json() {
    let dir = tempdir();
    fixtures(dir.path());
    let o = count(dir.path())
        .args(["--json", "ascii.txt", "-", "bad.txt"])
        .stdin("é\n")
        .run();
    o.assert_code(0);
    assert_snapshot!("count_json", o.snapshot());
    let o = count(dir.path())
        .args(["--json", "--histogram", "-L", "bad.txt"])
        .run();
    assert_snapshot!("count_json_histogram", o.snapshot());
    // by_kind names all seven kinds, zeros included.
    let o = count(dir.path())
        .args(["--json", "--histogram", "ascii.txt"])
        .run();
    for kind in [
        "overlong",
        "surrogate",
        "out-of-range",
        "invalid-byte",
        "unexpected-continuation",
        "truncated",
        "unexpected-end",
    ] {
        assert!(
            o.out().contains(&format!("\"{kind}\": 0")),
            "{kind}: {}",
            o.out()
        );
    }
}

#[test]
fn histogram() {
    let dir = tempdir();
    fixtures(dir.path());
    let o = count(dir.path())
        .args(["--histogram", "mixed.txt", "bad.txt"])
        .run();
    o.assert_code(0);
    assert_snapshot!("count_histogram", o.snapshot());
}

#[test]
fn total_modes() {
    let dir = tempdir();
    fixtures(dir.path());
    let run = |total: &str, files: &[&str]| {
        let mut c = count(dir.path());
        c.args(["-l", &format!("--total={total}")]).args(files);
        c.run().out()
    };
    let two = ["ascii.txt", "mixed.txt"];
    // Widths as GNU wc: enough digits for the sum of the file sizes.
    assert_eq!(run("auto", &two), " 2 ascii.txt\n 3 mixed.txt\n 5 total\n");
    assert_eq!(run("auto", &["ascii.txt"]), "2 ascii.txt\n");
    assert_eq!(run("always", &["ascii.txt"]), "2 ascii.txt\n2 total\n");
    assert_eq!(run("only", &two), "5\n");
    assert_eq!(run("never", &two), " 2 ascii.txt\n 3 mixed.txt\n");
    let o = count(dir.path())
        .args(["--json", "--total=only", "ascii.txt"])
        .run();
    assert_eq!(
        o.out(),
        "{\"path\": null, \"lines\": 2, \"words\": 2, \"chars\": 12, \"bytes\": 12, \"errors\": 0}\n"
    );
}

#[test]
fn longest_line() {
    let dir = tempdir();
    // In code points (--max-line-chars, what -L counted before issue 22): errors count one
    // each; the last line counts without a final newline.
    let o = count(dir.path())
        .args(["--max-line-chars"])
        .stdin(b"ab\n\xED\xA0\x80xyz\xFF\nq")
        .run();
    assert_eq!(o.out(), "7\n");
    let o = count(dir.path())
        .args(["--max-line-chars"])
        .stdin("日本語\n")
        .run();
    assert_eq!(o.out(), "3\n");
    // -L is the display width, as GNU wc: errors 0 columns, wide characters 2.
    let o = count(dir.path())
        .args(["-L"])
        .stdin(b"ab\n\xED\xA0\x80xyz\xFF\nq")
        .run();
    assert_eq!(o.out(), "3\n");
    let o = count(dir.path()).args(["-L"]).stdin("日本語\n").run();
    assert_eq!(o.out(), "6\n");
}

#[test]
fn explain_examples() {
    let dir = tempdir();
    let explain = |hex: &str| {
        count(dir.path())
            .args(["--explain", "--hex"])
            .stdin(hex)
            .run()
            .assert_code(0)
            .out()
    };
    assert!(explain("F2 80 9F A2").contains("U+807E2"));
    assert!(explain("ED 9F 80").contains("U+D7C0"));
    assert!(explain("F4 80 80 8F").contains("U+10000F"));
    let s = explain("ED BF 80");
    assert!(s.lines().next().unwrap().contains("surrogate"), "{s}");
    assert!(s.contains("U+DFC0"), "{s}");
    assert!(
        explain("0xC1 0x81")
            .lines()
            .next()
            .unwrap()
            .contains("overlong")
    );
    let s = explain("41 42 80");
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 3, "{s}");
    assert!(lines[0].contains("U+0041") && lines[1].contains("U+0042"));
    assert!(
        lines[2].trim_start().starts_with("2 ") && lines[2].contains("unexpected-continuation")
    );
}

#[test]
fn explain_output() {
    let dir = tempdir();
    fixtures(dir.path());
    let o = count(dir.path()).args(["--explain", "bad.txt"]).run();
    o.assert_code(0);
    assert_snapshot!("count_explain", o.snapshot());
    let o = count(dir.path())
        .args(["--explain", "--json", "--hex"])
        .stdin("41 0A E2 82 41 F0 9F 98")
        .run();
    assert_snapshot!("count_explain_json", o.snapshot());
}

#[test]
fn check() {
    let dir = tempdir();
    fixtures(dir.path());
    let o = count(dir.path())
        .args(["--check", "ascii.txt", "mixed.txt"])
        .run();
    o.assert_code(0);
    assert_eq!((o.out(), o.err()), (String::new(), String::new()));
    let o = count(dir.path())
        .args(["--check", "ascii.txt", "bad.txt", "mixed.txt"])
        .run();
    o.assert_code(1);
    assert_eq!(
        o.err(),
        "utf8-count: bad.txt:1:3: surrogate at byte 2 (ED): ED A0 80 would encode the surrogate U+D800\n"
    );
    let o = count(dir.path())
        .args(["--check", "--json", "bad.txt"])
        .run();
    o.assert_code(1);
    assert_eq!(
        o.out(),
        "{\"path\": \"bad.txt\", \"offset\": 2, \"len\": 1, \"kind\": \"surrogate\", \"bytes\": \"ED\", \"line\": 1, \"column\": 3}\n"
    );
    // Trouble wins over invalid.
    let o = count(dir.path())
        .args(["--check", "bad.txt", "missing.txt"])
        .run();
    o.assert_code(2);
    // Line and column: earlier errors count one column each.
    let o = count(dir.path())
        .args(["--check"])
        .stdin(b"a\nb\xFF\xFEc\xE2\x82")
        .run();
    o.assert_code(1);
    assert!(
        o.err()
            .starts_with("utf8-count: -:2:2: invalid-byte at byte 3 (FF)"),
        "{}",
        o.err()
    );
    let o = count(dir.path())
        .args(["--check"])
        .stdin(b"a\nbc\xE2\x82")
        .run();
    assert!(
        o.err()
            .starts_with("utf8-count: -:2:3: unexpected-end at byte 4 (E2 82)"),
        "{}",
        o.err()
    );
}

#[test]
fn diagnostics() {
    let dir = tempdir();
    fixtures(dir.path());
    std::fs::create_dir(dir.path().join("subdir")).unwrap();
    let o = count(dir.path())
        .args(["-l", "missing.txt", "ascii.txt", "subdir", "mixed.txt"])
        .run();
    o.assert_code(2);
    assert_snapshot!("count_diagnostics", o.snapshot());
    let o = count(dir.path()).args(["--bogus"]).run();
    o.assert_code(2);
    let o = count(dir.path())
        .args(["--threads", "0", "ascii.txt"])
        .run();
    o.assert_code(2);
    let o = count(dir.path()).args(["--total=sometimes"]).run();
    o.assert_code(2);
    let o = count(dir.path()).args(["--check", "--explain"]).run();
    o.assert_code(2);
    let o = count(dir.path()).args(["--hex"]).stdin("ED B").run();
    o.assert_code(2);
    assert_eq!(o.err(), "utf8-count: -: line 1: invalid hex byte 'B'\n");
    let o = count(dir.path()).args(["--hex", "-c"]).stdin("ED zz").run();
    o.assert_code(2);
    assert_snapshot!("count_bad_hex", o.snapshot());
}

#[test]
fn unreadable_file() {
    let dir = tempdir();
    write(dir.path(), "secret.txt", "x\n");
    let path = dir.path().join("secret.txt");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    if std::fs::read(&path).is_ok() {
        eprintln!("unreadable_file: skipped: running with privileges that read a mode-000 file");
        return;
    }
    let o = count(dir.path()).args(["secret.txt"]).run();
    o.assert_code(2);
    assert_eq!(o.err(), "utf8-count: secret.txt: Permission denied\n");
}

#[test]
fn engines() {
    let dir = tempdir();
    fixtures(dir.path());
    let mut big = corpus(5, 1 << 20, true);
    big.extend_from_slice(b"\xF0\x9F");
    write(dir.path(), "big.txt", &big);
    let mut files = vec!["bad.txt".to_string(), "big.txt".to_string()];
    if let Some(conf) = utf8_tests::conformance_dir() {
        files.push(conf.join("UTF-8-test.txt").to_string_lossy().into_owned());
    }
    let modes: [&[&str]; 5] = [
        &["--json", "--histogram", "-L"],
        &["--explain"],
        &["--explain", "--json"],
        &["--check"],
        &["--threads=3", "-L"],
    ];
    for mode in modes {
        for file in &files {
            let run = |engine: &str| {
                count(dir.path())
                    .arg_engine(engine)
                    .args(mode)
                    .args([file])
                    .run()
            };
            let auto = run("auto");
            assert_ne!(auto.code, 2, "{mode:?} {file}: {}", auto.err());
            for engine in ["scalar", "dfa"] {
                assert!(run(engine) == auto, "--engine={engine} {mode:?} {file}");
            }
        }
    }
    // Through a pipe too (chunks as the kernel delivers them).
    let run = |engine: &str| {
        count(dir.path())
            .arg_engine(engine)
            .args(["--json", "--histogram", "-L"])
            .stdin(&big)
            .run()
    };
    assert_eq!(run("dfa"), run("scalar"));
    count(dir.path())
        .args(["--engine=simd"])
        .run()
        .assert_code(2);
}

trait ArgEngine {
    fn arg_engine(&mut self, engine: &str) -> &mut crate::util::TestCommand;
}

impl ArgEngine for crate::util::TestCommand {
    fn arg_engine(&mut self, engine: &str) -> &mut crate::util::TestCommand {
        self.args([format!("--engine={engine}")])
    }
}

#[test]
fn files0_from() {
    let dir = tempdir();
    fixtures(dir.path());
    write(dir.path(), "list", b"ascii.txt\0mixed.txt\0");
    let o = count(dir.path()).args(["-l", "--files0-from=list"]).run();
    assert_eq!(
        o.assert_code(0).out(),
        " 2 ascii.txt\n 3 mixed.txt\n 5 total\n"
    );
    let o = count(dir.path())
        .args(["-l", "--files0-from=-"])
        .stdin(b"mixed.txt\0")
        .run();
    assert_eq!(o.assert_code(0).out(), "3 mixed.txt\n");
    count(dir.path())
        .args(["--files0-from=list", "ascii.txt"])
        .run()
        .assert_code(2);
    count(dir.path())
        .args(["--files0-from=nolist"])
        .run()
        .assert_code(2);
}

#[test]
fn stdin_names() {
    let dir = tempdir();
    let o = count(dir.path()).stdin("a\n").run();
    assert_eq!(o.out(), "      1       1       2       2       0\n");
    let o = count(dir.path()).args(["-c", "-"]).stdin("a\n").run();
    assert_eq!(o.out(), "2 -\n");
    let o = count(dir.path()).args(["--json"]).stdin("a\n").run();
    assert!(o.out().starts_with("{\"path\": \"-\","), "{}", o.out());
}

#[test]
fn color() {
    let dir = tempdir();
    let red = "\x1b[1;31m";
    let run = |args: &[&str], no_color: Option<&str>| {
        let mut c = count(dir.path());
        c.args(["--explain"]).args(args).stdin(b"\xFF");
        if let Some(v) = no_color {
            c.env("NO_COLOR", v);
        }
        c.run().out()
    };
    assert!(!run(&[], None).contains(red), "auto on a pipe");
    assert!(run(&["--color=always"], None).contains(red));
    assert!(run(&["--color"], None).contains(red));
    assert!(
        run(&["--color=always"], Some("1")).contains(red),
        "explicit wins"
    );
    assert!(!run(&["--color=never"], None).contains(red));
    assert!(!run(&["--color=auto"], Some("1")).contains(red));
}

#[test]
fn write_errors() {
    let dir = tempdir();
    fixtures(dir.path());
    if std::path::Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let mut c = count(dir.path());
        c.args(["ascii.txt"]);
        c.command().stdout(full);
        let status = c
            .command()
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(status.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&status.stderr),
            "utf8-count: write error: No space left on device\n"
        );
    } else {
        eprintln!("write_errors: /dev/full skipped: absent");
    }
    // A closed pipe ends quietly with the status of what was found.
    let big = corpus(7, 1 << 20, false);
    let o = count(dir.path())
        .args(["--explain"])
        .stdin(&big)
        .run_head(1);
    assert_eq!((o.code, o.err()), (0, String::new()));
    let mut bad = big.clone();
    bad.push(0xFF);
    write(dir.path(), "big-bad.txt", &bad);
    let o = count(dir.path())
        .args(["--explain", "big-bad.txt"])
        .run_head(1);
    assert_eq!((o.code, o.err()), (0, String::new()));
}

#[test]
fn threads_give_identical_results() {
    let dir = tempdir();
    let mut data = corpus(42, 3 << 20, true);
    // Long runs of continuation bytes and cut-off prefixes around likely split points.
    for k in 1..16 {
        let at = data.len() * k / 16;
        data.splice(
            at..at,
            b"\xF0\x9F\x98\x80\x80\x80\x80\x80\xE2\x82\n\xED"
                .iter()
                .copied(),
        );
    }
    write(dir.path(), "big.txt", &data);
    let args = ["--json", "--histogram", "-L", "big.txt"];
    let reference = count(dir.path()).args(["--threads=1"]).args(args).run();
    reference.assert_code(0);
    for n in ["2", "3", "4", "5", "7", "8", "13", "64", "1024"] {
        let o = count(dir.path()).args(["--threads", n]).args(args).run();
        assert_eq!(o, reference, "--threads {n}");
        let o = count(dir.path())
            .args(["--engine=dfa", "--threads", n])
            .args(args)
            .run();
        assert_eq!(o, reference, "--engine=dfa --threads {n}");
        let o = count(dir.path()).args(["--threads", n, "big.txt"]).run();
        let one = count(dir.path()).args(["--threads=1", "big.txt"]).run();
        assert_eq!(o, one, "--threads {n}, fast path");
    }
    // Stdin is never split, and agrees.
    let o = count(dir.path())
        .args(["--json", "--histogram", "-L", "-"])
        .stdin(&data)
        .run();
    assert_eq!(
        o.out().replace("\"path\": \"-\"", "\"path\": \"big.txt\""),
        reference.out()
    );
    // The whole-buffer answer of the codec is the oracle.
    let c = utf8_codec::count(&data);
    let expected = format!(
        "\"lines\": {}, \"words\": {}, \"chars\": {}, \"bytes\": {}, \"errors\": {}",
        c.lines,
        utf8_codec::count_words(&data).count(),
        c.chars,
        c.bytes,
        c.errors
    );
    assert!(reference.out().contains(&expected), "{}", reference.out());
}

#[test]
fn counts_match_wc_and_python() {
    let dir = tempdir();
    for (seed, errors) in [(1, false), (2, true), (3, true)] {
        let name = format!("c{seed}.txt");
        let data = corpus(seed, 200_000 + seed as usize * 1000, errors);
        write(dir.path(), &name, &data);
        let o = count(dir.path()).args(["--json", &name]).run();
        o.assert_code(0);
        let json = o.out();
        let field = |key: &str| -> u64 {
            let at = json.find(&format!("\"{key}\": ")).unwrap() + key.len() + 4;
            json[at..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        if have("wc") {
            let wc = |flag: &str| -> u64 {
                let out = std::process::Command::new("wc")
                    .arg(flag)
                    .arg(dir.path().join(&name))
                    .output()
                    .unwrap();
                String::from_utf8_lossy(&out.stdout)
                    .split_whitespace()
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            assert_eq!(field("lines"), wc("-l"), "{name}: wc -l");
            assert_eq!(field("bytes"), wc("-c"), "{name}: wc -c");
        } else {
            eprintln!("counts_match_wc_and_python: wc skipped: absent");
        }
        if have("python3") {
            let out = std::process::Command::new("python3")
                .args([
                    "-c",
                    "import sys; print(len(open(sys.argv[1],'rb').read().decode('utf-8','replace')))",
                ])
                .arg(dir.path().join(&name))
                .output()
                .unwrap();
            let py: u64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
            assert_eq!(field("chars") + field("errors"), py, "{name}: python");
        } else {
            eprintln!("counts_match_wc_and_python: python3 skipped: absent");
        }
    }
}

#[test]
fn markus_kuhn_stress_test() {
    let Some(dir) = utf8_tests::conformance_dir_or_skip("markus_kuhn_stress_test") else {
        return;
    };
    let file = dir.join("UTF-8-test.txt");
    let expected = std::fs::read_to_string(dir.join("UTF-8-test.errors.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = expected
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    let tmp = tempdir();
    let path = file.to_str().unwrap();
    let o = count(tmp.path()).args(["-e", path]).run();
    assert_eq!(o.assert_code(0).out(), format!("{} {path}\n", rows.len()));
    // Every error, with offset, length, kind, bytes and line, as --explain --json lists them.
    let o = count(tmp.path()).args(["--explain", "--json", path]).run();
    let got: Vec<String> = o
        .out()
        .lines()
        .filter(|l| l.contains("\"kind\""))
        .map(String::from)
        .collect();
    assert_eq!(got.len(), rows.len());
    for (line, row) in got.iter().zip(&rows) {
        let compact = row[3].replace(' ', "");
        let bytes = compact
            .as_bytes()
            .chunks(2)
            .map(|p| std::str::from_utf8(p).unwrap())
            .collect::<Vec<_>>()
            .join(" ");
        let want = format!(
            "\"offset\": {}, \"len\": {}, \"kind\": \"{}\", \"bytes\": \"{}\", \"line\": {},",
            row[0], row[1], row[2], bytes, row[4]
        );
        assert!(line.contains(&want), "{line}\n{want}");
    }
    // --check names the first one.
    let o = count(tmp.path()).args(["--check", path]).run();
    o.assert_code(1);
    assert!(
        o.err().contains(&format!(":{}:", rows[0][4]))
            && o.err().contains(&format!("at byte {} ", rows[0][0])),
        "{}",
        o.err()
    );
}

#[test]
fn bounded_memory() {
    let time = std::path::Path::new("/usr/bin/time");
    if !time.exists() {
        eprintln!("bounded_memory: skipped: /usr/bin/time is absent");
        return;
    }
    let dir = tempdir();
    let data = corpus(9, 48 << 20, true);
    write(dir.path(), "huge.txt", &data);
    for args in [vec![], vec!["-L", "--histogram"], vec!["--check"]] {
        let bin = utf8_tests::cli::bin("utf8-count");
        let out = std::process::Command::new(time)
            .args(["-f", "maxrss=%M"])
            .arg(&bin)
            .args(&args)
            .stdin(std::fs::File::open(dir.path().join("huge.txt")).unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let kib: u64 = err
            .lines()
            .find_map(|l| l.strip_prefix("maxrss="))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no maxrss in {err}"));
        assert!(kib < 16 * 1024, "{args:?}: peak RSS {kib} KiB");
    }
}

/// Each line of `out` parsed as a JSON object (JSON Lines).
fn json_lines(out: &str) -> Vec<serde_json::Map<String, serde_json::Value>> {
    out.lines()
        .map(|l| match serde_json::from_str(l) {
            Ok(serde_json::Value::Object(m)) => m,
            other => panic!("not a JSON object: {l:?} ({other:?})"),
        })
        .collect()
}

#[test]
fn json_schema() {
    let dir = tempdir();
    fixtures(dir.path());
    let o = count(dir.path())
        .args(["--json", "--histogram", "-L", "ascii.txt", "bad.txt"])
        .run();
    let rows = json_lines(&o.out());
    assert_eq!(rows.len(), 3, "{}", o.out());
    let paths: Vec<_> = rows.iter().map(|r| r["path"].clone()).collect();
    assert_eq!(
        paths,
        [
            serde_json::json!("ascii.txt"),
            serde_json::json!("bad.txt"),
            serde_json::Value::Null
        ]
    );
    let kinds = [
        "invalid-byte",
        "unexpected-continuation",
        "truncated",
        "unexpected-end",
        "overlong",
        "surrogate",
        "out-of-range",
    ];
    for r in &rows {
        for field in [
            "lines",
            "words",
            "chars",
            "bytes",
            "errors",
            "max_line_length",
        ] {
            assert!(r[field].is_u64(), "{field} in {r:?}");
        }
        let by_length = r["by_length"].as_object().expect("by_length is an object");
        let keys: Vec<_> = by_length.keys().map(String::as_str).collect();
        assert_eq!(keys, ["1", "2", "3", "4"]);
        assert!(by_length.values().all(serde_json::Value::is_u64));
        let by_kind = r["by_kind"].as_object().expect("by_kind is an object");
        let mut keys: Vec<_> = by_kind.keys().map(String::as_str).collect();
        keys.sort_unstable();
        let mut want = kinds;
        want.sort_unstable();
        assert_eq!(keys, want);
        assert!(by_kind.values().all(serde_json::Value::is_u64));
    }
    // Every kind is named, with zeros, on a valid input.
    assert!(
        rows[0]["by_kind"]
            .as_object()
            .unwrap()
            .values()
            .all(|v| v == 0)
    );
    // The error reports of --check --json and the scalars of --explain --json.
    for (args, fields) in [
        (
            &["--check", "--json", "bad.txt"][..],
            &[("kind", true), ("bytes", true), ("len", false)][..],
        ),
        (
            &["--explain", "--json", "ascii.txt"],
            &[("scalar", true), ("bytes", true), ("len", false)],
        ),
    ] {
        let o = count(dir.path()).args(args).run();
        let rows = json_lines(&o.out());
        assert!(!rows.is_empty(), "{args:?}");
        for r in &rows {
            assert!(r["path"].is_string(), "{r:?}");
            for field in ["offset", "line", "column"] {
                assert!(r[field].is_u64(), "{field} in {r:?}");
            }
            for (field, string) in fields {
                assert_eq!(r[*field].is_string(), *string, "{field} in {r:?}");
                assert_eq!(r[*field].is_u64(), !*string, "{field} in {r:?}");
            }
        }
    }
}

/// `--explain --line-buffered` explains each line as it comes, into a pipe too.
#[test]
fn explain_line_buffered_explains_each_line_as_it_comes() {
    let got = output_per_line(
        "utf8-count",
        &["--explain", "--line-buffered"],
        &[b"\n", b"\n"],
    );
    let lines: Vec<String> = got
        .iter()
        .map(|b| String::from_utf8_lossy(b).into())
        .collect();
    assert!(
        lines[0].contains("0  0A") && lines[0].contains("U+000A"),
        "{lines:?}"
    );
    assert!(
        lines[1].contains("1  0A") && lines[1].contains("U+000A"),
        "{lines:?}"
    );
}
