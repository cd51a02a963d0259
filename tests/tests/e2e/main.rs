//! End-to-end tests of the installed binaries: one integration binary, one module per tool.
//!
//! The binaries come from `UTF8_TOOLS_BIN_DIR` or beside this test executable; see
//! `utf8_tests::cli`.
#![forbid(unsafe_code)]

mod count;
mod count_many;
mod count_mapped;
mod count_words;
mod diagnostics_order;
mod encodings;
mod faults;
mod generate;
mod grep;
mod grep_backref;
mod grep_conventions;
mod grep_deep;
mod grep_options;
mod grep_parallel;
mod grep_pcre;
mod grep_pcre_generated;
mod grep_regex;
mod hostile;
mod iconv_habits;
mod legacy;
mod repair;
mod repair_backups;
mod repair_formats;
mod resources;
mod unsafe_audit;
mod util;
mod wc_conventions;
mod words;
