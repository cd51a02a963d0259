//! One large regular file searched on several threads: `-c`, `-l`, `-L` and `-q` (without
//! `-m`, `--json` or `--invalid=report`) split a mapped file at line starts and search the
//! parts at once, as utf8-count splits a file it counts. So do the searches that print
//! lines or matches without numbering them (no `-n`, `--column`, context, `-m`, `--json`,
//! `--invalid=report`): the first part is shown as it is searched, each later one is kept
//! in memory (up to [`AHEAD`] in all) and shown in turn. Where a file turns binary is
//! decided as on one thread: every part reads the blocks one search reads (at multiples of
//! [`super::search::CHUNK`] from the file's start), the bytes of a block cut by a part's
//! start are checked before the search (a NUL there sends the file to one thread: it
//! would make the lines before the cut binary), and after a part that met a NUL, the rest
//! of the file is searched again on this thread, binary from its start.
//!
//! The parts answer what one search of the whole file answers. Lines never span a part
//! boundary (each part after the first starts just after a newline). For `-c`, `-l`, `-L`
//! and `-q` (which do not scan every block for NUL), without `-v`, the
//! lines selected do not depend on where the file turned binary (a NUL in a line with a
//! match splits that line in every case, see `Settings::scan_nul`). With `-v` or a pattern
//! anchored at line ends every part checks each block it reads for NUL: turning binary
//! makes a NUL end lines, and no line of a part that holds none changes with it, so the
//! parts' answers add up to one search's wherever the first NUL is. Under `-l`, `-L` and `-q`, a part that
//! selects a line stops the others.

use std::cell::RefCell;
use std::fs::File;
use std::io;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};

use super::buffer::Feed;
use super::config::Config;
use super::job::PROGRAM;
use super::matcher::Matcher;
use super::printer::{Printer, Style};
use super::search::{CHUNK, FileSearch};
use super::sink::{At, Dest, FileResult, Line, Sink};
use crate::capture::{Captured, Spill};
use crate::diag::{Diag, ToolError};
use crate::exit::Status;
use crate::labels::Charset;
use crate::output::Output;
use crate::report::Report;
use crate::transcode::{LineStarts, Transcoder};

/// The smallest part worth a thread of its own.
const PART_MIN: u64 = 16 << 20;

/// Bytes a later part of a printing search holds before it hands them over (see
/// [`search_printing`]).
const PIECE: usize = 256 * 1024;
/// The most bytes the later parts of a printing search hold in all, in pieces waiting to
/// be shown: past them, a part waits for its turn (its search goes on as what it printed
/// is shown).
const AHEAD: usize = 64 << 20;

/// How many parts a file of `len` bytes (text `decoded` from another encoding, or not) is
/// searched in (1: not split).
pub(super) fn parts(cfg: &Config, len: u64, decoded: bool) -> usize {
    let s = &cfg.settings;
    let whole_file_answer = s.count || s.list || s.quiet;
    // Lines shown as they are, whose text does not depend on the lines before them.
    let printed_alone = s.printing() && !s.numbered && !s.context && !decoded;
    if !(whole_file_answer || printed_alone)
        || s.max_count.is_some()
        || s.report.is_some()
        || s.json
        // -I: a NUL anywhere takes back what every part found.
        || s.without_match
        // -z in decoded text: its line starts are not those of the encoding.
        || (decoded && s.eol != b'\n')
    {
        return 1;
    }
    let by_size = usize::try_from(len / PART_MIN).unwrap_or(usize::MAX);
    cfg.threads().min(by_size).max(1)
}

/// Searches `file` from offset `start` (past a byte order mark) to `len` (its size at open)
/// in `parts` parts (text `decoded` from another encoding, when it is, split at its line
/// starts) on as many threads: the sum of
/// what they found.
///
/// # Errors
///
/// Reading a part failed ([`ToolError::Input`]).
pub(super) fn search(
    cfg: &Config,
    file: &File,
    (start, len): (u64, u64),
    parts: usize,
    diag_name: &str,
    decoded: Option<(Charset, LineStarts)>,
) -> Result<FileResult, ToolError> {
    let lines = decoded.map_or(LineStarts::BYTES, |(_, l)| l);
    let cuts = cuts(file, (start, len), parts, lines, cfg.settings.eol)
        .map_err(|e| ToolError::input(diag_name, &e))?;
    let done = AtomicBool::new(false);
    let stop_early = !cfg.settings.count;
    let results: Vec<Result<FileResult, ToolError>> = std::thread::scope(|s| {
        let handles: Vec<_> = cuts
            .windows(2)
            .map(|w| {
                let (start, end, done) = (w[0], w[1], &done);
                s.spawn(move || {
                    crate::mmap::on_shrink_say(super::job::PROGRAM, diag_name);
                    let mut sink = Quiet;
                    let search = FileSearch::new(&cfg.settings, &cfg.matcher, &mut sink, diag_name)
                        .part(start, end, done);
                    let r = match decoded {
                        Some((enc, _)) => {
                            let mut text =
                                Transcoder::<std::io::Empty>::mapped_part(file, enc, (start, end));
                            search.run(Feed::Read(&mut text))
                        }
                        None => search.run(Feed::Map(file)),
                    };
                    if stop_early && r.as_ref().is_ok_and(|r| r.selected > 0) {
                        done.store(true, Ordering::Relaxed);
                    }
                    r
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(panicked(diag_name))))
            .collect()
    });
    let mut total = FileResult::default();
    for r in results {
        total.add(&r?);
    }
    Ok(total)
}

/// Where a printing search shows what it finds: the search's own output, diagnostics and
/// printer, and the input's names (as printed, and as bytes).
pub(super) struct Shown<'a> {
    pub out: &'a mut Output,
    pub diag: &'a mut Diag,
    pub printer: &'a mut Printer,
    pub names: (&'a str, &'a [u8]),
}

/// [`search`] for a search that prints lines or matches: the first part is searched on this
/// thread straight into `shown`, the later ones on threads of their own into pieces that
/// are shown after it, in order. `None` when a block cut by a part's start holds a NUL (the
/// file is to be searched on one thread).
///
/// # Errors
///
/// Reading a part failed ([`ToolError::Input`]) or writing failed ([`ToolError::Output`]).
pub(super) fn search_printing(
    cfg: &Config,
    file: &File,
    (start, len): (u64, u64),
    parts: usize,
    diag_name: &str,
    shown: Shown<'_>,
) -> Result<Option<FileResult>, ToolError> {
    let input_error = |e: io::Error| ToolError::input(diag_name, &e);
    let eol = cfg.settings.eol;
    let cuts = cuts(file, (start, len), parts, LineStarts::BYTES, eol).map_err(input_error)?;
    for &cut in &cuts[1..cuts.len() - 1] {
        let block_end = cut.next_multiple_of(CHUNK as u64).min(len);
        if !cfg.settings.text && has_nul(file, cut, block_end).map_err(input_error)? {
            return Ok(None);
        }
    }
    let done = AtomicBool::new(false);
    let Shown {
        out,
        diag,
        printer,
        names,
    } = shown;
    let style = printer.style.clone();
    let stop = |e: ToolError| {
        done.store(true, Ordering::Relaxed);
        e
    };
    let part = Part {
        cfg,
        file,
        diag_name,
        names,
        style: &style,
    };
    std::thread::scope(|s| {
        let later: Vec<_> = cuts[1..]
            .windows(2)
            .map(|w| {
                let (tx, rx) = sync_channel((AHEAD / PIECE / (parts - 1).max(1)).max(1));
                let (range, done) = ((w[0], w[1]), &done);
                (rx, s.spawn(move || part.captured(range, done, &tx)))
            })
            .collect();
        let first = (cuts[0], cuts[1]);
        let mut total = part
            .search(first, false, &done, out, diag, printer)
            .map_err(stop)?;
        let mut later = later.into_iter().enumerate();
        while let Some((k, (rx, handle))) = later.next() {
            if total.saw_nul {
                // Binary from here on: the later parts' lines are not shown as they are.
                // Their threads are stopped (and let go of what they hold), and the rest of
                // the file is searched again here, binary from its start.
                done.store(true, Ordering::Relaxed);
                for (_, (rx, handle)) in std::iter::once((k, (rx, handle))).chain(later) {
                    drop(rx);
                    let _ = handle.join();
                }
                if !total.binary_matched {
                    let rest_done = AtomicBool::new(false);
                    let rest = (cuts[k + 1], len);
                    total.add(&part.search(rest, true, &rest_done, out, diag, printer)?);
                }
                break;
            }
            for c in rx {
                super::printer::replay(c, printer, out, diag).map_err(stop)?;
            }
            let (r, status) = handle
                .join()
                .unwrap_or_else(|_| (Err(panicked(diag_name)), Status::Trouble));
            diag.record(status);
            total.add(&r.map_err(stop)?);
        }
        Ok(Some(total))
    })
}

/// A later part of a printing search: what it searches with, and the names it prints.
#[derive(Clone, Copy)]
struct Part<'a> {
    cfg: &'a Config,
    file: &'a File,
    diag_name: &'a str,
    names: (&'a str, &'a [u8]),
    style: &'a Style,
}

impl Part<'_> {
    /// Searches `start..end` (`binary` from its start: a NUL came before), printing to
    /// `out` and `diag` with `printer`.
    fn search(
        self,
        (start, end): (u64, u64),
        binary: bool,
        done: &AtomicBool,
        out: &mut Output,
        diag: &Diag,
        printer: &mut Printer,
    ) -> Result<FileResult, ToolError> {
        let dest = Dest {
            out,
            diag,
            name: self.diag_name,
        };
        let mut sink = self
            .cfg
            .sink(dest, (printer, self.names.0, self.names.1), None);
        let mut sink = Unfinished(sink.as_dyn());
        let search = FileSearch::new(
            &self.cfg.settings,
            &self.cfg.matcher,
            &mut sink,
            self.diag_name,
        );
        let search = search.part(start, end, done);
        let search = if binary { search.binary() } else { search };
        search.run(Feed::Map(self.file))
    }

    /// Searches `start..end`, handing what it prints to `tx` in pieces; its result and the
    /// status of its diagnostics.
    fn captured(
        self,
        (start, end): (u64, u64),
        done: &AtomicBool,
        tx: &SyncSender<Captured>,
    ) -> (Result<FileResult, ToolError>, Status) {
        crate::mmap::on_shrink_say(PROGRAM, self.diag_name);
        let capture = Rc::new(RefCell::new(Captured::default()));
        let spill: Spill = {
            let tx = tx.clone();
            Box::new(move |c| {
                tx.send(c)
                    .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
            })
        };
        let mut out = Output::capturing(Rc::clone(&capture), PIECE, spill);
        let diag = Diag::capturing(PROGRAM, Rc::clone(&capture));
        let mut printer = Printer::new(self.style.clone());
        let r = self.search((start, end), false, done, &mut out, &diag, &mut printer);
        drop(out);
        let rest = std::mem::take(&mut *capture.borrow_mut());
        if !rest.is_empty() {
            // (A showing thread that stopped has its error already.)
            let _ = tx.send(rest);
        }
        (r, diag.status())
    }
}

/// The sink of a part of a printing search: the whole file's answer is finished once, after
/// its parts.
struct Unfinished<'s, 'a>(&'s mut (dyn Sink + 'a));

impl Sink for Unfinished<'_, '_> {
    fn line(&mut self, m: &Matcher, line: Line<'_>) -> Result<u64, ToolError> {
        self.0.line(m, line)
    }

    fn only(&mut self, at: At, text: &[u8], selected: bool) -> Result<(), ToolError> {
        self.0.only(at, text, selected)
    }

    fn gap(&mut self) -> Result<(), ToolError> {
        self.0.gap()
    }

    fn invalid(&mut self, report: &dyn Report) {
        self.0.invalid(report);
    }

    fn finish(&mut self, _: &FileResult) -> Result<(), ToolError> {
        Ok(())
    }
}

/// Whether `file[start..end]` holds a NUL byte.
fn has_nul(file: &File, start: u64, end: u64) -> io::Result<bool> {
    use std::os::unix::fs::FileExt;
    let mut buf = crate::input::ReadBuf::new(PIECE);
    let mut at = start;
    while at < end {
        let want = buf
            .len()
            .min(usize::try_from(end - at).unwrap_or(usize::MAX));
        let n = match file.read_at(&mut buf[..want], at) {
            Ok(0) => return Ok(false),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if memchr::memchr(0, &buf[..n]).is_some() {
            return Ok(true);
        }
        at += n as u64;
    }
    Ok(false)
}

/// The error of a part's thread that panicked.
fn panicked(diag_name: &str) -> ToolError {
    ToolError::Input {
        path: diag_name.to_string(),
        message: "a searching thread panicked".to_string(),
    }
}

/// The offsets where the parts begin (each at a line start, or `start`) and the end.
fn cuts(
    file: &File,
    (start, len): (u64, u64),
    parts: usize,
    lines: LineStarts,
    eol: u8,
) -> std::io::Result<Vec<u64>> {
    let mut cuts = vec![start];
    for i in 1..parts as u64 {
        let p = start + (u128::from(len - start) * u128::from(i) / parts as u128) as u64;
        let p = p.max(*cuts.last().unwrap_or(&0));
        match line_start_after(file, p, len, lines, eol)? {
            Some(q) if q < len && q > *cuts.last().unwrap_or(&0) => cuts.push(q),
            _ => {}
        }
    }
    cuts.push(len);
    Ok(cuts)
}

/// The first line start after offset `p`, if one comes before `len`: in `lines`, or just
/// after an `eol` byte under `-z` (NUL; the file's bytes searched as they are).
fn line_start_after(
    file: &File,
    mut p: u64,
    len: u64,
    lines: LineStarts,
    eol: u8,
) -> std::io::Result<Option<u64>> {
    use std::os::unix::fs::FileExt;
    let mut buf = vec![0u8; 64 * 1024];
    while p < len {
        let want = buf
            .len()
            .min(usize::try_from(len - p).unwrap_or(usize::MAX));
        let n = file.read_at(&mut buf[..want], p)?;
        if n == 0 {
            break;
        }
        let after = if eol == b'\n' {
            lines.after(&buf[..n], p)
        } else {
            memchr::memchr(eol, &buf[..n]).map(|i| i + 1)
        };
        if let Some(i) = after {
            return Ok(Some(p + i as u64));
        }
        // A UTF-16 newline may be cut by the end of the read: read it again.
        p += n.saturating_sub(1).max(1) as u64;
    }
    Ok(None)
}

/// The sink of a part: `-c`, `-l`, `-L` and `-q` show nothing per line, and the whole
/// file's answer is written once the parts are summed.
struct Quiet;

impl Sink for Quiet {
    fn line(&mut self, _: &Matcher, _: Line<'_>) -> Result<u64, ToolError> {
        Ok(0)
    }

    fn only(&mut self, _: At, _: &[u8], _: bool) -> Result<(), ToolError> {
        Ok(())
    }

    fn gap(&mut self) -> Result<(), ToolError> {
        Ok(())
    }

    fn invalid(&mut self, _: &dyn Report) {}

    fn finish(&mut self, _: &FileResult) -> Result<(), ToolError> {
        Ok(())
    }
}
