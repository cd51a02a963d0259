//! `cargo xtask fuzz [--seconds N] [--runs N] [--jobs N] [TARGET...]`: runs the cargo-fuzz
//! targets of `fuzz/`.
//!
//! Installs cargo-fuzz when it is missing (`cargo install cargo-fuzz --locked`), builds
//! every target once (nightly, ASan, `cargo fuzz build -O`, this program as rustc wrapper
//! so that only this repository's crates get coverage instrumentation: [`rustc_wrapper`]),
//! and once more without a sanitizer (`-s none`, into `sanitizer-none/` of the target
//! directory) when a target to run says `// sanitizer: none` ([`SANITIZER_NONE`]; `--asan`
//! runs every target with ASan),
//! then runs each target (or the ones named) for N seconds (default 60), or until it has
//! executed `--runs N` inputs (a campaign: `--runs 5000000` with no time limit unless
//! `--seconds` is given too), N targets at once with `--jobs N` (default 1). Each
//! run reads its corpus `fuzz/corpus/TARGET/` (kept between runs, not committed) and the
//! seeds committed in `fuzz/seeds/TARGET/` (plus, for the byte-level targets, the vectors of
//! `../shared/conformance`, skipped with a message when absent), with the libFuzzer flags
//! of the target's `// libfuzzer: -flag=value ...` line (its `-max_len`). At the end a
//! table, one line per target, `name executions exec_per_s` as plain integers (`?` when
//! libFuzzer printed no statistics). Exit status 1 when a target found something: the
//! reproducer is in `fuzz/artifacts/TARGET/`, the full log in `fuzz/logs/TARGET.log`.
//! CI does not run this.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Mutex;

/// The usage line for `cargo xtask help`.
pub const USAGE: &str = "  fuzz [--seconds N] [--runs N] [--jobs N] [--asan] [TARGET...]
                      run the cargo-fuzz targets of fuzz/ (nightly), N seconds each
                      (default 60) or N executions each, --jobs targets at once
                      (default 1), every one with ASan with --asan; prints
                      `name executions exec_per_s` per target; installs cargo-fuzz";

/// `cargo xtask fuzz`'s arguments.
#[derive(Debug, clap::Args)]
#[command(
    override_usage = "cargo xtask fuzz [--seconds N] [--runs N] [--jobs N] [--asan] [TARGET...]"
)]
pub struct Args {
    /// Seconds per target (default 60 without --runs, no limit with it).
    #[arg(long, value_name = "N", value_parser = crate::workspace::positive::<u64>)]
    seconds: Option<u64>,
    /// Executions per target (libFuzzer's -runs, counting the corpus it starts from).
    #[arg(long, value_name = "N", value_parser = crate::workspace::positive::<u64>)]
    runs: Option<u64>,
    /// How many targets run at once (one core each).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = crate::workspace::positive::<usize>)]
    jobs: usize,
    /// Every target with AddressSanitizer, those marked `// sanitizer: none` too.
    #[arg(long)]
    asan: bool,
    /// The targets to run (default: every target of fuzz/).
    #[arg(value_name = "TARGET")]
    targets: Vec<String>,
}

/// Runs the task: success when no target found anything, failure (1) when one did, 2 when
/// the fuzzing could not run.
pub fn run(args: &Args, root: &Path) -> ExitCode {
    match fuzz(root, args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xtask fuzz: {e}");
            ExitCode::from(2)
        }
    }
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// What one target gave.
struct Outcome {
    target: String,
    runs: Option<u64>,
    per_sec: Option<u64>,
    found: bool,
}

/// AddressSanitizer's settings unless `ASAN_OPTIONS` is set: no allocation stack traces
/// (a report still shows where the bad access happened) and a small quarantine, so that the
/// tools' 256 KiB read buffers are reused rather than mapped afresh on every run. The
/// targets that run a whole tool in-process go twice as fast. No fake stacks for
/// use-after-return (safe Rust cannot return a pointer to its stack; the kernels' `unsafe`
/// does not): another 35% on those targets.
const ASAN_OPTIONS: &str =
    "malloc_context_size=0:quarantine_size_mb=2:detect_stack_use_after_return=0";

/// The targets reading text rather than bytes, which get no byte-level conformance seeds.
const TEXT_TARGETS: [&str; 3] = ["glob_fnmatch", "from_labels", "files0_from"];

fn fuzz(root: &Path, args: &Args) -> Result<bool> {
    let dir = root.join("fuzz");
    let all = list_targets(&dir)?;
    for t in &args.targets {
        if !all.contains(t) {
            return Err(format!("no target {t}; targets: {}", all.join(", ")).into());
        }
    }
    let targets = if args.targets.is_empty() {
        all
    } else {
        args.targets.clone()
    };
    ensure_nightly()?;
    ensure_cargo_fuzz()?;
    // -O: debug assertions and overflow checks from fuzz/Cargo.toml's profile, every crate
    // but clap_builder (whose self-checks of the command definition cost a run of a tool
    // target a third of its time).
    println!("== cargo +nightly fuzz build -O");
    let mut build = Command::new("cargo");
    build
        .current_dir(&dir)
        .args(["+nightly", "fuzz", "build", "-O"])
        .env("RUSTC_WRAPPER", std::env::current_exe()?)
        .env(WRAPPER_ROOT, root.canonicalize()?);
    if let Some(next) = std::env::var_os("RUSTC_WRAPPER").filter(|w| !w.is_empty()) {
        build.env(WRAPPER_NEXT, next);
    }
    let status = build.status()?;
    if !status.success() {
        return Err(format!("cargo fuzz build failed: {status}").into());
    }
    let mut bare = Vec::new();
    for t in &targets {
        if !args.asan && sanitizer_none(&dir, t)? {
            bare.push(t.clone());
        }
    }
    if !bare.is_empty() {
        println!(
            "== cargo +nightly fuzz build -O -s none (for {})",
            bare.join(", ")
        );
        let into = fuzz_target_dir(&dir, std::env::var_os("CARGO_TARGET_DIR")).join(SANITIZER_NONE);
        build.args(["-s", "none", "--target-dir"]).arg(into);
        let status = build.status()?;
        if !status.success() {
            return Err(format!("cargo fuzz build -s none failed: {status}").into());
        }
    }
    let seeds = seeds(root);
    if seeds.is_empty() {
        eprintln!("xtask fuzz: ../shared/conformance is absent: only the committed seeds");
    }
    std::fs::create_dir_all(dir.join("logs"))?;
    for t in &targets {
        if !TEXT_TARGETS.contains(&t.as_str()) {
            seed_corpus(&dir.join("corpus").join(t), t, &seeds)?;
        } else {
            std::fs::create_dir_all(dir.join("corpus").join(t))?;
        }
    }
    // A pool of `jobs` threads taking targets in order.
    let queue = Mutex::new(targets.iter());
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..args.jobs.min(targets.len()) {
            s.spawn(|| {
                loop {
                    let Some(t) = queue.lock().expect("queue").next() else {
                        return;
                    };
                    let budget = match (args.seconds, args.runs) {
                        (Some(s), Some(r)) => format!("{s} s or {r} runs"),
                        (None, Some(r)) => format!("{r} runs"),
                        (s, None) => format!("{} s", s.unwrap_or(60)),
                    };
                    println!("== fuzz {t}: {budget}");
                    let r = run_target(&dir, t, args, bare.contains(t));
                    results.lock().expect("results").push((t.clone(), r));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("results");
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let mut table = String::from("\n");
    let mut ok = true;
    for (t, r) in results {
        let r = r.map_err(|e| format!("{t}: {e}"))?;
        let show = |n: Option<u64>| n.map_or("?".to_string(), |n| n.to_string());
        write!(table, "{} {} {}", r.target, show(r.runs), show(r.per_sec))?;
        if r.found {
            ok = false;
            write!(table, " FOUND: see fuzz/artifacts/{}/", r.target)?;
        }
        table.push('\n');
    }
    print!("{table}");
    Ok(ok)
}

/// Set, to the repository's canonical root, while `cargo fuzz build` runs this program as
/// its rustc wrapper (`RUSTC_WRAPPER`).
const WRAPPER_ROOT: &str = "UTF8_XTASK_FUZZ_ROOT";

/// The `RUSTC_WRAPPER` the user had set (sccache, ...), which the wrapper runs rustc with.
const WRAPPER_NEXT: &str = "UTF8_XTASK_FUZZ_NEXT_WRAPPER";

/// Turns SanitizerCoverage off for one crate: after cargo-fuzz's
/// `-Cllvm-args=-sanitizer-coverage-level=4`, so it wins (the last occurrence of an LLVM
/// option does). The crate keeps ASan; only its coverage counters, PC table and comparison
/// tracing go.
const NO_COVERAGE: &str = "-Cllvm-args=-sanitizer-coverage-level=0";

/// When this program runs as cargo's rustc wrapper for `cargo xtask fuzz` (`WRAPPER_ROOT`
/// set; the arguments are rustc's path and its arguments): runs rustc, with [`NO_COVERAGE`]
/// appended for a crate from outside the repository (cargo's `CARGO_MANIFEST_DIR` not
/// under the root: the registry's clap, regex-automata, aho-corasick, globset, encoding_rs,
/// serde_json, libfuzzer-sys, ...) and for the fuzz package itself (`fuzz/`: the targets and
/// their oracles, whose coverage says nothing about the code under test). Gives rustc's exit
/// status; `None` when not a wrapper.
///
/// libFuzzer collects the features of every instrumented crate after each run, and every
/// edge and comparison of an instrumented dependency costs a callback: with the
/// dependencies uninstrumented, the targets that parse a command line, compile patterns or
/// read JSON run 1.2 to 3.8 times as many inputs a second (glob_fnmatch 1,960 -> 7,360,
/// grep_patterns 710 -> 1,320, from_labels 2,650 -> 4,240; the codec's targets, which
/// call no dependency, the same), and their corpora still grow on this repository's code.
/// What is lost: guidance inside the dependencies (new paths in regex-automata's or
/// globset's compilers, encoding_rs's label table) that this repository's code does not
/// see. Leaving the fuzz package uninstrumented too (its oracles parse JSON and compare
/// strings byte by byte, each comparison a callback) took the 20 s rates, same corpora, of
/// grep_json from 1,052 to 1,583 exec/s, grep_patterns 1,109 -> 1,316, repair_report
/// 1,319 -> 1,660. Cargo-profile `rustflags` cannot do this: cargo puts them before `RUSTFLAGS`, and
/// cargo-fuzz's level 4 would win.
pub fn rustc_wrapper() -> Option<ExitCode> {
    let root = std::env::var_os(WRAPPER_ROOT)?;
    let mut args = std::env::args_os().skip(1);
    let rustc = args.next()?;
    let mut cmd = match std::env::var_os(WRAPPER_NEXT) {
        Some(next) => {
            let mut c = Command::new(next);
            c.arg(rustc);
            c
        }
        None => Command::new(rustc),
    };
    cmd.args(args);
    let root = Path::new(&root);
    let ours = std::env::var_os("CARGO_MANIFEST_DIR").is_none_or(|d| {
        Path::new(&d)
            .canonicalize()
            .is_ok_and(|d| d.starts_with(root) && !d.starts_with(root.join("fuzz")))
    });
    if !ours {
        cmd.arg(NO_COVERAGE);
    }
    Some(match cmd.status() {
        Ok(s) => ExitCode::from(s.code().and_then(|c| u8::try_from(c).ok()).unwrap_or(1)),
        Err(e) => {
            eprintln!("xtask fuzz: rustc wrapper: {e}");
            ExitCode::from(2)
        }
    })
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

/// The folder of the target directory where the targets built without a sanitizer go.
///
/// A target whose source has the line `// sanitizer: none` runs from there: one whose code
/// under test is safe Rust (parsing command lines, compiling patterns, printing), where
/// AddressSanitizer finds nothing the language does not already forbid, while its
/// allocator (every allocation padded, poisoned and quarantined; the regex and
/// Aho-Corasick compilers allocate on every run) takes most of each run's time. The
/// codec's `unsafe` kernels, which those targets reach too, are fuzzed under ASan by the
/// codec's own targets on arbitrary bytes. Debug assertions and overflow checks stay on
/// (fuzz/Cargo.toml's profile).
const SANITIZER_NONE: &str = "sanitizer-none";

/// Whether a target's source has a line `// sanitizer: none` (a reason may follow).
fn sanitizer_none(dir: &Path, target: &str) -> Result<bool> {
    let src = std::fs::read_to_string(dir.join("fuzz_targets").join(format!("{target}.rs")))?;
    Ok(src.lines().any(|l| {
        l.strip_prefix("// sanitizer:")
            .is_some_and(|v| v.split_whitespace().next() == Some("none"))
    }))
}

/// The flags of a target's `// libfuzzer: ...` line.
fn target_flags(dir: &Path, target: &str) -> Result<Vec<String>> {
    let src = std::fs::read_to_string(dir.join("fuzz_targets").join(format!("{target}.rs")))?;
    Ok(src
        .lines()
        .filter_map(|l| l.strip_prefix("// libfuzzer:"))
        .flat_map(|l| l.split_whitespace().map(str::to_string))
        .collect())
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

/// Seed inputs from `../shared/conformance`: each vector's input bytes and hex text, and
/// the lines of Markus Kuhn's stress test (the whole file is 20 KiB: too long for the
/// targets' `-max_len`).
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
    }
    out
}

/// Writes the seeds into `corpus` (the hex texts only for the hex parser, which is the only
/// byte-level target that reads text; the raw bytes for every other).
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

/// Runs one built target; its output goes to `fuzz/logs/TARGET.log`, findings and the final
/// statistics to the terminal too.
/// Where `cargo fuzz build`, run in `dir`, puts its targets: `CARGO_TARGET_DIR` when it is
/// set (relative to `dir`, as cargo reads it), else `dir/target`.
fn fuzz_target_dir(dir: &Path, env: Option<std::ffi::OsString>) -> PathBuf {
    match env.filter(|v| !v.is_empty()) {
        Some(v) => dir.join(v),
        None => dir.join("target"),
    }
}

fn run_target(dir: &Path, target: &str, args: &Args, bare: bool) -> Result<Outcome> {
    let mut bin: PathBuf = fuzz_target_dir(dir, std::env::var_os("CARGO_TARGET_DIR"));
    if bare {
        bin.push(SANITIZER_NONE);
    }
    let bin = bin.join(host_triple()?).join("release").join(target);
    let log_path = dir.join("logs").join(format!("{target}.log"));
    let mut log = std::fs::File::create(&log_path)?;
    let artifacts = dir.join("artifacts").join(target);
    std::fs::create_dir_all(&artifacts)?;
    let mut cmd = Command::new(&bin);
    if std::env::var_os("ASAN_OPTIONS").is_none() {
        cmd.env("ASAN_OPTIONS", ASAN_OPTIONS);
    }
    cmd.current_dir(dir)
        .arg(dir.join("corpus").join(target))
        .args(target_flags(dir, target)?)
        .arg(format!(
            "-max_total_time={}",
            args.seconds
                .unwrap_or(if args.runs.is_some() { 0 } else { 60 })
        ))
        .arg(format!(
            "-runs={}",
            args.runs.map_or("-1".to_string(), |r| r.to_string())
        ))
        .arg("-print_final_stats=1")
        .arg(format!("-artifact_prefix={}/", artifacts.display()));
    let seeds = dir.join("seeds").join(target);
    if seeds.is_dir() {
        cmd.arg(seeds);
    }
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let echo = std::thread::spawn(move || {
        BufReader::new(stdout)
            .lines()
            .map_while(|l| l.ok())
            .collect::<Vec<_>>()
    });
    let (mut runs, mut per_sec) = (None, None);
    let stderr = child.stderr.take().ok_or("no stderr")?;
    for line in BufReader::new(stderr).lines().map_while(|l| l.ok()) {
        writeln!(log, "{line}")?;
        let stat = |name: &str| line.strip_prefix(name).and_then(|n| n.trim().parse().ok());
        runs = runs.or(stat("stat::number_of_executed_units:"));
        per_sec = per_sec.or(stat("stat::average_exec_per_sec:"));
        let loud = ["ERROR", "panicked", "SUMMARY", "artifact", "stat::"];
        if loud.iter().any(|w| line.contains(w)) {
            eprintln!("{target}: {line}");
        }
    }
    for line in echo.join().unwrap_or_default() {
        writeln!(log, "{line}")?;
    }
    let status = child.wait()?;
    Ok(Outcome {
        target: target.to_string(),
        runs,
        per_sec,
        found: !status.success(),
    })
}

/// The host's target triple, where cargo-fuzz puts its builds.
fn host_triple() -> Result<String> {
    let out = Command::new("rustc")
        .args(["+nightly", "-vV"])
        .stderr(Stdio::inherit())
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| "rustc -vV printed no host".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_found_where_cargo_built_them() {
        let dir = Path::new("/repo/fuzz");
        assert_eq!(fuzz_target_dir(dir, None), Path::new("/repo/fuzz/target"));
        assert_eq!(
            fuzz_target_dir(dir, Some("".into())),
            Path::new("/repo/fuzz/target")
        );
        assert_eq!(
            fuzz_target_dir(dir, Some("/tmp/t".into())),
            Path::new("/tmp/t")
        );
        assert_eq!(
            fuzz_target_dir(dir, Some("out".into())),
            Path::new("/repo/fuzz/out")
        );
    }
}
