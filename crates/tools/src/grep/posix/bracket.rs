//! Bracket expressions (`[a-z[:alpha:]]`) of POSIX patterns, in the syntax of
//! `regex-syntax` or of PCRE2 (which does not nest classes).

use std::fmt::Write;

use super::{Target, raw_byte};

/// `regex-syntax`'s spelling of the POSIX class `name` (inside a class), or `None` for a
/// name POSIX does not have.
fn class_of(name: &str) -> Option<&'static str> {
    Some(match name {
        "alpha" => r"\p{Alphabetic}",
        "digit" => "0-9",
        "alnum" => r"\p{Alphabetic}\p{Nd}",
        "upper" => r"\p{Uppercase}",
        "lower" => r"\p{Lowercase}",
        "space" => r"\p{White_Space}",
        "blank" => r"\p{Zs}\t",
        "punct" => r"\p{P}\x24\x2B\x3C-\x3E\x5E\x60\x7C\x7E",
        "cntrl" => r"\p{Cc}",
        "xdigit" => "0-9A-Fa-f",
        "graph" => r"[^\p{White_Space}\p{Cc}\p{Cn}]",
        "print" => r"[^\p{White_Space}\p{Cc}\p{Cn}]\p{Zs}",
        _ => return None,
    })
}

/// One item of a bracket expression read at `chars[i..]`: a character (from `[=c=]` and
/// `[.c.]` too) or a class (`[:name:]`), and where the next item starts.
enum Item {
    Char(char),
    Class(&'static str),
    /// A byte that is not UTF-8: alone it matches nothing, as a range's end it is the code
    /// point of its value (GNU grep 3.8: `[a-\xC3]` holds `Ã`, U+00C3, not `é`).
    Raw(char),
}

const UNMATCHED: &str = "Unmatched [, [^, [:, [., or [=";

fn item(chars: &[char], raw: &[bool], i: usize) -> Result<(Item, usize), String> {
    let c = chars[i];
    if raw[i] {
        return Ok((Item::Raw(char::from(raw_byte(c))), i + 1));
    }
    let open = chars.get(i + 1).copied();
    if c == '['
        && let Some(kind @ (':' | '=' | '.')) = open
    {
        let body = i + 2;
        let end = (body..chars.len().saturating_sub(1))
            .find(|&j| chars[j] == kind && chars[j + 1] == ']')
            .ok_or_else(|| UNMATCHED.to_string())?;
        let name: String = chars[body..end].iter().collect();
        let it = match kind {
            ':' => Item::Class(
                class_of(&name).ok_or_else(|| "Invalid character class name".to_string())?,
            ),
            _ => {
                let mut cs = name.chars();
                match (cs.next(), cs.next()) {
                    (Some(c), None) => Item::Char(c),
                    _ => return Err("Invalid collation character".into()),
                }
            }
        };
        return Ok((it, end + 2));
    }
    Ok((Item::Char(c), i + 1))
}

fn push_char(out: &mut String, c: char) {
    let _ = write!(out, r"\x{{{:X}}}", u32::from(c));
}

/// Reads a bracket expression after its `[` at `chars[i..]`: the class in `target`'s
/// syntax, and where the expression ends.
pub(super) fn bracket(
    chars: &[char],
    raw: &[bool],
    mut i: usize,
    target: Target,
) -> Result<(String, usize), String> {
    let mut out = String::from("[");
    let negated = chars.get(i) == Some(&'^');
    if negated {
        out.push('^');
        i += 1;
    }
    // The classes that are classes of their own (`[^...]`), which PCRE2 cannot nest.
    let mut nested: Vec<&str> = Vec::new();
    let first = i;
    loop {
        let Some(&c) = chars.get(i) else {
            return Err(UNMATCHED.into());
        };
        if c == ']' && i > first {
            break;
        }
        let (it, next) = item(chars, raw, i)?;
        i = next;
        let start = match it {
            Item::Class(class) if target == Target::Pcre && class.starts_with('[') => {
                nested.push(class);
                continue;
            }
            Item::Class(class) => {
                out.push_str(class);
                continue;
            }
            Item::Char(c) => (c, true),
            Item::Raw(c) => (c, false),
        };
        // A range `a-z`, unless the `-` ends the expression.
        if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&n| n != ']') {
            let (end, next) = item(chars, raw, i + 1)?;
            let (Item::Char(end) | Item::Raw(end)) = end else {
                return Err("Invalid range end".into());
            };
            let start = start.0;
            if end < start {
                return Err("Invalid range end".into());
            }
            i = next;
            push_char(&mut out, start);
            out.push('-');
            push_char(&mut out, end);
            // POSIX leaves `a-c-e` undefined; glibc refuses it.
            if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&n| n != ']') {
                return Err("Invalid range end".into());
            }
        } else if start.1 {
            push_char(&mut out, start.0);
        }
    }
    // GNU grep 3.8 (dfa.c, parse_bracket_exp: `colon_warning_state == 7`, an error in
    // grep): `[:space:]` is a mistake for `[[:space:]]`: a bracket of plain characters,
    // with one that is not a colon, between a first and a last colon.
    let body = &chars[first..i];
    if body.len() >= 3
        && body[0] == ':'
        && body[body.len() - 1] == ':'
        && body.iter().any(|&c| c != ':')
        && !body.iter().any(|&c| c == '[' || c == '-')
        && !raw[first..i].iter().any(|&r| r)
    {
        return Err("character class syntax is [[:space:]], not [:space:]".into());
    }
    if target == Target::Pcre {
        return Ok((
            pcre_class(&out[1 + usize::from(negated)..], negated, &nested),
            i + 1,
        ));
    }
    // A class of nothing (raw bytes only) is one regex-syntax accepts.
    if out == "[" || out == "[^" {
        out.push_str(r"\x{0}&&\x{1}");
    }
    out.push(']');
    Ok((out, i + 1))
}

/// A bracket expression in PCRE2's syntax: `items` (the inside of a class), and the
/// `nested` classes it holds, the expression `negated` or not.
fn pcre_class(items: &str, negated: bool, nested: &[&str]) -> String {
    let flat = (!items.is_empty()).then(|| format!("[{items}]"));
    let parts: Vec<&str> = flat
        .iter()
        .map(String::as_str)
        .chain(nested.iter().copied())
        .collect();
    if negated {
        // Any one character that is in none of the parts.
        let mut out = String::from("(?:");
        for part in &parts {
            let _ = write!(out, "(?!{part})");
        }
        out.push_str("(?s:.))");
        return out;
    }
    match parts.as_slice() {
        [] => "(*FAIL)".into(),
        [one] => (*one).to_string(),
        _ => format!("(?:{})", parts.join("|")),
    }
}
