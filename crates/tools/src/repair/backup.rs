//! Backups of replaced files as GNU `cp`, `mv` and `install` make them: `--backup[=CONTROL]`
//! (`-b`), `-S SUFFIX`, `VERSION_CONTROL` and `SIMPLE_BACKUP_SUFFIX`, read as gnulib's
//! `backupfile.c` and `argmatch.c` read them.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Which backups are made (the version control of GNU's `--backup`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Control {
    /// `none`, `off`: no backup.
    None,
    /// `numbered`, `t`: `FILE.~N~`, one more than the highest there is.
    Numbered,
    /// `existing`, `nil`: numbered if `FILE` has numbered backups, else simple.
    Existing,
    /// `simple`, `never`: `FILE` followed by the suffix, replacing an older one.
    Simple,
}

/// The words `--backup` and `VERSION_CONTROL` take, and what each means.
const WORDS: [(&str, Control); 8] = [
    ("none", Control::None),
    ("off", Control::None),
    ("simple", Control::Simple),
    ("never", Control::Simple),
    ("existing", Control::Existing),
    ("nil", Control::Existing),
    ("numbered", Control::Numbered),
    ("t", Control::Numbered),
];

/// The list of valid words in a message.
const VALID: &str = "none or off, simple or never, existing or nil, numbered or t";

impl Control {
    /// A CONTROL word, or an abbreviation of one that names one control (argmatch's rule:
    /// `nu` is numbered, `n` is ambiguous). `what` names the option or variable in errors.
    fn parse(word: &str, what: &str) -> Result<Control, String> {
        if let Some(&(_, c)) = WORDS.iter().find(|(w, _)| *w == word) {
            return Ok(c);
        }
        let mut found = WORDS
            .iter()
            .filter(|(w, _)| !word.is_empty() && w.starts_with(word))
            .map(|&(_, c)| c);
        match found.next() {
            Some(c) if found.all(|d| d == c) => Ok(c),
            Some(_) => Err(format!(
                "ambiguous argument '{word}' for {what} (valid: {VALID})"
            )),
            None => Err(format!(
                "invalid argument '{word}' for {what} (valid: {VALID})"
            )),
        }
    }
}

/// How the original of a replaced file is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Backup {
    control: Control,
    suffix: OsString,
}

/// The environment a [`Backup`] is read with (`VERSION_CONTROL`, `SIMPLE_BACKUP_SUFFIX`).
pub(super) struct Env {
    pub version_control: Option<OsString>,
    pub simple_backup_suffix: Option<OsString>,
}

impl Env {
    /// The process's environment.
    pub fn get() -> Env {
        Env {
            version_control: std::env::var_os("VERSION_CONTROL"),
            simple_backup_suffix: std::env::var_os("SIMPLE_BACKUP_SUFFIX"),
        }
    }
}

impl Backup {
    /// The backup the command line asks for, if any: `--backup[=CONTROL]` (`control`,
    /// empty without `=`), `-b` (`plain`) and `-S` (`suffix`, which implies a backup).
    ///
    /// # Errors
    ///
    /// A CONTROL word or `VERSION_CONTROL` that is not one (the message names `-S` when
    /// the word may be a suffix), or a suffix that is empty or holds a `/`.
    pub fn from_args(
        control: Option<&str>,
        plain: bool,
        suffix: Option<&OsStr>,
        env: &Env,
    ) -> Result<Option<Backup>, String> {
        if control.is_none() && !plain && suffix.is_none() {
            return Ok(None);
        }
        let control = match control.filter(|c| !c.is_empty()) {
            Some(word) => Control::parse(word, "'--backup'").map_err(|e| {
                format!("{e}; a suffix is given with -S {word} (or --suffix={word})")
            })?,
            None => match env.version_control.as_deref().filter(|v| !v.is_empty()) {
                Some(v) => Control::parse(&v.to_string_lossy(), "$VERSION_CONTROL")?,
                None => Control::Existing,
            },
        };
        let suffix = match suffix {
            Some(s) if s.is_empty() || s.as_encoded_bytes().contains(&b'/') => {
                return Err(format!(
                    "invalid suffix '{}' for -S (a backup suffix is not empty and holds no '/')",
                    s.to_string_lossy()
                ));
            }
            Some(s) => s.to_os_string(),
            // gnulib's rule: a variable that is empty or holds a '/' is ignored.
            None => match env.simple_backup_suffix.as_deref() {
                Some(s) if !s.is_empty() && !s.as_encoded_bytes().contains(&b'/') => {
                    s.to_os_string()
                }
                _ => OsString::from("~"),
            },
        };
        Ok((control != Control::None).then_some(Backup { control, suffix }))
    }

    /// Where the backup of `file` (a resolved path) goes now.
    ///
    /// # Errors
    ///
    /// Reading `file`'s directory for its numbered backups failed.
    pub fn path_for(&self, file: &Path) -> io::Result<PathBuf> {
        let highest = match self.control {
            Control::Numbered | Control::Existing => highest_numbered(file)?,
            _ => None,
        };
        let numbered = match self.control {
            Control::Numbered => Some(highest.unwrap_or(0) + 1),
            Control::Existing => highest.map(|n| n + 1),
            _ => None,
        };
        let mut name = file.as_os_str().to_os_string();
        match numbered {
            Some(n) => name.push(format!(".~{n}~")),
            None => name.push(&self.suffix),
        }
        Ok(PathBuf::from(name))
    }
}

/// The highest N of the `FILE.~N~` beside `file`, if there is one.
fn highest_numbered(file: &Path) -> io::Result<Option<u64>> {
    let Some(base) = file.file_name() else {
        return Ok(None);
    };
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut prefix = base.as_encoded_bytes().to_vec();
    prefix.extend_from_slice(b".~");
    let mut highest = None;
    for entry in fs::read_dir(dir)? {
        let name = entry?.file_name();
        let n = name
            .as_encoded_bytes()
            .strip_prefix(&prefix[..])
            .and_then(|rest| rest.strip_suffix(b"~"))
            .filter(|digits| !digits.is_empty() && digits.iter().all(u8::is_ascii_digit))
            .and_then(|digits| std::str::from_utf8(digits).ok()?.parse::<u64>().ok());
        if let Some(n) = n {
            highest = highest.max(Some(n));
        }
    }
    Ok(highest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vc: Option<&str>, suffix: Option<&str>) -> Env {
        Env {
            version_control: vc.map(OsString::from),
            simple_backup_suffix: suffix.map(OsString::from),
        }
    }

    fn backup(control: Option<&str>, plain: bool, suffix: Option<&str>, e: &Env) -> Backup {
        Backup::from_args(control, plain, suffix.map(OsStr::new), e)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn words_and_abbreviations_as_argmatch() {
        for (word, c) in WORDS {
            assert_eq!(Control::parse(word, "x"), Ok(c));
        }
        assert_eq!(Control::parse("nu", "x"), Ok(Control::Numbered));
        assert_eq!(Control::parse("ne", "x"), Ok(Control::Simple));
        assert_eq!(Control::parse("ex", "x"), Ok(Control::Existing));
        assert!(
            Control::parse("n", "x")
                .unwrap_err()
                .starts_with("ambiguous")
        );
        assert!(
            Control::parse(".orig", "x")
                .unwrap_err()
                .starts_with("invalid")
        );
        assert!(Control::parse("", "x").is_err());
    }

    #[test]
    fn defaults_come_from_the_environment() {
        let none = env(None, None);
        assert_eq!(Backup::from_args(None, false, None, &none), Ok(None));
        let b = backup(Some(""), false, None, &none);
        assert_eq!(
            (b.control, b.suffix.as_os_str()),
            (Control::Existing, OsStr::new("~"))
        );
        assert_eq!(backup(None, true, None, &none), b);
        // -S alone implies a backup.
        let s = backup(None, false, Some(".orig"), &none);
        assert_eq!(
            (s.control, s.suffix.as_os_str()),
            (Control::Existing, OsStr::new(".orig"))
        );
        let e = env(Some("numbered"), Some(".bak"));
        let b = backup(Some(""), false, None, &e);
        assert_eq!(
            (b.control, b.suffix.as_os_str()),
            (Control::Numbered, OsStr::new(".bak"))
        );
        // --backup=CONTROL wins over VERSION_CONTROL, -S over SIMPLE_BACKUP_SUFFIX.
        let b = backup(Some("simple"), false, Some("-old"), &e);
        assert_eq!(
            (b.control, b.suffix.as_os_str()),
            (Control::Simple, OsStr::new("-old"))
        );
        // A suffix variable with a '/' is ignored, as gnulib does.
        let b = backup(Some("simple"), false, None, &env(None, Some("a/b")));
        assert_eq!(b.suffix, OsString::from("~"));
        assert_eq!(
            Backup::from_args(Some("none"), false, None, &none),
            Ok(None)
        );
        assert_eq!(
            Backup::from_args(Some("off"), true, Some(OsStr::new("x")), &none),
            Ok(None)
        );
    }

    #[test]
    fn errors_name_what_to_type() {
        let none = env(None, None);
        let e = Backup::from_args(Some(".orig"), false, None, &none).unwrap_err();
        assert!(e.contains("invalid argument '.orig' for '--backup'") && e.contains("-S .orig"));
        let e = Backup::from_args(Some(""), false, None, &env(Some("sometimes"), None));
        assert!(e.unwrap_err().contains("$VERSION_CONTROL"));
        assert!(Backup::from_args(None, false, Some(OsStr::new("")), &none).is_err());
        assert!(Backup::from_args(None, false, Some(OsStr::new("x/y")), &none).is_err());
    }

    #[test]
    fn numbered_backups_count_up() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("c.txt");
        fs::write(&f, "x").unwrap();
        let none = env(None, None);
        let existing = backup(Some("existing"), false, None, &none);
        let numbered = backup(Some("numbered"), false, None, &none);
        let simple = backup(Some("simple"), false, Some(".orig"), &none);
        let at = |name: &str| dir.path().join(name);
        assert_eq!(existing.path_for(&f).unwrap(), at("c.txt~"));
        assert_eq!(numbered.path_for(&f).unwrap(), at("c.txt.~1~"));
        for name in [
            "c.txt.~2~",
            "c.txt.~10~",
            "c.txt.~x~",
            "c.txt.~~",
            "d.txt.~40~",
        ] {
            fs::write(at(name), "").unwrap();
        }
        assert_eq!(existing.path_for(&f).unwrap(), at("c.txt.~11~"));
        assert_eq!(numbered.path_for(&f).unwrap(), at("c.txt.~11~"));
        assert_eq!(simple.path_for(&f).unwrap(), at("c.txt.orig"));
    }
}
