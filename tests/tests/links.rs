//! A clone can trust its docs: every relative link of README.md, ARCHITECTURE.md and the pages
//! under `docs/` points at a file of the repository. A link that leaves the repository (such as
//! `../shared/...`, present only beside CI's checkout) or names a missing file fails.
#![forbid(unsafe_code)]

use std::fs;
use std::path::{Component, Path, PathBuf};

/// The target of every inline Markdown link `[text](target)` and image `![alt](target)` in
/// `text`, outside fenced code blocks and inline code, without a `"title"`.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Inline code spans hold shell examples, not links.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            out.push(target.to_string());
            rest = &after[end..];
        }
    }
    out
}

/// Whether `target` is a link into the repository (not a URL, not a bare anchor).
fn is_local(target: &str) -> bool {
    !(target.is_empty()
        || target.starts_with('#')
        || target.contains("://")
        || target.starts_with("mailto:"))
}

/// `path` with `.` and `..` resolved lexically, or `None` when `..` climbs above its start.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// The problems of the local links of `page` (a path relative to `root`).
fn broken_links(root: &Path, page: &Path) -> Vec<String> {
    let text = fs::read_to_string(root.join(page)).expect("a readable page");
    let dir = page.parent().unwrap_or(Path::new(""));
    let mut problems = Vec::new();
    for target in link_targets(&text) {
        if !is_local(&target) {
            continue;
        }
        let file = target.split('#').next().unwrap_or("");
        if file.is_empty() {
            continue;
        }
        match normalize(&dir.join(file)) {
            None => problems.push(format!(
                "{}: {target} points outside the repository",
                page.display()
            )),
            Some(p) if !root.join(&p).exists() => problems.push(format!(
                "{}: {target}: no such file in the repository",
                page.display()
            )),
            Some(_) => {}
        }
    }
    problems
}

fn pages(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from("README.md"), PathBuf::from("ARCHITECTURE.md")];
    let mut dirs = vec![PathBuf::from("docs")];
    while let Some(d) = dirs.pop() {
        for e in fs::read_dir(root.join(&d)).expect("docs/ is readable") {
            let name = e.expect("a directory entry").file_name();
            let rel = d.join(name);
            if root.join(&rel).is_dir() {
                dirs.push(rel);
            } else if rel.extension().is_some_and(|x| x == "md") {
                out.push(rel);
            }
        }
    }
    out
}

#[test]
fn the_link_reader_finds_links_and_skips_code() {
    let text = "See [a](docs/a.md) and ![c](x.svg \"t\").\n`[no](code.md)`\n```\n[no](fenced.md)\n```\n[u](https://x/y) [h](#top)";
    let targets = link_targets(text);
    assert_eq!(targets, ["docs/a.md", "x.svg", "https://x/y", "#top"]);
    assert!(!is_local("https://x/y") && !is_local("#top") && is_local("docs/a.md#x"));
    assert_eq!(
        normalize(Path::new("docs/../README.md")),
        Some("README.md".into())
    );
    assert_eq!(normalize(Path::new("../shared/DESIGN.md")), None);
}

#[test]
fn the_check_catches_a_link_outside_and_a_missing_file() {
    let root = tempfile::tempdir().unwrap();
    fs::write(
        root.path().join("README.md"),
        "[d](../shared/DESIGN.md) [m](docs/missing.md) [ok](README.md)\n",
    )
    .unwrap();
    let problems = broken_links(root.path(), Path::new("README.md"));
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("outside the repository"));
    assert!(problems[1].contains("no such file"));
}

#[test]
fn every_local_link_of_the_docs_resolves_inside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let pages = pages(&root);
    assert!(pages.len() >= 4, "{pages:?}");
    let problems: Vec<String> = pages.iter().flat_map(|p| broken_links(&root, p)).collect();
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}
