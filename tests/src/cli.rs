//! Running the built binaries from end-to-end tests, shell-like.
//!
//! Binaries are found in `UTF8_TOOLS_BIN_DIR` when set (installed binaries), else beside
//! the test executable (`target/<profile>/`, whatever `CARGO_TARGET_DIR` is); in that case
//! they are built once per test process with `cargo build -p utf8-tools --bins`, so
//! `cargo test -p utf8-tests` never runs stale binaries.

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The directory holding the binaries under test.
///
/// # Panics
///
/// When the binaries cannot be found or built: the message says how to fix it.
pub fn bin_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        if let Some(dir) = std::env::var_os("UTF8_TOOLS_BIN_DIR") {
            return PathBuf::from(dir);
        }
        let exe = std::env::current_exe().expect("the test executable's path");
        // target/<profile>/deps/e2e-HASH -> target/<profile>
        let deps = exe.parent().expect("deps directory");
        let profile_dir = deps.parent().expect("profile directory").to_path_buf();
        build_bins(&profile_dir);
        profile_dir
    })
    .clone()
}

fn build_bins(profile_dir: &Path) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--quiet", "-p", "utf8-tools", "--bins"]);
    match profile_dir.file_name().and_then(OsStr::to_str) {
        Some("debug") | None => {}
        Some("release") => {
            cmd.arg("--release");
        }
        Some(other) => {
            cmd.args(["--profile", other]);
        }
    }
    if let Some(target) = profile_dir.parent() {
        cmd.env("CARGO_TARGET_DIR", target);
    }
    let status = cmd.status();
    assert!(
        matches!(status, Ok(s) if s.success()),
        "could not build the utf8-tools binaries ({status:?}); build them with \
         `cargo build -p utf8-tools` or set UTF8_TOOLS_BIN_DIR to where they are installed"
    );
}

/// The path of binary `name` (e.g. `"utf8-count"`).
///
/// # Panics
///
/// When it does not exist.
pub fn bin(name: &str) -> PathBuf {
    let path = bin_dir().join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is missing: run `cargo build -p utf8-tools` or set UTF8_TOOLS_BIN_DIR",
        path.display()
    );
    path
}

/// A command to run one of the binaries, with stdin bytes and a working directory.
#[derive(Debug)]
pub struct TestCommand {
    cmd: Command,
    stdin: Vec<u8>,
}

/// What a finished command gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The exit code (`-1` when killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: Vec<u8>,
    /// Standard error.
    pub stderr: Vec<u8>,
}

impl TestCommand {
    /// A command running binary `name` in directory `dir`, with a clean color environment.
    pub fn new(name: &str, dir: &Path) -> TestCommand {
        TestCommand::program(bin(name), dir)
    }

    /// A command running `program` (a peer on `PATH`, such as GNU grep) as [`TestCommand::new`]
    /// runs ours.
    pub fn program(program: impl AsRef<OsStr>, dir: &Path) -> TestCommand {
        let mut cmd = Command::new(program);
        cmd.current_dir(dir)
            .env_remove("NO_COLOR")
            .env("LC_ALL", "C");
        TestCommand {
            cmd,
            stdin: Vec::new(),
        }
    }

    /// Adds arguments.
    pub fn args<I, S>(&mut self, args: I) -> &mut TestCommand
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.cmd.args(args);
        self
    }

    /// Sets an environment variable.
    pub fn env(&mut self, key: &str, value: &str) -> &mut TestCommand {
        self.cmd.env(key, value);
        self
    }

    /// Bytes to write to standard input.
    pub fn stdin(&mut self, bytes: impl AsRef<[u8]>) -> &mut TestCommand {
        self.stdin = bytes.as_ref().to_vec();
        self
    }

    /// The underlying command (to redirect stdout to a file, for instance).
    pub fn command(&mut self) -> &mut Command {
        &mut self.cmd
    }

    /// Spawns the command with piped stdio and a thread writing its standard input.
    fn spawn(&mut self) -> (std::process::Child, std::thread::JoinHandle<()>) {
        let mut child = self
            .cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the binary");
        let mut stdin = child.stdin.take().expect("stdin");
        let input = std::mem::take(&mut self.stdin);
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        (child, writer)
    }

    /// Runs the command to the end.
    ///
    /// # Panics
    ///
    /// When it cannot be spawned.
    pub fn run(&mut self) -> Outcome {
        let (child, writer) = self.spawn();
        let out = child.wait_with_output().expect("wait for the binary");
        let _ = writer.join();
        Outcome {
            code: out.status.code().unwrap_or(-1),
            stdout: out.stdout,
            stderr: out.stderr,
        }
    }

    /// Runs the command reading only `keep` bytes of its output before closing the pipe,
    /// as `| head -c KEEP`; returns the outcome with what was read.
    ///
    /// # Panics
    ///
    /// When it cannot be spawned.
    pub fn run_head(&mut self, keep: usize) -> Outcome {
        let (mut child, writer) = self.spawn();
        let mut stdout = child.stdout.take().expect("stdout");
        let mut head = vec![0; keep];
        let _ = stdout.read_exact(&mut head);
        drop(stdout);
        let mut stderr = Vec::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = e.read_to_end(&mut stderr);
        }
        let status = child.wait().expect("wait for the binary");
        let _ = writer.join();
        Outcome {
            code: status.code().unwrap_or(-1),
            stdout: head,
            stderr,
        }
    }
}

impl Outcome {
    /// Standard output as text (lossy).
    pub fn out(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Standard error as text (lossy).
    pub fn err(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// Asserts the exit code, showing everything on failure.
    ///
    /// # Panics
    ///
    /// When the code differs.
    #[track_caller]
    pub fn assert_code(&self, code: i32) -> &Outcome {
        assert_eq!(
            self.code,
            code,
            "exit code\n--- stdout\n{}--- stderr\n{}",
            self.out(),
            self.err()
        );
        self
    }

    /// Exit code, stdout and stderr in one text, for one insta snapshot.
    pub fn snapshot(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code,
            self.out(),
            self.err()
        )
    }
}
