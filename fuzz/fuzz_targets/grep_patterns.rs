//! `utf8-grep -F` run in-process on a pattern list (`-e` each, one `-e` holding newlines, or
//! `-f FILE`) with any of `-i -w -x -v -o -c`, against the naive grep of `src/grep.rs`:
//! the exit status, and the selected lines, the `-o` matches or the `-c` count printed.
//! `-i` is compared exactly where patterns and text are ASCII; elsewhere it must select
//! every line the exact search selects.
//!
//! Input: two control bytes (flags; the number of patterns, 0..=3 with `-f`, else 1..=4),
//! the patterns one per line, then the text (searched with `-a`).
// libfuzzer: -max_len=256 -detect_leaks=0
// sanitizer: none (safe code under test; `cargo xtask fuzz --asan` to run it with ASan)
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use utf8_fuzz::grep::{Naive, Opts, lines};
use utf8_fuzz::tool::{arg, run, write_input};

fuzz_target!(|data: &[u8]| {
    let (ctl, rest) = utf8_fuzz::split_control::<2>(data);
    let flags = ctl[0];
    let opts = Opts {
        ignore_case: flags & 1 != 0,
        word: flags & 2 != 0,
        line: flags & 4 != 0,
    };
    let (invert, only, count) = (flags & 8 != 0, flags & 16 != 0, flags & 32 != 0);
    let from_file = flags & 64 != 0;
    let one_e = flags & 128 != 0;
    let npats = if from_file {
        usize::from(ctl[1] % 4)
    } else {
        usize::from(ctl[1] % 4) + 1
    };
    let mut parts = rest.splitn(npats + 1, |&b| b == b'\n');
    let raw: Vec<&[u8]> = parts.by_ref().take(npats).collect();
    if raw.len() < npats {
        return;
    }
    let text = parts.next().unwrap_or_default();

    // -F: the naive oracle searches fixed strings (the default is a basic regexp).
    // --from utf-8: the text is its bytes (a UTF-16 byte order mark would decode it).
    let mut args = vec![
        arg("utf8-grep"),
        arg("-a"),
        arg("-F"),
        arg("--from"),
        arg("utf-8"),
    ];
    for (on, f) in [
        (opts.ignore_case, "-i"),
        (opts.word, "-w"),
        (opts.line, "-x"),
        (invert, "-v"),
        (only, "-o"),
        (count, "-c"),
    ] {
        if on {
            args.push(arg(f));
        }
    }
    if from_file {
        let mut list = raw.join(&b'\n');
        if npats > 0 {
            list.push(b'\n');
        }
        args.push(arg("-f"));
        args.push(write_input("patterns", &list).into_os_string());
    } else if one_e {
        args.push(arg("-e"));
        args.push(arg(raw.join(&b'\n')));
    } else {
        for p in &raw {
            args.push(arg("-e"));
            args.push(arg(p));
        }
    }
    args.push(write_input("text", text).into_os_string());
    let out = run(utf8_tools::grep::main_with, &args);

    let Ok(pats) = raw
        .iter()
        .map(|p| std::str::from_utf8(p).map(str::to_string))
        .collect::<Result<Vec<_>, _>>()
    else {
        // A pattern that is not UTF-8 matches its bytes, as GNU grep's (the naive oracle
        // takes UTF-8 patterns): no trouble, nothing on stderr.
        assert!(out.status < 2, "a pattern that is not UTF-8: {out:?}");
        assert!(out.stderr.is_empty(), "{out:?}");
        return;
    };
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let naive = Naive::new(&pats, opts);
    let exact = Naive::new(
        &pats,
        Opts {
            ignore_case: false,
            ..opts
        },
    );
    let lines = lines(text);
    // No pattern selects nothing (every line with -v); one empty pattern with -v (no -w,
    // -x) selects nothing and GNU grep then reads no file and prints nothing, not even -c.
    let nothing = (pats.is_empty() && !invert)
        || (invert && !opts.word && !opts.line && pats.len() == 1 && pats[0].is_empty());
    let selected: Vec<bool> = lines
        .iter()
        .map(|l| (!pats.is_empty() && naive.find(l, 0).is_some()) != invert)
        .collect();
    let status = if selected.contains(&true) { 0 } else { 1 };
    if nothing {
        assert_eq!((out.status, &out.stdout[..]), (1, &b""[..]), "{args:?}");
        return;
    }
    let ascii = text.is_ascii() && pats.iter().all(|p| p.is_ascii());
    if opts.ignore_case && !ascii {
        // Exact matches are found under -i too.
        assert!(out.status < 2);
        if !invert && !count && !only {
            let got = utf8_fuzz::grep::lines(&out.stdout);
            let want = lines.iter().filter(|l| exact.find(l, 0).is_some()).count();
            assert!(
                got.len() >= want,
                "-i selected {} lines, exact {want}",
                got.len()
            );
        }
        return;
    }
    let mut want = Vec::new();
    if count {
        want.extend_from_slice(format!("{}\n", selected.iter().filter(|&&s| s).count()).as_bytes());
    } else {
        for (l, &sel) in lines.iter().zip(&selected) {
            if !sel {
                continue;
            }
            if only {
                if !invert {
                    for (s, e) in naive.only(l) {
                        want.extend_from_slice(&l[s..e]);
                        want.push(b'\n');
                    }
                }
            } else {
                want.extend_from_slice(l);
                want.push(b'\n');
            }
        }
    }
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&want),
        "{pats:?} {opts:?} v={invert} o={only} c={count}"
    );
    assert_eq!(out.stdout, want);
    assert_eq!(out.status, status, "{pats:?}");
});
