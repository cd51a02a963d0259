//! `-P` against GNU grep 3.8's `-P` on generated patterns: 400 PCRE2 patterns (literals,
//! classes, `\d \w \s`, groups plain, non-capturing and atomic, look-ahead and fixed-length
//! look-behind, back-references to a group before them, greedy, lazy and possessive
//! repetition, `\K`), each on 20 random lines, through `-c`, `-o -b`, `-n`, `-i -n`, `-w -o`
//! and `-x -n`: the same output and status as the GNU grep installed here
//! (`LC_ALL=C.UTF-8`, `-a` for both).
//!
//! The generator stays clear of the documented differences of `grep_pcre.rs` (`\D`, `\W`,
//! `\S` beyond ASCII), and writes ill-formed UTF-8 only into lines of patterns without
//! word assertions or `-w`. One more difference, GNU grep's: after an empty match, its `-o`
//! moves on by one byte, into a multi-byte character, skips the character's continuation
//! bytes as encoding errors and starts the next search after them, where a look-behind sees
//! nothing before it (`src/grep.c`, `print_line_middle`; `src/pcresearch.c`, `Pexecute`):
//! `printf 'xé y\n' | grep -oP 'x*|(?<=é) '` prints `x` only, utf8-grep `x` and ` `. So
//! `-o` is not compared for patterns with a look-behind.

use std::path::Path;

use crate::util::{Rng, TestCommand, gnu_grep, tempdir, write};

const ALPHABET: &[&str] = &[
    "a", "b", "c", "A", "B", "é", "É", "ж", "日", " ", "1", "2", "_", "-", ".", "k", "ß",
];

struct Patterns {
    rng: Rng,
    /// Capturing groups closed so far (a back-reference names one of them).
    groups: u32,
}

impl Patterns {
    fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    fn atom(&mut self, depth: u32) -> String {
        let r = self.rng.below(100);
        if r < 35 {
            match self.rng.pick(ALPHABET) {
                "." => r"\.".to_string(),
                c => c.to_string(),
            }
        } else if r < 42 {
            ".".to_string()
        } else if r < 52 {
            let items = self
                .rng
                .pick(&["ab", "a-c", "[:alpha:]", "[:digit:]", "éж", "1-2_"]);
            let neg = if self.chance(30) { "^" } else { "" };
            format!("[{neg}{items}]")
        } else if r < 60 {
            self.rng.pick(&[r"\d", r"\w", r"\s"]).to_string()
        } else if r < 64 && self.groups > 0 {
            format!(r"\{}", 1 + self.rng.below(u64::from(self.groups)))
        } else if r < 84 && depth < 2 {
            let kind = self.rng.pick(&["(", "(", "(?:", "(?>", "(?=", "(?!"]);
            let inner = self.expr(depth + 1);
            if kind == "(" {
                self.groups += 1;
            }
            format!("{kind}{inner})")
        } else if r < 88 {
            let behind = self.rng.pick(&["a", "b", "1", " ", "é"]);
            let neg = if self.chance(30) { "!" } else { "=" };
            format!("(?<{neg}{behind})")
        } else {
            self.rng.pick(&ALPHABET[..5]).to_string()
        }
    }

    fn piece(&mut self, depth: u32) -> String {
        let mut atom = self.atom(depth);
        let assertion =
            atom.starts_with("(?=") || atom.starts_with("(?!") || atom.starts_with("(?<");
        if !assertion && self.chance(30) {
            let op = self
                .rng
                .pick(&["*", "+", "?", "{2}", "{1,2}", "*?", "+?", "*+", "?+"]);
            atom.push_str(op);
        }
        atom
    }

    fn expr(&mut self, depth: u32) -> String {
        let branches = if self.chance(75) { 1 } else { 2 };
        let mut out = Vec::new();
        for _ in 0..branches {
            let n = 1 + self.rng.below(3);
            out.push((0..n).map(|_| self.piece(depth)).collect::<String>());
        }
        out.join("|")
    }

    fn pattern(&mut self) -> String {
        let body = self.expr(0);
        match self.rng.below(10) {
            0 => format!(r"{}\K{body}", self.rng.pick(&["a", "b", " "])),
            1 => format!("^{body}"),
            2 => format!("{body}$"),
            3 => format!(r"\b{body}"),
            _ => body,
        }
    }
}

/// A line of the alphabet, with (when `dirty`) some ill-formed sequences.
fn random_line(rng: &mut Rng, dirty: bool) -> Vec<u8> {
    const BAD: &[&[u8]] = &[b"\xff", b"\xe2\x82", b"\xc0\xaf", b"\x80"];
    let mut line = Vec::new();
    for _ in 0..rng.below(12) {
        if dirty && rng.below(100) < 4 {
            line.extend_from_slice(rng.pick(BAD));
        } else {
            line.extend_from_slice(rng.pick(ALPHABET).as_bytes());
        }
    }
    line
}

fn run(prog: &str, dir: &Path, args: &[&str]) -> (Vec<u8>, i32) {
    let mut c = if prog == "grep" {
        TestCommand::program("grep", dir)
    } else {
        TestCommand::new(prog, dir)
    };
    let o = c.env("LC_ALL", "C.UTF-8").args(args).run();
    (o.stdout, o.code)
}

#[test]
fn generated_perl_patterns_agree_with_gnu_grep() {
    if !gnu_grep() {
        eprintln!("skipped: GNU grep 3.x is not installed");
        return;
    }
    let dir = tempdir();
    let d = dir.path();
    let mut rng = Rng::new(0x9c4e_0b1d_57a3);
    let (mut compared, mut differences) = (0, Vec::new());
    for _ in 0..400 {
        let mut patterns = Patterns {
            rng: Rng::new(rng.next()),
            groups: 0,
        };
        let pattern = patterns.pattern();
        let dirty = !pattern.contains(r"\b");
        let mut text = Vec::new();
        for _ in 0..20 {
            text.extend(random_line(&mut rng, dirty));
            text.push(b'\n');
        }
        write(d, "text", &text);
        for opts in [
            &["-c"][..],
            &["-o", "-b"],
            &["-n"],
            &["-i", "-n"],
            &["-w", "-o"],
            &["-x", "-n"],
        ] {
            if dirty && opts.contains(&"-w") || opts.contains(&"-o") && pattern.contains("(?<") {
                continue;
            }
            let mut args = vec!["-a", "-P"];
            args.extend_from_slice(opts);
            args.extend(["-e", &pattern, "text"]);
            let want = run("grep", d, &args);
            if want.1 == 2 {
                // A pattern PCRE2 refuses (GNU grep's words are checked in grep_pcre.rs).
                continue;
            }
            compared += 1;
            let got = run("utf8-grep", d, &args);
            if got != want {
                differences.push(format!(
                    "{args:?}\n  ours: {:?}\n  GNU:  {:?}",
                    (String::from_utf8_lossy(&got.0), got.1),
                    (String::from_utf8_lossy(&want.0), want.1)
                ));
            }
        }
    }
    assert!(compared >= 1500, "only {compared} runs compared");
    assert!(
        differences.is_empty(),
        "{} differences in {compared} runs, the first ones:\n{}",
        differences.len(),
        differences[..differences.len().min(6)].join("\n")
    );
}
