//! `-r`: the files under a directory, in name order, without following symbolic links
//! inside it; `--include`, `--exclude`, `--exclude-dir` globs on base names.

use std::path::{Path, PathBuf};

/// Whether `name` matches the shell glob `pat` (`*`, `?`, `[...]` with `!`/`^` and ranges,
/// `\` escapes), as fnmatch without flags.
///
/// ```
/// use utf8_tools::grep::glob_match;
/// assert!(glob_match("*.txt", "a.txt"));
/// assert!(glob_match("[a-c]?", "b1"));
/// assert!(!glob_match("*.rs", "a.txt"));
/// ```
pub fn glob_match(pat: &str, name: &str) -> bool {
    let p: Vec<char> = pat.chars().collect();
    let n: Vec<char> = name.chars().collect();
    glob(&p, &n)
}

fn glob(p: &[char], n: &[char]) -> bool {
    match p.first() {
        None => n.is_empty(),
        Some('*') => (0..=n.len()).any(|i| glob(&p[1..], &n[i..])),
        Some('?') => !n.is_empty() && glob(&p[1..], &n[1..]),
        Some('[') => {
            let Some(&c) = n.first() else { return false };
            let mut i = 1;
            let negate = matches!(p.get(1), Some('!' | '^'));
            if negate {
                i += 1;
            }
            let mut hit = false;
            let mut first = true;
            while i < p.len() && (first || p[i] != ']') {
                first = false;
                let lo = p[i];
                if p.get(i + 1) == Some(&'-') && p.get(i + 2).is_some_and(|&h| h != ']') {
                    if lo <= c && c <= p[i + 2] {
                        hit = true;
                    }
                    i += 3;
                } else {
                    if lo == c {
                        hit = true;
                    }
                    i += 1;
                }
            }
            if i >= p.len() {
                // No closing bracket: a literal '['.
                return c == '[' && glob(&p[1..], &n[1..]);
            }
            hit != negate && glob(&p[i + 1..], &n[1..])
        }
        Some('\\') if p.len() > 1 => n.first() == Some(&p[1]) && glob(&p[2..], &n[1..]),
        Some(&c) => n.first() == Some(&c) && glob(&p[1..], &n[1..]),
    }
}

/// The filters of `-r`.
#[derive(Debug, Default, Clone)]
pub struct Filters {
    /// `--include` globs (a file must match one, when there are any).
    pub include: Vec<String>,
    /// `--exclude` globs.
    pub exclude: Vec<String>,
    /// `--exclude-dir` globs.
    pub exclude_dir: Vec<String>,
}

impl Filters {
    /// Whether a file with this base name is searched.
    pub fn file_ok(&self, base: &str) -> bool {
        if self.exclude.iter().any(|g| glob_match(g, base)) {
            return false;
        }
        self.include.is_empty() || self.include.iter().any(|g| glob_match(g, base))
    }

    /// Whether a directory with this base name is entered.
    pub fn dir_ok(&self, base: &str) -> bool {
        !self.exclude_dir.iter().any(|g| glob_match(g, base))
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

/// Appends the files under `dir` (sorted by name, depth first) to `out`; `implicit` when
/// `dir` is the `.` of `-r` without FILE (names are then given without `./`, as grep).
pub fn walk(dir: &Path, implicit: bool, filters: &Filters, out: &mut Vec<Found>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            out.push(Found::Error(dir.to_path_buf(), e));
            return;
        }
    };
    let mut names: Vec<_> = entries.filter_map(Result::ok).collect();
    names.sort_by_key(|e| e.file_name());
    for entry in names {
        let path = if implicit {
            PathBuf::from(entry.file_name())
        } else {
            dir.join(entry.file_name())
        };
        let base = entry.file_name().to_string_lossy().into_owned();
        let Ok(ft) = entry.file_type() else { continue };
        if ft.is_symlink() {
            continue;
        }
        if ft.is_dir() {
            if filters.dir_ok(&base) {
                walk(&path, false, filters, out);
            }
        } else if filters.file_ok(&base) {
            out.push(Found::File(path));
        }
    }
}
