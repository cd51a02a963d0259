//! utf8-grep `-P` (PCRE2) run in-process on any pattern and text: it never panics or hangs
//! (PCRE2's match and depth limits end a catastrophic pattern with one line, exit 2), an
//! error is one `utf8-grep: ` line with exit 2, and a string quoted as a PCRE2 literal
//! (`\Q...\E`) selects exactly the lines `-F` selects, with `-i`, `-w`, `-x`, `-v`, `-c` and
//! `-o` as the control byte asks.
//!
//! Input: one control byte (bit 0 `-i`, bit 1 `-w`, bit 2 `-x`, bit 3 `-v`, bit 4 `-o`,
//! bit 5 the pattern quoted as a literal, bit 6 `-c`, bit 7 a non-empty literal spelled with
//! a backslash before each ASCII character other than a letter or digit instead of
//! `\Q...\E`, which lets the search run over many lines in one call), the pattern, a
//! newline, the text (searched with `-a` and `--from utf-8`, as its bytes). A run longer
//! than `-timeout` seconds is a finding: the limits did not end a catastrophic pattern.
// libfuzzer: -max_len=128 -detect_leaks=0 -timeout=10
// sanitizer: none (safe code under test; `cargo xtask fuzz --asan` to run it with ASan)
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use utf8_fuzz::tool::{arg, run, write_input};

fuzz_target!(|data: &[u8]| {
    let (ctl, rest) = utf8_fuzz::split_control::<1>(data);
    let c = ctl[0];
    let mut parts = rest.splitn(2, |&b| b == b'\n');
    let pattern = parts.next().unwrap_or_default();
    let text = parts.next().unwrap_or_default();
    if pattern.contains(&0) {
        return; // no NUL in an argument
    }
    let path = write_input("text", text);
    let flags: Vec<&str> = [
        (1, "-i"),
        (2, "-w"),
        (4, "-x"),
        (8, "-v"),
        (16, "-o"),
        (64, "-c"),
    ]
    .iter()
    .filter(|(bit, _)| c & bit != 0)
    .map(|&(_, f)| f)
    .collect();
    let grep = |dialect: &str, pat: &[u8]| {
        let mut args = vec![
            arg("utf8-grep"),
            arg("-a"),
            arg("--from=utf-8"),
            arg(dialect),
        ];
        args.extend(flags.iter().map(arg));
        args.extend([arg("-e"), arg(pat), path.clone().into_os_string()]);
        run(utf8_tools::grep::main_with, &args)
    };
    let escaped = c & 128 != 0 && !pattern.is_empty();
    let literal =
        c & 32 != 0 && std::str::from_utf8(pattern).is_ok_and(|p| escaped || !p.contains("\\E"));
    let pat = if literal && escaped {
        pattern
            .iter()
            .flat_map(|&b| {
                let slash = (b.is_ascii() && !b.is_ascii_alphanumeric()).then_some(b'\\');
                slash.into_iter().chain([b])
            })
            .collect()
    } else if literal {
        [&b"\\Q"[..], pattern, b"\\E"].concat()
    } else {
        pattern.to_vec()
    };
    let out = grep("-P", &pat);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status <= 2, "{out:?}");
    if out.status == 2 {
        // Output before the trouble only when a match limit (GNU's `exceeded PCRE's ...`,
        // `exhausted PCRE JIT stack`) ended a search, not for a pattern error.
        assert!(out.stdout.is_empty() || stderr.contains("PCRE"), "{out:?}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert!(
            !lines.is_empty() && lines.iter().all(|l| l.starts_with("utf8-grep: ")),
            "{stderr}"
        );
        // A pattern error is one line (and GNU's usage hint where it prints one).
        assert!(lines.len() <= 2, "{stderr}");
        assert!(
            !literal || stderr.contains("backtracking limit"),
            "{stderr}"
        );
        return;
    }
    assert!(stderr.is_empty(), "{stderr}");
    if literal {
        // `-F` and `-P` part ways on case folding beyond ASCII-compatible simple folds
        // (PCRE2 folds per character, the fixed-string engine by Unicode simple folding,
        // which agree) and on `-w` (word characters: ASCII for `-P` as GNU grep 3.8's,
        // Unicode letters for `-F`): compared on ASCII only when either is asked.
        if (c & 3 != 0) && !(pattern.is_ascii() && text.is_ascii()) {
            return;
        }
        let fixed = grep("-F", pattern);
        // GNU grep reads no file for one empty pattern with -v (no -w, -x: grep.c's
        // `keycc == 0 && out_invert`), so `-F ''` prints nothing, not even -c's count; `-P`
        // has `\Q\E` there, not empty, and counts the lines it selects: none.
        if pattern.is_empty() && c & 8 != 0 && c & 6 == 0 && c & 64 != 0 {
            assert_eq!((fixed.status, &fixed.stdout[..]), (1, &b""[..]), "-F ''");
            assert_eq!((out.status, &out.stdout[..]), (1, &b"0\n"[..]), "-P \\Q\\E");
            return;
        }
        assert_eq!(
            (out.status, &out.stdout),
            (fixed.status, &fixed.stdout),
            "-P {:?} against -F: {}",
            String::from_utf8_lossy(&pat),
            String::from_utf8_lossy(&fixed.stderr)
        );
    }
});
