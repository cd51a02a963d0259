//! One run of a program under the `peak-rss` helper, for the pathological cases (issue 21):
//! its exit code, wall time and peak RSS, the first MiB of its standard output and the first
//! 4 KiB of its standard error, killed (with its process group) past a time limit that only
//! catches hangs.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How much standard output a run keeps.
const KEEP: usize = 1 << 20;

/// What one run gave.
#[derive(Debug)]
pub struct Measured {
    /// The exit code (-1: none, killed by a signal).
    pub code: i32,
    /// Wall time, from the spawn of `peak-rss` to the end of the run.
    pub secs: f64,
    /// The program's peak resident set, MiB (rounded up); 0 when it was killed (unknown).
    pub peak_mib: u64,
    /// The first MiB of standard output.
    pub stdout: Vec<u8>,
    /// The first 4 KiB of standard error, lossily decoded.
    pub stderr: String,
    /// Whether it was killed at the time limit.
    pub hung: bool,
}

/// Runs `prog args` in `dir` under the `peak-rss` helper at `peak_rss` (`LC_ALL=C`), stdin
/// from `input` (`total` bytes of `blk` repeated, written on the fly) or nothing, and kills
/// it past `limit`.
///
/// # Panics
///
/// When the helper cannot be spawned, or wrote no report without being killed.
pub fn measure(
    peak_rss: &Path,
    dir: &Path,
    prog: &Path,
    args: &[&str],
    input: Option<(&[u8], u64)>,
    limit: Duration,
) -> Measured {
    let report = dir.join("rss-report.txt");
    let _ = std::fs::remove_file(&report);
    let start = Instant::now();
    let mut child = Command::new(peak_rss)
        .arg(&report)
        .arg(prog)
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", "C")
        .env_remove("NO_COLOR")
        .process_group(0)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn peak-rss");
    let writer =
        input.map(|(blk, total)| crate::feed_repeated(child.stdin.take().unwrap(), blk, total));
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let (mut head, mut buf) = (Vec::new(), vec![0; 1 << 16]);
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            if head.len() < KEEP {
                head.extend_from_slice(&buf[..n]);
            }
        }
        head
    });
    let mut err = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        String::from_utf8_lossy(&s[..s.len().min(4096)]).into_owned()
    });
    let hung = wait_or_kill(&mut child, limit);
    let secs = start.elapsed().as_secs_f64();
    if let Some(w) = writer {
        let _ = w.join();
    }
    let stdout = reader.join().unwrap();
    let stderr = err_reader.join().unwrap();
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    let f: Vec<i64> = text
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    let (code, peak_kib) = match f[..] {
        [c, k] => (c as i32, k as u64),
        _ if hung => (-1, 0),
        _ => panic!("{prog:?}: peak-rss wrote no report: {stderr}"),
    };
    Measured {
        code,
        secs,
        peak_mib: peak_kib.div_ceil(1024),
        stdout,
        stderr,
        hung,
    }
}

/// Kills `child` if it runs past `limit`: true when it did.
fn wait_or_kill(child: &mut Child, limit: Duration) -> bool {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return false;
        }
        if start.elapsed() > limit {
            // The whole process group: peak-rss and the program it runs (killing peak-rss
            // alone leaves the program holding the pipes, and the readers wait forever).
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            let _ = child.wait();
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
