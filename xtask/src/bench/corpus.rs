//! The generated files `cargo xtask bench` times the binaries on, and what each holds (the
//! counts the outputs are checked against). Generated once into the bench directory and
//! reused while their size and `GEN_VERSION` match.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use utf8_testkit::Rng;
use utf8_tools::mmap::MAP_MIN;

use crate::workspace::Result;

/// The ASCII needle: rare, seven lines hold it.
pub const NEEDLE_ASCII: &str = "zebra_needle";
/// The CJK needle: seven lines hold it.
pub const NEEDLE_CJK: &str = "東京都";
/// How many lines hold each needle.
pub const NEEDLE_LINES: u64 = 7;
/// The generator's seed.
pub const SEED: u64 = 0x5eed_0007;
/// Bumped whenever the generator's output changes, so stale corpora are not reused (2: the
/// workspace's one generator, utf8_testkit::Rng, replaced a SplitMix64 of its own).
const GEN_VERSION: u32 = 2;

#[rustfmt::skip]
const LATIN: &[&str] = &[
    "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "and", "of", "to", "in",
    "café", "naïve", "über", "straße", "garçon", "año", "déjà", "vu", "résumé", "smørrebrød",
    "żółw", "čaj", "Ångström", "fjörður", "coöperate", "piñata", "Zürich", "œuvre", "river",
    "stone", "light", "morning", "window", "paper", "number", "zebra",
];
#[rustfmt::skip]
const CYRILLIC: &[&str] = &[
    "привет", "мир", "съешь", "ещё", "этих", "мягких", "французских", "булок", "да", "выпей",
    "чаю", "Москва", "щука", "ёж", "и", "в", "не", "на", "что", "город", "река", "книга",
    "Київ", "їжак", "Беларусь", "ў",
];
#[rustfmt::skip]
const CJK: &[&str] = &[
    "日本語", "漢字", "東京", "大阪", "中文", "汉字", "北京", "上海", "한국어", "서울", "ひらがな", "カタカナ", "京都", "都市",
    "の", "は", "を", "に", "新しい", "電車", "駅", "山", "川", "天気", "今日", "明日", "学校", "先生",
];
#[rustfmt::skip]
const EMOJI: &[&str] = &[
    "😀", "🚀", "👍🏽", "🇯🇵", "❤️", "🎉", "🐱", "👨‍👩‍👧", "🌍", "✨", "🍣", "🤖",
];
/// Invalid sequences of the sparse-error corpus, each with its count of maximal subparts
/// (the U+FFFDs a maximal-subpart repair writes for it). Each is followed by a space.
const ERRORS: &[(&[u8], u64)] = &[
    (b"\x80", 1),
    (b"\xFF", 1),
    (b"\xC0\xAF", 2),
    (b"\xED\xA0\x80", 3),
    (b"\xE6\x9D", 1),
    (b"\xF0\x9F\x98", 1),
    (b"\xF4\x90\x80\x80", 4),
    (b"\xC3", 1),
];

/// What the generator wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CorpusStats {
    /// Bytes.
    pub bytes: u64,
    /// Newlines (every line ends with one).
    pub lines: u64,
    /// Well-formed scalar values.
    pub chars: u64,
    /// Lines holding [`NEEDLE_ASCII`].
    pub needle_ascii_lines: u64,
    /// Lines holding [`NEEDLE_CJK`].
    pub needle_cjk_lines: u64,
    /// Maximal subparts of ill-formed input.
    pub errors: u64,
    /// Bytes in ill-formed input.
    pub error_bytes: u64,
}

impl CorpusStats {
    /// Bytes of the text after a maximal-subpart repair with U+FFFD.
    pub fn repaired_bytes(&self) -> u64 {
        self.bytes - self.error_bytes + 3 * self.errors
    }

    fn to_line(self) -> String {
        format!(
            "v{GEN_VERSION} {} {} {} {} {} {} {}\n",
            self.bytes,
            self.lines,
            self.chars,
            self.needle_ascii_lines,
            self.needle_cjk_lines,
            self.errors,
            self.error_bytes
        )
    }

    fn from_line(line: &str) -> Option<CorpusStats> {
        let mut it = line.split_whitespace();
        if it.next()? != format!("v{GEN_VERSION}") {
            return None;
        }
        let mut n = || it.next()?.parse::<u64>().ok();
        Some(CorpusStats {
            bytes: n()?,
            lines: n()?,
            chars: n()?,
            needle_ascii_lines: n()?,
            needle_cjk_lines: n()?,
            errors: n()?,
            error_bytes: n()?,
        })
    }
}

/// Writes exactly `size` bytes of mixed-script lines to `out`: lines of 4 to 15 words, each
/// line mostly in one of Latin, Cyrillic or CJK with some emoji; [`NEEDLE_LINES`] lines
/// with [`NEEDLE_ASCII`] and as many with [`NEEDLE_CJK`], spread over the file; with
/// `error_every` (bytes), an invalid sequence from a fixed set about that often, always
/// between words. The same `(size, seed, error_every)` always gives the same bytes.
///
/// # Errors
///
/// When `out` fails.
pub fn generate(
    out: &mut dyn Write,
    size: u64,
    seed: u64,
    error_every: Option<u64>,
) -> std::io::Result<CorpusStats> {
    generate_with(out, size, seed, error_every, false)
}

/// The spaces between the words of [`generate_separated`]: the space, the non-ASCII
/// separators of `wc -w` (glibc's printable spaces and wc's no-break spaces), and two
/// characters that join words instead (U+2028 is not printable, U+200B is a printable
/// non-space).
const SEPARATORS: &[&str] = &[
    " ", "\u{3000}", "\u{A0}", "\u{202F}", "\u{2007}", "\u{2060}", "\u{1680}", "\u{2000}",
    "\u{2009}", "\u{200A}", "\u{205F}", "\u{2028}", "\u{200B}",
];

/// [`generate`]'s text (valid, the same needles) with the words separated by one of
/// [`SEPARATORS`] each instead of a space: a text dense in the separators `utf8-count -w`
/// recognizes from their lead bytes, checked against `wc -w`.
///
/// # Errors
///
/// When `out` fails.
pub fn generate_separated(
    out: &mut dyn Write,
    size: u64,
    seed: u64,
) -> std::io::Result<CorpusStats> {
    generate_with(out, size, seed, None, true)
}

/// [`generate`], with the words separated by [`SEPARATORS`] when `separated`.
fn generate_with(
    out: &mut dyn Write,
    size: u64,
    seed: u64,
    error_every: Option<u64>,
    separated: bool,
) -> std::io::Result<CorpusStats> {
    // The longest line is far below this: a line starts only when this much room is left.
    const MAX_LINE: u64 = 512;
    let mut rng = Rng::new(seed);
    let mut st = CorpusStats::default();
    let mut buf: Vec<u8> = Vec::with_capacity(1 << 20);
    let spot = |k: u64, half: bool| {
        let base = size.saturating_sub(MAX_LINE) / (NEEDLE_LINES + 1);
        k * base + if half { base / 2 } else { 0 }
    };
    let (mut next_ascii, mut next_cjk) = (1, 1);
    let mut next_error = error_every.map_or(u64::MAX, |e| e / 2 + rng.below(e));
    let mut written = 0u64; // st.bytes, also counting what is still in buf
    while written + MAX_LINE < size {
        let script = match rng.below(100) {
            0..40 => LATIN,
            40..70 => CYRILLIC,
            _ => CJK,
        };
        let words = 4 + rng.below(12);
        let needle_at = rng.below(words);
        let ascii_here = next_ascii <= NEEDLE_LINES && written >= spot(next_ascii, false);
        let cjk_here = !ascii_here && next_cjk <= NEEDLE_LINES && written >= spot(next_cjk, true);
        let start = buf.len();
        for w in 0..words {
            if w > 0 {
                let sep = if separated { rng.pick(SEPARATORS) } else { " " };
                buf.extend_from_slice(sep.as_bytes());
                st.chars += 1;
            }
            if let Some(e) = error_every
                && written + (buf.len() - start) as u64 >= next_error
            {
                let (bytes, subparts) = ERRORS[rng.below(ERRORS.len() as u64) as usize];
                buf.extend_from_slice(bytes);
                buf.push(b' ');
                st.chars += 1;
                st.errors += subparts;
                st.error_bytes += bytes.len() as u64;
                next_error += e / 2 + rng.below(e);
            }
            let word = if w == needle_at && ascii_here {
                NEEDLE_ASCII
            } else if w == needle_at && cjk_here {
                NEEDLE_CJK
            } else if rng.below(100) < 6 {
                rng.pick(EMOJI)
            } else {
                rng.pick(script)
            };
            buf.extend_from_slice(word.as_bytes());
            st.chars += word.chars().count() as u64;
        }
        buf.push(b'\n');
        st.chars += 1;
        st.lines += 1;
        if ascii_here {
            st.needle_ascii_lines += 1;
            next_ascii += 1;
        }
        if cjk_here {
            st.needle_cjk_lines += 1;
            next_cjk += 1;
        }
        written += (buf.len() - start) as u64;
        if buf.len() >= 1 << 20 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    // The last line fills the file to exactly `size` bytes.
    let rest = size - written;
    if rest > 0 {
        buf.resize(buf.len() + rest as usize - 1, b'.');
        buf.push(b'\n');
        st.chars += rest;
        st.lines += 1;
    }
    out.write_all(&buf)?;
    st.bytes = size;
    Ok(st)
}

/// A generated file and what it holds.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The file.
    pub path: PathBuf,
    /// What it holds.
    pub stats: CorpusStats,
}

/// The corpus `name` in `dir`, generated by `make` unless the file and its `.stats` beside it
/// are there already with the expected size.
fn corpus(
    dir: &Path,
    name: &str,
    size: u64,
    make: &dyn Fn(&mut dyn Write) -> Result<CorpusStats>,
) -> Result<Corpus> {
    let path = dir.join(name);
    let stats_path = dir.join(format!("{name}.stats"));
    let on_disk = std::fs::metadata(&path).map(|m| m.len()).ok();
    let stats = std::fs::read_to_string(&stats_path)
        .ok()
        .and_then(|s| CorpusStats::from_line(&s));
    if let (Some(len), Some(stats)) = (on_disk, stats)
        && len == size
        && stats.bytes == size
    {
        println!("bench: reusing {}", path.display());
        return Ok(Corpus { path, stats });
    }
    println!("bench: generating {} ({} MiB)", path.display(), size >> 20);
    let start = Instant::now();
    let tmp = dir.join(format!("{name}.tmp"));
    let mut w = BufWriter::new(File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?);
    let stats = make(&mut w)?;
    w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&tmp, &path)?;
    std::fs::write(&stats_path, stats.to_line())?;
    println!(
        "bench: generated {name} in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    Ok(Corpus { path, stats })
}

/// The three files of a run.
pub struct Corpora {
    /// N MiB of valid mixed-script lines.
    pub mixed: Corpus,
    /// The same kind of text with an invalid sequence about every 2 KiB.
    pub sparse: Corpus,
    /// `mixed` four times over, for `--threads`.
    pub big: Corpus,
    /// The same kind of text with its words separated by [`SEPARATORS`], for `words-seps`.
    pub separated: Corpus,
}

/// The corpora; the sparse-error, 4× and separated files only when `need_sparse`,
/// `need_big` and `need_separated` (the plain one stands in for them otherwise).
pub fn corpora(
    dir: &Path,
    mib: u64,
    need_sparse: bool,
    need_big: bool,
    need_separated: bool,
) -> Result<Corpora> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let size = mib << 20;
    let mixed = corpus(dir, &format!("mixed-{mib}MiB.txt"), size, &|w| {
        Ok(generate(w, size, SEED, None)?)
    })?;
    let sparse = if need_sparse {
        corpus(dir, &format!("sparse-errors-{mib}MiB.txt"), size, &|w| {
            Ok(generate(w, size, SEED + 1, Some(2048))?)
        })?
    } else {
        mixed.clone()
    };
    let big = if need_big {
        let src = mixed.path.clone();
        let base = mixed.stats;
        corpus(dir, &format!("mixed-4x{mib}MiB.txt"), 4 * size, &move |w| {
            for _ in 0..4 {
                std::io::copy(&mut File::open(&src)?, w)?;
            }
            Ok(CorpusStats {
                bytes: 4 * base.bytes,
                lines: 4 * base.lines,
                chars: 4 * base.chars,
                needle_ascii_lines: 4 * base.needle_ascii_lines,
                needle_cjk_lines: 4 * base.needle_cjk_lines,
                errors: 4 * base.errors,
                error_bytes: 4 * base.error_bytes,
            })
        })?
    } else {
        mixed.clone()
    };
    let separated = if need_separated {
        corpus(dir, &format!("separated-{mib}MiB.txt"), size, &|w| {
            Ok(generate_separated(w, size, SEED + 2)?)
        })?
    } else {
        mixed.clone()
    };
    Ok(Corpora {
        mixed,
        sparse,
        big,
        separated,
    })
}

/// Reads a file to the end, so that it sits in the page cache before the clock starts.
///
/// A file the binaries map ([`MAP_MIN`] bytes or more) is first written back and dropped from
/// the page cache (coreutils' `sync -d` and `dd iflag=nocache count=0`, where they work), then
/// read: its pages are then the kernel's readahead of a file read from disk, in large folios, whatever
/// state an earlier run, the generator's writes or the kernel's reclaim left them in. Mapped
/// reads depend on that state (a fresh 256 MiB file from small writes took 1.3 times as long
/// to count through a mapping as the same file read back from disk); `read` hardly does.
pub fn warm(path: &Path) -> Result<()> {
    let mut f = File::open(path)?;
    if f.metadata()?.len() >= MAP_MIN {
        afresh(path);
    }
    let mut buf = vec![0u8; 1 << 20];
    while f.read(&mut buf)? > 0 {}
    Ok(())
}

/// Writes `path` back and drops its pages from the page cache, if coreutils can; a
/// failure only leaves the pages as they were.
fn afresh(path: &Path) {
    let quiet = |c: &mut Command| {
        c.stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if quiet(Command::new("sync").arg("-d").arg(path)) {
        let mut input = std::ffi::OsString::from("if=");
        input.push(path);
        quiet(
            Command::new("dd")
                .arg(input)
                .args(["iflag=nocache", "count=0", "status=none"]),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(size: u64, seed: u64, errors: Option<u64>) -> (Vec<u8>, CorpusStats) {
        let mut v = Vec::new();
        let st = generate(&mut v, size, seed, errors).unwrap();
        (v, st)
    }

    #[test]
    fn generator_is_deterministic_and_exact() {
        for size in [1, 600, 4096, 3 << 20] {
            let (a, sa) = sample(size, SEED, None);
            let (b, sb) = sample(size, SEED, None);
            assert_eq!(a.len() as u64, size);
            assert_eq!(a, b);
            assert_eq!(sa, sb);
            assert_eq!(sa.bytes, size);
        }
        assert_ne!(sample(4096, 1, None).0, sample(4096, 2, None).0);
    }

    #[test]
    fn separated_text_is_exact_and_counted() {
        let mut v = Vec::new();
        let st = generate_separated(&mut v, 3 << 20, SEED + 2).unwrap();
        let mut w = Vec::new();
        assert_eq!(generate_separated(&mut w, 3 << 20, SEED + 2).unwrap(), st);
        assert_eq!(v, w);
        assert_eq!(st.bytes, 3 << 20);
        assert_eq!(v.len() as u64, st.bytes);
        let text = std::str::from_utf8(&v).expect("valid");
        assert_eq!(st.chars, text.chars().count() as u64);
        assert_eq!(st.lines, v.iter().filter(|&&b| b == b'\n').count() as u64);
        for sep in SEPARATORS {
            assert!(text.contains(sep), "{sep:?} missing");
        }
        assert_eq!(lines_with_needles(text), (NEEDLE_LINES, NEEDLE_LINES));
    }

    /// The lines of `text` that hold the ASCII needle and those that hold the CJK one.
    fn lines_with_needles(text: &str) -> (u64, u64) {
        let lines_with = |n: &str| text.lines().filter(|l| l.contains(n)).count() as u64;
        (lines_with(NEEDLE_ASCII), lines_with(NEEDLE_CJK))
    }

    #[test]
    fn generator_counts_what_it_writes() {
        let (v, st) = sample(3 << 20, SEED, None);
        let text = std::str::from_utf8(&v).expect("valid without errors");
        assert_eq!(st.lines, v.iter().filter(|&&b| b == b'\n').count() as u64);
        assert_eq!(st.chars, text.chars().count() as u64);
        assert!(text.ends_with('\n'));
        assert_eq!(st.needle_ascii_lines, NEEDLE_LINES);
        assert_eq!(st.needle_cjk_lines, NEEDLE_LINES);
        assert_eq!(lines_with_needles(text), (NEEDLE_LINES, NEEDLE_LINES));
        for script in ["й", "の", "é", "🚀"] {
            assert!(text.contains(script), "{script} missing");
        }
        assert_eq!((st.errors, st.error_bytes), (0, 0));
    }

    #[test]
    fn sparse_errors_are_counted_as_a_lossy_repair_sees_them() {
        let (v, st) = sample(1 << 20, SEED + 1, Some(2048));
        let repaired = String::from_utf8_lossy(&v);
        let fffd = repaired.matches('\u{FFFD}').count() as u64;
        assert_eq!(fffd, st.errors);
        assert_eq!(repaired.len() as u64, st.repaired_bytes());
        assert_eq!(repaired.chars().count() as u64, st.chars + st.errors);
        // About one invalid sequence every 2 KiB: 512 in 1 MiB, 1.75 maximal subparts each
        // on average.
        assert!((700..1100).contains(&st.errors), "{} errors", st.errors);
        assert_eq!(st.needle_ascii_lines, NEEDLE_LINES);
    }

    #[test]
    fn stats_round_trip() {
        let (_, st) = sample(100_000, SEED + 1, Some(2048));
        assert_eq!(CorpusStats::from_line(&st.to_line()), Some(st));
        assert_eq!(CorpusStats::from_line("v0 1 2 3 4 5 6 7"), None);
    }
}
