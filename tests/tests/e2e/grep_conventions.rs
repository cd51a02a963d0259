//! utf8-grep's command line as GNU grep's (issue 22, groups 2 and 11): option values that
//! start with `-`, unambiguous prefixes of long options, `-NUM`, and write errors on `--help`
//! and `--version`. Each case states what GNU grep 3.8 does (its manual, "-NUM: Same as
//! --context=NUM"; getopt_long's rules) and, where GNU grep is installed, runs it too.

use std::path::Path;
use std::process::Command;

use crate::util::{TestCommand, tempdir, write};

fn grep(dir: &Path) -> TestCommand {
    TestCommand::new("utf8-grep", dir)
}

/// GNU grep run with `args` in `dir` (`LC_ALL=C.UTF-8`), when a grep is there.
fn gnu_run(dir: &Path, args: &[&str]) -> Option<std::process::Output> {
    Command::new("grep")
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", "C.UTF-8")
        .output()
        .ok()
}

/// GNU grep's output and status for `args` in `dir`, when GNU grep is there.
fn gnu(dir: &Path, args: &[&str]) -> Option<(String, i32)> {
    let o = gnu_run(dir, args)?;
    Some((
        String::from_utf8_lossy(&o.stdout).into_owned(),
        o.status.code()?,
    ))
}

/// Runs utf8-grep and, when present, GNU grep: same output and status; returns ours.
fn same_as_gnu(dir: &Path, args: &[&str], want: &str, status: i32) {
    let o = grep(dir).args(args).run();
    assert_eq!(o.out(), want, "utf8-grep {args:?}: {}", o.err());
    o.assert_code(status);
    if let Some((out, code)) = gnu(dir, args) {
        assert_eq!((out.as_str(), code), (want, status), "GNU grep {args:?}");
    }
}

#[test]
fn option_values_that_start_with_a_dash() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "f", "a-test\n---\nx\n-e\n");
    // getopt: the word after an option that takes a value is its value.
    same_as_gnu(d, &["-e", "-test", "f"], "a-test\n", 0);
    same_as_gnu(d, &["-e", "---", "f"], "---\n", 0);
    same_as_gnu(d, &["--regexp", "-e", "f"], "-e\n", 0);
    same_as_gnu(d, &["--regexp=-test", "f"], "a-test\n", 0);
    same_as_gnu(d, &["-e-test", "f"], "a-test\n", 0);
    same_as_gnu(d, &["-m", "1", "-e", "-", "f"], "a-test\n", 0);
    write(d, "pats", "---\n");
    same_as_gnu(d, &["-f", "pats", "f"], "---\n", 0);
}

#[test]
fn long_option_prefixes() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "f", "a-test\n---\nx\n");
    same_as_gnu(d, &["--fixed-str", "-e", "x", "f"], "x\n", 0);
    same_as_gnu(d, &["--cou", "x", "f"], "1\n", 0);
    same_as_gnu(d, &["--cont=1", "x", "f"], "---\nx\n", 0);
    // Ambiguous (--context, --color, --count): a usage error.
    let o = grep(d).args(["--co", "x", "f"]).run();
    o.assert_code(2);
    if let Some((_, code)) = gnu(d, &["--co", "x", "f"]) {
        assert_eq!(code, 2);
    }
    let o = grep(d).args(["--colour=never", "-c", "x", "f"]).run();
    assert_eq!(o.out(), "1\n", "{}", o.err());
    // utf8-repair and utf8-count follow the same rule.
    let o = TestCommand::new("utf8-repair", d)
        .args(["--repl=?", "--act=replace"])
        .stdin(b"a\xFFb")
        .run();
    assert_eq!(o.out(), "a?b");
}

#[test]
fn minus_num_is_context() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "f", "1\n2\n3\nx\n5\n6\n7\n");
    same_as_gnu(d, &["-1", "x", "f"], "3\nx\n5\n", 0);
    same_as_gnu(d, &["-12", "x", "f"], "1\n2\n3\nx\n5\n6\n7\n", 0);
    same_as_gnu(d, &["-n1", "x", "f"], "3-3\n4:x\n5-5\n", 0);
    same_as_gnu(d, &["-1n", "x", "f"], "3-3\n4:x\n5-5\n", 0);
    // Digits that are the value of -m or -e are not a context.
    same_as_gnu(d, &["-m1", "x", "f"], "x\n", 0);
    same_as_gnu(d, &["-e", "-1", "f"], "", 1);
    // After --, words are operands.
    let o = grep(d).args(["x", "--", "-1"]).run();
    o.assert_code(2);
}

/// GNU grep: `grep --help > /dev/full` says "write error" and exits 2; so does each of ours,
/// for --help and --version.
#[test]
fn help_and_version_write_errors() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipping: no /dev/full");
        return;
    }
    let dir = tempdir();
    for tool in ["utf8-grep", "utf8-count", "utf8-repair"] {
        for flag in ["--help", "--version"] {
            let full = std::fs::File::options()
                .write(true)
                .open("/dev/full")
                .unwrap();
            let o = Command::new(utf8_tests::cli::bin(tool))
                .args(["-q", flag].iter().skip(usize::from(tool != "utf8-grep")))
                .current_dir(dir.path())
                .stdout(full)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(2), "{tool} {flag}");
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(
                err,
                format!("{tool}: write error: No space left on device\n")
            );
        }
    }
}

/// GNU grep (grep.c, main: "If it is easy to see that matching cannot succeed (e.g., 'grep
/// -f /dev/null'), match nothing"): with `-m 0`, no pattern at all, or `-v ''` without `-x`
/// or `-w`, no file is opened and the status is 1 — unless `-L`.
#[test]
fn nothing_selectable_opens_nothing() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "ab", "a\nb\n");
    write(d, "empty", "");
    let quiet_one = |args: &[&str]| {
        let o = grep(d).args(args).run();
        assert_eq!(
            (o.out(), o.err()),
            (String::new(), String::new()),
            "{args:?}"
        );
        o.assert_code(1);
        if let Some((out, code)) = gnu(d, args) {
            assert_eq!((out.as_str(), code), ("", 1), "GNU grep {args:?}");
        }
    };
    quiet_one(&["-m0", "x", "missing"]);
    quiet_one(&["-v", "", "missing"]);
    quiet_one(&["-f", "empty", "missing"]);
    quiet_one(&["-m0", "-c", "x", "ab"]);
    quiet_one(&["-c", "-f", "empty", "ab"]);
    quiet_one(&["-v", "-e", "", "-e", "x", "ab"]);
    // -L still lists; -v with no pattern selects every line; -x '' can match.
    same_as_gnu(d, &["-L", "-m0", "x", "ab"], "ab\n", 1);
    same_as_gnu(d, &["-v", "-f", "empty", "ab"], "a\nb\n", 0);
    let o = grep(d).args(["-vx", "", "missing"]).run();
    o.assert_code(2);
}

/// A file name that is not UTF-8 is printed as its own bytes, as GNU grep and ripgrep print
/// it (`foo\xFFbar:test`), in lines, counts and lists; `--json` keeps its own rule.
#[cfg(unix)]
#[test]
fn file_names_are_printed_as_given() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempdir();
    let d = dir.path();
    let name = std::ffi::OsStr::from_bytes(b"foo\xFFbar");
    std::fs::write(d.join(name), "test\n").unwrap();
    let run = |args: &[&str]| {
        let mut c = grep(d);
        c.args(args).args([name]);
        c.command().output().unwrap().stdout
    };
    assert_eq!(run(&["-H", "test"]), b"foo\xFFbar:test\n");
    assert_eq!(run(&["-l", "test"]), b"foo\xFFbar\n");
    assert_eq!(run(&["-cH", "test"]), b"foo\xFFbar:1\n");
    let o = grep(d).args(["-r", "test", "."]).run();
    assert_eq!(o.out(), "./foo\u{FFFD}bar:test\n"); // (out() is lossy; the bytes are raw)
    if let Ok(g) = Command::new("grep")
        .args(["-H", "test"])
        .arg(name)
        .current_dir(d)
        .output()
    {
        assert_eq!(g.stdout, b"foo\xFFbar:test\n", "GNU grep");
    }
}

/// GNU grep's tests/in-eq-out-infloop: `grep 0 out >> out` must not grow `out`: "grep: out:
/// input file is also the output", status 2, the file unchanged; standard input is named
/// "(standard input)"; -c, -l, -q and -m1 cannot grow it and run.
#[cfg(unix)]
#[test]
fn input_that_is_also_the_output() {
    let dir = tempdir();
    let d = dir.path();
    let run = |args: &str| {
        std::fs::write(d.join("out"), "0\n1\n").unwrap();
        let sh = format!(
            "exec '{}' {args}",
            utf8_tests::cli::bin("utf8-grep").display()
        );
        let o = Command::new("sh")
            .args(["-c", &sh])
            .current_dir(d)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        (
            o.status.code(),
            err,
            std::fs::read(d.join("out")).unwrap().len(),
        )
    };
    let refused = |path: &str| {
        (
            Some(2),
            format!("utf8-grep: {path}: input file is also the output\n"),
            4,
        )
    };
    assert_eq!(run("0 out >> out"), refused("out"));
    assert_eq!(run("0 out < out >> out"), refused("out"));
    assert_eq!(run("0 < out >> out"), refused("(standard input)"));
    assert_eq!(run("-s 0 out >> out"), (Some(2), String::new(), 4));
    assert_eq!(run("-c 0 out >> out"), (Some(0), String::new(), 6));
    assert_eq!(run("-m1 0 out >> out"), (Some(0), String::new(), 6));
    assert_eq!(run("-l 0 out >> out"), (Some(0), String::new(), 8));
    assert_eq!(run("-q 0 out >> out"), (Some(0), String::new(), 4));
    // Another file beside it is still searched.
    std::fs::write(d.join("other"), "0\n").unwrap();
    let (code, err, len) = run("0 out other >> out");
    assert_eq!(
        (code, err.as_str(), len),
        (Some(2), refused("out").1.as_str(), 12)
    );
}

/// GNU grep's manual (-m NUM): "If the input is standard input from a regular file, and NUM
/// selected lines are output, grep ensures that the standard input is positioned to just
/// after the last selected line before exiting, regardless of the presence of trailing
/// context lines. This enables a calling process to resume a search."
#[cfg(unix)]
#[test]
fn max_count_leaves_stdin_after_the_last_selected_line() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "in", "a\nx1\nb\nx2\nc\n");
    let bin = utf8_tests::cli::bin("utf8-grep");
    let run = |script: &str| {
        let sh = script.replace("G", &format!("'{}'", bin.display()));
        let o = Command::new("sh")
            .args(["-c", &sh])
            .current_dir(d)
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    assert_eq!(
        run("{ G -m1 x; echo rest; cat; } < in"),
        "x1\nrest\nb\nx2\nc\n"
    );
    assert_eq!(
        run("{ G -m1 -A1 x; echo rest; cat; } < in"),
        "x1\nb\nrest\nb\nx2\nc\n"
    );
    assert_eq!(
        run("{ G -c -m1 x; echo rest; cat; } < in"),
        "1\nrest\nb\nx2\nc\n"
    );
    assert_eq!(
        run("{ G -m1 x; G -m1 x; echo rest; cat; } < in"),
        "x1\nx2\nrest\nc\n"
    );
    if Command::new("grep").arg("--version").output().is_ok() {
        let gnu = |s: &str| {
            let o = Command::new("sh")
                .args(["-c", s])
                .current_dir(d)
                .output()
                .unwrap();
            String::from_utf8_lossy(&o.stdout).into_owned()
        };
        assert_eq!(
            gnu("{ grep -m1 -A1 x; echo rest; cat; } < in"),
            "x1\nb\nrest\nb\nx2\nc\n"
        );
    }
}

/// `-o` with `-v` and context, as GNU grep prints it (src/grep.c, print_line_middle: a
/// shown line's matches are printed when it matches — the selected lines, or with -v the
/// context lines, after `-`; the trailing context of -m prints none).
#[test]
fn only_matching_with_invert_and_context() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "o2", "l1 ab\nl2\nl3 ab ab\nl4\nl5\nl6\nl7 ab\n");
    same_as_gnu(d, &["-o", "-v", "-C1", "ab", "o2"], "ab\nab\nab\nab\n", 0);
    same_as_gnu(d, &["-o", "-v", "-n", "-C1", "l4", "o2"], "4-l4\n", 0);
    same_as_gnu(d, &["-v", "-o", "-m1", "-A2", "l3", "o2"], "l3\n", 0);
    same_as_gnu(d, &["-o", "-m1", "-A2", "ab", "o2"], "ab\n", 0);
    same_as_gnu(d, &["-o", "-v", "ab", "o2"], "", 0);
    same_as_gnu(d, &["-o", "-n", "-C1", "l4", "o2"], "4:l4\n", 0);
}

/// `--include`, `--exclude`, `--exclude-dir` as GNU grep 3.8 applies them (gnulib's
/// excluded_file_name; GNU grep's tests/include-exclude): the last matching pattern wins, a
/// name none matches is searched unless the first is --include; FILE operands are matched
/// by their name or any part after a '/', and --exclude-dir applies to directory operands.
#[test]
fn include_exclude_order_and_operands() {
    let dir = tempdir();
    let d = dir.path();
    for f in [
        "d/a.txt",
        "d/b.txt",
        "d/a.md",
        "d/c.md",
        "d/x/in.txt",
        "d/y/in.txt",
        "x/f.txt",
        "a.txt",
    ] {
        let p = d.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "hit\n").unwrap();
    }
    let check = |args: &[&str], want: &[&str]| {
        let o = grep(d).args(args).run();
        let mut got: Vec<String> = o
            .out()
            .lines()
            .map(|l| l.trim_end_matches(":hit").to_string())
            .collect();
        got.sort_unstable();
        assert_eq!(got, want, "{args:?}");
        if let Some((out, _)) = gnu(d, args) {
            let mut g: Vec<&str> = out.lines().map(|l| l.trim_end_matches(":hit")).collect();
            g.sort_unstable();
            assert_eq!(g, want, "GNU grep {args:?}");
        }
    };
    check(
        &["-r", "--exclude=*.txt", "--include=a*", "hit", "d"],
        &["d/a.md", "d/a.txt", "d/c.md"],
    );
    check(
        &["-r", "--include=a*", "--exclude=*.txt", "hit", "d"],
        &["d/a.md"],
    );
    check(
        &["-r", "--exclude=*", "--include=*.md", "hit", "d"],
        &["d/a.md", "d/c.md"],
    );
    check(&["-H", "--exclude=*.txt", "hit", "a.txt"], &[]);
    check(&["-H", "--exclude=a.txt", "hit", "d/a.txt"], &[]);
    check(&["-H", "--exclude=d", "hit", "d/a.txt"], &["d/a.txt"]);
    check(&["-r", "--exclude-dir=x", "hit", "x"], &[]);
    check(&["-r", "--exclude-dir=x", "hit", "x/"], &["x/f.txt"]);
    check(
        &["-r", "--exclude-dir=x/", "hit", "d"],
        &["d/a.md", "d/a.txt", "d/b.txt", "d/c.md", "d/y/in.txt"],
    );
    check(
        &["-r", "--exclude-dir=d/x", "hit", "d"],
        &[
            "d/a.md",
            "d/a.txt",
            "d/b.txt",
            "d/c.md",
            "d/x/in.txt",
            "d/y/in.txt",
        ],
    );
    check(
        &["-r", "--exclude-dir=x*", "hit", "."],
        &[
            "./a.txt",
            "./d/a.md",
            "./d/a.txt",
            "./d/b.txt",
            "./d/c.md",
            "./d/y/in.txt",
        ],
    );
    check(
        &["-r", "--include=*.md", "hit", "d", "x", "a.txt"],
        &["d/a.md", "d/c.md"],
    );
}

/// GNU grep's standard error for `args` in `dir`, when GNU grep 3.x is there.
fn gnu_err(dir: &Path, args: &[&str]) -> Option<String> {
    let version = Command::new("grep").arg("--version").output().ok()?;
    if !String::from_utf8_lossy(&version.stdout).starts_with("grep (GNU grep) 3.") {
        return None;
    }
    let o = gnu_run(dir, args)?;
    Some(String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn unknown_and_ambiguous_options_in_getopts_words() {
    // glibc getopt_long's messages, as GNU grep 3.8 prints them: "grep: unrecognized option
    // '--frobnicate'", "grep: option '--co' is ambiguous; possibilities: '--context'
    // '--color' '--colour' '--count'", "grep: invalid option -- 'k'", then its usage line and
    // "Try 'grep --help' for more information.". Exit status 2, as GNU grep's.
    let dir = tempdir();
    let d = dir.path();
    write(d, "f", "x\n");
    let try_help = "Try 'utf8-grep --help' for more information.\n";
    for (args, first) in [
        (
            &["--frobnicate", "x", "f"][..],
            "utf8-grep: unrecognized option '--frobnicate'",
        ),
        (
            &["--frobnicate=3", "x", "f"],
            "utf8-grep: unrecognized option '--frobnicate=3'",
        ),
        (&["-k", "x", "f"], "utf8-grep: invalid option -- 'k'"),
        (&["-ck", "x", "f"], "utf8-grep: invalid option -- 'k'"),
    ] {
        let o = grep(d).args(args).run();
        o.assert_code(2);
        assert_eq!(
            o.err(),
            format!("{first}\nUsage: utf8-grep [OPTION]... PATTERNS [FILE]...\n{try_help}"),
            "{args:?}"
        );
        assert_eq!(o.out(), "");
        if let Some(gnu) = gnu_err(d, args) {
            let gnu_first = gnu.lines().next().unwrap_or_default();
            assert_eq!(
                gnu_first.replacen("grep:", "utf8-grep:", 1),
                first,
                "{args:?}"
            );
            assert!(
                gnu.ends_with(
                    "\nUsage: grep [OPTION]... PATTERNS [FILE]...\n\
                     Try 'grep --help' for more information.\n"
                ),
                "{gnu}"
            );
        }
    }
    // Ambiguous: our options differ from GNU grep's, so the possibilities are ours; every one
    // GNU grep names is among them.
    let o = grep(d).args(["--co", "x", "f"]).run();
    o.assert_code(2);
    let first = o.err().lines().next().unwrap_or_default().to_owned();
    let ours = first
        .strip_prefix("utf8-grep: option '--co' is ambiguous; possibilities: ")
        .unwrap_or_else(|| panic!("{}", o.err()));
    assert!(o.err().ends_with(try_help));
    if let Some(gnu) = gnu_err(d, &["--co", "x", "f"]) {
        let theirs = gnu
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("grep: option '--co' is ambiguous; possibilities: "))
            .unwrap_or_else(|| panic!("{gnu}"));
        for name in theirs.split(' ') {
            assert!(ours.split(' ').any(|n| n == name), "{name} not in {ours}");
        }
    }
}
