//! `cargo xtask bench`'s many-files workloads: utf8-count over a tree of 100,000 small text
//! files in 100 directories (460 bytes on average, cut from the real corpus), named in a
//! `--files0-from` list directory by directory, as `find -print0 > list` writes it, against
//! GNU wc reading the same list, with the default threads and with `--threads 1`; the totals
//! checked against wc's.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::bench::comparisons::{Goal, Outcome, Target};
use crate::bench::real::{RealCorpus, RealRun, args, cmd, warm_input};
use crate::bench::runner::{Timed, time_named};
use crate::workspace::Result;

/// Files in the tree.
const FILES: usize = 100_000;
/// Directories they are spread over.
const DIRS: usize = 100;

/// The workloads: a name and the columns asked for.
pub const WORKLOADS: [(&str, &[&str]); 4] = [
    ("many-l", &["-l"]),
    ("many-w", &["-w"]),
    ("many-c", &["-c"]),
    ("many-lwc", &[]),
];

const TARGET: Target = Target {
    ours: "utf8-count",
    peer: "wc",
    also: None,
    goal: Goal::AtMost(0.5),
    more: &[("utf8-count --threads 1", Goal::AtMost(1.0))],
    text: "utf8-count over many files at most half the time of wc, and no more than with `--threads 1`",
};

/// Builds (or finds) the tree under `dir` from the real corpus's file, and its list: the
/// list's path.
fn tree(dir: &Path, r: &RealCorpus) -> Result<PathBuf> {
    let root = dir.join("many");
    let list = dir.join("many-by-dir.list0");
    if list.is_file() && root.join(format!("d{}", (FILES - 1) % DIRS)).is_dir() {
        return Ok(list);
    }
    let text = std::fs::read(&r.file)?;
    // The names directory by directory, as `find` lists them.
    let mut names: Vec<Vec<u8>> = vec![Vec::new(); DIRS];
    let mut at = 0usize;
    for i in 0..FILES {
        // 200 to 720 bytes, cycling, from the corpus in order.
        let len = 200 + (i * 7919) % 521;
        if at + len > text.len() {
            at = 0;
        }
        let d = root.join(format!("d{}", i % DIRS));
        std::fs::create_dir_all(&d)?;
        let p = d.join(format!("f{i}.txt"));
        std::fs::write(&p, &text[at..at + len])?;
        at += len;
        let names = &mut names[i % DIRS];
        names.extend_from_slice(p.display().to_string().as_bytes());
        names.push(0);
    }
    std::fs::File::create(&list)?.write_all(&names.concat())?;
    Ok(list)
}

/// The numbers of the `total` line of wc-style output.
fn totals(stdout: &[u8]) -> Vec<u64> {
    String::from_utf8_lossy(stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// Runs the many-files comparison `name`.
///
/// # Errors
///
/// An unknown name, a command that fails, or totals that disagree with wc's.
pub fn run_many(name: &'static str, run: RealRun<'_>) -> Result<Outcome> {
    let (_, columns) = WORKLOADS
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| format!("unknown comparison {name}"))?;
    let list = tree(run.dir, run.real)?;
    let from = format!("--files0-from={}", list.display());
    let count = run.tools.ours("utf8-count");
    let mut ours = args(columns);
    // The default columns compared with wc's `-lwc` (the invalid sequences and code points
    // are utf8-count's besides).
    let wc_cols: Vec<String> = if columns.is_empty() {
        args(&["-l", "-w", "-c"])
    } else {
        args(columns)
    };
    ours.push(from.clone());
    let mut one = args(&["--threads", "1"]);
    one.extend(ours.iter().cloned());
    let mut cmds = vec![
        cmd("utf8-count", &count, "utf8-count", &ours),
        cmd("utf8-count --threads 1", &count, "utf8-count", &one),
    ];
    let mut skipped = Vec::new();
    match run.tools.peer("wc") {
        Some(wc) => {
            let mut a = wc_cols.clone();
            a.push(from);
            cmds.push(cmd("wc", wc, "wc", &a));
        }
        None => skipped.push("`wc`: not installed, skipped".to_owned()),
    }
    warm_input(&run.dir.join("many"))?;
    let rows = time_named(name, &cmds, run.opts.runs, run.dir)?;
    verify(&rows, columns.is_empty())?;
    Ok(Outcome {
        title: format!(
            "utf8-count {} over {FILES} small files (`--files0-from`) vs wc",
            if columns.is_empty() { "(default columns)".to_owned() } else { columns.join(" ") }
        ),
        input: "many-by-dir.list0".to_owned(),
        baseline: TARGET.peer,
        rows,
        skipped,
        target: Some(TARGET),
        notes: vec![
            "the default columns against `wc -l -w -c`: utf8-count also counts code points and invalid sequences"
                .to_owned(),
        ],
    })
}

/// utf8-count's totals equal wc's (for the default columns: its lines, words and bytes).
fn verify(rows: &[Timed], default_columns: bool) -> Result<()> {
    let Some(wc) = rows.iter().find(|t| t.cmd.label == "wc") else {
        return Ok(());
    };
    let want = totals(&wc.stdout);
    for t in rows.iter().filter(|t| t.cmd.label != "wc") {
        let mut got = totals(&t.stdout);
        if default_columns && got.len() == 5 {
            // lines, words, chars, bytes, errors: wc's -lwc are the first two and the fourth.
            got = vec![got[0], got[1], got[3]];
        }
        if got != want {
            return Err(
                format!("totals disagree: {} {got:?}, wc {want:?}", t.cmd.display()).into(),
            );
        }
    }
    Ok(())
}
