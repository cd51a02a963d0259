//! `-i` with several patterns: their spellings under Unicode simple case folding.

/// The most spellings `-i` expands several patterns into before it falls back to one
/// case-insensitive regex of them all: 16 per pattern on average, at least 256, at most
/// 2^20. Many patterns (a `-f` list of 100,000 words) need the spellings: one regex of them
/// all is too large to build. A few patterns do not, and a short one can have a great many
/// (`kkkkkkkkkkkkkkkkkk`: 2^18, `k` and the Kelvin sign), which took 0.6 s and 100 MB to put
/// into an automaton where the regex takes a millisecond.
pub(super) fn fold_variants_max(patterns: usize) -> usize {
    patterns.saturating_mul(16).clamp(256, 1 << 20)
}

/// Every spelling of `pats` under Unicode simple case folding (the equivalence regex's
/// `(?i)` uses), but with only one of the ASCII letters of each orbit: the searcher is
/// ASCII case insensitive. `k` gives `k` and the Kelvin sign, `é` gives `é` and `É`, `日`
/// gives `日`; a byte that is not UTF-8 only itself. `None` past `max` spellings.
pub(super) fn fold_variants(pats: &[Vec<u8>], max: usize) -> Option<Vec<Vec<u8>>> {
    use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
    let mut orbits: std::collections::HashMap<char, Vec<char>> = Default::default();
    let mut out: Vec<Vec<u8>> = Vec::new();
    for p in pats {
        let mut spellings = vec![Vec::with_capacity(p.len())];
        let units = p.utf8_chunks().flat_map(|chunk| {
            let raw = chunk.invalid().iter().map(|&b| Err(b));
            chunk.valid().chars().map(Ok).chain(raw)
        });
        for unit in units {
            let c = match unit {
                Ok(c) => c,
                Err(b) => {
                    spellings.iter_mut().for_each(|s| s.push(b));
                    continue;
                }
            };
            let orbit = orbits.entry(c).or_insert_with(|| {
                let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
                if class.try_case_fold_simple().is_err() {
                    return vec![c];
                }
                let mut ascii_seen = false;
                let mut v: Vec<char> = vec![c];
                for ch in class.iter().flat_map(|r| r.start()..=r.end()) {
                    if ch == c || (ch.is_ascii() && (c.is_ascii() || ascii_seen)) {
                        ascii_seen |= ch.is_ascii();
                        continue;
                    }
                    ascii_seen |= ch.is_ascii();
                    v.push(ch);
                }
                v
            });
            let mut buf = [0; 4];
            if orbit.len() == 1 {
                let bytes = c.encode_utf8(&mut buf).as_bytes();
                spellings
                    .iter_mut()
                    .for_each(|s| s.extend_from_slice(bytes));
                continue;
            }
            // Past `max` spellings, or their bytes past 64 MiB (a long pattern), the regex.
            let n = spellings.len() * orbit.len();
            if out.len() + n > max || n.saturating_mul(p.len()) > 64 << 20 {
                return None;
            }
            spellings = spellings
                .iter()
                .flat_map(|s| {
                    orbit.iter().map(move |&o| {
                        let mut t = s.clone();
                        t.extend_from_slice(o.encode_utf8(&mut [0; 4]).as_bytes());
                        t
                    })
                })
                .collect();
        }
        out.extend(spellings);
        if out.len() > max {
            return None;
        }
    }
    Some(out)
}
