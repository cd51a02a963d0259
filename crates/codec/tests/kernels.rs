//! Every validation kernel available on this CPU against the scalar twin (and std): short
//! sequences at every position around the 64-byte block boundaries, in ASCII and non-ASCII
//! surroundings; random and mutated long inputs.

mod common;

use proptest::prelude::*;
use utf8_codec::Kernel;

fn simd_kernels() -> Vec<Kernel> {
    let ks: Vec<Kernel> = Kernel::available()
        .filter(|&k| k != Kernel::Scalar)
        .collect();
    if ks.is_empty() {
        eprintln!("kernels: no SIMD kernel on this CPU; only the scalar path is tested");
    }
    ks
}

/// On aarch64 NEON is the default kernel (it is part of the baseline: no run-time check), so
/// every test of the crate's functions runs through it; `UTF8_CODEC_KERNEL` still chooses
/// another.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
#[test]
fn neon_is_the_active_kernel_on_aarch64() {
    assert!(Kernel::Neon.is_available());
    match std::env::var("UTF8_CODEC_KERNEL") {
        Ok(name) => eprintln!("UTF8_CODEC_KERNEL={name}: the active kernel is {name}"),
        Err(_) => assert_eq!(Kernel::active().name(), "neon"),
    }
}

/// Off aarch64 there is no NEON kernel to choose.
#[cfg(not(target_arch = "aarch64"))]
#[test]
fn neon_is_not_available_off_aarch64() {
    assert!(!Kernel::Neon.is_available());
    assert_eq!(Kernel::from_name("neon"), Some(Kernel::Neon));
}

fn expected(bytes: &[u8]) -> usize {
    std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), str::len)
}

fn assert_kernels(kernels: &[Kernel], bytes: &[u8]) {
    let want = expected(bytes);
    for &k in kernels {
        assert_eq!(k.valid_up_to(bytes), Some(want), "{k:?} on {bytes:02X?}");
    }
}

/// Every kernel's counts (validated and counted in one pass) against the naive oracle.
fn assert_counts(bytes: &[u8]) {
    let want = common::naive_counts(bytes);
    for k in Kernel::available() {
        assert_eq!(k.count(bytes), Some(want), "{k:?} on {bytes:02X?}");
    }
}

/// Counts of long valid runs, where the kernels keep their per-block counts in byte lanes for
/// dozens of blocks before summing them: every script, with and without newlines and ASCII
/// blocks among them, and an error near the end so that the run is counted in one call.
#[test]
fn counts_of_long_runs_every_kernel() {
    for text in [
        "a",
        "é\n",
        "€",
        "😀\n",
        "日本\n",
        "\n",
        "Grüße, Привет, 你好 😀\n",
    ] {
        for blocks in [62, 63, 64, 127, 128, 129, 1000] {
            let mut v = text.repeat(blocks * 64 / text.len() + 1).into_bytes();
            v.truncate(v.iter().rposition(|&b| b & 0xC0 != 0x80).unwrap_or(0));
            assert_counts(&v);
            // Two thousand ASCII bytes between the runs: blocks of newlines only.
            let mut w = v.clone();
            w.extend(std::iter::repeat_n(b'\n', 2000));
            w.extend_from_slice(&v);
            assert_counts(&w);
            w.extend_from_slice(b"\xFFend");
            assert_counts(&w);
        }
    }
}

/// Surroundings: ASCII, 2-byte, 3-byte and 4-byte text, so the bytes before a block are of
/// every kind.
const FILL: [&str; 4] = ["a", "é", "€", "😀"];

/// A 192-byte buffer of `fill` text with `x` written at `at` (the text is cut to fit).
fn placed(fill: &str, x: &[u8], at: usize) -> Vec<u8> {
    let mut v = fill.repeat(192).into_bytes();
    v.truncate(192);
    v[at..at + x.len()].copy_from_slice(x);
    v
}

#[test]
fn every_two_byte_sequence_at_every_position_near_block_boundaries() {
    let ks = simd_kernels();
    for fill in FILL {
        for at in (56..=72).chain(120..=130).chain([0, 1, 2, 189, 190]) {
            for a in 0..=255u8 {
                for b in 0..=255u8 {
                    assert_kernels(&ks, &placed(fill, &[a, b], at));
                }
            }
        }
    }
}

#[test]
fn every_three_byte_sequence_with_non_ascii_lead_across_a_boundary() {
    let ks = simd_kernels();
    for at in 61..=64 {
        for a in 0x80..=0xFFu8 {
            for b in 0..=255u8 {
                for c in [
                    0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF0,
                    0xF4, 0xF5, 0xFF,
                ] {
                    assert_kernels(&ks, &placed("a", &[a, b, c], at));
                }
            }
        }
    }
}

#[test]
fn incomplete_sequences_at_the_end_of_a_block_and_of_the_input() {
    let ks = simd_kernels();
    for len in 60..=200 {
        // Every valid prefix cut short: C3; E2, E2 82; F0, F0 9F, F0 9F 98.
        let tails = ["é", "€", "😀"]
            .into_iter()
            .flat_map(|c| (1..c.len()).map(move |n| &c.as_bytes()[..n]));
        for tail in tails {
            for fill in FILL {
                let mut v = placed(fill, b"", 0);
                v.truncate(len - tail.len());
                // Keep the text valid up to the tail: cut to a boundary.
                while std::str::from_utf8(&v).is_err() {
                    v.pop();
                }
                v.extend_from_slice(tail);
                assert_kernels(&ks, &v);
                assert_counts(&v);
                // The same tail followed by ASCII in the next block, so a counted block
                // ends inside the error.
                v.extend_from_slice(&[b'a'; 70]);
                assert_kernels(&ks, &v);
                assert_counts(&v);
            }
        }
    }
}

#[test]
#[ignore = "release-mode sweep: cargo test --release -- --ignored exhaustive"]
fn exhaustive_every_three_byte_sequence_across_block_boundaries_every_kernel() {
    let ks = simd_kernels();
    std::thread::scope(|s| {
        for fill in FILL {
            let ks = &ks;
            s.spawn(move || {
                let base = placed(fill, b"", 0);
                // The 3 bytes end at the first block boundary, straddle it, or start on it.
                for at in [61, 62, 64] {
                    every_three_bytes(ks, &mut base.clone(), at, 0..=255);
                }
            });
        }
    });
}

/// Writes every three bytes whose first is in `leads` at `at` of `v` and checks every kernel
/// of `ks` on each.
fn every_three_bytes(ks: &[Kernel], v: &mut [u8], at: usize, leads: std::ops::RangeInclusive<u8>) {
    for a in leads {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                v[at..at + 3].copy_from_slice(&[a, b, c]);
                assert_kernels(ks, v);
            }
        }
    }
}

fn long_input() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(
            prop::sample::select(vec!["a", "é", "€", "😀", "Ω", "\n", "日本"]),
            0..300,
        ),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
    )
        .prop_map(|(parts, edits)| {
            let mut v = parts.concat().into_bytes();
            for (at, byte) in edits {
                if !v.is_empty() {
                    let i = at.index(v.len());
                    v[i] = byte;
                }
            }
            v
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn kernels_agree_on_long_inputs(v in long_input(), skip in 0..64usize) {
        let ks: Vec<Kernel> = Kernel::available().collect();
        let v = &v[skip.min(v.len())..]; // misaligned starts
        assert_kernels(&ks, v);
        // The error iterator resumes with the kernel after each error.
        let errs: Vec<(usize, usize)> = utf8_codec::errors(v).map(|e| (e.offset(), e.len())).collect();
        let mut pos = 0;
        let mut std_errs = Vec::new();
        for chunk in v.utf8_chunks() {
            pos += chunk.valid().len();
            if !chunk.invalid().is_empty() {
                std_errs.push((pos, chunk.invalid().len()));
                pos += chunk.invalid().len();
            }
        }
        prop_assert_eq!(errs, std_errs);
    }

    #[test]
    fn kernels_agree_on_random_bytes(v in prop::collection::vec(any::<u8>(), 0..400)) {
        let ks: Vec<Kernel> = Kernel::available().collect();
        assert_kernels(&ks, &v);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn every_kernel_counts_like_the_scalar_twin(v in long_input(), skip in 0..64usize) {
        let v = &v[skip.min(v.len())..];
        let want = Kernel::Scalar.count(v).expect("scalar is always available");
        for k in Kernel::available() {
            prop_assert_eq!(k.count(v), Some(want), "{:?}", k);
        }
        prop_assert_eq!(want.lines, v.iter().filter(|&&b| b == b'\n').count() as u64);
        prop_assert_eq!(want.chars + want.errors, String::from_utf8_lossy(v).chars().count() as u64);
    }
}

#[test]
fn count_across_its_internal_windows() {
    // Sequences and errors far into a long input (around 32 KiB, where `count` once cut its
    // windows) must count as in one piece, by every kernel.
    for fill in FILL {
        let base = fill.repeat(70_000 / fill.len()).into_bytes();
        for x in [
            &b"\xE2\x82\xAC"[..],
            b"\xF0\x9F\x98\x80",
            b"\xE2\x82",
            b"\xFF",
            b"\xF0\x9F\x98",
            b"\xC3\xA9",
        ] {
            for at in 32_760..32_772 {
                let mut v = base.clone();
                v[at..at + x.len()].copy_from_slice(x);
                let lossy = String::from_utf8_lossy(&v);
                for k in Kernel::available() {
                    let c = k.count(&v).expect("available");
                    assert_eq!(
                        c.chars + c.errors,
                        lossy.chars().count() as u64,
                        "{k:?} {fill} {x:02X?} @{at}"
                    );
                    assert_eq!(
                        c.errors,
                        utf8_codec::errors(&v).count() as u64,
                        "{k:?} {fill} {x:02X?} @{at}"
                    );
                    assert_eq!(c.bytes, v.len() as u64);
                }
            }
        }
    }
}

/// Every kernel's `errors()` against the oracles (std's segmentation and the kind table).
fn assert_errors(bytes: &[u8]) {
    let want = common::oracle_errors(bytes);
    for k in Kernel::available() {
        let got: Vec<_> = k
            .errors(bytes)
            .expect("available")
            .map(|e| (e.offset(), e.len(), e.kind()))
            .collect();
        assert_eq!(got, want, "{k:?} on {bytes:02X?}");
    }
}

/// Deterministic random bytes: errors every few bytes, so the dense scanners run.
fn random_bytes(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect()
}

#[test]
fn dense_errors_every_two_byte_sequence_around_the_window() {
    // An error at 0 starts a dense window over the next 64 bytes; the pair lands near its
    // start, in its middle, across its last decided position (60) and past its end, in text
    // and in random bytes.
    for fill in [placed("a", b"", 0), random_bytes(192, 7)] {
        for at in [1, 2, 3, 31].into_iter().chain(58..=64) {
            for a in 0..=255u8 {
                for b in 0..=255u8 {
                    let mut v = fill.clone();
                    v[0] = 0xFF;
                    v[at..at + 2].copy_from_slice(&[a, b]);
                    assert_errors(&v);
                }
            }
        }
    }
}

#[test]
fn dense_errors_three_byte_sequences_across_the_window_edge() {
    for fill in [placed("a", b"", 0), random_bytes(192, 11)] {
        for at in 59..=61 {
            for a in 0x80..=0xFFu8 {
                for b in 0..=255u8 {
                    for c in [0x41, 0x80, 0x9F, 0xA0, 0xBF, 0xFF] {
                        let mut v = fill.clone();
                        v[0] = 0x80;
                        v[at..at + 3].copy_from_slice(&[a, b, c]);
                        assert_errors(&v);
                    }
                }
            }
        }
    }
}

#[test]
fn dense_errors_on_long_random_bytes() {
    for seed in 1..=64 {
        assert_errors(&random_bytes(4096 + seed as usize, seed));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn every_kernel_finds_every_error(
        v in long_input(),
        noise in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..200),
        skip in 0..64usize,
    ) {
        // Mostly valid text with up to 200 bytes overwritten: errors from sparse to dense.
        let mut v = v;
        for (at, byte) in noise {
            if !v.is_empty() {
                let i = at.index(v.len());
                v[i] = byte;
            }
        }
        assert_errors(&v[skip.min(v.len())..]);
    }
}

/// The entry points' ASCII scan (issue 23): a first block, pairs of blocks after it, whole
/// blocks, then a last block that overlaps the one before; a non-ASCII byte, an error or a
/// cut sequence at every position of inputs of 64 to 330 bytes (past two pairs and the
/// 256-byte limit of the short path) must reach the full kernel at the right offset, and
/// `validate` / `is_valid` (which settle short ASCII themselves) must agree.
#[test]
fn ascii_scan_hands_over_at_every_position() {
    let kernels: Vec<Kernel> = Kernel::available().collect();
    for len in (1..64).chain(64..330) {
        for at in 0..len {
            for x in [
                &b"\xC3\xA9"[..],
                b"\xFF",
                b"\xE4\xBD",
                b"\x80",
                b"\xF0\x9F\x98\x80",
            ] {
                let mut v = vec![b'a'; len];
                let end = (at + x.len()).min(len);
                v[at..end].copy_from_slice(&x[..end - at]);
                assert_kernels(&kernels, &v);
                let want = expected(&v);
                assert_eq!(utf8_codec::valid_up_to(&v), want, "{v:02X?}");
                assert_eq!(utf8_codec::is_valid(&v), want == len, "{v:02X?}");
                assert_eq!(utf8_codec::validate(&v).is_ok(), want == len, "{v:02X?}");
            }
        }
    }
}

/// The entry points' paths for short input and tails (issue 23): 16-byte vectors padded by a
/// shuffle under 64 bytes, and from 64 bytes a last block that overlaps the one before, with
/// the 3 bytes before it loaded as they are. Every length from 1 to 200 in every surrounding,
/// with an error, a cut sequence or a valid character at each of the first 4 and last 70
/// positions, through every kernel and `validate` / `is_valid`.
#[test]
fn short_inputs_and_tails_at_every_length() {
    let kernels: Vec<Kernel> = Kernel::available().collect();
    let cases: [&[u8]; 12] = [
        b"\x80",
        b"\xFF",
        b"\xC3",
        b"\xE2\x82",
        b"\xF0\x9F\x98",
        b"\xED\xA0\x80",
        b"\xE0\x80",
        b"\xF4\x90",
        b"\xC0\xAF",
        "é".as_bytes(),
        "€".as_bytes(),
        "😀".as_bytes(),
    ];
    for fill in FILL {
        for len in 1..=200 {
            // Cut anywhere: a character cut by the end is one more case.
            let mut base = fill.repeat(200).into_bytes();
            base.truncate(len);
            assert_kernels(&kernels, &base);
            for at in (0..len.min(4)).chain(len.saturating_sub(70)..len) {
                for x in cases {
                    let mut v = base.clone();
                    let end = (at + x.len()).min(len);
                    v[at..end].copy_from_slice(&x[..end - at]);
                    assert_kernels(&kernels, &v);
                    let want = expected(&v);
                    assert_eq!(utf8_codec::is_valid(&v), want == len, "{v:02X?}");
                    assert_eq!(utf8_codec::validate(&v).is_ok(), want == len, "{v:02X?}");
                }
            }
        }
    }
}

/// Lengths that take each path of the entry points: under 8 bytes (one word: 3 single bytes
/// under 4, two overlapping 4-byte loads from 4), 8-15 bytes (two 8-byte loads), 16-63
/// (16-byte vectors, the last padded), 64 exactly, 65 and 66 (too short for the overlapping
/// tail), 67 and up (the overlapping tail), a multiple of 64.
const PATH_LENGTHS: [usize; 16] = [3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 67, 100, 128];

/// Every input of two bytes in every surrounding at the start, the middle and the end of
/// inputs of [`PATH_LENGTHS`], through every kernel (the SSE2 kernel's compares, the short
/// and tail paths of the others) and `is_valid`.
#[test]
fn every_two_byte_input_on_every_path() {
    let kernels: Vec<Kernel> = Kernel::available().collect();
    for fill in ["a", "é", "€"] {
        for len in PATH_LENGTHS {
            let mut base = fill.repeat(len).into_bytes();
            base.truncate(len);
            for at in [0, len / 2, len - 2] {
                let mut v = base.clone();
                for a in 0..=255u8 {
                    for b in 0..=255u8 {
                        v[at..at + 2].copy_from_slice(&[a, b]);
                        assert_kernels(&kernels, &v);
                        assert_eq!(utf8_codec::is_valid(&v), expected(&v) == len, "{v:02X?}");
                    }
                }
            }
        }
    }
}

/// Every input of three bytes with a non-ASCII first byte (ASCII first bytes are the
/// two-byte case after one more ASCII byte) at the end of inputs of [`PATH_LENGTHS`] and in
/// the middle of one of 100 bytes, through every SIMD kernel.
#[test]
#[ignore = "release-mode sweep: cargo test --release -- --ignored exhaustive"]
fn exhaustive_every_three_byte_input_on_every_path() {
    let ks = simd_kernels();
    std::thread::scope(|s| {
        for leads in [0x80..=0xBFu8, 0xC0..=0xDF, 0xE0..=0xEF, 0xF0..=0xFF] {
            let ks = &ks;
            s.spawn(move || {
                let places = PATH_LENGTHS
                    .iter()
                    .map(|&len| (len, len - 3))
                    .chain([(100, 40)]);
                for (len, at) in places {
                    let mut v = "é".repeat(len).into_bytes();
                    v.truncate(len);
                    every_three_bytes(ks, &mut v, at, leads.clone());
                }
            });
        }
    });
}

/// `validate` and `valid_up_to` up to 4 KiB test the blocks' errors once, at the end, and
/// find an error by a second pass: the exact error at the start, the middle and the end of
/// mixed text of every length class up to and past 4 KiB.
#[test]
fn validate_finds_the_exact_error_in_inputs_up_to_and_past_4_kib() {
    let text = "Grüße aus Köln, 你好 😀 and ASCII. "
        .repeat(200)
        .into_bytes();
    for len in [64, 100, 255, 1000, 4095, 4096, 4097, 5000] {
        let base = &text[..len];
        for at in [
            0,
            1,
            len / 3,
            len / 2,
            len.saturating_sub(70),
            len - 3,
            len - 1,
        ] {
            for x in [&b"\xFF"[..], b"\xE4\xBD", b"\x80"] {
                let mut v = base.to_vec();
                let end = (at + x.len()).min(len);
                v[at..end].copy_from_slice(&x[..end - at]);
                let want = std::str::from_utf8(&v).map_err(|e| (e.valid_up_to(), e.error_len()));
                let got = utf8_codec::validate(&v)
                    .map(|_| ())
                    .map_err(|e| (e.valid_up_to(), e.error_len()));
                assert_eq!(got, want.map(|_| ()), "{len} {at} {x:02X?}");
                assert_eq!(utf8_codec::valid_up_to(&v), expected(&v), "{len} {at}");
            }
        }
    }
}

/// Runs of blocks that are not ASCII, after which the block loop checks blocks untested for
/// a while (1, 3, 7, ... blocks), then ASCII blocks: an error, a sequence cut short by ASCII,
/// and a sequence cut by the end of a block at many places in and after the runs, through
/// every kernel's `valid_up_to` and the active kernel's `is_valid`, `validate` and (with
/// `alloc`) repair, against std.
#[test]
fn errors_in_and_after_untested_runs() {
    let kernels = simd_kernels();
    let other = "жж".repeat(16);
    assert_eq!(other.len(), 64);
    for run in [1, 2, 3, 4, 8, 12, 40] {
        for ascii_after in [0, 1, 2, 5] {
            let mut base = vec![b'a'; 64];
            for _ in 0..run {
                base.extend_from_slice(other.as_bytes());
            }
            base.extend(std::iter::repeat_n(b'b', 64 * ascii_after));
            base.extend_from_slice(other.as_bytes());
            base.extend(std::iter::repeat_n(b'c', 100));
            let mut cases = vec![base.clone()];
            for at in (60..base.len())
                .step_by(13)
                .chain((127..base.len()).step_by(64))
            {
                for bad in [
                    &[0xFF][..],
                    &[0xE2][..],
                    &[0xE2, 0x82][..],
                    &[0xF0, 0x9F, 0x98],
                ] {
                    let mut v = base.clone();
                    let end = (at + bad.len()).min(v.len());
                    v[at..end].copy_from_slice(&bad[..end - at]);
                    cases.push(v);
                }
            }
            for v in &cases {
                assert_kernels(&kernels, v);
                let std = std::str::from_utf8(v);
                assert_eq!(utf8_codec::is_valid(v), std.is_ok());
                assert_eq!(
                    utf8_codec::validate(v).map_err(|e| e.valid_up_to()),
                    std.map_err(|e| e.valid_up_to())
                );
                #[cfg(feature = "alloc")]
                assert_eq!(utf8_codec::repair(v), String::from_utf8_lossy(v));
            }
        }
    }
}

/// Inputs of 16 MiB and more, which the x86-64 kernels check with their far prefetch and
/// (AVX-512) shifts in place of loads of the bytes before each vector: an error, a sequence
/// cut short and one cut by the end at places after the first block, across block boundaries
/// deep inside, and at the end, after mixed text or after an ASCII prefix (where the far loop
/// starts with nothing before it), through every kernel's `valid_up_to` and the active
/// kernel's `is_valid` and `validate` (CI runs this test again with `UTF8_CODEC_KERNEL=avx2`),
/// against std; and at some of those places the counts, which the x86-64 kernels count from
/// 16 MiB with their far prefetch. (x86-64 only: NEON has no far loop, and under qemu in CI
/// the test would take minutes.)
#[cfg(target_arch = "x86_64")]
#[test]
fn large_inputs_errors_at_the_start_deep_inside_and_at_the_end() {
    let kernels = simd_kernels();
    const MIB: usize = 1 << 20;
    let unit = "Grüße aus Köln, 你好 😀 and ASCII, жж. ".as_bytes();
    for (ascii_prefix, len) in [(0, 16 * MIB), (1000, 16 * MIB + 37)] {
        let mut v: Vec<u8> = vec![b'a'; ascii_prefix];
        while v.len() < len {
            v.extend_from_slice(unit);
        }
        // A whole character at the end.
        while v.len() > len || std::str::from_utf8(&v).is_err() {
            v.pop();
        }
        let len = v.len();
        let mut places = vec![64, 65, 127, 200, ascii_prefix + 64, ascii_prefix + 130];
        places.extend(9 * MIB - 3..9 * MIB + 66);
        places.extend([
            len - 200,
            len - 65,
            len - 64,
            len - 63,
            len - 4,
            len - 3,
            len - 1,
        ]);
        let check = |v: &[u8], what: &str| {
            assert_kernels(&kernels, v);
            let std = std::str::from_utf8(v);
            assert_eq!(utf8_codec::is_valid(v), std.is_ok(), "{what}");
            assert_eq!(
                utf8_codec::validate(v)
                    .map(|_| ())
                    .map_err(|e| (e.valid_up_to(), e.error_len())),
                std.map(|_| ())
                    .map_err(|e| (e.valid_up_to(), e.error_len())),
                "{what}"
            );
        };
        // The counts (every kernel's, and the counter without lengths given the whole input
        // at once) at a few of the places, against the naive oracle.
        let counted = |v: &[u8], what: &str| {
            assert_counts(v);
            let mut lean = utf8_codec::Counter::without_lengths();
            lean.update(v);
            let (want, got) = (common::naive_counts(v), lean.finish());
            assert_eq!(
                (got.chars, got.lines, got.errors),
                (want.chars, want.lines, want.errors),
                "{what}"
            );
        };
        check(&v, "valid");
        counted(&v, "valid");
        for (i, &at) in places.iter().enumerate() {
            for bad in [&[0xFF][..], &[0xE2, 0x82][..], &[0xF0, 0x9F, 0x98]] {
                let end = (at + bad.len()).min(len);
                let saved = v[at..end].to_vec();
                v[at..end].copy_from_slice(&bad[..end - at]);
                let what = format!("{len} {at} {bad:02X?}");
                check(&v, &what);
                if i % 40 == 0 || at + 2 >= len {
                    counted(&v, &what);
                }
                v[at..end].copy_from_slice(&saved);
            }
        }
    }
}
