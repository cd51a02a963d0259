//! What the command line of `utf8-count` means, validated: plain values, no clap.

use std::io;

use super::args::{CountArgs, TotalMode};
use super::files0::Inputs;
use crate::diag::ToolError;
use crate::engine::Engine;
use crate::transcode::FromArg;

/// The columns `wc`-style output shows, in this fixed order.
#[derive(Clone, Copy, Debug)]
pub(super) struct Columns {
    pub lines: bool,
    pub words: bool,
    pub chars: bool,
    pub bytes: bool,
    pub errors: bool,
    /// `-L`: the display width of the longest line.
    pub longest: bool,
    /// `--max-line-chars`: the longest line in code points.
    pub longest_chars: bool,
}

impl Columns {
    /// How many columns are shown.
    pub fn count(&self) -> usize {
        [
            self.lines,
            self.words,
            self.chars,
            self.bytes,
            self.errors,
            self.longest,
            self.longest_chars,
        ]
        .iter()
        .filter(|&&b| b)
        .count()
    }
}

/// What the command line means, validated.
#[derive(Debug)]
pub(super) struct Config {
    pub inputs: Inputs,
    pub columns: Columns,
    /// A line per input (all `--total` modes but `only`).
    pub each: bool,
    /// A line with the totals (`--total`: `auto` with several inputs, `always`, `only`).
    pub total: bool,
    /// A line with the totals if the stream of inputs turns out to hold several
    /// (`--total=auto` with a `--files0-from` list read as it arrives).
    pub total_if_several: bool,
    pub histogram: bool,
    pub check: bool,
    /// `--check` names a legacy encoding the input seems to be in (no `--quiet`).
    pub hints: bool,
    pub explain: bool,
    pub hex: bool,
    /// `--from`: what each file is decoded from.
    pub from: FromArg,
    pub json: bool,
    pub engine: Engine,
    pub threads: Option<usize>,
    pub color_out: bool,
    pub color_err: bool,
    /// `--line-buffered`: standard output is flushed at each line.
    pub line_buffered: bool,
}

impl TryFrom<&CountArgs> for Config {
    type Error = ToolError;

    fn try_from(a: &CountArgs) -> Result<Config, ToolError> {
        let engine = a.common.engine()?;
        let any = a.lines || a.words || a.chars || a.bytes || a.errors;
        let columns = Columns {
            lines: a.lines || !any,
            words: a.words || !any,
            chars: a.chars || !any,
            bytes: a.bytes || !any,
            errors: a.errors || !any,
            longest: a.max_line_length,
            longest_chars: a.max_line_chars,
        };
        let columns = if (a.max_line_length || a.max_line_chars) && !any {
            // `-L` alone shows only the longest line, as `wc -L` (so does --max-line-chars).
            Columns {
                lines: false,
                words: false,
                chars: false,
                bytes: false,
                errors: false,
                ..columns
            }
        } else {
            columns
        };
        let inputs = Inputs::new(&a.files, a.files0_from.as_deref())?;
        let total = match a.total {
            TotalMode::Auto => inputs.known().len() > 1,
            TotalMode::Always | TotalMode::Only => true,
            TotalMode::Never => false,
        };
        Ok(Config {
            columns,
            each: a.total != TotalMode::Only,
            total_if_several: a.total == TotalMode::Auto && inputs.is_stream(),
            total,
            histogram: a.histogram,
            check: a.check,
            hints: a.check && !a.quiet && !a.common.json,
            explain: a.explain,
            hex: a.hex,
            from: match &a.from {
                Some(label) => FromArg::parse(label).map_err(ToolError::Usage)?,
                None => FromArg::Bytes,
            },
            json: a.common.json,
            engine,
            threads: a.threads.map(usize::from),
            color_out: a.common.color_for(&io::stdout()),
            color_err: a.common.color_for(&io::stderr()),
            line_buffered: a.common.line_buffered,
            inputs,
        })
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    fn config(args: &[&str]) -> Config {
        let a = CountArgs::try_parse_from(["utf8-count"].iter().chain(args)).unwrap();
        Config::try_from(&a).unwrap()
    }

    #[test]
    fn columns_as_wc() {
        let c = config(&[]).columns;
        assert!(c.lines && c.words && c.chars && c.bytes && c.errors && !c.longest);
        let c = config(&["-w"]).columns;
        assert!(c.words && !c.lines && !c.chars && !c.bytes && !c.errors);
        // -L alone shows only the longest line; with another column, both.
        assert_eq!(config(&["-L"]).columns.count(), 1);
        let c = config(&["-L", "-l"]).columns;
        assert!(c.longest && c.lines && !c.chars);
    }

    #[test]
    fn total_lines() {
        let each_total = |args: &[&str]| {
            let c = config(args);
            (c.each, c.total)
        };
        assert_eq!(each_total(&["a"]), (true, false));
        assert_eq!(each_total(&["a", "b"]), (true, true));
        assert_eq!(each_total(&["--total=always", "a"]), (true, true));
        assert_eq!(each_total(&["--total=only", "a", "b"]), (false, true));
        assert_eq!(each_total(&["--total=never", "a", "b"]), (true, false));
    }
}
