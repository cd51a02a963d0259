//! utf8-tools: `utf8-count` (and later `utf8-repair`, `utf8-grep`), and the plumbing they
//! share, written once:
//!
//! * [`args`]: [`args::CommonArgs`] (`--color`, `--json`, `--engine`) flattened into each
//!   tool's clap struct;
//! * [`input`]: `-`/no FILE as stdin, `--files0-from`, opening with one diagnostic per
//!   failure, reading in bounded chunks with lookahead;
//! * [`engine`]: the validators behind `--engine`, as one event stream;
//! * [`position`]: line and column of errors in a stream;
//! * [`mmap`]: read-only windows of large regular files (all the crate's `unsafe`);
//! * [`capture`]: output and diagnostics held in memory, replayed in input order;
//! * [`color`]: the named styles and writing a piece with or without them;
//! * [`report`]: the one formatter of errors, text and JSON, as DESIGN.md shows them;
//! * [`detect`]: which encoding a stream is in (`--from auto`, the legacy-encoding hint);
//! * [`labels`]: encoding labels, WHATWG's and glibc iconv's spellings;
//! * [`transcode`]: a file in another encoding read as the UTF-8 it decodes to, offsets
//!   mapped back to the file's (utf8-grep's and utf8-count's `--from`);
//! * [`mojibake`]: undoing UTF-8 decoded as windows-1252 or Latin-1 (`--fix-mojibake`);
//! * [`diag`], [`output`], [`exit`]: diagnostics, stdout with quiet closed pipes, and the
//!   0/1/2 exit status table;
//! * [`generate`]: the man pages and shell completions (`--generate KIND`, `cargo xtask man`).
//!
//! Each tool is a module with `command()` (its clap `Command`, for man pages and
//! completions) and `main()` (what its binary calls). Within it, `args` (clap) is what was
//! typed, `config` what it means (validated, plain values), `run` what is done with it
//! ([`output::run_tool`] joins the three); the shared modules above sit below all of them.
// Unsafe code is denied everywhere but in `mmap`, the one file-mapping module.
#![deny(unsafe_code)]

pub mod args;
pub mod capture;
pub mod color;
pub mod count;
pub mod detect;
pub mod diag;
pub mod engine;
pub mod exit;
pub mod generate;
pub mod grep;
pub mod input;
pub mod labels;
#[cfg(unix)]
pub mod longpath;
#[allow(unsafe_code)]
pub mod mmap;
pub mod mojibake;
pub mod output;
pub mod position;
pub mod repair;
pub mod report;
pub mod transcode;

/// The version `-V` prints and the man pages carry: the package version.
///
/// ```
/// assert_eq!(utf8_tools::VERSION, env!("CARGO_PKG_VERSION"));
/// ```
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The version `--version` prints: [`VERSION`] and, when built from a git checkout, the
/// commit, as in `0.1.0 (commit 1a2b3c4)` (set by the package's build script).
///
/// ```
/// assert!(utf8_tools::LONG_VERSION.starts_with(utf8_tools::VERSION));
/// ```
pub const LONG_VERSION: &str = env!("UTF8_TOOLS_LONG_VERSION");
