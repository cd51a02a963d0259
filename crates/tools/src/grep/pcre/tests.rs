//! Tests of `pcre.rs`.

use super::Pcre;

/// Every text of 1 to `most` bytes from `alphabet`.
fn texts(alphabet: &[u8], most: usize) -> Vec<Vec<u8>> {
    let mut texts = vec![Vec::new()];
    let mut all = Vec::new();
    for _ in 0..most {
        texts = texts
            .iter()
            .flat_map(|t| {
                alphabet.iter().map(move |&c| {
                    let mut t = t.clone();
                    t.push(c);
                    t
                })
            })
            .collect();
        all.extend(texts.iter().cloned());
    }
    all
}

/// Every text of up to six bytes from an alphabet with a newline, a CR, a space, letters and
/// a byte that starts no character: the search over many lines finds what the search
/// of each line finds, with `-i`, `-w` and `-x`.
#[test]
fn many_lines_find_what_each_line_finds() {
    let alphabet = [b'a', b'b', b' ', b'\n', b'\r', 0x80, b'A'];
    let patterns = [
        r"\b([a-z]+) \1\b",
        "a",
        "ab",
        r"\s+a",
        r"[^a]+b",
        r"a\n?b",
        "^",
        "^$",
        "$",
        r"^a|b$",
        r"(?s)a.b",
        r"\bb",
        r"a*",
        r"(a|b)\1",
        r"\W",
        r"[^a-c]*",
        r"(?:a|\s)*b$",
        r"\s*$",
        r"[^x]*$",
        r"\B",
        r"(?m)^a",
        r"(?i)^\S+\s",
    ];
    let all = texts(&alphabet, 6);
    for p in patterns {
        for (i, w, x) in [
            (false, false, false),
            (true, false, false),
            (false, true, false),
            (false, false, true),
        ] {
            let re = Pcre::new(&[p.as_bytes().to_vec()], i, w, x, b'\n').unwrap();
            assert!(re.many.is_some(), "{p}");
            let many = re.many.as_ref().unwrap();
            for t in &all {
                assert_eq!(
                    re.find_in_many(many, t),
                    re.line_by_line(t, 0),
                    "{p} -i {i} -w {w} -x {x} on {t:?}"
                );
            }
        }
    }
}

/// Every text of up to five bytes from an alphabet with ASCII, the two bytes of `é`, a
/// byte that starts no character and one that is never UTF-8, searched from every
/// offset: a pattern compiled by bytes ([`super::bytes::by_bytes`]) finds what the same
/// pattern finds in UTF mode, with `-w` and `-x`.
#[test]
fn patterns_by_bytes_find_what_utf_mode_finds() {
    let alphabet = [b'a', b'b', b' ', b'_', 0xC3, 0xA9, 0xFF];
    let patterns = [
        r"\b([a-z]+) \1\b",
        r"(?<=a )[a-z_]+",
        r"(?<!b)a",
        r"a \Kb",
        r"\w+",
        r"\s\w",
        r"(a|b)\1",
        r"[[:alpha:]]{2}",
        r"^\w",
        r"a$",
        r"(?=b)\w",
        r"\Bb",
        r"(?:a|b )+",
        r"[a_]+?\b",
    ];
    let all = texts(&alphabet, 5);
    for p in patterns {
        assert!(super::bytes::by_bytes(p), "{p}");
        for (w, x, wrapped) in [
            (false, false, p.to_string()),
            (true, false, format!(r"(?<!\w)(?:{p})(?!\w)")),
            (false, true, format!("^(?:{p})$")),
        ] {
            let by_bytes = Pcre::new(&[p.as_bytes().to_vec()], false, w, x, b'\n').unwrap();
            let utf = Pcre::build(&format!("(?a){wrapped}"), false, b'\n', true, true).unwrap();
            for t in &all {
                for from in 0..=t.len() {
                    assert_eq!(
                        by_bytes.find_at(t, from),
                        utf.find_at(t, from),
                        "{p} -w {w} -x {x} on {t:?} from {from}"
                    );
                }
            }
        }
    }
}
