//! Validated configuration and the run of `utf8-repair`.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use utf8_codec::{Action, RepairOptions};

use super::args::{ActionArg, BomArg, RepairArgs, ReportFormat};
use super::atomic::{AtomicFile, Keep};
use super::pipeline::{Failure, Pipeline, ReportTo, Reporter};
use crate::diag::{Diag, ToolError};
use crate::exit::Status;
use crate::input::{Input, inputs};
use crate::output::{Output, conclude, parse};

const PROGRAM: &str = "utf8-repair";

pub(super) fn run(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let args: RepairArgs = match parse(args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let mut diag = Diag::new(PROGRAM);
    let result = Config::new(&args).and_then(|cfg| cfg.run(&mut diag));
    conclude(&mut diag, result)
}

/// Where the repaired text goes.
#[derive(Debug)]
enum Mode {
    Stdout,
    File(PathBuf),
    InPlace { backup: Option<OsString> },
    Check,
}

/// What the command line means, validated.
struct Config<'a> {
    inputs: Vec<Input>,
    pipeline: Pipeline<'a>,
    mode: Mode,
    report: Option<ReportFormat>,
    json: bool,
    color_err: bool,
}

impl<'a> Config<'a> {
    fn new(a: &'a RepairArgs) -> Result<Config<'a>, ToolError> {
        let engine = a.common.engine()?;
        let action = match (a.action, a.replacement.as_deref()) {
            (ActionArg::Replace, r) => Action::Replace(r.unwrap_or("\u{FFFD}")),
            (_, Some(_)) => {
                return Err(ToolError::Usage(
                    "--replacement goes with --action replace".to_string(),
                ));
            }
            (ActionArg::Delete, None) => Action::Delete,
            (ActionArg::Escape, None) => Action::Escape,
        };
        let from = match a.from.as_deref() {
            None => None,
            Some(label) => match encoding_rs::Encoding::for_label(label.as_bytes()) {
                Some(enc) if enc == encoding_rs::UTF_8 => None,
                Some(enc) => Some(enc),
                None => {
                    return Err(ToolError::Usage(format!(
                        "unknown encoding '{label}' (expected a WHATWG label such as \
                         utf-8, windows-1252, iso-8859-2, shift_jis, gb18030 or utf-16le)"
                    )));
                }
            },
        };
        let inputs = inputs(&a.files, None)?;
        let mode = if a.check {
            Mode::Check
        } else if a.in_place {
            if a.files.is_empty() {
                return Err(ToolError::Usage(
                    "--in-place needs FILE operands".to_string(),
                ));
            }
            if inputs.iter().any(Input::is_stdin) {
                return Err(ToolError::Usage(
                    "--in-place cannot repair standard input".to_string(),
                ));
            }
            if a.backup.as_ref().is_some_and(|s| s.is_empty()) {
                return Err(ToolError::Usage(
                    "--backup needs a non-empty SUFFIX".to_string(),
                ));
            }
            Mode::InPlace {
                backup: a.backup.clone(),
            }
        } else if let Some(out) = &a.output {
            refuse_output_among_inputs(out, &inputs)?;
            Mode::File(out.clone())
        } else {
            Mode::Stdout
        };
        if a.check && a.report.is_some() {
            return Err(ToolError::Usage(
                "--check and --report cannot be combined (--check names the first error of \
                 each input)"
                    .to_string(),
            ));
        }
        Ok(Config {
            inputs,
            pipeline: Pipeline {
                options: RepairOptions {
                    practice: a.practice.into(),
                    action,
                },
                engine,
                strip_bom: a.bom == BomArg::Strip,
                from,
            },
            mode,
            report: a.report,
            json: a.common.json,
            color_err: a.common.color_for(&io::stderr()),
        })
    }

    fn reporter(&self) -> Option<Reporter> {
        self.report.map(|f| {
            let json = f == ReportFormat::Json;
            Reporter::new(PROGRAM, json, self.color_err, false, ReportTo::Stderr)
        })
    }

    fn run(&self, diag: &mut Diag) -> Result<(), ToolError> {
        match &self.mode {
            Mode::Stdout => {
                let mut out = Output::new();
                self.run_to(&mut out, diag)?;
                out.flush()
            }
            Mode::File(path) => self.run_to_file(path, diag),
            Mode::InPlace { backup } => {
                for input in &self.inputs {
                    if let Input::Path(p) = input
                        && let Err(e) = self.in_place(p, backup.as_deref())
                    {
                        diag.error(&e);
                    }
                }
                Ok(())
            }
            Mode::Check => self.run_check(diag),
        }
    }

    /// Every input, repaired, to `out`.
    fn run_to(&self, out: &mut dyn Write, diag: &mut Diag) -> Result<(), ToolError> {
        let mut reporter = self.reporter();
        for input in &self.inputs {
            let source = match input.open() {
                Ok(s) => s,
                Err(e) => {
                    diag.error(&e);
                    continue;
                }
            };
            let name = input.name();
            match self.pipeline.run(source, &name, out, reporter.as_mut()) {
                Ok(_) => {}
                Err(Failure::Input(e)) => diag.error(&ToolError::input(&name, &e)),
                Err(Failure::Output(e)) => return Err(ToolError::Output(e)),
            }
            if let Some(r) = reporter.as_mut() {
                r.end_input(&name);
            }
        }
        Ok(())
    }

    /// `-o FILE`: atomically, unless FILE is a device or a pipe (written directly). Nothing
    /// is written when an input cannot be read.
    fn run_to_file(&self, path: &Path, diag: &mut Diag) -> Result<(), ToolError> {
        let name = path.to_string_lossy().into_owned();
        let fail = |e: io::Error| ToolError::input(&name, &e);
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
        let mut file = AtomicFile::create(&dest, keep.as_ref(), false).map_err(fail)?;
        self.run_to(file.writer(), diag).map_err(|e| match e {
            ToolError::Output(e) => fail(e),
            e => e,
        })?;
        if diag.status() == Status::Trouble {
            return Err(ToolError::Input {
                path: name,
                message: "not written, because an input could not be read".to_string(),
            });
        }
        file.commit(None).map_err(fail)
    }

    /// `--in-place` for one file.
    fn in_place(&self, path: &Path, backup: Option<&OsStr>) -> Result<(), ToolError> {
        let name = path.to_string_lossy().into_owned();
        let fail = |e: io::Error| ToolError::input(&name, &e);
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
        let mut reporter = self.reporter();
        // Pass 1: would the output differ from the file? Stops at the first difference.
        let original = File::open(&target).map_err(fail)?;
        let mut cmp = Compare::new(File::open(&target).map_err(fail)?);
        let same = match self.pipeline.run(original, &name, &mut cmp, None) {
            Ok(_) => cmp.at_end().map_err(fail)?,
            Err(Failure::Input(e)) => return Err(fail(e)),
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
            return Ok(());
        }
        // Pass 2: write the repaired file beside the original and rename it over.
        let mut file = AtomicFile::create(&target, Some(&Keep::of(&meta)), true).map_err(fail)?;
        let source = File::open(&target).map_err(fail)?;
        let r = self
            .pipeline
            .run(source, &name, file.writer(), reporter.as_mut());
        match r {
            Ok(_) => {}
            Err(Failure::Input(e) | Failure::Output(e)) => return Err(fail(e)),
        }
        if let Some(r) = reporter.as_mut() {
            r.end_input(&name);
        }
        let backup = backup.map(|suffix| {
            let mut b = target.clone().into_os_string();
            b.push(suffix);
            PathBuf::from(b)
        });
        file.commit(backup.as_deref()).map_err(fail)
    }

    fn run_check(&self, diag: &mut Diag) -> Result<(), ToolError> {
        let to = if self.json {
            ReportTo::Stdout
        } else {
            ReportTo::Stderr
        };
        let mut reporter = Reporter::new(PROGRAM, self.json, self.color_err, true, to);
        for input in &self.inputs {
            let source = match input.open() {
                Ok(s) => s,
                Err(e) => {
                    diag.error(&e);
                    continue;
                }
            };
            let name = input.name();
            match self
                .pipeline
                .run(source, &name, &mut io::sink(), Some(&mut reporter))
            {
                Ok(t) if t.errors > 0 => diag.record(Status::False),
                Ok(_) => {}
                Err(Failure::Input(e)) => diag.error(&ToolError::input(&name, &e)),
                Err(Failure::Output(e)) => return Err(ToolError::Output(e)),
            }
            reporter.end_input(&name);
        }
        Ok(())
    }
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

/// `-o FILE` naming one of the inputs (the same device and inode, whatever the names) is
/// refused: the input would be replaced while it is read.
fn refuse_output_among_inputs(out: &Path, inputs: &[Input]) -> Result<(), ToolError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let Ok(o) = fs::metadata(out) else {
            return Ok(());
        };
        if !o.is_file() {
            return Ok(());
        }
        for input in inputs {
            let m = match input {
                Input::Path(p) => fs::metadata(p),
                Input::Stdin { .. } => fs::metadata("/dev/stdin"),
            };
            if let Ok(m) = m
                && (m.dev(), m.ino()) == (o.dev(), o.ino())
            {
                return Err(ToolError::Usage(format!(
                    "output file '{}' is also an input ('{}'); use --in-place to repair \
                     a file in place",
                    out.to_string_lossy(),
                    input.name()
                )));
            }
        }
    }
    let _ = (out, inputs);
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
