//! `cargo xtask bench [--mib N] [--runs N] [--only NAME,...] [--no-write]`: the binaries,
//! timed as whole processes against their peers, and the "Binaries" section of
//! BENCHMARKS.md.
//!
//! 1. Builds the binaries as `cargo xtask dist` ships them (profile `release-lto`).
//! 2. Generates deterministic corpora in `BENCH = $CARGO_TARGET_DIR/bench` (or
//!    `target/bench`), reused when a previous run left them with the right size: N MiB
//!    (default 256) of lines of words in Latin, Cyrillic, CJK and emoji with seven lines
//!    holding `zebra_needle` and seven holding `東京都`; the same with an invalid sequence
//!    about every 2 KiB; and 4×N MiB (the first file four times over) for `--threads`.
//! 3. Per comparison, reads its input once (page cache; a file of 4 MiB or more is dropped from
//!    it and read back first, [`corpus::warm`]), runs every command once as a warmup,
//!    then `--runs` rounds (default 5) of every command in turn, and takes the median wall
//!    time and the largest peak RSS. Each command runs under this binary's hidden
//!    `__measure` task, which spawns it, times it and reads its peak RSS with
//!    `getrusage(RUSAGE_CHILDREN)` (its only child). Standard output goes to a pipe that is
//!    drained, or to a real file for repair; never to `/dev/null`. Every command runs with
//!    `LC_ALL=C.UTF-8`.
//! 4. Checks the outputs against each other and against what the generator put in (line
//!    and character counts, needle counts, byte-identical repairs), failing on a mismatch.
//! 5. Prints a table and, unless `--no-write` or `--only`, replaces the part of
//!    BENCHMARKS.md between [`report::BEGIN`] and [`report::END`] (or, the first time, the `## Binaries`
//!    section) with the results, the commands, the tool versions and the machine.
//!
//! Peers that are not installed are skipped, saying so. Nothing here asserts a time.

use std::path::Path;

use crate::machine::{load_average, machine, version};
use crate::markdown::replace_section;
use crate::tool::{self, PROFILE};
use crate::workspace::{self, Result};

pub mod comparisons;
pub mod corpus;
pub mod encodings;
pub mod many;
pub mod options;
pub mod real;
pub mod regex;
pub mod report;
pub mod runner;

use comparisons::{find_tools, run_comparison};
use corpus::corpora;
use options::Options;
use report::{BEGIN, END, Run, fmt_rss, print_table, section};
use runner::{Cmd, run_once};

/// The usage lines for `cargo xtask help`.
pub const USAGE: &str = "  bench [--mib N] [--runs N] [--only NAME,...] [--no-write]
                      time utf8-count, utf8-grep and utf8-repair (profile release-lto)
                      against wc, rg, grep, uconv, iconv and python3 on generated files
                      of N MiB (default 256) in $CARGO_TARGET_DIR/bench, median of N runs
                      (default 5), and rewrite the Binaries section of BENCHMARKS.md;
                      NAME: count, count-one, words, words-seps, words-cost,
                      threads, grep
                      (grep-ascii, grep-cjk), repair, enc (enc-utf16, enc-sjis: UTF-16
                      and Shift_JIS), real (real-tree, real-rare,
                      real-f10..real-f10000, real-invert, real-invert-nul
                      (a NUL in the file), real-icase, real-word,
                      real-lines, real-split, real-auto-tree (--from auto),
                      real-re-NAME and real-re-NAME-tree
                      for the regexes alt, ident, icase, word, anchored, digits,
                      rare, only, ing, pairs and the -P ones lookbehind, keep,
                      backref-p, literal-p, and backref-e (-E, against GNU
                      grep): the cargo registry's sources),
                      many (many-l, many-w, many-c, many-lwc: utf8-count over
                      100,000 small files against wc, --files0-from);
                      --only and --no-write leave BENCHMARKS.md alone";

/// Runs the task.
///
/// # Errors
///
/// When building, generating, a command or a check fails, or BENCHMARKS.md cannot be written.
pub fn run(root: &Path, opts: &Options) -> Result<()> {
    tool::build(root, None, "bench")?;
    let tools = find_tools(root);
    for name in &tools.missing {
        println!("bench: {name} is not installed: its rows are skipped");
    }
    let mut machine = machine();
    println!(
        "bench: {} MiB, {} runs, comparisons {}; load average {}",
        opts.mib,
        opts.runs,
        opts.only.join(","),
        machine.load_start
    );
    let dir = workspace::target_dir(root).join("bench");
    let c = corpora(
        &dir,
        opts.mib,
        opts.only.contains(&"repair"),
        opts.only.iter().any(|n| n.starts_with("threads")),
        opts.only.contains(&"words-seps"),
    )?;
    // The peak RSS of a command that does nothing: Linux counts the pages the measuring
    // process had before exec in its child's peak.
    let rss_floor = match which::which("true").ok() {
        Some(t) => Some(
            run_once(
                &Cmd::new("true", &t, "true", &[]),
                &dir.join("measure.report"),
            )?
            .peak_kib,
        ),
        None => None,
    };
    if let Some(kib) = rss_floor {
        println!(
            "bench: peak RSS floor (`true` under the measuring process): {}",
            fmt_rss(kib)
        );
    }
    let mut versions = Vec::new();
    for name in ["utf8-count", "utf8-grep", "utf8-repair"] {
        versions.push((
            name.to_owned(),
            format!("{} (profile {PROFILE})", version(&tools.ours(name))),
        ));
    }
    for (name, path) in &tools.peers {
        versions.push((name.to_string(), version(path)));
    }
    let real = if opts
        .only
        .iter()
        .any(|n| n.starts_with("real-") || n.starts_with("many-"))
    {
        let r = real::real_corpus(&dir, opts.mib)?;
        println!(
            "bench: real text: {} ({} files, {} bytes)",
            r.tree.display(),
            r.tree_files,
            r.tree_bytes
        );
        Some(r)
    } else {
        None
    };
    let real_run = real.as_ref().map(|r| real::RealRun {
        tools: &tools,
        real: r,
        opts,
        dir: &dir,
    });
    let mut outcomes = Vec::new();
    for name in &opts.only {
        let o = match real_run {
            _ if encodings::NAMES.contains(name) => {
                encodings::run_encoding(name, &tools, &c, real.as_ref(), opts, &dir)?
            }
            Some(run) if name.starts_with("real-re-") => regex::run_regex(name, run)?,
            Some(run) if name.starts_with("real-") => real::run_real(name, run)?,
            Some(run) if name.starts_with("many-") => many::run_many(name, run)?,
            _ => run_comparison(name, &tools, &c, opts, &dir)?,
        };
        print_table(&o);
        outcomes.push(o);
    }
    machine.load_end = load_average();
    println!(
        "\nbench: load average {} at the start, {} at the end",
        machine.load_start, machine.load_end
    );
    let run = Run {
        opts,
        machine,
        versions,
        commit: workspace::git_head(root),
        rss_floor,
        outcomes,
        missing: tools.missing.clone(),
    };
    if opts.write {
        let path = root.join("BENCHMARKS.md");
        let doc = std::fs::read_to_string(&path).unwrap_or_default();
        std::fs::write(
            &path,
            replace_section(&doc, &section(&run), BEGIN, END, "## Binaries"),
        )
        .map_err(|e| format!("{}: {e}", path.display()))?;
        println!("bench: wrote the Binaries section of {}", path.display());
    } else {
        println!("bench: BENCHMARKS.md left alone (--no-write or --only)");
    }
    // The chart goes beside BENCHMARKS.md with it, else into the bench directory.
    let svg = if opts.write {
        root.join(report::CHART)
    } else {
        dir.join("bench-binaries.svg")
    };
    if report::chart(&run, &opts.only, &svg)? {
        println!("bench: drew {}", svg.display());
    }
    Ok(())
}
