//! `utf8-grep -r` below `PATH_MAX` (issue 21): walkdir opens each directory by its whole path
//! and fails past 4096 bytes with "File name too long"; the walk goes on from directory
//! descriptors, as GNU grep's fts does (GNU grep 3.8 answers `grep -r` on a 10,000-level tree;
//! ripgrep 15 stops with "File name too long"). The 10,000-level tree itself is in
//! `pathological.rs`; this one is made of long names, 26 levels, 5,226 bytes.

use std::path::{Path, PathBuf};

use crate::util::{TestCommand, tempdir};

/// A name of 200 bytes, `c` repeated.
fn long(c: char) -> String {
    c.to_string().repeat(200)
}

/// `levels` nested directories named [`long`] `c` under `root` (a path under PATH_MAX),
/// returned.
fn chain(root: &Path, c: char, levels: usize) -> PathBuf {
    let mut p = root.to_path_buf();
    for _ in 0..levels {
        p.push(long(c));
    }
    std::fs::create_dir_all(&p).unwrap();
    p
}

/// `top/` + 13 levels of `n…` (with `a.txt` at level 3 and `z.txt` at level 13) + 13 levels
/// of `m…` with `f` at the bottom: built as two trees under PATH_MAX, the second then moved
/// into the first's deepest directory.
fn tree(d: &Path) -> (String, String, String) {
    let upper = chain(&d.join("top"), 'n', 13);
    let lower = chain(&d.join("lower"), 'm', 12);
    std::fs::write(lower.join("f"), "needle at the bottom\n").unwrap();
    // For -R: at the bottom (level 26, past PATH_MAX from level 21 on) a link 20 levels up,
    // to a directory above where walkdir stopped, and a link to a directory outside.
    std::os::unix::fs::symlink("../".repeat(20), lower.join("up")).unwrap();
    std::fs::create_dir(d.join("other")).unwrap();
    std::fs::write(d.join("other/g"), "needle elsewhere\n").unwrap();
    std::os::unix::fs::symlink(d.join("other"), lower.join("skip")).unwrap();
    // At level 20 (a path of 4,023 bytes) a link whose own path is past PATH_MAX: walkdir
    // cannot even look at it.
    let level20: PathBuf = std::iter::once(d.join("lower"))
        .chain((0..6).map(|_| PathBuf::from(long('m'))))
        .collect();
    std::os::unix::fs::symlink(
        d.join("other"),
        level20.join(format!("skip{}", "x".repeat(90))),
    )
    .unwrap();
    let level3: PathBuf = ["top", &long('n'), &long('n'), &long('n')].iter().collect();
    std::fs::write(d.join(&level3).join("a.txt"), "needle at 3\n").unwrap();
    std::fs::write(upper.join("z.txt"), "needle at 13\n").unwrap();
    std::fs::rename(d.join("lower"), upper.join(long('m'))).unwrap();
    let name = |levels: &[(char, usize)], file: &str| {
        let mut s = "top".to_string();
        for &(c, n) in levels {
            for _ in 0..n {
                s.push('/');
                s.push_str(&long(c));
            }
        }
        format!("{s}/{file}")
    };
    let bottom = name(&[('n', 13), ('m', 13)], "f");
    assert!(bottom.len() > 5000);
    (
        name(&[('n', 3)], "a.txt"),
        name(&[('n', 13)], "z.txt"),
        bottom,
    )
}

#[test]
fn recursive_search_goes_below_path_max() {
    let dir = tempdir();
    let d = dir.path();
    let (a, z, f) = tree(d);
    for threads in ["1", "2"] {
        let r = TestCommand::new("utf8-grep", d)
            .args(["--threads", threads, "-r", "needle", "top"])
            .run();
        r.assert_code(0);
        // By name, depth first: a.txt before the n… directory at level 3; at level 13 the
        // m… directory before z.txt.
        let want = format!("{a}:needle at 3\n{f}:needle at the bottom\n{z}:needle at 13\n");
        assert_eq!(r.out(), want, "--threads {threads}");
        assert_eq!(r.err(), "");
    }
    // A directory operand past PATH_MAX is walked, and its files opened.
    let level21 = &f[..f.len() - 2 - 5 * 201];
    assert!(level21.len() > 4096);
    let r = TestCommand::new("utf8-grep", d)
        .args(["-r", "needle", level21])
        .run();
    r.assert_code(0);
    assert_eq!(r.out(), format!("{f}:needle at the bottom\n"));
    let r = TestCommand::new("utf8-grep", d).args(["needle", &f]).run();
    r.assert_code(0);
    assert_eq!(r.out(), "needle at the bottom\n");
    // Filters apply below PATH_MAX too.
    let r = TestCommand::new("utf8-grep", d)
        .args(["-rc", "--include=f", "needle", "top"])
        .run();
    r.assert_code(0);
    assert_eq!(r.out(), format!("{f}:1\n"));
    let r = TestCommand::new("utf8-grep", d)
        .args(["-rl", "--exclude-dir=m*", "needle", "top"])
        .run();
    assert_eq!(r.out(), format!("{a}\n{z}\n"));
}

#[test]
fn dereference_recursive_below_path_max() {
    let dir = tempdir();
    let d = dir.path();
    let (a, z, f) = tree(d);
    let bottom = f.strip_suffix("/f").unwrap();
    let up = format!("{bottom}/up");
    let g = format!("{bottom}/skip/g");
    let level20 = &bottom[..bottom.len() - 6 * 201];
    let g20 = format!("{level20}/skip{}/g", "x".repeat(90));
    let r = TestCommand::new("utf8-grep", d)
        .args(["-R", "needle", "top"])
        .run();
    r.assert_code(0);
    // Each file once: the link back up is a loop (a warning), not a second walk.
    assert_eq!(
        r.out(),
        format!(
            "{a}:needle at 3\n{f}:needle at the bottom\n{g}:needle elsewhere\n\
             {g20}:needle elsewhere\n{z}:needle at 13\n"
        )
    );
    assert_eq!(
        r.err(),
        format!("utf8-grep: {up}: warning: recursive directory loop\n")
    );
    // --exclude-dir applies to links past PATH_MAX too.
    let r = TestCommand::new("utf8-grep", d)
        .args(["-Rl", "--exclude-dir=skip*", "needle", "top"])
        .run();
    r.assert_code(0);
    assert_eq!(r.out(), format!("{a}\n{f}\n{z}\n"));
}

/// 800 levels of 20-byte names (16 KiB paths), each with an empty sibling directory after
/// it, built bottom up in pieces of 100 levels moved into one another (every path used stays
/// under PATH_MAX); a file at the bottom.
fn wide_chain(d: &Path) -> String {
    let name = "a".repeat(20);
    let piece = |k: usize| {
        let root = d.join(format!("p{k}"));
        let mut p = root.clone();
        for _ in 0..100 {
            std::fs::create_dir_all(p.join("b")).unwrap();
            p.push(&name);
        }
        std::fs::create_dir_all(&p).unwrap();
        (root, p)
    };
    let (_, bottom) = piece(7);
    std::fs::write(bottom.join("f"), "needle\n").unwrap();
    for k in (0..7).rev() {
        let (_, lowest) = piece(k);
        std::fs::rename(d.join(format!("p{}", k + 1)), lowest.join(&name)).unwrap();
    }
    let mut shown = "p0".to_string();
    for _ in 0..(8 * 101 - 1) {
        shown.push('/');
        shown.push_str(&name);
    }
    format!("{shown}/f")
}

#[test]
fn deep_walk_holds_few_descriptors() {
    // Every level keeps a directory to enter after the one on the way down: a walk that held
    // a descriptor per level would run out of them (ulimit -n 200) near level 400.
    let dir = tempdir();
    let d = dir.path();
    let f = wide_chain(d);
    let bin = utf8_tests::cli::bin("utf8-grep");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 200 && exec \"$0\" -rc needle p0")
        .arg(&bin)
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{f}:1\n"));
    assert_eq!(out.status.code(), Some(0));
}

/// FIFOs met by the walk, above `PATH_MAX` and past it, are skipped unopened (opening one
/// waits for a writer), as GNU grep skips devices, FIFOs and sockets that are not named on
/// the command line (grep.c, `skip_devices`) and ripgrep does. GNU grep 3.8 blocks on a
/// link to a FIFO under `-R`; utf8-grep skips that too.
#[test]
fn fifos_in_the_tree_are_skipped_unopened() {
    let dir = tempdir();
    let d = dir.path();
    let mkfifo = |p: &Path| {
        std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .is_ok_and(|s| s.success())
    };
    let upper = chain(&d.join("top"), 'n', 13);
    let lower = chain(&d.join("lower"), 'm', 12);
    if !mkfifo(&d.join("top/fifo")) || !mkfifo(&lower.join("fifo")) {
        eprintln!("fifos_in_the_tree_are_skipped_unopened: skipped: mkfifo failed");
        return;
    }
    std::os::unix::fs::symlink(d.join("top/fifo"), d.join("top/link")).unwrap();
    std::fs::write(d.join("top/a.txt"), "needle\n").unwrap();
    std::fs::write(lower.join("f"), "needle\n").unwrap();
    std::fs::rename(d.join("lower"), upper.join(long('m'))).unwrap();
    for (flag, threads) in [("-r", "1"), ("-r", "2"), ("-R", "1"), ("-R", "2")] {
        let mut child = TestCommand::new("utf8-grep", d)
            .args(["--threads", threads, flag, "-c", "needle", "top"])
            .command()
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(20) {
                let _ = child.kill();
                panic!("{flag} --threads {threads}: still running after 20 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{flag} --threads {threads}: {text}"
        );
        assert_eq!(
            text.lines().count(),
            2,
            "{flag} --threads {threads}: {text}"
        );
        assert!(
            text.starts_with("top/a.txt:1\n") && text.ends_with("/f:1\n"),
            "{flag} --threads {threads}: {text}"
        );
    }
}
