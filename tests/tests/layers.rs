//! The structure rules of ARCHITECTURE.md, checked on the sources (issue 24):
//!
//! * no import cycle of any length between the module files of a crate;
//! * no `#[path]` that reaches outside its crate;
//! * no source file over 600 lines (inline `#[cfg(test)]` modules counted; `tests/`,
//!   `benches/` and generated tables exempt).
//!
//! What counts as an import: file A imports file B when A names a path into B — `use
//! crate::b::…`, `crate::b::f()` in code, `super::…`, `self::child::…`, or `child::…` for a
//! module A declares. A path to an item that a module re-exports (`pub use`) is an import of
//! the module the item comes from (the re-exporting module imports it too). `mod child;`
//! alone is not an import. Comments and string literals are ignored; paths into other crates
//! are not edges.
//!
//! `UTF8_TOOLS_PRINT_LAYERS=1 cargo test -p utf8-tests --test layers -- --nocapture` prints
//! each crate's files in layer order with what each imports.
#![forbid(unsafe_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The largest source file allowed, in lines.
const MAX_LINES: usize = 600;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every crate root whose module tree is checked: `src/lib.rs`, `src/main.rs` and
/// `src/bin/*.rs` of each package (the fuzz crate too, when present).
fn crate_roots() -> Vec<PathBuf> {
    let ws = workspace();
    let mut packages: Vec<PathBuf> = fs::read_dir(ws.join("crates"))
        .expect("crates/")
        .map(|e| e.unwrap().path())
        .collect();
    packages.extend(["xtask", "tests", "fuzz"].map(|p| ws.join(p)));
    packages.sort();
    let mut roots = Vec::new();
    for p in packages {
        for f in ["src/lib.rs", "src/main.rs"] {
            if p.join(f).is_file() {
                roots.push(p.join(f));
            }
        }
        if let Ok(bins) = fs::read_dir(p.join("src/bin")) {
            let mut bins: Vec<PathBuf> = bins.map(|e| e.unwrap().path()).collect();
            bins.sort();
            roots.extend(
                bins.into_iter()
                    .filter(|b| b.extension().is_some_and(|e| e == "rs")),
            );
        }
    }
    roots
}

/// Source text with comments removed and string/char literals emptied, so that paths can be
/// found with a plain scan. Line breaks are kept.
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if let Some(len) = raw_string_len(&b[i..]) {
            out.push_str("\"\"");
            out.extend(b[i..i + len].iter().filter(|&&c| c == b'\n').map(|_| '\n'));
            i += len;
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                } else if b[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == b'\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let rest = &src[i + 1..];
            let lit = if let Some(esc) = rest.strip_prefix('\\') {
                esc.find('\'').map(|n| n + 2)
            } else {
                let ch = rest.chars().next().map_or(0, char::len_utf8);
                (rest[ch..].starts_with('\'')).then_some(ch)
            };
            match lit {
                Some(n) => {
                    out.push_str("' '");
                    i += n + 2;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let ch = src[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// The length of a raw (byte) string literal at the start of `b`, if one starts there.
fn raw_string_len(b: &[u8]) -> Option<usize> {
    let mut i = usize::from(b.first() == Some(&b'b'));
    if b.get(i) != Some(&b'r') {
        return None;
    }
    i += 1;
    let hashes = b[i..].iter().take_while(|&&c| c == b'#').count();
    i += hashes;
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let end = b[i + 1..].windows(close.len()).position(|w| w == close)?;
    Some(i + 1 + end + close.len())
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Punct(char),
    /// `::`
    Sep,
}

fn tokens(s: &str) -> Vec<(Tok, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &s[start..i];
            // r#ident
            let word = word.strip_prefix("r#").unwrap_or(word);
            out.push((Tok::Ident(word.to_string()), line));
        } else if c == b':' && b.get(i + 1) == Some(&b':') {
            out.push((Tok::Sep, line));
            i += 2;
        } else {
            let ch = s[i..].chars().next().unwrap();
            out.push((Tok::Punct(ch), line));
            i += ch.len_utf8();
        }
    }
    out
}

/// One module file and what the scan found in it.
#[derive(Debug, Default)]
struct ModFile {
    path: PathBuf,
    /// The module path of the file from the crate root (`[]` for the root).
    modpath: Vec<String>,
    /// Paths named in the file, each with the module path it was written in (inline modules
    /// included) and whether it came from a `pub use`.
    paths: Vec<(Vec<String>, Vec<String>, bool)>,
    /// Names re-exported by `pub use` (name -> absolute path it stands for), per inline module.
    reexports: BTreeMap<(Vec<String>, String), Vec<String>>,
    /// Glob re-exports `pub use x::*` (the absolute module path), per inline module.
    glob_reexports: Vec<(Vec<String>, Vec<String>)>,
    /// Names of items defined in the file.
    defines: BTreeSet<String>,
}

/// A crate: its module files, indexed by module path (inline modules map to their file).
#[derive(Debug, Default)]
struct Crate {
    root: PathBuf,
    files: Vec<ModFile>,
    /// module path -> index into `files` (file and inline modules).
    modules: BTreeMap<Vec<String>, usize>,
    problems: Vec<String>,
}

const ITEM_KEYWORDS: [&str; 9] = [
    "fn",
    "struct",
    "enum",
    "trait",
    "type",
    "const",
    "static",
    "union",
    "macro_rules",
];

fn load_crate(root: &Path) -> Crate {
    let mut krate = Crate {
        root: root.to_path_buf(),
        ..Crate::default()
    };
    let crate_dir = root.parent().unwrap().to_path_buf();
    let mut queue = vec![(root.to_path_buf(), Vec::<String>::new(), true)];
    while let Some((path, modpath, owns_dir)) = queue.pop() {
        let src = match fs::read_to_string(&path) {
            Ok(s) => s,
            Err(e) => {
                krate.problems.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let idx = krate.files.len();
        krate.modules.insert(modpath.clone(), idx);
        // Where child module files live: beside a mod.rs/lib.rs/main.rs, else in a folder
        // named after the file.
        let child_dir = if owns_dir {
            path.parent().unwrap().to_path_buf()
        } else {
            path.with_extension("")
        };
        let toks = tokens(&strip(&src));
        let mut file = ModFile {
            path: path.clone(),
            modpath: modpath.clone(),
            ..ModFile::default()
        };
        scan(&toks, &mut file, &mut |name, attr_path, inline_path| {
            let mut child = inline_path.to_vec();
            child.push(name.to_string());
            if let Some(p) = attr_path {
                let target = path.parent().unwrap().join(p);
                let inside = fs::canonicalize(&target)
                    .map(|t| t.starts_with(fs::canonicalize(&crate_dir).unwrap()))
                    .unwrap_or(false);
                if !inside {
                    krate.problems.push(format!(
                        "{}: #[path = {p:?}] reaches outside its crate",
                        path.display()
                    ));
                    return;
                }
                queue.push((target, child, false));
                return;
            }
            let mut dir = child_dir.clone();
            for seg in &inline_path[modpath.len()..] {
                dir.push(seg);
            }
            let flat = dir.join(format!("{name}.rs"));
            let nested = dir.join(name).join("mod.rs");
            if flat.is_file() {
                queue.push((flat, child, false));
            } else if nested.is_file() {
                queue.push((nested, child, true));
            }
        });
        for inline in file_inline_modules(&file) {
            krate.modules.entry(inline).or_insert(idx);
        }
        krate.files.push(file);
    }
    krate
}

/// The inline module paths recorded while scanning a file.
fn file_inline_modules(file: &ModFile) -> Vec<Vec<String>> {
    let mut v: BTreeSet<Vec<String>> = BTreeSet::new();
    for (at, _, _) in &file.paths {
        v.insert(at.clone());
    }
    v.into_iter().collect()
}

/// Called for each `mod name;`: the name, its `#[path]` if any, the module it is declared in.
type OnMod<'a> = dyn FnMut(&str, Option<&str>, &[String]) + 'a;

/// Walks a file's tokens: module declarations (reported to `on_mod`), `use` trees and paths
/// in code, item definitions.
fn scan(toks: &[(Tok, usize)], file: &mut ModFile, on_mod: &mut OnMod<'_>) {
    let ident = |i: usize| match toks.get(i) {
        Some((Tok::Ident(s), _)) => Some(s.as_str()),
        _ => None,
    };
    let punct = |i: usize, c: char| matches!(toks.get(i), Some((Tok::Punct(p), _)) if *p == c);
    let sep = |i: usize| matches!(toks.get(i), Some((Tok::Sep, _)));

    // The current module path (inline modules pushed), with the brace depth each began at.
    let mut here = file.modpath.clone();
    let mut inline_depths: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    // Child modules declared so far in each inline module (for bare `child::` paths).
    let mut children: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    let mut pending_path_attr: Option<String> = None;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline_depths.last() == Some(&depth) {
                    inline_depths.pop();
                    here.pop();
                }
                i += 1;
            }
            Tok::Punct('#') if punct(i + 1, '[') && ident(i + 2) == Some("path") => {
                // #[path = ""] — the literal was emptied; recover it from the raw text later.
                pending_path_attr = Some(String::new());
                i += 3;
            }
            Tok::Ident(kw) if kw == "mod" && ident(i + 1).is_some() => {
                let name = ident(i + 1).unwrap().to_string();
                if punct(i + 2, ';') {
                    let attr = pending_path_attr.take();
                    let attr = attr.map(|_| path_attr_for(file, &name));
                    children
                        .entry(here.clone())
                        .or_default()
                        .insert(name.clone());
                    on_mod(&name, attr.as_deref(), &here);
                    i += 3;
                } else if punct(i + 2, '{') {
                    children
                        .entry(here.clone())
                        .or_default()
                        .insert(name.clone());
                    here.push(name);
                    file.paths.push((here.clone(), here.clone(), false));
                    inline_depths.push(depth);
                    depth += 1;
                    i += 3;
                } else {
                    i += 1;
                }
            }
            Tok::Ident(kw) if kw == "use" => {
                let public = i > 0
                    && (ident(i - 1) == Some("pub")
                        || (punct(i - 1, ')') && (1..5).any(|k| ident(i - k) == Some("pub"))));
                let end = (i..toks.len())
                    .find(|&j| punct(j, ';'))
                    .unwrap_or(toks.len());
                let mut leaves = Vec::new();
                use_tree(&toks[i + 1..end], Vec::new(), &mut leaves);
                let kids = children.get(&here).cloned().unwrap_or_default();
                for (path, alias) in leaves {
                    let Some(abs) = absolute(&path, &here, &kids) else {
                        continue;
                    };
                    if public {
                        match alias.as_deref() {
                            Some("*") => file
                                .glob_reexports
                                .push((here.clone(), abs[..abs.len() - 1].to_vec())),
                            Some(a) => {
                                file.reexports
                                    .insert((here.clone(), a.to_string()), abs.clone());
                            }
                            None => {
                                if let Some(last) = abs.last() {
                                    file.reexports
                                        .insert((here.clone(), last.clone()), abs.clone());
                                }
                            }
                        }
                    }
                    file.paths.push((here.clone(), abs, public));
                }
                i = end + 1;
            }
            Tok::Ident(kw) if ITEM_KEYWORDS.contains(&kw.as_str()) => {
                let name_at = if kw == "macro_rules" { i + 2 } else { i + 1 };
                if let Some(name) = ident(name_at) {
                    file.defines.insert(name.to_string());
                }
                i += 1;
            }
            Tok::Ident(first) if sep(i + 1) && !(i > 0 && sep(i - 1)) => {
                let kids = children.get(&here).cloned().unwrap_or_default();
                let mut path = vec![first.clone()];
                let mut j = i + 1;
                while sep(j) {
                    match ident(j + 1) {
                        Some(s) => path.push(s.to_string()),
                        None => break,
                    }
                    j += 2;
                }
                if let Some(abs) = absolute(&path, &here, &kids) {
                    file.paths.push((here.clone(), abs, false));
                }
                i = j;
            }
            _ => i += 1,
        }
    }
}

/// The string of a `#[path = "…"]` attribute placed before `mod name;` (read from the raw
/// file, since literals were emptied for the scan).
fn path_attr_for(file: &ModFile, name: &str) -> String {
    let raw = fs::read_to_string(&file.path).unwrap();
    let decl = format!("mod {name};");
    let at = raw.find(&decl).unwrap_or(raw.len());
    let before = &raw[..at];
    let attr = before.rfind("#[path").expect("a #[path] attribute");
    let q1 = attr + before[attr..].find('"').unwrap() + 1;
    let q2 = q1 + before[q1..].find('"').unwrap();
    before[q1..q2].to_string()
}

/// Flattens a `use` tree (the tokens between `use` and `;`) into (path, alias) leaves;
/// alias `*` marks a glob.
fn use_tree(
    toks: &[(Tok, usize)],
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Ident(s) if s == "as" => {
                if let Some((Tok::Ident(a), _)) = toks.get(i + 1) {
                    out.push((path.clone(), Some(a.clone())));
                }
                return;
            }
            Tok::Ident(s) => {
                path.push(s.clone());
                i += 1;
            }
            Tok::Sep => i += 1,
            Tok::Punct('*') => {
                path.push("*".into());
                out.push((path, Some("*".into())));
                return;
            }
            Tok::Punct('{') => {
                // Split the group at top-level commas.
                let mut depth = 0;
                let mut start = i + 1;
                for j in i..toks.len() {
                    match toks[j].0 {
                        Tok::Punct('{') => depth += 1,
                        Tok::Punct('}') => {
                            depth -= 1;
                            if depth == 0 {
                                if start < j {
                                    use_tree(&toks[start..j], path.clone(), out);
                                }
                                return;
                            }
                        }
                        Tok::Punct(',') if depth == 1 => {
                            if start < j {
                                use_tree(&toks[start..j], path.clone(), out);
                            }
                            start = j + 1;
                        }
                        _ => {}
                    }
                }
                return;
            }
            _ => i += 1,
        }
    }
    // `self` in a group names the prefix module itself.
    if path.last().is_some_and(|s| s == "self") {
        path.pop();
    }
    if !path.is_empty() {
        out.push((path, None));
    }
}

/// The absolute module path a written path stands for, or `None` for paths into other
/// crates, std, or local names.
fn absolute(path: &[String], here: &[String], kids: &BTreeSet<String>) -> Option<Vec<String>> {
    let first = path.first()?;
    let mut abs: Vec<String>;
    let rest: &[String];
    match first.as_str() {
        "crate" => {
            abs = Vec::new();
            rest = &path[1..];
        }
        "self" => {
            abs = here.to_vec();
            rest = &path[1..];
        }
        "super" => {
            abs = here.to_vec();
            let supers = path.iter().take_while(|s| *s == "super").count();
            for _ in 0..supers {
                abs.pop()?;
            }
            rest = &path[supers..];
        }
        name if kids.contains(name) => {
            abs = here.to_vec();
            rest = path;
        }
        _ => return None,
    }
    abs.extend(rest.iter().filter(|s| *s != "self").cloned());
    Some(abs)
}

impl Crate {
    /// The file a path leads to: the deepest module on it, following re-exports of the item
    /// it names.
    fn target(&self, path: &[String], hops: usize) -> Option<usize> {
        let (depth, &idx) = (0..=path.len())
            .rev()
            .find_map(|n| self.modules.get(&path[..n]).map(|i| (n, i)))?;
        if depth == path.len() || hops > 8 {
            return Some(idx);
        }
        let module = &path[..depth];
        let name = &path[depth];
        let file = &self.files[idx];
        if let Some(src) = file.reexports.get(&(module.to_vec(), name.clone()))
            && src.as_slice() != path
        {
            return self.target(src, hops + 1).or(Some(idx));
        }
        if !file.defines.contains(name) {
            for (at, glob) in &file.glob_reexports {
                if at.as_slice() == module {
                    let mut p = glob.clone();
                    p.push(name.clone());
                    if let Some(t) = self.target(&p, hops + 1) {
                        let tf = &self.files[t];
                        if tf.defines.contains(name) || tf.reexports.keys().any(|(_, n)| n == name)
                        {
                            return Some(t);
                        }
                    }
                }
            }
        }
        Some(idx)
    }

    /// The import edges between files (by index), with no self edges.
    fn edges(&self) -> BTreeMap<usize, BTreeSet<usize>> {
        let mut edges: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
        for (a, file) in self.files.iter().enumerate() {
            let set = edges.entry(a).or_default();
            for (_, path, _) in &file.paths {
                if let Some(b) = self.target(path, 0)
                    && b != a
                {
                    set.insert(b);
                }
            }
        }
        edges
    }

    fn name(&self, idx: usize) -> String {
        let ws = fs::canonicalize(workspace()).unwrap();
        let p = fs::canonicalize(&self.files[idx].path).unwrap();
        p.strip_prefix(&ws).unwrap_or(&p).display().to_string()
    }
}

/// A cycle in the graph, if there is one (as a list of nodes, first repeated last).
fn find_cycle(edges: &BTreeMap<usize, BTreeSet<usize>>) -> Option<Vec<usize>> {
    // 0 = unvisited, 1 = on the stack, 2 = done.
    let mut state: BTreeMap<usize, u8> = BTreeMap::new();
    let mut stack: Vec<usize> = Vec::new();
    fn visit(
        n: usize,
        edges: &BTreeMap<usize, BTreeSet<usize>>,
        state: &mut BTreeMap<usize, u8>,
        stack: &mut Vec<usize>,
    ) -> Option<Vec<usize>> {
        state.insert(n, 1);
        stack.push(n);
        for &m in edges.get(&n).into_iter().flatten() {
            match state.get(&m).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|&x| x == m).unwrap();
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(m);
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(m, edges, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n, 2);
        None
    }
    for &n in edges.keys() {
        if state.get(&n).copied().unwrap_or(0) == 0
            && let Some(c) = visit(n, edges, &mut state, &mut stack)
        {
            return Some(c);
        }
    }
    None
}

/// Files in layer order: each file's layer is one more than the highest layer it imports.
fn layers(edges: &BTreeMap<usize, BTreeSet<usize>>) -> BTreeMap<usize, usize> {
    let mut layer: BTreeMap<usize, usize> = BTreeMap::new();
    fn depth(
        n: usize,
        edges: &BTreeMap<usize, BTreeSet<usize>>,
        layer: &mut BTreeMap<usize, usize>,
    ) -> usize {
        if let Some(&l) = layer.get(&n) {
            return l;
        }
        layer.insert(n, 0); // guards against cycles (reported elsewhere)
        let l = edges
            .get(&n)
            .into_iter()
            .flatten()
            .map(|&m| depth(m, edges, layer) + 1)
            .max()
            .unwrap_or(0);
        layer.insert(n, l);
        l
    }
    for &n in edges.keys() {
        depth(n, edges, &mut layer);
    }
    layer
}

#[test]
fn no_import_cycles_and_no_path_outside_the_crate() {
    let print = std::env::var_os("UTF8_TOOLS_PRINT_LAYERS").is_some();
    let mut failures = Vec::new();
    for root in crate_roots() {
        let krate = load_crate(&root);
        failures.extend(krate.problems.iter().cloned());
        let edges = krate.edges();
        if let Some(cycle) = find_cycle(&edges) {
            let names: Vec<String> = cycle.iter().map(|&i| krate.name(i)).collect();
            failures.push(format!("import cycle: {}", names.join(" -> ")));
        }
        if print {
            println!("\n{}", krate.name(0));
            let layer = layers(&edges);
            let mut order: Vec<(usize, String, usize)> =
                layer.iter().map(|(&n, &l)| (l, krate.name(n), n)).collect();
            order.sort();
            for (l, name, n) in order {
                let deps: Vec<String> = edges[&n].iter().map(|&m| krate.name(m)).collect();
                println!("  {l:2} {name} -> {}", deps.join(", "));
            }
        }
        let _ = &krate.root;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Source files the line limit applies to: everything under `crates/*/src`, `xtask/src`
/// and `fuzz/`, but generated tables.
fn limited_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let p = e.unwrap().path();
        if p.is_dir() {
            if !matches!(
                p.file_name().and_then(|n| n.to_str()),
                Some("generated" | "target" | "corpus" | "artifacts")
            ) {
                limited_files(&p, out);
            }
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_source_file_over_600_lines() {
    let ws = fs::canonicalize(workspace()).unwrap();
    let mut files = Vec::new();
    for krate in fs::read_dir(ws.join("crates")).unwrap() {
        limited_files(&krate.unwrap().path().join("src"), &mut files);
    }
    limited_files(&ws.join("xtask/src"), &mut files);
    limited_files(&ws.join("fuzz"), &mut files);
    let mut long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = fs::read_to_string(f).unwrap().lines().count();
            let rel = f.strip_prefix(&ws).unwrap_or(f);
            (n > MAX_LINES).then(|| format!("{}: {n} lines", rel.display()))
        })
        .collect();
    long.sort();
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_checker_finds_a_cycle_and_a_reexported_origin() {
    // A two-file cycle through a re-export: lib re-exports a::A, b uses crate::A (that is,
    // a), and a uses b.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    fs::create_dir(&src).unwrap();
    fs::write(src.join("lib.rs"), "mod a;\nmod b;\npub use a::A;\n").unwrap();
    fs::write(
        src.join("a.rs"),
        "pub struct A;\nfn f() { crate::b::g(); }\n",
    )
    .unwrap();
    fs::write(
        src.join("b.rs"),
        "use crate::A; // \"crate::nothing\"\npub fn g() {}\n",
    )
    .unwrap();
    let krate = load_crate(&src.join("lib.rs"));
    let edges = krate.edges();
    let names = |i: usize| {
        krate.files[i]
            .path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string()
    };
    let cycle = find_cycle(&edges).expect("a cycle");
    let mut named: Vec<String> = cycle.iter().map(|&i| names(i)).collect();
    named.sort();
    named.dedup();
    assert_eq!(named, ["a.rs", "b.rs"]);
    // Without a's call back, the graph is acyclic and lib is above both.
    fs::write(src.join("a.rs"), "pub struct A;\n").unwrap();
    let krate = load_crate(&src.join("lib.rs"));
    let edges = krate.edges();
    assert_eq!(find_cycle(&edges), None);
    let layer = layers(&edges);
    assert_eq!(layer[&0], 1, "lib imports a");
}

#[test]
fn strip_keeps_paths_and_drops_comments_and_literals() {
    let s = strip("let a = \"crate::x\"; // crate::y\nlet c = '\"'; r#\"crate::z\"#; crate::w();");
    assert!(!s.contains("crate::x") && !s.contains("crate::y") && !s.contains("crate::z"));
    assert!(s.contains("crate::w"));
    assert_eq!(s.lines().count(), 2);
}

/// Every `.rs` file of the workspace (tests and benches included), but build output.
fn all_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let p = e.unwrap().path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            if !matches!(name, "target" | ".git") {
                all_sources(&p, out);
            }
        } else if name.ends_with(".rs") {
            out.push(p);
        }
    }
}

/// The package a file belongs to: the nearest folder above it with a Cargo.toml.
fn package_of(file: &Path) -> PathBuf {
    let mut dir = file.parent().unwrap();
    while !dir.join("Cargo.toml").is_file() {
        dir = dir.parent().unwrap();
    }
    dir.to_path_buf()
}

#[test]
fn no_path_attribute_leaves_its_package() {
    let ws = fs::canonicalize(workspace()).unwrap();
    let mut files = Vec::new();
    all_sources(&ws, &mut files);
    let mut outside = Vec::new();
    for f in files {
        let raw = fs::read_to_string(&f).unwrap();
        let package = package_of(&f);
        for line in raw
            .lines()
            .map(str::trim_start)
            .filter(|l| l.starts_with("#[path"))
        {
            let Some(q1) = line.find('"') else { continue };
            let Some(len) = line[q1 + 1..].find('"') else {
                continue;
            };
            let target = f.parent().unwrap().join(&line[q1 + 1..q1 + 1 + len]);
            let inside = fs::canonicalize(&target).is_ok_and(|t| t.starts_with(&package));
            if !inside {
                let rel = f.strip_prefix(&ws).unwrap_or(&f);
                outside.push(format!("{}: {line}", rel.display()));
            }
        }
    }
    assert!(
        outside.is_empty(),
        "#[path] outside its package:\n{}",
        outside.join("\n")
    );
}
