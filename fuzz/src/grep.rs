//! A naive `utf8-grep`: leftmost-longest fixed strings with `-w`, `-x` and ASCII `-i`,
//! written from DESIGN.md and GNU grep's rules, for the targets that run the tool.

/// The character ending at `i`, if a well-formed one is there.
fn char_before(b: &[u8], i: usize) -> Option<char> {
    (1..=4.min(i)).find_map(|k| {
        std::str::from_utf8(&b[i - k..i])
            .ok()
            .and_then(|s| s.chars().next_back())
            .filter(|c| c.len_utf8() == k)
    })
}

/// The character starting at `i`, if a well-formed one is there.
fn char_after(b: &[u8], i: usize) -> Option<char> {
    (1..=4.min(b.len() - i)).find_map(|k| {
        std::str::from_utf8(&b[i..i + k])
            .ok()
            .and_then(|s| s.chars().next())
    })
}

/// Word characters for `-w` (DESIGN.md): Unicode letters, digits and `_`.
fn is_word(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Whether `s..e` of `line` has no word character next to it.
pub fn word_ok(line: &[u8], s: usize, e: usize) -> bool {
    !char_before(line, s).is_some_and(is_word) && !char_after(line, e).is_some_and(is_word)
}

/// How the patterns match.
#[derive(Clone, Copy, Debug, Default)]
pub struct Opts {
    /// `-i` (the oracle is exact for ASCII patterns and text only).
    pub ignore_case: bool,
    /// `-w`.
    pub word: bool,
    /// `-x`.
    pub line: bool,
}

/// The patterns and options, ready to match lines.
#[derive(Debug)]
pub struct Naive {
    /// Longest first, lowercased under `-i`.
    pats: Vec<Vec<u8>>,
    opts: Opts,
}

impl Naive {
    /// The matcher of `pats` (UTF-8, without newlines).
    pub fn new(pats: &[String], opts: Opts) -> Naive {
        let mut pats: Vec<Vec<u8>> = pats
            .iter()
            .map(|p| {
                let mut b = p.as_bytes().to_vec();
                if opts.ignore_case {
                    b.make_ascii_lowercase();
                }
                b
            })
            .collect();
        pats.sort_by_key(|p| std::cmp::Reverse(p.len()));
        Naive { pats, opts }
    }

    /// The first match at or after `from` in `line`: leftmost, then the longest pattern
    /// there that satisfies `-w`; `-x` the whole line or nothing.
    pub fn find(&self, line: &[u8], from: usize) -> Option<(usize, usize)> {
        let low;
        let hay = if self.opts.ignore_case {
            low = line.to_ascii_lowercase();
            &low[..]
        } else {
            line
        };
        if self.opts.line {
            return (from == 0 && self.pats.iter().any(|p| p == hay)).then_some((0, hay.len()));
        }
        (from..=hay.len()).find_map(|s| {
            self.pats
                .iter()
                .filter(|p| hay[s..].starts_with(p))
                .map(|p| (s, s + p.len()))
                .find(|&(s, e)| !self.opts.word || word_ok(hay, s, e))
        })
    }

    /// The non-empty matches `-o` prints, in order.
    pub fn only(&self, line: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut from = 0;
        while let Some((s, e)) = self.find(line, from) {
            if e > s {
                out.push((s, e));
                from = e;
            } else {
                from = s + 1;
            }
            if self.opts.line {
                break;
            }
        }
        out
    }
}

/// The lines of `text` as grep reads them: split at `\n`, a final `\n` ends the last line.
pub fn lines(text: &[u8]) -> Vec<&[u8]> {
    if text.is_empty() {
        return Vec::new();
    }
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    body.split(|&b| b == b'\n').collect()
}
