//! `utf8-grep -r --threads N` (issue 18): the bytes written, on stdout and stderr and the two
//! interleaved, and the exit status are those of `--threads 1` for every N, whatever the
//! output mode, with context groups spanning files, an input whose output is larger than
//! what a worker holds back, binary files, invalid-sequence reports and `-q`.

use std::path::Path;
use std::process::Command;

use crate::util::{Outcome, TestCommand, read_as_it_comes, tempdir, until_a_line, write};

/// A tree of 240 small files over 3 levels, a file with 30,000 matching lines (about
/// 600 KiB of output: more than a worker holds back before it must wait for its turn), a
/// binary file and a file with invalid UTF-8.
fn tree(d: &Path) {
    for i in 0..240 {
        let dir = format!("d{}/e{}", i % 7, i % 5);
        let mut text = String::new();
        for l in 0..(i % 13) {
            let word = if (i + l) % 3 == 0 { "needle" } else { "hay" };
            text.push_str(&format!("line {l} of file {i}: {word}\n"));
        }
        write(d, &format!("{dir}/f{i:03}.txt"), text);
    }
    let big: String = (0..30_000)
        .map(|n| format!("needle number {n}\n"))
        .collect();
    write(d, "d3/big.txt", big);
    write(d, "d1/bin.dat", b"needle\0binary\nneedle\n");
    write(d, "d2/bad.txt", b"caf\xE9 needle\nok\n\xF0\x9F needle\n");
    write(d, "d4/empty.txt", "");
}

fn run(d: &Path, threads: usize, args: &[&str]) -> Outcome {
    let mut c = TestCommand::new("utf8-grep", d);
    c.args(["--threads", &threads.to_string()]).args(args).run()
}

/// stdout and stderr written to one pipe, as a terminal shows them.
fn merged(d: &Path, threads: usize, args: &[&str]) -> Vec<u8> {
    let out = Command::new("sh")
        .arg("-c")
        .arg("\"$0\" \"$@\" 2>&1")
        .arg(utf8_tests::cli::bin("utf8-grep"))
        .args(["--threads", &threads.to_string()])
        .args(args)
        .current_dir(d)
        .output()
        .expect("sh runs");
    out.stdout
}

#[test]
fn every_thread_count_writes_the_same_bytes() {
    let t = tempdir();
    let d = t.path();
    tree(d);
    let cases: &[&[&str]] = &[
        &["-r", "needle"],
        &["-r", "-n", "-C", "2", "needle"],
        &[
            "-r",
            "-A",
            "1",
            "--color=always",
            "needle",
            "d1",
            "d2",
            "d3",
        ],
        &["-r", "-c", "needle"],
        &["-r", "-l", "needle"],
        &["-r", "-L", "needle"],
        &["-r", "-o", "-b", "needle"],
        &["-r", "--json", "needle"],
        &["-r", "--invalid=report", "needle"],
        &["-r", "-v", "-n", "hay"],
        &["-r", "-q", "needle"],
        &["-r", "-q", "absent"],
        &["-r", "-m", "1", "-B", "1", "needle", "missing-dir", "."],
        // Each line handed over on its own (the input being shown), or joined (the others).
        &["-r", "--line-buffered", "-n", "-C", "2", "needle"],
        &["-r", "--line-buffered", "--invalid=report", "needle"],
    ];
    for args in cases {
        let one = run(d, 1, args);
        assert!(
            !one.stdout.is_empty() || args.contains(&"-q"),
            "{args:?} printed nothing"
        );
        let one_merged = merged(d, 1, args);
        for threads in [2, 3, 8] {
            let many = run(d, threads, args);
            assert_eq!(many.code, one.code, "{args:?} --threads {threads}: status");
            assert!(
                many.stdout == one.stdout,
                "{args:?} --threads {threads}: stdout differs"
            );
            assert_eq!(
                many.err(),
                one.err(),
                "{args:?} --threads {threads}: stderr"
            );
            assert!(
                merged(d, threads, args) == one_merged,
                "{args:?} --threads {threads}: stdout and stderr interleave differently"
            );
        }
    }
}

/// The output of one thread is the walk's: directories entered in name order, depth first;
/// a group separator between context groups of different files.
#[test]
fn one_thread_order_and_separators() {
    let t = tempdir();
    let d = t.path();
    write(d, "b/x.txt", "needle\n");
    write(d, "a/z.txt", "hay\nneedle\n");
    write(d, "a/y/w.txt", "needle\nhay\n");
    for threads in [1, 2] {
        let o = run(d, threads, &["-r", "-A", "1", "needle"]);
        assert_eq!(
            o.out(),
            "a/y/w.txt:needle\na/y/w.txt-hay\n--\na/z.txt:needle\n--\nb/x.txt:needle\n",
            "--threads {threads}"
        );
    }
}

/// Inputs whose output is larger than a worker holds back (256 KiB) and than all of them
/// may keep before their turn (8 MiB), after inputs of another worker's: the output is that
/// of one thread, whichever of keeping, waiting and handing over parts each one took.
#[test]
fn outputs_larger_than_kept_come_out_in_order() {
    let t = tempdir();
    let d = t.path();
    for i in 0..200 {
        write(d, &format!("a/f{i:03}.txt"), format!("needle {i}\nhay\n"));
    }
    let line = "needle ".repeat(15) + "\n";
    write(d, "b/big1.txt", line.repeat(12 << 20 >> 7));
    write(d, "b/big2.txt", line.repeat(3 << 20 >> 7));
    write(d, "c/small.txt", "needle\n");
    let one = run(d, 1, &["-r", "-n", "needle"]);
    assert!(one.stdout.len() > 12 << 20, "{} bytes", one.stdout.len());
    for args in [
        &["-r", "-n", "needle"][..],
        &["-r", "-n", "--line-buffered", "needle"],
    ] {
        for threads in [2, 3] {
            let many = run(d, threads, args);
            assert!(
                many.stdout == one.stdout,
                "{args:?} --threads {threads}: stdout differs"
            );
        }
    }
}

#[test]
fn thread_count_is_checked() {
    let t = tempdir();
    for bad in ["0", "100000", "x"] {
        let o = run_raw(t.path(), &["--threads", bad, "-r", "x"]);
        assert_eq!(o.code, 2, "--threads {bad}");
        assert!(
            o.err().contains("--threads"),
            "--threads {bad}: {}",
            o.err()
        );
    }
    // -jN, as ripgrep spells it, with the digits attached.
    write(t.path(), "a.txt", "x\n");
    let o = run_raw(t.path(), &["-rj2", "-c", "x"]);
    assert_eq!((o.code, o.out()), (0, "a.txt:1\n".to_string()));
}

fn run_raw(d: &Path, args: &[&str]) -> Outcome {
    TestCommand::new("utf8-grep", d).args(args).run()
}

/// A file over twice the part size (16 MiB) is split across threads for `-c`, `-l`, `-L`
/// and `-q`, and for lines and matches printed without numbers: the answers are those of
/// one thread, with a line longer than a part, a NUL (found before the parts start when
/// `-v` or anchors depend on it; a printing search with one in a block cut by a part's start
/// is searched again on one thread) and matches at the cuts.
#[test]
fn one_large_file_split_across_threads() {
    let t = tempdir();
    let d = t.path();
    let mut text = Vec::with_capacity(40 << 20);
    let mut n = 0u64;
    while text.len() < 36 << 20 {
        n += 1;
        let line = match n % 5 {
            0 => format!("needle {n} in hay\n"),
            1 => format!("hay {n}\n"),
            2 => format!("{}\n", "x".repeat((n % 300) as usize)),
            3 => format!("Needle {n}\n"),
            _ => format!("more hay and a needle{n}\n"),
        };
        text.extend_from_slice(line.as_bytes());
        if n == 400_000 {
            // A line of 17 MiB: a cut falls inside it.
            text.extend(std::iter::repeat_n(b'y', 17 << 20));
            text.extend_from_slice(b" needle\n");
        }
    }
    std::fs::write(d.join("big.txt"), &text).expect("write");
    let mut with_nul = text.clone();
    with_nul[30 << 20] = 0;
    std::fs::write(d.join("nul.txt"), &with_nul).expect("write");
    let cases: &[&[&str]] = &[
        &["-c", "needle", "big.txt"],
        &["-c", "-i", "needle", "big.txt"],
        &["-c", "-w", "needle", "big.txt"],
        &["-c", "-v", "hay", "big.txt", "nul.txt"],
        &["-c", "-v", "-a", "hay", "nul.txt"],
        &["-c", "needle", "nul.txt"],
        &["-l", "needle", "big.txt", "nul.txt"],
        &["-L", "absent", "big.txt"],
        &["-q", "needle", "big.txt"],
        &["-c", "-e", "needle", "-e", "hay", "big.txt"],
        &["needle", "big.txt"],
        &["-o", "-b", "-i", "needle [0-9]+", "-E", "big.txt"],
        &["-v", "hay", "big.txt"],
        &["--color=always", "-H", "-w", "needle", "big.txt"],
        &["-n", "needle", "big.txt"],
        &["needle", "nul.txt"],
        &["-v", "hay", "nul.txt"],
        &["-a", "-o", "needle", "nul.txt"],
        // Not split (a later part's lines would wait in pieces): the same lines.
        &["--line-buffered", "-o", "needle", "big.txt"],
    ];
    for args in cases {
        let one = run(d, 1, args);
        for threads in [2, 3] {
            let many = run(d, threads, args);
            assert_eq!(
                (many.code, many.out(), many.err()),
                (one.code, one.out(), one.err()),
                "{args:?} --threads {threads}"
            );
        }
    }
}

/// A printing search split across threads turns binary where one thread's would: a NUL in
/// the first part (the rest of the file is then binary), just before or after the cut (in
/// the block both parts read), or further in the second part.
#[test]
fn a_split_printing_search_turns_binary_where_one_thread_does() {
    let t = tempdir();
    let d = t.path();
    let mut text = Vec::with_capacity(34 << 20);
    let mut n = 0u64;
    while text.len() < 33 << 20 {
        n += 1;
        let line = match n % 3 {
            0 => format!("needle {n}\n"),
            1 => format!("hay {n} {}\n", "z".repeat((n % 200) as usize)),
            _ => format!("a needle and hay {n}\n"),
        };
        text.extend_from_slice(line.as_bytes());
    }
    // A NUL, and no match after it in its part: the match in the next part still makes the
    // file one that "matches" (found by a review: the rest was searched already stopped).
    let mut late = b"hay\n".repeat(1 << 18);
    late.extend_from_slice(b"\0\n");
    late.extend(b"hay\n".repeat(33 << 18));
    late.extend_from_slice(b"needle\n");
    std::fs::write(d.join("late.txt"), &late).expect("write");
    for args in [
        &["needle", "late.txt"][..],
        &["-o", "-b", "needle", "late.txt"],
    ] {
        let one = run(d, 1, args);
        assert_eq!((one.code, one.out()), (0, String::new()), "{args:?}");
        let two = run(d, 2, args);
        assert_eq!(
            (two.code, two.out(), two.err()),
            (one.code, one.out(), one.err()),
            "{args:?}"
        );
    }
    let half = text.len() / 2;
    for at in [
        5 << 20,
        half - 700,
        half + 700,
        half + (200 << 10),
        30 << 20,
    ] {
        let mut with_nul = text.clone();
        with_nul[at] = 0;
        std::fs::write(d.join("nul.txt"), &with_nul).expect("write");
        for args in [
            &["needle", "nul.txt"][..],
            &["-o", "-b", "needle [0-9]+", "-E", "nul.txt"],
            &["-v", "needle", "nul.txt"],
            &["-c", "-v", "needle", "nul.txt"],
            // Anchors at line ends: a NUL ends a line once the file is binary.
            &["-c", "^z", "nul.txt"],
            &["-c", "-x", "z*", "nul.txt"],
            &["-l", "-v", "-e", "needle", "-e", "hay", "nul.txt"],
        ] {
            let one = run(d, 1, args);
            let two = run(d, 2, args);
            assert_eq!(
                (two.code, two.out(), two.err()),
                (one.code, one.out(), one.err()),
                "{args:?} with a NUL at {at}"
            );
        }
    }
}

/// `-R` follows symbolic links; one that leads back up is a warning (the exit status is
/// not changed), a link to nothing an error; `-r` skips both. As GNU grep 3.8 answers the
/// same tree (compared when it is installed; its walk is not sorted, so lines are compared
/// as sets).
#[cfg(unix)]
#[test]
fn dereference_recursive_follows_links_and_stops_at_loops() {
    let t = tempdir();
    let d = t.path();
    write(d, "a/b/f.txt", "hello\n");
    std::os::unix::fs::symlink("../..", d.join("a/b/up")).expect("symlink");
    std::os::unix::fs::symlink("a/b/f.txt", d.join("link.txt")).expect("symlink");
    let sorted = |b: &[u8]| {
        let mut v: Vec<String> = String::from_utf8_lossy(b)
            .lines()
            .map(str::to_owned)
            .collect();
        v.sort();
        v
    };
    for threads in [1, 2] {
        let o = run(d, threads, &["-R", "hello"]);
        assert_eq!(o.code, 0, "a loop is only a warning");
        assert_eq!(o.out(), "a/b/f.txt:hello\nlink.txt:hello\n");
        assert_eq!(
            o.err(),
            "utf8-grep: a/b/up: warning: recursive directory loop\n"
        );
        let r = run(d, threads, &["-r", "hello"]);
        assert_eq!(
            (r.code, r.out(), r.err()),
            (0, "a/b/f.txt:hello\n".into(), String::new())
        );
        let quiet = run(d, threads, &["-R", "-s", "hello"]);
        assert_eq!((quiet.code, quiet.err()), (0, String::new()));
    }
    std::os::unix::fs::symlink("nowhere", d.join("dangling")).expect("symlink");
    let o = run(d, 2, &["-R", "hello"]);
    assert_eq!(o.code, 2, "a link to nothing is an error under -R");
    assert!(
        o.err()
            .contains("utf8-grep: dangling: No such file or directory")
    );
    assert_eq!(run(d, 2, &["-r", "hello"]).code, 0, "-r does not follow it");
    if crate::util::have("grep") {
        for args in [
            &["-R", "hello"][..],
            &["-r", "hello"],
            &["-R", "-c", "hello", "."],
        ] {
            let gnu = Command::new("grep")
                .args(args)
                .current_dir(d)
                .output()
                .expect("grep");
            let ours = run_raw(d, args);
            assert_eq!(ours.code, gnu.status.code().unwrap_or(-1), "{args:?}");
            assert_eq!(sorted(&ours.stdout), sorted(&gnu.stdout), "{args:?}");
            let strip = |b: &[u8]| -> Vec<String> {
                sorted(b)
                    .iter()
                    .map(|l| l.split_once(": ").map_or(l.clone(), |x| x.1.to_owned()))
                    .collect()
            };
            assert_eq!(strip(&ours.stderr), strip(&gnu.stderr), "{args:?}");
        }
    }
}

/// What `utf8-grep --threads N ARGS needle a.txt p b00.txt .. b19.txt` writes before `p`, a
/// FIFO, has a writer, and then while its writer has written `needle 1` and holds it open
/// (`a.txt` holds `needle`, the `b` files not; with two threads the worker that lists the
/// operands searches `a.txt` then blocks on `p` while the other takes the `b` files from
/// the back): run through `script`'s terminal (util-linux) when `terminal`, else into a
/// pipe. `None` (said on stderr) without `mkfifo` or `script`.
fn shown_while_a_fifo_waits(
    terminal: bool,
    threads: usize,
    args: &[&str],
) -> Option<(Vec<u8>, Vec<u8>)> {
    use std::process::Stdio;
    let t = tempdir();
    let d = t.path();
    write(d, "a.txt", "needle\n");
    let hay: Vec<String> = (0..20).map(|i| format!("b{i:02}.txt")).collect();
    for name in &hay {
        write(d, name, "hay\n");
    }
    let fifo = d.join("p");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let bin = utf8_tests::cli::bin("utf8-grep");
    let mut argv = vec![
        bin.display().to_string(),
        "--threads".into(),
        threads.to_string(),
    ];
    argv.extend(args.iter().map(|a| a.to_string()));
    argv.extend(["--color=never", "needle", "a.txt", "p"].map(String::from));
    argv.extend(hay);
    let mut cmd = if terminal {
        let line: Vec<String> = argv.iter().map(|a| format!("'{a}'")).collect();
        let mut c = Command::new("script");
        c.args(["-qfec", &line.join(" "), "/dev/null"]);
        c
    } else {
        let mut c = Command::new(&argv[0]);
        c.args(&argv[1..]);
        c
    };
    let spawned = cmd
        .current_dir(d)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let (true, Ok(mut child)) = (made, spawned) else {
        eprintln!("shown_while_a_fifo_waits: skipped: no mkfifo or script");
        return None;
    };
    let rx = read_as_it_comes(child.stdout.take().unwrap());
    let before = until_a_line(&rx);
    // The search goes on either way.
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    std::io::Write::write_all(&mut writer, b"needle 1\n").unwrap();
    let during = until_a_line(&rx);
    drop(writer);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    Some((before, during))
}

/// On a terminal, what utf8-grep finds is written as it is found, a line at a time (GNU
/// grep's stdio and ripgrep line-buffer a terminal): the line of `a.txt` is on the screen
/// while the next operand, a FIFO, waits for a writer, and the FIFO's first line while its
/// writer holds it open, with one thread or several (the showing thread takes what a
/// blocked worker searched before; the input being shown hands over each line).
#[test]
fn a_terminal_sees_each_line_as_it_is_found() {
    let lossy = String::from_utf8_lossy;
    for threads in [1, 2] {
        if let Some((before, during)) = shown_while_a_fifo_waits(true, threads, &[]) {
            assert_eq!(lossy(&before), "a.txt:needle\r\n", "--threads {threads}");
            assert_eq!(lossy(&during), "p:needle 1\r\n", "--threads {threads}");
        }
    }
}

/// `--line-buffered` (GNU grep's) does the same into a pipe; without it the pipe gets the
/// output when the search ends, as from GNU grep.
#[test]
fn line_buffered_writes_each_line_into_a_pipe_as_it_is_found() {
    let lossy = String::from_utf8_lossy;
    for threads in [1, 2] {
        if let Some((before, during)) =
            shown_while_a_fifo_waits(false, threads, &["--line-buffered"])
        {
            assert_eq!(lossy(&before), "a.txt:needle\n", "--threads {threads}");
            assert_eq!(lossy(&during), "p:needle 1\n", "--threads {threads}");
        }
    }
    if let Some((before, during)) = shown_while_a_fifo_waits(false, 2, &[]) {
        assert_eq!((lossy(&before), lossy(&during)), ("".into(), "".into()));
    }
}
