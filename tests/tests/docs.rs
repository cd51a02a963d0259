//! Comments in the product's sources (`crates/*/src`, `xtask/src`) say what the code is: no
//! comment cites a project issue or a work session by number, and no comment of the codec
//! records a measurement (a time or rate, a percentage, `N -> M`, `Nx`, `N times` faster or
//! slower: the reason stays, the figure goes to BENCHMARKS.md with its machine). That history belongs in commit
//! messages, CHANGELOG.md and BENCHMARKS.md (a rule of ARCHITECTURE.md). A reference to another
//! project's tracker is written `owner/repo#N` or `crate#N`, which this check allows.
#![forbid(unsafe_code)]

use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let p = e.expect("a directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The first "issue N", "issues N", "issue #N" or "session N" (any case) in `text`.
fn history_reference(text: &str) -> Option<&str> {
    let lower = text.to_ascii_lowercase();
    for word in ["issue ", "issues ", "issue #", "session ", "sessions "] {
        let mut from = 0;
        while let Some(at) = lower[from..].find(word) {
            let start = from + at;
            let after = start + word.len();
            let starts_word = start == 0 || !lower.as_bytes()[start - 1].is_ascii_alphanumeric();
            let digit = lower[after..]
                .trim_start_matches('#')
                .starts_with(|c: char| c.is_ascii_digit());
            if starts_word && digit {
                let end = lower[after..]
                    .find(|c: char| !(c.is_ascii_digit() || c == '#'))
                    .map_or(lower.len(), |e| after + e);
                return Some(&text[start..end]);
            }
            from = after;
        }
    }
    None
}

#[test]
fn the_check_finds_issue_and_session_numbers() {
    assert_eq!(history_reference("/// as issue 19 asks"), Some("issue 19"));
    assert_eq!(
        history_reference("// (Session 12 campaign)"),
        Some("Session 12")
    );
    assert_eq!(history_reference("//! see issue #7."), Some("issue #7"));
    assert_eq!(history_reference("/// aho-corasick#173"), None);
    assert_eq!(history_reference("/// the issue is 3 bytes long"), None);
    assert_eq!(history_reference("/// tissue 4"), None);
}

#[test]
fn no_comment_cites_an_issue_or_a_session() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for e in fs::read_dir(root.join("crates")).expect("crates/") {
        rust_files(
            &e.expect("an entry of crates/").path().join("src"),
            &mut files,
        );
    }
    rust_files(&root.join("xtask/src"), &mut files);
    assert!(files.len() > 50, "found only {} source files", files.len());
    let mut found = Vec::new();
    for f in &files {
        let text = fs::read_to_string(f).expect("a UTF-8 source file");
        for (n, line) in text.lines().enumerate() {
            let code_free = line.trim_start();
            if !code_free.starts_with("//") {
                continue;
            }
            if let Some(r) = history_reference(code_free) {
                found.push(format!("{}:{}: {r}", f.display(), n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "comments that cite the project's history (move it to a commit message, CHANGELOG.md \
         or BENCHMARKS.md):\n{}",
        found.join("\n")
    );
}

/// The first measurement in `text`: a number followed by `ms`, `ns`, `µs`, `GiB/s`, `GB/s`,
/// `MiB/s` or `MB/s`, or by `%`; `N -> M` between numbers; `Nx` or `N×`; `N times` before
/// `faster` or `slower`. Sizes (`2 KiB`) and hexadecimal (`0x80`) are not measurements.
fn measurement(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit()
            || (i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len()
            && (b[i].is_ascii_digit()
                || (b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
        {
            i += 1;
        }
        let rest = &text[i..];
        let after = rest.trim_start();
        let word_end = |s: &str, w: &str| {
            s.strip_prefix(w)
                .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric()))
        };
        let unit = ["ms", "ns", "µs", "GiB/s", "GB/s", "MiB/s", "MB/s"]
            .iter()
            .any(|u| word_end(after, u));
        let percent = rest.starts_with('%');
        let times = word_end(rest, "x") || rest.starts_with('×');
        let arrow = after
            .strip_prefix("->")
            .is_some_and(|r| r.trim_start().starts_with(|c: char| c.is_ascii_digit()));
        let n_times = after
            .strip_prefix("times ")
            .is_some_and(|r| r.starts_with("faster") || r.starts_with("slower"));
        if unit || percent || times || arrow || n_times {
            let end = (i + 12).min(text.len());
            let end = (end..=text.len())
                .find(|&e| text.is_char_boundary(e))
                .unwrap_or(text.len());
            return Some(text[start..end].to_string());
        }
    }
    None
}

#[test]
fn the_check_finds_measurements_and_leaves_sizes() {
    for m in [
        "/// 23.6 ms a GiB",
        "// 16% faster in L2",
        "/// 35 -> 28 on mixed text",
        "/// 2.5 times slower",
        "/// 1.4x the time",
        "/// at 3.1 GiB/s",
        "/// 2× faster",
    ] {
        assert!(measurement(m).is_some(), "{m}");
    }
    for clean in [
        "/// 2 KiB ahead, 64 MiB inputs",
        "/// the byte 0x80",
        "/// the u16x8 vector",
        "/// three times as many",
        "/// UTF-8 -> UTF-16",
        "/// step 3 of 4",
    ] {
        assert_eq!(measurement(clean), None, "{clean}");
    }
}

#[test]
fn no_comment_of_the_codec_records_a_measurement() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    rust_files(&root.join("crates/codec/src"), &mut files);
    assert!(files.len() > 20, "found only {} source files", files.len());
    let mut found = Vec::new();
    for f in &files {
        let text = fs::read_to_string(f).expect("a UTF-8 source file");
        for (n, line) in text.lines().enumerate() {
            let Some(at) = line.find("//") else { continue };
            if let Some(m) = measurement(&line[at..]) {
                found.push(format!("{}:{}: {m}", f.display(), n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "comments that record a measurement (give the reason; the figure goes to \
         BENCHMARKS.md with its machine and command):\n{}",
        found.join("\n")
    );
}
