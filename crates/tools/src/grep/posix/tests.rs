//! Tests of `posix.rs`.

use super::{Syntax, pcre_spelling, translate};

fn ere(p: &str) -> String {
    translate(p, Syntax::Extended).unwrap().regex
}

fn bre(p: &str) -> String {
    translate(p, Syntax::Basic).unwrap().regex
}

#[test]
fn operators_by_syntax() {
    assert_eq!(ere("a|b"), "a|b");
    assert_eq!(bre("a|b"), r"a\|b");
    assert_eq!(bre(r"a\|b"), "a|b");
    assert_eq!(ere("(ab)+"), "(?:(?:ab))+");
    assert_eq!(bre(r"\(ab\)*"), "(?:(?:ab))*");
    assert_eq!(bre("(a)"), r"\(a\)");
    assert_eq!(ere("a{2,3}"), "(?:a){2,3}");
    assert_eq!(ere("a{,3}"), "(?:a){0,3}");
    assert_eq!(bre(r"a\{2\}"), "(?:a){2,2}");
    assert_eq!(bre("a{2}"), r"a\{2\}");
}

/// Cases checked against GNU grep 3.8 (`grep -E`/`-G`, LC_ALL=C.UTF-8).
#[test]
fn gnu_context_rules() {
    // `*` at the start: literal in BRE, repeats nothing in ERE.
    assert_eq!(bre("*a"), r"\*a");
    assert_eq!(ere("*a"), "a");
    assert_eq!(bre(r"\(*a\)"), r"(?:\*a)");
    // `^` and `$` in the middle of a basic expression are literal.
    assert_eq!(bre("a^b$c"), r"a\^b\$c");
    assert_eq!(bre(r"^a$"), "(?:^)a(?:$)");
    assert_eq!(bre(r"\(^a$\)"), "(?:(?:^)a(?:$))");
    assert_eq!(bre("^*"), r"(?:^)\*");
    // An extended `{` that is no interval is literal; a basic one is an error.
    assert_eq!(ere("a{"), r"a\{");
    assert_eq!(ere("a{1"), r"a\{1");
    assert_eq!(ere("a{x}"), r"a\{x\}");
    assert_eq!(
        translate(r"a\{1", Syntax::Basic).unwrap_err(),
        r"Unmatched \{"
    );
    assert_eq!(ere(")a"), r"\)a");
    assert!(translate(r"\)", Syntax::Basic).is_err());
    assert!(translate("(a", Syntax::Extended).is_err());
    assert_eq!(ere("a|"), "a|");
    assert_eq!(ere("()"), "(?:)");
}

#[test]
fn errors_as_gnu_grep() {
    let e = |p: &str| translate(p, Syntax::Extended).unwrap_err();
    assert_eq!(e("a{1,0}"), r"Invalid content of \{\}");
    assert_eq!(e("a{40000}"), "Regular expression too big");
    assert_eq!(e("[z-a]"), "Invalid range end");
    assert_eq!(e("[a-c-e]"), "Invalid range end");
    assert_eq!(e("[[:foo:]]"), "Invalid character class name");
    assert_eq!(e("[[:alpha:]"), "Unmatched [, [^, [:, [., or [=");
    assert_eq!(e("[[.ab.]]"), "Invalid collation character");
    assert_eq!(e("a\\"), "Trailing backslash");
    assert_eq!(e("a{}"), r"Invalid content of \{\}");
    assert_eq!(e("(*)b"), r"Unmatched ( or \(");
    assert_eq!(e("(a|*)b"), r"Unmatched ( or \(");
    assert_eq!(ere("a|*)"), r"a|\)");
    assert_eq!(e(r"(a)\2"), "Invalid back reference");
    assert_eq!(e(r"(a\1)"), "Invalid back reference");
    assert_eq!(e(r"\1(a)"), "Invalid back reference");
}

#[test]
fn back_references_widened_for_the_automaton() {
    let t = translate(r"(a*)b\1", Syntax::Extended).unwrap();
    assert_eq!(t.regex, "(?:(?:a)*)b(?:(?:a)*)");
    assert!(t.back_references);
    assert!(!translate("(a)b", Syntax::Extended).unwrap().back_references);
    // An escaped backslash before a digit is no reference.
    assert!(
        !translate(r"a\\1", Syntax::Extended)
            .unwrap()
            .back_references
    );
    assert_eq!(bre(r"\(.\)\1"), "(?:(?s:.))(?:(?s:.))");
    // Nested groups: the reference is widened to the group's widened expression.
    assert_eq!(ere(r"((a)\2)\1"), "(?:(?:a)(?:a))(?:(?:a)(?:a))");
}

/// glibc's rule (`parse_reg_exp`): a reference names a group closed before it on its own
/// branch, or in an alternation closed before it.
#[test]
fn back_references_name_groups_of_their_branch() {
    let ok = |p: &str| translate(p, Syntax::Extended).is_ok();
    assert!(!ok(r"(a)|\1"));
    assert!(!ok(r"b|(.)b|\1|b"));
    assert!(ok(r"(a|(b))\2"));
    assert!(ok(r"((a)|b)\2"));
    assert!(ok(r"(a)(b|\1)"));
    assert!(!ok(r"(a|\1)"));
}

#[test]
fn pcre_spelling_of_posix_patterns() {
    let p = |s: &str, syntax| pcre_spelling(s.as_bytes(), syntax).unwrap();
    assert_eq!(p(r"\(a\)\1", Syntax::Basic), r"(a)(?:\g{1})");
    assert_eq!(
        p(r"^(a|b)\1$", Syntax::Extended),
        r"(?:\A)(a|b)(?:\g{1})(?:\z)"
    );
    assert_eq!(p(r"\<a\>", Syntax::Basic), r"(?:\b(?=\w))a(?:\b(?<=\w))");
    // PCRE2 does not nest classes: [:graph:] beside other items becomes an alternation.
    assert_eq!(
        p("[a[:graph:]]", Syntax::Extended),
        r"(?:[\x{61}]|[^\p{White_Space}\p{Cc}\p{Cn}])"
    );
    assert_eq!(
        p("[^a[:graph:]]", Syntax::Extended),
        r"(?:(?![\x{61}])(?![^\p{White_Space}\p{Cc}\p{Cn}])(?s:.))"
    );
    assert_eq!(p("[[:digit:]]", Syntax::Extended), "[0-9]");
    // Bytes that are not UTF-8: PCRE2's UTF mode cannot match them.
    assert!(pcre_spelling(b"\xff(a)\\1", Syntax::Extended).is_err());
}

/// GNU grep's tests/warn-char-classes: `[:space:]` is refused, its look-alikes are not.
#[test]
fn colon_brackets_as_gnu_grep() {
    let refused = "character class syntax is [[:space:]], not [:space:]";
    for p in ["[:space:]", "[^:alpha:]", "[:x:]"] {
        assert_eq!(translate(p, Syntax::Basic).unwrap_err(), refused, "{p}");
    }
    // Its look-alikes (`[[:space:]]`, `[::]`, `[:space]`, ...) are searched: the end-to-end
    // test `usage_and_pattern_errors` (tests/tests/e2e/grep_options.rs) runs them beside GNU grep.
    assert!(translate("[:space]", Syntax::Basic).is_ok());
}

/// GNU grep 3.8 warns of a repetition with nothing to repeat in an extended expression.
#[test]
fn warnings() {
    let w = |p: &str, s| translate(p, s).unwrap().warnings;
    assert_eq!(w("*a|*b", Syntax::Extended), ["* at start of expression"]);
    assert_eq!(w("^+a", Syntax::Extended), ["+ at start of expression"]);
    assert_eq!(w("(?a)", Syntax::Extended), ["? at start of expression"]);
    assert_eq!(
        w("{1}a", Syntax::Extended),
        ["{...} at start of expression"]
    );
    assert!(w("*a", Syntax::Basic).is_empty());
    assert!(w("a*", Syntax::Extended).is_empty());
}

#[test]
fn brackets() {
    assert_eq!(ere("[]a]"), r"[\x{5D}\x{61}]");
    assert_eq!(ere("[^]a]"), r"[^\x{5D}\x{61}]");
    assert_eq!(ere(r"[\]"), r"[\x{5C}]");
    assert_eq!(ere("[a-]"), r"[\x{61}\x{2D}]");
    assert_eq!(ere("[--/]"), r"[\x{2D}-\x{2F}]");
    assert_eq!(ere("[[:digit:]x]"), r"[0-9\x{78}]");
    assert_eq!(ere("[[=e=][.f.]]"), r"[\x{65}\x{66}]");
}
