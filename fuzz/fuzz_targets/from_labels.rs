//! `utf8-repair --from LABEL` run in-process with any label: a WHATWG label (any case,
//! surrounding ASCII whitespace) or a glibc iconv spelling of one is accepted and decodes as
//! encoding_rs does (a byte order mark overriding it); ISO-8859-1's and US-ASCII's labels
//! decode as iconv does (every byte its code point; a byte over 0x7F one U+FFFD); `auto` is
//! accepted (a UTF-32 byte order mark refused); UTF-32 and the like are refused as not decoded here, anything else as unknown
//! (exit 2).
//!
//! Input: the label, a newline, then the bytes to decode.
// libfuzzer: -max_len=160 -detect_leaks=0
#![no_main]
#![forbid(unsafe_code)]

use encoding_rs::Encoding;
use libfuzzer_sys::fuzz_target;
use utf8_fuzz::tool::{arg, run, write_input};
use utf8_tools::labels::Label;

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
        if input.starts_with(b"\xFF\xFE\0\0") || input.starts_with(b"\0\0\xFE\xFF") {
            // A UTF-32 byte order mark: refused (nothing here decodes UTF-32).
            assert_eq!(out.status, 2, "{stderr}");
            assert!(stderr.contains("UTF-32"), "{stderr}");
            return;
        }
        assert!(out.status < 2, "{stderr}");
        assert!(std::str::from_utf8(&out.stdout).is_ok());
        return;
    }
    let enc = match utf8_tools::labels::resolve(label) {
        None => {
            assert_eq!(Encoding::for_label(label.as_bytes()), None, "{label:?}");
            assert_eq!(out.status, 2, "label {label:?}: {stderr}");
            assert!(out.stdout.is_empty());
            assert!(stderr.contains("unknown encoding"), "{stderr}");
            return;
        }
        Some(Label::Unsupported(_)) => {
            assert_eq!(out.status, 2, "label {label:?}: {stderr}");
            assert!(stderr.contains("is not decoded here"), "{stderr}");
            return;
        }
        Some(Label::Latin1 | Label::Ascii) => {
            // iconv's meanings: byte N is U+00NN, or a byte over 0x7F is an error.
            let ascii = utf8_tools::labels::resolve(label) == Some(Label::Ascii);
            let want: String = input
                .iter()
                .map(|&b| if ascii && b >= 0x80 { '\u{FFFD}' } else { char::from(b) })
                .collect();
            assert_eq!(out.status, 0, "label {label:?}: {stderr}");
            assert_eq!(String::from_utf8_lossy(&out.stdout), want, "--from {label:?}");
            return;
        }
        Some(Label::Whatwg(enc)) => enc,
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
