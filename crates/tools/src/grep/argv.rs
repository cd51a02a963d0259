//! The words of utf8-grep's command line as GNU grep's getopt reads them, before clap
//! does: `-NUM` ([`expand_context_digits`]) and a bare `--color` ([`bare_color_is_auto`]).
//! Which options take a value is read from the clap definition ([`value_options`]), so a
//! new option is declared once.

use std::ffi::OsString;
use std::sync::OnceLock;

use super::args::GrepArgs;

/// The short and long names (aliases included) of utf8-grep's options that take a value
/// from the rest of their word or from the next one, read from [`GrepArgs`]'s clap
/// definition; an option whose value only follows `=` or may be left out (`--color`) is not
/// among them.
pub(super) fn value_options() -> &'static (Vec<char>, Vec<String>) {
    static OPTIONS: OnceLock<(Vec<char>, Vec<String>)> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let cmd = <GrepArgs as clap::CommandFactory>::command();
        let (mut short, mut long) = (Vec::new(), Vec::new());
        for a in cmd.get_arguments() {
            // (A value that may be left out, `--color`'s, is never the next word here:
            // `bare_color_is_auto` gives it one.)
            let optional = a.get_num_args().is_some_and(|n| n.min_values() == 0);
            if a.is_positional()
                || !a.get_action().takes_values()
                || a.is_require_equals_set()
                || optional
            {
                continue;
            }
            short.extend(a.get_short());
            short.extend(a.get_all_short_aliases().into_iter().flatten());
            long.extend(a.get_long().map(str::to_owned));
            long.extend(a.get_all_aliases().into_iter().flatten().map(str::to_owned));
        }
        (short, long)
    })
}

/// GNU grep's `-NUM` (`--context=NUM`): digits among the short options of a word are a
/// context length (`-5`, `-12`, `-n2` is `-n -2`), as getopt sees them in grep's option
/// string; digits that are the value of `-e`, `-m`, `-A` ... (`-m5`, `-e 5`) are left alone.
/// Words after `--` are operands.
///
/// ```
/// use utf8_tools::grep::expand_context_digits;
/// let args = |v: &[&str]| v.iter().map(|s| s.into()).collect::<Vec<std::ffi::OsString>>();
/// assert_eq!(
///     expand_context_digits(args(&["utf8-grep", "-2", "-n5", "-m3", "-e", "-7", "x"])),
///     args(&["utf8-grep", "--context=2", "-n", "--context=5", "-m3", "-e", "-7", "x"])
/// );
/// ```
pub fn expand_context_digits(args: Vec<OsString>) -> Vec<OsString> {
    let (short_value, long_value) = value_options();
    let mut out = Vec::with_capacity(args.len());
    let mut value_next = false;
    let mut operands = false;
    for (i, arg) in args.into_iter().enumerate() {
        let word = arg.to_str().map(str::to_owned);
        let expandable = i > 0 && !operands && !value_next;
        value_next = false;
        let Some(word) = word.filter(|w| expandable && w.starts_with('-') && w.len() > 1) else {
            out.push(arg);
            continue;
        };
        if word == "--" {
            operands = true;
            out.push(arg);
            continue;
        }
        if let Some(name) = word.strip_prefix("--") {
            // A long option that takes its value from the next word.
            value_next =
                !name.contains('=') && long_value.iter().any(|long| long.starts_with(name));
            out.push(arg);
            continue;
        }
        let mut flags = String::new();
        let mut digits = String::new();
        let mut value = None;
        for (k, c) in word.char_indices().skip(1) {
            if c.is_ascii_digit() {
                digits.push(c);
            } else if short_value.contains(&c) {
                value = Some(&word[k..]);
                break;
            } else {
                flags.push(c);
            }
        }
        if digits.is_empty() {
            value_next = value.is_some_and(|v| v.len() == 1);
            out.push(arg);
            continue;
        }
        if !flags.is_empty() {
            out.push(format!("-{flags}").into());
        }
        out.push(format!("--context={digits}").into());
        if let Some(v) = value {
            value_next = v.len() == 1;
            out.push(format!("-{v}").into());
        }
    }
    out
}

/// GNU grep's `--color` (and `--colour`, or a prefix of them) without `=`: `auto`, taking no
/// value from the next word (the shared option's bare form means `always` and takes the next
/// word when it is a color choice). Words after `--`, and values of options, are left alone.
///
/// ```
/// use utf8_tools::grep::bare_color_is_auto;
/// let args = |v: &[&str]| v.iter().map(|s| s.into()).collect::<Vec<std::ffi::OsString>>();
/// assert_eq!(
///     bare_color_is_auto(args(&["utf8-grep", "--color", "never", "-e", "--colour", "--", "--color"])),
///     args(&["utf8-grep", "--color=auto", "never", "-e", "--colour", "--", "--color"])
/// );
/// ```
pub fn bare_color_is_auto(args: Vec<OsString>) -> Vec<OsString> {
    let (short_value, long_value) = value_options();
    let mut value_next = false;
    let mut operands = false;
    args.into_iter()
        .enumerate()
        .map(|(i, arg)| {
            let word = arg.to_str().unwrap_or_default();
            let was_value = std::mem::take(&mut value_next);
            if i == 0 || operands || was_value {
                return arg;
            }
            if word == "--" {
                operands = true;
                return arg;
            }
            let colour = |w: &str| {
                w.strip_prefix("--").is_some_and(|n| {
                    n.len() >= 3 && ("color".starts_with(n) || "colour".starts_with(n))
                })
            };
            if colour(word) {
                return OsString::from("--color=auto");
            }
            // A short option word ending in one that takes a value, or a long one without
            // `=` that does: the next word is its value.
            value_next = match word.strip_prefix("--") {
                Some(name) => {
                    !name.contains('=')
                        && long_value.iter().any(|long| long.starts_with(name))
                        && !name.is_empty()
                }
                None => word.strip_prefix('-').is_some_and(|flags| {
                    let k = flags.find(|c| short_value.contains(&c));
                    k.is_some_and(|k| k + 1 == flags.len())
                }),
            };
            arg
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_that_take_values_come_from_the_definition() {
        let (short, long) = value_options();
        let mut short = short.clone();
        short.sort_unstable();
        let mut want = vec!['e', 'f', 'm', 'A', 'B', 'C', 'j', 'd', 'D'];
        want.sort_unstable();
        assert_eq!(short, want);
        for name in [
            "regexp",
            "file",
            "max-count",
            "label",
            "after-context",
            "before-context",
            "context",
            "include",
            "exclude",
            "exclude-dir",
            "exclude-from",
            "group-separator",
            "binary-files",
            "directories",
            "devices",
            "invalid",
            "engine",
            "threads",
            "from",
        ] {
            assert!(long.iter().any(|l| l == name), "{name}: {long:?}");
        }
        for flag in ["color", "colour", "count", "ignore-case", "null-data"] {
            assert!(!long.iter().any(|l| l == flag), "{flag}");
        }
    }
}
