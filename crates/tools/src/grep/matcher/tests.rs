//! Tests of `matcher.rs`.

use super::{Dialect, Matcher};

fn m(pats: &[&str], word: bool) -> Matcher {
    Matcher::new(
        pats.iter().map(|p| p.to_string()).collect(),
        Dialect::Fixed,
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

/// `-i` with several patterns searches their spellings under simple case folding: the
/// same matches, leftmost-longest, and the same `-w` and `-x` answers as one
/// case-insensitive regex of them all (the engine it replaced), on text made of the
/// letters whose folding is not one-to-one in ASCII (Kelvin sign, long s, sigma, dotted
/// and dotless i, ß/ẞ, Greek and Cyrillic with their capitals).
#[test]
fn ignore_case_spellings_agree_with_the_regex() {
    let alphabet: Vec<char> = "kKKsSſσςΣiIİıßẞéÉжЖ aé_1".chars().collect();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    fn next(seed: &mut u64, n: usize) -> usize {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed % n as u64) as usize
    }
    let word = |seed: &mut u64, len: usize| -> String {
        (0..len)
            .map(|_| alphabet[next(seed, alphabet.len())])
            .collect()
    };
    for _ in 0..300 {
        let n = 1 + next(&mut seed, 4);
        let pats: Vec<String> = (0..n)
            .map(|_| {
                let len = 1 + next(&mut seed, 3);
                word(&mut seed, len)
            })
            .collect();
        let hay = word(&mut seed, 12);
        for (w, x) in [(false, false), (true, false), (false, true)] {
            let bytes: Vec<Vec<u8>> = pats.iter().map(|p| p.clone().into_bytes()).collect();
            let o = super::MatchOptions {
                dialect: Dialect::Fixed,
                ignore_case: true,
                word: w,
                line: x,
                eol: b'\n',
                known_input: 0,
            };
            let fast = Matcher::build(bytes.clone(), o, 1 << 20).unwrap();
            let slow = Matcher::build(bytes, o, 0).unwrap();
            for from in 0..hay.len() {
                if !hay.is_char_boundary(from) {
                    continue;
                }
                assert_eq!(
                    fast.find_in(hay.as_bytes(), from),
                    slow.find_in(hay.as_bytes(), from),
                    "{pats:?} in {hay:?} from {from}, -w {w} -x {x}"
                );
            }
        }
    }
}

/// `-i` compiles the patterns as regexes: every metacharacter is escaped.
#[test]
fn ignore_case_patterns_are_literal() {
    let pat = r"A.b(c)*[x]{2}^$#&-~\|+?";
    let m = Matcher::new(
        vec![pat.to_string(), "z.z".to_string()],
        Dialect::Fixed,
        true,
        false,
        false,
    )
    .unwrap();
    let hay = r"xx a.B(C)*[X]{2}^$#&-~\|+? yy";
    assert_eq!(m.find_raw(hay.as_bytes()), Some((3, 3 + pat.len())));
    assert_eq!(m.find_raw(b"zaz"), None);
    assert_eq!(m.find_raw(b"Z.Z"), Some((0, 3)));
}

/// Whether a matcher of several fixed strings has built its DFA.
fn has_dfa(m: &Matcher) -> bool {
    match &m.engine {
        super::Engine::Many(a) | super::Engine::ManyWithEmpty(a) | super::Engine::FoldMany(a) => {
            a.has_dfa()
        }
        _ => panic!("not an automaton of fixed strings: {:?}", m.engine),
    }
}

/// Several fixed strings are searched with aho-corasick's NFA until the searches have been
/// handed `Many::dfa_after` bytes, then with its DFA: the same answers from both, with
/// `-i` (ASCII, and the spellings of `ſ`), `-w`, `-x` and an empty pattern.
#[test]
fn the_dfa_built_later_finds_what_the_nfa_found() {
    let alphabet = b"abAB _-\n";
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..200 {
        let n = 2 + next(3);
        let mut pats: Vec<Vec<u8>> = (0..n)
            .map(|_| (0..1 + next(4)).map(|_| alphabet[next(6)]).collect())
            .collect();
        if round % 7 == 0 {
            pats.push(Vec::new());
        }
        if round % 5 == 0 {
            pats.push("ſa".into());
        }
        let hay: Vec<u8> = (0..40).map(|_| alphabet[next(alphabet.len())]).collect();
        let (i, w, x) = (round % 2 == 1, round % 3 == 1, round % 4 == 3);
        let o = super::MatchOptions {
            dialect: Dialect::Fixed,
            ignore_case: i,
            word: w,
            line: x,
            eol: b'\n',
            known_input: 0,
        };
        let Ok(nfa) = Matcher::build(pats.clone(), o, 1 << 20) else {
            panic!("{pats:?}");
        };
        if !matches!(
            nfa.engine,
            super::Engine::Many(_) | super::Engine::ManyWithEmpty(_) | super::Engine::FoldMany(_)
        ) {
            continue;
        }
        let dfa = Matcher::build(pats.clone(), o, 1 << 20).unwrap();
        let big = vec![b'z'; 1 << 20];
        let _ = dfa.find_raw(&big);
        let _ = dfa.find_in(&big, 0);
        assert!(!has_dfa(&nfa) && has_dfa(&dfa), "{pats:?}");
        for from in 0..=hay.len() {
            assert_eq!(
                nfa.find_in(&hay, from),
                dfa.find_in(&hay, from),
                "{pats:?} in {hay:?} from {from}, -i {i} -w {w} -x {x}"
            );
        }
        assert_eq!(nfa.find_raw(&hay), dfa.find_raw(&hay));
        assert!(!has_dfa(&nfa));
        // Input known to be large: the DFA at once, and never one to build.
        let known = super::MatchOptions {
            known_input: 1 << 20,
            ..o
        };
        let at_once = Matcher::build(pats.clone(), known, 1 << 20).unwrap();
        let (super::Engine::Many(a) | super::Engine::ManyWithEmpty(a) | super::Engine::FoldMany(a)) =
            &at_once.engine
        else {
            unreachable!()
        };
        assert!(a.first_is_dfa() && !a.has_dfa(), "{pats:?}");
        assert_eq!(at_once.find_in(&hay, 0), nfa.find_in(&hay, 0));
    }
}
