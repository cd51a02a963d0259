//! Resource bounds: each binary streams in bounded memory whatever the length of its input
//! or of a line. A writer thread generates the input on the fly into the child's stdin (it
//! never exists as a file or in this process's memory) and the `peak-rss` helper of this
//! crate reports the child's peak RSS: `getrusage(RUSAGE_CHILDREN)` in a process whose only
//! child is the tool (a measurement of memory, not of time).
//!
//! Bounds: utf8-repair and utf8-count under 16 MiB, utf8-grep -c/-o under 64 MiB.
//!
//! The default run streams 64 MiB per case (lines, then one single line); the 1 GiB runs of
//! the issue are the `resources_1gib_*` tests, one per case, ignored by default because the
//! dev-profile binaries take minutes for them. CI runs them in release:
//! `cargo test --release -p utf8-tests --test e2e -- --ignored resources`.

use std::io::Read;
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

/// Runs `tool args` under the `peak-rss` helper (`tests/src/bin/peak-rss.rs`: one child,
/// `getrusage(RUSAGE_CHILDREN)` after waiting for it) with `total` bytes of repeated `blk`
/// on stdin. A fresh helper per run: this test process's own `RUSAGE_CHILDREN` would report
/// the largest of every child any test has waited for.
fn measure(dir: &Path, tool: &str, args: &[&str], blk: &[u8], total: u64) -> Run {
    let report = dir.join(format!("rss-{tool}-{}.txt", args.join("")));
    let mut child = Command::new(env!("CARGO_BIN_EXE_peak-rss"))
        .arg(&report)
        .arg(utf8_tests::cli::bin(tool))
        .args(args)
        .env("LC_ALL", "C")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn peak-rss");
    let writer = utf8_tests::feed_repeated(child.stdin.take().unwrap(), blk, total);
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
    let written = writer.join().unwrap();
    let (out_len, head) = reader.join().unwrap();
    let (code, peak_kib) = report_of(&report, &stderr);
    assert_eq!(status.code(), Some(code & 0xff));
    // None of the measured runs may stop reading early (the pipe holds the last write).
    assert_eq!(written, total, "{tool} {args:?} stopped reading: {stderr}");
    Run {
        peak_kib,
        code,
        out_len,
        head,
        stderr,
    }
}

/// The exit code and peak RSS (KiB) in a `peak-rss` report.
fn report_of(report: &Path, stderr: &str) -> (i32, u64) {
    let text = std::fs::read_to_string(report)
        .unwrap_or_else(|e| panic!("peak-rss wrote no report ({e}): {stderr}"));
    let fields: Vec<&str> = text.split_whitespace().collect();
    match fields[..] {
        [code, kib] => (code.parse().unwrap(), kib.parse().unwrap()),
        _ => panic!("peak-rss report {text:?}"),
    }
}

/// The measurement sees memory: `peak-rss` on a child that touches 128 MiB (this test
/// executable running [`rss_probe_touches_128mib`]) reports at least that much.
#[test]
fn peak_rss_sees_a_child_that_allocates() {
    let dir = tempdir();
    let report = dir.path().join("probe.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_peak-rss"))
        .arg(&report)
        .arg(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "resources::rss_probe_touches_128mib",
            "--test-threads=1",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let (code, peak_kib) = report_of(&report, &String::from_utf8_lossy(&out.stderr));
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("1 passed"),
        "the probe did not run: {stdout}"
    );
    assert!(peak_kib >= 128 * 1024, "peak RSS {peak_kib} KiB < 128 MiB");
}

/// Not a test of its own: the child of [`peak_rss_sees_a_child_that_allocates`].
#[test]
#[ignore = "the child of peak_rss_sees_a_child_that_allocates"]
fn rss_probe_touches_128mib() {
    // vec! of a non-zero byte writes, and so maps, every page.
    let v = std::hint::black_box(vec![1u8; 128 << 20]);
    assert_eq!(
        v.iter()
            .step_by(4096)
            .map(|&b| usize::from(b))
            .sum::<usize>(),
        32768
    );
}

/// One measured case: a binary, its arguments and its bound.
#[derive(Clone, Copy)]
struct Case {
    tool: &'static str,
    args: &'static [&'static str],
    limit_mib: u64,
}

const COUNT: Case = Case {
    tool: "utf8-count",
    args: &[],
    limit_mib: 16,
};
const REPAIR: Case = Case {
    tool: "utf8-repair",
    args: &[],
    limit_mib: 16,
};
const GREP_C: Case = Case {
    tool: "utf8-grep",
    args: &["-c", NEEDLE],
    limit_mib: 64,
};
const GREP_O: Case = Case {
    tool: "utf8-grep",
    args: &["-o", NEEDLE],
    limit_mib: 64,
};

/// Streams `total` bytes (lines of text, then one single line) through each case's binary
/// and checks its answer and its peak RSS.
fn bounded_memory(total: u64, cases: &[Case]) {
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
        for &Case {
            tool,
            args,
            limit_mib,
        } in cases
        {
            let start = Instant::now();
            let run = measure(d, tool, args, &blk, total);
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
                    assert_eq!(fields[3], total.to_string(), "bytes: {out}");
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
    bounded_memory(64 * MIB, &[COUNT, REPAIR, GREP_C, GREP_O]);
}

const GIB: u64 = 1024 * MIB;

#[test]
#[ignore = "1 GiB twice: run in release with `-- --ignored resources`"]
fn resources_1gib_count() {
    bounded_memory(GIB, &[COUNT]);
}

#[test]
#[ignore = "1 GiB twice: run in release with `-- --ignored resources`"]
fn resources_1gib_repair() {
    bounded_memory(GIB, &[REPAIR]);
}

#[test]
#[ignore = "1 GiB twice: run in release with `-- --ignored resources`"]
fn resources_1gib_grep_count() {
    bounded_memory(GIB, &[GREP_C]);
}

#[test]
#[ignore = "1 GiB twice: run in release with `-- --ignored resources`"]
fn resources_1gib_grep_only_matching() {
    bounded_memory(GIB, &[GREP_O]);
}

/// `utf8-repair --from auto` decides from a bounded prefix and streams the rest: 256 MiB of
/// windows-1252 text (detected, transcoded) and of UTF-8 with errors (repaired), each in
/// under 16 MiB (issue 20).
#[test]
#[ignore = "256 MiB twice: run in release with `-- --ignored resources`"]
fn resources_256mib_repair_auto() {
    let dir = tempdir();
    let total = 256 * MIB;
    let line = "Le fichier « données » a été créé à côté ; déjà vu, naïveté, œuvre.\n";
    let (latin, _, unmappable) = encoding_rs::WINDOWS_1252.encode(line);
    assert!(!unmappable);
    let mut blk = latin.repeat(64 * 1024 / latin.len() + 1);
    blk.truncate(64 * 1024 - 64 * 1024 % latin.len());
    let decoded_len = (blk.len() / latin.len() * line.len()) as u64;
    let utf8 = block(false);
    let repaired_len = String::from_utf8_lossy(&utf8).len() as u64;
    for (what, blk, want) in [
        ("windows-1252", &blk, decoded_len),
        ("UTF-8 with errors", &utf8, repaired_len),
    ] {
        let reps = total / blk.len() as u64;
        let run = measure(
            dir.path(),
            "utf8-repair",
            &["--from", "auto"],
            blk,
            reps * blk.len() as u64,
        );
        eprintln!(
            "resources: utf8-repair --from auto, 256 MiB of {what}: peak RSS {} KiB",
            run.peak_kib
        );
        assert_eq!(run.code, 0, "{what}: {}", run.stderr);
        assert!(run.peak_kib < 16 * 1024, "{what}: {} KiB", run.peak_kib);
        assert_eq!(run.out_len, want * reps, "{what}: output length");
    }
}

/// A UTF-16LE file of `total` bytes (a byte order mark, then lines holding [`NEEDLE`]),
/// searched by utf8-grep (mapped, and read from standard input) and counted by
/// `utf8-count --from auto`: each in under 64 MiB, mapped windows included. Answers the
/// number of lines.
fn utf16_bounded(total: u64) {
    let dir = tempdir();
    let d = dir.path();
    let line = "UTF-16 text: テキスト, wörld, 😀 and more words on the line\n";
    let units: Vec<u8> = line.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let reps = (total - 2) / units.len() as u64;
    let path = d.join("utf16.txt");
    {
        use std::io::Write;
        let mut w = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        w.write_all(b"\xFF\xFE").unwrap();
        for _ in 0..reps {
            w.write_all(&units).unwrap();
        }
        w.flush().unwrap();
    }
    let file = path.to_str().unwrap();
    let run = |tool: &str, args: &[&str], stdin: bool| {
        let report = d.join("rss.txt");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_peak-rss"));
        cmd.arg(&report).arg(utf8_tests::cli::bin(tool)).args(args);
        if stdin {
            cmd.stdin(std::fs::File::open(&path).unwrap());
        }
        let out = cmd.output().expect("spawn peak-rss");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let (code, peak_kib) = report_of(&report, &stderr);
        eprintln!(
            "resources: {tool} {args:?} on {} MiB of UTF-16LE: peak RSS {peak_kib} KiB",
            total / MIB
        );
        assert_eq!(code, 0, "{tool} {args:?}: {stderr}");
        assert!(peak_kib < 64 * 1024, "{tool} {args:?}: {peak_kib} KiB");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(
        run("utf8-grep", &["-c", NEEDLE, file], false),
        format!("{reps}\n")
    );
    assert_eq!(run("utf8-grep", &["-c", NEEDLE], true), format!("{reps}\n"));
    let counts = run("utf8-count", &["--from", "auto", "-l", "-c", file], false);
    let fields: Vec<&str> = counts.split_whitespace().collect();
    let bytes = 2 + reps * units.len() as u64;
    assert_eq!(
        fields,
        [reps.to_string().as_str(), &bytes.to_string(), file]
    );
}

#[test]
fn utf16_64mib_bounded_memory() {
    utf16_bounded(64 * MIB);
}

#[test]
#[ignore = "256 MiB: run in release with `-- --ignored resources`"]
fn resources_256mib_utf16() {
    utf16_bounded(256 * MIB);
}
