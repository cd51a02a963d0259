//! `utf8-count`: count lines, characters, bytes and invalid sequences; see `--help`.
#![forbid(unsafe_code)]
fn main() -> std::process::ExitCode {
    utf8_tools::count::main()
}
