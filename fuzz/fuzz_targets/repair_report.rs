//! `utf8-repair --report[=json]` run in-process on arbitrary bytes (the file name too):
//! each JSON line parses (serde_json) and names one maximal subpart of the naive reference
//! with its path, offset, len, kind, bytes, line and column; the text report says the same
//! in DESIGN.md's format; and the repaired text with the listed errors put back where their
//! U+FFFD stand reproduces the input byte for byte.
//!
//! Input: one control byte (bit 0: JSON; bits 1-3: the file name's length, taken from the
//! start of the rest, `/` and NUL replaced), then the bytes to repair.
// libfuzzer: -max_len=128 -detect_leaks=0
// sanitizer: none (safe code under test; `cargo xtask fuzz --asan` to run it with ASan)
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use utf8_fuzz::Unit;
use utf8_fuzz::tool::{arg, run, work_dir};

/// Line and column (1-based, every unit counts one column) of each error of `data`, in
/// order: one pass over its units (a newline is always a unit of its own).
fn positions(data: &[u8]) -> Vec<(u64, u64)> {
    let (mut line, mut column) = (1, 1);
    let mut out = Vec::new();
    for (_, u) in utf8_fuzz::units(data) {
        if let Unit::Error(..) = u {
            out.push((line, column));
        }
        if u == Unit::Char('\n', 1) {
            (line, column) = (line + 1, 1);
        } else {
            column += 1;
        }
    }
    out
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fuzz_target!(|data: &[u8]| {
    let (ctl, rest) = utf8_fuzz::split_control::<1>(data);
    let json = ctl[0] & 1 == 1;
    let name_len = usize::from(ctl[0] >> 1 & 7).min(rest.len());
    let (name, input) = rest.split_at(name_len);
    let mut name: Vec<u8> = name
        .iter()
        .map(|&b| match b {
            b'/' | 0 => b'_',
            // A newline in a name splits a text report's line (as in GNU tools' messages).
            b'\n' if !json => b'_',
            _ => b,
        })
        .collect();
    name.insert(0, b'f');
    let dir = work_dir().join("cwd");
    let path = dir.join(arg(&name));
    std::fs::write(&path, input).expect("input");
    let report = if json { "--report=json" } else { "--report" };
    let out = run(
        utf8_tools::repair::main_with,
        &[
            arg("utf8-repair"),
            arg("-q"),
            // The input is UTF-8 to repair whatever it starts with (a UTF-16 byte order mark
            // or NUL bytes would make it converted or suspect).
            arg("--from=utf-8"),
            arg(report),
            path.clone().into_os_string(),
        ],
    );
    std::fs::remove_file(&path).expect("remove input");
    let shown = path.to_string_lossy().into_owned();

    let errors = utf8_fuzz::errors(input);
    assert_eq!(out.status, 0, "{out:?}");
    let stdout = std::str::from_utf8(&out.stdout).expect("repaired text is UTF-8");
    let stderr = std::str::from_utf8(&out.stderr).expect("reports are UTF-8");
    let lines: Vec<&str> = stderr.lines().collect();
    if json {
        assert_eq!(lines.len(), errors.len(), "{stderr}");
    } else {
        // One line per error, then a summary.
        assert_eq!(lines.len(), errors.len() + 1, "{stderr}");
    }
    let positions = positions(input);
    assert_eq!(positions.len(), errors.len());
    for ((l, &(off, len, kind)), &(line, column)) in lines.iter().zip(&errors).zip(&positions) {
        let bytes = hex(&input[off..off + len]);
        if json {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            assert_eq!(v["path"], shown.as_str(), "{l}");
            assert_eq!(v["offset"], off as u64, "{l}");
            assert_eq!(v["len"], len as u64, "{l}");
            assert_eq!(v["kind"], kind, "{l}");
            assert_eq!(v["bytes"], bytes.as_str(), "{l}");
            assert_eq!(v["line"], line, "{l}");
            assert_eq!(v["column"], column, "{l}");
        } else {
            let want =
                format!("utf8-repair: {shown}:{line}:{column}: {kind} at byte {off} ({bytes})");
            assert!(l.starts_with(&want), "{l:?} does not start with {want:?}");
        }
    }
    if !json {
        let last = lines.last().unwrap();
        let want = match errors.len() {
            0 => format!("utf8-repair: {shown}: no errors"),
            n => format!("utf8-repair: {shown}: {n} error"),
        };
        assert!(last.starts_with(&want), "{last:?}");
    }

    // The repaired text plus the listed errors give the input back.
    let mut back = Vec::new();
    let mut at = 0; // in the input
    let mut rest = stdout.as_bytes();
    for &(off, len, _) in &errors {
        let valid = &input[at..off];
        assert!(rest.starts_with(valid), "valid text before {off}");
        rest = &rest[valid.len()..];
        back.extend_from_slice(valid);
        rest = rest
            .strip_prefix("\u{FFFD}".as_bytes())
            .expect("a U+FFFD per error");
        back.extend_from_slice(&input[off..off + len]);
        at = off + len;
    }
    assert_eq!(rest, &input[at..]);
    back.extend_from_slice(rest);
    assert_eq!(back, input);
});
