//! The codec against its peers, side by side in one run, on the corpora of
//! `utf8_testkit::corpus` (generated deterministically): `cargo bench -p utf8-bench --bench
//! codec`. `UTF8_BENCH_MIB` sets the corpus size (default 64 MiB); `UTF8_BENCH_CORPORA` a
//! comma-separated subset of corpus names.
#![forbid(unsafe_code)]
#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use utf8_bench::{corpus_size, selected_corpora};
use utf8_codec::Kernel;
use utf8_testkit::corpus;

/// The peers' repair: simdutf8's `compat` validator to find each error,
/// the text before it pushed (simdutf8 has just validated it; its basic validator turns it
/// into a `str` at full speed without unsafe code), then U+FFFD.
fn compat_repair(mut rest: &[u8], out: &mut String) {
    loop {
        match simdutf8::compat::from_utf8(rest) {
            Ok(s) => return out.push_str(s),
            Err(e) => {
                let (ok, bad) = rest.split_at(e.valid_up_to());
                out.push_str(simdutf8::basic::from_utf8(ok).unwrap_or_default());
                out.push('\u{FFFD}');
                rest = &bad[e.error_len().unwrap_or(bad.len())..];
            }
        }
    }
}

fn benches(c: &mut Criterion) {
    for name in selected_corpora() {
        // Each corpus is generated just before its benchmarks and dropped after them, so that
        // one at a time is in memory, freshly written (with all nine alive, the ones
        // benchmarked last ran 15-35% slower on this machine).
        let data = corpus::generate(name, corpus_size(64));
        let data = &data[..];
        let mut g = c.benchmark_group(format!("validate/{name}"));
        g.throughput(Throughput::Bytes(data.len() as u64))
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        g.bench_function("std::str::from_utf8", |b| {
            b.iter(|| std::str::from_utf8(black_box(data)).is_ok())
        });
        g.bench_function("simdutf8::basic", |b| {
            b.iter(|| simdutf8::basic::from_utf8(black_box(data)).is_ok())
        });
        g.bench_function("simdutf8::compat", |b| {
            b.iter(|| simdutf8::compat::from_utf8(black_box(data)).is_ok())
        });
        g.bench_function("simdutf::validate_utf8", |b| {
            b.iter(|| simdutf::validate_utf8(black_box(data)))
        });
        g.bench_function("encoding_rs::utf8_valid_up_to", |b| {
            b.iter(|| encoding_rs::Encoding::utf8_valid_up_to(black_box(data)))
        });
        g.bench_function("bstr::to_str", |b| {
            b.iter(|| bstr::ByteSlice::to_str(black_box(data)).is_ok())
        });
        for k in Kernel::available() {
            g.bench_function(BenchmarkId::new("utf8_codec::valid_up_to", k.name()), |b| {
                b.iter(|| k.valid_up_to(black_box(data)))
            });
        }
        g.finish();

        let mut g = c.benchmark_group(format!("errors/{name}"));
        g.throughput(Throughput::Bytes(data.len() as u64))
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        g.bench_function("utf8_codec::errors", |b| {
            b.iter(|| utf8_codec::errors(black_box(data)).count())
        });
        g.bench_function("std::utf8_chunks", |b| {
            b.iter(|| {
                black_box(data)
                    .utf8_chunks()
                    .filter(|c| !c.invalid().is_empty())
                    .count()
            })
        });
        g.bench_function("bstr::utf8_chunks", |b| {
            b.iter(|| {
                bstr::ByteSlice::utf8_chunks(black_box(data))
                    .filter(|c| !c.invalid().is_empty())
                    .count()
            })
        });
        g.bench_function("simdutf8::compat loop", |b| {
            b.iter(|| {
                let (mut rest, mut n) = (black_box(data), 0usize);
                while let Err(e) = simdutf8::compat::from_utf8(rest) {
                    n += 1;
                    rest = &rest
                        [e.valid_up_to() + e.error_len().unwrap_or(rest.len() - e.valid_up_to())..];
                }
                n
            })
        });
        g.bench_function("simdutf::validate_utf8_with_errors loop", |b| {
            // simdutf reports where an error starts, not its length: resume one byte later.
            b.iter(|| {
                let (mut rest, mut n) = (black_box(data), 0usize);
                loop {
                    let r = simdutf::validate_utf8_with_errors(rest);
                    if matches!(r.error, simdutf::ErrorCode::Success) {
                        break n;
                    }
                    n += 1;
                    rest = &rest[r.count + 1..];
                }
            })
        });
        g.finish();

        let mut g = c.benchmark_group(format!("repair/{name}"));
        g.throughput(Throughput::Bytes(data.len() as u64))
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        g.bench_function("utf8_codec::repair", |b| {
            b.iter(|| utf8_codec::repair(black_box(data)).len())
        });
        g.bench_function("String::from_utf8_lossy", |b| {
            b.iter(|| String::from_utf8_lossy(black_box(data)).len())
        });
        g.bench_function("bstr::to_str_lossy", |b| {
            b.iter(|| bstr::ByteSlice::to_str_lossy(black_box(data)).len())
        });
        g.bench_function("encoding_rs decode", |b| {
            b.iter(|| {
                encoding_rs::UTF_8
                    .decode_without_bom_handling(black_box(data))
                    .0
                    .len()
            })
        });
        g.bench_function("simdutf8::compat + push U+FFFD", |b| {
            b.iter(|| {
                let mut out = String::with_capacity(data.len());
                compat_repair(black_box(data), &mut out);
                out.len()
            })
        });
        // The same two with one output buffer for every iteration: what a program repairing
        // many inputs pays, without the page faults of a fresh 64 MiB allocation.
        let mut out = String::with_capacity(data.len() + data.len() / 4 + 16);
        g.bench_function("utf8_codec::repair_into (reused String)", |b| {
            b.iter(|| {
                out.clear();
                let opts = utf8_codec::RepairOptions::default();
                utf8_codec::repair_into(black_box(data), &opts, &mut out);
                out.len()
            })
        });
        g.bench_function("simdutf8::compat + push U+FFFD (reused String)", |b| {
            b.iter(|| {
                out.clear();
                compat_repair(black_box(data), &mut out);
                out.len()
            })
        });
        g.finish();

        // Lossy UTF-8 to UTF-16, each writing into a buffer reused across iterations.
        // simdutf's valid-only transcoder is compared in the `utf16` bench (best of
        // interleaved rounds), where it runs on the valid corpora only.
        let mut g = c.benchmark_group(format!("utf16/{name}"));
        g.throughput(Throughput::Bytes(data.len() as u64))
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        let mut units: Vec<u16> = Vec::with_capacity(data.len() + 4);
        g.bench_function("utf8_codec::utf8_to_utf16_lossy", |b| {
            b.iter(|| {
                units.clear();
                utf8_codec::utf8_to_utf16_lossy(black_box(data), &mut units)
            })
        });
        let mut buf = vec![0u16; data.len() + 4];
        g.bench_function("utf8_codec::utf8_to_utf16_lossy_into", |b| {
            b.iter(|| utf8_codec::utf8_to_utf16_lossy_into(black_box(data), &mut buf).written)
        });
        g.bench_function("encoding_rs decode_to_utf16", |b| {
            b.iter(|| {
                let mut dec = encoding_rs::UTF_8.new_decoder_without_bom_handling();
                dec.decode_to_utf16(black_box(data), &mut buf, true).2
            })
        });
        g.bench_function("std from_utf8_lossy + encode_utf16", |b| {
            b.iter(|| {
                units.clear();
                units.extend(String::from_utf8_lossy(black_box(data)).encode_utf16());
                units.len()
            })
        });
        drop(buf);
        drop(units);
        g.finish();

        let mut g = c.benchmark_group(format!("count/{name}"));
        g.throughput(Throughput::Bytes(data.len() as u64))
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        g.bench_function("utf8_codec::count", |b| {
            b.iter(|| utf8_codec::count(black_box(data)).chars)
        });
        g.bench_function("bytecount::num_chars", |b| {
            b.iter(|| bytecount::num_chars(black_box(data)))
        });
        g.bench_function("simdutf8::basic (validate only)", |b| {
            b.iter(|| simdutf8::basic::from_utf8(black_box(data)).is_ok())
        });
        g.finish();
    }
}

criterion_group!(codec, benches);
criterion_main!(codec);
