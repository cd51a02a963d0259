//! The comparisons `cargo xtask bench` runs: per comparison, our command and its peers, the
//! target, and the checks of their outputs against each other and the generator's counts.

use std::ffi::OsStr;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::bench::corpus::{Corpora, NEEDLE_ASCII, NEEDLE_CJK, warm};
use crate::bench::options::Options;
use crate::bench::runner::{Cmd, Sink, Timed, file_or_arg, time_named};
use crate::tool;
use crate::workspace::Result;

/// How a target compares two medians.
#[derive(Debug, Clone, Copy)]
pub enum Goal {
    /// ours ≤ factor × peer (time).
    AtMost(f64),
    /// peer ≥ factor × ours (time): ours is `factor` times faster.
    Faster(f64),
}

/// A comparison's target: `ours` against `peer`.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// The label of our command.
    pub ours: &'static str,
    /// The label of the peer's.
    pub peer: &'static str,
    /// A second peer the same goal holds against.
    pub also: Option<&'static str>,
    /// What the ratio of their medians must be.
    pub goal: Goal,
    /// More peers, each with its own goal.
    pub more: &'static [(&'static str, Goal)],
    /// The target in words.
    pub text: &'static str,
}

/// A finished comparison.
pub struct Outcome {
    /// The table's title.
    pub title: String,
    /// The input file's name.
    pub input: String,
    /// The label of the command the ratios are against.
    pub baseline: &'static str,
    /// One row per command.
    pub rows: Vec<Timed>,
    /// Why commands are missing.
    pub skipped: Vec<String>,
    /// The target, if the comparison has one.
    pub target: Option<Target>,
    /// Notes under the table.
    pub notes: Vec<String>,
}

/// Everything a run needs to know about the binaries and peers.
pub struct Tools {
    bin_dir: PathBuf,
    /// Peers found: (name, path).
    pub peers: Vec<(&'static str, PathBuf)>,
    /// Peers not found.
    pub missing: Vec<&'static str>,
}

impl Tools {
    /// The path of our binary `name`.
    pub fn ours(&self, name: &str) -> PathBuf {
        self.bin_dir.join(name)
    }

    /// The path of peer `name`, if installed.
    pub fn peer(&self, name: &str) -> Option<&Path> {
        self.peers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, p)| p.as_path())
    }
}

const PEERS: [&str; 6] = ["wc", "rg", "grep", "uconv", "iconv", "python3"];

/// Our binaries (built into the `release-lto` directory) and the peers on `PATH`.
pub fn find_tools(root: &Path) -> Tools {
    let bin_dir = tool::bin_dir(root, None);
    let mut peers = Vec::new();
    let mut missing = Vec::new();
    for name in PEERS {
        let found = if name == "python3" {
            // The interpreter itself, not a pyenv or asdf shim script in front of it.
            Command::new("python3")
                .args(["-c", "import sys; print(sys.executable)"])
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
                .filter(|p| p.is_file())
        } else {
            which::which(name).ok()
        };
        match found {
            Some(p) => peers.push((name, p)),
            None => missing.push(name),
        }
    }
    Tools {
        bin_dir,
        peers,
        missing,
    }
}

/// The first number of a command's output.
fn first_number(out: &[u8]) -> Option<u64> {
    String::from_utf8_lossy(out)
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn check(ok: bool, what: impl FnOnce() -> String) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(format!("outputs disagree: {}", what()).into())
    }
}

/// The row of the command labelled `label`.
pub fn row<'a>(rows: &'a [Timed], label: &str) -> Option<&'a Timed> {
    rows.iter().find(|t| t.cmd.label == label)
}

/// Each comparison's target. Its peer is also the baseline of the table's ratios.
#[rustfmt::skip]
const TARGETS: [(&str, Target); 10] = [
    ("count", Target { ours: "utf8-count -l -m -c -e", peer: "wc -l", also: None, goal: Goal::AtMost(0.6), more: &[], text: "`utf8-count -l -m -c -e` at most 0.6× the time of `wc -l` (default threads)" }),
    ("count-one", Target { ours: "utf8-count --threads 1 -l -m -c -e", peer: "wc -l", also: None, goal: Goal::AtMost(1.0), more: &[], text: "`utf8-count --threads 1 -l -m -c -e` at most the time of `wc -l`" }),
    ("words", Target { ours: "utf8-count -w", peer: "wc -w", also: None, goal: Goal::Faster(10.0), more: &[], text: "`utf8-count -w` at least 10× faster than `wc -w`" }),
    ("words-seps", Target { ours: "utf8-count -w", peer: "wc -w", also: None, goal: Goal::Faster(10.0), more: &[], text: "`utf8-count -w` at least 10× faster than `wc -w` with non-ASCII separators" }),
    ("words-cost", Target { ours: "utf8-count --threads 1", peer: "utf8-count --threads 1 -l -m -c -e", also: None, goal: Goal::AtMost(2.0), more: &[], text: "the default columns (words included) at most 2× `-l -m -c -e`, one thread" }),
    ("threads", Target { ours: "utf8-count --threads 2 -l -m -c -e", peer: "utf8-count --threads 1 -l -m -c -e", also: None, goal: Goal::Faster(1.6), more: &[], text: "`-l -m -c -e --threads 2` at least 1.6× faster than `--threads 1`" }),
    ("threads-ceiling", Target { ours: "utf8-count --threads 2 -l -m -c -e", peer: MEMBW, also: None, goal: Goal::AtMost(1.15), more: &[], text: "`-l -m -c -e --threads 2` within 1.15× the time a plain read of every byte of the mapped file takes on 2 threads" }),
    ("grep-ascii", Target { ours: "utf8-grep -c", peer: "rg -F -c", also: Some("grep -F -c"), goal: Goal::AtMost(1.0), more: &[], text: "utf8-grep -c no slower than `rg -F -c` and `grep -F -c`" }),
    ("grep-cjk", Target { ours: "utf8-grep -c", peer: "rg -F -c", also: Some("grep -F -c"), goal: Goal::AtMost(1.0), more: &[], text: "utf8-grep -c no slower than `rg -F -c` and `grep -F -c`" }),
    ("repair", Target { ours: "utf8-repair", peer: "uconv --callback substitute", also: None, goal: Goal::Faster(5.0), more: &[], text: "utf8-repair at least 5× faster than uconv" }),
];

/// The label of the memory-read ceiling's row: `xtask/c/membw.c` reading every byte of the
/// mapped file on 2 threads, each its own contiguous part, page faults included.
const MEMBW: &str = "membw (read every byte, 2 threads)";

/// Builds `xtask/c/membw.c` with the C compiler into `dir` (x86-64 only: it reads in AVX2
/// vectors); the reason when it cannot.
fn build_membw(dir: &Path) -> std::result::Result<PathBuf, String> {
    if !cfg!(target_arch = "x86_64") {
        return Err("membw reads with AVX2: x86-64 only".to_owned());
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("c/membw.c");
    let out = dir.join("membw");
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let status = Command::new(&cc)
        .args(["-O2", "-mavx2", "-pthread"])
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .status()
        .map_err(|e| format!("{}: {e}", cc.to_string_lossy()))?;
    if status.success() {
        Ok(out)
    } else {
        Err(format!(
            "{} {}: {status}",
            cc.to_string_lossy(),
            src.display()
        ))
    }
}

/// CPython's repair: decode with `errors='replace'` and encode back.
const PYTHON_REPAIR: &str = "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode('utf-8','replace').encode())";

/// The commands of one comparison, and the peers it skips.
struct Plan<'a> {
    tools: &'a Tools,
    cmds: Vec<Cmd>,
    skipped: Vec<String>,
}

impl Plan<'_> {
    /// Adds the commands `make` builds from peer `name`'s path, or says it is not installed.
    fn peer(&mut self, name: &str, make: impl FnOnce(&Path) -> Vec<Cmd>) {
        match self.tools.peer(name) {
            Some(p) => self.cmds.extend(make(p)),
            None => self
                .skipped
                .push(format!("`{name}`: not installed, skipped")),
        }
    }
}

/// Runs the comparison `name` (one of the options' comparisons): builds its commands, warms
/// its input, times them and checks their outputs.
///
/// # Errors
///
/// When a command fails or the outputs disagree.
pub fn run_comparison(
    name: &'static str,
    tools: &Tools,
    c: &Corpora,
    opts: &Options,
    dir: &Path,
) -> Result<Outcome> {
    let mut plan = Plan {
        tools,
        cmds: Vec::new(),
        skipped: Vec::new(),
    };
    let mut notes = Vec::new();
    let count = tools.ours("utf8-count");
    let threads = |n: &str, f: &PathBuf| {
        Cmd::new(
            &format!("utf8-count --threads {n}"),
            &count,
            "utf8-count",
            &[&"--threads", &n, f],
        )
    };
    let (title, input) = match name {
        "count" | "count-one" => {
            let f = &c.mixed.path;
            let lmce: [&dyn AsRef<OsStr>; 4] = [&"-l", &"-m", &"-c", &"-e"];
            plan.cmds.push(Cmd::new(
                "utf8-count -l -m -c -e",
                &count,
                "utf8-count",
                &[&lmce[..], &[f]].concat(),
            ));
            plan.cmds.push(Cmd::new(
                "utf8-count --threads 1 -l -m -c -e",
                &count,
                "utf8-count",
                &[&[&"--threads" as &dyn AsRef<OsStr>, &"1"], &lmce[..], &[f]].concat(),
            ));
            plan.cmds
                .push(Cmd::new("utf8-count", &count, "utf8-count", &[f]));
            plan.peer("wc", |wc| {
                vec![
                    Cmd::new("wc -l", wc, "wc", &[&"-l", f]),
                    Cmd::new("wc -m", wc, "wc", &[&"-m", f]),
                ]
            });
            if opts.mib < 32 {
                notes.push(
                    "below 32 MiB utf8-count uses one thread by default, so its two rows are the same work".to_owned(),
                );
            }
            (
                if name == "count" {
                    "utf8-count vs wc".to_owned()
                } else {
                    "utf8-count on one thread vs wc".to_owned()
                },
                f,
            )
        }
        "words" | "words-seps" => {
            let (f, title) = if name == "words" {
                (&c.mixed.path, "utf8-count -w vs wc -w")
            } else {
                (
                    &c.separated.path,
                    "utf8-count -w vs wc -w, words between non-ASCII separators",
                )
            };
            plan.cmds
                .push(Cmd::new("utf8-count -w", &count, "utf8-count", &[&"-w", f]));
            plan.cmds.push(Cmd::new(
                "utf8-count -w --threads 1",
                &count,
                "utf8-count",
                &[&"-w", &"--threads", &"1", f],
            ));
            // The runner sets LC_ALL=C.UTF-8: wc counts words of a UTF-8 locale.
            plan.peer("wc", |wc| vec![Cmd::new("wc -w", wc, "wc", &[&"-w", f])]);
            (title.to_owned(), f)
        }
        "words-cost" => {
            let f = &c.mixed.path;
            plan.cmds.push(threads("1", f));
            plan.cmds.push(Cmd::new(
                "utf8-count --threads 1 -l -m -c -e",
                &count,
                "utf8-count",
                &[&"--threads", &"1", &"-l", &"-m", &"-c", &"-e", f],
            ));
            (
                "utf8-count: the default columns vs -l -m -c -e".to_owned(),
                f,
            )
        }
        "threads" => {
            let f = &c.big.path;
            for n in ["2", "1"] {
                plan.cmds.push(Cmd::new(
                    &format!("utf8-count --threads {n} -l -m -c -e"),
                    &count,
                    "utf8-count",
                    &[&"--threads", &n, &"-l", &"-m", &"-c", &"-e", f],
                ));
            }
            (
                "utf8-count -l -m -c -e --threads 2 vs --threads 1".to_owned(),
                f,
            )
        }
        "threads-ceiling" => {
            let f = &c.big.path;
            plan.cmds.push(Cmd::new(
                "utf8-count --threads 2 -l -m -c -e",
                &count,
                "utf8-count",
                &[&"--threads", &"2", &"-l", &"-m", &"-c", &"-e", f],
            ));
            match build_membw(dir) {
                Ok(membw) => plan
                    .cmds
                    .push(Cmd::new(MEMBW, &membw, "membw", &[f, &"2", &"0"])),
                Err(why) => plan.skipped.push(format!("`membw`: {why}, skipped")),
            }
            (
                "utf8-count -l -m -c -e --threads 2 vs reading the mapped file on 2 threads"
                    .to_owned(),
                f,
            )
        }
        "grep-ascii" | "grep-cjk" => {
            let f = &c.mixed.path;
            let needle = if name == "grep-ascii" {
                NEEDLE_ASCII
            } else {
                NEEDLE_CJK
            };
            let grep = tools.ours("utf8-grep");
            plan.cmds.push(Cmd::new(
                "utf8-grep -c",
                &grep,
                "utf8-grep",
                &[&"-c", &needle, f],
            ));
            for (peer, label) in [("rg", "rg -F -c"), ("grep", "grep -F -c")] {
                plan.peer(peer, |p| {
                    vec![Cmd::new(label, p, peer, &[&"-F", &"-c", &needle, f])]
                });
            }
            (format!("utf8-grep -c {needle} vs ripgrep and GNU grep"), f)
        }
        "repair" => {
            let f = &c.sparse.path;
            let out = |who: &str| Sink::File(dir.join(format!("out.{who}")));
            let mut ours = Cmd::new(
                "utf8-repair",
                &tools.ours("utf8-repair"),
                "utf8-repair",
                &[f],
            );
            ours.stdout = out("utf8-repair");
            plan.cmds.push(ours);
            let from_stdin = |label: &str, p: &Path, shown: &str, args: &[&dyn AsRef<OsStr>]| {
                let mut cmd = Cmd::new(label, p, shown, args);
                cmd.stdin = Some(f.clone());
                cmd.stdout = out(shown);
                cmd
            };
            let utf8 = [&"-f" as &dyn AsRef<OsStr>, &"utf-8", &"-t", &"utf-8"];
            plan.peer("uconv", |p| {
                let args = [&utf8[..], &[&"--callback", &"substitute"]].concat();
                vec![from_stdin("uconv --callback substitute", p, "uconv", &args)]
            });
            plan.peer("python3", |p| {
                let args: [&dyn AsRef<OsStr>; 2] = [&"-c", &PYTHON_REPAIR];
                vec![from_stdin(
                    "python3 decode('utf-8','replace')",
                    p,
                    "python3",
                    &args,
                )]
            });
            plan.peer("iconv", |p| {
                let mut cmd = from_stdin(
                    "iconv -c",
                    p,
                    "iconv",
                    &[&[&"-c" as &dyn AsRef<OsStr>], &utf8[..]].concat(),
                );
                // glibc's iconv -c exits 1 when it dropped input, in some versions.
                cmd.ok = &[0, 1];
                vec![cmd]
            });
            notes.extend([
                "utf8-repair writes to standard output like its peers: `-o FILE` would add an fsync and a rename",
                "iconv -c drops invalid input instead of replacing it (and glibc's passes `F4 90 80 80`, above U+10FFFF, through), so its output is not compared",
            ].map(str::to_owned));
            ("utf8-repair vs uconv, iconv and CPython".to_owned(), f)
        }
        _ => unreachable!("unknown comparison {name}"),
    };
    warm(input)?;
    let rows = time_named(name, &plan.cmds, opts.runs, dir)?;
    verify(name, &rows, c)?;
    let (_, target) = TARGETS
        .into_iter()
        .find(|(n, _)| *n == name)
        .expect("every comparison has a target");
    Ok(Outcome {
        title,
        input: file_name(input),
        baseline: target.peer,
        rows,
        skipped: plan.skipped,
        target: Some(target),
        notes,
    })
}

fn file_name(p: &Path) -> String {
    file_or_arg(p.as_os_str())
}

/// The outputs agree with each other and with the generator's counts.
fn verify(name: &str, rows: &[Timed], c: &Corpora) -> Result<()> {
    let text = |t: &Timed| String::from_utf8_lossy(&t.stdout).trim().to_owned();
    match name {
        "words" | "words-seps" => {
            let first = rows.first().map(|t| first_number(&t.stdout));
            for t in rows {
                check(first_number(&t.stdout) == first.flatten(), || {
                    format!(
                        "{} printed {:?}, {} printed {:?}",
                        rows[0].cmd.display(),
                        text(&rows[0]),
                        t.cmd.display(),
                        text(t)
                    )
                })?;
            }
        }
        "count" | "count-one" | "threads" | "threads-ceiling" | "words-cost" => {
            let st = if !name.starts_with("threads") {
                c.mixed.stats
            } else {
                c.big.stats
            };
            for t in rows
                .iter()
                .filter(|t| t.cmd.label.starts_with("utf8-count"))
            {
                let out = text(t);
                let mut nums: Vec<u64> = out
                    .split_whitespace()
                    .filter_map(|w| w.parse().ok())
                    .collect();
                if !t.cmd.label.ends_with("-e") && nums.len() > 1 {
                    // The default columns: lines, words, chars, bytes, errors.
                    nums.remove(1);
                }
                check(
                    nums.get(..4) == Some(&[st.lines, st.chars, st.bytes, 0][..]),
                    || {
                        format!(
                            "{} printed {out:?}; the generator wrote {} lines, {} chars, {} bytes, 0 errors",
                            t.cmd.display(),
                            st.lines,
                            st.chars,
                            st.bytes
                        )
                    },
                )?;
            }
            for (label, want) in [("wc -l", st.lines), ("wc -m", st.chars)] {
                if let Some(t) = row(rows, label) {
                    check(first_number(&t.stdout) == Some(want), || {
                        format!("{} printed {:?}, want {want}", t.cmd.display(), text(t))
                    })?;
                }
            }
        }
        "grep-ascii" | "grep-cjk" => {
            let want = if name == "grep-ascii" {
                c.mixed.stats.needle_ascii_lines
            } else {
                c.mixed.stats.needle_cjk_lines
            };
            for t in rows {
                check(first_number(&t.stdout) == Some(want), || {
                    format!(
                        "{} printed {:?}, the generator wrote {want} matching lines",
                        t.cmd.display(),
                        text(t)
                    )
                })?;
            }
        }
        "repair" => {
            let file = |t: &Timed| match &t.cmd.stdout {
                Sink::File(p) => p.clone(),
                Sink::Pipe => unreachable!("repair writes files"),
            };
            let ours = file(&rows[0]);
            let want = c.sparse.stats.repaired_bytes();
            let len = std::fs::metadata(&ours)?.len();
            check(len == want, || {
                format!("{} wrote {len} bytes, want {want}", rows[0].cmd.display())
            })?;
            for t in rows
                .iter()
                .skip(1)
                .filter(|t| !t.cmd.label.starts_with("iconv"))
            {
                check(same_contents(&ours, &file(t))?, || {
                    format!(
                        "{} and {} wrote different text",
                        rows[0].cmd.display(),
                        t.cmd.display()
                    )
                })?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn same_contents(a: &Path, b: &Path) -> Result<bool> {
    if std::fs::metadata(a)?.len() != std::fs::metadata(b)?.len() {
        return Ok(false);
    }
    let (mut fa, mut fb) = (File::open(a)?, File::open(b)?);
    let (mut ba, mut bb) = (vec![0u8; 1 << 20], vec![0u8; 1 << 20]);
    loop {
        let n = fa.read(&mut ba)?;
        if n == 0 {
            return Ok(true);
        }
        fb.read_exact(&mut bb[..n])?;
        if ba[..n] != bb[..n] {
            return Ok(false);
        }
    }
}
