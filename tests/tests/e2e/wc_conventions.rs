//! utf8-count against the conventions of GNU `wc` (issue 22): cases ported from GNU
//! coreutils' `tests/wc/*` and uutils' `tests/by-util/test_wc.rs`. Each case names the
//! project and test its expected output comes from; where our columns differ (no words
//! column, an errors column), the expected line keeps their counts and widths for the
//! columns both tools have.

use std::path::Path;

use crate::util::{count, tempdir, write};

/// uutils' fixture `tests/fixtures/wc/alice_in_wonderland.txt` (5 lines, 57 words, 302 bytes).
const ALICE: &str = "\
Alice was beginning to get very tired of sitting by
her sister on the bank, and of having nothing to do: once or twice
she had peeped into the book her sister was reading, but it had no
pictures or conversations in it, \"and what is the use of a book,\"
thought Alice \"without pictures or conversation?\"
";

/// GNU's `tests/wc/wc-total.sh` files: `2b` holds "2\n", `2w` holds "2 words\n".
fn gnu_files(dir: &Path) {
    write(dir, "2b", "2\n");
    write(dir, "2w", "2 words\n");
    write(dir, "alice_in_wonderland.txt", ALICE);
}

fn run_ok(dir: &Path, args: &[&str]) -> String {
    count(dir).args(args).run().assert_code(0).out()
}

// ----- group 1: a repeated option is harmless, the last value wins -----

#[test]
fn repeated_flags_and_values() {
    let dir = tempdir();
    gnu_files(dir.path());
    // uutils test_wc.rs test_args_override: `wc -ll -l alice_in_wonderland.txt`.
    assert_eq!(
        run_ok(dir.path(), &["-ll", "-l", "alice_in_wonderland.txt"]),
        "5 alice_in_wonderland.txt\n"
    );
    assert_eq!(
        run_ok(dir.path(), &["-l", "-l", "alice_in_wonderland.txt"]),
        "5 alice_in_wonderland.txt\n"
    );
    // uutils test_args_override: `--total=always --total=never alice_in_wonderland.txt`
    // prints "  5  57 302 alice_in_wonderland.txt" (lines, words, bytes).
    assert_eq!(
        run_ok(
            dir.path(),
            &[
                "-lc",
                "--total=always",
                "--total=never",
                "alice_in_wonderland.txt"
            ]
        ),
        "  5 302 alice_in_wonderland.txt\n"
    );
    // GNU wc-total.sh: `wc --total=only 2b 2w` prints "2 3 10" (lines, words, bytes).
    assert_eq!(
        run_ok(
            dir.path(),
            &["-lc", "--total=auto", "--total=only", "2b", "2w"]
        ),
        "2 10\n"
    );
}

// ----- group 2: unambiguous prefixes of long options and of their values -----

#[test]
fn prefixes_of_options_and_values() {
    let dir = tempdir();
    gnu_files(dir.path());
    let alice = "alice_in_wonderland.txt";
    // uutils test_total_auto: `wc lorem_ipsum.txt --tot=au` is `--total=auto` (one input, no
    // total line).
    assert_eq!(
        run_ok(dir.path(), &["-l", alice, "--tot=au"]),
        "5 alice_in_wonderland.txt\n"
    );
    // uutils test_total_always: `--total=al` is `--total=always`.
    assert_eq!(
        run_ok(dir.path(), &["-l", alice, "--total=al"]),
        "5 alice_in_wonderland.txt\n5 total\n"
    );
    // uutils test_total_never: `--total=n` is `--total=never`; widths as GNU wc-total.sh's
    // `--total=never` case (" 1  1  2 2b", " 1  2  8 2w").
    assert_eq!(
        run_ok(dir.path(), &["-l", "2b", "2w", "--total=n"]),
        " 1 2b\n 1 2w\n"
    );
    // uutils test_total_only uses `--t=o`; here `--t` is ambiguous (--total, --threads), so
    // the same case with `--tot=o`: GNU wc-total.sh's "2 3 10" (lines, words, bytes).
    assert_eq!(
        run_ok(dir.path(), &["-lc", "2b", "2w", "--tot=o"]),
        "2 10\n"
    );
    // GNU argmatch's diagnostics (gnulib argmatch_invalid, argmatch_valid), exit 2 here.
    let o = count(dir.path()).args(["--total=a", "2b"]).run();
    o.assert_code(2);
    assert!(
        o.err()
            .contains("ambiguous argument 'a' for '--total'\nValid arguments are:\n  - 'auto'\n"),
        "{}",
        o.err()
    );
    assert_eq!(o.out(), "");
    let o = count(dir.path()).args(["--total=x", "2b"]).run();
    o.assert_code(2);
    assert!(
        o.err().contains("invalid argument 'x' for '--total'"),
        "{}",
        o.err()
    );
    // An ambiguous option prefix is a usage error, in glibc getopt_long's words (uutils'
    // `--t=o` is `--total=only` there: uutils and GNU wc 9.2+ have no --threads).
    let o = count(dir.path()).args(["-lc", "2b", "2w", "--t=o"]).run();
    o.assert_code(2);
    assert_eq!(
        o.err(),
        "utf8-count: option '--t=o' is ambiguous; possibilities: '--total' '--threads'\n\
         Try 'utf8-count --help' for more information.\n"
    );
    assert_eq!(o.out(), "");
}

#[test]
fn unknown_options_in_getopts_words() {
    // glibc getopt_long's messages, as GNU wc prints them: "wc: unrecognized option
    // '--frobnicate'" and "wc: invalid option -- 'k'", then "Try 'wc --help' for more
    // information." (GNU wc exits 1 on a usage error, utf8-count 2 as every error here).
    let dir = tempdir();
    write(dir.path(), "f", "a\n");
    for args in [
        &["--frobnicate", "f"][..],
        &["--frobnicate=x", "f"],
        &["-k", "f"],
        &["-lk", "f"],
    ] {
        let o = count(dir.path()).args(args).run();
        o.assert_code(2);
        assert_eq!(o.out(), "");
        let bad = args[0];
        let want = match bad.strip_prefix("--") {
            Some(_) => format!("utf8-count: unrecognized option '{bad}'\n"),
            None => "utf8-count: invalid option -- 'k'\n".to_owned(),
        };
        assert_eq!(
            o.err(),
            format!("{want}Try 'utf8-count --help' for more information.\n"),
            "{args:?}"
        );
        if crate::util::have("wc") {
            let gnu = crate::util::TestCommand::program("wc", dir.path())
                .args(args)
                .run();
            if gnu.err().contains("Try 'wc --help'") {
                assert_eq!(gnu.err().replace("wc", "utf8-count"), o.err(), "{args:?}");
            }
        }
    }
}

// ----- group 9: a directory operand -----

#[test]
fn directory_operand_prints_its_zeros() {
    let dir = tempdir();
    gnu_files(dir.path());
    std::fs::create_dir(dir.path().join("ioerrdir")).unwrap();
    // uutils test_read_from_directory_error: `wc .` prints "      0       0       0 ." and
    // says ".: Is a directory" (exit 1 there, 2 here as DESIGN.md says).
    let o = count(dir.path()).args(["."]).run();
    o.assert_code(2);
    assert_eq!(o.out(), "      0       0       0       0       0 .\n");
    assert_eq!(o.err(), "utf8-count: .: Is a directory\n");
    // uutils test_read_error_order_with_stderr_to_stdout: `wc ioerrdir` prints
    // "{:>7} {:>7} {:>7} ioerrdir" and "wc: ioerrdir: Is a directory".
    let o = count(dir.path()).args(["-lc", "ioerrdir"]).run();
    o.assert_code(2);
    assert_eq!(o.out(), "      0       0 ioerrdir\n");
    assert_eq!(o.err(), "utf8-count: ioerrdir: Is a directory\n");
    // Among other inputs, its line counts nothing in the total (the width is 7: an operand
    // is not a regular file, GNU's compute_number_width).
    let o = count(dir.path()).args(["-l", "2b", "ioerrdir"]).run();
    o.assert_code(2);
    assert_eq!(o.out(), "      1 2b\n      0 ioerrdir\n      1 total\n");
}

// ----- group 10: -L is the display width, as GNU wc -----

/// uutils' fixture `tests/fixtures/wc/UTF_8_weirdchars.txt` (zero-width and wide characters,
/// emoji, tabs, form feed, vertical tab, control characters).
const WEIRDCHARS: &str = concat!(
    "zero-width space inbetween these: x​x\n",
    "and inbetween two spaces: [ ​ ]\n",
    "and at the end of the line: ​\n",
    "\n",
    "non-breaking space: x x [   ]  \n",
    "\n",
    "simple unicode: xµx [ µ ] µ\n",
    "\n",
    "wide: xｗx [ ｗ ] ｗ\n",
    "\n",
    "simple emoji: x👩x [ 👩 ] 👩\n",
    "\n",
    "complex emoji: x👩‍🔬x [ 👩‍🔬 ] 👩‍🔬\n",
    "\n",
    "Ｈｅｌｌｏ, ｗｏｒｌｄ!\n",
    "\n",
    "line feed: x\x0C",
    "x [ \x0C",
    " ] \x0C",
    "\n",
    "\n",
    "vertical tab: x\x0B",
    "x [ \x0B",
    " ] \x0B",
    "\n",
    "\n",
    "horizontal tab: x\tx [ \t ]\n",
    "this should be the longest line:\n",
    "1234567\t12345678\t123456781234567812345678\n",
    "\n",
    "Control character: x\x02x [ \x02 ] \x02\n",
);

#[test]
fn max_line_length_is_display_width() {
    let dir = tempdir();
    // uutils test_utf8_all: `wc -lwmcL < UTF_8_weirdchars.txt` prints
    // "     25      89     442     513      48" (lines, words, chars, bytes, -L).
    let o = count(dir.path()).args(["-lmcL"]).stdin(WEIRDCHARS).run();
    assert_eq!(o.assert_code(0).out(), "     25     442     513      48\n");
    // GNU tests/wc/wc.pl c0, c1, c2.
    for (input, want) in [
        ("1\n12\n", "2\n"),
        ("1\n123\n1\n", "3\n"),
        ("\n123456", "6\n"),
    ] {
        let o = count(dir.path()).args(["-L"]).stdin(input).run();
        assert_eq!(o.assert_code(0).out(), want, "{input:?}");
    }
    // Issue 22's case, `printf 'a\tb\n日本\n' | wc -L` prints 9 (GNU coreutils 9.1, checked
    // with LC_ALL=C.UTF-8); the length in code points stays under --max-line-chars.
    let o = count(dir.path()).args(["-L"]).stdin("a\tb\n日本\n").run();
    assert_eq!(o.assert_code(0).out(), "9\n");
    let o = count(dir.path())
        .args(["--max-line-chars"])
        .stdin("a\tb\n日本\n")
        .run();
    assert_eq!(o.assert_code(0).out(), "3\n");
    let o = count(dir.path())
        .args(["--json", "-L", "--max-line-chars"])
        .stdin("a\tb\n日本\n")
        .run();
    let out = o.assert_code(0).out();
    assert!(
        out.contains("\"max_line_length\": 9, \"max_line_chars\": 3"),
        "{out}"
    );
    // More values of GNU coreutils 9.1's `LC_ALL=C.UTF-8 wc -L`: a carriage return or form
    // feed starts the line over, invalid bytes and control characters are 0 columns.
    for (input, want) in [
        (&b"abc\rd\n"[..], "3\n"),
        (b"abcd\x0Ce\n", "4\n"),
        (b"a\xFFb\n", "2\n"),
        (b"a\x01b\n", "2\n"),
        (b"e\xCC\x81\n", "1\n"),
        (b"\xED\xA0\x80abc\t\xF4\x90\x80\x80x\n", "9\n"),
    ] {
        let o = count(dir.path()).args(["-L"]).stdin(input).run();
        assert_eq!(o.assert_code(0).out(), want, "{input:?}");
    }
}

#[test]
fn max_line_length_on_split_files() {
    // A file large enough to be split across threads gives the same widths.
    let dir = tempdir();
    // Each line 18 columns wide ("x", a tab, two wide characters, a tab, "yz", a combining
    // acute) and 8 code points; the last line 10 of each.
    let line = "x\t日本\tyz\u{301}\n".repeat(20_000);
    write(dir.path(), "big", format!("{line}{}", "a".repeat(10)));
    let args = |threads: &'static str| ["-L", "--max-line-chars", threads, "big"];
    let one = count(dir.path()).args(args("--threads=1")).run();
    let four = count(dir.path()).args(args("--threads=4")).run();
    assert_eq!(one.assert_code(0).out(), "    18     10 big\n");
    assert_eq!(four.out(), one.out());
}

// ----- group 8: --files0-from -----

/// Runs `utf8-count ARGS --files0-from=-` with `list` piped in, in a directory holding an
/// empty file `g` and GNU's `2b` and `2w`.
fn files0_piped(args: &[&str], list: &[u8]) -> crate::util::Outcome {
    let dir = tempdir();
    gnu_files(dir.path());
    write(dir.path(), "g", "");
    count(dir.path())
        .args(args)
        .args(["--files0-from=-"])
        .stdin(list)
        .run()
}

#[test]
fn files0_zero_length_names() {
    // GNU tests/wc/wc-files0-from.pl "nul-1": one NUL is one empty entry.
    let o = files0_piped(&[], b"\0");
    o.assert_code(2);
    assert_eq!(o.out(), "");
    assert_eq!(o.err(), "utf8-count: -:1: invalid zero-length file name\n");
    // "nul-2": two NULs, two errors, and a total of the two entries (no padding: GNU's
    // widths come from files it could stat).
    let o = files0_piped(&[], b"\0\0");
    o.assert_code(2);
    assert_eq!(o.out(), "0 0 0 0 0 total\n");
    assert_eq!(
        o.err(),
        "utf8-count: -:1: invalid zero-length file name\n\
         utf8-count: -:2: invalid zero-length file name\n"
    );
    // "zero-len": the names after a zero-length one are still counted.
    let o = files0_piped(&[], b"\0g\0");
    o.assert_code(2);
    assert_eq!(o.out(), "0 0 0 0 0 g\n0 0 0 0 0 total\n");
    assert_eq!(o.err(), "utf8-count: -:1: invalid zero-length file name\n");
    // uutils test_zero_length_files: "\0moby_dick.txt\0\0alice…\0\0lorem…\0" with and without
    // the final NUL reports entries 1, 3 and 5; one more NUL adds entry 7.
    let list = "\0alice_in_wonderland.txt\0\0alice_in_wonderland.txt\0\0alice_in_wonderland.txt\0";
    for l in [list.len(), list.len() - 1] {
        let o = files0_piped(&["-l"], &list.as_bytes()[..l]);
        o.assert_code(2);
        assert_eq!(
            o.out(),
            "5 alice_in_wonderland.txt\n".repeat(3) + "15 total\n"
        );
        assert_eq!(
            o.err(),
            "utf8-count: -:1: invalid zero-length file name\n\
             utf8-count: -:3: invalid zero-length file name\n\
             utf8-count: -:5: invalid zero-length file name\n"
        );
    }
    let o = files0_piped(&["-l"], format!("{list}\0").as_bytes());
    assert!(
        o.err()
            .ends_with("utf8-count: -:7: invalid zero-length file name\n")
    );
}

#[test]
fn files0_entries() {
    // GNU wc-files0-from.pl "1", "1a", "2", "2a", "duplicate1", "missing2".
    assert_eq!(
        files0_piped(&[], b"g").assert_code(0).out(),
        "0 0 0 0 0 g\n"
    );
    assert_eq!(
        files0_piped(&[], b"g\0").assert_code(0).out(),
        "0 0 0 0 0 g\n"
    );
    for list in [&b"g\0g"[..], b"g\0g\0"] {
        let o = files0_piped(&[], list);
        assert_eq!(
            o.assert_code(0).out(),
            "0 0 0 0 0 g\n0 0 0 0 0 g\n0 0 0 0 0 total\n"
        );
    }
    let o = files0_piped(&[], b"missing\0missing\0");
    o.assert_code(2);
    assert_eq!(o.out(), "0 0 0 0 0 total\n");
    assert_eq!(
        o.err(),
        "utf8-count: missing: No such file or directory\n".repeat(2)
    );
    // "minus-in-stdin": a name '-' in a list read from standard input.
    let o = files0_piped(&[], b"-");
    o.assert_code(2);
    assert_eq!(o.out(), "");
    assert_eq!(
        o.err(),
        "utf8-count: when reading file names from standard input, no file name of '-' allowed\n"
    );
    // "empty", "empty-nonreg": an empty list counts nothing.
    let dir = tempdir();
    write(dir.path(), "empty", "");
    for list in ["--files0-from=empty", "--files0-from=/dev/null"] {
        let o = count(dir.path()).args([list]).run();
        assert_eq!(o.assert_code(0).out(), "");
    }
}

#[test]
fn files0_widths_and_errors() {
    let dir = tempdir();
    gnu_files(dir.path());
    write(dir.path(), "names", "2b\x002w\0");
    // GNU tests/wc/wc-files0.sh: a list in a regular file gives padded columns
    // (" 1  1  2 2b", " 1  2  8 2w", " 2  3 10 total": lines, words, bytes) …
    let o = count(dir.path()).args(["-lc", "--files0-from=names"]).run();
    assert_eq!(o.assert_code(0).out(), " 1  2 2b\n 1  8 2w\n 2 10 total\n");
    // … and so does the same file on standard input, read whole as a regular file.
    let names = std::fs::File::open(dir.path().join("names")).unwrap();
    let out = count(dir.path())
        .args(["-lc", "--files0-from=-"])
        .command()
        .stdin(names)
        .output()
        .unwrap();
    assert_eq!(out.stdout, b" 1  2 2b\n 1  8 2w\n 2 10 total\n");
    // uutils test_zero_length_files, test_files0_progressive_stream: a list from a pipe is
    // read as it arrives, and nothing is padded.
    let o = count(dir.path())
        .args(["-lc", "--files0-from=-"])
        .stdin("2b\x002w\0")
        .run();
    assert_eq!(o.assert_code(0).out(), "1 2 2b\n1 8 2w\n2 10 total\n");
    // uutils files0_from_dir: a list that is a directory is a read error (exit 2 here).
    std::fs::create_dir(dir.path().join("dir with spaces")).unwrap();
    let o = count(dir.path()).args(["--files0-from=."]).run();
    o.assert_code(2);
    assert_eq!(o.err(), "utf8-count: .: read error: Is a directory\n");
    let dot = std::fs::File::open(dir.path()).unwrap();
    let out = count(dir.path())
        .args(["--files0-from=-"])
        .command()
        .stdin(dot)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stderr, b"utf8-count: -: read error: Is a directory\n");
    assert_eq!(out.stdout, b"");
}

#[test]
fn files0_from_a_pipe_is_a_stream() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    // uutils test_files0_progressive_stream: each name is counted as soon as it arrives,
    // an empty one is reported at once, and the total comes at the end.
    let dir = tempdir();
    gnu_files(dir.path());
    let mut child = count(dir.path())
        .args(["-l", "--files0-from=-"])
        .command()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // A watchdog, so that a regression fails instead of hanging (it stands down once the
    // child has been waited for, before its pid could be reused).
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watchdog = {
        let done = done.clone();
        std::thread::spawn(move || {
            for _ in 0..600 {
                std::thread::sleep(std::time::Duration::from_millis(100));
                if done.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
            }
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status();
        })
    };
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stdin.write_all(b"2b\0").unwrap();
    stdin.flush().unwrap();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line, "1 2b\n");
    stdin.write_all(b"\0").unwrap();
    stdin.flush().unwrap();
    line.clear();
    stderr.read_line(&mut line).unwrap();
    assert_eq!(line, "utf8-count: -:2: invalid zero-length file name\n");
    stdin.write_all(b"alice_in_wonderland.txt\0").unwrap();
    stdin.flush().unwrap();
    line.clear();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line, "5 alice_in_wonderland.txt\n");
    drop(stdin);
    line.clear();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line, "6 total\n");
    let status = child.wait().unwrap();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = watchdog.join();
    assert_eq!(status.code(), Some(2));
}

// ----- group 7: file names exactly as given -----

#[test]
fn names_in_results_and_diagnostics() {
    let dir = tempdir();
    std::fs::create_dir(dir.path().join("some-dir1")).unwrap();
    write(dir.path(), "some-dir1/12\n34.txt", "");
    // uutils test_gnu_compatible_quotation: only a name holding a newline is quoted.
    let o = count(dir.path())
        .args(["-lc", "some-dir1/12\n34.txt"])
        .run();
    assert_eq!(o.assert_code(0).out(), "0 0 'some-dir1/12'$'\\n''34.txt'\n");
    // GNU tests/wc/wc-files0.sh: the same through --files0-from ("0 0 0 '1'$'\n''2'").
    write(dir.path(), "1\n2", "");
    let o = count(dir.path())
        .args(["-lc", "--files0-from=-"])
        .stdin("1\n2\0")
        .run();
    assert_eq!(o.assert_code(0).out(), "0 0 '1'$'\\n''2'\n");
    // uutils test_files0_errors_quoting: the fixture "files0 with nonexistent.txt" and its
    // four diagnostics, each name quoted as GNU's quotef does (exit 1 there, 2 here).
    write(
        dir.path(),
        "files0 with nonexistent.txt",
        "this_file_does_not_exist.txt\0\0this file does not exist.txt\0\
         this files doesn't exist either.txt",
    );
    let o = count(dir.path())
        .args(["--files0-from=files0 with nonexistent.txt"])
        .run();
    o.assert_code(2);
    assert_eq!(o.out(), "0 0 0 0 0 total\n");
    assert_eq!(
        o.err(),
        "utf8-count: this_file_does_not_exist.txt: No such file or directory\n\
         utf8-count: 'files0 with nonexistent.txt':2: invalid zero-length file name\n\
         utf8-count: 'this file does not exist.txt': No such file or directory\n\
         utf8-count: \"this files doesn't exist either.txt\": No such file or directory\n"
    );
    // uutils files0_from_dir: "wc: 'dir with spaces': read error: Is a directory".
    std::fs::create_dir(dir.path().join("dir with spaces")).unwrap();
    let o = count(dir.path())
        .args(["--files0-from=dir with spaces"])
        .run();
    o.assert_code(2);
    assert_eq!(
        o.err(),
        "utf8-count: 'dir with spaces': read error: Is a directory\n"
    );
}

#[cfg(unix)]
#[test]
fn non_utf8_names_as_raw_bytes() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    // uutils test_non_unicode_names: b"some-dir1/1\xC0\n.txt" is written
    // 'some-dir1/1'$'\300\n''.txt', b"some-dir1/2\xC0\t.txt" as its raw bytes.
    let dir = tempdir();
    std::fs::create_dir(dir.path().join("some-dir1")).unwrap();
    let names = [
        OsStr::from_bytes(b"some-dir1/1\xC0\n.txt"),
        OsStr::from_bytes(b"some-dir1/2\xC0\t.txt"),
    ];
    for n in names {
        std::fs::write(dir.path().join(n), "").unwrap();
    }
    let out = count(dir.path())
        .args(["-lc"])
        .args(names)
        .command()
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        out.stdout,
        [
            &b"0 0 'some-dir1/1'$'\\300\\n''.txt'\n"[..],
            b"0 0 some-dir1/2\xC0\t.txt\n",
            b"0 0 total\n",
        ]
        .concat()
    );
    // In diagnostics, such a name is quoted (GNU coreutils 9.1's `wc` says
    // 'missing'$'\377').
    let o = count(dir.path())
        .args([OsStr::from_bytes(b"missing\xFF")])
        .run();
    o.assert_code(2);
    assert_eq!(
        o.err(),
        "utf8-count: 'missing'$'\\377': No such file or directory\n"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn files0_stops_at_a_write_error() {
    use std::io::Write;
    use std::process::Stdio;
    // uutils test_files0_stops_after_stdout_write_error: with stdout on /dev/full, the
    // first failed write ends the run (one diagnostic, not one per name).
    let dir = tempdir();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut c = count(dir.path());
    let mut child = c
        .args(["--files0-from=-", "--total=never"])
        .command()
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(b"/dev/null\0/dev/null\0/dev/null\0");
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("write error").count(), 1, "{err}");
}

/// Usage errors that clap finds (options that conflict, a value it does not take) are one
/// line `PROG: message` and GNU's `Try 'PROG --help' for more information.`, in utf8-count
/// and utf8-repair as in utf8-grep; nothing on standard output, exit 2.
#[test]
fn usage_errors_are_one_line_and_the_help_hint() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "a.txt", b"a\n");
    for (prog, args, message) in [
        (
            "utf8-count",
            &["-w", "--explain", "a.txt"][..],
            "the argument '--words' cannot be used with '--explain'",
        ),
        (
            "utf8-count",
            &["--threads=x", "a.txt"][..],
            "invalid value 'x' for '--threads <N>': invalid digit found in string",
        ),
        (
            "utf8-repair",
            &["--check", "-i", "a.txt"][..],
            "the argument '--check' cannot be used with '--in-place'",
        ),
    ] {
        let o = crate::util::TestCommand::new(prog, d).args(args).run();
        o.assert_code(2);
        assert_eq!(o.out(), "");
        assert_eq!(
            o.err(),
            format!("{prog}: {message}\nTry '{prog} --help' for more information.\n"),
            "{args:?}"
        );
    }
}
