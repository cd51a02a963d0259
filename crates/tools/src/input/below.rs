//! Files opened relative to their directory held open, so that the kernel looks up only
//! the last name of each path: below a directory a walk lists ([`Root`]), and for the
//! paths of a list, the directory of the previous path when the next is in it too
//! ([`stat_near`], [`Input::open_known`](super::Input::open_known)).

use std::cell::RefCell;
use std::ffi::OsStr;
use std::fs::File;
use std::io;
use std::path::Path;

/// A directory a walk lists, held open: each file found below it is opened by its path
/// relative to the directory, so that the kernel looks up the names below it and not the
/// directory's own path again for every file (GNU grep's fts opens each file relative to
/// its directory). Elsewhere than Unix, files are opened by their whole path.
#[derive(Debug)]
pub struct Root {
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
    /// The directory's path and a separator: how the paths below it begin.
    #[cfg(unix)]
    prefix: Vec<u8>,
}

impl Root {
    /// Opens directory `dir`, or `None` (its files are then opened by their paths).
    #[cfg(unix)]
    pub fn open(dir: &Path) -> Option<Root> {
        use rustix::fs::{CWD, Mode, OFlags, openat};
        use std::os::unix::ffi::OsStrExt;
        let mut prefix = dir.as_os_str().as_bytes().to_vec();
        if prefix.is_empty() {
            return None;
        }
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = openat(CWD, dir, flags, Mode::empty()).ok()?;
        if prefix.last() != Some(&b'/') {
            prefix.push(b'/');
        }
        Some(Root { fd, prefix })
    }

    /// Opens directory `dir`, or `None` (its files are then opened by their paths).
    #[cfg(not(unix))]
    pub fn open(_dir: &Path) -> Option<Root> {
        None
    }

    /// Opens `path` for reading relative to this directory, or `None` when the path does not
    /// begin with the directory's path.
    #[cfg(unix)]
    pub(super) fn open_below(&self, path: &Path) -> Option<io::Result<File>> {
        use rustix::fs::{Mode, OFlags, openat};
        use std::os::unix::ffi::OsStrExt;
        let rel = path.as_os_str().as_bytes().strip_prefix(&self.prefix[..])?;
        if rel.is_empty() {
            return None;
        }
        let flags = OFlags::RDONLY | OFlags::CLOEXEC;
        Some(
            openat(&self.fd, OsStr::from_bytes(rel), flags, Mode::empty())
                .map(File::from)
                .map_err(io::Error::from),
        )
    }

    #[cfg(not(unix))]
    pub(super) fn open_below(&self, _path: &Path) -> Option<io::Result<File>> {
        None
    }
}

/// What a `stat` of a path found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A regular file of this many bytes.
    Regular(u64),
    /// Anything else: a directory, a device, a pipe, a socket.
    Other,
}

std::thread_local! {
    /// The directory of the last path looked up on this thread ([`near`]): its path and a
    /// separator, and the directory held open once a second path in it came.
    static NEAR: RefCell<(Vec<u8>, Option<Root>)> = const { RefCell::new((Vec::new(), None)) };
}

/// Runs `op` on `path` relative to its directory when the previous path looked up on this
/// thread was in the same directory (the directory is opened at the second such path and
/// kept while paths stay in it), or `None`: a path in another directory than the previous
/// one, a path without a directory, or a directory that does not open. A list that visits
/// directories one after another (as `find` writes it) costs one open per directory; one
/// that changes directory at every path costs nothing but comparing names.
#[cfg(unix)]
fn near<T>(
    path: &Path,
    op: impl FnOnce(&std::os::fd::OwnedFd, &OsStr) -> io::Result<T>,
) -> Option<io::Result<T>> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    let cut = bytes.iter().rposition(|&b| b == b'/')? + 1;
    let (dir, name) = bytes.split_at(cut);
    if name.is_empty() || name == b"." || name == b".." {
        return None;
    }
    NEAR.with_borrow_mut(|(last, root)| {
        if root.as_ref().is_none_or(|r| r.prefix != dir) {
            if last.as_slice() != dir {
                last.clear();
                last.extend_from_slice(dir);
                *root = None;
                return None;
            }
            *root = Root::open(Path::new(OsStr::from_bytes(dir)));
        }
        let r = root.as_ref()?;
        Some(op(&r.fd, OsStr::from_bytes(name)))
    })
}

/// `stat` of `path`, following symbolic links as opening it does: relative to its
/// directory when the previous path on this thread was in it too.
///
/// # Errors
///
/// As `stat(2)` of the path.
pub(crate) fn stat_near(path: &Path) -> io::Result<Kind> {
    #[cfg(unix)]
    if let Some(r) = near(path, |fd, name| {
        let st = rustix::fs::statat(fd, name, rustix::fs::AtFlags::empty())?;
        let regular =
            rustix::fs::FileType::from_raw_mode(st.st_mode) == rustix::fs::FileType::RegularFile;
        Ok(if regular {
            Kind::Regular(u64::try_from(st.st_size).unwrap_or(0))
        } else {
            Kind::Other
        })
    }) {
        return r;
    }
    let m = std::fs::metadata(path)?;
    Ok(if m.is_file() {
        Kind::Regular(m.len())
    } else {
        Kind::Other
    })
}

/// Opens `path` for reading: relative to its directory when the previous path on this
/// thread was in it too.
///
/// # Errors
///
/// As `open(2)` of the path.
pub(super) fn open_near(path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    if let Some(r) = near(path, |fd, name| {
        let flags = rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::CLOEXEC;
        Ok(File::from(rustix::fs::openat(
            fd,
            name,
            flags,
            rustix::fs::Mode::empty(),
        )?))
    }) {
        return r;
    }
    File::open(path)
}
