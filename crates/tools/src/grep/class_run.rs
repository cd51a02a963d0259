//! A prefilter for regular expressions without a usable literal: a run of ASCII byte classes
//! every match holds (`[A-Z]{4}[0-9]{4}`, `[0-9]{6}`), found eight bytes at a time
//! in a general register. Each class is a few byte ranges; a range test of eight bytes is a
//! few integer operations on their word, and the run is a shift-and of the classes' masks,
//! 64 positions at a time: several times the speed of the lazy DFA, which then searches only
//! the lines where the run is. A run with a position that holds one to three bytes seldom
//! seen in text (`-` in `[0-9]{4}-[0-9]{2}`) is found instead by memchr on those bytes, each
//! hit checked against the run's other positions.

use regex_syntax::hir::{Class, Hir, HirKind};

/// The most positions of a run (a match of the run ends within 64 bytes of its start).
const MAX_LEN: usize = 64;
/// The most byte ranges of one class.
const MAX_RANGES: usize = 4;
/// The most distinct classes of a run.
const MAX_CLASSES: usize = 8;
/// A run is used when a random printable byte string would hold it at fewer than this many
/// positions in a million (one in 10 KB): a frequent run would only add its scan to the
/// search of most lines.
const MAX_PER_MILLION: f64 = 100.0;

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// A class of ASCII bytes: up to [`MAX_RANGES`] ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Bytes(Vec<(u8, u8)>);

/// A class ready for the scan: each range's bounds repeated in the bytes of a word, and
/// how many ranges there are.
#[derive(Debug, Clone, Copy)]
struct Words([(u64, u64); MAX_RANGES], usize);

impl Words {
    fn of(c: &Bytes) -> Words {
        let mut w = [(0, 0); MAX_RANGES];
        for (slot, &(lo, hi)) in w.iter_mut().zip(&c.0) {
            *slot = (LOW * u64::from(lo), LOW * (u64::from(hi) + 1));
        }
        Words(w, c.0.len())
    }

    /// The high bit of each byte of `x` set where that byte is in the class.
    #[inline(always)]
    fn word(&self, x: u64) -> u64 {
        let mut m = 0;
        for &(lo, above) in &self.0[..self.1] {
            // For a byte below 0x80, `(b | 0x80) - lo` keeps its high bit exactly when
            // `b >= lo`, with no borrow from the byte above; bytes from 0x80 are masked off.
            m |= (x | HIGH).wrapping_sub(lo) & !(x | HIGH).wrapping_sub(above);
        }
        m & !x & HIGH
    }

    /// The bytes of the 64 at `block` in the class, byte `i` in bit `i`.
    #[inline(always)]
    fn mask(&self, block: &[u8; 64]) -> u64 {
        let mut m = 0;
        for i in 0..8 {
            let mut w = [0u8; 8];
            w.copy_from_slice(&block[8 * i..8 * i + 8]);
            // The high bits gathered into the top byte by one multiply.
            let bits =
                ((self.word(u64::from_le_bytes(w)) >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56;
            m |= bits << (8 * i);
        }
        m
    }
}

impl Bytes {
    fn size(&self) -> u32 {
        self.0
            .iter()
            .map(|&(lo, hi)| u32::from(hi) - u32::from(lo) + 1)
            .sum()
    }

    /// Its bytes, in order.
    fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        self.0.iter().flat_map(|&(lo, hi)| lo..=hi)
    }

    /// The class as a set: bit `b` for ASCII byte `b`.
    fn set(&self) -> u128 {
        self.bytes().fold(0, |s, b| s | 1 << b)
    }

    /// Its bytes, if it has one to three and none of them is frequent in text (a lowercase
    /// letter, a space or a tab: memchr would stop every few bytes on them).
    fn anchor(&self) -> Option<Vec<u8>> {
        let bytes: Vec<u8> = self.bytes().collect();
        let frequent = |b: &u8| b.is_ascii_lowercase() || *b == b' ' || *b == b'\t';
        (bytes.len() <= 3 && !bytes.iter().any(frequent)).then_some(bytes)
    }
}

/// The position of a run whose bytes memchr looks for, and those bytes (one to three).
#[derive(Debug)]
struct Anchor {
    at: usize,
    bytes: Vec<u8>,
}

/// A run of byte classes that every match holds, one class per byte.
#[derive(Debug)]
pub(super) struct ClassRun {
    /// The distinct classes.
    classes: Vec<Words>,
    /// The class of each position of the run, as an index into `classes`.
    run: Vec<usize>,
    /// The class of each position as a set of bytes (see [`Bytes::set`]), for the check of a
    /// hit of the anchor.
    sets: Vec<u128>,
    /// A position to look for with memchr, if the run has one (see [`Bytes::anchor`]).
    anchor: Option<Anchor>,
}

/// The fixed sequence of ASCII classes `h` matches, if it matches exactly such a sequence.
fn sequence(h: &Hir) -> Option<Vec<Bytes>> {
    match h.kind() {
        HirKind::Literal(lit) => lit
            .0
            .iter()
            .map(|&b| b.is_ascii().then(|| Bytes(vec![(b, b)])))
            .collect(),
        HirKind::Class(c) => {
            let ranges: Vec<(u32, u32)> = match c {
                Class::Bytes(c) => c
                    .ranges()
                    .iter()
                    .map(|r| (u32::from(r.start()), u32::from(r.end())))
                    .collect(),
                Class::Unicode(c) => c
                    .ranges()
                    .iter()
                    .map(|r| (u32::from(r.start()), u32::from(r.end())))
                    .collect(),
            };
            let ascii = !ranges.is_empty()
                && ranges.len() <= MAX_RANGES
                && ranges.iter().all(|&(_, hi)| hi < 0x80);
            ascii.then(|| {
                vec![Bytes(
                    ranges.iter().map(|&(l, h)| (l as u8, h as u8)).collect(),
                )]
            })
        }
        HirKind::Repetition(r) if Some(r.min) == r.max && r.min >= 1 => {
            let one = sequence(&r.sub)?;
            let times = usize::try_from(r.min).ok()?.min(MAX_LEN);
            Some(
                one.iter()
                    .cycle()
                    .take(one.len() * times)
                    .cloned()
                    .collect(),
            )
        }
        HirKind::Capture(c) => sequence(&c.sub),
        HirKind::Concat(children) => {
            let mut all = Vec::new();
            for c in children {
                all.extend(sequence(c)?);
            }
            Some(all)
        }
        _ => None,
    }
}

impl ClassRun {
    /// The longest run of ASCII classes in the top concatenation of `h` (truncated to
    /// [`MAX_LEN`]), if it is rare enough to be worth a scan (see [`MAX_PER_MILLION`]).
    pub(super) fn of(h: &Hir) -> Option<ClassRun> {
        let children: &[Hir] = match h.kind() {
            HirKind::Concat(c) => c,
            _ => std::slice::from_ref(h),
        };
        let mut best: Vec<Bytes> = Vec::new();
        let mut current: Vec<Bytes> = Vec::new();
        for c in children {
            match sequence(c) {
                Some(s) => current.extend(s),
                None => current.clear(),
            }
            if current.len() > best.len() {
                best = current.clone();
            }
        }
        best.truncate(MAX_LEN);
        let per_million = best
            .iter()
            .map(|c| (f64::from(c.size()) / 95.0).min(1.0))
            .product::<f64>()
            * 1e6;
        if best.len() < 3 || per_million > MAX_PER_MILLION {
            return None;
        }
        let sets = best.iter().map(Bytes::set).collect();
        // The smallest class of those that can be anchors.
        let anchor = best
            .iter()
            .enumerate()
            .filter_map(|(at, c)| {
                Some(Anchor {
                    at,
                    bytes: c.anchor()?,
                })
            })
            .min_by_key(|a| a.bytes.len());
        let mut classes: Vec<Bytes> = Vec::new();
        let run = best
            .into_iter()
            .map(|c| match classes.iter().position(|d| *d == c) {
                Some(i) => i,
                None => {
                    classes.push(c);
                    classes.len() - 1
                }
            })
            .collect();
        let classes = classes.iter().map(Words::of).collect::<Vec<_>>();
        (classes.len() <= MAX_CLASSES).then_some(ClassRun {
            classes,
            run,
            sets,
            anchor,
        })
    }

    /// Whether the run is found by memchr on one of its positions.
    pub(super) fn anchored(&self) -> bool {
        self.anchor.is_some()
    }

    /// The positions of the run.
    pub(super) fn len(&self) -> usize {
        self.run.len()
    }

    /// The end (exclusive) of the first occurrence of the run in `hay[from..]`.
    pub(super) fn find_end(&self, hay: &[u8], from: usize) -> Option<usize> {
        match &self.anchor {
            Some(a) => self.find_end_from_anchor(a, hay, from),
            None => self.find_end_by_words(hay, from),
        }
    }

    /// [`ClassRun::find_end`] by memchr on the anchor's bytes.
    fn find_end_from_anchor(&self, a: &Anchor, hay: &[u8], from: usize) -> Option<usize> {
        let n = self.run.len();
        let mut at = from + a.at;
        while at < hay.len() {
            let rest = &hay[at..];
            let hit = at
                + match a.bytes[..] {
                    [x] => memchr::memchr(x, rest),
                    [x, y] => memchr::memchr2(x, y, rest),
                    [x, y, z, ..] => memchr::memchr3(x, y, z, rest),
                    [] => None,
                }?;
            let start = hit - a.at;
            // Every later hit starts later: none fits before the end.
            let run = hay.get(start..start + n)?;
            let holds = |(&b, &set): (&u8, &u128)| b < 0x80 && set >> b & 1 == 1;
            if run.iter().zip(&self.sets).all(holds) {
                return Some(start + n);
            }
            at = hit + 1;
        }
        None
    }

    /// [`ClassRun::find_end`] by range tests of eight bytes at a time.
    fn find_end_by_words(&self, hay: &[u8], from: usize) -> Option<usize> {
        let n = self.run.len();
        let (mut prev, mut masks) = ([0u64; MAX_CLASSES], [0u64; MAX_CLASSES]);
        let mut at = from;
        while at < hay.len() {
            let take = (hay.len() - at).min(64);
            let mut tail = [0u8; 64];
            let block: &[u8; 64] = match hay[at..].first_chunk::<64>() {
                Some(b) => b,
                None => {
                    tail[..take].copy_from_slice(&hay[at..]);
                    &tail
                }
            };
            for (m, c) in masks.iter_mut().zip(&self.classes) {
                *m = c.mask(block);
            }
            // Bit 64 + i of a window is byte `at + i`; the run ends at `at + i` when each
            // of its classes holds the byte `n - 1 - k` before, for its position `k` (none
            // ends in a block without a byte of the last class).
            let last = self.run[n - 1];
            if masks[last] == 0 {
                prev = masks;
                at += 64;
                continue;
            }
            let mut ends = u128::MAX;
            for (k, &c) in self.run.iter().enumerate() {
                let window = u128::from(masks[c]) << 64 | u128::from(prev[c]);
                ends &= window << (n - 1 - k);
            }
            // Past the end of `hay`, the block is padding.
            let ends = (ends >> 64) as u64 & (u64::MAX >> (64 - take));
            if ends != 0 {
                return Some(at + ends.trailing_zeros() as usize + 1);
            }
            prev = masks;
            at += 64;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::ClassRun;

    fn hir(p: &str) -> regex_syntax::hir::Hir {
        regex_syntax::parse(p).unwrap()
    }

    /// xorshift bytes from `seed`, drawn from `alphabet`.
    fn draw(seed: &mut u64, alphabet: &[&[u8]], len: usize) -> Vec<u8> {
        let mut out = Vec::new();
        while out.len() < len {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            out.extend_from_slice(alphabet[(*seed % alphabet.len() as u64) as usize]);
        }
        out
    }

    /// The scan finds the end of the first run where regex-automata finds the run as a regex,
    /// on bytes of every kind (non-ASCII ones are in no class), across block boundaries.
    #[test]
    fn the_scan_finds_what_a_check_of_each_position_finds() {
        let alphabet: &[&[u8]] = &[
            b"A", b"Q", b"Z", b"a", b"z", b"0", b"5", b"9", b"-", b"\n", b"\x80", b"\xC1", b"\xDA",
            b"\xFF", b"@", b"[",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d;
        // Each pattern, and its run as a regex of bytes (the oracle).
        let cases = [
            ("[A-Z]{4}[0-9]{4}", "[A-Z]{4}[0-9]{4}"),
            ("x*[A-Z][0-9]{2}Q", "[A-Z][0-9]{2}Q"),
            ("[@-Z]{2}(ab|c)[0-9]{2}[Q-Z]{2}-", "[0-9]{2}[Q-Z]{2}-"),
        ];
        for (p, oracle) in cases {
            let anchored = ClassRun::of(&hir(p)).expect(p);
            let mut words = ClassRun::of(&hir(p)).expect(p);
            words.anchor = None;
            let re = regex_automata::meta::Regex::new(&format!("(?-u){oracle}")).unwrap();
            for _ in 0..3000 {
                let hay = draw(&mut seed, alphabet, 200);
                for from in [0, 1, 63, 64, 65, 199] {
                    let input = regex_automata::Input::new(&hay).range(from..);
                    let want = re.find(input).map(|m| m.end());
                    for run in [&anchored, &words] {
                        assert_eq!(run.find_end(&hay, from), want, "{p} from {from} in {hay:?}");
                    }
                }
            }
        }
        // The anchor: the smallest class of bytes seldom seen in text, if there is one.
        let anchor = |p: &str| {
            ClassRun::of(&hir(p))
                .unwrap()
                .anchor
                .map(|a| (a.at, a.bytes))
        };
        assert_eq!(anchor("[0-9]{4}-[0-9]{2}"), Some((4, b"-".to_vec())));
        assert_eq!(anchor("[A-Z]{2}[+-][0-9]{2}@"), Some((5, b"@".to_vec())));
        assert_eq!(anchor("[A-Z]{4}[0-9]{4}"), None);
        assert_eq!(anchor("[A-Z]{3}e[0-9]{3}"), None);
        // A run too short, or too frequent in text, is not used.
        for p in ["[0-9a-z]{3}[^ -~]?Z[0-9]{2}", "[a-z]{5}", "ab"] {
            assert!(ClassRun::of(&hir(p)).is_none(), "{p}");
        }
    }
}
