//! `cargo xtask dist` end to end: build the archive twice, unpack it, run what it holds.
//!
//! Slow (a release build with LTO), so ignored by default; `.ci/run` runs it as
//! `cargo test -p xtask -- --ignored dist`.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const TOOLS: [&str; 3] = ["utf8-count", "utf8-grep", "utf8-repair"];
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Runs `xtask dist`, returning the archive's path (from the "dist: wrote" line).
fn dist() -> PathBuf {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("dist")
        .stderr(Stdio::inherit())
        .output()
        .expect("run xtask dist");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "xtask dist failed: {}\n{stdout}",
        out.status
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("dist: wrote") && l.contains(".tar.gz"))
        .unwrap_or_else(|| panic!("no archive line in:\n{stdout}"));
    let path = line["dist: wrote ".len()..].split(" (").next().unwrap();
    PathBuf::from(path)
}

fn run(cmd: &mut Command, stdin: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {cmd:?}: {e}"));
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// The commit of HEAD, if this is a git checkout.
fn git_head() -> Option<String> {
    let out = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn have(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
#[ignore = "slow: a release build with LTO; run by .ci/run"]
fn dist_archive() {
    // Reproducible: a second run (an incremental, cheap build) gives the same bytes. The
    // binaries' --version names HEAD, so a commit landing between the two runs (another
    // worktree user) changes them: then the pair is run again.
    let mut attempts = 0;
    let (archive, bytes) = loop {
        attempts += 1;
        let head = git_head();
        let archive = dist();
        let bytes = std::fs::read(&archive).unwrap();
        let again = dist();
        assert_eq!(again, archive);
        let same = std::fs::read(&again).unwrap() == bytes;
        if !same && git_head() != head && attempts < 3 {
            eprintln!("dist_archive: HEAD moved during the two builds, building again");
            continue;
        }
        assert!(same, "two dist runs differ");
        break (archive, bytes);
    };
    let name = archive.file_name().unwrap().to_str().unwrap();
    let top = name.strip_suffix(".tar.gz").unwrap();
    assert!(top.starts_with(&format!("utf8-tools-{VERSION}-")), "{top}");

    // The entries: sorted, owned by 0:0 with empty names, one mtime, fixed modes.
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(bytes.as_slice()));
    let mut paths = Vec::new();
    let mut mtimes = BTreeSet::new();
    for entry in tar.entries().unwrap() {
        let entry = entry.unwrap();
        let h = entry.header();
        let path = entry.path().unwrap().display().to_string();
        let path = path.trim_end_matches('/').to_owned();
        assert_eq!((h.uid().unwrap(), h.gid().unwrap()), (0, 0), "{path}");
        assert_eq!(h.username().unwrap(), Some(""), "{path}");
        assert_eq!(h.groupname().unwrap(), Some(""), "{path}");
        let executable = h.entry_type().is_dir() || path.contains("/bin/");
        let want = if executable { 0o755 } else { 0o644 };
        assert_eq!(h.mode().unwrap(), want, "{path}");
        mtimes.insert(h.mtime().unwrap());
        paths.push(path);
    }
    assert_eq!(mtimes.len(), 1, "one mtime for every entry: {mtimes:?}");
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted, "entries are sorted");

    let mut want: BTreeSet<String> = BTreeSet::new();
    for dir in ["", "/bin", "/completions", "/man", "/man/man1"] {
        want.insert(format!("{top}{dir}"));
    }
    for file in ["README.md", "LICENSE-MIT", "LICENSE-APACHE"] {
        want.insert(format!("{top}/{file}"));
    }
    for tool in TOOLS {
        want.insert(format!("{top}/bin/{tool}"));
        want.insert(format!("{top}/man/man1/{tool}.1"));
        for file in [
            format!("{tool}.bash"),
            format!("_{tool}"),
            format!("{tool}.fish"),
            format!("{tool}.elv"),
            format!("_{tool}.ps1"),
        ] {
            want.insert(format!("{top}/completions/{file}"));
        }
    }
    let got: BTreeSet<String> = paths.into_iter().collect();
    assert_eq!(got, want);

    // SHA256SUMS beside the archive verifies with sha256sum -c.
    let dist_dir = archive.parent().unwrap();
    let sums = std::fs::read_to_string(dist_dir.join("SHA256SUMS")).unwrap();
    assert!(
        sums.lines().any(|l| l.ends_with(&format!("  {name}"))),
        "{sums}"
    );
    if have("sha256sum", "--version") {
        let out = Command::new("sha256sum")
            .args(["-c", "SHA256SUMS"])
            .current_dir(dist_dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "sha256sum -c: {out:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("{name}: OK")));
    } else {
        eprintln!("dist_archive: sha256sum not found, skipping sha256sum -c");
    }

    // Unpack and run what it holds.
    let tmp = tempfile::tempdir().unwrap();
    tar::Archive::new(flate2::read::GzDecoder::new(bytes.as_slice()))
        .unpack(tmp.path())
        .unwrap();
    let root = tmp.path().join(top);
    let bin = |tool: &str| Command::new(root.join("bin").join(tool));
    for tool in TOOLS {
        let out = run(bin(tool).arg("--version"), b"");
        assert!(out.status.success(), "{tool} --version: {out:?}");
        let line = String::from_utf8(out.stdout).unwrap();
        assert!(line.starts_with(&format!("{tool} {VERSION}")), "{line}");
    }
    let input = tmp.path().join("input.txt");
    std::fs::write(&input, b"caf\xc3\xa9\nbad \xed\xa0\x80 bytes\n").unwrap();

    let out = run(
        bin("utf8-count")
            .args(["--json", "--total=never"])
            .arg(&input),
        b"",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        text.contains("\"lines\": 2") || text.contains("\"lines\":2"),
        "{text}"
    );
    let out = run(bin("utf8-count").arg("--check").arg(&input), b"");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("surrogate"),
        "{out:?}"
    );

    let out = run(&mut bin("utf8-repair"), b"a\xffb\n");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, "a\u{FFFD}b\n".as_bytes());

    let out = run(bin("utf8-grep").args(["-n", "caf\u{e9}"]).arg(&input), b"");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, "1:caf\u{e9}\n".as_bytes());
    let out = run(bin("utf8-grep").args(["nowhere"]).arg(&input), b"");
    assert_eq!(out.status.code(), Some(1), "{out:?}");

    // Completions parse in the shells that are here.
    for (shell, ext) in [("bash", "bash"), ("zsh", ""), ("fish", "fish")] {
        if !have(shell, "--version") {
            eprintln!("dist_archive: {shell} not found, skipping its completions");
            continue;
        }
        for tool in TOOLS {
            let file = if ext.is_empty() {
                format!("_{tool}")
            } else {
                format!("{tool}.{ext}")
            };
            let path = root.join("completions").join(file);
            let out = Command::new(shell).arg("-n").arg(&path).output().unwrap();
            assert!(
                out.status.success(),
                "{shell} -n {}: {out:?}",
                path.display()
            );
        }
    }

    // Man pages render without warnings.
    for tool in TOOLS {
        let page = root.join("man/man1").join(format!("{tool}.1"));
        let text = std::fs::read_to_string(&page).unwrap();
        for section in [
            "DESCRIPTION",
            "OPTIONS",
            "EXIT STATUS",
            "ERROR KINDS",
            "EXAMPLES",
        ] {
            assert!(
                text.contains(&format!(".SH \"{section}\""))
                    || text.contains(&format!(".SH {section}")),
                "{tool}: no {section}"
            );
        }
        check_man(&page);
    }

    // `--generate` prints what the archive holds: the man page but for its date line, and
    // every completion script byte for byte.
    let without_date = |page: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(page)
            .lines()
            .filter(|l| !l.starts_with(".TH "))
            .map(String::from)
            .collect()
    };
    for tool in TOOLS {
        let out = run(bin(tool).args(["--generate", "man"]), b"");
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let page = std::fs::read(root.join("man/man1").join(format!("{tool}.1"))).unwrap();
        assert_eq!(without_date(&out.stdout), without_date(&page), "{tool}");
        for (kind, file) in [
            ("complete-bash", format!("{tool}.bash")),
            ("complete-zsh", format!("_{tool}")),
            ("complete-fish", format!("{tool}.fish")),
            ("complete-powershell", format!("_{tool}.ps1")),
            ("complete-elvish", format!("{tool}.elv")),
        ] {
            let out = run(bin(tool).arg(format!("--generate={kind}")), b"");
            assert_eq!(out.status.code(), Some(0), "{out:?}");
            let script = std::fs::read(root.join("completions").join(&file)).unwrap();
            assert!(
                out.stdout == script,
                "{tool} --generate {kind} differs from {file}"
            );
        }
    }
}

/// `man --warnings -l` (or `groff -ww`) prints nothing on stderr for `page`.
fn check_man(page: &Path) {
    if have("man", "--version") {
        let out = Command::new("man")
            .args(["--warnings", "-l"])
            .arg(page)
            .env("MANWIDTH", "80")
            .env("MAN_KEEP_FORMATTING", "0")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stderr.is_empty(),
            "man -l {}: {stderr}",
            page.display()
        );
        // Without a terminal, man overstrikes bold text ("E\bEX\bX"): undo it.
        let mut text = String::new();
        for c in String::from_utf8_lossy(&out.stdout).chars() {
            if c == '\u{8}' {
                text.pop();
            } else {
                text.push(c);
            }
        }
        assert!(text.contains("EXIT STATUS"), "{text}");
    } else {
        eprintln!("dist_archive: man not found, skipping man -l");
    }
    if have("groff", "--version") {
        let out = Command::new("groff")
            .args(["-man", "-Tutf8", "-ww", "-z"])
            .arg(page)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stderr.is_empty(),
            "groff {}: {stderr}",
            page.display()
        );
    } else {
        eprintln!("dist_archive: groff not found, skipping groff -ww");
    }
}

/// Runs in the ordinary test run: the man pages and completions alone are quick.
#[test]
fn man_and_completions_tasks() {
    let tmp = tempfile::tempdir().unwrap();
    for (task, count) in [("man", 3), ("completions", 15)] {
        let dir = tmp.path().join(task);
        let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args([task, "--out"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), count, "{task}");
    }
    for tool in TOOLS {
        check_man(&tmp.path().join("man").join(format!("{tool}.1")));
    }
}
