//! Measuring: one command line ([`Cmd`]), run as a whole process under this binary's hidden
//! `__measure` task, timed and its peak RSS read; a warmup, then rounds of every command in
//! turn.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

use crate::workspace::Result;

/// The median of `xs` (the mean of the two middle values for an even count).
///
/// # Panics
///
/// When `xs` is empty.
pub fn median(xs: &[Duration]) -> Duration {
    assert!(!xs.is_empty(), "median of nothing");
    let mut v = xs.to_vec();
    v.sort();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2
    }
}

/// `xtask __measure REPORT PROGRAM [ARG...]`: runs PROGRAM with this process's standard
/// streams, and writes `CODE NANOS PEAK_KIB` to REPORT: its exit code (128 + signal), its
/// wall time from spawn to exit, and its peak RSS ([`utf8_testkit::rss`]: the program is
/// this process's only child). Exit 125 when that fails.
pub fn measure_child(report: &Path, command: &[OsString]) -> ExitCode {
    let Some((program, args)) = command.split_first() else {
        eprintln!("usage: xtask __measure REPORT PROGRAM [ARG...]");
        return ExitCode::from(125);
    };
    let m = match utf8_testkit::rss::run(program, args) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("xtask __measure: {e}");
            return ExitCode::from(125);
        }
    };
    let line = format!("{} {} {}\n", m.code, m.wall.as_nanos(), m.peak_kib);
    if let Err(e) = std::fs::write(report, line) {
        eprintln!("xtask __measure: {}: {e}", report.display());
        return ExitCode::from(125);
    }
    ExitCode::SUCCESS
}

/// Where a command's standard output goes.
#[derive(Debug, Clone)]
pub enum Sink {
    /// A pipe this process drains, keeping the text.
    Pipe,
    /// A file in the bench directory.
    File(PathBuf),
}

/// One command line to time.
#[derive(Debug, Clone)]
pub struct Cmd {
    /// Short name for the tables: `utf8-count`, `wc -l`...
    pub label: String,
    /// The program run.
    pub program: PathBuf,
    /// How the program is shown (its name, not its path).
    pub shown: String,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// A file for standard input (else none).
    pub stdin: Option<PathBuf>,
    /// Where standard output goes.
    pub stdout: Sink,
    /// Exit codes that mean success.
    pub ok: &'static [i32],
}

impl Cmd {
    /// A command reading nothing, writing to a pipe, successful with exit code 0.
    pub fn new(
        label: &str,
        program: &Path,
        shown: &str,
        args: &[&dyn AsRef<std::ffi::OsStr>],
    ) -> Cmd {
        Cmd {
            label: label.to_owned(),
            program: program.to_owned(),
            shown: shown.to_owned(),
            args: args.iter().map(|a| a.as_ref().to_owned()).collect(),
            stdin: None,
            stdout: Sink::Pipe,
            ok: &[0],
        }
    }

    /// The command as one would type it in the bench directory.
    pub fn display(&self) -> String {
        let mut s = self.shown.clone();
        for a in &self.args {
            s.push(' ');
            s.push_str(&shell_quote(&file_or_arg(a)));
        }
        if let Some(p) = &self.stdin {
            write!(s, " < {}", file_or_arg(p.as_os_str())).ok();
        }
        if let Sink::File(p) = &self.stdout {
            write!(s, " > {}", file_or_arg(p.as_os_str())).ok();
        }
        s
    }
}

/// A path shown by its file name; anything else as it is.
pub fn file_or_arg(a: &std::ffi::OsStr) -> String {
    let p = Path::new(a);
    if p.is_absolute() {
        p.file_name().unwrap_or(a).to_string_lossy().into_owned()
    } else {
        a.to_string_lossy().into_owned()
    }
}

/// `s` quoted for a POSIX shell when it needs it.
pub fn shell_quote(s: &str) -> String {
    // Only NUL cannot be quoted, and no argument here holds one.
    shlex::try_quote(s).map_or_else(|_| s.to_owned(), |q| q.into_owned())
}

/// One run of a command.
pub struct RunResult {
    /// Wall time.
    pub wall: Duration,
    /// Peak RSS in KiB.
    pub peak_kib: u64,
    /// Standard output (pipes only).
    pub stdout: Vec<u8>,
}

/// Runs `cmd` once under `xtask __measure`, which writes its report to `report`.
///
/// # Errors
///
/// When the command cannot be measured or fails.
pub fn run_once(cmd: &Cmd, report: &Path) -> Result<RunResult> {
    let me = std::env::current_exe()?;
    let mut c = Command::new(me);
    c.arg("__measure")
        .arg(report)
        .arg(&cmd.program)
        .args(&cmd.args)
        .env("LC_ALL", "C.UTF-8")
        .current_dir(report.parent().unwrap_or(Path::new(".")))
        .stderr(Stdio::piped());
    c.stdin(match &cmd.stdin {
        Some(p) => Stdio::from(File::open(p)?),
        None => Stdio::null(),
    });
    c.stdout(match &cmd.stdout {
        Sink::Pipe => Stdio::piped(),
        Sink::File(p) => Stdio::from(File::create(p)?),
    });
    let _ = std::fs::remove_file(report);
    let out = c.spawn()?.wait_with_output()?;
    let text = std::fs::read_to_string(report).unwrap_or_default();
    let mut it = text.split_whitespace().map(|t| t.parse::<u128>().ok());
    let (Some(Some(code)), Some(Some(nanos)), Some(Some(peak))) = (it.next(), it.next(), it.next())
    else {
        return Err(format!(
            "{}: could not be measured: {}",
            cmd.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )
        .into());
    };
    let code = code as i32;
    if !cmd.ok.contains(&code) {
        return Err(format!(
            "{} exited with {code}: {}",
            cmd.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )
        .into());
    }
    Ok(RunResult {
        wall: Duration::from_nanos(nanos as u64),
        peak_kib: peak as u64,
        stdout: out.stdout,
    })
}

/// The timings of one command over a comparison.
pub struct Timed {
    /// The command.
    pub cmd: Cmd,
    /// Wall time of each timed run.
    pub walls: Vec<Duration>,
    /// The largest peak RSS, in KiB.
    pub peak_kib: u64,
    /// Standard output of the last run (pipes only).
    pub stdout: Vec<u8>,
}

impl Timed {
    /// The median wall time.
    pub fn median(&self) -> Duration {
        median(&self.walls)
    }
}

/// [`time_all`] for comparison `name`, said first on standard output, with the measuring
/// report in `dir`.
///
/// # Errors
///
/// As [`run_once`].
pub fn time_named(name: &str, cmds: &[Cmd], runs: usize, dir: &Path) -> Result<Vec<Timed>> {
    println!(
        "bench: {name}: {} commands, 1 warmup + {runs} runs each",
        cmds.len()
    );
    time_all(cmds, runs, &dir.join("measure.report"))
}

/// One warmup of every command, then `runs` rounds of every command in turn.
///
/// # Errors
///
/// As [`run_once`].
pub fn time_all(cmds: &[Cmd], runs: usize, report: &Path) -> Result<Vec<Timed>> {
    let mut timed: Vec<Timed> = cmds
        .iter()
        .map(|c| Timed {
            cmd: c.clone(),
            walls: Vec::new(),
            peak_kib: 0,
            stdout: Vec::new(),
        })
        .collect();
    for round in 0..=runs {
        for t in &mut timed {
            let r = run_once(&t.cmd, report)?;
            if round > 0 {
                t.walls.push(r.wall);
            }
            t.peak_kib = t.peak_kib.max(r.peak_kib);
            t.stdout = r.stdout;
        }
    }
    Ok(timed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::corpus::NEEDLE_CJK;

    #[test]
    fn median_of_odd_and_even_counts() {
        let ms = Duration::from_millis;
        assert_eq!(median(&[ms(5)]), ms(5));
        assert_eq!(median(&[ms(9), ms(1), ms(5)]), ms(5));
        assert_eq!(median(&[ms(4), ms(1), ms(100), ms(2)]), ms(3));
    }

    #[test]
    fn commands_display_as_typed_in_the_bench_dir() {
        let mut c = Cmd::new(
            "x",
            Path::new("/usr/bin/python3"),
            "python3",
            &[&"-c", &"print('a b')"],
        );
        c.stdin = Some(PathBuf::from("/t/bench/in.txt"));
        c.stdout = Sink::File(PathBuf::from("/t/bench/out.python3"));
        assert_eq!(
            c.display(),
            "python3 -c \"print('a b')\" < in.txt > out.python3"
        );
        let c = Cmd::new(
            "g",
            Path::new("/bin/grep"),
            "grep",
            &[&"-F", &NEEDLE_CJK, &Path::new("/t/m.txt")],
        );
        // shlex quotes every non-ASCII word (some, such as U+00A0, are not safe bare).
        assert_eq!(c.display(), "grep -F '東京都' m.txt");
        assert_eq!(shell_quote("a$b"), "'a$b'");
    }
}
