//! Text in other encodings (issue 20): `utf8-repair --from auto` and the hint, on real
//! translated text nobody here wrote — the msgstr strings of the system's message catalogs,
//! encoded into 19 legacy encodings by Python's codecs (`tests/legacy/samples.py`), 27
//! language/encoding pairs at 300 B, 3 KB and 20 KB — and on hand-made cases.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::util::{TestCommand, tempdir, write};

fn repair(dir: &Path) -> TestCommand {
    TestCommand::new("utf8-repair", dir)
}

const FRENCH_1252: &[u8] = b"caf\xE9 na\xEFve \xABquote\xBB, d\xE9j\xE0 vu\n";

#[test]
fn from_auto_decodes_and_says_so() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "notes.txt", FRENCH_1252);
    let o = repair(d)
        .args(["--from", "auto", "--report", "notes.txt"])
        .run();
    o.assert_code(0);
    assert_eq!(o.out(), "café naïve «quote», déjà vu\n");
    assert_eq!(
        o.err(),
        "utf8-repair: notes.txt: decoded as windows-1252 (detected)\n\
         utf8-repair: notes.txt: no errors\n"
    );
    let o = repair(d)
        .args(["--from", "auto", "--report=json", "notes.txt"])
        .run();
    let first: serde_json::Value = serde_json::from_str(o.err().lines().next().unwrap()).unwrap();
    assert_eq!(first["encoding"], "windows-1252");
    assert_eq!(first["decided_by"], "detected");
    // In place, and to a file.
    let o = repair(d)
        .args(["--from", "auto", "-o", "out.txt", "notes.txt"])
        .run();
    o.assert_code(0);
    assert_eq!(
        std::fs::read_to_string(d.join("out.txt")).unwrap(),
        "café naïve «quote», déjà vu\n"
    );
    repair(d)
        .args(["--from", "auto", "-i", "notes.txt"])
        .run()
        .assert_code(0);
    assert_eq!(
        std::fs::read_to_string(d.join("notes.txt")).unwrap(),
        "café naïve «quote», déjà vu\n"
    );
}

#[test]
fn from_auto_passes_utf8_through_byte_for_byte() {
    let dir = tempdir();
    let d = dir.path();
    let text = "déjà vu, 日本語, \u{FEFF}ok\n".as_bytes();
    let o = repair(d).args(["--from", "auto"]).stdin(text).run();
    o.assert_code(0);
    assert_eq!(o.out().as_bytes(), text);
    // With a BOM, and UTF-16 by its BOM.
    let o = repair(d)
        .args(["--from", "auto", "--report"])
        .stdin(b"\xEF\xBB\xBFabc")
        .run();
    assert_eq!(o.out(), "\u{FEFF}abc");
    assert!(
        o.err().contains("decoded as UTF-8 (byte order mark)"),
        "{}",
        o.err()
    );
    let o = repair(d)
        .args(["--from", "auto"])
        .stdin(b"\xFF\xFEa\0\xE9\0")
        .run();
    assert_eq!(o.out(), "aé");
    // Damaged UTF-8 is repaired as UTF-8, not decoded as a legacy encoding.
    let o = repair(d)
        .args(["--from", "auto", "--report"])
        .stdin(
            "déjà vu \u{e9}t\u{e9}\n"
                .as_bytes()
                .iter()
                .copied()
                .chain([0xFF])
                .collect::<Vec<_>>(),
        )
        .run();
    assert_eq!(o.out(), "déjà vu été\n\u{FFFD}");
    assert!(
        o.err().contains("decoded as UTF-8 (mostly valid UTF-8)"),
        "{}",
        o.err()
    );
}

#[test]
fn hint_names_the_encoding_on_stderr_only() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "notes.txt", FRENCH_1252);
    let o = repair(d).args(["notes.txt"]).run();
    o.assert_code(0);
    assert_eq!(
        o.out(),
        "caf\u{FFFD} na\u{FFFD}ve \u{FFFD}quote\u{FFFD}, d\u{FFFD}j\u{FFFD} vu\n"
    );
    assert_eq!(
        o.err(),
        "utf8-repair: notes.txt: this looks like windows-1252 text; try --from windows-1252\n"
    );
    // --quiet, --from, and damaged UTF-8: no hint.
    assert_eq!(repair(d).args(["-q", "notes.txt"]).run().err(), "");
    let o = repair(d).args(["--from", "latin1", "notes.txt"]).run();
    assert_eq!(o.err(), "");
    let o = repair(d).stdin(b"d\xC3\xA9j\xC3\xA0 vu, caf\xE9\n").run();
    assert_eq!(o.err(), "");
    // --check names the first error, and the hint follows it.
    let o = repair(d).args(["--check", "notes.txt"]).run();
    o.assert_code(1);
    let err = o.err();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(lines[1].ends_with("try --from windows-1252"), "{err}");
}

/// The samples of `tests/legacy/samples.py`, or `None` (with a message) when Python or the
/// system's message catalogs are missing.
fn samples(dir: &Path) -> Option<Vec<(String, String, usize)>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("legacy/samples.py");
    let out = Command::new("python3").arg(&script).arg(dir).output();
    match out {
        Ok(o) if o.status.success() => {}
        other => {
            eprintln!("skipping: python3 {} failed: {other:?}", script.display());
            return None;
        }
    }
    let mut v = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(stem) = name.strip_suffix(".in") {
            let parts: Vec<&str> = stem.split('.').collect();
            if let [lang, enc, size] = parts[..] {
                v.push((lang.to_string(), enc.to_string(), size.parse().unwrap()));
            }
        }
    }
    v.sort();
    if v.len() < 27 {
        eprintln!(
            "skipping: only {} samples (message catalogs missing?)",
            v.len()
        );
        return None;
    }
    Some(v)
}

/// The targets on the catalog samples: `--from auto` restores at least 90% byte
/// for byte; the hint names windows-1252, windows-1251, Shift_JIS, GBK, EUC-KR and
/// windows-1253 text and never appears on damaged UTF-8.
#[test]
fn catalog_samples_are_detected() {
    let dir = tempdir();
    let d = dir.path();
    let Some(samples) = samples(d) else { return };
    let mut restored = 0;
    let mut legacy = 0;
    let mut missed = Vec::new();
    let mut by_encoding: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for (lang, enc, size) in &samples {
        let input = format!("{lang}.{enc}.{size}.in");
        if enc == "utf8-damaged" {
            let o = repair(d).args([&input]).run();
            assert!(
                !o.err().contains("looks like"),
                "hint on damaged UTF-8 {input}: {}",
                o.err()
            );
            let o = repair(d).args(["--from", "auto", "--report", &input]).run();
            assert!(o.err().contains("decoded as UTF-8"), "{input}: {}", o.err());
            continue;
        }
        legacy += 1;
        let want = std::fs::read(d.join(format!("{lang}.{enc}.{size}.utf8"))).unwrap();
        let o = repair(d).args(["--from", "auto", &input]).run();
        let e = by_encoding.entry(enc.clone()).or_default();
        e.1 += 1;
        if o.out().as_bytes() == want {
            restored += 1;
            e.0 += 1;
        } else {
            let r = repair(d).args(["--from", "auto", "--report", &input]).run();
            missed.push(format!("{input}: {}", r.err().lines().next().unwrap_or("")));
        }
        let must_hint = [
            "windows-1252",
            "windows-1251",
            "Shift_JIS",
            "GBK",
            "EUC-KR",
            "windows-1253",
        ];
        if must_hint.contains(&enc.as_str()) {
            let o = repair(d).args([&input]).run();
            let want = format!("{input}: this looks like {enc} text; try --from {enc}");
            assert!(o.err().contains(&want), "{input}: {}", o.err());
        }
    }
    eprintln!("--from auto restored {restored} of {legacy} samples byte for byte");
    for (enc, (ok, n)) in &by_encoding {
        eprintln!("  {enc:14} {ok}/{n}");
    }
    for m in &missed {
        eprintln!("  missed {m}");
    }
    assert!(
        restored * 10 >= legacy * 9,
        "{restored} of {legacy}: {missed:#?}"
    );
}

#[test]
fn fix_mojibake_undoes_double_encoding_and_reports_it() {
    let dir = tempdir();
    let d = dir.path();
    // Single and double mojibake through windows-1252, one through Latin-1.
    let o = repair(d)
        .args(["--fix-mojibake", "--report"])
        .stdin("cafÃ© â€œquotesâ€\u{9D}\nÃƒÂ©tÃƒÂ©, Ð¿Ñ€Ð¸Ð²ÐµÑ‚\nclean: naïve «déjà» CAFÉ…\n")
        .run();
    o.assert_code(0);
    assert_eq!(
        o.out(),
        "café “quotes”\nété, привет\nclean: naïve «déjà» CAFÉ…\n"
    );
    let err = o.err();
    assert!(
        err.starts_with("utf8-repair: -: mojibake at byte 3: Ã© -> é\n"),
        "{err}"
    );
    assert!(err.contains("mojibake at byte 29: ÃƒÂ© -> é\n"), "{err}");
    assert!(
        err.contains("mojibake at byte 48: Ð¿Ñ€Ð¸Ð²ÐµÑ‚ -> привет\n"),
        "{err}"
    );
    // The summary counts the fixes it listed.
    let fixes = err
        .lines()
        .filter(|l| l.contains(": mojibake at byte "))
        .count();
    assert!(
        err.ends_with(&format!(
            "utf8-repair: -: no errors; {fixes} mojibake fixes\n"
        )),
        "{err}"
    );
    let o = repair(d)
        .args(["--fix-mojibake", "--report=json"])
        .stdin("cafÃ©\n")
        .run();
    let v: serde_json::Value = serde_json::from_str(o.err().lines().next().unwrap()).unwrap();
    assert_eq!(
        (&v["offset"], &v["before"], &v["after"]),
        (
            &serde_json::json!(3),
            &serde_json::json!("Ã©"),
            &serde_json::json!("é")
        )
    );
    // After --from: windows-1252 text whose UTF-8 was once decoded as windows-1252 too.
    let o = repair(d)
        .args(["--from", "windows-1252", "--fix-mojibake"])
        .stdin(b"caf\xC3\x83\xC2\xA9 caf\xE9\n")
        .run();
    assert_eq!(o.out(), "café café\n");
    // Without the flag nothing changes.
    let o = repair(d).stdin("cafÃ©\n").run();
    assert_eq!(o.out(), "cafÃ©\n");
}

/// `--fix-mojibake` on the catalog text, composed (NFC, as the catalogs have it) and
/// decomposed (NFD, as macOS writes it: `e` and U+0301 for `é`): it restores at least 95%
/// of single and double mojibake through windows-1252 and Latin-1 exactly, and changes no
/// clean sample. When ftfy is installed (`.ci/run` installs it with pip when it can), its
/// result is counted beside ours, and every sample ftfy restores, we restore too.
#[test]
fn fix_mojibake_on_catalog_samples() {
    let dir = tempdir();
    let d = dir.path();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("legacy/mojibake.py");
    let out = match Command::new("python3").arg(&script).arg(d).output() {
        Ok(o) if o.status.success() => o,
        other => {
            eprintln!("skipping: python3 {} failed: {other:?}", script.display());
            return;
        }
    };
    eprintln!("{}", String::from_utf8_lossy(&out.stdout).trim());
    let mut names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    // By form (nfc, nfd): samples, restored by us, restored by ftfy, clean samples.
    let mut counts: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    let (mut missed, mut ftfy_only) = (Vec::new(), Vec::new());
    for name in &names {
        // LANG.FORM.SIZE.clean, LANG.FORM.SIZE.VARIANT.in
        let form = name.split('.').nth(1).unwrap();
        let form = if form == "nfd" { "nfd" } else { "nfc" };
        let count = counts.entry(form).or_default();
        if name.ends_with(".clean") {
            let o = repair(d).args(["--fix-mojibake", name]).run();
            assert_eq!(
                o.out().as_bytes(),
                std::fs::read(d.join(name)).unwrap(),
                "{name} changed"
            );
            count[3] += 1;
        }
        let Some(stem) = name.strip_suffix(".in") else {
            continue;
        };
        let (sample, _variant) = stem.rsplit_once('.').unwrap();
        let want = std::fs::read(d.join(format!("{sample}.clean"))).unwrap();
        count[0] += 1;
        let ours = repair(d)
            .args(["--fix-mojibake", name])
            .run()
            .out()
            .as_bytes()
            == want;
        let ftfy = std::fs::read(d.join(format!("{stem}.ftfy"))).is_ok_and(|f| f == want);
        count[1] += usize::from(ours);
        count[2] += usize::from(ftfy);
        if !ours {
            missed.push(name.clone());
            if ftfy {
                ftfy_only.push(name.clone());
            }
        }
    }
    for (form, [total, ours, ftfy, clean]) in &counts {
        eprintln!(
            "{form}: --fix-mojibake restored {ours} of {total}; ftfy {ftfy}; \
             {clean} clean samples unchanged"
        );
    }
    let total: usize = counts.values().map(|c| c[0]).sum();
    if total == 0 {
        eprintln!("skipping: no samples (message catalogs missing?)");
        return;
    }
    for (form, [total, ours, ..]) in &counts {
        assert!(
            ours * 100 >= total * 95,
            "{form}: {ours} of {total}: {missed:?}"
        );
    }
    assert!(
        ftfy_only.is_empty(),
        "ftfy restores, we do not: {ftfy_only:?}"
    );
}

/// ftfy's own test cases (`tests/legacy/ftfy/`, copied from ftfy's
/// `tests/test-cases/*.json`): every negative case — text that looks like mojibake but is
/// not — comes out as ftfy leaves it (unchanged, or with only its C1 controls read as
/// windows-1252), except one that ftfy itself calls "sort of negative"; the
/// positive cases are counted (many are mojibake through other encodings, which
/// `--fix-mojibake` leaves alone by design).
#[test]
fn fix_mojibake_on_ftfy_test_cases() {
    // ftfy: "Sort of negative: this inconsistent mojibake could be Latin-1 or MacRoman, and
    // it was meant to be Latin-1" — we fix it to what was meant (`Dråber`).
    const FIXED_HERE: &[&str] = &["Bremer/Mccoy – DrÃ¥ber"];
    let dir = tempdir();
    let d = dir.path();
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("legacy/ftfy");
    let (mut negatives, mut positives, mut fixed) = (0, 0, 0);
    for file in ["negative.json", "synthetic.json", "in-the-wild.json"] {
        let text = std::fs::read_to_string(cases.join(file)).unwrap();
        let list: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
        for case in &list {
            let original = case["original"].as_str().unwrap();
            let want = case
                .get("fixed-encoding")
                .unwrap_or(&case["fixed"])
                .as_str()
                .unwrap();
            let label = case["label"].as_str().unwrap();
            let o = repair(d).args(["--fix-mojibake"]).stdin(original).run();
            o.assert_code(0);
            if label.to_lowercase().contains("negative") && !FIXED_HERE.contains(&original) {
                negatives += 1;
                assert_eq!(o.out(), want, "{file}: {label}");
            } else {
                positives += 1;
                fixed += usize::from(o.out() == want);
            }
        }
    }
    eprintln!(
        "ftfy's cases: {negatives} negative ones unchanged; {fixed} of {positives} others \
         fixed as ftfy fixes them"
    );
    assert!(negatives >= 35, "{negatives}");
}

#[test]
fn count_check_gives_the_same_hint() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "notes.txt", FRENCH_1252);
    let o = TestCommand::new("utf8-count", d)
        .args(["--check", "notes.txt"])
        .run();
    o.assert_code(1);
    let err = o.err();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("utf8-count: notes.txt:1:4: truncated at byte 3"),
        "{err}"
    );
    assert_eq!(
        lines[1],
        "utf8-count: notes.txt: this looks like windows-1252 text; try utf8-repair --from windows-1252"
    );
    // -q, --json and damaged UTF-8: no hint.
    let count = |args: &[&str]| TestCommand::new("utf8-count", d).args(args).run();
    assert_eq!(
        count(&["--check", "-q", "notes.txt"]).err().lines().count(),
        1
    );
    let o = count(&["--check", "--json", "notes.txt"]);
    assert_eq!(o.err(), "");
    assert_eq!(o.out().lines().count(), 1);
    write(d, "damaged.txt", b"d\xC3\xA9j\xC3\xA0 vu, caf\xE9\n");
    assert_eq!(count(&["--check", "damaged.txt"]).err().lines().count(), 1);
    // -q belongs to --check.
    count(&["-q", "notes.txt"]).assert_code(2);
}

/// A UTF-16 file with a byte order mark is invalid UTF-8 at byte 0; `--check` says what it
/// is and what to type, and what it says to type counts its text. A UTF-32 mark is named as
/// what no tool here decodes.
#[test]
fn count_check_names_a_byte_order_mark() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "notes.txt", b"\xFF\xFEh\0e\0l\0l\0o\0\n\0");
    write(d, "wide.txt", b"\xFF\xFE\0\0h\0\0\0\n\0\0\0");
    let count = |args: &[&str]| TestCommand::new("utf8-count", d).args(args).run();
    let o = count(&["--check", "notes.txt", "wide.txt"]);
    o.assert_code(1);
    assert_eq!(
        o.err(),
        "utf8-count: notes.txt:1:1: invalid-byte at byte 0 (FF): FF never appears in UTF-8\n\
         utf8-count: notes.txt: UTF-16LE text (byte order mark), not UTF-8; try utf8-count --from UTF-16LE\n\
         utf8-count: wide.txt:1:1: invalid-byte at byte 0 (FF): FF never appears in UTF-8\n\
         utf8-count: wide.txt: UTF-32LE text (byte order mark), not UTF-8, which no tool here decodes\n"
    );
    let o = count(&["--from", "UTF-16LE", "notes.txt"]);
    o.assert_code(0);
    assert_eq!(o.out(), " 1  1  6 14  0 notes.txt\n");
    assert_eq!(
        count(&["--check", "-q", "notes.txt"]).err().lines().count(),
        1
    );
}
