//! utf8-grep's matchers (one pattern: memmem; several: aho-corasick leftmost-longest; `-i`:
//! regex-automata) against a naive search; `-w` and `-x` too.
// libfuzzer: -max_len=128
// sanitizer: none (safe code under test; `cargo xtask fuzz --asan` to run it with ASan)
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use utf8_fuzz::grep::word_ok;
use utf8_tools::grep::{Dialect, Matcher};

/// Leftmost, then longest pattern there, satisfying `ok`.
fn naive(pats: &[String], hay: &[u8], ok: impl Fn(usize, usize) -> bool) -> Option<(usize, usize)> {
    let mut sorted: Vec<&String> = pats.iter().collect();
    sorted.sort_by_key(|p| std::cmp::Reverse(p.len()));
    (0..=hay.len()).find_map(|s| {
        sorted
            .iter()
            .filter(|p| hay[s..].starts_with(p.as_bytes()))
            .map(|p| (s, s + p.len()))
            .find(|&(s, e)| ok(s, e))
    })
}

fuzz_target!(|data: &[u8]| {
    let (ctl, rest) = utf8_fuzz::split_control::<1>(data);
    let flags = ctl[0];
    let npats = usize::from(flags >> 4) % 4 + 1;
    let mut parts = rest.splitn(npats + 1, |&b| b == b'\n');
    let mut pats = Vec::new();
    for _ in 0..npats {
        match parts.next().map(std::str::from_utf8) {
            Some(Ok(p)) => pats.push(p.to_string()),
            _ => return,
        }
    }
    // One line of haystack (the tools search line by line).
    let hay: Vec<u8> = parts
        .next()
        .unwrap_or_default()
        .iter()
        .copied()
        .filter(|&b| b != b'\n')
        .collect();
    let ignore_case = flags & 1 == 1;
    let word = flags & 2 == 2;
    let line = flags & 4 == 4;
    let Ok(m) = Matcher::new(pats.clone(), Dialect::Fixed, ignore_case, word, line) else {
        return;
    };
    let exact = naive(&pats, &hay, |_, _| true);
    if !ignore_case {
        assert_eq!(m.find_raw(&hay), exact, "find_raw {pats:?}");
        let want = if line {
            pats.iter()
                .any(|p| p.as_bytes() == hay)
                .then_some((0, hay.len()))
        } else if word {
            naive(&pats, &hay, |s, e| word_ok(&hay, s, e))
        } else {
            exact
        };
        assert_eq!(
            m.find_in(&hay, 0),
            want,
            "find_in {pats:?} w={word} x={line}"
        );
        return;
    }
    let found = m.find_raw(&hay);
    // -i finds at least every exact match, never later.
    if let Some((s, _)) = exact {
        let (fs, _) = found.expect("-i missed an exact match");
        assert!(fs <= s, "-i found {fs}, exact match at {s}");
    }
    if let Some((s, e)) = found {
        assert!(s <= e && e <= hay.len());
    }
    // ASCII only: exactly ASCII case-insensitive leftmost(-first in length order) search.
    if hay.is_ascii() && pats.iter().all(|p| p.is_ascii()) {
        let low: Vec<String> = pats.iter().map(|p| p.to_ascii_lowercase()).collect();
        let hay_low = hay.to_ascii_lowercase();
        assert_eq!(
            found,
            naive(&low, &hay_low, |_, _| true),
            "-i ascii {pats:?}"
        );
    }
});
