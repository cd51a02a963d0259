//! The glob tests: fnmatch(3) semantics, each case checked against glibc 2.36.

use super::{Globs, glob_match};
use std::ffi::OsStr;

/// fnmatch(3) answers (glibc, no flags, C locale).
#[test]
fn agrees_with_fnmatch() {
    let yes = [
        ("*.txt", "a.txt"),
        ("*.txt", ".txt"),
        ("*", ".hidden"),
        ("*", "a/b"),
        ("a?c", "a/c"),
        ("[a-c]?", "b1"),
        ("[!a]", "b"),
        ("[^a]", "b"),
        ("[]]", "]"),
        ("[]a]", "a"),
        ("[!]]", "a"),
        ("[a-]", "-"),
        ("[-a]", "-"),
        ("[!-]", "a"),
        ("[\\]]", "]"),
        ("[\\!]", "!"),
        ("[!!]", "a"),
        ("[!^]", "a"),
        ("[^!]", "^"),
        ("[[]", "["),
        ("[[:]", ":"),
        ("[[:alpha:]]", "q"),
        ("[[:digit:][:upper:]]", "Q"),
        ("[[.a.]]", "a"),
        ("[[=a=]]", "a"),
        ("[", "["),
        ("a[", "a["),
        ("[a", "[a"),
        ("\\*", "*"),
        ("\\a", "a"),
        ("{a,b}", "{a,b}"),
        ("a,b", "a,b"),
        ("**", "x/y"),
        ("**/b", "a/b"),
        ("*/", "a/"),
        ("é??", "éü"),
        ("*ü", "éü"),
        ("[!z-a]", "q"),
        ("[!a-c]x", "dx"),
        ("*a*a*b", "aaab"),
    ];
    for (p, n) in yes {
        assert!(glob_match(p, n), "{p:?} should match {n:?}");
    }
    let no = [
        ("*.rs", "a.txt"),
        ("[!a]", "a"),
        ("[]a]", "b"),
        ("[!]]", "]"),
        ("[z-a]", "q"),
        ("a\\", "a\\"),
        ("a\\", "a"),
        ("[[:nope:]]", "a"),
        ("[[:alpha:]]", "1"),
        ("[!!]", "!"),
        ("[\\!]", "\\"),
        ("{a,b}", "a"),
        ("?", ""),
        ("?", "ab"),
        ("é?", "éü"),
        ("*a*a*a*a*a*a*a*a*a*a*a*a*b", &"a".repeat(40)),
    ];
    for (p, n) in no {
        assert!(!glob_match(p, n), "{p:?} should not match {n:?}");
    }
    // A pattern that matches nothing is still given (`--include='a\'` selects no file).
    let never = super::Globs::new(["a\\"]);
    assert!(!never.is_match("a\\".as_ref()));
}

/// Fuzz finding (glob_fnmatch): a `[.` without its `.]` inside brackets makes
/// glibc's fnmatch match nothing with the pattern; it was read as a `[` member.
#[test]
fn fuzz_glob_fnmatch_unterminated_collating_symbol() {
    for (p, n) in [
        ("[[.aeaaaa\u{1}[[.a=]]", "a]"),
        ("[[.a]]", "a]"),
        ("[[.a]", "a"),
        ("x[[.a]", "x["),
        ("[[.a", "[[.a"),
        ("[][.a]", "]"),
    ] {
        assert!(!glob_match(p, n), "{p:?} should not match {n:?}");
    }
    assert!(glob_match("[[.].]]", "]"));
    // A class name with a character outside `a`..`y`: the `[` is a member.
    assert!(glob_match("[[:[:alpha:]]", "["));
    assert!(glob_match("[a[:x]]", "a]"));
    assert!(glob_match("[[:Alpha:]]", "A]"));
    assert!(glob_match("[[=]", "="));
}

/// Fuzz finding (glob_fnmatch): an unknown class name inside brackets made us
/// match nothing, where glibc's fnmatch matches the members before it (it stops at the
/// unknown name only when none of them matched). Answers of glibc 2.36.
#[test]
fn fuzz_glob_fnmatch_unknown_class_and_unterminated_range() {
    for (p, n, want) in [
        ("[a\u{1}[hpla[:a:]**/b[]", "a", true),
        ("[a\u{1}[hpla[:a:]**/b[]", "h", true),
        ("[a[:a:]b]", "a", true),
        ("[a[:a:]b]", "b", false),
        ("[a[:a:]b]x", "ax", true),
        ("[!a[:a:]b]", "c", false),
        ("[a[:alpha:][:a:]]", "z", true),
        ("[a[:foo:]]]", "a]", true),
        ("[a[:foo:]]]", "a", false),
        ("[[:foo:]a]", "a", false),
        // A bracket without `]` is a literal `[`, unless it ends in a member and `-`
        // (a range to the end) or a `\`.
        ("][a-", "][a-", false),
        ("[ab-", "[ab-", false),
        ("[]-", "[]-", false),
        ("[\\", "[\\", false),
        ("[a-\\", "[a-\\", false),
        ("[!-", "[!-", true),
        ("x[-", "x[-", true),
        ("[a--", "[a--", true),
        ("[a-b-", "[a-b-", true),
        ("[[a", "[[a", true),
        ("[Z-a", "[Z-a", true),
        // Review of the above: a `[` member before the trouble keeps the `[` literal.
        ("z[[-", "z[[-", true),
        ("[\\[-", "[[-", true),
        ("[[!-", "[[!-", true),
        ("[![-", "[![-", true),
        ("[Z-a-", "[Z-a-", true),
        ("[[:foo:]", "[f", false),
        ("[![:foo:]", "[!f", false),
        ("[a[:foo:]", "[af", false),
        // Collating symbols and equivalence classes of several characters.
        ("[a[.ab.]]", "a", true),
        ("[b[.ab.]]", "a", false),
        ("[[=ab=]]", "=]", true),
        ("[[=ab=]]", "a", false),
    ] {
        assert_eq!(glob_match(p, n), want, "{p:?} on {n:?}");
    }
}

#[test]
fn fuzz_glob_fnmatch_malformed_equivalence_after_a_match() {
    // Fuzz finding (glob_fnmatch): once a member matched, glibc skips the rest of the
    // bracket and gives up at a `[=` that is not `[=c=]`; before any match that `[=` is
    // a `[` member. Checked against glibc 2.36 through ctypes.
    for (p, n, want) in [
        ("*[b[=[z]", "b", false),
        ("[b[=[z]", "b", false),
        ("[b[=[z]", "[", true),
        ("[b[=[z]", "=", true),
        ("[b[=[z]", "z", true),
        ("[!b[=[z]", "b", false),
        ("[!b[=[z]", "[", false),
        ("[!b[=[z]", "a", true),
        ("[b[=a]", "a", true),
        ("[b[=a]", "b", false),
        ("[a-c[=x]", "b", false),
        ("[a-c[=x]", "x", true),
        ("[b[=ab=]]", "b]", false),
        ("[b[=ab=]]", "a]", true),
        ("[a[=zz=]b]", "a", false),
        // Without `]` the `[` is literal, unless a `[` member came before the `[=`.
        ("[b[=", "[b[=", true),
        ("[[[=", "[[[=", false),
    ] {
        assert_eq!(glob_match(p, n), want, "{p:?} on {n:?}");
    }
}

#[test]
fn fuzz_glob_fnmatch_range_ending_in_a_bracket_item() {
    // Fuzz finding (glob_fnmatch): a range that ends in `[:` or `[=` ends
    // at `[` when glibc reads it, but glibc skips `[:...:]` or `[=c=]` as one item once a
    // member before the range matched, so the bracket ends elsewhere for those characters;
    // a range may end in a collating symbol `[.c.]`. Checked against glibc 2.36 (ctypes).
    for (p, n, want) in [
        ("[da-[::]?", "d1", false),
        ("[da-[::]]?", "d1", true),
        ("[da-[::]]?", "d]1", false),
        ("[Z-[::]]", "Z", false),
        ("[Z-[::]]", "Z]", true),
        ("[Z-[::]]", "[]", true),
        ("[Z-[::]]", ":]", true),
        ("[a-[=b=]]", "b", false),
        ("[ba-[=b=]]", "b", true),
        ("[ba-[=bb=]]", "b", false),
        ("[da-[:]?", "d1", true),
        ("[ba-[:x]]", "b", false),
        ("[a-[.z.]]", "m", true),
        ("[a-[.z.]]", "[", false),
        ("[ba-[.zz.]]", "b", true),
        ("[a-[.zz.]]", "a", false),
        ("[a-[.z]", "a", false),
        ("[b[.a.]-[::]]", "b", true),
        ("[[.a.]-[::]]", "a", false),
    ] {
        assert_eq!(glob_match(p, n), want, "{p:?} on {n:?}");
    }
}

#[test]
fn fuzz_glob_fnmatch_equivalence_class_then_dash() {
    // Fuzz finding (glob_fnmatch): `[=c=]` does not start a range in glibc; the `-` after it
    // is a member and the next item stands alone (or starts a range of its own), where
    // `[.c.]-d` is a range. Checked against glibc 2.36 (ctypes).
    for (p, n, want) in [
        ("[[[=b=]-\u{6}\u{6}]", "b", true),
        ("[[[=b=]-\u{6}]", "\u{6}", true),
        ("[[=b=]-d]", "b", true),
        ("[[=b=]-d]", "-", true),
        ("[[=b=]-d]", "d", true),
        ("[[=b=]-d]", "c", false),
        ("[[.b.]-d]", "c", true),
        ("[[.b.]-d]", "-", false),
        ("[[=b=]-d-f]", "e", true),
        ("[[=b=]--]", "-", true),
        ("[[=b=]-[:alpha:]]", "e", true),
        ("[[[=a=]-c]", "b", false),
    ] {
        assert_eq!(glob_match(p, n), want, "{p:?} on {n:?}");
    }
}

#[test]
fn fuzz_glob_fnmatch_collating_symbol_then_dash_bracket() {
    // Fuzz finding (glob_fnmatch): a collating symbol followed by `-]` matches
    // nothing, the `-` is a member. Checked against glibc 2.36 (ctypes).
    for (p, n, want) in [
        ("[0][[.a.]-]", "0a", false),
        ("[0][[.a.]-]", "0-", true),
        ("[[.a.]-]", "a", false),
        ("[[.a.]-]]", "-]", true),
        ("[b[.a.]-]", "b", true),
        ("[![.a.]-]", "a", true),
        ("[![.a.]-]", "-", false),
        ("[[.a.]--]", "-", false),
        ("[[.a.]-b]", "a", true),
    ] {
        assert_eq!(glob_match(p, n), want, "{p:?} on {n:?}");
    }
}

#[test]
fn fuzz_glob_fnmatch_names_of_dots() {
    // Fuzz finding (glob_fnmatch): `*.` on `..`. globset reads a name as a path, and
    // `.` and `..` have no file name there; fnmatch matches them as any other name.
    // Checked against glibc 2.36 (ctypes).
    for (p, n, want) in [
        ("*.", "..", true),
        ("?.", "..", true),
        (".*.", "..", true),
        ("[.].", "..", true),
        ("*", ".", true),
        ("..", "..", true),
        ("*[!.]", "..", false),
        ("?", "..", false),
    ] {
        assert_eq!(glob_match(p, n), want, "{p:?} on {n:?}");
    }
    let g = Globs::new(["x", "?.", "a"]);
    assert_eq!(g.last_match(OsStr::new("..")), Some(1));
    assert_eq!(g.last_match(OsStr::new(".")), None);
}
