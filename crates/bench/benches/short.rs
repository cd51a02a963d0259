//! Short inputs: `utf8_codec::is_valid` against `simdutf8::basic::from_utf8` and
//! `utf8_codec::validate` against `simdutf8::compat::from_utf8` (`core::str::from_utf8`
//! beside them) on 1,000 distinct valid buffers of exactly N bytes, N from 1 B to 4 KiB, cut
//! from the ASCII and the mixed corpus of `utf8_testkit::corpus`:
//! `cargo bench -p utf8-bench --bench short`. With `UTF8_BENCH_SHORT_JSON=path` the figures
//! are also written there as JSON (`cargo xtask bench-lib` reads them).
//!
//! Paired rounds, not criterion. Each round times one pass of every function over the same
//! buffers, back to back, in an order that rotates and reverses from round to round; the ratio of a round
//! is ours over simdutf8's in that round, and the figure is the median of the rounds' ratios,
//! with their quartiles. Whatever else the machine does lands on both sides of a round's
//! ratio alike. Criterion timed each function for 0.6 s, a few seconds apart from its peer,
//! and put the same build at 0.93 to 1.36 of simdutf8 for the same size in different runs.
//! Each function runs in its own loop, monomorphized, so the call is inlined into the loop
//! as in a caller's code (a call through `&dyn Fn` hides inlining costs).
#![forbid(unsafe_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use utf8_testkit::corpus;

/// The functions, in the order of the JSON and of the columns; the pairs compared are
/// (0, 1) and (2, 3).
const NAMES: [&str; 5] = [
    "utf8_codec::is_valid",
    "simdutf8::basic",
    "utf8_codec::validate",
    "simdutf8::compat",
    "std::str::from_utf8",
];

/// How long the rounds of one size of one text take in all.
const BUDGET: Duration = Duration::from_millis(1000);

/// 1,000 distinct valid buffers of exactly `n` bytes cut from `text` at character
/// boundaries, each in its own allocation (as a parser's fields are).
fn short_buffers(text: &[u8], n: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::with_capacity(1000);
    let mut start = 0;
    while out.len() < 1000 {
        if start + n > text.len() {
            start = 0;
        }
        if let Ok(s) = std::str::from_utf8(&text[start..start + n]) {
            out.push(s.as_bytes().to_vec());
            start += 977; // a stride that is no multiple of a vector
        } else {
            start += 1;
        }
    }
    out
}

/// Nanoseconds for `reps` passes of `f` over `bufs`; the count of valid buffers goes to
/// `black_box` so that no call can be skipped.
#[inline(never)]
fn pass<F: Fn(&[u8]) -> bool>(bufs: &[Vec<u8>], reps: usize, f: F) -> f64 {
    let t = Instant::now();
    let mut valid = 0;
    for _ in 0..reps {
        valid += bufs.iter().filter(|b| f(black_box(b))).count();
    }
    black_box(valid);
    t.elapsed().as_nanos() as f64
}

/// One timing of function `i`.
fn time(i: usize, bufs: &[Vec<u8>], reps: usize) -> f64 {
    match i {
        0 => pass(bufs, reps, utf8_codec::is_valid),
        1 => pass(bufs, reps, |b| simdutf8::basic::from_utf8(b).is_ok()),
        2 => pass(bufs, reps, |b| utf8_codec::validate(b).is_ok()),
        3 => pass(bufs, reps, |b| simdutf8::compat::from_utf8(b).is_ok()),
        _ => pass(bufs, reps, |b| std::str::from_utf8(b).is_ok()),
    }
}

/// The `q`-quantile of `v` (sorted in place), by nearest rank.
fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

/// The figures of one size of one text.
struct Row {
    text: &'static str,
    n: usize,
    /// Median nanoseconds per call of each of [`NAMES`].
    ns: [f64; 5],
    /// Quartiles (first, median, third) of the rounds' ratios: is_valid / basic and
    /// validate / compat.
    ratios: [[f64; 3]; 2],
    rounds: usize,
}

fn measure(text: &'static str, bufs: &[Vec<u8>], n: usize) -> Row {
    // Enough passes per timing that it lasts some microseconds (1,000 calls of a few ns).
    let reps = (64 / n).max(1);
    let calls = (reps * bufs.len()) as f64;
    for i in 0..NAMES.len() {
        time(i, bufs, reps); // warm the code and the buffers
    }
    let mut times: [Vec<f64>; 5] = Default::default();
    let start = Instant::now();
    let mut round = 0;
    while round < 50 || (start.elapsed() < BUDGET && round < 20_000) {
        for k in 0..NAMES.len() {
            // Rotating, and backwards every other round: each function runs before and after
            // its peer equally often.
            let k = if round % 2 == 0 {
                k
            } else {
                NAMES.len() - 1 - k
            };
            let i = (round / 2 + k) % NAMES.len();
            times[i].push(time(i, bufs, reps));
        }
        round += 1;
    }
    let ratio = |a: usize, b: usize| {
        let mut r: Vec<f64> = times[a].iter().zip(&times[b]).map(|(x, y)| x / y).collect();
        [0.25, 0.5, 0.75].map(|q| quantile(&mut r, q))
    };
    Row {
        text,
        n,
        ns: std::array::from_fn(|i| quantile(&mut times[i].clone(), 0.5) / calls),
        ratios: [ratio(0, 1), ratio(2, 3)],
        rounds: round,
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument picks the texts ("ascii", "mixed").
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let mut rows = Vec::new();
    println!(
        "text   N     | is_valid/basic q1 med q3 | validate/compat q1 med q3 | ns per call: {}",
        NAMES.join(", ")
    );
    for text in ["ascii", "mixed"] {
        if !filter.is_empty() && !filter.iter().any(|f| f == text) {
            continue;
        }
        let corpus = corpus::generate(text, 1 << 20);
        for n in corpus::SHORT_SIZES {
            let row = measure(text, &short_buffers(&corpus, n), n);
            let [a, b] = row.ratios;
            println!(
                "{text:6} {n:5} | {:.2} {:.2} {:.2} | {:.2} {:.2} {:.2} | {} ({} rounds)",
                a[0],
                a[1],
                a[2],
                b[0],
                b[1],
                b[2],
                row.ns.map(|x| format!("{x:.2}")).join(" "),
                row.rounds
            );
            rows.push(row);
        }
    }
    if let Ok(path) = std::env::var("UTF8_BENCH_SHORT_JSON") {
        let json: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "text": r.text,
                    "n": r.n,
                    "rounds": r.rounds,
                    "ns_per_call": NAMES.iter().zip(r.ns).map(|(k, v)| (k.to_string(), v.into()))
                        .collect::<serde_json::Map<_, _>>(),
                    "is_valid/basic": r.ratios[0],
                    "validate/compat": r.ratios[1],
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&json).expect("plain numbers and strings");
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("short: {path}: {e}");
            std::process::exit(2);
        }
    }
}
