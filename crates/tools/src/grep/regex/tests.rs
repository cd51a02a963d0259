//! Tests of `regex.rs`.

use super::{ClassRun, Dialect, Rx, parse};

fn rx(patterns: &[&str]) -> Rx {
    let hirs: Vec<_> = patterns
        .iter()
        .map(|p| {
            parse(
                p.as_bytes(),
                Dialect::Extended,
                false,
                b'\n',
                &mut Vec::new(),
            )
            .unwrap()
        })
        .collect();
    Rx::new(hirs, true, true, false, b'\n').unwrap()
}

/// Searching only the lines that hold a required literal (or run of byte classes) finds
/// what a search of each line in turn finds.
#[test]
fn required_literals_skip_only_lines_without_a_match() {
    let cases: &[&[&str]] = &[
        &["[A-Z][a-z]+Error"],
        &["[a-z]*(foo|bar)[0-9]+baz"],
        &[r"\w+_xyz\b", "[a-z]+qqq"],
        &["^[a-z ]+end$"],
        &["[A-Z]{4}[0-9]{2}"],
        &["(x|yy)?[A-Z]{2}[0-9]{3}[a-f]"],
        &["[0-9]{3}-[0-9]{2}"],
    ];
    let words = [
        "Error",
        "IoError",
        "fooError",
        "foo1baz",
        "xbar22baz",
        "a_xyz",
        "a_xyzb",
        "zqqq",
        "end",
        "x end",
        "é",
        " ",
        "\n",
        "\n",
        "Zz",
        "ABCD",
        "123",
        "4e",
        "-",
        "-5",
        "42",
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for patterns in cases {
        let r = rx(patterns);
        // The cases with a bounded repetition are the runs of byte classes.
        let run = r.class_run.is_some();
        assert_eq!(run, patterns[0].contains('{'), "{patterns:?}");
        // The one with a `-` between its repetitions is found by memchr on it.
        let anchored = r.class_run.as_ref().is_some_and(ClassRun::anchored);
        assert_eq!(anchored, patterns[0].contains("}-"), "{patterns:?}");
        assert!(r.required.is_some() || run, "{patterns:?} has a prefilter");
        for _ in 0..400 {
            let mut hay = String::new();
            for _ in 0..12 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                hay.push_str(words[(seed % words.len() as u64) as usize]);
            }
            let mut want = None;
            let mut start = 0;
            for line in hay.split('\n') {
                let end = start + line.len();
                if let Some(m) = r.find_within(hay.as_bytes(), start, end) {
                    want = Some(m);
                    break;
                }
                start = end + 1;
            }
            assert_eq!(
                r.find_in_lines(hay.as_bytes()),
                want,
                "{patterns:?} in {hay:?}"
            );
        }
    }
}

/// A case-insensitive phrase has more spellings than a set of required literals holds: the
/// set found holds shorter prefixes, and every spelling of the phrase holds one of them.
#[test]
fn required_literals_of_a_case_insensitive_phrase() {
    let phrase = "hello world";
    let h = parse(
        phrase.as_bytes(),
        Dialect::Extended,
        true,
        b'\n',
        &mut Vec::new(),
    )
    .unwrap();
    let lits = super::required(&h).expect("a set of required literals");
    assert!(lits.len() <= super::REQUIRED_MAX, "{}", lits.len());
    assert!(lits.iter().all(|l| l.len() >= 5), "{lits:?}");
    let letters: Vec<usize> = phrase
        .bytes()
        .enumerate()
        .filter(|(_, b)| b.is_ascii_alphabetic())
        .map(|(i, _)| i)
        .collect();
    for mask in 0..1u32 << letters.len() {
        let mut s = phrase.as_bytes().to_vec();
        for (k, &i) in letters.iter().enumerate() {
            if mask & (1 << k) != 0 {
                s[i].make_ascii_uppercase();
            }
        }
        assert!(
            lits.iter()
                .any(|l| s.windows(l.len()).any(|w| w == l.as_slice())),
            "{} holds none of {lits:?}",
            String::from_utf8_lossy(&s)
        );
    }
}

/// The prefixes of a concatenation's suffixes, crossed from each child's own prefixes
/// (`required`), are those the extractor gives for each suffix as a concatenation of its own:
/// the same sets of required literals as `required` had when it extracted every suffix.
#[test]
fn required_crosses_each_suffix_as_the_extractor_does() {
    use regex_syntax::hir::{Hir, HirKind};
    /// `required` as it was: each suffix copied into a concatenation and extracted.
    fn by_suffixes(h: &Hir) -> Option<super::Literals> {
        match h.kind() {
            HirKind::Concat(children) => {
                let mut best = None;
                for i in 0..children.len().min(16) {
                    let suffix = Hir::concat(children[i..].to_vec());
                    best = super::better(best, super::required_prefixes(&suffix));
                    best = super::better(best, super::required(&children[i]));
                }
                best
            }
            _ => super::required(h),
        }
    }
    let patterns = [
        "[A-Z][a-z]+Error",
        "ab(c|d)ef[0-9]gh",
        "x(y|z){2}w+abc",
        "(foo|bar|baz)(qux|quux)[a-c][d-f]tail",
        "[ab][cd][ef][gh][ij][kl][mn]xyz",
        "a?b?c?defg",
        "hello world again and again",
        "^start[0-9]+middle.*end$",
        "é[àè]ü+ñ",
        "(a|b|c|d|e|f|g|h)(i|j|k|l|m|n|o|p)(q|r|s|t|u|v|w|x)zzz",
    ];
    for p in patterns {
        for fold in [false, true] {
            let h = parse(
                p.as_bytes(),
                Dialect::Extended,
                fold,
                b'\n',
                &mut Vec::new(),
            )
            .unwrap();
            assert_eq!(super::required(&h), by_suffixes(&h), "{p} -i={fold}");
        }
    }
}

/// `-x` by the longest match from the line's start (`Rx::matches_line`) selects the lines a
/// regex of the whole line (`^(...)$`, as `-x` was built before) matches, with `-i` too and
/// with a Unicode word boundary (where the lazy DFA gives up for the PikeVM).
#[test]
fn whole_line_is_the_longest_match_from_the_start() {
    use regex_automata::meta::Regex;
    use regex_syntax::hir::{Hir, Look};
    let cases: &[&[&str]] = &[
        &["a*"],
        &["ab|abcd"],
        &["(a|ab)(c|bcd)"],
        &["[0-9]+", "x"],
        &["^foo$"],
        &[r"\bé\w*"],
        &["(é|e)+t?"],
        &[""],
        &["a{2,3}b?"],
    ];
    let lines = [
        "", "a", "aa", "ab", "abcd", "abc", "abbcd", "acd", "123", "12x", "x", "foo", "foo ", "é",
        "éte", "ée", "eet", "aab", "aaab", "aaaa", "E", "ÉTÉ",
    ];
    for patterns in cases {
        for fold in [false, true] {
            let hirs: Vec<Hir> = patterns
                .iter()
                .map(|p| {
                    parse(
                        p.as_bytes(),
                        Dialect::Extended,
                        fold,
                        b'\n',
                        &mut Vec::new(),
                    )
                    .unwrap()
                })
                .collect();
            let whole = Hir::concat(vec![
                Hir::look(Look::Start),
                Hir::alternation(hirs.clone()),
                Hir::look(Look::End),
            ]);
            let re = Regex::builder().build_from_hir(&whole).unwrap();
            for longest in [false, true] {
                let r = Rx::new(hirs.clone(), true, longest, true, b'\n').unwrap();
                for l in lines {
                    assert_eq!(
                        r.matches_line(l.as_bytes()),
                        re.is_match(l.as_bytes()),
                        "{patterns:?} -i={fold} on {l:?}"
                    );
                }
            }
        }
    }
}

/// A byte set's ranges, added a word at a time, hold exactly their bytes: every range.
#[test]
fn byte_set_ranges_hold_their_bytes() {
    for lo in 0..=255u8 {
        for hi in lo..=255u8 {
            let mut set = super::ByteSet::default();
            set.add_range(lo, hi);
            for b in 0..=255u8 {
                assert_eq!(set.contains(b), (lo..=hi).contains(&b), "{lo}..={hi}: {b}");
            }
        }
    }
}
