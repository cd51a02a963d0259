//! The part of a `-r` walk below a directory whose path is too long to open in one call
//! (walkdir opens each directory by its whole path: past `PATH_MAX` it fails with "File name
//! too long"). Below such a directory the walk goes on from directory descriptors (`openat`),
//! as GNU grep's fts does: the same order (by name, depth first), filters, symbolic-link
//! rules and loop reports as [`walk`](super::walk). Files are yielded by path; they are opened
//! through [`crate::longpath`].

use std::collections::HashSet;
use std::ffi::OsString;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags, fstat, openat, statat};

use super::filters::{Filters, Found};

/// What an entry of a directory is, for the walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Dir,
    File,
    /// A symbolic link not followed, or something gone: skipped.
    Skip,
}

/// One directory being walked: its remaining entries, by name.
struct Frame {
    /// Open while a subdirectory is left to enter (closed before, to keep few descriptors
    /// open in a deep chain; reopened through [`crate::longpath`] if needed again).
    fd: Option<OwnedFd>,
    /// Device and inode, for the loop check of `-R`.
    id: (u64, u64),
    entries: std::vec::IntoIter<(OsString, Kind)>,
}

/// The walk below one directory, an iterator of [`Found`] in walk order.
pub struct DeepWalk {
    filters: Filters,
    follow: bool,
    /// The directories entered, the first one's first.
    stack: Vec<Frame>,
    /// The path of the last of them (one path for all: a path per frame would take memory
    /// in the square of the depth).
    path: PathBuf,
    /// An error met opening the first directory, yielded first.
    first: Option<Found>,
    /// Under `-R`, the device and inode of every directory above the first one.
    ancestors: HashSet<(u64, u64)>,
    /// Frames holding a descriptor, and the lowest frame that may hold one.
    open: usize,
    low: usize,
}

/// The most descriptors the walk holds: a frame's is closed (and its directory reopened
/// by path when needed again) when deeper frames need more, so that a tree deeper than the
/// descriptor limit (1024 by default, often less in containers) is walked too.
const HELD: usize = 128;

impl DeepWalk {
    /// The walk below `dir`, an entry met by walkdir whose path is too long for one `open`
    /// (a directory, or under `-R` a link to a file, then searched itself), with `-r`'s
    /// filters, following symbolic links under `-R` (`follow`): a link that leads back to a
    /// directory of this walk or above it is reported as a loop.
    pub fn new(dir: PathBuf, follow: bool, filters: &Filters) -> DeepWalk {
        let mut walk = DeepWalk {
            filters: filters.clone(),
            follow,
            stack: Vec::new(),
            path: dir.clone(),
            first: None,
            ancestors: HashSet::new(),
            open: 0,
            low: 0,
        };
        let name = dir.file_name().unwrap_or(dir.as_os_str()).to_os_string();
        let opened = crate::longpath::open(&dir, false).and_then(|fd| {
            let is_dir = FileType::from_raw_mode(fstat(&fd)?.st_mode) == FileType::Directory;
            Ok((fd, is_dir))
        });
        match opened {
            // A link met under -R is filtered here (walkdir could not look at it).
            Ok((_, true)) if !walk.filters.dir_ok(&name) => {}
            Ok((fd, true)) => match walk.frame(fd) {
                Ok(frame) => {
                    if follow {
                        walk.ancestors = ancestors(&dir);
                        if walk.ancestors.contains(&frame.id) {
                            walk.first = Some(Found::Loop(dir));
                            return walk;
                        }
                    }
                    walk.push(frame);
                }
                Err(e) => walk.first = Some(Found::Error(dir, e)),
            },
            Ok((_, false)) => {
                if walk.filters.file_ok(&name) {
                    walk.first = Some(Found::File(dir));
                }
            }
            Err(e) => walk.first = Some(Found::Error(dir, e)),
        }
        walk
    }

    /// The frame of the directory open as `fd`: its entries read and sorted by name.
    fn frame(&self, fd: OwnedFd) -> io::Result<Frame> {
        let st = fstat(&fd)?;
        let mut entries = Vec::new();
        for e in Dir::read_from(&fd)? {
            let e = e?;
            let name = e.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let mut ty = e.file_type();
            if ty == FileType::Unknown || (self.follow && ty == FileType::Symlink) {
                let flags = if self.follow {
                    AtFlags::empty()
                } else {
                    AtFlags::SYMLINK_NOFOLLOW
                };
                ty = match statat(&fd, e.file_name(), flags) {
                    Ok(s) => FileType::from_raw_mode(s.st_mode),
                    // A link to nothing under -R: an error, met when it is opened.
                    Err(_) => FileType::RegularFile,
                };
            }
            // Devices, FIFOs and sockets are skipped, as in the walk above `PATH_MAX`.
            let kind = match ty {
                FileType::Directory => Kind::Dir,
                FileType::RegularFile => Kind::File,
                _ => Kind::Skip,
            };
            entries.push((std::ffi::OsStr::from_bytes(name).to_os_string(), kind));
        }
        entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        Ok(Frame {
            fd: Some(fd),
            id: (st.st_dev, st.st_ino),
            entries: entries.into_iter(),
        })
    }

    /// Enters subdirectory `name` (at `path`) of the top frame; `Some` is what to report
    /// instead.
    fn enter(&mut self, name: &OsString, path: PathBuf) -> Option<Found> {
        let top = self.stack.last()?;
        let more = top.entries.as_slice().iter().any(|(_, k)| *k == Kind::Dir);
        let parent = match self.take_fd() {
            Some(fd) => fd,
            None => match crate::longpath::open(&self.path, true) {
                Ok(fd) => fd,
                Err(e) => return Some(Found::Error(path, e)),
            },
        };
        let mut flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        if !self.follow {
            flags |= OFlags::NOFOLLOW;
        }
        let opened = openat(&parent, name.as_os_str(), flags, Mode::empty());
        if more && let Some(top) = self.stack.last_mut() {
            top.fd = Some(parent);
            self.open += 1;
        }
        let fd = match opened {
            Ok(fd) => fd,
            Err(e) => return Some(Found::Error(path, e.into())),
        };
        let frame = match self.frame(fd) {
            Ok(f) => f,
            Err(e) => return Some(Found::Error(path, e)),
        };
        if self.follow
            && (self.stack.iter().any(|f| f.id == frame.id) || self.ancestors.contains(&frame.id))
        {
            return Some(Found::Loop(path));
        }
        self.push(frame);
        self.path = path;
        None
    }

    /// Pushes `frame` (holding its descriptor), closing the lowest frames' descriptors past
    /// [`HELD`].
    fn push(&mut self, frame: Frame) {
        self.stack.push(frame);
        self.open += 1;
        while self.open > HELD {
            if let Some(fd) = self.stack.get_mut(self.low).and_then(|f| f.fd.take()) {
                drop(fd);
                self.open -= 1;
            }
            self.low += 1;
        }
    }

    /// Takes the descriptor of the top frame (closed by the caller).
    fn take_fd(&mut self) -> Option<OwnedFd> {
        let fd = self.stack.last_mut()?.fd.take()?;
        self.open -= 1;
        Some(fd)
    }
}

/// The device and inode of every directory on the way to `dir` (not `dir` itself), each
/// opened from the one before: the ancestors of a walk that follows links.
fn ancestors(dir: &std::path::Path) -> HashSet<(u64, u64)> {
    use std::path::Component;
    let mut ids = HashSet::new();
    let mut at: Option<OwnedFd> = None;
    let parts: Vec<Component<'_>> = dir.components().collect();
    for (k, part) in parts.iter().enumerate() {
        let name: &std::ffi::OsStr = match part {
            Component::RootDir => "/".as_ref(),
            Component::CurDir => ".".as_ref(),
            Component::ParentDir => "..".as_ref(),
            Component::Normal(n) => n,
            Component::Prefix(_) => continue,
        };
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let opened = match &at {
            None => openat(rustix::fs::CWD, name, flags, Mode::empty()),
            Some(d) => openat(d, name, flags, Mode::empty()),
        };
        let Ok(fd) = opened else { break };
        if k + 1 < parts.len()
            && let Ok(st) = fstat(&fd)
        {
            ids.insert((st.st_dev, st.st_ino));
        }
        at = Some(fd);
    }
    // The directory the path starts from, when it is relative.
    if dir.is_relative()
        && let Ok(st) = rustix::fs::stat(".")
    {
        ids.insert((st.st_dev, st.st_ino));
    }
    ids
}

impl Iterator for DeepWalk {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        if let Some(f) = self.first.take() {
            return Some(f);
        }
        loop {
            let top = self.stack.last_mut()?;
            let Some((name, kind)) = top.entries.next() else {
                if self.stack.pop().is_some_and(|f| f.fd.is_some()) {
                    self.open -= 1;
                }
                self.low = self.low.min(self.stack.len());
                self.path.pop();
                continue;
            };
            let path = self.path.join(&name);
            match kind {
                Kind::Dir if self.filters.dir_ok(&name) => {
                    if let Some(found) = self.enter(&name, path) {
                        return Some(found);
                    }
                }
                Kind::File if self.filters.file_ok(&name) => return Some(Found::File(path)),
                _ => {}
            }
        }
    }
}
