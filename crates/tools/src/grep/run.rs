//! The run of `utf8-grep`: the command line read into a [`Config`], its inputs searched in
//! order (on several threads by `parallel` when there are several), and the exit status.

use std::ffi::OsString;
use std::process::ExitCode;

use super::args::GrepArgs;
use super::config::Config;
use super::job::{Entry, Job, PROGRAM, Totals};
use super::one_input::stdout_file_id;
use super::printer::Printer;
use crate::diag::{Diag, ToolError};
use crate::exit::Status;
use crate::output::{Output, conclude, parse_with_matches};

pub(super) fn run(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let args = super::args::expand_context_digits(args.into_iter().collect());
    let args = super::args::bare_color_is_auto(args);
    let (args, m) = match parse_with_matches::<GrepArgs>(PROGRAM, args) {
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
    let result = Config::new(args).and_then(|cfg| {
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
