//! Back-references in `-G` and `-E` patterns (`\(.\)\1`): the cases of GNU grep's own suite,
//! what users type, and a differential against GNU grep 3.8 on generated patterns.
//!
//! Line selection follows GNU grep's, but for glibc's known back-reference bugs, where
//! utf8-grep gives the answer POSIX does: `-E '^(.?)(.?).?\2\1$'` selects `ab` in GNU grep
//! 3.8 (glibc 2.36), which is not a palindrome. The generator below stays clear of them by
//! never repeating a group that is referred to and never making a referred group optional.

use std::time::{Duration, Instant};

use crate::util::{Rng, gnu_grep, grep_or_ours as run, tempdir, write};

/// utf8-grep's stdout and status for `args` on `input` are `want` and `status`, and GNU
/// grep's (where installed) are the same, its diagnostics too.
fn same(args: &[&str], input: &str, want: &str, status: i32) {
    let dir = tempdir();
    let d = dir.path();
    write(d, "in", input);
    let mut full = args.to_vec();
    full.push("in");
    let ours = run("utf8-grep", d, &full);
    assert_eq!(
        (String::from_utf8_lossy(&ours.0).as_ref(), ours.2),
        (want, status),
        "utf8-grep {full:?}: {}",
        ours.1
    );
    if gnu_grep() {
        assert_eq!(
            ours,
            run("grep", d, &full),
            "utf8-grep {full:?} differs from GNU grep"
        );
    }
}

/// GNU grep's `tests/backref`, `tests/backref-alt` and `tests/triple-backref` (GNU grep 3.8,
/// GPL-3.0-or-later; the cases, not the scripts, are ported).
#[test]
fn gnu_greps_back_reference_cases() {
    // backref: a palindrome, and the "Bond" test.
    same(&[r"-e", r"\(.\)\(.\).\2\1"], "radar\n", "radar\n", 0);
    same(
        &[
            "-E",
            "-e",
            r"^(.?)(.?)(.?)(.?)(.?)(.?)(.?)(.?)(.).?\9\8\7\6\5\4\3\2\1$",
        ],
        "civic\n",
        "civic\n",
        0,
    );
    // backref: a reference is local to its pattern; the second pattern has no group.
    same(&["-e", r"a\(.\)", "-e", r"b\1"], "123\n", "", 2);
    // backref-alt: `\1` in an alternative after the group's (GNU's test allows exit 1 or 2;
    // glibc refuses it: a reference names a group of its own branch).
    same(&["-E", r"b|(.)b|\1|b"], "aa\n", "", 2);
    same(&["-E", r"(a|(b))\2"], "bb\n", "bb\n", 0);
    same(&["-E", r"((a)|b)\2"], "aa\n", "aa\n", 0);
    // triple-backref: three empty groups and their references match the empty string.
    // GNU lists this test as expected to fail (glibc's bug 11053): GNU grep 3.8 on glibc
    // 2.36 selects nothing. utf8-grep gives POSIX's answer, the one the test asks for.
    let dir = tempdir();
    write(dir.path(), "in", "a\n");
    let (out, _, code) = run(
        "utf8-grep",
        dir.path(),
        &["-E", r"(.?)(.?)(.?)\3\2\1", "in"],
    );
    assert_eq!((out.as_slice(), code), (&b"a\n"[..], 0));
}

/// glibc's known back-reference bugs, where utf8-grep answers as POSIX does and GNU grep
/// 3.8 (glibc 2.36) does not: the documented differences.
#[test]
fn glibcs_back_reference_bugs_are_not_copied() {
    let dir = tempdir();
    write(dir.path(), "in", "ab\n");
    // `ab` is no palindrome: glibc selects it.
    let (out, _, code) = run("utf8-grep", dir.path(), &["-E", r"^(.?)(.?).?\2\1$", "in"]);
    assert_eq!((out.as_slice(), code), (&b""[..], 1));
}

#[test]
fn what_users_type() {
    let prose = "the the cat\nno repeat here\nabba\nIt is is it\nhello hello\n";
    // Doubled words, doubled letters.
    same(
        &["-E", r"\<(\w+) \1\>"],
        prose,
        "the the cat\nIt is is it\nhello hello\n",
        0,
    );
    same(&["-c", r"\(.\)\1"], prose, "2\n", 0);
    same(&["-n", r"\(.\)\(.\)\2\1"], prose, "3:abba\n", 0);
    same(&["-v", "-c", r"\([a-z]\)\1"], prose, "3\n", 0);
    // -i: the reference matches in any case.
    same(&["-i", "-E", r"^(it) is is \1$"], prose, "It is is it\n", 0);
    same(&["-E", r"^(it) is is \1$"], prose, "", 1);
    // -w and -x.
    same(&["-w", r"\(hel\)\1"], prose, "", 1);
    same(&["-w", "-E", r"(hello) \1"], prose, "hello hello\n", 0);
    same(&["-x", "-E", r"(a)(b)\2\1"], prose, "abba\n", 0);
    same(&["-x", "-E", r"(b)\1"], prose, "", 1);
    // -o: the matches (PCRE2 places them; these have one length only).
    same(&["-o", "-E", r"(\w)\1"], "aab xyyz\n", "aa\nyy\n", 0);
    // Non-ASCII characters are characters.
    same(&["-E", "-o", r"(.)\1"], "ééx 日日\n", "éé\n日日\n", 0);
}

#[test]
fn invalid_back_references_are_gnus_errors() {
    for (args, pattern) in [
        (&["-E"][..], r"(a)\2"),
        (&["-G"][..], r"\(a\)\2"),
        (&["-E"], r"(a\1)"),
        (&["-E"], r"\1(a)"),
        (&["-G"], r"a\1"),
    ] {
        let dir = tempdir();
        write(dir.path(), "in", "aa\n");
        let mut full = args.to_vec();
        full.extend(["-e", pattern, "in"]);
        let (out, err, code) = run("utf8-grep", dir.path(), &full);
        assert_eq!(
            (out.as_slice(), err.as_str(), code),
            (&b""[..], "grep: Invalid back reference\n", 2),
            "{full:?}"
        );
        if gnu_grep() {
            assert_eq!(run("grep", dir.path(), &full).2, 2, "GNU grep {full:?}");
        }
    }
}

#[test]
fn a_pathological_back_reference_ends_with_gnus_limit_error() {
    // Nested repetitions before a reference: exponential for a backtracking matcher on a
    // line that cannot match. It must end, with exit 2 and GNU's words, or with an answer.
    let dir = tempdir();
    let d = dir.path();
    let mut text = "a".repeat(40);
    text.push_str("b\n");
    write(d, "in", &text);
    // (The first run of a test binary may wait for its build.)
    run("utf8-grep", d, &["-c", "a", "in"]);
    let started = Instant::now();
    let (out, err, code) = run("utf8-grep", d, &["-E", r"^((a*)*)*\1c", "in"]);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "took {:?}",
        started.elapsed()
    );
    assert!(out.is_empty());
    assert!(
        code == 1 || (code == 2 && err.starts_with("grep: in: exceeded PCRE's")),
        "status {code}: {err}"
    );
}

/// GNU grep's `tests/backref-multibyte-slow`: a reference in a UTF-8 text of thousands of
/// lines, which once took minutes, must not.
#[test]
fn many_multibyte_lines_with_a_reference_stay_fast() {
    let dir = tempdir();
    let d = dir.path();
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(if i % 7 == 0 {
            "éxé\n"
        } else {
            "日本語のテキスト\n"
        });
    }
    write(d, "in", &text);
    let (out, _, code) = run("utf8-grep", d, &["-E", "-c", r"^(.).\1$", "in"]);
    assert_eq!(
        (String::from_utf8_lossy(&out).as_ref(), code),
        ("2858\n", 0)
    );
}

const ALPHABET: &[&str] = &["a", "b", "c", "A", "é", "É", " ", "1", "_", "ж"];

/// Random POSIX patterns with groups and references to closed groups. A referred group is
/// never optional or repeated and references are not repeated: glibc's known bugs are there.
struct Patterns {
    rng: Rng,
    extended: bool,
    groups: u32,
}

impl Patterns {
    fn op(&self, op: &str) -> String {
        if self.extended {
            op.to_string()
        } else if op == "{1,2}" {
            r"\{1,2\}".to_string()
        } else {
            format!("\\{op}")
        }
    }

    /// An atom, and whether it may be repeated.
    fn atom(&mut self, depth: u32) -> (String, bool) {
        let r = self.rng.below(100);
        if r < 45 {
            (self.rng.pick(ALPHABET).to_string(), true)
        } else if r < 53 {
            (".".into(), true)
        } else if r < 63 {
            let items = self
                .rng
                .pick(&["ab", "a-c", "[:alpha:]", "[:digit:]", "éж", "1_"]);
            let neg = if self.rng.below(100) < 30 { "^" } else { "" };
            (format!("[{neg}{items}]"), true)
        } else if r < 80 && self.groups > 0 {
            (
                format!(r"\{}", 1 + self.rng.below(u64::from(self.groups))),
                false,
            )
        } else if depth < 2 {
            let inner = self.expr(depth + 1);
            self.groups += 1;
            (format!("{}{inner}{}", self.op("("), self.op(")")), false)
        } else {
            (self.rng.pick(ALPHABET).to_string(), true)
        }
    }

    fn expr(&mut self, depth: u32) -> String {
        let n = 1 + self.rng.below(4);
        let mut out = String::new();
        for _ in 0..n {
            let (atom, repeatable) = self.atom(depth);
            out.push_str(&atom);
            if repeatable && self.rng.below(100) < 30 {
                let op: &str = self.rng.pick(&["*", "+", "?", "{1,2}"]);
                out.push_str(&if op == "*" {
                    op.to_string()
                } else {
                    self.op(op)
                });
            }
        }
        if depth > 0 && self.rng.below(100) < 20 {
            // An alternative inside a group (the group is then referred to as a whole).
            let alt = self.rng.pick(ALPHABET).to_string();
            out = format!("{out}{}{alt}", self.op("|"));
        }
        out
    }

    fn pattern(&mut self) -> String {
        // At least one group and one reference to it.
        let first = self.expr(1);
        self.groups = 1;
        let (open, close) = (self.op("("), self.op(")"));
        let mut p = format!("{open}{first}{close}{}", self.expr(0));
        if !p.contains('\\') || !(1..=9).any(|n| p.contains(&format!("\\{n}"))) {
            p.push_str(r"\1");
        }
        match self.rng.below(8) {
            0 => format!("^{p}"),
            1 => format!("{p}$"),
            _ => p,
        }
    }
}

fn random_line(rng: &mut Rng) -> Vec<u8> {
    let mut line = Vec::new();
    for _ in 0..rng.below(14) {
        if rng.below(100) < 3 {
            line.extend_from_slice(b"\xff");
        } else {
            line.extend_from_slice(rng.pick(ALPHABET).as_bytes());
        }
    }
    line
}

#[test]
fn generated_back_references_agree_with_gnu_grep() {
    if !gnu_grep() {
        eprintln!("skipped: GNU grep 3.x is not installed");
        return;
    }
    let dir = tempdir();
    let d = dir.path();
    let mut rng = Rng::new(0x51d2_7e0a_b3c9);
    let (mut compared, mut differences) = (0, Vec::new());
    for i in 0..300 {
        let extended = i % 2 == 0;
        let mut patterns = Patterns {
            rng: Rng::new(rng.next()),
            extended,
            groups: 0,
        };
        let pattern = patterns.pattern();
        let mut text = Vec::new();
        for _ in 0..24 {
            text.extend(random_line(&mut rng));
            text.push(b'\n');
        }
        write(d, "text", &text);
        for opts in [
            &["-n"][..],
            &["-c", "-v"],
            &["-i", "-n"],
            &["-w", "-n"],
            &["-x", "-n"],
        ] {
            let mut args = vec!["-a", if extended { "-E" } else { "-G" }];
            args.extend_from_slice(opts);
            args.extend(["-e", &pattern, "text"]);
            let want = run("grep", d, &args);
            compared += 1;
            let got = run("utf8-grep", d, &args);
            if got != want {
                differences.push(format!(
                    "{args:?}\n  ours: {:?}\n  GNU:  {:?}",
                    (String::from_utf8_lossy(&got.0), &got.1, got.2),
                    (String::from_utf8_lossy(&want.0), &want.1, want.2)
                ));
            }
        }
    }
    assert!(compared >= 1500, "only {compared} runs compared");
    assert!(
        differences.is_empty(),
        "{} differences in {compared} runs, the first ones:\n{}",
        differences.len(),
        differences[..differences.len().min(8)].join("\n")
    );
}
