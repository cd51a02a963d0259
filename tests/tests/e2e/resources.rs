//! Resource bounds: each binary streams in bounded memory whatever the length of its input
//! or of a line. A writer thread generates the input on the fly into the child's stdin (it
//! never exists as a file or in this process's memory) and `/usr/bin/time -f %M` reports the
//! child's peak RSS (getrusage of the waited-for child, not a timing).
//!
//! Bounds: utf8-repair and utf8-count under 16 MiB, utf8-grep -c/-o under 64 MiB.
//!
//! The default run streams 64 MiB per case; the 1 GiB run of the issue is
//! `resources_1gib_stream_bounded_memory`, ignored by default because the dev-profile
//! binaries take minutes for it: run it with
//! `cargo test --release -p utf8-tests --test e2e -- --ignored resources`.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::util::tempdir;

const MIB: u64 = 1 << 20;

/// The pattern utf8-grep looks for; it occurs in [`block`] and never across blocks.
const NEEDLE: &str = "テキスト";

/// A 64 KiB block of text with errors that repeats to form the stream: it starts with ASCII
/// and every error in it is complete, so repeating it repeats its repair, counts and matches.
fn block(one_line: bool) -> Vec<u8> {
    const PIECES: &[&[u8]] = &[
        b"hello ",
        b"world ",
        b"\n",
        "café ".as_bytes(),
        "日本語の".as_bytes(),
        "テキスト".as_bytes(),
        "😀".as_bytes(),
        b"ok\n",
        b"\xED\xA0\x80",
        b"\xFF",
        b"\xC1\x81",
        b"\xE2\x82A",
    ];
    let mut out = b"a".to_vec();
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    while out.len() < 64 * 1024 - 16 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(PIECES[(x % PIECES.len() as u64) as usize]);
    }
    out.resize(64 * 1024 - 1, b' ');
    out.push(b'\n');
    if one_line {
        // No newline at all: the whole stream is one line.
        for b in &mut out {
            if *b == b'\n' {
                *b = b' ';
            }
        }
    }
    out
}

/// What one run gave.
struct Run {
    peak_kib: u64,
    code: i32,
    out_len: u64,
    /// The first 64 KiB of stdout.
    head: Vec<u8>,
    stderr: String,
}

/// Runs `tool args` under `/usr/bin/time` with `total` bytes of repeated `blk` on stdin;
/// `None` when /usr/bin/time cannot report the peak RSS.
fn measure(dir: &Path, tool: &str, args: &[&str], blk: &[u8], total: u64) -> Option<Run> {
    let time = Path::new("/usr/bin/time");
    if !time.is_file() {
        return None;
    }
    let report = dir.join(format!("rss-{tool}.txt"));
    let mut child = Command::new(time)
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&report)
        .arg(utf8_tests::cli::bin(tool))
        .args(args)
        .env("LC_ALL", "C")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn /usr/bin/time");
    let mut stdin = child.stdin.take().unwrap();
    let blk = blk.to_vec();
    let writer = std::thread::spawn(move || {
        let mut left = total;
        while left > 0 {
            let n = left.min(blk.len() as u64) as usize;
            if stdin.write_all(&blk[..n]).is_err() {
                break;
            }
            left -= n as u64;
        }
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut head = Vec::new();
        let mut len = 0u64;
        let mut buf = vec![0; 256 * 1024];
        loop {
            match stdout.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if head.len() < 64 * 1024 {
                        head.extend_from_slice(&buf[..n.min(64 * 1024 - head.len())]);
                    }
                    len += n as u64;
                }
            }
        }
        (len, head)
    });
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    writer.join().unwrap();
    let (out_len, head) = reader.join().unwrap();
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    // GNU time writes "Command exited with non-zero status N" before the value.
    let peak_kib = text.lines().last()?.trim().parse().ok()?;
    Some(Run {
        peak_kib,
        code: status.code().unwrap_or(-1),
        out_len,
        head,
        stderr,
    })
}

/// Streams `total` bytes (lines of text, then one single line) through each binary and
/// checks its answer and its peak RSS.
fn bounded_memory(total: u64) {
    if !Path::new("/usr/bin/time").is_file() {
        eprintln!("resources: skipped: /usr/bin/time is absent (apt-get install time)");
        return;
    }
    let dir = tempdir();
    let d = dir.path();
    assert_eq!(total % (64 * 1024), 0);
    let reps = total / (64 * 1024);
    for one_line in [false, true] {
        let blk = block(one_line);
        let text = String::from_utf8_lossy(&blk);
        let repaired_len = text.len() as u64;
        let needles = text.matches(NEEDLE).count() as u64;
        let matching_lines = text.lines().filter(|l| l.contains(NEEDLE)).count() as u64;
        let cases: &[(&str, &[&str], u64)] = &[
            ("utf8-count", &[], 16),
            ("utf8-repair", &[], 16),
            ("utf8-grep", &["-c", NEEDLE], 64),
            ("utf8-grep", &["-o", NEEDLE], 64),
        ];
        for &(tool, args, limit_mib) in cases {
            let start = Instant::now();
            let Some(run) = measure(d, tool, args, &blk, total) else {
                eprintln!("resources: skipped: /usr/bin/time -f %M gave no number");
                return;
            };
            let shape = if one_line { "one line" } else { "lines" };
            eprintln!(
                "resources: {tool} {args:?}, {} MiB as {shape}: peak RSS {} KiB, {:.1} s",
                total / MIB,
                run.peak_kib,
                start.elapsed().as_secs_f64()
            );
            assert_eq!(run.code, 0, "{tool} {args:?} {shape}: {}", run.stderr);
            assert!(
                run.peak_kib < limit_mib * 1024,
                "{tool} {args:?} on {} MiB as {shape}: peak RSS {} KiB >= {limit_mib} MiB",
                total / MIB,
                run.peak_kib
            );
            // The answer is right too (a tool that stops early is small for nothing).
            let out = String::from_utf8_lossy(&run.head);
            match (tool, args.first().copied()) {
                ("utf8-repair", _) => assert_eq!(run.out_len, repaired_len * reps),
                ("utf8-count", _) => {
                    let fields: Vec<&str> = out.split_whitespace().collect();
                    let lines = blk.iter().filter(|&&b| b == b'\n').count() as u64 * reps;
                    assert_eq!(fields[0], lines.to_string(), "lines: {out}");
                    assert_eq!(fields[2], total.to_string(), "bytes: {out}");
                }
                (_, Some("-c")) => {
                    let want = if one_line { 1 } else { matching_lines * reps };
                    assert_eq!(out.trim(), want.to_string());
                }
                _ => assert_eq!(
                    run.out_len,
                    needles * reps * (NEEDLE.len() as u64 + 1),
                    "-o output"
                ),
            }
        }
    }
}

#[test]
fn stream_64mib_bounded_memory() {
    bounded_memory(64 * MIB);
}

#[test]
#[ignore = "1 GiB per case: run in release with `-- --ignored resources`"]
fn resources_1gib_stream_bounded_memory() {
    bounded_memory(1024 * MIB);
}
