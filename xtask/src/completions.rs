//! `cargo xtask completions`: shell completion scripts for every binary, from the same clap
//! `command()` the binary parses with.
//!
//! | shell | file | where it usually goes |
//! |---|---|---|
//! | bash | `utf8-count.bash` | `/usr/share/bash-completion/completions/utf8-count` |
//! | zsh | `_utf8-count` | a directory on `$fpath`, e.g. `/usr/share/zsh/site-functions/` |
//! | fish | `utf8-count.fish` | `~/.config/fish/completions/` |
//! | elvish | `utf8-count.elv` | `eval (slurp < utf8-count.elv)` in `rc.elv` |
//! | PowerShell | `_utf8-count.ps1` | dot-sourced from `$PROFILE` |

use std::io;
use std::path::{Path, PathBuf};

use clap_complete::Shell;

use crate::tool::{TOOLS, Tool};

pub use utf8_tools::generate::SHELLS;

/// The completion script of one tool for one shell: (file name, contents).
pub fn script(tool: Tool, shell: Shell) -> (String, Vec<u8>) {
    utf8_tools::generate::completion(tool.command(), shell)
}

/// Every script: (file name, contents), for every tool and shell.
pub fn all() -> Vec<(String, Vec<u8>)> {
    TOOLS
        .into_iter()
        .flat_map(|tool| SHELLS.into_iter().map(move |shell| script(tool, shell)))
        .collect()
}

/// Writes every script into `dir` (created if missing); returns the paths written.
///
/// # Errors
///
/// When the directory or a file cannot be written.
pub fn write(dir: &Path) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for (name, contents) in all() {
        let path = dir.join(name);
        std::fs::write(&path, contents)?;
        written.push(path);
    }
    Ok(written)
}
