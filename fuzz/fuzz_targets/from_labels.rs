//! `utf8-repair --from LABEL` run in-process with any label: a WHATWG label (any case,
//! surrounding ASCII whitespace) is accepted and decodes as encoding_rs does (a byte order
//! mark overriding it), `auto` too, anything else is a usage error (exit 2) naming it.
//!
//! Input: the label, a newline, then the bytes to decode.
// libfuzzer: -max_len=160 -detect_leaks=0
#![no_main]
#![forbid(unsafe_code)]

use encoding_rs::Encoding;
use libfuzzer_sys::fuzz_target;
use utf8_fuzz::tool::{arg, run, write_input};

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(2, |&b| b == b'\n');
    let label = parts.next().unwrap_or_default();
    let input = parts.next().unwrap_or_default();
    if label.contains(&0) {
        return; // no NUL in an argument
    }
    let path = write_input("input", input);
    let mut flag = b"--from=".to_vec();
    flag.extend_from_slice(label);
    let out = run(
        utf8_tools::repair::main_with,
        &[
            arg("utf8-repair"),
            arg("-q"),
            arg(&flag),
            path.into_os_string(),
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let Ok(label) = std::str::from_utf8(label) else {
        assert_eq!(out.status, 2, "a label that is not UTF-8: {stderr}");
        return;
    };
    if label.eq_ignore_ascii_case("auto") {
        assert!(out.status < 2, "{stderr}");
        assert!(std::str::from_utf8(&out.stdout).is_ok());
        return;
    }
    let Some(enc) = Encoding::for_label(label.as_bytes()) else {
        assert_eq!(out.status, 2, "label {label:?}: {stderr}");
        assert!(out.stdout.is_empty());
        assert!(stderr.contains("unknown encoding"), "{stderr}");
        return;
    };
    assert_eq!(out.status, 0, "label {label:?}: {stderr}");
    let want = if enc == encoding_rs::UTF_8 {
        String::from_utf8_lossy(input).into_owned()
    } else {
        enc.decode(input).0.into_owned()
    };
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        want,
        "--from {label:?} ({})",
        enc.name()
    );
});
