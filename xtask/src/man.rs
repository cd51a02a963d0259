//! `cargo xtask man`: one man page (section 1) per binary, rendered by
//! [`utf8_tools::generate::man_page`], which `--generate man` of each binary prints too.

use std::io;
use std::path::Path;

use crate::tool::{TOOLS, Tool};

/// The man page of one tool, as roff source, dated `date` (`YYYY-MM-DD`).
///
/// # Errors
///
/// Never in practice: rendering writes to memory.
pub fn page(tool: Tool, date: &str) -> io::Result<String> {
    utf8_tools::generate::man_page(tool.command(), date)
}

/// The file name of a tool's page: `utf8-count.1`.
pub fn file_name(tool: Tool) -> String {
    format!("{}.1", tool.name())
}

/// Writes every page into `dir` (created if missing); returns the paths written.
///
/// # Errors
///
/// When the directory or a file cannot be written.
pub fn write(dir: &Path, date: &str) -> io::Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for tool in TOOLS {
        let path = dir.join(file_name(tool));
        std::fs::write(&path, page(tool, date)?)?;
        written.push(path);
    }
    Ok(written)
}
