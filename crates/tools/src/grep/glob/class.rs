//! Bracket expressions of fnmatch patterns (`[a-z]`, `[!x]`, `[[:alpha:]]`, `[=c=]`,
//! `[.c.]`) read as glibc's fnmatch reads them, quirks and all, for `glob.rs`.

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
pub(super) struct Class {
    /// `[!...]` or `[^...]`.
    pub(super) negated: bool,
    /// The characters of the members, as ranges.
    pub(super) ranges: Vec<(char, char)>,
}

/// One way through a bracket expression: the characters it matches that way, and how many
/// characters of the pattern the bracket took (its closing `]` included) for them; no class
/// when it can match nothing (and so the pattern, that way).
pub(super) type Branch = (Option<Class>, usize);

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
pub(super) fn read_class(p: &[char]) -> Option<Vec<Branch>> {
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
