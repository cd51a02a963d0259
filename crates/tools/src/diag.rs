//! Diagnostics on stderr: `PROGRAM: PATH: MESSAGE`, and [`ToolError`], which carries the
//! context (the path) with the I/O error it wraps.

use std::cell::RefCell;
use std::fmt;
use std::io::{self, BufWriter, StdoutLock, Write};
use std::rc::{Rc, Weak};

use crate::capture::Capture;
use crate::exit::Status;

/// The text of an I/O error as a diagnostic shows it: the OS message without Rust's
/// `" (os error N)"` suffix, e.g. `No such file or directory`.
///
/// ```
/// use std::io;
/// let e = io::Error::from_raw_os_error(2);
/// assert_eq!(utf8_tools::diag::io_message(&e), "No such file or directory");
/// ```
pub fn io_message(err: &io::Error) -> String {
    let mut text = err.to_string();
    // The tempfile crate names its temporary file after the OS's message (` at path
    // "..."`): a path the user never gave, gone by the time it is read.
    if let Some(i) = text.find(" at path \"") {
        text.truncate(i);
    }
    match text.rfind(" (os error ") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text,
    }
}

/// Standard output's buffer.
pub(crate) type Buffered = BufWriter<StdoutLock<'static>>;

std::thread_local! {
    /// The buffer of this thread's newest [`crate::output::Output`] on standard output,
    /// which [`flush_before_diagnostic`] empties.
    static PENDING: RefCell<Weak<RefCell<Buffered>>> = const { RefCell::new(Weak::new()) };
}

/// Writes out what this thread's standard output holds, before a diagnostic goes to
/// standard error, as GNU's `error()` flushes stdout first: through one pipe (`2>&1 | cat`)
/// the lines stay in the order they were made. A write error here is left for the output's
/// next write to report.
pub(crate) fn flush_before_diagnostic() {
    PENDING.with(|p| {
        if let Some(w) = p.borrow().upgrade()
            && let Ok(mut w) = w.try_borrow_mut()
        {
            let _ = w.flush();
        }
    });
}

/// Makes `w` the buffer [`flush_before_diagnostic`] empties on this thread.
pub(crate) fn flush_first(w: &Rc<RefCell<Buffered>>) {
    PENDING.with(|p| *p.borrow_mut() = Rc::downgrade(w));
}

/// An error with the context where it happened; its variant alone decides the exit status
/// (always [`Status::Trouble`]) and whether "try --help" is shown.
#[derive(Debug)]
pub enum ToolError {
    /// Reading or opening an input failed: `PROGRAM: PATH: MESSAGE`.
    Input {
        /// The input as diagnostics name it (`-` for stdin).
        path: String,
        /// What went wrong.
        message: String,
    },
    /// Writing the output failed (not a closed pipe, which ends quietly).
    Output(io::Error),
    /// The command line was wrong in a way clap could not see.
    Usage(String),
}

impl ToolError {
    /// An input error from an I/O error, with the path for context.
    ///
    /// ```
    /// use utf8_tools::diag::ToolError;
    /// let e = ToolError::input("a.txt", &std::io::Error::from_raw_os_error(21));
    /// assert_eq!(e.to_string(), "a.txt: Is a directory");
    /// ```
    pub fn input(path: impl Into<String>, err: &io::Error) -> ToolError {
        ToolError::Input {
            path: path.into(),
            message: io_message(err),
        }
    }

    /// The exit status this error leads to.
    ///
    /// ```
    /// use utf8_tools::{diag::ToolError, exit::Status};
    /// assert_eq!(ToolError::Usage("bad".into()).status(), Status::Trouble);
    /// ```
    pub fn status(&self) -> Status {
        Status::Trouble
    }

    /// Whether this is an output error caused by a closed pipe (`| head`): it ends the
    /// program quietly, with the status of what was found so far.
    ///
    /// ```
    /// use std::io;
    /// use utf8_tools::diag::ToolError;
    /// let e = ToolError::Output(io::Error::from(io::ErrorKind::BrokenPipe));
    /// assert!(e.is_broken_pipe());
    /// ```
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, ToolError::Output(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolError::Input { path, message } => write!(f, "{path}: {message}"),
            ToolError::Output(e) => write!(f, "write error: {}", io_message(e)),
            ToolError::Usage(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ToolError {}

impl From<io::Error> for ToolError {
    /// A bare I/O error is taken to come from writing the output.
    fn from(e: io::Error) -> ToolError {
        ToolError::Output(e)
    }
}

/// Where a program's diagnostics go: its name and a record of the worst status so far.
///
/// Per-input trouble is shown once with [`Diag::error`] and the loop continues, as uucore's
/// `show!`; the recorded status is the program's exit status.
#[derive(Debug)]
pub struct Diag {
    program: &'static str,
    status: Status,
    /// Lines kept instead of written ([`Diag::capturing`]).
    capture: Option<Capture>,
}

impl Diag {
    /// Diagnostics for `program` (e.g. `"utf8-count"`), status 0 so far.
    ///
    /// ```
    /// let d = utf8_tools::diag::Diag::new("utf8-count");
    /// assert_eq!(d.program(), "utf8-count");
    /// ```
    pub const fn new(program: &'static str) -> Diag {
        Diag {
            program,
            status: Status::Success,
            capture: None,
        }
    }

    /// Diagnostics for `program` kept in `capture` (shared with the thread's
    /// [`crate::output::Output::capturing`]) instead of written.
    pub fn capturing(program: &'static str, capture: Capture) -> Diag {
        Diag {
            capture: Some(capture),
            ..Diag::new(program)
        }
    }

    /// The program name that starts every diagnostic.
    pub const fn program(&self) -> &'static str {
        self.program
    }

    /// The worst status recorded so far.
    pub const fn status(&self) -> Status {
        self.status
    }

    /// Records a status without printing anything (e.g. [`Status::False`] for an invalid
    /// input under `--check`).
    pub fn record(&mut self, status: Status) {
        self.status.merge(status);
    }

    /// Prints `PROGRAM: ERROR` on stderr and records the error's status.
    ///
    /// A failure to write to stderr is ignored: there is nowhere left to say it.
    pub fn error(&mut self, err: &ToolError) {
        self.record(err.status());
        self.line(format_args!("{err}"));
    }

    /// Prints `PROGRAM: MESSAGE` on stderr without recording a status, after what standard
    /// output holds (as GNU's `error()` does).
    pub fn line(&self, message: fmt::Arguments<'_>) {
        if self.capture.is_some() {
            self.raw_line(&format!("{}: {}", self.program, message));
            return;
        }
        flush_before_diagnostic();
        let mut stderr = io::stderr().lock();
        let _ = writeln!(stderr, "{}: {}", self.program, message);
    }

    /// Writes one already formatted line (an error report) on stderr.
    pub fn raw_line(&self, line: &str) {
        if let Some(c) = &self.capture {
            let mut c = c.borrow_mut();
            let at = c.out.len();
            c.err.push((at, line.to_string()));
            return;
        }
        flush_before_diagnostic();
        let mut stderr = io::stderr().lock();
        let _ = writeln!(stderr, "{line}");
    }
}
