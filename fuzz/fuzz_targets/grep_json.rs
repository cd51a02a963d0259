//! `utf8-grep --json` run in-process on arbitrary bytes, in lines and in the file name:
//! every line parses as JSON (serde_json) in ripgrep's shape (`begin`, `match`, `end`,
//! `summary`); each `match` is a line the naive grep selects, its text repaired (one U+FFFD
//! per maximal subpart) and its `invalid` list such that the text with the listed bytes put
//! back is the line of the input; `submatches` are the naive matches in the repaired text;
//! the stats add up.
//!
//! Input: one control byte (bit 0 `-v`, bit 1 `-w`, bit 2 `-x`, bits 3-5 the file name's
//! length, from the start of the rest, `/` and NUL replaced), the pattern, a newline, the
//! text (searched with `-a` and `--from utf-8`, as its bytes).
// libfuzzer: -max_len=128 -detect_leaks=0
// sanitizer: none (safe code under test; `cargo xtask fuzz --asan` to run it with ASan)
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use utf8_fuzz::grep::{Naive, Opts, lines};
use utf8_fuzz::tool::{arg, run, work_dir};

/// The bytes that `text` (repaired, one U+FFFD per error) and `invalid` (offsets in the
/// original) stand for, the listed sequences taken from `original`.
fn unrepair(text: &str, invalid: &[Value], original: &[u8]) -> Vec<u8> {
    let mut back = Vec::with_capacity(original.len());
    let mut rest = text.as_bytes();
    let mut at = 0;
    for e in invalid {
        let off = e["offset"].as_u64().expect("offset") as usize;
        let len = e["len"].as_u64().expect("len") as usize;
        let valid = off.checked_sub(at).expect("invalid sorted");
        back.extend_from_slice(&rest[..valid]);
        rest = rest[valid..]
            .strip_prefix("\u{FFFD}".as_bytes())
            .expect("U+FFFD at an invalid sequence");
        back.extend_from_slice(&original[off..off + len]);
        at = off + len;
    }
    back.extend_from_slice(rest);
    back
}

fuzz_target!(|data: &[u8]| {
    let (ctl, rest) = utf8_fuzz::split_control::<1>(data);
    let c = ctl[0];
    let (invert, word, line) = (c & 1 != 0, c & 2 != 0, c & 4 != 0);
    let name_len = usize::from(c >> 3 & 7).min(rest.len());
    let (name, rest) = rest.split_at(name_len);
    let mut name: Vec<u8> = name
        .iter()
        .map(|&b| {
            if b == b'/' || b == 0 || b == b'\n' {
                b'_'
            } else {
                b
            }
        })
        .collect();
    name.insert(0, b'g');
    let mut parts = rest.splitn(2, |&b| b == b'\n');
    let Ok(pat) = std::str::from_utf8(parts.next().unwrap_or_default()) else {
        return;
    };
    let text = parts.next().unwrap_or_default();
    let path = work_dir().join("cwd").join(arg(&name));
    std::fs::write(&path, text).expect("input");
    // -F: the pattern is meant literally (the default is a basic regexp); --from utf-8: the
    // text is its bytes (by default a UTF-16 byte order mark would decode it).
    let mut args = vec![
        arg("utf8-grep"),
        arg("--json"),
        arg("-a"),
        arg("-F"),
        arg("--from"),
        arg("utf-8"),
    ];
    for (on, f) in [(invert, "-v"), (word, "-w"), (line, "-x")] {
        if on {
            args.push(arg(f));
        }
    }
    args.extend([arg("-e"), arg(pat), path.clone().into_os_string()]);
    let out = run(utf8_tools::grep::main_with, &args);
    std::fs::remove_file(&path).expect("remove input");
    assert!(out.status < 2, "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown = path.to_string_lossy().into_owned();

    let opts = Opts {
        ignore_case: false,
        word,
        line,
    };
    let naive = Naive::new(&[pat.to_string()], opts);
    let lines = lines(text);
    let mut offsets = Vec::new();
    let mut o = 0;
    for l in &lines {
        offsets.push(o);
        o += l.len() + 1;
    }
    let selected: Vec<usize> = (0..lines.len())
        .filter(|&i| naive.find(lines[i], 0).is_some() != invert)
        .collect();
    let msgs: Vec<Value> = std::str::from_utf8(&out.stdout)
        .expect("JSON is UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    if invert && !word && !line && pat.is_empty() {
        // Nothing can be selected: GNU grep reads no file, and prints nothing.
        assert_eq!((out.status, &out.stdout[..]), (1, &b""[..]));
        return;
    }
    let want_len = if selected.is_empty() {
        1
    } else {
        selected.len() + 3
    };
    assert_eq!(msgs.len(), want_len, "{msgs:?}");
    assert_eq!(out.status, u8::from(selected.is_empty()));
    let mut total = 0u64;
    if !selected.is_empty() {
        assert_eq!(msgs[0]["type"], "begin");
        assert_eq!(msgs[0]["data"]["path"]["text"], shown.as_str());
        for (m, &i) in msgs[1..].iter().zip(&selected) {
            assert_eq!(m["type"], "match", "{m}");
            let d = &m["data"];
            assert_eq!(d["path"]["text"], shown.as_str());
            assert_eq!(d["line_number"], i as u64 + 1);
            assert_eq!(d["absolute_offset"], offsets[i] as u64);
            let full = d["lines"]["text"].as_str().expect("lines.text");
            let terminated = offsets[i] + lines[i].len() < text.len();
            let repaired = if terminated {
                full.strip_suffix('\n')
                    .expect("a terminated line ends in \\n")
            } else {
                full
            };
            assert_eq!(repaired, String::from_utf8_lossy(lines[i]));
            let invalid = d["invalid"].as_array().expect("invalid");
            assert_eq!(unrepair(repaired, invalid, lines[i]), lines[i]);
            let want: Vec<_> = utf8_fuzz::errors(lines[i]);
            let got: Vec<_> = invalid
                .iter()
                .map(|e| {
                    (
                        e["offset"].as_u64().unwrap() as usize,
                        e["len"].as_u64().unwrap() as usize,
                        e["kind"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            let want: Vec<_> = want
                .iter()
                .map(|&(o, l, k)| (o, l, k.to_string()))
                .collect();
            assert_eq!(got, want, "invalid list of line {}", i + 1);
            let subs: Vec<(usize, usize, String)> = d["submatches"]
                .as_array()
                .expect("submatches")
                .iter()
                .map(|s| {
                    (
                        s["start"].as_u64().unwrap() as usize,
                        s["end"].as_u64().unwrap() as usize,
                        s["match"]["text"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            let want: Vec<_> = if invert {
                Vec::new()
            } else {
                naive
                    .only(repaired.as_bytes())
                    .into_iter()
                    .map(|(s, e)| (s, e, repaired[s..e].to_string()))
                    .collect()
            };
            assert_eq!(subs, want, "submatches of line {}", i + 1);
            total += subs.len() as u64;
        }
        let end = &msgs[selected.len() + 1];
        assert_eq!(end["type"], "end");
        assert_eq!(end["data"]["stats"]["matched_lines"], selected.len() as u64);
        assert_eq!(end["data"]["stats"]["matches"], total);
    }
    let s = &msgs.last().unwrap()["data"]["stats"];
    assert_eq!(msgs.last().unwrap()["type"], "summary");
    assert_eq!(s["searches"], 1);
    assert_eq!(s["searches_with_match"], u64::from(!selected.is_empty()));
    assert_eq!(s["matched_lines"], selected.len() as u64);
    assert_eq!(s["matches"], total);
});
