//! The automaton of several fixed strings (aho-corasick, leftmost-longest) and which of its
//! kinds and starts a pattern set gets.

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind, StartKind};

use crate::diag::ToolError;

/// The leftmost-longest searcher of several fixed strings (ASCII case insensitive with
/// `ascii_fold`); its DFA, the fastest to search, where [`dfa_fits`], else its contiguous
/// NFA, or the noncontiguous one past the contiguous one's size limit (never the library's
/// own choice, which tries the DFA for up to 100 patterns).
/// `start` says which searches it serves: anchored only when one of the patterns is empty
/// (see `Engine::ManyWithEmpty`), both with `-x` (the whole line is an anchored match),
/// else unanchored only: a DFA with both kinds of start takes twice as long to build.
pub(super) fn many(
    pats: &[Vec<u8>],
    ascii_fold: bool,
    start: StartKind,
) -> Result<AhoCorasick, ToolError> {
    let build = |kind| {
        AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .ascii_case_insensitive(ascii_fold)
            .kind(Some(kind))
            .start_kind(start)
            .build(pats)
    };
    let kind = if dfa_fits(pats) {
        AhoCorasickKind::DFA
    } else {
        AhoCorasickKind::ContiguousNFA
    };
    // The contiguous NFA has a limit on its size that the noncontiguous one has not (the
    // library's own fallback).
    build(kind)
        .or_else(|_| build(AhoCorasickKind::NoncontiguousNFA))
        .map_err(|e| ToolError::Usage(format!("cannot compile the patterns: {e}")))
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
