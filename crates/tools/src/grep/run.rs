//! Validated configuration (patterns, inputs, output style) and the run of `utf8-grep`.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::args::{GrepArgs, InvalidMode};
use super::buffer::{Feed, MAP_MIN};
use super::json::{JsonSink, summary};
use super::matcher::Matcher;
use super::printer::{Mode, Printer, Style, TextSink};
use super::search::{FileSearch, Settings};
use super::sink::{FileResult, Sink};
use super::walk::{Filters, Found, walk};
use crate::diag::{Diag, ToolError};
use crate::exit::Status;
use crate::input::Input;
use crate::output::{Output, conclude, parse};

const PROGRAM: &str = "utf8-grep";

pub(super) fn run(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let args: GrepArgs = match parse(args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let mut diag = Diag::new(PROGRAM);
    let mut out = Output::new();
    let mut matched = false;
    let mut quiet = false;
    let result = Config::new(args).and_then(|cfg| {
        quiet = cfg.settings.quiet;
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

fn bytes_of(s: &OsString) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        s.as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        s.to_string_lossy().into_owned().into_bytes()
    }
}

/// Splits `bytes` at newlines into patterns, each checked as UTF-8; `what` names the source.
fn split_patterns(
    bytes: &[u8],
    out: &mut Vec<String>,
    what: &dyn Fn(usize) -> String,
) -> Result<(), ToolError> {
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        match utf8_codec::validate(line) {
            Ok(s) => out.push(s.to_string()),
            Err(e) => {
                return Err(ToolError::Usage(format!(
                    "{} is not valid UTF-8: {} at byte {} ({})",
                    what(i),
                    e.kind(),
                    e.offset(),
                    crate::report::hex(&line[e.range()])
                )));
            }
        }
    }
    Ok(())
}

struct Config {
    matcher: Matcher,
    settings: Settings,
    style: Style,
    mode: Mode,
    list_non_matches: bool,
    report_color: bool,
    files: Vec<OsString>,
    recursive: bool,
    filters: Filters,
    with_filename: Option<bool>,
    label: Option<String>,
    no_messages: bool,
}

impl Config {
    fn new(a: GrepArgs) -> Result<Config, ToolError> {
        let mut patterns = Vec::new();
        let mut files = a.files.clone();
        if a.regexp.is_empty() && a.file.is_empty() {
            let Some(p) = &a.pattern else {
                return Err(ToolError::Usage("no PATTERN given".to_string()));
            };
            let b = bytes_of(p);
            let lossy = String::from_utf8_lossy(&b).into_owned();
            split_patterns(&b, &mut patterns, &|_| format!("the pattern '{lossy}'"))?;
        } else {
            if let Some(p) = &a.pattern {
                files.insert(0, p.clone());
            }
            for e in &a.regexp {
                let b = bytes_of(e);
                let lossy = String::from_utf8_lossy(&b).into_owned();
                split_patterns(&b, &mut patterns, &|_| format!("the pattern '{lossy}'"))?;
            }
            for f in &a.file {
                let name = f.to_string_lossy().into_owned();
                let mut bytes = Vec::new();
                let r = if f == "-" {
                    std::io::stdin().lock().read_to_end(&mut bytes)
                } else {
                    std::fs::File::open(f).and_then(|mut h| h.read_to_end(&mut bytes))
                };
                r.map_err(|e| ToolError::input(&name, &e))?;
                if bytes.is_empty() {
                    continue;
                }
                let body = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
                split_patterns(body, &mut patterns, &|i| {
                    format!("{name}:{}: the pattern", i + 1)
                })?;
            }
        }
        // --json and -c/-l/-L override each other (the last given wins, as in ripgrep); -o
        // does not change JSON output, whose match objects list every match already.
        let only_matching = a.only_matching && !a.common.json;
        let engine = a.common.engine()?;
        let matcher = Matcher::new(patterns, a.ignore_case, a.word_regexp, a.line_regexp)?;
        let context =
            a.context.is_some() || a.after_context.is_some() || a.before_context.is_some();
        let after = a.after_context.or(a.context).unwrap_or(0);
        let before = a.before_context.or(a.context).unwrap_or(0);
        let color = a.common.color_for(&std::io::stdout());
        let list = a.files_with_matches || a.files_without_match;
        let settings = Settings {
            invert: a.invert_match,
            quiet: a.quiet,
            list,
            count: a.count && !list,
            only: only_matching,
            json: a.common.json,
            max_count: a.max_count,
            before,
            after,
            context,
            text: a.text,
            column: a.column,
            report: (a.invalid == InvalidMode::Report).then_some(engine),
        };
        let style = Style {
            with_filename: false,
            line_number: a.line_number || a.column,
            column: a.column,
            byte_offset: a.byte_offset,
            null: a.null,
            color,
            repair: a.repair_output,
            invert: a.invert_match,
        };
        let with_filename = if a.with_filename {
            Some(true)
        } else if a.no_filename {
            Some(false)
        } else {
            None
        };
        let list_non_matches = a.files_without_match && !a.files_with_matches;
        let mode = if settings.quiet {
            Mode::Quiet
        } else if settings.count {
            Mode::Count
        } else if a.files_with_matches {
            Mode::Matching
        } else if list_non_matches {
            Mode::NonMatching
        } else {
            Mode::Lines
        };
        Ok(Config {
            matcher,
            settings,
            style,
            mode,
            list_non_matches,
            report_color: a.common.color_for(&std::io::stderr()),
            files,
            recursive: a.recursive,
            filters: Filters::new(&a.include, &a.exclude, &a.exclude_dir),
            with_filename,
            label: a.label,
            no_messages: a.no_messages,
        })
    }

    fn run(&self, out: &mut Output, diag: &mut Diag, matched: &mut bool) -> Result<(), ToolError> {
        // (input, show its name by default)
        let mut todo: Vec<(Input, bool)> = Vec::new();
        let mut errors: Vec<(usize, ToolError)> = Vec::new();
        let several = self.files.len() > 1;
        if self.files.is_empty() {
            if self.recursive {
                let found = walk(std::path::Path::new("."), true, &self.filters);
                self.push_found(found, &mut todo, &mut errors);
            } else {
                todo.push((Input::Stdin { named: false }, false));
            }
        }
        for f in &self.files {
            if f == "-" {
                todo.push((Input::Stdin { named: true }, several));
                continue;
            }
            let path = PathBuf::from(f);
            if self.recursive && path.is_dir() {
                let found = walk(&path, false, &self.filters);
                self.push_found(found, &mut todo, &mut errors);
                continue;
            }
            let base = path.file_name().unwrap_or_default();
            if self.filters.any_file_filter() && !self.filters.file_ok(base) {
                continue;
            }
            todo.push((Input::Path(path), several));
        }
        let mut printer = Printer::new(self.style);
        let (mut files, mut files_matched, mut lines, mut matches, mut bytes) = (0, 0, 0, 0, 0);
        let mut err_iter = errors.into_iter().peekable();
        for (i, (input, show)) in todo.iter().enumerate() {
            while let Some((_, e)) = err_iter.next_if(|(j, _)| *j <= i) {
                self.input_error(diag, &e);
            }
            let name = match (input, &self.label) {
                (Input::Stdin { .. }, Some(l)) => l.clone(),
                (Input::Stdin { .. }, None) => "(standard input)".to_string(),
                (Input::Path(_), _) => input.name(),
            };
            let diag_name = match (input, &self.label) {
                (Input::Stdin { .. }, Some(l)) => l.clone(),
                _ => input.name(),
            };
            printer.style.with_filename = self.with_filename.unwrap_or(*show);
            let mut source = match input.open() {
                Ok(s) => s,
                Err(e) => {
                    self.input_error(diag, &e);
                    // GNU grep opens a directory, fails to read it and reports it as a file
                    // without matches: `dir:0` with -c, its name with -L.
                    if matches!(input, Input::Path(p) if p.is_dir()) && !self.settings.quiet {
                        if self.settings.count {
                            printer.count(out, &name, 0)?;
                        } else if self.list_non_matches {
                            printer.name(out, &name)?;
                        }
                    }
                    continue;
                }
            };
            // Large regular files are mapped in windows (no copy through read(2)); the
            // rest is read.
            let feed = match source.regular_file() {
                Some((file, len)) if len >= MAP_MIN => {
                    crate::mmap::on_shrink_say(PROGRAM, &diag_name);
                    Feed::Map(file)
                }
                _ => Feed::Read(&mut source),
            };
            let (mut text, mut json);
            let sink: &mut dyn Sink = if self.settings.json {
                json = JsonSink {
                    out,
                    diag,
                    path: &diag_name,
                    invert: self.settings.invert,
                    begun: false,
                };
                &mut json
            } else {
                text = TextSink {
                    printer: &mut printer,
                    out,
                    diag,
                    name: &name,
                    mode: self.mode,
                    report_color: self.report_color,
                };
                &mut text
            };
            let search = FileSearch::new(&self.settings, &self.matcher, sink, &diag_name);
            let r: FileResult = match search.run(feed) {
                Ok(r) => r,
                Err(e @ ToolError::Input { .. }) => {
                    self.input_error(diag, &e);
                    continue;
                }
                Err(e) => return Err(e),
            };
            files += 1;
            bytes += r.bytes;
            lines += r.selected;
            matches += r.matches;
            if r.selected > 0 {
                *matched = true;
                files_matched += 1;
            }
            if self.settings.quiet && r.selected > 0 {
                return Ok(());
            }
        }
        for (_, e) in err_iter {
            self.input_error(diag, &e);
        }
        if self.settings.json {
            let total = FileResult {
                selected: lines,
                matches,
                bytes,
                binary_matched: false,
            };
            summary(out, files, files_matched, &total)?;
        }
        out.flush()
    }

    fn push_found(
        &self,
        found: impl Iterator<Item = Found>,
        todo: &mut Vec<(Input, bool)>,
        errors: &mut Vec<(usize, ToolError)>,
    ) {
        for f in found {
            match f {
                Found::File(p) => todo.push((Input::Path(p), true)),
                Found::Error(p, e) => {
                    errors.push((todo.len(), ToolError::input(p.to_string_lossy(), &e)));
                }
            }
        }
    }

    fn input_error(&self, diag: &mut Diag, e: &ToolError) {
        if self.no_messages {
            diag.record(Status::Trouble);
        } else {
            let _ = std::io::stdout().flush();
            diag.error(e);
        }
    }
}
