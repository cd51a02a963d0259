//! One large regular file searched on several threads: `-c`, `-l`, `-L` and `-q` (without
//! `-m`, `--json` or `--invalid=report`) split a mapped file at line starts and search the
//! parts at once, as utf8-count splits a file it counts.
//!
//! The parts answer what one search of the whole file answers. Lines never span a part
//! boundary (each part after the first starts just after a newline). Without `-v`, the
//! lines selected do not depend on where the file turned binary (a NUL in a line with a
//! match splits that line in every case, see `Settings::scan_nul`). With `-v` they do, so
//! a part that met a NUL makes the whole file be searched again on one thread, which
//! decides the switch point as GNU grep does. Under `-l`, `-L` and `-q`, a part that
//! selects a line stops the others.

use std::fs::File;
use std::sync::atomic::{AtomicBool, Ordering};

use super::buffer::Feed;
use super::config::Config;
use super::matcher::Matcher;
use super::search::FileSearch;
use super::sink::{At, FileResult, Line, Sink};
use crate::diag::ToolError;
use crate::report::Report;
use crate::transcode::{LineStarts, Transcoder};
use encoding_rs::Encoding;

/// The smallest part worth a thread of its own.
const PART_MIN: u64 = 16 << 20;

/// How many parts a file of `len` bytes is searched in (1: not split).
pub(super) fn parts(cfg: &Config, len: u64) -> usize {
    let s = &cfg.settings;
    let whole_file_answer = s.count || s.list || s.quiet;
    if !whole_file_answer || s.max_count.is_some() || s.report.is_some() || s.json {
        return 1;
    }
    let by_size = usize::try_from(len / PART_MIN).unwrap_or(usize::MAX);
    cfg.threads().min(by_size).max(1)
}

/// Searches `file` from offset `start` (past a byte order mark) to `len` (its size at open)
/// in `parts` parts (text `decoded` from another encoding, when it is, split at its line
/// starts) on as many threads: the sum of
/// what they found, or `None` when the parts cannot answer for the whole (`-v` and a NUL).
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
    decoded: Option<(&'static Encoding, LineStarts)>,
) -> Result<Option<FileResult>, ToolError> {
    let lines = decoded.map_or(LineStarts::BYTES, |(_, l)| l);
    let cuts =
        cuts(file, (start, len), parts, lines).map_err(|e| ToolError::input(diag_name, &e))?;
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
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(ToolError::Input {
                        path: diag_name.to_string(),
                        message: "a searching thread panicked".to_string(),
                    })
                })
            })
            .collect()
    });
    let mut total = FileResult::default();
    for r in results {
        let r = r?;
        total.selected += r.selected;
        total.matches += r.matches;
        total.bytes += r.bytes;
        total.binary_matched |= r.binary_matched;
        total.saw_nul |= r.saw_nul;
    }
    if total.saw_nul && cfg.settings.invert && !cfg.settings.text {
        return Ok(None);
    }
    Ok(Some(total))
}

/// The offsets where the parts begin (each at a line start, or `start`) and the end.
fn cuts(
    file: &File,
    (start, len): (u64, u64),
    parts: usize,
    lines: LineStarts,
) -> std::io::Result<Vec<u64>> {
    let mut cuts = vec![start];
    for i in 1..parts as u64 {
        let p = start + (u128::from(len - start) * u128::from(i) / parts as u128) as u64;
        let p = p.max(*cuts.last().unwrap_or(&0));
        match line_start_after(file, p, len, lines)? {
            Some(q) if q < len && q > *cuts.last().unwrap_or(&0) => cuts.push(q),
            _ => {}
        }
    }
    cuts.push(len);
    Ok(cuts)
}

/// The first line start after offset `p`, if one comes before `len`.
fn line_start_after(
    file: &File,
    mut p: u64,
    len: u64,
    lines: LineStarts,
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
        if let Some(i) = lines.after(&buf[..n], p) {
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
