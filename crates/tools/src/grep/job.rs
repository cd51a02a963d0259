//! What the run's parts pass one another: the inputs to search ([`Entry`], [`Job`]), the
//! trouble met finding them, and the sums of what was found. Below `run`, `parallel` and
//! `split`, which all use them.

use std::sync::Arc;

use super::filters::Found;
use super::sink::FileResult;
use crate::diag::ToolError;
use crate::input::{Input, Root};

/// The program's name in diagnostics.
pub(super) const PROGRAM: &str = "utf8-grep";

/// Device and inode of a non-empty regular file.
pub(super) type FileId = (u64, u64);

/// One input to search: whether its name is shown by default, and whether a large file
/// may be split across threads (not by the workers of `-r`, which search files at once);
/// the directory of the walk that found it, held open.
pub(super) struct Job<'i> {
    pub(super) input: &'i Input,
    pub(super) root: Option<&'i Root>,
    pub(super) show: bool,
    pub(super) whole: bool,
}

/// An input to search (whether its name is shown by default, and the directory of the walk
/// that found it, held open), or trouble met while looking for inputs.
pub(super) enum Entry {
    Input(Input, bool, Option<Arc<Root>>),
    Trouble(Trouble),
}

/// Trouble met looking for inputs: an error (exit status 2) or a warning (none).
pub(super) enum Trouble {
    Error(ToolError),
    Warning(ToolError),
}

impl Entry {
    /// What a walk found, below directory `root` (held open) if given.
    pub(super) fn found(f: Found, root: Option<&Arc<Root>>) -> Entry {
        match f {
            Found::File(p) => Entry::Input(Input::Path(p), true, root.cloned()),
            Found::Error(p, e) => {
                Entry::Trouble(Trouble::Error(ToolError::input(p.to_string_lossy(), &e)))
            }
            Found::Loop(p) => Entry::Trouble(Trouble::Warning(ToolError::Input {
                path: p.to_string_lossy().into_owned(),
                message: "warning: recursive directory loop".to_string(),
            })),
        }
    }
}

/// What the inputs searched found, summed (`--json`'s summary).
#[derive(Debug, Default)]
pub(super) struct Totals {
    pub(super) files: u64,
    pub(super) files_matched: u64,
    pub(super) sum: FileResult,
}

impl Totals {
    pub(super) fn add(&mut self, r: &FileResult) {
        self.files += 1;
        self.files_matched += u64::from(r.selected > 0);
        self.sum.selected += r.selected;
        self.sum.matches += r.matches;
        self.sum.bytes += r.bytes;
    }
}
