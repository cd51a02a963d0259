//! Facts about the workspace and the commands every task runs: where the target directory
//! is, which cargo to call, git, the release date. The bottom layer of xtask: it imports no
//! other module.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The error type of the tasks.
pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

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

/// A command running the cargo that runs this task (`$CARGO`, else `cargo` on `PATH`), in
/// the workspace root.
pub fn cargo(root: &Path) -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(root);
    cmd
}

/// Runs `cmd` to its end, failing with `what` when it does not succeed.
///
/// # Errors
///
/// When the program cannot be run or exits unsuccessfully.
pub fn status(cmd: &mut Command, what: &str) -> Result<()> {
    let status = cmd.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})").into())
    }
}

/// The trimmed standard output of `git -C root ARGS`, when git runs and succeeds.
pub fn git<S: AsRef<OsStr>>(root: &Path, args: &[S]) -> Option<String> {
    Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
}

/// `git describe --always --dirty` of the workspace, or `unknown`.
pub fn git_head(root: &Path) -> String {
    git(root, &["describe", "--always", "--dirty"]).unwrap_or_else(|| "unknown".to_owned())
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
    git(root, &["log", "-1", "--format=%ct"])
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// A positive number, for a task's `value_parser`.
///
/// # Errors
///
/// When `s` is not a number above zero.
pub fn positive<N: std::str::FromStr + PartialOrd + Default>(
    s: &str,
) -> std::result::Result<N, String> {
    s.parse()
        .ok()
        .filter(|n| *n > N::default())
        .ok_or_else(|| "needs a positive number".to_owned())
}

/// The UTC date of `secs` seconds after the Unix epoch, as `YYYY-MM-DD`: the tools'
/// crate's, which `--generate man` dates its page with.
pub use utf8_tools::generate::iso_date;

#[cfg(test)]
mod tests {
    #[test]
    fn iso_date() {
        assert_eq!(super::iso_date(0), "1970-01-01");
        assert_eq!(super::iso_date(951_782_400), "2000-02-29");
        assert_eq!(super::iso_date(1_767_225_599), "2025-12-31");
    }
}
