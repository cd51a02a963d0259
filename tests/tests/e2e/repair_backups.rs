//! utf8-repair's backups as GNU cp makes them (GNU cp is the oracle where it is installed),
//! and I/O errors that name the user's file and leave no temporary file: a read-only
//! directory as an unprivileged user, a full file system, `ulimit -f`, a missing directory.

use std::path::Path;

use crate::util::{TestCommand, have, leftovers, tempdir, write};

fn repair(dir: &Path) -> TestCommand {
    TestCommand::new("utf8-repair", dir)
}

const DAMAGED: &[u8] = b"caf\xE9 au lait\n";

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Whether `cp` is GNU's (it is the reference of the backup names).
fn gnu_cp() -> bool {
    std::process::Command::new("cp")
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("GNU coreutils"))
}

#[test]
fn backups_are_named_as_gnu_cp_names_them() {
    if !gnu_cp() {
        eprintln!("skipped: GNU cp is not installed (the reference of the backup names)");
        return;
    }
    // Each case three times over: the names after each round must be cp's.
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)]);
    let cases: &[Case] = &[
        (&["--backup"], &[]),
        (&["-b"], &[]),
        (&["--backup=numbered"], &[]),
        (&["--backup=t"], &[]),
        (&["--backup=existing"], &[]),
        (&["--backup=simple"], &[]),
        (&["--backup=never", "--suffix=.orig"], &[]),
        (&["--backup=none"], &[]),
        (&["--backup=off"], &[]),
        (&["--backup=nu"], &[]),
        (&["-S", ".bak"], &[]),
        (&["-b"], &[("VERSION_CONTROL", "numbered")]),
        (&["--backup"], &[("VERSION_CONTROL", "simple")]),
        (&["--backup"], &[("SIMPLE_BACKUP_SUFFIX", ".old")]),
        (
            &["--backup=simple", "-S", "-x"],
            &[("SIMPLE_BACKUP_SUFFIX", ".old")],
        ),
    ];
    for (args, env) in cases {
        let ours = tempdir();
        let theirs = tempdir();
        let src = tempdir();
        write(src.path(), "new.txt", DAMAGED);
        write(ours.path(), "c.txt", DAMAGED);
        write(theirs.path(), "c.txt", DAMAGED);
        for round in 0..3 {
            let mut cmd = repair(ours.path());
            cmd.args(["-i"]).args(*args).args(["c.txt"]);
            let mut cp = TestCommand::program("cp", theirs.path());
            cp.args(*args)
                .args([src.path().join("new.txt").as_os_str(), "c.txt".as_ref()]);
            for (k, v) in *env {
                cmd.env(k, v);
                cp.env(k, v);
            }
            cmd.run().assert_code(0);
            cp.run().assert_code(0);
            assert_eq!(
                names(ours.path()),
                names(theirs.path()),
                "{args:?} {env:?} round {round}"
            );
            // Every backup holds an original.
            for n in names(ours.path()).iter().filter(|n| *n != "c.txt") {
                assert_eq!(std::fs::read(ours.path().join(n)).unwrap(), DAMAGED, "{n}");
            }
            write(ours.path(), "c.txt", DAMAGED);
            write(theirs.path(), "c.txt", DAMAGED);
        }
    }
}

#[test]
fn o_backs_up_the_file_it_replaces() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "in.txt", DAMAGED);
    // Nothing to back up the first time.
    repair(d)
        .args(["-o", "out.txt", "--backup=numbered", "in.txt"])
        .run()
        .assert_code(0);
    assert_eq!(names(d), ["in.txt", "out.txt"]);
    write(d, "out.txt", "older output\n");
    repair(d)
        .args(["-o", "out.txt", "--backup=numbered", "in.txt"])
        .run()
        .assert_code(0);
    assert_eq!(names(d), ["in.txt", "out.txt", "out.txt.~1~"]);
    assert_eq!(
        std::fs::read(d.join("out.txt.~1~")).unwrap(),
        b"older output\n"
    );
    assert_eq!(
        std::fs::read(d.join("out.txt")).unwrap(),
        "caf\u{FFFD} au lait\n".as_bytes()
    );
}

#[test]
fn backup_usage_errors_are_one_line_and_change_nothing() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "c.txt", DAMAGED);
    for (args, says) in [
        (&["-i", "--backup", ".orig", "c.txt"][..], "-S .orig"),
        (&["-i", "--backup=.orig", "c.txt"], "-S .orig"),
        (&["-i", "--backup=n", "c.txt"], "ambiguous argument 'n'"),
        (&["--backup", "c.txt"], "go with --in-place or -o"),
        (&["-S", "~", "c.txt"], "go with --in-place or -o"),
        (&["-i", "-S", "a/b", "c.txt"], "invalid suffix"),
    ] {
        let o = repair(d).args(args).run();
        o.assert_code(2);
        let err = o.err();
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("utf8-repair: ") && first.contains(says),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 2, "{err}");
        assert_eq!(
            err.lines().nth(1),
            Some("Try 'utf8-repair --help' for more information.")
        );
        assert_eq!(names(d), ["c.txt"], "{args:?}");
        assert_eq!(std::fs::read(d.join("c.txt")).unwrap(), DAMAGED);
    }
}

/// Whether this process runs as root (CI does: the read-only test then drops privileges).
fn root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

#[test]
fn a_read_only_directory_is_named_and_left_as_it_was() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempdir();
    let d = dir.path();
    std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
    write(d, "docs/notes.txt", DAMAGED);
    let docs = d.join("docs");
    std::fs::set_permissions(
        docs.join("notes.txt"),
        std::fs::Permissions::from_mode(0o666),
    )
    .unwrap();
    std::fs::set_permissions(&docs, std::fs::Permissions::from_mode(0o555)).unwrap();
    let bin = utf8_tests::cli::bin("utf8-repair");
    let o = if root() {
        if !have("setpriv") {
            eprintln!("skipped: root without setpriv cannot test a read-only directory");
            return;
        }
        // As nobody: root writes anywhere. The binary must be reachable by nobody.
        let mut c = TestCommand::program("setpriv", d);
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .args([bin.as_os_str()])
            .args(["-i", "docs/./notes.txt"]);
        let o = c.run();
        if o.err().contains("Permission denied") && !o.err().contains("notes.txt") {
            eprintln!("skipped: nobody cannot run {}: {}", bin.display(), o.err());
            return;
        }
        o
    } else {
        repair(d).args(["-i", "docs/./notes.txt"]).run()
    };
    o.assert_code(2);
    assert_eq!(
        o.err(),
        "utf8-repair: docs/./notes.txt: cannot write beside it: Permission denied\n"
    );
    assert_eq!(std::fs::read(docs.join("notes.txt")).unwrap(), DAMAGED);
    assert_eq!(names(&docs), ["notes.txt"]);
    std::fs::set_permissions(&docs, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn o_into_a_missing_directory_names_it() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "in.txt", DAMAGED);
    let o = repair(d).args(["-o", "no/such/dir/x.txt", "in.txt"]).run();
    o.assert_code(2);
    assert_eq!(
        o.err(),
        "utf8-repair: no/such/dir/x.txt: cannot write it: No such file or directory\n"
    );
    assert_eq!(names(d), ["in.txt"]);
}

/// A file of `n` bytes of damaged UTF-8 (not text in a legacy encoding, which `-i` refuses).
fn big_damaged(n: usize) -> Vec<u8> {
    let mut line = "café \u{2014} déjà vu, au lait\n".as_bytes().to_vec();
    line.insert(20, 0xFF);
    let mut v = line.repeat(n / line.len() + 1);
    v.truncate(n);
    v
}

#[test]
fn ulimit_f_fails_the_write_and_leaves_no_temporary_file() {
    let dir = tempdir();
    let d = dir.path();
    let data = big_damaged(300_000);
    write(d, "big.txt", &data);
    let bin = utf8_tests::cli::bin("utf8-repair");
    for (args, says) in [
        (
            &["-i", "big.txt"][..],
            "big.txt: cannot write beside it: File too large",
        ),
        (
            &["-o", "out.txt", "big.txt"],
            "out.txt: cannot write it: File too large",
        ),
    ] {
        // 64 blocks: 32 KiB or 64 KiB, as the shell counts them; the file is larger.
        let mut c = TestCommand::program("sh", d);
        c.args(["-c", "ulimit -f 64 && exec \"$0\" \"$@\""])
            .args([bin.as_os_str()])
            .args(args);
        let o = c.run();
        o.assert_code(2);
        assert_eq!(o.err(), format!("utf8-repair: {says}\n"), "{args:?}");
        assert_eq!(std::fs::read(d.join("big.txt")).unwrap(), data);
        assert_eq!(names(d), ["big.txt"], "{args:?}");
        assert!(leftovers(d).is_empty());
    }
}

#[test]
fn a_full_file_system_fails_the_write_and_leaves_no_temporary_file() {
    let dir = tempdir();
    let mnt = dir.path().join("small");
    std::fs::create_dir(&mnt).unwrap();
    let mounted = root()
        && std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
            .arg(&mnt)
            .status()
            .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipped: cannot mount a small tmpfs here (ulimit_f covers a failed write)");
        return;
    }
    let data = big_damaged(180_000);
    write(&mnt, "big.txt", &data);
    let o = repair(&mnt).args(["-i", "big.txt"]).run();
    let o2 = repair(&mnt).args(["-o", "out.txt", "big.txt"]).run();
    let listing = names(&mnt);
    let kept = std::fs::read(mnt.join("big.txt")).unwrap();
    let _ = std::process::Command::new("umount").arg(&mnt).status();
    o.assert_code(2);
    assert_eq!(
        o.err(),
        "utf8-repair: big.txt: cannot write beside it: No space left on device\n"
    );
    o2.assert_code(2);
    // (After the hint that the input reads as windows-1252.)
    assert_eq!(
        o2.err().lines().last(),
        Some("utf8-repair: out.txt: cannot write it: No space left on device")
    );
    assert_eq!(kept, data);
    assert_eq!(listing, ["big.txt"]);
}
