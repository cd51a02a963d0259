//! What `-r` and the FILE operands search: `--include`, `--exclude`, `--exclude-dir` as
//! fnmatch patterns on names ([`super::glob`]), and what a walk finds ([`Found`]), shared by
//! the walk ([`super::walk`]) and its part below `PATH_MAX` ([`super::deep`]).

use std::ffi::OsStr;
use std::path::PathBuf;

use super::glob::Globs;

/// The filters of `-r` and of FILE operands, as GNU grep applies them (gnulib's
/// `excluded_file_name`): among `--include` and `--exclude`, the last pattern that matches
/// decides; a name none matches is searched unless the first pattern is an `--include`.
/// Files met in a walk are matched by base name, FILE operands by their whole name or any
/// part of it after a `/` (GNU's "name suffix").
#[derive(Debug, Default, Clone)]
pub struct Filters {
    /// `--include` and `--exclude` patterns, in command-line order.
    files: Globs,
    /// Whether each of them is an `--include`.
    include: Vec<bool>,
    /// `--exclude-dir` patterns (a trailing `/` dropped).
    exclude_dir: Globs,
}

impl Filters {
    /// The filters of these `--include` (true) / `--exclude` (false) patterns, in the order
    /// given, and `--exclude-dir` patterns.
    pub fn new(file_filters: &[(bool, String)], exclude_dir: &[String]) -> Filters {
        let dirs = exclude_dir.iter().map(|p| match p.trim_end_matches('/') {
            "" => p.as_str(),
            trimmed => trimmed,
        });
        Filters {
            files: Globs::new(file_filters.iter().map(|(_, p)| p.as_str())),
            include: file_filters.iter().map(|&(inc, _)| inc).collect(),
            exclude_dir: Globs::new(dirs),
        }
    }

    fn decide(&self, last: Option<usize>) -> bool {
        match last {
            Some(i) => self.include[i],
            None => !self.include.first().copied().unwrap_or(false),
        }
    }

    /// Whether `--include` or `--exclude` was given (even one that matches nothing: an
    /// `--include` first excludes what it does not match): without them, every file a walk
    /// meets is searched, whatever its name.
    pub fn names_files(&self) -> bool {
        !self.include.is_empty()
    }

    /// Whether an `--exclude-dir` that can match was given: without one, every directory is
    /// entered.
    pub fn names_dirs(&self) -> bool {
        !self.exclude_dir.is_empty()
    }

    /// Whether a file met in a walk, with this base name, is searched.
    pub fn file_ok(&self, base: &OsStr) -> bool {
        self.decide(self.files.last_match(base))
    }

    /// Whether a FILE operand is searched.
    pub fn operand_ok(&self, name: &OsStr) -> bool {
        self.decide(
            suffixes(name)
                .into_iter()
                .filter_map(|s| self.files.last_match(s))
                .max(),
        )
    }

    /// Whether a directory met in a walk, with this base name, is entered.
    pub fn dir_ok(&self, base: &OsStr) -> bool {
        self.exclude_dir.last_match(base).is_none()
    }

    /// Whether a directory FILE operand of `-r` is searched.
    pub fn dir_operand_ok(&self, name: &OsStr) -> bool {
        suffixes(name)
            .into_iter()
            .all(|s| self.exclude_dir.last_match(s).is_none())
    }
}

/// A name and each part of it that follows a `/` not followed by another `/` (gnulib's
/// unanchored exclude matching).
fn suffixes(name: &OsStr) -> Vec<&OsStr> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let b = name.as_bytes();
        (0..b.len())
            .filter(|&i| i == 0 || (b[i - 1] == b'/' && b[i] != b'/'))
            .map(|i| OsStr::from_bytes(&b[i..]))
            .collect()
    }
    #[cfg(not(unix))]
    {
        vec![name]
    }
}

/// One entry found while walking: a file to search, or an error to report.
#[derive(Debug)]
pub enum Found {
    /// A file (or anything that is not a directory or a symbolic link) to search.
    File(PathBuf),
    /// A directory that could not be read (or, under `-R`, a link to nothing).
    Error(PathBuf, std::io::Error),
    /// Under `-R`, a link back to a directory being walked: not entered again.
    Loop(PathBuf),
}
