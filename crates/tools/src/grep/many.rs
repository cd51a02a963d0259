//! The automaton of several fixed strings (aho-corasick): the patterns of `-F` (and of
//! regular expressions that are all literals), leftmost-longest, and the required literals
//! of regular expressions, leftmost-first; which of its kinds and starts a set gets, and
//! when its DFA is built.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use aho_corasick::{AhoCorasick, AhoCorasickKind, Input, MatchKind, StartKind};

use crate::diag::ToolError;

/// The searcher of several fixed strings: first a contiguous NFA (the noncontiguous one past its size limit), quick
/// to build, and, where [`dfa_fits`], the DFA, quicker to search, built once the searches
/// have been handed enough bytes to repay its construction ([`Many::dfa_after`]), or at
/// once where the input is known to hold that many.
///
/// A DFA costs several times an NFA's construction (it follows failure links for every
/// state and byte class) and searches faster where the prefilter does not decide alone
/// (`-i`, frequent candidates): built up front, it took most of the time of a long word
/// list's search of a small file, and a few words searched in a few lines paid for a table
/// they never used. Both kinds find the same matches.
#[derive(Debug)]
pub(super) struct Many {
    /// The NFA, or the DFA where it was built at once.
    first: AhoCorasick,
    /// The patterns and how to build the DFA, kept until it is built; `None` where it does
    /// not fit.
    pending: Option<Pending>,
    dfa: OnceLock<Option<AhoCorasick>>,
    /// The bytes handed to searches so far (each search's haystack counts whole), until the
    /// DFA is built.
    searched: AtomicU64,
}

#[derive(Debug)]
struct Pending {
    pats: Vec<Vec<u8>>,
    match_kind: MatchKind,
    ascii_fold: bool,
    start: StartKind,
    after: u64,
}

impl Many {
    /// The leftmost-longest automaton of `pats` (ASCII case insensitive with `ascii_fold`);
    /// `start` says which searches it serves: anchored only when
    /// one of the patterns is empty (see `Engine::ManyWithEmpty`), both with `-x` (the
    /// whole line is an anchored match), else unanchored only: a DFA with both kinds of
    /// start takes twice as long to build.
    ///
    /// `known` is the number of bytes the search will be handed at least: where that
    /// reaches [`Many::dfa_after`], the DFA is built at once, and no NFA.
    pub(super) fn new(
        pats: &[Vec<u8>],
        ascii_fold: bool,
        start: StartKind,
        known: u64,
    ) -> Result<Many, ToolError> {
        Many::with_kind(pats, MatchKind::LeftmostLongest, ascii_fold, start, known)
            .map_err(|e| ToolError::Usage(format!("cannot compile the patterns: {e}")))
    }

    /// The leftmost-first automaton of `pats`, for unanchored searches, the input unknown.
    pub(super) fn leftmost_first(pats: &[Vec<u8>]) -> Result<Many, aho_corasick::BuildError> {
        Many::with_kind(
            pats,
            MatchKind::LeftmostFirst,
            false,
            StartKind::Unanchored,
            0,
        )
    }

    fn with_kind(
        pats: &[Vec<u8>],
        match_kind: MatchKind,
        ascii_fold: bool,
        start: StartKind,
        known: u64,
    ) -> Result<Many, aho_corasick::BuildError> {
        let after = Many::dfa_after(pats);
        let fits = dfa_fits(pats);
        let dfa_now = fits && known >= after;
        // The contiguous NFA has a limit on its size that the noncontiguous one has not
        // (the library's own fallback).
        let nfa = || {
            build(
                pats,
                match_kind,
                ascii_fold,
                start,
                AhoCorasickKind::ContiguousNFA,
            )
            .or_else(|_| {
                build(
                    pats,
                    match_kind,
                    ascii_fold,
                    start,
                    AhoCorasickKind::NoncontiguousNFA,
                )
            })
        };
        let first = if dfa_now {
            build(pats, match_kind, ascii_fold, start, AhoCorasickKind::DFA).or_else(|_| nfa())
        } else {
            nfa()
        }?;
        let pending = (fits && !dfa_now).then(|| Pending {
            pats: pats.to_vec(),
            match_kind,
            ascii_fold,
            start,
            after,
        });
        Ok(Many {
            first,
            pending,
            dfa: OnceLock::new(),
            searched: AtomicU64::new(0),
        })
    }

    /// How many bytes the searches are handed before the DFA is built: 32 for each byte of
    /// the patterns, and at least 64 KiB. The DFA's construction grows with its states (one
    /// per pattern byte at most) and what it saves with the bytes searched; waiting for
    /// fewer bytes than would repay it keeps a large input's loss to a small share of its
    /// search, and still spares a small input the construction.
    pub(super) fn dfa_after(pats: &[Vec<u8>]) -> u64 {
        let total: usize = pats.iter().map(Vec::len).sum();
        (total as u64).saturating_mul(32).max(64 << 10)
    }

    /// Builds the DFA (where it fits), once.
    fn build_dfa(&self) {
        if let Some(p) = &self.pending {
            self.dfa.get_or_init(|| {
                build(
                    &p.pats,
                    p.match_kind,
                    p.ascii_fold,
                    p.start,
                    AhoCorasickKind::DFA,
                )
                .ok()
            });
        }
    }

    /// The automaton to search `hay` with: the DFA once built (building it now if the
    /// bytes searched have reached [`Many::dfa_after`]), else the NFA.
    #[inline]
    fn automaton(&self, hay: &[u8]) -> &AhoCorasick {
        if let Some(dfa) = self.dfa.get() {
            return dfa.as_ref().unwrap_or(&self.first);
        }
        let Some(p) = &self.pending else {
            return &self.first;
        };
        let before = self.searched.fetch_add(hay.len() as u64, Ordering::Relaxed);
        if before.saturating_add(hay.len() as u64) < p.after {
            return &self.first;
        }
        self.build_dfa();
        self.dfa
            .get()
            .and_then(Option::as_ref)
            .unwrap_or(&self.first)
    }

    /// The leftmost-longest match in `hay`.
    #[inline]
    pub(super) fn find(&self, hay: &[u8]) -> Option<aho_corasick::Match> {
        self.automaton(hay).find(hay)
    }

    /// The first match in `hay` that starts at `at` or after.
    #[inline]
    pub(super) fn find_from(&self, hay: &[u8], at: usize) -> Option<aho_corasick::Match> {
        self.automaton(&hay[at..])
            .find(Input::new(hay).span(at..hay.len()))
    }

    /// The longest match that starts at 0 of `hay`.
    #[inline]
    pub(super) fn find_anchored(&self, hay: &[u8]) -> Option<aho_corasick::Match> {
        self.automaton(hay)
            .find(Input::new(hay).anchored(aho_corasick::Anchored::Yes))
    }

    /// Whether the automaton built first is the DFA (for tests).
    #[cfg(test)]
    pub(super) fn first_is_dfa(&self) -> bool {
        self.first.kind() == AhoCorasickKind::DFA
    }

    /// Whether the DFA has been built later (for tests).
    #[cfg(test)]
    pub(super) fn has_dfa(&self) -> bool {
        self.dfa.get().is_some_and(Option::is_some)
    }
}

fn build(
    pats: &[Vec<u8>],
    match_kind: MatchKind,
    ascii_fold: bool,
    start: StartKind,
    kind: AhoCorasickKind,
) -> Result<AhoCorasick, aho_corasick::BuildError> {
    AhoCorasick::builder()
        .match_kind(match_kind)
        .ascii_case_insensitive(ascii_fold)
        .kind(Some(kind))
        .start_kind(start)
        .build(pats)
}

/// Whether aho-corasick's DFA of `pats` is quick to build: up to 20,000 patterns of 1 MiB
/// in all, and their bytes times the longest one's at most 2^25. The builder finds each
/// transition by following failure links, as long as the state is deep, so a long
/// periodic pattern is quadratic: `a` 24,000 times and one more pattern took 3.5 s, `abc`
/// 300,000 times (under 1 MiB) more than 100 s.
fn dfa_fits(pats: &[Vec<u8>]) -> bool {
    let total: usize = pats.iter().map(Vec::len).sum();
    let longest = pats.iter().map(Vec::len).max().unwrap_or(0);
    pats.len() <= 20_000 && total <= 1 << 20 && total.saturating_mul(longest) <= 1 << 25
}

/// The searches [`many`]'s automaton serves: anchored ones only with an empty pattern among
/// several, both kinds with `-x`, else unanchored ones.
pub(super) fn starts(with_empty: bool, line: bool) -> StartKind {
    match (with_empty, line) {
        (true, _) => StartKind::Anchored,
        (false, true) => StartKind::Both,
        (false, false) => StartKind::Unanchored,
    }
}
