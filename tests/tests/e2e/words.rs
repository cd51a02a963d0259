//! `utf8-count -w` against GNU `wc -w` in a UTF-8 locale (issue 19): the cases of the
//! issue, generated samples that mix words of many scripts with every kind of separator,
//! non-printable character and ill-formed sequence, and real files; the columns wc users
//! expect; `-c` from the file size.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::util::{Rng, count, tempdir, write};

/// `wc -w` of `path` in the C.UTF-8 locale, or `None` when GNU wc or the locale is missing.
fn gnu_wc_words(dir: &Path, args: &[&str]) -> Option<String> {
    let o = Command::new("wc")
        .arg("-w")
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", "C.UTF-8")
        .output()
        .ok()?;
    // A UTF-8 locale is there when wc counts U+3000 as a separator.
    let probe = Command::new("sh")
        .args(["-c", "printf 'a\\343\\200\\200b' | LC_ALL=C.UTF-8 wc -w"])
        .output()
        .ok()?;
    if String::from_utf8_lossy(&probe.stdout).trim() != "2" {
        return None;
    }
    Some(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Words of many scripts, from code points assigned since Unicode 6 at the latest (which
/// code points are unassigned depends on the C library's Unicode version).
const WORDS: &[&str] = &[
    "hello",
    "wörld",
    "café",
    "Привет",
    "мир",
    "Γειά",
    "σου",
    "שלום",
    "مرحبا",
    "日本語",
    "テキスト",
    "한국어",
    "ภาษาไทย",
    "हिन्दी",
    "😀🎉",
    "x\u{200B}y",
    "\u{FEFF}",
    "ǅ",
    "\u{E000}",
    "1234",
    "a.b,c",
    "\u{301}",
    "ꙮ",
];
/// Every separator: ASCII blanks, glibc's printable spaces, wc's no-break spaces.
const SEPARATORS: &[&str] = &[
    " ", "\t", "\n", "\u{B}", "\u{C}", "\r", "\u{1680}", "\u{2000}", "\u{2001}", "\u{2002}",
    "\u{2003}", "\u{2004}", "\u{2005}", "\u{2006}", "\u{2008}", "\u{2009}", "\u{200A}", "\u{205F}",
    "\u{3000}", "\u{A0}", "\u{2007}", "\u{202F}", "\u{2060}",
];
/// Characters that neither begin nor end a word: controls, NEL, the line and paragraph
/// separators, and noncharacters (never assigned).
const OTHERS: &[&str] = &[
    "\u{1}",
    "\u{1F}",
    "\u{7F}",
    "\u{80}",
    "\u{85}",
    "\u{9F}",
    "\u{2028}",
    "\u{2029}",
    "\u{FFFF}",
    "\u{FDD0}",
    "\u{10FFFE}",
];
const INVALID: &[&[u8]] = &[
    b"\xFF",
    b"\xC3",
    b"\xE2\x82",
    b"\xED\xA0\x80",
    b"\xF0\x9F\x98",
    b"\x80",
    b"\xC0\xAF",
    b"\xF4\x90\x80\x80",
];

fn sample(rng: &mut Rng, pieces: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..pieces {
        match rng.below(10) {
            0..=3 => {
                out.extend_from_slice(WORDS[rng.below(WORDS.len() as u64) as usize].as_bytes())
            }
            4..=6 => out.extend_from_slice(
                SEPARATORS[rng.below(SEPARATORS.len() as u64) as usize].as_bytes(),
            ),
            7 | 8 => {
                out.extend_from_slice(OTHERS[rng.below(OTHERS.len() as u64) as usize].as_bytes())
            }
            _ => out.extend_from_slice(INVALID[rng.below(INVALID.len() as u64) as usize]),
        }
    }
    out
}

#[test]
fn words_equal_gnu_wc_on_generated_samples() {
    let dir = tempdir();
    let d = dir.path();
    let mut rng = Rng::new(19);
    let mut names = Vec::new();
    for i in 0..200 {
        let name = format!("s{i:03}");
        let pieces = [1, 2, 3, 5, 20, 200][i % 6];
        write(d, &name, sample(&mut rng, pieces));
        names.push(name);
    }
    let args: Vec<&str> = names.iter().map(String::as_str).collect();
    let Some(want) = gnu_wc_words(d, &args) else {
        eprintln!("skipping: GNU wc with a C.UTF-8 locale is not available");
        return;
    };
    let o = count(d).args(["-w"]).args(&args).run();
    o.assert_code(0);
    assert_eq!(o.out(), want);
}

#[test]
fn the_issue_cases_match_gnu_wc() {
    let dir = tempdir();
    let d = dir.path();
    let cases: &[(&[u8], u64)] = &[
        (b"a\x01b", 1),
        (b"a\xFFb", 1),
        (b"\xFF \xFE", 0),
        (b"\x01", 0),
        ("a\u{2028}b".as_bytes(), 1),
        ("a\u{2060}b".as_bytes(), 2),
        ("\u{200B}".as_bytes(), 1),
    ];
    for (i, &(bytes, n)) in cases.iter().enumerate() {
        let name = format!("c{i}");
        write(d, &name, bytes);
        let o = count(d).args(["-w", &name]).run();
        assert_eq!(o.out(), format!("{n} {name}\n"), "{bytes:?}");
        if let Some(want) = gnu_wc_words(d, &[&name]) {
            assert_eq!(o.out(), want, "{bytes:?}");
        }
    }
}

/// Real files nobody here wrote: the sources of the crates in the cargo registry (Rust,
/// Markdown, licences, test data in many languages), as many as fit in about 8 MiB.
#[test]
fn words_equal_gnu_wc_on_registry_files() {
    let Some(home) = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
    else {
        return;
    };
    let mut files = Vec::new();
    let mut size = 0u64;
    let root = home.join("registry/src");
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_file() {
            continue;
        }
        let len = entry.metadata().map_or(0, |m| m.len());
        if size + len > 8 << 20 {
            break;
        }
        size += len;
        files.push(entry.into_path());
    }
    if files.len() < 100 {
        eprintln!("skipping: {} files under {}", files.len(), root.display());
        return;
    }
    let list: Vec<&str> = files.iter().filter_map(|p| p.to_str()).collect();
    let dir = tempdir();
    let Some(want) = gnu_wc_words(dir.path(), &list) else {
        eprintln!("skipping: GNU wc with a C.UTF-8 locale is not available");
        return;
    };
    let o = count(dir.path()).args(["-w"]).args(&list).run();
    assert_eq!(o.out(), want, "{} files, {size} bytes", list.len());
}

#[test]
fn default_columns_are_lines_words_chars_bytes_errors() {
    let dir = tempdir();
    let d = dir.path();
    write(
        d,
        "a",
        [&b"two words\nx"[..], "\u{3000}".as_bytes(), b"y \xFF"].concat(),
    );
    std::fs::write(d.join("b"), b"caf\xC3\xA9 \xFF\n").unwrap();
    let o = count(d).args(["a"]).run();
    assert_eq!(o.out(), " 1  4 14 17  1 a\n");
    // Any order of flags prints lines, words, chars, bytes, errors, max-line-length.
    let o = count(d)
        .args(["-e", "-L", "-c", "-m", "-w", "-l", "a"])
        .run();
    // (GNU `wc -lwmcL a` prints " 1  4 14 17  9 a": the same, without errors.)
    assert_eq!(o.out(), " 1  4 14 17  1  9 a\n");
    let o = count(d).args(["--json", "b"]).run();
    let v: serde_json::Value = serde_json::from_str(o.out().trim()).unwrap();
    assert_eq!(v["words"], 1);
    // Totals, and --threads splitting a file inside a word.
    let o = count(d).args(["-w", "a", "b"]).run();
    assert_eq!(o.out(), " 4 a\n 1 b\n 5 total\n");
    let big: Vec<u8> = "wörd ".repeat(100_000).into_bytes();
    write(d, "big", &big);
    for t in ["1", "2", "3", "7"] {
        let o = count(d).args(["-w", "--threads", t, "big"]).run();
        assert_eq!(o.out(), "100000 big\n", "--threads {t}");
    }
    let o = count(d).args(["--histogram", "a"]).run();
    assert!(
        o.out()
            .contains("\n  words                                4\n"),
        "{}",
        o.out()
    );
}

/// GNU wc answers `-c` alone from the size of a regular file, without reading it.
#[test]
fn bytes_alone_come_from_the_file_size() {
    let dir = tempdir();
    let d = dir.path();
    let f = std::fs::File::create(d.join("sparse")).unwrap();
    f.set_len(64 << 30).unwrap();
    drop(f);
    let start = Instant::now();
    let o = count(d).args(["-c", "sparse"]).run();
    assert_eq!(o.out(), format!("{} sparse\n", 64u64 << 30));
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "-c read the file"
    );
    // Standard input and other columns still read.
    let o = count(d).args(["-c"]).stdin("abc").run();
    assert_eq!(o.out(), "3\n");
}
