//! `cargo xtask bench`'s command line.

use clap::Parser;

use crate::workspace::positive;

/// Every comparison, in the order they run.
pub const COMPARISONS: [&str; 59] = [
    "count",
    "count-one",
    "words",
    "words-seps",
    "words-cost",
    "threads",
    "threads-ceiling",
    "grep-ascii",
    "grep-cjk",
    "repair",
    "enc-utf16",
    "enc-sjis",
    "real-tree",
    "real-rare",
    "real-f10",
    "real-f100",
    "real-f1000",
    "real-f10000",
    "real-invert",
    "real-invert-nul",
    "real-icase",
    "real-word",
    "real-lines",
    "real-split",
    "real-auto-tree",
    "real-re-alt",
    "real-re-alt-tree",
    "real-re-ident",
    "real-re-ident-tree",
    "real-re-icase",
    "real-re-icase-tree",
    "real-re-word",
    "real-re-word-tree",
    "real-re-anchored",
    "real-re-anchored-tree",
    "real-re-digits",
    "real-re-digits-tree",
    "real-re-rare",
    "real-re-rare-tree",
    "real-re-only",
    "real-re-only-tree",
    "real-re-ing",
    "real-re-ing-tree",
    "real-re-pairs",
    "real-re-pairs-tree",
    "real-re-lookbehind",
    "real-re-lookbehind-tree",
    "real-re-keep",
    "real-re-keep-tree",
    "real-re-backref-p",
    "real-re-backref-p-tree",
    "real-re-backref-e",
    "real-re-backref-e-tree",
    "real-re-literal-p",
    "real-re-literal-p-tree",
    "many-l",
    "many-w",
    "many-c",
    "many-lwc",
];

/// The usage line, as clap shows it in errors and help.
pub const USAGE_LINE: &str =
    "cargo xtask bench [--mib N] [--runs N] [--only NAME,...] [--no-write]";

/// `cargo xtask bench`'s arguments.
#[derive(Debug, Clone, Parser)]
#[command(name = "bench", override_usage = USAGE_LINE, args_override_self = true)]
pub struct Args {
    /// Size of the main corpus in MiB (1 to 1048576).
    #[arg(long, value_name = "N", default_value_t = 256,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    mib: u64,
    /// Timed runs per command, after one warmup.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = positive::<usize>)]
    runs: usize,
    /// Only these comparisons (count, count-one, words, words-seps, words-cost, threads,
    /// grep-ascii, grep-cjk, repair, enc-utf16, enc-sjis, real-tree, real-rare, real-f10 ...
    /// real-f10000, real-invert, real-invert-nul, real-icase, real-word, real-lines,
    /// real-split, real-auto-tree, real-re-NAME and real-re-NAME-tree for the regex workloads
    /// alt, ident, icase, word, anchored, digits, rare, only, ing, pairs, lookbehind, keep,
    /// backref-p, literal-p, backref-e; many-l, many-w, many-c, many-lwc (utf8-count over 100,000 small
    /// files); `grep` is both grep ones, `many` the many-files ones, `enc` both
    /// encoding ones, `real` every real-text one, `real-re` every regex one); leaves
    /// BENCHMARKS.md alone.
    #[arg(long, value_name = "NAME,...", value_parser = comparisons)]
    only: Option<Only>,
    /// Leave BENCHMARKS.md alone.
    #[arg(long)]
    no_write: bool,
}

/// Options of the task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Size of the main corpus in MiB.
    pub mib: u64,
    /// Timed runs per command (after one warmup).
    pub runs: usize,
    /// The comparisons to run.
    pub only: Vec<&'static str>,
    /// Whether to rewrite BENCHMARKS.md.
    pub write: bool,
}

impl From<Args> for Options {
    fn from(a: Args) -> Options {
        Options {
            mib: a.mib,
            runs: a.runs,
            // `--only` never writes a partial table.
            write: !a.no_write && a.only.is_none(),
            only: a.only.map_or_else(|| COMPARISONS.to_vec(), |o| o.0),
        }
    }
}

/// The comparisons `--only` picked, in the order they run.
#[derive(Debug, Clone)]
struct Only(Vec<&'static str>);

/// `--only`'s list: each name a comparison or the prefix before a `-` of some (`grep`),
/// returned in the order they run.
fn comparisons(v: &str) -> Result<Only, String> {
    let mut picked = Vec::new();
    for want in v.split(',').filter(|s| !s.is_empty()) {
        let hits: Vec<&'static str> = COMPARISONS
            .iter()
            .copied()
            .filter(|c| *c == want || c.strip_prefix(want).is_some_and(|r| r.starts_with('-')))
            .collect();
        if hits.is_empty() {
            return Err(format!(
                "no comparison {want}; comparisons: {}",
                COMPARISONS.join(", ")
            ));
        }
        picked.extend(hits);
    }
    Ok(Only(
        COMPARISONS
            .iter()
            .copied()
            .filter(|c| picked.contains(c))
            .collect(),
    ))
}

#[cfg(test)]
/// Parses (as `cargo xtask` does) the arguments after `bench`.
///
/// # Errors
///
/// A message for a bad option or value.
pub fn parse_args(args: &[&str]) -> Result<Options, String> {
    Args::try_parse_from(std::iter::once("bench").chain(args.iter().copied()))
        .map(Options::from)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let o = parse_args(&[]).unwrap();
        assert_eq!((o.mib, o.runs, o.write), (256, 5, true));
        assert_eq!(o.only, COMPARISONS.to_vec());
        let o = parse_args(&["--mib", "16", "--runs=2", "--no-write"]).unwrap();
        assert_eq!((o.mib, o.runs, o.write), (16, 2, false));
        let o = parse_args(&["--only", "repair,grep"]).unwrap();
        assert_eq!(o.only, vec!["grep-ascii", "grep-cjk", "repair"]);
        assert!(!o.write, "--only never writes a partial table");
        assert_eq!(
            parse_args(&["--only=grep-cjk"]).unwrap().only,
            vec!["grep-cjk"]
        );
        assert!(parse_args(&["--only", "gre"]).is_err());
        assert!(parse_args(&["--mib", "0"]).is_err());
        assert!(parse_args(&["--runs"]).is_err());
        assert!(parse_args(&["--bogus"]).is_err());
    }
}
