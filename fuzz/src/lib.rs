//! Naive reference implementations the fuzz targets hold the real ones to.
//!
//! Everything here is written from the definitions in DESIGN.md and the Unicode Standard
//! (Table 3-7, "U+FFFD Substitution of Maximal Subparts"), byte by byte and without any of
//! the codec's code, so that a disagreement is a finding in one of the two.
#![forbid(unsafe_code)]

pub mod grep;
pub mod tool;

/// One unit of the segmentation of a byte string: a scalar value or one maximal subpart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A well-formed sequence of `len` bytes.
    Char(char, usize),
    /// A maximal subpart of `len` bytes with the stable name of its kind.
    Error(usize, &'static str),
}

impl Unit {
    /// Its length in bytes.
    pub fn len(self) -> usize {
        match self {
            Unit::Char(_, n) | Unit::Error(n, _) => n,
        }
    }

    /// Always false: a unit has at least one byte.
    pub fn is_empty(self) -> bool {
        false
    }
}

/// The unit at the start of `b` (non-empty), straight from Table 3-7.
pub fn unit(b: &[u8]) -> Unit {
    let lead = b[0];
    // (trail bytes needed, range of the first trail byte)
    let (need, lo, hi) = match lead {
        0x00..=0x7F => return Unit::Char(lead as char, 1),
        0xC2..=0xDF => (1, 0x80, 0xBF),
        0xE0 => (2, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (2, 0x80, 0xBF),
        0xED => (2, 0x80, 0x9F),
        0xF0 => (3, 0x90, 0xBF),
        0xF1..=0xF3 => (3, 0x80, 0xBF),
        0xF4 => (3, 0x80, 0x8F),
        _ => return Unit::Error(1, kind(b, 1)),
    };
    let mut n = 1;
    while n <= need {
        let ok = match b.get(n) {
            Some(&t) if n == 1 => (lo..=hi).contains(&t),
            Some(&t) => (0x80..=0xBF).contains(&t),
            None => false,
        };
        if !ok {
            return Unit::Error(n, kind(b, n));
        }
        n += 1;
    }
    let s = std::str::from_utf8(&b[..n]).expect("Table 3-7 sequence is valid for std");
    Unit::Char(s.chars().next().unwrap(), n)
}

/// The kind of the maximal subpart at the start of `b`, from DESIGN.md's table: decided by
/// the first byte and the byte after it.
fn kind(b: &[u8], n: usize) -> &'static str {
    let b1 = b.get(1).copied();
    let cont = |x: Option<u8>, lo: u8, hi: u8| matches!(x, Some(t) if (lo..=hi).contains(&t));
    match b[0] {
        0xC0 | 0xC1 => "overlong",
        0xE0 if cont(b1, 0x80, 0x9F) => "overlong",
        0xF0 if cont(b1, 0x80, 0x8F) => "overlong",
        0xED if cont(b1, 0xA0, 0xBF) => "surrogate",
        0xF4 if cont(b1, 0x90, 0xBF) => "out-of-range",
        0xF5..=0xFD => "out-of-range",
        0xFE | 0xFF => "invalid-byte",
        0x80..=0xBF => "unexpected-continuation",
        // A valid prefix of n bytes: cut off by the end, or by a byte that cannot continue it.
        _ if n == b.len() => "unexpected-end",
        _ => "truncated",
    }
}

/// The whole segmentation of `b`, with offsets.
pub fn units(b: &[u8]) -> Vec<(usize, Unit)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let u = unit(&b[i..]);
        out.push((i, u));
        i += u.len();
    }
    out
}

/// Every error as `(offset, len, kind)`.
pub fn errors(b: &[u8]) -> Vec<(usize, usize, &'static str)> {
    units(b)
        .into_iter()
        .filter_map(|(o, u)| match u {
            Unit::Error(n, k) => Some((o, n, k)),
            Unit::Char(..) => None,
        })
        .collect()
}

/// A substitution practice, named as on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Practice {
    /// One substitute per maximal subpart.
    MaximalSubpart,
    /// One substitute per byte of every ill-formed subpart.
    PerByte,
    /// One substitute per sequence announced by a lead byte C0..FD.
    PerSequence,
}

/// The ill-formed byte ranges of `b` under `practice`, each one substitute, with the valid
/// text between them: `Ok(text)` pieces and `Err(bytes)` substitutes, in order.
pub fn pieces(b: &[u8], practice: Practice) -> Vec<Result<String, Vec<u8>>> {
    let mut out: Vec<Result<String, Vec<u8>>> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match unit(&b[i..]) {
            Unit::Char(c, n) => {
                match out.last_mut() {
                    Some(Ok(s)) => s.push(c),
                    _ => out.push(Ok(c.to_string())),
                }
                i += n;
            }
            Unit::Error(n, _) => match practice {
                Practice::MaximalSubpart => {
                    out.push(Err(b[i..i + n].to_vec()));
                    i += n;
                }
                Practice::PerByte => {
                    for &x in &b[i..i + n] {
                        out.push(Err(vec![x]));
                    }
                    i += n;
                }
                Practice::PerSequence => {
                    let j = i + utf8_testkit::oracle::per_sequence_len(&b[i..]);
                    out.push(Err(b[i..j].to_vec()));
                    i = j;
                }
            },
        }
    }
    out
}

/// What a substitute becomes.
#[derive(Clone, Copy, Debug)]
pub enum Action<'a> {
    /// This string.
    Replace(&'a str),
    /// Nothing.
    Delete,
    /// `\xNN` per byte, lowercase.
    Escape,
}

/// The naive repair of `b`.
pub fn repair(b: &[u8], practice: Practice, action: Action<'_>) -> String {
    render(&pieces(b, practice), action)
}

/// The repaired text of [`pieces`] under `action` (a target checking every action of a
/// practice segments the input once).
pub fn render(pieces: &[Result<String, Vec<u8>>], action: Action<'_>) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    for p in pieces {
        match (p, action) {
            (Ok(t), _) => s.push_str(t),
            (Err(_), Action::Replace(r)) => s.push_str(r),
            (Err(_), Action::Delete) => {}
            (Err(bytes), Action::Escape) => {
                for x in bytes {
                    write!(s, "\\x{x:02x}").expect("write to a String");
                }
            }
        }
    }
    s
}

/// Splits `data` into a control prefix of `n` bytes (zero-padded) and the rest.
pub fn split_control<const N: usize>(data: &[u8]) -> ([u8; N], &[u8]) {
    let mut c = [0u8; N];
    let k = data.len().min(N);
    c[..k].copy_from_slice(&data[..k]);
    (c, &data[k..])
}

/// Chunk lengths (1..=max) drawn from `seed` bytes, cycling, to cut `len` bytes.
pub fn chunk_lens(seed: &[u8], len: usize, max: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut left = len;
    let mut k = 0;
    while left > 0 {
        let s = if seed.is_empty() {
            7
        } else {
            seed[k % seed.len()] as usize
        };
        let n = (s % max + 1).min(left);
        out.push(n);
        left -= n;
        k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_matches_std_on_the_design_examples() {
        assert_eq!(
            errors(b"\xE0\x80\x80"),
            [
                (0, 1, "overlong"),
                (1, 1, "unexpected-continuation"),
                (2, 1, "unexpected-continuation")
            ]
        );
        assert_eq!(errors(b"\xED\xA0\x80").len(), 3);
        assert_eq!(errors(b"\xF4\x90\x80\x80").len(), 4);
        assert_eq!(errors(b"\xE2\x82\x41"), [(0, 2, "truncated")]);
        assert_eq!(errors(b"\xF0\x9F\x98"), [(0, 3, "unexpected-end")]);
        assert_eq!(
            repair(
                b"\xE0\x80\x80!",
                Practice::PerSequence,
                Action::Replace("?")
            ),
            "?!"
        );
    }
}
