//! The corpora of the codec's benchmark (`cargo bench -p utf8-bench --bench codec`), by name:
//! the one list that the benchmark runs and `cargo xtask bench-lib` reads back into its
//! tables.

use crate::rng::Rng;

/// The corpus names of DESIGN.md's performance section, in order: the first [`VALID`] are
/// well-formed UTF-8, the rest are not.
pub const NAMES: [&str; 9] = [
    "ascii",
    "latin",
    "cyrillic",
    "cjk",
    "emoji",
    "mixed",
    "random-scalars",
    "sparse-errors",
    "random-bytes",
];

/// How many of [`NAMES`] (the first ones) are well-formed.
pub const VALID: usize = 7;

/// The buffer sizes of the short-input benchmark (`cargo bench -p utf8-bench --bench short`),
/// from one byte to 4 KiB: the one list that the benchmark runs and `cargo xtask bench-lib`
/// reads back into its table.
pub const SHORT_SIZES: [usize; 16] = [
    1, 2, 4, 8, 12, 16, 32, 48, 64, 100, 128, 192, 256, 1024, 2048, 4096,
];

/// Text of `size` bytes (cut at a character boundary) made of characters drawn from `pick`.
fn text(size: usize, mut pick: impl FnMut(&mut Rng) -> char) -> Vec<u8> {
    let mut rng = Rng::from_state(0x9E37_79B9_7F4A_7C15);
    let mut s = String::with_capacity(size + 4);
    while s.len() < size {
        s.push(pick(&mut rng));
    }
    while s.len() > size {
        s.pop();
    }
    s.into_bytes()
}

fn from_ranges(rng: &mut Rng, ranges: &[(u32, u32)]) -> char {
    let (lo, hi) = ranges[rng.below(ranges.len() as u64) as usize];
    char::from_u32(lo + rng.below(u64::from(hi - lo + 1)) as u32).unwrap_or(' ')
}

/// Words of 2..9 letters from `ranges`, separated by spaces, with a newline now and then.
fn words(size: usize, ranges: &'static [(u32, u32)]) -> Vec<u8> {
    let mut left = 0;
    text(size, move |r| {
        if left == 0 {
            left = 2 + r.below(8);
            return if r.below(12) == 0 { '\n' } else { ' ' };
        }
        left -= 1;
        from_ranges(r, ranges)
    })
}

/// The corpus `name` (one of [`NAMES`]) of `size` bytes (the text ones cut at a character
/// boundary, so up to 3 bytes fewer), the same bytes on every run.
///
/// ```
/// let latin = utf8_testkit::corpus::generate("latin", 1000);
/// assert!((997..=1000).contains(&latin.len()));
/// assert!(std::str::from_utf8(&latin).is_ok());
/// ```
///
/// # Panics
///
/// When `name` is not one of [`NAMES`].
pub fn generate(name: &str, size: usize) -> Vec<u8> {
    const MIXED: &[(u32, u32)] = &[
        (0x61, 0x7A),
        (0x61, 0x7A),
        (0xE0, 0xFF),
        (0x430, 0x44F),
        (0x4E00, 0x9FFF),
        (0x1F600, 0x1F64F),
    ];
    match name {
        "ascii" => words(size, &[(0x61, 0x7A)]),
        "latin" => words(
            size,
            &[(0x61, 0x7A), (0x61, 0x7A), (0x61, 0x7A), (0xE0, 0xFF)],
        ),
        "cyrillic" => words(size, &[(0x430, 0x44F)]),
        "cjk" => text(size, |r| from_ranges(r, &[(0x4E00, 0x9FFF)])),
        "emoji" => text(size, |r| from_ranges(r, &[(0x1F600, 0x1F64F)])),
        "mixed" => words(size, MIXED),
        "random-scalars" => text(size, |r| {
            loop {
                if let Some(c) = char::from_u32(r.below(0x11_0000) as u32) {
                    break c;
                }
            }
        }),
        "sparse-errors" => {
            let mut sparse = words(size, MIXED);
            let mut rng = Rng::from_state(7);
            let mut i = 0;
            while i < sparse.len() {
                sparse[i] = [0xFF, 0x80, 0xC0, 0xED][rng.below(4) as usize];
                i += 2048 + rng.below(4096) as usize;
            }
            sparse
        }
        "random-bytes" => {
            let mut rng = Rng::from_state(11);
            (0..size).map(|_| rng.next() as u8).collect()
        }
        _ => panic!("not a corpus: {name}"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn valid_ones_are_valid() {
        for (i, name) in super::NAMES.iter().enumerate() {
            let c = super::generate(name, 1 << 16);
            assert!((1 << 16) - 4 < c.len() && c.len() <= 1 << 16, "{name}");
            assert_eq!(std::str::from_utf8(&c).is_ok(), i < super::VALID, "{name}");
        }
    }
}
