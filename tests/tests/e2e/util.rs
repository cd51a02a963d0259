//! Fixtures shared by the modules.

use std::path::Path;
use std::process::{Child, Command, ExitStatus};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

pub use utf8_tests::cli::{Outcome, TestCommand};

/// A temporary directory for one test.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// Writes `bytes` to `dir/name`, making the directories of `name` first.
pub fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("make fixture directories");
    }
    std::fs::write(path, bytes).expect("write fixture");
}

/// `utf8-count` run in `dir`.
pub fn count(dir: &Path) -> TestCommand {
    TestCommand::new("utf8-count", dir)
}

/// Whether an external program runs (`prog --version` succeeds).
pub fn have(prog: &str) -> bool {
    Command::new(prog)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The workspace's one test-data generator (xorshift64*, the sequence these tests always used).
pub use utf8_testkit::Rng;

/// A corpus of about `len` bytes: mixed scripts, newlines, and (with `errors`) every kind of
/// ill-formed sequence, including long runs of continuation bytes and cut-off prefixes.
pub fn corpus(seed: u64, len: usize, errors: bool) -> Vec<u8> {
    const PIECES: &[&str] = &[
        "hello ",
        "world",
        "\n",
        "café ",
        "Grüße ",
        "Привет ",
        "日本語の",
        "テキスト",
        "😀",
        "🎉 ",
        "ok\n",
        "\t",
        "Ω≈ç√ ",
        "𐍈",
        "\u{10FFFF}",
        "\u{FEFF}",
        "a",
        "\r\n",
    ];
    const BAD: &[&[u8]] = &[
        b"\xED\xA0\x80",
        b"\xC1\x81",
        b"\xC0",
        b"\xE0\x80\x80",
        b"\xF0\x80\x80\x80",
        b"\xF4\x90\x80\x80",
        b"\xF5",
        b"\xFE",
        b"\xFF",
        b"\x80",
        b"\xBF\xBF\xBF\xBF\xBF",
        b"\xE2\x82",
        b"\xF0\x9F\x98",
        b"\xE2",
        b"\xF8\x88\x80\x80\x80",
        b"\x80\x80\x80",
    ];
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(len + 16);
    while out.len() < len {
        if errors && rng.below(8) == 0 {
            out.extend_from_slice(BAD[rng.below(BAD.len() as u64) as usize]);
        } else {
            out.extend_from_slice(PIECES[rng.below(PIECES.len() as u64) as usize].as_bytes());
        }
    }
    out
}

/// Temporary files utf8-repair left in `dir`.
pub fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".utf8-repair-"))
        .collect()
}

/// Waits (up to 20 s) until utf8-repair has its temporary file in `dir`, then sends signal
/// `sig` (a name: "INT", "TERM", ...) to `child` and waits for it to end. `None` when the
/// child finished before a temporary file appeared: there was nothing to interrupt.
pub fn signal_after_temp_file(child: &mut Child, dir: &Path, sig: &str) -> Option<ExitStatus> {
    let start = Instant::now();
    while leftovers(dir).is_empty() && start.elapsed() < Duration::from_secs(20) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    if child.try_wait().unwrap().is_some() {
        return None;
    }
    Command::new("kill")
        .args([format!("-{sig}"), child.id().to_string()])
        .status()
        .unwrap();
    Some(child.wait().unwrap())
}

/// The bytes `r` gives, sent on a channel by a thread of their own as they come.
pub fn read_as_it_comes(mut r: impl std::io::Read + Send + 'static) -> Receiver<Vec<u8>> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = r.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    rx
}

/// What arrives on `rx` until a line ends, waiting up to 3 seconds (enough for a slow
/// machine; output held in a buffer never comes).
pub fn until_a_line(rx: &Receiver<Vec<u8>>) -> Vec<u8> {
    let mut got = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(3);
    while !got.ends_with(b"\n") && Instant::now() < deadline {
        if let Ok(bytes) = rx.recv_timeout(Duration::from_millis(50)) {
            got.extend(bytes);
        }
    }
    got
}

/// Runs `bin ARGS` with its standard input and output pipes, writes each of `lines` into
/// its input one at a time and returns what came out after each before the next is written
/// ([`until_a_line`]), then closes the input and returns the rest as the last element.
pub fn output_per_line(bin: &str, args: &[&str], lines: &[&[u8]]) -> Vec<Vec<u8>> {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(utf8_tests::cli::bin(bin))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let rx = read_as_it_comes(child.stdout.take().unwrap());
    let mut stdin = child.stdin.take().unwrap();
    let mut seen = Vec::new();
    for line in lines {
        stdin.write_all(line).unwrap();
        stdin.flush().unwrap();
        seen.push(until_a_line(&rx));
    }
    drop(stdin);
    let mut rest = Vec::new();
    while let Ok(bytes) = rx.recv_timeout(Duration::from_secs(10)) {
        rest.extend(bytes);
    }
    assert!(child.wait().unwrap().code().is_some());
    seen.push(rest);
    seen
}

/// Whether the `grep` on the path is GNU grep 3.x, the reference of utf8-grep's
/// comparisons (they skip with a message without it).
pub fn gnu_grep() -> bool {
    have("grep")
        && Command::new("grep")
            .arg("--version")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).starts_with("grep (GNU grep) 3."))
}

/// stdout, stderr (`utf8-grep` read as `grep`) and status of `prog args` in `dir`, under
/// `LC_ALL=C.UTF-8`: `prog` is `grep` (the one on the path) or one of ours.
pub fn grep_or_ours(prog: &str, dir: &Path, args: &[&str]) -> (Vec<u8>, String, i32) {
    let mut c = if prog == "grep" {
        TestCommand::program("grep", dir)
    } else {
        TestCommand::new(prog, dir)
    };
    let o = c.env("LC_ALL", "C.UTF-8").args(args).run();
    let err = String::from_utf8_lossy(&o.stderr).replace("utf8-grep", "grep");
    (o.stdout, err, o.code)
}
