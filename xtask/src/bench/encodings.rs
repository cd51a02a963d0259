//! `cargo xtask bench`'s text in other encodings: the mixed corpus as UTF-16LE with a byte
//! order mark (ripgrep transcodes such a file too) and as Shift_JIS (the corpus's lines that
//! Shift_JIS holds, cycled to the run's size, against `iconv | grep`), and the registry's
//! Rust sources (a tree of UTF-8 files) searched with `--from auto` against the plain search.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use encoding_rs::SHIFT_JIS;

use crate::bench::comparisons::{Goal, Outcome, Target, Tools};
use crate::bench::corpus::{Corpora, NEEDLE_CJK, warm};
use crate::bench::options::Options;
use crate::bench::real::RealCorpus;
use crate::bench::runner::{Cmd, Timed, time_named};
use crate::workspace::Result;

/// The comparisons of this module.
pub const NAMES: [&str; 3] = ["enc-utf16", "enc-sjis", "real-auto-tree"];

/// `path`'s text as UTF-16LE with a byte order mark, in `dir` (made once per size).
fn utf16(dir: &Path, path: &Path, mib: u64) -> Result<PathBuf> {
    let out = dir.join(format!("mixed-{mib}MiB.utf16le.txt"));
    if out.is_file() {
        return Ok(out);
    }
    println!("bench: generating {}", out.display());
    let tmp = out.with_extension("tmp");
    let mut w = BufWriter::new(File::create(&tmp)?);
    w.write_all(b"\xFF\xFE")?;
    let mut line = String::new();
    let mut r = BufReader::new(File::open(path)?);
    let mut units = Vec::new();
    while r.read_line(&mut line)? > 0 {
        units.clear();
        units.extend(line.encode_utf16().flat_map(u16::to_le_bytes));
        w.write_all(&units)?;
        line.clear();
    }
    w.flush()?;
    std::fs::rename(&tmp, &out)?;
    Ok(out)
}

/// The lines of `path` that Shift_JIS holds, encoded, again from the start until the file
/// is `mib` MiB, in `dir`; and how many lines hold [`NEEDLE_CJK`] (written beside it).
fn shift_jis(dir: &Path, path: &Path, mib: u64) -> Result<(PathBuf, u64)> {
    let out = dir.join(format!("mixed-{mib}MiB.sjis.txt"));
    let count = out.with_extension("needles");
    if let (true, Ok(n)) = (out.is_file(), std::fs::read_to_string(&count)) {
        return Ok((out, n.trim().parse().map_err(|_| "bad needle count")?));
    }
    println!("bench: generating {}", out.display());
    let size = mib << 20;
    let tmp = out.with_extension("tmp");
    let mut w = BufWriter::new(File::create(&tmp)?);
    let (mut written, mut needles) = (0u64, 0u64);
    'fill: loop {
        let before = written;
        let mut r = BufReader::new(File::open(path)?);
        let mut line = String::new();
        while r.read_line(&mut line)? > 0 {
            let (bytes, _, unmappable) = SHIFT_JIS.encode(&line);
            if !unmappable {
                if written + bytes.len() as u64 > size {
                    break 'fill;
                }
                w.write_all(&bytes)?;
                written += bytes.len() as u64;
                needles += u64::from(line.contains(NEEDLE_CJK));
            }
            line.clear();
        }
        if written == before {
            return Err("no line of the corpus is Shift_JIS".into());
        }
    }
    w.flush()?;
    std::fs::rename(&tmp, &out)?;
    std::fs::write(&count, format!("{needles}\n"))?;
    Ok((out, needles))
}

/// Runs the comparison `name` of [`NAMES`] (`real` for `real-auto-tree`).
///
/// # Errors
///
/// When a command fails or the counts disagree.
pub fn run_encoding(
    name: &'static str,
    tools: &Tools,
    c: &Corpora,
    real: Option<&RealCorpus>,
    opts: &Options,
    dir: &Path,
) -> Result<Outcome> {
    let grep = tools.ours("utf8-grep");
    let mut cmds = Vec::new();
    let mut skipped = Vec::new();
    let (title, input, want, target) = match name {
        "enc-utf16" => {
            let f = utf16(dir, &c.mixed.path, opts.mib)?;
            cmds.push(Cmd::new(
                "utf8-grep -c",
                &grep,
                "utf8-grep",
                &[&"-c", &NEEDLE_CJK, &f],
            ));
            match tools.peer("rg") {
                Some(rg) => cmds.push(Cmd::new("rg -c", rg, "rg", &[&"-c", &NEEDLE_CJK, &f])),
                None => skipped.push("`rg`: not installed, skipped".to_owned()),
            }
            let target = Target {
                ours: "utf8-grep -c",
                peer: "rg -c",
                also: None,
                goal: Goal::AtMost(1.0),
                more: &[],
                text: "`utf8-grep -c` on UTF-16LE text at most the time of `rg -c` (both transcode)",
            };
            let title = format!("utf8-grep -c {NEEDLE_CJK} in UTF-16LE vs ripgrep");
            (title, f, Some(c.mixed.stats.needle_cjk_lines), target)
        }
        "enc-sjis" => {
            let (f, needles) = shift_jis(dir, &c.mixed.path, opts.mib)?;
            cmds.push(Cmd::new(
                "utf8-grep --from shift_jis -c",
                &grep,
                "utf8-grep",
                &[&"--from", &"shift_jis", &"-c", &NEEDLE_CJK, &f],
            ));
            if tools.peer("iconv").is_some() && tools.peer("grep").is_some() {
                let script = format!(
                    "iconv -f SHIFT_JIS -t UTF-8 '{}' | grep -c {NEEDLE_CJK}",
                    f.display()
                );
                cmds.push(Cmd::new(
                    "iconv | grep -c",
                    Path::new("/bin/sh"),
                    "sh",
                    &[&"-c", &script],
                ));
            } else {
                skipped.push("`iconv | grep`: not installed, skipped".to_owned());
            }
            let target = Target {
                ours: "utf8-grep --from shift_jis -c",
                peer: "iconv | grep -c",
                also: None,
                goal: Goal::AtMost(1.0),
                more: &[],
                text: "`utf8-grep --from shift_jis -c` at most the time of `iconv -f SHIFT_JIS -t UTF-8 | grep -c`",
            };
            let title = format!("utf8-grep --from shift_jis -c {NEEDLE_CJK} vs iconv | grep");
            (title, f, Some(needles), target)
        }
        "real-auto-tree" => {
            let r = real.ok_or("no real corpus")?;
            let t = r.tree.display().to_string();
            cmds.push(Cmd::new(
                "utf8-grep -r --from auto -c",
                &grep,
                "utf8-grep",
                &[
                    &"-r",
                    &"--include=*.rs",
                    &"--from",
                    &"auto",
                    &"-c",
                    &"unsafe",
                    &t,
                ],
            ));
            cmds.push(Cmd::new(
                "utf8-grep -r -c",
                &grep,
                "utf8-grep",
                &[&"-r", &"--include=*.rs", &"-c", &"unsafe", &t],
            ));
            let target = Target {
                ours: "utf8-grep -r --from auto -c",
                peer: "utf8-grep -r -c",
                also: None,
                goal: Goal::AtMost(1.1),
                more: &[],
                text: "`--from auto` over a tree of UTF-8 files at most 1.1× the plain search",
            };
            let title = "`-r --include='*.rs' --from auto -c unsafe` over the registry's Rust sources (UTF-8) vs without --from".to_owned();
            (title, r.tree.clone(), None, target)
        }
        _ => return Err(format!("unknown comparison {name}").into()),
    };
    if input.is_file() {
        warm(&input)?;
    }
    let rows = time_named(name, &cmds, opts.runs, dir)?;
    verify(&rows, want)?;
    Ok(Outcome {
        title,
        input: input
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        baseline: target.peer,
        rows,
        skipped,
        target: Some(target),
        notes: Vec::new(),
    })
}

/// Every command printed `want` (the one count, or per-file counts that agree).
fn verify(rows: &[Timed], want: Option<u64>) -> Result<()> {
    let out: Vec<String> = rows
        .iter()
        .map(|t| String::from_utf8_lossy(&t.stdout).into_owned())
        .collect();
    for (t, o) in rows.iter().zip(&out) {
        let ok = match want {
            Some(n) => o.trim() == n.to_string(),
            // The tree: the same files and counts in the same order.
            None => *o == out[0],
        };
        if !ok {
            return Err(format!(
                "outputs disagree: {} printed {:?}, want {want:?}",
                t.cmd.display(),
                o.chars().take(200).collect::<String>()
            )
            .into());
        }
    }
    Ok(())
}
