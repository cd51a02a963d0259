//! What `--generate KIND` prints, and `cargo xtask man` and `cargo xtask completions` write:
//! a binary's man page and its shell completion scripts, from the same clap `command()` it
//! parses with (ripgrep's `rg --generate`, for `cargo install` users, whose install has
//! neither).

use std::io::{self, Write};
use std::process::ExitCode;

use clap_complete::{Generator, Shell};

use crate::diag::{Diag, ToolError};
use crate::output::{Output, conclude};

mod man;

pub use man::TOOLS;

pub use crate::args::GenerateKind as Kind;

/// The shells completions are written for.
pub const SHELLS: [Shell; 5] = [
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::Elvish,
    Shell::PowerShell,
];

/// The man page of the tool whose clap command is `cmd` (one of [`TOOLS`]), as roff source,
/// dated `date` (`YYYY-MM-DD`).
///
/// # Errors
///
/// Never in practice: rendering writes to memory.
///
/// ```
/// use utf8_tools::generate::man_page;
/// let page = man_page(utf8_tools::count::command(), "2026-01-02").unwrap();
/// assert!(page.contains(".TH utf8-count 1 2026-01-02"));
/// ```
pub fn man_page(cmd: clap::Command, date: &str) -> io::Result<String> {
    man::page(cmd, date)
}

/// The completion script for `shell` of the tool whose clap command is `cmd`: (file name,
/// contents).
///
/// ```
/// use clap_complete::Shell;
/// use utf8_tools::generate::completion;
/// let (name, script) = completion(utf8_tools::repair::command(), Shell::Zsh);
/// assert_eq!(name, "_utf8-repair");
/// assert!(String::from_utf8(script).unwrap().contains("--in-place"));
/// ```
pub fn completion(mut cmd: clap::Command, shell: Shell) -> (String, Vec<u8>) {
    let name = cmd.get_name().to_owned();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, name.clone(), &mut buf);
    (shell.file_name(&name), buf)
}

/// Today's date as `YYYY-MM-DD` (UTC), or that of `SOURCE_DATE_EPOCH` when it is set: the
/// date line of a man page printed by `--generate man`.
pub fn today() -> String {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        });
    iso_date(secs)
}

/// The UTC date of `secs` seconds after the Unix epoch, as `YYYY-MM-DD`.
///
/// ```
/// use utf8_tools::generate::iso_date;
/// assert_eq!(iso_date(0), "1970-01-01");
/// assert_eq!(iso_date(951_782_400), "2000-02-29");
/// assert_eq!(iso_date(1_767_225_599), "2025-12-31");
/// ```
pub fn iso_date(secs: u64) -> String {
    // Howard Hinnant's civil_from_days.
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Prints what `--generate KIND` asks for of the tool whose clap command is `cmd` to `out`.
///
/// # Errors
///
/// Writing failed.
pub fn print(cmd: clap::Command, kind: Kind, out: &mut dyn Write) -> io::Result<()> {
    let shell = match kind {
        Kind::Man => return out.write_all(man_page(cmd, &today())?.as_bytes()),
        Kind::CompleteBash => Shell::Bash,
        Kind::CompleteZsh => Shell::Zsh,
        Kind::CompleteFish => Shell::Fish,
        Kind::CompletePowershell => Shell::PowerShell,
        Kind::CompleteElvish => Shell::Elvish,
    };
    out.write_all(&completion(cmd, shell).1)
}

/// A tool's `main_with`: `PROGRAM --generate KIND` alone is [`intercept`]ed, any other
/// command line given to `run`.
pub(crate) fn main_with(
    program: &'static str,
    args: impl IntoIterator<Item = std::ffi::OsString>,
    command: impl FnOnce() -> clap::Command,
    run: impl FnOnce(Vec<std::ffi::OsString>) -> ExitCode,
) -> ExitCode {
    let args: Vec<std::ffi::OsString> = args.into_iter().collect();
    intercept(program, &args, command).unwrap_or_else(|| run(args))
}

/// `PROGRAM --generate KIND` (or `--generate=KIND`, or a prefix of `--generate` from
/// `--gen`), alone: prints it and gives the exit status, before clap, which would ask for
/// the operands a tool needs (utf8-grep's PATTERN). Anything else is clap's to parse.
fn intercept(
    program: &'static str,
    args: &[std::ffi::OsString],
    command: impl FnOnce() -> clap::Command,
) -> Option<ExitCode> {
    use clap::ValueEnum;
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map(|a| a.to_str())
        .collect::<Option<_>>()?;
    let (option, value) = match words.as_slice() {
        [o, v] => (*o, *v),
        [ov] => ov.split_once('=')?,
        _ => return None,
    };
    if option.len() < "--gen".len() || !"--generate".starts_with(option) {
        return None;
    }
    let mut diag = Diag::new(program);
    let result = match Kind::from_str(value, false) {
        Ok(kind) => {
            let mut out = Output::new();
            print(command(), kind, &mut out)
                .and_then(|()| Write::flush(&mut out))
                .map_err(ToolError::Output)
        }
        Err(_) => {
            let kinds: Vec<String> = Kind::value_variants()
                .iter()
                .filter_map(|k| k.to_possible_value())
                .map(|v| v.get_name().to_string())
                .collect();
            Err(ToolError::Usage(format!(
                "invalid value '{value}' for '--generate' (valid: {})",
                kinds.join(", ")
            )))
        }
    };
    Some(conclude(&mut diag, result))
}
