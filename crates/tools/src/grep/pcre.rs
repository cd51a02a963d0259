//! `-P`: Perl-compatible regular expressions, as GNU grep 3.8's, through PCRE2 (the `pcre2`
//! crate, its JIT where available). The pattern is compiled in UTF mode with
//! `PCRE2_MATCH_INVALID_UTF` (invalid bytes in the text never match, nothing is refused) and
//! every ASCII restriction of `(?a)` (PCRE2 10.43 on): `\d`, `\w`, `\s`, `\b` and the POSIX
//! classes are ASCII only, as in GNU grep 3.8, which compiled without `PCRE2_UCP` (3.9 made
//! `\d` match every decimal digit and 3.10 made it ASCII again); `-i` folds case with
//! Unicode's rules. `-w` and `-x` wrap the pattern as GNU grep 3.8 does
//! (`(?<!\w)(?:P)(?!\w)`, `^(?:P)$`). Each line is searched on its own, so a match never
//! spans lines and `^` and `$` match at a line's ends; a pattern that sees nothing past its
//! match searches many lines in one call, with the same answer (see [`apart`]). A pattern
//! whose matches are the same read by bytes is compiled without UTF mode, which PCRE2 runs
//! faster (see [`bytes`]).

use std::cell::Cell;

use memchr::memmem;
use pcre2::bytes::{Regex, RegexBuilder};

use crate::diag::ToolError;

thread_local! {
    /// What went wrong in a search on this thread (PCRE2's match limits), for the searcher
    /// to report with the input's name: GNU grep's words.
    static TROUBLE: Cell<Option<&'static str>> = const { Cell::new(None) };
}

/// The trouble a search on this thread met since the last call, if any (GNU grep 3.8's
/// message: `exceeded PCRE's backtracking limit`, ...).
pub(super) fn take_trouble() -> Option<&'static str> {
    TROUBLE.with(Cell::take)
}

/// PCRE2's codes of the errors a match can end with (pcre2.h).
const ERROR_JIT_STACKLIMIT: i32 = -46;
const ERROR_MATCHLIMIT: i32 = -47;
const ERROR_DEPTHLIMIT: i32 = -53;
const ERROR_HEAPLIMIT: i32 = -63;

/// A compiled `-P` pattern.
#[derive(Debug)]
pub struct Pcre {
    re: Regex,
    /// The byte that ends a line.
    eol: u8,
    /// Whether bytes that start no character are skipped at a search's start, as GNU
    /// grep's `-P` does (see [`Pcre::find_at`]).
    skip_invalid: bool,
    /// A literal every match holds ([`literal::required`]): lines without it are not
    /// given to PCRE2.
    needle: Option<memmem::Finder<'static>>,
    /// The same pattern with `PCRE2_MULTILINE`, searching many lines in one call, when
    /// that finds the lines a search of each finds ([`apart::lines_apart`]).
    many: Option<Regex>,
}

mod apart;
mod bytes;
mod literal;
#[cfg(test)]
mod tests;

/// PCRE2's message of `e` without the crate's prefix (`missing closing parenthesis`), as
/// GNU grep prints it.
fn message(e: &pcre2::Error) -> String {
    let text = e.to_string();
    let text = text.strip_prefix("PCRE2: ").unwrap_or(&text);
    text.split_once(": ").map_or(text, |(_, m)| m).to_string()
}

/// Where the options of `pattern` may go: after its leading `(*VERB)`s, which must come
/// first.
fn after_verbs(pattern: &str) -> usize {
    let mut at = 0;
    while pattern[at..].starts_with("(*") {
        match pattern[at..].find(')') {
            Some(end) => at += end + 1,
            None => break,
        }
    }
    at
}

/// Whether `b` can start no UTF-8 character (80..BF, C0, C1, F5..FF): GNU grep's `-P`
/// skips such bytes at a search's start.
fn starts_no_character(b: u8) -> bool {
    matches!(b, 0x80..=0xC1 | 0xF5..=0xFF)
}

impl Pcre {
    /// The pattern (one: GNU grep 3.8's `-P` takes one) compiled with `-i`, `-w`, `-x`, for
    /// lines ended by `eol`.
    ///
    /// # Errors
    ///
    /// [`ToolError::Usage`] with GNU grep's or PCRE2's words: several patterns, a pattern
    /// that is not UTF-8, one that does not compile.
    pub fn new(
        patterns: &[Vec<u8>],
        ignore_case: bool,
        word: bool,
        line: bool,
        eol: u8,
    ) -> Result<Pcre, ToolError> {
        let [pattern] = patterns else {
            return Err(ToolError::Usage(
                "the -P option only supports a single pattern".into(),
            ));
        };
        let pattern = std::str::from_utf8(pattern).map_err(|e| {
            let at = e.valid_up_to();
            ToolError::Usage(format!(
                "UTF-8 error: the pattern is not valid UTF-8 at byte {at} ({})",
                crate::report::hex(&pattern[at..at + e.error_len().unwrap_or(1)])
            ))
        })?;
        let (verbs, body) = pattern.split_at(after_verbs(pattern));
        // -x wins over -w, as in GNU grep (and for -F, -G and -E here).
        let body = if line {
            format!("^(?:{body})$")
        } else if word {
            format!(r"(?<!\w)(?:{body})(?!\w)")
        } else {
            body.to_string()
        };
        // (?a): ASCII \d \s \w, POSIX classes and \b, as without PCRE2_UCP (GNU grep 3.8);
        // `ucp` is what turns on PCRE2_MATCH_INVALID_UTF in the crate.
        let full = format!("{verbs}(?a){body}");
        // Without `-i`: PCRE2's caseless UTF mode folds `k` and `s` with characters that are
        // not ASCII.
        let utf = ignore_case || !verbs.is_empty() || !bytes::by_bytes(body.as_str());
        let mut re = Pcre::build(&full, ignore_case, eol, true, utf)?;
        if eol == b'\n' && apart::lines_apart(pattern) {
            re.many = Some(
                Pcre::builder(ignore_case, utf)
                    .multi_line(true)
                    .build(&full)
                    .map_err(|e| ToolError::Usage(message(&e)))?,
            );
        }
        // (The pattern's own text: -w's and -x's wrapping adds no literal.)
        let needle = (!ignore_case)
            .then(|| literal::required(&pattern[verbs.len()..]))
            .flatten();
        re.needle = needle.map(|n| memmem::Finder::new(&n).into_owned());
        Ok(re)
    }

    /// The confirming matcher of POSIX patterns with back-references: `patterns` in PCRE2's
    /// syntax ([`super::posix::pcre_spelling`]), any of which may match, each with its own
    /// group numbers; `-w` and `-x` as for the POSIX patterns (a word character is a letter,
    /// a digit or `_`, in Unicode's sense), `-i` folding case with Unicode's rules (a
    /// back-reference too).
    ///
    /// # Errors
    ///
    /// [`ToolError::Usage`] with PCRE2's words, for a pattern it cannot compile.
    pub fn posix(
        patterns: &[String],
        ignore_case: bool,
        word: bool,
        line: bool,
        eol: u8,
    ) -> Result<Pcre, ToolError> {
        // A branch reset group: the groups of each pattern are numbered from 1.
        let alts: Vec<String> = patterns.iter().map(|p| format!("(?:{p})")).collect();
        let body = format!("(?|{})", alts.join("|"));
        let word_char = r"[_\p{Alphabetic}\p{N}]";
        let full = if line {
            format!(r"\A(?:{body})\z")
        } else if word {
            format!("(?<!{word_char})(?:{body})(?!{word_char})")
        } else {
            body
        };
        Pcre::build(&full, ignore_case, eol, false, true)
    }

    /// The options every pattern is compiled with: in UTF mode, or by bytes where
    /// [`bytes::by_bytes`] finds the same matches.
    fn builder(ignore_case: bool, utf: bool) -> RegexBuilder {
        let mut b = RegexBuilder::new();
        b.utf(utf)
            .ucp(utf)
            .caseless(ignore_case)
            .jit_if_available(true)
            .max_jit_stack_size(Some(8 << 20));
        b
    }

    fn build(
        pattern: &str,
        ignore_case: bool,
        eol: u8,
        skip_invalid: bool,
        utf: bool,
    ) -> Result<Pcre, ToolError> {
        let re = Pcre::builder(ignore_case, utf)
            .build(pattern)
            .map_err(|e| ToolError::Usage(message(&e)))?;
        Ok(Pcre {
            re,
            eol,
            skip_invalid,
            needle: None,
            many: None,
        })
    }

    /// The byte that ends a line.
    pub fn eol(&self) -> u8 {
        self.eol
    }

    /// The first match in `line` (one line, without its terminator) at or after `from`;
    /// look-behind sees the line before `from`. A match limit is noted as trouble (see
    /// [`take_trouble`]) and answers no match.
    ///
    /// As GNU grep 3.8 (`Pexecute` in `src/pcresearch.c`), bytes at `from` that can start no
    /// character (80..BF, C0, C1, F5..FF) are skipped first, and the search then starts past
    /// them as if not at a line's start: `^` cannot match there (PCRE2_NOTBOL), so a line
    /// that begins with such a byte is not selected by `^`. The matcher of POSIX patterns
    /// ([`Pcre::posix`]) skips nothing.
    pub fn find_at(&self, line: &[u8], from: usize) -> Option<(usize, usize)> {
        if let Some(n) = &self.needle
            && n.find(line).is_none()
        {
            return None;
        }
        let skipped = if self.skip_invalid {
            line[from.min(line.len())..]
                .iter()
                .take_while(|&&b| starts_no_character(b))
                .count()
        } else {
            0
        };
        // (Past the line's start, `^` matches nowhere: the offset does what NOTBOL does.)
        match self.re.find_at(line, from + skipped) {
            Ok(m) => m.map(|m| (m.start(), m.end())),
            Err(e) => {
                // GNU grep 3.8's words (pcresearch.c) for PCRE2's error codes.
                let what = match e.code() {
                    ERROR_MATCHLIMIT => "exceeded PCRE's backtracking limit",
                    ERROR_DEPTHLIMIT => "exceeded PCRE's nested backtracking limit",
                    ERROR_HEAPLIMIT => "exceeded PCRE's heap limit",
                    ERROR_JIT_STACKLIMIT => "exhausted PCRE JIT stack",
                    _ => "internal PCRE error",
                };
                TROUBLE.with(|t| t.set(Some(what)));
                None
            }
        }
    }

    /// The first match in `hay`, lines of text ended by the line terminator, as a search
    /// of each line on its own finds it.
    pub fn find_in_lines(&self, hay: &[u8]) -> Option<(usize, usize)> {
        match &self.many {
            Some(many) => self.find_in_many(many, hay),
            None => self.line_by_line(hay, 0),
        }
    }

    /// [`Pcre::find_in_lines`] by one search over many lines: the first match in the buffer
    /// starts in the first line that has one, unless it crosses a line's end or that line
    /// starts with a byte [`Pcre::find_at`] skips; the line is then searched on its own,
    /// and on failure the search goes on after it. A match limit hit over many lines
    /// leaves the rest to the search line by line, and so does the empty line after a final
    /// terminator (where PCRE2_MULTILINE's `^` does not match).
    fn find_in_many(&self, many: &Regex, hay: &[u8]) -> Option<(usize, usize)> {
        let mut start = 0;
        loop {
            if start == hay.len() {
                return self.line_by_line(hay, start);
            }
            if let Some(n) = &self.needle {
                // From the start of the next line holding the literal.
                let at = start + n.find(&hay[start..])?;
                start = memchr::memrchr(self.eol, &hay[start..at]).map_or(start, |i| start + i + 1);
            }
            let m = match many.find_at(hay, start) {
                Ok(Some(m)) => m,
                Ok(None) if hay.last() == Some(&self.eol) => {
                    return self.line_by_line(hay, hay.len());
                }
                Ok(None) => return None,
                Err(_) => return self.line_by_line(hay, start),
            };
            let ls =
                memchr::memrchr(self.eol, &hay[start..m.start()]).map_or(start, |i| start + i + 1);
            let le = memchr::memchr(self.eol, &hay[ls..]).map_or(hay.len(), |i| ls + i);
            let skips = hay.get(ls).is_some_and(|&b| starts_no_character(b));
            if m.end() <= le && !skips {
                return Some((m.start(), m.end()));
            }
            if let Some((s, e)) = self.find_at(&hay[ls..le], 0) {
                return Some((ls + s, ls + e));
            }
            if le >= hay.len() {
                return None;
            }
            start = le + 1;
        }
    }

    /// [`Pcre::find_in_lines`] from the line starting at `start`, each line searched on its
    /// own.
    fn line_by_line(&self, hay: &[u8], mut start: usize) -> Option<(usize, usize)> {
        loop {
            if let Some(n) = &self.needle {
                // The next line holding the literal.
                let at = start + n.find(&hay[start..])?;
                start = memchr::memrchr(self.eol, &hay[start..at]).map_or(start, |i| start + i + 1);
            }
            let end = memchr::memchr(self.eol, &hay[start..]).map_or(hay.len(), |i| start + i);
            if let Some((s, e)) = self.find_at(&hay[start..end], 0) {
                return Some((start + s, start + e));
            }
            if end >= hay.len() {
                return None;
            }
            start = end + 1;
        }
    }
}
