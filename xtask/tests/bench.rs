//! `cargo xtask bench`'s command line and its `__measure` helper; the timing itself is not
//! tested (it takes minutes and asserts nothing about speed). The pure parts (corpus
//! generator, median, BENCHMARKS.md section replacement) are unit tests in `src/bench.rs`.

use std::process::Command;

fn xtask() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
}

#[test]
fn help_mentions_bench() {
    let out = xtask().arg("help").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("bench [--mib N] [--runs N] [--only NAME,...] [--no-write]"),
        "{text}"
    );
}

#[test]
fn bad_options_exit_2_before_building_anything() {
    for args in [
        &["bench", "--bogus"][..],
        &["bench", "--only", "nothing"],
        &["bench", "--mib", "x"],
    ] {
        let out = xtask().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("usage: cargo xtask bench"));
    }
}

#[test]
fn measure_reports_exit_code_time_and_peak_rss() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report");
    let status = xtask()
        .arg("__measure")
        .arg(&report)
        .args(["sh", "-c", "exit 3"])
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&report).unwrap();
    let f: Vec<u64> = text
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(f.len(), 3, "{text}");
    assert_eq!(f[0], 3, "exit code");
    assert!(f[1] > 0, "nanoseconds");
    assert!(f[2] > 0 && f[2] < 1 << 20, "peak KiB: {}", f[2]);

    let missing = xtask()
        .arg("__measure")
        .arg(&report)
        .arg("/nonexistent/program")
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(125));
}
