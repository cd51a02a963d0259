//! `utf8-grep`: search for regular expressions or fixed strings in UTF-8 text on raw bytes;
//! see `--help`.
#![forbid(unsafe_code)]
fn main() -> std::process::ExitCode {
    utf8_tools::grep::main()
}
