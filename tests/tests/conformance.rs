//! The codec against `../shared/conformance`: every row of `vectors.tsv` and Markus Kuhn's
//! stress test. Skips with a message when `../shared` is absent.
#![forbid(unsafe_code)]

use utf8_codec::stream::{Decoder, Event};
use utf8_tests::{conformance_dir_or_skip, parse_hex, vectors};

#[test]
fn every_vector_validate_repair_decode_errors_encode() {
    let Some(dir) = conformance_dir_or_skip("conformance vectors") else {
        return;
    };
    let rows = vectors(&dir);
    assert_eq!(rows.len(), 710, "vectors.tsv should have 710 rows");
    for v in &rows {
        let id = &v.id;
        match utf8_codec::validate(&v.input) {
            Ok(s) => {
                assert!(v.valid, "{id}: accepted an invalid input");
                assert_eq!(s.len(), v.valid_up_to, "{id}");
            }
            Err(e) => {
                assert!(!v.valid, "{id}: rejected a valid input");
                assert_eq!(
                    (e.valid_up_to(), e.error_len()),
                    (v.valid_up_to, v.error_len),
                    "{id}"
                );
            }
        }
        assert_eq!(
            utf8_codec::repair(&v.input).as_bytes(),
            v.replaced,
            "{id}: repair"
        );
        let scalars: Vec<u32> = utf8_codec::decode(&v.input)
            .map(|d| d.map_or(0xFFFD, |(_, c)| u32::from(c)))
            .collect();
        assert_eq!(scalars, v.scalars, "{id}: decode");
        let errors: Vec<(usize, usize, String)> = utf8_codec::errors(&v.input)
            .map(|e| (e.offset(), e.len(), e.kind().to_string()))
            .collect();
        assert_eq!(errors, v.errors, "{id}: errors");
        let encoded: Vec<u8> = v
            .scalars
            .iter()
            .flat_map(|&s| utf8_codec::encode(s).expect("scalar").to_vec())
            .collect();
        assert_eq!(encoded, v.replaced, "{id}: encode");
        let counts = utf8_codec::count(&v.input);
        assert_eq!(
            counts.chars + counts.errors,
            v.scalars.len() as u64,
            "{id}: count"
        );
        assert_eq!(counts.errors, v.errors.len() as u64, "{id}: count");
    }
}

/// Repairs `input` through a stream decoder cut at the positions whose bit is set in `mask`
/// (or at every `step` bytes when `mask` is `None`); returns text and errors.
fn streamed(input: &[u8], cut: impl Fn(usize) -> bool) -> (String, Vec<(u64, usize, String)>) {
    let mut dec = Decoder::new();
    let (mut text, mut errs) = (String::new(), Vec::new());
    let mut on = |ev: Event<'_>, text: &mut String| match ev {
        Event::Str(s) => text.push_str(s),
        Event::Char(c) => text.push(c),
        Event::Error(e) => {
            text.push('\u{FFFD}');
            errs.push((e.offset(), e.len(), e.kind().to_string()));
        }
    };
    let mut start = 0;
    for end in (1..input.len())
        .filter(|&i| cut(i))
        .chain(std::iter::once(input.len()))
    {
        for ev in dec.decode(&input[start..end]) {
            on(ev, &mut text);
        }
        start = end;
    }
    if let Some(e) = dec.finish() {
        on(Event::Error(e), &mut text);
    }
    (text, errs)
}

#[test]
fn every_vector_through_the_stream_at_every_split() {
    let Some(dir) = conformance_dir_or_skip("conformance streams") else {
        return;
    };
    for v in vectors(&dir) {
        let expected_errors: Vec<_> = v
            .errors
            .iter()
            .map(|(o, l, k)| (*o as u64, *l, k.clone()))
            .collect();
        let expected_text = String::from_utf8(v.replaced.clone()).expect("replaced is UTF-8");
        let n = v.input.len();
        if n <= 14 {
            for mask in 0u32..(1 << n.saturating_sub(1)) {
                let got = streamed(&v.input, |i| mask & (1 << (i - 1)) != 0);
                assert_eq!(
                    got,
                    (expected_text.clone(), expected_errors.clone()),
                    "{} {mask:b}",
                    v.id
                );
            }
        } else {
            for step in 1..=7 {
                let got = streamed(&v.input, |i| i % step == 0);
                assert_eq!(
                    got,
                    (expected_text.clone(), expected_errors.clone()),
                    "{} /{step}",
                    v.id
                );
            }
        }
    }
}

#[test]
fn kuhn_stress_test_file() {
    let Some(dir) = conformance_dir_or_skip("Kuhn's UTF-8-test.txt") else {
        return;
    };
    let input = std::fs::read(dir.join("UTF-8-test.txt")).expect("read UTF-8-test.txt");
    let replaced = std::fs::read(dir.join("UTF-8-test.replaced.txt")).expect("read replaced");
    assert_eq!(input.len(), 22_781);
    assert_eq!(utf8_codec::repair(&input).as_bytes(), replaced);
    let err = utf8_codec::validate(&input).unwrap_err();
    assert_eq!((err.valid_up_to(), err.error_len()), (4461, Some(1)));

    let table = std::fs::read_to_string(dir.join("UTF-8-test.errors.tsv")).expect("errors.tsv");
    let expected: Vec<(usize, usize, String, Vec<u8>, usize)> = table
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].to_string(),
                parse_hex(f[3]),
                f[4].parse().unwrap(),
            )
        })
        .collect();
    assert_eq!(expected.len(), 378);
    let got: Vec<(usize, usize, String, Vec<u8>, usize)> = utf8_codec::errors(&input)
        .map(|e| {
            let line = 1 + input[..e.offset()].iter().filter(|&&b| b == b'\n').count();
            (
                e.offset(),
                e.len(),
                e.kind().to_string(),
                input[e.range()].to_vec(),
                line,
            )
        })
        .collect();
    assert_eq!(got, expected);

    let counts = utf8_codec::count(&input);
    assert_eq!(counts.errors, 378);
    assert_eq!(counts.lines, 300);
    for step in [1, 2, 3, 5, 4096] {
        let (text, errs) = streamed(&input, |i| i % step == 0);
        assert_eq!(text.as_bytes(), replaced, "chunks of {step}");
        assert_eq!(errs.len(), 378);
    }
}

#[test]
fn oracles_in_the_material_agree_with_each_other() {
    // The evidence file: every decoder's answer per row. The codec is held to the columns;
    // here we check the columns we rely on agree with std and encoding_rs as run today.
    let Some(dir) = conformance_dir_or_skip("oracle-results") else {
        return;
    };
    for v in vectors(&dir) {
        let std_lossy = String::from_utf8_lossy(&v.input);
        assert_eq!(std_lossy.as_bytes(), v.replaced, "{}: std", v.id);
        let (ers, _) = encoding_rs::UTF_8.decode_without_bom_handling(&v.input);
        assert_eq!(ers.as_bytes(), v.replaced, "{}: encoding_rs", v.id);
    }
}

#[test]
fn cpython_agrees_on_generated_inputs() {
    // CPython's decoder as an oracle: errors='replace' output and, through a recording error
    // handler, every maximal subpart's (start, end). Skips when python3 is absent.
    let script = r#"
import codecs, sys
spans = []
def record(e):
    spans.append((e.start, e.end))
    return ('\ufffd', e.end)
codecs.register_error('record', record)
out = []
for line in sys.stdin.read().split('\n'):
    if not line:
        continue
    data = bytes.fromhex(line)
    spans.clear()
    text = data.decode('utf-8', 'record')
    assert text == data.decode('utf-8', 'replace')
    out.append(text.encode('utf-8').hex() + ' ' + ','.join('%d:%d' % (s, e - s) for s, e in spans))
print('\n'.join(out))
"#;
    // Deterministic inputs: a linear congruential generator over biased bytes.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (state >> 33) as u32
    };
    let pool: Vec<u8> = (0x80..=0xBF)
        .chain([
            0x41, 0x0A, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ])
        .collect();
    let inputs: Vec<Vec<u8>> = (0..3000)
        .map(|_| {
            let n = next() as usize % 24;
            (0..n).map(|_| pool[next() as usize % pool.len()]).collect()
        })
        .collect();
    let stdin: String = inputs
        .iter()
        .map(|v| v.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n")
        .collect();
    let child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("cpython oracle: skipped: python3 not found");
        return;
    };
    {
        use std::io::Write;
        let mut pipe = child.stdin.take().expect("stdin");
        pipe.write_all(stdin.as_bytes()).expect("write to python3");
    }
    let out = child.wait_with_output().expect("python3 output");
    assert!(out.status.success(), "python3 failed");
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    let nonempty: Vec<&Vec<u8>> = inputs.iter().filter(|v| !v.is_empty()).collect();
    assert_eq!(lines.len(), nonempty.len());
    for (v, line) in nonempty.into_iter().zip(lines) {
        let (hex, spans) = line.split_once(' ').unwrap_or((line, ""));
        let ours: String = utf8_codec::repair(v)
            .bytes()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(ours, hex, "{v:02X?}");
        let our_spans: Vec<String> = utf8_codec::errors(v)
            .map(|e| format!("{}:{}", e.offset(), e.len()))
            .collect();
        assert_eq!(our_spans.join(","), spans, "{v:02X?}");
    }
}
