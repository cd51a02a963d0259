//! simdutf's valid-only `convert_utf8_to_utf16le` (the C++ library, built from source by the
//! `simdutf` dev-dependency) beside the crate's lossy transcoder: a differential test on valid
//! text, and the timing behind BENCHMARKS.md's comparison, an ignored test
//! because simdutf's entry point is an `unsafe fn` taking raw pointers, and `unsafe` is only
//! allowed under `simd/` (the criterion bench has encoding_rs and std, not simdutf):
//!
//! ```text
//! cargo test --release -p utf8-codec --lib utf16_simdutf -- --ignored --nocapture --test-threads 1
//! ```
//!
//! `UTF8_BENCH_MIB` sets the corpus size (default 8), `UTF8_BENCH_CORPORA` a comma-separated
//! subset of the corpora, `UTF8_BENCH_ROUNDS` the rounds per figure (default 15; the best is
//! kept, the four transcoders interleaved, three passes).

use std::hint::black_box;
use std::time::Instant;
use std::vec::Vec;
use std::{env, eprintln, format, print, println, vec};

use utf8_testkit::corpus;

use crate::utf16::{utf8_to_utf16_lossy, utf8_to_utf16_lossy_into};

/// simdutf's UTF-16 of valid `bytes` (it writes at most one unit per byte).
fn simdutf_utf16(bytes: &[u8], dst: &mut [u16]) -> usize {
    assert!(dst.len() >= bytes.len(), "room for one unit per byte");
    // SAFETY: `bytes` is readable for `bytes.len()` bytes and `dst` writable for at least as
    // many units (asserted just above), the most UTF-16 units simdutf writes for that many
    // bytes of UTF-8; the two do not overlap (one is shared, the other exclusive).
    unsafe { simdutf::convert_utf8_to_utf16le(bytes.as_ptr(), bytes.len(), dst.as_mut_ptr()) }
}

#[test]
fn agrees_with_simdutf_on_valid_text() {
    for name in corpus::NAMES {
        let data = corpus::generate(name, 96 << 10);
        if core::str::from_utf8(&data).is_err() {
            continue;
        }
        let mut want = vec![0u16; data.len()];
        let n = simdutf_utf16(&data, &mut want);
        assert!(n > 0, "{name}: simdutf rejected valid text");
        let mut got = vec![0u16; data.len()];
        let p = utf8_to_utf16_lossy_into(&data, &mut got);
        assert_eq!((p.read, p.replacements), (data.len(), 0), "{name}");
        assert_eq!(got[..p.written], want[..n], "{name}");
        let mut v = Vec::new();
        assert_eq!(utf8_to_utf16_lossy(&data, &mut v), 0, "{name}");
        assert_eq!(v[..], want[..n], "{name}");
    }
}

fn env_or(name: &str, default: usize) -> usize {
    env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The best of `rounds` runs of `f`, in milliseconds.
fn best(rounds: usize, mut f: impl FnMut()) -> f64 {
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
#[ignore = "timing, not a test: run with --ignored --nocapture (see the module docs)"]
fn utf16_timing_against_simdutf() {
    let size = env_or("UTF8_BENCH_MIB", 8) << 20;
    let rounds = env_or("UTF8_BENCH_ROUNDS", 15);
    let only = env::var("UTF8_BENCH_CORPORA").unwrap_or_default();
    eprintln!(
        "{} MiB, best of {rounds} rounds x 3 passes, kernel {}",
        size >> 20,
        crate::Kernel::active().name()
    );
    println!(
        "| corpus | simdutf ms | ours (slice) ms | ours (Vec) ms | encoding_rs ms | slice / simdutf | Vec / simdutf | encoding_rs / slice | encoding_rs / Vec |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for name in corpus::NAMES {
        if !only.is_empty() && !only.split(',').any(|o| o == name) {
            continue;
        }
        let data = corpus::generate(name, size);
        let valid = core::str::from_utf8(&data).is_ok();
        let mut buf = vec![0u16; data.len() + 4];
        let mut units: Vec<u16> = Vec::with_capacity(data.len() + 4);
        let mut t = [f64::INFINITY; 4];
        for _ in 0..3 {
            if valid {
                t[0] = t[0].min(best(rounds, || {
                    black_box(simdutf_utf16(black_box(&data), &mut buf));
                }));
            }
            t[1] = t[1].min(best(rounds, || {
                black_box(utf8_to_utf16_lossy_into(black_box(&data), &mut buf));
            }));
            t[2] = t[2].min(best(rounds, || {
                units.clear();
                black_box(utf8_to_utf16_lossy(black_box(&data), &mut units));
            }));
            t[3] = t[3].min(best(rounds, || {
                let mut dec = encoding_rs::UTF_8.new_decoder_without_bom_handling();
                black_box(dec.decode_to_utf16(black_box(&data), &mut buf, true).2);
            }));
        }
        let [s, slice, vec, enc] = t;
        let ratio = |a: f64, b: f64| match a.is_finite() && b.is_finite() {
            true => format!("{:.2}", a / b),
            false => "-".into(),
        };
        let ms = |a: f64| match a.is_finite() {
            true => format!("{a:.3}"),
            false => "- (invalid input)".into(),
        };
        print!("| {name} | {} | {slice:.3} | {vec:.3} | {enc:.3} ", ms(s));
        println!(
            "| {} | {} | {:.2} | {:.2} |",
            ratio(slice, s),
            ratio(vec, s),
            enc / slice,
            enc / vec
        );
    }
}
