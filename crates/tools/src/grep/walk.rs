//! `-r`: the files under a directory, walked by `walkdir` in name order, depth first,
//! without following symbolic links met inside it (a directory named on the command line
//! is entered even when it is a link, as GNU grep does); `-R` follows them all, and says
//! "recursive directory loop" (a warning, as GNU grep) for one that leads back up; the
//! filters of [`super::filters`] decide which names are searched, among regular files (a
//! device, FIFO or socket in the tree is skipped). Below `PATH_MAX` the walk goes on in
//! [`super::deep`].

use std::path::PathBuf;

use walkdir::WalkDir;

#[cfg(unix)]
use super::deep::DeepWalk;
use super::filters::{Filters, Found};

/// The files under `dir` (sorted by name, depth first), with the errors met where they
/// were met; `implicit` when `dir` is the `.` of `-r` without FILE (names are then given
/// without `./`, as grep). With `follow` (`-R`), symbolic links are followed, and one that
/// leads back to a directory being walked is reported instead ([`Found::Loop`]).
pub fn walk(
    dir: PathBuf,
    implicit: bool,
    follow: bool,
    filters: &Filters,
) -> impl Iterator<Item = Found> {
    let walker = WalkDir::new(&dir);
    let shown = move |p: PathBuf| -> PathBuf {
        if implicit
            && let Ok(rel) = p.strip_prefix(&dir)
            && !rel.as_os_str().is_empty()
        {
            return rel.to_path_buf();
        }
        p
    };
    walker
        .min_depth(1)
        .follow_links(follow)
        .follow_root_links(true)
        // By name: siblings' paths share their parent's path exactly (walkdir joins each
        // name to it), so comparing whole paths as bytes orders them by name, without
        // parsing each path back into components as `sort_by_file_name` does.
        .sort_by(|a, b| a.path().as_os_str().cmp(b.path().as_os_str()))
        .into_iter()
        .filter_entry(|e| {
            !e.file_type().is_dir() || !filters.names_dirs() || filters.dir_ok(e.file_name())
        })
        .flat_map(move |r| match r {
            Ok(e) => {
                // Regular files only: devices, FIFOs and sockets met by the walk are skipped
                // unopened, as GNU grep does by default (grep.c: `skip_devices`, for a name
                // not on the command line) and ripgrep does (a FIFO would block the walk).
                let file = e.file_type().is_file()
                    && (!filters.names_files() || filters.file_ok(e.file_name()));
                Walked::One(file.then(|| Found::File(shown(e.into_path()))))
            }
            // An entry a directory listing could not name is skipped.
            Err(err) if err.loop_ancestor().is_some() => {
                Walked::One(err.path().map(|p| Found::Loop(shown(p.to_path_buf()))))
            }
            Err(err) => {
                let Some(path) = err.path().map(|p| shown(p.to_path_buf())) else {
                    return Walked::One(None);
                };
                match err.into_io_error() {
                    // Past PATH_MAX: the rest of this directory from descriptors.
                    #[cfg(unix)]
                    Some(io) if crate::longpath::too_long(&io) => {
                        Walked::Deep(Box::new(DeepWalk::new(path, follow, filters)))
                    }
                    Some(io) => Walked::One(Some(Found::Error(path, io))),
                    None => Walked::One(None),
                }
            }
        })
}

/// What one step of walkdir gives: at most one entry, or the walk below a directory too deep
/// for it.
enum Walked {
    One(Option<Found>),
    #[cfg(unix)]
    Deep(Box<DeepWalk>),
}

impl Iterator for Walked {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        match self {
            Walked::One(f) => f.take(),
            #[cfg(unix)]
            Walked::Deep(d) => d.next(),
        }
    }
}
