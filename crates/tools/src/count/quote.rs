//! File names as GNU `wc` writes them: in diagnostics quoted for the shell when they need it
//! (gnulib's `quotef`: shell-escape quoting, `:` quoted too), in results as their raw bytes
//! unless they hold a newline.

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::diag::ToolError;
use crate::input::Input;

/// A name in a line of results: its raw bytes, shell-quoted only when it holds a newline
/// (which would break the one-line-per-input format).
pub(super) fn result_name(name: &[u8]) -> Cow<'_, [u8]> {
    if name.contains(&b'\n') {
        Cow::Owned(quotef(name).into_bytes())
    } else {
        Cow::Borrowed(name)
    }
}

/// Characters that make a name need quoting anywhere in it.
const SPECIAL: &[u8] = b" !\"$&'()*:;<=>?[\\^`|";

/// Characters that may stand in double quotes with a single quote (gnulib's choice: a name
/// with `'` and only these is written `"it's"`).
fn double_quotable(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b" %'+,-./:@]_".contains(&b) || b >= 0x80
}

/// `name` as gnulib's `quotef` writes it under a UTF-8 locale: as is when nothing in it is
/// special to the shell; else in double quotes when its only special characters are single
/// quotes, spaces and colons; else in single quotes, with `'\''` for a single quote and
/// `$'…'` for control characters (`\n`, `\t`, … or octal) and invalid bytes (octal).
///
/// ```text
/// a.txt -> a.txt    a b -> 'a b'    it's -> "it's"    a<LF>b -> 'a'$'\n''b'
/// ```
pub(super) fn quotef(name: &[u8]) -> String {
    let units: Vec<Unit<'_>> = units(name).collect();
    let plain = !name.is_empty()
        && !matches!(name[0], b'#' | b'~')
        && !name.iter().any(|b| SPECIAL.contains(b))
        && units.iter().all(|u| matches!(u, Unit::Text(_)));
    if plain {
        return String::from_utf8_lossy(name).into_owned();
    }
    if name.contains(&b'\'')
        && name.iter().all(|&b| double_quotable(b))
        && units.iter().all(|u| matches!(u, Unit::Text(_)))
    {
        return format!("\"{}\"", String::from_utf8_lossy(name));
    }
    let mut s = String::from("'");
    let mut in_text = true;
    for u in &units {
        match u {
            Unit::Text(t) => {
                if !in_text {
                    // Close the $'…' and open a '…' again.
                    s.push_str("''");
                    in_text = true;
                }
                s.push_str(&t.replace('\'', "'\\''"));
            }
            Unit::Escaped(bytes) => {
                if in_text {
                    s.push_str("'$'");
                    in_text = false;
                }
                for &b in *bytes {
                    escape(&mut s, b);
                }
            }
        }
    }
    s.push('\'');
    s
}

fn escape(s: &mut String, b: u8) {
    let _ = match b {
        0x07 => write!(s, "\\a"),
        0x08 => write!(s, "\\b"),
        0x0C => write!(s, "\\f"),
        b'\n' => write!(s, "\\n"),
        b'\r' => write!(s, "\\r"),
        b'\t' => write!(s, "\\t"),
        0x0B => write!(s, "\\v"),
        _ => write!(s, "\\{b:03o}"),
    };
}

/// A run of printable text, or the bytes of control characters and invalid sequences.
enum Unit<'a> {
    Text(&'a str),
    Escaped(&'a [u8]),
}

/// Splits `name` into printable runs and runs to escape.
fn units(name: &[u8]) -> impl Iterator<Item = Unit<'_>> {
    let mut rest = name;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let valid = match std::str::from_utf8(rest) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default(),
        };
        let printable = valid
            .char_indices()
            .find(|(_, c)| c.is_control())
            .map_or(valid.len(), |(i, _)| i);
        if printable > 0 {
            let (text, tail) = rest.split_at(printable);
            rest = tail;
            return Some(Unit::Text(std::str::from_utf8(text).unwrap_or_default()));
        }
        // Control characters and invalid bytes up to the next printable character.
        let mut end = 0;
        while end < rest.len() {
            let tail = &rest[end..];
            let next = match std::str::from_utf8(&tail[..tail.len().min(4)]) {
                Ok(s) => s.chars().next(),
                Err(e) if e.valid_up_to() > 0 => std::str::from_utf8(&tail[..e.valid_up_to()])
                    .ok()
                    .and_then(|s| s.chars().next()),
                Err(_) => None,
            };
            match next {
                Some(c) if !c.is_control() => break,
                Some(c) => end += c.len_utf8(),
                None => end += 1,
            }
        }
        let (bytes, tail) = rest.split_at(end);
        rest = tail;
        Some(Unit::Escaped(bytes))
    })
}

/// An input's name as diagnostics write it (GNU's `quotef`).
pub(super) fn quoted(input: &Input) -> String {
    quotef(&input.raw_name())
}

/// `e` with the input's name quoted as GNU's diagnostics do, when it names the input.
pub(super) fn requote(e: ToolError, input: &Input) -> ToolError {
    match e {
        ToolError::Input { path, message } if path == input.name() => ToolError::Input {
            path: quoted(input),
            message,
        },
        e => e,
    }
}

#[cfg(test)]
mod tests {
    use super::quotef;

    #[test]
    fn as_gnu_quotef() {
        // Each value is what GNU coreutils 9.1's `wc -- NAME` says (LC_ALL=C.UTF-8).
        for (name, want) in [
            (&b"a.txt"[..], "a.txt"),
            (b"a b", "'a b'"),
            (b"a:b", "'a:b'"),
            (b"a'b", "\"a'b\""),
            (b"a'b c", "\"a'b c\""),
            (b"a'b$c", "'a'\\''b$c'"),
            (b"a'b~", "'a'\\''b~'"),
            (b"~a", "'~a'"),
            (b"a~", "a~"),
            (b"#a", "'#a'"),
            (b"a\nb", "'a'$'\\n''b'"),
            (b"a\n", "'a'$'\\n'"),
            (b"\n", "''$'\\n'"),
            (b"a\x01b", "'a'$'\\001''b'"),
            (b"a\xFFb", "'a'$'\\377''b'"),
            (b"a\x7Fb", "'a'$'\\177''b'"),
            (b"\xC3\xA9\xFF", "'\u{E9}'$'\\377'"),
            (b"\xC2\x85", "''$'\\302\\205'"),
            (b"a'b\nc", "'a'\\''b'$'\\n''c'"),
            (b"some-dir1/12\n34.txt", "'some-dir1/12'$'\\n''34.txt'"),
            (b"some-dir1/1\xC0\n.txt", "'some-dir1/1'$'\\300\\n''.txt'"),
        ] {
            assert_eq!(quotef(name), want, "{name:?}");
        }
    }
}
