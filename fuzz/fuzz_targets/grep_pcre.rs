//! utf8-grep `-P` (PCRE2) run in-process on any pattern and text: it never panics or hangs
//! (PCRE2's match and depth limits end a catastrophic pattern with one line, exit 2), an
//! error is one `utf8-grep: ` line with exit 2, and a string quoted as a PCRE2 literal
//! (`\Q...\E`) selects exactly the lines `-F` selects, with `-i`, `-w`, `-x`, `-v`, `-c` and
//! `-o` as the control byte asks.
//!
//! Input: one control byte (bit 0 `-i`, bit 1 `-w`, bit 2 `-x`, bit 3 `-v`, bit 4 `-o`,
//! bit 5 the pattern quoted as a literal), the pattern, a newline, the text (searched with
//! `-a` and `--from utf-8`, as its bytes).
// libfuzzer: -max_len=128 -detect_leaks=0
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
    let flags: Vec<&str> = [(1, "-i"), (2, "-w"), (4, "-x"), (8, "-v"), (16, "-o")]
        .iter()
        .filter(|(bit, _)| c & bit != 0)
        .map(|&(_, f)| f)
        .collect();
    let grep = |dialect: &str, pat: &[u8]| {
        let mut args = vec![arg("utf8-grep"), arg("-a"), arg("--from=utf-8"), arg(dialect)];
        args.extend(flags.iter().map(arg));
        args.extend([arg("-e"), arg(pat), path.clone().into_os_string()]);
        run(utf8_tools::grep::main_with, &args)
    };
    let literal = c & 32 != 0 && std::str::from_utf8(pattern).is_ok_and(|p| !p.contains("\\E"));
    let pat = if literal {
        [&b"\\Q"[..], pattern, b"\\E"].concat()
    } else {
        pattern.to_vec()
    };
    let out = grep("-P", &pat);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status <= 2, "{out:?}");
    if out.status == 2 {
        assert!(out.stdout.is_empty() || stderr.contains("backtracking limit"), "{out:?}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert!(
            !lines.is_empty() && lines.iter().all(|l| l.starts_with("utf8-grep: ")),
            "{stderr}"
        );
        // A pattern error is one line (and GNU's usage hint where it prints one).
        assert!(lines.len() <= 2, "{stderr}");
        assert!(!literal || stderr.contains("backtracking limit"), "{stderr}");
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
        assert_eq!(
            (out.status, &out.stdout),
            (fixed.status, &fixed.stdout),
            "-P {:?} against -F: {}",
            String::from_utf8_lossy(&pat),
            String::from_utf8_lossy(&fixed.stderr)
        );
    }
});
