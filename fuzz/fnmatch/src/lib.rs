//! fnmatch(3) of the C library, with flags 0 (no `FNM_PATHNAME`, `FNM_PERIOD` or
//! `FNM_NOESCAPE`), as GNU grep calls it for `--include`, `--exclude` and `--exclude-dir`.
//! The process never calls setlocale, so the C library matches in the C locale: `?` and a
//! bracket expression take one byte.
#![deny(unsafe_code)]

use std::ffi::CStr;

/// Whether `name` matches the shell pattern `pattern`; `None` when fnmatch reports an
/// error (neither 0 nor `FNM_NOMATCH`).
///
/// ```
/// assert_eq!(utf8_fuzz_fnmatch::fnmatch(c"*.txt", c"a.txt"), Some(true));
/// assert_eq!(utf8_fuzz_fnmatch::fnmatch(c"[!a]", c"a"), Some(false));
/// ```
#[allow(unsafe_code)]
pub fn fnmatch(pattern: &CStr, name: &CStr) -> Option<bool> {
    // SAFETY: fnmatch reads the two NUL-terminated strings, which `CStr` guarantees are
    // valid and terminated for the duration of the call, and keeps no pointer to them.
    let r = unsafe { libc::fnmatch(pattern.as_ptr(), name.as_ptr(), 0) };
    match r {
        0 => Some(true),
        libc::FNM_NOMATCH => Some(false),
        _ => None,
    }
}
