//! Pathological input for every binary (issue 21, item 4): exponential and quadratic shapes
//! (globs, many and long patterns, plain and `-i`, ASCII and CJK, 10,000 patterns with `-w`
//! and `-x`, regular expressions that explode backtracking or automata), huge numeric options, a 10,000-level tree, a symlink loop under `-R`, and a
//! 256 MiB single line with `-o`, `-n`, `-A` (`UTF8_PATHOLOGICAL_LINE_MIB=2048`: the 2 GiB line).
//!
//! Each case runs its release binary under the `peak-rss` helper with a generous timeout
//! (20 s and more) that only catches hangs; it prints its exit code, time and peak RSS, and
//! asserts no time and no memory: with `UTF8_PATHOLOGICAL_PEERS=1` each utf8-grep case runs
//! GNU grep too and prints a `peers:` line of both against the issue's bounds (the
//! measurement; BENCHMARKS.md records one run). A case
//! asserts its answer where it must have one. The cases that fail today are listed in
//! [`KNOWN`]: they are run and printed, and only a hang fails them; one that starts to pass
//! says so.
//!
//! Ignored (release-only, minutes in debug): `cargo test --release -p utf8-tests --test
//! pathological -- --ignored`, which .ci/run's release step runs.
#![forbid(unsafe_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use utf8_tests::measure::{Measured, measure};

const MIB: u64 = 1 << 20;

/// Cases that fail today, with what they do: run, printed, never asserted.
const KNOWN: &[(&str, &str)] = &[];

/// What one run gave.
type Run = Measured;

fn bin(name: &str) -> PathBuf {
    utf8_tests::cli::bin(name)
}

/// Runs `tool args` in `dir` under `peak-rss`, stdin from `input` (`total` bytes of `blk`
/// repeated, written on the fly) or nothing, keeping the first MiB of stdout.
fn run(dir: &Path, name: &str, tool: &str, args: &[&str], input: Option<(&[u8], u64)>) -> Run {
    run_for(dir, name, tool, args, input, Duration::from_secs(20))
}

/// [`run`] with a time limit of its own. With `UTF8_PATHOLOGICAL_PEERS` set, a utf8-grep
/// case also runs GNU grep on the same arguments and prints both against the issue's bounds:
/// at most max(2x GNU grep's time, 1 s) and max(4x its peak RSS, 512 MiB) — printed, not
/// asserted (the timings of a loaded test machine prove nothing).
fn run_for(
    dir: &Path,
    name: &str,
    tool: &str,
    args: &[&str],
    input: Option<(&[u8], u64)>,
    limit: Duration,
) -> Run {
    let peak_rss = Path::new(env!("CARGO_BIN_EXE_peak-rss"));
    let m = measure(peak_rss, dir, &bin(tool), args, input, limit);
    assert!(
        !m.hung,
        "{name}: {tool} {args:?} still running after {limit:?} (a hang): {}",
        m.stderr
    );
    let r = m;
    let known = KNOWN.iter().find(|(n, _)| *n == name);
    eprintln!(
        "pathological: {name}: exit {}, {:.2} s, peak {} MiB{}",
        r.code,
        r.secs,
        r.peak_mib,
        match (known, r.code) {
            (Some((_, why)), 2) => format!(" (KNOWN FAILURE, issue 21: {why})"),
            (Some(_), _) => " (a known failure that passes now: take it off KNOWN)".to_string(),
            _ => String::new(),
        }
    );
    if tool == "utf8-grep" && std::env::var_os("UTF8_PATHOLOGICAL_PEERS").is_some() {
        // GNU grep gets 30 s and 8 GiB of address space (some of these cases take it
        // minutes and tens of GB): past either the bound is at least 60 s or 2 GiB.
        let capped: Vec<&str> = ["--as=8589934592", "grep"]
            .into_iter()
            .chain(args.iter().copied())
            .collect();
        let g = measure(
            peak_rss,
            dir,
            Path::new("prlimit"),
            &capped,
            input,
            limit.min(Duration::from_secs(30)),
        );
        // A killed GNU grep's peak is not known (the helper sees no exit): the memory bound
        // is then at least what it had reached, and only the time is judged.
        let (t, mem) = ((2.0 * g.secs).max(1.0), (4 * g.peak_mib).max(512));
        let verdict = match (r.secs <= t, r.peak_mib <= mem, g.hung) {
            (true, true, _) => "within",
            (true, false, true) => "within in time; GNU grep's peak unknown (killed)",
            _ => "OUTSIDE",
        };
        eprintln!(
            "peers: {name} | ours {:.2} s {} MiB | GNU grep exit {}{} {:.2} s {} MiB | bound \
             {t:.2} s {mem} MiB | {verdict}",
            r.secs,
            r.peak_mib,
            g.code,
            if g.hung { " (killed)" } else { "" },
            g.secs,
            g.peak_mib,
        );
    }
    r
}

/// Asserts the exit code unless the case is a known failure.
fn expect(name: &str, r: &Run, code: i32) {
    if KNOWN.iter().any(|(n, _)| *n == name) {
        return;
    }
    let first = r.stderr.lines().next().unwrap_or_default();
    if r.code != code {
        FAILED
            .lock()
            .unwrap()
            .push(format!("{name}: exit {} (want {code}): {first}", r.code));
    }
}

/// The unexpected exit codes so far: each test runs all its cases, then [`finish`] fails it.
static FAILED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Fails the test when a case gave an unexpected exit code (tests run one at a time).
fn finish() {
    let failed = std::mem::take(&mut *FAILED.lock().unwrap());
    assert!(
        failed.is_empty(),
        "unexpected answers:\n{}",
        failed.join("\n")
    );
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// `n` distinct ASCII words (`w0000001` ...) or CJK words (three ideographs each).
fn words(n: usize, cjk: bool) -> Vec<String> {
    (0..n)
        .map(|i| {
            if cjk {
                let c = |k: usize| char::from_u32(0x4E00 + (k % 20_000) as u32).unwrap();
                [c(i), c(i / 20_000 + 7), c(i % 97 + 300)].iter().collect()
            } else {
                format!("w{i:07}")
            }
        })
        .collect()
}

/// About 1 MiB of text with some of `words(.., cjk)` in it, ASCII and CJK lines.
fn text(cjk: bool) -> Vec<u8> {
    let w = words(100_000, cjk);
    let mut out = String::new();
    let mut i = 0usize;
    while out.len() < MIB as usize {
        i += 1;
        out.push_str("some words 日本語のテキスト and ");
        if i.is_multiple_of(10) {
            out.push_str(&w[(i * 7919) % w.len()]);
        }
        out.push_str(" more\n");
    }
    out.into_bytes()
}

fn write_lines(path: &Path, lines: &[String]) {
    let mut s = lines.join("\n");
    s.push('\n');
    std::fs::write(path, s).unwrap();
}

#[test]
#[ignore = "release only: cargo test --release -p utf8-tests --test pathological -- --ignored"]
fn pathological_globs() {
    let dir = tempdir();
    let d = dir.path();
    let tree = d.join("tree");
    std::fs::create_dir_all(tree.join("a".repeat(40))).unwrap();
    std::fs::write(tree.join("a".repeat(40)).join("x"), "x\n").unwrap();
    std::fs::write(tree.join("a".repeat(40) + "b"), "x\n").unwrap();
    std::fs::write(tree.join("a".repeat(40) + "c"), "x\n").unwrap();
    let pat = "*a*a*a*a*a*a*a*a*a*a*a*a*b";
    for (opt, code, lines) in [
        ("--include", 0, 1usize),
        ("--exclude", 0, 2),
        ("--exclude-dir", 0, 3),
    ] {
        let name = format!("grep -r {opt}='{pat}' with 40-character names");
        let flag = format!("{opt}={pat}");
        let r = run(d, &name, "utf8-grep", &["-r", &flag, "x", "tree"], None);
        expect(&name, &r, code);
        assert_eq!(
            r.stdout
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .count(),
            lines
        );
    }
    finish();
}

#[test]
#[ignore = "release only: cargo test --release -p utf8-tests --test pathological -- --ignored"]
fn pathological_many_and_long_patterns() {
    // Some known failures take tens of seconds to fail (-i -f 100,000 ASCII patterns: 58 s under load).
    let slow = Duration::from_secs(180);
    let dir = tempdir();
    let d = dir.path();
    for cjk in [false, true] {
        let script = if cjk { "CJK" } else { "ASCII" };
        std::fs::write(d.join("T"), text(cjk)).unwrap();
        for n in [10_000usize, 100_000] {
            write_lines(&d.join("P"), &words(n, cjk));
            for flags in [
                &["-c"][..],
                &["-c", "-i"],
                &["-c", "-w"],
                &["-c", "-x"],
                &["-c", "-i", "-w"],
            ] {
                if n == 100_000 && flags.len() > 2 {
                    continue;
                }
                let name = if n == 100_000 && cjk && flags == ["-c", "-i"] {
                    "grep -c -i -f 100k CJK patterns".to_string()
                } else {
                    format!("grep {} -f {n} {script} patterns", flags.join(" "))
                };
                let mut args = flags.to_vec();
                args.extend(["-f", "P", "T"]);
                let r = run_for(d, &name, "utf8-grep", &args, None, slow);
                // -x: no line is a whole pattern.
                expect(&name, &r, if flags.contains(&"-x") { 1 } else { 0 });
            }
        }
        // One 5 MB pattern (found nowhere; a pattern file, as the command line holds 128 KiB).
        let unit = if cjk { "日本語" } else { "abc" };
        let long = unit.repeat(5_000_000 / unit.len());
        std::fs::write(d.join("L"), format!("{long}\n")).unwrap();
        for i in [false, true] {
            let name = match (i, cjk) {
                (true, false) => "grep -i -f one 5 MB pattern".to_string(),
                (true, true) => "grep -i -f one 5 MB CJK pattern".to_string(),
                _ => format!("grep -f one 5 MB {script} pattern"),
            };
            let args: &[&str] = if i {
                &["-c", "-i", "-f", "L", "T"]
            } else {
                &["-c", "-f", "L", "T"]
            };
            let r = run_for(d, &name, "utf8-grep", args, None, slow);
            expect(&name, &r, 1);
        }
        // A long periodic pattern among others, under 1 MiB: an Aho-Corasick DFA of it
        // follows failure links as deep as the pattern is long for each transition (`abc`
        // 300,000 times with -i took more than 100 s), so it gets the NFA.
        std::fs::write(
            d.join("L"),
            format!("{}\nzq{unit}qz\n", unit.repeat(300_000 / unit.len() * 3)),
        )
        .unwrap();
        for flags in [&["-c"][..], &["-c", "-i"]] {
            let name = format!(
                "grep {} -f a 900 KB periodic {script} pattern and another",
                flags.join(" ")
            );
            let mut args = flags.to_vec();
            args.extend(["-f", "L", "T"]);
            let r = run_for(d, &name, "utf8-grep", &args, None, slow);
            expect(&name, &r, 1);
        }
    }
    finish();
}

/// Regular expressions that make backtracking matchers or automaton builders explode: each
/// answers, or is refused at once with a message (exit 2).
#[test]
#[ignore = "release only: cargo test --release -p utf8-tests --test pathological -- --ignored"]
fn pathological_regexes() {
    let slow = Duration::from_secs(60);
    let dir = tempdir();
    let d = dir.path();
    std::fs::write(d.join("T"), text(false)).unwrap();
    let mut runs = "a".repeat(100_000);
    runs.push('\n');
    runs.push_str(&"x".repeat(100_000));
    runs.push('\n');
    std::fs::write(d.join("R"), runs).unwrap();
    let cases: &[(&str, &[&str], i32)] = &[
        (
            "grep -E (a*)*b on 100,000 a",
            &["-c", "-E", "(a*)*b", "R"],
            1,
        ),
        (
            "grep -E (x+x+)+y on 100,000 x",
            &["-c", "-E", "(x+x+)+y", "R"],
            1,
        ),
        (
            "grep -E a{1000}{1000}",
            &["-c", "-E", "a{1000}{1000}", "R"],
            1,
        ),
        (
            "grep -E (a|aa){1000}",
            &["-c", "-E", "(a|aa){1000}b", "R"],
            1,
        ),
    ];
    for &(name, args, code) in cases {
        let r = run_for(d, name, "utf8-grep", args, None, slow);
        expect(name, &r, code);
    }
    // 10,000 alternated words in one pattern; 20,000 regexes in a file.
    let alternation = words(10_000, false).join("|");
    std::fs::write(d.join("A"), format!("{alternation}\n")).unwrap();
    let r = run_for(
        d,
        "grep -E 10,000 alternated words",
        "utf8-grep",
        &["-c", "-E", "-f", "A", "T"],
        None,
        slow,
    );
    expect("grep -E 10,000 alternated words", &r, 0);
    let regexes: Vec<String> = words(20_000, false)
        .iter()
        .map(|w| format!("{w}[a-z]*"))
        .collect();
    write_lines(&d.join("P"), &regexes);
    let r = run_for(
        d,
        "grep -E -f 20,000 regexes",
        "utf8-grep",
        &["-c", "-E", "-f", "P", "T"],
        None,
        slow,
    );
    expect("grep -E -f 20,000 regexes", &r, 0);
    // A 5 MB regex: refused at once.
    let big: Vec<String> = (0..400_000).map(|i| format!("v{i:06}[0-9]+")).collect();
    std::fs::write(d.join("B"), big.join("|")).unwrap();
    let r = run_for(
        d,
        "grep -E one 5 MB regex",
        "utf8-grep",
        &["-c", "-E", "-f", "B", "T"],
        None,
        slow,
    );
    expect("grep -E one 5 MB regex", &r, 2);
    assert!(r.stderr.contains("too large"), "{}", r.stderr);
    finish();
}

#[test]
#[ignore = "release only: cargo test --release -p utf8-tests --test pathological -- --ignored"]
fn pathological_huge_numbers() {
    let dir = tempdir();
    let d = dir.path();
    std::fs::write(d.join("T"), text(false)).unwrap();
    for opt in ["-A", "-B", "-C", "-m"] {
        let name = format!("grep {opt} 1000000000");
        let r = run(
            d,
            &name,
            "utf8-grep",
            &[opt, "1000000000", "-c", "w00", "T"],
            None,
        );
        expect(&name, &r, 0);
        let name = format!("grep -n {opt} 1000000000 (printing)");
        let r = run(
            d,
            &name,
            "utf8-grep",
            &["-n", opt, "1000000000", "w00", "T"],
            None,
        );
        expect(&name, &r, 0);
    }
    // 64 MiB: large enough for utf8-count's threads.
    let big = d.join("B");
    let t = text(true);
    let mut f = std::fs::File::create(&big).unwrap();
    for _ in 0..64 {
        f.write_all(&t).unwrap();
    }
    drop(f);
    for n in ["100000", "65535", "1000000000"] {
        let name = format!("count --threads {n}");
        let r = run(d, &name, "utf8-count", &["--threads", n, "B"], None);
        if r.code == 2 {
            // Refused: at once, with a message naming the option.
            assert!(r.stderr.contains("--threads"), "{name}: {}", r.stderr);
        } else {
            expect(&name, &r, 0);
        }
    }
    finish();
}

/// Not a test of its own: builds (or removes) a tree of `UTF8_TESTS_DEPTH` nested `d`
/// directories in `UTF8_TESTS_DEEP_DIR` by changing into each (a path of 20,000 bytes is
/// longer than PATH_MAX): the child process of [`pathological_deep_tree`].
#[test]
#[ignore = "the child of pathological_deep_tree"]
fn pathological_deep_tree_child() {
    let (Some(dir), Some(depth)) = (
        std::env::var_os("UTF8_TESTS_DEEP_DIR"),
        std::env::var("UTF8_TESTS_DEPTH").ok(),
    ) else {
        return;
    };
    let depth: usize = depth.parse().unwrap();
    let remove = std::env::var_os("UTF8_TESTS_DEEP_REMOVE").is_some();
    std::env::set_current_dir(&dir).unwrap();
    for _ in 0..depth {
        if !remove {
            std::fs::create_dir("d").unwrap();
        }
        std::env::set_current_dir("d").unwrap();
    }
    if remove {
        std::fs::remove_file("f").unwrap();
        for _ in 0..depth {
            std::env::set_current_dir("..").unwrap();
            std::fs::remove_dir("d").unwrap();
        }
    } else {
        std::fs::write("f", "needle\n").unwrap();
    }
}

fn deep_tree_child(dir: &Path, depth: usize, remove: bool) {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "--ignored",
        "--exact",
        "pathological_deep_tree_child",
        "--test-threads=1",
    ])
    .env("UTF8_TESTS_DEEP_DIR", dir)
    .env("UTF8_TESTS_DEPTH", depth.to_string());
    if remove {
        cmd.env("UTF8_TESTS_DEEP_REMOVE", "1");
    }
    let out = cmd.output().unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("1 passed"),
        "the tree child failed: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
#[ignore = "release only: cargo test --release -p utf8-tests --test pathological -- --ignored"]
fn pathological_deep_tree() {
    let dir = tempdir();
    let d = dir.path();
    deep_tree_child(d, 10_000, false);
    let name = "grep -r 10,000 levels";
    let r = run(d, name, "utf8-grep", &["-rc", "needle", "d"], None);
    expect(name, &r, 0);
    if r.code == 0 {
        assert_eq!(
            r.stdout
                .split(|&b| b == b'\n')
                .filter(|l| l.ends_with(b":1"))
                .count(),
            1
        );
    }
    // A symlink loop under -R: reported, not followed forever.
    std::fs::create_dir(d.join("loop")).unwrap();
    std::fs::write(d.join("loop/f"), "needle\n").unwrap();
    std::os::unix::fs::symlink("..", d.join("loop/up")).unwrap();
    std::os::unix::fs::symlink(".", d.join("loop/self")).unwrap();
    let name = "grep -R a symlink loop";
    let r = run(d, name, "utf8-grep", &["-Rc", "needle", "loop"], None);
    assert!(r.code <= 2, "{name}: {}", r.stderr);
    deep_tree_child(d, 10_000, true);
    finish();
}

#[test]
#[ignore = "release only: cargo test --release -p utf8-tests --test pathological -- --ignored"]
fn pathological_one_huge_line() {
    let dir = tempdir();
    let d = dir.path();
    // 64 KiB without a newline, with errors and one needle: 256 MiB of it is one line
    // (`UTF8_PATHOLOGICAL_LINE_MIB=2048` for the issue's 2 GiB, by hand: minutes).
    let mut blk = Vec::new();
    while blk.len() < 64 * 1024 - 64 {
        blk.extend_from_slice("text テキスト \u{e9} ".as_bytes());
        blk.extend_from_slice(b"\xED\xA0\x80 \xFF ");
    }
    blk.extend_from_slice(b" needle ");
    blk.resize(64 * 1024, b' ');
    let mib: u64 = std::env::var("UTF8_PATHOLOGICAL_LINE_MIB")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(256);
    let total = mib * MIB;
    let named = |what: &str| format!("{what} on a {mib} MiB line");
    let long = Duration::from_secs(120);
    // The last field: the line is streamed, so the peak RSS stays far below its size.
    let cases: &[(&str, &[&str], i32, bool)] = &[
        ("grep -o", &["-o", "needle"], 0, true),
        ("grep -c", &["-c", "needle"], 0, true),
        ("grep -c -x", &["-c", "-x", "needle"], 1, true),
        ("grep -n", &["-n", "needle"], 0, false),
        ("grep -A 1", &["-A", "1", "needle"], 0, false),
        ("grep -i -o", &["-i", "-o", "NEEDLE"], 0, true),
        // Matches with no bound on their length: the automaton decides the line a piece at a
        // time (with -c, -l, -L, -q).
        ("grep -E -c [^a]*", &["-E", "-c", "[^a]*"], 0, true),
        (
            "grep -E -c n[^a]*le *$",
            &["-E", "-c", "n[^a]*le *$"],
            0,
            true,
        ),
        ("grep -E -c -x", &["-E", "-c", "-x", "[^a]*"], 1, true),
        // GNU grep 3.8: -L lists the file and exits 1 (no line selected).
        ("grep -E -L", &["-E", "-L", "q[^a]*z"], 1, true),
        // Prints matches with no bound on their length: holds the line.
        ("grep -E -o", &["-E", "-o", "ne+dle"], 0, false),
    ];
    for &(what, args, code, streamed) in cases {
        let name = &named(what);
        let r = run_for(d, name, "utf8-grep", args, Some((&blk, total)), long);
        expect(name, &r, code);
        if args.contains(&"-o") {
            assert!(r.stdout.starts_with(b"needle\n"), "{name}");
        }
        if streamed {
            assert!(r.peak_mib < 128, "{name}: peak {} MiB", r.peak_mib);
        }
    }
    let name = &named("count");
    let r = run_for(d, name, "utf8-count", &[], Some((&blk, total)), long);
    expect(name, &r, 0);
    let name = &named("count -L");
    let r = run_for(d, name, "utf8-count", &["-L"], Some((&blk, total)), long);
    expect(name, &r, 0);
    let name = &named("repair");
    let r = run_for(d, name, "utf8-repair", &["-q"], Some((&blk, total)), long);
    expect(name, &r, 0);
    let name = &named("repair --from utf-16le");
    let r = run_for(
        d,
        name,
        "utf8-repair",
        &["--from", "utf-16le"],
        Some((&blk, total)),
        long,
    );
    expect(name, &r, 0);
    finish();
}

#[test]
#[ignore = "release only: cargo test --release -p utf8-tests --test pathological -- --ignored"]
fn pathological_long_replacement() {
    let dir = tempdir();
    let d = dir.path();
    // 100,000 errors, each replaced by a 1,000-byte string: 100 MB out, streamed.
    std::fs::write(d.join("E"), b"\xFF".repeat(100_000)).unwrap();
    let rep = "r".repeat(1000);
    let name = "repair --replacement of 1,000 bytes, 100,000 errors";
    let r = run(
        d,
        name,
        "utf8-repair",
        &["-q", "--replacement", &rep, "E"],
        None,
    );
    expect(name, &r, 0);
    finish();
}

/// Fuzz finding (from_labels, issue 21): `ESC $` at the end of ISO-2022-JP input: the
/// malformed `ESC` lies in an earlier read than the decoder's report, and utf8-repair
/// subtracted past the start of its buffer (a panic with overflow checks, a slice out of
/// bounds without). Cheap: runs in the default test run.
#[test]
fn fuzz_from_labels_iso_2022_jp_escape_at_end() {
    let dir = tempdir();
    for (input, offset) in [
        (&b"\x1b$"[..], Some(0)),
        (b"ab\x1b$", Some(2)),
        (b"\x1b$B", None),
    ] {
        std::fs::write(dir.path().join("in"), input).unwrap();
        let out = Command::new(bin("utf8-repair"))
            .args(["--from", "iso-2022-jp", "--report=json", "in"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{input:?}: {err}");
        let want = encoding_rs::ISO_2022_JP.decode(input).0;
        assert_eq!(String::from_utf8_lossy(&out.stdout), want);
        match offset {
            Some(o) => assert!(
                err.contains(&format!("\"offset\": {o}, \"len\": 1")),
                "{err}"
            ),
            None => assert!(err.is_empty(), "{err}"),
        }
    }
}
