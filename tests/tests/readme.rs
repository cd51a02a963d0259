//! The README's quick start works as written: the first command of its first fenced block
//! exits 0 from the repository root, builds no benchmark peer, and repairs and reports every
//! error of the damaged sample that ships in `samples/`.
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
        command.starts_with("cargo run ") && command.contains("samples/damaged.txt"),
        "{command:?} does not run a tool on the sample"
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(&root)
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{command} exited with {}:\n{stderr}",
        out.status
    );
    // It builds the tools, not the benchmark peers.
    for peer in ["criterion", "simdutf", "bytecount"] {
        assert!(
            !stderr.contains(&format!("Compiling {peer}")),
            "{command} compiles {peer}:\n{stderr}"
        );
    }
    // The sample is damaged in several ways, and every error is repaired and reported: the
    // repaired text is std's lossy decoding (one U+FFFD per maximal subpart), and the report
    // explains each error and counts them all.
    let sample = std::fs::read(root.join("samples/damaged.txt")).unwrap();
    let errors: Vec<_> = utf8_codec::errors(&sample).collect();
    let mut kinds: Vec<_> = errors.iter().map(|e| e.kind()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    assert!(
        errors.len() >= 10 && kinds.len() >= 5,
        "the sample shows few errors: {errors:?}"
    );
    assert_eq!(
        stdout,
        String::from_utf8_lossy(&sample),
        "the repaired sample"
    );
    assert!(
        stderr.contains("would encode the surrogate U+D800"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("damaged.txt: {} errors repaired: ", errors.len())),
        "{stderr}"
    );
}
