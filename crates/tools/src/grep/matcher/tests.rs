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
