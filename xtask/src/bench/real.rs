//! `cargo xtask bench`'s real text: the source files of the crates in the cargo
//! registry on this machine (present after any build), searched as a tree with `-r`, and
//! concatenated into one file of the run's size for the single-file workloads; pattern
//! files of 10 to 10,000 identifiers taken from it. utf8-grep against ripgrep and GNU
//! grep, every count checked against GNU grep's.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::bench::comparisons::{Goal, Outcome, Target, Tools, row};
use crate::bench::corpus::warm;
use crate::bench::options::Options;
use crate::bench::runner::{Cmd, Sink, Timed, time_named};
use crate::workspace::Result;

/// The real corpus of a run.
pub struct RealCorpus {
    /// The registry's source tree.
    pub tree: PathBuf,
    /// Its regular files and their bytes.
    pub tree_files: u64,
    pub tree_bytes: u64,
    /// Its text files (no NUL), concatenated in walk order (again from the start when the
    /// tree is smaller) to the run's size.
    pub file: PathBuf,
    /// The same four times over, for `--threads`.
    pub big: PathBuf,
    /// `file` with one byte five eighths in made a NUL: a binary file, as GNU grep reads it
    /// (a NUL ends lines from the block that holds it on).
    pub nul: PathBuf,
    /// Files of 10, 100, 1,000 and 10,000 identifiers found in `file`.
    pub patterns: Vec<(usize, PathBuf)>,
}

/// What every comparison on the real text (`real-*`, `real-re-*`, `many-*`) runs with.
#[derive(Clone, Copy)]
pub struct RealRun<'a> {
    /// The binaries and peers.
    pub tools: &'a Tools,
    /// The real corpus.
    pub real: &'a RealCorpus,
    /// The run's options.
    pub opts: &'a Options,
    /// The bench directory.
    pub dir: &'a Path,
}

/// The cargo registry's source directory: `$CARGO_HOME/registry/src`.
fn registry() -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))?;
    let src = home.join("registry").join("src");
    src.is_dir().then_some(src)
}

/// The tree's regular files in walk order (sorted by name, depth first).
fn files(tree: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(tree)
        .sort_by_file_name()
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect()
}

/// Builds (or finds, from an earlier run of the same size) the real corpus in `dir`.
///
/// # Errors
///
/// No registry, or writing failed.
pub fn real_corpus(dir: &Path, mib: u64) -> Result<RealCorpus> {
    let tree = registry().ok_or("no cargo registry sources ($CARGO_HOME/registry/src)")?;
    let list = files(&tree);
    let tree_bytes = list
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let file = dir.join(format!("real-{mib}MiB.txt"));
    let big = dir.join(format!("real-4x{mib}MiB.txt"));
    let size = mib << 20;
    if std::fs::metadata(&file).map(|m| m.len()).ok() != Some(size) {
        let mut w = BufWriter::new(File::create(&file)?);
        let mut written = 0u64;
        'fill: loop {
            let before = written;
            for p in &list {
                let mut bytes = Vec::new();
                if File::open(p)
                    .and_then(|mut f| f.read_to_end(&mut bytes))
                    .is_err()
                    || memchr::memchr(0, &bytes).is_some()
                {
                    continue;
                }
                let take = bytes.len().min((size - written) as usize);
                w.write_all(&bytes[..take])?;
                written += take as u64;
                if written == size {
                    break 'fill;
                }
            }
            if written == before {
                return Err("the registry has no text files".into());
            }
        }
        w.flush()?;
    }
    if std::fs::metadata(&big).map(|m| m.len()).ok() != Some(4 * size) {
        let mut w = BufWriter::new(File::create(&big)?);
        for _ in 0..4 {
            std::io::copy(&mut File::open(&file)?, &mut w)?;
        }
        w.flush()?;
    }
    let nul = dir.join(format!("real-{mib}MiB-nul.txt"));
    if std::fs::metadata(&nul).map(|m| m.len()).ok() != Some(size) {
        let mut bytes = std::fs::read(&file)?;
        let at = (size * 5 / 8) as usize;
        // In a line, not on its newline.
        let at = (at..bytes.len()).find(|&i| bytes[i] != b'\n').unwrap_or(at);
        bytes[at] = 0;
        std::fs::write(&nul, &bytes)?;
    }
    let patterns = pattern_files(dir, &file, mib)?;
    Ok(RealCorpus {
        tree,
        tree_files: list.len() as u64,
        tree_bytes,
        file,
        big,
        nul,
        patterns,
    })
}

/// Identifiers of 6 characters or more from the first 64 MiB of `file`, in the order of a
/// hash of their text (a fixed pseudo-random pick), 10 to 10,000 of them.
fn pattern_files(dir: &Path, file: &Path, mib: u64) -> Result<Vec<(usize, PathBuf)>> {
    let mut text = Vec::new();
    File::open(file)?.take(64 << 20).read_to_end(&mut text)?;
    let mut seen = HashSet::new();
    let mut ids: Vec<&[u8]> = text
        .split(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .filter(|w| w.len() >= 6 && !w[0].is_ascii_digit() && seen.insert(*w))
        .collect();
    // FNV-1a: the same pick on every machine with the same registry.
    let fnv = |w: &[u8]| {
        w.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
        })
    };
    ids.sort_by_key(|w| fnv(w));
    let mut out = Vec::new();
    for n in [10, 100, 1000, 10_000] {
        let path = dir.join(format!("real-{mib}MiB-{n}-identifiers.txt"));
        let mut w = BufWriter::new(File::create(&path)?);
        for id in ids.iter().take(n) {
            w.write_all(id)?;
            w.write_all(b"\n")?;
        }
        w.flush()?;
        out.push((n, path));
    }
    Ok(out)
}

/// The target of a real-text comparison: at most the time of ripgrep and of GNU grep
/// (`--threads 2` against 1 for the split file).
fn target(name: &str) -> Target {
    match name {
        "real-tree" => Target {
            ours: "utf8-grep",
            peer: "rg",
            also: Some("grep"),
            goal: Goal::AtMost(0.9),
            more: &[],
            text: "`utf8-grep -r` at most 0.9× the time of rg (and of GNU grep)",
        },
        "real-invert-nul" => Target {
            ours: "utf8-grep",
            peer: "rg",
            also: Some("grep"),
            goal: Goal::AtMost(1.0),
            more: &[("utf8-grep --threads 1", Goal::AtMost(1.0))],
            text: "utf8-grep at most the time of rg and of GNU grep, and no more than with `--threads 1`",
        },
        "real-split" => Target {
            ours: "utf8-grep --threads 2",
            peer: "utf8-grep --threads 1",
            also: None,
            goal: Goal::Faster(1.6),
            more: &[],
            text: "`-c` on one file with `--threads 2` at least 1.6× faster than `--threads 1`",
        },
        _ => Target {
            ours: "utf8-grep",
            peer: "rg",
            also: Some("grep"),
            goal: Goal::AtMost(1.0),
            more: &[],
            text: "utf8-grep at most the time of rg and of GNU grep",
        },
    }
}

/// Runs the real-text comparison `name`.
///
/// # Errors
///
/// When a command fails or the outputs disagree.
pub fn run_real(name: &'static str, run: RealRun<'_>) -> Result<Outcome> {
    let r = run.real;
    let grep = run.tools.ours("utf8-grep");
    let file = &r.file;
    // (our arguments, rg's, GNU grep's), the input, the title.
    let (ours, rg, gnu, input, title): (Vec<String>, Vec<String>, Vec<String>, &Path, String) =
        match name {
            "real-tree" => {
                let t = r.tree.display().to_string();
                (
                    args(&["-r", "-c", "unsafe", &t]),
                    args(&["-c", "-uuu", "unsafe", &t]),
                    args(&["-r", "-c", "unsafe", &t]),
                    &r.tree,
                    format!(
                        "`-r -c unsafe` over the registry's sources ({} files, {:.0} MiB)",
                        r.tree_files,
                        r.tree_bytes as f64 / f64::from(1 << 20)
                    ),
                )
            }
            "real-rare" => plain(
                &["-c", "zebra_needle"],
                file,
                "`-c` of a needle absent from real text",
            ),
            "real-invert" => plain(
                &["-v", "-c", "e"],
                file,
                "`-v -c e` (almost every line matches)",
            ),
            "real-invert-nul" => plain(
                &["-v", "-c", "e"],
                &r.nul,
                "`-v -c e` on the file with one NUL byte (binary from its block on)",
            ),
            "real-icase" => plain(&["-c", "-i", "error"], file, "`-c -i error`"),
            "real-word" => plain(&["-c", "-w", "self"], file, "`-c -w self`"),
            "real-lines" => plain(
                &["-a", "-n", "fn"],
                file,
                "`-a -n fn` (output to a file, compared byte for byte)",
            ),
            "real-split" => {
                let f = r.big.display().to_string();
                (
                    args(&["-c", "zebra_needle", &f]),
                    Vec::new(),
                    Vec::new(),
                    &r.big,
                    "`-c` on one file four times the run's size, `--threads 2` against 1"
                        .to_owned(),
                )
            }
            _ => {
                let n: usize = name
                    .strip_prefix("real-f")
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| format!("unknown comparison {name}"))?;
                let (_, p) = r
                    .patterns
                    .iter()
                    .find(|(k, _)| *k == n)
                    .ok_or("no pattern file")?;
                let p = p.display().to_string();
                let f = file.display().to_string();
                (
                    args(&["-c", "-f", &p, &f]),
                    args(&["-c", "-F", "-f", &p, &f]),
                    args(&["-c", "-F", "-f", &p, &f]),
                    file,
                    format!("`-c -f` {n} identifiers"),
                )
            }
        };
    let mut cmds = Vec::new();
    let mut skipped = Vec::new();
    let lines = name == "real-lines";
    let sink = |who: &str| Sink::File(run.dir.join(format!("real-out.{who}")));
    if name == "real-split" {
        for n in ["2", "1"] {
            let mut a = args(&["--threads", n]);
            a.extend(ours.iter().cloned());
            cmds.push(cmd(
                &format!("utf8-grep --threads {n}"),
                &grep,
                "utf8-grep",
                &a,
            ));
        }
    } else {
        (cmds, skipped) = grep_and_peers(run.tools, &ours, name == "real-invert-nul", (&rg, &gnu));
    }
    for c in &mut cmds {
        // grep -c exits 1 when nothing matches.
        c.ok = &[0, 1];
        if lines {
            c.stdout = sink(&c.label);
        }
    }
    warm_input(input)?;
    let rows = time_named(name, &cmds, run.opts.runs, run.dir)?;
    verify(name, &rows, run.dir)?;
    let target = target(name);
    Ok(Outcome {
        title,
        input: input_name(input),
        baseline: target.peer,
        rows,
        skipped,
        target: Some(target),
        notes: vec![format!(
            "real text: the registry's {} files ({:.0} MiB) on this machine; single-file workloads on the text files concatenated to {} MiB",
            r.tree_files,
            r.tree_bytes as f64 / f64::from(1 << 20),
            run.opts.mib
        )],
    })
}

/// Reads `input` (a file, or every file of a tree) into the page cache.
///
/// # Errors
///
/// Reading the file failed.
pub(crate) fn warm_input(input: &Path) -> Result<()> {
    if input.is_file() {
        return warm(input);
    }
    for p in files(input) {
        let _ = warm(&p);
    }
    Ok(())
}

/// `input`'s name for a table.
pub(crate) fn input_name(input: &Path) -> String {
    input.file_name().map_or_else(
        || input.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The sum of the counts grep prints (`N`, or `FILE:N` a line).
pub(crate) fn count_total(stdout: &[u8]) -> u64 {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|l| l.rsplit(':').next()?.trim().parse::<u64>().ok())
        .sum()
}

pub(crate) fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| (*s).to_owned()).collect()
}

/// The same arguments for the three, then the file.
fn plain<'f>(
    a: &[&str],
    file: &'f Path,
    title: &str,
) -> (Vec<String>, Vec<String>, Vec<String>, &'f Path, String) {
    let mut v = args(a);
    v.push(file.display().to_string());
    (v.clone(), v.clone(), v, file, title.to_owned())
}

/// The commands of the peers installed, each labelled with its name, and a note for each
/// one that is not.
pub(crate) fn peer_cmds<const N: usize>(
    tools: &Tools,
    peers: [(&str, &[String]); N],
    cmds: &mut Vec<Cmd>,
    skipped: &mut Vec<String>,
) {
    for (peer, a) in peers {
        match tools.peer(peer) {
            Some(p) => cmds.push(cmd(peer, p, peer, a)),
            None => skipped.push(format!("`{peer}`: not installed, skipped")),
        }
    }
}

/// utf8-grep with `ours` (and, with `one_thread`, with `--threads 1` before them), then rg
/// and GNU grep with theirs where installed, each taking exit status 1 (no match) as a
/// success; and a note for each peer that is not installed.
pub(crate) fn grep_and_peers(
    tools: &Tools,
    ours: &[String],
    one_thread: bool,
    (rg, gnu): (&[String], &[String]),
) -> (Vec<Cmd>, Vec<String>) {
    let grep = tools.ours("utf8-grep");
    let mut cmds = vec![cmd("utf8-grep", &grep, "utf8-grep", ours)];
    if one_thread {
        let mut one = args(&["--threads", "1"]);
        one.extend(ours.iter().cloned());
        cmds.push(cmd("utf8-grep --threads 1", &grep, "utf8-grep", &one));
    }
    let mut skipped = Vec::new();
    peer_cmds(tools, [("rg", rg), ("grep", gnu)], &mut cmds, &mut skipped);
    for c in &mut cmds {
        // grep -c exits 1 when nothing matches.
        c.ok = &[0, 1];
    }
    (cmds, skipped)
}

pub(crate) fn cmd(label: &str, program: &Path, shown: &str, a: &[String]) -> Cmd {
    let refs: Vec<&dyn AsRef<std::ffi::OsStr>> =
        a.iter().map(|s| s as &dyn AsRef<std::ffi::OsStr>).collect();
    Cmd::new(label, program, shown, &refs)
}

/// Every count equals GNU grep's (for `-r`: the sum over files, as rg lists only files
/// with a match); `-a -n` output is byte for byte GNU grep's.
fn verify(name: &str, rows: &[Timed], dir: &Path) -> Result<()> {
    let total = |t: &Timed| count_total(&t.stdout);
    if name == "real-lines" {
        let read = |label: &str| std::fs::read(dir.join(format!("real-out.{label}")));
        let ours = read("utf8-grep")?;
        if row(rows, "grep").is_some() && read("grep")? != ours {
            return Err("outputs disagree: utf8-grep -a -n and GNU grep -a -n differ".into());
        }
        return Ok(());
    }
    let want = row(rows, "grep").or_else(|| rows.last()).map(total);
    // ripgrep does not end a line at a NUL of a binary file, as GNU grep (and utf8-grep)
    // do: its count on the file with a NUL is one less, and is not compared.
    for t in rows
        .iter()
        .filter(|t| !(name == "real-invert-nul" && t.cmd.label == "rg"))
    {
        if Some(total(t)) != want {
            return Err(format!(
                "outputs disagree: {} counted {}, GNU grep (or the last row) {want:?}",
                t.cmd.display(),
                total(t)
            )
            .into());
        }
    }
    Ok(())
}
