//! The library's speed targets, each a ratio of two benchmarks on some corpora, and how far each is.

use utf8_testkit::corpus::{NAMES as CORPORA, VALID};

use crate::bench_lib::results::{Results, fmt_ratio, kernel_bench, ratio};

/// A target's ratio on one corpus.
type Ratio<'a> = &'a dyn Fn(&str) -> Option<f64>;

/// A line per target (a ratio of two benchmarks, at least some minimum on some
/// corpora): the ratios on each corpus and whether the lowest reaches the target.
pub fn targets(r: &Results, active: &str) -> String {
    let k = kernel_bench(active);
    let in_group = |group: &'static str, num: String, den: &'static str| {
        move |c: &str| {
            let g = format!("{group}/{c}");
            ratio(r.get(&g, &num), r.get(&g, den))
        }
    };
    let validate = in_group("validate", k.clone(), "simdutf::validate_utf8");
    let errors_simdutf = in_group(
        "errors",
        "utf8_codec::errors".to_owned(),
        "simdutf::validate_utf8_with_errors loop",
    );
    let errors_std = in_group(
        "errors",
        "utf8_codec::errors".to_owned(),
        "std::utf8_chunks",
    );
    let repair_valid = |c: &str| {
        ratio(
            r.get(&format!("repair/{c}"), "utf8_codec::repair"),
            r.get(&format!("validate/{c}"), &k),
        )
    };
    let repair_composite = in_group(
        "repair",
        "utf8_codec::repair".to_owned(),
        "simdutf8::compat + push U+FFFD",
    );
    let repair_reused = in_group(
        "repair",
        "utf8_codec::repair_into (reused String)".to_owned(),
        "simdutf8::compat + push U+FFFD (reused String)",
    );
    let repair_lossy = in_group(
        "repair",
        "utf8_codec::repair".to_owned(),
        "String::from_utf8_lossy",
    );
    let count = in_group(
        "count",
        "utf8_codec::count".to_owned(),
        "simdutf8::basic (validate only)",
    );
    let utf16 = in_group(
        "utf16",
        "utf8_codec::utf8_to_utf16_lossy".to_owned(),
        "encoding_rs decode_to_utf16",
    );
    // The kernel of the no_std build on the default x86-64 target (SSE2, compile-time
    // features), run here through the std build: the same code.
    let no_std = in_group("validate", kernel_bench("sse2"), "std::str::from_utf8");
    // (target, the corpora it is about, the lowest ratio that meets it, the ratio).
    #[rustfmt::skip]
    let list: [(&str, &[&str], f64, Ratio); 12] = [
        ("validate at least 1.2× simdutf on every valid non-ASCII corpus", &CORPORA[1..VALID], 1.2, &validate),
        ("validate ASCII at least 1.0× simdutf", &CORPORA[..1], 1.0, &validate),
        ("`errors()` at least 1.0× simdutf's `validate_utf8_with_errors` loop on sparse \
         errors", &CORPORA[7..8], 1.0, &errors_simdutf),
        ("`errors()` at least 3× std on random bytes", &CORPORA[8..], 3.0, &errors_std),
        ("repair on valid input as fast as validate (`repair` / our validate; it \
         borrows after one validation, so within this machine's 10% noise counts)", &CORPORA[..VALID], 0.9, &repair_valid),
        ("repair on sparse errors at least 2× the simdutf8 composite", &CORPORA[7..8], 2.0, &repair_composite),
        ("the same, both writing into one reused buffer (`repair_into`; no page faults \
         of a fresh allocation)", &CORPORA[7..8], 2.0, &repair_reused),
        ("repair on random bytes at least 3× `from_utf8_lossy`", &CORPORA[8..], 3.0, &repair_lossy),
        ("count at least 1.0× simdutf8 `basic` validation alone, on every corpus", &CORPORA, 1.0, &count),
        ("issue 23: `utf8_to_utf16_lossy` at least 2× encoding_rs on CJK and mixed text, \
         valid or with sparse errors", &["cjk", "mixed", "sparse-errors"], 2.0, &utf16),
        ("issue 23: `utf8_to_utf16_lossy` at least 1.5× encoding_rs on ASCII", &CORPORA[..1], 1.5, &utf16),
        ("issue 23: the no_std build's kernel on the default x86-64 target (`ours sse2`) at \
         least 1.0× `core::str::from_utf8` (std's), 2% for noise", &["ascii", "latin", "mixed", "cjk"], 0.98, &no_std),
    ];
    let mut s =
        String::from("How far each target of issue 7 is, from these rows (ratios of GiB/s):\n\n");
    for (text, corpora, min, ratio) in list {
        let values: Vec<(&str, Option<f64>)> = corpora.iter().map(|c| (*c, ratio(c))).collect();
        let shown: Vec<String> = values
            .iter()
            .map(|(c, v)| match (values.len(), v) {
                (1, _) => fmt_ratio(*v),
                _ => format!("{c} {}", fmt_ratio(*v)),
            })
            .collect();
        let verdict = if values.iter().any(|(_, v)| v.is_none()) {
            "not measured"
        } else if values.iter().all(|(_, v)| v.is_some_and(|v| v >= min)) {
            "met"
        } else {
            "NOT met"
        };
        s.push_str(&format!("- {}: {} — {verdict}.\n", text, shown.join(", ")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_lib::tables::tables;

    fn results(rows: &[(&str, &str, f64)]) -> Results {
        let mut r = Results::default();
        for (g, n, v) in rows {
            r.0.entry((*g).to_owned())
                .or_default()
                .insert((*n).to_owned(), *v);
        }
        r
    }

    #[test]
    fn tables_and_targets_show_ratios() {
        let r = results(&[
            ("count/cjk", "utf8_codec::count", 6.0),
            ("count/cjk", "simdutf8::basic (validate only)", 5.0),
            ("count/mixed", "utf8_codec::count", 4.0),
            ("count/mixed", "simdutf8::basic (validate only)", 5.0),
            ("errors/random-bytes", "utf8_codec::errors", 0.3),
            ("errors/random-bytes", "std::utf8_chunks", 0.05),
        ]);
        let t = tables(&r, "avx2");
        assert!(t.contains("| cjk | — | 5.00 | 6.00 | 1.20 |"), "{t}");
        assert!(t.contains("| mixed | — | 5.00 | 4.00 | 0.80 |"), "{t}");
        assert!(
            t.contains("| random-bytes | 51 M | — | — | — | 0.30 | — | 6.00 |"),
            "{t}"
        );
        let g = targets(&r, "avx2");
        assert!(
            g.contains("`errors()` at least 3× std on random bytes: 6.00 — met."),
            "{g}"
        );
        // Some corpora were not run: not measured, whatever the others say.
        assert!(
            g.contains("cjk 1.20, emoji —") && g.contains("not measured"),
            "{g}"
        );
        let r = results(
            &CORPORA
                .iter()
                .flat_map(|c| {
                    let g: &'static str = Box::leak(format!("count/{c}").into_boxed_str());
                    let v = if *c == "mixed" { 0.8 } else { 1.1 };
                    [
                        (g, "utf8_codec::count", v),
                        (g, "simdutf8::basic (validate only)", 1.0),
                    ]
                })
                .collect::<Vec<_>>(),
        );
        let g = targets(&r, "avx2");
        assert!(
            g.contains("mixed 0.80") && g.contains("on every corpus: ascii 1.10"),
            "{g}"
        );
        assert!(
            g.lines()
                .find(|l| l.starts_with("- count"))
                .unwrap()
                .ends_with("random-bytes 1.10 — NOT met."),
            "{g}"
        );
        assert!(g.ends_with("— not measured.\n"), "{g}");
    }
}
