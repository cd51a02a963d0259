//! The machine a benchmark runs on, its load, and the versions of the programs it times:
//! what `bench` and `bench-lib` write under their tables.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::SystemTime;

use crate::workspace;

/// The machine a benchmark ran on, and its load.
pub struct Machine {
    /// The CPU's model name.
    pub cpu: String,
    /// Cores available to this process.
    pub cores: usize,
    /// Its SIMD extensions among SSE4.2, AVX2 and AVX-512.
    pub flags: String,
    /// Total memory.
    pub memory: String,
    /// The kernel.
    pub kernel: String,
    /// The date and time (UTC) of the run.
    pub date: String,
    /// The load averages at the start.
    pub load_start: String,
    /// The load averages at the end (set by the caller).
    pub load_end: String,
}

/// The load averages of `/proc/loadavg` (1, 5, 15 min).
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

/// The 1-minute load average of a `load_average()` string.
pub fn load1(s: &str) -> Option<f64> {
    s.split_whitespace().next()?.parse().ok()
}

/// The machine, the date and the load now.
pub fn machine() -> Machine {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        cpuinfo
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_owned())
    };
    let flags = field("flags").unwrap_or_default();
    let simd: Vec<&str> = ["sse4_2", "avx2", "avx512f", "avx512bw", "avx512vbmi"]
        .into_iter()
        .filter(|f| flags.split_whitespace().any(|x| x == *f))
        .collect();
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let kib: u64 = m.lines().next()?.split_whitespace().nth(1)?.parse().ok()?;
            Some(format!("{} GiB", (kib + (1 << 19)) >> 20))
        })
        .unwrap_or_else(|| "unknown".to_owned());
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|s| format!("Linux {}", s.trim()))
        .unwrap_or_else(|_| std::env::consts::OS.to_owned());
    let secs = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    Machine {
        cpu: field("model name").unwrap_or_else(|| std::env::consts::ARCH.to_owned()),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        flags: if simd.is_empty() {
            "none of SSE4.2/AVX2/AVX-512".to_owned()
        } else {
            simd.join(" ")
        },
        memory,
        kernel,
        date: format!(
            "{} {:02}:{:02} UTC",
            workspace::iso_date(secs),
            secs / 3600 % 24,
            secs / 60 % 60
        ),
        load_start: load_average(),
        load_end: String::new(),
    }
}

/// The first line of `PROGRAM --version`.
pub fn version(program: &Path) -> String {
    Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()
        .map(|o| {
            let all = [o.stdout, o.stderr].concat();
            String::from_utf8_lossy(&all)
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("?")
                .trim()
                .to_owned()
        })
        .unwrap_or_else(|| "?".to_owned())
}
