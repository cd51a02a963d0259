//! Paths longer than the kernel takes in one call (`PATH_MAX`, 4096 bytes on Linux): opened a
//! piece at a time, each piece relative to the directory the one before opened (`openat`),
//! as GNU grep's fts walks trees of any depth. A 10,000-level tree has paths of 20,000 bytes.

use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::path::Path;

use rustix::fs::{CWD, Mode, OFlags, openat};

/// The longest piece of a path given to one `openat`: under `PATH_MAX` with room to spare.
const PIECE: usize = 4000;

/// Whether `e` is the kernel's "File name too long" (`ENAMETOOLONG`).
///
/// ```
/// let long = "d/".repeat(3000);
/// let e = std::fs::File::open(&long).unwrap_err();
/// assert!(utf8_tools::longpath::too_long(&e));
/// ```
pub fn too_long(e: &io::Error) -> bool {
    e.raw_os_error() == Some(rustix::io::Errno::NAMETOOLONG.raw_os_error())
}

/// Opens `path` for reading, however long, a piece of at most 4,000 bytes (cut after a `/`)
/// at a time; `directory` asks for a directory (`O_DIRECTORY`), else any file. Each
/// piece follows symbolic links as `open` does.
///
/// # Errors
///
/// The error of the `openat` that failed.
pub fn open(path: &Path, directory: bool) -> io::Result<OwnedFd> {
    use std::os::unix::ffi::OsStrExt;
    let mut rest = path.as_os_str().as_bytes();
    let mut at: Option<OwnedFd> = None;
    loop {
        let cut = if rest.len() <= PIECE {
            rest.len()
        } else {
            // After the last `/` within the piece (the leading `/` of an absolute path too)
            // and every `/` right after it: a piece that began with `/` would start again
            // from the root.
            match rest[..PIECE].iter().rposition(|&b| b == b'/') {
                Some(i) => i + 1 + rest[i + 1..].iter().take_while(|&&b| b == b'/').count(),
                None => return Err(rustix::io::Errno::NAMETOOLONG.into()),
            }
        };
        let (piece, tail) = rest.split_at(cut);
        let last = tail.is_empty();
        let mut flags = OFlags::RDONLY | OFlags::CLOEXEC;
        if directory || !last {
            flags |= OFlags::DIRECTORY;
        }
        let piece = std::ffi::OsStr::from_bytes(piece);
        let fd = match &at {
            None => openat(CWD, piece, flags, Mode::empty())?,
            Some(dir) => openat(dir, piece, flags, Mode::empty())?,
        };
        if last {
            return Ok(fd);
        }
        at = Some(fd);
        rest = tail;
    }
}

/// [`open`] of a file to read.
///
/// ```
/// use std::io::Read;
/// let mut text = String::new();
/// utf8_tools::longpath::open_file("Cargo.toml".as_ref())?.read_to_string(&mut text)?;
/// assert!(text.contains("utf8-tools"));
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
///
/// As [`open`].
pub fn open_file(path: &Path) -> io::Result<File> {
    open(path, false).map(File::from)
}

/// `std::fs::metadata` (following links), however long the path.
///
/// ```
/// assert!(utf8_tools::longpath::metadata("Cargo.toml".as_ref()).unwrap().is_file());
/// ```
///
/// # Errors
///
/// As `std::fs::metadata`, or as [`open`] past `PATH_MAX`.
pub fn metadata(path: &Path) -> io::Result<std::fs::Metadata> {
    match std::fs::metadata(path) {
        Err(e) if too_long(&e) => File::from(open(path, false)?).metadata(),
        r => r,
    }
}

/// Whether `path` names a directory (following links), however long it is.
///
/// ```
/// assert!(utf8_tools::longpath::is_dir("src".as_ref()));
/// ```
pub fn is_dir(path: &Path) -> bool {
    metadata(path).is_ok_and(|m| m.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn opens_paths_past_path_max() {
        let dir = tempfile::tempdir().unwrap();
        // 300 levels of 20-byte names: 6,300 bytes, past PATH_MAX.
        let name = "n".repeat(20);
        let mut p = dir.path().to_path_buf();
        let mut fd = open(&p, true).unwrap();
        for _ in 0..300 {
            rustix::fs::mkdirat(&fd, name.as_str(), Mode::RWXU).unwrap();
            fd = openat(
                &fd,
                name.as_str(),
                OFlags::RDONLY | OFlags::DIRECTORY,
                Mode::empty(),
            )
            .unwrap();
            p.push(&name);
        }
        let f = openat(
            &fd,
            "f",
            OFlags::WRONLY | OFlags::CREATE,
            Mode::RUSR | Mode::WUSR,
        )
        .unwrap();
        rustix::io::write(&f, b"deep\n").unwrap();
        p.push("f");
        assert!(p.as_os_str().len() > 6000);
        let e = File::open(&p).unwrap_err();
        assert!(too_long(&e), "{e}");
        let mut text = String::new();
        io::Read::read_to_string(&mut open_file(&p).unwrap(), &mut text).unwrap();
        assert_eq!(text, "deep\n");
        // Slashes doubled where the path is cut: still relative to the piece before.
        let doubled = PathBuf::from(p.to_str().unwrap().replace('/', "//"));
        assert!(doubled.as_os_str().len() > PIECE);
        let mut text = String::new();
        io::Read::read_to_string(&mut open_file(&doubled).unwrap(), &mut text).unwrap();
        assert_eq!(text, "deep\n");
        assert!(metadata(&p).unwrap().is_file());
        assert!(is_dir(p.parent().unwrap()));
        // A directory asked for a file, and a file asked for a directory.
        assert!(open(p.parent().unwrap(), true).is_ok());
        assert!(open(&p, true).is_err());
    }
}
