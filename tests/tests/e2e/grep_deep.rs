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
