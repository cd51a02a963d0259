//! `cargo xtask bench`'s regular-expression workloads on the real text: each on the
//! registry's sources as a tree (`-r`) and on the file of the run's size, utf8-grep (its
//! default threads and `--threads 1`) against ripgrep and GNU `grep -E`, every count (and
//! `-o`'s output) checked against GNU grep's.

use std::path::Path;

use crate::bench::comparisons::{Goal, Outcome, Target, row};
use crate::bench::real::{RealRun, args, count_total, grep_and_peers, input_name, warm_input};
use crate::bench::runner::{Sink, Timed, time_named};
use crate::workspace::Result;

/// The workloads: a name, utf8-grep's and GNU grep's arguments (ripgrep's are the same
/// without `-E`: its default syntax, where `-E` is `--encoding`; `-P` is PCRE2 in all three,
/// ripgrep built with its `pcre2` feature) and what it measures. The `-P` ones use ASCII
/// classes: `\w` is ASCII in GNU grep 3.8's `-P` and Unicode in ripgrep's.
pub const WORKLOADS: [(&str, &[&str], &str); 15] = [
    (
        "alt",
        &["-c", "-E", "unwrap|expect"],
        "an alternation of words",
    ),
    (
        "ident",
        &["-c", "-E", r"fn [a-z_]+\("],
        "an identifier class after a literal",
    ),
    (
        "icase",
        &["-c", "-i", "-E", r"err(or)?s?\b"],
        "a case-insensitive regex",
    ),
    (
        "word",
        &["-c", "-w", "-E", "[A-Z][a-z]+Error"],
        "`-w` with a class",
    ),
    (
        "anchored",
        &["-c", "-E", r"^\s*//"],
        "an anchored line regex",
    ),
    (
        "digits",
        &["-c", "-E", "[0-9]{4}-[0-9]{2}"],
        "a digit class with bounded repetition",
    ),
    (
        "rare",
        &["-c", "-E", "[A-Z]{4}[0-9]{4}"],
        "a rare regex with no literal",
    ),
    (
        "only",
        &["-o", "-E", "[a-z]+_[a-z]+"],
        "`-o` on a frequent regex",
    ),
    (
        "ing",
        &["-o", "-E", "[a-z]+ing"],
        "`-o` on a frequent suffix",
    ),
    (
        "pairs",
        &["-c", "-E", "[A-Z][0-9][A-Z][0-9]"],
        "alternating classes, no literal",
    ),
    (
        "lookbehind",
        &["-c", "-P", r"(?<=fn )[a-z_]+\("],
        "a look-behind (`-P`)",
    ),
    (
        "keep",
        &["-o", "-P", r"let \K[a-z_]+"],
        "`\\K` after a literal (`-P`)",
    ),
    (
        "backref-p",
        &["-c", "-P", r"\b([a-z]+) \1\b"],
        "a back-reference (`-P`)",
    ),
    (
        "backref-e",
        &["-c", "-E", r"\b([a-z]+) \1\b"],
        "a back-reference (`-E`; ripgrep needs `-P` for it)",
    ),
    (
        "literal-p",
        &["-c", "-P", "unwrap"],
        "`-P` with a plain literal",
    ),
];

/// The target of every regex workload.
const TARGET: Target = Target {
    ours: "utf8-grep",
    peer: "rg",
    also: None,
    goal: Goal::AtMost(1.0),
    more: &[
        ("grep", Goal::AtMost(0.5)),
        ("utf8-grep --threads 1", Goal::AtMost(1.0)),
    ],
    text: "utf8-grep at most the time of rg, half of GNU grep's, and no more than with `--threads 1`",
};

/// The target of the POSIX back-reference workloads, whose peer is GNU grep (ripgrep has
/// no back-references outside `-P`).
const BACKREF_TARGET: Target = Target {
    ours: "utf8-grep",
    peer: "grep",
    also: None,
    goal: Goal::AtMost(0.5),
    more: &[("utf8-grep --threads 1", Goal::AtMost(1.0))],
    text: "utf8-grep at most half of GNU grep's time, and no more than with `--threads 1`",
};

/// The workload of comparison `name` (`real-re-NAME` on the file, `real-re-NAME-tree` on
/// the tree).
fn workload(name: &str) -> Option<(&'static [&'static str], &'static str, bool)> {
    let rest = name.strip_prefix("real-re-")?;
    let (key, tree) = match rest.strip_suffix("-tree") {
        Some(k) => (k, true),
        None => (rest, false),
    };
    WORKLOADS
        .iter()
        .find(|(k, _, _)| *k == key)
        .map(|&(_, a, what)| (a, what, tree))
}

/// Runs the regex comparison `name`.
///
/// # Errors
///
/// An unknown name, a command that fails, or outputs that disagree.
pub fn run_regex(name: &'static str, run: RealRun<'_>) -> Result<Outcome> {
    let r = run.real;
    let (a, what, tree) = workload(name).ok_or_else(|| format!("unknown comparison {name}"))?;
    let input = if tree { &r.tree } else { &r.file };
    let target = input.display().to_string();
    let only = a.contains(&"-o");
    let mut ours = args(a);
    let mut gnu = args(a);
    // ripgrep's back-references are its `-P`'s.
    let backref = a.contains(&"-E") && a.iter().any(|x| x.contains(r"\1"));
    let mut rg: Vec<String> = args(a)
        .into_iter()
        .filter(|x| x != "-E")
        .map(|x| {
            if backref && x == "-c" {
                "-cP".into()
            } else {
                x
            }
        })
        .collect();
    if tree {
        ours.insert(0, "-r".into());
        gnu.insert(0, "-r".into());
        rg.insert(0, "-uuu".into());
    }
    for v in [&mut ours, &mut gnu, &mut rg] {
        v.push(target.clone());
    }
    let (mut cmds, skipped) = grep_and_peers(run.tools, &ours, true, (&rg, &gnu));
    for c in &mut cmds {
        if only {
            c.stdout = Sink::File(
                run.dir
                    .join(format!("regex-out.{}", c.label.replace(' ', "_"))),
            );
        }
    }
    warm_input(input)?;
    let rows = time_named(name, &cmds, run.opts.runs, run.dir)?;
    verify(&rows, only, a.contains(&"-P") || backref, run.dir)?;
    let title = format!(
        "{what}: `{}` on {}",
        a.join(" "),
        if tree {
            format!(
                "the registry's sources with -r ({} files, {:.0} MiB)",
                r.tree_files,
                r.tree_bytes as f64 / f64::from(1 << 20)
            )
        } else {
            format!("the sources concatenated to {} MiB", run.opts.mib)
        }
    );
    Ok(Outcome {
        title,
        input: input_name(input),
        baseline: if backref { "grep" } else { TARGET.peer },
        rows,
        skipped,
        target: Some(if backref { BACKREF_TARGET } else { TARGET }),
        notes: Vec::new(),
    })
}

/// Every count (summed over files for `-r`: rg lists only the files with a match) equals
/// GNU grep's; with `-o`, the number of lines utf8-grep prints does; with `-P` (`perl`),
/// utf8-grep's, which mirrors GNU grep 3.8's `-P` (ripgrep's PCRE2 options differ: its
/// counts are not compared).
fn verify(rows: &[Timed], only: bool, perl: bool, dir: &Path) -> Result<()> {
    let out = |t: &Timed| -> Result<Vec<u8>> {
        if only {
            let label = t.cmd.label.replace(' ', "_");
            Ok(std::fs::read(dir.join(format!("regex-out.{label}")))?)
        } else {
            Ok(t.stdout.clone())
        }
    };
    let measure = |bytes: &[u8]| -> u64 {
        if only {
            memchr::memchr_iter(b'\n', bytes).count() as u64
        } else {
            count_total(bytes)
        }
    };
    let Some(gnu) = row(rows, "grep") else {
        return Ok(());
    };
    let want = out(gnu)?;
    // rg prints `-o`'s matches from the text part of a binary file (a PDF of zlib-rs's test
    // data) where GNU grep (and utf8-grep) say "binary file matches": its `-o` rows are
    // not compared.
    for t in rows
        .iter()
        .filter(|t| !(only || perl) || t.cmd.label.starts_with("utf8-grep"))
    {
        let got = out(t)?;
        if measure(&got) != measure(&want) {
            // GNU grep's `\b` next to an ill-formed sequence disagrees with its own `-w` (a
            // documented difference, tests/tests/e2e/grep_regex.rs): tolerated where every
            // file whose count differs is binary (a NUL in it: compiled code, `.wasm`).
            let differ = differing_files(&got, &want);
            if !only && !differ.is_empty() && differ.iter().all(|f| holds_nul(f)) {
                println!(
                    "bench: {}: counts differ from GNU grep's in binary files only ({}): \
                     `\\b` next to an ill-formed sequence, a documented difference",
                    t.cmd.display(),
                    differ.join(", ")
                );
                continue;
            }
            return Err(format!(
                "outputs disagree: {} gave {}, GNU grep {}",
                t.cmd.display(),
                measure(&got),
                measure(&want)
            )
            .into());
        }
    }
    Ok(())
}

/// The files whose counts differ between two outputs of `-r -c` (`PATH:COUNT` lines; a file
/// missing from one counts 0 there).
fn differing_files(a: &[u8], b: &[u8]) -> Vec<String> {
    let counts = |out: &[u8]| -> std::collections::BTreeMap<String, u64> {
        String::from_utf8_lossy(out)
            .lines()
            .filter_map(|l| l.rsplit_once(':'))
            .filter_map(|(path, n)| Some((path.to_owned(), n.parse().ok()?)))
            .collect()
    };
    let (a, b) = (counts(a), counts(b));
    let files: std::collections::BTreeSet<&String> = a
        .keys()
        .chain(b.keys())
        .filter(|f| a.get(*f).unwrap_or(&0) != b.get(*f).unwrap_or(&0))
        .collect();
    files.into_iter().cloned().collect()
}

/// Whether the file at `path` holds a NUL byte (GNU grep's test of a binary file).
fn holds_nul(path: &str) -> bool {
    std::fs::read(path).is_ok_and(|b| b.contains(&0))
}

#[cfg(test)]
mod tests {
    use super::differing_files;

    #[test]
    fn files_whose_counts_differ() {
        let ours = b"/t/a.rs:3\n/t/b.wasm:55\n/t/c:x:1\n";
        let gnu = b"/t/a.rs:3\n/t/b.wasm:53\n/t/d.rs:2\n/t/c:x:1\n";
        assert_eq!(differing_files(ours, gnu), ["/t/b.wasm", "/t/d.rs"]);
        assert!(differing_files(gnu, gnu).is_empty());
    }
}
