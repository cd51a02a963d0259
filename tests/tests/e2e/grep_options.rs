//! GNU grep 3.8's options that utf8-grep takes as GNU grep does (issue 56, item 4): `-z`,
//! `-I` and `--binary-files`, `-U`, `-d`, `-D`, `--exclude-from`, `-T`, the group
//! separators, `--no-ignore-case`, `-m -1`, `GREP_COLORS` and `GREP_COLOR`, `--color`
//! without a value. Each case runs both programs in the same directory and compares their
//! stdout and exit status, and their stderr with the program's name made the same; the
//! answers known from GNU grep 3.8 are asserted too, so the cases prove something without it.
//! Cases ported from GNU grep's own suite name their file in `tests/` of its repository.

use std::path::Path;
use std::process::Command;

use crate::util::{TestCommand, gnu_grep, have, tempdir, write};

/// Whether the GNU grep installed is a 3.x.
/// stdout, stderr (with `utf8-grep` read as `grep`) and status of `prog args` in `dir`.
fn run(
    prog: &str,
    dir: &Path,
    env: &[(&str, &str)],
    args: &[&str],
    stdin: &[u8],
) -> (Vec<u8>, String, i32) {
    let mut c = if prog == "grep" {
        TestCommand::program("grep", dir)
    } else {
        TestCommand::new(prog, dir)
    };
    c.env("LC_ALL", "C.UTF-8");
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.args(args).stdin(stdin).run();
    let err = String::from_utf8_lossy(&o.stderr).replace("utf8-grep", "grep");
    (o.stdout, err, o.code)
}

/// utf8-grep's answer to `args` is `want` (stdout) and `status`, and GNU grep's is the same
/// (stderr too), where it is installed.
fn same(dir: &Path, env: &[(&str, &str)], args: &[&str], want: &[u8], status: i32) {
    let ours = run("utf8-grep", dir, env, args, b"");
    assert_eq!(
        (String::from_utf8_lossy(&ours.0).as_ref(), ours.2),
        (String::from_utf8_lossy(want).as_ref(), status),
        "utf8-grep {args:?} {env:?}: {}",
        ours.1
    );
    if gnu_grep() {
        let gnu = run("grep", dir, env, args, b"");
        assert_eq!(
            ours, gnu,
            "utf8-grep {args:?} {env:?} differs from GNU grep"
        );
    }
}

/// `-z`: lines end with NUL in and out; a newline is a character as any other (`.`, `[^c]`
/// and `\s` match it, `^` and `$` do not match next to it); a NUL does not make the input
/// binary; -c, -o, -b, -n and context.
#[test]
fn null_data() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "z.bin", b"abcadc\0x\ny\0zz\0");
    write(d, "zin", b"a\nb\0");
    // GNU grep's tests/null-byte (`grep -oz 'a[^c]*c'`).
    same(d, &[], &["-oz", "a[^c]*c", "z.bin"], b"abc\0adc\0", 0);
    same(d, &[], &["-z", "x", "z.bin"], b"x\ny\0", 0);
    same(d, &[], &["-zc", ".", "z.bin"], b"3\n", 0);
    same(d, &[], &["-zn", "z", "z.bin"], b"3:zz\0", 0);
    same(d, &[], &["-zbo", "z", "z.bin"], b"11:z\x0012:z\0", 0);
    same(d, &[], &["-z", "-A1", "abc", "z.bin"], b"abcadc\0x\ny\0", 0);
    same(d, &[], &["-zF", "-e", "zz", "z.bin"], b"zz\0", 0);
    // GNU grep's tests/z-anchor-newline: `^` and `$` only at the ends of a NUL line.
    for pat in [
        "^[a-b]*$", "a[a-b]*$", "^[a-b]*b", "^[ab]*$", "a[ab]*$", "^[ab]*b",
    ] {
        same(d, &[], &["-z", pat, "zin"], b"", 1);
    }
    same(d, &[], &["-zc", "a.b", "zin"], b"1\n", 0);
    same(d, &[], &["-zc", r"a\sb", "zin"], b"1\n", 0);
    same(d, &[], &["-zx", "a.b", "zin"], b"a\nb\0", 0);
}

/// `-z` on a file large enough to be split across threads: the same as one thread.
#[test]
fn null_data_split() {
    let dir = tempdir();
    let d = dir.path();
    let mut text = Vec::new();
    let mut i = 0u32;
    while text.len() < 24 << 20 {
        i += 1;
        text.extend_from_slice(
            format!(
                "rec {i}\nline two{}\0",
                if i.is_multiple_of(1000) {
                    " needle"
                } else {
                    ""
                }
            )
            .as_bytes(),
        );
    }
    write(d, "big.z", &text);
    let want = format!("{}\n", i / 1000);
    for threads in ["1", "4"] {
        let o = TestCommand::new("utf8-grep", d)
            .args(["-zc", "--threads", threads, "needle", "big.z"])
            .run();
        assert_eq!(o.out(), want, "--threads {threads}");
        let o = TestCommand::new("utf8-grep", d)
            .args(["-z", "--threads", threads, "-o", "needle", "big.z"])
            .run();
        assert_eq!(o.stdout, b"needle\0".repeat((i / 1000) as usize));
    }
}

/// `-I` and `--binary-files`: a binary file (one holding a NUL) matches nothing under
/// `without-match`; `text` is `-a`; the last of `-a`, `-I` and `--binary-files` wins.
#[test]
fn binary_files() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "b1", b"a\n\0a\n");
    write(d, "t", b"a\n");
    same(d, &[], &["-I", "a", "b1"], b"", 1);
    same(d, &[], &["-c", "-I", "a", "b1"], b"0\n", 1);
    same(d, &[], &["-L", "-I", "a", "b1"], b"b1\n", 1);
    same(d, &[], &["-I", "a", "t", "b1"], b"t:a\n", 0);
    same(
        d,
        &[],
        &["--binary-files=without-match", "-c", "a", "b1"],
        b"0\n",
        1,
    );
    same(d, &[], &["--binary-files=text", "-c", "a", "b1"], b"2\n", 0);
    same(
        d,
        &[],
        &["--binary-files=binary", "-c", "a", "b1"],
        b"2\n",
        0,
    );
    same(d, &[], &["-a", "-I", "-c", "a", "b1"], b"0\n", 1);
    same(d, &[], &["-I", "-a", "-c", "a", "b1"], b"2\n", 0);
    same(
        d,
        &[],
        &["-I", "--binary-files=text", "-c", "a", "b1"],
        b"2\n",
        0,
    );
    // Lines before the block that shows the file binary are printed (GNU grep returns no
    // match for the file all the same).
    let mut late = b"a\n".to_vec();
    late.extend(std::iter::repeat_n(b'x', 200_000));
    late.extend_from_slice(b"\n\0a\n");
    write(d, "late", &late);
    same(d, &[], &["-c", "-I", "a", "late"], b"0\n", 1);
    // -U is accepted and changes nothing.
    same(d, &[], &["-U", "-c", "a", "t"], b"1\n", 0);
}

/// `-d`, `-D`, `--exclude-from`.
#[test]
fn directories_devices_exclude_from() {
    let dir = tempdir();
    let d = dir.path();
    std::fs::create_dir(d.join("d")).unwrap();
    write(d, "d/f", "x\n");
    write(d, "c.txt", "x\n");
    write(d, "exf", "*.txt\n");
    same(d, &[], &["-d", "skip", "x", "d", "c.txt"], b"c.txt:x\n", 0);
    same(d, &[], &["--directories=recurse", "x", "d"], b"d/f:x\n", 0);
    same(d, &[], &["-d", "skip", "-r", "x", "d"], b"d/f:x\n", 0);
    same(
        d,
        &[],
        &["-r", "--exclude-from=exf", "x", "d", "c.txt"],
        b"d/f:x\n",
        0,
    );
    same(
        d,
        &[],
        &["-r", "--exclude-from", "exf", "-c", "x", "d"],
        b"d/f:1\n",
        0,
    );
    let ours = run("utf8-grep", d, &[], &["-r", "-d", "read", "x", "d"], b"");
    assert_eq!((ours.1.as_str(), ours.2), ("grep: d: Is a directory\n", 2));
    let ours = run(
        "utf8-grep",
        d,
        &[],
        &["--exclude-from=missing", "x", "c.txt"],
        b"",
    );
    assert_eq!(
        (ours.1.as_str(), ours.2),
        ("grep: missing: No such file or directory\n", 2)
    );
    // GNU grep's tests/skip-device: stdin is read under -D skip; a FIFO is skipped.
    let o = TestCommand::new("utf8-grep", d)
        .args(["-D", "skip", "foo", "-"])
        .stdin("foo\n")
        .run();
    assert_eq!((o.out(), o.code), ("foo\n".to_string(), 0));
    let o = TestCommand::new("utf8-grep", d)
        .args(["--devices=skip", "foo"])
        .stdin("foo\n")
        .run();
    assert_eq!((o.out(), o.code), ("foo\n".to_string(), 0));
    #[cfg(unix)]
    if have("mkfifo") {
        let made = Command::new("mkfifo")
            .arg(d.join("fifo"))
            .status()
            .is_ok_and(|s| s.success());
        if made {
            same(d, &[], &["-D", "skip", "foo", "fifo"], b"", 1);
        }
    }
}

/// `-T` (GNU grep's tests/initial-tab), the group separators (and GNU's tests/context-0),
/// `--no-ignore-case`, `-m -1`.
#[test]
fn layout_options() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "in", "x\n\n");
    write(d, "in1", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n");
    same(d, &[], &["-T", "^", "in"], b"x\n\n", 0);
    same(d, &[], &["-T", "^", "in", "/dev/null"], b"in:\tx\nin:\n", 0);
    // GNU grep 3.8 pads the numbers to the digits of the file's size (+1 with -n).
    same(
        d,
        &[],
        &["-Tn", "a", "in1", "/dev/null"],
        b"in1: 1:\ta\n",
        0,
    );
    same(d, &[], &["-Tnb", "-o", "b", "in1"], b" 2: 2:\tb\n", 0);
    write(d, "c.txt", "needle\n1\n2\n3\nanother needle\n5\n");
    same(
        d,
        &[],
        &["-C", "0", "needle", "c.txt"],
        b"needle\n--\nanother needle\n",
        0,
    );
    same(
        d,
        &[],
        &["-A1", "--group-separator=XX", "needle", "c.txt"],
        b"needle\n1\nXX\nanother needle\n5\n",
        0,
    );
    same(
        d,
        &[],
        &["-A1", "--group-separator", "", "needle", "c.txt"],
        b"needle\n1\n\nanother needle\n5\n",
        0,
    );
    same(
        d,
        &[],
        &["-A1", "--no-group-separator", "needle", "c.txt"],
        b"needle\n1\nanother needle\n5\n",
        0,
    );
    same(
        d,
        &[],
        &[
            "--no-group-separator",
            "--group-separator=::",
            "-A1",
            "needle",
            "c.txt",
        ],
        b"needle\n1\n::\nanother needle\n5\n",
        0,
    );
    same(
        d,
        &[],
        &["-i", "--no-ignore-case", "NEEDLE", "c.txt"],
        b"",
        1,
    );
    same(
        d,
        &[],
        &["--no-ignore-case", "-i", "-c", "NEEDLE", "c.txt"],
        b"2\n",
        0,
    );
    same(d, &[], &["-m", "-1", "-c", "needle", "c.txt"], b"2\n", 0);
    same(d, &[], &["-m", "1", "-c", "needle", "c.txt"], b"1\n", 0);
}

/// `GREP_COLORS` and the deprecated `GREP_COLOR` (GNU grep's tests/color-colors, and the
/// other capabilities), `--color` alone (auto: no color into a pipe) and `--colour`.
#[test]
fn colors() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "in", "x\n\n");
    write(d, "in2", "ab x\nzz\nx\r\n");
    let e = "\x1b[";
    let mt36 = format!("{e}36m{e}K");
    same(
        d,
        &[("GREP_COLORS", "mt=36:ln=35")],
        &["--color=always", ".", "in"],
        format!("{mt36}x{e}m{e}K\n").as_bytes(),
        0,
    );
    // GREP_COLOR decides mt (with GNU 3.8's warning), GREP_COLORS has priority.
    let ours = run(
        "utf8-grep",
        d,
        &[("GREP_COLOR", "36")],
        &["--color=always", ".", "in"],
        b"",
    );
    assert_eq!(
        ours.1,
        "grep: warning: GREP_COLOR='36' is deprecated; use GREP_COLORS='mt=36'\n"
    );
    assert_eq!(ours.0, format!("{mt36}x{e}m{e}K\n").as_bytes());
    for env in [
        &[("GREP_COLOR", "36"), ("GREP_COLORS", "ln=35")][..],
        &[("GREP_COLOR", "36"), ("GREP_COLORS", "mt=32")],
        &[("GREP_COLOR", "36")],
        &[("GREP_COLORS", "sl=1:cx=2:ms=4:mc=5")],
        &[("GREP_COLORS", "sl=1:cx=2:rv:ms=4:mc=5")],
        &[("GREP_COLORS", "ms=:sl=7")],
        &[("GREP_COLORS", "ne:fn=1;2:se=3:ln=4:bn=33")],
        &[("GREP_COLORS", "ms=1:bad=x:mc=2")],
    ] {
        for args in [
            &["--color=always", "-n", ".", "in"][..],
            &["--color=always", "-C1", "x", "in2"],
            &["--color=always", "-v", "-C1", "x", "in2"],
            &["--color=always", "-H", "-o", "-b", "x", "in2"],
            &["--color=never", "x", "in2"],
        ] {
            let ours = run("utf8-grep", d, env, args, b"");
            assert_eq!(ours.2, 0);
            if gnu_grep() {
                assert_eq!(ours, run("grep", d, env, args, b""), "{env:?} {args:?}");
            }
        }
    }
    // `--color` takes a value only after '='; alone it is auto (a pipe: no color).
    same(d, &[], &["--color", "x", "in2"], b"ab x\nx\r\n", 0);
    same(d, &[], &["--colour", "-c", "x", "in2"], b"2\n", 0);
}

/// Usage and pattern errors as GNU grep 3.8 says them (issue 56, item 5): one line `PROG:
/// message`, GNU's texts for regex errors, `FILE:LINE:` for a pattern of `-f FILE`, the
/// `[:space:]` refusal (GNU grep's tests/warn-char-classes), and the usage line and help
/// hint exactly where GNU grep prints them; the pattern is never echoed (a long one would
/// fill the terminal).
#[test]
fn usage_and_pattern_errors() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "c.txt", "x\n");
    write(d, "pf", "ok\n[b-a]\n");
    let hint =
        "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";
    let cases: &[(&[&str], String)] = &[
        (
            &["-E", "[b-a]", "c.txt"],
            "grep: Invalid range end\n".into(),
        ),
        (
            &["[a", "c.txt"],
            "grep: Unmatched [, [^, [:, [., or [=\n".into(),
        ),
        (&[r"a\{1", "c.txt"], "grep: Unmatched \\{\n".into()),
        (&["-E", "(a", "c.txt"], "grep: Unmatched ( or \\(\n".into()),
        (&[r"\(a", "c.txt"], "grep: Unmatched ( or \\(\n".into()),
        (
            &["-E", "a{1,0}", "c.txt"],
            "grep: Invalid content of \\{\\}\n".into(),
        ),
        (
            &["-E", "a{99999}", "c.txt"],
            "grep: Regular expression too big\n".into(),
        ),
        (
            &["[[:foo:]]", "c.txt"],
            "grep: Invalid character class name\n".into(),
        ),
        (
            &["[:space:]", "c.txt"],
            "grep: character class syntax is [[:space:]], not [:space:]\n".into(),
        ),
        (
            &["-f", "pf", "c.txt"],
            "grep: pf:2: Invalid range end\n".into(),
        ),
        (
            &["-e", "ok", "-e", "[b-a]", "c.txt"],
            "grep: Invalid range end\n".into(),
        ),
        (
            &["-A", "x", "a", "c.txt"],
            "grep: x: invalid context length argument\n".into(),
        ),
        (
            &["-C", "-1", "a", "c.txt"],
            "grep: -1: invalid context length argument\n".into(),
        ),
        (
            &["--context=-1", "a", "c.txt"],
            "grep: -1: invalid context length argument\n".into(),
        ),
        (
            &["-m", "x", "a", "c.txt"],
            "grep: invalid max count\n".into(),
        ),
        (
            &["--binary-files=foo", "a", "c.txt"],
            "grep: unknown binary-files type\n".into(),
        ),
        (
            &["--foo", "a", "c.txt"],
            format!("grep: unrecognized option '--foo'\n{hint}"),
        ),
        (
            &["-k", "a", "c.txt"],
            format!("grep: invalid option -- 'k'\n{hint}"),
        ),
        (&[], hint.to_string()),
    ];
    for (args, want) in cases {
        let ours = run("utf8-grep", d, &[], args, b"");
        assert_eq!(
            (ours.1.as_str(), ours.2),
            (want.as_str(), 2),
            "utf8-grep {args:?}"
        );
        if gnu_grep() {
            let gnu = run("grep", d, &[], args, b"");
            assert_eq!(
                (gnu.1.as_str(), gnu.2),
                (want.as_str(), 2),
                "GNU grep {args:?}"
            );
        }
    }
    // The look-alikes of `[:space:]` are searched (on GNU's `f b h` lines).
    write(d, "fbh", "f\nb\nh\n");
    for p in [
        "[[:space:]]",
        "[::]",
        "[:space]",
        "[:space:wxyz]",
        "[:space[:space:]:]",
        "[:spac-e:]",
    ] {
        same(d, &[], &[p, "fbh"], b"", 1);
    }
    // One line where GNU grep prints several (argmatch's list of valid arguments).
    let ours = run("utf8-grep", d, &[], &["-d", "foo", "a", "c.txt"], b"");
    assert_eq!(
        (ours.1.as_str(), ours.2),
        (
            format!("grep: invalid argument 'foo' for '--directories'; valid arguments are 'read', 'skip', 'recurse'\n{hint}").as_str(),
            2
        )
    );
    // A 100,000-character invalid pattern is not echoed.
    let long = format!("[{}", "a".repeat(100_000));
    let ours = run("utf8-grep", d, &[], &[&long, "c.txt"], b"");
    assert_eq!(
        (ours.1.as_str(), ours.2),
        ("grep: Unmatched [, [^, [:, [., or [=\n", 2)
    );
    // -y is GNU grep's obsolete -i.
    same(d, &[], &["-y", "X", "c.txt"], b"x\n", 0);
}
