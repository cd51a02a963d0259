//! `--include`, `--exclude`, `--exclude-dir`: `utf8_tools::grep::glob_match` and `Globs`
//! against the C library's fnmatch(3) with flags 0 (GNU grep's matcher), in the C locale.
//!
//! Input: lines; the first byte's low two bits give the number of patterns (1..=3), the
//! lines after them are names (at most 4). Compared where the two must agree (glob.rs):
//! ASCII patterns and names, and any UTF-8 pattern without `?` or `[`. Patterns with more
//! than 4 runs of `*` are skipped: glibc's fnmatch backtracks, exponentially in the stars.
// libfuzzer: -max_len=96
#![no_main]
#![forbid(unsafe_code)]

use std::ffi::{CString, OsStr};

use libfuzzer_sys::fuzz_target;
use utf8_tools::grep::{Globs, glob_match};

fn star_runs(p: &str) -> usize {
    p.as_bytes()
        .windows(2)
        .filter(|w| w[1] == b'*' && w[0] != b'*')
        .count()
        + usize::from(p.starts_with('*'))
}

fuzz_target!(|data: &[u8]| {
    let Some((&ctl, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if text.contains('\0') {
        return;
    }
    let npats = usize::from(ctl & 3).max(1);
    let mut lines = text.split('\n');
    let pats: Vec<&str> = lines.by_ref().take(npats).collect();
    let names: Vec<&str> = lines.take(4).collect();
    if pats.len() < npats || names.is_empty() || pats.iter().any(|p| star_runs(p) > 4) {
        return;
    }
    // glibc restarts the bracket expression after a `[=` without its `=]` (`[a[=]]` does not
    // match `a]`, `[[=]]` matches `=]`): a quirk glob.rs does not copy; such patterns are
    // not compared.
    let quirk = |p: &str| {
        p.match_indices("[=")
            .any(|(i, _)| !p[i + 2..].get(1..).is_some_and(|r| r.starts_with("=]")))
    };
    let comparable =
        |p: &str, n: &str| !quirk(p) && ((p.is_ascii() && n.is_ascii()) || !p.contains(['?', '[']));
    let each: Vec<Globs> = pats.iter().map(|p| Globs::new([*p])).collect();
    let all = Globs::new(pats.iter().copied());
    for name in &names {
        let cname = CString::new(*name).expect("no NUL");
        let mut last = None;
        let mut exact = true;
        for (i, (p, g)) in pats.iter().zip(&each).enumerate() {
            let ours = g.is_match(OsStr::new(name));
            let Some(want) = utf8_fuzz_fnmatch::fnmatch(&CString::new(*p).unwrap(), &cname) else {
                exact = false;
                continue;
            };
            if !comparable(p, name) {
                exact = false;
                continue;
            }
            assert_eq!(
                ours, want,
                "pattern {p:?} name {name:?}: ours {ours}, fnmatch {want}"
            );
            if want {
                last = Some(i);
            }
        }
        if npats == 1 && exact {
            assert_eq!(glob_match(pats[0], name), last.is_some());
        }
        if exact {
            assert_eq!(all.last_match(OsStr::new(name)), last, "{pats:?} {name:?}");
            assert_eq!(all.is_match(OsStr::new(name)), last.is_some());
        }
    }
});
