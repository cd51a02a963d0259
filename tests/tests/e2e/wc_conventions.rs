//! utf8-count against the conventions of GNU `wc` (issue 22): cases ported from GNU
//! coreutils' `tests/wc/*` and uutils' `tests/by-util/test_wc.rs`. Each case names the
//! project and test its expected output comes from; where our columns differ (no words
//! column, an errors column), the expected line keeps their counts and widths for the
//! columns both tools have.

use std::path::Path;

use crate::util::{count, tempdir, write};

/// uutils' fixture `tests/fixtures/wc/alice_in_wonderland.txt` (5 lines, 57 words, 302 bytes).
const ALICE: &str = "\
Alice was beginning to get very tired of sitting by
her sister on the bank, and of having nothing to do: once or twice
she had peeped into the book her sister was reading, but it had no
pictures or conversations in it, \"and what is the use of a book,\"
thought Alice \"without pictures or conversation?\"
";

/// GNU's `tests/wc/wc-total.sh` files: `2b` holds "2\n", `2w` holds "2 words\n".
fn gnu_files(dir: &Path) {
    write(dir, "2b", "2\n");
    write(dir, "2w", "2 words\n");
    write(dir, "alice_in_wonderland.txt", ALICE);
}

fn run_ok(dir: &Path, args: &[&str]) -> String {
    count(dir).args(args).run().assert_code(0).out()
}

// ----- group 1: a repeated option is harmless, the last value wins -----

#[test]
fn repeated_flags_and_values() {
    let dir = tempdir();
    gnu_files(dir.path());
    // uutils test_wc.rs test_args_override: `wc -ll -l alice_in_wonderland.txt`.
    assert_eq!(
        run_ok(dir.path(), &["-ll", "-l", "alice_in_wonderland.txt"]),
        "5 alice_in_wonderland.txt\n"
    );
    assert_eq!(
        run_ok(dir.path(), &["-l", "-l", "alice_in_wonderland.txt"]),
        "5 alice_in_wonderland.txt\n"
    );
    // uutils test_args_override: `--total=always --total=never alice_in_wonderland.txt`
    // prints "  5  57 302 alice_in_wonderland.txt" (lines, words, bytes).
    assert_eq!(
        run_ok(
            dir.path(),
            &[
                "-lc",
                "--total=always",
                "--total=never",
                "alice_in_wonderland.txt"
            ]
        ),
        "  5 302 alice_in_wonderland.txt\n"
    );
    // GNU wc-total.sh: `wc --total=only 2b 2w` prints "2 3 10" (lines, words, bytes).
    assert_eq!(
        run_ok(
            dir.path(),
            &["-lc", "--total=auto", "--total=only", "2b", "2w"]
        ),
        "2 10\n"
    );
}
