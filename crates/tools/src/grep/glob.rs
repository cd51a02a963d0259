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

    /// The index (in the order given) of the last pattern that matches `name`.
    pub fn last_match(&self, name: &OsStr) -> Option<usize> {
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

/// One way through a bracket expression: the characters it matches that way, and how many
/// characters of the pattern the bracket took (its closing `]` included) for them; no class
/// when it can match nothing (and so the pattern, that way).
type Branch = (Option<Class>, usize);

/// Reads the bracket expression after a `[` at `p[0..]`: its branches (usually one: the
/// class and the characters it took), `None` when it has no `]` (the `[` is then literal).
/// A character that matches a member goes on past the rest of the bracket the way glibc
/// skips it, which can end elsewhere than where reading each member ends: at a range that
/// ends in `[:` or `[=` (`[da-[::]]?`: `d` skips `[::]` and takes the next `]`; `a`..`[`
/// end at the first `]`) or at a `[=` that is not `[=c=]` (skipping gives up there). So the
/// members before such a point are a branch of their own, ending where skipping does.
///
/// glibc's fnmatch tries the members in order and skips the rest unread once one matched;
/// what stops it on the way makes the whole pattern fail (fuzz findings, glob_fnmatch):
/// - an unknown class name (`[:foo:]`) or a collating symbol of several characters
///   (`[.ab.]`): `[a[:foo:]b]` matches `a` only, `[!a[:foo:]]` nothing;
/// - in a bracket without `]` (whose `[` is otherwise a literal: only a name's `[` gets that
///   far), the same, a `\` at the end, or a member and `-` at the end (a range to the end),
///   unless a member before it matched `[`: `][a-` matches nothing, `z[[-` itself;
/// - a `[.` without its `.]`;
/// - once a member matched, a `[=` that is not `[=c=]` (before that it is a `[` member):
///   `[b[=[z]` matches `[`, `=` and `z`, not `b`.
///
/// `[.c.]` can start a range, `[=c=]` cannot: the `-` after it is a member (`[[=b=]-d]`
/// matches `b`, `-` and `d`). A `[.c.]` followed by `-]` is lost: `[[.a.]-]` matches `-`.
fn read_class(p: &[char]) -> Option<Vec<Branch>> {
    let negated = matches!(p.first(), Some('!' | '^'));
    let mut r = ClassReader {
        p,
        i: usize::from(negated),
        ranges: Vec::new(),
        cut: false,
        lbracket: false,
        trouble: false,
        forks: Vec::new(),
    };
    let mut first = true;
    loop {
        let Some(&c) = p.get(r.i) else {
            // No `]`: a literal `[`, unless glibc gave up on the way.
            return if r.trouble { r.gives_up(false) } else { None };
        };
        if c == ']' && !first {
            r.i += 1;
            break;
        }
        first = false;
        // One member: `[:name:]`, `[=c=]`, `[.c.]`, `\c`, or a character; then maybe `-END`.
        let lo = match r.member(c) {
            Member::Start(lo) => lo,
            Member::Whole => continue,
            Member::GivesUp(branches) => return branches,
        };
        r.lbracket |= !r.cut && lo == '[';
        if let Err(branches) = r.range_from(lo) {
            return branches;
        }
    }
    r.branches(negated)
}

/// The state of [`read_class`] while it reads the members of one bracket.
struct ClassReader<'p> {
    p: &'p [char],
    /// The next character to read.
    i: usize,
    /// The characters of the members read so far.
    ranges: Vec<(char, char)>,
    /// Past an unknown name: members are read but match nothing (a negated class: nothing).
    cut: bool,
    /// Whether a member read so far matches `[`.
    lbracket: bool,
    /// Whether glibc gave up before a member matched `[`.
    trouble: bool,
    /// Where skipping the rest of the bracket parts from reading it: the members read
    /// before and the `[` there.
    forks: Vec<(usize, usize)>,
}

/// What reading one member at the front gave.
enum Member {
    /// A character that may start a range.
    Start(char),
    /// A whole member, taken (or not: past `cut`).
    Whole,
    /// glibc gives up: the branches the bracket has then.
    GivesUp(Option<Vec<Branch>>),
}

impl ClassReader<'_> {
    /// glibc gives up here (the pattern matches nothing) unless a `[` member came first
    /// (`literal`: the `[` is then a literal).
    fn gives_up(&self, literal: bool) -> Option<Vec<Branch>> {
        if literal {
            None
        } else {
            Some(vec![(None, self.p.len())])
        }
    }

    /// Reads the member that starts with `c` at `p[i]`. `[:` without its `:]`, and `[=`
    /// without one character and `=]`, are `[` members.
    fn member(&mut self, c: char) -> Member {
        let (p, i) = (self.p, self.i);
        let named = match (c, p.get(i + 1)) {
            ('[', Some(&d @ (':' | '=' | '.'))) => (i + 2..p.len().saturating_sub(1))
                .find(|&j| p[j] == d && p[j + 1] == ']')
                .map(|end| (d, end))
                // glibc reads a class name of letters `a`..`y` only: any other character
                // makes the `[` a member (fuzz finding, glob_fnmatch: `[[:[:alpha:]]`).
                .filter(|&(d, end)| match d {
                    ':' => p[i + 2..end].iter().all(|c| ('a'..='y').contains(c)),
                    '=' => end == i + 3,
                    _ => true,
                }),
            _ => None,
        };
        if named.is_none() && c == '[' && p.get(i + 1) == Some(&'.') {
            return Member::GivesUp(self.gives_up(false));
        }
        if named.is_none() && c == '[' && p.get(i + 1) == Some(&'=') {
            self.forks.push((self.ranges.len(), i));
            // A `[` before it makes glibc give up where the `[` would otherwise be literal.
            self.trouble |= self.lbracket;
        }
        if let Some((delim, end)) = named {
            return self.named(delim, end);
        }
        if c == '\\' {
            self.i += 2;
            return match p.get(self.i - 1) {
                Some(&e) => Member::Start(e),
                None => Member::GivesUp(self.gives_up(self.lbracket && !self.trouble)),
            };
        }
        self.i += 1;
        Member::Start(c)
    }

    /// Reads `[:name:]`, `[=c=]` or `[.c.]`, whose closing delimiter is at `p[end]`.
    fn named(&mut self, delim: char, end: usize) -> Member {
        let p = self.p;
        let inner = &p[self.i + 2..end];
        self.i = end + 2;
        let i = self.i;
        let range_follows = p.get(i) == Some(&'-') && p.get(i + 1).is_some_and(|&c| c != ']');
        match (delim, inner) {
            // `[.c.]` as the start of a range; after `[=c=]` a `-` is a member (glibc
            // 2.36: `[[=b=]-d]` matches `b`, `-` and `d`, not `c`; fuzz finding,
            // glob_fnmatch: `[[[=b=]-\x06]` on `b`).
            ('.', &[c]) if range_follows => Member::Start(c),
            // `[.c.]` and then `-]`: glibc reads a range start, finds no end, and keeps
            // only the `-` (`[[.a.]-]` matches `-`, not `a`; fuzz finding,
            // glob_fnmatch: `[0][[.a.]-]` on `0a`).
            ('.', &[_]) if p.get(i) == Some(&'-') && p.get(i + 1) == Some(&']') => Member::Whole,
            (d, &[c]) if d != ':' => {
                self.lbracket |= !self.cut && c == '[';
                if !self.cut {
                    self.ranges.push((c, c));
                }
                Member::Whole
            }
            // A class name, or a collating symbol of several characters (unknown).
            _ => {
                match (delim == ':').then(|| posix_class(&inner.iter().collect::<String>())) {
                    Some(Some(r)) => {
                        if !self.cut {
                            self.lbracket |= r.iter().any(|&(a, b)| a <= '[' && '[' <= b);
                            self.ranges.extend_from_slice(r);
                        }
                    }
                    _ => {
                        self.trouble |= !self.lbracket;
                        self.cut = true;
                    }
                }
                Member::Whole
            }
        }
    }

    /// After the member `lo`: a range `lo-END` when a `-` and an end follow, else `lo`
    /// alone. `Err` with the branches where glibc gives up.
    fn range_from(&mut self, lo: char) -> Result<(), Option<Vec<Branch>>> {
        let p = self.p;
        // A member and then `-` at the end of the pattern: a range to the end.
        if p.get(self.i) == Some(&'-') && self.i + 1 == p.len() {
            return Err(self.gives_up(self.lbracket && !self.trouble));
        }
        if !(p.get(self.i) == Some(&'-') && p.get(self.i + 1).is_some_and(|&c| c != ']')) {
            if !self.cut {
                self.ranges.push((lo, lo));
            }
            return Ok(());
        }
        let i = self.i;
        // A range's end: `[.c.]` is `c`; one of several characters, like an unknown
        // class, stops glibc unless a member before it matched; `[.` without `.]` stops
        // it. `[:` and `[=` are a `[`, but not for skipping.
        if p[i + 1] == '[' {
            match p.get(i + 2) {
                Some('.') => {
                    match (i + 3..p.len().saturating_sub(1))
                        .find(|&j| p[j] == '.' && p[j + 1] == ']')
                    {
                        None => return Err(self.gives_up(false)),
                        Some(end) if end == i + 4 => {
                            self.i = end + 2;
                            self.push_range(lo, p[i + 3]);
                        }
                        Some(end) => {
                            self.i = end + 2;
                            self.trouble |= !self.lbracket;
                            self.cut = true;
                        }
                    }
                    return Ok(());
                }
                Some(':' | '=') => self.forks.push((self.ranges.len(), i + 1)),
                _ => {}
            }
        }
        let hi = if p[i + 1] == '\\' {
            self.i += 3;
            match p.get(self.i - 1) {
                Some(&e) => e,
                None => return Err(self.gives_up(self.lbracket && !self.trouble)),
            }
        } else {
            self.i += 2;
            p[self.i - 1]
        };
        self.push_range(lo, hi);
        Ok(())
    }

    /// Takes the range `lo..=hi` (unless it is empty, or past `cut`).
    fn push_range(&mut self, lo: char, hi: char) {
        if lo <= hi && !self.cut {
            self.lbracket |= lo <= '[' && '[' <= hi;
            self.ranges.push((lo, hi));
        }
    }

    /// The branches of the bracket read up to its `]` (`i` past it).
    fn branches(self, negated: bool) -> Option<Vec<Branch>> {
        let (p, i, ranges) = (self.p, self.i, self.ranges);
        if negated || self.forks.is_empty() {
            let class = (!(self.cut && negated)).then_some(Class { negated, ranges });
            return Some(vec![(class, i)]);
        }
        // A negated bracket that a member matched fails whichever way it ends: one branch.
        let mut branches = Vec::with_capacity(self.forks.len() + 1);
        let mut prev = 0;
        for (upto, at) in self.forks.into_iter().chain([(ranges.len(), usize::MAX)]) {
            let class = Class {
                negated,
                ranges: subtract(&ranges[prev..upto], &ranges[..prev]),
            };
            let end = if at == usize::MAX {
                Some(i)
            } else {
                skip_to_end(p, at)
            };
            if let Some(end) = end {
                branches.push((Some(class), end));
            }
            prev = upto;
        }
        Some(branches)
    }
}

/// Where glibc's skipping of the rest of a bracket from `p[at]` ends (past its `]`), `None`
/// where it gives up: `[:name:]` (letters `a`..`y`), `[=c=]` and `[.symbol.]` are one item
/// each, a `[:` otherwise a `[`, a `[=` otherwise (or `[.` without `.]`, or no `]`) the end.
fn skip_to_end(p: &[char], mut at: usize) -> Option<usize> {
    loop {
        match (*p.get(at)?, p.get(at + 1)) {
            (']', _) => return Some(at + 1),
            ('\\', next) => {
                next?;
                at += 2;
            }
            ('[', Some(':')) => {
                let name = (at + 2..p.len().saturating_sub(1))
                    .find(|&j| !('a'..='y').contains(&p[j]))
                    .filter(|&j| p[j] == ':' && p[j + 1] == ']');
                at = name.map_or(at + 1, |j| j + 2);
            }
            ('[', Some('=')) => {
                (p.get(at + 3) == Some(&'=') && p.get(at + 4) == Some(&']')).then_some(())?;
                at += 5;
            }
            ('[', Some('.')) => {
                at = (at + 2..p.len().saturating_sub(1))
                    .find(|&j| p[j] == '.' && p[j + 1] == ']')?
                    + 2;
            }
            _ => at += 1,
        }
    }
}

/// The characters of `ranges` that are in none of `minus`, as ranges.
fn subtract(ranges: &[(char, char)], minus: &[(char, char)]) -> Vec<(char, char)> {
    // The neighbours of a character, across the surrogates' gap.
    let before = |c: char| char::from_u32(c as u32 - 1).unwrap_or('\u{D7FF}');
    let after = |c: char| char::from_u32(c as u32 + 1).unwrap_or('\u{E000}');
    let mut out = ranges.to_vec();
    for &(lo, hi) in minus {
        out = out
            .into_iter()
            .flat_map(|(a, b)| {
                if b < lo || a > hi {
                    return [Some((a, b)), None];
                }
                [
                    (a < lo).then(|| (a, before(lo))),
                    (b > hi).then(|| (after(hi), b)),
                ]
            })
            .flatten()
            .collect();
    }
    out
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

#[cfg(test)]
mod tests;
