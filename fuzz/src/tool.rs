//! Running a tool in this process, as a user would from a shell, with its standard output
//! and standard error captured: fds 1 and 2 point to two files of this process's work
//! directory for the call (rustix's safe `dup2_stdout`/`dup2_stderr`), then back.
//!
//! A panic inside the tool (a finding) puts the fds back before the panic message is
//! printed, so libFuzzer's report shows it.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// What one run of a tool gave.
#[derive(Debug)]
pub struct Output {
    /// The exit status (0, 1 or 2).
    pub status: u8,
    /// Everything written to standard output.
    pub stdout: Vec<u8>,
    /// Everything written to standard error.
    pub stderr: Vec<u8>,
}

struct Fds {
    saved_out: OwnedFd,
    saved_err: OwnedFd,
    out: File,
    err: File,
    dir: PathBuf,
}

static FDS: OnceLock<Fds> = OnceLock::new();
static REDIRECTED: AtomicBool = AtomicBool::new(false);

fn restore() {
    if REDIRECTED.swap(false, Ordering::SeqCst) {
        let _ = io::stdout().flush();
        if let Some(f) = FDS.get() {
            let _ = rustix::stdio::dup2_stdout(&f.saved_out);
            let _ = rustix::stdio::dup2_stderr(&f.saved_err);
        }
    }
}

fn fds() -> &'static Fds {
    FDS.get_or_init(|| {
        // tmpfs when there is one: truncating and rewriting files on a disk costs more than
        // the run of a tool on a few hundred bytes.
        let shm = Path::new("/dev/shm");
        let base = if shm.is_dir() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let dir = base.join(format!("utf8-fuzz-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("cwd")).expect("work directory");
        let open = |name: &str| {
            File::options()
                .read(true)
                .write(true)
                .create(true)
                .truncate(true)
                .open(dir.join(name))
                .expect("capture file")
        };
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            prev(info);
        }));
        Fds {
            saved_out: io::stdout()
                .as_fd()
                .try_clone_to_owned()
                .expect("dup stdout"),
            saved_err: io::stderr()
                .as_fd()
                .try_clone_to_owned()
                .expect("dup stderr"),
            out: open("stdout"),
            err: open("stderr"),
            dir,
        }
    })
}

/// This process's work directory (under `/dev/shm` or the temporary directory, made once):
/// targets write their input files here. Its `cwd/` subdirectory starts empty.
pub fn work_dir() -> &'static Path {
    &fds().dir
}

/// Writes `bytes` to the file `name` of [`work_dir`] and gives its path.
pub fn write_input(name: &str, bytes: &[u8]) -> PathBuf {
    let p = work_dir().join(name);
    std::fs::write(&p, bytes).expect("write input");
    p
}

fn take(mut f: &File) -> Vec<u8> {
    let mut v = Vec::new();
    f.seek(SeekFrom::Start(0)).expect("seek");
    f.read_to_end(&mut v).expect("read capture");
    v
}

fn reset(mut f: &File) {
    f.set_len(0).expect("truncate capture");
    f.seek(SeekFrom::Start(0)).expect("seek");
}

/// Runs `main` (a tool's `main_with`) with `args` (the program name first), fds 1 and 2
/// captured.
pub fn run(main: impl FnOnce(Vec<OsString>) -> ExitCode, args: &[OsString]) -> Output {
    let f = fds();
    reset(&f.out);
    reset(&f.err);
    let _ = io::stdout().flush();
    rustix::stdio::dup2_stdout(&f.out).expect("redirect stdout");
    rustix::stdio::dup2_stderr(&f.err).expect("redirect stderr");
    REDIRECTED.store(true, Ordering::SeqCst);
    let code = main(args.to_vec());
    restore();
    let status = (0..=255u8)
        .find(|&n| code == ExitCode::from(n))
        .expect("an exit status");
    Output {
        status,
        stdout: take(&f.out),
        stderr: take(&f.err),
    }
}

/// An argument from bytes.
pub fn arg(bytes: impl AsRef<[u8]>) -> OsString {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::OsStr::from_bytes(bytes.as_ref()).to_os_string()
}
