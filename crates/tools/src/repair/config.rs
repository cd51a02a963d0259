//! What the command line of `utf8-repair` means, validated: plain values, no clap.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use utf8_codec::{Action, Practice, RepairOptions};

use super::args::{ActionArg, BomArg, RepairArgs, ReportFormat};
use super::backup::{Backup, Env};
use super::pipeline::Decoding;
use crate::diag::ToolError;
use crate::engine::Engine;
use crate::input::{Input, inputs};
use crate::labels::{self, Charset, Label};
use crate::transcode::FromArg;

/// Where the repaired text goes.
#[derive(Debug)]
pub(super) enum Mode {
    Stdout,
    File {
        path: PathBuf,
        backup: Option<Backup>,
    },
    InPlace {
        backup: Option<Backup>,
    },
    Check,
    /// `--list`: the encoding labels, nothing read.
    List,
}

/// What each substitute becomes: the codec's [`Action`], owning its replacement string.
#[derive(Debug)]
pub(super) enum Substitute {
    Replace(String),
    Delete,
    Escape,
}

/// How repaired errors are reported (`--report`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Report {
    None,
    Text,
    Json,
}

/// What the command line means, validated.
#[derive(Debug)]
pub(super) struct Config {
    pub inputs: Vec<Input>,
    pub practice: Practice,
    pub substitute: Substitute,
    pub engine: Engine,
    pub strip_bom: bool,
    /// What the input is decoded from (`--from`).
    pub source: Decoding,
    /// Whether UTF-8 input with errors is looked at for a legacy encoding (no `--quiet`).
    pub hints: bool,
    /// `--quiet`: no hints, and no warning when an input that looks like UTF-16 or binary
    /// is repaired as UTF-8 to standard output.
    pub quiet: bool,
    /// `--fix-mojibake`.
    pub fix_mojibake: bool,
    /// `-c` (or `-t ...//IGNORE`): exit 1 when something was omitted, as iconv does.
    pub omit_status: bool,
    pub mode: Mode,
    pub report: Report,
    /// `--json` (the reports of `--check`).
    pub json: bool,
    pub color_err: bool,
    /// `--line-buffered`: standard output is flushed at each line.
    pub line_buffered: bool,
}

impl Config {
    /// The codec's options: practice and action.
    pub fn options(&self) -> RepairOptions<'_> {
        let action = match &self.substitute {
            Substitute::Replace(r) => Action::Replace(r),
            Substitute::Delete => Action::Delete,
            Substitute::Escape => Action::Escape,
        };
        RepairOptions {
            practice: self.practice,
            action,
        }
    }
}

impl TryFrom<&RepairArgs> for Config {
    type Error = ToolError;

    fn try_from(a: &RepairArgs) -> Result<Config, ToolError> {
        let engine = a.common.engine()?;
        let omit = a.omit || ignore_in_to_code(a.to_code.as_deref())?;
        if omit && (a.action != ActionArg::Replace || a.replacement.is_some()) {
            return Err(ToolError::Usage(
                "-c (or //IGNORE) omits what cannot be decoded: it goes without --action and \
                 --replacement"
                    .to_string(),
            ));
        }
        let action = if omit { ActionArg::Delete } else { a.action };
        let substitute = match (action, &a.replacement) {
            (ActionArg::Replace, r) => {
                Substitute::Replace(r.clone().unwrap_or_else(|| "\u{FFFD}".to_string()))
            }
            (_, Some(_)) => {
                return Err(ToolError::Usage(
                    "--replacement goes with --action replace".to_string(),
                ));
            }
            (ActionArg::Delete, None) => Substitute::Delete,
            (ActionArg::Escape, None) => Substitute::Escape,
        };
        let source = Config::decoding(a.from.as_deref())?;
        let inputs = inputs(&a.files, None)?;
        let backup = Backup::from_args(
            a.backup.as_deref(),
            a.backup_default,
            a.suffix.as_deref(),
            &Env::get(),
        )
        .map_err(ToolError::Usage)?;
        let asked_backup = a.backup.is_some() || a.backup_default || a.suffix.is_some();
        if asked_backup && !a.in_place && a.output.is_none() {
            return Err(ToolError::Usage(
                "--backup, -b and -S go with --in-place or -o: they keep the original of a \
                 file that is replaced"
                    .to_string(),
            ));
        }
        let mode = if a.list {
            Mode::List
        } else if a.check {
            Mode::Check
        } else if a.in_place {
            if a.files.is_empty() {
                return Err(ToolError::Usage(
                    "--in-place needs FILE operands".to_string(),
                ));
            }
            if inputs.iter().any(Input::is_stdin) {
                return Err(ToolError::Usage(
                    "--in-place cannot repair standard input".to_string(),
                ));
            }
            if a.backup.as_deref() == Some("") {
                refuse_suffix_as_operand(&a.files)?;
            }
            Mode::InPlace { backup }
        } else if let Some(out) = &a.output {
            refuse_output_among_inputs(out, &inputs)?;
            Mode::File {
                path: out.clone(),
                backup,
            }
        } else {
            Mode::Stdout
        };
        if a.check && a.report.is_some() {
            return Err(ToolError::Usage(
                "--check and --report cannot be combined (--check names the first error of \
                 each input)"
                    .to_string(),
            ));
        }
        Ok(Config {
            inputs,
            practice: a.practice.into(),
            substitute,
            engine,
            strip_bom: a.bom == BomArg::Strip,
            hints: !a.quiet && a.from.is_none(),
            quiet: a.quiet,
            fix_mojibake: a.fix_mojibake,
            omit_status: omit,
            source,
            mode,
            // --json is --report=json (but for --check, whose reports --json makes JSON).
            report: match a.report {
                None if a.common.json && !a.check => Report::Json,
                None => Report::None,
                Some(_) if a.common.json => Report::Json,
                Some(ReportFormat::Text) => Report::Text,
                Some(ReportFormat::Json) => Report::Json,
            },
            json: a.common.json,
            color_err: a.common.color_for(&io::stderr()),
            line_buffered: a.common.line_buffered,
        })
    }
}

impl Config {
    /// What `--from LABEL` decodes from.
    fn decoding(from: Option<&str>) -> Result<Decoding, ToolError> {
        Ok(match from.map(FromArg::parse).transpose() {
            Ok(None) => Decoding::Sniff,
            Ok(Some(FromArg::Bytes)) => Decoding::Utf8,
            Ok(Some(FromArg::Auto)) => Decoding::Auto,
            Ok(Some(FromArg::Label(Charset::Whatwg(enc)))) => Decoding::From(enc),
            Ok(Some(FromArg::Label(Charset::Latin1))) => Decoding::Latin1,
            Ok(Some(FromArg::Label(Charset::Ascii))) => Decoding::Ascii,
            // (`FromArg::parse` gives no other.)
            Ok(Some(FromArg::Sniff)) => Decoding::Utf8,
            Err(e) => return Err(ToolError::Usage(e)),
        })
    }
}

/// `-t ENCODING` as iconv reads it: the output is UTF-8, so only a UTF-8 name is taken, with
/// iconv's suffixes `//IGNORE` (whether it is there: as `-c`) and `//TRANSLIT` (accepted).
fn ignore_in_to_code(to: Option<&str>) -> Result<bool, ToolError> {
    let Some(to) = to else {
        return Ok(false);
    };
    let mut parts = to.split("//");
    let name = parts.next().unwrap_or_default();
    if labels::resolve(name) != Some(Label::Whatwg(encoding_rs::UTF_8)) {
        return Err(ToolError::Usage(format!(
            "-t {to}: the output is always UTF-8 (-t takes UTF-8, UTF-8//IGNORE or \
             UTF-8//TRANSLIT; to write another encoding, pipe it to iconv -f UTF-8 -t {name})"
        )));
    }
    let mut ignore = false;
    for suffix in parts.filter(|p| !p.is_empty()) {
        for word in suffix.split(',') {
            match word.to_ascii_uppercase().as_str() {
                "IGNORE" => ignore = true,
                "TRANSLIT" => {}
                _ => {
                    return Err(ToolError::Usage(format!(
                        "-t {to}: unknown suffix //{word} (iconv's are //IGNORE and //TRANSLIT)"
                    )));
                }
            }
        }
    }
    Ok(ignore)
}

/// `--backup .orig` takes `.orig` as a FILE (a value of `--backup` is only ever given
/// with `=`): an operand that does not exist and starts as a suffix does (`.`, `~`, `-`, `_`)
/// is refused before any file is changed, naming `-S`.
fn refuse_suffix_as_operand(files: &[OsString]) -> Result<(), ToolError> {
    for f in files {
        let starts_as_suffix = matches!(
            f.as_encoded_bytes().first(),
            Some(b'.' | b'~' | b'-' | b'_')
        );
        if starts_as_suffix && f != "-" && fs::symlink_metadata(f).is_err() {
            let f = f.to_string_lossy();
            return Err(ToolError::Usage(format!(
                "'{f}' is not a file; --backup takes a CONTROL only after '=', and a backup \
                 suffix is given with -S {f} (or --suffix={f})"
            )));
        }
    }
    Ok(())
}

/// `-o FILE` naming one of the inputs (the same device and inode, whatever the names) is
/// refused: the input would be replaced while it is read.
fn refuse_output_among_inputs(out: &Path, inputs: &[Input]) -> Result<(), ToolError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let Ok(o) = fs::metadata(out) else {
            return Ok(());
        };
        if !o.is_file() {
            return Ok(());
        }
        for input in inputs {
            let m = match input {
                Input::Path(p) => fs::metadata(p),
                Input::Stdin { .. } => fs::metadata("/dev/stdin"),
            };
            if let Ok(m) = m
                && (m.dev(), m.ino()) == (o.dev(), o.ino())
            {
                return Err(ToolError::Usage(format!(
                    "output file '{}' is also an input ('{}'); use --in-place to repair \
                     a file in place",
                    out.to_string_lossy(),
                    input.name()
                )));
            }
        }
    }
    let _ = (out, inputs);
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    fn config(args: &[&str]) -> Result<Config, ToolError> {
        let a = RepairArgs::try_parse_from(["utf8-repair"].iter().chain(args)).unwrap();
        Config::try_from(&a)
    }

    #[test]
    fn actions_own_their_replacement() {
        let c = config(&["--replacement", "<?>"]).unwrap();
        assert_eq!(c.options().action, Action::Replace("<?>"));
        assert_eq!(config(&[]).unwrap().options().action, Action::default());
        let c = config(&["--action", "escape"]).unwrap();
        assert_eq!(c.options().action, Action::Escape);
        let e = config(&["--action", "delete", "--replacement", "x"]).unwrap_err();
        assert!(matches!(e, ToolError::Usage(_)));
    }

    #[test]
    fn encodings_and_modes() {
        assert_eq!(config(&["--from", "utf8"]).unwrap().source, Decoding::Utf8);
        assert_eq!(config(&[]).unwrap().source, Decoding::Sniff);
        let c = config(&["--from", "cp1252"]).unwrap();
        assert_eq!(c.source, Decoding::From(encoding_rs::WINDOWS_1252));
        assert_eq!(config(&["-f", "latin1"]).unwrap().source, Decoding::Latin1);
        assert_eq!(config(&["-f", "US-ASCII"]).unwrap().source, Decoding::Ascii);
        assert_eq!(
            config(&["-f", "CP932"]).unwrap().source,
            Decoding::From(encoding_rs::SHIFT_JIS)
        );
        assert!(config(&["-t", "UTF-8//TRANSLIT"]).unwrap().options().action == Action::default());
        assert_eq!(
            config(&["-t", "utf8//IGNORE"]).unwrap().options().action,
            Action::Delete
        );
        assert!(config(&["-t", "CP1252"]).is_err());
        assert!(config(&["-t", "UTF-8//BOGUS"]).is_err());
        assert!(config(&["-c", "--action", "escape"]).is_err());
        assert_eq!(config(&["--from", "AUTO"]).unwrap().source, Decoding::Auto);
        assert!(config(&[]).unwrap().hints);
        assert!(!config(&["-q"]).unwrap().hints);
        assert!(!config(&["--from", "auto"]).unwrap().hints);
        assert!(config(&["--from", "klingon"]).is_err());
        assert!(config(&["--in-place"]).is_err());
        assert!(config(&["--in-place", "-"]).is_err());
        assert!(matches!(config(&["--check"]).unwrap().mode, Mode::Check));
        assert_eq!(config(&["--report=json"]).unwrap().report, Report::Json);
        assert_eq!(config(&["--json"]).unwrap().report, Report::Json);
        assert_eq!(
            config(&["--json", "--report"]).unwrap().report,
            Report::Json
        );
        assert_eq!(config(&["--json", "--check"]).unwrap().report, Report::None);
        assert!(config(&["--check", "--report"]).is_err());
    }
}
