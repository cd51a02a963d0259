//! UTF-16LE to UTF-8: the codec's two forms (`Utf16Decoder::decode` over bytes into a slice,
//! `utf16_to_utf8_lossy` over units appending to a `Vec`) against the C++ simdutf library's
//! validating `convert_utf16le_to_utf8` (over units into a slice) and encoding_rs's UTF_16LE
//! decoder (`decode_to_utf8`, over bytes into a slice), on the valid corpora of
//! `utf8_testkit::corpus` encoded as UTF-16, at 64 KiB and 16 MiB of UTF-8:
//!
//! ```text
//! cargo bench -p utf8-bench --bench utf16_decode
//! ```
//!
//! `UTF8_BENCH_CORPORA` selects a comma-separated subset of the corpora, `UTF8_BENCH_ROUNDS`
//! the rounds per figure (default 15). Each figure is the best of its rounds (at 64 KiB a
//! round cycles through [`utf8_bench::PIECES`] distinct pieces of the corpus, see
//! [`utf8_bench::pieces`], to about 16 MiB); the four are interleaved, in three passes. Prints
//! a Markdown table of milliseconds per 16 MiB of UTF-8 and ratios; the kernel goes to
//! standard error.
#![forbid(unsafe_code)]

use std::hint::black_box;

use utf8_bench::{PIECES, best_ms, env_or, pieces, selected_corpora, simdutf};
use utf8_codec::{Utf16Decoder, utf16_to_utf8_lossy};
use utf8_testkit::corpus;

fn main() {
    let rounds = env_or("UTF8_BENCH_ROUNDS", 15);
    eprintln!(
        "64 KiB ({PIECES} distinct pieces in turn) and 16 MiB of UTF-8, best of {rounds} rounds x 3 passes, kernel {}",
        utf8_codec::Kernel::active().name()
    );
    println!(
        "| corpus | size | simdutf ms | ours (decoder) ms | ours (Vec) ms | encoding_rs ms | decoder / simdutf | Vec / simdutf | encoding_rs / decoder | encoding_rs / Vec |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for name in selected_corpora().filter(|n| corpus::NAMES[..corpus::VALID].contains(n)) {
        for size in [64 << 10, 16 << 20] {
            let n = if size < 1 << 20 { PIECES } else { 1 };
            let texts = pieces(name, size, n);
            let units: Vec<Vec<u16>> = texts
                .iter()
                .map(|t| {
                    std::str::from_utf8(t)
                        .expect("a valid corpus")
                        .encode_utf16()
                        .collect()
                })
                .collect();
            let bytes: Vec<Vec<u8>> = units
                .iter()
                .map(|u| u.iter().flat_map(|u| u.to_le_bytes()).collect())
                .collect();
            let longest = units.iter().map(Vec::len).max().unwrap_or(0);
            let mut buf = vec![0u8; 3 * longest + 16];
            let mut vec: Vec<u8> = Vec::with_capacity(buf.len());
            let reps = ((16 << 20) / size / n).max(1);
            let mut t = [f64::INFINITY; 4];
            for _ in 0..3 {
                t[0] = t[0].min(best_ms(rounds, reps, || {
                    for u in &units {
                        black_box(simdutf::utf16le_to_utf8(black_box(u), &mut buf));
                    }
                }));
                t[1] = t[1].min(best_ms(rounds, reps, || {
                    for b in &bytes {
                        let mut dec = Utf16Decoder::new(false);
                        black_box(dec.decode(black_box(b), &mut buf, true));
                    }
                }));
                t[2] = t[2].min(best_ms(rounds, reps, || {
                    for u in &units {
                        vec.clear();
                        black_box(utf16_to_utf8_lossy(black_box(u), &mut vec));
                    }
                }));
                t[3] = t[3].min(best_ms(rounds, reps, || {
                    for b in &bytes {
                        let mut dec = encoding_rs::UTF_16LE.new_decoder_without_bom_handling();
                        black_box(dec.decode_to_utf8(black_box(b), &mut buf, true).2);
                    }
                }));
            }
            // Per 16 MiB of UTF-8, whatever the size.
            let scale = (16 << 20) as f64 / texts.iter().map(Vec::len).sum::<usize>() as f64;
            let [s, dec, v, enc] = t.map(|x| x * scale);
            println!(
                "| {name} | {} KiB | {s:.3} | {dec:.3} | {v:.3} | {enc:.3} | {:.2} | {:.2} | {:.2} | {:.2} |",
                size >> 10,
                dec / s,
                v / s,
                enc / dec,
                enc / v
            );
        }
    }
}
