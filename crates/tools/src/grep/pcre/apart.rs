//! Whether a `-P` pattern can be searched over many lines in one PCRE2 call
//! ([`lines_apart`]).
//!
//! A search of each line on its own is what GNU grep 3.8 does, and what decides. One call
//! over a buffer of lines (compiled with `PCRE2_MULTILINE`, so that `^` and `$` match at the
//! line ends) finds the same first line when nothing in the pattern sees past the ends of the
//! text it matches, other than what a line's end looks like from inside (`\b`, `^`, `$`,
//! `\w` after the end: a newline reads as a line's end does). Then a match that lies within
//! one line is a match of that line alone, and a line's own match is a match in the buffer,
//! so the buffer's first match starts in the first line that has one, or crosses a line's
//! end (a class such as `\s` or `[^a]` took the newline), which the searcher settles by
//! searching that line on its own.

/// Whether the `-P` pattern `pattern` holds none of what makes a match in a buffer of lines
/// differ from a match of one line: look-around (`(?=`, `(?!`, `(?<=`, `(?<!`, the `(*...)`
/// spellings and `(?*`), `\K` (the reported start is not where the match began), the subject
/// anchors `\A`, `\z`, `\Z` and `\G`, `\Q` (whose text would hide what follows from this
/// reading), conditions `(?(`, callouts `(?C`, backtracking verbs (`(*COMMIT)` would end the
/// search of the whole buffer), options unset inline (`(?-m)`, `(?^)`), and what does not
/// give back what it took: atomic groups `(?>`, possessive quantifiers (`[^a]*+` takes the
/// newline and the line's `$` with it, where the line alone would have matched), `\R` and
/// `\X` (atomic: `\R` takes a CR and the LF after it), and
/// subroutine calls and recursion (`(?1)`, `(?R)`, `(?&n)`, `(?P>n)`, `\g<n>`; `\g` as a
/// back-reference is refused with them).
///
/// The reading is conservative: an escape is skipped with its backslash, and anything that
/// looks like one of those (even inside a class, `[(?=]`) answers `false`, which only costs
/// the search its speed.
pub(super) fn lines_apart(pattern: &str) -> bool {
    let b = pattern.as_bytes();
    let mut i = 0;
    // The byte before, when it may be a quantifier (`*`, `+`, `?`, `}` not escaped).
    let mut after_quantifier = false;
    while i < b.len() {
        let quantifier = after_quantifier;
        after_quantifier = matches!(b[i], b'*' | b'+' | b'?' | b'}');
        match b[i] {
            b'\\' => {
                if matches!(
                    b.get(i + 1),
                    Some(b'K' | b'A' | b'z' | b'Z' | b'G' | b'Q' | b'g' | b'R' | b'X')
                ) {
                    return false;
                }
                after_quantifier = false;
                i += 2;
                continue;
            }
            b'+' if quantifier => return false,
            b'(' => match b.get(i + 1) {
                Some(b'*') => return false,
                Some(b'?') => {
                    let rest = &b[i + 2..];
                    match rest.first() {
                        Some(b'=' | b'!' | b'(' | b'C' | b'*' | b'>' | b'R' | b'&' | b'+') => {
                            return false;
                        }
                        Some(c) if c.is_ascii_digit() => return false,
                        Some(b'<') if matches!(rest.get(1), Some(b'=' | b'!' | b'*')) => {
                            return false;
                        }
                        Some(b'P') if rest.get(1) == Some(&b'>') => return false,
                        _ => {}
                    }
                    // Inline options: only setting them keeps `m`.
                    let options = rest
                        .iter()
                        .take_while(|c| c.is_ascii_alphabetic() || matches!(c, b'-' | b'^'));
                    if options.clone().any(|&c| c == b'-' || c == b'^') {
                        return false;
                    }
                }
                _ => {}
            },
            _ => {}
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::lines_apart;

    #[test]
    fn plain_patterns_are_apart() {
        for p in [
            r"\b([a-z]+) \1\b",
            "unwrap",
            r"^\s*//",
            r"(?i)error",
            r"(?<name>ab)\k<name>",
            r"(?:a|b)+$",
            r"[^a]+",
            r"\\K",
            r"(?#comment)x",
            r"(?x) a b ",
            r"\++",
            r"[+]+",
            r"a+b?",
            "",
        ] {
            assert!(lines_apart(p), "{p}");
        }
    }

    #[test]
    fn what_sees_past_a_match_is_not() {
        for p in [
            r"(?<=fn )[a-z]+",
            r"(?<!x)y",
            r"a(?=b)",
            r"a(?!b)",
            r"let \K\w+",
            r"\Aa",
            r"a\z",
            r"a\Z",
            r"\Ga",
            r"\Q(?=\E",
            r"(*UTF)a",
            r"a(*COMMIT)b",
            r"(*positive_lookahead:a)",
            r"(?(1)a|b)",
            r"(?C1)a",
            r"(?-m)^a",
            r"(?i-m)a",
            r"(?^)a",
            r"(?*a)",
            r"(?<*a)",
            r"[(?=]",
            r"(?:A)[^a-c]*+",
            r"A(?>c)\d|\s*+",
            r"a++",
            r"a?+b",
            r"a{2}+",
            r"(a)(?1)",
            r"(?R)?a",
            r"(?&n)",
            r"(?P>n)",
            r"(?+1)(a)",
            r"\g<1>(a)",
            r"\R",
            r"a\X",
        ] {
            assert!(!lines_apart(p), "{p}");
        }
    }
}
