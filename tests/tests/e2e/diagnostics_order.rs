//! Diagnostics in order: every binary flushes standard output before it writes to standard
//! error, as GNU's `error()` does, so that both streams through one pipe (`2>&1 | cat`) keep
//! the order their lines were made in. GNU grep and wc are the oracles where installed.

use std::path::Path;

use crate::util::{TestCommand, have, tempdir, write};

/// `tool args` with standard error on the same pipe as standard output, as `2>&1 | cat`.
fn both(dir: &Path, tool: &str, args: &[&str]) -> String {
    let bin = utf8_tests::cli::bin(tool);
    let mut c = TestCommand::program("sh", dir);
    c.args(["-c", "exec \"$0\" \"$@\" 2>&1"])
        .args([bin.as_os_str()])
        .args(args);
    c.run().out()
}

/// The same for a system program (`grep`, `wc`), or `None` when it is not there.
fn system(dir: &Path, prog: &str, args: &[&str]) -> Option<String> {
    if !have(prog) {
        eprintln!("skipped the comparison with {prog}: not installed");
        return None;
    }
    let mut c = TestCommand::program("sh", dir);
    c.args(["-c", "exec \"$0\" \"$@\" 2>&1", prog]).args(args);
    Some(c.run().out())
}

fn fixtures(d: &Path) {
    write(d, "a.txt", "hi there\n");
    write(d, "b.txt", "hi again\nand more\n");
    write(d, "bad.txt", b"x\xFF y\n");
}

#[test]
fn count_lines_and_errors_keep_their_order() {
    let dir = tempdir();
    let d = dir.path();
    fixtures(d);
    let args = ["-l", "a.txt", "missing.txt", "b.txt"];
    let got = both(d, "utf8-count", &args);
    assert_eq!(
        got,
        " 1 a.txt\nutf8-count: missing.txt: No such file or directory\n 2 b.txt\n 3 total\n"
    );
    if let Some(wc) = system(d, "wc", &args) {
        assert_eq!(got, wc.replace("wc: ", "utf8-count: "));
    }
}

#[test]
fn grep_lines_and_errors_keep_their_order() {
    let dir = tempdir();
    let d = dir.path();
    fixtures(d);
    let args = ["-H", "hi", "a.txt", "missing.txt", "b.txt"];
    let got = both(d, "utf8-grep", &args);
    assert_eq!(
        got,
        "a.txt:hi there\nutf8-grep: missing.txt: No such file or directory\nb.txt:hi again\n"
    );
    if let Some(grep) = system(d, "grep", &args) {
        assert_eq!(got, grep.replace("grep: ", "utf8-grep: "));
    }
}

#[test]
fn repair_text_errors_and_reports_keep_their_order() {
    let dir = tempdir();
    let d = dir.path();
    fixtures(d);
    let got = both(d, "utf8-repair", &["a.txt", "missing.txt", "b.txt"]);
    assert_eq!(
        got,
        "hi there\nutf8-repair: missing.txt: No such file or directory\nhi again\nand more\n"
    );
    // --report: the reports of an input after the text before it, its summary after its
    // text.
    let got = both(d, "utf8-repair", &["--report", "a.txt", "bad.txt"]);
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines.len(), 5, "{got}");
    assert_eq!(lines[0], "hi there");
    assert_eq!(lines[1], "utf8-repair: a.txt: no errors");
    assert!(
        lines[2].starts_with("utf8-repair: bad.txt:1:2: invalid-byte"),
        "{got}"
    );
    assert_eq!(lines[3], "x\u{FFFD} y");
    assert!(
        lines[4].starts_with("utf8-repair: bad.txt: 1 error repaired"),
        "{got}"
    );
}
