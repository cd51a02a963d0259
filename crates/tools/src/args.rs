//! Command-line definitions shared by every binary: [`CommonArgs`] is flattened into each
//! tool's clap struct, so `--color`, `--json` and `--engine` are spelled and checked once.

use std::io::IsTerminal;

use clap::{Args, ValueEnum};

use crate::diag::ToolError;
// `--engine`'s types live with the engines; re-exported where the options are.
pub use crate::engine::{Engine, EngineChoice};

/// Options every binary accepts, and the settings of every binary's command (applied to
/// the command that flattens them): `-V`/`--version` with [`crate::VERSION`] and
/// [`crate::LONG_VERSION`], help wrapped at 100 columns at most.
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
#[command(
    version = crate::VERSION,
    long_version = crate::LONG_VERSION,
    max_term_width = 100,
    // getopt's rule, in every binary: a repeated option is harmless, the last value wins.
    args_override_self = true,
    // getopt_long's rule, in every binary: an unambiguous prefix of a long option is that
    // option.
    infer_long_args = true
)]
pub struct CommonArgs {
    /// When to color the output: auto (when writing to a terminal and NO_COLOR is not set),
    /// always or never. An explicit --color wins over NO_COLOR.
    #[arg(long, alias = "colour", value_enum, value_name = "WHEN", num_args = 0..=1, default_missing_value = "always")]
    pub color: Option<ColorChoice>,

    /// Write machine-readable output: one JSON object per line.
    #[arg(long)]
    pub json: bool,

    /// The validator that finds errors: auto (the fastest available), scalar (the codec's
    /// table-driven decoder) or dfa (the minimized DFA of Unicode Table 3-7). All give the
    /// same answers; choose one to cross-check.
    #[arg(long, value_enum, value_name = "ENGINE", default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,

    /// Write each line of standard output as soon as it is ready, into a pipe or a file too
    /// (on a terminal it always is): `tail -f LOG | utf8-repair --line-buffered | ...`.
    #[arg(long = "line-buffered")]
    pub line_buffered: bool,

    /// Print the man page (man) or a shell completion script (complete-bash, complete-zsh,
    /// complete-fish, complete-powershell, complete-elvish) and exit; alone on the command
    /// line: `utf8-count --generate man | man -l -`.
    #[arg(long, value_enum, value_name = "KIND", exclusive = true)]
    pub generate: Option<GenerateKind>,
}

/// What `--generate` prints ([`crate::generate`]).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenerateKind {
    /// The man page (roff; `man -l -` shows it).
    Man,
    /// The bash completion script.
    CompleteBash,
    /// The zsh completion script.
    CompleteZsh,
    /// The fish completion script.
    CompleteFish,
    /// The PowerShell completion script.
    CompletePowershell,
    /// The elvish completion script.
    CompleteElvish,
}

/// The value of `--color`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// Color when the stream is a terminal and NO_COLOR is unset or empty.
    Auto,
    /// Always color.
    Always,
    /// Never color.
    Never,
}

impl CommonArgs {
    /// Whether to color a stream, given the `--color` choice, the `NO_COLOR` environment
    /// variable and whether the stream is a terminal.
    ///
    /// ```
    /// use utf8_tools::args::{CommonArgs, ColorChoice};
    /// let mut a = CommonArgs::default();
    /// a.color = Some(ColorChoice::Always);
    /// assert!(a.color_for(&std::io::stderr())); // explicit wins over NO_COLOR and terminals
    /// ```
    pub fn color_for(&self, stream: &impl IsTerminal) -> bool {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        resolve_color(self.color, no_color, stream.is_terminal())
    }

    /// The engine `--engine` asks for, or a usage error when it is not built in.
    ///
    /// # Errors
    ///
    /// [`ToolError::Usage`] when `--engine dfa` is asked for and this build has no DFA.
    pub fn engine(&self) -> Result<Engine, ToolError> {
        self.engine.resolve()
    }
}

/// The decision behind [`CommonArgs::color_for`], without the environment.
///
/// ```
/// use utf8_tools::args::{resolve_color, ColorChoice};
/// assert!(!resolve_color(None, true, true)); // NO_COLOR on a terminal
/// assert!(resolve_color(None, false, true));
/// assert!(resolve_color(Some(ColorChoice::Always), true, false));
/// assert!(!resolve_color(Some(ColorChoice::Auto), true, true));
/// ```
pub fn resolve_color(choice: Option<ColorChoice>, no_color: bool, terminal: bool) -> bool {
    match choice {
        Some(ColorChoice::Always) => true,
        Some(ColorChoice::Never) => false,
        Some(ColorChoice::Auto) | None => terminal && !no_color,
    }
}

/// GNU getopt's wording of a usage error clap found in `args` (the whole command line), where
/// getopt has one: an unrecognized long option (`unrecognized option '--frobnicate'`), the
/// prefix of several (`option '--t=o' is ambiguous; possibilities: '--total' '--threads'`),
/// an unknown short option (`invalid option -- 'y'`). Each names the argument as it was given.
/// `None` for the other errors, which keep clap's words.
///
/// ```
/// use clap::Parser;
///
/// #[derive(Parser)]
/// #[command(infer_long_args = true)]
/// struct Args {
///     #[arg(long)]
///     total: Option<String>,
///     #[arg(long)]
///     threads: Option<usize>,
/// }
/// let args = ["wc", "--t=o"];
/// let mut cmd = <Args as clap::CommandFactory>::command();
/// let err = cmd.try_get_matches_from_mut(args).unwrap_err();
/// let message = utf8_tools::args::getopt_message(&cmd, &err, &args.map(Into::into));
/// assert_eq!(
///     message.as_deref(),
///     Some("option '--t=o' is ambiguous; possibilities: '--total' '--threads'")
/// );
/// ```
pub fn getopt_message(
    cmd: &clap::Command,
    err: &clap::Error,
    args: &[std::ffi::OsString],
) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if err.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(bad)) = err.get(ContextKind::InvalidArg) else {
        return None;
    };
    let Some(name) = bad.strip_prefix("--") else {
        let mut chars = bad.strip_prefix('-')?.chars();
        return match (chars.next(), chars.next()) {
            (Some(c), None) => Some(format!("invalid option -- '{c}'")),
            _ => None,
        };
    };
    // As given: clap names only what comes before an `=`.
    let given = args
        .iter()
        .skip(1)
        .filter_map(|a| a.to_str())
        .find(|a| {
            a.strip_prefix(bad.as_str())
                .is_some_and(|r| r.is_empty() || r.starts_with('='))
        })
        .unwrap_or(bad);
    let (mut ids, mut names) = (Vec::new(), Vec::new());
    for arg in cmd.get_arguments() {
        let longs = arg
            .get_long()
            .into_iter()
            .chain(arg.get_all_aliases().into_iter().flatten());
        for long in longs.filter(|l| l.starts_with(name)) {
            names.push(format!("'--{long}'"));
            if !ids.contains(&arg.get_id()) {
                ids.push(arg.get_id());
            }
        }
    }
    match ids.len() {
        0 => Some(format!("unrecognized option '{given}'")),
        1 => None,
        _ => Some(format!(
            "option '{given}' is ambiguous; possibilities: {}",
            names.join(" ")
        )),
    }
}
