//! The nine rows are exactly Unicode's UTF-8: our DFA and the one regex-automata derives from
//! its own UTF-8 compilation of "any scalar value" accept the same language.

use std::collections::{HashMap, VecDeque};

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};

/// `(?s:.)*` in Unicode mode with UTF-8 mode on: regex-syntax's own Table 3-7 (its `utf8`
/// module), built with the same match semantics as ours.
fn reference() -> dense::DFA<Vec<u32>> {
    dense::Builder::new()
        .configure(
            dense::Config::new()
                .match_kind(MatchKind::All)
                .start_kind(StartKind::Anchored)
                .minimize(true),
        )
        .build(r"(?s:.)*")
        .expect("regex-automata builds (?s:.)*")
}

fn anchored_start<A: Automaton>(dfa: &A) -> regex_automata::util::primitives::StateID {
    dfa.start_state(&start::Config::new().anchored(Anchored::Yes))
        .expect("anchored start")
}

/// Breadth-first search over pairs of states, every byte and end of input: match-ness and
/// dead-ness agree everywhere, and the pairing is a bijection (the minimal DFAs are
/// isomorphic).
#[test]
fn lockstep_with_regex_automata_utf8() {
    let ours = utf8_dfa::Validator::new().dfa();
    let theirs = reference();
    let start = (anchored_start(ours), anchored_start(&theirs));
    let mut seen = HashMap::from([(start, ())]);
    let mut queue = VecDeque::from([start]);
    let (mut by_ours, mut by_theirs) = (HashMap::new(), HashMap::new());
    while let Some((a, b)) = queue.pop_front() {
        assert_eq!(
            ours.is_match_state(a),
            theirs.is_match_state(b),
            "match-ness at {a:?}/{b:?}"
        );
        assert_eq!(
            ours.is_dead_state(a),
            theirs.is_dead_state(b),
            "dead-ness at {a:?}/{b:?}"
        );
        assert_eq!(
            *by_ours.entry(a).or_insert(b),
            b,
            "our state {a:?} pairs with two"
        );
        assert_eq!(
            *by_theirs.entry(b).or_insert(a),
            a,
            "their state {b:?} pairs with two"
        );
        let (ea, eb) = (ours.next_eoi_state(a), theirs.next_eoi_state(b));
        assert_eq!(
            ours.is_match_state(ea),
            theirs.is_match_state(eb),
            "end of input after {a:?}/{b:?}"
        );
        for byte in 0..=255u8 {
            let next = (ours.next_state(a, byte), theirs.next_state(b, byte));
            if seen.insert(next, ()).is_none() {
                queue.push_back(next);
            }
        }
    }
    assert_eq!(by_ours.len(), utf8_dfa::STATES);
    assert_eq!(by_theirs.len(), crate::build::reachable_states(&theirs));
    assert_eq!(seen.len(), utf8_dfa::STATES);
}

/// A fresh build of the pattern (not only the embedded one) agrees with the reference too.
#[test]
fn lockstep_fresh_build() {
    let fresh = crate::build::build(utf8_dfa::UTF8_PATTERN).unwrap();
    let theirs = reference();
    let start = (anchored_start(&fresh), anchored_start(&theirs));
    let mut seen = HashMap::from([(start, ())]);
    let mut queue = VecDeque::from([start]);
    while let Some((a, b)) = queue.pop_front() {
        assert_eq!(fresh.is_match_state(a), theirs.is_match_state(b));
        let (ea, eb) = (fresh.next_eoi_state(a), theirs.next_eoi_state(b));
        assert_eq!(fresh.is_match_state(ea), theirs.is_match_state(eb));
        for byte in 0..=255u8 {
            let next = (fresh.next_state(a, byte), theirs.next_state(b, byte));
            if seen.insert(next, ()).is_none() {
                queue.push_back(next);
            }
        }
    }
}
