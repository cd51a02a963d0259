//! `--generate KIND` on every binary: the man page and the completion scripts `cargo xtask
//! man` and `cargo xtask completions` write (xtask's dist test compares them with the
//! release archive's), alone on the command line, with one-line usage errors.

use crate::util::{TestCommand, have, tempdir};

const TOOLS: [&str; 3] = ["utf8-count", "utf8-grep", "utf8-repair"];

#[test]
fn every_binary_generates_its_man_page_and_completions() {
    let dir = tempdir();
    for tool in TOOLS {
        let o = TestCommand::new(tool, dir.path())
            .args(["--generate", "man"])
            .env("SOURCE_DATE_EPOCH", "0")
            .run();
        o.assert_code(0);
        let page = o.out();
        assert!(
            page.contains(&format!(".TH {tool} 1 1970-01-01 \"utf8-tools ")),
            "{tool}: {}",
            &page[..200.min(page.len())]
        );
        assert!(page.contains(".SH \"EXIT STATUS\"") && page.contains(r"\-\-generate"));
        if have("groff") {
            let p = dir.path().join(format!("{tool}.1"));
            std::fs::write(&p, &page).unwrap();
            let mut g = TestCommand::program("groff", dir.path());
            let out = g.args(["-man", "-Tutf8", "-ww", "-z"]).args([&p]).run();
            assert!(out.stderr.is_empty(), "groff: {}", out.err());
        }
        for (kind, marker) in [
            ("complete-bash", "complete -F"),
            ("complete-zsh", "#compdef"),
            ("complete-fish", "complete -c"),
            ("complete-powershell", "Register-ArgumentCompleter"),
            ("complete-elvish", "edit:completion"),
        ] {
            let o = TestCommand::new(tool, dir.path())
                .args([&format!("--generate={kind}")])
                .run();
            o.assert_code(0);
            assert!(o.out().contains(marker), "{tool} {kind}");
            assert!(o.out().contains(tool), "{tool} {kind}");
        }
        if have("bash") {
            let o = TestCommand::new(tool, dir.path())
                .args(["--generate", "complete-bash"])
                .run();
            let p = dir.path().join("c.bash");
            std::fs::write(&p, &o.stdout).unwrap();
            TestCommand::program("bash", dir.path())
                .args(["-n".as_ref(), p.as_os_str()])
                .run()
                .assert_code(0);
        }
    }
}

#[test]
fn generate_goes_alone_and_names_the_kinds() {
    let dir = tempdir();
    for tool in TOOLS {
        let o = TestCommand::new(tool, dir.path())
            .args(["--generate", "roff"])
            .run();
        o.assert_code(2);
        assert_eq!(
            o.err(),
            format!(
                "{tool}: invalid value 'roff' for '--generate' (valid: man, complete-bash, \
                 complete-zsh, complete-fish, complete-powershell, complete-elvish)\n\
                 Try '{tool} --help' for more information.\n"
            )
        );
        assert!(o.stdout.is_empty());
    }
}
