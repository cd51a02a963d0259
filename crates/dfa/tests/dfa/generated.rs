//! The committed DFA is a fresh build of the pattern (`cargo xtask gen-dfa --check`).

use std::path::Path;

use crate::build;

#[test]
fn generated_files_are_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Err(e) = build::check(root, utf8_dfa::UTF8_PATTERN) {
        panic!("{e}");
    }
}

#[test]
fn documented_sizes_are_the_embedded_ones() {
    let v = utf8_dfa::Validator::new();
    assert_eq!(build::reachable_states(v.dfa()), utf8_dfa::STATES);
    assert_eq!(
        v.dfa().byte_classes().alphabet_len(),
        utf8_dfa::BYTE_CLASSES + 1
    );
    assert_eq!(v.dfa().stride(), utf8_dfa::STRIDE);
    let fresh = build::stats(&build::build(utf8_dfa::UTF8_PATTERN).unwrap());
    assert_eq!(
        (
            fresh.states,
            fresh.byte_classes,
            fresh.stride,
            fresh.blob_len
        ),
        (
            utf8_dfa::STATES,
            utf8_dfa::BYTE_CLASSES,
            utf8_dfa::STRIDE,
            utf8_dfa::BLOB_LEN
        )
    );
    let docs = include_str!("../../src/lib.rs");
    for fact in [
        format!("| {} ([`STATES`])", utf8_dfa::STATES),
        format!("| {} ([`BYTE_CLASSES`])", utf8_dfa::BYTE_CLASSES),
        format!("| {} ([`STRIDE`])", utf8_dfa::STRIDE),
        format!(
            "| {} bytes per byte order ([`BLOB_LEN`])",
            utf8_dfa::BLOB_LEN
        ),
    ] {
        assert!(docs.contains(&fact), "the crate docs should say {fact:?}");
    }
}

#[test]
fn pattern_is_the_nine_rows() {
    let joined = format!("(?-u:(?:{})*)", utf8_dfa::TABLE_3_7_ROWS.join("|"));
    assert_eq!(joined, utf8_dfa::UTF8_PATTERN);
}

/// The check itself notices a stale or missing file (on a copy, never on the real files).
#[test]
fn generated_check_fails_on_a_difference() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gen-dfa-check");
    let _ = std::fs::remove_dir_all(&root);
    build::write(&root, utf8_dfa::UTF8_PATTERN).unwrap();
    build::check(&root, utf8_dfa::UTF8_PATTERN).unwrap();

    let blob = root.join(build::GENERATED_DIR).join("utf8.bigendian.dfa");
    let mut bytes = std::fs::read(&blob).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&blob, &bytes).unwrap();
    let err = build::check(&root, utf8_dfa::UTF8_PATTERN)
        .unwrap_err()
        .to_string();
    assert!(err.contains("utf8.bigendian.dfa differs"), "{err}");
    assert!(err.contains("cargo xtask gen-dfa"), "{err}");

    std::fs::remove_file(root.join(build::GENERATED_DIR).join("mod.rs")).unwrap();
    let err = build::check(&root, utf8_dfa::UTF8_PATTERN)
        .unwrap_err()
        .to_string();
    assert!(err.contains("mod.rs cannot be read"), "{err}");

    // A different pattern makes different files.
    build::write(&root, utf8_dfa::UTF8_PATTERN).unwrap();
    assert!(build::check(&root, r"(?-u:[\x00-\x7F]*)").is_err());
    let _ = std::fs::remove_dir_all(&root);
}
