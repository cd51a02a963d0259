//! Whether a `-P` pattern may be compiled without PCRE2's UTF mode: PCRE2 matches bytes
//! faster than characters, and for some patterns the two find the same matches.
//!
//! They do when every part of the pattern that consumes text matches ASCII only, and every
//! match consumes some text. Then each match starts at an ASCII byte, a place where a
//! search by characters starts too, and from there the two read the same bytes: an ASCII
//! atom fails on any other byte, whether PCRE2 sees it as part of a character, an invalid
//! sequence or a byte, look-behind of ASCII text steps back over ASCII bytes only, `\b` and
//! `\w` are ASCII in both (`(?a)`), and a back-reference repeats ASCII bytes. A pattern that
//! can match the empty string may match it inside a character when read by bytes, so it
//! keeps UTF mode, as do `.`, negated classes, `\W`, `\S`, `\D`, `\h`, `\v`, `\R`, `\X`,
//! `\C`, `\p`, escapes by code (`\x`, `\o`, `\0`, `\c`, `\g`, `\k`, `\N`, `\Q`), inline
//! options, named groups, conditionals, verbs and every character that is not ASCII. The
//! reading is conservative: what it does not know keeps UTF mode.

/// One group being read: whether each of its branches so far consumes text in every
/// match, and whether it is a look-around (whose text no match consumes).
struct Group {
    branches: Vec<bool>,
    look: bool,
}

impl Group {
    fn new(look: bool) -> Group {
        Group {
            branches: vec![false],
            look,
        }
    }

    /// Whether every match of the group consumes text.
    fn consumes(&self) -> bool {
        self.branches.iter().all(|&b| b)
    }

    fn mark(&mut self) {
        *self.branches.last_mut().expect("a branch") = true;
    }
}

/// Whether `pattern` (PCRE2 syntax, matched case-sensitively) finds the same matches by
/// bytes as in UTF mode, by the rule of this module.
pub(super) fn by_bytes(pattern: &str) -> bool {
    if !pattern.is_ascii() {
        return false;
    }
    let p = pattern.as_bytes();
    let mut groups = vec![Group::new(false)];
    let mut i = 0;
    while i < p.len() {
        let c = p[i];
        i += 1;
        // Whether this item consumes one character (then a quantifier may make it optional).
        let consumes = match c {
            b'\\' => {
                let Some(&n) = p.get(i) else { return false };
                i += 1;
                match n {
                    b'd' | b'w' | b's' | b'n' | b't' | b'r' | b'f' | b'e' | b'a' => true,
                    b'b' | b'B' | b'A' | b'z' | b'Z' | b'G' | b'K' => false,
                    // A back-reference (one digit only: more may be read as octal).
                    b'1'..=b'9' if !p.get(i).is_some_and(u8::is_ascii_digit) => false,
                    n if n.is_ascii_alphanumeric() => return false,
                    _ => true,
                }
            }
            b'[' => match class_end(p, i) {
                Some(end) => {
                    i = end;
                    true
                }
                None => return false,
            },
            b'(' => {
                let look = if p.get(i) == Some(&b'?') {
                    let rest = &p[i + 1..];
                    let (len, look) = if rest.starts_with(b":") || rest.starts_with(b">") {
                        (1, false)
                    } else if rest.starts_with(b"=") || rest.starts_with(b"!") {
                        (1, true)
                    } else if rest.starts_with(b"<=") || rest.starts_with(b"<!") {
                        (2, true)
                    } else {
                        return false;
                    };
                    i += 1 + len;
                    look
                } else if p.get(i) == Some(&b'*') {
                    return false;
                } else {
                    false
                };
                groups.push(Group::new(look));
                continue;
            }
            b')' => {
                let Some(group) = groups.pop() else {
                    return false;
                };
                let Some(outer) = groups.last_mut() else {
                    return false;
                };
                let (after, optional) = quantifier(p, i);
                i = after;
                if !group.look && group.consumes() && !optional {
                    outer.mark();
                }
                continue;
            }
            b'|' => {
                groups.last_mut().expect("a group").branches.push(false);
                continue;
            }
            b'.' => return false,
            b'^' | b'$' => false,
            _ => true,
        };
        let (after, optional) = quantifier(p, i);
        i = after;
        if consumes && !optional {
            groups.last_mut().expect("a group").mark();
        }
    }
    groups.len() == 1 && groups[0].consumes()
}

/// Reads a quantifier (with its lazy or possessive mark) at `p[i..]`, if any: where
/// reading goes on, and whether it allows no repetition. A brace that is not a quantifier
/// is read as none (PCRE2 takes it literally).
fn quantifier(p: &[u8], mut i: usize) -> (usize, bool) {
    let optional = match p.get(i) {
        Some(b'*' | b'?') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        Some(b'{') => {
            let Some(close) = p[i..].iter().position(|&c| c == b'}') else {
                return (i, false);
            };
            let body = &p[i + 1..i + close];
            let (min, max) = match body.iter().position(|&c| c == b',') {
                Some(k) => (&body[..k], &body[k + 1..]),
                None => (body, body),
            };
            let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
            if body.is_empty() || !digits(min) || !digits(max) || (min.is_empty() && max.is_empty())
            {
                return (i, false);
            }
            i += close + 1;
            min.iter().all(|&d| d == b'0')
        }
        _ => return (i, false),
    };
    if matches!(p.get(i), Some(b'?' | b'+')) {
        i += 1;
    }
    (i, optional)
}

/// Where the class whose `[` is just before `p[i]` ends (after its `]`), if it matches
/// ASCII characters only: not negated, and with escapes that stand for ASCII.
fn class_end(p: &[u8], mut i: usize) -> Option<usize> {
    if p.get(i) == Some(&b'^') {
        return None;
    }
    // A `]` first is a member.
    if p.get(i) == Some(&b']') {
        i += 1;
    }
    while i < p.len() {
        match p[i] {
            b'\\' => {
                let n = *p.get(i + 1)?;
                if n.is_ascii_alphanumeric() && !b"dwsntrfeab".contains(&n) {
                    return None;
                }
                i += 2;
            }
            b'[' if p.get(i + 1) == Some(&b':') => {
                if p.get(i + 2) == Some(&b'^') {
                    return None;
                }
                let close = p[i + 2..].windows(2).position(|w| w == b":]")?;
                i += close + 4;
            }
            b']' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::by_bytes;

    #[test]
    fn ascii_patterns_that_consume_text_go_by_bytes() {
        for p in [
            r"\b([a-z]+) \1\b",
            r"(?<=fn )[a-z_]+\(",
            r"let \K[a-z_]+",
            "unwrap",
            r"id=\d+",
            "(foo|bar)baz?",
            r"(?:ab)+",
            "x{2,}",
            r"[[:alpha:]]+ing\b",
            r"[]a-c\]]",
            r"^\s*//",
            r"(?>a+)b",
            r"a(?!b)",
            r"\(\)",
            "a{,3}b",
        ] {
            assert!(by_bytes(p), "{p}");
        }
    }

    #[test]
    fn patterns_that_may_differ_keep_utf_mode() {
        for p in [
            // Text that is not ASCII, or matches more than ASCII.
            "é",
            "a.b",
            "[^a]",
            r"[\W]",
            "[[:^alpha:]]",
            r"\W",
            r"\S+",
            r"\D",
            r"\h",
            r"\R",
            r"\X",
            r"\p{L}",
            r"\x{e9}",
            r"\x41",
            r"\12",
            r"\Qa\E",
            "(?i)a",
            "(?<n>a)",
            "(?(1)a|b)",
            "(*UCP)a",
            // Matches that may consume nothing.
            "",
            "a*",
            "a?",
            "a{0,3}",
            r"\b",
            "(?=a)",
            "(a)*",
            "(?:a|)",
            "a|b*",
            r"(a?)\1",
            // Not a pattern.
            "(a",
            "a)",
            "[ab",
        ] {
            assert!(!by_bytes(p), "{p}");
        }
    }
}
