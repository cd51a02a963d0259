//! The benchmarks of utf8-codec and utf8-dfa against their peers, in a package of their own so
//! that the libraries' tests and examples build none of the peers (criterion, simdutf8, the C++
//! simdutf library, bytecount). Not published.
//!
//! ```text
//! cargo bench -p utf8-bench --bench codec      # the codec against its peers (criterion)
//! cargo bench -p utf8-bench --bench short      # 1 B to 4 KiB against simdutf8, paired rounds
//! cargo bench -p utf8-bench --bench validate   # utf8-dfa beside std, the codec and simdutf8
//! cargo bench -p utf8-bench --bench utf16      # UTF-8 to UTF-16 against simdutf, encoding_rs
//! cargo bench -p utf8-bench --bench utf16_decode  # UTF-16LE to UTF-8, the same peers
//! ```
//!
//! `cargo xtask bench-lib` runs the first two and writes BENCHMARKS.md's Library section.
//! `tests/simdutf.rs` holds the differential test of the codec's UTF-16 transcoder against
//! simdutf on valid text.
//!
//! The library holds what the benches share: the corpus selection and size read from the
//! environment, the best-of-rounds timer of the interleaved benches ([`best_ms`]), the
//! distinct in-cache inputs they cycle through ([`pieces`]), and [`simdutf::utf8_to_utf16le`]
//! and [`simdutf::utf16le_to_utf8`], the safe wrappers of simdutf's transcoders (the
//! package's only `unsafe` blocks).
#![deny(unsafe_code)]

#[allow(unsafe_code)]
pub mod simdutf;

/// The corpora of [`utf8_testkit::corpus::NAMES`] to run, in order: all of them, or those
/// named in the comma-separated `UTF8_BENCH_CORPORA`.
pub fn selected_corpora() -> impl Iterator<Item = &'static str> {
    let only = std::env::var("UTF8_BENCH_CORPORA").unwrap_or_default();
    utf8_testkit::corpus::NAMES
        .into_iter()
        .filter(move |name| only.is_empty() || only.split(',').any(|o| o == *name))
}

/// The number in the environment variable `name`, or `default` when it is unset or not a
/// number.
pub fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The corpus size in bytes: `UTF8_BENCH_MIB` MiB, `default_mib` without it.
pub fn corpus_size(default_mib: usize) -> usize {
    env_or("UTF8_BENCH_MIB", default_mib) << 20
}

/// The best of `rounds` runs of `reps` calls of `f`, in milliseconds per call.
pub fn best_ms(rounds: usize, reps: usize, mut f: impl FnMut()) -> f64 {
    (0..rounds)
        .map(|_| {
            let t = std::time::Instant::now();
            for _ in 0..reps {
                f();
            }
            t.elapsed().as_secs_f64() * 1e3 / reps as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// How many distinct inputs an in-cache figure cycles through (see [`pieces`]).
pub const PIECES: usize = 4;

/// `n` distinct pieces of about `size` bytes of corpus `name`, cut one after another from
/// `n * size` bytes of it, each at a character boundary (after any continuation bytes), so
/// that valid corpora give valid pieces.
///
/// An in-cache figure cycles through several inputs because a branchy decoder called again
/// and again on one buffer of a few KiB runs faster than on any real input: the branch
/// predictor learns that buffer's branches. BENCHMARKS.md ("Branch predictors and one
/// repeated buffer") has the figures that showed it.
///
/// ```
/// let p = utf8_bench::pieces("mixed", 1000, 3);
/// assert_eq!(p.len(), 3);
/// assert!(p.iter().all(|p| std::str::from_utf8(p).is_ok() && p.len() >= 1000));
/// assert_ne!(p[0], p[1]);
/// ```
pub fn pieces(name: &str, size: usize, n: usize) -> Vec<Vec<u8>> {
    let all = utf8_testkit::corpus::generate(name, size * n + 4 * n);
    let mut out = Vec::with_capacity(n);
    let mut at = 0;
    for _ in 0..n {
        let mut end = (at + size).min(all.len());
        while end < all.len() && all[end] & 0xC0 == 0x80 {
            end += 1;
        }
        out.push(all[at..end].to_vec());
        at = end;
    }
    out
}
