//! Matching on raw bytes: memchr's memmem for one fixed string, aho-corasick
//! (leftmost-longest) for several, regex-automata ([`super::regex`]) for regular expressions
//! and for fixed strings under `-i` (Unicode simple case folding, still a byte-level
//! automaton). A regular expression that is a literal runs the fixed-string engines. `-w`
//! is decided by decoding only the characters next to a match.

use std::collections::HashSet;

use memchr::memmem;

use utf8_codec::{decode_first, decode_last};

use super::many::{Many, starts};
use super::regex::{self, Dialect, Rx};
use crate::diag::ToolError;
use fold::{fold_variants, fold_variants_max};

mod fold;

/// What to match: the patterns (any bytes but a newline) and how.
#[derive(Debug)]
pub struct Matcher {
    engine: Engine,
    /// Patterns, longest first (bytes), for `-w` retries and `-x`.
    patterns: Vec<Vec<u8>>,
    word: bool,
    line: bool,
    /// An upper bound of the byte length of any match.
    max_match_len: usize,
    /// `-w` with several fixed strings: the patterns by length, longest first (ASCII
    /// lowercased under `-i`), for the shorter matches a retry looks for.
    by_len: Vec<(usize, HashSet<Vec<u8>>)>,
    /// GNU grep's warnings about the patterns (`* at start of expression`).
    warnings: Vec<&'static str>,
}

/// How [`Matcher::with`] reads and applies the patterns.
#[derive(Debug, Clone, Copy)]
pub struct MatchOptions {
    /// The pattern syntax.
    pub dialect: Dialect,
    /// `-i`.
    pub ignore_case: bool,
    /// `-w`.
    pub word: bool,
    /// `-x`.
    pub line: bool,
    /// The bytes of input known before the search (the sizes of the regular files named),
    /// 0 where unknown: where they are many, the automata that search fastest are built at
    /// once instead of after the first bytes.
    pub known_input: u64,
    /// The byte that ends a line: a newline, or NUL under `-z` (a regular expression never
    /// matches it, `^` and `$` match next to it).
    pub eol: u8,
}

#[derive(Debug)]
enum Engine {
    One(Box<memmem::Finder<'static>>),
    Many(Many),
    /// Several patterns, one of them empty: the leftmost match is always at 0, the longest
    /// non-empty pattern there (anchored search of an automaton without the empty pattern)
    /// or the empty one. aho-corasick's unanchored leftmost-longest search skips the empty
    /// match where a longer pattern starts to match and then fails (`["", " abc"]` on
    /// `" abx"` gives 3..3, not 0..0; reported as aho-corasick#173).
    ManyWithEmpty(Many),
    /// Regular expressions, and fixed strings under `-i` that are not spelled out for
    /// aho-corasick (a regex of the escaped patterns, case-insensitive).
    Regex(Box<Rx>),
    /// `-P`: PCRE2, each line searched on its own (`-w` and `-x` are in its pattern).
    Pcre(Box<super::pcre::Pcre>),
    /// POSIX patterns with back-references: the automaton of the patterns with each
    /// reference widened to its group's expression finds the lines that may match, and
    /// PCRE2 (the patterns spelled for it, `-w` and `-x` in them) decides and places the
    /// matches, each line searched on its own.
    Backref(Box<Rx>, Box<super::pcre::Pcre>),
    /// `-i` with several patterns: every spelling the patterns have under Unicode simple
    /// case folding, ASCII letters left to aho-corasick's ASCII case insensitivity (see
    /// [`fold_variants`]); `patterns` holds the spellings.
    FoldMany(Many),
}

/// The most bytes of regular expressions (not counting the patterns that are plain words)
/// a matcher is built of: more is refused at once (its automata would pass
/// regex-automata's size limits after seconds and hundreds of MiB).
const REGEX_TEXT_MAX: usize = 4 << 20;

/// [`Matcher::max_match_len`] of a pattern whose matches have no bound: large, and far
/// from overflowing when doubled.
const UNBOUNDED: usize = usize::MAX / 4;

/// The confirming matcher of POSIX `patterns` when one of them holds a back-reference
/// (none of them to the automata alone), else `None`.
fn back_references(
    patterns: &[Vec<u8>],
    dialect: Dialect,
    o: MatchOptions,
) -> Result<Option<super::pcre::Pcre>, ToolError> {
    let syntax = match dialect {
        Dialect::Basic => super::posix::Syntax::Basic,
        Dialect::Extended => super::posix::Syntax::Extended,
        _ => return Ok(None),
    };
    // A backslash before a digit, escaped or not: only then is translating again needed.
    let maybe = |p: &Vec<u8>| {
        p.windows(2)
            .any(|w| w[0] == b'\\' && matches!(w[1], b'1'..=b'9'))
    };
    let bad = ToolError::Usage;
    let mut any = false;
    for p in patterns.iter().filter(|p| maybe(p)) {
        any |= super::posix::translate_bytes(p, syntax)
            .map_err(bad)?
            .back_references;
    }
    if !any {
        return Ok(None);
    }
    let spelled = patterns
        .iter()
        .map(|p| super::posix::pcre_spelling(p, syntax))
        .collect::<Result<Vec<_>, _>>()
        .map_err(bad)?;
    super::pcre::Pcre::posix(&spelled, o.ignore_case, o.word, o.line, o.eol).map(Some)
}

/// Whether `c` is a word character for `-w`: a Unicode letter or digit, or `_`.
pub fn is_word_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

impl Matcher {
    /// A matcher for `patterns` (at least one; bytes, UTF-8 or not, but a `-P` one must be
    /// UTF-8) read in `dialect`.
    ///
    /// # Errors
    ///
    /// [`ToolError::Usage`] for a malformed regular expression, or when the automaton
    /// cannot be built (too large).
    pub fn new<P: Into<Vec<u8>>>(
        patterns: Vec<P>,
        dialect: Dialect,
        ignore_case: bool,
        word: bool,
        line: bool,
    ) -> Result<Matcher, ToolError> {
        let o = MatchOptions {
            dialect,
            ignore_case,
            word,
            line,
            eol: b'\n',
            known_input: 0,
        };
        Matcher::with(patterns, o)
    }

    /// [`Matcher::new`] with every option, the line terminator too.
    ///
    /// # Errors
    ///
    /// As [`Matcher::new`].
    pub fn with<P: Into<Vec<u8>>>(patterns: Vec<P>, o: MatchOptions) -> Result<Matcher, ToolError> {
        let patterns: Vec<Vec<u8>> = patterns.into_iter().map(Into::into).collect();
        if o.dialect == Dialect::Perl {
            return Matcher::pcre(patterns, o);
        }
        if o.dialect != Dialect::Fixed {
            return Matcher::regex(patterns, o);
        }
        let max = fold_variants_max(patterns.len());
        Matcher::build(patterns, o, max)
    }

    /// The matcher of regular expressions: the fixed-string one when every pattern is a
    /// literal (one pattern only with `-P`, whose alternatives match leftmost-first).
    fn regex(patterns: Vec<Vec<u8>>, o: MatchOptions) -> Result<Matcher, ToolError> {
        let MatchOptions {
            dialect,
            ignore_case,
            word,
            line,
            eol,
            ..
        } = o;
        // A pattern of letters, digits, spaces, bytes that are not UTF-8 and the punctuation
        // the syntax gives no meaning to is a literal without parsing (a list of 100,000
        // words stays cheap).
        let literal_punct = match dialect {
            Dialect::Basic => " _-:;,/'\"@%!=<>&~#+?{}|()",
            _ => " _-:;,/'\"@%!=<>&~#",
        };
        // A -P pattern must be UTF-8 (as GNU grep's): parsing says why not.
        let raw_ok = dialect != Dialect::Perl;
        let plain = |p: &[u8]| {
            p.utf8_chunks().all(|chunk| {
                (raw_ok || chunk.invalid().is_empty())
                    && chunk
                        .valid()
                        .chars()
                        .all(|c| c.is_alphanumeric() || literal_punct.contains(c))
            })
        };
        // Every pattern a literal (a -P one alone, whose alternatives are leftmost-first): the
        // fixed-string matcher, as -F builds it.
        let literals = dialect != Dialect::Perl || patterns.len() == 1;
        if literals && patterns.iter().all(|p| plain(p)) {
            let max = fold_variants_max(patterns.len());
            return Matcher::build(patterns, o, max);
        }
        let text: usize = patterns.iter().filter(|p| !plain(p)).map(Vec::len).sum();
        if text > REGEX_TEXT_MAX {
            return Err(ToolError::Usage(format!(
                "the regular expressions are too large ({text} bytes, at most {REGEX_TEXT_MAX})"
            )));
        }
        let mut warnings = Vec::new();
        let mut parse = |fold: bool| -> Result<Vec<_>, ToolError> {
            patterns
                .iter()
                .map(|p| {
                    if plain(p) && !fold {
                        Ok(regex_syntax::hir::Hir::literal(p.as_slice()))
                    } else {
                        regex::parse(p, dialect, fold, eol, &mut warnings)
                    }
                })
                .collect()
        };
        let hirs = parse(false)?;
        if dialect != Dialect::Perl || hirs.len() == 1 {
            let literals: Option<Vec<Vec<u8>>> = hirs.iter().map(regex::literal).collect();
            if let Some(literals) = literals {
                let fixed = MatchOptions {
                    dialect: Dialect::Fixed,
                    ..o
                };
                let mut m = Matcher::with(literals, fixed)?;
                m.warnings = warnings;
                return Ok(m);
            }
        }
        let hirs = if ignore_case { parse(true)? } else { hirs };
        // The longest match from a start: POSIX's matches, and -w's shorter retries.
        let posix = dialect != Dialect::Perl;
        if let Some(confirm) = back_references(&patterns, dialect, o)? {
            let rx = Rx::new(hirs, false, false, false, eol)?;
            return Ok(Matcher {
                engine: Engine::Backref(Box::new(rx), Box::new(confirm)),
                patterns: Vec::new(),
                word: false,
                line: false,
                max_match_len: UNBOUNDED,
                by_len: Vec::new(),
                warnings,
            });
        }
        let rx = Rx::new(hirs, posix, posix || word, line, eol)?;
        Ok(Matcher {
            max_match_len: rx.max_len().unwrap_or(UNBOUNDED),
            engine: Engine::Regex(Box::new(rx)),
            patterns: Vec::new(),
            word,
            line,
            by_len: Vec::new(),
            warnings,
        })
    }

    /// The matcher of `-P`: PCRE2, but the fixed-string one for a literal without `-w`
    /// (whose word characters are PCRE2's ASCII `\w`).
    fn pcre(patterns: Vec<Vec<u8>>, o: MatchOptions) -> Result<Matcher, ToolError> {
        let plain = |p: &[u8]| {
            std::str::from_utf8(p).is_ok_and(|p| {
                p.chars()
                    .all(|c| c.is_alphanumeric() || " _-:;,/'\"@%!=<>&~#".contains(c))
            })
        };
        if let [p] = patterns.as_slice()
            && plain(p)
            && !o.word
        {
            let max = fold_variants_max(1);
            return Matcher::build(patterns, o, max);
        }
        let re = super::pcre::Pcre::new(&patterns, o.ignore_case, o.word, o.line, o.eol)?;
        Ok(Matcher {
            engine: Engine::Pcre(Box::new(re)),
            patterns: Vec::new(),
            word: false,
            line: false,
            max_match_len: UNBOUNDED,
            by_len: Vec::new(),
            warnings: Vec::new(),
        })
    }

    /// [`Matcher::new`], with `-i`'s several patterns expanded into at most `max_spellings`
    /// (0: one case-insensitive regex of them all).
    fn build(
        mut patterns: Vec<Vec<u8>>,
        o: MatchOptions,
        max_spellings: usize,
    ) -> Result<Matcher, ToolError> {
        let MatchOptions {
            ignore_case,
            word,
            line,
            eol,
            known_input,
            ..
        } = o;
        patterns.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        patterns.dedup();
        let longest = patterns.first().map_or(0, Vec::len);
        // One pattern goes to the regex (its prefilters), unless it is long enough to make a
        // large automaton of it.
        let several = patterns.len() > 1 || patterns.first().is_some_and(|p| p.len() > 256);
        let spellings = (ignore_case && several && !patterns.iter().any(Vec::is_empty))
            .then(|| fold_variants(&patterns, max_spellings))
            .flatten();
        let (engine, max_match_len) = if let Some(mut spellings) = spellings {
            spellings.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
            spellings.dedup();
            let ac = Many::new(&spellings, true, starts(false, line), known_input)?;
            let max = spellings.first().map_or(0, Vec::len);
            patterns = spellings;
            (Engine::FoldMany(ac), max)
        } else if ignore_case {
            let hirs = patterns
                .iter()
                .map(|p| regex::fixed_hir(p, true, eol))
                .collect::<Result<Vec<_>, _>>()?;
            // One pattern matches one way from a start (simple case folding maps a
            // character to a character): no longer match to look for.
            let rx = Rx::new(hirs, true, patterns.len() > 1, line, eol)?;
            let max = rx.max_len().unwrap_or(UNBOUNDED);
            (Engine::Regex(Box::new(rx)), max)
        } else if patterns.len() == 1 {
            let f = memmem::Finder::new(&patterns[0]).into_owned();
            (Engine::One(Box::new(f)), longest)
        } else {
            // Sorted longest first: an empty pattern is the last one.
            let with_empty = patterns.last().is_some_and(Vec::is_empty);
            let nonempty = &patterns[..patterns.len() - usize::from(with_empty)];
            let ac = Many::new(nonempty, false, starts(with_empty, line), known_input)?;
            let engine = if with_empty {
                Engine::ManyWithEmpty(ac)
            } else {
                Engine::Many(ac)
            };
            (engine, longest)
        };
        let mut by_len: Vec<(usize, HashSet<Vec<u8>>)> = Vec::new();
        if word && matches!(engine, Engine::Many(_) | Engine::FoldMany(_)) {
            let fold = matches!(engine, Engine::FoldMany(_));
            for p in &patterns {
                let key = if fold {
                    p.to_ascii_lowercase()
                } else {
                    p.clone()
                };
                match by_len.last_mut() {
                    Some((n, set)) if *n == p.len() => {
                        set.insert(key);
                    }
                    _ => by_len.push((p.len(), HashSet::from([key]))),
                }
            }
        }
        Ok(Matcher {
            engine,
            patterns,
            word,
            line,
            max_match_len,
            by_len,
            warnings: Vec::new(),
        })
    }

    /// GNU grep's warnings about the patterns, to print before searching.
    pub fn warnings(&self) -> &[&'static str] {
        &self.warnings
    }

    /// The limit a search on this thread ran into since the last call, if any, as GNU grep
    /// 3.8 words it (`exceeded PCRE's backtracking limit`): a search that hits one answers
    /// "no match" for that line, and the searcher reports the input as failed (exit status
    /// 2). Only the backtracking engines (`-P`, back-references) have such limits; the
    /// automata and the fixed-string engines never hit one.
    pub fn take_trouble(&self) -> Option<&'static str> {
        match &self.engine {
            Engine::Pcre(_) | Engine::Backref(..) => super::pcre::take_trouble(),
            _ => None,
        }
    }

    /// An upper bound of the length in bytes of any match.
    pub fn max_match_len(&self) -> usize {
        self.max_match_len
    }

    /// Whether a pattern is a regular expression with a line anchor (`^`, `$`): in a binary
    /// input, where a NUL ends a line, only a search of each line finds its matches.
    pub fn line_anchors(&self) -> bool {
        match &self.engine {
            Engine::Regex(r) => r.line_anchors(),
            // Searched a line at a time: a NUL must end a line first.
            Engine::Pcre(_) | Engine::Backref(..) => true,
            _ => false,
        }
    }

    /// Whether `-x` is in effect.
    pub fn whole_line(&self) -> bool {
        self.line
    }

    /// The leftmost(-longest) raw match in `hay`, ignoring `-w`/`-x`.
    pub fn find_raw(&self, hay: &[u8]) -> Option<(usize, usize)> {
        match &self.engine {
            Engine::One(f) => f.find(hay).map(|s| (s, s + f.needle().len())),
            Engine::Many(ac) | Engine::FoldMany(ac) => ac.find(hay).map(|m| (m.start(), m.end())),
            Engine::ManyWithEmpty(ac) => Some(
                ac.find_anchored(hay)
                    .map_or((0, 0), |m| (m.start(), m.end())),
            ),
            Engine::Regex(r) => r.find_in_lines(hay),
            Engine::Pcre(p) => p.find_in_lines(hay),
            Engine::Backref(r, p) => {
                let mut start = 0;
                loop {
                    let (s, _) = r.find_in_lines(&hay[start..])?;
                    let s = start + s;
                    let from = memchr::memrchr(p.eol(), &hay[..s]).map_or(0, |i| i + 1);
                    let end = memchr::memchr(p.eol(), &hay[s..]).map_or(hay.len(), |i| s + i);
                    if let Some((ms, me)) = p.find_at(&hay[from..end], 0) {
                        return Some((from + ms, from + me));
                    }
                    if end >= hay.len() {
                        return None;
                    }
                    start = end + 1;
                }
            }
        }
    }

    /// The leftmost(-longest) raw match in `line` at or after `from`, ignoring `-w`/`-x`;
    /// a regular expression's look-around sees the text before `from`.
    fn find_from(&self, line: &[u8], from: usize) -> Option<(usize, usize)> {
        match &self.engine {
            Engine::Regex(r) => r.find_at(line, from),
            Engine::Pcre(p) => p.find_at(line, from),
            Engine::Backref(r, p) => r.find_at(line, from).and_then(|_| p.find_at(line, from)),
            _ => self
                .find_raw(&line[from..])
                .map(|(s, e)| (s + from, e + from)),
        }
    }

    /// Whether the match `s..e` of `line` stands alone as a word: the characters just
    /// before and after it (if any) are not word characters.
    pub fn word_ok(line: &[u8], s: usize, e: usize) -> bool {
        let before = matches!(decode_last(&line[..s]), Some(Ok(c)) if is_word_char(c));
        let after = matches!(decode_first(&line[e..]), Some(Ok(c)) if is_word_char(c));
        !before && !after
    }

    /// The longest pattern match starting at `s` in `line` that is shorter than `limit`
    /// bytes and stands alone as a word (for `-w` retries, as GNU grep does).
    fn shorter_word_at(&self, line: &[u8], s: usize, limit: usize) -> Option<usize> {
        match &self.engine {
            Engine::Regex(r) => {
                // Every shorter end the automaton accepts, longest first.
                let mut e = s + limit;
                while e > s {
                    e = r.longest_before(line, s, e)?;
                    if Matcher::word_ok(line, s, e) {
                        return Some(e);
                    }
                }
                None
            }
            Engine::Many(_) | Engine::FoldMany(_) if !self.by_len.is_empty() => {
                let fold = matches!(self.engine, Engine::FoldMany(_));
                self.by_len
                    .iter()
                    .filter(|(n, _)| *n < limit && s + n <= line.len())
                    .filter(|(n, set)| {
                        let text = &line[s..s + n];
                        if fold {
                            set.contains(&text.to_ascii_lowercase())
                        } else {
                            set.contains(text)
                        }
                    })
                    .map(|(n, _)| s + n)
                    .find(|&e| Matcher::word_ok(line, s, e))
            }
            _ => self
                .patterns
                .iter()
                .filter(|p| p.len() < limit && line[s..].starts_with(p))
                .map(|p| s + p.len())
                .find(|&e| Matcher::word_ok(line, s, e)),
        }
    }

    /// A scan that decides whether one line holds a match (with `-x`, is one) fed a piece at
    /// a time, for a line too long to hold: regular expressions without `-w` whose
    /// longest-match automaton never gives up (no Unicode word boundary).
    pub fn line_scan(&self) -> Option<super::longest::LineScan<'_>> {
        match &self.engine {
            Engine::Regex(r) if !self.word => r.line_scan(self.line),
            _ => None,
        }
    }

    /// Whether every match of the patterns counts (no `-w` or `-x` to satisfy).
    pub fn any_match(&self) -> bool {
        !self.word && !self.line
    }

    /// The first match in `line` at or after `from` that satisfies `-w`/`-x`.
    pub fn find_in(&self, line: &[u8], from: usize) -> Option<(usize, usize)> {
        if self.line {
            if from > 0 {
                return None;
            }
            let hit = match &self.engine {
                Engine::Regex(r) => r.matches_line(line),
                // The longest match anchored at the start is the whole line when some
                // pattern is the line.
                Engine::Many(ac) | Engine::FoldMany(ac) => ac
                    .find_anchored(line)
                    .is_some_and(|m| m.end() == line.len()),
                _ => self.patterns.iter().any(|p| p == line),
            };
            return hit.then_some((0, line.len()));
        }
        let mut from = from;
        loop {
            if from > line.len() {
                return None;
            }
            let (s, e) = self.find_from(line, from)?;
            if !self.word {
                return Some((s, e));
            }
            let before_word = matches!(decode_last(&line[..s]), Some(Ok(c)) if is_word_char(c));
            if !before_word {
                if Matcher::word_ok(line, s, e) {
                    return Some((s, e));
                }
                if let Some(e2) = self.shorter_word_at(line, s, e - s) {
                    return Some((s, e2));
                }
            }
            from = s + 1;
        }
    }
}

#[cfg(test)]
mod tests;
