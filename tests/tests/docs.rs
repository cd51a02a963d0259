//! Comments in the product's sources (`crates/*/src`, `xtask/src`) say what the code is: no
//! comment cites a project issue or a work session by number. That history belongs in commit
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
