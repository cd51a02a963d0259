//! The release tasks (`dist`, `man`, `completions`) and what they share: the list of
//! binaries and where the target directory is.
//!
//! ```text
//! cargo xtask dist [--target TRIPLE]   archive + SHA256SUMS in $CARGO_TARGET_DIR/dist (target/dist)
//! cargo xtask man [--out DIR]          man pages, default $CARGO_TARGET_DIR/dist/man (target/dist/man)
//! cargo xtask completions [--out DIR]  completion scripts, default .../dist/completions
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use crate::{completions, dist, man};

/// Usage lines for the release tasks, for the dispatcher's help.
pub const USAGE: &str = "  dist [--target T]   build the binaries (profile release-lto) and write
                      DIST/utf8-tools-VERSION-T.tar.gz and DIST/SHA256SUMS, where DIST is
                      $CARGO_TARGET_DIR/dist, or target/dist when it is unset
  man [--out DIR]     write the man pages (default DIST/man)
  completions [--out DIR]
                      write bash, zsh, fish, elvish and PowerShell completions
                      (default DIST/completions)";

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

/// Cargo's target directory: `$CARGO_TARGET_DIR` (relative to the current directory, as
/// cargo reads it), or `target` in the workspace.
pub fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => {
            std::path::absolute(PathBuf::from(dir)).unwrap_or_else(|_| root.join("target"))
        }
        None => root.join("target"),
    }
}

/// Runs `task` (`dist`, `man` or `completions`) with its arguments.
pub fn run(task: &str, args: &[&str], root: &Path) -> ExitCode {
    let result: Result<(), Box<dyn std::error::Error>> = match (task, args) {
        ("dist", []) => dist_task(root, None),
        ("dist", ["--target", t]) => dist_task(root, Some(t)),
        ("man" | "completions", [] | ["--out", _]) => {
            let dir = match args {
                [_, dir] => PathBuf::from(dir),
                _ => dist::dist_dir(root).join(task),
            };
            let written = if task == "man" {
                man::write(&dir, &iso_date(source_date_epoch(root)))
            } else {
                completions::write(&dir)
            };
            written.map_err(Into::into).map(|paths| {
                println!("{task}: wrote {} files in {}", paths.len(), dir.display());
            })
        }
        _ => {
            eprintln!(
                "xtask {task}: bad arguments: {}\n\nusage:\n{USAGE}",
                args.join(" ")
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask {task}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn dist_task(root: &Path, target: Option<&str>) -> Result<(), Box<dyn std::error::Error>> {
    let d = dist::run(root, target)?;
    println!(
        "dist: wrote {} ({} bytes, sha256 {})",
        d.archive.display(),
        d.size,
        d.sha256
    );
    println!("dist: wrote {}", d.sums.display());
    Ok(())
}

/// The time stamp of a release, in seconds since 1970: `SOURCE_DATE_EPOCH` when set, else
/// the commit time of HEAD, else 0. Archive mtimes and the man pages' date come from it.
pub fn source_date_epoch(root: &Path) -> u64 {
    if let Some(t) = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse().ok())
    {
        return t;
    }
    Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["log", "-1", "--format=%ct"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(0)
}

/// `YYYY-MM-DD` (UTC) of a time in seconds since 1970 (Howard Hinnant's `civil_from_days`).
pub fn iso_date(secs: u64) -> String {
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn iso_date() {
        assert_eq!(super::iso_date(0), "1970-01-01");
        assert_eq!(super::iso_date(951_782_400), "2000-02-29");
        assert_eq!(super::iso_date(1_767_225_599), "2025-12-31");
    }
}
