//! The shipped binaries: their names, their clap commands, and how they are built (profile
//! `release-lto`, utf8-tools alone, so that xtask's own dependencies such as utf8-dfa's
//! `build` feature never reach them).

use std::path::{Path, PathBuf};

use crate::workspace::{self, Result};

/// The Cargo profile of the shipped binaries.
pub const PROFILE: &str = "release-lto";

/// One of the shipped binaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// utf8-count
    Count,
    /// utf8-grep
    Grep,
    /// utf8-repair
    Repair,
}

/// Every shipped binary, in name order.
pub const TOOLS: [Tool; 3] = [Tool::Count, Tool::Grep, Tool::Repair];

impl Tool {
    /// The binary's name.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Count => "utf8-count",
            Tool::Grep => "utf8-grep",
            Tool::Repair => "utf8-repair",
        }
    }

    /// The clap command the binary parses with.
    pub fn command(self) -> clap::Command {
        match self {
            Tool::Count => utf8_tools::count::command(),
            Tool::Grep => utf8_tools::grep::command(),
            Tool::Repair => utf8_tools::repair::command(),
        }
    }
}

/// `cargo build -p utf8-tools --bins --profile release-lto [--target TRIPLE]`, announced on
/// standard error as `xtask TASK: ...`; returns the directory the binaries are in.
///
/// # Errors
///
/// When cargo cannot be run or fails.
pub fn build(root: &Path, target: Option<&str>, task: &str) -> Result<PathBuf> {
    let mut cmd = workspace::cargo(root);
    cmd.args(["build", "-p", "utf8-tools", "--bins", "--profile", PROFILE]);
    if let Some(t) = target {
        cmd.args(["--target", t]);
    }
    eprintln!(
        "xtask {task}: cargo build -p utf8-tools --bins --profile {PROFILE}{}",
        target.map(|t| format!(" --target {t}")).unwrap_or_default()
    );
    workspace::status(&mut cmd, "cargo build")?;
    Ok(bin_dir(root, target))
}

/// Where [`build`] puts the binaries.
pub fn bin_dir(root: &Path, target: Option<&str>) -> PathBuf {
    let mut dir = workspace::target_dir(root);
    if let Some(t) = target {
        dir.push(t);
    }
    dir.push(PROFILE);
    dir
}
