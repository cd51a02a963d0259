//! `-r`: the files under a directory, walked by `walkdir` in name order, depth first,
//! without following symbolic links met inside it (a directory named on the command line
//! is entered even when it is a link, as GNU grep does); `--include`, `--exclude`,
//! `--exclude-dir` are fnmatch patterns on base names ([`super::glob`]).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::glob::Globs;

/// The filters of `-r`.
#[derive(Debug, Default, Clone)]
pub struct Filters {
    /// `--include` patterns (a file must match one, when there are any).
    pub include: Globs,
    /// `--exclude` patterns.
    pub exclude: Globs,
    /// `--exclude-dir` patterns.
    pub exclude_dir: Globs,
}

impl Filters {
    /// The filters of these `--include`, `--exclude` and `--exclude-dir` patterns.
    pub fn new(include: &[String], exclude: &[String], exclude_dir: &[String]) -> Filters {
        let globs = |v: &[String]| Globs::new(v.iter().map(String::as_str));
        Filters {
            include: globs(include),
            exclude: globs(exclude),
            exclude_dir: globs(exclude_dir),
        }
    }

    /// Whether `--include` or `--exclude` was given.
    pub fn any_file_filter(&self) -> bool {
        !self.include.is_empty() || !self.exclude.is_empty()
    }

    /// Whether a file with this base name is searched.
    pub fn file_ok(&self, base: &OsStr) -> bool {
        if self.exclude.is_match(base) {
            return false;
        }
        self.include.is_empty() || self.include.is_match(base)
    }

    /// Whether a directory with this base name is entered.
    pub fn dir_ok(&self, base: &OsStr) -> bool {
        !self.exclude_dir.is_match(base)
    }
}

/// One entry found while walking: a file to search, or an error to report.
#[derive(Debug)]
pub enum Found {
    /// A file (or anything that is not a directory or a symbolic link) to search.
    File(PathBuf),
    /// A directory that could not be read.
    Error(PathBuf, std::io::Error),
}

/// The files under `dir` (sorted by name, depth first), with the errors met where they
/// were met; `implicit` when `dir` is the `.` of `-r` without FILE (names are then given
/// without `./`, as grep).
pub fn walk(dir: &Path, implicit: bool, filters: &Filters) -> impl Iterator<Item = Found> {
    let shown = move |p: &Path| -> PathBuf {
        match p.strip_prefix(dir) {
            Ok(rel) if implicit && !rel.as_os_str().is_empty() => rel.to_path_buf(),
            _ => p.to_path_buf(),
        }
    };
    WalkDir::new(dir)
        .min_depth(1)
        .follow_links(false)
        .follow_root_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !e.file_type().is_dir() || filters.dir_ok(e.file_name()))
        .filter_map(move |r| match r {
            Ok(e) => {
                let ft = e.file_type();
                (!ft.is_dir() && !ft.is_symlink() && filters.file_ok(e.file_name()))
                    .then(|| Found::File(shown(e.path())))
            }
            // An entry a directory listing could not name is skipped.
            Err(err) => {
                let path = shown(err.path()?);
                let io = err.into_io_error()?;
                Some(Found::Error(path, io))
            }
        })
}
