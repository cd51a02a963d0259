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
use std::sync::OnceLock;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use regex_automata::meta::Regex;

use class::{Class, read_class};

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
    /// The regex globset compiled each glob of `set` into.
    regexes: Vec<String>,
    /// Those regexes, built the first time a name made only of dots is matched: globset
    /// reads a name as a path, and `..` (or `.`) has no file name there, so `?.` or `*.`
    /// does not match `..` where fnmatch's does (fuzz finding, glob_fnmatch). GNU grep
    /// matches `--exclude-dir` against a command-line operand such as `..`.
    dots: OnceLock<Vec<Regex>>,
}

impl Default for Globs {
    fn default() -> Globs {
        Globs {
            set: GlobSet::empty(),
            index: Vec::new(),
            regexes: Vec::new(),
            dots: OnceLock::new(),
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
        let mut regexes = Vec::new();
        for p in patterns {
            given += 1;
            for text in to_globset(p) {
                index.push(given - 1);
                let glob = GlobBuilder::new(&text)
                    .literal_separator(false)
                    .backslash_escape(true)
                    .build()
                    // Every literal is escaped and every class is written in a shape globset
                    // reads: a failure here is a bug of `to_globset`.
                    .unwrap_or_else(|e| panic!("globset rejected {text:?} (from {p:?}): {e}"));
                regexes.push(glob.regex().to_string());
                b.add(glob);
            }
        }
        let set = b.build().unwrap_or_else(|e| panic!("globset: {e}"));
        Globs {
            set,
            index,
            regexes,
            dots: OnceLock::new(),
        }
    }

    /// Whether no pattern can match a name: none was given, or only ones that match nothing.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The index (in the order given) of the last pattern that matches `name`.
    pub fn last_match(&self, name: &OsStr) -> Option<usize> {
        if self.is_empty() {
            return None;
        }
        if let Some(dots) = self.dots(name) {
            return (0..dots.len())
                .rev()
                .find(|&i| dots[i].is_match(name.as_encoded_bytes()))
                .map(|i| self.index[i]);
        }
        let found = match name.to_str() {
            Some(s) => self.set.matches(s),
            None => self.set.matches(&*name.to_string_lossy()),
        };
        found.into_iter().map(|i| self.index[i]).max()
    }

    /// Whether any pattern matches `name`.
    pub fn is_match(&self, name: &OsStr) -> bool {
        if self.is_empty() {
            return false;
        }
        if let Some(dots) = self.dots(name) {
            return dots.iter().any(|re| re.is_match(name.as_encoded_bytes()));
        }
        match name.to_str() {
            Some(s) => self.set.is_match(s),
            None => self.set.is_match(&*name.to_string_lossy()),
        }
    }

    /// The globs as plain regexes when `name` is made only of dots, which globset reads as
    /// a path without a file name.
    fn dots(&self, name: &OsStr) -> Option<&[Regex]> {
        let b = name.as_encoded_bytes();
        if b.is_empty() || b.iter().any(|&c| c != b'.') {
            return None;
        }
        let res = self.dots.get_or_init(|| {
            self.regexes
                .iter()
                .map(|r| {
                    Regex::builder()
                        .syntax(regex_automata::util::syntax::Config::new().utf8(false))
                        .build(r)
                        .unwrap_or_else(|e| panic!("glob regex {r:?}: {e}"))
                })
                .collect()
        });
        Some(res)
    }
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
fn to_globset(pat: &str) -> Vec<String> {
    let p: Vec<char> = pat.chars().collect();
    let mut done = Vec::new();
    let mut todo = vec![(String::with_capacity(pat.len() * 2), 0)];
    while let Some((mut out, mut i)) = todo.pop() {
        let finished = loop {
            let Some(&c) = p.get(i) else { break true };
            match c {
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
                    let Some(&c) = p.get(i + 1) else { break false };
                    push_literal(&mut out, c);
                    i += 1;
                }
                '[' => match read_class(&p[i + 1..]) {
                    None => push_literal(&mut out, '['),
                    Some(branches) => {
                        // Each way through the bracket goes on from where it ends (a few at
                        // most: patterns with many go the first way only past 16).
                        let mut ways = branches.into_iter().filter_map(|(class, took)| {
                            let mut o = out.clone();
                            (class.is_some_and(|c| push_class(&mut o, &c))).then_some((o, took))
                        });
                        let Some((first, took)) = ways.next() else {
                            break false;
                        };
                        if todo.len() + done.len() < 16 {
                            todo.extend(ways.map(|(o, t)| (o, i + t + 1)));
                        }
                        out = first;
                        i += took;
                    }
                },
                c => push_literal(&mut out, c),
            }
            i += 1;
        };
        if finished {
            done.push(out);
        }
    }
    done
}

mod class;
#[cfg(test)]
mod tests;
