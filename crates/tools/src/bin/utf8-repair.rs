//! `utf8-repair`: repair invalid UTF-8 (or transcode to UTF-8); see `--help`.
#![forbid(unsafe_code)]
fn main() -> std::process::ExitCode {
    utf8_tools::repair::main()
}
