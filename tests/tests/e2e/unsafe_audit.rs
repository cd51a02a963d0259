//! The unsafe policy of issue 8, checked on the sources: `unsafe` only in utf8-codec's
//! `simd/`, `from_utf8_unchecked` on validated slices (codec `validate.rs`, `stream.rs`;
//! utf8-dfa `validator.rs`), utf8-dfa's unchecked state steps and its SIMD walk (`shuffle.rs`),
//! the one file-mapping module of utf8-tools (`crates/tools/src/mmap.rs`: memmap2 windows
//! and the SIGBUS handler), and the benchmark package's wrappers of simdutf's UTF-16
//! transcoders (`crates/bench/src/simdutf.rs`); every
//! `unsafe` block has a `// SAFETY:` comment; every `unsafe fn` (or the trait declaring it) a
//! `# Safety` section; `#![forbid(unsafe_code)]` at every other crate root that can carry it,
//! and the library roots of utf8-tools and utf8-bench deny unsafe code everywhere but in
//! their one module.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// Every `.rs` file under `dir`, skipping build output.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name();
        if p.is_dir() {
            if !matches!(
                name.to_str(),
                Some("target" | "corpus" | "artifacts" | ".git")
            ) {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a line: without a `//` comment and without the insides of string literals.
fn code(line: &str) -> String {
    let mut out = String::new();
    let mut in_str = false;
    let mut prev = ' ';
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if !in_str && c == '/' && chars.get(i + 1) == Some(&'/') {
            break;
        }
        if c == '"' && prev != '\\' {
            in_str = !in_str;
        } else if !in_str {
            out.push(c);
        }
        prev = if prev == '\\' && c == '\\' { ' ' } else { c };
        i += 1;
    }
    out
}

/// Whether `code` uses the keyword `unsafe` (not `unsafe_code` and the like).
fn has_unsafe(code: &str) -> bool {
    code.match_indices("unsafe").any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + 6..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !word(before) && !word(after)
    })
}

/// The allowed places, as (path suffix, what every unsafe line there must mention).
const ALLOWED: &[(&str, &[&str])] = &[
    ("crates/codec/src/simd/", &[]),
    ("crates/codec/src/validate.rs", &["from_utf8_unchecked"]),
    ("crates/codec/src/stream.rs", &["from_utf8_unchecked"]),
    (
        "crates/dfa/src/validator.rs",
        &["from_utf8_unchecked", "next_state_unchecked"],
    ),
    // madvise(2) on large fresh outputs of utf8-codec, for huge pages (issue 23).
    ("crates/codec/src/huge_pages.rs", &["madvise"]),
    // The DFA walked by transition functions with AVX-512 VBMI: a SIMD kernel (issue 23).
    ("crates/dfa/src/shuffle.rs", &[]),
    // The one file-mapping module allowed in utf8-tools (issue 8).
    (
        "crates/tools/src/mmap.rs",
        &["MmapOptions", "register", "libc::signal"],
    ),
    // The fuzz workspace's one FFI call: glibc's fnmatch(3), the glob_fnmatch oracle (issue 21).
    ("fuzz/fnmatch/src/lib.rs", &["fnmatch"]),
    // The Python package (outside the Cargo workspace): the Arrow C data interface and the
    // buffer protocol, which are FFI (ffi.rs, lib.rs), and string arrays built over offsets
    // and values the codec has just validated, unchecked (columns.rs, rebuild.rs, rows.rs).
    ("crates/python/src/ffi.rs", &[]),
    ("crates/python/src/lib.rs", &[]),
    ("crates/python/src/columns.rs", &[]),
    ("crates/python/src/rebuild.rs", &[]),
    ("crates/python/src/rows.rs", &[]),
    // The benchmark package's FFI calls: simdutf's UTF-16 transcoders, peers and oracles.
    (
        "crates/bench/src/simdutf.rs",
        &["convert_utf8_to_utf16le", "convert_utf16le_to_utf8"],
    ),
];

#[test]
fn unsafe_only_where_allowed_and_documented() {
    let root = root();
    let mut files = Vec::new();
    for dir in ["crates", "xtask", "tests", "fuzz"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 20, "found only {} sources", files.len());
    let mut problems = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let allowed = ALLOWED.iter().find(|(p, _)| rel.starts_with(p));
        for (i, line) in lines.iter().enumerate() {
            let c = code(line);
            if !has_unsafe(&c) || c.contains("forbid(") || c.contains("deny(") {
                continue;
            }
            let at = format!("{rel}:{}", i + 1);
            let Some((_, must)) = allowed else {
                problems.push(format!("{at}: unsafe outside the allowed files"));
                continue;
            };
            let window = lines[i..lines.len().min(i + 3)].join(" ");
            if !must.is_empty() && !must.iter().any(|m| window.contains(m)) {
                problems.push(format!("{at}: unsafe for something else than {must:?}"));
            }
            let is_fn =
                c.contains("unsafe fn") || (c.contains("unsafe extern") && c.contains(" fn "));
            let is_impl = c.contains("unsafe impl");
            if !is_fn && !is_impl {
                // A block: `// SAFETY:` on this line or in the comment lines just above.
                let mut ok = line.contains("SAFETY:");
                let mut j = i;
                while !ok && j > 0 {
                    j -= 1;
                    let t = lines[j].trim();
                    if t.starts_with("//") {
                        ok = t.contains("SAFETY");
                    } else if !t.ends_with('(') && !t.ends_with('{') && !t.ends_with('=') {
                        break;
                    }
                    if i - j > 12 {
                        break;
                    }
                }
                if !ok {
                    problems.push(format!("{at}: unsafe block without a SAFETY comment"));
                }
            } else if is_fn && !safety_documented(&lines, i) {
                problems.push(format!("{at}: unsafe fn without a # Safety section"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "unsafe policy (issue 8):\n{}",
        problems.join("\n")
    );
}

/// Whether the `unsafe fn` on line `i` has `# Safety` in its doc comment, or is a method of
/// a trait implementation or declaration whose trait documents it (`# Safety` on the trait).
fn safety_documented(lines: &[&str], i: usize) -> bool {
    let mut j = i;
    while j > 0 {
        j -= 1;
        let t = lines[j].trim();
        if t.starts_with("///") || t.starts_with("#[") || t.starts_with("//") {
            if t.contains("# Safety") {
                return true;
            }
            continue;
        }
        break;
    }
    // A method: find the enclosing item at column 0 (its header may run over several lines,
    // up to the brace that opens it on a line of its own).
    let Some(k) = (0..i).rev().find(|&k| {
        let l = lines[k];
        !l.starts_with(' ')
            && !l.starts_with('}')
            && !l.starts_with('{')
            && !l.trim().is_empty()
            && !l.starts_with("//")
    }) else {
        return false;
    };
    let end = (k..i).find(|&e| lines[e].contains('{')).unwrap_or(k);
    let head = lines[k..=end].join(" ");
    if head.starts_with("impl") && head.contains(" for ") {
        // Implementations of a trait: the trait carries the contract.
        return true;
    }
    if head.contains("trait ") {
        return (0..k)
            .rev()
            .take_while(|&m| lines[m].trim_start().starts_with("//"))
            .any(|m| lines[m].contains("# Safety"));
    }
    false
}

#[test]
fn crate_roots_forbid_unsafe_code() {
    let root = root();
    let mut roots = vec![
        root.join("xtask/src/main.rs"),
        root.join("tests/src/lib.rs"),
        root.join("tests/tests/e2e/main.rs"),
    ];
    for dir in [
        "crates/tools/src/bin",
        "crates/bench/benches",
        "crates/bench/tests",
        "tests/tests",
        "fuzz/fuzz_targets",
    ] {
        if let Ok(rd) = std::fs::read_dir(root.join(dir)) {
            roots.extend(
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "rs")),
            );
        }
    }
    if root.join("fuzz/src/lib.rs").is_file() {
        roots.push(root.join("fuzz/src/lib.rs"));
    }
    let missing: Vec<String> = roots
        .iter()
        .filter(|p| {
            !std::fs::read_to_string(p)
                .unwrap()
                .contains("#![forbid(unsafe_code)]")
        })
        .map(|p| p.strip_prefix(&root).unwrap().display().to_string())
        .collect();
    assert!(
        missing.is_empty(),
        "crate roots without #![forbid(unsafe_code)]: {missing:?}"
    );
}

/// The library root of `package` (`crates/<package>`) denies unsafe code (it cannot forbid
/// it: `forbid` cannot be lifted for one module) and lifts the denial for exactly one module,
/// declared by the line `module`; no other file of its `src/` lifts it from inside.
fn root_denies_unsafe_code_but_in(package: &str, module: &str) {
    let src = root().join("crates").join(package).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(
        lib.contains("#![deny(unsafe_code)]"),
        "crates/{package}/src/lib.rs must deny unsafe_code"
    );
    let allows: Vec<&str> = lib
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("allow(unsafe_code)"))
        .map(|(i, _)| lib.lines().nth(i + 1).unwrap_or("").trim())
        .collect();
    assert_eq!(
        allows,
        [module],
        "allow(unsafe_code) only on that module in crates/{package}"
    );
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let lifts = text.lines().any(|l| {
            let c = code(l);
            c.contains("allow(unsafe_code)") || c.contains("expect(unsafe_code)")
        });
        let is_lib = f.ends_with("lib.rs") && f.parent() == Some(src.as_path());
        assert!(!lifts || is_lib, "{} lifts deny(unsafe_code)", f.display());
    }
}

/// utf8-tools' library root denies unsafe code but in `mmap`.
#[test]
fn tools_root_denies_unsafe_code_but_in_mmap() {
    root_denies_unsafe_code_but_in("tools", "pub mod mmap;");
}

/// utf8-bench's library root denies unsafe code but in `simdutf`.
#[test]
fn bench_root_denies_unsafe_code_but_in_simdutf() {
    root_denies_unsafe_code_but_in("bench", "pub mod simdutf;");
}

/// The unsafe blocks and `unsafe fn`s of utf8-codec, counted: each kernel's
/// `#[target_feature]` code is reached through a token that proves the CPU
/// (`simd/token.rs`), so an unsafe block is needed where a proof is discharged, not at every
/// call. A change that adds one must raise the figure here, and say why in review; one that
/// removes some lowers it. (Issue 59 item 4: the UTF-16 → UTF-8 steps for any mix of lengths,
/// `any8` of SSE4.2 and `any16` and `pairs16` of AVX2, and AVX2's write of a pair's last byte
/// where its loop ends between a lead and its trail, add four blocks and three `unsafe fn`s.
/// The UTF-8 → UTF-16 transcoder with AVX-512 VBMI2, `x86_64/avx512/utf16.rs`, adds sixteen
/// blocks, its loads and stores and its token's four methods with their `set_len`s, and two
/// `unsafe fn`s, the block loop and the ASCII widening. The UTF-16 → UTF-8 one with VBMI2,
/// `x86_64/avx512/utf16_decode.rs`, adds thirteen blocks, its loads and stores (the table of
/// its ASCII loop's, two in each of the loops, one for each class's stores), its calls of its
/// step for any mix and of the SSE4.2 loop, its token's method, and its tests' view of a byte
/// buffer as `MaybeUninit`; and two `unsafe fn`s, that step and the block loop. The VBMI2
/// UTF-8 → UTF-16 transcoder's two appending methods share one `unsafe fn` that appends
/// through the spare capacity: one block fewer, one `unsafe fn` more.)
const CODEC_UNSAFE_BLOCKS: usize = 331;
/// See [`CODEC_UNSAFE_BLOCKS`].
const CODEC_UNSAFE_FNS: usize = 290;

#[test]
fn codec_unsafe_counted_and_each_block_gives_its_own_reason() {
    let mut files = Vec::new();
    rust_files(&root().join("crates/codec/src"), &mut files);
    let (mut blocks, mut fns) = (0, 0);
    let mut borrowed = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let c = code(line);
            if has_unsafe(&c) && !c.contains("forbid(") && !c.contains("deny(") {
                let n = c.matches("unsafe").count();
                let f_ = c.matches("unsafe fn").count();
                fns += f_;
                blocks += n - f_ - c.matches("unsafe impl").count();
            }
            // A SAFETY comment that points elsewhere instead of giving its reason.
            let t = line.trim_start();
            let lower = t.to_lowercase();
            if t.starts_with("//")
                && lower.contains("safety")
                && (lower.contains("safety: as ")
                    || lower.contains("as above")
                    || lower.contains("as before"))
            {
                borrowed.push(format!("{}:{}", f.display(), i + 1));
            }
        }
    }
    assert!(
        borrowed.is_empty(),
        "SAFETY comments that borrow another's reason: {borrowed:?}"
    );
    assert_eq!(
        (blocks, fns),
        (CODEC_UNSAFE_BLOCKS, CODEC_UNSAFE_FNS),
        "utf8-codec's unsafe blocks and unsafe fns (update the figures with the reason)"
    );
}
