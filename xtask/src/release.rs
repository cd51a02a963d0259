//! The release tasks' command lines (`dist`, `man`, `completions`) and what each prints.
//! The work is in [`crate::dist`], [`crate::man`] and [`crate::completions`]; the binaries
//! they describe in [`crate::tool`].
//!
//! ```text
//! cargo xtask dist [--target TRIPLE]   archive + SHA256SUMS in $CARGO_TARGET_DIR/dist (target/dist)
//! cargo xtask man [--out DIR]          man pages, default $CARGO_TARGET_DIR/dist/man (target/dist/man)
//! cargo xtask completions [--out DIR]  completion scripts, default .../dist/completions
//! ```

use std::path::{Path, PathBuf};

use crate::workspace::{self, Result};
use crate::{completions, dist, man};

/// Usage lines for the release tasks, for the dispatcher's help.
pub const USAGE: &str = "  dist [--target T]   build the binaries (profile release-lto) and write
                      DIST/utf8-tools-VERSION-T.tar.gz and DIST/SHA256SUMS, where DIST is
                      $CARGO_TARGET_DIR/dist, or target/dist when it is unset
  man [--out DIR]     write the man pages (default DIST/man)
  completions [--out DIR]
                      write bash, zsh, fish, elvish and PowerShell completions
                      (default DIST/completions)";

/// `dist`'s options.
#[derive(Debug, clap::Args)]
pub struct DistArgs {
    /// Build for this target triple (default: the host's).
    #[arg(long, value_name = "T")]
    target: Option<String>,
}

/// `man`'s and `completions`' options.
#[derive(Debug, clap::Args)]
pub struct OutArgs {
    /// Write into DIR (default: DIST/man or DIST/completions).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// `cargo xtask dist`.
///
/// # Errors
///
/// As [`dist::run`].
pub fn dist(root: &Path, args: &DistArgs) -> Result<()> {
    let d = dist::run(root, args.target.as_deref())?;
    println!(
        "dist: wrote {} ({} bytes, sha256 {})",
        d.archive.display(),
        d.size,
        d.sha256
    );
    println!("dist: wrote {}", d.sums.display());
    Ok(())
}

/// `cargo xtask man` (`task` "man") or `cargo xtask completions`.
///
/// # Errors
///
/// When a file cannot be written.
pub fn pages(root: &Path, task: &str, args: &OutArgs) -> Result<()> {
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| dist::dist_dir(root).join(task));
    let written = if task == "man" {
        man::write(
            &dir,
            &workspace::iso_date(workspace::source_date_epoch(root)),
        )
    } else {
        completions::write(&dir)
    }?;
    println!("{task}: wrote {} files in {}", written.len(), dir.display());
    Ok(())
}
