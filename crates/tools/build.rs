//! Puts the git commit into `--version` when built from a git checkout of the workspace.
//!
//! Sets `UTF8_TOOLS_LONG_VERSION` to `VERSION (commit ABCDEF1)`, or to the bare package
//! version when there is no `.git` at the workspace root or no `git` to ask (a crate unpacked
//! from a registry, a source tarball). Reruns when HEAD or the branch it names moves.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    let long = match commit() {
        Some(hash) => format!("{version} (commit {hash})"),
        None => version,
    };
    println!("cargo:rustc-env=UTF8_TOOLS_LONG_VERSION={long}");
}

/// The short hash of HEAD, when this package sits in a git checkout of the workspace.
fn commit() -> Option<String> {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
    // crates/tools -> the workspace root; only its own .git counts, not an enclosing repository.
    let root = manifest.parent()?.parent()?;
    if !root.join(".git").exists() {
        return None;
    }
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        let text = text.trim();
        (out.status.success() && !text.is_empty()).then(|| text.to_owned())
    };
    let hash = git(&["rev-parse", "--short", "HEAD"])?;
    // Rerun when HEAD changes (a checkout) or the branch it points to moves (a commit). Cargo
    // reruns on every build when a listed file is missing, so list only files that exist.
    let mut watch = vec!["HEAD".to_owned(), "packed-refs".to_owned()];
    watch.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watch {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            let path = root.join(Path::new(&path));
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    Some(hash)
}
