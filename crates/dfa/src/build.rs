//! The generator of `src/generated/` (cargo feature `build`): compiles a byte pattern such as
//! [`UTF8_PATTERN`](crate::UTF8_PATTERN) into a minimized dense DFA, serializes it in both
//! byte orders and writes it with its loader, or checks that the files on disk are fresh.
//!
//! `cargo xtask gen-dfa [--check]` runs it on this crate's directory. The feature turns on
//! regex-automata's DFA compiler (`dfa-build`, `syntax`), which the validator itself never
//! needs.
//!
//! ```
//! let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
//! let stats = utf8_dfa::build::check(dir, utf8_dfa::UTF8_PATTERN)?;
//! assert_eq!(stats.states, utf8_dfa::STATES);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! This file is also compiled into the crate's own integration tests (by `#[path]`, inside
//! the crate), so that a plain `cargo test` checks the committed files without the feature.
//! It therefore takes the pattern as a parameter and depends on nothing but regex-automata
//! and std.

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::{start, syntax};
use regex_automata::{Anchored, MatchKind};

/// Where the generated files live, relative to utf8-dfa's directory (its `Cargo.toml`).
pub const GENERATED_DIR: &str = "src/generated";

/// The command that regenerates the files, quoted in the loader's header.
pub const COMMAND: &str = "cargo xtask gen-dfa";

/// One generated file: its path relative to utf8-dfa's directory and its contents.
pub struct GeneratedFile {
    /// Relative to utf8-dfa's directory.
    pub path: PathBuf,
    /// The exact bytes to write.
    pub contents: Vec<u8>,
}

/// Size facts about a built DFA, printed by the task and written into the loader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// States reachable from the anchored start state, the dead state included.
    pub states: usize,
    /// Equivalence classes of bytes (not counting the end-of-input class).
    pub byte_classes: usize,
    /// Transitions per state in the table (a power of two, classes plus end of input rounded up).
    pub stride: usize,
    /// Size of the little-endian serialization in bytes (the big-endian one has the same).
    pub blob_len: usize,
}

/// Builds the DFA of `pattern` in byte mode: Unicode and UTF-8 mode off in the syntax, UTF-8
/// mode off in the Thompson NFA (so `\xC3` is the byte C3), every prefix that is a match
/// reported ([`MatchKind::All`]), anchored starts only, minimized, no acceleration.
///
/// # Errors
///
/// When regex-automata rejects the pattern or the DFA exceeds its size limits.
pub fn build(pattern: &str) -> Result<dense::DFA<Vec<u32>>, Box<dyn std::error::Error>> {
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new()
                .match_kind(MatchKind::All)
                .start_kind(StartKind::Anchored)
                .minimize(true)
                .byte_classes(true)
                .accelerate(false)
                .specialize_start_states(false),
        )
        .syntax(syntax::Config::new().unicode(false).utf8(false))
        .thompson(thompson::Config::new().utf8(false))
        .build(pattern)?;
    Ok(dfa)
}

/// Counts the states reachable from the anchored start state of `dfa` (dead state included).
///
/// # Panics
///
/// When `dfa` has no anchored start state.
pub fn reachable_states<A: Automaton>(dfa: &A) -> usize {
    let start = dfa
        .start_state(&start::Config::new().anchored(Anchored::Yes))
        .expect("an anchored start state");
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        let nexts = (0..=255u8)
            .map(|b| dfa.next_state(s, b))
            .chain([dfa.next_eoi_state(s)]);
        for t in nexts {
            if seen.insert(t) {
                queue.push_back(t);
            }
        }
    }
    seen.len()
}

/// The size facts of `dfa`.
pub fn stats(dfa: &dense::DFA<Vec<u32>>) -> Stats {
    Stats {
        states: reachable_states(dfa),
        byte_classes: dfa.byte_classes().alphabet_len() - 1,
        stride: dfa.stride(),
        blob_len: serialized(dfa).0.len(),
    }
}

/// Both serializations without their leading alignment padding: (little, big).
fn serialized(dfa: &dense::DFA<Vec<u32>>) -> (Vec<u8>, Vec<u8>) {
    let (le, le_pad) = dfa.to_bytes_little_endian();
    let (be, be_pad) = dfa.to_bytes_big_endian();
    (le[le_pad..].to_vec(), be[be_pad..].to_vec())
}

/// Builds the DFA of `pattern` and returns every file of the generated directory.
///
/// # Errors
///
/// As [`build`].
pub fn generate(pattern: &str) -> Result<(Vec<GeneratedFile>, Stats), Box<dyn std::error::Error>> {
    let dfa = build(pattern)?;
    let stats = stats(&dfa);
    let (le, be) = serialized(&dfa);
    let dir = Path::new(GENERATED_DIR);
    let files = vec![
        GeneratedFile {
            path: dir.join("utf8.littleendian.dfa"),
            contents: le,
        },
        GeneratedFile {
            path: dir.join("utf8.bigendian.dfa"),
            contents: be,
        },
        GeneratedFile {
            path: dir.join("mod.rs"),
            contents: loader(pattern, stats).into_bytes(),
        },
    ];
    Ok((files, stats))
}

/// The DO NOT EDIT loader: embeds both blobs aligned and deserializes the native one once.
fn loader(pattern: &str, stats: Stats) -> String {
    let Stats {
        states,
        byte_classes,
        stride,
        blob_len,
    } = stats;
    format!(
        r#"// DO NOT EDIT THIS FILE. IT WAS AUTOMATICALLY GENERATED BY:
//
//   {COMMAND}
//
// from `utf8_dfa::UTF8_PATTERN` (src/patterns.rs):
//
//   {pattern}
//
// regex-automata dense DFA: syntax unicode(false) utf8(false), thompson utf8(false),
// MatchKind::All, StartKind::Anchored, minimized, byte classes, no acceleration.
// `{COMMAND} --check` (run by a test) fails when this file or the
// *.dfa files beside it differ from a fresh build.

//! The generated DFA and its loader.

use std::sync::OnceLock;

use regex_automata::dfa::dense::DFA;
use regex_automata::util::wire::AlignAs;

/// States reachable from the anchored start state, the dead state included.
pub(crate) const STATES: usize = {states};
/// Equivalence classes of bytes (not counting the end-of-input class).
pub(crate) const BYTE_CLASSES: usize = {byte_classes};
/// Transitions per state in the table.
pub(crate) const STRIDE: usize = {stride};
/// Size of each serialized DFA in bytes.
pub(crate) const BLOB_LEN: usize = {blob_len};

/// The serialized DFA in this target's byte order, aligned for zero-copy loading.
static ALIGNED: &AlignAs<[u8], u32> = &AlignAs {{
    _align: [],
    #[cfg(target_endian = "big")]
    bytes: *include_bytes!("utf8.bigendian.dfa"),
    #[cfg(target_endian = "little")]
    bytes: *include_bytes!("utf8.littleendian.dfa"),
}};

/// The DFA, deserialized (zero-copy, fully validated) on first use.
pub(crate) fn dfa() -> &'static DFA<&'static [u32]> {{
    static DFA: OnceLock<DFA<&'static [u32]>> = OnceLock::new();
    DFA.get_or_init(|| {{
        let (dfa, _) = DFA::from_bytes(&ALIGNED.bytes)
            .expect("the generated DFA deserializes (run `{COMMAND}`)");
        dfa
    }})
}}
"#
    )
}

/// Writes the generated files under `root` (utf8-dfa's directory), replacing stale ones.
///
/// # Errors
///
/// As [`generate`], or when a file cannot be written.
pub fn write(root: &Path, pattern: &str) -> Result<Stats, Box<dyn std::error::Error>> {
    let (files, stats) = generate(pattern)?;
    std::fs::create_dir_all(root.join(GENERATED_DIR))?;
    for f in files {
        let path = root.join(&f.path);
        if std::fs::read(&path).ok().as_deref() != Some(&f.contents[..]) {
            std::fs::write(&path, &f.contents)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    Ok(stats)
}

/// Checks that the files under `root` (utf8-dfa's directory) are exactly what [`generate`]
/// makes now.
///
/// # Errors
///
/// A message naming every stale or missing file and the command that refreshes them.
pub fn check(root: &Path, pattern: &str) -> Result<Stats, Box<dyn std::error::Error>> {
    let (files, stats) = generate(pattern)?;
    let mut stale = Vec::new();
    for f in &files {
        match std::fs::read(root.join(&f.path)) {
            Ok(old) if old == f.contents => {}
            Ok(_) => stale.push(format!("{} differs from a fresh build", f.path.display())),
            Err(e) => stale.push(format!("{} cannot be read: {e}", f.path.display())),
        }
    }
    if stale.is_empty() {
        Ok(stats)
    } else {
        Err(format!(
            "generated DFA files are stale:\n  {}\nrun `{COMMAND}` and commit the result",
            stale.join("\n  ")
        )
        .into())
    }
}
