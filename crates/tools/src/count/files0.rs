//! The inputs of `utf8-count`: FILE operands, or the NUL-separated names of `--files0-from`
//! as GNU `wc` reads them — a small regular file whole (so that column widths can follow the
//! files' sizes), anything else name by name as it arrives (a pipe that never ends, a list of
//! millions of names). A zero-length name is an error for that entry only.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::PathBuf;

use super::quote::quotef;
use crate::diag::ToolError;
use crate::input::{Input, inputs, os_string};

/// A list file at most this large is read whole, as GNU `wc` (which also bounds it by half
/// the available memory).
const READ_WHOLE_MAX: u64 = 10 << 20;

/// One entry: an input, or what is wrong with it (reported, then the next entry is read).
#[derive(Debug)]
pub(super) enum Item {
    /// A name to count.
    Input(Input),
    /// An entry that names nothing countable.
    Invalid(ToolError),
}

/// The inputs of one run.
#[derive(Debug)]
pub(super) enum Inputs {
    /// Known before counting: FILE operands, or a list read whole.
    Known(std::vec::IntoIter<Item>),
    /// A list read entry by entry.
    Stream(List),
}

impl Default for Inputs {
    fn default() -> Inputs {
        Inputs::Known(Vec::new().into_iter())
    }
}

impl Inputs {
    /// The inputs of FILE operands and `--files0-from`.
    ///
    /// # Errors
    ///
    /// [`ToolError::Usage`] for FILE operands with `--files0-from`; [`ToolError::Input`]
    /// when the list cannot be opened or read.
    pub fn new(files: &[OsString], files0_from: Option<&OsStr>) -> Result<Inputs, ToolError> {
        let Some(list) = files0_from.filter(|_| files.is_empty()) else {
            // Operands alone, or with --files0-from the usage error.
            let known = inputs(files, files0_from)?;
            return Ok(Inputs::Known(
                known
                    .into_iter()
                    .map(Item::Input)
                    .collect::<Vec<_>>()
                    .into_iter(),
            ));
        };
        let mut list = List::open(list)?;
        if !list.read_whole {
            return Ok(Inputs::Stream(list));
        }
        let mut items = Vec::new();
        while let Some(item) = list.next_item() {
            items.push(item?);
        }
        Ok(Inputs::Known(items.into_iter()))
    }

    /// The inputs known in advance (none for a stream).
    pub fn known(&self) -> &[Item] {
        match self {
            Inputs::Known(items) => items.as_slice(),
            Inputs::Stream(_) => &[],
        }
    }

    /// Whether the inputs are read from a stream (not known in advance).
    pub fn is_stream(&self) -> bool {
        matches!(self, Inputs::Stream(_))
    }

    /// The next entry; `Err` when the list cannot be read (which ends the run).
    pub fn next_item(&mut self) -> Option<Result<Item, ToolError>> {
        match self {
            Inputs::Known(items) => items.next().map(Ok),
            Inputs::Stream(list) => list.next_item(),
        }
    }
}

/// A `--files0-from` list being read.
pub(super) struct List {
    reader: BufReader<Box<dyn Read>>,
    /// The list as diagnostics name it.
    name: String,
    from_stdin: bool,
    /// Whether it is a regular file small enough to read whole.
    read_whole: bool,
    /// Entries read so far.
    count: usize,
    buf: Vec<u8>,
}

impl std::fmt::Debug for List {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("List")
            .field("name", &self.name)
            .field("count", &self.count)
            .finish_non_exhaustive()
    }
}

impl List {
    fn open(list: &OsStr) -> Result<List, ToolError> {
        let name = list.to_string_lossy().into_owned();
        let quoted = quotef(list.as_encoded_bytes());
        let from_stdin = list == "-";
        let (reader, meta): (Box<dyn Read>, _) = if from_stdin {
            (Box::new(io::stdin()), stdin_metadata())
        } else {
            let file = File::open(list)
                .map_err(|e| ToolError::input(format!("cannot open '{name}' for reading"), &e))?;
            let meta = file.metadata().ok();
            (Box::new(file), meta)
        };
        let read_whole = meta.is_some_and(|m| m.is_file() && m.len() <= READ_WHOLE_MAX);
        Ok(List {
            reader: BufReader::new(reader),
            name: quoted,
            from_stdin,
            read_whole,
            count: 0,
            buf: Vec::new(),
        })
    }

    /// The next entry, up to a NUL or the end (a final NUL ends the last entry, it does not
    /// start an empty one).
    fn next_item(&mut self) -> Option<Result<Item, ToolError>> {
        self.buf.clear();
        match self.reader.read_until(0, &mut self.buf) {
            Ok(0) => return None,
            Ok(_) => {}
            Err(e) => {
                return Some(Err(ToolError::input(
                    format!("{}: read error", self.name),
                    &e,
                )));
            }
        }
        self.count += 1;
        let name = self.buf.strip_suffix(&[0]).unwrap_or(&self.buf);
        let item = if name.is_empty() {
            Item::Invalid(ToolError::Input {
                path: format!("{}:{}", self.name, self.count),
                message: "invalid zero-length file name".to_string(),
            })
        } else if self.from_stdin && name == b"-" {
            Item::Invalid(ToolError::Usage(
                "when reading file names from standard input, no file name of '-' allowed"
                    .to_string(),
            ))
        } else if name == b"-" {
            Item::Input(Input::Stdin { named: true })
        } else {
            Item::Input(Input::Path(PathBuf::from(os_string(name.to_vec()))))
        };
        Some(Ok(item))
    }
}

#[cfg(unix)]
fn stdin_metadata() -> Option<std::fs::Metadata> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    File::from(fd).metadata().ok()
}

#[cfg(not(unix))]
fn stdin_metadata() -> Option<std::fs::Metadata> {
    None
}
