//! The run of `utf8-repair` from its validated [`Config`]: to stdout, `-o FILE`, in place,
//! or `--check`, every input through one [`Pipeline`].

use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use encoding_rs::Encoding;

use super::atomic::{AtomicFile, CommitError, Keep};
use super::backup::Backup;
use super::config::{Config, Mode, Report};
use super::pipeline::{Failure, Findings, Pipeline, suspect_message};
use super::reporter::{ReportTo, Reporter};
use crate::detect::{self, Look};
use crate::diag::{Diag, ToolError, io_message};
use crate::exit::Status;
use crate::input::Input;
use crate::output::Output;

/// The name in diagnostics and reports.
pub(super) const PROGRAM: &str = "utf8-repair";

/// Runs a validated command line.
pub(super) fn run(cfg: Config, diag: &mut Diag) -> Result<(), ToolError> {
    cfg.run(diag)
}

impl Config {
    fn pipeline(&self) -> Pipeline<'_> {
        Pipeline {
            options: self.options(),
            engine: self.engine,
            strip_bom: self.strip_bom,
            source: self.source,
            hints: self.hints,
            fix_mojibake: self.fix_mojibake,
            refuse_suspects: matches!(self.mode, Mode::File { .. } | Mode::InPlace { .. }),
        }
    }

    fn reporter(&self) -> Option<Reporter> {
        let json = match self.report {
            Report::None => return None,
            Report::Text => false,
            Report::Json => true,
        };
        Some(Reporter::new(
            PROGRAM,
            json,
            self.color_err,
            false,
            ReportTo::Stderr,
        ))
    }

    fn run(&self, diag: &mut Diag) -> Result<(), ToolError> {
        match &self.mode {
            Mode::Stdout => {
                let mut out = Output::stdout(self.line_buffered);
                self.run_to(&mut out, diag)?;
                out.flush()
            }
            Mode::File { path, backup } => self.run_to_file(path, backup.as_ref(), diag),
            Mode::InPlace { backup } => {
                for input in &self.inputs {
                    if let Input::Path(p) = input {
                        match self.in_place(p, backup.as_ref()) {
                            Ok((hinted, errors)) => {
                                if let Some(enc) = hinted {
                                    hint(diag, &input.name(), enc);
                                }
                                if self.omit_status && errors > 0 {
                                    diag.record(Status::False);
                                }
                            }
                            Err(e) => diag.error(&e),
                        }
                    }
                }
                Ok(())
            }
            Mode::Check => self.run_check(diag),
            Mode::List => {
                let mut out = Output::stdout(false);
                out.write_all(crate::labels::list().as_bytes())
                    .map_err(ToolError::Output)?;
                out.flush()
            }
        }
    }

    /// Every input, repaired, to `out`.
    fn run_to(&self, out: &mut dyn Write, diag: &mut Diag) -> Result<(), ToolError> {
        self.each_input(out, self.reporter().as_mut(), diag)
    }

    /// Every input through the pipeline to `out`, with its reports and their end; an input
    /// that cannot be opened or read is one diagnostic, and the loop goes on. Under
    /// `--check`, an input with errors makes the status 1.
    fn each_input(
        &self,
        out: &mut dyn Write,
        mut reporter: Option<&mut Reporter>,
        diag: &mut Diag,
    ) -> Result<(), ToolError> {
        let pipeline = self.pipeline();
        let check = matches!(self.mode, Mode::Check);
        for input in &self.inputs {
            let Some(source) = input.open_or_report(diag) else {
                continue;
            };
            let name = input.name();
            let result = pipeline.run(source, &name, out, reporter.as_deref_mut());
            // The input's reports before any diagnostic about it.
            if let Some(r) = reporter.as_deref_mut() {
                r.flush();
            }
            match result {
                Ok(t) => {
                    if self.omit_status && t.errors > 0 {
                        diag.record(Status::False);
                    }
                    if check {
                        self.check_notes(diag, &name, &t);
                    } else if let Some(look) = t.suspect {
                        if !self.quiet {
                            let warning = suspect_message(look, false);
                            diag.line(format_args!("{name}: warning: {warning}"));
                        }
                    } else if let Some(enc) = t.hint {
                        hint(diag, &name, enc);
                    }
                }
                Err(Failure::Input(e)) => diag.error(&ToolError::input(&name, &e)),
                Err(Failure::Refused(message)) => diag.error(&ToolError::Input {
                    path: name.clone(),
                    message,
                }),
                Err(Failure::Output(e)) => return Err(ToolError::Output(e)),
            }
            if let Some(r) = reporter.as_deref_mut() {
                r.end_input(&name);
            }
        }
        match reporter {
            Some(r) => r.failed().map_err(ToolError::Output),
            None => Ok(()),
        }
    }

    /// What `--check` says of an input beyond its first error, and its status: an input
    /// that needs repair, or is UTF-16 (converted, or suspected by its NUL bytes), is
    /// status 1; a hint names the encoding to pass.
    fn check_notes(&self, diag: &mut Diag, name: &str, t: &Findings) {
        if let Some(g) = t.converted {
            diag.line(format_args!(
                "{name}: {} text ({}), not UTF-8: without --check it is converted to UTF-8",
                g.encoding.name(),
                g.evidence.as_str()
            ));
            diag.record(Status::False);
        } else if let Some(look) = t.suspect {
            if !self.quiet {
                diag.line(format_args!("{name}: {}", check_message(look)));
            }
            if matches!(look, Look::Utf16(_)) {
                diag.record(Status::False);
            }
        } else if let Some(enc) = t.hint {
            hint(diag, name, enc);
        }
        if t.errors > 0 {
            diag.record(Status::False);
        }
    }

    /// `-o FILE`: atomically, unless FILE is a device or a pipe (written directly), with a
    /// backup of the file it replaces when asked. Nothing is written when an input cannot be
    /// read or is refused. Errors name FILE, never the temporary file beside it.
    fn run_to_file(
        &self,
        path: &Path,
        backup: Option<&Backup>,
        diag: &mut Diag,
    ) -> Result<(), ToolError> {
        let name = path.to_string_lossy().into_owned();
        let fail = |e: io::Error| ToolError::input(&name, &e);
        let cannot = |e: io::Error| about(&name, "cannot write it", &e);
        match fs::metadata(path) {
            Ok(m) if !m.is_file() && !m.is_dir() => {
                let file = File::options().write(true).open(path).map_err(fail)?;
                let mut out = BufWriter::with_capacity(256 * 1024, file);
                self.run_to(&mut out, diag)?;
                return out.flush().map_err(ToolError::Output);
            }
            _ => {}
        }
        let dest = resolve(path).map_err(fail)?;
        let keep = match fs::metadata(&dest) {
            Ok(m) if m.is_dir() => {
                return Err(ToolError::Input {
                    path: name,
                    message: "Is a directory".to_string(),
                });
            }
            Ok(m) => {
                refuse_hard_links(&name, &m)?;
                Some(Keep::of(&m))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(fail(e)),
        };
        let mut file = AtomicFile::create(&dest, keep.as_ref(), false).map_err(cannot)?;
        self.run_to(file.writer(), diag).map_err(|e| match e {
            ToolError::Output(e) => cannot(e),
            e => e,
        })?;
        if diag.status() == Status::Trouble {
            return Err(ToolError::Input {
                path: name,
                message: "not written, because an input could not be read or was refused"
                    .to_string(),
            });
        }
        // A backup only of a file that is there to be replaced.
        let backup = match (backup, &keep) {
            (Some(b), Some(_)) => Some(b.path_for(&dest).map_err(cannot)?),
            _ => None,
        };
        file.commit(backup.as_deref())
            .map_err(|e| commit_error(&name, "cannot write it", e))
    }

    /// `--in-place` for one file; the legacy encoding it seems to be in, if any, and how many
    /// errors were repaired (none when the file was left as it was). Errors name
    /// the file, never the temporary file beside it, which is removed.
    fn in_place(
        &self,
        path: &Path,
        backup: Option<&Backup>,
    ) -> Result<(Option<&'static Encoding>, u64), ToolError> {
        let name = path.to_string_lossy().into_owned();
        let fail = |e: io::Error| ToolError::input(&name, &e);
        let beside = |e: io::Error| about(&name, "cannot write beside it", &e);
        let target = resolve(path).map_err(fail)?;
        let meta = fs::metadata(&target).map_err(fail)?;
        if !meta.is_file() {
            let what = if meta.is_dir() {
                "Is a directory"
            } else {
                "not a regular file; cannot repair it in place"
            };
            return Err(ToolError::Input {
                path: name,
                message: what.to_string(),
            });
        }
        refuse_hard_links(&name, &meta)?;
        let pipeline = self.pipeline();
        let mut reporter = self.reporter();
        // Pass 1: would the output differ from the file? Stops at the first difference.
        let original = File::open(&target).map_err(fail)?;
        let mut cmp = Compare::new(File::open(&target).map_err(fail)?);
        let same = match pipeline.run(original, &name, &mut cmp, None) {
            Ok(_) => cmp.at_end().map_err(fail)?,
            Err(Failure::Input(e)) => return Err(fail(e)),
            Err(Failure::Refused(message)) => {
                return Err(ToolError::Input {
                    path: name,
                    message,
                });
            }
            Err(Failure::Output(e)) if cmp.differs => {
                drop(e);
                false
            }
            Err(Failure::Output(e)) => return Err(fail(e)),
        };
        if same {
            if let Some(r) = reporter.as_mut() {
                r.end_input(&name);
            }
            return Ok((None, 0));
        }
        // Pass 2: write the repaired file beside the original and rename it over.
        let mut file = AtomicFile::create(&target, Some(&Keep::of(&meta)), true).map_err(beside)?;
        let source = File::open(&target).map_err(fail)?;
        let r = pipeline.run(source, &name, file.writer(), reporter.as_mut());
        let found = match r {
            // A file that reads as a legacy encoding is not rewritten as damaged UTF-8 (the
            // temporary file goes with `file`).
            Ok(t) if t.hint.is_some() => {
                let enc = t.hint.map_or("", |e| e.name());
                return Err(ToolError::Input {
                    path: name,
                    message: format!(
                        "this looks like {enc} text; not changed: pass --from {enc} to convert \
                         it to UTF-8, or --from utf-8 to repair its bytes as UTF-8"
                    ),
                });
            }
            Ok(t) => (t.hint, t.errors),
            Err(Failure::Input(e)) => return Err(fail(e)),
            Err(Failure::Output(e)) => return Err(beside(e)),
            // (Pass 1 read the same bytes and was not refused.)
            Err(Failure::Refused(message)) => {
                return Err(ToolError::Input {
                    path: name,
                    message,
                });
            }
        };
        if let Some(r) = reporter.as_mut() {
            r.end_input(&name);
        }
        let backup = backup
            .map(|b| b.path_for(&target))
            .transpose()
            .map_err(beside)?;
        file.commit(backup.as_deref())
            .map_err(|e| commit_error(&name, "cannot write beside it", e))?;
        Ok(found)
    }

    fn run_check(&self, diag: &mut Diag) -> Result<(), ToolError> {
        let to = if self.json {
            ReportTo::Stdout
        } else {
            ReportTo::Stderr
        };
        let mut reporter = Reporter::new(PROGRAM, self.json, self.color_err, true, to);
        self.each_input(&mut io::sink(), Some(&mut reporter), diag)
    }
}

/// What `--check` says of an input that looks like UTF-16 without a byte order mark or
/// like a binary file.
fn check_message(look: Look) -> String {
    match look {
        Look::Utf16(enc) => format!(
            "looks like {} without a byte order mark (NUL bytes in every other position), not \
             UTF-8; try --from {}",
            enc.name(),
            enc.name().to_ascii_lowercase()
        ),
        _ => format!(
            "looks like a binary file (a NUL byte in its first {} KiB)",
            detect::LOOK_LEN / 1024
        ),
    }
}

/// `NAME: DOING: MESSAGE`, the error of a step on a file the user named.
fn about(name: &str, doing: &str, e: &io::Error) -> ToolError {
    ToolError::Input {
        path: name.to_string(),
        message: format!("{doing}: {}", io_message(e)),
    }
}

/// The error of [`AtomicFile::commit`] on the file `name`: writing it (`doing`), or making
/// its backup.
fn commit_error(name: &str, doing: &str, e: CommitError) -> ToolError {
    match e {
        CommitError::Write(e) => about(name, doing, &e),
        CommitError::Backup(path, e) => {
            let doing = format!("cannot make the backup '{}'", path.to_string_lossy());
            about(name, &doing, &e)
        }
    }
}

/// The note that an input seems to be in a legacy encoding.
fn hint(diag: &Diag, name: &str, enc: &'static Encoding) {
    diag.line(format_args!(
        "{}",
        detect::hint_message(name, enc, "--from")
    ));
}

/// The file a path names, through any symlinks (a missing final component is kept).
fn resolve(path: &Path) -> io::Result<PathBuf> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path),
        _ => Ok(path.to_path_buf()),
    }
}

/// A file with several hard links cannot be replaced by a rename without breaking them.
fn refuse_hard_links(name: &str, meta: &fs::Metadata) -> Result<(), ToolError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(ToolError::Input {
                path: name.to_string(),
                message: format!(
                    "has {} hard links; refusing to replace it (a rename would break the \
                     links, and rewriting it in place would not be atomic)",
                    meta.nlink()
                ),
            });
        }
    }
    let _ = (name, meta);
    Ok(())
}

/// A writer that compares what it is given with a file, failing at the first difference.
struct Compare {
    original: io::BufReader<File>,
    buf: Vec<u8>,
    differs: bool,
}

impl Compare {
    fn new(f: File) -> Compare {
        Compare {
            original: io::BufReader::with_capacity(64 * 1024, f),
            buf: vec![0; 64 * 1024],
            differs: false,
        }
    }

    /// Whether the file has no bytes beyond those compared.
    fn at_end(&mut self) -> io::Result<bool> {
        Ok(!self.differs && self.original.read(&mut self.buf[..1])? == 0)
    }
}

impl Write for Compare {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let mut rest = data;
        while !rest.is_empty() && !self.differs {
            let n = rest.len().min(self.buf.len());
            let buf = &mut self.buf[..n];
            match self.original.read_exact(buf) {
                Ok(()) => self.differs = buf[..] != rest[..n],
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => self.differs = true,
                Err(e) => return Err(e),
            }
            rest = &rest[n..];
        }
        if self.differs {
            return Err(io::Error::other("output differs from the file"));
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
