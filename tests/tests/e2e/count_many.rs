//! utf8-count over many files on several threads: the lines, the totals, the diagnostics and
//! the exit status are those of one thread, in the order the files were given, with stdout
//! and stderr interleaved through one pipe as one thread interleaves them; GNU wc's where the
//! columns are its own.

use std::path::Path;

use crate::util::{TestCommand, have, tempdir, write};

/// `utf8-count args` with standard error on the same pipe as standard output, and its
/// status; `stdin` on its standard input.
fn both(dir: &Path, args: &[&str], stdin: &[u8]) -> (String, i32) {
    let bin = utf8_tests::cli::bin("utf8-count");
    let mut c = TestCommand::program("sh", dir);
    c.args(["-c", "exec \"$0\" \"$@\" 2>&1"])
        .args([bin.as_os_str()])
        .args(args)
        .stdin(stdin);
    let o = c.run();
    (o.out(), o.code)
}

/// A tree of `n` small files (every tenth with ill-formed bytes, some empty), their names in
/// order with a missing file, a directory and standard input among them.
fn tree(d: &Path, n: usize) -> Vec<String> {
    let mut names = Vec::new();
    for i in 0..n {
        let name = format!("t/{}/f{i}.txt", i % 17);
        let body = match i % 10 {
            0 => format!("bad \u{e9}\u{e9} {i}\n")
                .into_bytes()
                .into_iter()
                .chain(*b"\xFF\xC0\n")
                .collect(),
            5 => Vec::new(),
            _ => format!("file {i}\nwith words, {}\n", "x ".repeat(i % 40)).into_bytes(),
        };
        write(d, &name, &body);
        names.push(name);
        match i {
            100 => names.push("missing.txt".into()),
            200 => names.push("t/3".into()),
            300 => names.push("-".into()),
            _ => {}
        }
    }
    names
}

#[test]
fn many_files_on_several_threads_as_on_one() {
    let dir = tempdir();
    let d = dir.path();
    let names = tree(d, 3000);
    let mut list = Vec::new();
    for n in names.iter().filter(|n| *n != "-") {
        list.extend_from_slice(n.as_bytes());
        list.push(0);
    }
    list.extend_from_slice(b"\0"); // an empty name: an invalid entry, reported in its turn
    list.extend_from_slice(b"t/1/f1.txt\0");
    write(d, "list0", &list);
    let operands: Vec<&str> = names.iter().map(String::as_str).collect();
    let stdin = b"from stdin \xFF\n";
    for columns in [
        &[][..],
        &["-l"],
        &["-w"],
        &["-c"],
        &["-m", "-e"],
        &["--json"],
    ] {
        for how in ["operands", "list"] {
            let mut args: Vec<&str> = columns.to_vec();
            match how {
                "operands" => args.extend(&operands),
                _ => args.push("--files0-from=list0"),
            }
            let mut one = vec!["--threads", "1"];
            one.extend(&args);
            let want = both(d, &one, stdin);
            assert_eq!(want.1, 2, "a missing file makes the status 2");
            for threads in ["2", "3", "8"] {
                let mut many = vec!["--threads", threads];
                many.extend(&args);
                let got = both(d, &many, stdin);
                assert!(
                    got == want,
                    "{columns:?} {how} --threads {threads}:\n{}",
                    first_difference(&got.0, &want.0)
                );
            }
            // The default threads too.
            assert!(
                both(d, &args, stdin) == want,
                "{columns:?} {how}, default threads"
            );
        }
    }
}

/// The first line where `a` and `b` differ.
fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}: {x:?} against {y:?}", i + 1);
        }
    }
    format!("{} lines against {}", a.lines().count(), b.lines().count())
}

#[test]
fn many_files_agree_with_gnu_wc() {
    if !have("wc") {
        eprintln!("skipped: wc is not installed");
        return;
    }
    let dir = tempdir();
    let d = dir.path();
    let names: Vec<String> = tree(d, 500).into_iter().filter(|n| n != "-").collect();
    let operands: Vec<&str> = names.iter().map(String::as_str).collect();
    // (A missing file: GNU wc exits 1, utf8-count 2, its status for trouble.)
    for columns in [
        &["-l"][..],
        &["-w"],
        &["-c"],
        &["-l", "-c"],
        &["-l", "-w", "-m"],
    ] {
        let mut args: Vec<&str> = columns.to_vec();
        args.extend(&operands);
        let mut ours = vec!["--threads", "2"];
        ours.extend(&args);
        let (got, code) = both(d, &ours, b"");
        let mut wc = TestCommand::program("sh", d);
        wc.env("LC_ALL", "C.UTF-8")
            .args(["-c", "exec wc \"$@\" 2>&1", "wc"])
            .args(&args);
        let o = wc.run();
        assert_eq!((code, o.code), (2, 1));
        assert!(
            got == o.out().replace("wc: ", "utf8-count: "),
            "{columns:?}: {}",
            first_difference(&got, &o.out())
        );
    }
}
