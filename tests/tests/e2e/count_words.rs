//! utf8-count -w against GNU wc 9 in a UTF-8 locale, and -c from the file size.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::util::{Rng, corpus, count, have, tempdir, write};
use utf8_testkit::words::NOT_WORDS;

/// `utf8-count -w` on `input` (stdin).
fn words(dir: &Path, input: &[u8]) -> String {
    let o = count(dir).args(["-w"]).stdin(input).run();
    o.assert_code(0);
    o.out()
}

#[test]
fn fixed_cases() {
    // Checked with GNU wc 9.1 under LC_ALL=C.UTF-8 (issue 19's cases and more).
    let dir = tempdir();
    let cases: &[(&[u8], &str)] = &[
        (b"a\x01b", "1\n"),
        (b"a\xFFb", "1\n"),
        (b"\xFF \xFE", "0\n"),
        (b"\x01", "0\n"),
        ("a\u{2028}b".as_bytes(), "1\n"),
        ("a\u{2060}b".as_bytes(), "2\n"),
        ("\u{200B}".as_bytes(), "1\n"),
        ("a\u{85}b".as_bytes(), "1\n"),
        ("a\u{200B}b \u{378} x".as_bytes(), "2\n"),
        (b" \x80 \xC2 \xE2\x80 \xF0\x9F\x98 ", "0\n"),
        (b"a\xE2\x80b", "1\n"),
        (
            "a\u{1680}b\u{2000}c\u{200A}d\u{205F}e\u{3000}f".as_bytes(),
            "6\n",
        ),
        ("a\u{A0}b\u{2007}c\u{202F}d".as_bytes(), "4\n"),
    ];
    for (input, want) in cases {
        assert_eq!(words(dir.path(), input), *want, "{input:02X?}");
    }
}

/// Assigned code points (Unicode 14, as glibc 2.36 knows them) that words are made of: many
/// scripts, and the odd ones (format characters, private use, a noncharacter neighbour).
const SCRIPTS: &[(u32, u32)] = &[
    (0x21, 0x7E),
    (0xA1, 0x24F),
    (0x391, 0x3A1),
    (0x400, 0x4FF),
    (0x5D0, 0x5EA),
    (0x620, 0x64A),
    (0x905, 0x939),
    (0xE01, 0xE30),
    (0x10A0, 0x10C5),
    (0x1E00, 0x1EFF),
    (0x2010, 0x2027),
    (0x200B, 0x200F),
    (0x3041, 0x3096),
    (0x4E00, 0x9FA5),
    (0xAC00, 0xD7A3),
    (0xE000, 0xE0FF),
    (0xFEFF, 0xFEFF),
    (0xFF01, 0xFF5E),
    (0x1F600, 0x1F64F),
    (0x20000, 0x2A6DF),
    (0xE0001, 0xE0001),
];

/// A sample of about `len` bytes: words of 1..8 characters of one script, then 1..3 of [`NOT_WORDS`].
fn sample(rng: &mut Rng, len: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(len + 64);
    while v.len() < len {
        let (lo, hi) = SCRIPTS[rng.below(SCRIPTS.len() as u64) as usize];
        for _ in 0..1 + rng.below(8) {
            let cp = lo + rng.below(u64::from(hi - lo + 1)) as u32;
            let c = char::from_u32(cp).expect("a scalar value");
            v.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        }
        for _ in 0..1 + rng.below(3) {
            v.extend_from_slice(NOT_WORDS[rng.below(NOT_WORDS.len() as u64) as usize]);
        }
    }
    v
}

/// GNU wc's word count of `path` in C.UTF-8, or `None` when no GNU wc with a UTF-8 locale
/// is there (a probe: U+00A0 separates words only for GNU wc 9 in a UTF-8 locale).
fn gnu_wc_words(dir: &Path, name: &str) -> Option<u64> {
    let run = |arg: &str| {
        let out = Command::new("wc")
            .arg("-w")
            .arg(arg)
            .current_dir(dir)
            .env("LC_ALL", "C.UTF-8")
            .env_remove("POSIXLY_CORRECT")
            .output()
            .ok()?;
        let s = String::from_utf8(out.stdout).ok()?;
        s.split_whitespace().next()?.parse::<u64>().ok()
    };
    write(dir, "probe", "a\u{A0}b\u{2028}c\x01d");
    if !have("wc") || run("probe") != Some(2) {
        return None;
    }
    run(name)
}

#[test]
fn words_match_gnu_wc() {
    let dir = tempdir();
    let mut rng = Rng::new(19);
    let mut inputs: Vec<(String, Vec<u8>)> = (0..6)
        .map(|i| (format!("s{i}.txt"), sample(&mut rng, 1 << (8 + 2 * i))))
        .collect();
    inputs.push(("c1.txt".into(), corpus(5, 50_000, true)));
    // Real files: the README and Markus Kuhn's decoder stress test, when present.
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    let kuhn = utf8_tests::conformance_dir().map(|d| d.join("UTF-8-test.txt"));
    for path in std::iter::once(readme).chain(kuhn) {
        if let Ok(b) = std::fs::read(&path) {
            inputs.push((format!("real{}.txt", inputs.len()), b));
        }
    }
    let mut compared = 0;
    for (name, bytes) in &inputs {
        write(dir.path(), name, bytes);
        let ours = count(dir.path()).args(["-w", name]).run();
        ours.assert_code(0);
        let n: u64 = ours
            .out()
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        // Split in parts, a word cut at a boundary counts once.
        for threads in ["2", "3", "7"] {
            let o = count(dir.path())
                .args(["-w", "--threads", threads, name])
                .run();
            assert_eq!(o.out(), ours.out(), "{name} --threads {threads}");
        }
        if let Some(wc) = gnu_wc_words(dir.path(), name) {
            assert_eq!(n, wc, "{name}: utf8-count -w against GNU wc -w");
            compared += 1;
        }
    }
    if compared == 0 {
        eprintln!("words_match_gnu_wc: GNU wc 9 in C.UTF-8 not available, compared with nothing");
    }
}

#[test]
fn bytes_alone_from_the_size() {
    // GNU wc -c answers from st_size for regular files; so does utf8-count -c: a 64 GiB
    // sparse file answers at once (the timeout only catches a read of it).
    let dir = tempdir();
    let f = std::fs::File::create(dir.path().join("sparse")).unwrap();
    f.set_len(64 << 30).unwrap();
    drop(f);
    let path = dir.path().to_path_buf();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(count(&path).args(["-c", "sparse"]).run().out());
    });
    let out = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("utf8-count -c on a 64 GiB sparse file answers without reading it");
    assert_eq!(out, "68719476736 sparse\n");
    // With other columns the file is read: a small one shows the same byte count.
    write(dir.path(), "small", b"abc\xFF\n");
    let o = count(dir.path()).args(["-c", "-e", "small"]).run();
    assert_eq!(o.out(), "5 1 small\n");
}
