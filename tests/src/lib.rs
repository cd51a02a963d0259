//! Test harness for utf8-tools: the conformance material of `../shared/conformance` and
//! helpers shared by the end-to-end tests.
#![forbid(unsafe_code)]

pub mod cli;
pub mod measure;

use std::path::PathBuf;

/// The directory `shared/conformance` beside the repository, if present.
///
/// Tests that need it call [`conformance_dir_or_skip`] and return early when it is absent,
/// so a fresh clone without `../shared` still passes.
pub fn conformance_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance");
    dir.join("vectors.tsv").is_file().then_some(dir)
}

/// [`conformance_dir`], printing a skip message naming `test` when it is absent.
pub fn conformance_dir_or_skip(test: &str) -> Option<PathBuf> {
    let dir = conformance_dir();
    if dir.is_none() {
        eprintln!("{test}: skipped: ../shared/conformance is absent");
    }
    dir
}

/// Parses space-separated hex bytes (`"ED A0 80"`); the empty string is no bytes.
///
/// # Panics
///
/// On a token that is not two hex digits: the material is trusted.
pub fn parse_hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|t| u8::from_str_radix(t, 16).unwrap_or_else(|_| panic!("bad hex token {t:?}")))
        .collect()
}

/// One row of `vectors.tsv`.
#[derive(Debug, Clone)]
pub struct Vector {
    /// Stable identifier.
    pub id: String,
    /// The input bytes.
    pub input: Vec<u8>,
    /// Whether the input is well-formed.
    pub valid: bool,
    /// As `Utf8Error::valid_up_to` for the first error; the length for valid input.
    pub valid_up_to: usize,
    /// As `Utf8Error::error_len` for the first error; `None` also for valid input.
    pub error_len: Option<usize>,
    /// The repaired bytes (one U+FFFD per maximal subpart).
    pub replaced: Vec<u8>,
    /// Decoded scalar values, U+FFFD per subpart.
    pub scalars: Vec<u32>,
    /// Every error as `(offset, len, kind name)`.
    pub errors: Vec<(usize, usize, String)>,
}

/// Reads every row of `vectors.tsv` in `dir`.
///
/// # Panics
///
/// If the file cannot be read or a row is malformed.
pub fn vectors(dir: &std::path::Path) -> Vec<Vector> {
    let text = std::fs::read_to_string(dir.join("vectors.tsv")).expect("read vectors.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (id, input, valid, vut, elen, rep, sc, errs) = (
        col("id"),
        col("input_hex"),
        col("valid"),
        col("valid_up_to"),
        col("error_len"),
        col("replaced_hex"),
        col("scalars"),
        col("errors"),
    );
    lines
        .filter(|l| !l.is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            Vector {
                id: f[id].to_string(),
                input: parse_hex(f[input]),
                valid: f[valid] == "true",
                valid_up_to: f[vut].parse().expect("valid_up_to"),
                error_len: (!f[elen].is_empty()).then(|| f[elen].parse().expect("error_len")),
                replaced: parse_hex(f[rep]),
                scalars: f[sc]
                    .split_whitespace()
                    .map(|t| u32::from_str_radix(&t[2..], 16).expect("scalar"))
                    .collect(),
                errors: f[errs]
                    .split(';')
                    .filter(|e| !e.is_empty())
                    .map(|e| {
                        let mut p = e.splitn(3, ':');
                        let o = p.next().and_then(|x| x.parse().ok()).expect("offset");
                        let l = p.next().and_then(|x| x.parse().ok()).expect("len");
                        (o, l, p.next().expect("kind").to_string())
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Writes `total` bytes, `blk` repeated, to `w` (a child's standard input) on a thread of its
/// own, generating the input on the fly; the thread answers the bytes written (fewer when
/// the reader went away first).
pub fn feed_repeated(
    mut w: impl std::io::Write + Send + 'static,
    blk: &[u8],
    total: u64,
) -> std::thread::JoinHandle<u64> {
    let blk = blk.to_vec();
    std::thread::spawn(move || {
        let mut left = total;
        while left > 0 {
            let n = left.min(blk.len() as u64) as usize;
            if w.write_all(&blk[..n]).is_err() {
                break;
            }
            left -= n as u64;
        }
        total - left
    })
}
