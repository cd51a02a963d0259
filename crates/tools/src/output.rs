//! Standard output and the one exit path: a closed pipe ends quietly with the status of what
//! was found; any other write error is one diagnostic and exit 2.

use std::cell::RefCell;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::rc::Rc;

use crate::capture::{Capture, Spill};
use crate::diag::{Buffered, Diag, ToolError};
use crate::exit::Status;

/// Buffered standard output, or memory standing in for it ([`Output::capturing`]). Write
/// errors propagate as [`ToolError::Output`] through `?`.
pub struct Output {
    inner: Inner,
}

enum Inner {
    /// Standard output, flushed after each write that ends a line when `lines` is set (a
    /// terminal, as GNU grep's and ripgrep's are, or [`Output::flush_lines`]): a search
    /// shows what it found as it goes, not 64 KiB at a time.
    Stdout {
        w: Rc<RefCell<Buffered>>,
        lines: bool,
    },
    /// Captured, handed to `spill` each time more than `limit` bytes are held, or with
    /// `lines` at each write that ends a line.
    Memory {
        capture: Capture,
        limit: usize,
        spill: Spill,
        lines: bool,
    },
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.inner {
            Inner::Stdout { .. } => f.write_str("Output(stdout)"),
            Inner::Memory { limit, .. } => write!(f, "Output(memory, limit {limit})"),
        }
    }
}

impl Default for Output {
    fn default() -> Output {
        Output::new()
    }
}

impl Output {
    /// Locks stdout and buffers it (a line at a time on a terminal).
    pub fn new() -> Output {
        use std::io::IsTerminal;
        let stdout = io::stdout();
        let lines = stdout.is_terminal();
        let w = Rc::new(RefCell::new(BufWriter::with_capacity(
            64 * 1024,
            stdout.lock(),
        )));
        crate::diag::flush_first(&w);
        Output {
            inner: Inner::Stdout { lines, w },
        }
    }

    /// [`Output::new`], each line flushed as it is written when `line_buffered` (the tools'
    /// `--line-buffered`) as on a terminal.
    pub fn stdout(line_buffered: bool) -> Output {
        let mut out = Output::new();
        if line_buffered {
            out.flush_lines();
        }
        out
    }

    /// Flushes standard output after each write that ends a line, terminal or not (GNU
    /// grep's `--line-buffered`); a capturing output hands over what it holds then.
    pub fn flush_lines(&mut self) {
        match &mut self.inner {
            Inner::Stdout { lines, .. } | Inner::Memory { lines, .. } => *lines = true,
        }
    }

    /// Whether each line is flushed as it is written ([`Output::flush_lines`], or standard
    /// output on a terminal).
    pub fn flushes_lines(&self) -> bool {
        match &self.inner {
            Inner::Stdout { lines, .. } | Inner::Memory { lines, .. } => *lines,
        }
    }

    /// An output kept in `capture` (shared with the thread's [`Diag::capturing`]); when it
    /// holds more than `limit` bytes, what it holds is taken and given to `spill`.
    pub fn capturing(capture: Capture, limit: usize, spill: Spill) -> Output {
        Output {
            inner: Inner::Memory {
                capture,
                limit,
                spill,
                lines: false,
            },
        }
    }

    /// Writes one line (a newline is added).
    ///
    /// # Errors
    ///
    /// [`ToolError::Output`] when writing fails.
    pub fn line(&mut self, s: &str) -> Result<(), ToolError> {
        self.write_all(s.as_bytes())?;
        self.write_all(b"\n")?;
        Ok(())
    }

    /// Notes that a group of lines that begins the output of an input takes a `--` first
    /// if another input printed anything before it. Only a capturing output keeps the
    /// note (for [`crate::capture::Captured::leading_gap`]); standard output ignores it.
    pub fn leading_gap(&mut self) {
        if let Inner::Memory { capture, .. } = &self.inner {
            capture.borrow_mut().leading_gap = true;
        }
    }

    /// Flushes the buffer.
    ///
    /// # Errors
    ///
    /// [`ToolError::Output`] when writing fails (e.g. `/dev/full`, a closed pipe).
    pub fn flush(&mut self) -> Result<(), ToolError> {
        Write::flush(self).map_err(ToolError::Output)
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.inner {
            Inner::Stdout { w, lines } => {
                let mut w = w.borrow_mut();
                w.write_all(buf)?;
                if *lines && memchr::memchr(b'\n', buf).is_some() {
                    w.flush()?;
                }
                Ok(())
            }
            Inner::Memory {
                capture,
                limit,
                spill,
                lines,
            } => {
                let full = {
                    let mut c = capture.borrow_mut();
                    c.out.extend_from_slice(buf);
                    c.out.len() > *limit || (*lines && memchr::memchr(b'\n', buf).is_some())
                };
                if full {
                    spill(std::mem::take(&mut *capture.borrow_mut()))?;
                }
                Ok(())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Inner::Stdout { w, .. } => w.borrow_mut().flush(),
            Inner::Memory { .. } => Ok(()),
        }
    }
}

/// The exit status of a run: the recorded status when `result` is `Ok` or a closed pipe;
/// otherwise the error is shown once (with "Try '... --help'" for usage errors) and the
/// status is 2.
pub fn conclude(diag: &mut Diag, result: Result<(), ToolError>) -> ExitCode {
    match result {
        Ok(()) => {}
        Err(e) if e.is_broken_pipe() => {}
        Err(e @ ToolError::Usage(_)) => {
            diag.error(&e);
            let program = diag.program();
            diag.raw_line(&format!("Try '{program} --help' for more information."));
        }
        Err(e) => diag.error(&e),
    }
    diag.status().into()
}

std::thread_local! {
    /// The clap commands this thread has parsed with, by the type they parse into: a tool
    /// run in-process again and again (the fuzz targets, tests) builds its definition once.
    /// clap's `try_get_matches_from_mut` is made for such reuse.
    static COMMANDS: std::cell::RefCell<Vec<(std::any::TypeId, clap::Command)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Parses the command line with clap, or gives the exit status of `--help`, `--version`
/// (0) and of usage errors (2), having printed them. A closed stdout is not an error here;
/// any other failure to write the help or the version is, as in GNU tools
/// (`utf8-grep --help > /dev/full`: `utf8-grep: write error: No space left on device`, 2).
///
/// # Errors
///
/// The exit code to return when the program should not go on.
pub fn parse<P: clap::Parser + 'static>(
    program: &str,
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Result<P, ExitCode> {
    parse_with_matches(program, args).map(|(p, _)| p)
}

/// [`parse`], also giving clap's matches (for the order of the options given).
///
/// # Errors
///
/// The exit code to return when the program should not go on.
pub fn parse_with_matches<P: clap::Parser + 'static>(
    program: &str,
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Result<(P, clap::ArgMatches), ExitCode> {
    let key = std::any::TypeId::of::<P>();
    let cached = COMMANDS.with_borrow_mut(|c| {
        let i = c.iter().position(|(k, _)| *k == key)?;
        Some(c.swap_remove(i).1)
    });
    let mut cmd = cached.unwrap_or_else(<P as clap::CommandFactory>::command);
    let args: Vec<std::ffi::OsString> = args.into_iter().collect();
    // clap names the program after the first argument only while it has no name yet (and
    // keeps its own name where that argument has none).
    let name = args
        .first()
        .and_then(|a| std::path::Path::new(a).file_name())
        .and_then(|f| f.to_str())
        .unwrap_or(cmd.get_name())
        .to_string();
    cmd.set_bin_name(name);
    let parsed = cmd.try_get_matches_from_mut(&args).and_then(|m| {
        let p =
            <P as clap::FromArgMatches>::from_arg_matches(&m).map_err(|e| e.format(&mut cmd))?;
        Ok((p, m))
    });
    let getopt = parsed
        .as_ref()
        .err()
        .and_then(|e| crate::args::getopt_message(&cmd, e, &args));
    COMMANDS.with_borrow_mut(|c| c.push((key, cmd)));
    parsed.map_err(|e| {
        if let Some(message) = getopt {
            let mut stderr = io::stderr().lock();
            let _ = writeln!(
                stderr,
                "{program}: {message}\nTry '{program} --help' for more information."
            );
            return Status::Trouble.into();
        }
        if e.use_stderr() {
            let mut stderr = io::stderr().lock();
            let _ = writeln!(
                stderr,
                "{program}: {}\nTry '{program} --help' for more information.",
                clap_message(&e)
            );
            return Status::Trouble.into();
        }
        let mut stdout = io::stdout().lock();
        let written = write!(stdout, "{}", e.render()).and_then(|()| stdout.flush());
        match written {
            Err(err) if err.kind() != io::ErrorKind::BrokenPipe => {
                let mut stderr = io::stderr().lock();
                let _ = writeln!(
                    stderr,
                    "{program}: write error: {}",
                    crate::diag::io_message(&err)
                );
                Status::Trouble.into()
            }
            _ => Status::Success.into(),
        }
    })
}

/// clap's message for `e` without its `error: `, styles and advice: the line that follows
/// the program's name in a usage error, as GNU's tools write it (with the list of valid
/// arguments under it, for the value parsers that write one as gnulib's argmatch does).
///
/// ```
/// use clap::Parser;
///
/// #[derive(Debug, Parser)]
/// struct Args {
///     #[arg(long, conflicts_with = "b")]
///     a: bool,
///     #[arg(long)]
///     b: bool,
/// }
/// let e = Args::try_parse_from(["t", "--a", "--b"]).unwrap_err();
/// assert_eq!(
///     utf8_tools::output::clap_message(&e),
///     "the argument '--a' cannot be used with '--b'"
/// );
/// ```
pub fn clap_message(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    let text = e.render().to_string();
    // The message is its first paragraph: one line, or an argmatch list of valid values
    // that a value parser of ours wrote under it, as GNU's tools do; clap's own lines
    // (`[possible values: ...]`, `tip: ...`) are left out.
    let lines: Vec<&str> = text
        .trim_start()
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| {
            !l.trim_start().starts_with("[possible values") && !l.trim_start().starts_with("tip:")
        })
        .collect();
    let text = lines.join("\n");
    let mut m = text
        .strip_prefix("error: ")
        .unwrap_or(&text)
        .trim_end()
        .to_string();
    if let Some(ContextValue::Strings(valid)) = e.get(ContextKind::ValidValue) {
        let names: Vec<String> = valid.iter().map(|v| format!("'{v}'")).collect();
        m.push_str(&format!("; valid arguments are {}", names.join(", ")));
    }
    m
}

/// A tool from its command line to its exit status: [`parse`] the arguments as `P`, validate
/// them into the tool's configuration `C` (`C::try_from(&P)`), `run` it with the tool's
/// diagnostics, and [`conclude`].
///
/// ```
/// use std::process::ExitCode;
/// use utf8_tools::diag::ToolError;
/// use utf8_tools::output::run_tool;
///
/// #[derive(clap::Parser)]
/// struct Args {
///     #[arg(long)]
///     width: u8,
/// }
/// struct Config {
///     width: u8,
/// }
/// impl TryFrom<&Args> for Config {
///     type Error = ToolError;
///     fn try_from(a: &Args) -> Result<Config, ToolError> {
///         match a.width {
///             0 => Err(ToolError::Usage("--width must be positive".to_string())),
///             width => Ok(Config { width }),
///         }
///     }
/// }
/// let code = run_tool::<Args, Config>("demo", ["demo", "--width", "3"].map(Into::into), |c, _| {
///     assert_eq!(c.width, 3);
///     Ok(())
/// });
/// assert_eq!(code, ExitCode::SUCCESS);
/// let code = run_tool::<Args, Config>("demo", ["demo", "--width", "0"].map(Into::into), |_, _| {
///     unreachable!("an invalid command line does not run")
/// });
/// assert_eq!(code, ExitCode::from(2));
/// ```
pub fn run_tool<P, C>(
    program: &'static str,
    args: impl IntoIterator<Item = std::ffi::OsString>,
    run: impl FnOnce(C, &mut Diag) -> Result<(), ToolError>,
) -> ExitCode
where
    P: clap::Parser + 'static,
    C: for<'a> TryFrom<&'a P, Error = ToolError>,
{
    let args: P = match parse(program, args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let mut diag = Diag::new(program);
    let result = C::try_from(&args).and_then(|cfg| run(cfg, &mut diag));
    conclude(&mut diag, result)
}

#[cfg(test)]
mod tests {
    /// The cached clap command keeps nothing of one parse for the next: values, defaults and
    /// errors are each call's own.
    #[test]
    fn parses_on_one_thread_are_independent() {
        #[derive(clap::Parser, Debug, PartialEq)]
        #[command(name = "demo")]
        struct Args {
            #[arg(long, default_value_t = 7)]
            width: u8,
            #[arg(short)]
            verbose: bool,
            files: Vec<String>,
        }
        let parse = |args: &[&str]| {
            super::parse::<Args>("demo", args.iter().map(|a| a.into())).map_err(|_| ())
        };
        let first = parse(&["demo", "--width", "3", "-v", "a", "b"]);
        assert_eq!(
            first,
            Ok(Args {
                width: 3,
                verbose: true,
                files: vec!["a".into(), "b".into()]
            })
        );
        assert_eq!(
            parse(&["other", "c"]),
            Ok(Args {
                width: 7,
                verbose: false,
                files: vec!["c".into()]
            })
        );
        assert_eq!(parse(&["demo", "--width", "x"]), Err(()));
        // No usable program name: the command's own, not the last one given.
        assert!(parse(&["/bin/other"]).is_ok());
        super::COMMANDS.with_borrow(|c| assert_eq!(c[0].1.get_bin_name(), Some("other")));
        assert!(parse(&[""]).is_ok());
        super::COMMANDS.with_borrow(|c| assert_eq!(c[0].1.get_bin_name(), Some("demo")));
        assert_eq!(
            parse(&["demo"]),
            Ok(Args {
                width: 7,
                verbose: false,
                files: vec![]
            })
        );
        super::COMMANDS.with_borrow(|c| {
            assert_eq!(c.len(), 1);
            assert_eq!(c[0].1.get_bin_name(), Some("demo"));
        });
    }
}
