//! Fixed-string matching on raw bytes: memchr's memmem for one pattern, aho-corasick
//! (leftmost-longest) for several, regex-automata for `-i` (Unicode simple case folding,
//! still a byte-level automaton). `-w` and `-x` are decided by decoding only the characters
//! next to a match.

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind, StartKind};
use memchr::memmem;

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::meta::Regex;
use regex_automata::nfa::thompson;
use regex_automata::util::pool::Pool;
use regex_automata::util::syntax;
use regex_automata::{Anchored, Input};
use regex_syntax::escape;
use utf8_codec::{decode_first, decode_last};

use crate::diag::ToolError;

/// What to match: the patterns (valid UTF-8, no newline) and how.
#[derive(Debug)]
pub struct Matcher {
    engine: Engine,
    /// Patterns, longest first (bytes), for `-w` retries and `-x`.
    patterns: Vec<String>,
    word: bool,
    line: bool,
    /// An upper bound of the byte length of any match.
    max_match_len: usize,
    /// `-i -x`: the whole line must match.
    line_re: Option<Regex>,
}

#[derive(Debug)]
enum Engine {
    One(Box<memmem::Finder<'static>>),
    Many(AhoCorasick),
    /// Several patterns, one of them empty: the leftmost match is always at 0, the longest
    /// non-empty pattern there (anchored search of an automaton without the empty pattern)
    /// or the empty one. aho-corasick's unanchored leftmost-longest search skips the empty
    /// match where a longer pattern starts to match and then fails (`["", " abc"]` on
    /// `" abx"` gives 3..3, not 0..0; aho-corasick issue 173).
    ManyWithEmpty(AhoCorasick),
    Fold(Box<Fold>),
}

/// `-i`: a leftmost-first regex finds where the leftmost match starts (with its
/// prefilters); with several patterns, a lazy DFA of all of them under `MatchKind::All`,
/// anchored there, finds the longest match (folding changes lengths: with `-e K -e kk`, the
/// Kelvin sign K (3 bytes) is a shorter pattern than `kk` but `KK` in the text matches
/// `kk` with 6 bytes; grep is leftmost-longest).
#[derive(Debug)]
struct Fold {
    re: Regex,
    longest: Option<(DFA, CachePool)>,
}

/// The lazy DFA's caches, one per thread that searches (`-r` searches files on several).
type CachePool = Pool<Cache, Box<dyn Fn() -> Cache + Send + Sync>>;

impl Fold {
    /// The end of the longest match of `hay` anchored at `s`.
    fn longest_end(&self, hay: &[u8], s: usize) -> Option<usize> {
        let input = Input::new(hay).range(s..).anchored(Anchored::Yes);
        if let Some((dfa, cache)) = &self.longest
            && let Ok(h) = dfa.try_search_fwd(&mut cache.get(), &input)
        {
            return h.map(|h| h.offset());
        }
        self.re.search(&input).map(|m| m.end())
    }

    fn find(&self, hay: &[u8]) -> Option<(usize, usize)> {
        let m = self.re.find(hay)?;
        let Some((dfa, cache)) = &self.longest else {
            return Some((m.start(), m.end()));
        };
        let input = Input::new(hay).range(m.start()..).anchored(Anchored::Yes);
        let end = match dfa.try_search_fwd(&mut cache.get(), &input) {
            Ok(Some(h)) => h.offset().max(m.end()),
            // The lazy DFA gave up (cache thrashing): the leftmost-first match.
            _ => m.end(),
        };
        Some((m.start(), end))
    }
}

/// Whether `c` is a word character for `-w`: a Unicode letter or digit, or `_`.
pub fn is_word_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

fn fold_regex(pats: &[String], whole_line: bool) -> Result<Regex, ToolError> {
    let alts: Vec<String> = pats
        .iter()
        .map(|p| {
            if whole_line {
                format!(r"\A(?:{})\z", escape(p))
            } else {
                escape(p)
            }
        })
        .collect();
    Regex::builder()
        .syntax(syntax::Config::new().case_insensitive(true).utf8(false))
        .configure(Regex::config().utf8_empty(false))
        .build_many(&alts)
        .map_err(|e| ToolError::Usage(format!("cannot compile the patterns: {e}")))
}

fn fold_longest(pats: &[String]) -> Result<(DFA, CachePool), ToolError> {
    let alts: Vec<String> = pats.iter().map(|p| escape(p)).collect();
    let dfa = DFA::builder()
        .configure(DFA::config().match_kind(regex_automata::MatchKind::All))
        .syntax(syntax::Config::new().case_insensitive(true).utf8(false))
        .thompson(thompson::Config::new().utf8(false))
        .build_many(&alts)
        .map_err(|e| ToolError::Usage(format!("cannot compile the patterns: {e}")))?;
    let for_cache = dfa.clone();
    let pool: CachePool = Pool::new(Box::new(move || for_cache.create_cache()));
    Ok((dfa, pool))
}

impl Matcher {
    /// A matcher for `patterns` (at least one).
    ///
    /// # Errors
    ///
    /// [`ToolError::Usage`] when the automaton cannot be built (too large).
    pub fn new(
        mut patterns: Vec<String>,
        ignore_case: bool,
        word: bool,
        line: bool,
    ) -> Result<Matcher, ToolError> {
        patterns.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        patterns.dedup();
        let longest = patterns.first().map_or(0, String::len);
        let (engine, max_match_len, line_re) = if ignore_case {
            let chars = patterns
                .iter()
                .map(|p| p.chars().count())
                .max()
                .unwrap_or(0);
            let re = fold_regex(&patterns, false)?;
            let line_re = if line {
                Some(fold_regex(&patterns, true)?)
            } else {
                None
            };
            let longest = if patterns.len() > 1 {
                Some(fold_longest(&patterns)?)
            } else {
                None
            };
            (
                Engine::Fold(Box::new(Fold { re, longest })),
                chars * 4,
                line_re,
            )
        } else if patterns.len() == 1 {
            let f = memmem::Finder::new(patterns[0].as_bytes()).into_owned();
            (Engine::One(Box::new(f)), longest, None)
        } else {
            // Sorted longest first: an empty pattern is the last one.
            let with_empty = patterns.last().is_some_and(String::is_empty);
            let nonempty = &patterns[..patterns.len() - usize::from(with_empty)];
            let ac = AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .kind(Some(AhoCorasickKind::DFA).filter(|_| patterns.len() <= 20_000))
                .start_kind(if with_empty {
                    StartKind::Anchored
                } else {
                    StartKind::Unanchored
                })
                .build(nonempty)
                .map_err(|e| ToolError::Usage(format!("cannot compile the patterns: {e}")))?;
            let engine = if with_empty {
                Engine::ManyWithEmpty(ac)
            } else {
                Engine::Many(ac)
            };
            (engine, longest, None)
        };
        Ok(Matcher {
            engine,
            patterns,
            word,
            line,
            max_match_len,
            line_re,
        })
    }

    /// An upper bound of the length in bytes of any match.
    pub fn max_match_len(&self) -> usize {
        self.max_match_len
    }

    /// Whether `-x` is in effect.
    pub fn whole_line(&self) -> bool {
        self.line
    }

    /// The leftmost(-longest) raw match in `hay`, ignoring `-w`/`-x`.
    pub fn find_raw(&self, hay: &[u8]) -> Option<(usize, usize)> {
        match &self.engine {
            Engine::One(f) => f.find(hay).map(|s| (s, s + f.needle().len())),
            Engine::Many(ac) => ac.find(hay).map(|m| (m.start(), m.end())),
            Engine::ManyWithEmpty(ac) => Some(
                ac.find(aho_corasick::Input::new(hay).anchored(aho_corasick::Anchored::Yes))
                    .map_or((0, 0), |m| (m.start(), m.end())),
            ),
            Engine::Fold(f) => f.find(hay),
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
            Engine::Fold(f) => {
                // Every shorter end the automaton accepts, longest first.
                let mut e = s + limit;
                while e > s {
                    e = f.longest_end(&line[..e - 1], s)?;
                    if Matcher::word_ok(line, s, e) {
                        return Some(e);
                    }
                }
                None
            }
            _ => self
                .patterns
                .iter()
                .filter(|p| p.len() < limit && line[s..].starts_with(p.as_bytes()))
                .map(|p| s + p.len())
                .find(|&e| Matcher::word_ok(line, s, e)),
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
            let hit = match &self.line_re {
                Some(re) => re.is_match(line),
                None => self.patterns.iter().any(|p| p.as_bytes() == line),
            };
            return hit.then_some((0, line.len()));
        }
        let mut from = from;
        loop {
            if from > line.len() {
                return None;
            }
            let (s, e) = self
                .find_raw(&line[from..])
                .map(|(s, e)| (s + from, e + from))?;
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
mod tests {
    use super::Matcher;

    fn m(pats: &[&str], word: bool) -> Matcher {
        Matcher::new(
            pats.iter().map(|p| p.to_string()).collect(),
            false,
            word,
            false,
        )
        .unwrap()
    }

    /// Fuzz finding (grep_matcher): an empty pattern among several.
    #[test]
    fn empty_pattern_among_several_matches_at_0() {
        let two = m(&["", " abc"], false);
        assert_eq!(two.find_raw(b" abx"), Some((0, 0)));
        assert_eq!(two.find_raw(b" abc!"), Some((0, 4)));
        assert_eq!(two.find_raw(b""), Some((0, 0)));
        assert_eq!(m(&["", "a", "ab"], false).find_raw(b"abc"), Some((0, 2)));
        // -w: the first empty match with no word character on either side.
        assert_eq!(m(&["", " abc"], true).find_in(b"x, abx", 0), Some((2, 2)));
        assert_eq!(m(&["", " abc"], true).find_in(b"x, abc", 0), Some((2, 6)));
        assert_eq!(m(&["", " abc"], true).find_in(b"x; abc", 1), Some((2, 6)));
        assert_eq!(m(&["", "zz"], true).find_in(b"ab", 0), None);
    }

    /// `-i` compiles the patterns as regexes: every metacharacter is escaped.
    #[test]
    fn ignore_case_patterns_are_literal() {
        let pat = r"A.b(c)*[x]{2}^$#&-~\|+?";
        let m = Matcher::new(vec![pat.to_string(), "z.z".to_string()], true, false, false).unwrap();
        let hay = r"xx a.B(C)*[X]{2}^$#&-~\|+? yy";
        assert_eq!(m.find_raw(hay.as_bytes()), Some((3, 3 + pat.len())));
        assert_eq!(m.find_raw(b"zaz"), None);
        assert_eq!(m.find_raw(b"Z.Z"), Some((0, 3)));
    }
}
