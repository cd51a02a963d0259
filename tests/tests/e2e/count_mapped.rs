//! utf8-count reads large regular files through mapped windows (issue 19 item 4), small
//! ones, pipes and standard input with `read`: every way gives the same counts, on valid
//! text and on text with errors, on one thread and split across several.

use crate::util::{corpus, count, tempdir};

#[test]
fn mapped_parts_and_stdin_agree() {
    let t = tempdir();
    let d = t.path();
    // Over crate::mmap::MAP_MIN (4 MiB): mapped whole, or in parts of 4 MiB and more; 33 MiB
    // is two whole windows of 16 MiB and a part of one (without words, the counter gets each
    // window whole, and counts one of 16 MiB with the kernels' far prefetch).
    for (name, errors, len) in [
        ("valid.txt", false, 9 << 20),
        ("damaged.txt", true, 9 << 20),
        ("large.txt", true, 33 << 20),
    ] {
        let mut bytes = corpus(19, len, errors);
        // A sequence cut by where a part may begin, and an error as the very last byte.
        bytes.extend_from_slice("é\u{10000}".as_bytes());
        if errors {
            bytes.push(0xF0);
        }
        std::fs::write(d.join(name), &bytes).expect("write corpus");
        for args in [
            &["-l", "-w", "-m", "-c", "-e", "--json"][..],
            &["-l", "-m", "-c", "-e", "--json"],
        ] {
            let piped = count(d).args(args).stdin(&bytes).run();
            piped.assert_code(0);
            let piped_json = piped.out().replace("\"-\"", "\"NAME\"");
            for threads in ["1", "2", "3"] {
                let o = count(d).args(args).args(["--threads", threads, name]).run();
                assert_eq!(o.code, piped.code, "{name} {args:?} --threads {threads}");
                assert_eq!(
                    o.out().replace(&format!("\"{name}\""), "\"NAME\""),
                    piped_json,
                    "{name} {args:?} --threads {threads}: counts differ from the piped read"
                );
            }
        }
    }
}
