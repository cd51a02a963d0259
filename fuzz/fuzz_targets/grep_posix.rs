//! utf8-grep's POSIX basic and extended expressions (`-G`, `-E`): any pattern translates
//! and compiles without a panic (or is refused with a message), and a string written as a
//! POSIX literal (its special characters escaped) matches exactly where the fixed-string
//! engine finds the string, from every start, with `-i`, `-w` and `-x` too.
// libfuzzer: -max_len=96
// sanitizer: none (safe code under test; `cargo xtask fuzz --asan` to run it with ASan)
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use utf8_tools::grep::{Dialect, Matcher, Syntax, translate};

/// `s` as a literal of `syntax`: a backslash before each character it gives a meaning to.
fn escape(s: &str, syntax: Syntax) -> String {
    let special = match syntax {
        Syntax::Basic => ".[]*^$\\",
        Syntax::Extended => ".[]()*+?{}|^$\\",
    };
    s.chars()
        .flat_map(|c| {
            let slash = special.contains(c).then_some('\\');
            slash.into_iter().chain(std::iter::once(c))
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let (ctl, rest) = utf8_fuzz::split_control::<1>(data);
    let flags = ctl[0];
    let (syntax, dialect) = if flags & 1 == 0 {
        (Syntax::Basic, Dialect::Basic)
    } else {
        (Syntax::Extended, Dialect::Extended)
    };
    let (ignore_case, word, line) = (flags & 2 != 0, flags & 4 != 0, flags & 8 != 0);
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (pattern, hay) = text.split_once('\n').unwrap_or((text, ""));
    let hay = hay.replace('\n', " ");
    // Any pattern: a translation or a message, and a matcher or a message; never a panic.
    let _ = translate(pattern, syntax);
    if let Ok(m) = Matcher::new(vec![pattern.to_string()], dialect, ignore_case, word, line) {
        let _ = m.find_in(hay.as_bytes(), 0);
    }
    // The pattern's text as a literal: the same matches as the fixed string.
    let literal = escape(pattern, syntax);
    let fixed = Matcher::new(vec![pattern.to_string()], Dialect::Fixed, ignore_case, word, line);
    let posix = Matcher::new(vec![literal.clone()], dialect, ignore_case, word, line);
    let (Ok(fixed), Ok(posix)) = (fixed, posix) else {
        panic!("{pattern:?} as a fixed string or as {literal:?} did not compile");
    };
    for from in (0..=hay.len()).filter(|&i| hay.is_char_boundary(i)) {
        assert_eq!(
            posix.find_in(hay.as_bytes(), from),
            fixed.find_in(hay.as_bytes(), from),
            "{literal:?} ({syntax:?}) against the fixed string {pattern:?} in {hay:?} from {from}"
        );
    }
});
