//! A literal every match of a `-P` pattern holds, read from the pattern's text: the
//! prefilter that lets the searcher skip the lines without it instead of calling PCRE2 on
//! each. The reading is conservative: any construct it does not know (alternation, escapes
//! with arguments, conditionals, recursion, inline options, `\Q`) gives no literal, never a
//! wrong one.

/// The longest run of literal characters every match of `pattern` (PCRE2 syntax, matched
/// case-sensitively) holds, when one of at least two bytes can be read from it.
pub(super) fn required(pattern: &str) -> Option<Vec<u8>> {
    let chars: Vec<char> = pattern.chars().collect();
    // Per open group: the runs it holds so far, and whether it is a negative assertion
    // (whose text no match needs).
    let mut frames: Vec<(Vec<String>, bool)> = vec![(Vec::new(), false)];
    let mut run = String::new();
    let mut i = 0;
    // Ends the current run into the innermost group's runs.
    fn end(frames: &mut [(Vec<String>, bool)], run: &mut String) {
        if !run.is_empty() {
            let frame = frames.last_mut().expect("the pattern's frame");
            frame.0.push(std::mem::take(run));
        }
    }
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '\\' => {
                let n = *chars.get(i)?;
                i += 1;
                if n.is_ascii_alphanumeric() {
                    // Escapes without an argument only (classes, assertions, `\K`, a
                    // back-reference's digits).
                    if n.is_ascii_digit() {
                        while chars.get(i).is_some_and(char::is_ascii_digit) {
                            i += 1;
                        }
                    } else if !"dDwWsSbBhHvVRKAzZGntrfea".contains(n) {
                        return None;
                    }
                    end(&mut frames, &mut run);
                    i = quantifier(&chars, i, &mut frames, None)?;
                } else if n.is_ascii() {
                    run.push(n);
                    i = quantifier(&chars, i, &mut frames, Some(&mut run))?;
                } else {
                    return None;
                }
            }
            '|' => return None,
            '[' => {
                end(&mut frames, &mut run);
                i = class_end(&chars, i)?;
                i = quantifier(&chars, i, &mut frames, None)?;
            }
            '(' => {
                end(&mut frames, &mut run);
                let negative = if chars.get(i) == Some(&'?') {
                    let rest: String = chars[i + 1..].iter().take(3).collect();
                    if rest.starts_with(':') || rest.starts_with('>') || rest.starts_with('=') {
                        i += 2;
                        false
                    } else if rest.starts_with('!') {
                        i += 2;
                        true
                    } else if rest.starts_with("<=") {
                        i += 3;
                        false
                    } else if rest.starts_with("<!") {
                        i += 3;
                        true
                    } else {
                        // Named groups, comments, conditionals, recursion, options.
                        return None;
                    }
                } else if chars.get(i) == Some(&'*') {
                    return None;
                } else {
                    false
                };
                frames.push((Vec::new(), negative));
            }
            ')' => {
                end(&mut frames, &mut run);
                let (runs, negative) = frames.pop()?;
                if frames.is_empty() {
                    return None;
                }
                let after = quantifier(&chars, i, &mut frames, None)?;
                let optional = min_zero(&chars[i..after]);
                i = after;
                if !negative && !optional {
                    frames.last_mut().expect("an outer frame").0.extend(runs);
                }
            }
            '.' | '^' | '$' => {
                end(&mut frames, &mut run);
                i = quantifier(&chars, i, &mut frames, None)?;
            }
            '*' | '+' | '?' | '{' => return None,
            _ => {
                run.push(c);
                i = quantifier(&chars, i, &mut frames, Some(&mut run))?;
            }
        }
    }
    end(&mut frames, &mut run);
    if frames.len() != 1 {
        return None;
    }
    let best = frames.pop()?.0.into_iter().max_by_key(String::len)?;
    (best.len() >= 2).then(|| best.into_bytes())
}

/// Reads a quantifier at `chars[i..]` (with its lazy or possessive mark), if any, and
/// returns where reading goes on. Repeating the last character of `run` ends the run
/// after it (`ab+c` holds `ab`, not `abc`), or before it when the repetition may be empty
/// (`ab?c` holds `a`). `None` for a brace that is not a plain quantifier.
fn quantifier(
    chars: &[char],
    mut i: usize,
    frames: &mut [(Vec<String>, bool)],
    run: Option<&mut String>,
) -> Option<usize> {
    let start = i;
    match chars.get(i) {
        Some('*' | '+' | '?') => i += 1,
        Some('{') => {
            let close = chars[i..].iter().position(|&c| c == '}')? + i;
            let body: String = chars[i + 1..close].iter().collect();
            let (min, max) = body.split_once(',').unwrap_or((&body, &body));
            let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
            if body.is_empty() || !digits(min) || !digits(max) || (min.is_empty() && max.is_empty())
            {
                return None;
            }
            i = close + 1;
        }
        _ => return Some(i),
    }
    if matches!(chars.get(i), Some('?' | '+')) {
        i += 1;
    }
    if let Some(run) = run {
        let last = run.pop().expect("a character just read");
        if !min_zero(&chars[start..i]) {
            run.push(last);
        }
        if !run.is_empty() {
            frames
                .last_mut()
                .expect("a frame")
                .0
                .push(std::mem::take(run));
        }
    }
    Some(i)
}

/// Whether the quantifier `q` (empty: none) allows no repetition.
fn min_zero(q: &[char]) -> bool {
    match q.first() {
        Some('*' | '?') => true,
        Some('{') => matches!(q.get(1), Some(',') | Some('0')),
        _ => false,
    }
}

/// Where the class whose `[` is just before `chars[i]` ends (after its `]`).
fn class_end(chars: &[char], mut i: usize) -> Option<usize> {
    if chars.get(i) == Some(&'^') {
        i += 1;
    }
    // A `]` first is a member.
    if chars.get(i) == Some(&']') {
        i += 1;
    }
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '[' if chars.get(i + 1) == Some(&':') => {
                let close = chars[i + 2..].windows(2).position(|w| w == [':', ']'])?;
                i += close + 4;
            }
            ']' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::required;

    fn lit(p: &str) -> Option<String> {
        required(p).map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn literals_every_match_holds() {
        assert_eq!(lit(r"(?<=fn )[a-z_]+\("), Some("fn ".into()));
        assert_eq!(lit(r"let \K[a-z_]+"), Some("let ".into()));
        assert_eq!(lit(r"id=\d+"), Some("id=".into()));
        assert_eq!(lit(r"foo\.bar"), Some("foo.bar".into()));
        assert_eq!(lit("abc+d"), Some("abc".into()));
        assert_eq!(lit("xyz?w"), Some("xy".into()));
        assert_eq!(lit("ab{0,3}cd"), Some("cd".into()));
        assert_eq!(lit("ab{2}c"), Some("ab".into()));
        // The optional group's text is not required, what follows it is.
        assert_eq!(lit("(?:hello)* x"), Some(" x".into()));
        assert_eq!(lit("(?:hello)+ x"), Some("hello".into()));
        assert_eq!(lit("(?>atomic)"), Some("atomic".into()));
        assert_eq!(lit("日本語."), Some("日本語".into()));
        assert_eq!(lit(r"[a\]b]word"), Some("word".into()));
        assert_eq!(lit(r"[[:alpha:]]+ing\b"), Some("ing".into()));
        assert_eq!(lit(r"(\w+) \1 end"), Some(" end".into()));
    }

    #[test]
    fn no_literal_where_one_is_not_needed_or_not_read() {
        for p in [
            "(?!hello)x",
            "(?<!hello)x",
            "foo|bar",
            "(?i)hello",
            r"\Qa.b\E",
            r"\x{41}\x{42}",
            r"\p{L}xx",
            "(?<name>ab)",
            "(?(1)ab|cd)",
            "a{,2}bb{x}",
            "(*SKIP)ab",
            r"\d+",
            "a.b.c",
            "[ab",
            "ab)",
        ] {
            assert_eq!(lit(p), None, "{p}");
        }
        // The optional group's text is not required; the space alone is too short.
        assert_eq!(lit("(?:hello)?x"), None);
    }
}
