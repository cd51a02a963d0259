//! utf8-count reads large regular files through mapped windows (issue 19 item 4), small
//! ones, pipes and standard input with `read`: every way gives the same counts, on valid
//! text and on text with errors, on one thread and split across several.

use crate::util::{corpus, count, tempdir};

#[test]
fn mapped_parts_and_stdin_agree() {
    let t = tempdir();
    let d = t.path();
    // Over crate::mmap::MAP_MIN (4 MiB): mapped whole, or in parts of 4 MiB and more.
    for (name, errors) in [("valid.txt", false), ("damaged.txt", true)] {
        let mut bytes = corpus(19, 9 << 20, errors);
        // A sequence cut by where a part may begin, and an error as the very last byte.
        bytes.extend_from_slice("é\u{10000}".as_bytes());
        if errors {
            bytes.push(0xF0);
        }
        std::fs::write(d.join(name), &bytes).expect("write corpus");
        let args = ["-l", "-w", "-m", "-c", "-e", "--json"];
        let piped = count(d).args(args).stdin(&bytes).run();
        piped.assert_code(0);
        let piped_json = piped.out().replace("\"-\"", "\"NAME\"");
        for threads in ["1", "2", "3"] {
            let o = count(d).args(args).args(["--threads", threads, name]).run();
            assert_eq!(o.code, piped.code, "{name} --threads {threads}");
            assert_eq!(
                o.out().replace(&format!("\"{name}\""), "\"NAME\""),
                piped_json,
                "{name} --threads {threads}: counts differ from the piped read"
            );
        }
    }
}
