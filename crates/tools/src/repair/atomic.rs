//! Files replaced atomically: a temporary file in the same directory, fsync, rename.
//!
//! Whatever moment the process is killed at, the destination holds either its old contents
//! or the new ones. SIGINT, SIGTERM and SIGHUP remove the temporary files before the process
//! dies of the signal (a handler thread, installed with the first temporary file); SIGKILL
//! cannot be caught and may leave one, named `.NAME.utf8-repair-XXXXXX`, beside the file.

use std::fs::{self, File, Permissions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};

use tempfile::NamedTempFile;

/// The temporary files that exist now, removed by the signal handler.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temps() -> MutexGuard<'static, Vec<PathBuf>> {
    TEMPS.lock().unwrap_or_else(|p| p.into_inner())
}

/// Installs (once) the thread that removes the temporary files on SIGINT, SIGTERM and
/// SIGHUP, then lets the signal kill the process as it would have.
fn install_handler() -> io::Result<()> {
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();
    let r = INSTALLED.get_or_init(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGXFSZ};
        // SIGXFSZ (a write past `ulimit -f`) is caught and ignored, so that the write fails
        // with EFBIG, which is reported and removes the temporary file, instead of killing
        // the process with the file left behind.
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGXFSZ])
            .map_err(|e| e.to_string())?;
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().find(|&s| s != SIGXFSZ) {
                    // Held until the process is gone: no rename can start after this.
                    let guard = temps();
                    for p in guard.iter() {
                        let _ = fs::remove_file(p);
                    }
                    let _ = signal_hook::low_level::emulate_default_handler(sig);
                    std::process::exit(128 + sig);
                }
            })
            .map(drop)
            .map_err(|e| e.to_string())
    });
    r.clone().map_err(io::Error::other)
}

/// The metadata a replaced file keeps.
#[derive(Clone, Debug)]
pub(super) struct Keep {
    permissions: Permissions,
    #[cfg(unix)]
    owner: (u32, u32),
}

impl Keep {
    /// What to keep of an existing file.
    pub fn of(meta: &fs::Metadata) -> Keep {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        Keep {
            permissions: meta.permissions(),
            #[cfg(unix)]
            owner: (meta.uid(), meta.gid()),
        }
    }
}

/// A file being written beside its destination; [`commit`](AtomicFile::commit) renames it
/// over the destination, dropping it removes it.
#[derive(Debug)]
pub(super) struct AtomicFile {
    writer: Option<BufWriter<NamedTempFile>>,
    path: PathBuf,
    dest: PathBuf,
}

impl AtomicFile {
    /// A temporary file in the directory of `dest` (which must be a resolved path: not a
    /// symlink), with the mode, owner and group of `keep` when given.
    ///
    /// # Errors
    ///
    /// Creating the file, or keeping the owner and group when `strict_owner` (the owner of a
    /// file replaced in place must not change).
    pub fn create(dest: &Path, keep: Option<&Keep>, strict_owner: bool) -> io::Result<AtomicFile> {
        install_handler()?;
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let prefix = format!(".{name}.utf8-repair-");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix);
        #[cfg(unix)]
        {
            // A new file gets what `>` would create (the kernel applies the umask); a
            // replaced one stays private until it has the original's owner and mode.
            use std::os::unix::fs::PermissionsExt;
            let mode = if keep.is_some() { 0o600 } else { 0o666 };
            builder.permissions(Permissions::from_mode(mode));
        }
        // Registered under the lock, so that the signal handler sees every file created.
        let mut guard = temps();
        let tmp = builder.tempfile_in(dir)?;
        let path = tmp.path().to_path_buf();
        guard.push(path.clone());
        drop(guard);
        let file = AtomicFile {
            writer: Some(BufWriter::with_capacity(256 * 1024, tmp)),
            path,
            dest: dest.to_path_buf(),
        };
        file.apply(keep, strict_owner)?;
        Ok(file)
    }

    /// Gives the temporary file the owner, group and mode it should end with.
    fn apply(&self, keep: Option<&Keep>, strict_owner: bool) -> io::Result<()> {
        let (Some(keep), Some(w)) = (keep, self.writer.as_ref()) else {
            return Ok(());
        };
        let f = w.get_ref().as_file();
        #[cfg(unix)]
        {
            let (uid, gid) = keep.owner;
            let m = f.metadata()?;
            use std::os::unix::fs::MetadataExt;
            if (m.uid(), m.gid()) != (uid, gid) {
                let r = std::os::unix::fs::fchown(f, Some(uid), Some(gid))
                    .or_else(|_| std::os::unix::fs::fchown(f, None, Some(gid)));
                let m = f.metadata()?;
                if strict_owner && (r.is_err() || (m.uid(), m.gid()) != (uid, gid)) {
                    return Err(io::Error::new(
                        io::ErrorKind::PermissionDenied,
                        "cannot keep the file's owner and group (left unchanged)",
                    ));
                }
            }
        }
        // After chown, which may clear the set-user-ID and set-group-ID bits.
        f.set_permissions(keep.permissions.clone())
    }

    /// Where to write.
    pub fn writer(&mut self) -> &mut dyn Write {
        match &mut self.writer {
            Some(w) => w,
            None => unreachable!("the writer is taken only by commit, which consumes self"),
        }
    }

    /// Flushes, fsyncs, renames over the destination (after hard-linking the destination to
    /// `backup`, when given, replacing an older file of that name) and fsyncs the directory.
    ///
    /// # Errors
    ///
    /// Any of those steps; the temporary file is then removed and the destination unchanged.
    pub fn commit(mut self, backup: Option<&Path>) -> Result<(), CommitError> {
        let (path, dest) = (self.path.clone(), self.dest.clone());
        let Some(writer) = self.writer.take() else {
            return Ok(());
        };
        let tmp = writer
            .into_inner()
            .map_err(|e| CommitError::Write(e.into_error()))?;
        tmp.as_file().sync_all().map_err(CommitError::Write)?;
        if let Some(backup) = backup {
            let fail = |e| CommitError::Backup(backup.to_path_buf(), e);
            match fs::remove_file(backup) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(fail(e)),
                _ => {}
            }
            if fs::hard_link(&dest, backup).is_err() {
                fs::copy(&dest, backup).map_err(fail)?;
            }
        }
        let mut guard = temps();
        let r = tmp.persist(&dest);
        guard.retain(|p| p != &path);
        drop(guard);
        r.map_err(|e| CommitError::Write(e.error))?;
        if let Some(dir) = dest.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            // Durability of the rename; not every file system allows it.
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }
}

/// Why [`AtomicFile::commit`] failed.
#[derive(Debug)]
pub(super) enum CommitError {
    /// Writing, syncing or renaming the new contents.
    Write(io::Error),
    /// Making the backup at this path.
    Backup(PathBuf, io::Error),
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // The NamedTempFile removes itself (unless committed); forget its name here.
        temps().retain(|p| p != &self.path);
    }
}
