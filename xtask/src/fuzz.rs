//! `cargo xtask fuzz [--seconds N] [TARGET...]`: runs the cargo-fuzz targets of `fuzz/`.
//!
//! Installs cargo-fuzz when it is missing (`cargo install cargo-fuzz --locked`), seeds each
//! target's corpus from `../shared/conformance` (skipped with a message when absent), runs
//! every target (or the ones named) with the nightly toolchain for N seconds each (default
//! 60), and prints the executions per target. Exit status 1 when a target found something:
//! the reproducer is in `fuzz/artifacts/TARGET/`, the full log in `fuzz/logs/TARGET.log`.
//! CI does not run this.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

/// The usage line for `cargo xtask help`.
pub const USAGE: &str = "  fuzz [--seconds N] [TARGET...]
                      run the cargo-fuzz targets of fuzz/ (nightly), N seconds each
                      (default 60); installs cargo-fuzz when missing";

/// `cargo xtask fuzz`'s arguments.
#[derive(Debug, clap::Args)]
#[command(override_usage = "cargo xtask fuzz [--seconds N] [TARGET...]")]
pub struct Args {
    /// Seconds per target.
    #[arg(long, value_name = "N", default_value_t = 60,
          value_parser = crate::workspace::positive::<u64>)]
    seconds: u64,
    /// The targets to run (default: every target of fuzz/).
    #[arg(value_name = "TARGET")]
    targets: Vec<String>,
}

/// Runs the task: success when no target found anything, failure (1) when one did, 2 when
/// the fuzzing could not run.
pub fn run(args: &Args, root: &Path) -> ExitCode {
    match fuzz(root, args.seconds, &args.targets) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xtask fuzz: {e}");
            ExitCode::from(2)
        }
    }
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// What one target gave.
struct Outcome {
    target: String,
    runs: Option<u64>,
    per_sec: Option<u64>,
    /// libFuzzer's slowest input, in seconds: a harness or a function that is not linear.
    slowest: Option<u64>,
    found: bool,
}

fn fuzz(root: &Path, seconds: u64, wanted: &[String]) -> Result<bool> {
    let dir = root.join("fuzz");
    let all = list_targets(&dir)?;
    for t in wanted {
        if !all.contains(t) {
            return Err(format!("no target {t}; targets: {}", all.join(", ")).into());
        }
    }
    let targets = if wanted.is_empty() {
        all
    } else {
        wanted.to_vec()
    };
    ensure_nightly()?;
    ensure_cargo_fuzz()?;
    let seeds = seeds(root);
    if seeds.is_empty() {
        eprintln!("xtask fuzz: ../shared/conformance is absent: corpora start empty");
    }
    std::fs::create_dir_all(dir.join("logs"))?;
    let mut results = Vec::new();
    for t in &targets {
        seed_corpus(&dir.join("corpus").join(t), t, &seeds)?;
        println!("== fuzz {t}: {seconds} s");
        results.push(run_target(root, &dir, t, seconds)?);
    }
    let mut table = String::from("\n");
    writeln!(
        table,
        "{:<20} {:>11} {:>7} {:>8}  result",
        "target", "executions", "exec/s", "slowest"
    )?;
    let show = |n: Option<u64>| n.map_or("?".to_string(), |n| n.to_string());
    for r in &results {
        let result = if r.found {
            format!("FOUND: see fuzz/artifacts/{}/", r.target)
        } else if r.slowest.is_some_and(|s| s >= 10) {
            format!("ok (slow unit: see fuzz/artifacts/{}/)", r.target)
        } else {
            "ok".to_string()
        };
        writeln!(
            table,
            "{:<20} {:>11} {:>7} {:>6} s  {result}",
            r.target,
            show(r.runs),
            show(r.per_sec),
            show(r.slowest)
        )?;
    }
    println!("{table}");
    Ok(results.iter().all(|r| !r.found))
}

/// The target names: the files of `fuzz/fuzz_targets/`, sorted.
fn list_targets(dir: &Path) -> Result<Vec<String>> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("fuzz_targets"))?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".rs").map(str::to_string)
        })
        .collect();
    names.sort();
    Ok(names)
}

fn ensure_nightly() -> Result<()> {
    let ok = Command::new("cargo")
        .args(["+nightly", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        Ok(())
    } else {
        Err("cargo-fuzz needs a nightly toolchain: rustup toolchain install nightly".into())
    }
}

fn ensure_cargo_fuzz() -> Result<()> {
    let have = Command::new("cargo")
        .args(["fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if have {
        return Ok(());
    }
    println!("== cargo install cargo-fuzz --locked");
    let status = Command::new("cargo")
        .args(["install", "cargo-fuzz", "--locked"])
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cargo install cargo-fuzz failed: {status}").into())
    }
}

/// Seed inputs from `../shared/conformance`: each vector's input bytes and hex text, the
/// lines of Markus Kuhn's stress test, and the whole file.
fn seeds(root: &Path) -> Vec<(String, Vec<u8>)> {
    let dir = root.join("../shared/conformance");
    let mut out = Vec::new();
    if let Ok(text) = std::fs::read_to_string(dir.join("vectors.tsv")) {
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
        let col = |n: &str| header.iter().position(|h| *h == n);
        if let (Some(id), Some(hex)) = (col("id"), col("input_hex")) {
            for line in lines {
                let f: Vec<&str> = line.split('\t').collect();
                let (Some(name), Some(h)) = (f.get(id), f.get(hex)) else {
                    continue;
                };
                let bytes: Option<Vec<u8>> = h
                    .split_whitespace()
                    .map(|t| u8::from_str_radix(t, 16).ok())
                    .collect();
                if let Some(bytes) = bytes {
                    out.push((format!("vec-{name}"), bytes));
                    out.push((format!("hex-{name}"), h.as_bytes().to_vec()));
                }
            }
        }
    }
    if let Ok(kuhn) = std::fs::read(dir.join("UTF-8-test.txt")) {
        for (i, line) in kuhn.split(|&b| b == b'\n').enumerate() {
            if !line.is_empty() {
                out.push((format!("kuhn-{i:03}"), line.to_vec()));
            }
        }
        out.push(("kuhn-all".to_string(), kuhn));
    }
    out
}

/// Writes the seeds into `corpus` (the hex texts only for the hex parser, which is the only
/// target that reads text; the raw bytes for every other).
fn seed_corpus(corpus: &Path, target: &str, seeds: &[(String, Vec<u8>)]) -> Result<()> {
    std::fs::create_dir_all(corpus)?;
    for (name, bytes) in seeds {
        let hex = name.starts_with("hex-");
        if hex != (target == "hex_parser") && !name.starts_with("kuhn-") {
            continue;
        }
        let path = corpus.join(format!("seed-{name}"));
        if !path.exists() {
            std::fs::write(path, bytes)?;
        }
    }
    Ok(())
}

/// Runs one target; its stderr goes to `fuzz/logs/TARGET.log`, the interesting lines to the
/// terminal.
fn run_target(root: &Path, dir: &Path, target: &str, seconds: u64) -> Result<Outcome> {
    let log_path: PathBuf = dir.join("logs").join(format!("{target}.log"));
    let mut log = std::fs::File::create(&log_path)?;
    let mut child = Command::new("cargo")
        .current_dir(root)
        .args(["+nightly", "fuzz", "run", target, "--"])
        .arg(format!("-max_total_time={seconds}"))
        .arg("-print_final_stats=1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let echo = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(|l| l.ok()) {
            println!("{line}");
        }
    });
    let (mut runs, mut per_sec, mut slowest) = (None, None, None);
    let stderr = child.stderr.take().ok_or("no stderr")?;
    for line in BufReader::new(stderr).lines().map_while(|l| l.ok()) {
        writeln!(log, "{line}")?;
        let stat = |name: &str| line.strip_prefix(name).and_then(|n| n.trim().parse().ok());
        runs = runs.or(stat("stat::number_of_executed_units:"));
        per_sec = per_sec.or(stat("stat::average_exec_per_sec:"));
        slowest = slowest.or(stat("stat::slowest_unit_time_sec:"));
        let loud = [
            "Done ", "ERROR", "panicked", "SUMMARY", "artifact", "stat::", "error",
        ];
        if loud.iter().any(|w| line.contains(w)) {
            eprintln!("{line}");
        }
    }
    let _ = echo.join();
    let status = child.wait()?;
    Ok(Outcome {
        target: target.to_string(),
        runs,
        per_sec,
        slowest,
        found: !status.success(),
    })
}
