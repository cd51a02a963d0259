//! The plain configuration of `utf8-grep`: what the command line ([`super::args`]) asks,
//! validated and compiled (patterns read and checked, the matcher built, globs compiled),
//! with no clap type left; [`super::run`] runs it.

use std::ffi::OsString;
use std::io::Read;

use super::args::{BinaryFiles, DeviceAction, DirAction, GrepArgs, InvalidMode};
use super::filters::Filters;
use super::matcher::{MatchOptions, Matcher};
use super::printer::{Mode, Palette, Style};
use super::regex::Dialect;
use crate::diag::ToolError;
use crate::engine::Engine;
use crate::transcode::FromArg;

/// The per-run settings of the searcher.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `-v`.
    pub invert: bool,
    /// `-q`.
    pub quiet: bool,
    /// `-l` or `-L`: stop at the first selected line.
    pub list: bool,
    /// `-c`.
    pub count: bool,
    /// `-o`.
    pub only: bool,
    /// `--json`.
    pub json: bool,
    /// `-m`.
    pub max_count: Option<u64>,
    /// `-B`.
    pub before: usize,
    /// `-A`.
    pub after: usize,
    /// Whether `-A/-B/-C` was given.
    pub context: bool,
    /// `-a` (or `--binary-files=text`, or `-z`, under which a NUL ends a line and never
    /// makes an input binary).
    pub text: bool,
    /// `-I`: an input turned binary has no selected line.
    pub without_match: bool,
    /// The byte that ends a line: a newline, or NUL under `-z`.
    pub eol: u8,
    /// `--column`: the searcher counts the units before each match.
    pub column: bool,
    /// The searcher numbers the lines: `-n`, `--json` and context (whose `--` goes between
    /// lines that do not follow each other) use their numbers. Without, the lines between
    /// matches are not counted.
    pub numbered: bool,
    /// `--invalid=report`, with the engine that finds the invalid sequences.
    pub report: Option<Engine>,
    /// `-L` (unless `-l` came too): list the inputs without a selected line.
    pub list_non_matches: bool,
}

impl Settings {
    /// What the text sink writes for an input.
    pub(super) fn mode(&self) -> Mode {
        if self.quiet {
            Mode::Quiet
        } else if self.count {
            Mode::Count
        } else if self.list_non_matches {
            Mode::NonMatching
        } else if self.list {
            Mode::Matching
        } else {
            Mode::Lines
        }
    }

    pub(super) fn printing(&self) -> bool {
        !(self.quiet || self.list || self.count)
    }

    /// Whether every byte read is checked for NUL (binary files). Only printed lines, `-v`
    /// and patterns anchored at line ends (`^` after a NUL, which ends a line in a binary
    /// input) depend on where the first NUL is; otherwise `-c`, `-l`, `-L` and `-q` select
    /// the same lines whatever came before, so they check only the lines with a match
    /// (a NUL there splits the line, as in GNU grep) and skip a pass over the whole input.
    pub(super) fn scan_nul(&self, m: &Matcher) -> bool {
        !self.text && (self.without_match || self.printing() || self.invert || m.line_anchors())
    }
}

/// The pattern syntax `-F`, `-G`, `-E` or `-P` asks (`-G` without one, as in grep); two
/// different ones are refused, as GNU grep refuses them.
fn dialect(a: &GrepArgs) -> Result<Dialect, ToolError> {
    let asked = [
        (a.fixed_strings, Dialect::Fixed),
        (a.basic_regexp, Dialect::Basic),
        (a.extended_regexp, Dialect::Extended),
        (a.perl_regexp, Dialect::Perl),
    ];
    let mut given = asked.iter().filter(|(on, _)| *on).map(|&(_, d)| d);
    let first = given.next().unwrap_or_default();
    if given.next().is_some() {
        return Err(ToolError::Usage("conflicting matchers specified".into()));
    }
    Ok(first)
}

/// Splits `bytes` at newlines into patterns (any bytes: one that is not UTF-8 matches its
/// bytes, as in GNU grep).
fn split_patterns(bytes: &[u8], out: &mut Vec<Vec<u8>>) {
    out.extend(bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec));
}

/// Everything `utf8-grep` was asked, checked: the patterns compiled, the files to search,
/// the searcher's settings and the output's style.
pub struct Config {
    pub(super) matcher: Matcher,
    pub(super) settings: Settings,
    pub(super) style: Style,
    /// Nothing can be selected (`-m 0`, no pattern at all, `-v ''` without `-x`/`-w`): GNU
    /// grep exits 1 without opening a file, unless `-L`.
    pub(super) nothing_selectable: bool,
    pub(super) report_color: bool,
    pub(super) files: Vec<OsString>,
    pub(super) recursive: bool,
    /// `-R`: symbolic links met walking are followed.
    pub(super) follow: bool,
    pub(super) filters: Filters,
    pub(super) with_filename: Option<bool>,
    pub(super) label: Option<String>,
    pub(super) no_messages: bool,
    /// `-j`/`--threads` as given: see [`Config::threads`].
    threads: Option<usize>,
    /// `--engine`: what finds invalid sequences (`--invalid=report`, `--json`).
    pub(super) engine: Engine,
    /// `--from`: what each file is decoded from (a byte order mark's encoding without it).
    pub(super) from: FromArg,
    /// `--line-buffered`: standard output is flushed at each line.
    pub(super) line_buffered: bool,
    /// `-d skip`: directories named as FILE are skipped.
    pub(super) skip_dirs: bool,
    /// `-D skip`: devices, FIFOs and sockets named as FILE are skipped.
    pub(super) skip_devices: bool,
    /// GNU grep's warning about `GREP_COLOR`, to print before searching.
    pub(super) color_warning: Option<String>,
}

impl Config {
    /// The configuration the command line asks for.
    ///
    /// # Errors
    ///
    /// [`Refusal::Pattern`] for a pattern that cannot be compiled, [`Refusal::NoPattern`],
    /// [`Refusal::Tool`] for an engine not built in, an unreadable `-f FILE`, ...
    pub(super) fn new(a: GrepArgs) -> Result<Config, Refusal> {
        let (patterns, files, sources) = patterns_and_files(&a)?;
        // --json and -c/-l/-L override each other (the last given wins, as in ripgrep); -o
        // does not change JSON output, whose match objects list every match already.
        let only_matching = a.only_matching && !a.common.json;
        let engine = a.common.engine()?;
        // GNU grep (grep.c, main): an empty pattern list matches nothing, as `-v ''` does,
        // and when nothing can be selected no file is read.
        let (invert, lines, words, empty) = if patterns.is_empty() {
            (!a.invert_match, false, false, true)
        } else {
            let empty = patterns.len() == 1 && patterns[0].is_empty();
            (a.invert_match, a.line_regexp, a.word_regexp, empty)
        };
        // A negative -m is no limit (GNU grep 3.8).
        let max_count = a.max_count.and_then(|m| u64::try_from(m).ok());
        let nothing_selectable = !a.files_without_match
            && (max_count == Some(0) || (empty && invert && !lines && !words));
        let options = MatchOptions {
            dialect: dialect(&a)?,
            ignore_case: a.ignore_case,
            word: a.word_regexp,
            line: a.line_regexp,
            eol: if a.null_data { 0 } else { b'\n' },
            known_input: known_input(&files),
        };
        let matcher = match Matcher::with(patterns.clone(), options) {
            Ok(m) => m,
            Err(ToolError::Usage(m)) => {
                return Err(pattern_refusal(&patterns, &sources, options, m));
            }
            Err(e) => return Err(e.into()),
        };
        let context =
            a.context.is_some() || a.after_context.is_some() || a.before_context.is_some();
        let after = a.after_context.or(a.context).unwrap_or(0);
        let before = a.before_context.or(a.context).unwrap_or(0);
        let color = a.common.color_for(&std::io::stdout());
        let env = |name: &str| std::env::var(name).ok();
        let (palette, color_warning) =
            Palette::from_env(env("GREP_COLOR").as_deref(), env("GREP_COLORS").as_deref());
        // GNU grep warns of GREP_COLOR only when it colors.
        let color_warning = color_warning.filter(|_| color);
        let list = a.files_with_matches || a.files_without_match;
        let settings = Settings {
            invert: a.invert_match,
            quiet: a.quiet,
            list,
            count: a.count && !list,
            only: only_matching,
            json: a.common.json,
            max_count,
            before,
            after,
            context,
            text: a.binary_mode == BinaryFiles::Text || a.null_data,
            without_match: a.binary_mode == BinaryFiles::WithoutMatch && !a.null_data,
            eol: if a.null_data { 0 } else { b'\n' },
            column: a.column,
            numbered: a.line_number || a.column || a.common.json || context,
            report: (a.invalid == InvalidMode::Report).then_some(engine),
            list_non_matches: a.files_without_match && !a.files_with_matches,
        };
        let style = Style {
            with_filename: false,
            line_number: a.line_number || a.column,
            byte_offset: a.byte_offset,
            null: a.null,
            color,
            repair: a.repair_output,
            initial_tab: a.initial_tab,
            offset_width: 0,
            eol: if a.null_data { 0 } else { b'\n' },
            group_separator: if a.no_group_separator {
                None
            } else {
                Some(match &a.group_separator {
                    Some(sep) => crate::input::os_bytes(sep).into_owned().into(),
                    None => b"--".to_vec().into(),
                })
            },
            palette: std::sync::Arc::new(palette),
            invert: a.invert_match,
        };
        let with_filename = if a.with_filename {
            Some(true)
        } else if a.no_filename {
            Some(false)
        } else {
            None
        };
        Ok(Config {
            engine,
            matcher,
            settings,
            style,
            nothing_selectable,
            report_color: a.common.color_for(&std::io::stderr()),
            files,
            recursive: a.dir_action == Some(DirAction::Recurse),
            skip_dirs: a.dir_action == Some(DirAction::Skip),
            skip_devices: a.devices == Some(DeviceAction::Skip),
            color_warning,
            follow: a.dereference_recursive,
            filters: Filters::new(&a.file_filters, &a.exclude_dir),
            with_filename,
            label: a.label,
            no_messages: a.no_messages,
            threads: a.threads.map(usize::from),
            from: match &a.from {
                Some(label) => FromArg::parse(label).map_err(ToolError::Usage)?,
                None => FromArg::Sniff,
            },
            line_buffered: a.common.line_buffered,
        })
    }
}

/// The bytes of the regular files named (not `-`, not directories, not devices), which are
/// read whole unless `-m`, `-l` or `-q` stop early, counted until [`KNOWN_INPUT_ENOUGH`].
fn known_input(files: &[OsString]) -> u64 {
    let mut known = 0u64;
    for f in files.iter().filter(|f| f.as_os_str() != "-") {
        if known >= KNOWN_INPUT_ENOUGH {
            break;
        }
        known += std::fs::metadata(f)
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map_or(0, |m| m.len());
    }
    known
}

/// Where [`known_input`] stops asking: the most a matcher's choice depends on (the DFA of
/// several fixed strings is built at once for 32 bytes of input per byte of the patterns,
/// which are at most 1 MiB where it is built).
const KNOWN_INPUT_ENOUGH: u64 = 32 << 20;

/// The patterns (PATTERN, each `-e`, each line of each `-f FILE`, split at newlines) and the
/// files: the first operand is a file when `-e` or `-f` gives the patterns.
#[allow(clippy::type_complexity)]
fn patterns_and_files(a: &GrepArgs) -> Result<(Vec<Vec<u8>>, Vec<OsString>, Vec<Source>), Refusal> {
    let mut patterns = Vec::new();
    let mut sources = Vec::new();
    let mut files = a.files.clone();
    if a.regexp.is_empty() && a.file.is_empty() {
        let Some(p) = &a.pattern else {
            return Err(Refusal::NoPattern);
        };
        split_patterns(&crate::input::os_bytes(p), &mut patterns);
    } else {
        if let Some(p) = &a.pattern {
            files.insert(0, p.clone());
        }
        for e in &a.regexp {
            split_patterns(&crate::input::os_bytes(e), &mut patterns);
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
            let first = patterns.len();
            split_patterns(body, &mut patterns);
            sources.push(Source {
                patterns: first..patterns.len(),
                name,
            });
        }
    }
    Ok((patterns, files, sources))
}

/// The patterns of one `-f FILE`: their indices and the file's name.
struct Source {
    patterns: std::ops::Range<usize>,
    name: String,
}

/// Why `utf8-grep` will not run, as GNU grep words it.
pub(super) enum Refusal {
    /// A usage error, an unreadable `-f FILE`, ...: as the other tools say them.
    Tool(ToolError),
    /// A pattern that cannot be compiled: `PROG: [FILE:LINE: ]MESSAGE`, no help hint.
    Pattern(String),
    /// No pattern at all: GNU grep's usage and help hint only.
    NoPattern,
}

impl From<ToolError> for Refusal {
    fn from(e: ToolError) -> Refusal {
        Refusal::Tool(e)
    }
}

/// The refusal of patterns that do not compile with `message`: GNU grep names the `-f
/// FILE:LINE:` of the first pattern that fails on its own (looked for only now, on the way
/// out); one of the command line is named by the message alone.
fn pattern_refusal(
    patterns: &[Vec<u8>],
    sources: &[Source],
    options: MatchOptions,
    message: String,
) -> Refusal {
    let failing = patterns
        .iter()
        .position(|p| Matcher::with(vec![p.clone()], options).is_err());
    let at = failing.and_then(|i| {
        sources
            .iter()
            .find(|s| s.patterns.contains(&i))
            .map(|s| format!("{}:{}: ", s.name, i - s.patterns.start + 1))
    });
    let message = match failing {
        Some(i) => match Matcher::with(vec![patterns[i].clone()], options) {
            Err(ToolError::Usage(m)) => m,
            _ => message,
        },
        None => message,
    };
    Refusal::Pattern(format!("{}{message}", at.unwrap_or_default()))
}

impl Config {
    /// How many files of `-r`, or parts of one large file, are searched at once: `-j`, else
    /// the CPUs this process may use. Asked only where several inputs or a large file make
    /// threads worth having (reading the cgroup limits costs more than a small search).
    pub(super) fn threads(&self) -> usize {
        self.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        })
    }
}
