//! Every row of the shared conformance vectors (`../shared/conformance/vectors.tsv`).

use utf8_codec::ErrorKind;

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/conformance/vectors.tsv"
);

fn hex(field: &str) -> Vec<u8> {
    field
        .split_whitespace()
        .map(|h| u8::from_str_radix(h, 16).expect("two hex digits"))
        .collect()
}

#[test]
fn conformance_vectors() {
    let Ok(text) = std::fs::read_to_string(VECTORS) else {
        eprintln!(
            "skipping conformance_vectors: {VECTORS} is absent (it lives in shared/, beside the repository)"
        );
        return;
    };
    let mut rows = 0;
    for line in text.lines().skip(1).filter(|l| !l.is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(f.len() >= 9, "short row: {line}");
        let (id, input) = (f[0], hex(f[2]));
        let valid: bool = f[3].parse().expect("true or false");
        let valid_up_to: usize = f[4].parse().expect("a length");
        let error_len: Option<usize> = (!f[5].is_empty()).then(|| f[5].parse().expect("a length"));
        let errors: Vec<(usize, usize, ErrorKind)> = f[8]
            .split(';')
            .filter(|e| !e.is_empty())
            .map(|e| {
                let p: Vec<&str> = e.split(':').collect();
                let kind =
                    ErrorKind::from_name(p[2]).unwrap_or_else(|| panic!("{id}: kind {}", p[2]));
                (p[0].parse().unwrap(), p[1].parse().unwrap(), kind)
            })
            .collect();

        let got = utf8_dfa::validate(&input);
        assert_eq!(got.is_ok(), valid, "{id}: valid");
        assert_eq!(utf8_dfa::is_valid(&input), valid, "{id}: is_valid");
        assert_eq!(
            utf8_dfa::valid_up_to(&input),
            valid_up_to,
            "{id}: valid_up_to"
        );
        if let Err(e) = got {
            assert_eq!(e.valid_up_to(), valid_up_to, "{id}: valid_up_to");
            assert_eq!(e.error_len(), error_len, "{id}: error_len");
        }
        let ours: Vec<(usize, usize, ErrorKind)> = utf8_dfa::errors(&input)
            .map(|e| (e.offset(), e.len(), e.kind()))
            .collect();
        assert_eq!(ours, errors, "{id}: errors");
        crate::common::assert_agrees(&input);
        rows += 1;
    }
    assert!(rows >= 700, "only {rows} rows in {VECTORS}");
}

/// Markus Kuhn's stress test as one input, against the shared list of its errors.
#[test]
fn conformance_kuhn_stress_test_errors() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/conformance/");
    let (Ok(input), Ok(expected)) = (
        std::fs::read(format!("{dir}UTF-8-test.txt")),
        std::fs::read_to_string(format!("{dir}UTF-8-test.errors.tsv")),
    ) else {
        eprintln!("skipping conformance_kuhn_stress_test_errors: {dir} is absent");
        return;
    };
    let expected: Vec<String> = expected
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').take(3).collect::<Vec<_>>().join(":"))
        .collect();
    let ours: Vec<String> = utf8_dfa::errors(&input)
        .map(|e| format!("{}:{}:{}", e.offset(), e.len(), e.kind()))
        .collect();
    assert_eq!(ours, expected);
    crate::common::assert_agrees(&input);
}
