//! Regular expressions on raw bytes, one line at a time: patterns parsed into
//! `regex-syntax`'s HIR (POSIX ones through [`super::posix`]), made unable to match a
//! newline, and compiled by regex-automata. The meta regex (prefilters, lazy DFA) finds
//! where the leftmost match starts; a lazy DFA of every pattern under `MatchKind::All`,
//! anchored there, finds where the longest one ends (POSIX leftmost-longest, as GNU grep),
//! with a PikeVM where the lazy DFA gives up (Unicode word boundaries on non-ASCII text).

use super::many::Many;
use regex_automata::meta::{Cache, Regex};
use regex_automata::{Anchored, Input};
use regex_syntax::hir::literal::{ExtractKind, Extractor, Seq};
use regex_syntax::hir::{
    self, Class, ClassBytes, ClassBytesRange, ClassUnicode, Hir, HirKind, Look,
};

use super::class_run::ClassRun;
use super::longest::{
    DFA_CACHE, LineScan, LocalCache, Longest, NFA_LIMIT, compile_error, first_is_longest, next_id,
    with_local,
};
use super::posix::{self, Syntax};
use crate::diag::ToolError;

/// How patterns are read: `-F`, `-G`, `-E`, `-P`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    /// Fixed strings.
    Fixed,
    /// POSIX basic regular expressions with GNU's extensions (the default, as grep's).
    #[default]
    Basic,
    /// POSIX extended regular expressions with GNU's extensions.
    Extended,
    /// `-P`: PCRE2's syntax, matched leftmost-first (the matcher of `super::pcre`; the
    /// expressions utf8-grep builds itself, fixed strings under `-i`, are parsed in the
    /// syntax of Rust's regex crate under this name).
    Perl,
}

thread_local! {
    /// This thread's cache of an [`Rx`]'s meta regex (see [`with_local`]).
    static META_CACHES: LocalCache<Cache> = const { std::cell::RefCell::new(None) };
}

/// Compiled regular expressions (or case-insensitive fixed strings).
#[derive(Debug)]
pub struct Rx {
    re: Regex,
    /// The identity of `re` for [`with_local`].
    id: u64,
    longest: Option<Longest>,
    /// POSIX leftmost-longest matches (else leftmost-first, as Perl's).
    posix: bool,
    max_len: Option<usize>,
    /// Literals one of which every match holds: a line without one is not searched.
    required: Option<Many>,
    /// Else a rare run of ASCII byte classes every match holds, to the same end.
    class_run: Option<ClassRun>,
    /// Whether a pattern has a line anchor (`^`, `$`).
    line_anchors: bool,
    /// Every byte a match can hold (a superset): a match followed by any other byte is the
    /// longest from its start.
    match_bytes: ByteSet,
    /// Every leftmost-first match is the longest from its start (see [`first_is_longest`]).
    first_longest: bool,
    /// Whether a pattern has a Unicode word boundary (the lazy DFA gives up next to
    /// non-ASCII text there).
    word_unicode: bool,
    /// The byte that ends a line.
    eol: u8,
}

/// A set of bytes.
#[derive(Debug, Clone, Copy, Default)]
struct ByteSet([u128; 2]);

impl ByteSet {
    /// Adds `lo..=hi` a word at a time (a Unicode class adds 0x80..=0xFF for each range).
    fn add_range(&mut self, lo: u8, hi: u8) {
        for (w, word) in (0u16..).zip(self.0.iter_mut()) {
            let base = 128 * w;
            let (l, h) = (u16::from(lo).max(base), u16::from(hi).min(base + 127));
            if l <= h {
                let ones = u128::MAX >> (127 - (h - l));
                *word |= ones << (l - base);
            }
        }
    }

    fn contains(&self, b: u8) -> bool {
        self.0[usize::from(b >> 7)] & (1 << (b & 127)) != 0
    }

    /// Adds every byte a match of `h` can hold: a literal's, a byte class's, the ASCII
    /// part of a Unicode class and, for its other characters, every byte of 0x80 and above.
    fn add_hir(&mut self, h: &Hir) {
        match h.kind() {
            HirKind::Empty | HirKind::Look(_) => {}
            HirKind::Literal(hir::Literal(bytes)) => {
                bytes.iter().for_each(|&b| self.add_range(b, b))
            }
            HirKind::Class(Class::Bytes(c)) => {
                c.ranges()
                    .iter()
                    .for_each(|r| self.add_range(r.start(), r.end()));
            }
            HirKind::Class(Class::Unicode(c)) => {
                for r in c.ranges() {
                    let (lo, hi) = (u32::from(r.start()), u32::from(r.end()));
                    if lo < 0x80 {
                        self.add_range(lo as u8, hi.min(0x7f) as u8);
                    }
                    if hi >= 0x80 {
                        self.add_range(0x80, 0xff);
                    }
                }
            }
            HirKind::Repetition(r) => self.add_hir(&r.sub),
            HirKind::Capture(c) => self.add_hir(&c.sub),
            HirKind::Concat(v) | HirKind::Alternation(v) => v.iter().for_each(|h| self.add_hir(h)),
        }
    }
}

/// A set of literals, none empty.
type Literals = Vec<Vec<u8>>;

/// `lits`, if it is a usable set of required literals: 1 to [`REQUIRED_MAX`] of them, none
/// empty.
fn usable(lits: Literals) -> Option<Literals> {
    (!lits.is_empty() && lits.len() <= REQUIRED_MAX && lits.iter().all(|l| !l.is_empty()))
        .then_some(lits)
}

/// The literals regex-syntax's extractor finds that every match of `h` starts with (it
/// spells out small classes and case-insensitive letters).
fn prefixes(h: &Hir) -> Option<Literals> {
    literals_of(&Extractor::new().kind(ExtractKind::Prefix).extract(h))
}

/// At most this many literals in a set of required literals ([`usable`]): a larger one is
/// not searched for.
const REQUIRED_MAX: usize = 64;

/// The literals every match of `h` starts with, as [`prefixes`], for [`required`]: an
/// extraction that stops growing a set at [`REQUIRED_MAX`] literals (it then keeps the
/// shorter literals it has), since a larger set is not used. A case-insensitive word spells
/// out 2^n literals: with regex-syntax's default limit of 250 each of [`required`]'s suffixes
/// crossed sets of up to 250 literals only to have them refused.
fn required_prefixes(h: &Hir) -> Option<Literals> {
    let seq = Extractor::new()
        .kind(ExtractKind::Prefix)
        .limit_total(REQUIRED_MAX)
        .extract(h);
    literals_of(&seq)
}

/// The extractor's default limit of a literal's length (its `limit_literal_len`).
const LITERAL_LEN_MAX: usize = 250;

/// The literals of `seq`, if they are a usable set ([`usable`]).
fn literals_of(seq: &Seq) -> Option<Literals> {
    usable(
        seq.literals()?
            .iter()
            .map(|l| l.as_bytes().to_vec())
            .collect(),
    )
}

/// The better of two sets of required literals: the one whose shortest literal is longer,
/// then the smaller one.
fn better(a: Option<Literals>, b: Option<Literals>) -> Option<Literals> {
    let key = |v: &Literals| {
        let min = v.iter().map(Vec::len).min().unwrap_or(0);
        (min, std::cmp::Reverse(v.len()))
    };
    match (a, b) {
        (Some(a), Some(b)) => Some(if key(&b) > key(&a) { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// Literals one of which every match of `h` holds, if `h` has such a set: from each
/// position of a concatenation, the prefixes of the rest; the union of the alternatives'
/// sets; a repetition's own when it repeats at least once.
fn required(h: &Hir) -> Option<Literals> {
    match h.kind() {
        HirKind::Literal(hir::Literal(bytes)) => usable(vec![bytes.to_vec()]),
        HirKind::Capture(c) => required(&c.sub),
        HirKind::Repetition(r) if r.min >= 1 => required(&r.sub),
        HirKind::Concat(children) => {
            // The prefixes of each suffix crossed from each child's own, each extracted once
            // (as the extractor's concatenation, without a copy of the suffix to extract).
            let mut ex = Extractor::new();
            ex.kind(ExtractKind::Prefix).limit_total(REQUIRED_MAX);
            let mut seqs: Vec<Option<Seq>> = vec![None; children.len()];
            let mut best = None;
            for i in 0..children.len().min(16) {
                let mut seq = Seq::singleton(hir::literal::Literal::exact(vec![]));
                for (j, child) in children.iter().enumerate().skip(i) {
                    if seq.is_inexact() {
                        break;
                    }
                    let mut next = seqs[j].get_or_insert_with(|| ex.extract(child)).clone();
                    if seq.max_cross_len(&next).is_some_and(|n| n > REQUIRED_MAX) {
                        next.make_infinite();
                    }
                    seq.cross_forward(&mut next);
                    seq.keep_first_bytes(LITERAL_LEN_MAX);
                }
                // Exact to the end, with child `i` adding a byte to each literal: every
                // later start's shortest literal is shorter, so none is better.
                let whole = seq.is_exact()
                    && seqs[i]
                        .as_ref()
                        .and_then(Seq::min_literal_len)
                        .is_some_and(|n| n > 0);
                best = better(best, literals_of(&seq));
                best = better(best, required(&children[i]));
                if whole {
                    break;
                }
            }
            best
        }
        HirKind::Alternation(branches) => {
            let mut all = Vec::new();
            for b in branches {
                all.extend(better(required(b), required_prefixes(b))?);
            }
            all.sort();
            all.dedup();
            usable(all)
        }
        _ => required_prefixes(h),
    }
}

/// The most patterns whose literals the meta regex looks for a prefilter in: past this,
/// its extraction takes quadratic time (30,000 patterns: 2 s instead of 0.3 s).
const PREFILTER_PATTERNS: usize = 5000;

/// `h` made to match within one line: no class holds a newline, no literal with one ever
/// matches, and `\A`/`\z` are the line's start and end (a search runs on many lines).
fn within_lines(h: Hir, eol: u8) -> Hir {
    match h.into_kind() {
        HirKind::Empty => Hir::empty(),
        HirKind::Literal(hir::Literal(bytes)) => {
            if bytes.contains(&eol) {
                Hir::fail()
            } else {
                Hir::literal(bytes)
            }
        }
        HirKind::Class(Class::Unicode(mut c)) => {
            let e = char::from(eol);
            c.difference(&ClassUnicode::new([hir::ClassUnicodeRange::new(e, e)]));
            Hir::class(Class::Unicode(c))
        }
        HirKind::Class(Class::Bytes(mut c)) => {
            c.difference(&ClassBytes::new([ClassBytesRange::new(eol, eol)]));
            Hir::class(Class::Bytes(c))
        }
        HirKind::Look(look) => Hir::look(match look {
            Look::Start => Look::StartLF,
            Look::End => Look::EndLF,
            other => other,
        }),
        HirKind::Repetition(r) => Hir::repetition(hir::Repetition {
            sub: Box::new(within_lines(*r.sub, eol)),
            ..r
        }),
        HirKind::Capture(c) => Hir::capture(hir::Capture {
            sub: Box::new(within_lines(*c.sub, eol)),
            ..c
        }),
        HirKind::Concat(v) => Hir::concat(v.into_iter().map(|h| within_lines(h, eol)).collect()),
        HirKind::Alternation(v) => {
            Hir::alternation(v.into_iter().map(|h| within_lines(h, eol)).collect())
        }
    }
}

/// `pattern` in `dialect` (not [`Dialect::Fixed`]) parsed, case-insensitively with
/// `ignore_case`, and made to match within a line (ended by `eol`: a newline, or NUL under
/// `-z`, where a newline is a character as any other); `warnings` receives GNU grep's warnings
/// about it. A POSIX pattern may hold bytes that are not UTF-8 (each matches itself, see
/// [`posix::translate_bytes`]); a `-P` one may not.
///
/// # Errors
///
/// [`ToolError::Usage`] saying what is wrong with the pattern, in GNU grep's words for a
/// POSIX one (`Invalid range end`).
pub fn parse(
    pattern: &[u8],
    dialect: Dialect,
    ignore_case: bool,
    eol: u8,
    warnings: &mut Vec<&'static str>,
) -> Result<Hir, ToolError> {
    // GNU grep names what is wrong, not the pattern (which may be long).
    let bad = |what: &dyn std::fmt::Display| ToolError::Usage(what.to_string());
    let (text, utf8) = match dialect {
        Dialect::Basic | Dialect::Extended => {
            let syntax = if dialect == Dialect::Basic {
                Syntax::Basic
            } else {
                Syntax::Extended
            };
            let t = posix::translate_bytes(pattern, syntax).map_err(|e| bad(&e))?;
            for w in t.warnings {
                if !warnings.contains(&w) {
                    warnings.push(w);
                }
            }
            // A raw byte is a `(?-u:\xFF)`, which the UTF-8 mode refuses.
            (t.regex, std::str::from_utf8(pattern).is_ok())
        }
        Dialect::Perl | Dialect::Fixed => match std::str::from_utf8(pattern) {
            Ok(p) => (p.to_string(), false),
            Err(e) => {
                let at = e.valid_up_to();
                let len = e.error_len().unwrap_or(pattern.len() - at);
                return Err(bad(&format_args!(
                    "not valid UTF-8 at byte {at} ({})",
                    crate::report::hex(&pattern[at..at + len])
                )));
            }
        },
    };
    let hir = regex_syntax::ParserBuilder::new()
        .utf8(utf8)
        .multi_line(true)
        .case_insensitive(ignore_case)
        .build()
        .parse(&text)
        .map_err(|e| match e {
            regex_syntax::Error::Parse(e) => bad(e.kind()),
            regex_syntax::Error::Translate(e) => bad(e.kind()),
            e => bad(&e),
        })?;
    Ok(within_lines(hir, eol))
}

/// The bytes `h` always matches, exactly, if it is a literal (or empty).
pub fn literal(h: &Hir) -> Option<Vec<u8>> {
    match h.kind() {
        HirKind::Empty => Some(Vec::new()),
        HirKind::Literal(hir::Literal(bytes)) => Some(bytes.to_vec()),
        _ => None,
    }
}

/// The expression of the fixed string `p` (any bytes), case-insensitive with `fold`, in lines
/// ended by `eol`: its UTF-8 runs escaped and parsed, each other byte a literal of itself.
pub fn fixed_hir(p: &[u8], fold: bool, eol: u8) -> Result<Hir, ToolError> {
    let mut parts = Vec::new();
    for chunk in p.utf8_chunks() {
        if !chunk.valid().is_empty() {
            let text = regex_syntax::escape(chunk.valid());
            parts.push(parse(
                text.as_bytes(),
                Dialect::Perl,
                fold,
                eol,
                &mut Vec::new(),
            )?);
        }
        if !chunk.invalid().is_empty() {
            parts.push(Hir::literal(chunk.invalid()));
        }
    }
    Ok(Hir::concat(parts))
}

impl Rx {
    /// Compiles `hirs` (from [`parse`]): matches leftmost-longest with `posix`, else
    /// leftmost-first; `longest` builds the automaton that finds the longest match from a
    /// start (needed with `posix` unless every match from a start has the same length, and
    /// for `-w`'s retries); `line` that automaton for `-x` too; `eol` ends a line (`^`
    /// and `$` match next to it).
    ///
    /// # Errors
    ///
    /// [`ToolError::Usage`] when an automaton would be too large.
    pub fn new(
        hirs: Vec<Hir>,
        posix: bool,
        longest: bool,
        line: bool,
        eol: u8,
    ) -> Result<Rx, ToolError> {
        // Only where the meta regex has no prefilter of its own (no prefix literals), and
        // for literals of 3 bytes or more: finding the line of each candidate costs more
        // than the meta regex's own search when the literal is frequent.
        // Each pattern's prefix literals (then the meta regex has a prefilter of its own)
        // or else its required literals.
        let per: Option<Vec<(bool, Option<Literals>)>> = (hirs.len() <= 64).then(|| {
            hirs.iter()
                .map(|h| match prefixes(h) {
                    Some(_) => (true, None),
                    None => (false, required(h)),
                })
                .collect()
        });
        let sets: Option<Vec<Literals>> = per
            .as_ref()
            .and_then(|per| per.iter().map(|(_, r)| r.clone()).collect());
        let required = sets
            .map(|sets| sets.concat())
            .filter(|lits| lits.len() <= REQUIRED_MAX && lits.iter().all(|l| l.len() >= 3))
            .map(|lits| Many::leftmost_first(&lits).map_err(compile_error))
            .transpose()?;
        // One pattern without a literal to look for: a run of byte classes, if it has one.
        let class_run = match hirs.as_slice() {
            // Where every match holds one of up to 3 literals, the meta regex looks for them
            // itself with memchr, faster than a run's scan of eight bytes at a time; but a run
            // with an anchor is found by memchr too, and each hit is checked in a few
            // comparisons (`-` in `[0-9]{4}-[0-9]{2}`), not by a reverse search.
            [h] => match per.as_deref() {
                Some([(false, lits)]) if required.is_none() => ClassRun::of(h)
                    .filter(|r| r.anchored() || lits.as_ref().is_none_or(|l| l.len() > 3)),
                _ => None,
            },
            _ => None,
        };
        let max_len = hirs
            .iter()
            .map(|h| h.properties().maximum_len())
            .try_fold(0, |m, n| n.map(|n| m.max(n)));
        let mut match_bytes = ByteSet::default();
        hirs.iter().for_each(|h| match_bytes.add_hir(h));
        let first_longest = matches!(hirs.as_slice(), [h] if first_is_longest(h));
        let word_unicode = hirs
            .iter()
            .any(|h| h.properties().look_set().contains_word_unicode());
        let line_anchors = hirs.iter().any(|h| {
            let looks = h.properties().look_set();
            looks.contains(Look::StartLF) || looks.contains(Look::EndLF)
        });
        let prefilter = hirs.len() <= PREFILTER_PATTERNS;
        // One pattern of them all: the automata need no per-pattern state (the PikeVM's
        // capture slots grow with the number of patterns times its states).
        let all = Hir::alternation(hirs);
        let config = Regex::config()
            .utf8_empty(false)
            .nfa_size_limit(Some(NFA_LIMIT))
            .hybrid_cache_capacity(DFA_CACHE)
            .line_terminator(eol)
            .auto_prefilter(prefilter);
        let re = Regex::builder()
            .configure(config)
            .build_from_hir(&all)
            .map_err(compile_error)?;
        // `-x` asks the longest match from the line's start whether it ends at the line's end
        // (one automaton fewer to build than a regex of the whole line).
        let longest = if longest || line {
            Some(Longest::new(&all, eol)?)
        } else {
            None
        };
        Ok(Rx {
            re,
            id: next_id(),
            longest,
            posix,
            max_len,
            required,
            class_run,
            match_bytes,
            first_longest,
            line_anchors,
            word_unicode,
            eol,
        })
    }

    /// A scan of one line that decides whether it holds a match (with `whole`, whether all of
    /// it is one), fed a piece at a time; `None` where the patterns have no longest-match DFA
    /// (`-P` without `-w`) or one that may give up (a Unicode word boundary).
    pub fn line_scan(&self, whole: bool) -> Option<LineScan<'_>> {
        self.longest
            .as_ref()
            .filter(|_| !self.word_unicode)?
            .line_scan(whole)
    }

    /// Whether a pattern has a line anchor (`^`, `$`).
    pub fn line_anchors(&self) -> bool {
        self.line_anchors
    }

    /// An upper bound of the length of a match, if there is one.
    pub fn max_len(&self) -> Option<usize> {
        self.max_len
    }

    /// The leftmost match in `hay` that starts at or after `from`: the longest one there
    /// (POSIX) or the first by the patterns' priorities (Perl). Look-around sees all of `hay`.
    pub fn find_at(&self, hay: &[u8], from: usize) -> Option<(usize, usize)> {
        self.find_within(hay, from, hay.len())
    }

    /// The leftmost match in `hay`, lines of text: only the lines that hold one of the
    /// required literals (or the run of byte classes) are searched, when the patterns have
    /// such literals (or one pattern such a run).
    pub fn find_in_lines(&self, hay: &[u8]) -> Option<(usize, usize)> {
        if let Some(required) = &self.required {
            return self.find_in_candidate_lines(hay, |at| {
                let m = required.find_from(hay, at)?;
                Some((m.start(), m.end()))
            });
        }
        if let Some(run) = &self.class_run {
            return self.find_in_candidate_lines(hay, |at| {
                run.find_end(hay, at).map(|e| (e - run.len(), e))
            });
        }
        self.find_at(hay, 0)
    }

    /// [`Rx::find_in_lines`] over the lines of the candidates `next` finds from an offset
    /// (each a span every match holds).
    fn find_in_candidate_lines(
        &self,
        hay: &[u8],
        mut next: impl FnMut(usize) -> Option<(usize, usize)>,
    ) -> Option<(usize, usize)> {
        let mut at = 0;
        while at <= hay.len() {
            let (s, e) = next(at)?;
            let start = memchr::memrchr(self.eol, &hay[at..s]).map_or(at, |i| at + i + 1);
            let end = memchr::memchr(self.eol, &hay[e..]).map_or(hay.len(), |i| e + i);
            if let Some(found) = self.find_within(hay, start, end) {
                return Some(found);
            }
            at = end + 1;
        }
        None
    }

    /// `f` with the meta regex and this thread's cache of it.
    fn meta<T>(&self, f: impl FnOnce(&Regex, &mut Cache) -> T) -> T {
        with_local(
            &META_CACHES,
            self.id,
            || self.re.create_cache(),
            |c| f(&self.re, c),
        )
    }

    /// The leftmost match in `hay[from..to]`, look-around seeing all of `hay`.
    fn find_within(&self, hay: &[u8], from: usize, to: usize) -> Option<(usize, usize)> {
        let input = Input::new(hay).range(from..to);
        let m = self.meta(|re, cache| re.search_with(cache, &input))?;
        let (s, e) = (m.start(), m.end());
        // A longer match from `s` would hold the byte after this one.
        let longer = !self.first_longest && e < to && self.match_bytes.contains(hay[e]);
        match (&self.longest, self.posix) {
            (Some(l), true) if longer => {
                let end = l
                    .end(&Input::new(hay).range(s..to).anchored(Anchored::Yes))
                    .map_or(e, |x| x.max(e));
                Some((s, end))
            }
            _ => Some((s, e)),
        }
    }

    /// The end of the longest match that starts at `s` and ends before `limit` (look-around
    /// still sees all of `hay`).
    pub fn longest_before(&self, hay: &[u8], s: usize, limit: usize) -> Option<usize> {
        if limit <= s {
            return None;
        }
        let input = Input::new(hay).range(s..limit - 1).anchored(Anchored::Yes);
        match &self.longest {
            Some(l) => l.end(&input),
            None => self
                .meta(|re, cache| re.search_with(cache, &input))
                .map(|m| m.end()),
        }
    }

    /// Whether all of `line` matches one of the patterns (with `-x`): the longest match from
    /// its start ends at its end.
    pub fn matches_line(&self, line: &[u8]) -> bool {
        let input = Input::new(line).anchored(Anchored::Yes);
        self.longest
            .as_ref()
            .is_some_and(|l| l.end(&input) == Some(line.len()))
    }
}

#[cfg(test)]
mod tests;
