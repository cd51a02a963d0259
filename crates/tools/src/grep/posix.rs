//! POSIX basic (`-G`) and extended (`-E`) regular expressions, with GNU grep's extensions,
//! translated into the syntax of `regex-syntax` (which regex-automata compiles).
//!
//! The translation follows GNU grep's own parser (gnulib's `dfa.c`) where POSIX leaves a
//! choice: in a basic expression `^` is an anchor only at the start of the pattern, after
//! `\(` or after `\|`, and `$` only at the end, before `\)` or before `\|` (elsewhere both
//! are literal); `*` (and `\+`, `\?`, `\{`) with nothing before it is literal in a basic
//! expression and repeats the empty string in an extended one; an extended `{` that does
//! not start a valid interval is literal, a basic `\{` is an error; an unmatched `)` is
//! literal in an extended expression. `\w \W \s \S \b \B \< \>` are GNU's; a backslash before
//! any other character makes it literal. Bracket expressions take POSIX classes in their
//! Unicode meaning (Unicode Technical Standard #18, annex C), ranges by code point,
//! `[=c=]` and `[.c.]` for a single character.

use std::fmt::Write;

use bracket::bracket;

mod bracket;

/// The two POSIX syntaxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// `-G`: basic regular expressions (`\(`, `\{`, `\|`, `\+`, `\?` are the operators).
    Basic,
    /// `-E`: extended regular expressions.
    Extended,
}

/// The largest count an interval takes (glibc's `RE_DUP_MAX`).
const DUP_MAX: u32 = 0x7fff;

/// One group being read: the alternatives closed so far and the current one.
#[derive(Default)]
struct Group {
    alts: Vec<String>,
    cur: String,
    /// Where the last atom of `cur` starts (what a repetition applies to).
    last: Option<usize>,
    /// Nothing but anchors since the group's or the alternative's start (GNU's `laststart`).
    at_start: bool,
}

impl Group {
    fn new() -> Group {
        Group {
            at_start: true,
            ..Group::default()
        }
    }

    fn atom(&mut self, text: &str) {
        self.last = Some(self.cur.len());
        self.cur.push_str(text);
        self.at_start = false;
    }

    /// An anchor: an atom that keeps `at_start`.
    fn anchor(&mut self, text: &str) {
        self.last = Some(self.cur.len());
        self.cur.push_str(text);
    }

    fn literal(&mut self, c: char) {
        let mut buf = [0; 4];
        self.atom(&regex_syntax::escape(c.encode_utf8(&mut buf)));
    }

    /// Applies `op` (`*`, `+`, `?`, `{m,n}`) to the last atom; with none, to the empty
    /// string, which leaves the expression as it is.
    fn repeat(&mut self, op: &str) {
        if let Some(at) = self.last {
            let atom = self.cur.split_off(at);
            let _ = write!(self.cur, "(?:{atom}){op}");
        }
        self.at_start = false;
    }

    fn alternative(&mut self) {
        self.alts.push(std::mem::take(&mut self.cur));
        self.last = None;
        self.at_start = true;
    }

    fn finish(mut self) -> String {
        self.alts.push(self.cur);
        self.alts.join("|")
    }
}

/// A pattern in `regex-syntax`'s syntax, and GNU grep's warnings about the POSIX one.
#[derive(Debug, PartialEq, Eq)]
pub struct Translation {
    /// The pattern, to be compiled in multi-line mode (`^` and `$` match at line ends).
    /// A back-reference is widened to the expression of its group (`\(a*\)\1` is
    /// `(?:a*)(?:a*)`), as GNU grep's `dfa.c` does: the automaton then finds every line that
    /// can match, and some that cannot.
    pub regex: String,
    /// What GNU grep 3.8 warns of (`* at start of expression`), without duplicates.
    pub warnings: Vec<&'static str>,
    /// Whether the pattern holds a back-reference (then `pcre_spelling` gives the exact
    /// pattern, to confirm the lines the automaton selects).
    pub back_references: bool,
}

/// What a translation is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// `regex-syntax`, for the automata: groups do not capture, back-references are widened.
    Automaton,
    /// PCRE2 in UTF mode, each line a subject of its own: groups capture, back-references
    /// are PCRE2's.
    Pcre,
}

/// The translation of `pattern` from POSIX `syntax` into `regex-syntax`'s.
///
/// # Errors
///
/// GNU grep's message for a malformed pattern (unmatched brackets or parentheses, an
/// invalid interval, class or range, a trailing backslash), and for a back-reference,
/// which the automata cannot match.
pub fn translate(pattern: &str, syntax: Syntax) -> Result<Translation, String> {
    translate_bytes(pattern.as_bytes(), syntax)
}

/// The first of the code points that stand for the bytes of a pattern that are not
/// UTF-8 while it is read (byte `b` is `RAW_BASE + b`, marked in a parallel list as raw:
/// a real character there is not one).
const RAW_BASE: u32 = 0x10_FF00;

/// The characters of `pattern`, each byte of an ill-formed sequence as a stand-in code
/// point (see [`RAW_BASE`]), and which of them are such bytes.
fn units(pattern: &[u8]) -> (Vec<char>, Vec<bool>) {
    let (mut chars, mut raw) = (Vec::new(), Vec::new());
    for chunk in pattern.utf8_chunks() {
        for c in chunk.valid().chars() {
            chars.push(c);
            raw.push(false);
        }
        for &b in chunk.invalid() {
            chars.push(char::from_u32(RAW_BASE + u32::from(b)).expect("a code point"));
            raw.push(true);
        }
    }
    (chars, raw)
}

/// The byte a raw unit (see [`units`]) stands for.
fn raw_byte(c: char) -> u8 {
    (u32::from(c) - RAW_BASE) as u8
}

/// [`translate`] of a pattern that may hold bytes that are not UTF-8: as in GNU grep, such
/// a byte outside a bracket expression matches itself (wherever it is in the text, even
/// inside a character); inside one it matches nothing alone and is the code point of its
/// value as a range's end (`[a-\xFF]` holds `a` to `ÿ`, `[\xFF-a]` is an invalid range).
/// The regex then holds `(?-u:\xFF)`, for a parser that allows it.
///
/// # Errors
///
/// As [`translate`].
pub fn translate_bytes(pattern: &[u8], syntax: Syntax) -> Result<Translation, String> {
    translate_to(pattern, syntax, Target::Automaton)
}

/// The POSIX `pattern` in PCRE2's syntax, with the same meaning on a line searched alone
/// (`^` and `$` at its ends, no multi-line mode), for PCRE2 in UTF mode with Unicode
/// properties (`ucp`): its back-references are PCRE2's (`\g{1}`), which match exactly what
/// their group matched, where [`translate_bytes`] widens them.
///
/// # Errors
///
/// As [`translate`]; and a pattern holding bytes that are not UTF-8, which PCRE2's UTF mode
/// cannot match.
pub fn pcre_spelling(pattern: &[u8], syntax: Syntax) -> Result<String, String> {
    translate_to(pattern, syntax, Target::Pcre).map(|t| t.regex)
}

fn translate_to(pattern: &[u8], syntax: Syntax, target: Target) -> Result<Translation, String> {
    let basic = syntax == Syntax::Basic;
    let pcre = target == Target::Pcre;
    // Each group's expression by its number (the order of the opening parentheses), once
    // it is closed; and the numbers of the groups open around the reader.
    let mut groups: Vec<Option<String>> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    // The groups 1 to 9 a reference may name here, as glibc's parser decides: those closed
    // before it on its own branch (`(a)|\1` is invalid, `(a|(b))\2` valid); and per open
    // group, those of its start and those of its branches so far (`parse_reg_exp`).
    let mut done: u16 = 0;
    let mut maps: Vec<(u16, u16)> = vec![(0, 0)];
    let mut back_references = false;
    let mut warnings = Vec::new();
    let mut warn = |w: &'static str| {
        if !warnings.contains(&w) {
            warnings.push(w);
        }
    };
    // An extended repetition with nothing before it, just read: glibc's parser (which GNU
    // grep also compiles every pattern with) then reads a `)` as a literal.
    let mut after_lone_op = false;
    let (chars, raw) = units(pattern);
    let mut stack: Vec<Group> = Vec::new();
    let mut g = Group::new();
    let mut i = 0;
    while i < chars.len() {
        let lone_op_before = std::mem::take(&mut after_lone_op);
        let c = chars[i];
        i += 1;
        let escaped = c == '\\' && !raw[i - 1];
        let c = if escaped {
            let Some(&n) = chars.get(i) else {
                return Err("Trailing backslash".into());
            };
            i += 1;
            n
        } else {
            c
        };
        if raw[i - 1] {
            if pcre {
                return Err(
                    "a pattern with back-references must be valid UTF-8 (PCRE2 confirms its \
                     matches)"
                        .into(),
                );
            }
            g.atom(&format!("(?-u:\\x{:02X})", raw_byte(c)));
            continue;
        }
        // The operators: in a basic expression `( ) | { + ?` only after a backslash, in an
        // extended one only without.
        let op = |ch: char| match ch {
            '(' | ')' | '|' | '{' | '+' | '?' => escaped == basic,
            '*' | '^' | '$' | '.' | '[' => !escaped,
            _ => false,
        };
        match c {
            '(' if op(c) => {
                stack.push(std::mem::replace(&mut g, Group::new()));
                open.push(groups.len());
                groups.push(None);
                maps.push((done, done));
            }
            ')' if op(c) && lone_op_before => g.literal(')'),
            ')' if op(c) && !stack.is_empty() => {
                let inner = std::mem::replace(&mut g, stack.pop().expect("not empty"));
                let text = inner.finish();
                let n = open.pop().expect("a group per level");
                let (_, branches) = maps.pop().expect("a map per level");
                done |= branches;
                if n < 9 {
                    done |= 1 << n;
                }
                if pcre {
                    g.atom(&format!("({text})"));
                } else {
                    g.atom(&format!("(?:{text})"));
                }
                groups[n] = Some(text);
            }
            ')' if op(c) && basic => return Err(r"Unmatched ) or \)".into()),
            '|' if op(c) => {
                let (start, branches) = maps.last_mut().expect("the top level's");
                *branches |= done;
                done = *start;
                g.alternative();
            }
            '*' | '+' | '?' if op(c) => {
                if basic && g.at_start {
                    g.literal(c);
                } else {
                    if g.at_start {
                        warn(match c {
                            '*' => "* at start of expression",
                            '+' => "+ at start of expression",
                            _ => "? at start of expression",
                        });
                        after_lone_op = true;
                    }
                    g.repeat(&c.to_string());
                }
            }
            '{' if op(c) => i = brace(&mut g, &chars, i, basic, &mut warn)?,
            '^' if op(c) => {
                if !basic || g.at_start && g.cur.is_empty() {
                    g.anchor(if pcre { r"(?:\A)" } else { "(?:^)" });
                } else {
                    g.literal('^');
                }
            }
            '$' if op(c) => {
                let rest = &chars[i..];
                let ends = rest.is_empty()
                    || (basic
                        && (rest.starts_with(&['\\', ')']) || rest.starts_with(&['\\', '|'])));
                if !basic || ends {
                    g.anchor(if pcre { r"(?:\z)" } else { "(?:$)" });
                } else {
                    g.literal('$');
                }
            }
            '.' if op(c) => g.atom("(?s:.)"),
            '[' if op(c) => {
                let (class, next) = bracket(&chars, &raw, i, target)?;
                i = next;
                g.atom(&class);
            }
            '1'..='9' if escaped => {
                // A group that is closed, as glibc's parser requires (`\(a\1\)` is invalid).
                let n = c as usize - '1' as usize;
                let (Some(Some(text)), true) = (groups.get(n), done & (1 << n) != 0) else {
                    return Err("Invalid back reference".into());
                };
                back_references = true;
                if pcre {
                    g.atom(&format!(r"(?:\g{{{}}})", n + 1));
                } else {
                    g.atom(&format!("(?:{text})"));
                }
            }
            _ if escaped && pcre && matches!(c, '<' | '>' | '`' | '\'') => g.anchor(match c {
                '<' => r"(?:\b(?=\w))",
                '>' => r"(?:\b(?<=\w))",
                '`' => r"(?:\A)",
                _ => r"(?:\z)",
            }),
            _ if escaped => match gnu_escape(c) {
                Some((text, true)) => g.anchor(text),
                Some((text, false)) => g.atom(text),
                None => g.literal(c),
            },
            _ => g.literal(c),
        }
    }
    if !stack.is_empty() {
        return Err(r"Unmatched ( or \(".into());
    }
    Ok(Translation {
        regex: g.finish(),
        warnings,
        back_references,
    })
}

/// Reads what follows a `{` that is an operator, at `chars[i..]`: an interval repeating what
/// comes before, or in an extended expression a literal `{` when no interval follows;
/// returns where reading goes on.
fn brace(
    g: &mut Group,
    chars: &[char],
    i: usize,
    basic: bool,
    warn: &mut impl FnMut(&'static str),
) -> Result<usize, String> {
    if basic && g.at_start {
        g.literal('{');
        return Ok(i);
    }
    // glibc refuses an empty interval even where `{` may be literal.
    let empty = if basic { &['\\', '}'][..] } else { &['}'][..] };
    if chars[i..].starts_with(empty) {
        return Err(r"Invalid content of \{\}".into());
    }
    match interval(chars, i, basic) {
        Some(Ok((min, max, next))) => {
            if g.at_start {
                warn("{...} at start of expression");
            }
            match max {
                Some(max) => g.repeat(&format!("{{{min},{max}}}")),
                None => g.repeat(&format!("{{{min},}}")),
            }
            Ok(next)
        }
        Some(Err(e)) => Err(e),
        // Not an interval: a literal `{` in an extended expression.
        None if !basic => {
            g.literal('{');
            Ok(i)
        }
        None if chars[i..].contains(&'}') => Err(r"Invalid content of \{\}".into()),
        None => Err(r"Unmatched \{".into()),
    }
}

/// The regex-syntax text of GNU's escapes of a word or space character and of the word and
/// text boundaries, and whether it is an anchor (it repeats nothing).
fn gnu_escape(c: char) -> Option<(&'static str, bool)> {
    Some(match c {
        'w' => (r"[_\p{Alphabetic}\p{Nd}]", false),
        'W' => (r"[^_\p{Alphabetic}\p{Nd}]", false),
        's' => (r"[\p{White_Space}]", false),
        'S' => (r"[^\p{White_Space}]", false),
        'b' => (r"(?:\b)", true),
        'B' => (r"(?:\B)", true),
        '<' => (r"(?:\b{start})", true),
        '>' => (r"(?:\b{end})", true),
        '`' => ("(?:^)", true),
        '\'' => ("(?:$)", true),
        _ => return None,
    })
}

/// Reads an interval's body after `{` at `chars[i..]`: `m`, `m,`, `,n`, `,` or `m,n`, then
/// `}` (`\}` in a basic expression). `None` when it is not an interval, an error when it
/// is one that cannot be (a count over [`DUP_MAX`], or `m` over `n`).
#[allow(clippy::type_complexity)]
fn interval(
    chars: &[char],
    mut i: usize,
    basic: bool,
) -> Option<Result<(u32, Option<u32>, usize), String>> {
    let number = |i: &mut usize| -> Option<u32> {
        let start = *i;
        let mut n: u32 = 0;
        while let Some(d) = chars.get(*i).and_then(|c| c.to_digit(10)) {
            n = (n * 10 + d).min(DUP_MAX + 1);
            *i += 1;
        }
        (*i > start).then_some(n)
    };
    let min = number(&mut i);
    let max = if chars.get(i) == Some(&',') {
        i += 1;
        number(&mut i)
    } else {
        Some(min?)
    };
    if basic {
        if chars.get(i) != Some(&'\\') {
            return None;
        }
        i += 1;
    }
    if chars.get(i) != Some(&'}') {
        return None;
    }
    let min = min.unwrap_or(0);
    if max.is_some_and(|max| max < min) {
        return Some(Err(r"Invalid content of \{\}".into()));
    }
    if min > DUP_MAX || max.is_some_and(|max| max > DUP_MAX) {
        return Some(Err("Regular expression too big".into()));
    }
    Some(Ok((min, max, i + 1)))
}

#[cfg(test)]
mod tests;
