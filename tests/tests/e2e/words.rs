//! `utf8-count -w` against GNU `wc -w` in a UTF-8 locale on real files, and the columns wc
//! users expect (issue 19; the fixed and generated cases are in `count_words.rs`).

use std::path::Path;
use std::process::Command;

use crate::util::{count, tempdir, write};

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
