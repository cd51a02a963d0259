//! The run of `utf8-grep`: the command line read into a [`Config`], its inputs searched in
//! order (on several threads by `parallel` when there are several), and the exit status.

use std::ffi::OsString;
use std::process::ExitCode;

use super::args::GrepArgs;
use super::config::{Config, Refusal};
use super::job::{Entry, Job, PROGRAM, Totals};
use super::one_input::stdout_file_id;
use super::printer::Printer;
use crate::diag::{Diag, ToolError};
use crate::exit::Status;
use crate::output::{Output, conclude, parse_with_matches};

/// GNU grep's usage line, printed with a usage error where GNU grep prints it.
const USAGE: &str = "Usage: utf8-grep [OPTION]... PATTERNS [FILE]...";

pub(super) fn run(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let args = super::argv::expand_context_digits(args.into_iter().collect());
    let args = super::argv::bare_color_is_auto(args);
    let (args, m) = match parse(args) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    let mut diag = Diag::new(PROGRAM);
    let args = match super::args::file_filters_in_order(&m) {
        Ok(filters) => GrepArgs {
            file_filters: filters,
            binary_mode: super::args::binary_files_in_order(&m),
            dir_action: super::args::recurse_in_order(&m),
            ..args
        },
        Err(e) => return conclude(&mut diag, Err(e)),
    };
    let mut matched = false;
    let mut quiet = false;
    let cfg = match Config::new(args) {
        Ok(cfg) => Ok(cfg),
        Err(Refusal::Tool(e)) => Err(e),
        Err(Refusal::Pattern(m)) => {
            diag.line(format_args!("{m}"));
            return Status::Trouble.into();
        }
        Err(Refusal::NoPattern) => {
            diag.raw_line(&format!(
                "{USAGE}\nTry '{PROGRAM} --help' for more information."
            ));
            return Status::Trouble.into();
        }
    };
    let result = cfg.and_then(|cfg| {
        quiet = cfg.settings.quiet;
        let mut out = Output::stdout(cfg.line_buffered);
        if let Some(w) = &cfg.color_warning {
            diag.line(format_args!("{w}"));
        }
        for w in cfg.matcher.warnings() {
            diag.line(format_args!("warning: {w}"));
        }
        let r = cfg.run(&mut out, &mut diag, &mut matched);
        r.and_then(|()| out.flush())
    });
    let quiet_usage = matches!(result, Err(ToolError::Usage(_)));
    let broken = matches!(&result, Err(e) if e.is_broken_pipe());
    let code = conclude(&mut diag, result);
    if quiet_usage {
        return code;
    }
    // grep's rule: a selected line wins over trouble with -q; a closed stdout after a match
    // is still a match.
    let status = if (matched && quiet) || broken {
        Status::Success
    } else if diag.status() == Status::Trouble {
        Status::Trouble
    } else if matched {
        Status::Success
    } else {
        Status::False
    };
    status.into()
}

thread_local! {
    /// This thread's clap command of utf8-grep, built once (the fuzz targets run the tool
    /// in-process again and again).
    static COMMAND: std::cell::RefCell<Option<clap::Command>> = const { std::cell::RefCell::new(None) };
}

/// The command line parsed, or the exit status once a usage error is said as GNU grep
/// 3.8 says it (one line, then its usage line and help hint where it prints them), or the
/// help or version printed.
fn parse(args: Vec<OsString>) -> Result<(GrepArgs, clap::ArgMatches), ExitCode> {
    let mut cmd = COMMAND
        .with_borrow_mut(Option::take)
        .unwrap_or_else(<GrepArgs as clap::CommandFactory>::command);
    let parsed = cmd.try_get_matches_from_mut(&args);
    let said = match &parsed {
        Err(e) if e.use_stderr() => Some(usage_error(&cmd, e, &args)),
        _ => None,
    };
    COMMAND.with_borrow_mut(|c| *c = Some(cmd));
    match (parsed, said) {
        (Ok(m), _) => match <GrepArgs as clap::FromArgMatches>::from_arg_matches(&m) {
            Ok(a) => Ok((a, m)),
            Err(e) => Err(say(&e.to_string(), true)),
        },
        (Err(_), Some((message, hint))) => Err(say(&message, hint)),
        // --help, --version: written as every tool writes them.
        (Err(_), None) => parse_with_matches::<GrepArgs>(PROGRAM, args),
    }
}

/// Writes `PROG: message` (and with `hint`, GNU's usage line and help hint); exit status 2.
fn say(message: &str, hint: bool) -> ExitCode {
    let mut text = format!("{PROGRAM}: {message}\n");
    if hint {
        text.push_str(&format!(
            "{USAGE}\nTry '{PROGRAM} --help' for more information.\n"
        ));
    }
    let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), text.as_bytes());
    Status::Trouble.into()
}

/// GNU grep 3.8's words for the usage error clap found (grep.c and getopt): the message and
/// whether the usage line and help hint follow it.
fn usage_error(cmd: &clap::Command, e: &clap::Error, args: &[OsString]) -> (String, bool) {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if let Some(m) = crate::args::getopt_message(cmd, e, args) {
        return (m, true);
    }
    let context = |k| match e.get(k) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(v)) => v.join(", "),
        _ => String::new(),
    };
    let arg = context(ContextKind::InvalidArg);
    let value = context(ContextKind::InvalidValue);
    // `--after-context <NUM>`: the option's long name.
    let long = arg
        .split([' ', '='])
        .find(|w| w.starts_with("--"))
        .unwrap_or_default()
        .to_string();
    match e.kind() {
        ErrorKind::InvalidValue | ErrorKind::ValueValidation if value.is_empty() => {
            // A value is missing: the option was the last word.
            let given = args
                .last()
                .map(|a| a.to_string_lossy().into_owned())
                .unwrap_or_default();
            match given.strip_prefix("--") {
                Some(_) => (format!("option '{long}' requires an argument"), true),
                None => {
                    let c = given.chars().last().unwrap_or('?');
                    (format!("option requires an argument -- '{c}'"), true)
                }
            }
        }
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => match long.as_str() {
            "--after-context" | "--before-context" | "--context" => {
                (format!("{value}: invalid context length argument"), false)
            }
            "--max-count" => ("invalid max count".into(), false),
            "--binary-files" => ("unknown binary-files type".into(), false),
            _ => {
                let valid = context(ContextKind::ValidValue);
                let valid = if valid.is_empty() {
                    String::new()
                } else {
                    let names: Vec<String> = valid.split(", ").map(|v| format!("'{v}'")).collect();
                    format!("; valid arguments are {}", names.join(", "))
                };
                (
                    format!("invalid argument '{value}' for '{long}'{valid}"),
                    true,
                )
            }
        },
        _ => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or_default();
            (
                first.strip_prefix("error: ").unwrap_or(first).to_string(),
                true,
            )
        }
    }
}

// The run of a configuration is written here, beside the loop over inputs it drives.
impl Config {
    fn run(&self, out: &mut Output, diag: &mut Diag, matched: &mut bool) -> Result<(), ToolError> {
        if self.nothing_selectable {
            return Ok(());
        }
        let mut printer = Printer::new(self.style.clone());
        // GNU grep refuses to read a regular file that is also its standard output (it would
        // grow while it is read), unless the output cannot grow with it: -q, -l, -L, -c,
        // -m 1 or less, an empty file (GNU grep 3.8 still refuses an empty one).
        let s = &self.settings;
        let output = if s.quiet || s.list || s.count || s.max_count.is_some_and(|m| m <= 1) {
            None
        } else {
            stdout_file_id()
        };
        let several_inputs = self.recursive || self.files.len() > 1;
        if several_inputs && self.threads() > 1 && !self.files.iter().any(|f| f == "-") {
            return super::parallel::run(self, output, out, diag, matched);
        }
        let mut totals = Totals::default();
        for entry in self.entries() {
            let (input, show, root) = match entry {
                Entry::Input(input, show, root) => (input, show, root),
                Entry::Trouble(t) => {
                    self.trouble(out, diag, &t);
                    continue;
                }
            };
            let job = Job {
                input: &input,
                root: root.as_deref(),
                show,
                whole: true,
            };
            let found = self.search_input(job, output, out, diag, &mut printer)?;
            if let Some(r) = found {
                totals.add(&r);
                if r.selected > 0 {
                    *matched = true;
                    if self.settings.quiet {
                        return Ok(());
                    }
                }
            }
        }
        self.finish(out, &totals)
    }
}
