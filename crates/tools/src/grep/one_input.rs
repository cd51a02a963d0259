//! One input searched: opened (not if it is the output), its encoding sniffed, read as bytes,
//! mapped or decoded, split across threads when it may be, and searched through the sink of
//! the output mode; the inputs of a run (operands and `-r`'s walk) and the trouble met
//! finding them. Below `run` and `parallel`, which both search inputs through it.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::Arc;

use super::buffer::Feed;
use super::config::Config;
use super::job::{Entry, FileId, Job, PROGRAM, Totals, Trouble};
use super::json::{JsonSink, summary};
use super::printer::{Printer, TextSink};
use super::search::FileSearch;
use super::sink::{Dest, FileResult, Sink};
use super::split::Shown;
use super::walk::walk;
use crate::detect::Guess;
use crate::diag::{Diag, ToolError};
use crate::exit::Status;
use crate::input::{Input, Root, Source};
use crate::mmap::MAP_MIN;
use crate::output::Output;
use crate::transcode::{LineStarts, OffsetMap, Reading, Transcoder, sniff};

impl Config {
    /// The end of a run: `--json`'s summary.
    pub(super) fn finish(&self, out: &mut Output, totals: &Totals) -> Result<(), ToolError> {
        if self.settings.json {
            summary(out, totals.files, totals.files_matched, &totals.sum)?;
        }
        out.flush()
    }

    /// Searches one input, writing to `out` and `diag`: its result, or `None` when it
    /// could not be searched (reported). With `whole`, a large file may be split across
    /// the threads (`-c`, `-l`, `-L`, `-q`); workers of `-r` search theirs whole.
    pub(super) fn search_input(
        &self,
        Job {
            input,
            root,
            show,
            whole,
        }: Job<'_>,
        output: Option<FileId>,
        out: &mut Output,
        diag: &mut Diag,
        printer: &mut Printer,
    ) -> Result<Option<FileResult>, ToolError> {
        let (name, raw_name) = self.names(input);
        // Standard input without `--label` is `-` in diagnostics.
        let diag_name = match (input, &self.label) {
            (Input::Stdin { .. }, None) => "-",
            _ => &*name,
        };
        printer.style.with_filename = self.with_filename.unwrap_or(show);
        let Some(mut source) = self.open_input(
            (input, root),
            output,
            (&name, &raw_name),
            out,
            diag,
            printer,
        )?
        else {
            return Ok(None);
        };
        // GNU grep 3.8 (grep.c, grep): -T pads line numbers and byte offsets to the digits
        // of the file's size (plus one with -n), of INTMAX_MAX for what has no size.
        if printer.style.initial_tab {
            let size = source
                .regular_file()
                .map_or(i64::MAX as u64, |(_, len)| len);
            let num =
                size.saturating_add(u64::from(self.style.line_number && size < i64::MAX as u64));
            printer.style.offset_width = num.checked_ilog10().unwrap_or(0) as usize + 1;
        }
        // GNU grep: with -m, a seekable standard input is left just after the last
        // selected line, for the next reader (`{ grep -m1 x; cat; } < file`).
        let stdin_start = match input {
            Input::Stdin { .. } if self.settings.max_count.is_some() => stdin_position(None),
            _ => None,
        };
        // A large regular file is mapped: its first bytes are read where they are.
        let sniffed = match source.regular_file() {
            Some((file, len)) if len >= MAP_MIN => sniff(self.from, &mut io::empty(), Some(file)),
            _ => sniff(self.from, &mut source, None),
        };
        let sniffed = sniffed.map_err(|e| ToolError::input(diag_name, &e));
        let Some((reading, kept, all_read)) = self.reported(sniffed, out, diag)? else {
            return Ok(None);
        };
        let sniffed = Sniffed {
            source: &mut source,
            reading,
            kept,
            all_read,
            whole,
            stdin_start,
        };
        self.search_sniffed(sniffed, (&name, &raw_name, diag_name), out, diag, printer)
    }

    /// [`search_input`](Config::search_input) past the input's first bytes (`s`, read to
    /// tell its encoding): the search of the rest, mapped or read, decoded or not, split
    /// across threads where it is worth it.
    fn search_sniffed(
        &self,
        s: Sniffed<'_>,
        (name, raw_name, diag_name): (&str, &[u8], &str),
        out: &mut Output,
        diag: &mut Diag,
        printer: &mut Printer,
    ) -> Result<Option<FileResult>, ToolError> {
        let Sniffed {
            source,
            reading,
            kept,
            all_read,
            whole,
            stdin_start,
        } = s;
        let bad = RefCell::new(VecDeque::new());
        let offsets = self.settings.json || self.style.byte_offset;
        // Only where offsets are shown: a map is an allocation per input.
        let map = offsets.then(|| RefCell::new(OffsetMap::default()));
        // The bytes read are the whole input: no read more (it would give 0).
        let rest = if all_read { 0 } else { u64::MAX };
        let mut transcoder;
        let mut first = None;
        let mut start = 0;
        // Large regular files are mapped in windows (no copy through read(2)), and split
        // across threads when the answer is one for the whole file; the rest is read.
        let mut split = Ok(None);
        let feed = match (reading, source.regular_file()) {
            (Reading::Decoded(g), regular) => {
                let skip = Reading::bom_len(g);
                let map = map.as_ref();
                transcoder = match regular {
                    Some((file, len)) if len >= MAP_MIN => {
                        crate::mmap::on_shrink_say(PROGRAM, diag_name);
                        if whole && let Some(lines) = LineStarts::of(g.encoding) {
                            let decoded = Some((g.encoding, lines));
                            split = self.split(file, (skip, len), decoded, diag_name, None);
                        }
                        Transcoder::mapped(file, g.encoding, skip, map)
                    }
                    _ => Transcoder::new(
                        kept.chain((&mut *source).take(rest)),
                        g.encoding,
                        skip,
                        map,
                    ),
                };
                if self.settings.report.is_some() {
                    transcoder = transcoder.reporting(&bad);
                }
                Feed::Read(&mut transcoder)
            }
            (Reading::Bytes { skip, .. }, Some((file, len))) if len >= MAP_MIN => {
                start = skip;
                crate::mmap::on_shrink_say(PROGRAM, diag_name);
                if whole {
                    let shown = Shown {
                        out: &mut *out,
                        diag: &mut *diag,
                        printer: &mut *printer,
                        names: (name, raw_name),
                    };
                    split = self.split(file, (skip, len), None, diag_name, Some(shown));
                }
                Feed::Map(file)
            }
            (Reading::Bytes { skip, .. }, _) => {
                // The bytes sniffed are the search's first (past a byte order mark), where
                // they were read.
                start = skip;
                let (heap, held) = kept.into_heap();
                let skip = usize::try_from(skip).map_or(held.len(), |s| s.min(held.len()));
                first = Some((
                    heap,
                    held.start + skip..held.end,
                    all_read || source.ended(),
                ));
                Feed::Read(&mut *source)
            }
        };
        let Some(split) = self.reported(split, out, diag)? else {
            return Ok(None);
        };
        let mut sink = self.sink(
            Dest {
                out,
                diag,
                name: diag_name,
            },
            (printer, name, raw_name),
            reading.guess(),
        );
        let sink = sink.as_dyn();
        if let Some(r) = split {
            sink.finish(&r)?;
            return Ok(Some(r));
        }
        let search =
            FileSearch::new(&self.settings, &self.matcher, sink, diag_name).starting_at(start);
        let search = match (reading, first) {
            (Reading::Decoded(g), _) => search.decoded(g.encoding, map.as_ref(), &bad),
            (_, Some((heap, data, ended))) => search.first_read(heap, data, ended),
            _ => search,
        };
        let Some(r) = self.reported(search.run(feed), out, diag)? else {
            return Ok(None);
        };
        if let (Some(start), Some(at)) = (stdin_start, r.resume_at) {
            stdin_position(Some(start + at));
        }
        Ok(Some(r))
    }

    /// The sink of the output mode for one input: `--json`'s (`dest.name` is the name of
    /// diagnostics) or the text one (printed with `name`, or `raw_name` in results).
    pub(super) fn sink<'a>(
        &self,
        dest: Dest<'a>,
        (printer, name, raw_name): (&'a mut Printer, &'a str, &'a [u8]),
        encoding: Option<Guess>,
    ) -> ModeSink<'a> {
        if self.settings.json {
            ModeSink::Json(JsonSink {
                dest,
                engine: self.engine,
                begun: false,
                encoding,
            })
        } else {
            ModeSink::Text(TextSink {
                printer,
                raw_name,
                dest: Dest { name, ..dest },
                mode: self.settings.mode(),
                report_color: self.report_color,
            })
        }
    }

    /// `input`'s name as printed (`--label`'s or `(standard input)` for standard input) and
    /// as its bytes in results (a path's own bytes, even where they are not UTF-8); a path
    /// that is UTF-8 is borrowed for both.
    fn names<'i>(&'i self, input: &'i Input) -> (Cow<'i, str>, Cow<'i, [u8]>) {
        match (input, &self.label) {
            (Input::Path(p), _) => (p.to_string_lossy(), crate::input::os_bytes(p.as_os_str())),
            (Input::Stdin { .. }, Some(l)) => (Cow::Borrowed(l), Cow::Borrowed(l.as_bytes())),
            (Input::Stdin { .. }, None) => {
                let name = "(standard input)";
                (Cow::Borrowed(name), Cow::Borrowed(name.as_bytes()))
            }
        }
    }

    /// The answer for the whole of a large mapped file (`range`: from past a byte order
    /// mark to its size) searched in parts on the threads, when it is worth it
    /// ([`super::split`]); `decoded`: its text is in that encoding, split at those lines;
    /// `shown`: where the lines a printing search selects are shown, in order.
    fn split(
        &self,
        file: &std::fs::File,
        range: (u64, u64),
        decoded: Option<(crate::labels::Charset, LineStarts)>,
        diag_name: &str,
        shown: Option<Shown<'_>>,
    ) -> Result<Option<FileResult>, ToolError> {
        let parts = super::split::parts(self, range.1, decoded.is_some());
        match shown {
            _ if parts <= 1 => Ok(None),
            // A later part's lines wait in pieces of its output until they are shown: with
            // `--line-buffered`, each line is to be written as soon as it is found.
            Some(_) if self.settings.printing() && self.line_buffered => Ok(None),
            Some(shown) if self.settings.printing() => {
                super::split::search_printing(self, file, range, parts, diag_name, shown)
            }
            _ => super::split::search(self, file, range, parts, diag_name, decoded).map(Some),
        }
    }

    /// Opens `input` (below `root` if given; named `name` in diagnostics, `raw_name` in
    /// results) for [`Config::search_input`], or reports why it is not searched (it cannot be
    /// opened, or it is the output `output`) and gives `None`.
    fn open_input(
        &self,
        (input, root): (&Input, Option<&Root>),
        output: Option<FileId>,
        (name, raw_name): (&str, &[u8]),
        out: &mut Output,
        diag: &mut Diag,
        printer: &mut Printer,
    ) -> Result<Option<Source>, ToolError> {
        let source = match input.open_in(root) {
            Ok(s) => s,
            Err(e) => {
                self.input_error(out, diag, &e);
                // GNU grep opens a directory, fails to read it and reports it as a file
                // without matches: `dir:0` with -c, its name with -L.
                if input.is_dir() && !self.settings.quiet {
                    if self.settings.count {
                        printer.count(out, raw_name, 0)?;
                    } else if self.settings.list_non_matches {
                        printer.name(out, raw_name)?;
                    }
                }
                return Ok(None);
            }
        };
        // The identity from the descriptor just opened: no second lookup of the path.
        if let Some(out_id) = output
            && source_file_id(&source) == Some(out_id)
        {
            let e = ToolError::Input {
                path: name.to_owned(),
                message: "input file is also the output".to_string(),
            };
            self.input_error(out, diag, &e);
            return Ok(None);
        }
        Ok(Some(source))
    }

    /// The inputs to search, in order: FILE operands (standard input when none, without
    /// `-r`), directories walked under `-r`, and the trouble met walking them where it was
    /// met. The `bool` tells whether the input's name is shown by default.
    pub(super) fn entries(&self) -> impl Iterator<Item = Entry> + Send + '_ {
        let several = self.files.len() > 1;
        let implicit: Entries<'_> = match (self.files.is_empty(), self.recursive) {
            (true, true) => Box::new(
                walk(PathBuf::from("."), true, self.follow, &self.filters)
                    .map(|f| Entry::found(f, None)),
            ),
            (true, false) => Box::new(std::iter::once(Entry::Input(
                Input::Stdin { named: false },
                false,
                None,
            ))),
            (false, _) => Box::new(std::iter::empty()),
        };
        let operands = self.files.iter().flat_map(move |f| -> Entries<'_> {
            if f == "-" {
                return Box::new(std::iter::once(Entry::Input(
                    Input::Stdin { named: true },
                    several,
                    None,
                )));
            }
            let path = PathBuf::from(f);
            if self.skip_dirs && crate::input::is_dir(&path) {
                return Box::new(std::iter::empty());
            }
            if self.skip_devices && is_device(&path) {
                return Box::new(std::iter::empty());
            }
            if self.recursive && crate::input::is_dir(&path) {
                // --exclude-dir applies to a directory named on the command line too.
                if !self.filters.dir_operand_ok(f) {
                    return Box::new(std::iter::empty());
                }
                // Its files are opened relative to it, held open.
                let root = Root::open(&path).map(Arc::new);
                let walked = walk(path, false, self.follow, &self.filters);
                return Box::new(walked.map(move |f| Entry::found(f, root.as_ref())));
            }
            if !self.filters.operand_ok(f) {
                return Box::new(std::iter::empty());
            }
            Box::new(std::iter::once(Entry::Input(
                Input::Path(path),
                several,
                None,
            )))
        });
        implicit.chain(operands)
    }

    /// Reports trouble met walking: an error as [`Config::input_error`], a warning without
    /// changing the exit status (neither under `-s`).
    pub(super) fn trouble(&self, out: &mut Output, diag: &mut Diag, t: &Trouble) {
        match t {
            Trouble::Error(e) => self.input_error(out, diag, e),
            Trouble::Warning(_) if self.no_messages => {}
            Trouble::Warning(w) => {
                let _ = out.flush();
                diag.line(format_args!("{w}"));
            }
        }
    }

    /// `r`'s value, or `None` for an input's error, reported as [`Config::input_error`]
    /// reports it (the input is done with); any other error (writing) is passed on.
    fn reported<T>(
        &self,
        r: Result<T, ToolError>,
        out: &mut Output,
        diag: &mut Diag,
    ) -> Result<Option<T>, ToolError> {
        match r {
            Ok(v) => Ok(Some(v)),
            Err(e @ ToolError::Input { .. }) => {
                self.input_error(out, diag, &e);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Reports an input's trouble (after what was written to `out` so far, as GNU grep
    /// flushes its output before a diagnostic), or only records it under `-s`.
    pub(super) fn input_error(&self, out: &mut Output, diag: &mut Diag, e: &ToolError) {
        if self.no_messages {
            diag.record(Status::Trouble);
        } else {
            let _ = out.flush();
            diag.error(e);
        }
    }
}

#[cfg(unix)]
fn file_id(m: &std::fs::Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    (m.is_file() && m.len() > 0).then(|| (m.dev(), m.ino()))
}

/// The sink of the output mode (see [`Config::sink`]).
pub(super) enum ModeSink<'a> {
    Text(TextSink<'a>),
    Json(JsonSink<'a>),
}

impl<'a> ModeSink<'a> {
    /// The sink itself.
    pub(super) fn as_dyn(&mut self) -> &mut (dyn Sink + 'a) {
        match self {
            ModeSink::Text(t) => t,
            ModeSink::Json(j) => j,
        }
    }
}

/// The inputs as [`Config::entries`] lists them.
type Entries<'c> = Box<dyn Iterator<Item = Entry> + Send + 'c>;

/// The identity of standard output when it is a regular file (with something in it: an
/// empty output cannot be read back into itself).
#[cfg(unix)]
pub(super) fn stdout_file_id() -> Option<FileId> {
    use std::os::fd::AsFd;
    file_id(&fd_file(std::io::stdout().as_fd())?.metadata().ok()?)
}

/// A file of its own on the descriptor of a standard stream (for its metadata and offset).
#[cfg(unix)]
fn fd_file(fd: std::os::fd::BorrowedFd<'_>) -> Option<std::fs::File> {
    Some(std::fs::File::from(fd.try_clone_to_owned().ok()?))
}

/// The identity of an opened input when it is a non-empty regular file.
#[cfg(unix)]
fn source_file_id(source: &Source) -> Option<FileId> {
    use std::os::fd::AsFd;
    match &source.metadata {
        Some(m) => file_id(m),
        None => file_id(&fd_file(std::io::stdin().as_fd())?.metadata().ok()?),
    }
}

#[cfg(not(unix))]
pub(super) fn stdout_file_id() -> Option<FileId> {
    None
}

#[cfg(not(unix))]
fn source_file_id(_: &Source) -> Option<FileId> {
    None
}

/// The offset of standard input (`None`: not seekable), after moving it to `to` if given.
#[cfg(unix)]
fn stdin_position(to: Option<u64>) -> Option<u64> {
    use std::io::{Seek, SeekFrom};
    use std::os::fd::AsFd;
    let mut f = fd_file(std::io::stdin().as_fd())?;
    let to = to.map_or(SeekFrom::Current(0), SeekFrom::Start);
    f.seek(to).ok()
}

#[cfg(not(unix))]
fn stdin_position(_: Option<u64>) -> Option<u64> {
    None
}

/// An input whose first bytes were read to tell its encoding, as [`Config::search_sniffed`]
/// searches it.
struct Sniffed<'s> {
    source: &'s mut Source,
    /// What the first bytes say the input is.
    reading: Reading,
    /// The bytes read so far.
    kept: crate::transcode::Kept,
    /// Whether they are the whole input.
    all_read: bool,
    /// Whether the answer is one for the whole input (it may be split across threads).
    whole: bool,
    /// Where a seekable standard input searched with `-m` started.
    stdin_start: Option<u64>,
}

/// Whether `path` is a device, FIFO or socket (what `-D skip` skips).
fn is_device(path: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| {
            let t = m.file_type();
            t.is_char_device() || t.is_block_device() || t.is_fifo() || t.is_socket()
        })
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}
