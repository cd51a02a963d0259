//! `--include`, `--exclude`, `--exclude-dir`: shell patterns as fnmatch(3) reads them
//! without flags (GNU grep's rule), matched by `globset`.
//!
//! globset's syntax is not fnmatch's (`{a,b}` alternates, `**` crosses directories, `\`
//! is literal inside `[...]`, an unclosed `[` is an error), so each pattern is read here
//! with fnmatch's grammar and written out again for globset with every literal escaped;
//! the matching itself (a regex, linear in the name) is globset's. fnmatch without
//! `FNM_PATHNAME` or `FNM_PERIOD`: `*` and `?` match `/` and a leading `.`; `\` escapes
//! the next character, inside brackets too; a pattern ending in a lone `\` matches
//! nothing; `[` without its `]` is a literal `[`; `[!...]` and `[^...]` negate.
//!
//! globset matches bytes: `?` and a bracket expression take one byte, as fnmatch does in
//! the C locale (in a UTF-8 locale GNU grep's fnmatch takes one character: `é?` matches
//! `éü` there, `é??` here); POSIX classes (`[[:alpha:]]`) are those of the C locale too.
//! Names of ASCII characters, and patterns whose `?` and `[...]` meet only ASCII, are
//! matched alike in every locale. A name that is not UTF-8 is matched with each invalid
//! sequence replaced by U+FFFD.

use std::ffi::OsStr;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// Whether `name` matches the shell pattern `pat` as fnmatch(3) without flags decides.
///
/// ```
/// use utf8_tools::grep::glob_match;
/// assert!(glob_match("*.txt", "a.txt"));
/// assert!(glob_match("[a-c]?", "b1"));
/// assert!(!glob_match("*.rs", "a.txt"));
/// assert!(glob_match("{a,b}", "{a,b}")); // no alternates in fnmatch
/// assert!(glob_match("*", "a/.b")); // `*` matches `/` and `.`
/// ```
pub fn glob_match(pat: &str, name: &str) -> bool {
    Globs::new([pat]).is_match(OsStr::new(name))
}

/// A list of fnmatch patterns matched at once: does any match a name?
#[derive(Debug, Clone)]
pub struct Globs {
    set: GlobSet,
    /// The index among the patterns given of each glob of `set`.
    index: Vec<usize>,
}

impl Default for Globs {
    fn default() -> Globs {
        Globs {
            set: GlobSet::empty(),
            index: Vec::new(),
        }
    }
}

impl Globs {
    /// The patterns, read as fnmatch reads them (one that can match nothing, as `a\\`, is
    /// given but never matches).
    pub fn new<'p>(patterns: impl IntoIterator<Item = &'p str>) -> Globs {
        let mut b = GlobSetBuilder::new();
        let mut given = 0;
        let mut index = Vec::new();
        for p in patterns {
            given += 1;
            let Some(text) = to_globset(p) else { continue };
            index.push(given - 1);
            let glob = GlobBuilder::new(&text)
                .literal_separator(false)
                .backslash_escape(true)
                .build()
                // Every literal is escaped and every class is written in a shape globset
                // reads: a failure here is a bug of `to_globset`.
                .unwrap_or_else(|e| panic!("globset rejected {text:?} (from {p:?}): {e}"));
            b.add(glob);
        }
        let set = b.build().unwrap_or_else(|e| panic!("globset: {e}"));
        Globs { set, index }
    }

    /// The index (in the order given) of the last pattern that matches `name`.
    pub fn last_match(&self, name: &OsStr) -> Option<usize> {
        let found = match name.to_str() {
            Some(s) => self.set.matches(s),
            None => self.set.matches(&*name.to_string_lossy()),
        };
        found.into_iter().map(|i| self.index[i]).max()
    }

    /// Whether any pattern matches `name`.
    pub fn is_match(&self, name: &OsStr) -> bool {
        match name.to_str() {
            Some(s) => self.set.is_match(s),
            None => self.set.is_match(&*name.to_string_lossy()),
        }
    }
}

/// The POSIX classes of the C locale, as fnmatch knows them.
fn posix_class(name: &str) -> Option<&'static [(char, char)]> {
    Some(match name {
        "alnum" => &[('0', '9'), ('A', 'Z'), ('a', 'z')],
        "alpha" => &[('A', 'Z'), ('a', 'z')],
        "blank" => &[('\t', '\t'), (' ', ' ')],
        "cntrl" => &[('\x00', '\x1f'), ('\x7f', '\x7f')],
        "digit" => &[('0', '9')],
        "graph" => &[('!', '~')],
        "lower" => &[('a', 'z')],
        "print" => &[(' ', '~')],
        "punct" => &[('!', '/'), (':', '@'), ('[', '`'), ('{', '~')],
        "space" => &[('\t', '\r'), (' ', ' ')],
        "upper" => &[('A', 'Z')],
        "xdigit" => &[('0', '9'), ('A', 'F'), ('a', 'f')],
        _ => return None,
    })
}

/// A bracket expression read with fnmatch's grammar.
struct Class {
    negated: bool,
    ranges: Vec<(char, char)>,
}

/// Reads the bracket expression after a `[` at `p[0..]`: the class and the characters it
/// took (its closing `]` included), `None` when it has no `]` (the `[` is then literal),
/// or `Some(None, ..)` when it can match nothing (then so does the pattern, as with a bracket
/// without `]` that ends in a `\` or a member and `-`).
///
/// An unknown class name (`[:foo:]`) ends what the class matches: glibc's fnmatch tries the
/// members in order, answers "no match" for the whole pattern when it reaches the unknown
/// name, and skips the rest unread once a member matched; so `[a[:foo:]b]` matches `a`
/// only, and `[!a[:foo:]]` nothing (fuzz finding, glob_fnmatch:
/// `[a\x01[hpla[:a:]**/b[]` matches `a`).
fn read_class(p: &[char]) -> Option<(Option<Class>, usize)> {
    let mut i = 0;
    let negated = matches!(p.first(), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut bad = false;
    // Past an unknown class name: members are read but match nothing.
    let mut cut = false;
    let mut first = true;
    loop {
        let c = *p.get(i)?;
        if c == ']' && !first {
            i += 1;
            break;
        }
        first = false;
        // One member: `[:name:]`, `[=c=]`, `[.c.]`, `\c`, or a character; then maybe `-END`.
        // `[:` without its `:]` is a `[` member.
        let named = match (c, p.get(i + 1)) {
            ('[', Some(&d @ (':' | '=' | '.'))) => (i + 2..p.len().saturating_sub(1))
                .find(|&j| p[j] == d && p[j + 1] == ']')
                .map(|end| (d, end))
                // glibc reads a class name of letters `a`..`y` only: any other character
                // makes the `[` a member (fuzz finding, glob_fnmatch: `[[:[:alpha:]]`).
                .filter(|&(d, end)| {
                    d != ':' || p[i + 2..end].iter().all(|c| ('a'..='y').contains(c))
                }),
            _ => None,
        };
        // `[.` without its `.]`: glibc's fnmatch matches nothing with the whole pattern
        // (fuzz finding, glob_fnmatch); `[:` and `[=` are `[` members instead.
        if named.is_none() && c == '[' && p.get(i + 1) == Some(&'.') {
            return Some((None, p.len()));
        }
        let lo = if let Some((delim, end)) = named {
            let start = i + 2;
            let inner: String = p[start..end].iter().collect();
            i = end + 2;
            if delim == ':' {
                match posix_class(&inner) {
                    Some(r) if !cut => ranges.extend_from_slice(r),
                    Some(_) => {}
                    None if negated => bad = true,
                    None => cut = true,
                }
                continue;
            }
            let mut chars = inner.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => c,
                _ => {
                    bad = true;
                    continue;
                }
            }
        } else if c == '\\' {
            i += 2;
            match p.get(i - 1) {
                Some(&e) => e,
                // A `\` at the end of an unterminated bracket: glibc matches nothing.
                None => return Some((None, p.len())),
            }
        } else {
            i += 1;
            c
        };
        // A member and then `-` at the end of the pattern: glibc reads a range to the end
        // and matches nothing (fuzz finding, glob_fnmatch: `][a-`).
        if p.get(i) == Some(&'-') && i + 1 == p.len() {
            return Some((None, p.len()));
        }
        if p.get(i) == Some(&'-') && p.get(i + 1).is_some_and(|&c| c != ']') {
            let hi = if p[i + 1] == '\\' {
                i += 3;
                match p.get(i - 1) {
                    Some(&e) => e,
                    None => return Some((None, p.len())),
                }
            } else {
                i += 2;
                p[i - 1]
            };
            if lo <= hi && !cut {
                ranges.push((lo, hi));
            }
        } else if !cut {
            ranges.push((lo, lo));
        }
    }
    let class = (!bad).then_some(Class { negated, ranges });
    Some((class, i))
}

/// `c` escaped for globset outside a class (every non-alphanumeric character is escaped).
fn push_literal(out: &mut String, c: char) {
    if !c.is_alphanumeric() {
        out.push('\\');
    }
    out.push(c);
}

/// The characters globset's class parser treats specially somewhere in a class.
const CLASS_SPECIAL: [char; 5] = [']', '-', '[', '!', '^'];

/// Writes `class` for globset; false when it can match nothing.
fn push_class(out: &mut String, class: &Class) -> bool {
    // Take the special characters out of the ranges; they are placed where globset reads
    // them literally: `]` first, `[` before `!`/`^`, `-` last.
    let mut ranges = class.ranges.clone();
    let mut special = Vec::new();
    for s in CLASS_SPECIAL {
        let mut split = Vec::with_capacity(ranges.len());
        for &(lo, hi) in &ranges {
            if lo <= s && s <= hi {
                if !special.contains(&s) {
                    special.push(s);
                }
                if lo < s {
                    split.push((lo, char::from_u32(s as u32 - 1).unwrap_or(lo)));
                }
                if s < hi {
                    split.push((char::from_u32(s as u32 + 1).unwrap_or(hi), hi));
                }
            } else {
                split.push((lo, hi));
            }
        }
        ranges = split;
    }
    let has = |c| special.contains(&c);
    if ranges.is_empty() && special.is_empty() {
        if class.negated {
            out.push('?');
        }
        return class.negated;
    }
    let mut body = String::new();
    if has(']') {
        body.push(']');
    }
    for &(lo, hi) in &ranges {
        body.push(lo);
        if hi > lo {
            body.push('-');
            body.push(hi);
        }
    }
    if has('[') {
        body.push('[');
    }
    let lead_dash = !class.negated && body.is_empty() && has('-');
    if lead_dash {
        // `!` or `^` first would negate; a leading `-` is literal.
        body.push('-');
    }
    if has('!') {
        body.push('!');
    }
    if has('^') {
        body.push('^');
    }
    if has('-') && !lead_dash {
        body.push('-');
    }
    if !class.negated && body.starts_with(['!', '^']) {
        // Only `!` and `^`: an alternation of the two literals (or the one).
        let alts: Vec<String> = body.chars().map(|c| format!("\\{c}")).collect();
        out.push('{');
        out.push_str(&alts.join(","));
        out.push('}');
        return true;
    }
    out.push('[');
    if class.negated {
        out.push('!');
    }
    out.push_str(&body);
    out.push(']');
    true
}

/// `pat` (fnmatch syntax) rewritten for globset, or `None` when it matches nothing.
fn to_globset(pat: &str) -> Option<String> {
    let p: Vec<char> = pat.chars().collect();
    let mut out = String::with_capacity(pat.len() * 2);
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            '*' => {
                // `**` means what `*` means in fnmatch (and crosses `/` in globset).
                while p.get(i) == Some(&'*') {
                    i += 1;
                }
                out.push('*');
                continue;
            }
            '?' => out.push('?'),
            '\\' => {
                // A trailing `\` matches nothing (glibc).
                let c = *p.get(i + 1)?;
                push_literal(&mut out, c);
                i += 1;
            }
            '[' => match read_class(&p[i + 1..]) {
                None => push_literal(&mut out, '['),
                Some((class, took)) => {
                    if !push_class(&mut out, &class?) {
                        return None;
                    }
                    i += took;
                }
            },
            c => push_literal(&mut out, c),
        }
        i += 1;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    /// fnmatch(3) answers (glibc, no flags, C locale).
    #[test]
    fn agrees_with_fnmatch() {
        let yes = [
            ("*.txt", "a.txt"),
            ("*.txt", ".txt"),
            ("*", ".hidden"),
            ("*", "a/b"),
            ("a?c", "a/c"),
            ("[a-c]?", "b1"),
            ("[!a]", "b"),
            ("[^a]", "b"),
            ("[]]", "]"),
            ("[]a]", "a"),
            ("[!]]", "a"),
            ("[a-]", "-"),
            ("[-a]", "-"),
            ("[!-]", "a"),
            ("[\\]]", "]"),
            ("[\\!]", "!"),
            ("[!!]", "a"),
            ("[!^]", "a"),
            ("[^!]", "^"),
            ("[[]", "["),
            ("[[:]", ":"),
            ("[[:alpha:]]", "q"),
            ("[[:digit:][:upper:]]", "Q"),
            ("[[.a.]]", "a"),
            ("[[=a=]]", "a"),
            ("[", "["),
            ("a[", "a["),
            ("[a", "[a"),
            ("\\*", "*"),
            ("\\a", "a"),
            ("{a,b}", "{a,b}"),
            ("a,b", "a,b"),
            ("**", "x/y"),
            ("**/b", "a/b"),
            ("*/", "a/"),
            ("é??", "éü"),
            ("*ü", "éü"),
            ("[!z-a]", "q"),
            ("[!a-c]x", "dx"),
            ("*a*a*b", "aaab"),
        ];
        for (p, n) in yes {
            assert!(glob_match(p, n), "{p:?} should match {n:?}");
        }
        let no = [
            ("*.rs", "a.txt"),
            ("[!a]", "a"),
            ("[]a]", "b"),
            ("[!]]", "]"),
            ("[z-a]", "q"),
            ("a\\", "a\\"),
            ("a\\", "a"),
            ("[[:nope:]]", "a"),
            ("[[:alpha:]]", "1"),
            ("[!!]", "!"),
            ("[\\!]", "\\"),
            ("{a,b}", "a"),
            ("?", ""),
            ("?", "ab"),
            ("é?", "éü"),
            ("*a*a*a*a*a*a*a*a*a*a*a*a*b", &"a".repeat(40)),
        ];
        for (p, n) in no {
            assert!(!glob_match(p, n), "{p:?} should not match {n:?}");
        }
        // A pattern that matches nothing is still given (`--include='a\'` selects no file).
        let never = super::Globs::new(["a\\"]);
        assert!(!never.is_match("a\\".as_ref()));
    }

    /// Fuzz finding (glob_fnmatch, issue 21): a `[.` without its `.]` inside brackets makes
    /// glibc's fnmatch match nothing with the pattern; it was read as a `[` member.
    #[test]
    fn fuzz_glob_fnmatch_unterminated_collating_symbol() {
        for (p, n) in [
            ("[[.aeaaaa\u{1}[[.a=]]", "a]"),
            ("[[.a]]", "a]"),
            ("[[.a]", "a"),
            ("x[[.a]", "x["),
            ("[[.a", "[[.a"),
            ("[][.a]", "]"),
        ] {
            assert!(!glob_match(p, n), "{p:?} should not match {n:?}");
        }
        assert!(glob_match("[[.].]]", "]"));
        // A class name with a character outside `a`..`y`: the `[` is a member.
        assert!(glob_match("[[:[:alpha:]]", "["));
        assert!(glob_match("[a[:x]]", "a]"));
        assert!(glob_match("[[:Alpha:]]", "A]"));
        assert!(glob_match("[[=]", "="));
    }

    /// Fuzz finding (glob_fnmatch, issue 21): an unknown class name inside brackets made us
    /// match nothing, where glibc's fnmatch matches the members before it (it stops at the
    /// unknown name only when none of them matched). Answers of glibc 2.36.
    #[test]
    fn fuzz_glob_fnmatch_unknown_class_and_unterminated_range() {
        for (p, n, want) in [
            ("[a\u{1}[hpla[:a:]**/b[]", "a", true),
            ("[a\u{1}[hpla[:a:]**/b[]", "h", true),
            ("[a[:a:]b]", "a", true),
            ("[a[:a:]b]", "b", false),
            ("[a[:a:]b]x", "ax", true),
            ("[!a[:a:]b]", "c", false),
            ("[a[:alpha:][:a:]]", "z", true),
            ("[a[:foo:]]]", "a]", true),
            ("[a[:foo:]]]", "a", false),
            ("[[:foo:]a]", "a", false),
            // A bracket without `]` is a literal `[`, unless it ends in a member and `-`
            // (a range to the end) or a `\`.
            ("][a-", "][a-", false),
            ("[ab-", "[ab-", false),
            ("[]-", "[]-", false),
            ("[\\", "[\\", false),
            ("[a-\\", "[a-\\", false),
            ("[!-", "[!-", true),
            ("x[-", "x[-", true),
            ("[a--", "[a--", true),
            ("[a-b-", "[a-b-", true),
            ("[[a", "[[a", true),
            ("[Z-a", "[Z-a", true),
        ] {
            assert_eq!(glob_match(p, n), want, "{p:?} on {n:?}");
        }
    }
}
