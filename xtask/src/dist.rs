//! `cargo xtask dist [--target TRIPLE]`: the release archive of the three binaries.
//!
//! 1. `cargo build -p utf8-tools --profile release-lto --bins [--target TRIPLE]`: the
//!    distribution profile (lto, one codegen unit, stripped). Only utf8-tools is built, so
//!    xtask's own dependencies (utf8-dfa's `build` feature, regex-automata's `dfa-build`) never
//!    reach the shipped binaries.
//! 2. Man pages and completion scripts from the binaries' clap definitions ([`crate::man`],
//!    [`crate::completions`]).
//! 3. `DIST/utf8-tools-VERSION-TRIPLE.tar.gz` holding
//!
//!    ```text
//!    utf8-tools-VERSION-TRIPLE/
//!      LICENSE-APACHE  LICENSE-MIT  README.md
//!      bin/utf8-count  bin/utf8-grep  bin/utf8-repair
//!      completions/    (bash, zsh, fish, elvish, PowerShell for each binary)
//!      man/man1/utf8-count.1  man/man1/utf8-grep.1  man/man1/utf8-repair.1
//!    ```
//!
//!    and `DIST/SHA256SUMS` in `sha256sum` format (`cd DIST && sha256sum -c SHA256SUMS`);
//!    lines for other archives already in DIST are kept. DIST is `$CARGO_TARGET_DIR/dist`,
//!    or `target/dist` in the workspace when `CARGO_TARGET_DIR` is unset.
//!
//! The archive is reproducible: entries sorted by path, owner and group 0 with empty names,
//! modes 0755 (directories and binaries) and 0644 (everything else), every mtime
//! `SOURCE_DATE_EPOCH` (or else the commit time of HEAD, or else 0), and a gzip header
//! without a timestamp. Two runs on the same commit give byte-identical archives.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use flate2::{Compression, GzBuilder};
use sha2::{Digest, Sha256};

use crate::tool::{self, TOOLS};
use crate::workspace::{self, Result};
use crate::{completions, man};

/// What `dist` produced.
pub struct Dist {
    /// The archive.
    pub archive: PathBuf,
    /// The checksum file beside it.
    pub sums: PathBuf,
    /// The archive's size in bytes.
    pub size: u64,
    /// The archive's SHA-256, in hex.
    pub sha256: String,
}

/// Builds the binaries and writes the archive and its checksum into `dist_dir(root)`.
///
/// # Errors
///
/// When cargo or rustc cannot be run or fail, or a file cannot be read or written.
pub fn run(root: &Path, target: Option<&str>) -> Result<Dist> {
    let triple = match target {
        Some(t) => t.to_owned(),
        None => host_triple()?,
    };
    let bin_dir = tool::build(root, target, "dist")?;
    let exe = if triple.contains("windows") {
        ".exe"
    } else {
        ""
    };

    let version = utf8_tools::VERSION;
    let epoch = workspace::source_date_epoch(root);
    let date = workspace::iso_date(epoch);
    let top = format!("utf8-tools-{version}-{triple}");
    let mut files: Vec<(String, u32, Vec<u8>)> = Vec::new();
    for tool in TOOLS {
        let name = format!("{}{exe}", tool.name());
        let path = bin_dir.join(&name);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        files.push((format!("bin/{name}"), 0o755, bytes));
        files.push((
            format!("man/man1/{}", man::file_name(tool)),
            0o644,
            man::page(tool, &date)?.into_bytes(),
        ));
    }
    for (name, bytes) in completions::all() {
        files.push((format!("completions/{name}"), 0o644, bytes));
    }
    for name in ["README.md", "LICENSE-MIT", "LICENSE-APACHE"] {
        let path = root.join(name);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        files.push((name.to_owned(), 0o644, bytes));
    }

    let tar_gz = archive(&top, files, epoch)?;
    let sha256 = hex(&Sha256::digest(&tar_gz));

    let dir = dist_dir(root);
    std::fs::create_dir_all(&dir)?;
    let file_name = format!("{top}.tar.gz");
    let archive_path = dir.join(&file_name);
    write_atomic(&archive_path, &tar_gz)?;
    let sums = dir.join("SHA256SUMS");
    write_atomic(
        &sums,
        update_sums(&dir, &sums, &file_name, &sha256)?.as_bytes(),
    )?;

    Ok(Dist {
        archive: archive_path,
        sums,
        size: tar_gz.len() as u64,
        sha256,
    })
}

/// Where `dist` writes: `$CARGO_TARGET_DIR/dist`, or `target/dist` in the workspace.
pub fn dist_dir(root: &Path) -> PathBuf {
    workspace::target_dir(root).join("dist")
}

/// The host's target triple: the `host:` line of `rustc -vV`.
///
/// # Errors
///
/// When rustc cannot be run or prints no `host:` line.
pub fn host_triple() -> Result<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(&rustc).arg("-vV").output()?;
    if !out.status.success() {
        return Err(format!("rustc -vV failed: {}", out.status).into());
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host:"))
        .map(|h| h.trim().to_owned())
        .ok_or_else(|| "rustc -vV printed no host: line".into())
}

/// A reproducible `.tar.gz` of `files` (paths relative to `top`) under the directory `top`.
fn archive(top: &str, files: Vec<(String, u32, Vec<u8>)>, mtime: u64) -> Result<Vec<u8>> {
    // Every path, its directories included, in sorted order; None marks a directory.
    let mut entries: BTreeMap<String, Option<(u32, Vec<u8>)>> = BTreeMap::new();
    entries.insert(format!("{top}/"), None);
    for (rel, mode, bytes) in files {
        let mut dir = String::new();
        for part in rel
            .split('/')
            .rev()
            .skip(1)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
        {
            dir.push_str(part);
            dir.push('/');
            entries.insert(format!("{top}/{dir}"), None);
        }
        entries.insert(format!("{top}/{rel}"), Some((mode, bytes)));
    }

    let gz = GzBuilder::new()
        .mtime(0)
        .operating_system(3) // Unix, whatever the host
        .write(Vec::new(), Compression::best());
    let mut tar = tar::Builder::new(gz);
    for (path, entry) in &entries {
        let mut header = tar::Header::new_gnu();
        header.set_uid(0);
        header.set_gid(0);
        header.set_username("")?;
        header.set_groupname("")?;
        header.set_mtime(mtime);
        match entry {
            None => {
                header.set_entry_type(tar::EntryType::Directory);
                header.set_mode(0o755);
                header.set_size(0);
                tar.append_data(&mut header, path, std::io::empty())?;
            }
            Some((mode, bytes)) => {
                header.set_entry_type(tar::EntryType::Regular);
                header.set_mode(*mode);
                header.set_size(bytes.len() as u64);
                tar.append_data(&mut header, path, bytes.as_slice())?;
            }
        }
    }
    Ok(tar.into_inner()?.finish()?)
}

/// SHA256SUMS with `name`'s line set to `sha256`, keeping the lines of other archives that
/// are still in `dir`, sorted by file name.
fn update_sums(dir: &Path, sums: &Path, name: &str, sha256: &str) -> Result<String> {
    let mut lines: BTreeMap<String, String> = BTreeMap::new();
    if let Ok(old) = std::fs::read_to_string(sums) {
        for line in old.lines() {
            if let Some((hash, file)) = line.split_once("  ")
                && file != name
                && dir.join(file).is_file()
            {
                lines.insert(file.to_owned(), hash.to_owned());
            }
        }
    }
    lines.insert(name.to_owned(), sha256.to_owned());
    Ok(lines
        .iter()
        .map(|(file, hash)| format!("{hash}  {file}\n"))
        .collect())
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archive_is_reproducible_and_sorted() {
        let files = || {
            vec![
                ("man/man1/a.1".to_owned(), 0o644, b"page".to_vec()),
                ("bin/a".to_owned(), 0o755, b"binary".to_vec()),
            ]
        };
        let a = archive("top", files(), 1).unwrap();
        assert_eq!(a, archive("top", files(), 1).unwrap());
        let mut ar = tar::Archive::new(flate2::read::GzDecoder::new(a.as_slice()));
        let got: Vec<(String, u32, u64)> = ar
            .entries()
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let h = e.header();
                (
                    e.path().unwrap().display().to_string(),
                    h.mode().unwrap(),
                    h.mtime().unwrap(),
                )
            })
            .collect();
        let want = [
            ("top/", 0o755),
            ("top/bin/", 0o755),
            ("top/bin/a", 0o755),
            ("top/man/", 0o755),
            ("top/man/man1/", 0o755),
            ("top/man/man1/a.1", 0o644),
        ];
        assert_eq!(got.len(), want.len());
        for ((path, mode, mtime), (wp, wm)) in got.iter().zip(want) {
            assert_eq!(
                (path.trim_end_matches('/'), *mode, *mtime),
                (wp.trim_end_matches('/'), wm, 1)
            );
        }
    }

    #[test]
    fn sums_keep_other_archives() {
        let dir = std::env::temp_dir().join(format!("xtask-sums-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("other.tar.gz"), b"x").unwrap();
        let sums = dir.join("SHA256SUMS");
        std::fs::write(
            &sums,
            "aa  other.tar.gz\nbb  gone.tar.gz\ncc  mine.tar.gz\n",
        )
        .unwrap();
        let text = update_sums(&dir, &sums, "mine.tar.gz", "dd").unwrap();
        assert_eq!(text, "dd  mine.tar.gz\naa  other.tar.gz\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
