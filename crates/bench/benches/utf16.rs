//! Lossy UTF-8 to UTF-16: the codec's two forms (`utf8_to_utf16_lossy_into` into a slice,
//! `utf8_to_utf16_lossy` appending to a `Vec`) against the C++ simdutf library's valid-only
//! `convert_utf8_to_utf16le` (valid corpora only) and encoding_rs's `decode_to_utf16`, on the
//! corpora of `utf8_testkit::corpus`:
//!
//! ```text
//! cargo bench -p utf8-bench --bench utf16
//! ```
//!
//! Each corpus at 64 KiB (in cache) and at `UTF8_BENCH_MIB` MiB (default 8);
//! `UTF8_BENCH_CORPORA` selects a comma-separated subset of the corpora, `UTF8_BENCH_ROUNDS`
//! the rounds per figure (default 15). Each figure is the best of its rounds, in milliseconds
//! per call of the size; at 64 KiB a round cycles through [`utf8_bench::PIECES`] distinct
//! pieces of the corpus (see [`utf8_bench::pieces`]) to about 16 MiB; the four transcoders are
//! interleaved, in three passes, so that whatever else the machine does lands on all of
//! them. Prints a Markdown table of milliseconds and ratios; the kernel and the sizes go to
//! standard error.
#![forbid(unsafe_code)]

use std::hint::black_box;

use utf8_bench::{PIECES, best_ms, corpus_size, env_or, pieces, selected_corpora, simdutf};
use utf8_codec::{utf8_to_utf16_lossy, utf8_to_utf16_lossy_into};

/// `a / b` to two decimals, or "-" when either is missing (infinite).
fn ratio(a: f64, b: f64) -> String {
    match a.is_finite() && b.is_finite() {
        true => format!("{:.2}", a / b),
        false => "-".into(),
    }
}

fn main() {
    // `cargo bench` passes `--bench`; there is nothing to filter by name but the corpora.
    let size = corpus_size(8);
    let rounds = env_or("UTF8_BENCH_ROUNDS", 15);
    eprintln!(
        "64 KiB ({PIECES} distinct pieces in turn) and {} MiB, best of {rounds} rounds x 3 passes, kernel {}",
        size >> 20,
        utf8_codec::Kernel::active().name()
    );
    println!(
        "| corpus | size | simdutf ms | ours (slice) ms | ours (Vec) ms | encoding_rs ms | slice / simdutf | Vec / simdutf | encoding_rs / slice | encoding_rs / Vec |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for name in selected_corpora() {
        for size in [64 << 10, size] {
            row(name, size, rounds);
        }
    }
}

/// Times the four transcoders on `size` bytes of corpus `name` and prints its row: per
/// call of `size` bytes, a round of a small size cycling through [`PIECES`] distinct pieces
/// to about 16 MiB.
fn row(name: &str, size: usize, rounds: usize) {
    let n = if size < 1 << 20 { PIECES } else { 1 };
    let data = pieces(name, size, n);
    let valid = data.iter().all(|d| std::str::from_utf8(d).is_ok());
    let longest = data.iter().map(Vec::len).max().unwrap_or(0);
    let mut buf = vec![0u16; longest + 4];
    let mut units: Vec<u16> = Vec::with_capacity(longest + 4);
    let reps = ((16 << 20) / size / n).max(1);
    let mut t = [f64::INFINITY; 4];
    for _ in 0..3 {
        if valid {
            t[0] = t[0].min(best_ms(rounds, reps, || {
                for d in &data {
                    black_box(simdutf::utf8_to_utf16le(black_box(d), &mut buf));
                }
            }));
        }
        t[1] = t[1].min(best_ms(rounds, reps, || {
            for d in &data {
                black_box(utf8_to_utf16_lossy_into(black_box(d), &mut buf));
            }
        }));
        t[2] = t[2].min(best_ms(rounds, reps, || {
            for d in &data {
                units.clear();
                black_box(utf8_to_utf16_lossy(black_box(d), &mut units));
            }
        }));
        t[3] = t[3].min(best_ms(rounds, reps, || {
            for d in &data {
                let mut dec = encoding_rs::UTF_8.new_decoder_without_bom_handling();
                black_box(dec.decode_to_utf16(black_box(d), &mut buf, true).2);
            }
        }));
    }
    let t = t.map(|x| x / n as f64);
    let [s, slice, vec, enc] = t;
    let ms = match s.is_finite() {
        true => format!("{s:.4}"),
        false => "- (invalid input)".into(),
    };
    let kib = size >> 10;
    print!("| {name} | {kib} KiB | {ms} | {slice:.4} | {vec:.4} | {enc:.4} ");
    println!(
        "| {} | {} | {:.2} | {:.2} |",
        ratio(slice, s),
        ratio(vec, s),
        enc / slice,
        enc / vec
    );
}
