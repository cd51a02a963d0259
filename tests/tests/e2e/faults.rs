//! Fault injection for all three binaries: a reader that goes away (`| head -c1`), a full
//! disk (`/dev/full`), inputs that are missing, directories, FIFOs, empty or shrinking while
//! read, and `utf8-repair --in-place` killed or interrupted at any moment.
//!
//! What each binary must do (DESIGN.md, "Shared conventions"): a closed pipe ends quietly with
//! the status of what was found; any other trouble prints one `PROGRAM: ...` line and exits 2;
//! nothing panics, and a file being repaired in place is always either the original or the
//! fully repaired one.

use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::util::{
    Outcome, Rng, TestCommand, corpus, have, leftovers, signal_after_temp_file, tempdir, write,
};

const TOOLS: [&str; 3] = ["utf8-count", "utf8-repair", "utf8-grep"];

/// Arguments that make `tool` write output proportional to its input (before the FILEs).
fn verbose_args(tool: &str) -> &'static [&'static str] {
    match tool {
        "utf8-count" => &["--explain"],
        "utf8-repair" => &[],
        // Every corpus line has an 'o' ("hello", "world", "ok").
        _ => &["o"],
    }
}

/// Text that every tool turns into output: lines, errors, one match per line at least.
fn text(seed: u64, len: usize) -> Vec<u8> {
    let mut data = corpus(seed, len, true);
    data.extend_from_slice(b"\nok\n");
    data
}

/// Panics unless `o` is a clean exit with `code`, or a clean exit 2 with a diagnostic that
/// names the program (`allow_trouble`); never a panic, never a signal.
#[track_caller]
fn assert_no_crash(tool: &str, what: &str, o: &Outcome) {
    let err = o.err();
    assert!(
        !err.contains("panicked") && o.code != 101 && o.code >= 0,
        "{tool} {what}: crashed (exit {}):\n{err}",
        o.code
    );
    if o.code == 2 {
        assert!(
            err.starts_with(&format!("{tool}: ")),
            "{tool} {what}: exit 2 without a diagnostic: {err:?}"
        );
    }
}

// ----- stdout closed early -----

#[test]
fn closed_stdout_is_quiet_at_every_output_size() {
    let dir = tempdir();
    let d = dir.path();
    for (i, len) in [100, 5_000, 70_000, 1 << 20, 6 << 20]
        .into_iter()
        .enumerate()
    {
        let data = text(i as u64 + 11, len);
        write(d, "in.txt", &data);
        for tool in TOOLS {
            for (how, keep) in [("stdin", 1), ("file", 1), ("file", 4096)] {
                let mut c = TestCommand::new(tool, d);
                c.args(verbose_args(tool));
                if how == "stdin" {
                    c.stdin(&data);
                } else {
                    c.args(["in.txt"]);
                }
                let o = c.run_head(keep);
                let what = format!("{how}, {len} bytes, head -c{keep}");
                // Something was found (a match, a count, a repair): status 0, no message.
                assert_eq!(
                    (o.code, o.err()),
                    (0, String::new()),
                    "{tool} {what}: a closed pipe must end quietly with status 0"
                );
            }
        }
    }
}

#[test]
fn closed_stdout_keeps_the_status_of_what_was_found() {
    let dir = tempdir();
    let d = dir.path();
    let data = text(5, 2 << 20);
    write(d, "in.txt", &data);
    write(d, "none.txt", "nothing here\n");
    // grep: a match was found before the pipe closed -> 0, also with -o, -n, -c, -v.
    for args in [
        &["-o", "o", "in.txt"][..],
        &["-n", "o", "in.txt"],
        &["-v", "zzz-not-there", "in.txt"],
        &["-c", "o", "in.txt", "none.txt"],
        &["-b", "--json", "o", "in.txt"],
    ] {
        let o = TestCommand::new("utf8-grep", d).args(args).run_head(1);
        assert_eq!((o.code, o.err()), (0, String::new()), "utf8-grep {args:?}");
    }
    // utf8-repair --report prints on stderr; stdout closing must not turn it into trouble.
    let o = TestCommand::new("utf8-repair", d)
        .args(["in.txt"])
        .run_head(1);
    assert_eq!(o.code, 0, "{}", o.err());
    // utf8-count --json over several files: the first object was read, the rest dropped.
    let o = TestCommand::new("utf8-count", d)
        .args(["--json", "in.txt", "none.txt", "in.txt"])
        .run_head(1);
    assert_eq!((o.code, o.err()), (0, String::new()));
}

// ----- /dev/full -----

/// Runs `tool args` with stdout on /dev/full.
fn on_dev_full(d: &Path, tool: &str, args: &[&str]) -> Outcome {
    let full = OpenOptions::new().write(true).open("/dev/full").unwrap();
    let mut c = TestCommand::new(tool, d);
    c.args(args);
    let out = c
        .command()
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    Outcome {
        code: out.status.code().unwrap_or(-1),
        stdout: Vec::new(),
        stderr: out.stderr,
    }
}

#[test]
fn dev_full_is_exit_2_with_one_line() {
    if !Path::new("/dev/full").exists() {
        eprintln!("dev_full_is_exit_2_with_one_line: skipped: /dev/full is absent");
        return;
    }
    let dir = tempdir();
    let d = dir.path();
    write(d, "small.txt", "ok\n");
    write(d, "big.txt", text(9, 3 << 20));
    let cases: &[(&str, &[&str])] = &[
        ("utf8-grep", &["ok", "small.txt"]),
        ("utf8-grep", &["-o", "o", "big.txt"]),
        ("utf8-grep", &["-c", "o", "big.txt", "small.txt"]),
        ("utf8-grep", &["--json", "o", "big.txt"]),
        ("utf8-count", &["--explain", "big.txt"]),
        ("utf8-count", &["--json", "small.txt", "big.txt"]),
        ("utf8-count", &["--histogram", "small.txt"]),
        ("utf8-repair", &["big.txt"]),
        ("utf8-repair", &["small.txt", "big.txt"]),
        (
            "utf8-repair",
            &["--practice", "per-byte", "--action", "escape", "big.txt"],
        ),
    ];
    for (tool, args) in cases {
        let o = on_dev_full(d, tool, args);
        assert_eq!(o.code, 2, "{tool} {args:?} on /dev/full: {}", o.err());
        assert_eq!(
            o.err(),
            format!("{tool}: write error: No space left on device\n"),
            "{tool} {args:?}: one line"
        );
    }
    // utf8-grep -q writes nothing: /dev/full is no trouble.
    let o = on_dev_full(d, "utf8-grep", &["-q", "ok", "small.txt"]);
    assert_eq!((o.code, o.err()), (0, String::new()));
    // --check writes nothing either.
    let o = on_dev_full(d, "utf8-repair", &["--check", "small.txt"]);
    assert_eq!((o.code, o.err()), (0, String::new()));
}

// ----- inputs: missing, directory, FIFO, empty -----

#[test]
fn missing_file_and_directory_are_exit_2_and_the_loop_goes_on() {
    let dir = tempdir();
    let d = dir.path();
    std::fs::create_dir(d.join("sub")).unwrap();
    write(d, "a.txt", "ok\n");
    for tool in TOOLS {
        let mut args: Vec<&str> = verbose_args(tool).to_vec();
        if tool == "utf8-grep" {
            args = vec!["ok"];
        }
        for bad in ["missing.txt", "sub"] {
            let mut all = args.clone();
            all.extend([bad, "a.txt"]);
            let o = TestCommand::new(tool, d).args(&all).run();
            o.assert_code(2);
            let msg = if bad == "sub" {
                "Is a directory"
            } else {
                "No such file or directory"
            };
            assert_eq!(o.err(), format!("{tool}: {bad}: {msg}\n"), "{tool} {bad}");
            // The next file is still processed.
            assert!(
                !o.stdout.is_empty(),
                "{tool} {bad}: a.txt was not processed"
            );
        }
    }
}

#[test]
fn empty_file() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "empty", "");
    let o = TestCommand::new("utf8-count", d).args(["empty"]).run();
    o.assert_code(0);
    assert!(
        o.out()
            .split_whitespace()
            .eq(["0", "0", "0", "0", "0", "empty"])
    );
    let o = TestCommand::new("utf8-count", d)
        .args(["--check", "empty"])
        .run();
    o.assert_code(0);
    let o = TestCommand::new("utf8-repair", d).args(["empty"]).run();
    assert_eq!(
        (o.code, o.out(), o.err()),
        (0, String::new(), String::new())
    );
    let o = TestCommand::new("utf8-repair", d)
        .args(["--check", "empty"])
        .run();
    o.assert_code(0);
    let o = TestCommand::new("utf8-repair", d)
        .args(["-i", "empty"])
        .run();
    o.assert_code(0);
    assert_eq!(std::fs::read(d.join("empty")).unwrap(), b"");
    let o = TestCommand::new("utf8-grep", d)
        .args(["-c", "x", "empty"])
        .run();
    assert_eq!((o.code, o.out()), (1, "0\n".to_string()));
    // An empty stdin too.
    for tool in TOOLS {
        let args: &[&str] = if tool == "utf8-grep" { &["x"] } else { &[] };
        let o = TestCommand::new(tool, d).args(args).run();
        assert_no_crash(tool, "empty stdin", &o);
        assert_eq!(o.code, i32::from(tool == "utf8-grep"), "{tool}");
    }
}

/// Makes a FIFO at `path` with mkfifo(1); false when there is no mkfifo.
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// Waits for `child` at most `limit`; on timeout kills it and returns `None`.
fn wait_timeout(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return Some(s);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `tool args` while a thread writes `data` into the FIFO `fifo`; returns the outcome.
fn through_fifo(d: &Path, fifo: &Path, tool: &str, args: &[&str], data: Vec<u8>) -> Outcome {
    let mut c = TestCommand::new(tool, d);
    c.args(args);
    let mut child = c
        .command()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let path = fifo.to_path_buf();
    // Opening a FIFO for writing blocks until a reader opens it.
    let writer = std::thread::spawn(move || {
        let mut f = OpenOptions::new().write(true).open(&path).unwrap();
        let _ = f.write_all(&data);
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    let status = wait_timeout(&mut child, Duration::from_secs(60));
    if status.is_none() || !writer.is_finished() {
        // Release a writer still waiting for a reader, so the test cannot hang.
        let _ = std::fs::File::open(fifo).map(|mut f| std::io::copy(&mut f, &mut std::io::sink()));
    }
    writer.join().unwrap();
    let stdout = reader.join().unwrap();
    let mut stderr = Vec::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_end(&mut stderr)
        .unwrap();
    let status = status.unwrap_or_else(|| panic!("{tool} {args:?}: hung on a FIFO"));
    Outcome {
        code: status.code().unwrap_or(-1),
        stdout,
        stderr,
    }
}

#[test]
fn fifo_input_is_read_like_a_pipe() {
    let dir = tempdir();
    let d = dir.path();
    let fifo = d.join("fifo");
    if !mkfifo(&fifo) {
        eprintln!("fifo_input_is_read_like_a_pipe: skipped: mkfifo failed");
        return;
    }
    let data = text(3, 1 << 20);
    write(d, "same.txt", &data);
    for tool in TOOLS {
        {
            let mut args: Vec<&str> = verbose_args(tool).to_vec();
            args.extend(["--", "fifo"]);
            let o = through_fifo(d, &fifo, tool, &args, data.clone());
            assert_no_crash(tool, "fifo", &o);
            o.assert_code(0);
            // Same output as from a regular file with the same bytes (modulo its name).
            let mut reg: Vec<&str> = verbose_args(tool).to_vec();
            reg.push("same.txt");
            let want = TestCommand::new(tool, d).args(&reg).run();
            let norm = |s: String| s.replace("same.txt", "fifo");
            assert!(
                norm(want.out()) == o.out(),
                "{tool} {args:?}: FIFO output differs from the file's"
            );
        }
    }
    // An empty FIFO (the writer closes at once) is an empty input.
    let o = through_fifo(d, &fifo, "utf8-count", &["fifo"], Vec::new());
    o.assert_code(0);
    assert!(
        o.out()
            .split_whitespace()
            .eq(["0", "0", "0", "0", "0", "fifo"])
    );
    // utf8-repair refuses to rewrite a FIFO in place, and says so.
    let mut c = TestCommand::new("utf8-repair", d);
    c.args(["-i", "fifo"]);
    let mut child = c
        .command()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    match wait_timeout(&mut child, Duration::from_secs(5)) {
        Some(status) => {
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            assert!(!err.contains("panicked"), "{err}");
            assert_eq!(status.code(), Some(2), "utf8-repair -i on a FIFO: {err}");
            assert!(err.starts_with("utf8-repair: fifo: "), "{err}");
        }
        None => {
            // It opened the FIFO and waited for a writer: acceptable, but report it.
            eprintln!("fifo: utf8-repair -i waited on a FIFO (killed after 5 s)");
        }
    }
}

// ----- a file that shrinks while it is read -----

#[test]
fn file_shrinking_while_read_does_not_crash() {
    let dir = tempdir();
    let d = dir.path();
    let data = text(21, 24 << 20);
    let mut rng = Rng::new(7);
    let cases: &[(&str, &[&str])] = &[
        ("utf8-count", &["--explain"]),
        ("utf8-count", &[]),
        ("utf8-count", &["--threads", "2"]),
        ("utf8-repair", &[]),
        ("utf8-grep", &["o"]),
        ("utf8-grep", &["-c", "o"]),
    ];
    for (tool, args) in cases {
        for to in [0u64, 1, 4099, 5 << 20] {
            write(d, "shrink.txt", &data);
            let mut all = args.to_vec();
            all.push("shrink.txt");
            let mut c = TestCommand::new(tool, d);
            c.args(&all);
            let child = c
                .command()
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            // Output is not read yet: tools with much output block on the full pipe
            // part-way through the file; then the file shrinks under them.
            std::thread::sleep(Duration::from_millis(5 + rng.below(60)));
            OpenOptions::new()
                .write(true)
                .open(d.join("shrink.txt"))
                .unwrap()
                .set_len(to)
                .unwrap();
            let out = child.wait_with_output().unwrap();
            let o = Outcome {
                code: out.status.code().unwrap_or(-1),
                stdout: out.stdout,
                stderr: out.stderr,
            };
            assert_no_crash(tool, &format!("{args:?} shrunk to {to}"), &o);
            assert!(
                [0, 1, 2].contains(&o.code),
                "{tool} {args:?} shrunk to {to}: exit {}",
                o.code
            );
            // What was written is a prefix of some consistent run: at least no more output
            // than the whole file could give for the byte-for-byte tool.
            if *tool == "utf8-repair" {
                assert!(
                    o.stdout.len() <= data.len() * 3,
                    "utf8-repair: too much output"
                );
            }
        }
    }
}

// ----- utf8-repair --in-place under SIGKILL, SIGINT, SIGTERM, SIGHUP -----

fn spawn_repair(d: &Path, args: &[&str]) -> Child {
    Command::new(utf8_tests::cli::bin("utf8-repair"))
        .args(args)
        .current_dir(d)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// 50 kills, one in each fiftieth of a measured run (stratified, so the start, the middle
/// and the rename at the end are all hit): the file is always the original or the fully
/// repaired one, with `--backup` the backup is the original, and no temporary file is left
/// that a later run would trip over.
#[test]
fn in_place_sigkill_at_50_moments() {
    let dir = tempdir();
    let d = dir.path();
    let data = corpus(1234, 6 << 20, true);
    let repaired = String::from_utf8_lossy(&data).into_owned().into_bytes();
    let path: PathBuf = d.join("f.txt");
    write(d, "f.txt", &data);
    let start = Instant::now();
    let mut c = spawn_repair(d, &["-i", "--backup", "f.txt"]);
    assert!(c.wait().unwrap().success());
    let full = start.elapsed().as_micros() as u64 + 1;
    assert!(std::fs::read(&path).unwrap() == repaired);
    let mut rng = Rng::new(99);
    let mut seen = [0usize; 2];
    const KILLS: u64 = 50;
    for i in 0..KILLS {
        write(d, "f.txt", &data);
        let _ = std::fs::remove_file(d.join("f.txt~"));
        // Stratum i of a window 10% longer than the run.
        let window = full + full / 10;
        let at = window * i / KILLS + rng.below(window / KILLS + 1);
        let mut child = spawn_repair(d, &["-i", "--backup", "f.txt"]);
        std::thread::sleep(Duration::from_micros(at));
        let _ = child.kill();
        let _ = child.wait();
        let now = std::fs::read(&path).unwrap();
        if now == data {
            seen[0] += 1;
        } else {
            assert!(
                now == repaired,
                "kill {i} at {at} us: a mix of original and repaired"
            );
            seen[1] += 1;
            // Repaired with --backup: the backup is complete.
            assert!(
                std::fs::read(d.join("f.txt~")).unwrap() == data,
                "kill {i}: the file was replaced but the backup is not the original"
            );
        }
        // A temporary file left by SIGKILL (unavoidable) never blocks the next run.
        for f in leftovers(d) {
            std::fs::remove_file(d.join(f)).unwrap();
        }
    }
    eprintln!(
        "sigkill x{KILLS} over {} ms: original {} times, repaired {} times",
        full / 1000,
        seen[0],
        seen[1]
    );
    assert_eq!(seen[0] + seen[1], KILLS as usize);
}

#[test]
fn in_place_sigint_sigterm_sighup_leave_no_temporary_file() {
    if !have("kill") && !Path::new("/bin/kill").exists() {
        eprintln!("sighup: skipped: no kill command");
        return;
    }
    let dir = tempdir();
    let d = dir.path();
    let data = corpus(4321, 12 << 20, true);
    write(d, "f.txt", &data);
    // repair.rs covers -i with INT and TERM, -o with TERM; here: HUP, and -o with INT,
    // and --backup with each.
    let cases: &[(&str, &[&str])] = &[
        ("HUP", &["-i", "f.txt"]),
        ("INT", &["-o", "out.txt", "f.txt"]),
        ("INT", &["-i", "--backup", "f.txt"]),
        ("TERM", &["-i", "--suffix=.orig", "f.txt"]),
    ];
    for (sig, args) in cases {
        let mut child = spawn_repair(d, args);
        let Some(status) = signal_after_temp_file(&mut child, d, sig) else {
            eprintln!("sig{sig} {args:?}: finished before the signal; nothing to test");
            write(d, "f.txt", &data);
            continue;
        };
        assert!(
            status.code().is_none(),
            "{sig}: died of the signal: {status:?}"
        );
        assert!(
            leftovers(d).is_empty(),
            "{sig} {args:?}: {:?}",
            leftovers(d)
        );
        assert!(
            std::fs::read(d.join("f.txt")).unwrap() == data,
            "{sig} {args:?}"
        );
        assert!(
            !d.join("out.txt").exists(),
            "{sig} {args:?}: partial -o file"
        );
        for backup in ["f.txt~", "f.txt.orig"] {
            let p = d.join(backup);
            if p.exists() {
                assert!(std::fs::read(&p).unwrap() == data, "{sig}: partial backup");
                std::fs::remove_file(p).unwrap();
            }
        }
    }
}
