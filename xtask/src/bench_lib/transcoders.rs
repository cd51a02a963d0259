//! The UTF-16 transcoders in `cargo xtask bench-lib`: `cargo bench -p utf8-bench --bench
//! utf16` (lossy UTF-8 -> UTF-16) and `--bench utf16_decode` (UTF-16LE -> UTF-8), each
//! against simdutf and encoding_rs at 64 KiB and 16 MiB, their Markdown tables kept as they
//! print them, and a line per speed target read from the tables' ratio columns.

use std::path::Path;

use crate::workspace::{self, Result};

/// One transcoder benchmark: the bench's name, a title, and its targets.
struct Bench {
    name: &'static str,
    title: &'static str,
    /// What a figure of its table is.
    unit: &'static str,
    targets: &'static [Target],
}

/// A bound on one ratio column of a bench's table, over some corpora, at every size.
struct Target {
    /// The column's header, as the bench prints it.
    column: &'static str,
    /// At most (`true`) or at least the bound.
    at_most: bool,
    bound: f64,
    /// The corpora it is about; empty: every row that has the ratio.
    corpora: &'static [&'static str],
    text: &'static str,
}

const BENCHES: [Bench; 2] = [
    Bench {
        name: "utf16",
        title: "Lossy UTF-8 -> UTF-16 against simdutf's convert_utf8_to_utf16le and encoding_rs",
        unit: "Milliseconds a call",
        targets: &[
            Target {
                column: "slice / simdutf",
                at_most: true,
                bound: 1.2,
                corpora: &["mixed", "cjk"],
                text: "at most 1.2x simdutf's time on valid mixed and CJK text",
            },
            Target {
                column: "encoding_rs / slice",
                at_most: false,
                bound: 2.0,
                corpora: &["mixed", "cjk", "sparse-errors"],
                text: "at least 2x faster than encoding_rs on mixed and CJK text and sparse errors",
            },
            Target {
                column: "encoding_rs / slice",
                at_most: false,
                bound: 1.5,
                corpora: &["ascii"],
                text: "at least 1.5x faster than encoding_rs on ASCII",
            },
        ],
    },
    Bench {
        name: "utf16_decode",
        title: "UTF-16LE -> UTF-8 against simdutf's convert_utf16le_to_utf8 and encoding_rs",
        unit: "Milliseconds per 16 MiB of UTF-8",
        targets: &[
            Target {
                column: "decoder / simdutf",
                at_most: true,
                bound: 1.2,
                corpora: &[],
                text: "at most 1.2x simdutf's time on valid text",
            },
            Target {
                column: "encoding_rs / decoder",
                at_most: false,
                bound: 3.0,
                corpora: &["mixed", "cjk"],
                text: "at least 3x faster than encoding_rs on mixed and CJK text",
            },
        ],
    },
];

/// Runs both benches (16 MiB beside 64 KiB), keeping each one's table in the target
/// directory.
///
/// # Errors
///
/// When a bench fails or its table cannot be written.
pub fn run(root: &Path) -> Result<()> {
    for b in &BENCHES {
        eprintln!(
            "xtask bench-lib: cargo bench -p utf8-bench --bench {}",
            b.name
        );
        let out = workspace::cargo(root)
            .env("UTF8_BENCH_MIB", "16")
            .env_remove("UTF8_BENCH_CORPORA")
            .args(["bench", "-p", "utf8-bench", "--bench", b.name])
            .stderr(std::process::Stdio::inherit())
            .output()
            .map_err(|e| format!("cargo bench --bench {}: {e}", b.name))?;
        if !out.status.success() {
            return Err(format!("cargo bench --bench {} failed ({})", b.name, out.status).into());
        }
        std::fs::write(table_path(root, b.name), &out.stdout)?;
    }
    Ok(())
}

fn table_path(root: &Path, name: &str) -> std::path::PathBuf {
    workspace::target_dir(root).join(format!("bench-{name}.md"))
}

/// The part of the section about the transcoders: each table a run left, and its targets;
/// nothing for a bench that has not run.
pub fn section(root: &Path) -> String {
    let mut s = String::new();
    for b in &BENCHES {
        let Ok(table) = std::fs::read_to_string(table_path(root, b.name)) else {
            continue;
        };
        s.push_str(&format!(
            "### {} (`cargo bench -p utf8-bench --bench {}`)\n\n{}, best of 15 rounds in 3 \
             passes; at 64 KiB a round cycles through four distinct pieces of the corpus \
             (`utf8_bench::PIECES`) to 16 MiB.\n\n",
            b.title, b.name, b.unit
        ));
        s.push_str(table.trim_end());
        s.push_str("\n\n");
        for line in verdicts(&table, b.targets) {
            s.push_str(&format!("- {line}\n"));
        }
        s.push('\n');
    }
    s
}

/// A line per target: the worst ratio over its rows, and whether it is met.
fn verdicts(table: &str, targets: &[Target]) -> Vec<String> {
    let rows: Vec<Vec<&str>> = table
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect()
        })
        .collect();
    let Some((header, rows)) = rows.split_first() else {
        return Vec::new();
    };
    targets
        .iter()
        .map(|t| {
            let Some(col) = header.iter().position(|h| *h == t.column) else {
                return format!("{}: no column `{}`", t.text, t.column);
            };
            let values: Vec<(String, f64)> = rows
                .iter()
                .filter(|r| t.corpora.is_empty() || t.corpora.contains(&r[0]))
                .filter_map(|r| {
                    let v = r.get(col)?.parse::<f64>().ok()?;
                    Some((format!("{} {}", r[0], r.get(1).unwrap_or(&"")), v))
                })
                .collect();
            let worst = values.iter().max_by(|a, b| {
                let (x, y) = if t.at_most { (a.1, b.1) } else { (b.1, a.1) };
                x.total_cmp(&y)
            });
            match worst {
                None => format!("{}: no figures", t.text),
                Some((at, v)) => {
                    let met = if t.at_most {
                        *v <= t.bound
                    } else {
                        *v >= t.bound
                    };
                    format!(
                        "{}: worst {v:.2} ({at}; `{}`): {}",
                        t.text,
                        t.column,
                        if met { "met" } else { "**not met**" }
                    )
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_reads_the_worst_row_of_its_corpora() {
        let table = "| corpus | size | decoder / simdutf | encoding_rs / decoder |\n\
                     |---|---|---|---|\n\
                     | latin | 64 KiB | 1.10 | 5.0 |\n\
                     | mixed | 64 KiB | 0.90 | 1.2 |\n\
                     | mixed | 16384 KiB | 1.30 | 3.5 |\n";
        let lines = verdicts(table, BENCHES[1].targets);
        assert!(
            lines[0].contains("worst 1.30 (mixed 16384 KiB"),
            "{}",
            lines[0]
        );
        assert!(lines[0].ends_with("**not met**"), "{}", lines[0]);
        assert!(
            lines[1].contains("worst 1.20 (mixed 64 KiB"),
            "{}",
            lines[1]
        );
        let ok = "| corpus | size | decoder / simdutf | encoding_rs / decoder |\n\
                  | cjk | 64 KiB | 1.00 | 4.0 |\n";
        assert!(
            verdicts(ok, BENCHES[1].targets)
                .iter()
                .all(|l| l.ends_with(": met"))
        );
        // A missing ratio ("-", invalid input) is no figure.
        let none = "| corpus | size | slice / simdutf |\n| mixed | 64 KiB | - |\n";
        assert!(verdicts(none, BENCHES[0].targets)[0].ends_with("no figures"));
    }
}
