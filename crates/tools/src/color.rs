//! The one module for colour: the styles the tools use, named once as [`anstyle::Style`]
//! values, and how a piece of output is written with or without them.
//!
//! Whether to colour is decided elsewhere ([`crate::args::CommonArgs::color_for`], which
//! honours `--color`, `NO_COLOR` and a stream that is not a terminal); this module only
//! writes. A style renders as one SGR sequence in one of two [`Flavor`]s, because the
//! escapes are part of what the tests and users see: utf8-count and utf8-repair write
//! `ESC[1;31m … ESC[0m`, utf8-grep writes GNU grep's default `GREP_COLORS` sequences
//! (`ESC[01;31mESC[K … ESC[mESC[K`), which anstyle's own rendering (one sequence per
//! attribute) does not produce.
//!
//! ```
//! use utf8_tools::color::ERROR_KIND;
//! assert_eq!(ERROR_KIND.paint(true, "surrogate").to_string(), "\x1b[1;31msurrogate\x1b[0m");
//! assert_eq!(ERROR_KIND.paint(false, "surrogate").to_string(), "surrogate");
//! ```

use std::fmt;
use std::io::Write as _;

use anstyle::{Ansi256Color, AnsiColor, Color, Effects, Style};

/// How a style's sequences are spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// Plain SGR: `ESC[1;31m` to start, `ESC[0m` to end.
    Sgr,
    /// GNU grep's: two-digit attributes, each sequence followed by `ESC[K` (erase to the end
    /// of the line, so a background does not bleed), `ESC[mESC[K` to end.
    Grep,
}

/// A named style and the flavor it is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint {
    /// What the piece looks like.
    pub style: Style,
    /// How the sequences are spelled.
    pub flavor: Flavor,
}

const fn fg(color: AnsiColor) -> Style {
    Style::new().fg_color(Some(Color::Ansi(color)))
}

/// The kind of an error in utf8-count's and utf8-repair's text reports: bold red.
pub const ERROR_KIND: Paint = Paint::new(fg(AnsiColor::Red).bold(), Flavor::Sgr);
/// A match in utf8-grep (GNU grep's `ms`/`mc`): bold red.
pub const GREP_MATCH: Paint = Paint::new(fg(AnsiColor::Red).bold(), Flavor::Grep);
/// A file name in utf8-grep (GNU grep's `fn`): magenta.
pub const GREP_FILE_NAME: Paint = Paint::new(fg(AnsiColor::Magenta), Flavor::Grep);
/// A line number, column or byte offset in utf8-grep (GNU grep's `ln`/`bn`): green.
pub const GREP_NUMBER: Paint = Paint::new(fg(AnsiColor::Green), Flavor::Grep);
/// A separator (`:`, `-`, `--`) in utf8-grep (GNU grep's `se`): cyan.
pub const GREP_SEPARATOR: Paint = Paint::new(fg(AnsiColor::Cyan), Flavor::Grep);

/// The SGR parameter of each effect this module writes, in the order they are written.
const EFFECT_CODES: [(Effects, u8); 8] = [
    (Effects::BOLD, 1),
    (Effects::DIMMED, 2),
    (Effects::ITALIC, 3),
    (Effects::UNDERLINE, 4),
    (Effects::BLINK, 5),
    (Effects::INVERT, 7),
    (Effects::HIDDEN, 8),
    (Effects::STRIKETHROUGH, 9),
];

impl Paint {
    /// A style written in a flavor.
    pub const fn new(style: Style, flavor: Flavor) -> Paint {
        Paint { style, flavor }
    }

    /// The sequence that starts the style.
    ///
    /// ```
    /// use utf8_tools::color::{GREP_MATCH, GREP_NUMBER};
    /// assert_eq!(GREP_MATCH.on().to_string(), "\x1b[01;31m\x1b[K");
    /// assert_eq!(GREP_NUMBER.on().to_string(), "\x1b[32m\x1b[K");
    /// ```
    pub fn on(self) -> impl fmt::Display + Copy {
        On(self)
    }

    /// The sequence that ends the style.
    ///
    /// ```
    /// use utf8_tools::color::{ERROR_KIND, GREP_MATCH};
    /// assert_eq!(ERROR_KIND.off(), "\x1b[0m");
    /// assert_eq!(GREP_MATCH.off(), "\x1b[m\x1b[K");
    /// ```
    pub fn off(self) -> &'static str {
        match self.flavor {
            Flavor::Sgr => "\x1b[0m",
            Flavor::Grep => "\x1b[m\x1b[K",
        }
    }

    /// `piece` in this style when `color` is on, plain otherwise, for `write!`/`format!`.
    pub fn paint<T: fmt::Display>(self, color: bool, piece: T) -> Painted<T> {
        Painted {
            paint: self,
            color,
            piece,
        }
    }

    /// Appends `piece` to `out`, in this style when `color` is on, plain otherwise (for
    /// output that is bytes, not text).
    ///
    /// ```
    /// use utf8_tools::color::GREP_SEPARATOR;
    /// let mut out = Vec::new();
    /// GREP_SEPARATOR.write_bytes(true, &mut out, b":");
    /// GREP_SEPARATOR.write_bytes(false, &mut out, b"-");
    /// assert_eq!(out, b"\x1b[36m\x1b[K:\x1b[m\x1b[K-");
    /// ```
    pub fn write_bytes(self, color: bool, out: &mut Vec<u8>, piece: &[u8]) {
        if color {
            // Writing to a Vec cannot fail.
            let _ = write!(out, "{}", self.on());
            out.extend_from_slice(piece);
            out.extend_from_slice(self.off().as_bytes());
        } else {
            out.extend_from_slice(piece);
        }
    }
}

/// The opening sequence of a [`Paint`].
#[derive(Clone, Copy)]
struct On(Paint);

impl fmt::Display for On {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Paint { style, flavor } = self.0;
        let mut sep = "";
        f.write_str("\x1b[")?;
        for (effect, code) in EFFECT_CODES {
            if style.get_effects().contains(effect) {
                match flavor {
                    Flavor::Sgr => write!(f, "{sep}{code}")?,
                    Flavor::Grep => write!(f, "{sep}{code:02}")?,
                }
                sep = ";";
            }
        }
        for (color, base) in [(style.get_fg_color(), 30), (style.get_bg_color(), 40)] {
            match color {
                None => {}
                Some(Color::Ansi(c)) => {
                    let i = Ansi256Color::from_ansi(c).index();
                    let code = if i < 8 { base + i } else { base + 60 + i - 8 };
                    write!(f, "{sep}{code}")?;
                }
                Some(Color::Ansi256(c)) => write!(f, "{sep}{};5;{}", base + 8, c.index())?,
                Some(Color::Rgb(c)) => {
                    write!(f, "{sep}{};2;{};{};{}", base + 8, c.r(), c.g(), c.b())?
                }
            }
            if color.is_some() {
                sep = ";";
            }
        }
        f.write_str("m")?;
        if flavor == Flavor::Grep {
            f.write_str("\x1b[K")?;
        }
        Ok(())
    }
}

/// A piece of output with its style, written by [`fmt::Display`]: see [`Paint::paint`].
#[derive(Clone, Copy, Debug)]
pub struct Painted<T> {
    paint: Paint,
    color: bool,
    piece: T,
}

impl<T: fmt::Display> fmt::Display for Painted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The piece gets the formatter's width and flags, inside the colour.
        if self.color {
            self.paint.on().fmt(f)?;
            self.piece.fmt(f)?;
            f.write_str(self.paint.off())
        } else {
            self.piece.fmt(f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sequences the tools wrote by hand before this module, byte for byte.
    #[test]
    fn sequences_are_the_ones_written_before() {
        assert_eq!(ERROR_KIND.on().to_string(), "\x1b[1;31m");
        assert_eq!(ERROR_KIND.off(), "\x1b[0m");
        assert_eq!(GREP_MATCH.on().to_string(), "\x1b[01;31m\x1b[K");
        assert_eq!(GREP_FILE_NAME.on().to_string(), "\x1b[35m\x1b[K");
        assert_eq!(GREP_NUMBER.on().to_string(), "\x1b[32m\x1b[K");
        assert_eq!(GREP_SEPARATOR.on().to_string(), "\x1b[36m\x1b[K");
        assert_eq!(GREP_SEPARATOR.off(), "\x1b[m\x1b[K");
    }

    #[test]
    fn other_colors_render_as_sgr() {
        let bright_bg = Style::new()
            .bg_color(Some(Color::Ansi(AnsiColor::BrightBlue)))
            .underline();
        assert_eq!(
            Paint::new(bright_bg, Flavor::Sgr).on().to_string(),
            "\x1b[4;104m"
        );
        let rgb = Style::new().fg_color(Some(Color::Rgb(anstyle::RgbColor(1, 2, 3))));
        assert_eq!(
            Paint::new(rgb, Flavor::Sgr).on().to_string(),
            "\x1b[38;2;1;2;3m"
        );
        let idx = Style::new().fg_color(Some(Color::Ansi256(Ansi256Color(200))));
        assert_eq!(
            Paint::new(idx, Flavor::Sgr).on().to_string(),
            "\x1b[38;5;200m"
        );
    }

    #[test]
    fn padding_applies_to_the_piece() {
        assert_eq!(format!("{:<4}|", ERROR_KIND.paint(false, "ab")), "ab  |");
        assert_eq!(
            format!("{:<4}|", ERROR_KIND.paint(true, "ab")),
            "\x1b[1;31mab  \x1b[0m|"
        );
    }

    #[test]
    fn plain_when_off() {
        assert_eq!(GREP_MATCH.paint(false, 42).to_string(), "42");
        let mut out = Vec::new();
        GREP_MATCH.write_bytes(false, &mut out, b"\xFFx");
        assert_eq!(out, b"\xFFx");
    }
}
