//! The man page of a binary: clap_mangen renders the title, NAME, SYNOPSIS and OPTIONS from
//! the same clap `command()` the binary parses with; this module adds DESCRIPTION (the
//! command's about text and its `after_help` prose), EXIT STATUS (0/1/2), ERROR KINDS (from
//! [`utf8_codec::ErrorKind::ALL`]), ENCODINGS (the labels of `--from`, from
//! [`crate::labels::groups`]), ENVIRONMENT, EXAMPLES and SEE ALSO.

use std::io;

use clap_mangen::Man;
use roff::{Roff, bold, italic, roman};
use utf8_codec::ErrorKind;

/// The names of the shipped binaries, in name order.
pub const TOOLS: [&str; 3] = ["utf8-count", "utf8-grep", "utf8-repair"];

/// The binary a page is of, by its command's name.
#[derive(Clone, Copy)]
enum Tool {
    Count,
    Grep,
    Repair,
}

impl Tool {
    fn of(name: &str) -> io::Result<Tool> {
        match name {
            "utf8-count" => Ok(Tool::Count),
            "utf8-grep" => Ok(Tool::Grep),
            "utf8-repair" => Ok(Tool::Repair),
            _ => Err(io::Error::other(format!("no man page for {name}"))),
        }
    }
}

/// What each page says beyond the clap definitions.
struct Extra {
    /// (status, meaning) for EXIT STATUS.
    exit: [(&'static str, &'static str); 3],
    /// (what it does, the command line) for EXAMPLES.
    examples: &'static [(&'static str, &'static str)],
}

fn extra(tool: Tool) -> Extra {
    match tool {
        Tool::Count => Extra {
            exit: [
                (
                    "0",
                    "Success: the counts were written (and, under --check, every input is valid UTF-8).",
                ),
                ("1", "Under --check, an input is not valid UTF-8."),
                (
                    "2",
                    "Trouble: a usage error, an unreadable input or a failed write.",
                ),
            ],
            examples: &[
                (
                    "Count lines, words, characters, bytes and invalid sequences of a file:",
                    "utf8-count notes.txt",
                ),
                (
                    "Check that files are valid UTF-8, naming the first error of each invalid one:",
                    "utf8-count --check *.txt",
                ),
                (
                    "Explain a byte sequence given in hex, one line per scalar value or error:",
                    "echo 'F2 80 9F A2 ED A0 80' | utf8-count --hex --explain",
                ),
                (
                    "Sequence lengths and errors by kind, as JSON lines:",
                    "utf8-count --histogram --json data.csv",
                ),
                (
                    "Count files in any encoding as the text they decode to, each file's encoding detected:",
                    "utf8-count --from auto --json *.txt",
                ),
            ],
        },
        Tool::Grep => Extra {
            exit: [
                ("0", "A line was selected."),
                ("1", "No line was selected."),
                (
                    "2",
                    "Trouble: a usage error, an invalid pattern, an unreadable input or a failed write (unless -q found a match).",
                ),
            ],
            examples: &[
                (
                    "Print the lines of a file that hold a word, with line numbers:",
                    "utf8-grep -n caf\u{e9} menu.txt",
                ),
                (
                    "Search a tree, Markdown files only, whole words, ignoring case:",
                    "utf8-grep -r -i -w --include '*.md' na\u{ef}ve .",
                ),
                (
                    "Count matching lines and report invalid UTF-8 in the searched text:",
                    "utf8-grep -c --invalid=report ERROR app.log",
                ),
                (
                    "Several patterns, one per line of a file, with the matches only:",
                    "utf8-grep -o -f words.txt book.txt",
                ),
                (
                    "List the lines that are not well-formed UTF-8, with their numbers:",
                    "utf8-grep -naxv '.*' data.txt",
                ),
                (
                    "Search a tree of files in mixed encodings (UTF-8, UTF-16, GBK, Shift_JIS, windows-1252, ...), byte offsets counted in each file:",
                    "utf8-grep -r --from auto -b donn\u{e9}es docs",
                ),
            ],
        },
        Tool::Repair => Extra {
            exit: [
                ("0", "Success, whether or not anything was repaired."),
                ("1", "Under --check, an input needs repair."),
                (
                    "2",
                    "Trouble: a usage error, an unreadable input, a failed write or a refused file.",
                ),
            ],
            examples: &[
                (
                    "Replace every invalid sequence with U+FFFD:",
                    "utf8-repair broken.txt > fixed.txt",
                ),
                (
                    "Repair files in place, atomically, keeping a backup of each changed file:",
                    "utf8-repair --in-place --suffix=.orig *.txt",
                ),
                (
                    "Check without writing (exit status 1 when a file needs repair):",
                    "utf8-repair --check *.txt",
                ),
                (
                    "Repair, listing every error with its offset and kind as JSON lines:",
                    "utf8-repair --report=json notes.txt > fixed.txt",
                ),
                (
                    "Escape invalid bytes as \\xNN instead of replacing them:",
                    "utf8-repair --action escape data.bin",
                ),
                (
                    "Transcode a legacy file to UTF-8:",
                    "utf8-repair --from windows-1252 -o out.txt legacy.txt",
                ),
                (
                    "Detect each file's encoding (a byte order mark, UTF-8, or chardetng's \
                     guess over the first MiB) and say which was chosen:",
                    "utf8-repair --from auto --report old/*.txt > all.txt",
                ),
                (
                    "Undo UTF-8 that was decoded as windows-1252 or Latin-1 (mojibake), \
                     listing each fix:",
                    "utf8-repair --fix-mojibake --report export.csv > fixed.csv",
                ),
            ],
        },
    }
}

/// The preamble roff's writer puts before every rendering; it is kept once, at the top.
const PREAMBLE: &str = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";

/// The man page of one tool, as roff source, dated `date` (`YYYY-MM-DD`).
///
/// # Errors
///
/// Never in practice: rendering writes to memory.
pub fn page(cmd: clap::Command, date: &str) -> io::Result<String> {
    let name = cmd.get_name().to_owned();
    let tool = Tool::of(&name)?;
    let man = Man::new(cmd.clone())
        .source(format!("utf8-tools {}", crate::VERSION))
        .manual("utf8-tools manual")
        .date(date);
    let mut out = String::from(PREAMBLE);
    let mut add = |render: &dyn Fn(&mut Vec<u8>) -> io::Result<()>| -> io::Result<()> {
        let mut buf = Vec::new();
        render(&mut buf)?;
        let text = String::from_utf8(buf).map_err(io::Error::other)?;
        out.push_str(text.strip_prefix(PREAMBLE).unwrap_or(&text));
        Ok(())
    };
    add(&|w| man.render_title(w))?;
    add(&|w| man.render_name_section(w))?;
    add(&|w| man.render_synopsis_section(w))?;
    add(&|w| description(&cmd).to_writer(w))?;
    add(&|w| man.render_options_section(w))?;
    add(&|w| sections(tool, &name).to_writer(w))?;
    Ok(out)
}

/// DESCRIPTION: the long about text, then the `after_help` paragraphs but the exit status
/// (which has its own section). Lines of a paragraph are joined so that man fills them.
fn description(cmd: &clap::Command) -> Roff {
    let mut roff = Roff::new();
    roff.control("SH", ["DESCRIPTION"]);
    let about = cmd
        .get_long_about()
        .or_else(|| cmd.get_about())
        .map(|s| s.to_string());
    let after = cmd
        .get_after_long_help()
        .or_else(|| cmd.get_after_help())
        .map(|s| s.to_string());
    let mut first = true;
    for text in [about, after].into_iter().flatten() {
        for para in text.split("\n\n") {
            let para = para.split_whitespace().collect::<Vec<_>>().join(" ");
            if para.is_empty() || para.starts_with("Exit status") {
                continue;
            }
            if !first {
                roff.control("PP", []);
            }
            let end = if first && !para.ends_with('.') {
                "."
            } else {
                ""
            };
            first = false;
            roff.text([roman(para + end)]);
        }
    }
    roff
}

/// EXIT STATUS, ERROR KINDS, ENVIRONMENT, EXAMPLES and SEE ALSO.
fn sections(tool: Tool, name: &str) -> Roff {
    let extra = extra(tool);
    let mut roff = Roff::new();

    roff.control("SH", ["EXIT STATUS"]);
    for (status, meaning) in extra.exit {
        roff.control("TP", []);
        roff.text([bold(status)]);
        roff.text([roman(meaning)]);
    }

    roff.control("SH", ["ERROR KINDS"]);
    roff.text([roman(
        "Ill-formed input is split into maximal subparts (the Unicode Standard, chapter 3, \
         \"U+FFFD Substitution of Maximal Subparts\", as Rust, WHATWG and CPython decode). \
         Each maximal subpart is one error, reported on standard error as",
    )]);
    roff.control("PP", []);
    roff.control("RS", ["4"]);
    roff.text([
        italic("PROGRAM"),
        roman(": "),
        italic("PATH"),
        roman(":"),
        italic("LINE"),
        roman(":"),
        italic("COLUMN"),
        roman(": "),
        italic("KIND"),
        roman(" at byte "),
        italic("OFFSET"),
        roman(" ("),
        italic("SUBPART"),
        roman("): explanation"),
    ]);
    roff.control("RE", []);
    roff.control("PP", []);
    roff.text([roman(
        "or as JSON lines with --json. OFFSET is 0-based, LINE and COLUMN are 1-based, \
         SUBPART is the bytes in hexadecimal. KIND is one of these stable names:",
    )]);
    for kind in ErrorKind::ALL {
        roff.control("TP", []);
        roff.text([bold(kind.as_str())]);
        roff.text([roman(capitalize(kind.description()) + ".")]);
    }

    roff.control("SH", ["ENCODINGS"]);
    roff.text([roman(
        "--from takes any of these labels, in any case: WHATWG's (the labels of the web, \
         decoded by encoding_rs) and glibc iconv's spellings. ISO-8859-1 and US-ASCII mean \
         what iconv means; windows-1252 and --from auto read 0x80-0x9F as the web does \
         (0x80 is the euro sign). utf8-repair --list prints the same table.",
    )]);
    for (encoding, labels) in crate::labels::groups() {
        roff.control("TP", []);
        roff.text([bold(encoding)]);
        roff.text([roman(labels.join(", "))]);
    }

    roff.control("SH", ["ENVIRONMENT"]);
    roff.control("TP", []);
    roff.text([bold("NO_COLOR")]);
    roff.text([roman(
        "When set and not empty, output is not colored unless --color asks for it.",
    )]);

    roff.control("SH", ["EXAMPLES"]);
    for (what, line) in extra.examples {
        roff.control("PP", []);
        roff.text([roman(*what)]);
        roff.control("PP", []);
        roff.control("RS", ["4"]);
        roff.control("nf", []);
        roff.text([bold(*line)]);
        roff.control("fi", []);
        roff.control("RE", []);
    }

    roff.control("SH", ["SEE ALSO"]);
    let mut see: Vec<String> = TOOLS
        .iter()
        .filter(|n| **n != name)
        .map(|n| format!("{n}(1)"))
        .collect();
    see.extend(
        match tool {
            Tool::Count => ["wc(1)", "isutf8(1)"],
            Tool::Grep => ["grep(1)", "rg(1)"],
            Tool::Repair => ["iconv(1)", "uconv(1)"],
        }
        .map(String::from),
    );
    roff.text([roman(see.join(", "))]);
    roff
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
