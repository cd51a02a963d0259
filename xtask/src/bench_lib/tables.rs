//! The tables of the Library section: validate, every error, repair, count, UTF-16.

use utf8_testkit::corpus::{NAMES as CORPORA, VALID};

use crate::bench_lib::results::{Results, fmt_ratio, gibs, kernel_bench, ratio};
use crate::chart::Bar;

/// One table: a header, the corpora as rows, the peers' columns and ratio columns.
struct Table<'a> {
    title: &'a str,
    group: &'a str,
    corpora: &'a [&'a str],
    /// (column heading, benchmark name).
    columns: Vec<(String, String)>,
    /// (column heading, numerator name, denominator name); bold when `bold`.
    ratios: Vec<(&'a str, String, String, bool)>,
}

fn table(r: &Results, t: &Table) -> String {
    let mut s = format!("{}\n\n| corpus |", t.title);
    for (h, _) in &t.columns {
        s.push_str(&format!(" {h} |"));
    }
    for (h, ..) in &t.ratios {
        s.push_str(&format!(" {h} |"));
    }
    s.push_str("\n|---|");
    s.push_str(&"---|".repeat(t.columns.len() + t.ratios.len()));
    s.push('\n');
    for c in t.corpora {
        let g = format!("{}/{c}", t.group);
        s.push_str(&format!("| {c} |"));
        for (_, name) in &t.columns {
            s.push_str(&format!(" {} |", gibs(r.get(&g, name))));
        }
        for (_, num, den, bold) in &t.ratios {
            let v = fmt_ratio(ratio(r.get(&g, num), r.get(&g, den)));
            if *bold {
                s.push_str(&format!(" **{v}** |"));
            } else {
                s.push_str(&format!(" {v} |"));
            }
        }
        s.push('\n');
    }
    s
}

/// The bars of the Library chart: validation of each valid corpus, GiB/s, by the active
/// kernel and the peers README compares with (those with a result).
pub fn chart_bars(r: &Results, active: &str) -> Vec<Bar> {
    let ours = format!("utf8-codec ({active})");
    let columns = [
        (ours.as_str(), kernel_bench(active)),
        ("simdutf8", "simdutf8::basic".to_owned()),
        ("simdutf (C++)", "simdutf::validate_utf8".to_owned()),
        ("encoding_rs", "encoding_rs::utf8_valid_up_to".to_owned()),
        ("std", "std::str::from_utf8".to_owned()),
    ];
    let mut bars = Vec::new();
    for c in &CORPORA[..VALID] {
        for (series, name) in &columns {
            if let Some(v) = r.get(&format!("validate/{c}"), name) {
                bars.push(Bar {
                    label: format!("{c}: {series}"),
                    series: (*series).to_owned(),
                    value: v,
                });
            }
        }
    }
    bars
}

/// The tables.
pub fn tables(r: &Results, active: &str) -> String {
    let cols = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(h, n)| ((*h).to_owned(), (*n).to_owned()))
            .collect()
    };
    let mut validate = cols(&[
        ("std", "std::str::from_utf8"),
        ("simdutf8 basic", "simdutf8::basic"),
        ("simdutf8 compat", "simdutf8::compat"),
        ("simdutf (C++)", "simdutf::validate_utf8"),
        ("encoding_rs", "encoding_rs::utf8_valid_up_to"),
        ("bstr", "bstr::to_str"),
    ]);
    for k in utf8_codec::Kernel::available() {
        validate.push((format!("ours {}", k.name()), kernel_bench(k.name())));
    }
    let out = [
        Table {
            title: "Validation of valid text, GiB/s:",
            group: "validate",
            corpora: &CORPORA[..VALID],
            columns: validate,
            ratios: vec![(
                "ours / simdutf",
                kernel_bench(active),
                "simdutf::validate_utf8".to_owned(),
                true,
            )],
        },
        Table {
            title: "Every error (`errors()` and the peers' loops that find them all), GiB/s \
                    (M = MiB/s):",
            group: "errors",
            corpora: &CORPORA,
            columns: cols(&[
                ("std utf8_chunks", "std::utf8_chunks"),
                ("bstr utf8_chunks", "bstr::utf8_chunks"),
                ("simdutf8 compat loop", "simdutf8::compat loop"),
                (
                    "simdutf with_errors loop",
                    "simdutf::validate_utf8_with_errors loop",
                ),
                ("ours `errors()`", "utf8_codec::errors"),
            ]),
            ratios: vec![
                (
                    "ours / simdutf",
                    "utf8_codec::errors".to_owned(),
                    "simdutf::validate_utf8_with_errors loop".to_owned(),
                    false,
                ),
                (
                    "ours / std",
                    "utf8_codec::errors".to_owned(),
                    "std::utf8_chunks".to_owned(),
                    false,
                ),
            ],
        },
        Table {
            title: "Repair (one U+FFFD per maximal subpart), GiB/s of input:",
            group: "repair",
            corpora: &CORPORA,
            columns: cols(&[
                ("from_utf8_lossy", "String::from_utf8_lossy"),
                ("bstr to_str_lossy", "bstr::to_str_lossy"),
                ("encoding_rs decode", "encoding_rs decode"),
                (
                    "simdutf8 compat + push U+FFFD",
                    "simdutf8::compat + push U+FFFD",
                ),
                ("ours `repair`", "utf8_codec::repair"),
                (
                    "composite, reused buffer",
                    "simdutf8::compat + push U+FFFD (reused String)",
                ),
                (
                    "ours `repair_into`, reused buffer",
                    "utf8_codec::repair_into (reused String)",
                ),
            ]),
            ratios: vec![
                (
                    "ours / lossy",
                    "utf8_codec::repair".to_owned(),
                    "String::from_utf8_lossy".to_owned(),
                    false,
                ),
                (
                    "ours / composite",
                    "utf8_codec::repair".to_owned(),
                    "simdutf8::compat + push U+FFFD".to_owned(),
                    false,
                ),
                (
                    "reused: ours / composite",
                    "utf8_codec::repair_into (reused String)".to_owned(),
                    "simdutf8::compat + push U+FFFD (reused String)".to_owned(),
                    false,
                ),
            ],
        },
        Table {
            title: "Count (bytes, scalars, lines, length histogram, errors by kind, in one \
                    pass), GiB/s:",
            group: "count",
            corpora: &CORPORA,
            columns: cols(&[
                ("bytecount num_chars", "bytecount::num_chars"),
                (
                    "simdutf8 basic (validation alone)",
                    "simdutf8::basic (validate only)",
                ),
                ("ours `count`", "utf8_codec::count"),
            ]),
            ratios: vec![(
                "ours / simdutf8 basic",
                "utf8_codec::count".to_owned(),
                "simdutf8::basic (validate only)".to_owned(),
                false,
            )],
        },
        Table {
            title: "Lossy UTF-8 to UTF-16 (one U+FFFD per maximal subpart, into a reused \
                    buffer), GiB/s of input:",
            group: "utf16",
            corpora: &CORPORA,
            columns: cols(&[
                (
                    "std from_utf8_lossy + encode_utf16",
                    "std from_utf8_lossy + encode_utf16",
                ),
                ("encoding_rs decode_to_utf16", "encoding_rs decode_to_utf16"),
                ("ours (Vec)", "utf8_codec::utf8_to_utf16_lossy"),
                ("ours (into slice)", "utf8_codec::utf8_to_utf16_lossy_into"),
            ]),
            ratios: vec![(
                "ours / encoding_rs",
                "utf8_codec::utf8_to_utf16_lossy".to_owned(),
                "encoding_rs decode_to_utf16".to_owned(),
                true,
            )],
        },
    ];
    out.iter()
        .map(|t| table(r, t))
        .collect::<Vec<_>>()
        .join("\n")
}
