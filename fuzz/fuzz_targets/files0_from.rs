//! `--files0-from` lists: `utf8_tools::input::inputs` (the shared reader) against a naive
//! split, and `utf8-count --json --files0-from LIST` run in-process in a directory holding
//! a file `a`, a file named by the byte FF and a directory `d`: one JSON record per name
//! that opens (lossy path), counts right, one diagnostic per name that does not (a missing
//! file, a directory, an empty name), a total that adds up.
//!
//! Input: the list itself. Names with `/` and the name `-` (standard input) are skipped,
//! so that nothing outside the directory is opened.
// libfuzzer: -max_len=128 -detect_leaks=0
// sanitizer: none (safe code under test; `cargo xtask fuzz --asan` to run it with ASan)
#![no_main]
#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::sync::Once;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use utf8_fuzz::tool::{arg, run, work_dir, write_input};
use utf8_tools::input::{Input, inputs};

static SANDBOX: Once = Once::new();

fn sandbox() {
    SANDBOX.call_once(|| {
        let dir = work_dir().join("cwd");
        std::fs::write(dir.join("a"), "one two\n").unwrap();
        std::fs::write(dir.join(arg([0xFF])), b"\xFF\xFEx").unwrap();
        std::fs::create_dir_all(dir.join("d")).unwrap();
        std::env::set_current_dir(&dir).unwrap();
    });
}

/// (lines, chars, bytes, errors) of the files of the sandbox.
fn counts(name: &[u8]) -> Option<[u64; 4]> {
    match name {
        b"a" => Some([1, 8, 8, 0]),
        b"\xFF" => Some([0, 1, 3, 2]),
        b"d" | b"." | b".." => Some([0; 4]),
        _ => None,
    }
}

fuzz_target!(|data: &[u8]| {
    sandbox();
    // GNU wc (readtokens0): each NUL ends a name, a last name may lack its NUL; so a list
    // of one NUL names one empty name.
    let names: Vec<&[u8]> = if data.is_empty() {
        Vec::new()
    } else {
        data.strip_suffix(&[0])
            .unwrap_or(data)
            .split(|&b| b == 0)
            .collect()
    };
    if names.iter().any(|n| n.contains(&b'/') || *n == b"-") {
        return;
    }
    let list = write_input("list", data);

    // The shared reader: every name, or a usage error at the first empty one.
    match inputs(&[], Some(list.as_os_str())) {
        Ok(got) => {
            assert!(names.iter().all(|n| !n.is_empty()));
            let want: Vec<Input> = names
                .iter()
                .map(|n| Input::Path(PathBuf::from(arg(n))))
                .collect();
            assert_eq!(got, want);
        }
        Err(e) => {
            let first = names
                .iter()
                .position(|n| n.is_empty())
                .expect("an empty name");
            let msg = e.to_string();
            assert!(
                msg.contains(&format!(":{}: invalid zero-length file name", first + 1)),
                "{msg}"
            );
        }
    }

    let out = run(
        utf8_tools::count::main_with,
        &[
            arg("utf8-count"),
            arg("--json"),
            arg("--files0-from"),
            list.into_os_string(),
        ],
    );
    let records: Vec<Value> = std::str::from_utf8(&out.stdout)
        .expect("JSON is UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let (files, total): (Vec<&Value>, Vec<&Value>) =
        records.iter().partition(|r| !r["path"].is_null());
    let opened: Vec<&[u8]> = names
        .iter()
        .copied()
        .filter(|n| counts(n).is_some())
        .collect();
    assert_eq!(files.len(), opened.len(), "{records:?} for {names:?}");
    let mut sum = [0u64; 4];
    for (r, n) in files.iter().zip(&opened) {
        assert_eq!(r["path"], String::from_utf8_lossy(n).as_ref());
        let c = counts(n).unwrap();
        let got = ["lines", "chars", "bytes", "errors"].map(|k| r[k].as_u64().expect(k));
        assert_eq!(got, c, "{r}");
        for k in 0..4 {
            sum[k] += c[k];
        }
    }
    assert!(total.len() <= 1);
    if let Some(t) = total.first() {
        let got = ["lines", "chars", "bytes", "errors"].map(|k| t[k].as_u64().expect(k));
        assert_eq!(got, sum, "{t}");
    }
    let problems = names
        .iter()
        .filter(|n| counts(n).is_none_or(|c| c == [0; 4]) || n.is_empty())
        .count();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), problems, "{stderr} for {names:?}");
    assert_eq!(out.status == 0, problems == 0, "{stderr}");
});
