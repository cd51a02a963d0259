//! The short-input table and its target, from `crates/bench/benches/short.rs` (paired
//! rounds against simdutf8; see there), which writes its figures as JSON to the file named
//! by `UTF8_BENCH_SHORT_JSON`.

use std::path::Path;

use crate::workspace::Result;

// The sizes the harness measures (one list with it), from one byte to 4 KiB.
use utf8_testkit::corpus::SHORT_SIZES as SIZES;

/// The texts, as the harness names them.
const TEXTS: [&str; 2] = ["ascii", "mixed"];

/// The two comparisons: (key in the JSON, ours, simdutf8's).
const PAIRS: [(&str, &str, &str); 2] = [
    ("is_valid/basic", "utf8_codec::is_valid", "simdutf8::basic"),
    (
        "validate/compat",
        "utf8_codec::validate",
        "simdutf8::compat",
    ),
];

/// One size of one text.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// "ascii" or "mixed".
    pub text: String,
    /// Bytes per buffer.
    pub n: usize,
    /// Quartiles (first, median, third) of the rounds' time ratios, in the order of [`PAIRS`].
    pub ratios: [[f64; 3]; 2],
    /// simdutf8 `basic`'s median nanoseconds per call.
    pub basic_ns: f64,
}

/// Every row the harness wrote.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Short(pub Vec<Row>);

impl Short {
    fn row(&self, text: &str, n: usize) -> Option<&Row> {
        self.0.iter().find(|r| r.text == text && r.n == n)
    }
}

/// Reads the harness's JSON.
///
/// # Errors
///
/// The file cannot be read, or is not what the harness writes.
pub fn read_short(path: &Path) -> Result<Short> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let bad = || format!("{}: not the short-input harness's output", path.display());
    let mut rows = Vec::new();
    for v in json.as_array().ok_or_else(bad)? {
        let quartiles = |key: &str| -> Option<[f64; 3]> {
            let a = v.get(key)?.as_array()?;
            let q: Vec<f64> = a.iter().filter_map(serde_json::Value::as_f64).collect();
            q.try_into().ok()
        };
        let row = (|| {
            Some(Row {
                text: v.get("text")?.as_str()?.to_owned(),
                n: usize::try_from(v.get("n")?.as_u64()?).ok()?,
                ratios: [quartiles(PAIRS[0].0)?, quartiles(PAIRS[1].0)?],
                basic_ns: v.pointer("/ns_per_call/simdutf8::basic")?.as_f64()?,
            })
        })();
        rows.push(row.ok_or_else(bad)?);
    }
    Ok(Short(rows))
}

/// A ratio with its quartiles: `0.97 (0.96-0.98)`, `—` when absent.
fn fmt_quartiles(q: Option<&[f64; 3]>) -> String {
    q.map_or_else(
        || "—".to_owned(),
        |[lo, med, hi]| format!("{med:.2} ({lo:.2}-{hi:.2})"),
    )
}

/// The table.
pub fn short_table(s: &Short) -> String {
    let mut out = String::from(
        "Short inputs: 1,000 distinct valid buffers of exactly N bytes, time per call of ours \
         over simdutf8's (under 1.00 is faster; `is_valid` against `basic::from_utf8`, \
         `validate` against `compat::from_utf8`): the median of paired rounds' ratios, with \
         the first and third quartiles (`cargo bench -p utf8-bench --bench short`: each round \
         times every function over the same buffers back to back, in rotating order); and \
         simdutf8 `basic` in MiB/s:\n\n\
         | N | ASCII is_valid / basic | ASCII validate / compat | mixed is_valid / basic | \
         mixed validate / compat | ASCII basic M | mixed basic M |\n|---|---|---|---|---|---|---|\n",
    );
    for n in SIZES {
        out.push_str(&format!("| {n} |"));
        for text in TEXTS {
            for k in 0..PAIRS.len() {
                let q = s.row(text, n).map(|r| &r.ratios[k]);
                out.push_str(&format!(" {} |", fmt_quartiles(q)));
            }
        }
        for text in TEXTS {
            let m = s
                .row(text, n)
                .map(|r| n as f64 / r.basic_ns * 1e9 / f64::from(1u32 << 20));
            out.push_str(&format!(
                " {} |",
                m.map_or("—".to_owned(), |m| format!("{m:.0}"))
            ));
        }
        out.push('\n');
    }
    out
}

/// The short-input target: every median ratio of the table at most 1.02 (1.0 with 2%
/// for noise).
pub fn short_target(s: &Short) -> String {
    let mut worst: Option<(f64, String)> = None;
    let mut missing = false;
    for n in SIZES {
        for text in TEXTS {
            for (k, (_, ours, _)) in PAIRS.iter().enumerate() {
                match s.row(text, n).map(|r| r.ratios[k][1]) {
                    None => missing = true,
                    Some(v) if worst.as_ref().is_none_or(|(w, _)| v > *w) => {
                        worst = Some((v, format!("{ours} on {n} B of {text}")));
                    }
                    Some(_) => {}
                }
            }
        }
    }
    let verdict = match (&worst, missing) {
        (_, true) | (None, _) => "not measured",
        (Some((w, _)), _) if *w <= 1.02 => "met",
        _ => "NOT met",
    };
    let shown = worst.map_or("—".to_owned(), |(w, at)| format!("{w:.2} ({at})"));
    format!(
        "- issue 23: short inputs (1 B to 4 KiB) no slower than simdutf8, both entry points, \
         2% for noise: worst median time ratio {shown} — {verdict}.\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the harness writes for one row (as `crates/bench/benches/short.rs` does).
    fn json_row(text: &str, n: usize, is_valid: [f64; 3], validate: [f64; 3]) -> serde_json::Value {
        serde_json::json!({
            "text": text, "n": n, "rounds": 100,
            "ns_per_call": {"utf8_codec::is_valid": 1.0, "simdutf8::basic": 1000.0},
            "is_valid/basic": is_valid, "validate/compat": validate,
        })
    }

    #[test]
    fn reads_the_harness_and_shows_medians_with_quartiles() {
        let mut rows = Vec::new();
        for n in SIZES {
            for text in TEXTS {
                // Ours faster everywhere but validate on 64 B of mixed text.
                let slow = n == 64 && text == "mixed";
                let v = if slow {
                    [1.2, 1.25, 1.3]
                } else {
                    [0.45, 0.5, 0.55]
                };
                rows.push(json_row(text, n, [0.45, 0.5, 0.55], v));
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("short.json");
        std::fs::write(&path, serde_json::to_string(&rows).unwrap()).unwrap();
        let s = read_short(&path).unwrap();
        assert_eq!(s.0.len(), 32);
        let t = short_table(&s);
        // 64 bytes in 1,000 ns: 61 MiB/s.
        assert!(
            t.contains(
                "| 64 | 0.50 (0.45-0.55) | 0.50 (0.45-0.55) | 0.50 (0.45-0.55) | \
                 1.25 (1.20-1.30) | 61 | 61 |"
            ),
            "{t}"
        );
        let g = short_target(&s);
        assert!(
            g.contains(
                "worst median time ratio 1.25 (utf8_codec::validate on 64 B of mixed) — NOT met."
            ),
            "{g}"
        );
        // A size missing: not measured, whatever the others say.
        let partial = Short(s.0[1..].to_vec());
        assert!(short_target(&partial).ends_with("— not measured.\n"));
        assert!(short_table(&partial).contains("| 1 | — | — |"));
        // Not the harness's output: an error naming the file.
        std::fs::write(&path, "[{\"text\": \"ascii\"}]").unwrap();
        let e = read_short(&path).unwrap_err().to_string();
        assert!(e.contains("short.json"), "{e}");
    }
}
