//! The README's quick start works as written: the first command of its first fenced block
//! exits 0 from the repository root and shows the main job on the embedded sample
//! (issue 19, item 6).
#![forbid(unsafe_code)]

use std::path::Path;
use std::process::Command;

/// The first command of the first fenced block under the "Quick start" heading, without a
/// leading `$ ` prompt.
fn first_quick_start_command(readme: &str) -> Option<String> {
    let section = readme
        .split("\n## ")
        .find(|s| s.starts_with("Quick start"))?;
    let mut lines = section.lines().skip_while(|l| !l.starts_with("```"));
    let fence = lines.next()?;
    let tag = fence.trim_start_matches('`').trim();
    assert!(
        matches!(tag, "" | "sh" | "bash" | "console"),
        "the quick start's first block is tagged {tag:?}, not a shell"
    );
    lines
        .take_while(|l| !l.starts_with("```"))
        .map(|l| l.trim().trim_start_matches("$ "))
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
}

#[test]
fn the_quick_start_finds_its_first_command() {
    let readme =
        "# x\n\n## Quick start\n\nText.\n\n```sh\n$ cargo run -p a   # note\ncargo test\n```\n";
    assert_eq!(
        first_quick_start_command(readme).as_deref(),
        Some("cargo run -p a   # note")
    );
}

#[test]
fn the_readme_first_command_succeeds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let command = first_quick_start_command(&readme).expect("a Quick start section with a command");
    assert!(
        command.starts_with("cargo "),
        "{command:?} does not begin with cargo"
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(&root)
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{command} exited with {}:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    // The sample's damage is explained and repaired, not only printed.
    assert!(
        stdout.contains("surrogate") && stdout.contains('\u{FFFD}'),
        "{stdout}"
    );
}
