//! Validation throughput of utf8-dfa beside its peers (std, utf8-codec, simdutf8), in one run.
//!
//! ```text
//! cargo bench -p utf8-bench --bench validate
//! ```
//!
//! Corpora are generated deterministically here: pure ASCII, Latin (mostly ASCII with
//! accents), Cyrillic, CJK, emoji, and mixed scripts (words of all of them with ASCII spaces
//! and punctuation); each at 64 KiB (cache-resident), all valid.
#![forbid(unsafe_code)]
#![allow(missing_docs)] // criterion_group! generates an undocumented function

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use utf8_testkit::Rng;

const SIZE: usize = 64 * 1024;

/// Words drawn from `words`, separated by `seps`, to at least `len` bytes (cut at a character
/// boundary).
fn corpus(seed: u64, words: &[&str], seps: &[&str], len: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut s = String::with_capacity(len + 64);
    while s.len() < len {
        s.push_str(rng.pick(words));
        s.push_str(rng.pick(seps));
    }
    let mut end = len;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    s.into_bytes()
}

const ASCII: &[&str] = &[
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "lazy",
    "dog",
    "validation",
    "of",
    "text",
];
const LATIN: &[&str] = &[
    "déjà", "vu", "Grüße", "aus", "Köln", "naïve", "façade", "el", "niño", "año", "straße", "et",
    "la", "de", "und", "mit",
];
const CYRILLIC: &[&str] = &[
    "привет",
    "мир",
    "проверка",
    "текста",
    "Москва",
    "съешь",
    "ещё",
];
const CJK: &[&str] = &[
    "日本語",
    "のテキスト",
    "中文",
    "汉字",
    "한국어",
    "検証",
    "世界",
];
const EMOJI: &[&str] = &["😀", "👍🏽", "🦀", "🚀", "🎉", "👨‍👩‍👧", "🇺🇳"];
const SEPS: &[&str] = &[" ", " ", " ", ", ", ". ", "\n"];

fn corpora() -> Vec<(&'static str, Vec<u8>)> {
    let mixed: Vec<&str> = [
        LATIN,
        CYRILLIC,
        CJK,
        EMOJI,
        ASCII,
        &["κόσμε", "Ελληνικά", "עברית", "العربية"],
    ]
    .concat();
    let cjk_seps: &[&str] = &["", "", "、", "。"];
    vec![
        ("ascii", corpus(1, ASCII, SEPS, SIZE)),
        ("latin", corpus(2, LATIN, SEPS, SIZE)),
        ("cyrillic", corpus(3, CYRILLIC, SEPS, SIZE)),
        ("cjk", corpus(4, CJK, cjk_seps, SIZE)),
        ("emoji", corpus(5, EMOJI, &[""], SIZE)),
        ("mixed", corpus(6, &mixed, SEPS, SIZE)),
    ]
}

fn validate(c: &mut Criterion) {
    for (name, input) in corpora() {
        assert!(std::str::from_utf8(&input).is_ok());
        let mut group = c.benchmark_group(format!("validate/{name}"));
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        group.sample_size(30);
        let input = &input[..];
        group.bench_with_input(BenchmarkId::new("std", SIZE), input, |b, i| {
            b.iter(|| std::str::from_utf8(black_box(i)).is_ok())
        });
        group.bench_with_input(BenchmarkId::new("utf8_dfa", SIZE), input, |b, i| {
            b.iter(|| utf8_dfa::validate(black_box(i)).is_ok())
        });
        group.bench_with_input(BenchmarkId::new("utf8_codec", SIZE), input, |b, i| {
            b.iter(|| utf8_codec::validate(black_box(i)).is_ok())
        });
        group.bench_with_input(BenchmarkId::new("simdutf8", SIZE), input, |b, i| {
            b.iter(|| simdutf8::basic::from_utf8(black_box(i)).is_ok())
        });
        group.finish();
    }
}

/// Inputs with errors: the whole `errors()` list, against the codec's.
fn errors(c: &mut Criterion) {
    let mixed = corpora().pop().expect("the mixed corpus").1;
    // One error about every 1000 bytes, placed at character boundaries.
    let mut sparse = Vec::with_capacity(mixed.len() + 128);
    for (i, chunk) in mixed.chunk_by(|_, b| b & 0xC0 == 0x80).enumerate() {
        if i % 400 == 399 {
            sparse.extend_from_slice(b"\xED\xA0\x80");
        }
        sparse.extend_from_slice(chunk);
    }
    let mut rng = Rng::new(7);
    let random: Vec<u8> = (0..SIZE).map(|_| rng.next() as u8).collect();
    for (name, input) in [("sparse-errors", sparse), ("random-bytes", random)] {
        assert_eq!(
            utf8_dfa::errors(&input).count(),
            utf8_codec::errors(&input).count()
        );
        let mut group = c.benchmark_group(format!("errors/{name}"));
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        group.sample_size(30);
        let input = &input[..];
        group.bench_with_input(BenchmarkId::new("utf8_dfa", SIZE), input, |b, i| {
            b.iter(|| utf8_dfa::errors(black_box(i)).count())
        });
        group.bench_with_input(BenchmarkId::new("utf8_codec", SIZE), input, |b, i| {
            b.iter(|| utf8_codec::errors(black_box(i)).count())
        });
        group.finish();
    }
}

criterion_group!(benches, validate, errors);
criterion_main!(benches);
